# SPDX-License-Identifier: MIT
# lib.sh - TAP helpers for the shell tests. Source it; call done_testing last.
tap_n=0
tap_failed=0
# Text views fit $COLUMNS: the same 80 columns for every test, whatever
# the shell that runs the suite exports.
COLUMNS=80
export COLUMNS

ok() {	# ok CONDITION-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

skip() {	# skip REASON DESCRIPTION
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $2 # SKIP $1"
}

diag() { printf '# %s\n' "$*"; }

# Imports another TAP producer's points (on stdin) into this script's
# numbering.
tap_import() {
	while IFS= read -r line; do
		case $line in
		"not ok "*) ok 1 "$(echo "$line" | sed 's/^not ok [0-9]* - //')" ;;
		"ok "*"# SKIP "*)
			d=$(echo "$line" | sed 's/^ok [0-9]* - //; s/ # SKIP .*//')
			skip "$(echo "$line" | sed 's/.* # SKIP //')" "$d" ;;
		"ok "*) ok 0 "$(echo "$line" | sed 's/^ok [0-9]* - //')" ;;
		esac
	done
}

# import_checks FILE WHAT: the check lines of a Python check (tests/pccheck.py:
# "0|1<TAB>description", or "skip<TAB>description[<TAB>reason]", the reason
# by default that python3-jsonschema is missing) as test points; anything
# else fails "WHAT ran".
import_checks() {
	[ -s "$1" ] || ok 1 "$2 ran"
	while IFS='	' read -r st desc why; do
		case $st in
		0|1) ok "$st" "$desc" ;;
		skip) skip "${why:-python3-jsonschema is not installed}" "$desc" ;;
		*) ok 1 "$2 ran: $st $desc" ;;
		esac
	done <"$1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# Temporary directory removed at exit.
pc_tmp=$(mktemp -d "${TMPDIR:-/tmp}/primcost-test.XXXXXX")
trap 'chattr -i "$pc_tmp"/* 2>/dev/null; chmod -R u+w "$pc_tmp" 2>/dev/null; rm -rf "$pc_tmp"' EXIT

: "${PRIMCOST:?run through make check}"
: "${PC_SRCDIR:?run through make check}"
: "${PYTHON3:=python3}"

# Runs primcost, capturing stdout, stderr and the exit status.
pc() {
	$PRIMCOST "$@" >"$pc_tmp/out" 2>"$pc_tmp/err"
	pc_rc=$?
}

# True when stderr is exactly one line starting with "primcost: ".
one_line_error() {
	[ "$(wc -l <"$pc_tmp/err")" -eq 1 ] && grep -q '^primcost: ' "$pc_tmp/err"
}

# Waits for a sign of progress, never a fixed time: until FILE holds at
# least COUNT lines matching the extended regular expression ERE, or PID (if
# given) has exited, or SECONDS have passed (a generous limit: a loaded
# machine is slow). Returns 1 when the sign did not come.
wait_for_lines() {	# wait_for_lines FILE ERE COUNT SECONDS [PID]
	wf_end=$(( $(date +%s) + $4 ))
	while :; do
		[ -f "$1" ] && [ "$(grep -Ec -- "$2" "$1")" -ge "$3" ] && return 0
		[ -n "${5:-}" ] && ! kill -0 "$5" 2>/dev/null && return 1
		[ "$(date +%s)" -lt "$wf_end" ] || return 1
		sleep 0.05
	done
}

# all_at_once FUNCTION ARG...: runs FUNCTION ARG for every ARG at the same
# time, in the background, so that they race; then waits for each by its
# PID (never a fixed time) and sets failed to how many exited non-zero.
all_at_once() {
	aao_f=$1
	shift
	aao_pids=
	for aao_a in "$@"; do
		"$aao_f" "$aao_a" &
		aao_pids="$aao_pids $!"
	done
	failed=0
	for aao_p in $aao_pids; do
		wait "$aao_p" || failed=$((failed + 1))
	done
}

# Timing assertions mean nothing under an emulator.
emulated() { [ -n "${TEST_EMULATOR:-}" ]; }

# Can valgrind start this binary? (A 32-bit build on a 64-bit system needs
# the 32-bit libc6-dbg.) Sets vg_why to valgrind's own reason when not.
valgrind_works() {	# valgrind_works BINARY
	vg_why=$(valgrind -q --error-exitcode=99 "$1" version 2>&1 >/dev/null |
		grep -v '^valgrind: *$' | head -3 | tr '\n' ' ')
	valgrind -q --error-exitcode=99 "$1" version >/dev/null 2>&1
}

# Can valgrind check this binary here? Not when valgrind is absent, the build
# runs under an emulator, has AddressSanitizer (which does the same job and
# which valgrind cannot run) or cannot start under valgrind. Sets vg_why to
# the reason when not.
valgrind_usable() {	# valgrind_usable BINARY
	if ! command -v valgrind >/dev/null 2>&1; then
		vg_why="valgrind is not installed (Debian package valgrind)"
	elif emulated; then
		vg_why="an emulated build (runs under $TEST_EMULATOR)"
	elif ${NM:-nm} "$1" 2>/dev/null | grep -q '__asan_init'; then
		vg_why="this build has AddressSanitizer, which does the same job and which valgrind cannot run"
	elif ! valgrind_works "$1"; then
		vg_why="valgrind cannot run this build: $vg_why"
	else
		return 0
	fi
	return 1
}
