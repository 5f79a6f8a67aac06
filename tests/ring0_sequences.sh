#!/bin/sh
# SPDX-License-Identifier: MIT
# The x86 interrupt rows time what their names say, read from the
# disassembly of the objects that run them (the host's arch library and the
# KVM micro-guest's copy): the repeated-half rows repeat one half only, and
# the rows of real transitions alternate the halves inside the unrolled body,
# so that every cli finds IF set and every sti or popf finds it clear.
# Each body appears PC_UNROLL_LO + PC_UNROLL_HI = 96 times in its function.
. "${PC_SRCDIR}/tests/lib.sh"

case ${PC_ARCH:-} in
x86_64|i386) ;;
*)	skip "the interrupt bodies checked here are x86's" "x86 interrupt bodies"
	done_testing
	exit ;;
esac
objdump=${OBJDUMP:-objdump}
objs="$PC_BUILDDIR/libpcarch.a"
[ -f "$PC_BUILDDIR/runner/guest/g-probes.o" ] &&
	objs="$objs $PC_BUILDDIR/runner/guest/g-probes.o"

# mnemonics OBJ FN: FN's instructions, mnemonics only, one line, spaced.
mnemonics() {
	"$objdump" -d --no-show-raw-insn "$1" 2>/dev/null |
		awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit }
			on { sub(/^[^\t]*\t/, ""); split($0, a, /[ \t]+/); printf " %s", a[1] }
			END { print " " }'
}
# count TEXT SEQ: how many times " SEQ " occurs in TEXT (no overlaps).
count() {
	printf '%s' "$1" | awk -v s=" $2 " '{ n = 0; t = $0
		while ((i = index(t, s)) > 0) { n++; t = substr(t, i + length(s) - 1) }
		print n }'
}
# body OBJ FN SEQ ONLY...: FN holds SEQ 96 times, and each ONLY mnemonic
# only inside those copies.
body() {
	obj=$1 fn=$2 seq=$3
	shift 3
	text=$(mnemonics "$obj" "$fn")
	if [ "$text" = " " ]; then
		ok 1 "$(basename "$obj"): $fn is in the object"
		return
	fi
	n=$(count "$text" "$seq")
	bad=
	for m in "$@"; do
		per=$(count " $seq " "$m")
		all=$(count "$text" "$m")
		[ "$all" -eq $((n * per)) ] || bad="$bad $m:$all"
	done
	ok $(test "$n" -eq 96 && test -z "$bad"; echo $?) \
		"$(basename "$obj"): $fn times '$seq' ($n copies)${bad:+; stray:$bad}"
}

for o in $objs; do
	body "$o" run_irq_disable "cli" cli sti popf
	body "$o" run_irq_enable "sti" cli sti popf
	body "$o" run_irq_save "pushf pop cli" cli sti popf
	body "$o" run_irq_restore "test je sti" cli sti popf
	body "$o" run_irq_restore_popf "push popf" cli sti popf
	# Real transitions: the halves alternate, one of each per copy.
	body "$o" run_irq_disable_enable "cli sti" cli sti popf
	body "$o" run_irq_save_restore "pushf pop cli test je sti" cli sti popf
	body "$o" run_irq_save_restore_popf "pushf pop cli push popf" cli sti popf
done
done_testing
