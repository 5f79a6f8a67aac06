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
#include "arch/arch.h"	/* struct pc_probe_state, PC_UNROLL_LO and _HI */
#include "timer.h"	/* arch/<arch>/timer.h: pc_timer_read() */

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

/*
 * Run functions (struct pc_arch_probe's run) whose C is the same on every
 * architecture, only the instruction text differing.
 */

/* A body with no operand. */
#define PC_RUN_NO_OPERAND(fn, body)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	uint64_t t;							\
									\
	(void)st;							\
	PC_TIMED(t, iters, hi, "", body, "", (), ());			\
	return t;							\
}

/* A body on one register, %[name]: reg[i] in and out, under the
 * constraint con ("+r", or one that names the register); outs, a
 * parenthesised list that starts with a comma, the other outputs; ins, a
 * parenthesised list, the inputs. */
#define PC_RUN_REG_AT(fn, i, name, con, pre, body, post, outs, ins)	\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long name = st->reg[i];				\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, pre, body, post,				\
		 (, [name] con(name) PC_UNPAREN outs), ins);		\
	st->reg[i] = name;						\
	return t;							\
}

/* A body on one register, %[r]: reg[0] in and out. */
#define PC_RUN_REG(fn, pre, body, post, ins)				\
	PC_RUN_REG_AT(fn, 0, r, "+r", pre, body, post, (), ins)

/* A body, then `post` reading a result back into %[g]: reg[1] in and out. */
#define PC_RUN_READBACK(fn, pre, body, post, ins)			\
	PC_RUN_REG_AT(fn, 1, g, "+r", pre, body, post, (), ins)

/* A body on four registers, %[a] to %[d]: reg[0] to reg[3] in and out. */
#define PC_RUN_REG4(fn, body)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long a = st->reg[0], b = st->reg[1], c = st->reg[2],	\
		      d = st->reg[3];					\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", body, "",				\
		 (, [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d)), ()); \
	st->reg[0] = a;							\
	st->reg[1] = b;							\
	st->reg[2] = c;							\
	st->reg[3] = d;							\
	return t;							\
}

#endif
