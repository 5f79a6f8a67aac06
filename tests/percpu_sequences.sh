#!/bin/sh
# SPDX-License-Identifier: MIT
# The x86 per-CPU rows and cmpxchg128 time what their names say, read from
# the disassembly of the arch library: every copy of the body goes through
# the thread pointer's segment (%fs: on x86-64, %gs: on i386) with no lock
# prefix, cmpxchg128 carries one, and x86-64 get_cycles joins the halves.
# Each body appears PC_UNROLL_LO + PC_UNROLL_HI = 96 times in its function.
. "${PC_SRCDIR}/tests/lib.sh"

case ${PC_ARCH:-} in
x86_64) seg=%fs: double=cmpxchg16b ;;
i386) seg=%gs: double=cmpxchg8b ;;
*)	skip "the per-CPU bodies checked here are x86's" "x86 per-CPU bodies"
	done_testing
	exit ;;
esac
objdump=${OBJDUMP:-objdump}
lib=$PC_BUILDDIR/libpcarch.a

# insns FN: FN's instructions, one a line, operands kept.
insns() {
	"$objdump" -d --no-show-raw-insn "$lib" 2>/dev/null |
		awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit }
			on { sub(/^[^\t]*\t/, ""); print }'
}
# body FN ERE WHAT: FN holds 96 instructions matching ERE, and no lock
# prefix but on those (the instruction's own, when ERE has it).
body() {
	insns "$1" >"$pc_tmp/fn"
	n=$(grep -cE "$2" "$pc_tmp/fn")
	locks=$(grep -c '^lock' "$pc_tmp/fn")
	want=0
	case $2 in ^lock*) want=$n ;; esac
	ok $(test "$n" -eq 96 && test "$locks" -eq "$want"; echo $?) \
		"$1: $3 ($n copies, $locks lock prefixes)"
}

body run_this_cpu_add_seg "^add[lq]? +%[a-z0-9]+,$seg(0x0)?\\(" \
	"this_cpu_add is add to $seg(v), no lock"
body run_this_cpu_cmpxchg_seg "^cmpxchg[lq]? +%[a-z0-9]+,$seg(0x0)?\\(" \
	"this_cpu_cmpxchg is cmpxchg to $seg(v), no lock"
body run_this_cpu_cmpxchg_double_seg "^$double +$seg(0x0)?\\(" \
	"this_cpu_cmpxchg_double is $double $seg(v), no lock"
if [ "$PC_ARCH" = x86_64 ]; then
	body run_cmpxchg128 "^lock +cmpxchg16b " "cmpxchg128 is lock cmpxchg16b"
	insns run_get_cycles | awk '{ print $1 }' | tr '\n' ' ' >"$pc_tmp/gc"
	n=$(grep -o 'rdtsc shl or ' "$pc_tmp/gc" | wc -l)
	ok $(test "$n" -eq 96; echo $?) \
		"get_cycles is rdtsc; shl \$32, %rdx; or %rdx, %rax ($n copies)"
fi
done_testing
