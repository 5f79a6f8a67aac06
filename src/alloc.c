/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the allocator group timed by the engine (engine/engine.h).
 *
 * Every loop iteration runs one batch of PC_UNROLL_HI calls, the hi loop
 * and the lo loop alike; the hi loop times all of them, the lo loop the
 * first PC_UNROLL_LO. The two loops do the same work to the allocator and
 * read the timer at the same places, so their difference is the cost of
 * calls PC_UNROLL_LO + 1 .. PC_UNROLL_HI of a batch and nothing else:
 *   alloc.malloc       the mallocs timed, then the frees (untimed);
 *   alloc.free         the mallocs (untimed), then the frees timed;
 *   alloc.malloc_free  a malloc immediately freed, PC_UNROLL_HI times.
 * The timer returns only the timed parts, so sizing, warm-up and the
 * linearity check see the calls, not the untimed half of the batch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "contain.h"
#include "executor.h"
#include "samples.h"

/* One series: a row at one size on one allocator. */
struct alloc_loop {
	const struct pc_allocator *a;
	enum pc_alloc_pattern pattern;
	size_t size;
	bool touch;
	unsigned nulls;			/* malloc returned NULL */
	void *ptr[PC_UNROLL_HI];
};

/*
 * What the timed calls need lives in registers (locals), not in the loop's
 * structure: an allocator stores to its thread-local state on every call,
 * and a load of ours from an address 4 KiB-aliased with that store would
 * wait for it (a few cycles a call, in some runs and not others, as address
 * randomization places the two). The pointers go to ptr[], written once and
 * read after the timed calls.
 */
static inline __attribute__((always_inline))
void fill(void *(*m)(size_t), size_t size, void **ptr, unsigned from, unsigned to,
	  bool touch)
{
	unsigned i;

	for (i = from; i < to; i++) {
		void *p = m(size);

		if (touch && p)
			*(volatile char *)p = 0;
		ptr[i] = p;
	}
}

static inline __attribute__((always_inline))
void drain(void (*f)(void *), void **ptr, unsigned from, unsigned to)
{
	unsigned i;

	for (i = from; i < to; i++)
		f(ptr[i]);
}

/* Blocks a batch did not get: counted untimed, then no block is touched. */
static unsigned nulls(void *const *ptr)
{
	unsigned i, n = 0;

	for (i = 0; i < PC_UNROLL_HI; i++)
		n += !ptr[i];
	return n;
}

static uint64_t batch_malloc(struct alloc_loop *l, uint64_t iters, unsigned timed)
{
	void *(*m)(size_t) = l->a->malloc;
	void (*f)(void *) = l->a->free;
	size_t size = l->size;
	uint64_t t = 0, it, t0;

	for (it = 0; it < iters && !l->nulls; it++) {
		t0 = pc_timer_read();
		if (l->touch)
			fill(m, size, l->ptr, 0, timed, true);
		else
			fill(m, size, l->ptr, 0, timed, false);
		t += pc_timer_read() - t0;
		fill(m, size, l->ptr, timed, PC_UNROLL_HI, l->touch);
		l->nulls = nulls(l->ptr);
		drain(f, l->ptr, 0, PC_UNROLL_HI);
	}
	return t;
}

static uint64_t batch_free(struct alloc_loop *l, uint64_t iters, unsigned timed)
{
	void (*f)(void *) = l->a->free;
	uint64_t t = 0, it, t0;

	for (it = 0; it < iters && !l->nulls; it++) {
		fill(l->a->malloc, l->size, l->ptr, 0, PC_UNROLL_HI, l->touch);
		l->nulls = nulls(l->ptr);
		t0 = pc_timer_read();
		drain(f, l->ptr, 0, timed);
		t += pc_timer_read() - t0;
		drain(f, l->ptr, timed, PC_UNROLL_HI);
	}
	return t;
}

static inline __attribute__((always_inline))
void pair_loop(void *(*m)(size_t), void (*f)(void *), size_t size, uint64_t iters,
	       unsigned timed, bool touch)
{
	uint64_t it;
	unsigned i;

	for (it = 0; it < iters; it++)
		for (i = 0; i < timed; i++) {
			void *p = m(size);

			if (touch && p)
				*(volatile char *)p = 0;
			f(p);
		}
}

/* The pair runs the same number of calls as it times: a pair leaves the
 * allocator as it found it, so the lo loop need not pad. A NULL is looked
 * for once, untimed, before. */
static uint64_t pairs(struct alloc_loop *l, uint64_t iters, unsigned timed)
{
	void *(*m)(size_t) = l->a->malloc;
	void (*f)(void *) = l->a->free;
	size_t size = l->size;
	uint64_t t0;
	void *p = m(size);

	if (!p) {
		l->nulls++;
		return 0;
	}
	f(p);
	t0 = pc_timer_read();
	if (l->touch)
		pair_loop(m, f, size, iters, timed, true);
	else
		pair_loop(m, f, size, iters, timed, false);
	return pc_timer_read() - t0;
}

static uint64_t alloc_body(void *ctx, int probe, struct pc_probe_state *st,
			   uint64_t iters, int hi)
{
	struct alloc_loop *l = ctx;
	unsigned timed = hi ? PC_UNROLL_HI : PC_UNROLL_LO;

	(void)probe;
	(void)st;
	if (l->pattern == PC_ALLOC_MALLOC)
		return batch_malloc(l, iters, timed);
	if (l->pattern == PC_ALLOC_FREE)
		return batch_free(l, iters, timed);
	return pairs(l, iters, timed);
}

/* The allocator group's executor: ctx is the struct alloc_loop. */
static const struct pc_executor alloc_executor = {
	.init = NULL,
	.run = alloc_body,
};

/* ---- the jobs and the sink ----------------------------------------------------- */

struct job {
	struct pc_probe_result *r;
	struct pc_job ej;
	struct alloc_loop al;
	struct pc_host_loop hp, hc, hk;	/* probe, calibration, canary */
	struct pc_sample_set set;
	const struct pc_events *ev;
	unsigned disturbed, multiplexed;
};

static int job_setup(struct job *j, const struct pc_measure_config *cfg,
		     const struct pc_clock *clk)
{
	const struct pc_arch_probe *add = &pc_arch_probes[PC_PROBE_calib_add_chain];
	const struct pc_arch_probe *can = pc_probe_impl(PC_PROBE_calib_add_throughput);
	struct pc_body body = { &alloc_executor, &j->al };
	bool canary = !cfg->keep_contended && can;

	pc_job_clear(&j->ej);
	j->ej.host = j;
	j->ej.live = 1;
	j->ej.budget = cfg->samples;
	j->ej.target_ticks = (uint64_t)pc_sample_ticks(clk, cfg->sample_s);
	j->ej.cal_target_ticks = (uint64_t)pc_sample_ticks(clk, 0.5 * cfg->sample_s);
	/* The PMU would count the untimed half of each batch: cycles are the
	 * add chain's, paired with every sample. */
	pc_host_loop_bind(&j->ej.probe, &j->hp, 0, body, clk, false);
	pc_host_loop_bind(&j->ej.cal, &j->hc, PC_PROBE_calib_add_chain,
			  pc_body_direct(add), clk, false);
	if (canary)
		pc_host_loop_bind(&j->ej.canary, &j->hk, PC_PROBE_calib_add_throughput,
				  pc_body_direct(can), clk, false);
	j->ev = pc_events_active(cfg->events) ? cfg->events : NULL;
	return pc_sample_set_init(&j->set, cfg->samples, canary);
}

static enum pc_sample_verdict sink_sample(void *ctx, struct pc_job *ej, unsigned slot,
					  const struct pc_sample *x)
{
	struct job *j = ej->host;
	struct pc_loop_counts loops[4] = { j->hp.counts[0], j->hp.counts[1],
					   j->hc.counts[0], j->hc.counts[1] };
	enum pc_sample_verdict v;

	(void)ctx;
	if (!pc_sample_set_put(&j->set, slot, x, NULL)) {
		j->disturbed++;
		return PC_SAMPLE_DISTURBED;
	}
	v = pc_events_verdict(j->ev, loops, 4);
	j->disturbed += v == PC_SAMPLE_DISTURBED;
	j->multiplexed += v == PC_SAMPLE_MULTIPLEXED;
	return v;
}

static void sink_linearity(void *ctx, struct pc_job *ej, int64_t d_n, int64_t d_2n)
{
	(void)ctx;
	pc_sample_set_lin(&((struct job *)ej->host)->set, d_n, d_2n);
}

static void sink_failed(void *ctx, struct pc_job *ej, const char *phase,
			const char *why, uint64_t ops)
{
	struct pc_probe_result *r = ((struct job *)ej->host)->r;

	(void)ctx;
	(void)ops;
	r->status = PC_STATUS_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s: %s", phase, why);
}

static void sink_prepared(void *ctx, struct pc_job *ej)
{
	struct job *j = ej->host;

	(void)ctx;
	j->hp.ev = j->hc.ev = j->ev;
	j->set.iters = ej->probe.iters;
	j->set.cal_iters = ej->cal.iters;
	j->set.can_iters = ej->canary.iters;
}

static int stop(void *ctx)
{
	(void)ctx;
	return pc_interrupted();
}

static void progress(void *ctx, const char *what, unsigned k, unsigned n,
		     const struct pc_job *ej)
{
	const struct pc_measure_config *cfg = ctx;
	const struct job *j = ej->host;
	char name[64];

	snprintf(name, sizeof(name), "%s/%zu/%s", pc_alloc_rows[j->al.pattern],
		 j->al.size, j->al.a->name);
	pc_status_line(cfg->status_fd, "%s %u/%u %s", what, k, n, name);
	if (cfg->progress) {
		fprintf(stderr, "\rprimcost: %s [%2u/%u] %-32s", what, k, n, name);
		fflush(stderr);
	}
}

/* ---- after the engine ------------------------------------------------------------ */

/* The canary at its best (first quartile) over every point's samples. */
static void canary_reference(struct job *jobs, size_t njobs, struct pc_profile *prof)
{
	size_t i, n = 0, k = 0;
	double *all;

	for (i = 0; i < njobs; i++)
		if (jobs[i].ej.live && jobs[i].set.can_c)
			n += jobs[i].set.n;
	if (!n || !(all = malloc(n * sizeof(*all))))
		return;
	for (i = 0; i < njobs; i++)
		if (jobs[i].ej.live && jobs[i].set.can_c) {
			memcpy(all + k, jobs[i].set.can_c, jobs[i].set.n * sizeof(*all));
			k += jobs[i].set.n;
		}
	prof->canary_median = pc_median(all, n);
	prof->canary_best = pc_quantile_sorted(all, n, 0.25);
	prof->canary = prof->canary_best > 0;
	free(all);
}

/* The contention rule of every other row (docs/design.md). */
static void drop_contended(struct job *j, double limit)
{
	unsigned n = j->set.n, kept;
	bool *keep;

	if (!j->set.can_c || !n || !(keep = malloc(n * sizeof(*keep))))
		return;
	kept = (unsigned)pc_contention_keep(j->set.can_c, n, limit, keep);
	if (kept < n && (kept < PC_SAMPLES_MIN || kept < n / 4))
		snprintf(j->r->reason, sizeof(j->r->reason), "contended: the core was "
			 "shared during %u of %u samples (kept them all)", n - kept, n);
	else if (kept < n) {
		pc_sample_set_keep(&j->set, keep);
		j->r->events.contended = n - kept;
	}
	free(keep);
}

static int job_finish(struct job *j, const struct pc_clock *clk, bool keep)
{
	struct pc_probe_result *r = j->r;

	r->events.disturbed = j->disturbed;
	r->events.multiplexed = j->multiplexed;
	r->events.short_by = j->ej.short_by;
	if (j->al.nulls) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "malloc(%zu) returned NULL %u "
			 "times", j->al.size, j->al.nulls);
		return 0;
	}
	if (!j->set.n) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "every sample was discarded "
			 "(%u disturbed, %u multiplexed)", j->disturbed, j->multiplexed);
		return 0;
	}
	return pc_sample_set_finish(&j->set, r, clk, keep);
}

/* ---- the run ----------------------------------------------------------------------- */

int pc_alloc_open(const struct pc_alloc_options *o, struct pc_alloc_run *ar,
		  char *err, size_t errlen)
{
	const char *p = o->allocators ? o->allocators : "glibc";
	char name[32];

	memset(ar, 0, sizeof(*ar));
	ar->touch = o->touch;
	if (pc_allocator_list_check(p, err, errlen) < 0)
		return -1;
	for (;;) {
		size_t len = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		int rc = pc_allocator_open(name, &ar->alloc[ar->nalloc], err, errlen);

		if (rc == PC_ALLOC_NEEDS_TLS && o->argv) {
			char why[PC_ERRLEN];

			/* Only returns when it could not run primcost again. */
			snprintf(why, sizeof(why), "%s", err);
			pc_alloc_reexec(o->argv, err, errlen);
			snprintf(err + strlen(err), errlen - strlen(err), " (%s)", why);
		}
		if (rc < 0) {
			pc_alloc_close(ar);
			return -1;
		}
		ar->nalloc++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void pc_alloc_close(struct pc_alloc_run *ar)
{
	unsigned i;

	for (i = 0; i < ar->nalloc; i++)
		pc_allocator_close(&ar->alloc[i]);
	free(ar->points);
	ar->points = NULL;
	ar->nalloc = 0;
}

/* The points, allocator by allocator, size by size, row by row; each gets a
 * result, and a job unless its allocator does not take memory back. */
static int plan(const struct pc_alloc_options *o, struct pc_alloc_run *ar,
		struct pc_profile *prof)
{
	size_t n = 0, k = 0, size;
	unsigned a, row;
	char why[256];

	for (row = 0; row < PC_ALLOC_PATTERNS; row++)
		n += o->rows[row];
	n *= (size_t)PC_ALLOC_NSIZES * ar->nalloc;
	prof->probes = calloc(n ? n : 1, sizeof(*prof->probes));
	ar->points = calloc(n ? n : 1, sizeof(*ar->points));
	if (!prof->probes || !ar->points)
		return -1;
	prof->nprobes = n;
	for (a = 0; a < ar->nalloc; a++)
		for (size = PC_ALLOC_SIZE_MIN; size < PC_ALLOC_SIZE_MIN << PC_ALLOC_NSIZES;
		     size *= 2) {
			const char *bad = pc_allocator_returns(&ar->alloc[a], size,
							       PC_UNROLL_HI, why, sizeof(why));

			for (row = 0; row < PC_ALLOC_PATTERNS; row++) {
				struct pc_probe_result *r = &prof->probes[k];

				if (!o->rows[row])
					continue;
				ar->points[k++] = (struct pc_alloc_point){ row, size, a };
				r->linearity = NAN;
				r->cycles_source = PC_CYCLES_CALIBRATED;
				r->ring = 3;
				if (bad) {
					r->status = PC_STATUS_FAILED;
					snprintf(r->reason, sizeof(r->reason),
						 "self-check failed: %s", bad);
				}
			}
		}
	return 0;
}

static void finish(struct job *jobs, size_t njobs, const struct pc_measure_config *cfg,
		   const struct pc_clock *clk, struct pc_profile *prof)
{
	size_t i;

	/* The samples each job kept, before the canary's reference is
	 * taken over all of them. */
	for (i = 0; i < njobs; i++)
		jobs[i].set.n = jobs[i].ej.kept;
	canary_reference(jobs, njobs, prof);
	for (i = 0; i < njobs; i++) {
		struct job *j = &jobs[i];

		if (!j->ej.live)
			continue;
		if (prof->canary) {
			drop_contended(j, prof->canary_best * (1 + PC_CONTENTION_TOLERANCE));
			prof->contended += j->r->events.contended;
		}
		if (job_finish(j, clk, cfg->keep_samples) < 0)
			j->r->status = PC_STATUS_FAILED;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int pc_alloc_measure(const struct pc_alloc_options *o, struct pc_alloc_run *ar,
		     const struct pc_measure_config *cfg, const struct pc_clock *clk,
		     struct pc_profile *prof, char *err, size_t errlen)
{
	const struct pc_engine_host host = {
		.sample = sink_sample, .linearity = sink_linearity,
		.failed = sink_failed, .prepared = sink_prepared, .stop = stop,
		.progress = progress, .ctx = (void *)cfg,
	};
	const struct pc_engine_config ecfg = { cfg->samples, PC_ROUNDS };
	struct job *jobs = NULL;
	struct pc_job **ej = NULL;
	size_t i, n = 0;
	double t0 = now_s();
	int rc = -1;

	memset(prof, 0, sizeof(*prof));
	if (plan(o, ar, prof) < 0)
		goto out;
	jobs = calloc(prof->nprobes + 1, sizeof(*jobs));
	ej = calloc(prof->nprobes + 1, sizeof(*ej));
	if (!jobs || !ej)
		goto out;
	for (i = 0; i < prof->nprobes; i++) {
		const struct pc_alloc_point *pt = &ar->points[i];
		struct job *j = &jobs[n];

		if (prof->probes[i].status != PC_STATUS_OK)
			continue;
		j->r = &prof->probes[i];
		j->al = (struct alloc_loop){ &ar->alloc[pt->allocator], pt->pattern,
					     pt->size, ar->touch, 0, { 0 } };
		if (job_setup(j, cfg, clk) < 0)
			goto out;
		ej[n++] = &j->ej;
	}
	pc_engine_run(ej, (unsigned)n, &ecfg, &host);
	finish(jobs, n, cfg, clk, prof);
	prof->interrupted = pc_interrupted();
	if (cfg->progress)
		fprintf(stderr, "\r%-70s\r", "");
	pc_status_line(cfg->status_fd, "measured");
	pc_profile_judge(prof, clk, NULL);
	prof->wall_s = now_s() - t0;
	rc = 0;
out:
	for (i = 0; jobs && i < n; i++)
		pc_sample_set_free(&jobs[i].set);
	free(jobs);
	free(ej);
	if (rc < 0) {
		pc_profile_free(prof);
		snprintf(err, errlen, "out of memory");
	}
	return rc;
}
