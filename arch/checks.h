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

/*
 * A check (struct pc_arch_probe's check) made of PC_FAIL(bad, why) items:
 * the `why` of the first whose `bad`, an expression of `before`, `after`
 * and `ops`, holds; NULL when none does. The caller gives the storage
 * class.
 */
#define PC_CHECK(fn, ...)						\
const char *fn(const struct pc_probe_state *before,			\
	       const struct pc_probe_state *after, uint64_t ops)	\
{									\
	(void)before;							\
	(void)ops;							\
	__VA_ARGS__							\
	return 0;							\
}
#define PC_FAIL(bad, why) if (bad) return why;

static inline const char *check_unchanged(const struct pc_probe_state *before,
				   const struct pc_probe_state *after,
				   uint64_t ops)
{
	(void)ops;
	return same_state(before, after);
}

static inline PC_CHECK(check_add_chain,
	PC_FAIL(after->reg[0] != before->reg[0] + (unsigned long)ops,
		"accumulator is not start + number of adds"))

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

static inline PC_CHECK(check_mul_chain,
	PC_FAIL(after->reg[0] != before->reg[0] * word_pow(before->reg[1], ops),
		"product is not start * k^ops (mod word size)"))

/* reg[0]: the timer before the loop, then the last value the body read
 * (a machine word wide: on a 32-bit machine the backend checks both
 * halves itself). */
static inline PC_CHECK(check_timer_advanced,
	PC_FAIL(after->reg[0] <= before->reg[0],
		"the timer read by the body did not advance"))

static inline PC_CHECK(check_add_return,
	PC_FAIL(after->mem[0] != before->mem[0] + (unsigned long)ops * before->reg[1],
		"counter is not start + ops * i")
	PC_FAIL(after->reg[0] != after->mem[0],
		"the last add_return did not return the new value"))

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

static inline PC_CHECK(check_cmpxchg,
	PC_FAIL(after->mem[0] != before->reg[1],
		"memory does not hold the new value")
	PC_FAIL(after->reg[0] != before->reg[0],
		"a cmpxchg that must succeed reported failure"))

/* preempt_disable(); preempt_enable() as check_preempt() checks it:
 * mem[0] the count, starting at `enabled` (the backend's count of a
 * preemptible CPU with no reschedule pending), reg[0] set when the body
 * takes the reschedule branch. */
#define PC_INIT_PREEMPT(fn, enabled)					\
static void fn(struct pc_probe_state *st)				\
{									\
	st->mem[0] = (enabled);						\
	st->reg[0] = 0;							\
}

static inline PC_CHECK(check_preempt,
	PC_FAIL(after->reg[0], "preempt_enable() took the reschedule branch")
	PC_FAIL(after->mem[0] != before->mem[0],
		"the preempt count did not return to its start value"))

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

/*
 * The per-CPU rows (this_cpu_*). mem[0] is this CPU's copy of the variable
 * (mem[0] and mem[1] for the double word, low half first). Where the kernel
 * wraps the operation in preempt_disable_notrace()/preempt_enable_notrace()
 * (arm64; ia64's irq-save form has no body, see arch/ia64/probes.c),
 * mem[PC_PERCPU_COUNT] is the count, starting at the backend's count of a
 * preemptible CPU with no reschedule pending, and the body sets
 * mem[PC_PERCPU_TAKEN] when it takes the reschedule branch; x86 leaves
 * both 0. Every word but the variable must come back as it was.
 */
#define PC_PERCPU_TAKEN 6
#define PC_PERCPU_COUNT 7

/* fn: base_ (an init of the variable and registers), then the count. */
#define PC_INIT_PERCPU(fn, base_, enabled)				\
static void fn(struct pc_probe_state *st)				\
{									\
	base_(st);							\
	st->mem[PC_PERCPU_COUNT] = (enabled);				\
	st->mem[PC_PERCPU_TAKEN] = 0;					\
}

static inline const char *percpu_rest(const struct pc_probe_state *before,
				      const struct pc_probe_state *after,
				      unsigned int first)
{
	unsigned int i;

	if (after->mem[PC_PERCPU_TAKEN])
		return "preempt_enable_notrace() took the reschedule branch";
	if (after->mem[PC_PERCPU_COUNT] != before->mem[PC_PERCPU_COUNT])
		return "the preempt count did not return to its start value";
	for (i = first; i < PC_STATE_WORDS; i++)
		if (after->mem[i] != before->mem[i])
			return "a word beside the per-CPU variable changed";
	return 0;
}

/* this_cpu_add(v, i): the variable, and i in reg[1]. */
static inline void init_this_cpu_add(struct pc_probe_state *st)
{
	st->mem[0] = 1000;
	st->reg[1] = 1;		/* i */
}

static inline PC_CHECK(check_this_cpu_add,
	PC_FAIL(after->mem[0] != before->mem[0] + (unsigned long)ops * before->reg[1],
		"the per-CPU variable is not start + ops * i")
	PC_FAIL(percpu_rest(before, after, 1), percpu_rest(before, after, 1)))

static inline PC_CHECK(check_this_cpu_cmpxchg,
	PC_FAIL(check_cmpxchg(before, after, ops), check_cmpxchg(before, after, ops))
	PC_FAIL(percpu_rest(before, after, 1), percpu_rest(before, after, 1)))

/*
 * The double-word compare-and-swap, cmpxchg(&v, V, V) as the cmpxchg row:
 * reg[0], reg[1] the expected halves (the value found comes back there),
 * reg[2], reg[3] the new ones. The halves differ, so that a store of one
 * half cannot pass for a store of both.
 */
#define PC_DOUBLE_LO 0x9abcdef0UL
#define PC_DOUBLE_HI 0x12345678UL

static inline void init_cmpxchg_double(struct pc_probe_state *st)
{
	st->mem[0] = st->reg[0] = st->reg[2] = PC_DOUBLE_LO;
	st->mem[1] = st->reg[1] = st->reg[3] = PC_DOUBLE_HI;
}

static inline PC_CHECK(check_cmpxchg_double,
	PC_FAIL(after->mem[0] != before->reg[2] || after->mem[1] != before->reg[3],
		"the double word does not hold the new value")
	PC_FAIL(after->reg[0] != before->reg[0] || after->reg[1] != before->reg[1],
		"a double-word cmpxchg that must succeed reported failure")
	PC_FAIL(percpu_rest(before, after, 2), percpu_rest(before, after, 2)))

/*
 * The semantics of a double-word compare-and-swap prim(p, o, n) on p[0],
 * p[1], which returns nonzero on success and leaves the value it found in
 * o[0], o[1] (try_cmpxchg128()'s contract): 100 successes moving both
 * halves, then a failure on each half that must neither write memory nor
 * hide the value.
 */
#define PC_SEMANTICS_CMPXCHG_DOUBLE(fn, prim)				\
static const char *fn(struct pc_probe_state *s)				\
{									\
	unsigned long i, o[2], n[2], *p = &s->mem[0];			\
									\
	p[0] = 0;							\
	p[1] = 1000;							\
	for (i = 0; i < 100; i++) {					\
		o[0] = i, o[1] = i + 1000, n[0] = i + 1, n[1] = i + 1001; \
		if (!prim(p, o, n) || o[0] != i || o[1] != i + 1000)	\
			return "a double-word cmpxchg that must succeed " \
			       "failed or did not return old";		\
	}								\
	if (p[0] != 100 || p[1] != 1100)				\
		return "100 successful double-word cmpxchg did not leave " \
		       "100 and 1100";					\
	for (i = 0; i < 2; i++) {					\
		o[0] = i ? 100 : 5, o[1] = i ? 5 : 1100, n[0] = n[1] = 7; \
		if (prim(p, o, n) || o[0] != 100 || o[1] != 1100 ||	\
		    p[0] != 100 || p[1] != 1100)			\
			return "a double-word cmpxchg failing on one half " \
			       "wrote memory or hid the value";		\
	}								\
	return 0;							\
}

/* The flags rows where user mode reads the flags word and writes it back
 * whole: all three start from the flags as they are now (`now`, an
 * expression that reads them). */
#define PC_INIT_FLAGS(fn, now)						\
static void fn(struct pc_probe_state *st)				\
{									\
	st->reg[0] = (now);	/* value written by flags_restore */	\
	st->reg[1] = st->reg[0];	/* flags read back after the loop */ \
	st->reg[2] = st->reg[0];	/* flags as they were at the start */ \
}

/* The rows every backend makes of the same checks: the baseline and the
 * two chains, run by the backend's run_baseline, run_add_chain and
 * run_mul_chain; add_ and mul_ are the chains' sequences. */
#define PC_ROWS_BASELINE_CHAINS(add_, mul_)				\
	[PC_PROBE_baseline] = PC_ROW(run_baseline, 0, check_unchanged, 0, \
		"(empty)"),						\
	[PC_PROBE_calib_add_chain] = PC_ROW(run_add_chain, 0,		\
		check_add_chain, 0, add_),				\
	[PC_PROBE_calib_mul_chain] = PC_ROW(run_mul_chain, init_mul_chain, \
		check_mul_chain, 0, mul_)

/* add_return's state: the counter, the last value returned, the increment. */
static inline void init_add_return(struct pc_probe_state *st)
{
	st->mem[0] = 1000;
	st->reg[0] = 0;		/* last value returned */
	st->reg[1] = 1;		/* i */
}

#endif
