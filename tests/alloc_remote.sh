#!/bin/sh
# SPDX-License-Identifier: MIT
# The allocator group's remote pattern (run --remote): objects allocated
# on one CPU and freed on another. Where two CPUs are allowed, the test
# allocator's remote points, at each placement: every free counted at the
# far end by the allocator itself (objects = freed_far), on two CPUs, the
# near end's mallocs showing the slow mode with mass 1/K and the far end's
# frees none, the figures positive, the table and the result valid; a
# count that misses frees fails every point, saying so; alloc.* alone is
# still the default run's three rows. Where one CPU is allowed, --remote
# is refused in one line. Threads never start under qemu-user: skipped.
. "${PC_SRCDIR}/tests/lib.sh"
lib=$PC_BUILDDIR/tests/libpctestalloc.so

if [ -n "${TEST_EMULATOR:-}" ]; then
	skip "threads do not start under $TEST_EMULATOR" "the remote pattern"
	done_testing
	exit
fi
cpus=$("$PYTHON3" -c 'import os; print(len(os.sched_getaffinity(0)))')
if [ "$cpus" -lt 2 ]; then
	pc run --remote -o "$pc_tmp/r.json"
	ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'needs two CPUs' "$pc_tmp/err" &&
	     test ! -e "$pc_tmp/r.json"; echo $?) \
		"one CPU allowed: --remote is refused in one line: $(cat "$pc_tmp/err")"
	done_testing
	exit
fi

PRIMCOST_TEST_ALLOCATOR=$lib PRIMCOST_TEST_ALLOCATOR_EVERY=10 \
	pc run --allocator test --remote -p 'alloc.remote.*' -n 9 -o "$pc_tmp/r.json"
ok $(test $pc_rc -le 1 && test -s "$pc_tmp/r.json"; echo $?) \
	"run --allocator test --remote$(head -c 300 "$pc_tmp/err")"
cp "$pc_tmp/out" "$pc_tmp/table"
PRIMCOST_TEST_ALLOCATOR=$lib PRIMCOST_TEST_ALLOCATOR_MISCOUNT=1 \
	pc run --allocator test --remote -p alloc.remote.free -n 9 -q -o "$pc_tmp/m.json"
ok $(test $pc_rc -eq 1; echo $?) "a count of frees that misses some: the run exits 1"
pc run --alloc -p 'alloc.*' -n 9 -q -o "$pc_tmp/d.json"
ok $pc_rc "-p 'alloc.*'$(head -c 300 "$pc_tmp/err")"

"$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/data/schema.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, validator, schema_ok
tmp, v = sys.argv[1], validator(sys.argv[2])
doc = json.load(open(tmp + "/r.json"))
(e,) = doc["cpus"].values()
schema_ok(v, doc, "the remote result")
pts = {r: e["probes"][r]["points"] for r in ("alloc.remote.malloc", "alloc.remote.free")}
allp = pts["alloc.remote.malloc"] + pts["alloc.remote.free"]
ok(len(pts["alloc.remote.malloc"]) == len(pts["alloc.remote.free"]) >= 12 and
   all(p["placement"] in ("compact", "spread") and len(set(p["cpus"].split(","))) == 2
       and p.get("class") for p in allp),
   "every size at each placement (%d points a row), on two CPUs: %s" % (
   len(pts["alloc.remote.malloc"]), sorted(set((p["placement"], p["cpus"], p["class"]) for p in allp))))
measured = [p for p in allp if p["status"] in ("ok", "noisy")]
ok(measured and all(p["objects"] > 0 and p["freed_far"] == p["objects"] for p in measured),
   "every free counted at the far end by the allocator itself: %d of %d points, %d objects "
   "each" % (len(measured), len(allp), measured[0]["objects"] if measured else 0))
ok(all(p["cycles"]["median"] > 0 for p in measured), "the figures are positive")
def mass(p):
    spin = 20 * 1000 * p["cycles"]["median"] / p["ns"]["median"]
    l = p["latency"]
    return sum(n for lo, n in l["histogram"]["buckets"] if 0.9 * spin <= lo < 4 * spin) / l["calls"]
near = [mass(p) for p in pts["alloc.remote.malloc"] if p in measured]
far = [mass(p) for p in pts["alloc.remote.free"] if p in measured]
ok(near and all(0.095 <= m <= 0.108 for m in near),
   "the near end's mallocs: the slow mode with mass 1/10 (%.4f to %.4f)" % (min(near), max(near)))
ok(far and all(m <= 0.003 for m in far), "the far end's frees: none (%.4f at most)" % max(far))
m = json.load(open(tmp + "/m.json"))
(e,) = m["cpus"].values()
bad = e["probes"]["alloc.remote.free"]["points"]
ok(bad and all(p["status"] == "failed" and "frees counted there" in p.get("reason", "")
               for p in bad),
   "a count of frees that misses some fails every point: %s" % (bad[0].get("reason", "") if bad else "-"))
d = json.load(open(tmp + "/d.json"))
(e,) = d["cpus"].values()
ok(sorted(e["probes"]) == ["alloc.free", "alloc.malloc", "alloc.malloc_free"],
   "-p 'alloc.*' is the default run's three rows: %s" % sorted(e["probes"]))
PY
import_checks "$pc_tmp/checks" "the remote pattern's checks"
ok $(grep -q '^remote: objects allocated on one CPU' "$pc_tmp/table" &&
     grep -qE '^ +size +malloc +free +p99 malloc +p99 free' "$pc_tmp/table"; echo $?) \
	"the table: the remote points by size, malloc and free with their p99"
done_testing
