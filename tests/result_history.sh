#!/bin/sh
# SPDX-License-Identifier: MIT
# The result file's promises: writers take turns (no run lost), a row that
# was not measured never hides a figure, -o through a symbolic link writes
# its target, runs are addressable (FILE@N, @latest, @DATE, list --runs),
# "-" reads standard input, and small gaps said in one line.
. "${PC_SRCDIR}/tests/lib.sh"

py() { "$PYTHON3" - "$@"; }
t=$pc_tmp

pc run -q -n 21 -p cmpxchg,mb -o "$t/par.json"
ok $pc_rc "a first run into par.json"

# ---- 1. concurrent writers: 4 started together, every run and probe lands.
# All four are started, then each is waited for by its PID (no fixed sleep).
run_one() { $PRIMCOST run -q -n 21 -p cmpxchg,mb -o "$t/par.json" >"$t/w$1.out" 2>&1; }
all_at_once run_one 1 2 3 4
ok $failed "4 concurrent runs into one file all exit 0"
py "$t/par.json" >"$t/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
runs = e["runs"]
have = {k: set(r.get("probes", {})) for k, r in enumerate(runs)}
for name, p in e["probes"].items():
    have[p["run"]].add(name)
print(len(runs), all(have[k] == {"cmpxchg", "mb"} for k in have))
PY
set -- $(cat "$t/check")
ok $(test "$1" = 5 && test "$2" = True; echo $?) \
	"the file holds all 5 runs and each run's cmpxchg and mb (got: $*)"
ok $(test -z "$(ls "$t" | grep '\.tmp\.')"; echo $?) "no temporary file is left behind"

# ---- 2. only measurements replace measurements.
# Ring 0 is not reachable from here: the first file gets an ok
# local_irq_save built from a real figure (cmpxchg's, as ring 0).
py "$t/par.json" "$t/irq.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
fig = json.loads(json.dumps(e["probes"]["cmpxchg"]))
fig.update(ring=0, group="irq")
e["probes"]["local_irq_save"] = fig
json.dump(d, open(sys.argv[2], "w"))
PY
# (The run measures the baseline too: a run that measures nothing is not
# saved.)
pc run -q -n 21 -p local_irq_save,baseline --ring0 none -o "$t/irq.json"
ok $pc_rc "a run where ring 0 is unavailable (--ring0 none)"
py "$t/irq.json" >"$t/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
cur = e["probes"]["local_irq_save"]
last = e["runs"][-1].get("probes", {}).get("local_irq_save", {})
print(cur["status"], cur["run"] < len(e["runs"]) - 1, last.get("status", "none"))
PY
set -- $(cat "$t/check")
ok $(test "$1" = ok && test "$2" = True; echo $?) \
	"the ok local_irq_save stays current (got: $1, from an older run: $2)"
ok $(test "$3" = skipped || test "$3" = unsupported; echo $?) \
	"the row the new run did not measure is in that run's own record ($3)"
pc compare "$t/irq.json@latest" "$t/irq.json"
ok $(test $pc_rc -eq 0 && grep -q "local_irq_save: run .* did not measure it" "$t/out"; echo $?) \
	"compare notes that a newer run did not measure the figure shown"
ok $(grep -Eq "^local_irq_save +(skipped|unsupported) +[0-9]" "$t/out"; echo $?) \
	"FILE@latest shows what the newest run recorded, FILE the figure"
# Runs of one date (older files wrote it to the second) are told apart by
# their order in the file.
py "$t/irq.json" "$t/same.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
for r in e["runs"]:
    r["date"] = "2026-12-01T15:17:14Z"
json.dump(d, open(sys.argv[2], "w"))
PY
pc compare "$t/same.json@latest" "$t/same.json"
ok $(test $pc_rc -eq 0 && grep -q "local_irq_save: run .* did not measure it" "$t/out"; echo $?) \
	"runs of one second: compare still notes the newer run that did not measure the figure"
py "$t/irq.json" >"$t/check" <<'PY'
import json, re, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
print(all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r["date"]) for r in e["runs"]))
PY
ok $(test "$(cat "$t/check")" = True; echo $?) "runs are dated to the millisecond"

# merge follows the rule: the file whose newest row is not measured merged
# into an empty one, and the other way round, keep the figure current.
k=$(py "$t/irq.json" <<'PY'
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
print(e["probes"]["local_irq_save"]["run"])
PY
)
for order in "latest $k" "$k latest"; do
	set -- $order
	rm -f "$t/m.json"
	pc merge -q -o "$t/m.json" "$t/irq.json@$1" "$t/irq.json@$2"
	ok $(test $pc_rc -eq 0 && py "$t/m.json" <<'PY'
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
assert len(e["runs"]) == 2
p = e["probes"]["local_irq_save"]
assert p["status"] == "ok", p["status"]
(rec,) = [r["probes"]["local_irq_save"] for r in e["runs"] if "probes" in r]
assert rec["status"] != "ok"
PY
	echo $?) "merge of @$1 then @$2: the figure stays current, the newer row is in its run"
done

# A file written before the rule, its figure hidden in history: the next
# run brings it back.
py "$t/irq.json" "$t/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
cur = e["probes"]["local_irq_save"]
last = len(e["runs"]) - 1
rec = e["runs"][last]["probes"].pop("local_irq_save")
k = cur.pop("run")
e["runs"][k].setdefault("probes", {})["local_irq_save"] = cur
rec["run"] = last
e["probes"]["local_irq_save"] = rec
json.dump(d, open(sys.argv[2], "w"))
PY
pc run -q -n 21 -p mb -o "$t/old.json"
ok $(test $pc_rc -eq 0 && py "$t/old.json" <<'PY'
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
assert e["probes"]["local_irq_save"]["status"] == "ok"
PY
echo $?) "a figure an older primcost hid under a skipped row is current again"

# ---- 3. -o through a symbolic link writes the target.
cp "$t/par.json" "$t/2026-12-01.json"
ln -s 2026-12-01.json "$t/latest.json"
pc run -q -n 21 -p mb -o "$t/latest.json"
ok $(test $pc_rc -eq 0 && test -L "$t/latest.json" &&
	test "$(readlink "$t/latest.json")" = 2026-12-01.json &&
	py "$t/2026-12-01.json" <<'PY'
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
assert len(e["runs"]) == 6, len(e["runs"])
PY
echo $?) "-o latest.json through a symbolic link: the link stays, its target gets the run"
mkdir "$t/sub"
ln -s sub/new.json "$t/dangling.json"
pc run -q -n 21 -p mb -o "$t/dangling.json"
ok $(test $pc_rc -eq 0 && test -L "$t/dangling.json" && test -f "$t/sub/new.json"; echo $?) \
	"a link to a file not yet there: the file is created where it points"

# ---- 4. runs addressable.
pc compare "$t/par.json@0" "$t/par.json"
ok $(test $pc_rc -eq 0 && grep -q "A = .*par.json@0" "$t/out" && grep -q "^cmpxchg" "$t/out"; echo $?) \
	"compare old.json@0 new.json"
pc compare --format json "$t/par.json@0" "$t/par.json@latest"
ok $(test $pc_rc -eq 0 && py "$t/out" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
s = m["tables"][0]["sides"]
assert s[0]["runs_used"] == 1 and s[1]["runs_used"] == 1, s
PY
echo $?) "FILE@N and FILE@latest each give one run (runs_used 1)"
day=$(py "$t/par.json" <<'PY'
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
print(e["runs"][0]["date"][:10])
PY
)
pc compare "$t/par.json@$day" "$t/par.json@0"
ok $(test $pc_rc -eq 0; echo $?) "FILE@YYYY-MM-DD picks that day's run ($day)"
pc compare "$t/par.json@1999-01-01" "$t/par.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "no run on that day" "$t/err"; echo $?) \
	"a day without a run: one line, exit 2"
pc compare "$t/par.json@99" "$t/par.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "runs 0\.\.4" "$t/err"; echo $?) \
	"a run number beyond the file: one line naming the runs, exit 2"
cp "$t/par.json" "$t/at@1"
pc compare "$t/at@1" "$t/par.json@1"
ok $(test $pc_rc -eq 0 && grep -q "A = .*at@1:" "$t/out" && ! grep -q "mixes" "$t/out" ||
	grep -q "A mixes" "$t/out"; echo $?) "a file really named at@1 is that file"
pc compare "$t/old.json" "$t/par.json@0"
ok $(grep -q "note: A mixes runs: its figures come from [23] runs" "$t/out"; echo $?) \
	"compare says when a side mixes runs"
pc list --runs "$t/par.json"
ok $(test $pc_rc -eq 0 && test "$(grep -Ec '^ +[0-9]+  20[0-9-]+T' "$t/out")" = 5; echo $?) \
	"list --runs shows the 5 runs with their dates"
pc list --runs -f json "$t/par.json"
ok $(test $pc_rc -eq 0 && py "$t/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["run"] for r in rows] == [0, 1, 2, 3, 4]
assert all(r["measured"] == 2 and r["host"] and r["kernel"] and r["primcost_version"]
           for r in rows), rows
PY
echo $?) "list --runs -f json: run, host, kernel, version, 2 probes measured each"
pc list --runs
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "list --runs without a file: one line, exit 2"

# A partial run (--save-partial) among older figures: compare says so. The
# run marked is the one cmpxchg's figures come from (on a loaded host the
# newest run may have measured it noisy and left an older run's).
py "$t/par.json" "$t/partial.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
e["runs"][e["probes"]["cmpxchg"].get("run", -1)].update(partial=True, interrupted_by="SIGINT")
json.dump(d, open(sys.argv[2], "w"))
PY
pc compare "$t/partial.json" "$t/par.json"
ok $(grep -q "note: A is partial: .* interrupted by SIGINT" "$t/out"; echo $?) \
	"compare says when a side's figures come from a partial run"

# ---- raw samples: a file of arrays (an older primcost's) packed by merge,
# then merged again with the arrays: the same figures, nothing changes.
fx="$PC_SRCDIR/tests/fixtures/result.json"
pc merge -q -o "$t/packed.json" "$fx"
ok $(test $pc_rc -eq 0 && py "$t/packed.json" <<'PY'
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
raw = e["probes"]["baseline"]["raw"]
assert all(isinstance(v, str) and v.startswith("dz1:") for v in raw.values()), raw
PY
echo $?) "merge packs the raw arrays of an older file"
cp "$t/packed.json" "$t/packed.orig"
pc merge -q -o "$t/packed.json" "$fx"
ok $(test $pc_rc -eq 0 && cmp -s "$t/packed.json" "$t/packed.orig"; echo $?) \
	"the arrays merged into their packed copy are the same figures: nothing changes"
pc compare --format json "$fx" "$t/packed.json"
ok $(test $pc_rc -eq 0 && py "$t/out" "$PC_SRCDIR/tests" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
row = [r for r in m["tables"][0]["rows"] if r["probe"] == "baseline"][0]
a, b = row["cells"]
assert a["raw_samples"] == b["raw_samples"] > 0 and b["p"] == 1, (a, b)
PY
echo $?) "compare reads arrays and packed samples alike (same count, p = 1)"

# ---- 5. standard input, -f with -o -, empty files.
pc compare - "$t/par.json@0" <"$t/par.json"
ok $(test $pc_rc -eq 0 && grep -q "A = -:" "$t/out"; echo $?) "compare - FILE reads standard input"
pc compare - - <"$t/par.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "standard input given twice" "$t/err"; echo $?) \
	"standard input twice: one line, exit 2"
pc merge -q -o "$t/fromstdin.json" - <"$t/par.json"
ok $(test $pc_rc -eq 0 && cmp -s "$t/fromstdin.json" "$t/par.json"; echo $?) \
	"merge - reads standard input"
: >"$t/empty.json"
pc compare "$t/empty.json" "$t/par.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "empty.json: empty file" "$t/err"; echo $?) \
	"an empty file says \"empty file\""
pc run -q -o - -f csv
ok $(test $pc_rc -eq 2 && one_line_error && grep -q -- "-f csv with -o -" "$t/err" &&
	test ! -s "$t/out"; echo $?) "run -o - -f csv is refused in one line, nothing measured"

# Dates are RFC 3339 in UTC: to the millisecond, to the second, a leap day.
for d in 2026-12-04T18:59:01.123Z 2026-12-04T18:59:01Z 2024-02-29T00:00:00Z; do
	"$PYTHON3" - "$PC_SRCDIR/tests/fixtures/result.json" "$t/dated.json" "$d" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    e["runs"][-1]["date"] = sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))
PY
	pc list --runs "$t/dated.json"
	ok $(test $pc_rc -eq 0 && grep -q "${d%%T*}" "$t/out"; echo $?) "the run date $d is read"
done
pc compare "$PC_SRCDIR/tests/hostile/date-words.json" "$PC_SRCDIR/tests/fixtures/result.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'date: not a date' "$t/err"; echo $?) \
	"a run date that is not a date is refused, naming the field"
done_testing
