#!/bin/sh
# SPDX-License-Identifier: MIT
# Contained probes: a probe that traps (SIGILL, SIGSEGV, SIGBUS, SIGFPE) or
# hangs fails with the signal and the instruction named, and the run goes on
# with every other probe measured. The trapping bodies are test-only
# (tests/trap_run.c); primcost itself never has them.
. "${PC_SRCDIR}/tests/lib.sh"

trap_run="${TEST_EMULATOR:+$TEST_EMULATOR }$PC_BUILDDIR/tests/trap_run"
$trap_run map >"$pc_tmp/map"
if [ ! -s "$pc_tmp/map" ]; then
	skip "no test-only trapping bodies for $PC_ARCH" "trapping probes are contained"
	done_testing
	exit
fi
# The test bodies live in tests/trap_run only.
pc list -v
ok $(test $pc_rc -eq 0 && ! grep -q 'test-only' "$pc_tmp/out"; echo $?) \
	"primcost list shows no test-only body"
ok $(${NM:-nm} "$PC_BUILDDIR/primcost" 2>/dev/null | grep -w pc_test_bodies | grep -qv ' [wvU] '; test $? -ne 0; echo $?) \
	"primcost defines no test bodies (only the weak reference that stays NULL)"
trapped=$(awk '{ printf "%s%s", sep, $1; sep = "," }' "$pc_tmp/map")
others='baseline,calib.*,cmpxchg,atomic_add_return,xchg,rmb,smp_mb,smp_wmb,flags_restore'
limit=2
start=$(date +%s)
$trap_run run -p "$others,$trapped" -n 81 --keep-contended --probe-timeout $limit -o "$pc_tmp/t.json" -q \
	>"$pc_tmp/out" 2>"$pc_tmp/err"
rc=$?
wall=$(( $(date +%s) - start ))
ok $(test $rc -eq 1; echo $?) "the run completes and exits 1 (a probe failed), not killed by a signal (exit $rc)"
# (but the note, where perf_event_open is missing, that disturbed samples
# cannot be detected)
ok $(! grep -v '^primcost: run: disturbed samples cannot be detected: ' "$pc_tmp/err" | grep -q .; echo $?) \
	"nothing on stderr but the disturbance note ($(head -c 300 "$pc_tmp/err"))"
ok $(test -s "$pc_tmp/t.json"; echo $?) "the result file is written"
ok $(test "$wall" -lt $((limit + 30)); echo $?) "the hanging probe is stopped by --probe-timeout $limit (run took $wall s)"
ok $(test -z "$(ls "$pc_tmp" | grep '\.tmp\.')"; echo $?) "no temporary file is left"

# The checks of the file, one "STATUS<tab>DESCRIPTION" line each.
"$PYTHON3" - "$pc_tmp/t.json" "$pc_tmp/map" "$others" "$PC_SRCDIR/data/schema.json" \
	>"$pc_tmp/checks" <<'PY'
import fnmatch, json, os, sys
doc = json.load(open(sys.argv[1]))
(key, entry), = doc["cpus"].items()
probes = entry["probes"]
import os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator
for line in open(sys.argv[2]):
    name, sig, word = line.split()
    p = probes.get(name, {})
    reason = p.get("reason", "")
    if sig == "SIGALRM":
        ok(p.get("status") == "failed" and "time limit" in reason and word in reason,
           "%s (hangs) failed: stopped by the time limit, at the instruction: %s" % (name, reason))
    else:
        ok(p.get("status") == "failed" and sig in reason and word in reason,
           "%s failed with %s and the instruction named: %s" % (name, sig, reason))
late = probes.get("smp_rmb", {}).get("reason", "")
ok(late.startswith("trapped in round "),
   "a trap in the middle of the rounds is contained too: %s" % late)
for pat in sys.argv[3].split(","):
    for name in sorted(fnmatch.filter(probes, pat)):
        p = probes[name]
        d = p.get("discarded", {})
        # a probe sampled again counts its discards over every sampling
        ok(p["status"] in ("ok", "noisy") and
           (p["samples"] + d.get("contended", 0) + d.get("slow_late", 0) +
            d.get("short_by", 0) == 81 or
            (d.get("resampled", 0) > 0 and 0 < p["samples"] <= 81)),
           "%s, measured after the traps, has a figure and all its samples, "
           "but for those dropped after sampling (%s, %s)"
           % (name, p["status"], p.get("samples")))
mul = probes["calib.mul_chain"]["cycles"]["median"]
run = entry["runs"][-1]
desc = "the measurements around the traps still make sense (calib.mul_chain %.3f cycles)" % mul
sys.path.insert(0, os.path.join(os.environ["PC_SRCDIR"], "tests"))
from disturbed import why_disturbed
why = None if 2.5 < mul < 3.5 else why_disturbed(sys.argv[1])
if why:
    print("skip\t%s\tthe run recorded a host too disturbed to measure: %s" % (desc, why))
else:
    ok(2.5 < mul < 3.5, desc)
try:
    import jsonschema
    errs = list(jsonschema.Draft7Validator(json.load(open(sys.argv[4]))).iter_errors(doc))
    ok(not errs, "the file validates against data/schema.json")
except ImportError:
    print("skip\tthe file validates against data/schema.json\tpython3-jsonschema is not installed")
PY
tab=$(printf '\t')
while IFS="$tab" read -r st desc why; do
	case $st in
	skip) skip "$why" "$desc" ;;
	*) ok "$st" "$desc" ;;
	esac
done <"$pc_tmp/checks"
ok $(test -s "$pc_tmp/checks"; echo $?) "the result file could be checked"
done_testing
