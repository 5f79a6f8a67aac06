/* SPDX-License-Identifier: MIT */
/*
 * x86 timed loop: the primitive unrolled with .rept between two timer reads.
 *
 * PC_X86_TIMED(ticks, st-less args...) expands to both unroll counts; the
 * caller picks one with `hi` at run time. Operands: outs and ins are
 * parenthesised operand lists; outs starts with a comma because the loop
 * counter is always the first output. `pre`/`post` run once around the loop
 * (inside the timed region, so they cancel in the difference).
 */
#ifndef PC_X86_LOOP_H
#define PC_X86_LOOP_H

#include "timer.h"

#define PC_STR_(x) #x
#define PC_STR(x) PC_STR_(x)
#define PC_UNPAREN(...) __VA_ARGS__

#ifdef __x86_64__
#define PC_X86_SP "%%rsp"
/* User-mode code may keep data in the 128 bytes below %rsp (the red zone):
 * bodies that push step over it first. */
#define PC_X86_STACK_ENTER "lea -128(%%rsp), %%rsp\n\t"
#define PC_X86_STACK_LEAVE "lea 128(%%rsp), %%rsp\n\t"
#else
#define PC_X86_SP "%%esp"
#define PC_X86_STACK_ENTER ""
#define PC_X86_STACK_LEAVE ""
#endif

#define PC_X86_LOOP_ASM(reps, pre, body, post, outs, ins)		\
	__asm__ volatile(pre						\
			 ".p2align 6\n"					\
			 "1:\n\t"					\
			 ".rept " reps "\n\t"				\
			 body "\n\t"					\
			 ".endr\n\t"					\
			 "dec %[pc_n]\n\t"				\
			 "jnz 1b\n\t"					\
			 post						\
			 : [pc_n] "+r"(pc_n) PC_UNPAREN outs		\
			 : PC_UNPAREN ins				\
			 : "cc", "memory")

#define PC_X86_TIMED(ticks, iters, hi, pre, body, post, outs, ins)	\
	do {								\
		unsigned long pc_n = (unsigned long)(iters);		\
		uint64_t pc_t0;						\
		if (hi) {						\
			pc_t0 = pc_timer_read();			\
			PC_X86_LOOP_ASM(PC_STR(PC_UNROLL_HI), pre, body, \
					post, outs, ins);		\
			(ticks) = pc_timer_read() - pc_t0;		\
		} else {						\
			pc_t0 = pc_timer_read();			\
			PC_X86_LOOP_ASM(PC_STR(PC_UNROLL_LO), pre, body, \
					post, outs, ins);		\
			(ticks) = pc_timer_read() - pc_t0;		\
		}							\
	} while (0)

#endif
