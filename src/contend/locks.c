/* SPDX-License-Identifier: MIT */
/*
 * locks.c - the contended rows (locks.h), in C11 atomics: the lock kinds,
 * the contended atomics and the cache-line ping-pong, each a loop that runs
 * until its window's deadline. Every operation of a lock row is a lock, a
 * plain increment of the counter in the lock's line (the mutual-exclusion
 * check), a plain increment of a word in each of the point's data lines,
 * and an unlock; the spin-waits use the backend's hint, pc_relax(), and the
 * queued lock the backend's byte and half-word accesses (arch/<arch>/lock.h).
 */
#include <string.h>

#include "locks.h"
#include "lock.h"	/* arch/<arch>/lock.h: mixed-size lock accesses */
#include "relax.h"	/* arch/<arch>/relax.h: pc_relax() */
#include "timer.h"	/* arch/<arch>/timer.h: pc_timer_read() */

#define RLX memory_order_relaxed
#define ACQ memory_order_acquire
#define REL memory_order_release

/* The window is over: another thread saw the deadline pass, or this one
 * does (the timer is read every PC_CONTEND_CHECK_EVERY operations, and the
 * longest time between two reads kept). */
static inline bool window_over(struct pc_contend_shared *s, struct pc_contend_thread *t,
			       uint64_t n)
{
	uint64_t now;

	if (atomic_load_explicit(&s->stop, RLX))
		return true;
	if (n & (PC_CONTEND_CHECK_EVERY - 1))
		return false;
	now = pc_timer_read();
	if (now - t->last > t->gap)
		t->gap = now - t->last;
	t->last = now;
	if (now < s->deadline)
		return false;
	atomic_store_explicit(&s->stop, 1, RLX);
	return true;
}

/* A thread's window begins. */
static inline void start(struct pc_contend_thread *t)
{
	t->t0 = t->last = pc_timer_read();
	t->gap = 0;
}

/* One loop per lock kind, the lock and unlock inlined into it; the critical
 * section writes the counter, in the lock's line, and a word of each data
 * line. */
#define LOCK_LOOP(kind)								\
static void loop_##kind(struct pc_contend_shared *s, struct pc_contend_thread *t) \
{										\
	const unsigned lines = s->data_lines;					\
	uint64_t n = 0;								\
										\
	start(t);								\
	do {									\
		kind##_lock(s, t);						\
		s->counter++;							\
		for (unsigned i = 0; i < lines; i++)				\
			s->data[i].v++;						\
		kind##_unlock(s, t);						\
		n++;								\
	} while (!window_over(s, t, n));					\
	t->t1 = pc_timer_read();						\
	t->acq = n;								\
}

static void init_zero(struct pc_contend_shared *s)
{
	memset(&s->lock, 0, sizeof(s->lock));
}

/* ---- test-and-set, test-and-test-and-set -------------------------------------- */

static inline void tas_lock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	(void)t;
	while (atomic_exchange_explicit(&s->lock.word, 1, ACQ))
		pc_relax();
}

static inline void tas_unlock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	(void)t;
	atomic_store_explicit(&s->lock.word, 0, REL);
}

/* Spins on a load (the line stays shared) until the lock looks free. */
static inline void ttas_lock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	(void)t;
	for (;;) {
		while (atomic_load_explicit(&s->lock.word, RLX))
			pc_relax();
		if (!atomic_exchange_explicit(&s->lock.word, 1, ACQ))
			return;
	}
}

#define ttas_unlock tas_unlock

/* Not a lock: the test and the set are two accesses, so two threads can
 * both see it free. The tests' lock that the check must catch. */
static inline void broken_lock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	(void)t;
	while (atomic_load_explicit(&s->lock.word, RLX))
		pc_relax();
	atomic_store_explicit(&s->lock.word, 1, RLX);
}

#define broken_unlock tas_unlock

/* ---- ticket ------------------------------------------------------------------- */

static inline void ticket_lock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	unsigned me = atomic_fetch_add_explicit(&s->lock.ticket.next, 1, RLX);

	(void)t;
	while (atomic_load_explicit(&s->lock.ticket.owner, ACQ) != me)
		pc_relax();
}

/* Only the holder writes owner: a load and a store, no atomic RMW. */
static inline void ticket_unlock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	unsigned o = atomic_load_explicit(&s->lock.ticket.owner, RLX);

	(void)t;
	atomic_store_explicit(&s->lock.ticket.owner, o + 1, REL);
}

/* ---- MCS: each waiter spins on its own node ------------------------------------ */

static inline void mcs_lock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	struct pc_mcs_node *me = &t->node, *prev;

	atomic_store_explicit(&me->next, NULL, RLX);
	atomic_store_explicit(&me->locked, 1, RLX);
	prev = atomic_exchange_explicit(&s->lock.tail, me, memory_order_acq_rel);
	if (!prev)
		return;
	atomic_store_explicit(&prev->next, me, REL);
	while (atomic_load_explicit(&me->locked, ACQ))
		pc_relax();
}

static inline void mcs_unlock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	struct pc_mcs_node *me = &t->node, *next = atomic_load_explicit(&me->next, ACQ);

	if (!next) {
		struct pc_mcs_node *expect = me;

		if (atomic_compare_exchange_strong_explicit(&s->lock.tail, &expect, NULL,
							    REL, RLX))
			return;
		/* A successor swapped the tail in and is linking itself. */
		while (!(next = atomic_load_explicit(&me->next, ACQ)))
			pc_relax();
	}
	atomic_store_explicit(&next->locked, 0, REL);
}

/* ---- the queued spinlock -------------------------------------------------------- */

/*
 * The kernel's qspinlock (kernel/locking/qspinlock.c, 2015 on), one 32-bit
 * word: the locked byte (bits 0-7), the pending byte (8-15, its bit 8) and
 * the MCS queue's tail (bits 16-31: the waiting thread's number + 1). The
 * first waiter sets pending and spins on the word; the second and later
 * queue on their own nodes, and only the queue's head spins on the word.
 * The accesses are the kernel's, through arch/<arch>/lock.h where C11 has
 * none: the unlock stores 0 to the locked byte (a release store, a plain
 * mov on x86), the tail is swapped in by a 16-bit exchange (xchg_tail),
 * pending is cleared by a byte store and traded for locked by a 16-bit
 * store, the queue's head sets locked by a byte store, and pending is set
 * by the architecture's queued_fetch_set_pending_acquire (x86: lock bts).
 */
#define Q_LOCKED	1u
#define Q_LOCKED_MASK	0xffu
#define Q_PENDING_BIT	8
#define Q_PENDING	(1u << Q_PENDING_BIT)
#define Q_TAIL_SHIFT	16
#define Q_TAIL_MASK	0xffff0000u
/* Loads a newcomer waits for a pending-to-locked hand-over to complete. */
#define Q_PENDING_LOOPS	1
/* The byte offsets in the word of the locked byte, the pending byte, the
 * locked and pending half-word and the tail half-word. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { Q_LOCKED_AT = 0, Q_PENDING_AT = 1, Q_LOCKED_PENDING_AT = 0, Q_TAIL_AT = 2 };
#else
enum { Q_LOCKED_AT = 3, Q_PENDING_AT = 2, Q_LOCKED_PENDING_AT = 2, Q_TAIL_AT = 0 };
#endif

/* The byte at offset at of the lock word. */
static inline void *q_at(struct pc_contend_shared *s, unsigned at)
{
	return (char *)&s->lock.word + at;
}

/* queued_spin_trylock(): the word must be all clear. */
static inline bool q_trylock(struct pc_contend_shared *s)
{
	unsigned v = atomic_load_explicit(&s->lock.word, RLX);

	return !v && atomic_compare_exchange_strong_explicit(&s->lock.word, &v, Q_LOCKED,
							     ACQ, RLX);
}

static void q_queue(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	struct pc_mcs_node *me = &t->node, *next = NULL;
	unsigned tail = (t->idx + 1) << Q_TAIL_SHIFT, v;

	atomic_store_explicit(&me->next, NULL, RLX);
	atomic_store_explicit(&me->locked, 0, RLX);
	/* The node may have been a cold line: try once more. */
	if (q_trylock(s))
		return;
	/* The node's stores before the tail that publishes it (smp_wmb). */
	atomic_thread_fence(REL);
	v = (unsigned)pc_xchg_u16(q_at(s, Q_TAIL_AT), (uint16_t)(tail >> Q_TAIL_SHIFT))
	    << Q_TAIL_SHIFT;
	if (v & Q_TAIL_MASK) {
		struct pc_contend_thread *p = &s->threads[(v >> Q_TAIL_SHIFT) - 1];

		atomic_store_explicit(&p->node.next, me, REL);
		while (!atomic_load_explicit(&me->locked, ACQ))
			pc_relax();
		next = atomic_load_explicit(&me->next, RLX);
	}
	/* The queue's head: wait for the owner and the pending waiter. */
	while ((v = atomic_load_explicit(&s->lock.word, ACQ)) & (Q_LOCKED_MASK | Q_PENDING))
		pc_relax();
	if ((v & Q_TAIL_MASK) == tail &&
	    atomic_compare_exchange_strong_explicit(&s->lock.word, &v, Q_LOCKED, RLX, RLX))
		return;		/* the last in the queue: the tail goes too */
	pc_store_u8(q_at(s, Q_LOCKED_AT), Q_LOCKED);		/* set_locked */
	while (!next && !(next = atomic_load_explicit(&me->next, RLX)))
		pc_relax();
	atomic_store_explicit(&next->locked, 1, REL);
}

static void q_slow(struct pc_contend_shared *s, struct pc_contend_thread *t, unsigned v)
{
	unsigned loops = Q_PENDING_LOOPS;

	while (v == Q_PENDING && loops--) {
		pc_relax();
		v = atomic_load_explicit(&s->lock.word, RLX);
	}
	if (v & ~Q_LOCKED_MASK) {
		q_queue(s, t);
		return;
	}
	v = pc_fetch_set_bit_acquire_u32(&s->lock.word, Q_PENDING_BIT);
	if (v & ~Q_LOCKED_MASK) {
		if (!(v & Q_PENDING))	/* ours: undo it (clear_pending) */
			pc_store_u8(q_at(s, Q_PENDING_AT), 0);
		q_queue(s, t);
		return;
	}
	/* Pending is ours: wait for the owner, then take the lock
	 * (clear_pending_set_locked: one 16-bit store). */
	while (atomic_load_explicit(&s->lock.word, ACQ) & Q_LOCKED_MASK)
		pc_relax();
	pc_store_u16(q_at(s, Q_LOCKED_PENDING_AT), Q_LOCKED);
}

static inline void qspinlock_lock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	unsigned v = 0;

	if (!atomic_compare_exchange_strong_explicit(&s->lock.word, &v, Q_LOCKED, ACQ, RLX))
		q_slow(s, t, v);
}

/* queued_spin_unlock(): a release store of 0 to the locked byte. */
static inline void qspinlock_unlock(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	(void)t;
	pc_store_release_u8(q_at(s, Q_LOCKED_AT), 0);
}

/* ---- the C library's ------------------------------------------------------------- */

static void init_spin(struct pc_contend_shared *s)
{
	init_zero(s);
	pthread_spin_init(&s->lock.spin, PTHREAD_PROCESS_PRIVATE);
}

static void fini_spin(struct pc_contend_shared *s)
{
	pthread_spin_destroy(&s->lock.spin);
}

static void init_mutex(struct pc_contend_shared *s)
{
	init_zero(s);
	pthread_mutex_init(&s->lock.mutex, NULL);
}

static void fini_mutex(struct pc_contend_shared *s)
{
	pthread_mutex_destroy(&s->lock.mutex);
}

/* A POSIX lock's acquire or release, as a row's lock or unlock. */
#define PTHREAD_OP(name, call, member)							\
	static inline void name(struct pc_contend_shared *s, struct pc_contend_thread *t)	\
	{										\
		(void)t;								\
		call(&s->lock.member);							\
	}
PTHREAD_OP(pspin_lock, pthread_spin_lock, spin)
PTHREAD_OP(pspin_unlock, pthread_spin_unlock, spin)
PTHREAD_OP(pmutex_lock, pthread_mutex_lock, mutex)
PTHREAD_OP(pmutex_unlock, pthread_mutex_unlock, mutex)

LOCK_LOOP(tas)
LOCK_LOOP(ttas)
LOCK_LOOP(broken)
LOCK_LOOP(ticket)
LOCK_LOOP(mcs)
LOCK_LOOP(qspinlock)
LOCK_LOOP(pspin)
LOCK_LOOP(pmutex)

/* The counter the locks protect, and every data line, must hold every
 * acquisition. */
static const char *check_counter(const struct pc_contend_shared *s, unsigned n,
				 uint64_t total)
{
	unsigned i;

	(void)n;
	if (s->counter != total)
		return "mutual exclusion broken: the counter incremented inside the "
			"critical section differs from the acquisitions";
	for (i = 0; i < s->data_lines; i++)
		if (s->data[i].v != total)
			return "mutual exclusion broken: a data line written inside the "
				"critical section differs from the acquisitions";
	return NULL;
}

/* ---- contended atomics ------------------------------------------------------------ */

/* Fully ordered, its result used: the kernel's atomic_add_return(). */
static void loop_add_return(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	uint64_t n = 0, sink = 0;

	start(t);
	do {
		sink += atomic_fetch_add(&s->word, 1);
		n++;
	} while (!window_over(s, t, n));
	t->t1 = pc_timer_read();
	t->acq = n;
	__asm__ volatile("" : : "r"(sink));
}

/* An increment by compare-and-exchange, retried until it lands. */
static void loop_cmpxchg(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	uint64_t n = 0;

	start(t);
	do {
		uint_fast64_t v = atomic_load_explicit(&s->word, RLX);

		while (!atomic_compare_exchange_strong(&s->word, &v, v + 1))
			;
		n++;
	} while (!window_over(s, t, n));
	t->t1 = pc_timer_read();
	t->acq = n;
}

/* The same atomic add on a word of one's own: in a line all threads write
 * (false sharing), or in a line of one's own (private). */
static inline void add_own(struct pc_contend_shared *s, struct pc_contend_thread *t,
			   atomic_uint_fast64_t *w)
{
	uint64_t n = 0;

	start(t);
	do {
		atomic_fetch_add(w, 1);
		n++;
	} while (!window_over(s, t, n));
	t->t1 = pc_timer_read();
	t->acq = n;
}

static void loop_false_sharing(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	add_own(s, t, &s->fs[t->idx % PC_FS_WORDS]);
}

static void loop_private(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	add_own(s, t, &t->own);
}

static void init_words(struct pc_contend_shared *s)
{
	unsigned i;

	init_zero(s);
	atomic_store(&s->word, 0);
	for (i = 0; i < PC_FS_WORDS; i++)
		atomic_store(&s->fs[i], 0);
}

/* The shared word holds every operation (an atomic that lost one is not). */
static const char *check_word(const struct pc_contend_shared *s, unsigned n,
			      uint64_t total)
{
	(void)n;
	return atomic_load(&s->word) == total ? NULL :
		"the shared word lost operations: it differs from the operations done";
}

/* Each thread's word of the shared line holds its operations. */
static const char *check_shared_line(const struct pc_contend_shared *s, unsigned n,
				     uint64_t total)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < n && i < PC_FS_WORDS; i++)
		sum += atomic_load(&s->fs[i]);
	return sum == total ? NULL : "the words of the shared line lost operations: "
		"they differ from the operations done";
}

/* Each thread's private line holds its operations. */
static const char *check_private(const struct pc_contend_shared *s, unsigned n,
				 uint64_t total)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (atomic_load(&s->threads[i].own) != s->threads[i].acq)
			return "a private line differs from its thread's operations";
		sum += s->threads[i].acq;
	}
	return sum == total ? NULL : "the private lines differ from the operations done";
}

/* ---- the line's transfer: two threads take turns ---------------------------------- */

/*
 * Each thread waits (loads only, no hint: the hint's delay would be timed)
 * until the word's parity is its own, then moves it on by a CAS: every
 * operation moves the line from the other CPU's cache to this one's, once.
 */
static void loop_c2c(struct pc_contend_shared *s, struct pc_contend_thread *t)
{
	uint64_t n = 0;
	bool over = false;

	start(t);
	while (!over) {
		uint_fast64_t v;

		while (((v = atomic_load_explicit(&s->word, ACQ)) & 1) != t->parity)
			if (atomic_load_explicit(&s->stop, RLX))
				goto done;
		if (atomic_compare_exchange_strong(&s->word, &v, v + 1))
			n++;
		over = window_over(s, t, n);
	}
done:
	t->t1 = pc_timer_read();
	t->acq = n;
}

static void fini_none(struct pc_contend_shared *s)
{
	(void)s;
}

/* ---- the rows ----------------------------------------------------------------------- */

#define LOCK(n, w, i, f, l) { "lock." #n, w, PC_KIND_LOCK, false, i, f, l, check_counter }

const struct pc_contend_kind pc_contend_kinds[] = {
	LOCK(tas, "test-and-set spinlock (exchange)", init_zero, fini_none, loop_tas),
	LOCK(ttas, "test-and-test-and-set spinlock", init_zero, fini_none, loop_ttas),
	LOCK(ticket, "ticket spinlock (fetch-add, FIFO)", init_zero, fini_none,
	     loop_ticket),
	LOCK(mcs, "MCS queue lock (each waiter spins on its own node)", init_zero,
	     fini_none, loop_mcs),
	LOCK(qspinlock, "the kernel's queued spinlock (locked, pending, MCS tail)",
	     init_zero, fini_none, loop_qspinlock),
	LOCK(pthread_spin, "the C library's pthread_spin_lock", init_spin, fini_spin,
	     loop_pspin),
	LOCK(pthread_mutex, "the C library's pthread_mutex_lock (default mutex)",
	     init_mutex, fini_mutex, loop_pmutex),
	{ "contended.atomic_add_return", "fully ordered add, result used, on one word",
	  PC_KIND_ATOMIC, false, init_words, fini_none, loop_add_return, check_word },
	{ "contended.cmpxchg", "increment by a compare-and-exchange loop, one word",
	  PC_KIND_ATOMIC, false, init_words, fini_none, loop_cmpxchg, check_word },
	{ "contended.false_sharing", "atomic add, each thread its own word of one line",
	  PC_KIND_ATOMIC, false, init_words, fini_none, loop_false_sharing,
	  check_shared_line },
	{ "contended.private", "atomic add, each thread its own line",
	  PC_KIND_ATOMIC, false, init_words, fini_none, loop_private, check_private },
	{ "c2c.latency", "one-way transfer of a line between two CPUs (CAS ping-pong)",
	  PC_KIND_C2C, false, init_words, fini_none, loop_c2c, check_word },
	{ "lock.broken", "not a lock: the test and the set are two accesses (tests)",
	  PC_KIND_LOCK, true, init_zero, fini_none, loop_broken, check_counter },
};

const unsigned pc_contend_nkinds = sizeof(pc_contend_kinds) / sizeof(pc_contend_kinds[0]);

const struct pc_contend_kind *pc_contend_kind_find(const char *name)
{
	unsigned i;

	for (i = 0; i < pc_contend_nkinds; i++)
		if (strcmp(pc_contend_kinds[i].name, name) == 0)
			return &pc_contend_kinds[i];
	return NULL;
}
