/* SPDX-License-Identifier: MIT */
/*
 * contend.c - the contended group's points and windows (contend.h).
 *
 * A window: the point's threads, each pinned to its CPU, meet at a barrier;
 * the last to arrive puts the row's initial state and sets the deadline,
 * and all run the row's loop until it passes (locks.c): every thread
 * runs for the same time, nobody finishes early. Each thread times its own
 * part; the window's figure is the threads' time over their operations
 * (cycles per operation per thread, as the 2014 tables' "cycles one thread spends
 * in one lock + unlock"), or for c2c a thread's time over the transfers. At
 * the next barrier the last to arrive checks what the window left: the
 * counter every acquisition incremented, the words every atomic added to.
 * A window in which any thread was switched out involuntarily (getrusage)
 * is disturbed: retaken, as the engine retakes a disturbed sample.
 */
#include <errno.h>
#include <sched.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/contain.h"
#include "core/select.h"
#include "contend.h"
#include "relax.h"
#include "core/samples.h"
#include "timer.h"

const char *const pc_placement_names[] = { "compact", "spread", "list", "pair" };

void pc_fairness(const uint64_t *ops, unsigned n, double *cv, double *max_share)
{
	double sum = 0, mean, var = 0, top = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		sum += (double)ops[i];
		top = (double)ops[i] > top ? (double)ops[i] : top;
	}
	*cv = *max_share = 0;
	if (sum <= 0)
		return;
	mean = sum / n;
	for (i = 0; i < n; i++)
		var += ((double)ops[i] - mean) * ((double)ops[i] - mean);
	*cv = sqrt(var / n) / mean;
	*max_share = top / sum;
}

/* ---- selection and lists ------------------------------------------------------------ */

static bool in_group(const char *tok, size_t len)
{
	static const char *const prefixes[] = { "lock.", "contended.", "c2c." };
	unsigned i;

	for (i = 0; i < 3; i++)
		if (len >= strlen(prefixes[i]) && strncmp(tok, prefixes[i],
							 strlen(prefixes[i])) == 0)
			return true;
	return false;
}

bool pc_contend_list_only(const char *list)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (!in_group(p, len))
			return false;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

int pc_contend_select(const char *list, bool *kinds, char *err, size_t errlen)
{
	const char *names[32];
	unsigned k;

	for (k = 0; k < pc_contend_nkinds && k < 32; k++)
		names[k] = pc_contend_kinds[k].hidden ? NULL : pc_contend_kinds[k].name;
	return pc_select_names(list, names, k, kinds, "the contended group: lock.*, "
			       "contended.*, c2c.latency", err, errlen);
}

int pc_contend_list(const char *what, const char *list, int *out, unsigned max,
		    unsigned *n, char *err, size_t errlen)
{
	const char *p = list;
	char *end;

	for (*n = 0;;) {
		long a, b;

		errno = 0;
		a = b = strtol(p, &end, 10);
		if (end != p && *end == '-')
			b = strtol(end + 1, &end, 10);
		if (end == p || errno || a < 0 || b < a || b > 65535 || (*end && *end != ','))
			goto bad;
		for (; a <= b; a++) {
			if (*n == max) {
				snprintf(err, errlen, "%s: at most %u values", what, max);
				return -1;
			}
			out[(*n)++] = (int)a;
		}
		if (!*end)
			return 0;
		p = end + 1;
	}
bad:
	snprintf(err, errlen, "%s: want a list like 0,2-5, got '%s'", what, list);
	return -1;
}

/* ---- the plan -------------------------------------------------------------------------- */

static struct pc_contend_point *add_point(struct pc_contend_run *cr, size_t *cap,
					  const struct pc_contend_kind *k, unsigned n,
					  enum pc_placement how, const int *cpus)
{
	struct pc_contend_point *pt;

	if (cr->npoints == *cap) {
		size_t ncap = *cap ? 2 * *cap : 32;
		struct pc_contend_point *np = realloc(cr->points, ncap * sizeof(*np));

		if (!np)
			return NULL;
		cr->points = np;
		*cap = ncap;
	}
	pt = &cr->points[cr->npoints];
	memset(pt, 0, sizeof(*pt));
	pt->cpus = malloc(n * sizeof(int));
	if (!pt->cpus)
		return NULL;
	cr->npoints++;
	memcpy(pt->cpus, cpus, n * sizeof(int));
	pt->kind = k;
	pt->nthreads = n;
	pt->placement = how;
	pt->cls = pc_place_class(&cr->place, cpus, n);
	pt->nodes = pc_place_nodes(&cr->place, cpus, n);
	return pt;
}

/* The thread counts: --threads, or powers of two up to the CPUs (the
 * count of CPUs last when it is none), at most PC_CONTEND_MAX_COUNTS: the
 * first ones and the last. */
static int counts(const struct pc_contend_options *o, unsigned ncpus, int *c,
		  unsigned *n, char *err, size_t errlen)
{
	unsigned i, v;

	if (o->threads) {
		if (pc_contend_list("--threads", o->threads, c, 64, n, err, errlen) < 0)
			return -1;
		for (i = 0; i < *n; i++)
			if (c[i] < 1) {
				snprintf(err, errlen, "--threads: a thread count is 1 or more");
				return -1;
			}
		return 0;
	}
	for (*n = 0, v = 1; v <= ncpus; v *= 2)
		c[(*n)++] = (int)v;
	if ((unsigned)c[*n - 1] != ncpus)
		c[(*n)++] = (int)ncpus;
	if (*n > PC_CONTEND_MAX_COUNTS) {
		c[PC_CONTEND_MAX_COUNTS - 1] = c[*n - 1];
		*n = PC_CONTEND_MAX_COUNTS;
	}
	return 0;
}

/* --placement LIST into how[]; the CPUs of --cpus checked against the
 * allowed ones. */
static int placements(const struct pc_contend_options *o, const struct pc_place *pl,
		      enum pc_placement *how, unsigned *nhow, int *list, unsigned *nlist,
		      char *err, size_t errlen)
{
	const char *p = o->placement ? o->placement : "compact";
	unsigned i, k;

	*nlist = *nhow = 0;
	if (o->cpus) {
		if (o->placement) {
			snprintf(err, errlen, "--placement and --cpus: give one of them");
			return -1;
		}
		if (pc_contend_list("--cpus", o->cpus, list, PC_CONTEND_THREADS_MAX, nlist,
				    err, errlen) < 0)
			return -1;
		for (i = 0; i < *nlist; i++) {
			for (k = 0; k < i && list[k] != list[i]; k++)
				;
			if (k < i) {
				snprintf(err, errlen, "--cpus: CPU %d given twice (every "
					 "thread has a CPU of its own)", list[i]);
				return -1;
			}
			for (k = 0; k < pl->ncpus && pl->compact[k] != list[i]; k++)
				;
			if (k == pl->ncpus) {
				snprintf(err, errlen, "--cpus: CPU %d is not one this process "
					 "may run on", list[i]);
				return -1;
			}
		}
		how[(*nhow)++] = PC_PLACE_LIST;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 7 && strncmp(p, "compact", 7) == 0)
			how[(*nhow)++] = PC_PLACE_COMPACT;
		else if (len == 6 && strncmp(p, "spread", 6) == 0)
			how[(*nhow)++] = PC_PLACE_SPREAD;
		else {
			snprintf(err, errlen, "--placement: want compact or spread, got '%.*s'",
				 (int)len, p);
			return -1;
		}
		if (!p[len] || *nhow == 2)
			return 0;
		p += len + 1;
	}
}

/* c2c's pairs: every pair (--matrix), the first CPU with each other
 * (--cpus), or one pair per class. */
static int pairs_plan(const struct pc_contend_options *o, struct pc_contend_run *cr,
		      size_t *cap, const struct pc_contend_kind *k, const int *list,
		      unsigned nlist)
{
	const int *c = nlist ? list : cr->place.compact;
	unsigned n = nlist ? nlist : cr->place.ncpus, i, j;
	int pair[2], reps[8][2];

	if (o->matrix) {
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				pair[0] = c[i], pair[1] = c[j];
				if (!add_point(cr, cap, k, 2, PC_PLACE_PAIR, pair))
					return -1;
			}
		return 0;
	}
	if (nlist) {
		for (j = 1; j < n; j++) {
			pair[0] = c[0], pair[1] = c[j];
			if (!add_point(cr, cap, k, 2, PC_PLACE_PAIR, pair))
				return -1;
		}
		return 0;
	}
	n = pc_place_pairs(&cr->place, reps, 8);
	for (i = 0; i < n; i++)
		if (!add_point(cr, cap, k, 2, PC_PLACE_PAIR, reps[i]))
			return -1;
	return 0;
}

/* The data lines of the lock rows: --data-lines, or 0 and 1, each at most
 * PC_CONTEND_DATA_LINES_MAX. */
static int data_lines(const struct pc_contend_options *o, int *d, unsigned *n, char *err,
		      size_t errlen)
{
	unsigned i;

	if (pc_contend_list("--data-lines", o->data_lines ? o->data_lines :
			    PC_CONTEND_DATA_LINES, d, PC_CONTEND_DATA_LINES_MAX + 1, n, err,
			    errlen) < 0)
		return -1;
	for (i = 0; i < *n; i++)
		if (d[i] > PC_CONTEND_DATA_LINES_MAX) {
			snprintf(err, errlen, "--data-lines: at most %d lines of data, got %d",
				 PC_CONTEND_DATA_LINES_MAX, d[i]);
			return -1;
		}
	return 0;
}

/* The points of one row: each placement at each thread count, with data
 * lines lines of protected data (lock rows; 0 for the others). */
static int row_plan(struct pc_contend_run *cr, size_t *cap, const struct pc_contend_kind *k,
		    const enum pc_placement *how, unsigned nhow, const int *c, unsigned nc,
		    const int *list, unsigned nlist, unsigned lines, char *err,
		    size_t errlen)
{
	struct pc_contend_point *pt;
	int cpus[PC_CONTEND_THREADS_MAX];
	unsigned h, i;

	for (h = 0; h < nhow; h++)
		for (i = 0; i < nc; i++) {
			unsigned n = (unsigned)c[i];

			if (how[h] == PC_PLACE_LIST) {
				if (n > nlist) {
					snprintf(err, errlen, "--threads %u: --cpus gives %u "
						 "CPUs", n, nlist);
					return -1;
				}
				memcpy(cpus, list, n * sizeof(int));
			} else if (pc_place_pick(&cr->place, how[h], n, cpus, err, errlen) < 0) {
				return -1;
			}
			if (!(pt = add_point(cr, cap, k, n, how[h], cpus))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			pt->data_lines = lines;
		}
	return 0;
}

int pc_contend_plan(const void *opts, void *state, char *err, size_t errlen)
{
	const struct pc_contend_options *o = opts;
	struct pc_contend_run *cr = state;
	int list[PC_CONTEND_THREADS_MAX], c[64], d[PC_CONTEND_DATA_LINES_MAX + 1];
	enum pc_placement how[2];
	unsigned nlist, nhow, nc, nd, k, i;
	size_t cap = 0;

	memset(cr, 0, sizeof(*cr));
	cr->window_us = o->window_us ? o->window_us : PC_CONTEND_WINDOW_US;
	if (pc_place_open(&cr->place, o->topology, err, errlen) < 0 ||
	    placements(o, &cr->place, how, &nhow, list, &nlist, err, errlen) < 0 ||
	    counts(o, nlist ? nlist : cr->place.ncpus, c, &nc, err, errlen) < 0 ||
	    data_lines(o, d, &nd, err, errlen) < 0)
		goto fail;
	for (k = 0; k < pc_contend_nkinds; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];

		if (!o->kinds[k])
			continue;
		if (kind->cls == PC_KIND_C2C) {
			if (pairs_plan(o, cr, &cap, kind, list, nlist) < 0) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			continue;
		}
		for (i = 0; i < (kind->cls == PC_KIND_LOCK ? nd : 1); i++)
			if (row_plan(cr, &cap, kind, how, nhow, c, nc, list, nlist,
				     kind->cls == PC_KIND_LOCK ? (unsigned)d[i] : 0, err,
				     errlen) < 0)
				goto fail;
	}
	return 0;
fail:
	pc_contend_close(cr);
	return -1;
}

void pc_contend_close(void *state)
{
	struct pc_contend_run *cr = state;
	size_t i;

	for (i = 0; i < cr->npoints; i++) {
		free(cr->points[i].cpus);
		free(cr->points[i].v);
		free(cr->points[i].can_t);
	}
	free(cr->canary_limit);
	cr->canary_limit = NULL;
	free(cr->points);
	cr->points = NULL;
	cr->npoints = 0;
	pc_place_close(&cr->place);
}

/* ---- the windows --------------------------------------------------------------------------- */

/* A batch: a point's threads running nwin windows back to back. */
struct batch {
	const struct pc_contend_point *pt;
	struct pc_contend_shared *s;	/* the barrier's */
	struct pc_contend_shared **slot;	/* [nwin]: each window's lines */
	uint64_t window_ticks;
	unsigned nwin;
	uint64_t *acq, *ticks;		/* [nwin][nthreads] */
	long *switched;			/* [nwin][nthreads]: involuntary switches */
	double *can;			/* [nwin][nthreads]: canary ticks/op */
	double *cal;			/* [nwin][nthreads]: the add chain's
					 * ticks per add (per cycle) */
	uint64_t *gap;			/* [nwin][nthreads]: longest check gap */
	uint64_t *late;			/* [nwin][nthreads]: ticks past the window's
					 * start when it began, or past its end
					 * when it stopped, whichever is more */
	uint64_t *deadline;		/* [nwin]: the window's end */
	double *xfer;			/* [nwin]: the gauge's ticks per transfer */
	const struct pc_arch_probe *canary;	/* or NULL */
	const struct pc_arch_probe *chain;	/* the add chain, or NULL */
	const char **why;		/* [nwin]: the check's verdict */
	uint64_t *counter;		/* [nwin]: what the check read */
	unsigned w;			/* the leader's window number */
	atomic_int gate;		/* 1: all threads started; 2: give up */
	atomic_uint ready;		/* threads that tried to pin themselves */
	atomic_int unpinned;		/* one that could not, or -1 */
};

struct worker {
	struct batch *b;
	unsigned idx;
};

static long involuntary(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

/* What a lock row's window left: the counter, or the first data line that
 * differs from the acquisitions when the counter does not. */
static uint64_t lock_tally(const struct pc_contend_shared *s, uint64_t total)
{
	unsigned i;

	for (i = 0; s->counter == total && i < s->data_lines; i++)
		if (s->data[i].v != total)
			return s->data[i].v;
	return s->counter;
}

/* Between windows, done by the last thread at the barrier: the check of the
 * window that ended, the initial state of the next and its deadline. */
static void between(struct batch *b)
{
	const struct pc_contend_kind *k = b->pt->kind;
	unsigned n = b->pt->nthreads, i;
	struct pc_contend_shared *s;

	if (b->w > 0) {
		uint64_t total = 0;

		s = b->slot[b->w - 1];
		for (i = 0; i < n; i++)
			total += s->threads[i].acq;
		b->why[b->w - 1] = k->check(s, n, total);
		b->counter[b->w - 1] = k->cls == PC_KIND_LOCK ? lock_tally(s, total) :
				       (uint64_t)atomic_load(&s->word);
		k->fini(s);
	}
	if (b->w < b->nwin) {
		s = b->slot[b->w];
		k->init(s);
		s->counter = 0;
		s->data_lines = b->pt->data_lines;
		for (i = 0; i < s->data_lines; i++)
			s->data[i].v = 0;
		for (i = 0; i < n; i++) {
			memset(&s->threads[i], 0, sizeof(s->threads[i]));
			s->threads[i].idx = i;
			s->threads[i].parity = i & 1;
		}
		atomic_store(&s->stop, 0);
		s->deadline = pc_timer_read() + b->window_ticks;
		b->deadline[b->w] = s->deadline;
	}
	b->w++;
}

static void barrier(struct batch *b, unsigned *sense)
{
	struct pc_contend_shared *s = b->s;

	*sense ^= 1;
	if (atomic_fetch_add(&s->arrived, 1) == b->pt->nthreads - 1) {
		between(b);
		atomic_store(&s->arrived, 0);
		atomic_store_explicit(&s->sense, *sense, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&s->sense, memory_order_acquire) != *sense)
		pc_relax();
}

/* The canary right after a window, on the same CPU: ticks per operation
 * of its hi loop over its lo loop. A core shared with another thread (an
 * SMT sibling, a neighbour's vCPU) runs it slower. */
static double canary(const struct pc_arch_probe *p)
{
	struct pc_probe_state st;
	uint64_t lo, hi;

	memset(&st, 0, sizeof(st));
	if (p->init)
		p->init(&st);
	lo = p->run(&st, PC_CONTEND_CANARY_ITERS, 0);
	hi = p->run(&st, PC_CONTEND_CANARY_ITERS, 1);
	return hi > lo ? (double)(hi - lo) / (PC_CONTEND_CANARY_ITERS * PC_UNROLL_DIFF) : 0;
}

/* How late a thread began its window, or stopped after it ended. */
static uint64_t lateness(const struct pc_contend_thread *t, uint64_t deadline,
			 uint64_t window_ticks)
{
	uint64_t begin = deadline - window_ticks;
	uint64_t a = t->t0 > begin ? t->t0 - begin : 0;
	uint64_t z = t->t1 > deadline ? t->t1 - deadline : 0;

	return a > z ? a : z;
}

/*
 * The transfer gauge, right after a window: the point's first two threads
 * pass a line back and forth PC_CONTEND_GAUGE_TRIPS times (the barrier's,
 * the same line throughout, so that what moves it is where the CPUs are).
 * Thread 0's ticks per one-way transfer; 0 for the others.
 */
static double gauge(atomic_uint_fast64_t *line, unsigned idx)
{
	uint64_t t0 = 0;
	unsigned j;

	for (j = 0; j <= PC_CONTEND_GAUGE_TRIPS; j++) {
		uint_fast64_t v;

		/* c2c.latency's moves: loads until its turn, then a CAS; no
		 * spin-wait hint, whose delay would count as transfer */
		while (((v = atomic_load_explicit(line, memory_order_acquire)) & 1) != idx)
			;
		atomic_compare_exchange_strong(line, &v, v + 1);
		if (j == 0)
			t0 = pc_timer_read();
	}
	return idx ? 0 : (double)(pc_timer_read() - t0) / (2.0 * PC_CONTEND_GAUGE_TRIPS);
}

static void *work(void *arg)
{
	struct worker *wk = arg;
	struct batch *b = wk->b;
	unsigned n = b->pt->nthreads, sense = 0, w;
	cpu_set_t set;
	int g;

	CPU_ZERO(&set);
	CPU_SET(b->pt->cpus[wk->idx], &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		atomic_store(&b->unpinned, (int)wk->idx);
	atomic_fetch_add(&b->ready, 1);
	while (!(g = atomic_load(&b->gate)))
		pc_relax();
	if (g != 1)
		return NULL;
	for (w = 0; w < b->nwin; w++) {
		struct pc_contend_thread *t;
		long sw;

		barrier(b, &sense);
		t = &b->slot[w]->threads[wk->idx];
		sw = involuntary();
		b->pt->kind->loop(b->slot[w], t);
		b->switched[w * n + wk->idx] = involuntary() - sw;
		if (n >= 2 && wk->idx < 2) {
			double x = gauge(&b->s->word, wk->idx);

			if (!wk->idx)
				b->xfer[w] = x;
		}
		if (b->canary)
			b->can[w * n + wk->idx] = canary(b->canary);
		if (b->chain)
			b->cal[w * n + wk->idx] = canary(b->chain);
		b->acq[w * n + wk->idx] = t->acq;
		b->ticks[w * n + wk->idx] = t->t1 - t->t0;
		b->gap[w * n + wk->idx] = t->gap;
		b->late[w * n + wk->idx] = lateness(t, b->deadline[w], b->window_ticks);
	}
	barrier(b, &sense);
	return NULL;
}

/* Runs b's windows: a thread per CPU of the point, pinned. -1 with err. */
static int run_batch(struct batch *b, char *err, size_t errlen)
{
	unsigned n = b->pt->nthreads, i, started = 0;
	pthread_t tid[PC_CONTEND_THREADS_MAX];
	struct worker wk[PC_CONTEND_THREADS_MAX];
	int rc = 0;

	b->w = 0;
	atomic_store(&b->gate, 0);
	atomic_store(&b->ready, 0);
	atomic_store(&b->unpinned, -1);
	atomic_store(&b->s->arrived, 0);
	atomic_store(&b->s->sense, 0);
	for (i = 0; i < n; i++) {
		wk[i] = (struct worker){ b, i };
		rc = pthread_create(&tid[i], NULL, work, &wk[i]);
		if (rc)
			break;
		started++;
	}
	/* Every thread pins itself (qemu-user hangs in pthread_create with an
	 * affinity attribute); they start together, or not at all. */
	while (atomic_load(&b->ready) < started)
		sched_yield();
	i = (unsigned)atomic_load(&b->unpinned);
	atomic_store(&b->gate, started < n || i < n ? 2 : 1);
	if (started < n)
		snprintf(err, errlen, "cannot start a thread on CPU %d: %s",
			 b->pt->cpus[started], strerror(rc));
	else if (i < n)
		snprintf(err, errlen, "cannot run a thread on CPU %d", b->pt->cpus[i]);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	return atomic_load(&b->gate) == 1 ? 0 : -1;
}

/* Did a thread lose its CPU for a while (PC_CONTEND_STALL_FACTOR)? */
static bool stalled(uint64_t ops, uint64_t ticks, uint64_t gap)
{
	double checks = (double)(ops / PC_CONTEND_CHECK_EVERY);
	double mean = (double)ticks / (checks > 1 ? checks : 1);

	return gap > PC_CONTEND_STALL_FACTOR * mean &&
	       gap > PC_CONTEND_STALL_SHARE * (double)ticks;
}

/* The compact index of a CPU (its canary limit's). */
static unsigned cpu_index(const struct pc_place *pl, int cpu)
{
	unsigned i;

	for (i = 0; i < pl->ncpus && pl->compact[i] != cpu; i++)
		;
	return i;
}

/* Did a thread of window k run its canary above its CPU's limit? */
static bool slow(const struct pc_contend_run *cr, const struct pc_contend_point *pt,
		 unsigned k)
{
	unsigned i, c;

	if (!cr->canary_limit)
		return false;
	for (i = 0; i < pt->nthreads; i++) {
		c = cpu_index(&cr->place, pt->cpus[i]);
		if (c < cr->place.ncpus && cr->canary_limit[c] > 0 &&
		    pt->can_t[(size_t)k * pt->nthreads + i] > cr->canary_limit[c])
			return true;
	}
	return false;
}

/* Window w of batch b into pt's windows (round r); false when its check
 * failed (pt is then failed, with the reason). */
static bool take(const struct pc_contend_run *cr, struct pc_contend_point *pt,
		 const struct batch *b, unsigned w, unsigned r, double tick_hz)
{
	unsigned n = pt->nthreads, i, k = pt->nv;
	uint64_t total = 0, ticks = 0;
	bool clean = true;

	if (b->why[w]) {
		uint64_t sum = 0;

		for (i = 0; i < n; i++)
			sum += b->acq[w * n + i];
		pt->failed = true;
		snprintf(pt->reason, sizeof(pt->reason), "%s (%llu, against %llu)",
			 b->why[w], (unsigned long long)b->counter[w],
			 (unsigned long long)sum);
		return false;
	}
	if (k == pt->cap)
		return true;
	for (i = 0; i < n; i++) {
		total += b->acq[w * n + i];
		ticks += b->ticks[w * n + i];
		clean &= b->switched[w * n + i] == 0 &&
			 !stalled(b->acq[w * n + i], b->ticks[w * n + i], b->gap[w * n + i]) &&
			 b->late[w * n + i] <= PC_CONTEND_STALL_SHARE * b->window_ticks;
	}
	pt->windows++;
	pt->disturbed += !clean;
	if (!total)
		return true;
	pt->switched[k] = !clean;
	memcpy(&pt->can_t[(size_t)k * n], &b->can[w * n], n * sizeof(double));
	if (clean && slow(cr, pt, k)) {
		clean = false;
		pt->contended++;
	}
	pc_fairness(&b->acq[w * n], n, &pt->cv_w[k], &pt->share_w[k]);
	/* c2c: one thread's time over the transfers both made */
	pt->v[k] = (double)ticks / (double)total /
		   (pt->kind->cls == PC_KIND_C2C ? (double)n : 1.0);
	pt->rate_w[k] = (double)total / ((double)ticks / n / tick_hz);
	pt->xfer_w[k] = b->xfer[w];
	for (i = 0, pt->cal_w[k] = 0; i < n && b->cal[w * n + i] > 0; i++)
		pt->cal_w[k] += b->cal[w * n + i] / n;
	if (i < n)
		pt->cal_w[k] = 0;
	pt->round[k] = (unsigned char)r;
	pt->clean[k] = clean;
	pt->nv++;
	return true;
}

static unsigned clean_count(const struct pc_contend_point *pt)
{
	unsigned i, n = 0;

	for (i = 0; i < pt->nv; i++)
		n += pt->clean[i];
	return n;
}

/* What every batch of a run shares. */
struct sampling {
	struct pc_contend_run *cr;
	struct pc_contend_shared *s;	/* the barrier's */
	char *pool;			/* PC_CONTEND_SLOTS sets of lines */
	size_t stride;			/* from one set to the next */
	unsigned *next;			/* the set the next window takes */
	uint64_t window_ticks;
	double tick_hz;
	const struct pc_measure_config *cfg;	/* where progress goes */
};

/* The progress lines of pt's windows (what: "round" or "resample"). */
static void point_progress(const struct sampling *sp, const struct pc_contend_point *pt,
			   const char *what, unsigned r)
{
	char name[96];

	int at = snprintf(name, sizeof(name), "%s/%u/%s", pt->kind->name, pt->nthreads,
			  pc_placement_names[pt->placement]);

	if (pt->kind->cls == PC_KIND_LOCK && at > 0 && (size_t)at < sizeof(name))
		snprintf(name + at, sizeof(name) - (size_t)at, "/%u data lines",
			 pt->data_lines);
	pc_progress(sp->cfg, what, r + 1, PC_CONTEND_ROUNDS, name);
}

/* nwin windows of pt, into its windows (round r). -1 with err. */
static int windows(const struct sampling *sp, struct pc_contend_point *pt, unsigned nwin,
		   unsigned r, char *err, size_t errlen)
{
	unsigned n = pt->nthreads, w;
	struct batch b;
	int rc = -1;

	memset(&b, 0, sizeof(b));
	b.pt = pt;
	b.s = sp->s;
	b.window_ticks = sp->window_ticks;
	b.nwin = nwin;
	b.canary = sp->cr->canary;
	b.chain = sp->cr->chain;
	b.acq = calloc((size_t)nwin * n, sizeof(*b.acq));
	b.ticks = calloc((size_t)nwin * n, sizeof(*b.ticks));
	b.switched = calloc((size_t)nwin * n, sizeof(*b.switched));
	b.can = calloc((size_t)nwin * n, sizeof(*b.can));
	b.cal = calloc((size_t)nwin * n, sizeof(*b.cal));
	b.gap = calloc((size_t)nwin * n, sizeof(*b.gap));
	b.late = calloc((size_t)nwin * n, sizeof(*b.late));
	b.deadline = calloc(nwin, sizeof(*b.deadline));
	b.why = calloc(nwin, sizeof(*b.why));
	b.counter = calloc(nwin, sizeof(*b.counter));
	b.slot = calloc(nwin, sizeof(*b.slot));
	b.xfer = calloc(nwin, sizeof(*b.xfer));
	for (w = 0; b.slot && w < nwin; w++, ++*sp->next)
		b.slot[w] = (struct pc_contend_shared *)(sp->pool + sp->stride *
							 (*sp->next % PC_CONTEND_SLOTS));
	if (!b.acq || !b.ticks || !b.switched || !b.can || !b.cal || !b.gap || !b.late ||
	    !b.deadline || !b.why || !b.counter || !b.slot)
		snprintf(err, errlen, "out of memory");
	else if (run_batch(&b, err, errlen) == 0)
		rc = 0;
	for (w = 0; rc == 0 && w < nwin &&
	     take(sp->cr, pt, &b, w, r, sp->tick_hz); w++)
		;
	free(b.acq);
	free(b.ticks);
	free(b.switched);
	free(b.can);
	free(b.cal);
	free(b.gap);
	free(b.late);
	free(b.deadline);
	free(b.why);
	free(b.counter);
	free(b.slot);
	free(b.xfer);
	return rc;
}

/* The median of the windows of pt that count (used[i]) in x; NAN if none. */
static double median_of(const struct pc_contend_point *pt, const double *x,
			const bool *used, int round, double *tmp)
{
	unsigned i, n = 0;

	for (i = 0; i < pt->nv; i++)
		if (used[i] && (round < 0 || pt->round[i] == round))
			tmp[n++] = x[i];
	return n ? pc_median(tmp, n) : NAN;
}

/* The spread of the round medians: (max - min) / median. */
static double round_spread(const struct pc_contend_point *pt, const bool *used,
			   double *tmp)
{
	double med[PC_CONTEND_ROUNDS], all;
	unsigned r, n = 0;

	for (r = 0; r < PC_CONTEND_ROUNDS; r++) {
		double m = median_of(pt, pt->v, used, (int)r, tmp);

		if (!isnan(m))
			med[n++] = m;
	}
	if (n < 2)
		return NAN;
	all = pc_median(med, n);
	return (med[n - 1] - med[0]) / all;	/* sorted by pc_median */
}

/*
 * The transfer gauge of pt's windows (used): its median into pt->xfer
 * (ticks; 0 for one thread); when its quartiles are over
 * PC_TRANSFER_MOVED apart, the windows ran with their CPUs at two distances
 * (a host that moved a virtual machine's vCPUs between cores near and
 * apart): their figures mix the two, and the point is noisy.
 */
bool pc_contend_moved(double *x, size_t n, double *q1, double *med, double *q3)
{
	*q1 = *med = *q3 = 0;
	if (!n || pc_sort_doubles(x, n) < 0)
		return false;
	*q1 = pc_quantile_sorted(x, n, 0.25);
	*med = pc_quantile_sorted(x, n, 0.5);
	*q3 = pc_quantile_sorted(x, n, 0.75);
	return *q3 > PC_TRANSFER_MOVED * *q1;
}

static void moved(struct pc_contend_point *pt, struct pc_probe_result *r, const bool *used,
		  double *tmp, double cpt)
{
	unsigned i, n = 0;
	double q1, q3;

	for (i = 0; i < pt->nv; i++)
		if (used[i] && pt->xfer_w[i] > 0)
			tmp[n++] = pt->xfer_w[i];
	if (!pc_contend_moved(tmp, n, &q1, &pt->xfer, &q3) || r->status == PC_STATUS_NOISY)
		return;
	r->status = PC_STATUS_NOISY;
	snprintf(r->reason, sizeof(r->reason), "its windows moved a line between its "
		 "CPUs in %.0f to %.0f cycles (first to third quartile): the CPUs were "
		 "not as far apart throughout (a host moving a virtual machine's vCPUs)",
		 q1 * cpt, q3 * cpt);
}

/* The point's cycles per tick: the median of its windows' (used) add
 * chains, or the run's (cpt) when none ran. */
static double point_cpt(const struct pc_contend_point *pt, const bool *used, double *tmp,
			double cpt)
{
	unsigned i, n = 0;

	for (i = 0; i < pt->nv; i++)
		if (used[i] && pt->cal_w[i] > 0)
			tmp[n++] = pt->cal_w[i];
	return n ? 1 / pc_median(tmp, n) : cpt;
}

/* A point's figures into r: the clean windows, or every window (noisy)
 * when none was clean. -1: out of memory. */
static int finish(struct pc_contend_point *pt, struct pc_probe_result *r,
		  unsigned samples, double window_s, double cpt, double tick_hz,
		  bool interrupted)
{
	unsigned clean = clean_count(pt), i, n = 0;
	double spread;
	bool *used = calloc(pt->nv + 1, sizeof(bool));
	double *tmp = calloc(pt->nv + 1, sizeof(double));
	int rc = -1;

	r->ring = 3;
	r->linearity = NAN;
	r->round_spread = NAN;
	r->cycles_source = PC_CYCLES_CALIBRATED;
	r->cycles_per_tick = cpt;
	if (!used || !tmp)
		goto out;
	rc = 0;
	if (!pt->failed && !pt->windows && interrupted) {
		r->status = PC_STATUS_SKIPPED;
		r->partial = true;
		snprintf(r->reason, sizeof(r->reason), "interrupted before it was measured");
		goto out;
	}
	r->partial = interrupted;
	if (pt->failed || !pt->nv) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "%s", pt->failed ? pt->reason :
			 "no window made an operation");
		goto out;
	}
	/* a window of no time per operation measured nothing */
	for (i = 0; i < pt->nv; i++)
		if ((used[i] = (pt->clean[i] || !clean) && pt->v[i] > 0))
			tmp[n++] = pt->v[i];
	if (!n) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "no window took any time");
		goto out;
	}
	if (clean < samples) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "of %u windows, %u saw a thread "
			 "switched out or stalled and %u a slow canary (the core "
			 "shared)%s",
			 pt->windows, pt->disturbed, pt->contended,
			 clean ? "; the clean ones kept" : "; none was clean: all kept");
	} else if (pc_samples_noisy(tmp, n, PC_NOISY_SPREAD_CONTEND, &spread)) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "disturbed: its %u windows spread "
			 "by %.1f %% (median absolute deviation; a quiet host: under "
			 "%.0f %%)", n, spread * 100, PC_NOISY_SPREAD_CONTEND * 100);
	}
	if (pc_summarize(tmp, n, &r->ticks) < 0) {
		rc = -1;
		goto out;
	}
	cpt = point_cpt(pt, used, tmp, cpt);
	r->cycles_per_tick = cpt;
	moved(pt, r, used, tmp, cpt);
	r->cycles = pc_summary_scale(&r->ticks, cpt);
	r->ns = pc_summary_scale(&r->ticks, 1e9 / tick_hz);
	r->samples = n;
	r->events.disturbed = pt->disturbed;
	r->events.contended = pt->contended;
	r->round_spread = round_spread(pt, used, tmp);
	pt->cv = median_of(pt, pt->cv_w, used, -1, tmp);
	pt->max_share = median_of(pt, pt->share_w, used, -1, tmp);
	pt->ops_per_s = median_of(pt, pt->rate_w, used, -1, tmp);
	for (i = 0, pt->max_share_worst = 0; i < pt->nv; i++)
		if (used[i] && pt->share_w[i] > pt->max_share_worst)
			pt->max_share_worst = pt->share_w[i];
	/* a window is one loop: the operations all its threads made */
	r->iters = 1;
	r->ops_per_sample = (uint64_t)(pt->ops_per_s * window_s);
out:
	free(used);
	free(tmp);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Room for PC_CONTEND_MORE x samples windows a point, and as many again
 * (the retakes' budget). */
static int point_arrays(struct pc_contend_point *pt, unsigned samples)
{
	unsigned cap = (PC_CONTEND_MORE + 1) * samples;

	pt->v = calloc(cap, 6 * sizeof(double) + 1 + 2 * sizeof(bool));
	pt->can_t = calloc((size_t)cap * pt->nthreads, sizeof(double));
	if (!pt->v || !pt->can_t)
		return -1;
	pt->cv_w = pt->v + cap;
	pt->share_w = pt->cv_w + cap;
	pt->rate_w = pt->share_w + cap;
	pt->xfer_w = pt->rate_w + cap;
	pt->cal_w = pt->xfer_w + cap;
	pt->round = (unsigned char *)(pt->cal_w + cap);
	pt->switched = (bool *)(pt->round + cap);
	pt->clean = pt->switched + cap;
	pt->cap = cap;
	return 0;
}

/* The first quartile of the canaries run on CPU (compact index) c, 10 %
 * up; 0 when none ran there. */
static double cpu_limit(const struct pc_contend_run *cr, unsigned c, double *all)
{
	size_t i, n = 0;
	unsigned k, t;

	for (i = 0; i < cr->npoints; i++) {
		const struct pc_contend_point *pt = &cr->points[i];

		for (t = 0; t < pt->nthreads; t++)
			if (cpu_index(&cr->place, pt->cpus[t]) == c)
				for (k = 0; k < pt->nv; k++)
					all[n++] = pt->can_t[(size_t)k * pt->nthreads + t];
	}
	if (!n || pc_sort_doubles(all, n) < 0)
		return 0;
	return pc_quantile_sorted(all, n, 0.25) * (1 + PC_CONTENTION_TOLERANCE);
}

/*
 * The canary's limits, once the rounds are done: on each CPU, 10 % above
 * the first quartile of the canaries run there (as the engine's samples);
 * a window with a thread above its CPU's limit is not clean, unless fewer
 * than a quarter of a point's would stay (its cores were shared
 * throughout: it keeps them, and the retakes would not do better).
 */
static int canary_limits(struct pc_contend_run *cr)
{
	size_t i, n = 0;
	unsigned k, c;
	double *all;

	for (i = 0; i < cr->npoints; i++)
		n += (size_t)cr->points[i].nv * cr->points[i].nthreads;
	if (!cr->canary || !n)
		return 0;
	all = malloc(n * sizeof(double));
	cr->canary_limit = calloc(cr->place.ncpus + 1, sizeof(double));
	if (!all || !cr->canary_limit) {
		free(all);
		return -1;
	}
	for (c = 0; c < cr->place.ncpus; c++)
		cr->canary_limit[c] = cpu_limit(cr, c, all);
	free(all);
	for (i = 0; i < cr->npoints; i++) {
		struct pc_contend_point *pt = &cr->points[i];
		unsigned nslow = 0;

		for (k = 0; k < pt->nv; k++)
			nslow += !pt->switched[k] && slow(cr, pt, k);
		if (nslow > pt->nv * 3 / 4)
			continue;
		pt->contended += nslow;
		for (k = 0; k < pt->nv; k++)
			pt->clean[k] = !pt->switched[k] && !slow(cr, pt, k);
	}
	return 0;
}

/*
 * The clean windows pt wants: enough that the standard error of their
 * median, about 1.25 x 1.4826 x MAD / sqrt(n), is PC_CONTEND_SE of it, at
 * least samples and at most PC_CONTEND_MORE x samples. A lock whose
 * hand-offs go one way in one window and another in the next scatters
 * 5-10 % and wants 90 windows or more; an atomic's 2 % wants the 31.
 */
static unsigned wanted(const struct pc_contend_point *pt, unsigned samples, double *tmp)
{
	unsigned i, n = 0;
	double spread, want;

	for (i = 0; i < pt->nv; i++)
		if (pt->clean[i])
			tmp[n++] = pt->v[i];
	if (n < samples)
		return samples;
	/* the engine's spread: the relative MAD (its verdict is not ours) */
	pc_samples_noisy(tmp, n, PC_NOISY_SPREAD_CONTEND, &spread);
	if (!(spread >= 0))
		return samples;
	want = 1.25 * 1.4826 * spread / PC_CONTEND_SE;
	want *= want;
	return want <= samples ? samples : want >= PC_CONTEND_MORE * samples ?
	       PC_CONTEND_MORE * samples : (unsigned)ceil(want);
}

/* The windows the points want beyond samples, in rounds as the first ones
 * (a share of each wanting point in each); -1 with err, 1 interrupted. */
static int more_windows(const struct sampling *sp, unsigned samples, char *err,
			size_t errlen)
{
	struct pc_contend_run *cr = sp->cr;
	unsigned per = (samples + PC_CONTEND_ROUNDS - 1) / PC_CONTEND_ROUNDS;
	double *tmp = malloc((size_t)(PC_CONTEND_MORE + 1) * samples * sizeof(double));
	bool again = true;
	size_t i;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (again) {
		again = false;
		for (i = 0; i < cr->npoints; i++) {
			struct pc_contend_point *pt = &cr->points[i];
			unsigned want = wanted(pt, samples, tmp), have = clean_count(pt);

			if (pt->failed || have >= want || pt->windows >= pt->cap)
				continue;
			if (pc_interrupted()) {
				free(tmp);
				return 1;
			}
			point_progress(sp, pt, "resample", PC_CONTEND_ROUNDS - 1);
			if (windows(sp, pt, want - have < per ? want - have : per,
				    PC_CONTEND_ROUNDS - 1, err, errlen) < 0) {
				free(tmp);
				return -1;
			}
			again = true;
		}
	}
	free(tmp);
	return 0;
}

/* Every point's windows: a share in each round, point after point, then
 * the disturbed and contended ones retaken while the budget lasts, then
 * more where the windows scatter (more_windows). 1 when an interruption
 * (SIGINT, SIGTERM, SIGHUP) stopped it. */
static int sample_points(const struct sampling *sp, unsigned samples, char *err,
			 size_t errlen)
{
	struct pc_contend_run *cr = sp->cr;
	unsigned per = (samples + PC_CONTEND_ROUNDS - 1) / PC_CONTEND_ROUNDS, r;
	size_t i;

	for (r = 0; r < PC_CONTEND_ROUNDS; r++)
		for (i = 0; i < cr->npoints; i++) {
			struct pc_contend_point *pt = &cr->points[i];
			unsigned left = samples > pt->nv ? samples - pt->nv : 0;

			if (pt->failed || !left)
				continue;
			if (pc_interrupted())
				return 1;
			point_progress(sp, pt, "round", r);
			if (windows(sp, pt, left < per ? left : per, r, err, errlen) < 0)
				return -1;
		}
	if (canary_limits(cr) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < cr->npoints; i++) {
		struct pc_contend_point *pt = &cr->points[i];

		while (!pt->failed && clean_count(pt) < samples && pt->windows < pt->cap) {
			if (pc_interrupted())
				return 1;
			point_progress(sp, pt, "resample", PC_CONTEND_ROUNDS - 1);
			if (windows(sp, pt, samples - clean_count(pt), PC_CONTEND_ROUNDS - 1,
				    err, errlen) < 0)
				return -1;
		}
	}
	return more_windows(sp, samples, err, errlen);
}

/* The run's contention canary, as the engine's (measure.c): the first
 * quartile and median of every window's canaries, on every CPU, in cycles
 * (each point's: finish() put them in prof); the windows they dropped. */
static void run_canary(const struct pc_contend_run *cr, struct pc_profile *prof)
{
	size_t i, n = 0, k = 0, j, m;
	double *all;

	for (i = 0; i < cr->npoints; i++)
		n += (size_t)cr->points[i].nv * cr->points[i].nthreads;
	if (!cr->canary || !n || !(all = malloc(n * sizeof(*all))))
		return;
	for (i = 0; i < cr->npoints; i++) {
		m = (size_t)cr->points[i].nv * cr->points[i].nthreads;
		for (j = 0; j < m; j++)
			all[k++] = cr->points[i].can_t[j] * prof->probes[i].cycles_per_tick;
		prof->contended += cr->points[i].contended;
	}
	if (pc_sort_doubles(all, n) == 0) {
		prof->canary_best = pc_quantile_sorted(all, n, 0.25);
		prof->canary_median = pc_quantile_sorted(all, n, 0.5);
		prof->canary = prof->canary_best > 0;
	}
	free(all);
}

/* Cycles per tick: the add chain, through the engine like any row (its
 * warm-up and time limits hold under an emulator too), on this thread's
 * CPU. */
static int calibrate(const struct pc_measure_config *cfg, const struct pc_clock *clk,
		     double *cpt, char *err, size_t errlen)
{
	bool sel[PC_PROBE_COUNT] = { false };
	struct pc_measure_config c = *cfg;
	struct pc_profile p;

	sel[PC_PROBE_calib_add_chain] = true;
	c.samples = PC_CONTEND_CAL_SAMPLES;
	c.progress = false;
	c.status_fd = -1;	/* its "measured" would come before the windows */
	if (pc_profile_run(sel, &c, clk, &p, err, errlen) < 0)
		return -1;
	*cpt = p.cycles_per_tick;
	if (!(*cpt > 0) && p.nprobes && p.probes[0].ticks.median > 0)
		*cpt = 1 / p.probes[0].ticks.median;
	pc_profile_free(&p);
	if (*cpt > 0 && isfinite(*cpt))
		return 0;
	snprintf(err, errlen, "the add-chain calibration gave no figure");
	return -1;
}

/*
 * The sets of lines the windows take in turn: PC_CONTEND_SLOTS of them, each
 * the shared lines then the threads' (a point's most), the next set
 * PC_CONTEND_SLOT_SHIFT further into its page than the last, so that the
 * sets cover every line offset of a page, on pages of their own. NULL when
 * out of memory.
 */
static char *slot_pool(const struct pc_contend_run *cr, size_t *stride)
{
	size_t head = (sizeof(struct pc_contend_shared) + PC_LINE - 1) / PC_LINE * PC_LINE;
	unsigned most = 1, i;
	char *pool;

	for (i = 0; i < cr->npoints; i++)
		most = cr->points[i].nthreads > most ? cr->points[i].nthreads : most;
	*stride = head + most * sizeof(struct pc_contend_thread);
	*stride = (*stride + PC_CONTEND_PAGE - 1) / PC_CONTEND_PAGE * PC_CONTEND_PAGE +
		  PC_CONTEND_SLOT_SHIFT;
	pool = aligned_alloc(PC_CONTEND_PAGE, *stride * PC_CONTEND_SLOTS);
	if (!pool)
		return NULL;
	memset(pool, 0, *stride * PC_CONTEND_SLOTS);
	for (i = 0; i < PC_CONTEND_SLOTS; i++)
		((struct pc_contend_shared *)(pool + i * *stride))->threads =
			(struct pc_contend_thread *)(pool + i * *stride + head);
	return pool;
}

int pc_contend_measure(struct pc_contend_run *cr, const struct pc_measure_config *cfg,
		       const struct pc_clock *clk, struct pc_profile *prof, char *err,
		       size_t errlen)
{
	struct pc_contend_shared *s = aligned_alloc(PC_LINE, sizeof(*s));
	double t0 = now_s(), cpt;
	struct sampling sp;
	unsigned next = 0;
	int rc = -1, stopped;
	char *pool = NULL;
	size_t i, stride;

	memset(prof, 0, sizeof(*prof));
	prof->probes = calloc(cr->npoints + 1, sizeof(*prof->probes));
	if (!s || !prof->probes || !(pool = slot_pool(cr, &stride))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memset(s, 0, sizeof(*s));
	if (calibrate(cfg, clk, &cpt, err, errlen) < 0)
		goto out;
	cr->cycles_per_tick = cpt;
	for (i = 0; i < cr->npoints; i++)
		if (point_arrays(&cr->points[i], cfg->samples) < 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	sp = (struct sampling){ cr, s, pool, stride, &next,
				(uint64_t)(cr->window_us * 1e-6 * clk->tick_hz), clk->tick_hz, cfg };
	cr->canary = pc_probe_impl(PC_PROBE_calib_add_throughput);
	if (cr->canary && !cr->canary->run)
		cr->canary = NULL;
	cr->chain = pc_probe_impl(PC_PROBE_calib_add_chain);
	if (cr->chain && !cr->chain->run)
		cr->chain = NULL;
	stopped = sample_points(&sp, cfg->samples, err, errlen);
	pc_progress(cfg, NULL, 0, 0, NULL);
	if (stopped < 0)
		goto out;
	prof->interrupted = stopped ? pc_interrupted() : 0;
	prof->nprobes = cr->npoints;
	for (i = 0; i < cr->npoints; i++)
		if (finish(&cr->points[i], &prof->probes[i], cfg->samples,
			   cr->window_us * 1e-6, cpt, clk->tick_hz, stopped) < 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	prof->cycles_per_tick = cpt;
	run_canary(cr, prof);
	prof->wall_s = now_s() - t0;
	rc = 0;
out:
	free(pool);
	free(s);
	if (rc < 0) {
		free(prof->probes);
		prof->probes = NULL;
		prof->nprobes = 0;
	}
	return rc;
}
