/* SPDX-License-Identifier: MIT */
/*
 * pace.c - the host's pace (pace.h).
 *
 * Sixty-four small functions, each on a cache line of its own, called in
 * turn from 64 call sites: a sequence bound by instruction fetch and branch
 * prediction, as allocator code is. On the development VM a slower phase of
 * the host raised it by 20 % while four independent adds rose 7 %, and it
 * tracked glibc's 8-byte malloc+free from period to period with a
 * correlation of 0.98 (bench/canary-study.sh). Each batch is paired with
 * a dependent add chain of as many adds, which gives its cycles: the core's
 * clock may still be rising when a run starts.
 */
#include <math.h>
#include <stdint.h>

#include "arch/arch.h"
#include "pace.h"
#include "stats.h"
#include "timer.h"	/* arch/<arch>/timer.h: pc_timer_read() */

#define PC_PACE_BATCHES	31
#define PC_PACE_PASSES	256	/* of the 64 calls a batch: 16384 calls */

/* Each one returns a new value of x, so no call can be skipped or merged. */
#define PACE_FN(n) \
	static __attribute__((noinline, aligned(64))) unsigned pace_##n(unsigned x) \
	{ \
		__asm__ volatile("" : "+r"(x)); \
		return x * 3 + n; \
	}
#define PACE_FN8(n) PACE_FN(n##0) PACE_FN(n##1) PACE_FN(n##2) PACE_FN(n##3) \
	PACE_FN(n##4) PACE_FN(n##5) PACE_FN(n##6) PACE_FN(n##7)
PACE_FN8(1) PACE_FN8(2) PACE_FN8(3) PACE_FN8(4) PACE_FN8(5) PACE_FN8(6) PACE_FN8(7)
PACE_FN8(8)

#define PACE_CALL8(n) x = pace_##n##0(x); x = pace_##n##1(x); x = pace_##n##2(x); \
	x = pace_##n##3(x); x = pace_##n##4(x); x = pace_##n##5(x); x = pace_##n##6(x); \
	x = pace_##n##7(x);

/* n passes of the 64 calls; the ticks they took. */
static uint64_t passes(uint64_t n)
{
	unsigned x = 1;
	uint64_t i, t0 = pc_timer_read();

	for (i = 0; i < n; i++) {
		PACE_CALL8(1) PACE_CALL8(2) PACE_CALL8(3) PACE_CALL8(4)
		PACE_CALL8(5) PACE_CALL8(6) PACE_CALL8(7) PACE_CALL8(8)
	}
	__asm__ volatile("" : : "r"(x));
	return pc_timer_read() - t0;
}

static uint64_t batch(void)
{
	return passes(PC_PACE_PASSES);
}

/* The engine's loop of the gauge: an operation is a pass of the calls. */
static uint64_t pace_run(void *ctx, int probe, struct pc_probe_state *st, uint64_t iters,
			 int hi)
{
	(void)ctx;
	(void)probe;
	(void)st;
	return passes(iters * (hi ? PC_UNROLL_HI : PC_UNROLL_LO));
}

static const struct pc_executor pace_executor = { .init = NULL, .run = pace_run };

struct pc_body pc_pace_body(void)
{
	return (struct pc_body){ &pace_executor, NULL };
}

/* A dependent chain of adds, one cycle each on every core this runs on:
 * the empty asm makes each add wait for the one before. */
#define PACE_ADD __asm__ volatile("" : "+r"(x)); x += 1;
#define PACE_ADD8 PACE_ADD PACE_ADD PACE_ADD PACE_ADD PACE_ADD PACE_ADD PACE_ADD PACE_ADD

static uint64_t chain(void)
{
	unsigned long x = 0;
	unsigned i;
	uint64_t t0 = pc_timer_read();

	for (i = 0; i < PC_PACE_PASSES * 8; i++) {
		PACE_ADD8
	}
	__asm__ volatile("" : : "r"(x));
	return pc_timer_read() - t0;
}

int pc_pace(double *ticks, double *cycles)
{
	double t[PC_PACE_BATCHES], c[PC_PACE_BATCHES];
	unsigned i;

	(void)batch();
	(void)chain();
	for (i = 0; i < PC_PACE_BATCHES; i++) {
		double g = (double)batch() / (PC_PACE_PASSES * 64.0),
		       a = (double)chain() / (PC_PACE_PASSES * 64.0);

		t[i] = g;
		c[i] = a > 0 ? g / a : NAN;
	}
	*ticks = pc_median(t, PC_PACE_BATCHES);
	*cycles = pc_median(c, PC_PACE_BATCHES);
	return *ticks > 0 && *cycles > 0 ? 0 : -1;
}
