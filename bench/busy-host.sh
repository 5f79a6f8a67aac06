#!/bin/sh
# SPDX-License-Identifier: MIT
# busy-host.sh - run a command while a load occupies every CPU of this
# machine, so that anyone can repeat the loaded case the test suite must
# pass in.
#
#   bench/busy-host.sh CMD [ARGS...]
#
# The load, started before CMD and stopped (by PID) when it ends:
#   - Debian's stress-ng: a CPU worker and a cache-thrashing worker pinned to
#     the last CPU, and a CPU worker pinned to the first one, so that CMD
#     shares whichever CPU it runs on;
#   - a compile loop (gcc -O2 of a generated C file, over and over), unpinned,
#     as when a build runs beside the tests.
# BUSY_HOST_WORKERS=N sets the stress-ng workers per CPU (default 1).
# The exit status is CMD's. The load average before and after is printed on
# stderr, so that a log says how busy the machine was.
set -u

say() { printf 'busy-host: %s\n' "$*" >&2; }

[ $# -gt 0 ] || { say "usage: bench/busy-host.sh CMD [ARGS...]"; exit 2; }

if ! command -v stress-ng >/dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing stress-ng"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null 2>&1; }
	fi
	command -v stress-ng >/dev/null 2>&1 ||
		{ say "stress-ng is not installed (Debian: apt-get install stress-ng)"; exit 2; }
fi
command -v gcc >/dev/null 2>&1 || { say "gcc is not installed"; exit 2; }

ncpu=$(nproc 2>/dev/null || echo 1)
first=0
last=$((ncpu - 1))
workers=${BUSY_HOST_WORKERS:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/busy-host.XXXXXX")
pids=

stop_load() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	pids=
	rm -rf "$work"
}
trap 'stop_load' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A C file large enough that one compile takes a fraction of a second.
{
	i=0
	while [ $i -lt 300 ]; do
		printf 'double f%d(double *v, int n) { double s = 0; for (int i = 0; i < n; i++) s += v[i] * %d.5 / (v[(i + %d) %% n] + 1); return s; }\n' $i $i $i
		i=$((i + 1))
	done
} >"$work/load.c"

stress-ng --quiet --taskset "$last" --cpu "$workers" --cache "$workers" \
	--timeout 6h >/dev/null 2>&1 &
pids="$pids $!"
if [ "$last" -ne "$first" ]; then
	stress-ng --quiet --taskset "$first" --cpu "$workers" --timeout 6h >/dev/null 2>&1 &
	pids="$pids $!"
fi
(
	trap 'exit 0' TERM
	while :; do
		gcc -O2 -c -o "$work/load.o" "$work/load.c" 2>/dev/null || exit 1
	done
) &
pids="$pids $!"

say "load on $ncpu CPU(s): stress-ng cpu+cache on CPU $last, cpu on CPU $first, a gcc -O2 loop; loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$@"
rc=$?
say "command exited $rc; loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
