#!/bin/sh
# bench/profile.sh - repeatability of the default profile (a benchmark, not a test).
#
#   bench/profile.sh [RUNS] [CPU]
#
# Runs `primcost run` RUNS times (default 10) pinned to CPU (default 1),
# then prints each run's wall time and, per probe, the median of the
# medians and the spread of the medians, (max - min) / median.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10}
cpu=${2:-1}
prog=${PRIMCOST:-./primcost}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

i=1
while [ "$i" -le "$runs" ]; do
	t0=$(date +%s.%N)
	$prog run --cpu "$cpu" -q -o "$tmp/run$i.json"
	t1=$(date +%s.%N)
	echo "$t0 $t1" >"$tmp/wall$i"
	i=$((i + 1))
done

python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
walls, med = [], {}
for i in range(1, runs + 1):
    t0, t1 = map(float, open("%s/wall%d" % (tmp, i)).read().split())
    walls.append(t1 - t0)
    (entry,) = json.load(open("%s/run%d.json" % (tmp, i)))["cpus"].values()
    for name, p in entry["probes"].items():
        if p["status"] == "ok":
            med.setdefault(name, []).append(p["cycles"]["median"])
print("wall time per run: min %.2f s, median %.2f s, max %.2f s (%d runs)"
      % (min(walls), statistics.median(walls), max(walls), runs))
print("%-24s %10s %10s %10s %8s" % ("probe", "median", "min", "max", "spread"))
for name, v in med.items():
    m = statistics.median(v)
    spread = (max(v) - min(v)) / m if abs(m) > 0.05 else float("nan")
    print("%-24s %10.3f %10.3f %10.3f %7.2f%%" % (name, m, min(v), max(v), 100 * spread))
print("(spread: (max - min) / median of the per-run medians; n/a where the median is ~0)")
PY
