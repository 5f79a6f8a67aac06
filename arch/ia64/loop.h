/* SPDX-License-Identifier: MIT */
/*
 * ia64 timed loop: the primitive repeated with .rept between two ar.itc
 * reads, in a counted loop.
 *
 * Bodies are plain instructions with explicit stops (;;): the assembler
 * chooses the bundle templates, and is run with dependency-violation
 * checking on (-x, which gcc passes) and --fatal-warnings, so a missing stop
 * between a write and a read of the same register in one instruction group
 * fails the build instead of reading a stale value at run time.
 *
 * PC_IA64_TIMED(ticks, iters, hi, pre, body, post, outs, ins): outs and ins
 * are parenthesised operand lists; outs starts with a comma because the
 * loop counter is always the first output. pre/post run once, inside the
 * timed region, so they cancel in the difference. p6, p7, f6 and f7 (all
 * scratch in the ia64 calling convention) are free for bodies to use.
 */
#ifndef PC_IA64_LOOP_H
#define PC_IA64_LOOP_H

#include "timer.h"

#define PC_STR_(x) #x
#define PC_STR(x) PC_STR_(x)
#define PC_UNPAREN(...) __VA_ARGS__

/* The loop branch uses a general register, not ar.lc: ar.lc is preserved
 * across calls and would need saving around every loop. */
#define PC_IA64_LOOP_ASM(reps, pre, body, post, outs, ins)		\
	__asm__ volatile(pre						\
			 ";;\n"						\
			 "1:\n\t"					\
			 ".rept " reps "\n\t"				\
			 body "\n\t"					\
			 ".endr\n\t"					\
			 ";;\n\t"					\
			 "adds %[pc_n]=-1,%[pc_n]\n\t"			\
			 ";;\n\t"					\
			 "cmp.ne p6,p0=0,%[pc_n]\n\t"			\
			 ";;\n\t"					\
			 "(p6) br.cond.dptk.few 1b\n\t"			\
			 ";;\n\t"					\
			 post						\
			 : [pc_n] "+r"(pc_n) PC_UNPAREN outs		\
			 : PC_UNPAREN ins				\
			 : "p6", "p7", "f6", "f7", "memory")

#define PC_IA64_TIMED(ticks, iters, hi, pre, body, post, outs, ins)	\
	do {								\
		unsigned long pc_n = (unsigned long)(iters);		\
		uint64_t pc_t0;						\
		if (hi) {						\
			pc_t0 = pc_timer_read();			\
			PC_IA64_LOOP_ASM(PC_STR(PC_UNROLL_HI), pre, body, \
					 post, outs, ins);		\
			(ticks) = pc_timer_read() - pc_t0;		\
		} else {						\
			pc_t0 = pc_timer_read();			\
			PC_IA64_LOOP_ASM(PC_STR(PC_UNROLL_LO), pre, body, \
					 post, outs, ins);		\
			(ticks) = pc_timer_read() - pc_t0;		\
		}							\
	} while (0)

#endif
