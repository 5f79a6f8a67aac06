#!/bin/sh
# SPDX-License-Identifier: MIT
# Sequential stopping (engine/method.h, PC_STOP_*), as the result records
# it, whatever the host's pace: with --until-known the run records the
# rule, and each probe took the floor's samples, then whole rounds of the
# rest, stopping before the ceiling only when marked known; without it
# (-n 21) every probe took the count, and none is known. Which probes are known depends on the host and is not asserted;
# tests/unit_engine asserts the rule and the engine's stopping.
. "${PC_SRCDIR}/tests/lib.sh"

rows='calib.*,cmpxchg,mb,smp_mb,sigprocmask'
pc run -p "$rows" --until-known -q -o "$pc_tmp/seq.json"
ok $(test $pc_rc -le 1 && test -s "$pc_tmp/seq.json"; echo $?) \
	"run --until-known$(head -c 300 "$pc_tmp/err")"
pc run -p "$rows" -n 21 -q -o "$pc_tmp/fixed.json"
ok $(test $pc_rc -le 1 && test -s "$pc_tmp/fixed.json"; echo $?) \
	"run -n 21$(head -c 300 "$pc_tmp/err")"

"$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/data/schema.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, sys, os
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator, schema_ok
tmp, v = sys.argv[1], validator(sys.argv[2])
ROUNDS = 10

def asked(p):
    """The samples the engine was asked for: kept ones, and those it lost
    or the host dropped after sampling."""
    d = p.get("discarded", {})
    return p["samples"] + d.get("short_by", 0) + d.get("contended", 0) + d.get("slow_late", 0)

for name, fixed in (("seq", None), ("fixed", 21)):
    doc = json.load(open("%s/%s.json" % (tmp, name)))
    schema_ok(v, doc, "%s: the result" % name)
    (e,) = doc["cpus"].values()
    rule = e["runs"][-1]["options"].get("stopping")
    probes = {n: p for n, p in e["probes"].items() if p["status"] in ("ok", "noisy")}
    # a probe sampled again (noisy) started afresh: its count is its last sampling's
    plain = {n: p for n, p in probes.items() if not p.get("discarded", {}).get("resampled")}
    if fixed:
        ok(rule == {"rule": "fixed"}, "without --until-known: the run records a fixed count (%s)" % rule)
        known = sorted(n for n, p in probes.items() if p.get("known"))
        ok(probes and not known, "without --until-known: no probe is known (%d probes; known: %s)"
           % (len(probes), known or "none"))
        bad = ["%s %d" % (n, asked(p)) for n, p in plain.items() if asked(p) != fixed]
        ok(plain and not bad, "-n 21: every probe took 21 samples, %d of %d not sampled "
           "again (%s)" % (len(plain), len(probes), "; ".join(bad) or "all 21"))
        continue
    want = {"rule": "sequential", "floor": 31, "ceiling": 501, "confidence": 0.95,
            "precision": 0.005, "precision_cycles": 0.02}
    ok(rule == want, "--until-known: the run records the rule, its floor, ceiling, "
       "confidence and precisions (%s)" % rule)
    ceiling = want["ceiling"]
    # the floor's pass, then the rounds of the rest
    floor = want["floor"]
    ends = [floor] + [floor + (ceiling - floor) * (r + 1) // ROUNDS for r in range(ROUNDS)]
    bad = []
    for n, p in plain.items():
        a = asked(p)
        if p.get("known"):
            if not (a in ends and want["floor"] <= a < ceiling):
                bad.append("%s known at %d" % (n, a))
        elif a != ceiling:
            bad.append("%s not known at %d" % (n, a))
    ok(plain and not bad, "--until-known: each probe's samples end the floor's pass or a "
       "round of the rest; a known one's under the ceiling, any other's at it, %d probes "
       "(known: %s)%s" % (len(plain), ", ".join("%s %d" % (n, asked(p)) for n, p in
       sorted(plain.items()) if p.get("known")) or "none",
       "; wrong: " + ", ".join(bad) if bad else ""))
PY
import_checks "$pc_tmp/checks" "the stopping checks"
done_testing
