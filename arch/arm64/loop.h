/* SPDX-License-Identifier: MIT */
/*
 * arm64 timed loop: the primitive unrolled with .rept between two timer
 * reads. Same shape as arch/x86/loop.h: outs and ins are parenthesised
 * operand lists, outs starting with a comma (the loop counter comes first);
 * `pre`/`post` run once around the loop, inside the timed region, so they
 * cancel in the difference.
 *
 * The counter steps with sub + cbnz, which leave the NZCV flags alone: the
 * flags rows write NZCV and read it back after the loop. Bodies use the
 * local labels 1 and 2; the loop's own is 90.
 */
#ifndef PC_ARM64_LOOP_H
#define PC_ARM64_LOOP_H

#include "timer.h"

#define PC_STR_(x) #x
#define PC_STR(x) PC_STR_(x)
#define PC_UNPAREN(...) __VA_ARGS__

#define PC_ARM64_LOOP_ASM(reps, pre, body, post, outs, ins)		\
	__asm__ volatile(pre						\
			 ".p2align 6\n"					\
			 "90:\n\t"					\
			 ".rept " reps "\n\t"				\
			 body "\n\t"					\
			 ".endr\n\t"					\
			 "sub %x[pc_n], %x[pc_n], #1\n\t"		\
			 "cbnz %x[pc_n], 90b\n\t"			\
			 post						\
			 : [pc_n] "+r"(pc_n) PC_UNPAREN outs		\
			 : PC_UNPAREN ins				\
			 : "cc", "memory")

#define PC_ARM64_TIMED(ticks, iters, hi, pre, body, post, outs, ins)	\
	do {								\
		unsigned long pc_n = (unsigned long)(iters);		\
		uint64_t pc_t0;						\
		if (hi) {						\
			pc_t0 = pc_timer_read();			\
			PC_ARM64_LOOP_ASM(PC_STR(PC_UNROLL_HI), pre, body, \
					  post, outs, ins);		\
			(ticks) = pc_timer_read() - pc_t0;		\
		} else {						\
			pc_t0 = pc_timer_read();			\
			PC_ARM64_LOOP_ASM(PC_STR(PC_UNROLL_LO), pre, body, \
					  post, outs, ins);		\
			(ticks) = pc_timer_read() - pc_t0;		\
		}							\
	} while (0)

#endif
