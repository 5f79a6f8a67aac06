/* SPDX-License-Identifier: MIT */
/*
 * loop.h - the timed loop every backend shares: the primitive repeated with
 * .rept between two timer reads, in a counted loop.
 *
 * PC_TIMED(ticks, iters, hi, pre, body, post, outs, ins) expands to both
 * unroll counts; the caller picks one with `hi` at run time. outs and ins
 * are parenthesised operand lists; outs starts with a comma because the
 * loop counter %[pc_n] is always the first output. `pre`/`post` run once
 * around the loop, inside the timed region, so they cancel in the
 * difference.
 *
 * What differs between architectures, each arch/<arch>/loop.h defines
 * before it includes this file:
 *   PC_LOOP_HEAD      what opens the loop: alignment and the loop's label
 *   PC_LOOP_TAIL      the counter step and the branch back to the label
 *   PC_LOOP_CLOBBERS  the clobber list of the loop's asm
 * and arch/<arch>/timer.h the ordered pc_timer_read() around it.
 */
#ifndef PC_ARCH_LOOP_H
#define PC_ARCH_LOOP_H

#include <stdint.h>
#include "timer.h"

#define PC_STR_(x) #x
#define PC_STR(x) PC_STR_(x)
#define PC_UNPAREN(...) __VA_ARGS__

#define PC_LOOP_ASM(reps, pre, body, post, outs, ins)			\
	__asm__ volatile(pre						\
			 PC_LOOP_HEAD					\
			 ".rept " reps "\n\t"				\
			 body "\n\t"					\
			 ".endr\n\t"					\
			 PC_LOOP_TAIL					\
			 post						\
			 : [pc_n] "+r"(pc_n) PC_UNPAREN outs		\
			 : PC_UNPAREN ins				\
			 : PC_LOOP_CLOBBERS)

#define PC_TIMED(ticks, iters, hi, pre, body, post, outs, ins)		\
	do {								\
		unsigned long pc_n = (unsigned long)(iters);		\
		uint64_t pc_t0;						\
		if (hi) {						\
			pc_t0 = pc_timer_read();			\
			PC_LOOP_ASM(PC_STR(PC_UNROLL_HI), pre, body,	\
				    post, outs, ins);			\
			(ticks) = pc_timer_read() - pc_t0;		\
		} else {						\
			pc_t0 = pc_timer_read();			\
			PC_LOOP_ASM(PC_STR(PC_UNROLL_LO), pre, body,	\
				    post, outs, ins);			\
			(ticks) = pc_timer_read() - pc_t0;		\
		}							\
	} while (0)

#endif
