#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost compare on real runs and on files made from them: two runs of the
# same binary read "same" everywhere; a made-up regression is found, gates
# CI, and is coloured only when asked; every format; the option errors.
. "${PC_SRCDIR}/tests/lib.sh"

cc() { "$PYTHON3" "$PC_SRCDIR/tests/check_compare.py" "$@"; }
ref="$PC_SRCDIR/data/reference"

pc compare --help
ok $(test $pc_rc -eq 0 && grep -q "usage: primcost compare" "$pc_tmp/out"; echo $?) "compare --help"
pc help compare
ok $(test $pc_rc -eq 0 && grep -q "usage: primcost compare" "$pc_tmp/out"; echo $?) "help compare"
pc compare
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "compare without files: one-line error, exit 2"
for bad in "--metric furlongs" "--format xml" "--threshold -1" "--threshold 5x" \
	"--color sometimes" "--alpha 0" "--alpha 0.9" "--bogus" "--cpu"; do
	# shellcheck disable=SC2086
	pc compare $bad "$ref/intel-pentium4.json" "$ref/intel-pentium4.json"
	ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "compare $bad: one-line error, exit 2 ($(cat "$pc_tmp/err"))"
done
pc compare "$pc_tmp/nosuch.json" "$ref/intel-pentium4.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "nosuch.json" "$pc_tmp/err"; echo $?) \
	"a missing file: one-line error naming it, exit 2"

# Real runs of this binary, raw samples kept, back to back. A host busy
# with other work (make -j check runs tests side by side; a shared VM has
# neighbours whose load comes and goes for seconds at a time) really does
# slow some probes by more than 3 % between two runs: then compare is right
# to say so. So up to 4 runs are taken and every pair compared: a pair that
# ran in the same conditions must read same everywhere. If no pair did, the
# check fails, unless every run recorded a host too disturbed to measure
# (tests/disturbed.py): then it skips with that record.
best=
bestn=999
k=0
found=0
while [ $k -lt 4 ] && [ $found -eq 0 ]; do
	k=$((k + 1))
	pc run -k -q -o "$pc_tmp/run$k.json"
	if [ $pc_rc -ne 0 ]; then
		ok 1 "runs with --keep-samples succeed ($(cat "$pc_tmp/err"); failed: $(grep -h -A1 '"status": "failed"' "$pc_tmp/run$k.json" 2>/dev/null | tr -d '\n' | cut -c1-300))"
		done_testing
		exit
	fi
	j=0
	while [ $j -lt $((k - 1)) ] && [ $found -eq 0 ]; do
		j=$((j + 1))
		pc compare --format json "$pc_tmp/run$j.json" "$pc_tmp/run$k.json"
		cp "$pc_tmp/out" "$pc_tmp/pair.json"
		set -- $(cc verdicts "$pc_tmp/pair.json")
		diag "runs $j and $k: $1 slower, $2 faster, $3 same"
		if [ $(($1 + $2)) -lt $bestn ]; then
			bestn=$(($1 + $2))
			best="$j $k"
			cp "$pc_tmp/run$j.json" "$pc_tmp/a.json"
			cp "$pc_tmp/run$k.json" "$pc_tmp/b.json"
			cp "$pc_tmp/pair.json" "$pc_tmp/ab.json"
		fi
		[ $(($1 + $2)) -eq 0 ] && found=1
	done
	emulated && [ $k -ge 2 ] && break	# emulated timings differ anyway
done
set -- $(cc verdicts "$pc_tmp/ab.json")
if emulated; then
	skip "timings under an emulator mean nothing" "two runs of the same binary: every probe same"
elif [ $found -eq 0 ] && why=$("$PYTHON3" "$PC_SRCDIR/tests/disturbed.py" "$pc_tmp"/run[0-9].json); then
	skip "every one of $k runs recorded a disturbed host ($why; closest pair, runs $best: $1 slower, $2 faster; largest move $(cc largest "$pc_tmp/ab.json"))" \
		"two runs of the same binary: every probe same"
else
	ok $(test "$1" -eq 0 && test "$2" -eq 0 && test "$3" -gt 10; echo $?) \
		"two runs of the same binary: every probe same ($1 slower, $2 faster, $3 same; runs $best of $k)"
fi
quiet=$(test "$1" -eq 0 && test "$2" -eq 0 && echo 1 || echo 0)
diag "run-to-run on this machine: $(cc cell "$pc_tmp/ab.json" cmpxchg 1 delta_pct) % on cmpxchg"
ok $(test "$(cc cell "$pc_tmp/ab.json" cmpxchg 1 test)" = mann-whitney; echo $?) \
	"raw samples on both sides: the verdict comes from the Mann-Whitney U test"

# A made-up 20 % regression of cmpxchg and 20 % gain of xchg.
cc scale "$pc_tmp/a.json" "$pc_tmp/slow.json" cmpxchg 1.2
cc scale "$pc_tmp/slow.json" "$pc_tmp/slow.json" xchg 0.8
pc compare --format json "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 0 && test "$(cc cell "$pc_tmp/out" cmpxchg 1 verdict)" = slower &&
	test "$(cc cell "$pc_tmp/out" xchg 1 verdict)" = faster; echo $?) \
	"a 20 % slower cmpxchg reads slower, a 20 % faster xchg reads faster"
pc compare --fail-on-regression "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 1; echo $?) "--fail-on-regression: exit 1 on a regression"
pc compare --fail-on-regression "$pc_tmp/slow.json" "$pc_tmp/a.json"
ok $(test $pc_rc -eq 1; echo $?) "--fail-on-regression the other way: xchg regressed, exit 1"
cc scale "$pc_tmp/a.json" "$pc_tmp/fast.json" cmpxchg 0.8
pc compare --fail-on-regression "$pc_tmp/a.json" "$pc_tmp/fast.json"
ok $(test $pc_rc -eq 0; echo $?) "--fail-on-regression: exit 0 when only faster"
pc compare --fail-on-regression "$pc_tmp/a.json" "$pc_tmp/b.json"
if emulated; then
	skip "timings under an emulator mean nothing" "--fail-on-regression: exit 0 between two runs"
elif [ "$quiet" -eq 0 ]; then
	skip "no quiet pair of runs (see above)" "--fail-on-regression: exit 0 between two runs"
else
	ok $(test $pc_rc -eq 0; echo $?) "--fail-on-regression: exit 0 between two runs of the same binary"
fi
pc compare --fail-on-regression --threshold 25 "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 0; echo $?) "--threshold 25: a 20 % difference is no verdict"

# Colour only when asked or on a terminal (stdout here is a file).
esc=$(printf '\033')
pc compare "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(! grep -q "$esc" "$pc_tmp/out"; echo $?) "--color auto: no escape codes into a file"
pc compare --color always "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(grep -q "$esc\[1;31mslower" "$pc_tmp/out"; echo $?) "--color always: slower in red"
NO_COLOR=1 $PRIMCOST compare --color never "$pc_tmp/a.json" "$pc_tmp/slow.json" >"$pc_tmp/out" 2>&1
ok $(! grep -q "$esc" "$pc_tmp/out"; echo $?) "--color never: no escape codes"

# Formats.
pc compare "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 0 && grep -q '^cmpxchg .*slower' "$pc_tmp/out" &&
	grep -q '^geomean' "$pc_tmp/out" && grep -q 'slower, .* faster, .* same' "$pc_tmp/out"; echo $?) \
	"--format table: rows, verdicts, geomean, summary"
pc compare --format markdown "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 0 && grep -q '^| probe |' "$pc_tmp/out" &&
	grep -q '^| `cmpxchg` |.*\*\*slower\*\*' "$pc_tmp/out"; echo $?) "--format markdown"
pc compare --format csv "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = [x for x in rows if x["probe"] == "cmpxchg" and x["side"] == "B"][0]
assert r["verdict"] == "slower" and abs(float(r["ratio"]) - 1.2) < 1e-3, r
' "$pc_tmp/out"; echo $?) "--format csv: one row per probe and side, ratio 1.2"
pc compare --format json "$pc_tmp/a.json" "$pc_tmp/slow.json"
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["schema"] == "primcost-compare/1" and m["metric"] == "cycles"
assert m["tables"][0]["geomean"][1]["probes"] > 10
' "$pc_tmp/out"; echo $?) "--format json: the model, with its geomean"

# Against the Itanium 2 reference: cycles on both sides, ticks handled.
pc compare "$pc_tmp/a.json" "$ref/intel-itanium2-9050.json"
cp "$pc_tmp/out" "$pc_tmp/itanium.txt"
ok $(test $pc_rc -eq 0 && grep -q '^cmpxchg .* 12\.02 ' "$pc_tmp/out" &&
	grep -q 'ar.itc ticks at 400 MHz' "$pc_tmp/out"; echo $?) \
	"against the Itanium 2: cmpxchg in core cycles (4 x 3.004 ar.itc ticks = 12.02), provenance shown"
pc compare --metric ticks --format json "$pc_tmp/a.json" "$ref/intel-itanium2-9050.json"
ok $(test "$(cc cell "$pc_tmp/out" cmpxchg 1 median)" = 3.00415 &&
	grep -q 'ticks of different timers are not comparable' "$pc_tmp/out"; echo $?) \
	"--metric ticks: the published ar.itc ticks, with a warning that timers differ"
pc compare --metric ns --format json "$pc_tmp/a.json" "$ref/intel-pentium4.json"
ok $(test $pc_rc -eq 0 && test "$(cc cell "$pc_tmp/out" cmpxchg_local 1 state)" = no-metric; echo $?) \
	"--metric ns against the Pentium 4 (clock not stated): n/a, not an invented figure"
diag "run against the Itanium 2 reference:"
sed 's/^/#   /' "$pc_tmp/itanium.txt"
done_testing
