/* SPDX-License-Identifier: MIT */
/*
 * locks.h - the contended rows: lock kinds, contended atomics and the
 * cache-line ping-pong, written once in C11 atomics with the backend's
 * spin-wait hint (arch/<arch>/relax.h), each a loop that one thread of a
 * time-bounded window runs (src/contend/contend_window.c drives the windows).
 */
#ifndef PC_LOCKS_H
#define PC_LOCKS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every shared variable on a line of its own: 128 bytes, since the
 * adjacent-line prefetcher fetches pairs of 64-byte lines. */
#define PC_LINE 128
#define PC_CONTEND_THREADS_MAX 256
/* Words of one line that false_sharing's threads share (8 bytes each). */
#define PC_FS_WORDS (PC_LINE / 8)

/* An MCS queue node (the MCS lock's and the queued lock's), one per thread. */
struct pc_mcs_node {
	_Atomic(struct pc_mcs_node *) next;
	atomic_uint locked;
};

/* One thread's line: its queue node, its private word, its window. */
struct pc_contend_thread {
	_Alignas(PC_LINE) struct pc_mcs_node node;
	_Alignas(PC_LINE) atomic_uint_fast64_t own;	/* contended.private */
	_Alignas(PC_LINE) uint64_t acq;			/* this window's operations */
	uint64_t t0, t1;				/* its timer reads */
	/* The timer at the last deadline check, and the longest time between
	 * two checks: a thread that lost its CPU shows a gap. */
	uint64_t last, gap;
	unsigned idx;					/* thread number */
	unsigned parity;				/* c2c: 0 or 1 */
};

/* The most lines of protected data a lock row's critical section writes. */
#define PC_CONTEND_DATA_LINES_MAX 16

/* A line of the lock's protected data: its first word, written once in
 * each critical section. */
struct pc_data_line {
	_Alignas(PC_LINE) volatile uint64_t v;
};

/* What the threads of a window share, each on its own line. */
struct pc_contend_shared {
	_Alignas(PC_LINE) union {
		atomic_uint word;			/* tas, ttas, qspinlock */
		struct { atomic_uint next, owner; } ticket;
		_Atomic(struct pc_mcs_node *) tail;	/* mcs */
		pthread_spinlock_t spin;
		pthread_mutex_t mutex;
	} lock;
	/* Inside the critical section, plain: the mutual-exclusion check, in
	 * the lock's own 64-byte line, so that a hand-off moves no line more
	 * than the lock's (data lines 0). */
	volatile uint64_t counter;
	/* Inside the critical section too: a word of each of the first
	 * data_lines, the protected data on lines of its own. */
	struct pc_data_line data[PC_CONTEND_DATA_LINES_MAX];
	_Alignas(PC_LINE) atomic_uint_fast64_t word;	/* atomics, c2c */
	_Alignas(PC_LINE) atomic_uint_fast64_t fs[PC_FS_WORDS];
	_Alignas(PC_LINE) atomic_int stop;		/* the window is over */
	_Alignas(PC_LINE) atomic_uint arrived;		/* the barrier's count */
	_Alignas(PC_LINE) atomic_uint sense;		/* ... and its release */
	uint64_t deadline;				/* the window's end, ticks */
	unsigned data_lines;				/* lock rows: 0 .. MAX */
	struct pc_contend_thread *threads;		/* [nthreads] */
};

/* The counter shares the lock's line (a 64-byte one, the smallest a CPU
 * moves): pthread_mutex_t, the largest lock, leaves room for it. */
_Static_assert(offsetof(struct pc_contend_shared, counter) + sizeof(uint64_t) <= 64,
	       "the counter is in the lock's 64-byte line");

enum pc_contend_class {
	PC_KIND_LOCK,		/* per lock+unlock pair, per thread */
	PC_KIND_ATOMIC,		/* per operation, per thread */
	PC_KIND_C2C,		/* per one-way transfer of a line */
};

/* One contended row. */
struct pc_contend_kind {
	const char *name;		/* "lock.ticket" */
	const char *what;		/* one line for list and the man page */
	enum pc_contend_class cls;
	bool hidden;			/* tests only: a lock that is not one */
	void (*init)(struct pc_contend_shared *s);
	void (*fini)(struct pc_contend_shared *s);
	/* Operations until the window ends; fills t->acq, t->t0, t->t1. */
	void (*loop)(struct pc_contend_shared *s, struct pc_contend_thread *t);
	/* NULL when the window's operations left what they must, else why. */
	const char *(*check)(const struct pc_contend_shared *s, unsigned n,
			     uint64_t total);
};

extern const struct pc_contend_kind pc_contend_kinds[];
extern const unsigned pc_contend_nkinds;
/* A kind by name (hidden ones too); NULL when none. */
const struct pc_contend_kind *pc_contend_kind_find(const char *name);

/* How often a thread reads the timer against the deadline: every
 * PC_CONTEND_CHECK_EVERY operations (a power of two). */
#define PC_CONTEND_CHECK_EVERY 16

#endif
