#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/profile.sh - repeatability of the default profile (a benchmark, not a test).
#
#   bench/profile.sh [RUNS] [CPU]
#
# Runs `primcost run` RUNS times (default 10) pinned to CPU (default 1),
# then prints each run's wall time and, per probe, the median of the
# medians and the spread of the medians, (max - min) / median: over all
# runs, and over the runs in which the probe was not contended throughout
# (the contention canary found the core shared for over 3/4 of its samples).
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-10}
cpu=${2:-1}

one_run() {	# one_run I
	timed_run "$tmp/wall$1" --cpu "$cpu" -q -o "$tmp/run$1.json"
}
each_run one_run

python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
walls, med, contended = [], [], []
for i in range(1, runs + 1):
    t0, t1 = map(float, open("%s/wall%d" % (tmp, i)).read().split())
    walls.append(t1 - t0)
    (entry,) = json.load(open("%s/run%d.json" % (tmp, i)))["cpus"].values()
    ok = {n: p for n, p in entry["probes"].items() if p["status"] == "ok"}
    med.append({n: p["cycles"]["median"] for n, p in ok.items()})
    # "contended: the core was shared during N of M samples (kept them all)":
    # the probe's samples in that run are a shared core's.
    contended.append({n for n, p in ok.items() if "kept them all" in p.get("reason", "")})
print("wall time per run: min %.2f s, median %.2f s, max %.2f s (%d runs)"
      % (min(walls), statistics.median(walls), max(walls), runs))

def spread(v):
    m = statistics.median(v)
    return (max(v) - min(v)) / m if len(v) > 1 and abs(m) > 0.05 else float("nan")

print("%-24s %10s %10s %10s %9s %12s" % ("probe", "median", "min", "max", "spread",
                                          "uncontended"))
for name in med[0]:
    v = [m[name] for m in med if name in m]
    u = [m[name] for m, c in zip(med, contended) if name in m and name not in c]
    print("%-24s %10.3f %10.3f %10.3f %8.2f%% %8.2f%% %2d" %
          (name, statistics.median(v), min(v), max(v), 100 * spread(v),
           100 * spread(u), len(u)))
print("(spread: (max - min) / median of the per-run medians: over all runs, and over")
print(" the runs where the probe was not contended throughout, with their number;")
print(" n/a where the median is ~0)")
PY
