/* SPDX-License-Identifier: MIT */
/*
 * checks.h - the state checks that do not depend on the architecture: what
 * N operations of a primitive leave in memory and registers is the same on
 * every machine. Backends include it; freestanding, like the rest of arch/.
 */
#ifndef PC_ARCH_CHECKS_H
#define PC_ARCH_CHECKS_H

#include "arch/arch.h"

static inline const char *same_state(const struct pc_probe_state *a,
			      const struct pc_probe_state *b)
{
	unsigned int i;

	for (i = 0; i < PC_STATE_WORDS; i++)
		if (a->mem[i] != b->mem[i])
			return "memory changed by a sequence that must not write it";
	for (i = 0; i < 4; i++)
		if (a->reg[i] != b->reg[i])
			return "register changed by a sequence that must not write it";
	return 0;
}

static inline const char *check_unchanged(const struct pc_probe_state *before,
				   const struct pc_probe_state *after,
				   uint64_t ops)
{
	(void)ops;
	return same_state(before, after);
}

static inline const char *check_add_chain(const struct pc_probe_state *before,
				   const struct pc_probe_state *after,
				   uint64_t ops)
{
	if (after->reg[0] != before->reg[0] + (unsigned long)ops)
		return "accumulator is not start + number of adds";
	return 0;
}

static inline unsigned long word_pow(unsigned long base, uint64_t exp)
{
	unsigned long r = 1;

	for (; exp; exp >>= 1, base *= base)
		if (exp & 1)
			r *= base;
	return r;
}

/* The multiply chain: each product feeds the next multiply by k; start
 * at 1 with k = 3, so the product changes every step. */
static inline void init_mul_chain(struct pc_probe_state *st)
{
	st->reg[0] = 1;
	st->reg[1] = 3;		/* k, the multiplier */
}

static inline const char *check_mul_chain(const struct pc_probe_state *before,
				   const struct pc_probe_state *after,
				   uint64_t ops)
{
	if (after->reg[0] != before->reg[0] * word_pow(before->reg[1], ops))
		return "product is not start * k^ops (mod word size)";
	return 0;
}

/* reg[0]: the timer before the loop, then the last value the body read
 * (a machine word wide: on a 32-bit machine the backend checks both
 * halves itself). */
static inline const char *check_timer_advanced(const struct pc_probe_state *before,
					const struct pc_probe_state *after,
					uint64_t ops)
{
	(void)ops;
	if (after->reg[0] <= before->reg[0])
		return "the timer read by the body did not advance";
	return 0;
}

static inline const char *check_add_return(const struct pc_probe_state *before,
				    const struct pc_probe_state *after,
				    uint64_t ops)
{
	if (after->mem[0] != before->mem[0] + (unsigned long)ops * before->reg[1])
		return "counter is not start + ops * i";
	if (after->reg[0] != after->mem[0])
		return "the last add_return did not return the new value";
	return 0;
}

static inline const char *check_add_throughput(const struct pc_probe_state *before,
					const struct pc_probe_state *after,
					uint64_t ops)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (after->reg[i] != before->reg[i] + (unsigned long)ops)
			return "an accumulator is not start + number of operations";
	return 0;
}

/* The timed loops repeat cmpxchg(&v, V, V): it always succeeds and leaves
 * V, so the loop needs no instruction but the primitive. */
static inline void init_cmpxchg(struct pc_probe_state *st)
{
	st->mem[0] = 0x5a5aUL;
	st->reg[0] = 0x5a5aUL;	/* expected; the value found comes back here */
	st->reg[1] = 0x5a5aUL;	/* new */
}

static inline const char *check_cmpxchg(const struct pc_probe_state *before,
				 const struct pc_probe_state *after,
				 uint64_t ops)
{
	(void)ops;
	if (after->mem[0] != before->reg[1])
		return "memory does not hold the new value";
	if (after->reg[0] != before->reg[0])
		return "a cmpxchg that must succeed reported failure";
	return 0;
}

static inline const char *check_preempt(const struct pc_probe_state *before,
				 const struct pc_probe_state *after,
				 uint64_t ops)
{
	(void)ops;
	if (after->reg[0])
		return "preempt_enable() took the reschedule branch";
	if (after->mem[0] != before->mem[0])
		return "the preempt count did not return to its start value";
	return 0;
}

/* x = xchg(&v, x): register and memory swap every operation. */
static inline void init_xchg(struct pc_probe_state *st)
{
	st->mem[0] = 0x1111;
	st->reg[0] = 0x2222;
}

static inline const char *check_xchg(const struct pc_probe_state *before,
			      const struct pc_probe_state *after, uint64_t ops)
{
	int odd = (int)(ops & 1);
	unsigned long want_mem = odd ? before->reg[0] : before->mem[0];
	unsigned long want_reg = odd ? before->mem[0] : before->reg[0];

	if (after->mem[0] != want_mem || after->reg[0] != want_reg)
		return "values are not swapped once per xchg";
	return 0;
}

/* The semantics of a compare-and-swap prim(p, old, new), which returns the
 * value it found: 100 successes in a row, then a failure that must neither
 * write memory nor hide the value. (The timed loops repeat one value.) */
#define PC_SEMANTICS_CMPXCHG(fn, prim)					\
static const char *fn(struct pc_probe_state *s)				\
{									\
	unsigned long i;						\
									\
	s->mem[0] = 0;							\
	for (i = 0; i < 100; i++)					\
		if (prim(&s->mem[0], i, i + 1) != i)			\
			return "cmpxchg(v, old, new) did not return old"; \
	if (s->mem[0] != 100)						\
		return "100 successful cmpxchg did not leave 100";	\
	if (prim(&s->mem[0], 5, 7) != 100 || s->mem[0] != 100)		\
		return "a failing cmpxchg wrote memory or hid the value"; \
	return 0;							\
}

/* add_return's state: the counter, the last value returned, the increment. */
static inline void init_add_return(struct pc_probe_state *st)
{
	st->mem[0] = 1000;
	st->reg[0] = 0;		/* last value returned */
	st->reg[1] = 1;		/* i */
}

#endif
