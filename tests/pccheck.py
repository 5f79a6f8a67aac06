# SPDX-License-Identifier: MIT
"""Helpers for the Python checks inside the shell tests: one check line,
"0|1<TAB>description", which tap_import (tests/lib.sh) turns into TAP, and
the result schema's validator (None without python3-jsonschema)."""
import copy
import json


def ok(cond, desc):
    print("%d\t%s" % (0 if cond else 1, " ".join(str(desc).split("\n"))))


def validator(schema_path):
    try:
        import jsonschema
    except ImportError:
        return None
    return jsonschema.Draft7Validator(json.load(open(schema_path)))


def schema_ok(v, doc, what):
    """One check that doc validates (v: a validator() or None, then a
    skip line saying why), the first error's words in the description."""
    desc = "%s validates against data/schema.json" % what
    if not v:
        print("skip\t%s\tpython3-jsonschema is not installed" % desc)
        return
    errs = list(v.iter_errors(doc))
    ok(not errs, desc + (": " + errs[0].message[:200] if errs else ""))


def scale(pt, factor):
    """A point's figures (cycles, ticks, ns) times factor, in place."""
    for unit in ("cycles", "ticks", "ns"):
        for k in pt.get(unit, {}):
            pt[unit][k] *= factor


def two_cpus(d, key, e, path):
    """d with entry e under key and a copy of it under key-2, written to
    path: a file of two CPUs that measured the same."""
    d["cpus"] = {key: e, key + "-2": copy.deepcopy(e)}
    json.dump(d, open(path, "w"))


def as_allocators(pts, names, step=0.0):
    """Copies of the points pts under each allocator of names, the k-th
    allocator's figures times 1 + k * step."""
    out = []
    for k, name in enumerate(names):
        for pt in pts:
            q = copy.deepcopy(pt)
            q["allocator"] = name
            scale(q, 1 + k * step)
            out.append(q)
    return out


def allocators_file(src, dst, names, only=None, step=0.0):
    """The result src's first CPU, each probe's points (those of the
    allocator only, or all) as those of every allocator of names
    (as_allocators), on two CPUs (two_cpus), written to dst."""
    d = json.load(open(src))
    key, e = next(iter(d["cpus"].items()))
    for p in e["probes"].values():
        pts = [pt for pt in p.get("points", []) if only in (None, pt.get("allocator"))]
        p["points"] = as_allocators(pts, names, step)
    two_cpus(d, key, e, dst)
