#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/locks-stability.sh - wall time and repeatability of the contended
# group (a benchmark, not a test).
#
#   bench/locks-stability.sh [RUNS] [ARGS...]
#
# Runs `primcost run --locks ARGS` RUNS times (default 5), then prints each
# run's wall time, and per point (row and a lock's data lines as "dN",
# threads, placement) the median of
# the run medians, their spread ((max - min) / median) and each run's
# transfer gauge (cycles per one-way transfer between the point's first
# two CPUs). The last lines count the points over 5 %, then again without
# the runs whose median gauge is over 20 % from the runs' median gauge
# (their CPUs were at another distance: a host that moved the vCPUs), and
# list the points any run marked noisy, with the reason. Each run's
# contention canary is printed too (a core shared with another guest).
#
# Measured on the development VM (Zen 5, 2 vCPUs, others at work on the
# host), `bench/locks-stability.sh 5`: see the numbers in docs/design.md,
# "The contended group".
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
[ $# -gt 0 ] && shift
i=1
while [ "$i" -le "$runs" ]; do
	timed_run "$tmp/wall$i" --locks -q -o "$tmp/run$i.json" "$@" || true
	i=$((i + 1))
done
python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
walls, med, gauge, noisy, canary = [], [], [], {}, []
for i in range(1, runs + 1):
    t0, t1 = map(float, open("%s/wall%d" % (tmp, i)).read().split())
    walls.append(t1 - t0)
    (entry,) = json.load(open("%s/run%d.json" % (tmp, i)))["cpus"].values()
    m, g = {}, {}
    for name, p in entry["probes"].items():
        for pt in p.get("points", []):
            row = name + (" d%d" % pt["data_lines"] if "data_lines" in pt else "")
            key = (row, pt["threads"], pt["placement"], pt["cpus"])
            if pt["status"] == "noisy":
                noisy.setdefault(key, []).append("run %d: %s" % (i, pt.get("reason", "")))
            if pt["status"] in ("ok", "noisy") and "cycles" in pt:
                m[key] = pt["cycles"]["median"]
            if "transfer" in pt:
                g[key] = pt["transfer"]["cycles"]
    med.append(m)
    gauge.append(statistics.median(g.values()) if g else None)
    cont = entry["runs"][-1].get("contention", {})
    canary.append((cont.get("canary_cycles_best"), cont.get("canary_cycles_median")))
print("wall per run %s s (median %.2f)" % (" ".join("%.2f" % w for w in walls),
                                           statistics.median(walls)))
if all(gauge):
    print("transfer gauge per run, median over its points: %s cycles"
          % " ".join("%.0f" % x for x in gauge))
if all(b and m for b, m in canary):
    print("contention canary per run, first quartile / median: %s cycles"
          % " ".join("%.3f/%.3f" % c for c in canary))
print("%-28s %3s %-8s %10s %10s %10s %8s" % ("row", "thr", "place", "median", "min",
                                            "max", "spread"))

def spreads(sel):
    over, n = [], 0
    for key in sorted(med[0]):
        v = [m[key] for m in sel if key in m]
        if len(v) < 2:
            continue
        n += 1
        s = (max(v) - min(v)) / statistics.median(v)
        if s > 0.05:
            over.append("%s/%d %.1f%%" % (key[0], key[1], 100 * s))
    return over, n

for key in sorted(med[0]):
    v = [m[key] for m in med if key in m]
    s = (max(v) - min(v)) / statistics.median(v)
    print("%-28s %3d %-8s %10.1f %10.1f %10.1f %7.1f%%%s"
          % (key[0], key[1], key[2], statistics.median(v), min(v), max(v), 100 * s,
             "" if len(v) == runs else " (%d runs)" % len(v)))
over, n = spreads(med)
print("%d of %d points spread over 5 %%%s" % (len(over), n, over and ": " + ", ".join(over) or ""))
if all(gauge):
    mid = statistics.median(gauge)
    same = [m for m, x in zip(med, gauge) if abs(x - mid) <= 0.2 * mid]
    if len(same) < len(med):
        over, n = spreads(same)
        print("the %d runs whose gauge is within 20 %% of the median: %d of %d points "
              "over 5 %%%s" % (len(same), len(over), n, over and ": " + ", ".join(over) or ""))
for key, why in sorted(noisy.items()):
    print("noisy: %s %d threads: %s" % (key[0], key[1], "; ".join(why)))
PY
