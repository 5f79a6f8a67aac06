/* SPDX-License-Identifier: MIT */
/*
 * measure.c - the harness: pinning, self-checks, sizing, warm-up,
 * differential timing, per-sample calibration, rounds.
 *
 * One sample is a pair of timed loops with the same iteration count, the
 * body unrolled PC_UNROLL_HI and PC_UNROLL_LO times; their difference is
 * iters * PC_UNROLL_DIFF operations and nothing else (loop control, timer
 * reads, the call: all cancel). The order of the pair alternates so that a
 * slow drift cannot bias one side.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contain.h"
#include "events.h"
#include "primcost.h"
#include "ring0.h"

#define WARMUP_BATCH 15
#define WARMUP_MAX_BATCHES 20
#define LINEARITY_SAMPLES 31
#define LINEARITY_TOLERANCE 0.10	/* D(2N)/D(N) within 2 +- 10 % */
#define LINEARITY_FLOOR_TICKS 0.05	/* per op: below this D is noise */
#define PC_ROUNDS 10			/* rounds the samples are spread over */

const char *pc_status_name(enum pc_status s)
{
	static const char *const names[] = { "ok", "skipped", "unsupported", "failed" };

	return (unsigned)s < 4 ? names[s] : "?";
}

/* A test program may define this table to give rows test-only bodies (the
 * trapping ones of tests/trap_run.c); primcost does not, and it is NULL. */
extern const struct pc_arch_probe pc_test_bodies[PC_PROBE_COUNT] __attribute__((weak));

/* The row's own body, or the fallback the backend names when this CPU
 * cannot run it (arm64: LL/SC where LSE atomics are missing). */
const struct pc_arch_probe *pc_probe_impl(enum pc_probe_id id)
{
	const struct pc_arch_probe *p = NULL;

	if ((unsigned)id >= PC_PROBE_COUNT)
		return NULL;
	if (pc_test_bodies && pc_test_bodies[id].run)
		p = &pc_test_bodies[id];
	else if (pc_arch_probes[id].run)
		p = &pc_arch_probes[id];
	else if (pc_portable_probes[id].run)
		p = &pc_portable_probes[id];
	while (p && p->unavailable && p->unavailable(pc_arch_env()))
		p = p->fallback;
	return p;
}

const char *pc_probe_note(enum pc_probe_id id)
{
	const struct pc_arch_probe *p;

	if ((unsigned)id >= PC_PROBE_COUNT)
		return NULL;
	p = &pc_arch_probes[id];
	if (!p->run)
		return pc_portable_probes[id].run ? NULL : p->unsupported;
	return p->unavailable ? p->unavailable(pc_arch_env()) : NULL;
}

int pc_probe_find(const char *name)
{
	int i;

	for (i = 0; i < PC_PROBE_COUNT; i++)
		if (strcmp(pc_probe_rows[i].name, name) == 0)
			return i;
	return -1;
}

int pc_pin_cpu(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		snprintf(err, errlen, "no such CPU: %d", cpu);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, errlen, "cannot pin to CPU %d: %m", cpu);
		return -1;
	}
	return cpu;
}

/* ---- self-check -------------------------------------------------------- */

const char *pc_selfcheck(const struct pc_arch_probe *p, char *buf, size_t len)
{
	static const uint64_t iters_list[] = { 1, 3 };
	struct pc_probe_state before, st;
	const char *why;
	unsigned i;
	int hi;

	for (hi = 0; hi <= 1; hi++) {
		for (i = 0; i < sizeof(iters_list) / sizeof(iters_list[0]); i++) {
			uint64_t ops = iters_list[i] *
				       (uint64_t)(hi ? PC_UNROLL_HI : PC_UNROLL_LO);

			memset(&st, 0, sizeof(st));
			if (p->init)
				p->init(&st);
			before = st;
			p->run(&st, iters_list[i], hi);
			why = p->check(&before, &st, ops);
			if (why) {
				snprintf(buf, len, "self-check failed after %llu "
					 "operations: %s", (unsigned long long)ops, why);
				return buf;
			}
		}
	}
	if (p->semantics) {
		memset(&st, 0, sizeof(st));
		why = p->semantics(&st);
		if (why) {
			snprintf(buf, len, "self-check failed: %s", why);
			return buf;
		}
	}
	return NULL;
}

/* ---- sampling ------------------------------------------------------------ */

struct sampler {
	const struct pc_arch_probe *p;
	const struct pc_clock *clk;
	struct pc_probe_state st;
	uint64_t iters;
	unsigned flip;
	struct pc_ring0 *r0;	/* the loops run in ring 0 (ring0.c); NULL: here */
	enum pc_probe_id id;
	const struct pc_events *ev;	/* group read around each pair, or NULL */
	struct pc_loop_counts loop[2];	/* what the last lo and hi loops saw */
};

static void sampler_init(struct sampler *s)
{
	if (s->r0)
		pc_ring0_init_state(s->r0, s->id, &s->st);
	else if (s->p->init)
		s->p->init(&s->st);
}


/* One timed loop. The PMU cycles are read right outside the timer reads;
 * whatever the reads cost is the same in both loops of a sample and cancels
 * like the loop overhead. loop[hi].full says whether the cycles counter ran
 * throughout. */
static uint64_t timed(struct sampler *s, uint64_t iters, int hi, uint64_t *cycles)
{
	struct pc_loop_counts *lc = &s->loop[hi ? 1 : 0];
	struct pc_counter_reading c0, c1;
	uint64_t t;

	lc->full = true;
	if (s->r0)
		return pc_ring0_run(s->r0, s->id, &s->st, iters, hi);
	if (s->clk->pmu_fd >= 0)
		pc_clock_pmu_sample(s->clk, &c0);
	t = s->p->run(&s->st, iters, hi);
	if (s->clk->pmu_fd >= 0) {
		pc_clock_pmu_sample(s->clk, &c1);
		*cycles = c1.value - c0.value;
		lc->full = pc_counter_full(&c0, &c1);
	}
	return t;
}

/* One differential sample: total ticks (and PMU cycles) of iters*DIFF ops. */
static void sample_pair(struct sampler *s, uint64_t iters, double *dticks,
			double *dcycles)
{
	uint64_t t[2], c[2] = { 0, 0 };
	int first = (s->flip++ & 1) ? 1 : 0;
	/* The events group is read before, between and after the two loops
	 * (one read per boundary); without -e events only the disturbance
	 * counters are in it and the pair is judged as a whole: no read
	 * between, and loop[0] holds the pair's counts. */
	bool per_loop = s->ev && s->ev->n;
	struct pc_group_reading g[3];

	if (s->ev)
		pc_events_read(s->ev, &g[0]);
	t[first] = timed(s, iters, first, &c[first]);
	if (per_loop)
		pc_events_read(s->ev, &g[1]);
	t[!first] = timed(s, iters, !first, &c[!first]);
	if (per_loop) {
		pc_events_read(s->ev, &g[2]);
		pc_events_loop(s->ev, &g[0], &g[1], &s->loop[first]);
		pc_events_loop(s->ev, &g[1], &g[2], &s->loop[!first]);
	} else if (s->ev) {
		pc_events_read(s->ev, &g[2]);
		pc_events_loop(s->ev, &g[0], &g[2], &s->loop[0]);
		memset(s->loop[1].value, 0, sizeof(s->loop[1].value));
	}
	*dticks = (double)t[1] - (double)t[0];
	if (dcycles)
		*dcycles = (double)c[1] - (double)c[0];
}

/* d: room for n values (contained work must not allocate). */
static double median_per_op(struct sampler *s, uint64_t iters, unsigned n, double *d)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		sample_pair(s, iters, &d[i], NULL);
		d[i] /= (double)(iters * PC_UNROLL_DIFF);
	}
	return pc_median(d, n);
}

/* Smallest iteration count whose hi loop lasts about target_ticks. */
static uint64_t size_sample(struct sampler *s, double target_ticks)
{
	uint64_t iters = 1, c;

	for (;;) {
		double t[3];
		int i;

		for (i = 0; i < 3; i++)
			t[i] = (double)timed(s, iters, 1, &c);
		double med = pc_median(t, 3);

		if (med >= 0.9 * target_ticks || iters >= (1ULL << 32))
			return iters;
		double grow = med > 1 ? target_ticks / med : 16;

		if (grow > 16)
			grow = 16;
		if (grow < 1.25)
			grow = 1.25;
		iters = (uint64_t)ceil((double)iters * grow);
	}
}

/*
 * A sample is a difference of two intervals, each read with an error below
 * one timer step: below 2 steps in all. A hi loop of at least
 * PC_MIN_SAMPLE_STEPS steps (size_sample() stops at 0.9 of its target, and
 * the difference is 64/80 of the loop) keeps that under 0.3 % of the
 * difference where the body dominates. Matters for slow timers: 1000 steps
 * of a 24 MHz arm64 generic timer are 42 us.
 */
#define PC_MIN_SAMPLE_STEPS 1000

double pc_sample_ticks(const struct pc_clock *clk, double seconds)
{
	double want = seconds * clk->tick_hz;
	double floor = (double)PC_MIN_SAMPLE_STEPS * (double)(clk->tick_step ? clk->tick_step : 1);

	return want > floor ? want : floor;
}

/* Runs batches until two consecutive batch medians agree. */
static void warm_up(struct sampler *s)
{
	double prev = NAN, d[WARMUP_BATCH];
	int b;

	for (b = 0; b < WARMUP_MAX_BATCHES; b++) {
		double m = median_per_op(s, s->iters, WARMUP_BATCH, d);

		if (!isnan(prev) && fabs(m - prev) <= 0.01 * fabs(m) + 0.005)
			return;
		prev = m;
	}
}

/* A sampler for others (ring0.c's gate): sized and warmed up. */
struct pc_sampler {
	struct sampler s;
};

struct pc_sampler *pc_sampler_open(struct pc_ring0 *r0, enum pc_probe_id id,
				   const struct pc_clock *clk, double sample_s)
{
	struct pc_sampler *ps;

	if (!pc_probe_impl(id) || !(ps = calloc(1, sizeof(*ps))))
		return NULL;
	ps->s.p = pc_probe_impl(id);
	ps->s.clk = clk;
	ps->s.r0 = r0;
	ps->s.id = id;
	sampler_init(&ps->s);
	ps->s.iters = size_sample(&ps->s, pc_sample_ticks(clk, sample_s));
	warm_up(&ps->s);
	return ps;
}

double pc_sampler_take(struct pc_sampler *ps)
{
	double d;

	sample_pair(&ps->s, ps->s.iters, &d, NULL);
	return d / (double)(ps->s.iters * PC_UNROLL_DIFF);
}

void pc_sampler_close(struct pc_sampler *ps)
{
	free(ps);
}

int pc_calibrate(const struct pc_clock *clk, unsigned samples, double sample_s,
		 double *cycles_per_tick, char *err, size_t errlen)
{
	struct sampler s;
	double ticks_per_add, *d;

	memset(&s, 0, sizeof(s));
	s.p = &pc_arch_probes[PC_PROBE_calib_add_chain];
	s.clk = clk;
	if (!s.p->run) {
		snprintf(err, errlen, "this backend has no add chain to calibrate with");
		return -1;
	}
	d = malloc((samples > WARMUP_BATCH ? samples : WARMUP_BATCH) * sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s.iters = size_sample(&s, pc_sample_ticks(clk, sample_s));
	median_per_op(&s, s.iters, WARMUP_BATCH, d);
	ticks_per_add = median_per_op(&s, s.iters, samples, d);
	free(d);
	if (!(ticks_per_add > 0)) {
		snprintf(err, errlen, "add-chain calibration read %.4f ticks per add",
			 ticks_per_add);
		return -1;
	}
	*cycles_per_tick = 1.0 / ticks_per_add;
	return 0;
}

/*
 * A probe being measured. Without a PMU, every probe sample is paired with
 * an add-chain sample taken right after it: the sample's cycles are its
 * ticks per op divided by the add chain's ticks per add at that moment, so a
 * host that changes the core clock during the run moves both together.
 */
struct job {
	struct pc_probe_result *r;
	struct sampler s, cal;
	uint64_t ops, cal_ops;
	double *dt, *dc, *cpt;	/* per-op ticks, per-op cycles, cycles per tick */
	unsigned n;		/* samples taken so far */
	bool pmu;
	const struct pc_events *ev;	/* counted around each sample, or NULL */
	unsigned nev;		/* the user's events */
	double **evv;		/* [nev][samples]: per-op counts */
	bool *ev_nonzero;	/* [nev]: counted something in some loop */
	struct pc_reject rej;	/* discarded samples */
	bool live;		/* still being measured */
	double spent_s;		/* time spent in this probe's code so far */
	struct sampler can;	/* the contention canary, when can_c != NULL */
	uint64_t can_ops;
	double *can_c;		/* per sample: the canary's cycles per operation */
};

/* Everything a probe needs before its code runs: no probe code here. */
static int job_alloc(struct job *j, const struct pc_arch_probe *p,
		     const struct pc_measure_config *cfg, const struct pc_clock *clk,
		     struct pc_ring0 *r0)
{
	unsigned i;

	/* Ring-0 loops are calibrated by the ring-0 add chain, never the PMU. */
	j->pmu = clk->pmu_fd >= 0 && !r0;
	j->s.p = p;
	j->s.clk = clk;
	j->s.r0 = r0;
	j->s.id = j->r->id;
	if (!j->pmu) {
		j->cal.p = &pc_arch_probes[PC_PROBE_calib_add_chain];
		j->cal.clk = clk;
		j->cal.r0 = r0;
		j->cal.id = PC_PROBE_calib_add_chain;
	}
	/* The canary runs in ring 3 only (ring-0 rows are gated apart). */
	if (!r0 && !cfg->keep_contended &&
	    pc_probe_impl(PC_PROBE_calib_add_throughput)) {
		j->can.p = pc_probe_impl(PC_PROBE_calib_add_throughput);
		j->can.clk = clk;
		j->can.id = PC_PROBE_calib_add_throughput;
		if (!(j->can_c = calloc(cfg->samples, sizeof(*j->can_c))))
			return -1;
	}
	j->ev = pc_events_active(cfg->events) ? cfg->events : NULL;
	j->nev = j->ev ? j->ev->n : 0;
	j->rej.budget = cfg->samples;	/* up to as many retakes as samples */
	j->dt = calloc(cfg->samples, sizeof(*j->dt));
	j->dc = calloc(cfg->samples, sizeof(*j->dc));
	j->cpt = calloc(cfg->samples, sizeof(*j->cpt));
	if (j->nev) {
		j->evv = calloc(j->nev, sizeof(*j->evv));
		j->ev_nonzero = calloc(j->nev, sizeof(*j->ev_nonzero));
		if (!j->evv || !j->ev_nonzero)
			return -1;
		for (i = 0; i < j->nev; i++)
			if (!(j->evv[i] = calloc(cfg->samples, sizeof(**j->evv))))
				return -1;
	}
	return j->dt && j->dc && j->cpt ? 0 : -1;
}

/* Sizing and warm-up: runs probe code (contained). */
static void job_prepare(struct job *j, const struct pc_measure_config *cfg,
			const struct pc_clock *clk)
{
	sampler_init(&j->s);
	j->s.iters = size_sample(&j->s, pc_sample_ticks(clk, cfg->sample_s));
	j->ops = j->s.iters * PC_UNROLL_DIFF;
	warm_up(&j->s);
	if (!j->pmu) {
		j->cal.iters = size_sample(&j->cal, pc_sample_ticks(clk, 0.5 * cfg->sample_s));
		j->cal_ops = j->cal.iters * PC_UNROLL_DIFF;
	}
	if (j->can_c) {
		sampler_init(&j->can);
		j->can.iters = size_sample(&j->can, pc_sample_ticks(clk, 0.5 * cfg->sample_s));
		j->can_ops = j->can.iters * PC_UNROLL_DIFF;
	}
	/* Sizing and warm-up judge nothing: the events are read from here on. */
	j->s.ev = j->cal.ev = j->ev;
}

/* One sample into slot `slot`, and the counters' verdict on it. */
static enum pc_sample_verdict take_sample(void *ctx, unsigned slot)
{
	struct job *j = ctx;
	struct pc_loop_counts loops[4];
	double *dt = &j->dt[slot], *dc = &j->dc[slot];
	enum pc_sample_verdict v;
	unsigned i, nloops = 2;

	sample_pair(&j->s, j->s.iters, dt, j->pmu ? dc : NULL);
	loops[0] = j->s.loop[0];
	loops[1] = j->s.loop[1];
	*dt /= (double)j->ops;
	if (j->pmu) {
		*dc /= (double)j->ops;
	} else {
		double add_ticks;

		sample_pair(&j->cal, j->cal.iters, &add_ticks, NULL);
		loops[nloops++] = j->cal.loop[0];
		loops[nloops++] = j->cal.loop[1];
		/* A coarse timer (an emulator's) can read no difference at all:
		 * that calibration cannot scale anything; the sample is retaken. */
		if (!(add_ticks > 0))
			return PC_SAMPLE_DISTURBED;
		j->cpt[slot] = (double)j->cal_ops / add_ticks;
		*dc = *dt * j->cpt[slot];
	}
	if (j->can_c) {
		double can_ticks, can_cycles = 0;

		sample_pair(&j->can, j->can.iters, &can_ticks, j->pmu ? &can_cycles : NULL);
		j->can_c[slot] = (j->pmu ? can_cycles : can_ticks * j->cpt[slot]) /
				 (double)j->can_ops;
	}
	v = pc_events_verdict(j->ev, loops, nloops);
	if (v == PC_SAMPLE_KEEP) {
		for (i = 0; i < j->nev; i++) {
			uint64_t hi = loops[1].value[i], lo = loops[0].value[i];

			j->evv[i][slot] = ((double)hi - (double)lo) / (double)j->ops;
			j->ev_nonzero[i] |= hi != 0 || lo != 0;
		}
	}
	return v;
}

/* Takes count more samples; disturbed or multiplexed ones are retaken. */
static void job_sample(struct job *j, unsigned count)
{
	j->n += pc_collect(&j->rej, j->n, count, take_sample, j);
}

/* Per-op statistics of the events, and what was discarded. */
static int job_finish_events(struct job *j, const struct pc_measure_config *cfg)
{
	struct pc_probe_events *pe = &j->r->events;
	unsigned i;

	/* With no group open at all (every event refused), the events are
	 * still reported, as unsupported with their reasons. */
	pe->def = j->ev ? j->ev : cfg->events && cfg->events->n ? cfg->events : NULL;
	pe->checked = j->ev && j->ev->reject;
	pe->disturbed = j->rej.disturbed;
	pe->multiplexed = j->rej.multiplexed;
	pe->short_by = j->rej.short_by;
	if (!j->nev || !j->n)
		return 0;
	pe->per_op = calloc(j->nev, sizeof(*pe->per_op));
	pe->counted = calloc(j->nev, sizeof(*pe->counted));
	if (!pe->per_op || !pe->counted)
		return -1;
	for (i = 0; i < j->nev; i++) {
		const struct pc_event *ev = &j->ev->ev[i];

		pe->counted[i] = pc_event_has_figures(ev, j->ev_nonzero[i]);
		if (pc_summarize(j->evv[i], j->n, &pe->per_op[i]) < 0)
			return -1;
	}
	if (cfg->keep_samples) {
		pe->raw = j->evv;
		j->evv = NULL;
	}
	return 0;
}

/* Linearity: doubling the work must double the difference (contained). */
static void job_linearity(struct job *j)
{
	struct pc_probe_result *r = j->r;
	double lin_n[LINEARITY_SAMPLES], lin_2n[LINEARITY_SAMPLES], dn, d2n;
	unsigned i;

	j->s.ev = NULL;
	for (i = 0; i < LINEARITY_SAMPLES; i++) {
		sample_pair(&j->s, j->s.iters, &lin_n[i], NULL);
		sample_pair(&j->s, 2 * j->s.iters, &lin_2n[i], NULL);
	}
	dn = pc_median(lin_n, LINEARITY_SAMPLES);
	d2n = pc_median(lin_2n, LINEARITY_SAMPLES);
	r->linearity = NAN;
	if (dn / (double)j->ops >= LINEARITY_FLOOR_TICKS) {
		r->linearity = d2n / dn;
		r->nonlinear = fabs(r->linearity - 2.0) > 2.0 * LINEARITY_TOLERANCE;
	}
	if (r->nonlinear)
		snprintf(r->reason, sizeof(r->reason), "not linear: doubling the "
			 "iterations scaled the difference by %.2f, not 2",
			 r->linearity);
}

size_t pc_contention_keep(const double *canary, size_t n, double limit, bool *keep)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		keep[i] = canary[i] <= limit;
		kept += keep[i];
	}
	return kept;
}

/*
 * Drops the samples taken while the canary ran slow: the core was shared
 * (a busy sibling hyperthread, a neighbour's vCPU) and a throughput-bound
 * sequence then costs more for reasons that are not its own. Unless so many
 * are flagged that the rest could not stand for the probe: then the core
 * was contended throughout, every sample is kept and the reason says so.
 */
static void job_drop_contended(struct job *j, double limit)
{
	size_t kept, i, k;
	unsigned e;
	bool *keep;

	if (!j->can_c || !j->n || !(keep = malloc(j->n * sizeof(*keep))))
		return;
	kept = pc_contention_keep(j->can_c, j->n, limit, keep);
	if (kept < j->n && (kept < 9 || kept < j->n / 4)) {
		size_t len = strlen(j->r->reason);

		snprintf(j->r->reason + len, sizeof(j->r->reason) - len,
			 "%scontended: the core was shared during %zu of %u samples "
			 "(kept them all)", len ? "; " : "", j->n - kept, j->n);
	} else if (kept < j->n) {
		for (i = 0, k = 0; i < j->n; i++) {
			if (!keep[i])
				continue;
			j->dt[k] = j->dt[i];
			j->dc[k] = j->dc[i];
			j->cpt[k] = j->cpt[i];
			j->can_c[k] = j->can_c[i];
			for (e = 0; e < j->nev; e++)
				j->evv[e][k] = j->evv[e][i];
			k++;
		}
		j->r->events.contended = j->n - (unsigned)kept;
		j->n = (unsigned)kept;
	}
	free(keep);
}

/* The canary's best (first quartile) and median over the whole run, every
 * probe's samples together: the reference a sample's canary is held to. */
static void canary_reference(struct job *jobs, size_t njobs, struct pc_profile *prof)
{
	size_t i, n = 0, k;
	double *all;

	for (i = 0; i < njobs; i++)
		if (jobs[i].live && jobs[i].can_c)
			n += jobs[i].n;
	if (!n || !(all = malloc(n * sizeof(*all))))
		return;
	for (i = 0, k = 0; i < njobs; i++)
		if (jobs[i].live && jobs[i].can_c) {
			memcpy(all + k, jobs[i].can_c, jobs[i].n * sizeof(*all));
			k += jobs[i].n;
		}
	prof->canary_median = pc_median(all, n);
	/* The first quartile, not the minimum: one canary sample is a ratio
	 * of two short measurements, and its noise reaches below the core's
	 * true best. */
	prof->canary_best = pc_quantile_sorted(all, n, 0.25);
	prof->canary = prof->canary_best > 0;
	free(all);
}

static int job_finish(struct job *j, const struct pc_measure_config *cfg,
		      const struct pc_clock *clk)
{
	struct pc_probe_result *r = j->r;

	if (job_finish_events(j, cfg) < 0)
		return -1;
	if (!j->n) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "every sample was discarded "
			 "(%u disturbed by a context switch or migration, %u with "
			 "counters not running throughout)", j->rej.disturbed,
			 j->rej.multiplexed);
		return 0;
	}

	r->iters = j->s.iters;
	r->ops_per_sample = j->ops;
	r->samples = j->n;
	r->cycles_source = j->pmu ? PC_CYCLES_PMU : PC_CYCLES_CALIBRATED;
	pc_summarize(j->dt, j->n, &r->ticks);
	pc_summarize(j->dc, j->n, &r->cycles);
	r->ns = pc_summary_scale(&r->ticks, 1e9 / clk->tick_hz);
	r->cycles_per_tick = j->pmu ? r->cycles.median / r->ticks.median :
			     pc_median(j->cpt, j->n);
	if (j->s.r0)
		pc_ring0_finish(j->s.r0, r);
	if (cfg->keep_samples) {
		r->raw_ticks = j->dt;
		r->raw_cycles = j->dc;
		j->dt = j->dc = NULL;
	}
	if (j->rej.short_by) {
		size_t len = strlen(r->reason);

		snprintf(r->reason + len, sizeof(r->reason) - len, "%s%u of %u "
			 "samples: the rest were discarded (disturbed or multiplexed) "
			 "after the retake budget ran out", len ? "; " : "", j->n,
			 j->n + j->rej.short_by);
	}
	return 0;
}

static void job_free(struct job *j)
{
	unsigned i;

	free(j->dt);
	free(j->dc);
	free(j->cpt);
	free(j->can_c);
	for (i = 0; j->evv && i < j->nev; i++)
		free(j->evv[i]);
	free(j->evv);
	free(j->ev_nonzero);
}

/* The progress line on a terminal, and the --status-fd lines:
 * "warm-up K/N NAME", "round R/ROUNDS NAME" (a share of NAME's samples
 * begins), "measured". */
static void progress(const struct pc_measure_config *cfg, const char *what,
		     size_t k, size_t n, const char *name)
{
	if (name)
		pc_status_line(cfg->status_fd, "%s %zu/%zu %s", what, k, n, name);
	else
		pc_status_line(cfg->status_fd, "measured");
	if (!cfg->progress)
		return;
	if (name)
		fprintf(stderr, "\rprimcost: %s [%2zu/%zu] %-28s", what, k, n, name);
	else
		fprintf(stderr, "\r%-70s\r", "");
	fflush(stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Status of a row before any timing: NULL implementation, ring. (A ring-3
 * self-check runs probe code: it is the first contained phase.) */
static const struct pc_arch_probe *admit(struct pc_probe_result *r,
					 const struct pc_measure_config *cfg,
					 const struct pc_clock *clk)
{
	const struct pc_probe_row *row = &pc_probe_rows[r->id];
	const struct pc_arch_probe *impl = pc_probe_impl(r->id);

	if (!impl) {
		r->status = PC_STATUS_UNSUPPORTED;
		if (pc_probe_note(r->id))
			snprintf(r->reason, sizeof(r->reason), "%s", pc_probe_note(r->id));
		else
			snprintf(r->reason, sizeof(r->reason),
				 "no %s implementation of this probe", pc_arch_name);
		return NULL;
	}
	if (row->ring == 0)	/* self-check and validation gate in ring 0 */
		return pc_ring0_admit(cfg->ring0, r, clk, cfg->sample_s) ? impl : NULL;
	if (pc_probe_note(r->id))	/* measured through the fallback */
		snprintf(r->reason, sizeof(r->reason), "%s", pc_probe_note(r->id));
	return impl;
}

/* ---- containment: a trap or a hang fails its probe, not the run ------------ */

/*
 * Every call into probe code goes through contain(): the self-check, sizing
 * and warm-up, each round's share of samples, the linearity check. A trap
 * (SIGILL, SIGSEGV, SIGBUS, SIGFPE) or the probe's time running out makes the
 * probe failed, with the signal and the instruction in the reason; an
 * interruption stops the run. See contain.c for why this costs the timed
 * loops nothing.
 */
struct phase {
	struct job *j;
	const struct pc_measure_config *cfg;
	const struct pc_clock *clk;
	unsigned count;
	const char *check;		/* the self-check's verdict */
	char why[256];
};

static void phase_selfcheck(void *a)
{
	struct phase *ph = a;

	ph->check = pc_selfcheck(ph->j->s.p, ph->why, sizeof(ph->why));
}

static void phase_prepare(void *a)
{
	struct phase *ph = a;

	job_prepare(ph->j, ph->cfg, ph->clk);
}

static void phase_sample(void *a)
{
	struct phase *ph = a;

	job_sample(ph->j, ph->count);
}

static void phase_linearity(void *a)
{
	job_linearity(((struct phase *)a)->j);
}

/* Runs one phase of a live probe; false when it did not complete. */
static bool contain(struct job *j, const char *phase, void (*fn)(void *),
		    struct phase *ph)
{
	const struct pc_measure_config *cfg = ph->cfg;
	struct pc_probe_result *r = j->r;
	double t0 = now_s(), limit = 0;
	enum pc_contain_result rc;
	struct pc_trap t;
	char what[320];

	if (cfg->probe_timeout_s > 0) {
		limit = cfg->probe_timeout_s - j->spent_s;
		if (limit < 1e-3)
			limit = 1e-3;
	}
	ph->j = j;
	rc = pc_contain_call(fn, ph, limit, &t);
	j->spent_s += now_s() - t0;
	if (rc == PC_CONTAIN_DONE)
		return true;
	if (rc == PC_CONTAIN_INTERRUPTED)
		return false;	/* not the probe's fault: the run stops */
	j->live = false;
	r->status = PC_STATUS_FAILED;
	pc_trap_describe(&t, what, sizeof(what));
	if (rc == PC_CONTAIN_TRAP)
		snprintf(r->reason, sizeof(r->reason), "trapped in %s: %s; sequence: %s",
			 phase, what, j->s.p->sequence ? j->s.p->sequence : "?");
	else
		snprintf(r->reason, sizeof(r->reason), "still running after its "
			 "time limit of %.3g s (--probe-timeout), in %s: %s",
			 cfg->probe_timeout_s, phase, what);
	return false;
}

/* A probe the run did not reach, or did not finish, before an interruption. */
static void cut_short(struct pc_probe_result *r, unsigned have, unsigned want,
		      int sig)
{
	r->partial = true;
	if (have) {
		snprintf(r->reason, sizeof(r->reason), "partial: %u of %u samples "
			 "(the run was interrupted by %s)", have, want,
			 pc_signal_name(sig));
		return;
	}
	r->status = PC_STATUS_SKIPPED;
	snprintf(r->reason, sizeof(r->reason), "not measured: the run was "
		 "interrupted by %s", pc_signal_name(sig));
}

/*
 * Probes are measured in rounds: each round takes a share of every probe's
 * samples in turn. A disturbance of the host lasting some milliseconds (a
 * busy sibling hyperthread, another guest) then touches a little of every
 * probe instead of all of one, and the medians stay put from run to run.
 */
int pc_profile_run(const bool *selected, const struct pc_measure_config *cfg,
		   const struct pc_clock *clk, struct pc_profile *prof,
		   char *err, size_t errlen)
{
	struct job *jobs = NULL;
	struct phase ph;
	double *calib = NULL, t_start = now_s();
	size_t n = 0, k = 0, njobs = 0, ncal = 0, njobs_failed = 0, i;
	unsigned rounds = cfg->samples < PC_ROUNDS ? cfg->samples : PC_ROUNDS, round;
	int id, stop;

	memset(prof, 0, sizeof(*prof));
	memset(&ph, 0, sizeof(ph));
	ph.cfg = cfg;
	ph.clk = clk;
	if (pc_contain_init(err, errlen) < 0)
		return -1;
	for (id = 0; id < PC_PROBE_COUNT; id++)
		n += selected[id];
	prof->probes = calloc(n ? n : 1, sizeof(*prof->probes));
	jobs = calloc(n ? n : 1, sizeof(*jobs));
	calib = calloc(n ? n : 1, sizeof(*calib));
	if (!prof->probes || !jobs || !calib)
		goto oom;
	prof->nprobes = n;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		struct pc_probe_result *r;
		const struct pc_arch_probe *impl;
		struct job *j;

		if (!selected[id])
			continue;
		r = &prof->probes[k++];
		r->id = (enum pc_probe_id)id;
		r->ring = pc_probe_rows[id].ring;
		r->linearity = NAN;
		r->cycles_source = clk->source;
		progress(cfg, "warm-up", k, n, pc_probe_rows[id].name);
		impl = admit(r, cfg, clk);
		if (!impl)
			continue;
		j = &jobs[njobs];
		j->r = r;
		if (job_alloc(j, impl, cfg, clk, r->ring == 0 ? cfg->ring0 : NULL) < 0)
			goto oom;
		njobs++;
		j->live = true;
		/* Ring-0 rows passed their self-check in ring 0 (admit). */
		if (r->ring != 0 &&
		    contain(j, "the self-check", phase_selfcheck, &ph) && ph.check) {
			r->status = PC_STATUS_FAILED;
			snprintf(r->reason, sizeof(r->reason), "%s", ph.why);
			j->live = false;
		}
		if (j->live && !pc_interrupted())
			contain(j, "the sizing and warm-up", phase_prepare, &ph);
	}
	for (round = 0; round < rounds && !pc_interrupted(); round++) {
		/* Spread the samples evenly: round r takes its share. */
		unsigned share = cfg->samples * (round + 1) / rounds -
				 cfg->samples * round / rounds;
		char phase[32];

		snprintf(phase, sizeof(phase), "round %u of %u", round + 1, rounds);
		for (i = 0; i < njobs && !pc_interrupted(); i++) {
			if (!jobs[i].live)
				continue;
			progress(cfg, "round", round + 1, rounds,
				 pc_probe_rows[jobs[i].r->id].name);
			ph.count = share;
			contain(&jobs[i], phase, phase_sample, &ph);
		}
	}
	stop = pc_interrupted();
	canary_reference(jobs, njobs, prof);
	for (i = 0; i < njobs; i++) {
		struct job *j = &jobs[i];

		if (j->live && prof->canary) {
			job_drop_contended(j, prof->canary_best * (1 + PC_CONTENTION_TOLERANCE));
			prof->contended += j->r->events.contended;
		}

		if (j->live && j->n && !stop)
			contain(j, "the linearity check", phase_linearity, &ph);
		if (j->live && (stop = pc_interrupted()) != 0 && j->n < cfg->samples)
			cut_short(j->r, j->n, cfg->samples, stop);
		if (j->live && (j->n || !stop)) {
			if (job_finish(j, cfg, clk) < 0)
				njobs_failed++;
			else if (j->r->status == PC_STATUS_OK &&
				 j->r->cycles_per_tick > 0 &&
				 isfinite(j->r->cycles_per_tick))
				calib[ncal++] = j->r->cycles_per_tick;
		}
		job_free(j);
	}
	free(jobs);
	jobs = NULL;
	/* Probes the run never reached. */
	if ((stop = pc_interrupted()) != 0) {
		prof->interrupted = stop;
		for (i = 0; i < prof->nprobes; i++)
			if (prof->probes[i].status == PC_STATUS_OK &&
			    !prof->probes[i].samples && !prof->probes[i].partial)
				cut_short(&prof->probes[i], 0, cfg->samples, stop);
	}
	pc_contain_fini();
	if (njobs_failed) {
		free(calib);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	progress(cfg, NULL, 0, 0, NULL);

	/* How far the core clock moved during the run, across probes. */
	if (ncal) {
		prof->cycles_per_tick = pc_median(calib, ncal);
		prof->calib_drift = (calib[ncal - 1] - calib[0]) / prof->cycles_per_tick;
	}
	free(calib);

	/* Emulators and broken timers give calibrations no core can have. */
	double core_hz = prof->cycles_per_tick * clk->tick_hz;

	if (ncal && clk->source == PC_CYCLES_CALIBRATED &&
	    (!(core_hz > 2e8 && core_hz < 1e10) || prof->calib_drift > 0.10)) {
		prof->unreliable = true;
		snprintf(prof->unreliable_reason, sizeof(prof->unreliable_reason),
			 "calibration makes no sense: core clock %.0f MHz, moving "
			 "%.0f %% during the run (an emulator, or a timer that does "
			 "not count time?)", core_hz / 1e6, prof->calib_drift * 100);
	}
	/* With PMU cycles the add chain is an independent check: one cycle per
	 * add on every real core, whatever an emulator's counter says. */
	for (i = 0; i < prof->nprobes && !prof->unreliable; i++) {
		const struct pc_probe_result *r = &prof->probes[i];

		if (r->id == PC_PROBE_calib_add_chain && r->status == PC_STATUS_OK &&
		    r->cycles_source == PC_CYCLES_PMU &&
		    fabs(r->cycles.median - 1.0) > 0.10) {
			prof->unreliable = true;
			snprintf(prof->unreliable_reason, sizeof(prof->unreliable_reason),
				 "the dependent add chain reads %.2f PMU cycles per "
				 "add, not 1 (an emulator, or a counter that does not "
				 "count core cycles?)", r->cycles.median);
		}
	}
	prof->wall_s = now_s() - t_start;
	return 0;
oom:
	pc_contain_fini();
	for (i = 0; jobs && i <= njobs && i < n; i++)
		job_free(&jobs[i]);
	free(jobs);
	free(calib);
	free(prof->probes);
	memset(prof, 0, sizeof(*prof));
	snprintf(err, errlen, "out of memory");
	return -1;
}

void pc_profile_free(struct pc_profile *prof)
{
	size_t i;

	for (i = 0; i < prof->nprobes; i++) {
		struct pc_probe_events *pe = &prof->probes[i].events;
		unsigned k;

		free(prof->probes[i].raw_ticks);
		free(prof->probes[i].raw_cycles);
		for (k = 0; pe->raw && k < pe->def->n; k++)
			free(pe->raw[k]);
		free(pe->raw);
		free(pe->per_op);
		free(pe->counted);
	}
	free(prof->probes);
	memset(prof, 0, sizeof(*prof));
}
