/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pc_kernel.h - the module's second ioctl: the running kernel's own
 * primitives (its inline helpers and exported functions, compiled from its
 * headers), timed inside it with the engine's loop shape, for the kernel
 * group (src/kernel/). Shared by the module and primcost.
 *
 * One command is one struct pc_kernel_cmd: what the kernel's configuration
 * is (INFO), an entry's self-check, one timed loop of it (RUN: iters
 * iterations of the entry repeated PC_UNROLL_HI or PC_UNROLL_LO times,
 * the elapsed timer ticks; primcost takes the differences), one window
 * of the contended spin lock on kernel threads bound to CPUs 0..threads-1,
 * or one batch of the 2007 pattern (BATCH: count kmalloc()s timed, then
 * their kfree()s timed, each pass as a whole).
 */
#ifndef PC_KERNEL_H
#define PC_KERNEL_H

#include <linux/ioctl.h>

/*
 * The entries: X(id, name, touches, twin, what)
 *   id       C identifier (PC_KE_<id>)
 *   name     the row, after "kernel."
 *   touches  what kernel options can inflate it (PC_KT_* bits)
 *   twin     primcost's portable row of the same primitive ("" when none)
 *   what     one line: what one operation is
 * The allocation entries run per size (cmd.size, PC_KE_SIZED); the ones
 * that may sleep run with preemption on (PC_KE_SLEEPS).
 */
#define PC_KERNEL_ENTRIES(X)							\
	X(local_irq_save_restore, "local_irq_save_restore", PC_KT_IRQ,		\
	  "local_irq_save_restore", "local_irq_save() then local_irq_restore()")	\
	X(local_irq_disable_enable, "local_irq_disable_enable", PC_KT_IRQ,	\
	  "local_irq_disable_enable", "local_irq_disable() then local_irq_enable()") \
	X(local_save_flags, "local_save_flags", PC_KT_IRQ, "flags_save",	\
	  "local_save_flags(): the flags read as the kernel reads them")	\
	X(preempt_disable_enable, "preempt_disable_enable", PC_KT_PREEMPT,	\
	  "preempt_disable_enable", "preempt_disable() then preempt_enable()")	\
	X(rcu_read_lock_unlock, "rcu_read_lock_unlock", PC_KT_RCU, "",		\
	  "rcu_read_lock() then rcu_read_unlock()")				\
	X(atomic_add_return, "atomic_add_return", PC_KT_ATOMIC,		\
	  "atomic_add_return", "atomic_add_return(1, &atomic_t)")		\
	X(atomic_cmpxchg, "atomic_cmpxchg", PC_KT_ATOMIC, "cmpxchg",		\
	  "atomic_cmpxchg() that succeeds, same atomic_t back to back")	\
	X(atomic64_add_return, "atomic64_add_return", PC_KT_ATOMIC, "",	\
	  "atomic64_add_return(1, &atomic64_t)")				\
	X(cmpxchg_local, "cmpxchg_local", PC_KT_ATOMIC, "cmpxchg_local",	\
	  "cmpxchg_local() that succeeds, same word back to back")		\
	X(this_cpu_inc, "this_cpu_inc", 0, "this_cpu_add",			\
	  "this_cpu_inc() of a per-CPU counter")				\
	X(this_cpu_cmpxchg, "this_cpu_cmpxchg", 0, "this_cpu_cmpxchg",	\
	  "this_cpu_cmpxchg() that succeeds on a per-CPU word")		\
	X(this_cpu_cmpxchg_double, "this_cpu_cmpxchg_double", 0,		\
	  "this_cpu_cmpxchg_double",						\
	  "the per-CPU double-word compare-and-exchange of SLUB's fast path "	\
	  "(this_cpu_cmpxchg_double, or this_cpu_try_cmpxchg128 from 6.5)")	\
	X(spin_lock_unlock, "spin_lock_unlock", PC_KT_LOCK, "",		\
	  "spin_lock() then spin_unlock(), uncontended")			\
	X(spin_lock_irqsave_restore, "spin_lock_irqsave_restore",		\
	  PC_KT_LOCK | PC_KT_IRQ, "",						\
	  "spin_lock_irqsave() then spin_unlock_irqrestore(), uncontended")	\
	X(raw_spin_lock_unlock, "raw_spin_lock_unlock", PC_KT_LOCK, "",	\
	  "raw_spin_lock() then raw_spin_unlock(), uncontended")		\
	X(mutex_lock_unlock, "mutex_lock_unlock", PC_KT_LOCK | PC_KT_SLEEP, "",	\
	  "mutex_lock() then mutex_unlock(), uncontended")			\
	X(kmalloc, "kmalloc", PC_KT_ALLOC | PC_KT_SLEEP, "",			\
	  "kmalloc(size, GFP_KERNEL), the size variable (__kmalloc()): a batch "	\
	  "timed, its kfree()s untimed")					\
	X(kfree, "kfree", PC_KT_FREE, "",					\
	  "kfree(): a batch of kmalloc()s of a variable size untimed, their "	\
	  "kfree()s timed")							\
	X(kmalloc_kfree, "kmalloc_kfree", PC_KT_ALLOC | PC_KT_FREE | PC_KT_SLEEP, "",	\
	  "kmalloc(size, GFP_KERNEL), the size variable, immediately kfree()d, "	\
	  "the pair timed")							\
	X(kmalloc_const, "kmalloc.const", PC_KT_ALLOC | PC_KT_SLEEP, "",	\
	  "kmalloc(SIZE, GFP_KERNEL), the size a constant (its cache chosen at "	\
	  "compile time): a batch timed, its kfree()s untimed")			\
	X(kfree_const, "kfree.const", PC_KT_FREE, "",				\
	  "kfree(): a batch of kmalloc()s of a constant size untimed, their "	\
	  "kfree()s timed")							\
	X(kmalloc_kfree_const, "kmalloc_kfree.const",				\
	  PC_KT_ALLOC | PC_KT_FREE | PC_KT_SLEEP,				\
	  "", "kmalloc(SIZE, GFP_KERNEL), the size a constant, immediately "	\
	  "kfree()d, the pair timed")						\
	X(kmalloc_batch10000, "kmalloc.batch10000", PC_KT_ALLOC | PC_KT_SLEEP, "",	\
	  "the 2007 pattern: 10000 kmalloc(size, GFP_KERNEL), the size "	\
	  "variable, then their 10000 kfree()s; the mean of the kmalloc()s")	\
	X(kfree_batch10000, "kfree.batch10000", PC_KT_FREE, "",			\
	  "the 2007 pattern: 10000 kmalloc()s, then their 10000 kfree()s; "	\
	  "the mean of the kfree()s")						\
	X(kmalloc_remote, "kmalloc.remote", PC_KT_ALLOC | PC_KT_SLEEP, "",	\
	  "kmalloc(size, GFP_KERNEL) on one CPU of objects another CPU "	\
	  "kfree()s, by a kernel thread bound to each")				\
	X(kfree_remote, "kfree.remote", PC_KT_FREE, "",				\
	  "kfree() on one CPU of objects another CPU kmalloc()ed: SLUB's "	\
	  "remote free path")							\
	X(kmem_cache_alloc_free, "kmem_cache_alloc_free",			\
	  PC_KT_ALLOC | PC_KT_FREE | PC_KT_SLEEP,				\
	  "", "kmem_cache_alloc() and kmem_cache_free() of the module's own "	\
	  "cache of " PC_KERNEL_CACHE_STR "-byte objects, the pair timed")

#define PC_KERNEL_CACHE_BYTES	256
#define PC_KERNEL_CACHE_STR	"256"

enum pc_kernel_entry {
#define PC_KE_ENUM(id, name, touches, twin, what) PC_KE_##id,
	PC_KERNEL_ENTRIES(PC_KE_ENUM)
#undef PC_KE_ENUM
	PC_KE_COUNT
};

/* The entries of kmalloc by size (of them, those of a constant size and
 * the two of the 2007 pattern, which BATCH runs, not RUN), and those that
 * may sleep: the module and primcost read these, so that they cannot
 * disagree. */
#define PC_KE_CONST(e)	((e) == PC_KE_kmalloc_const || (e) == PC_KE_kfree_const || \
			 (e) == PC_KE_kmalloc_kfree_const)
#define PC_KE_BATCH(e)	((e) == PC_KE_kmalloc_batch10000 || (e) == PC_KE_kfree_batch10000)
#define PC_KE_REMOTE(e)	((e) == PC_KE_kmalloc_remote || (e) == PC_KE_kfree_remote)
#define PC_KE_SIZED(e)	((e) == PC_KE_kmalloc || (e) == PC_KE_kfree ||		\
			 (e) == PC_KE_kmalloc_kfree || PC_KE_CONST(e) || PC_KE_BATCH(e) ||	\
			 PC_KE_REMOTE(e))
#define PC_KE_SLEEPS(e)	(PC_KE_SIZED(e) || (e) == PC_KE_mutex_lock_unlock ||	\
			 (e) == PC_KE_kmem_cache_alloc_free)

/* What a kernel option can inflate, by what an entry does. */
#define PC_KT_IRQ	0x01	/* turns interrupts off and on */
#define PC_KT_PREEMPT	0x02	/* changes the preemption count */
#define PC_KT_RCU	0x04	/* an RCU read-side section */
#define PC_KT_ATOMIC	0x08	/* an atomic read-modify-write */
#define PC_KT_LOCK	0x10	/* takes and releases a lock */
#define PC_KT_ALLOC	0x20	/* allocates */
#define PC_KT_FREE	0x40	/* frees */
#define PC_KT_SLEEP	0x80	/* may sleep (might_sleep()) */

/* The kernel's configuration as the module was built against it and as it
 * runs (PC_KCFG_* bits of cmd.config). */
#define PC_KCFG_PARAVIRT		(1ULL << 0)
#define PC_KCFG_QUEUED_SPINLOCKS	(1ULL << 1)
#define PC_KCFG_PARAVIRT_SPINLOCKS	(1ULL << 2)
#define PC_KCFG_LOCKDEP			(1ULL << 3)
#define PC_KCFG_PROVE_LOCKING		(1ULL << 4)
#define PC_KCFG_DEBUG_SPINLOCK		(1ULL << 5)
#define PC_KCFG_TRACE_IRQFLAGS		(1ULL << 6)
#define PC_KCFG_DEBUG_PREEMPT		(1ULL << 7)
#define PC_KCFG_KASAN			(1ULL << 8)
#define PC_KCFG_SLUB_DEBUG		(1ULL << 9)	/* built in */
#define PC_KCFG_SLUB_DEBUG_ON		(1ULL << 10)	/* on for caches now */
#define PC_KCFG_INIT_ON_ALLOC		(1ULL << 11)	/* on now */
#define PC_KCFG_INIT_ON_FREE		(1ULL << 12)	/* on now */
#define PC_KCFG_PREEMPT_DYNAMIC		(1ULL << 13)
#define PC_KCFG_DEBUG_LOCK_ALLOC	(1ULL << 14)
#define PC_KCFG_KCSAN			(1ULL << 15)
#define PC_KCFG_PREEMPT_LAZY		(1ULL << 16)
#define PC_KCFG_PREEMPT_RCU		(1ULL << 17)
#define PC_KCFG_DEBUG_ATOMIC_SLEEP	(1ULL << 18)
#define PC_KCFG_KFENCE			(1ULL << 19)	/* built in */
#define PC_KCFG_KFENCE_ON		(1ULL << 20)	/* sampling now (primcost) */
#define PC_KCFG_SLAB_FREELIST_HARDENED	(1ULL << 21)
#define PC_KCFG_RANDOM_KMALLOC_CACHES	(1ULL << 22)
#define PC_KCFG_MEM_ALLOC_PROFILING	(1ULL << 23)	/* built in */
#define PC_KCFG_MEM_ALLOC_PROFILING_ON	(1ULL << 24)	/* on now (primcost) */
#define PC_KCFG_CACHE_MERGED		(1ULL << 25)	/* the module's cache (primcost) */

enum pc_kernel_preempt {
	PC_KPREEMPT_UNKNOWN,
	PC_KPREEMPT_NONE,
	PC_KPREEMPT_VOLUNTARY,
	PC_KPREEMPT_FULL,
	PC_KPREEMPT_RT,
	PC_KPREEMPT_LAZY,
};

enum pc_kernel_op {
	PC_KERNEL_OP_INFO = 1,	/* config and preempt only */
	PC_KERNEL_OP_SELFCHECK,	/* the entry's self-check */
	PC_KERNEL_OP_RUN,	/* one timed loop: ticks */
	PC_KERNEL_OP_CONTEND,	/* one window of the contended spin lock */
	PC_KERNEL_OP_BATCH,	/* the 2007 pattern: count kmallocs, then kfrees */
	PC_KERNEL_OP_REMOTE,	/* count batches kmalloc()ed on cpus[0], kfree()d on cpus[1] */
};

enum pc_kernel_status {
	PC_KERNEL_OK = 0,
	PC_KERNEL_BAD_COMMAND,	/* not sent: a field out of range is -EINVAL */
	PC_KERNEL_CHECK_FAILED,	/* reason says what */
	PC_KERNEL_UNSUPPORTED,	/* this kernel lacks it: reason says why */
};

/* The most operations one RUN may ask for: one window, never holding the
 * CPU (preemption off) for more than milliseconds. */
#define PC_KERNEL_MAX_OPS	(1ULL << 20)
/* The contended windows: at most this many threads, this long. */
#define PC_KERNEL_MAX_THREADS	64
#define PC_KERNEL_MAX_WINDOW_US	10000
/* The kmalloc sizes, 8 .. 16384 bytes. */
#define PC_KERNEL_MAX_SIZE	16384
/* The most kmalloc()s of one BATCH (the 2007 pattern's 10000). Its bytes
 * must also fit a quarter of the memory available (16 KiB: 160 MiB). */
#define PC_KERNEL_BATCH_MAX	10000
/* The remote pattern: batches of PC_KERNEL_REMOTE_OBJS objects through a
 * ring of PC_KERNEL_REMOTE_RING slots, at most PC_KERNEL_REMOTE_MAX
 * batches a command, which its threads give up after
 * PC_KERNEL_REMOTE_LIMIT_MS. */
#define PC_KERNEL_REMOTE_OBJS	80
#define PC_KERNEL_REMOTE_RING	4
#define PC_KERNEL_REMOTE_MAX	64
#define PC_KERNEL_REMOTE_LIMIT_MS	5000

struct pc_kernel_cmd {
	uint32_t op;		/* enum pc_kernel_op */
	uint32_t entry;		/* enum pc_kernel_entry */
	uint64_t iters;		/* RUN */
	uint32_t hi;		/* RUN: PC_UNROLL_HI (1) or _LO (0) copies */
	uint32_t size;		/* kmalloc entries: bytes */
	uint32_t threads;	/* CONTEND: threads, on CPUs 0 .. threads-1 */
	uint32_t window_us;	/* CONTEND: the window's length */
	uint32_t count;		/* BATCH: kmalloc()s, then as many kfree()s;
				 * REMOTE: batches */
	uint32_t cpus[2];	/* REMOTE: the near CPU, then the far one */
	uint32_t status;	/* enum pc_kernel_status */
	uint32_t preempt;	/* enum pc_kernel_preempt, on every command */
	/* On every command: KMALLOC_MAX_CACHE_SIZE (kmalloc above it is the
	 * page allocator's) and PAGE_SHIFT. */
	uint32_t kmalloc_max;
	uint32_t page_shift;
	uint32_t pad0;
	uint64_t config;	/* PC_KCFG_* bits, on every command */
	uint64_t ticks;		/* RUN: elapsed; CONTEND: every thread's, summed;
				 * BATCH: the kmalloc()s' */
	uint64_t ticks_free;	/* BATCH, REMOTE: the kfree()s' */
	uint64_t ops;		/* CONTEND: lock+unlock pairs of all threads;
				 * REMOTE: objects kfree()d on the far CPU */
	uint64_t nulls;		/* RUN or BATCH of an allocation: NULLs returned */
	char release[65];	/* utsname's release */
	char pad[7];
	char reason[128];	/* what failed, or why unsupported */
};

#define PC_KMOD_IOC_KERNEL _IOWR('p', 0x31, struct pc_kernel_cmd)

#endif
