/* SPDX-License-Identifier: MIT */
/*
 * alloc_remote.c - the remote pattern (alloc.h): objects allocated on one
 * CPU and freed on another, SLUB's remote free path and every user-space
 * allocator's producer and consumer. Two threads pinned to a pair of CPUs
 * (the contended group's placements): the near one allocates a batch of
 * PC_UNROLL_HI objects, its mallocs timed, and hands it over through a
 * ring of PC_REMOTE_RING slots; the far one takes the batch and frees it,
 * its frees timed. The ring is not timed: the pointers are copied into
 * and out of a slot outside the timed calls. A sample is
 * PC_REMOTE_BATCHES batches: ticks per malloc at the near end, per free
 * at the far end. Then the point's single calls, each timed alone at both
 * ends (alloc_dist.c). The far end counts every free it makes (and the
 * test allocator counts them too), and each end checks its CPU.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contend/contend.h"
#include "core/contain.h"
#include "core/stats.h"
#include "relax.h"
#include "timer.h"

enum { NEAR, FAR };

/* A slot of the ring: a batch's pointers, full or empty. */
struct remote_slot {
	_Atomic unsigned full;
	void *ptr[PC_UNROLL_HI];
} __attribute__((aligned(128)));

/* The two ends of one allocator on one pair of CPUs, and the job they
 * run between two barriers with the caller. */
struct remote {
	const struct pc_allocator *a;
	int cpu[2];
	pthread_barrier_t go, done;
	pthread_t th[2];
	/* the job */
	size_t size;
	unsigned batches;
	uint32_t *calls[2];	/* each call timed into these, or NULL */
	bool quit;
	/* what the ends saw */
	uint64_t ticks[2];
	unsigned long objects, freed, counted, nulls;
	int wrong_cpu[2];	/* an end's CPU when it was not its own, or -1 */
	struct remote_slot ring[PC_REMOTE_RING];
};

struct remote_end {
	struct remote *r;
	int end;
};

static void near_end(struct remote *r)
{
	void *(*m)(size_t) = r->a->malloc;
	uint32_t *calls = r->calls[NEAR];
	size_t size = r->size;
	void *local[PC_UNROLL_HI];
	uint64_t t = 0, t0;
	unsigned b, i, k = 0;

	for (b = 0; b < r->batches; b++) {
		struct remote_slot *s = &r->ring[b % PC_REMOTE_RING];

		if (calls) {
			for (i = 0; i < PC_UNROLL_HI; i++) {
				t0 = pc_timer_read();
				local[i] = m(size);
				calls[k++] = (uint32_t)(pc_timer_read() - t0);
			}
		} else {
			t0 = pc_timer_read();
			for (i = 0; i < PC_UNROLL_HI; i++)
				local[i] = m(size);
			t += pc_timer_read() - t0;
		}
		while (atomic_load_explicit(&s->full, memory_order_acquire))
			pc_relax();
		memcpy(s->ptr, local, sizeof(local));
		atomic_store_explicit(&s->full, 1, memory_order_release);
	}
	r->ticks[NEAR] = t;
	r->objects += (unsigned long)r->batches * PC_UNROLL_HI;
}

static void far_end(struct remote *r)
{
	void (*f)(void *) = r->a->free;
	uint32_t *calls = r->calls[FAR];
	unsigned long before = r->a->frees ? r->a->frees() : 0;
	void *local[PC_UNROLL_HI];
	uint64_t t = 0, t0;
	unsigned b, i, k = 0;

	for (b = 0; b < r->batches; b++) {
		struct remote_slot *s = &r->ring[b % PC_REMOTE_RING];

		while (!atomic_load_explicit(&s->full, memory_order_acquire))
			pc_relax();
		memcpy(local, s->ptr, sizeof(local));
		atomic_store_explicit(&s->full, 0, memory_order_release);
		for (i = 0; i < PC_UNROLL_HI; i++)
			r->nulls += !local[i];
		if (calls) {
			for (i = 0; i < PC_UNROLL_HI; i++) {
				t0 = pc_timer_read();
				f(local[i]);
				calls[k++] = (uint32_t)(pc_timer_read() - t0);
			}
		} else {
			t0 = pc_timer_read();
			for (i = 0; i < PC_UNROLL_HI; i++)
				f(local[i]);
			t += pc_timer_read() - t0;
		}
		r->freed += PC_UNROLL_HI;
	}
	r->ticks[FAR] = t;
	/* what the allocator itself counted on this thread, where it does */
	r->counted += r->a->frees ? r->a->frees() - before : (unsigned long)r->batches *
		      PC_UNROLL_HI;
}

static void *end_thread(void *arg)
{
	struct remote_end *e = arg;
	struct remote *r = e->r;
	cpu_set_t set;
	int cpu;

	void *pin = NULL;

	CPU_ZERO(&set);
	CPU_SET(r->cpu[e->end], &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	/* the near end's heap holds something else, as the others' do (its
	 * reserve and pin, alloc.c): glibc gives each thread an arena of
	 * its own, which an empty heap would trim after every batch */
	if (e->end == NEAR)
		pin = pc_alloc_reserve(r->a, PC_REMOTE_RESERVE);
	for (;;) {
		pthread_barrier_wait(&r->go);
		if (r->quit) {
			if (pin)
				r->a->free(pin);
			return NULL;
		}
		if ((cpu = sched_getcpu()) != r->cpu[e->end])
			r->wrong_cpu[e->end] = cpu;
		if (e->end == NEAR)
			near_end(r);
		else
			far_end(r);
		pthread_barrier_wait(&r->done);
	}
}

/* One job at both ends: batches of size, each call timed when calls[]. */
static void job(struct remote *r, size_t size, unsigned batches, uint32_t *near,
		uint32_t *far)
{
	r->size = size;
	r->batches = batches;
	r->calls[NEAR] = near;
	r->calls[FAR] = far;
	pthread_barrier_wait(&r->go);
	pthread_barrier_wait(&r->done);
}

/* The two ends started on a pair's CPUs; -1 with err. */
static int start(struct remote *r, struct remote_end *e, const struct pc_allocator *a,
		 const int *cpu, char *err, size_t errlen)
{
	int k;

	memset(r, 0, sizeof(*r));
	r->a = a;
	r->cpu[NEAR] = cpu[0];
	r->cpu[FAR] = cpu[1];
	r->wrong_cpu[NEAR] = r->wrong_cpu[FAR] = -1;
	if (pthread_barrier_init(&r->go, NULL, 3) != 0 ||
	    pthread_barrier_init(&r->done, NULL, 3) != 0) {
		snprintf(err, errlen, "the remote pattern: cannot make its barriers");
		return -1;
	}
	for (k = 0; k < 2; k++) {
		e[k] = (struct remote_end){ r, k };
		if (pthread_create(&r->th[k], NULL, end_thread, &e[k]) != 0) {
			if (k == 1) {
				r->quit = true;
				pthread_barrier_wait(&r->go);	/* the first leaves */
				pthread_join(r->th[0], NULL);
			}
			snprintf(err, errlen, "the remote pattern: cannot start its threads");
			return -1;
		}
	}
	return 0;
}

static void stop(struct remote *r)
{
	r->quit = true;
	pthread_barrier_wait(&r->go);
	pthread_join(r->th[NEAR], NULL);
	pthread_join(r->th[FAR], NULL);
	pthread_barrier_destroy(&r->go);
	pthread_barrier_destroy(&r->done);
}

/* A row's figures from its samples' ticks per call (v[0 .. n)). */
static void figures(struct pc_probe_result *res, const double *v, unsigned n, double cpt,
		    const struct pc_clock *clk, bool emulated)
{
	double spread;

	if (pc_summarize(v, n, &res->ticks) < 0) {
		res->status = PC_STATUS_FAILED;
		snprintf(res->reason, sizeof(res->reason), "out of memory");
		return;
	}
	res->status = PC_STATUS_OK;
	res->samples = n;
	res->iters = PC_REMOTE_BATCHES;
	res->ops_per_sample = (uint64_t)PC_REMOTE_BATCHES * PC_UNROLL_HI;
	res->cycles_source = PC_CYCLES_CALIBRATED;
	res->cycles_per_tick = cpt;
	res->cycles = pc_summary_scale(&res->ticks, cpt);
	res->ns = pc_summary_scale(&res->ticks, 1e9 / clk->tick_hz);
	spread = res->ticks.median > 0 ? res->ticks.mad / res->ticks.median : 0;
	if (!emulated && spread > PC_NOISY_SPREAD_ALLOC) {
		res->status = PC_STATUS_NOISY;
		snprintf(res->reason, sizeof(res->reason), "its samples spread by %.0f %% "
			 "(MAD over median; over %.0f %%)", 100 * spread,
			 100 * PC_NOISY_SPREAD_ALLOC);
	}
}

/* Why the point at r failed, or NULL: an end off its CPU, a NULL, a free
 * not made or not counted at the far end. */
static const char *checked(const struct remote *r, char *why, size_t len)
{
	if (r->wrong_cpu[NEAR] >= 0 || r->wrong_cpu[FAR] >= 0)
		snprintf(why, len, "an end ran off its CPU: the near end on %d (not %d), "
			 "the far on %d (not %d)", r->wrong_cpu[NEAR], r->cpu[NEAR],
			 r->wrong_cpu[FAR], r->cpu[FAR]);
	else if (r->nulls)
		snprintf(why, len, "malloc(%zu) returned NULL %lu times", r->size, r->nulls);
	else if (r->freed != r->objects || r->counted != r->objects)
		snprintf(why, len, "%lu objects handed over, %lu freed at the far end, %lu "
			 "frees counted there", r->objects, r->freed, r->counted);
	else
		return NULL;
	return why;
}

/* One size on one pair: its samples, then its single calls, into the two
 * rows' results and distributions. */
static void point(struct remote *r, size_t size, unsigned samples, double cpt,
		  const struct pc_clock *clk, bool emulated, struct pc_probe_result *res,
		  struct pc_alloc_dist *dist, uint32_t *calls, unsigned long *objects,
		  unsigned long *counted)
{
	double *v[2] = { calloc(samples, sizeof(double)), calloc(samples, sizeof(double)) };
	uint32_t empty[PC_DIST_EMPTY];
	struct pc_alloc_timer timer;
	const char *bad;
	char why[256];
	unsigned s, k;

	r->objects = r->freed = r->counted = r->nulls = 0;
	if (!v[0] || !v[1]) {
		for (k = 0; k < 2; k++) {
			res[k].status = PC_STATUS_FAILED;
			snprintf(res[k].reason, sizeof(res[k].reason), "out of memory");
		}
		goto out;
	}
	job(r, size, PC_REMOTE_BATCHES, NULL, NULL);	/* warm-up */
	for (s = 0; s < samples; s++) {
		job(r, size, PC_REMOTE_BATCHES, NULL, NULL);
		for (k = 0; k < 2; k++)
			v[k][s] = (double)r->ticks[k] / (PC_REMOTE_BATCHES * PC_UNROLL_HI);
	}
	for (k = 0; k < 2; k++)
		figures(&res[k], v[k], samples, cpt, clk, emulated);
	/* the single calls: each malloc at the near end, each free at the far */
	for (s = 0; s < PC_DIST_EMPTY; s++) {
		uint64_t t0 = pc_timer_read();

		empty[s] = (uint32_t)(pc_timer_read() - t0);
	}
	job(r, size, PC_DIST_CALLS / PC_UNROLL_HI, calls, calls + PC_DIST_CALLS);
	for (k = 0; k < 2; k++) {
		pc_alloc_timer_cost(empty, PC_DIST_EMPTY, calls + k * PC_DIST_CALLS,
				    PC_DIST_CALLS, cpt, &timer);
		if (pc_alloc_dist_make(&dist[k], calls + k * PC_DIST_CALLS, PC_DIST_CALLS,
				       &timer, cpt) < 0)
			dist[k].calls = 0;
	}
	if ((bad = checked(r, why, sizeof(why)))) {
		for (k = 0; k < 2; k++) {
			res[k].status = PC_STATUS_FAILED;
			snprintf(res[k].reason, sizeof(res[k].reason), "%s", bad);
			dist[k].calls = 0;
		}
	}
	*objects = r->objects;
	*counted = r->counted;
out:
	free(v[0]);
	free(v[1]);
}

int pc_alloc_remote(struct pc_alloc_run *ar, unsigned a, size_t first, size_t n,
		    const struct pc_measure_config *cfg, const struct pc_clock *clk,
		    struct pc_profile *prof, double cpt, char *err, size_t errlen)
{
	uint32_t *calls = malloc(2 * PC_DIST_CALLS * sizeof(*calls));
	struct remote_end e[2];
	struct remote *r = NULL;
	int pair = -1, rc = 0;
	size_t i;

	if (!calls || posix_memalign((void **)&r, 128, sizeof(*r)) != 0) {
		free(calls);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = first; i < first + n && rc == 0; i++) {
		struct pc_alloc_point *pt = &ar->points[i];

		if (pt->pattern != PC_ALLOC_REMOTE_MALLOC)
			continue;	/* the free row is its malloc row's next */
		if (prof->probes[i].status != PC_STATUS_OK)
			continue;	/* unsupported: fewer than two CPUs */
		if (pc_interrupted()) {
			prof->probes[i].status = prof->probes[i + 1].status = PC_STATUS_SKIPPED;
			continue;
		}
		if (pt->pair != pair) {
			if (pair >= 0)
				stop(r);
			pair = -1;
			if ((rc = start(r, e, &ar->alloc[a], ar->pairs[pt->pair].cpus, err,
					errlen)) < 0)
				break;
			pair = pt->pair;
		}
		pc_progress(cfg, "round", i - first + 1, n, pc_alloc_rows[PC_ALLOC_REMOTE_MALLOC]);
		point(r, pt->size, cfg->samples, cpt, clk, cfg->emulated, &prof->probes[i],
		      &ar->dist[i], calls, &pt->objects, &pt->counted);
		ar->points[i + 1].objects = pt->objects;
		ar->points[i + 1].counted = pt->counted;
	}
	if (pair >= 0)
		stop(r);
	free(r);
	free(calls);
	return rc;
}
