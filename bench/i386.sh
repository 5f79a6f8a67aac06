#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/i386.sh - the i386 build against the x86-64 build on this machine
# (a benchmark, not a test).
#
#   bench/i386.sh [RUNS] [CPU]
#
# Alternates RUNS runs (default 5) of ./primcost and build-i386/primcost
# (./bootstrap build; ./bootstrap build --arch i386), pinned to CPU (default
# 1), over the calibration and atomic probes, and prints per probe the
# median of each build's per-run medians (core cycles) and their ratio.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
cpu=${2:-1}
probes='baseline,calib.*,cmpxchg,cmpxchg_local,cmpxchg64,*add_return,xchg'
for p in ./primcost build-i386/primcost; do
	[ -x "$p" ] || { echo "bench/i386.sh: $p not built" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

i=1
while [ "$i" -le "$runs" ]; do
	./primcost run --cpu "$cpu" -q -p "$probes" -o "$tmp/x86_64.$i.json"
	build-i386/primcost run --cpu "$cpu" -q -p "$probes" -o "$tmp/i386.$i.json"
	i=$((i + 1))
done

python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
med = {"x86_64": {}, "i386": {}}
unreliable = []
for arch in med:
    for i in range(1, runs + 1):
        (entry,) = json.load(open("%s/%s.%d.json" % (tmp, arch, i)))["cpus"].values()
        if entry["runs"][-1].get("unreliable"):
            unreliable.append("%s run %d" % (arch, i))
        for name, p in entry["probes"].items():
            if p["status"] == "ok":
                med[arch].setdefault(name, []).append(p["cycles"]["median"])
print("%d runs of each build, alternating; core cycles, median of the run medians" % runs)
print("%-22s %10s %10s %8s" % ("probe", "x86_64", "i386", "i386/64"))
for name in med["i386"]:
    a = statistics.median(med["x86_64"][name]) if name in med["x86_64"] else None
    b = statistics.median(med["i386"][name])
    ratio = "%7.3f" % (b / a) if a and abs(a) > 0.05 else "      -"
    print("%-22s %10s %10.3f %8s" % (name, "%.3f" % a if a is not None else "-", b, ratio))
if unreliable:
    print("unreliable runs: " + ", ".join(unreliable))
PY
