# SPDX-License-Identifier: MIT
# bench/lib.sh - what the benchmarks share; each sources it first:
#
#   . "$(dirname "$0")/lib.sh"
#
# Moves to the top of the tree, sets prog (PRIMCOST, default ./primcost)
# and tmp (a scratch directory removed on exit).
cd "$(dirname "$0")/.."
prog=${PRIMCOST:-./primcost}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed_run WALLFILE ARG...: runs `$prog run ARG...` and writes its start and
# end times (seconds since the epoch) on one line of WALLFILE.
timed_run() {
	wallfile=$1
	shift
	t0=$(date +%s.%N)
	$prog run "$@"
	t1=$(date +%s.%N)
	echo "$t0 $t1" >"$wallfile"
}

# each_run COMMAND...: runs COMMAND... I for each run I from 1 to $runs,
# one after another.
each_run() {
	er_i=1
	while [ "$er_i" -le "$runs" ]; do
		"$@" "$er_i"
		er_i=$((er_i + 1))
	done
}
