/* SPDX-License-Identifier: MIT */
/*
 * contend_window.c - the contended group's windows (contend_window.h).
 *
 * A window: the point's threads, each pinned to its CPU, meet at a barrier;
 * the last to arrive puts the row's initial state and sets the deadline,
 * and all run the row's loop until it passes (locks.c): every thread
 * runs for the same time, nobody finishes early. Each thread times its own
 * part. At the next barrier the last to arrive checks what the window left:
 * the counter every acquisition incremented, the words every atomic added
 * to. A thread switched out involuntarily (getrusage) is counted, for the
 * sampling (contend.c) to retake the window.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "contend_window.h"
#include "core/contain.h"
#include "relax.h"
#include "timer.h"

struct worker {
	struct pc_contend_batch *b;
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
static void between(struct pc_contend_batch *b)
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

static void barrier(struct pc_contend_batch *b, unsigned *sense)
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
	struct pc_contend_batch *b = wk->b;
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

int pc_contend_batch_run(struct pc_contend_batch *b, char *err, size_t errlen)
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
