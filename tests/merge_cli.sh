#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost merge: a fleet's files into one, every run kept, the newest
# current, atomic, and never a clobbered or half-written output.
. "${PC_SRCDIR}/tests/lib.sh"

cc() { "$PYTHON3" "$PC_SRCDIR/tests/check_compare.py" "$@"; }

pc merge --help
ok $(test $pc_rc -eq 0 && grep -q "usage: primcost merge" "$pc_tmp/out"; echo $?) "merge --help"
pc merge "$PC_SRCDIR/data/reference/intel-pentium4.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q -- "-o" "$pc_tmp/err"; echo $?) \
	"merge without -o: one-line error, exit 2"
pc merge -o "$pc_tmp/m.json"
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "merge without inputs: one-line error, exit 2"

# Three hosts: two of the same model on different days, one other model.
pc run -q -n 21 -p 'cmpxchg,xchg,mb' -o "$pc_tmp/run.json"
ok $pc_rc "a small run to build the fleet from"
cc rekey "$pc_tmp/run.json" "$pc_tmp/h1.json" x86_64.test.1-2-3.model-a host1 2026-01-01T00:00:00Z
cc rekey "$pc_tmp/run.json" "$pc_tmp/h2.json" x86_64.test.1-2-3.model-a host2 2026-03-01T00:00:00Z
cc scale "$pc_tmp/h2.json" "$pc_tmp/h2.json" cmpxchg 2
cc rekey "$pc_tmp/run.json" "$pc_tmp/h3.json" x86_64.test.4-5-6.model-b host3 2026-02-01T00:00:00Z
pc merge -o "$pc_tmp/fleet.json" "$pc_tmp/h2.json" "$pc_tmp/h1.json" "$pc_tmp/h3.json"
ok $(test $pc_rc -eq 0 && grep -q "3 files" "$pc_tmp/out"; echo $?) "merge of three files: exit 0, a summary line"
"$PYTHON3" - "$pc_tmp/fleet.json" "$pc_tmp/h1.json" "$pc_tmp/h2.json" >"$pc_tmp/check" 2>&1 <<'PY'
import json, sys
f, h1, h2 = (json.load(open(p)) for p in sys.argv[1:4])
a = f["cpus"]["x86_64.test.1-2-3.model-a"]
hosts = sorted(r["host"] for r in a["runs"])
cur = a["probes"]["cmpxchg"]
old = [r for r in a["runs"] if r["host"] == "host1"][0]["probes"]["cmpxchg"]
def same(x, y):  # figures are written with 7 significant digits
    return abs(x["cycles"]["median"] - y["cycles"]["median"]) <= 1e-6 * abs(y["cycles"]["median"])
print(len(f["cpus"]), hosts == ["host1", "host2"],
      a["runs"][cur["run"]]["host"] == "host2",
      same(cur, h2["cpus"]["x86_64.test.1-2-3.model-a"]["probes"]["cmpxchg"]),
      same(old, h1["cpus"]["x86_64.test.1-2-3.model-a"]["probes"]["cmpxchg"]))
PY
set -- $(cat "$pc_tmp/check")
ok $(test "$1" = 2; echo $?) "two models in the merged file"
ok $(test "$2" = True; echo $?) "both runs of the same model are kept"
ok $(test "$3" = True && test "$4" = True; echo $?) "the newest run (host2, March) is current, whatever the input order"
ok $(test "$5" = True; echo $?) "the figure it replaced is kept in host1's run"
if "$PYTHON3" -c 'import jsonschema' 2>/dev/null; then
	ok $("$PYTHON3" -c '
import json, sys, jsonschema
jsonschema.Draft7Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))
' "$pc_tmp/fleet.json" "$PC_SRCDIR/data/schema.json" >/dev/null 2>&1; echo $?) \
		"the merged file validates against data/schema.json"
else
	skip "python3-jsonschema is not installed" "the merged file validates against data/schema.json"
fi

# Merging into an existing OUT accumulates; the same runs again add nothing.
cp "$pc_tmp/fleet.json" "$pc_tmp/fleet.orig"
pc merge -o "$pc_tmp/fleet.json" "$pc_tmp/h1.json" "$pc_tmp/h3.json"
ok $(test $pc_rc -eq 0 && cmp -s "$pc_tmp/fleet.json" "$pc_tmp/fleet.orig"; echo $?) \
	"merging runs OUT already holds changes nothing"

# One bad input: nothing written, OUT untouched.
printf '{"schema": "primcost-result/1", "cpus": [' >"$pc_tmp/bad.json"
pc merge -o "$pc_tmp/fleet.json" "$pc_tmp/h1.json" "$pc_tmp/bad.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q bad.json "$pc_tmp/err" &&
	cmp -s "$pc_tmp/fleet.json" "$pc_tmp/fleet.orig"; echo $?) \
	"a bad input: one-line error naming it, exit 2, OUT untouched"
printf '{"not": "primcost"}\n' >"$pc_tmp/foreign.json"
cp "$pc_tmp/foreign.json" "$pc_tmp/foreign.orig"
pc merge -o "$pc_tmp/foreign.json" "$pc_tmp/h1.json"
ok $(test $pc_rc -eq 2 && one_line_error && cmp -s "$pc_tmp/foreign.json" "$pc_tmp/foreign.orig"; echo $?) \
	"an OUT that is not a result is refused and left untouched"
pc merge -o - "$pc_tmp/h1.json" "$pc_tmp/h3.json"
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["cpus"]) == 2' "$pc_tmp/out"; echo $?) \
	"merge -o - writes the merged JSON to stdout"
ok $(test -z "$(ls "$pc_tmp" | grep '\.tmp\.')"; echo $?) "no temporary file is left behind"

# Fleet against fleet: CPUs paired by model key. xchg is made slower by more
# than its own spread (beyond q3/q1 of every CPU), so that the verdict is
# "slower" whatever the host did during the run: this checks the pairing,
# not the timing; its figures are taken as clean (status ok, no spread),
# since a busy host may have made them noisy.
cc clean "$pc_tmp/fleet.json" "$pc_tmp/fleet.json" xchg
factor=$("$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [e["probes"]["xchg"]["cycles"] for e in d["cpus"].values()]
print(1.5 * max([1.0] + [x["q3"] / x["q1"] if x["q1"] > 0 else 10.0 for x in c]))' "$pc_tmp/fleet.json")
cc scale "$pc_tmp/fleet.json" "$pc_tmp/fleet2.json" xchg "$factor"
pc compare --format json "$pc_tmp/fleet.json" "$pc_tmp/fleet2.json"
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["paired"] and len(m["tables"]) == 2
for t in m["tables"]:
    assert t["sides"][0]["cpu"] == t["sides"][1]["cpu"] == t["title"]
    r = [x for x in t["rows"] if x["probe"] == "xchg"][0]
    assert r["cells"][1]["verdict"] == "slower"
' "$pc_tmp/out"; echo $?) "compare of two fleet files pairs their CPUs by model key"
done_testing
