#!/bin/sh
# SPDX-License-Identifier: MIT
# arch/ and engine/ are freestanding: their objects call nothing outside
# themselves (no libc), so the same code can run in the ring-0 guest and the
# probe runner.
. "${PC_SRCDIR}/tests/lib.sh"

lib="$PC_BUILDDIR/libpcarch.a"
if [ ! -f "$lib" ]; then
	skip "libpcarch.a not built" "arch objects are freestanding"
	done_testing
	exit
fi
# _GLOBAL_OFFSET_TABLE_ is the linker's, not a library's: i386
# position-independent code finds its constants through it.
# A symbol one object of the library defines for another (the engine's
# self-check) is inside.
inside=$(${NM:-nm} --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
undef=$(${NM:-nm} -u "$lib" 2>/dev/null | awk 'NF == 2 && $2 != "_GLOBAL_OFFSET_TABLE_" { print $2 }' | sort -u |
	grep -vxF "$inside")
ok $(test -z "$undef"; echo $?) "arch objects reference no outside symbol${undef:+ (found: $(echo $undef))}"
# .data.rel.ro (a const table of function pointers under PIE) is read-only
# once relocated; .data and .bss would be state.
defined=$(${OBJDUMP:-objdump} -t "$lib" | awk '$4 ~ /^\.(data|bss)($|\.)/ && $4 !~ /rel\.ro/ && $NF !~ /^\./ { print $NF }' | sort -u)
ok $(test -z "$defined"; echo $?) "arch objects have no writable globals${defined:+ (found: $(echo $defined))}"
done_testing
