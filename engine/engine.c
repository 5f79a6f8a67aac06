/* SPDX-License-Identifier: MIT */
/*
 * engine.c - the sampling method (engine.h): sizing, warm-up, differential
 * pairs, rounds, retakes, linearity pairs. No statistics beyond the
 * warm-up's batch median: the host finishes (src/core/samples.c).
 *
 * One sample is a pair of timed loops with the same iteration count, the
 * body unrolled PC_UNROLL_HI and PC_UNROLL_LO times; their difference is
 * iters * PC_UNROLL_DIFF operations and nothing else (loop control, timer
 * reads, the call: all cancel). The order of the pair alternates so that a
 * slow drift cannot bias one side.
 *
 * Freestanding and integer-only: ia64 has no divide instruction (hence
 * pc_udiv64) and the runner links no libgcc.
 */
#include "engine/engine.h"

uint64_t pc_udiv64(uint64_t n, uint64_t d)
{
	uint64_t q = 0, r = 0;
	int i;

	if (!d)
		return 0;
	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ULL << i;
		}
	}
	return q;
}

/* Zeroes through a volatile pointer: no memset call in freestanding code. */
static void zero(void *p, unsigned long n)
{
	volatile unsigned char *b = p;
	unsigned long i;

	for (i = 0; i < n; i++)
		b[i] = 0;
}

void pc_job_clear(struct pc_job *j)
{
	zero(j, sizeof(*j));
}

void pc_loop_bind(struct pc_loop *l, const struct pc_executor *exec, void *ctx,
		  int probe)
{
	zero(l, sizeof(*l));
	l->exec = exec;
	l->ctx = ctx;
	l->probe = probe;
}

void pc_loop_init(struct pc_loop *l)
{
	zero(&l->st, sizeof(l->st));
	if (l->exec->init)
		l->exec->init(l->ctx, l->probe, &l->st);
}

/* ---- the direct executor: ctx is the body (const struct pc_arch_probe *) ---- */

static void direct_init(void *ctx, int probe, struct pc_probe_state *st)
{
	const struct pc_arch_probe *p = ctx;

	(void)probe;
	if (p->init)
		p->init(st);
}

static uint64_t direct_run(void *ctx, int probe, struct pc_probe_state *st,
			   uint64_t iters, int hi)
{
	const struct pc_arch_probe *p = ctx;

	(void)probe;
	return p->run(st, iters, hi);
}

const struct pc_executor pc_direct_executor = {
	.init = direct_init,
	.run = direct_run,
};

static uint64_t timed(struct pc_loop *l, uint64_t iters, int hi)
{
	return l->exec->run(l->ctx, l->probe, &l->st, iters, hi);
}

void pc_loop_pair(struct pc_loop *l, uint64_t iters, struct pc_pair *p)
{
	if (l->flip++ & 1) {
		p->hi = timed(l, iters, 1);
		p->lo = timed(l, iters, 0);
	} else {
		p->lo = timed(l, iters, 0);
		p->hi = timed(l, iters, 1);
	}
}

static uint64_t median3(uint64_t a, uint64_t b, uint64_t c)
{
	if (a > b) {
		uint64_t t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/* The next count to try after iters read med ticks against target: grown
 * by target / med, at least 1.25 times and at most 16 times. */
static uint64_t grow(uint64_t iters, uint64_t med, uint64_t target)
{
	uint64_t next, least = iters + (iters + 3) / 4;

	if (med <= 1 || med * 16 <= target || iters > pc_udiv64(~0ULL, target))
		next = iters * 16;
	else
		next = pc_udiv64(iters * target + med - 1, med);
	if (next < least)
		next = least;
	return next < PC_MAX_ITERS ? next : PC_MAX_ITERS;
}

uint64_t pc_loop_size(struct pc_loop *l, uint64_t target)
{
	uint64_t iters = 1;

	for (;;) {
		uint64_t a = timed(l, iters, 1), b = timed(l, iters, 1),
			 c = timed(l, iters, 1), med = median3(a, b, c);

		if (med * 10 >= target * PC_SIZE_STOP_TENTHS || iters >= PC_MAX_ITERS)
			return iters;
		if (iters >= PC_TIMER_STUCK_ITERS && !a && !b && !c)
			return 0;
		iters = grow(iters, med, target);
	}
}

static int64_t median_sorting(int64_t *v, unsigned n)
{
	unsigned i, k;

	for (i = 1; i < n; i++) {
		int64_t x = v[i];

		for (k = i; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
	return v[n / 2];
}

static int64_t abs64(int64_t x)
{
	return x < 0 ? -x : x;
}

/* Batches of pairs until two consecutive batch medians of D = hi - lo agree
 * within 1 % plus 0.005 ticks per operation. */
void pc_loop_warm_up(struct pc_loop *l)
{
	int64_t d[PC_WARMUP_BATCH], prev = 0;
	int64_t ops = (int64_t)(l->iters * PC_UNROLL_DIFF);
	unsigned b, i;

	for (b = 0; b < PC_WARMUP_MAX_BATCHES; b++) {
		int64_t m;

		for (i = 0; i < PC_WARMUP_BATCH; i++) {
			struct pc_pair p;

			pc_loop_pair(l, l->iters, &p);
			d[i] = (int64_t)(p.hi - p.lo);
		}
		m = median_sorting(d, PC_WARMUP_BATCH);
		if (b && 200 * abs64(m - prev) <= 2 * abs64(m) + ops)
			return;
		prev = m;
	}
}

/* ---- the run ----------------------------------------------------------------- */

struct step {
	struct pc_job *j;
	const struct pc_engine_host *h;
	unsigned count;
};

static void fail(struct step *s, const char *phase, const char *why, uint64_t ops)
{
	s->j->live = 0;
	s->h->failed(s->h->ctx, s->j, phase, why, ops);
}

static void step_selfcheck(void *arg)
{
	struct step *s = arg;
	uint64_t ops;
	const char *why = pc_engine_selfcheck(s->j->check, 0, 0, &ops);

	if (why)
		fail(s, "self-check", why, ops);
}

static int size_series(struct pc_loop *l, uint64_t target)
{
	if (!l->exec)
		return 0;
	pc_loop_init(l);
	l->iters = pc_loop_size(l, target ? target : 1);
	return l->iters ? 0 : -1;
}

static void step_prepare(void *arg)
{
	struct step *s = arg;
	struct pc_job *j = s->j;

	if (size_series(&j->probe, j->target_ticks) < 0 ||
	    size_series(&j->cal, j->cal_target_ticks) < 0 ||
	    size_series(&j->canary, j->cal_target_ticks) < 0 ||
	    size_series(&j->pace, j->cal_target_ticks / 2) < 0) {
		fail(s, "sizing", "the timer did not advance over 65536 loop iterations", 0);
		return;
	}
	pc_loop_warm_up(&j->probe);
}

static void take(struct pc_job *j, struct pc_sample *smp)
{
	pc_loop_pair(&j->probe, j->probe.iters, &smp->probe);
	if (j->cal.exec)
		pc_loop_pair(&j->cal, j->cal.iters, &smp->cal);
	if (j->canary.exec)
		pc_loop_pair(&j->canary, j->canary.iters, &smp->canary);
	if (j->pace.exec)
		pc_loop_pair(&j->pace, j->pace.iters, &smp->pace);
}

/* count more samples; one the sink does not keep is retaken in its slot
 * while the budget lasts, and lost after that. */
static void step_sample(void *arg)
{
	struct step *s = arg;
	struct pc_job *j = s->j;
	unsigned want = s->count;

	while (want) {
		struct pc_sample smp = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
		enum pc_sample_verdict v;

		take(j, &smp);
		v = s->h->sample(s->h->ctx, j, j->kept, &smp);
		if (v != PC_SAMPLE_KEEP && j->budget) {
			j->budget--;
			continue;
		}
		want--;
		if (v == PC_SAMPLE_KEEP || v == PC_SAMPLE_SLOW)
			j->kept++;
		if (v == PC_SAMPLE_SLOW)
			j->kept_slow++;
		else if (v != PC_SAMPLE_KEEP)
			j->short_by++;
	}
}

static void step_linearity(void *arg)
{
	struct step *s = arg;
	struct pc_job *j = s->j;
	unsigned i;

	for (i = 0; i < PC_LINEARITY_PAIRS; i++) {
		struct pc_pair n, n2;

		pc_loop_pair(&j->probe, j->probe.iters, &n);
		pc_loop_pair(&j->probe, 2 * j->probe.iters, &n2);
		s->h->linearity(s->h->ctx, j, (int64_t)(n.hi - n.lo),
				(int64_t)(n2.hi - n2.lo));
	}
}

/* Runs one step of a live job, through the host's guard. */
static int guarded(struct step *s, const char *phase, void (*fn)(void *))
{
	if (!s->h->guard) {
		fn(s);
		return 0;
	}
	return s->h->guard(s->h->ctx, s->j, phase, fn, s);
}

static int stopped(const struct pc_engine_host *h)
{
	return h->stop ? h->stop(h->ctx) : 0;
}

static void progress(const struct pc_engine_host *h, const char *what,
		     unsigned k, unsigned n, const struct pc_job *j)
{
	if (h->progress)
		h->progress(h->ctx, what, k, n, j);
}

static void prepare_all(struct pc_job *const *jobs, unsigned njobs,
			const struct pc_engine_host *h)
{
	struct step s = { 0, h, 0 };
	unsigned i;

	for (i = 0; i < njobs && !stopped(h); i++) {
		s.j = jobs[i];
		progress(h, "warm-up", i + 1, njobs, s.j);
		if (s.j->live && s.j->check)
			guarded(&s, "the self-check", step_selfcheck);
		if (s.j->live && !stopped(h))
			guarded(&s, "the sizing and warm-up", step_prepare);
		if (s.j->live && h->prepared)
			h->prepared(h->ctx, s.j);
	}
}

/* "WHAT R of N" into phase (24 bytes), without snprintf. */
static void round_phase(char *phase, const char *what, unsigned r, unsigned n)
{
	char *p = phase;
	unsigned i;

	for (i = 0; what[i] && i < 12; i++)
		*p++ = what[i];
	*p++ = ' ';
	if (r >= 10)
		*p++ = (char)('0' + r / 10 % 10);
	*p++ = (char)('0' + r % 10);
	*p++ = ' ', *p++ = 'o', *p++ = 'f', *p++ = ' ';
	if (n >= 10)
		*p++ = (char)('0' + n / 10 % 10);
	*p++ = (char)('0' + n % 10);
	*p = 0;
}

/* Whether the host calls j known now (sequential stopping). */
static int ask(const struct pc_engine_host *h, struct pc_job *j,
	       const struct pc_engine_config *cfg)
{
	return j->live && !j->known && h->enough && cfg->floor &&
	       j->kept >= cfg->floor && h->enough(h->ctx, j);
}

/*
 * Rounds: each takes its share of every probe's samples, so that a
 * disturbance of the host lasting milliseconds touches a little of every
 * probe rather than all of one. With sequential stopping the samples are
 * taken in two passes of rounds: the floor first, spread over the whole
 * pass like any count; then the rest up to the ceiling, the host asked
 * after the first pass and after each round of the second whether a job's
 * figure is known (a known job sits the rest out).
 */
static void sample_pass(struct pc_job *const *jobs, unsigned njobs, unsigned samples,
			unsigned first_round, unsigned all_rounds,
			const struct pc_engine_config *cfg, const struct pc_engine_host *h,
			const char *what, int asking)
{
	unsigned rounds = cfg->rounds < samples ? cfg->rounds : samples;
	struct step s = { 0, h, 0 };
	unsigned round, i;
	char phase[24];

	for (round = 0; round < rounds && !stopped(h); round++) {
		s.count = (unsigned)(pc_udiv64((uint64_t)samples * (round + 1), rounds) -
				     pc_udiv64((uint64_t)samples * round, rounds));
		round_phase(phase, what, first_round + round + 1, all_rounds);
		for (i = 0; i < njobs && !stopped(h); i++) {
			s.j = jobs[i];
			if (!s.j->live || s.j->known)
				continue;
			progress(h, what, first_round + round + 1, all_rounds, s.j);
			guarded(&s, phase, step_sample);
			if (asking && round + 1 < rounds && ask(h, s.j, cfg))
				s.j->known = 1;
		}
	}
}

static void sample_rounds(struct pc_job *const *jobs, unsigned njobs,
			  const struct pc_engine_config *cfg,
			  const struct pc_engine_host *h, const char *what)
{
	unsigned first = cfg->floor < cfg->samples ? cfg->floor : cfg->samples;
	unsigned r1, r2, i;

	if (!cfg->floor || !h->enough || first == cfg->samples) {
		r1 = cfg->rounds < cfg->samples ? cfg->rounds : cfg->samples;
		sample_pass(jobs, njobs, cfg->samples, 0, r1, cfg, h, what, 0);
		return;
	}
	r1 = cfg->rounds < first ? cfg->rounds : first;
	r2 = cfg->rounds < cfg->samples - first ? cfg->rounds : cfg->samples - first;
	sample_pass(jobs, njobs, first, 0, r1 + r2, cfg, h, what, 0);
	for (i = 0; i < njobs && !stopped(h); i++)
		if (ask(h, jobs[i], cfg))
			jobs[i]->known = 1;
	sample_pass(jobs, njobs, cfg->samples - first, r1, r1 + r2, cfg, h, what, 1);
}

static int sample_and_check(struct pc_job *const *jobs, unsigned njobs,
			    const struct pc_engine_config *cfg,
			    const struct pc_engine_host *h, const char *what)
{
	struct step s = { 0, h, 0 };
	unsigned i;

	sample_rounds(jobs, njobs, cfg, h, what);
	for (i = 0; i < njobs && !stopped(h); i++) {
		s.j = jobs[i];
		if (s.j->live && s.j->kept)
			guarded(&s, "the linearity check", step_linearity);
	}
	return stopped(h);
}

int pc_engine_run(struct pc_job *const *jobs, unsigned njobs,
		  const struct pc_engine_config *cfg, const struct pc_engine_host *h)
{
	prepare_all(jobs, njobs, h);
	return sample_and_check(jobs, njobs, cfg, h, "round");
}

int pc_engine_resample(struct pc_job *const *jobs, unsigned njobs,
		       const struct pc_engine_config *cfg,
		       const struct pc_engine_host *h)
{
	unsigned i;

	for (i = 0; i < njobs; i++) {
		jobs[i]->kept = 0;
		jobs[i]->short_by = 0;
		jobs[i]->kept_slow = 0;
		jobs[i]->known = 0;
		jobs[i]->budget = cfg->samples;
	}
	return sample_and_check(jobs, njobs, cfg, h, "resample");
}
