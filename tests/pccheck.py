# SPDX-License-Identifier: MIT
"""Helpers for the Python checks inside the shell tests: one check line,
"0|1<TAB>description", which tap_import (tests/lib.sh) turns into TAP, and
the result schema's validator (None without python3-jsonschema)."""
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
