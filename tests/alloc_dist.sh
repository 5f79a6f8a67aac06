#!/bin/sh
# SPDX-License-Identifier: MIT
# Each allocator point's distribution of single calls, checked where it
# cannot be tuned: the test allocator (tests/libpctestalloc.so, run
# --allocator test) takes a known slow path, a spin of 20 us, on every
# K-th malloc, and at K = 10 and K = 200 the malloc+free points'
# distributions must show that mode with mass 1/K (the calls between the
# spin and four times it), the free points' none at K = 200 (their mallocs
# are untimed); p99 and p99.9 fall on the side of the mode their mass says;
# the histogram holds every call, the percentiles are in order, and the
# result validates; compare --stat p99 finds K = 10 slower than K = 200.
# The test allocator is refused without its variable.
. "${PC_SRCDIR}/tests/lib.sh"
lib=$PC_BUILDDIR/tests/libpctestalloc.so

pc run --allocator test -o "$pc_tmp/x.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'PRIMCOST_TEST_ALLOCATOR' "$pc_tmp/err" &&
     test ! -e "$pc_tmp/x.json"; echo $?) \
	"--allocator test without PRIMCOST_TEST_ALLOCATOR: one line, exit 2: $(cat "$pc_tmp/err")"

# A point whose samples the engine cannot keep on a busy host fails (exit
# 1), and its calls are then not timed; the points measured are checked.
# The free row only at K = 200: at K = 10 its untimed mallocs spin 8 times
# a batch, and on a busy host the engine keeps few of its points.
for k in 10 200; do
	rows=alloc.malloc_free
	[ $k -eq 200 ] && rows=$rows,alloc.free
	PRIMCOST_TEST_ALLOCATOR=$lib PRIMCOST_TEST_ALLOCATOR_EVERY=$k \
	PRIMCOST_TEST_ALLOCATOR_SLOW_US=20 \
		pc run --allocator test -p $rows -n 9 -q -o "$pc_tmp/k$k.json"
	ok $(test $pc_rc -le 1 && test -s "$pc_tmp/k$k.json"; echo $?) \
		"run --allocator test, every ${k}th malloc slow$(head -c 300 "$pc_tmp/err")"
done

"$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/data/schema.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator, schema_ok
tmp, v = sys.argv[1], validator(sys.argv[2])
slow_us = 20
for k in (10, 200):
    doc = json.load(open("%s/k%d.json" % (tmp, k)))
    (e,) = doc["cpus"].values()
    run = e["runs"][-1]
    schema_ok(v, doc, "K = %d: the result" % k)
    if run.get("unreliable"):
        print("skip\tK = %d: the slow mode's mass\t%s" % (k, "the run is marked unreliable "
              "(%s): its single calls are not the CPU's" % run.get("unreliable_reason")))
        continue
    for row, want in (("alloc.malloc_free", 1.0 / k), ("alloc.free", 0.0))[:1 if k == 10 else 2]:
        bad, masses, order, total, failed = [], [], [], [], []
        for p in e["probes"][row]["points"]:
            l = p.get("latency")
            if not l and p["status"] == "failed":
                failed.append(p["size"])
                continue
            if not l:
                bad.append("%d: no latency (%s)" % (p["size"], p["status"]))
                continue
            # the spin in cycles, by the point's own cycles per ns
            spin = slow_us * 1000 * p["cycles"]["median"] / p["ns"]["median"]
            b = l["histogram"]["buckets"]
            mode = sum(n for lo, n in b if 0.9 * spin <= lo < 4 * spin) / l["calls"]
            masses.append(mode)
            if not (0.95 * want <= mode <= 1.05 * want + 0.003):
                bad.append("%d: %.4f" % (p["size"], mode))
            if not (l["p50"] <= l["p90"] <= l["p99"] <= l["p99.9"] <= l["max"]):
                order.append(p["size"])
            if sum(n for lo, n in b) != l["calls"]:
                total.append(p["size"])
            if row == "alloc.malloc_free" and k == 10 and not l["p99"] >= 0.9 * spin:
                bad.append("%d: p99 %.0f below the spin %.0f" % (p["size"], l["p99"], spin))
            if row == "alloc.malloc_free" and k == 200 and not l["p99.9"] >= 0.9 * spin:
                bad.append("%d: p99.9 %.0f below the spin %.0f" % (p["size"], l["p99.9"], spin))
        ok(len(masses) >= 6 and not bad, "K = %d, %s: the slow mode's mass is %s at every "
           "size measured, %d of 12 (%.4f to %.4f)%s" % (k, row,
           "1/K = %.4f" % want if want else "none", len(masses), min(masses or [0]),
           max(masses or [0]), "; wrong: " + ", ".join(bad[:4]) if bad else ""))
        ok(masses and not order and not total, "K = %d, %s: p50 <= p90 <= p99 <= p99.9 <= max, "
           "and the histogram holds every call%s" % (k, row, (" (not at %s %s)" % (order, total))
           if order or total else ""))
PY
import_checks "$pc_tmp/checks" "the distributions' checks"

# compare --stat p99 judges the tail as it judges medians: every 10th
# malloc slow against every 200th is slower at every size compared.
pc compare --stat p99 --color never "$pc_tmp/k200.json" "$pc_tmp/k10.json"
ok $(test $pc_rc -le 1 && grep -q 'cycles per call at p99 of single calls' "$pc_tmp/out"
     echo $?) "compare --stat p99 says what it judges"
pc compare --stat p99 -f csv "$pc_tmp/k200.json" "$pc_tmp/k10.json"
# The pairs whose two sides stand (state and status ok on both): their B
# side's verdicts. A side the host disturbed is noisy, and compare rightly
# does not judge it: such a pair is left out, and said.
set -- $("$PYTHON3" -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["probe"].startswith("alloc.malloc_free.test.")]
side = {(r["probe"], r["side"]): r for r in rows}
pairs = [p for (p, s) in side if s == "B" and (p, "A") in side]
good = [p for p in pairs if all(side[p, s]["state"] == "ok" and side[p, s]["status"] == "ok" for s in "AB")]
slower = [p for p in good if side[p, "B"]["verdict"] == "slower"]
print(len(slower), len(good), len(pairs) - len(good))' "$pc_tmp/out")
n=${1:-0} m=${2:-0} left=${3:-0}
# an emulated run's single calls are the emulator's: no verdict to expect
why=$("$PYTHON3" -c 'import json, sys
for f in sys.argv[1:]:
    (e,) = json.load(open(f))["cpus"].values()
    if e["runs"][-1].get("unreliable"):
        print("the run is marked unreliable (%s)" % e["runs"][-1].get("unreliable_reason"))
        break' "$pc_tmp/k10.json" "$pc_tmp/k200.json")
desc="compare --stat p99: K = 10 against K = 200 is slower at every size ($n of $m; $left left out, a side noisy or failed)"
if [ -n "$why" ]; then
	skip "$why: its single calls are not the CPU's" "$desc"
else
	ok $(test $pc_rc -le 1 && test "$m" -ge 6 && test "$n" -eq "$m"; echo $?) "$desc"
fi
pc compare --stat p99 "$PC_SRCDIR/data/reference/intel-pentium4.json" \
	"$PC_SRCDIR/data/reference/amd-athlon64-x2-3800.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'no row of the files has single calls' \
     "$pc_tmp/err"; echo $?) "compare --stat p99 of files without single calls: one line, exit 2"
pc compare --stat p99 -m ns "$pc_tmp/k10.json" "$pc_tmp/k200.json"
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) \
	"--stat p99 with --metric ns: a usage error: $(cat "$pc_tmp/err")"
done_testing
