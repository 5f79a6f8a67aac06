#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/disturbance.sh - what discarding disturbed samples costs and buys
# (a benchmark, not a test).
#
#   bench/disturbance.sh [RUNS] [CPU]
#
# Runs the default profile RUNS times (default 6) in each mode, alternating:
# with the default check (perf::context-switches and perf::cpu-migrations
# counted around every sample; disturbed samples discarded and retaken) and
# with --keep-disturbed (no counters). Prints the wall time of each mode,
# the samples discarded per run, and per probe the spread of the medians
# across runs, (max - min) / median, in each mode.
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-6}
cpu=${2:-1}

both_modes() {	# both_modes I: run I with the check, then with --keep-disturbed
	for mode in check keep; do
		flag=
		[ $mode = keep ] && flag=--keep-disturbed
		timed_run "$tmp/wall-$mode$1" --cpu "$cpu" -q $flag \
			-o "$tmp/$mode$1.json"
	done
}
each_run both_modes

python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
res = {}
for mode in ("check", "keep"):
    walls, med, disc = [], {}, []
    for i in range(1, runs + 1):
        t0, t1 = map(float, open("%s/wall-%s%d" % (tmp, mode, i)).read().split())
        walls.append(t1 - t0)
        (entry,) = json.load(open("%s/%s%d.json" % (tmp, mode, i)))["cpus"].values()
        n = 0
        for name, p in entry["probes"].items():
            if p["status"] == "ok":
                med.setdefault(name, []).append(p["cycles"]["median"])
                n += p.get("discarded", {}).get("disturbed", 0)
        disc.append(n)
    res[mode] = med
    print("%-5s wall time per run: median %.2f s (%.2f-%.2f); disturbed samples "
          "discarded per run: median %d (%d-%d)" % (mode, statistics.median(walls),
          min(walls), max(walls), statistics.median(disc), min(disc), max(disc)))
print("%-24s %12s %12s" % ("probe", "spread check", "spread keep"))
worst = {"check": 0, "keep": 0}
for name in res["check"]:
    row = []
    for mode in ("check", "keep"):
        v = res[mode][name]
        m = statistics.median(v)
        s = (max(v) - min(v)) / m if abs(m) > 0.05 else float("nan")
        if s == s:
            worst[mode] = max(worst[mode], s)
        row.append(100 * s)
    print("%-24s %11.2f%% %11.2f%%" % (name, row[0], row[1]))
print("largest spread: check %.2f%%, keep %.2f%%" % (100 * worst["check"], 100 * worst["keep"]))
print("(spread: (max - min) / median of the per-run medians; n/a where the median is ~0)")
PY
