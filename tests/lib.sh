# lib.sh - TAP helpers for the shell tests. Source it; call done_testing last.
tap_n=0
tap_failed=0

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

# Timing assertions mean nothing under an emulator.
emulated() { [ -n "${TEST_EMULATOR:-}" ]; }

# Can valgrind start this binary? (A 32-bit build on a 64-bit system needs
# the 32-bit libc6-dbg.) Sets vg_why to valgrind's own reason when not.
valgrind_works() {	# valgrind_works BINARY
	vg_why=$(valgrind -q --error-exitcode=99 "$1" version 2>&1 >/dev/null |
		grep -v '^valgrind: *$' | head -3 | tr '\n' ' ')
	valgrind -q --error-exitcode=99 "$1" version >/dev/null 2>&1
}
