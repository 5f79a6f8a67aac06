#!/bin/sh
# SPDX-License-Identifier: MIT
# The host's pace (primcost(1), HOST PACE): every run on this machine
# records it, valid against the schema; a run filed into a file whose
# earlier runs of the CPU read a pace far below its own says "host slower"
# at the end of its table, records host_slower, and list --runs and compare
# show it; against a history far above, or with no history, it says
# nothing. An allocator run records the pace paired with its samples. The
# histories are edited copies of real runs, so nothing here depends on how
# quick the host is right now.
. "${PC_SRCDIR}/tests/lib.sh"

if emulated; then
	skip "under an emulator the pace is the emulator's" "host pace"
	done_testing
	exit
fi
probes=baseline,calib.add_chain
pc run -n 9 -q -p "$probes" -o "$pc_tmp/h.json"
ok $pc_rc "a first run$(head -c 300 "$pc_tmp/err")"
# the second one may meet a slower host: whether it does is the host's
pc run -n 9 -q -p "$probes" -o "$pc_tmp/h.json"
ok $pc_rc "a second run$(head -c 300 "$pc_tmp/err")"

# scale FILE FACTOR OUT: FILE with every run's pace multiplied by FACTOR
scale() {
	"$PYTHON3" - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    for r in e["runs"]:
        for k in ("cycles_start", "cycles_end"):
            r["pace"][k] = round(r["pace"][k] * float(sys.argv[2]), 6)
        r.pop("host_slower", None)    # the edited history's verdicts are not

json.dump(d, open(sys.argv[3], "w"))
PY
}
scale "$pc_tmp/h.json" 0.5 "$pc_tmp/quick.json"
scale "$pc_tmp/h.json" 2 "$pc_tmp/slow.json"
pc run -n 9 -p "$probes" -o "$pc_tmp/quick.json"
cp "$pc_tmp/out" "$pc_tmp/quick.txt"
ok $(test $pc_rc -eq 0 && tr '\n' ' ' <"$pc_tmp/out" | sed 's/  */ /g' |
	grep -q 'host slower: the pace read [0-9.]* cycles a call, [0-9]* % above the best of the 2 earlier runs'
	echo $?) "a run against a history whose best pace is half its own says so at the end of its table ($(grep -A2 'host slower' "$pc_tmp/out" | tr '\n' ' '))"
pc run -n 9 -p "$probes" -o "$pc_tmp/slow.json"
cp "$pc_tmp/out" "$pc_tmp/slow.txt"
ok $(test $pc_rc -eq 0 && ! grep -q 'host slower' "$pc_tmp/out"; echo $?) \
	"against a history whose best is twice its own it says nothing"
pc run -n 9 -p "$probes" -f markdown -o "$pc_tmp/quick.json"
ok $(test $pc_rc -eq 0 && grep -q '^host slower: ' "$pc_tmp/out"; echo $?) \
	"the markdown view says it too"
pc run -n 9 -q -p "$probes" -o -
cp "$pc_tmp/out" "$pc_tmp/stdout.json"
pc run -n 9 -q --allocator glibc -p alloc.malloc_free -o "$pc_tmp/alloc.json"
ok $pc_rc "an allocator run$(head -c 300 "$pc_tmp/err")"
pc list --runs "$pc_tmp/quick.json"
ok $(test $pc_rc -eq 0 && grep -c 'host slower' "$pc_tmp/out" | grep -qx 2; echo $?) \
	"list --runs marks the two slower runs, and only those"
pc list --runs -f csv "$pc_tmp/quick.json"
ok $(test $pc_rc -eq 0 && head -1 "$pc_tmp/out" | grep -q ',host_slower,' &&
	test "$(grep -c ',yes,[0-9]*,[0-9]*$' "$pc_tmp/out")" -eq 2; echo $?) \
	"list --runs -f csv has a host_slower field, yes for those two"
pc compare "$pc_tmp/slow.json@1" "$pc_tmp/quick.json@2"
ok $(test $pc_rc -le 1 && tr '\n' ' ' <"$pc_tmp/out" | sed 's/  */ /g' |
	grep -q 'B ran on a slower host: its pace read' &&
	tr '\n' ' ' <"$pc_tmp/out" | sed 's/  */ /g' | grep -q 'the host ran at another pace'
	echo $?) "compare notes the slower side, and that the two paces differ"

"$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/data/schema.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator
tmp, schema = sys.argv[1], sys.argv[2]
def runs(name):
    (e,) = json.load(open(tmp + "/" + name))["cpus"].values()
    return e["runs"]
quick, slow, h = runs("quick.json"), runs("slow.json"), runs("h.json")
(out,) = runs("stdout.json")
ok(all(r["pace"]["gauge"] and r["pace"]["cycles_start"] > 0 and
       r["pace"]["cycles_end"] > 0 and r["pace"]["ticks_start"] > 0 for r in h + [out]),
   "every run records its pace, -o - too: %s" % [
       (r["pace"]["cycles_start"], r["pace"]["cycles_end"]) for r in h + [out]])
# Calls through 64 functions take more than a cycle each and no core takes
# hundreds for one.
ok(all(0.5 < r["pace"]["cycles_end"] < 200 for r in h + [out]),
   "the pace is a plausible number of cycles a call")
hs = quick[2].get("host_slower", {})
ok(hs.get("runs") == 2 and hs["pace_cycles"] > 1.1 * hs["best_cycles"] and
   hs["pace_cycles"] == min(quick[2]["pace"]["cycles_start"], quick[2]["pace"]["cycles_end"]),
   "the slower run records host_slower: its pace, the best and the runs it was held to (%s)" % hs)
ok(not any("host_slower" in r for r in [h[0]] + slow[2:] + [out]),
   "no run of a quicker history, nor a file's first run, nor -o - records it")
(a,) = runs("alloc.json")
ok(0.5 < a["pace"]["cycles_best"] <= a["pace"]["cycles_median"] < 200,
   "an allocator run records the pace paired with its samples, best and median (%s, %s)"
   % (a["pace"]["cycles_best"], a["pace"]["cycles_median"]))
ok(not any("cycles_median" in r["pace"] for r in h + [out]),
   "the probe table's runs, whose samples it is not paired with, do not")
v = validator(schema)
if v:
    errs = [e.message for f in ("quick.json", "slow.json", "stdout.json", "alloc.json")
            for e in v.iter_errors(json.load(open(tmp + "/" + f)))]
    ok(not errs, "the files validate against data/schema.json%s" % (errs and ": " + errs[0][:200] or ""))
else:
    print("skip\tthe files validate against data/schema.json")
PY
import_checks "$pc_tmp/checks" "the host pace checks"
done_testing
