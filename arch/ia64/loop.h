/* SPDX-License-Identifier: MIT */
/*
 * ia64 timed loop: the shared skeleton (arch/loop.h, PC_TIMED) with the
 * counter stepped in instruction groups of its own.
 *
 * Bodies are plain instructions with explicit stops (;;): the assembler
 * chooses the bundle templates, and is run with dependency-violation
 * checking on (-x, which gcc passes) and --fatal-warnings, so a missing stop
 * between a write and a read of the same register in one instruction group
 * fails the build instead of reading a stale value at run time. p6, p7, f6
 * and f7 (all scratch in the ia64 calling convention) are free for bodies
 * to use.
 */
#ifndef PC_IA64_LOOP_H
#define PC_IA64_LOOP_H

/* The loop branch uses a general register, not ar.lc: ar.lc is preserved
 * across calls and would need saving around every loop. */
#define PC_LOOP_HEAD ";;\n1:\n\t"
#define PC_LOOP_TAIL							\
	";;\n\t"							\
	"adds %[pc_n]=-1,%[pc_n]\n\t"					\
	";;\n\t"							\
	"cmp.ne p6,p0=0,%[pc_n]\n\t"					\
	";;\n\t"							\
	"(p6) br.cond.dptk.few 1b\n\t"					\
	";;\n\t"
#define PC_LOOP_CLOBBERS "p6", "p7", "f6", "f7", "memory"

#include "arch/loop.h"

#endif
