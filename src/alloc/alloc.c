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
#include "contend/contend.h"
#include "core/contain.h"
#include "core/executor.h"
#include "core/samples.h"
#include "core/primcost.h"

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

/* ---- single calls ---------------------------------------------------------------- */

/*
 * The point's calls timed one by one into t[0 .. PC_DIST_CALLS), in its
 * pattern's batches of PC_UNROLL_HI: each malloc of a batch (its frees
 * untimed), each free (its mallocs untimed), or each pair between two
 * timer reads, the read's own cost subtracted later (alloc_dist.c).
 */
static void single_calls(struct alloc_loop *l, uint32_t *t)
{
	void *(*m)(size_t) = l->a->malloc;
	void (*f)(void *) = l->a->free;
	size_t size = l->size;
	bool touch = l->touch;
	unsigned b, i, k = 0;
	uint64_t t0;
	void *p;

	for (b = 0; b < PC_DIST_CALLS / PC_UNROLL_HI && !l->nulls; b++) {
		if (l->pattern == PC_ALLOC_MALLOC) {
			for (i = 0; i < PC_UNROLL_HI; i++) {
				t0 = pc_timer_read();
				p = m(size);
				if (touch && p)
					*(volatile char *)p = 0;
				t[k++] = (uint32_t)(pc_timer_read() - t0);
				l->ptr[i] = p;
			}
			l->nulls = nulls(l->ptr);
			drain(f, l->ptr, 0, PC_UNROLL_HI);
		} else if (l->pattern == PC_ALLOC_FREE) {
			fill(m, size, l->ptr, 0, PC_UNROLL_HI, touch);
			if ((l->nulls = nulls(l->ptr)))
				drain(f, l->ptr, 0, PC_UNROLL_HI);
			for (i = 0; i < PC_UNROLL_HI && !l->nulls; i++) {
				t0 = pc_timer_read();
				f(l->ptr[i]);
				t[k++] = (uint32_t)(pc_timer_read() - t0);
			}
		} else {
			for (i = 0; i < PC_UNROLL_HI; i++) {
				t0 = pc_timer_read();
				p = m(size);
				if (touch && p)
					*(volatile char *)p = 0;
				f(p);
				t[k++] = (uint32_t)(pc_timer_read() - t0);
				l->nulls += !p;
			}
		}
	}
}

/* The timer's own cost: n empty intervals between two reads. */
static void empty_intervals(uint32_t *t, unsigned n)
{
	unsigned i;
	uint64_t t0;

	for (i = 0; i < n; i++) {
		t0 = pc_timer_read();
		t[i] = (uint32_t)(pc_timer_read() - t0);
	}
}

/* The allocator group's executor: ctx is the struct alloc_loop. */
static const struct pc_executor alloc_executor = {
	.init = NULL,
	.run = alloc_body,
};

/* ---- the run ----------------------------------------------------------------------- */

int pc_alloc_pairs(struct pc_alloc_pair *pairs, unsigned *npairs, char *err, size_t errlen)
{
	static const enum pc_placement how[PC_ALLOC_PAIRS] = { PC_PLACE_COMPACT,
								PC_PLACE_SPREAD };
	struct pc_place place;
	unsigned k, j;
	int cpus[2];

	*npairs = 0;
	if (pc_place_open(&place, NULL, err, errlen) < 0)
		return -1;
	for (k = 0; k < PC_ALLOC_PAIRS; k++) {
		if (pc_place_pick(&place, how[k], 2, cpus, err, errlen) < 0) {
			pc_place_close(&place);
			snprintf(err, errlen, "the remote pattern needs two CPUs, and %u %s "
				 "allowed", place.ncpus, place.ncpus == 1 ? "is" : "are");
			return -1;
		}
		for (j = 0; j < *npairs && (pairs[j].cpus[0] != cpus[0] ||
					     pairs[j].cpus[1] != cpus[1]); j++)
			;
		if (j < *npairs)
			continue;
		pairs[(*npairs)++] = (struct pc_alloc_pair){ { cpus[0], cpus[1] },
			pc_placement_names[how[k]], pc_place_class(&place, cpus, 2) };
	}
	pc_place_close(&place);
	return 0;
}

int pc_alloc_open(const void *opts, void *state, char *err, size_t errlen)
{
	const struct pc_alloc_options *o = opts;
	struct pc_alloc_run *ar = state;
	const char *p = o->allocators ? o->allocators : "glibc";
	char name[32];

	memset(ar, 0, sizeof(*ar));
	ar->touch = o->touch;
	memcpy(ar->rows, o->rows, sizeof(ar->rows));
	if (pc_allocator_list_check(p, err, errlen) < 0)
		return -1;
	if ((o->rows[PC_ALLOC_REMOTE_MALLOC] || o->rows[PC_ALLOC_REMOTE_FREE]) &&
	    pc_alloc_pairs(ar->pairs, &ar->npairs, err, errlen) < 0)
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

void pc_alloc_close(void *state)
{
	struct pc_alloc_run *ar = state;
	unsigned i;

	for (i = 0; i < ar->nalloc; i++) {
		if (ar->pin[i])
			ar->alloc[i].free(ar->pin[i]);
		ar->pin[i] = NULL;
		pc_allocator_close(&ar->alloc[i]);
	}
	free(ar->points);
	free(ar->dist);
	ar->points = NULL;
	ar->dist = NULL;
	ar->nalloc = 0;
}

/* A point's result as planned: failed when its allocator does not take
 * memory back (bad says why). */
static void plan_result(struct pc_probe_result *r, const char *bad)
{
	r->linearity = NAN;
	r->cycles_source = PC_CYCLES_CALIBRATED;
	r->ring = 3;
	if (bad) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "self-check failed: %s", bad);
	}
}

/* The points, allocator by allocator, size by size, row by row, then its
 * remote ones; each gets a result, and a job unless its allocator does
 * not take memory back. */
static int plan(const struct pc_alloc_options *o, struct pc_alloc_run *ar,
		struct pc_profile *prof)
{
	bool remote = o->rows[PC_ALLOC_REMOTE_MALLOC] || o->rows[PC_ALLOC_REMOTE_FREE];
	size_t n = 0, k = 0, size;
	unsigned a, row, p;
	char why[256];

	for (row = 0; row < PC_ALLOC_PATTERNS; row++)
		n += o->rows[row];
	/* the remote rows measured together, each point's malloc and free */
	n += remote ? 2 * ar->npairs : 0;
	n *= (size_t)PC_ALLOC_NSIZES * ar->nalloc;
	prof->probes = calloc(n ? n : 1, sizeof(*prof->probes));
	ar->points = calloc(n ? n : 1, sizeof(*ar->points));
	if (!prof->probes || !ar->points)
		return -1;
	prof->nprobes = n;
	for (a = 0; a < ar->nalloc; a++) {
		for (size = PC_ALLOC_SIZE_MIN; size < PC_ALLOC_SIZE_MIN << PC_ALLOC_NSIZES;
		     size *= 2) {
			const char *bad = pc_allocator_returns(&ar->alloc[a], size,
							       PC_UNROLL_HI, why, sizeof(why));

			for (row = 0; row < PC_ALLOC_PATTERNS; row++) {
				if (!o->rows[row])
					continue;
				ar->points[k] = (struct pc_alloc_point){ row, size, a, -1, 0, 0 };
				plan_result(&prof->probes[k++], bad);
			}
		}
		/* its remote points after its others: pair by pair, size by
		 * size, the malloc row's point and the free row's */
		for (p = 0; remote && p < ar->npairs; p++)
			for (size = PC_ALLOC_SIZE_MIN; size < PC_ALLOC_SIZE_MIN << PC_ALLOC_NSIZES;
			     size *= 2) {
				const char *bad = pc_allocator_returns(&ar->alloc[a], size,
								       PC_UNROLL_HI, why, sizeof(why));

				for (row = PC_ALLOC_REMOTE_MALLOC; row < PC_ALLOC_ROWS; row++) {
					ar->points[k] = (struct pc_alloc_point){ row, size, a,
										 (int)p, 0, 0 };
					plan_result(&prof->probes[k++], bad);
				}
			}
	}
	return 0;
}

/*
 * Each allocator's reserve, before any point is timed: PC_ALLOC_RESERVE
 * batches of the largest size allocated, one more block (the pin), then the
 * batches freed, the pin kept until the run ends. The memory of a batch
 * then lies below a live block, as in a program whose heap holds anything
 * else: glibc keeps it instead of trimming the top of an empty heap back
 * to the kernel after every batch of 2 KiB blocks or more (brk and page
 * faults: docs/design.md). The pin has a size of its own, 1.5 times the
 * largest, so that no point shares its size class with a live block (in
 * mimalloc, it would keep the 16 KiB page from ever becoming empty, and
 * that point alone would skip the empty-page path of every other size's
 * pair).
 */

void *pc_alloc_reserve(const struct pc_allocator *a, unsigned batches)
{
	void *held[PC_REMOTE_RESERVE * PC_UNROLL_HI], *pin;
	size_t size = (size_t)PC_ALLOC_SIZE_MIN << (PC_ALLOC_NSIZES - 1);
	unsigned i, n = (batches < PC_REMOTE_RESERVE ? batches : PC_REMOTE_RESERVE) *
			PC_UNROLL_HI;

	for (i = 0; i < n; i++)
		held[i] = a->malloc(size);
	pin = a->malloc(PC_ALLOC_PIN_SIZE);
	for (i = 0; i < n; i++)
		a->free(held[i]);
	return pin;
}

/* What each allocator's measurement said of the run, into prof: the
 * calibration judged over every point, the canary's and the pace's best
 * (the lowest first quartile) and median (the median of theirs), the samples it
 * dropped, the time, the first interruption. */
static void merge_run(struct pc_profile *prof, const struct pc_profile *sub, unsigned nsub,
		      const struct pc_clock *clk)
{
	double med[PC_ALLOCATORS_MAX], pace[PC_ALLOCATORS_MAX];
	unsigned i, n = 0, np = 0;

	for (i = 0; i < nsub; i++) {
		prof->wall_s += sub[i].wall_s;
		prof->contended += sub[i].contended;
		if (!prof->interrupted)
			prof->interrupted = sub[i].interrupted;
		if (sub[i].unreliable && !prof->unreliable) {
			prof->unreliable = true;
			memcpy(prof->unreliable_reason, sub[i].unreliable_reason,
			       sizeof(prof->unreliable_reason));
		}
		if (sub[i].pace) {
			if (!prof->pace || sub[i].pace_best < prof->pace_best)
				prof->pace_best = sub[i].pace_best;
			prof->pace = true;
			pace[np++] = sub[i].pace_median;
		}
		if (!sub[i].canary)
			continue;
		if (!prof->canary || sub[i].canary_best < prof->canary_best)
			prof->canary_best = sub[i].canary_best;
		prof->canary = true;
		med[n++] = sub[i].canary_median;
	}
	if (n)
		prof->canary_median = pc_median(med, n);
	if (np)
		prof->pace_median = pc_median(pace, np);
	if (!prof->unreliable)
		pc_profile_judge(prof, clk, NULL);
}

/*
 * The single calls of allocator points items[0 .. n), right after their
 * samples (the allocator as warm as they left it): the calls of a point
 * measured ok or noisy timed one by one, with the timer's cost taken
 * just before. Stops between two points when the run is interrupted.
 */
static int distributions(const struct pc_measure_item *items, struct pc_alloc_dist *dist,
			 size_t n, double run_cpt)
{
	uint32_t *t = malloc(PC_DIST_CALLS * sizeof(*t)), *e = malloc(PC_DIST_EMPTY * sizeof(*e));
	struct pc_alloc_timer timer;
	size_t i;
	int rc = 0;

	if (!t || !e) {
		free(t);
		free(e);
		return -1;
	}
	for (i = 0; i < n && rc == 0 && !pc_interrupted(); i++) {
		const struct pc_probe_result *r = items[i].r;
		struct alloc_loop *l = items[i].body.ctx;
		double cpt = r->cycles_per_tick > 0 ? r->cycles_per_tick : run_cpt;

		if ((r->status != PC_STATUS_OK && r->status != PC_STATUS_NOISY) || !(cpt > 0))
			continue;
		empty_intervals(e, PC_DIST_EMPTY);
		single_calls(l, t);
		if (l->nulls)
			continue;
		pc_alloc_timer_cost(e, PC_DIST_EMPTY, t, PC_DIST_CALLS, cpt, &timer);
		rc = pc_alloc_dist_make(&dist[i], t, PC_DIST_CALLS, &timer, cpt);
	}
	free(t);
	free(e);
	return rc;
}

/*
 * One allocator's points at a time (plan() puts them together), each
 * allocator's in rounds of their own: the engine's rounds interleave the
 * items they are given, and one allocator's calls between another's
 * evict each other's state from the core. jemalloc's 8-byte pair read
 * 14.1 cycles in a run of its own and 19.1 in rounds shared with glibc's
 * points; glibc's 19.0 to 20.0 and 23.0. Now an allocator's figures do
 * not depend on which others the run measures.
 */
/* An allocator's remote points, points[first .. first + n), at *cpt
 * cycles a tick (the run's calibration, taken here when no other point
 * took it), their time added to the run's. */
/*
 * The points' distributions, made when the first is taken: glibc is the
 * process's own malloc too, and their 50 KiB taken before the samples
 * moved its heap under the points (malloc+free of 8 bytes read 61 cycles,
 * not 19, in 2 runs of 25). 0, or -1 when out of memory.
 */
static int dist_room(struct pc_alloc_run *ar, size_t n)
{
	if (!ar->dist)
		ar->dist = calloc(n ? n : 1, sizeof(*ar->dist));
	return ar->dist ? 0 : -1;
}

static int remote(struct pc_alloc_run *ar, unsigned a, size_t first, size_t n,
		  const struct pc_measure_config *cfg, const struct pc_clock *clk,
		  struct pc_profile *prof, double *cpt, char *err, size_t errlen)
{
	struct timespec t0, t1;
	int rc;

	if (dist_room(ar, prof->nprobes) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}

	if (!(*cpt > 0) && pc_calibrate(clk, 21, cfg->sample_s, cpt, err, errlen) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = pc_alloc_remote(ar, a, first, n, cfg, clk, prof, *cpt, err, errlen);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	prof->wall_s += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (pc_interrupted() && !prof->interrupted)
		prof->interrupted = pc_interrupted();
	return rc;
}

static int measure_each(struct pc_measure_item *items, struct pc_alloc_run *ar,
			const struct pc_measure_config *cfg, const struct pc_clock *clk,
			struct pc_profile *prof, char *err, size_t errlen)
{
	struct pc_profile sub[PC_ALLOCATORS_MAX];
	size_t first = 0, n, i;
	unsigned a, nsub = 0;
	double cpt = 0;

	for (a = 0; a < ar->nalloc; a++, first += n) {
		struct pc_profile *s = &sub[nsub];
		size_t nc;

		for (n = 0; first + n < prof->nprobes && ar->points[first + n].allocator == a; n++)
			;
		/* its remote points come last, and not through the engine */
		for (nc = 0; nc < n && ar->points[first + nc].pair < 0; nc++)
			;
		memset(s, 0, sizeof(*s));
		if (nc && !(s->probes = malloc(nc * sizeof(*s->probes)))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (nc) {
			s->nprobes = nc;
			memcpy(s->probes, prof->probes + first, nc * sizeof(*s->probes));
			for (i = 0; i < nc; i++)
				items[first + i].r = &s->probes[i];
			if (pc_measure_items(items + first, nc, cfg, clk, s, err, errlen) < 0)
				return -1;	/* s freed there */
			if (dist_room(ar, prof->nprobes) < 0 ||
			    distributions(items + first, ar->dist + first, nc,
					  s->cycles_per_tick) < 0) {
				snprintf(err, errlen, "out of memory");
				pc_profile_free(s);
				return -1;
			}
			memcpy(prof->probes + first, s->probes, nc * sizeof(*s->probes));
			free(s->probes);
			s->probes = NULL;
			if (!(cpt > 0))
				cpt = s->cycles_per_tick;
			nsub++;
		}
		if (nc < n && remote(ar, a, first + nc, n - nc, cfg, clk, prof, &cpt, err,
				     errlen) < 0)
			return -1;
	}
	merge_run(prof, sub, nsub, clk);
	if (!(prof->cycles_per_tick > 0))
		prof->cycles_per_tick = cpt;
	return 0;
}

int pc_alloc_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
		     const struct pc_clock *clk, struct pc_profile *prof, char *err,
		     size_t errlen)
{
	const struct pc_alloc_options *o = opts;
	struct pc_alloc_run *ar = state;
	struct pc_measure_item *items = NULL;
	struct alloc_loop *loops = NULL;
	size_t i;
	int rc = -1;

	memset(prof, 0, sizeof(*prof));
	for (i = 0; i < ar->nalloc; i++)
		if (!ar->pin[i])
			ar->pin[i] = pc_alloc_reserve(&ar->alloc[i], PC_ALLOC_RESERVE);
	if (plan(o, ar, prof) < 0)
		goto oom;
	items = calloc(prof->nprobes + 1, sizeof(*items));
	loops = calloc(prof->nprobes + 1, sizeof(*loops));
	if (!items || !loops)
		goto oom;
	for (i = 0; i < prof->nprobes; i++) {
		const struct pc_alloc_point *pt = &ar->points[i];

		loops[i] = (struct alloc_loop){ &ar->alloc[pt->allocator], pt->pattern,
						pt->size, ar->touch, 0, { 0 } };
		items[i].r = &prof->probes[i];
		items[i].body = (struct pc_body){ &alloc_executor, &loops[i] };
		/* A thread cache refilled or flushed every so many calls: a
		 * loop of few batches meets more or fewer of those. */
		items[i].loops_vary = true;
		items[i].spread_limit = PC_NOISY_SPREAD_ALLOC;
		/* allocator code feels a slower host as the gauge does */
		items[i].pace = true;
		snprintf(items[i].name, sizeof(items[i].name), "%s/%zu/%s",
			 pc_alloc_rows[pt->pattern], pt->size, ar->alloc[pt->allocator].name);
	}
	rc = measure_each(items, ar, cfg, clk, prof, err, errlen);
	for (i = 0; rc == 0 && i < prof->nprobes; i++)
		if (loops[i].nulls) {
			prof->probes[i].status = PC_STATUS_FAILED;
			snprintf(prof->probes[i].reason, sizeof(prof->probes[i].reason),
				 "malloc(%zu) returned NULL %u times", loops[i].size,
				 loops[i].nulls);
		}
	free(items);
	free(loops);
	return rc;
oom:
	free(items);
	free(loops);
	pc_profile_free(prof);
	snprintf(err, errlen, "out of memory");
	return -1;
}
