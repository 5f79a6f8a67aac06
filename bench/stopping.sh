#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/stopping.sh - sequential stopping (method.h, PC_STOP_*) against a
# previous build, side by side in one run of the script (a benchmark, not
# a test): the time of the default run, of --locks and of the four
# allocators, and whether the figures stayed where they were.
#
#   bench/stopping.sh OLD [PAIRS] [RUNS]
#
# OLD is the previous build's primcost (another worktree's, built there);
# this build runs with --until-known (UNTIL= in the environment: without).
# Runs the default probe table PAIRS times with each build (default 10),
# alternating, then --locks and --allocator glibc,jemalloc,tcmalloc,mimalloc
# RUNS times each (default 5; the allocators that are not installed are
# left out by primcost itself). Prints:
#   - each group's median wall time, OLD against this build;
#   - for the default run, `primcost compare OLD-run NEW-run` of each pair:
#     its slower and faster verdicts (there must be none) and the noisy
#     rows on each side (this build must not have more);
#   - PAIRS back-to-back pairs of this build against itself, and of OLD
#     against itself (the host's own noise, for comparison): the slower
#     and faster verdicts, and the rows not comparable (noisy on a side).
set -eu
. "$(dirname "$0")/lib.sh"
old=${1:?usage: bench/stopping.sh OLD [PAIRS] [RUNS]}
pairs=${2:-10}
runs=${3:-5}
[ -x "$old" ] || { echo "bench: $old: not an executable" >&2; exit 2; }
# this build's runs stop when the figure is known (UNTIL: its option, or
# empty to time the same fixed count)
until=${UNTIL---until-known}

# one NAME PROG OUT ARG...: a timed run; its wall seconds appended to NAME
one() {
	name=$1 p=$2 out=$3
	shift 3
	t0=$(date +%s.%N)
	"$p" run -q -o "$out" "$@" || true
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$tmp/$name.wall"
}

median() {	# median FILE: of its numbers, one a line
	sort -g "$1" | awk '{ v[NR] = $1 }
		END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# verdicts A B: "SLOWER FASTER NOISY-A NOISY-B NOT-COMPARABLE JUDGED-APART
# NOT-COMPARED" of compare A B (the last two: the rows, comma-separated)
verdicts() {
	"$prog" compare -f csv "$1" "$2" >"$tmp/cmp.csv" 2>/dev/null || true
	python3 - "$tmp/cmp.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
b = [r for r in rows if r["side"] == "B"]
noisy = lambda side: sum(1 for r in rows if r["side"] == side and r["status"] == "noisy")
slower = [r["probe"] for r in b if r["verdict"] == "slower"]
faster = [r["probe"] for r in b if r["verdict"] == "faster"]
nc = [r["probe"] for r in b if r["verdict"] == "not comparable"]
print(len(slower), len(faster), noisy("A"), noisy("B"), len(nc),
      ",".join(slower + faster) or "-", ",".join(nc) or "-")
PY
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "old: $old ($("$old" --version 2>/dev/null | head -1))"
echo "new: $prog ($("$prog" --version 2>/dev/null | head -1))"
i=1
while [ "$i" -le "$pairs" ]; do
	# each pair compared back to back: old-again old, old new, new new-again
	one old-again "$old" "$tmp/old-again-$i.json"
	one old-default "$old" "$tmp/old-default-$i.json"
	one new-default "$prog" "$tmp/new-default-$i.json" $until
	one new-again "$prog" "$tmp/new-again-$i.json" $until
	i=$((i + 1))
done
i=1
while [ "$i" -le "$runs" ]; do
	one old-locks "$old" "$tmp/old-locks-$i.json" --locks
	one new-locks "$prog" "$tmp/new-locks-$i.json" --locks $until
	one old-alloc "$old" "$tmp/old-alloc-$i.json" --allocator glibc,jemalloc,tcmalloc,mimalloc
	one new-alloc "$prog" "$tmp/new-alloc-$i.json" --allocator glibc,jemalloc,tcmalloc,mimalloc $until
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-14s %9s %9s %7s\n' group "old s" "new s" "new/old"
for g in default locks alloc; do
	o=$(median "$tmp/old-$g.wall") n=$(median "$tmp/new-$g.wall")
	printf '%-14s %9.3f %9.3f %7.2f\n' "$g" "$o" "$n" "$(echo "$n $o" | awk '{ print $1 / $2 }')"
done
echo
echo "default run, compare OLD NEW (A = old, B = new):"
printf '%4s %6s %6s %7s %7s  %s\n' pair slower faster "noisy A" "noisy B" "rows judged apart"
i=1
while [ "$i" -le "$pairs" ]; do
	set -- $(verdicts "$tmp/old-default-$i.json" "$tmp/new-default-$i.json")
	printf '%4d %6d %6d %7d %7d  %s\n' "$i" "$1" "$2" "$3" "$4" "$6"
	i=$((i + 1))
done
for b in new old; do
	echo
	echo "back to back, compare $b $b (the same build, two processes):"
	printf '%4s %6s %6s %4s  %s\n' pair slower faster n/c "rows judged apart; not comparable"
	i=1
	while [ "$i" -le "$pairs" ]; do
		if [ $b = new ]; then
			set -- $(verdicts "$tmp/new-default-$i.json" "$tmp/new-again-$i.json")
		else
			set -- $(verdicts "$tmp/old-again-$i.json" "$tmp/old-default-$i.json")
		fi
		printf '%4d %6d %6d %4d  %s; %s\n' "$i" "$1" "$2" "$5" "$6" "$7"
		i=$((i + 1))
	done
done
