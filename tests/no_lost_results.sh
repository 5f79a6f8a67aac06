#!/bin/sh
# SPDX-License-Identifier: MIT
# No lost results: SIGINT/SIGTERM during `run` leave the results file as it
# was, or with --save-partial file what was measured, marked partial; an
# existing file that is not a valid result is refused, never overwritten;
# no temporary file is ever left behind.
. "${PC_SRCDIR}/tests/lib.sh"

no_tmp() { test -z "$(ls -a "$1" | grep '\.tmp\.')"; }

# A file holding this CPU (one sigprocmask figure) and another CPU.
pc run -p sigprocmask -n 9 -o "$pc_tmp/base.json" -q
"$PYTHON3" - "$pc_tmp/base.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(key, entry), = d["cpus"].items()
other = json.loads(json.dumps(entry))
other["cpu"]["brand"] = "Other CPU"
d["cpus"]["x86_64.other.1-2-3.other-cpu"] = other
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
cp "$pc_tmp/base.json" "$pc_tmp/orig.json"

# Starts a long run in the background, waits until its --status-fd lines
# show it measuring (SHARES "round" lines: with 2, the first probe has its
# first round's samples), sends a signal. Sets run_rc and run_s (seconds
# from the signal to the exit).
interrupt() {	# interrupt SIGNAL SHARES ARGS...
	sig=$1
	shares=$2
	shift 2
	rm -f "$pc_tmp/status"
	$PRIMCOST run -n 200001 --ring0 none --status-fd 3 "$@" \
		>"$pc_tmp/out" 2>"$pc_tmp/err" 3>"$pc_tmp/status" &
	pid=$!
	wait_for_lines "$pc_tmp/status" '^round 1/' "$shares" 300 $pid ||
		diag "no sign of measuring within 300 s: $(tail -1 "$pc_tmp/status" 2>/dev/null)"
	t0=$(date +%s)
	kill -s "$sig" $pid
	wait $pid
	run_rc=$?
	run_s=$(( $(date +%s) - t0 ))
}

if emulated; then
	skip "signals under an emulator take too long to test here" "interrupted runs"
	done_testing
	exit
fi

interrupt INT 1 -o "$pc_tmp/base.json" -q
ok $(test $run_rc -eq 130; echo $?) "SIGINT during run: exit 130 (got $run_rc)"
ok $(test $run_s -le 5; echo $?) "... promptly (${run_s} s after the signal)"
ok $(cmp -s "$pc_tmp/base.json" "$pc_tmp/orig.json"; echo $?) "... the existing file is exactly as it was"
ok $(no_tmp "$pc_tmp"; echo $?) "... and no temporary file is left"
ok $(one_line_error && grep -q "interrupted by SIGINT" "$pc_tmp/err" && grep -q "base.json" "$pc_tmp/err"; echo $?) \
	"... one line on stderr naming the signal and the file: $(cat "$pc_tmp/err")"

interrupt TERM 1 -o "$pc_tmp/base.json" -q
ok $(test $run_rc -eq 143 && cmp -s "$pc_tmp/base.json" "$pc_tmp/orig.json"; echo $?) \
	"SIGTERM during run: exit 143, the existing file exactly as it was"

interrupt HUP 1 -o "$pc_tmp/new.json" -q
ok $(test $run_rc -eq 129 && test ! -e "$pc_tmp/new.json" && no_tmp "$pc_tmp"; echo $?) \
	"SIGHUP during a run to a new file: exit 129, no file created, no temporary file"

interrupt INT 1 -o - -q
ok $(test $run_rc -eq 130 && test ! -s "$pc_tmp/out"; echo $?) "SIGINT during run -o -: exit 130, nothing on stdout"

# The signal comes once the second probe's first round begins: the first
# has samples to file.
interrupt TERM 2 -o "$pc_tmp/base.json" -q --save-partial -p 'baseline,calib.*,cmpxchg,xchg,sigprocmask'
ok $(test $run_rc -eq 143; echo $?) "SIGTERM with --save-partial: exit 143 (got $run_rc)"
ok $(one_line_error && grep -q "saved (marked partial)" "$pc_tmp/err"; echo $?) \
	"... one line on stderr says what was saved: $(cat "$pc_tmp/err")"
ok $(no_tmp "$pc_tmp"; echo $?) "... and no temporary file is left"
"$PYTHON3" - "$pc_tmp/base.json" "$pc_tmp/orig.json" "$PC_SRCDIR/data/schema.json" \
	>"$pc_tmp/checks" <<'PY'
import json, sys
doc, orig = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
import os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator
try:
    import jsonschema
    errs = list(jsonschema.Draft7Validator(json.load(open(sys.argv[3]))).iter_errors(doc))
    ok(not errs, "the partial file validates against data/schema.json%s"
       % (": " + errs[0].message if errs else ""))
except ImportError:
    print("skip\tthe partial file validates against data/schema.json")
ok(doc["cpus"].get("x86_64.other.1-2-3.other-cpu") == orig["cpus"]["x86_64.other.1-2-3.other-cpu"],
   "the other CPU's entry is kept unchanged")
key = [k for k in orig["cpus"] if k != "x86_64.other.1-2-3.other-cpu"][0]
e = doc["cpus"][key]
run = e["runs"][-1]
ok(len(e["runs"]) == 2 and run.get("partial") is True and run.get("interrupted_by") == "SIGTERM",
   "the run is appended, marked partial, interrupted by SIGTERM")
part = {k: p for k, p in e["probes"].items() if p.get("run") == 1}
measured = {k: p for k, p in part.items() if p.get("samples")}
ok(measured and all(p["status"] == "ok" and p.get("partial") is True and p["samples"] < 200001
                    for p in measured.values()),
   "%d probes filed, each ok, marked partial, with the samples it had (%s)"
   % (len(measured), ", ".join("%s %d" % (k, p["samples"]) for k, p in sorted(measured.items()))))
ok(not any(p["status"] == "skipped" and p.get("partial") for p in e["probes"].values()),
   "no probe the run did not reach is filed")
sp = e["probes"].get("sigprocmask", {})
ok(sp == orig["cpus"][key]["probes"]["sigprocmask"] or sp.get("run") == 1,
   "sigprocmask keeps its earlier figure unless the run measured it")
PY
tab=$(printf '\t')
while IFS="$tab" read -r st desc; do
	case $st in
	skip) skip "python3-jsonschema is not installed" "$desc" ;;
	*) ok "$st" "$desc" ;;
	esac
done <"$pc_tmp/checks"
pc run -p baseline -n 9 -o "$pc_tmp/base.json" -q
ok $(test $pc_rc -eq 0; echo $?) "primcost reads the partial file back and merges into it"

# Existing files that are not valid results: refused, named, untouched.
printf '{"schema": "primcost-result/1", "cpus": {' >"$pc_tmp/truncated.json"
printf '{"schema": "primcost-result/99", "cpus": {}}\n' >"$pc_tmp/future.json"
"$PYTHON3" - "$pc_tmp/orig.json" "$pc_tmp/badfigure.json" "$pc_tmp/badkey.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = next(iter(d["cpus"].values()))
e["probes"]["sigprocmask"]["cycles"]["median"] = "fast"
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["cpus"]["a\nkey with a newline"] = 7
json.dump(d, open(sys.argv[3], "w"))
PY
printf '\000\001\002 not json' >"$pc_tmp/binary.json"
mkdir "$pc_tmp/dir.json"
for f in truncated future badfigure badkey binary dir; do
	path="$pc_tmp/$f.json"
	[ -f "$path" ] && cp "$path" "$pc_tmp/before"
	pc run -p baseline -n 9 -o "$path" -q
	same=0
	[ -f "$path" ] && { cmp -s "$path" "$pc_tmp/before"; same=$?; }
	ok $(test $pc_rc -eq 2 && one_line_error && grep -q "$f.json" "$pc_tmp/err" && test $same -eq 0; echo $?) \
		"merging into $f.json is refused, exit 2, one line naming it, file untouched: $(cat "$pc_tmp/err")"
done
ok $(no_tmp "$pc_tmp"; echo $?) "no temporary file is left by the refusals"
done_testing
