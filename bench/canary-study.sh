#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/canary-study.sh - which canary follows the host's slow phases
# (a study, not a test; x86-64).
#
#   bench/canary-study.sh [SECONDS] [CPU] [FILE]
#
# Builds bench/canary_study.c and runs it pinned to CPU (default 1) for
# SECONDS (default 3600), a line every 2 s: each candidate canary's median
# cycles per operation beside glibc's 8-byte malloc+free pair, and how busy
# the other CPUs were (FILE keeps the lines; an existing FILE is only
# analysed, not measured again). Then, over the periods in which the other
# CPUs were under 10 % busy (this machine's own work excluded), it prints
# for each candidate:
#   r       Pearson's correlation with malloc+free, period by period;
#   slow    its median in the periods where malloc+free read over 1.3
#           times its own 10th percentile, over its 10th percentile;
#   fast    the same in the other periods;
#   caught  of the slow periods, how many it read over 1.1 times its 10th
#           percentile; false: of the fast ones, how many it did.
# A canary that tracks the slow phases has r near 1, slow well above fast,
# caught near all and false near none.
set -eu
. "$(dirname "$0")/lib.sh"
seconds=${1:-3600}
cpu=${2:-1}
file=${3:-$tmp/study.txt}

if [ ! -s "$file" ]; then
	${CC:-cc} -O2 -Wall -Wextra -o "$tmp/canary_study" bench/canary_study.c
	taskset -c "$cpu" "$tmp/canary_study" "$seconds" 2 >"$file"
fi
python3 - "$file" <<'PY'
import statistics, sys
lines = [l.split() for l in open(sys.argv[1])]
head, rows = lines[0], [list(map(float, l)) for l in lines[1:] if len(l) == len(lines[0])]
col = {name: i for i, name in enumerate(head)}
quiet = [r for r in rows if r[col["others_busy"]] < 0.10]
print("%d periods, %d with the other CPUs under 10 %% busy, %.0f s"
      % (len(rows), len(quiet), rows[-1][0] if rows else 0))
if len(quiet) < 10:
    sys.exit("too few quiet periods to say anything")
def p10(v):
    return sorted(v)[len(v) // 10]
target = [r[col["malloc_free"]] for r in quiet]
t10 = p10(target)
slow = [x > 1.3 * t10 for x in target]
print("malloc+free: 10th percentile %.2f cycles; %d of %d periods over 1.3 times it"
      % (t10, sum(slow), len(quiet)))
print("%-8s %6s %6s %6s %8s %8s" % ("canary", "r", "slow", "fast", "caught", "false"))
for name in head[3:-1]:
    v = [r[col[name]] for r in quiet]
    b = p10(v)
    try:
        r = statistics.correlation(v, target)
    except statistics.StatisticsError:
        r = float("nan")
    s = [x / b for x, w in zip(v, slow) if w]
    f = [x / b for x, w in zip(v, slow) if not w]
    print("%-8s %6.2f %6.3f %6.3f %8s %8s" % (
        name, r, statistics.median(s) if s else float("nan"),
        statistics.median(f) if f else float("nan"),
        "%d/%d" % (sum(x > 1.1 for x in s), len(s)),
        "%d/%d" % (sum(x > 1.1 for x in f), len(f))))
PY
