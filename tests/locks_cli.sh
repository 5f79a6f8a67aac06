#!/bin/sh
# SPDX-License-Identifier: MIT
# The contended group from the command line: the usage errors, every row at
# 1 thread (and 2 where two CPUs are allowed) with its points valid, the
# table in the seed's shape (rows = threads, columns = lock kinds), and
# compare --by lock against the seed's tables within 80 columns.
. "${PC_SRCDIR}/tests/lib.sh"

for args in "--threads 0" "--threads x" "--placement nowhere" "--window-us 500" \
	"--cpus 0,0" "--locks -f csv" "--locks --alloc" "--cpus 0 --placement spread"; do
	# shellcheck disable=SC2086
	pc run $args -o "$pc_tmp/x.json"
	ok $(test $pc_rc -eq 2 && one_line_error && test ! -e "$pc_tmp/x.json"; echo $?) \
		"run $args: one line, exit 2, nothing written: $(cat "$pc_tmp/err")"
done
pc run -p lock.nonesuch -o "$pc_tmp/x.json"
ok $(test $pc_rc -eq 2 && grep -q "matches no row" "$pc_tmp/err"; echo $?) \
	"-p of an unknown lock row: $(cat "$pc_tmp/err")"

if emulated; then
	# qemu-user 7.2 hangs in pthread_create (i386 and arm64 alike)
	skip "threads do not start under qemu-user" "run --locks and compare --by lock"
	done_testing
	exit 0
fi
threads=1
if [ "$(nproc)" -ge 2 ]; then threads=1,2; fi
pc run -n 9 --threads $threads --window-us 200 -p 'lock.*,contended.*' -o "$pc_tmp/r.json"
ok $pc_rc "run --threads $threads: every lock and atomic row$(head -c 300 "$pc_tmp/err")"
ok $(grep -qE '^threads placement +tas +ttas +ticket +mcs +qspinlock$' "$pc_tmp/out" &&
	grep -qE '^threads placement +pspin +pmutex$' "$pc_tmp/out" &&
	grep -qE '^ +1 compact +[0-9.]+[ *] ' "$pc_tmp/out"; echo $?) \
	"the table: rows = threads, columns = lock kinds"

"$PYTHON3" - "$pc_tmp/r.json" "$PC_SRCDIR/data/schema.json" "$threads" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, math, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator
path, schema, threads = sys.argv[1], sys.argv[2], [int(t) for t in sys.argv[3].split(",")]
d = json.load(open(path))
(e,) = d["cpus"].values()
rows = ["lock." + k for k in ("tas", "ttas", "ticket", "mcs", "qspinlock", "pthread_spin",
                              "pthread_mutex")]
rows += ["contended." + k for k in ("atomic_add_return", "cmpxchg", "false_sharing", "private")]
ok(sorted(e["probes"]) == sorted(rows), "every lock and atomic row is a probe")
pts = [(n, pt) for n, p in e["probes"].items() for pt in p["points"]]
ok(sorted((n, pt["threads"]) for n, pt in pts) == sorted((n, t) for n in rows for t in threads),
   "a point per row and thread count %s" % threads)
bad = [(n, pt["threads"]) for n, pt in pts if pt["status"] not in ("ok", "noisy") or
       not all(math.isfinite(pt[m]["median"]) and pt[m]["median"] > 0
               for m in ("cycles", "ns", "ticks"))]
ok(not bad, "every point ok or noisy, its cycles, ns and ticks finite%s" % (bad and ": %s" % bad[:3] or ""))
ok(all(pt["placement"] == "compact" and len(pt["cpus"].split(",")) == pt["threads"] and
       pt["class"] and pt["nodes"] >= 1 and
       0 <= pt["fairness"]["cv"] and 0 < pt["fairness"]["max_share"] <= 1 for n, pt in pts),
   "every point: its CPUs, one a thread, class, nodes and fairness")
ok(all(pt["fairness"]["max_share"] == 1 for n, pt in pts if pt["threads"] == 1),
   "one thread takes the whole share")
ok(all(p["group"] == "contended" and p["unit"].startswith("per ") for p in e["probes"].values()),
   "the rows are the contended group, with their unit")
(run,) = e["runs"]
ok(run["contend"]["window_us"] == 200, "the run records its window")
v = validator(schema)
if v:
    errs = list(v.iter_errors(d))
    ok(not errs, "the result validates against data/schema.json%s" % (errs and ": " + errs[0].message[:200] or ""))
else:
    print("skip\tthe result validates against data/schema.json")
PY
import_checks "$pc_tmp/checks" "the result checks"

pc compare --by lock "$pc_tmp/r.json" amd-opteron-interlagos intel-xeon-westmere-ep
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$pc_tmp/out")
ok $(test $pc_rc -eq 0 && test "$w" -le 80 && grep -q '^  B = AMD Opteron (Interlagos)' "$pc_tmp/out" &&
	grep -qE '^ +2 1 .* 17141 +620 ' "$pc_tmp/out" && grep -q '^method differences:' "$pc_tmp/out";
	echo $?) "compare --by lock: the run next to the seed's Interlagos and Westmere tables, $w columns"
pc compare --by lock "$PC_SRCDIR/tests/fixtures/result.json"
ok $(test $pc_rc -eq 2 && grep -q "no lock rows" "$pc_tmp/err"; echo $?) \
	"compare --by lock without lock rows: $(cat "$pc_tmp/err")"
done_testing
