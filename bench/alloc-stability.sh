#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/alloc-stability.sh - wall time and repeatability of the default
# allocator group (a benchmark, not a test).
#
#   bench/alloc-stability.sh [RUNS] [CPU] [ALLOCATORS]
#
# For each allocator of ALLOCATORS (comma-separated, default every one
# installed of glibc, jemalloc, tcmalloc, mimalloc), runs
# `primcost run --allocator A` RUNS times (default 5) pinned to CPU
# (default 1), one allocator per run, then prints each allocator's wall
# times and, per point (row x size), the median of the run medians and
# their spread, (max - min) / median. The last lines per allocator count
# the points over 5 % and give each run's factor, the geometric mean over
# the points of its median against the median of the runs: a factor far
# from 1 is a whole run that read high or low at every size (a busy host,
# not a point). With /usr/bin/time, each run's CPU time is printed too:
# the wall time less the CPU time is time the CPU went to others. The
# load average before and after each allocator's runs
# is printed: a busy host makes the spreads mean less. So is each run's
# contention canary (its first quartile and median): a run whose median is
# over 2 % above the lowest first quartile ran on a shared core for much of
# it, and the points are counted again without such runs.
#
# Measured on the development VM (2 vCPUs, others compiling, load 4.5 to 6),
# glibc, `bench/alloc-stability.sh 3 1 glibc`:
#   before the reserve (101 samples, batches of 2 KiB and more trimmed back
#   to the kernel): wall 16.0 to 21.2 s, CPU 9.5 to 11.8 s;
#   after (reserve, 51 samples): wall 1.7 to 1.8 s, CPU 0.9 s (the CPU was
#   shared about half the time); 1.0 to 1.1 s wall at quieter moments;
#   with the slow-loop rule held to the calibration's loops (loops_vary),
#   CPU 0.7 to 1.0 s per allocator, wall 1.2 to 2.2 s at load 5.
# Spreads over 5 runs (docs/design.md says what moves and why): glibc 9 to
# 20 points of 36 over 5 %, most within 5 to 8 %; jemalloc, tcmalloc and
# mimalloc 4 to 33 of 36 by the moment, their fast rows taking one of two
# levels about a cycle apart.
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
cpu=${2:-1}
allocators=${3:-glibc,jemalloc,tcmalloc,mimalloc}

for a in $(echo "$allocators" | tr ',' ' '); do
	# exit 2: not installed (a usage error); 1 would be a figure judged
	# noisy or a run unreliable, which the runs below will show
	rc=0
	$prog run --allocator "$a" -p alloc.malloc_free -n 9 -q \
		-o "$tmp/probe.json" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 2 ]; then
		echo "$a: skipped: $(cat "$tmp/err")"
		continue
	fi
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	i=1
	while [ "$i" -le "$runs" ]; do
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$tmp/$a.cpu$i" \
				sh -c 't0=$(date +%s.%N); "$@"; echo "$t0 $(date +%s.%N)" >"$0"' \
				"$tmp/$a.wall$i" $prog run --allocator "$a" --cpu "$cpu" -q \
				-o "$tmp/$a.run$i.json" || true
		else
			timed_run "$tmp/$a.wall$i" --allocator "$a" --cpu "$cpu" -q \
				-o "$tmp/$a.run$i.json" || true
		fi
		i=$((i + 1))
	done
	load1=$(cut -d' ' -f1-3 /proc/loadavg)
	python3 - "$tmp" "$a" "$runs" "$load0" "$load1" <<'PY'
import json, math, statistics, sys
tmp, alloc, runs, load0, load1 = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4], sys.argv[5]
walls, cpus, med, canary = [], [], [], []
for i in range(1, runs + 1):
    t0, t1 = map(float, open("%s/%s.wall%d" % (tmp, alloc, i)).read().split())
    walls.append(t1 - t0)
    try:
        cpus.append(sum(map(float, open("%s/%s.cpu%d" % (tmp, alloc, i)).read().split()[-2:])))
    except (OSError, ValueError):
        pass
    (entry,) = json.load(open("%s/%s.run%d.json" % (tmp, alloc, i)))["cpus"].values()
    cont = entry["runs"][-1].get("contention", {})
    canary.append((cont.get("canary_cycles_best"), cont.get("canary_cycles_median")))
    m = {}
    for row in ("alloc.malloc", "alloc.free", "alloc.malloc_free"):
        for pt in entry["probes"][row]["points"]:
            if pt["status"] in ("ok", "noisy") and "cycles" in pt:
                m[(row, pt["size"])] = pt["cycles"]["median"]
    med.append(m)
print("%s: wall per run %s s (median %.2f); load %s before, %s after"
      % (alloc, " ".join("%.2f" % w for w in walls), statistics.median(walls),
         load0, load1))
if cpus:
    print("  CPU time (user + system) per run %s s: the rest of the wall time is"
          " the CPU shared" % " ".join("%.2f" % c for c in cpus))
if all(b and m for b, m in canary):
    print("  contention canary per run, first quartile / median (cycles): %s"
          % " ".join("%.3f/%.3f" % c for c in canary))
print("  %-18s %6s %10s %10s %10s %8s" % ("row", "size", "median", "min", "max",
                                          "spread"))
over = 0
for key in sorted(med[0], key=lambda k: (k[0], k[1])):
    v = [m[key] for m in med if key in m]
    s = (max(v) - min(v)) / statistics.median(v)
    over += s > 0.05
    print("  %-18s %6d %10.1f %10.1f %10.1f %7.1f%%%s"
          % (key[0], key[1], statistics.median(v), min(v), max(v), 100 * s,
             "" if len(v) == runs else " (%d runs)" % len(v)))
print("  %s: %d of %d points spread over 5 %%" % (alloc, over, len(med[0])))
# A run whose canary's median is over 2 % above the lowest first quartile
# of the runs had its core shared for much of it (compare notes canaries
# 2 % apart: PC_COMPARE_CANARY); the spread over the other runs is what a
# quiet core gives.
if all(b and m for b, m in canary):
    low = min(b for b, m in canary)
    quiet = [x for x, (_, m) in zip(med, canary) if m <= 1.02 * low]
    if len(quiet) < len(med) and len(quiet) >= 3:
        over = sum((max(v) - min(v)) / statistics.median(v) > 0.05
                   for v in ([m[k] for m in quiet if k in m] for k in med[0]))
        print("  %s, the %d runs whose canary's median is within 2 %% of the lowest: %d of "
              "%d points spread over 5 %%" % (alloc, len(quiet), over, len(med[0])))
mid = {k: statistics.median([m[k] for m in med if k in m]) for k in med[0]}
print("  run factors: " + " ".join(
    "%.2f" % math.exp(statistics.mean(math.log(m[k] / mid[k]) for k in m if k in mid))
    for m in med))
PY
done
