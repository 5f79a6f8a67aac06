/* SPDX-License-Identifier: MIT */
/*
 * The sampling engine (engine/engine.c) over a scripted executor and sink:
 * sizing, a timer that does not move, the self-check, rounds, retakes and
 * the linearity pairs, sequential stopping; and the host's linearity verdict
 * and stopping rule (src/core/samples.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "core/samples.h"
#include "tap.h"

/* A loop costing `overhead` + ops * `per_op` ticks; `stuck`: 0 ticks. */
struct fake {
	uint64_t per_op, overhead;
	int stuck;
	unsigned runs;
};

static uint64_t fake_run(void *ctx, int probe, struct pc_probe_state *st,
			 uint64_t iters, int hi)
{
	struct fake *f = ctx;

	(void)probe;
	st->mem[0]++;
	f->runs++;
	if (f->stuck)
		return 0;
	return f->overhead + iters * (hi ? PC_UNROLL_HI : PC_UNROLL_LO) * f->per_op;
}

static const struct pc_executor fake_exec = { NULL, fake_run };

/* The host: a script of verdicts, and what it was handed. */
struct host {
	const char *verdicts;	/* K, D or M per sample; NULL: keep all */
	unsigned next;
	int slots[64];		/* serial number of the sample in each slot */
	int order[64];		/* which job each sample came from */
	unsigned nsamples, nlin, lin_bad, nfailed;
	char phase[32], why[128];
	uint64_t ops;
};

static enum pc_sample_verdict sink(void *ctx, struct pc_job *j, unsigned slot,
				   const struct pc_sample *s)
{
	struct host *h = ctx;
	char v = h->verdicts ? h->verdicts[h->next] : 'K';

	(void)s;
	if (slot < 64)
		h->slots[slot] = (int)h->next;
	if (h->nsamples < 64)
		h->order[h->nsamples] = (int)(intptr_t)j->host;
	h->nsamples++;
	h->next++;
	return v == 'K' ? PC_SAMPLE_KEEP : v == 'D' ? PC_SAMPLE_DISTURBED :
	       v == 'S' ? PC_SAMPLE_SLOW : PC_SAMPLE_MULTIPLEXED;
}

static void lin(void *ctx, struct pc_job *j, int64_t d_n, int64_t d_2n)
{
	struct host *h = ctx;

	(void)j;
	h->nlin++;
	h->lin_bad += d_2n != 2 * d_n;
}

static void failed(void *ctx, struct pc_job *j, const char *phase, const char *why,
		   uint64_t ops)
{
	struct host *h = ctx;

	(void)j;
	h->nfailed++;
	snprintf(h->phase, sizeof(h->phase), "%s", phase);
	snprintf(h->why, sizeof(h->why), "%s", why);
	h->ops = ops;
}

static void job_on(struct pc_job *j, struct fake *f, intptr_t tag, unsigned budget)
{
	pc_job_clear(j);
	j->live = 1;
	j->host = (void *)tag;
	j->budget = budget;
	j->target_ticks = 100000;
	pc_loop_bind(&j->probe, &fake_exec, f, 0);
}

static void test_sizing(void)
{
	struct fake f = { 3, 50, 0, 0 };
	struct pc_loop l;
	uint64_t iters;

	pc_loop_bind(&l, &fake_exec, &f, 0);
	pc_loop_init(&l);
	iters = pc_loop_size(&l, 100000);
	ok(iters * PC_UNROLL_HI * 3 + 50 >= 90000 && iters * PC_UNROLL_HI * 3 < 200000,
	   "sizing: the hi loop lasts about the target (%llu iterations, %llu ticks)",
	   (unsigned long long)iters,
	   (unsigned long long)(iters * PC_UNROLL_HI * 3 + 50));
	f.stuck = 1;
	ok(pc_loop_size(&l, 100000) == 0,
	   "sizing: a timer that never moves gives 0, not hours of loop");
}

static void test_rounds_and_retakes(void)
{
	const struct pc_engine_host hooks_tmpl = { sink, lin, failed, NULL, NULL, NULL,
						   NULL, NULL, NULL };
	struct pc_engine_host hooks = hooks_tmpl;
	struct pc_engine_config cfg = { 4, 2, 0 };
	struct fake f = { 2, 10, 0, 0 };
	struct pc_job a, b, *jobs[2] = { &a, &b };
	struct host h;

	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	job_on(&a, &f, 1, 8);
	job_on(&b, &f, 2, 8);
	pc_engine_run(jobs, 2, &cfg, &hooks);
	ok(a.kept == 4 && b.kept == 4, "every sample asked for is kept (%u, %u)",
	   a.kept, b.kept);
	ok(h.order[0] == 1 && h.order[1] == 1 && h.order[2] == 2 && h.order[3] == 2 &&
	   h.order[4] == 1 && h.order[6] == 2,
	   "two rounds, each a share of every probe in turn (%d %d %d %d %d %d)",
	   h.order[0], h.order[1], h.order[2], h.order[3], h.order[4], h.order[6]);
	ok(h.nlin == 2 * PC_LINEARITY_PAIRS && h.lin_bad == 0,
	   "%d linearity pairs per probe, D(2N) = 2 D(N) on a linear body",
	   PC_LINEARITY_PAIRS);

	/* A sample the sink refuses is retaken in its slot while the budget
	 * lasts, then lost. */
	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	h.verdicts = "KDKMKKKK";
	job_on(&a, &f, 1, 5);
	cfg.samples = 3;
	cfg.rounds = 1;
	pc_engine_run(jobs, 1, &cfg, &hooks);
	ok(a.kept == 3 && h.next == 5 && a.budget == 3 && a.short_by == 0,
	   "3 wanted, 2 refused: 3 kept after 5 takes, 2 retakes spent");
	ok(h.slots[0] == 0 && h.slots[1] == 2 && h.slots[2] == 4,
	   "a refused sample is retaken in the same slot (%d %d %d)",
	   h.slots[0], h.slots[1], h.slots[2]);

	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	h.verdicts = "DDKDDDDD";
	job_on(&a, &f, 1, 1);
	pc_engine_run(jobs, 1, &cfg, &hooks);
	ok(a.kept == 1 && a.short_by == 2 && h.next == 4,
	   "once the budget is spent a refused sample is lost (kept %u, short by %u)",
	   a.kept, a.short_by);

	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	h.verdicts = "SSSDKKKK";
	job_on(&a, &f, 1, 1);
	pc_engine_run(jobs, 1, &cfg, &hooks);
	ok(a.kept == 2 && a.kept_slow == 2 && a.short_by == 1 && h.next == 4,
	   "once it is spent a slow sample is kept, as the best there is, and "
	   "counted (kept %u, %u of them slow, short by %u)", a.kept, a.kept_slow,
	   a.short_by);
}

static const char *bad_check(const struct pc_probe_state *before,
			     const struct pc_probe_state *after, uint64_t ops)
{
	(void)before;
	return after->mem[0] == 7 && ops ? "the word is 7" : NULL;
}

static uint64_t seven(struct pc_probe_state *st, uint64_t iters, int hi)
{
	(void)iters;
	st->mem[0] = hi ? 7 : 1;
	return 0;
}

static void test_failures(void)
{
	static const struct pc_arch_probe broken = { .run = seven, .check = bad_check };
	struct pc_engine_host hooks = { sink, lin, failed, NULL, NULL, NULL, NULL, NULL, NULL };
	struct pc_engine_config cfg = { 4, 4, 0 };
	struct fake f = { 1, 0, 1, 0 };
	struct pc_job a, *jobs[1] = { &a };
	struct host h;
	uint64_t ops;

	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	job_on(&a, &f, 1, 4);
	a.check = &broken;
	pc_engine_run(jobs, 1, &cfg, &hooks);
	ok(!a.live && h.nfailed == 1 && strcmp(h.phase, "self-check") == 0 &&
	   h.ops == PC_UNROLL_HI && h.nsamples == 0 && f.runs == 0,
	   "a failing self-check fails the probe before any timing "
	   "(%s after %llu operations: %s)", h.phase, (unsigned long long)h.ops, h.why);
	ok(pc_engine_selfcheck(&broken, NULL, NULL, &ops) && ops == PC_UNROLL_HI,
	   "the self-check runs lo before hi: it fails at the first hi run");

	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	job_on(&a, &f, 1, 4);
	pc_engine_run(jobs, 1, &cfg, &hooks);
	ok(!a.live && strcmp(h.phase, "sizing") == 0 && h.nsamples == 0,
	   "a timer that does not advance fails the probe at sizing (%s)", h.why);
}

static void test_linearity_verdict(void)
{
	bool nl;
	double r;

	r = pc_linearity(1000, 2000, 1000, &nl);
	ok(r == 2.0 && !nl, "D(2N) = 2 D(N) is linear");
	r = pc_linearity(1000, 2250, 1000, &nl);
	ok(nl, "2.25 is not linear (more than 10 %% off 2)");
	r = pc_linearity(1000, 2150, 1000, &nl);
	ok(!nl, "2.15 is linear within 10 %%");
	r = pc_linearity(10, 200, 1000, &nl);
	ok(isnan(r) && !nl, "under the floor there is nothing to judge");
}

/* The host's enough(): a job is known once it kept j->host's tag * 10
 * samples (tag 9: never); counts the questions. */
static unsigned asked;

static int enough_at(void *ctx, struct pc_job *j)
{
	intptr_t tag = (intptr_t)j->host;

	(void)ctx;
	asked++;
	return tag != 9 && j->kept >= (unsigned)tag * 10;
}

static void test_sequential_stopping(void)
{
	struct pc_engine_host hooks = { sink, lin, failed, NULL, NULL, enough_at, NULL,
					NULL, NULL };
	struct pc_engine_config cfg = { 100, 10, 20 };
	struct fake f = { 2, 10, 0, 0 };
	struct pc_job a, b, c, *jobs[3] = { &a, &b, &c };
	struct host h;

	memset(&h, 0, sizeof(h));
	hooks.ctx = &h;
	asked = 0;
	job_on(&a, &f, 3, 200);		/* known from 30 samples */
	job_on(&b, &f, 9, 200);		/* never known */
	job_on(&c, &f, 1, 200);		/* known from 10, asked at the floor, 20 */
	pc_engine_run(jobs, 3, &cfg, &hooks);
	ok(h.order[0] == 3 && h.order[1] == 3 && h.order[2] == 9 && h.order[4] == 1 &&
	   h.order[6] == 3, "the floor's 20 samples in 10 rounds of 2, every job in "
	   "turn (%d %d %d %d %d)", h.order[0], h.order[1], h.order[2], h.order[4],
	   h.order[6]);
	ok(c.known && c.kept == 20,
	   "a job known at the floor takes no more (%u of 100)", c.kept);
	ok(a.known && a.kept == 36,
	   "a job known later stops at the end of a round of the rest: 20 + 2 x 8 "
	   "(%u of 100)", a.kept);
	ok(!b.known && b.kept == 100,
	   "a job never known takes the ceiling (%u of 100)", b.kept);
	ok(asked == 3 + 2 + 9,
	   "asked after the floor's pass, then after each round of the rest but "
	   "the last (%u times)", asked);
	ok(h.nlin == 3 * PC_LINEARITY_PAIRS, "each job still has its linearity pairs (%u)",
	   h.nlin);
	pc_engine_resample(jobs, 3, &cfg, &hooks);
	ok(a.known && a.kept == 36 && !b.known && b.kept == 100,
	   "a resampling starts the rule afresh (%u, %u)", a.kept, b.kept);
	cfg.floor = 0;
	asked = 0;
	job_on(&a, &f, 1, 200);
	pc_engine_run(jobs, 1, &cfg, &hooks);
	ok(!a.known && a.kept == 100 && asked == 0,
	   "a floor of 0 is a fixed count: never asked (%u samples, %u asked)",
	   a.kept, asked);
}

/* The rule itself: a 95 % interval of the median within 0.5 % or 0.02 cycles. */
static void test_stopping_rule(void)
{
	double x[400], scratch[400], half;
	bool k;
	unsigned i;

	for (i = 0; i < 400; i++)	/* 20 +- 0.05: a steady probe */
		x[i] = 20.0 + 0.05 * ((double)(i * 37 % 101) / 50.0 - 1.0);
	k = pc_median_known(x, PC_STOP_FLOOR, scratch, &half);
	ok(k && half <= 0.1,
	   "steady samples (20 +- 0.25 %%): known at the floor (half-width %.3f)", half);
	k = pc_median_known(x, PC_STOP_FLOOR - 1, scratch, &half);
	ok(!k && isnan(half), "under the floor: never known");
	for (i = 0; i < 400; i++)	/* 20 +- 4: spread far past the precision */
		x[i] = 20.0 + 4.0 * ((double)(i * 37 % 101) / 50.0 - 1.0);
	k = pc_median_known(x, 50, scratch, &half);
	ok(!k && half > 0.1,
	   "samples spread by 20 %%: not known from 50 (half-width %.2f)", half);
	k = pc_median_known(x, 400, scratch, &half);
	ok(!k && half > 0.1,
	   "... nor from 400 (half-width %.2f): such a probe takes the ceiling", half);
	for (i = 0; i < 400; i++)	/* two modes, 7.4 and 7.5, in turn */
		x[i] = i % 2 ? 7.5 : 7.4;
	k = pc_median_known(x, 60, scratch, &half);
	ok(!k,
	   "two modes 1.3 %% apart in equal shares: the median is not known (%.3f)", half);
	for (i = 0; i < 400; i++)	/* a cost of nothing, +- 0.01 cycles */
		x[i] = 0.01 * ((double)(i * 37 % 101) / 50.0 - 1.0);
	k = pc_median_known(x, 40, scratch, &half);
	ok(k,
	   "a cost of 0 +- 0.01 cycles: known by the absolute precision (%.4f)", half);
	for (i = 0; i < 400; i++)	/* 20 +- 1 %, in both halves */
		x[i] = 20.0 + 0.2 * ((double)(i * 37 % 101) / 50.0 - 1.0);
	k = pc_median_known(x, 400, scratch, &half);
	ok(k, "400 samples of 20 +- 1 %%: known (half-width %.3f)", half);
	for (i = 200; i < 400; i++)	/* the level moved 1.2 % halfway */
		x[i] += 0.24;
	k = pc_median_known(x, 400, scratch, &half);
	ok(!k && half <= 0.1, "... but not when the second half's level moved 1.2 %%, "
	   "though the interval is narrow (half-width %.3f)", half);
	x[3] = NAN;
	k = pc_median_known(x, 40, scratch, &half);
	ok(!k, "a sample that is not a number: never known");
}

int main(void)
{
	test_sizing();
	test_rounds_and_retakes();
	test_failures();
	test_linearity_verdict();
	test_sequential_stopping();
	test_stopping_rule();
	return done_testing();
}
