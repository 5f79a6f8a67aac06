#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/containment.sh - does running probes contained change the figures?
# (a benchmark, not a test)
#
#   bench/containment.sh OTHER_PRIMCOST [RUNS] [CPU]
#
# Runs OTHER_PRIMCOST (a build without containment, e.g. of an older
# commit) and ./primcost alternately, RUNS times each (default 12) pinned
# to CPU (default 1), so that both see the same host load, then prints per
# probe the median of each side's medians and their spread,
# (max - min) / median, and each side's median wall time.
set -eu
. "$(dirname "$0")/lib.sh"
other=${1:?usage: bench/containment.sh OTHER_PRIMCOST [RUNS] [CPU]}
runs=${2:-12}
cpu=${3:-1}

i=1
while [ "$i" -le "$runs" ]; do
	$other run --cpu "$cpu" -q -o "$tmp/a$i.json"
	$prog run --cpu "$cpu" -q -o "$tmp/b$i.json"
	i=$((i + 1))
done

python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
def load(p):
    (e,) = json.load(open(p))["cpus"].values()
    return e["runs"][-1]["wall_s"], {k: v["cycles"]["median"] for k, v in e["probes"].items()
                                     if v["status"] == "ok"}
A = [load("%s/a%d.json" % (tmp, i)) for i in range(1, runs + 1)]
B = [load("%s/b%d.json" % (tmp, i)) for i in range(1, runs + 1)]
def spread(v, m):
    return "%7.2f%%" % ((max(v) - min(v)) / m * 100) if abs(m) > 0.05 else "    n/a"
print("%-24s %12s %8s %12s %8s" % ("probe", "other", "spread", "contained", "spread"))
for k in A[0][1]:
    a = [r[1][k] for r in A if k in r[1]]
    b = [r[1][k] for r in B if k in r[1]]
    ma, mb = statistics.median(a), statistics.median(b)
    print("%-24s %12.3f %s %12.3f %s" % (k, ma, spread(a, ma), mb, spread(b, mb)))
print("wall time, median of %d runs: other %.2f s, contained %.2f s"
      % (runs, statistics.median(r[0] for r in A), statistics.median(r[0] for r in B)))
PY
