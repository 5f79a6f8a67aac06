#!/bin/sh
# SPDX-License-Identifier: MIT
# A probe whose own cost varies is not a disturbance: under a test-only
# body (tests/vary_run.c: four dependent multiplies an operation in some
# phases, five in the others, slow in 5 of 8) the run says the probe
# varies, keeps it ok, and gives its two modes and their shares; the
# probes beside it, whose cost does not vary, are not said to. Timings
# taken on a host the run itself found disturbed (tests/disturbed.py) are
# skipped with its reason; the run is tried three times first.
. "${PC_SRCDIR}/tests/lib.sh"

vary_run="${TEST_EMULATOR:+$TEST_EMULATOR }$PC_BUILDDIR/tests/vary_run"
row=$($vary_run row)
if [ -z "$row" ]; then
	skip "no test-only varying body for $PC_ARCH" "a probe whose own cost varies"
	done_testing
	exit
fi
others='calib.*,cmpxchg,xchg'
files=
for attempt in 1 2 3; do
	f=$pc_tmp/v$attempt.json
	$vary_run run -p "$others,$row" -q -o "$f" >"$pc_tmp/out" 2>"$pc_tmp/err"
	rc=$?
	[ $rc -le 1 ] && [ -s "$f" ] || break
	files="$files $f"
	"$PYTHON3" - "$f" "$row" "$PC_SRCDIR/data/schema.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator, schema_ok
f, row, schema = sys.argv[1:4]
doc = json.load(open(f))
schema_ok(validator(schema), doc, "the result")
(e,) = doc["cpus"].values()
p = e["probes"][row]
modes = p.get("modes") or []
ok(p["status"] == "ok" and p.get("varies") is True,
   "%s: ok and said to vary, not noisy (%s: %s)" % (row, p["status"], p.get("reason", "")))
ok("disturbed" not in p.get("reason", "") and "varies: its own loops" in p.get("reason", ""),
   "%s: its reason says it varies, not that the host disturbed it" % row)
# four multiplies against five: 1.25 times apart; 5 phases in 8 slow
two = len(modes) == 2
ratio = modes[1]["cycles"] / modes[0]["cycles"] if two and modes[0]["cycles"] > 0 else 0
ok(two and 1.15 <= ratio <= 1.35, "%s: two modes, 1.25 times apart (%s; %.3f)"
   % (row, ", ".join("%.2f (%.0f %%)" % (m["cycles"], 100 * m["share"]) for m in modes), ratio))
ok(two and 0.45 <= modes[1]["share"] <= 0.8 and abs(sum(m["share"] for m in modes) - 1) < 0.1,
   "%s: the slow mode's share near 5/8, the shares summing to 1 (%s)"
   % (row, [round(m["share"], 3) for m in modes]))
others = [n for n, q in e["probes"].items() if n != row and q.get("varies")]
ok(not others, "the probes beside it are not said to vary (%s)" % (others or "none"))
PY
	grep -q '^0	' "$pc_tmp/checks" && ! grep -q '^1	' "$pc_tmp/checks" && break
	diag "attempt $attempt: $(grep '^1	' "$pc_tmp/checks" | cut -f2 | head -3 | tr '\n' ' ')"
done
ok $(test $rc -le 1 && test -s "$f"; echo $?) "vary_run run exits 0 or 1 and writes its result ($(head -c 300 "$pc_tmp/err"))"
if grep -q '^1	' "$pc_tmp/checks" && why=$("$PYTHON3" "$PC_SRCDIR/tests/disturbed.py" $files); then
	while IFS='	' read -r st desc rest; do
		skip "$why" "$desc"
	done <"$pc_tmp/checks"
else
	import_checks "$pc_tmp/checks" "the varying probe's checks"
fi
done_testing
