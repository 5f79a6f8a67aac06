#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/alloc-dist-time.sh - the time of the default allocator run
# (`primcost run --alloc`: glibc, 36 points) with this build against a
# previous one, side by side in one run of the script (a benchmark, not a
# test): what each point's single calls (the latency distributions) cost.
#
#   bench/alloc-dist-time.sh OLD [RUNS] [CPU]
#
# OLD is the previous build's primcost (another worktree's, built there).
# Runs the two RUNS times each (default 7), alternating, pinned to CPU
# (default 1), and prints each run's wall and CPU time, the medians of
# each build and their ratio (this build over OLD: it must stay under 1.2),
# then `primcost compare` of the two builds' last runs: the medians the
# distributions must leave where they were.
set -eu
. "$(dirname "$0")/lib.sh"
old=${1:?usage: bench/alloc-dist-time.sh OLD [RUNS] [CPU]}
runs=${2:-7}
cpu=${3:-1}

one() {	# one BUILD PROG I
	/usr/bin/time -f '%U %S' -o "$tmp/$1.cpu$3" \
		sh -c 't0=$(date +%s.%N); "$@"; echo "$t0 $(date +%s.%N)" >"$0"' \
		"$tmp/$1.wall$3" $2 run --alloc --cpu "$cpu" -q -o "$tmp/$1.run$3.json"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$runs" ]; do
	one old "$old" "$i"
	one new "$prog" "$i"
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$runs" <<'PY'
import statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
med = {}
for build in ("old", "new"):
    walls, cpus = [], []
    for i in range(1, runs + 1):
        t0, t1 = map(float, open("%s/%s.wall%d" % (tmp, build, i)).read().split())
        walls.append(t1 - t0)
        cpus.append(sum(map(float, open("%s/%s.cpu%d" % (tmp, build, i)).read().split()[-2:])))
    med[build] = (statistics.median(walls), statistics.median(cpus))
    print("%s: wall %s s; CPU %s s; medians %.2f s wall, %.2f s CPU" % (
        build, " ".join("%.2f" % w for w in walls), " ".join("%.2f" % c for c in cpus),
        med[build][0], med[build][1]))
print("this build over the previous: wall %.2f, CPU %.2f (must stay under 1.2)" % (
    med["new"][0] / med["old"][0], med["new"][1] / med["old"][1]))
PY
$prog compare --color never "$tmp/old.run$runs.json" "$tmp/new.run$runs.json" | tail -n +1
