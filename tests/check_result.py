#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""TAP checks of one `primcost run` result file.

usage: check_result.py RESULT.json SCHEMA.json PROBES.def
                       [--emulated|--no-timing|--disturbed REASON]

The calibrated cycles come from the dependent add chain, so calib.add_chain
reads 1.00 by construction and only shows the calibration is stable; the
independent checks of the method are baseline (0.00: the differential
cancels everything but the body) and calib.mul_chain (3.00: another
instruction, whose latency nobody calibrated).
"""
import json
import re
import sys

n = 0
failed = 0


def ok(cond, desc, detail=None):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, desc))
    if not cond:
        failed += 1
        if detail:
            print("#   " + detail)


def skip(reason, desc):
    global n
    n += 1
    print("ok %d - %s # SKIP %s" % (n, desc, reason))


path, schema_path, defs = sys.argv[1:4]
emulated = "--emulated" in sys.argv
# --no-timing: the figures are a stand-in's (tests of the runner protocol)
no_timing = "--no-timing" in sys.argv
# --disturbed REASON: the runs recorded a host too disturbed to measure
# (tests/disturbed.py): the timing checks skip with that reason
disturbed = sys.argv[sys.argv.index("--disturbed") + 1] if "--disturbed" in sys.argv else None
doc = json.load(open(path))
schema = json.load(open(schema_path))

try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema is None:
    skip("python3-jsonschema is not installed", "result validates against data/schema.json")
else:
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(doc))
    ok(not errors, "result validates against data/schema.json (jsonschema %s)"
       % jsonschema.__version__, errors[0].message if errors else None)

ok(len(doc["cpus"]) == 1, "a fresh run holds one CPU")
(key, entry), = doc["cpus"].items()
probes = entry["probes"]
rows = re.findall(r'^PC_PROBE\(\w+, "([^"]+)"', open(defs).read(), re.M)
ok(sorted(probes) == sorted(rows), "every row of probes.def is in the result, and nothing else")
# Ring-0 rows are measured only where ring 0 ran: behind the host's
# validation gate (KVM, the kernel module), or in a probe runner's
# system-mode image, which runs only in a simulator (Ski) and is then an
# emulated, unreliable run. The popf form of local_irq_restore is x86's.
run = entry["runs"][-1]
ring0 = run.get("ring0") or {}
arch = entry["cpu"]["arch"]
system_image = run.get("runner_mode") == "user+system"
for name in [r for r in rows if r.startswith("local_irq_")]:
    p = probes[name]
    if name.endswith(".popf") and arch not in ("x86_64", "i386"):
        ok(p["status"] == "unsupported" and p.get("reason"),
           "%s is unsupported on %s, with a reason (%s)" % (name, arch, p["status"]))
    elif ring0.get("trusted"):
        ok(p["status"] == "ok", "%s is measured in ring 0 (%s; trusted by the gate)"
           % (name, p["status"]))
    elif system_image:
        ok(p["status"] == "ok" and run.get("emulated") is True and run.get("unreliable") is True,
           "%s is measured in the runner's system image (%s), in an emulated, unreliable run"
           % (name, p["status"]))
    else:
        ok(p["status"] in ("skipped", "unsupported") and p.get("reason"),
           "%s is %s with a reason, not absent" % (name, p["status"]))
# A native run pairs every sample with the contention canary and records
# its reference (the runner has no canary: runner_mode says it ran one).
if "runner_mode" not in run and not (run.get("options") or {}).get("keep_contended"):
    con = run.get("contention") or {}
    ok((con.get("canary_cycles_best") or 0) > 0 and
       (con.get("canary_cycles_median") or 0) >= con.get("canary_cycles_best", 0),
       "the contention canary ran and its reference is recorded (best %s, median %s)"
       % (con.get("canary_cycles_best"), con.get("canary_cycles_median")))
failed_probes = [k for k, v in probes.items() if v["status"] == "failed"]
ok(not failed_probes, "no probe failed", ", ".join(failed_probes))

if emulated:
    ok(run.get("unreliable") is True and run.get("unreliable_reason"),
       "the tool itself marks an emulated run unreliable (%s)" % run.get("unreliable_reason"))
# NAME.llsc rows are arm64's LL/SC forms: measured there, unsupported with a
# reason elsewhere.
for name in [r for r in rows if r.endswith(".llsc")]:
    p = probes[name]
    want = ("ok",) if arch == "arm64" else ("unsupported",)
    ok(p["status"] in want and (p["status"] == "ok" or p.get("reason")),
       "%s is %s on %s" % (name, p["status"], arch), p.get("reason"))
c64 = probes["cmpxchg64"]
ok(c64["status"] == ("ok" if arch == "i386" else "unsupported"),
   "cmpxchg64 is %s on %s (lock cmpxchg8b: an i386 row)" % (c64["status"], arch),
   c64.get("reason"))
if emulated or no_timing or disturbed or run.get("unreliable"):
    why = ("emulated" if emulated else "a stand-in's made-up figures" if no_timing
           else "the host was too disturbed to measure: " + disturbed if disturbed
           else run.get("unreliable_reason", "unreliable"))
    for d in ("baseline reads 0.00 +- 0.05 cycles", "calib.add_chain reads 1.00 +- 0.03 cycles",
              "calib.mul_chain reads 3.00 +- 0.10 cycles"):
        skip("timings mean nothing here: " + why, d)
else:
    def med(name):
        return probes[name]["cycles"]["median"]
    b, a, m = med("baseline"), med("calib.add_chain"), med("calib.mul_chain")
    ok(abs(b) <= 0.05, "baseline reads 0.00 +- 0.05 cycles (independent check: %.4f)" % b)
    ok(abs(a - 1) <= 0.03, "calib.add_chain reads 1.00 +- 0.03 cycles (by construction; %.4f)" % a)
    if arch in ("x86_64", "i386"):
        ok(abs(m - 3) <= 0.10, "calib.mul_chain reads 3.00 +- 0.10 cycles (independent check: %.4f)" % m)
    else:
        skip("multiply latency differs between %s cores (2 to 5 cycles)" % arch,
             "calib.mul_chain reads 3.00 +- 0.10 cycles")
    lin = probes["calib.add_chain"].get("linearity")
    ok(lin is not None and abs(lin - 2) <= 0.2, "doubling the add chain doubles its time (%s)" % lin)
    ok(probes["cmpxchg"]["cycles"]["median"] > probes["calib.add_chain"]["cycles"]["median"],
       "a locked cmpxchg costs more than an add")
print("1..%d" % n)
sys.exit(1 if failed else 0)
