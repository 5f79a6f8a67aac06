// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * pc_kernel.c - the running kernel's own primitives, timed inside it
 * (pc_kernel.h): its irq and preemption helpers, atomics, per-CPU
 * operations, locks and allocators, compiled from its headers, in loops of
 * the engine's shape (PC_UNROLL_HI or PC_UNROLL_LO copies of one operation
 * per iteration, the timer read around the loop), each with a self-check.
 *
 * Every timed loop is one ioctl: a window of at most PC_KERNEL_MAX_OPS
 * operations, with preemption off only for the entries that must stay on
 * one CPU, then back to user space (a preemption point); a BATCH of the
 * 2007 pattern is one too, PC_KERNEL_BATCH_MAX kmalloc()s then as many
 * kfree()s at most, preemptible, as the 2007 module ran them. No entry keeps
 * interrupts off from one operation to the next. The sleeping entries
 * (mutex, kmalloc, kmem_cache) run preemptible, and their batches end
 * early when the caller gets a fatal signal. The contended spin lock runs
 * on kernel threads bound to online CPUs, the CPU-hotplug lock held, in
 * windows of at most PC_KERNEL_MAX_WINDOW_US, so that no soft-lockup or
 * RCU-stall warning can fire; the threads give up when they cannot all
 * start within PC_KCONTEND_START_MS, and the caller's wait for them is
 * killable. pc_main.c takes one command at a time and has checked the
 * caller's capability: a field out of range here is -EINVAL.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/version.h>
#include <asm/cpufeature.h>
#include <asm/linkage.h>

#include "arch/arch.h"
#include "timer.h"
#include "pc_kernel.h"
#include "pc_kmod.h"
#include "pc_kernel_mod.h"

/* The objects of one batch of kmalloc()s, and the most bytes a batch
 * holds (16 KiB objects: 512 of them); a BATCH of the 2007 pattern holds
 * up to PC_KERNEL_BATCH_MAX, in the same array. */
#define PC_KBATCH_OBJS	4096
#define PC_KBATCH_BYTES	(8UL << 20)
#define PC_KOBJS	(PC_KBATCH_OBJS > PC_KERNEL_BATCH_MAX ? PC_KBATCH_OBJS : PC_KERNEL_BATCH_MAX)

struct pc_kconst;

struct pc_kstate {
	spinlock_t lock;
	raw_spinlock_t raw;
	struct mutex mutex;
	atomic_t a;
	atomic64_t a64;
	unsigned long w;
	struct kmem_cache *cache;
	void **objs;		/* [PC_KOBJS] */
	unsigned long nobjs;
	size_t size;
	const struct pc_kconst *cnst;	/* the constant size's loops, or NULL */
	uint64_t nulls;
	bool killed;		/* a batch loop ended by a fatal signal */
};

/* SLUB's per-CPU pair: a freelist pointer and a transaction id, aligned
 * for a double-word compare-and-exchange. */
struct pc_kdouble {
	unsigned long first, second;
} __aligned(2 * sizeof(unsigned long));

static DEFINE_PER_CPU(unsigned long, pc_kcount);
static DEFINE_PER_CPU(unsigned long, pc_kword);
static DEFINE_PER_CPU(struct pc_kdouble, pc_kdw);

static struct pc_kstate pc_k;

/* ---- the loops ------------------------------------------------------------------ */

#define PC_KREP4(x)	x x x x
#define PC_KREP16(x)	PC_KREP4(PC_KREP4(x))
#define PC_KREP80(x)	PC_KREP16(x) PC_KREP16(x) PC_KREP16(x) PC_KREP16(x) PC_KREP16(x)
static_assert(PC_UNROLL_HI == 80 && PC_UNROLL_LO == 16, "the loops' copies");

/* A value the compiler must compute but nothing reads. */
#define PC_KUSE(v)	asm volatile("" : : "r" (v))

/* loop_<id>(k, iters, hi): the elapsed ticks of iters iterations of body,
 * PC_UNROLL_HI or PC_UNROLL_LO copies each; decl runs untimed first. */
#define PC_KLOOP(id, decl, body)						\
static uint64_t loop_##id(struct pc_kstate *k, uint64_t iters, bool hi)	\
{										\
	uint64_t i, t0, t1;							\
	decl;									\
										\
	(void)k;								\
	if (hi) {								\
		t0 = pc_timer_read();						\
		for (i = 0; i < iters; i++) {					\
			PC_KREP80(body)						\
		}								\
		t1 = pc_timer_read();						\
	} else {								\
		t0 = pc_timer_read();						\
		for (i = 0; i < iters; i++) {					\
			PC_KREP16(body)						\
		}								\
		t1 = pc_timer_read();						\
	}									\
	return t1 - t0;								\
}

/*
 * The bodies that read the flags (pushf) in 16 copies a call: objtool
 * follows at most 64 pushf without popf in a function (the paravirt
 * save_fl is pushf; pop), and 80 copies inline would pass it. The call
 * adds a call and a return every 16 operations to the figure.
 */
#define PC_KLOOP16(id, decl, body)						\
static noinline void body16_##id(struct pc_kstate *k)			\
{										\
	decl;									\
										\
	(void)k;								\
	PC_KREP16(body)								\
}										\
static uint64_t loop_##id(struct pc_kstate *k, uint64_t iters, bool hi)	\
{										\
	uint64_t i, t0, t1;							\
										\
	t0 = pc_timer_read();							\
	if (hi)									\
		for (i = 0; i < iters; i++) {					\
			body16_##id(k); body16_##id(k); body16_##id(k);		\
			body16_##id(k); body16_##id(k);				\
		}								\
	else									\
		for (i = 0; i < iters; i++)					\
			body16_##id(k);						\
	t1 = pc_timer_read();							\
	return t1 - t0;								\
}

PC_KLOOP16(local_irq_save_restore, unsigned long f,
	 local_irq_save(f); local_irq_restore(f);)
PC_KLOOP(local_irq_disable_enable, ,
	 local_irq_disable(); local_irq_enable();)
PC_KLOOP16(local_save_flags, unsigned long f,
	 local_save_flags(f); PC_KUSE(f);)
PC_KLOOP(preempt_disable_enable, ,
	 preempt_disable(); preempt_enable();)
PC_KLOOP(rcu_read_lock_unlock, ,
	 rcu_read_lock(); rcu_read_unlock();)
PC_KLOOP(atomic_add_return, int r,
	 r = atomic_add_return(1, &k->a); PC_KUSE(r);)
PC_KLOOP(atomic_cmpxchg, int o = atomic_read(&k->a),
	 o = atomic_cmpxchg(&k->a, o, o + 1) + 1;)
PC_KLOOP(atomic64_add_return, s64 r,
	 r = atomic64_add_return(1, &k->a64); PC_KUSE(r);)
PC_KLOOP(cmpxchg_local, unsigned long o = READ_ONCE(k->w),
	 o = cmpxchg_local(&k->w, o, o + 1) + 1;)
PC_KLOOP(this_cpu_inc, ,
	 this_cpu_inc(pc_kcount);)
PC_KLOOP(this_cpu_cmpxchg, unsigned long o = this_cpu_read(pc_kword),
	 o = this_cpu_cmpxchg(pc_kword, o, o + 1) + 1;)
/*
 * The per-CPU double word, as SLUB's fast path takes it: from 6.5
 * this_cpu_try_cmpxchg128. On x86-64 the header's form is a call of
 * this_cpu_cmpxchg16b_emu, the kernel's emulation for CPUs without
 * cmpxchg16b, which the module's alternatives patch into cmpxchg16b through
 * %gs when it loads. No kernel exports the emulation to modules (6.1 and
 * 6.12 seen), so the module links a stand-in of that name: it only reports
 * failure, and it is never called, since the entry runs only where the CPU
 * has cmpxchg16b (X86_FEATURE_CX16), and there the call is patched over.
 * What runs is the kernel's own sequence. Before 6.5 (this_cpu_cmpxchg_double)
 * the patched-in instruction reaches the pair RIP-relative, which those
 * kernels' alternatives do not adjust when they copy it (objtool refuses
 * it: "unsupported relocation in alternatives section"); a module cannot
 * run that form, and the row says so.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define PC_KDOUBLE_WHY ((const char *)NULL)
asm(".pushsection .text\n"
    ".type this_cpu_cmpxchg16b_emu, @function\n"
    "this_cpu_cmpxchg16b_emu:\n\t"
    "push %rax\n\tmov $1, %eax\n\ttest %eax, %eax\n\tpop %rax\n\t"	/* ZF clear: failed */
    ASM_RET
    ".size this_cpu_cmpxchg16b_emu, . - this_cpu_cmpxchg16b_emu\n"
    ".popsection\n");
PC_KLOOP(this_cpu_cmpxchg_double,
	 u128 o = (u128)this_cpu_read(pc_kdw.second) << 64 | this_cpu_read(pc_kdw.first),
	 if (this_cpu_try_cmpxchg128(*(u128 __percpu *)&pc_kdw, &o, o + 1 + ((u128)1 << 64)))
		 o += 1 + ((u128)1 << 64);)
#else
#define PC_KDOUBLE_WHY "before 6.5 its patched-in cmpxchg16b reaches the pair " \
	"RIP-relative, which a module's alternatives do not adjust"
static_assert(sizeof(PC_KDOUBLE_WHY) <= sizeof(((struct pc_kernel_cmd *)0)->reason),
	      "the reason fits the command's");
static uint64_t loop_this_cpu_cmpxchg_double(struct pc_kstate *k, uint64_t iters,
					     bool hi)
{
	return 0;
}
#endif
PC_KLOOP(spin_lock_unlock, ,
	 spin_lock(&k->lock); spin_unlock(&k->lock);)
PC_KLOOP16(spin_lock_irqsave_restore, unsigned long f,
	 spin_lock_irqsave(&k->lock, f); spin_unlock_irqrestore(&k->lock, f);)
PC_KLOOP(raw_spin_lock_unlock, ,
	 raw_spin_lock(&k->raw); raw_spin_unlock(&k->raw);)
PC_KLOOP(mutex_lock_unlock, ,
	 mutex_lock(&k->mutex); mutex_unlock(&k->mutex);)

/* A NULL counted, never written through. */
static inline void *pc_knote(struct pc_kstate *k, void *p)
{
	if (unlikely(!p))
		k->nulls++;
	return p;
}

/*
 * Nothing but the operations runs inside a timed loop: the batches store
 * what kmalloc() returns and their NULLs are counted after the loop, and a
 * pair's kmalloc() is tried once, untimed, before it (kfree(NULL) does
 * nothing). The one exception is the module's cache, whose
 * kmem_cache_free() must not be given a NULL: a branch never taken.
 */
PC_KLOOP(kmalloc_kfree, void *p,
	 p = kmalloc(k->size, GFP_KERNEL); OPTIMIZER_HIDE_VAR(p); kfree(p);)
PC_KLOOP(kmem_cache_alloc_free, void *p,
	 p = pc_knote(k, kmem_cache_alloc(k->cache, GFP_KERNEL)); OPTIMIZER_HIDE_VAR(p);
	 if (p) kmem_cache_free(k->cache, p);)
/* The batches: n counts the objects of this batch. */
PC_KLOOP(kmalloc_batch, unsigned long n = 0,
	 k->objs[n++] = kmalloc(k->size, GFP_KERNEL);)
PC_KLOOP(kfree_batch, unsigned long n = 0,
	 kfree(k->objs[n++]);)

/* The untimed half of a batch of the variable size. */
static void pc_kfill(struct pc_kstate *k, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		k->objs[i] = kmalloc(k->size, GFP_KERNEL);
}

static void pc_kfree_objs(struct pc_kstate *k, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		kfree(k->objs[i]);
}

/* The NULLs among objs[0 .. n), counted after the loop that got them. */
static void pc_kcount_nulls(struct pc_kstate *k, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		k->nulls += !k->objs[i];
}

/*
 * The constant sizes: kmalloc() of a size known at compile time resolves
 * its cache there (kmalloc_trace() of kmalloc_caches[type][index] in 6.1,
 * kmalloc_large() above KMALLOC_MAX_CACHE_SIZE), where a variable size goes
 * through __kmalloc() and finds its cache at run time. Each size has its
 * own loops: the timed batch of kmalloc()s, the untimed one, and the pair.
 */
#define PC_KSIZES(X) X(8) X(16) X(32) X(64) X(128) X(256) X(512) X(1024)	\
	X(2048) X(4096) X(8192) X(16384)
#define PC_KCONST_LOOPS(sz)							\
PC_KLOOP(kmalloc_batch_c##sz, unsigned long j = 0,				\
	 k->objs[j++] = kmalloc(sz, GFP_KERNEL);)				\
PC_KLOOP(kmalloc_kfree_c##sz, void *p,						\
	 p = kmalloc(sz, GFP_KERNEL); OPTIMIZER_HIDE_VAR(p); kfree(p);)		\
static void pc_kfill_c##sz(struct pc_kstate *k, unsigned long n)		\
{										\
	unsigned long j;							\
										\
	for (j = 0; j < n; j++)							\
		k->objs[j] = kmalloc(sz, GFP_KERNEL);				\
}										\
static void *pc_kmalloc_c##sz(void)						\
{										\
	return kmalloc(sz, GFP_KERNEL);						\
}
PC_KSIZES(PC_KCONST_LOOPS)
#undef PC_KCONST_LOOPS

/* A constant size's loops (NULL where the size is variable). */
struct pc_kconst {
	unsigned int size;
	uint64_t (*batch)(struct pc_kstate *k, uint64_t iters, bool hi);
	uint64_t (*pair)(struct pc_kstate *k, uint64_t iters, bool hi);
	void (*fill)(struct pc_kstate *k, unsigned long n);
	void *(*one)(void);
};

#define PC_KCONST_ROW(sz) { sz, loop_kmalloc_batch_c##sz, loop_kmalloc_kfree_c##sz,	\
			    pc_kfill_c##sz, pc_kmalloc_c##sz },
static const struct pc_kconst pc_kconsts[] = { PC_KSIZES(PC_KCONST_ROW) };
#undef PC_KCONST_ROW

/* The loops of constant size `size`; NULL when it is none of them. */
static const struct pc_kconst *pc_kconst_of(uint32_t size)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pc_kconsts); i++)
		if (pc_kconsts[i].size == size)
			return &pc_kconsts[i];
	return NULL;
}

/* The iterations of one batch: its objects fit PC_KBATCH_OBJS and
 * PC_KBATCH_BYTES. */
static uint64_t pc_kbatch_iters(const struct pc_kstate *k, bool hi)
{
	unsigned long objs = min_t(unsigned long, PC_KBATCH_OBJS,
				   PC_KBATCH_BYTES / max_t(size_t, k->size, 1));
	unsigned long per = hi ? PC_UNROLL_HI : PC_UNROLL_LO;

	return max_t(unsigned long, objs / per, 1);
}

/* N kmalloc()s then N kfree()s, batch by batch, of the variable size or
 * of the constant one (k->cnst): the kmalloc()s timed (free_timed false)
 * or the kfree()s (true); the other half untimed. A fatal signal ends it
 * between two batches (k->killed). */
static uint64_t pc_kbatches(struct pc_kstate *k, uint64_t iters, bool hi, bool free_timed)
{
	uint64_t per = pc_kbatch_iters(k, hi), ticks = 0, n;
	unsigned long copies = hi ? PC_UNROLL_HI : PC_UNROLL_LO;

	while (iters) {
		n = min(iters, per);
		if (free_timed) {
			if (k->cnst)
				k->cnst->fill(k, n * copies);
			else
				pc_kfill(k, n * copies);
			pc_kcount_nulls(k, n * copies);
			ticks += loop_kfree_batch(k, n, hi);
		} else {
			ticks += k->cnst ? k->cnst->batch(k, n, hi) : loop_kmalloc_batch(k, n, hi);
			pc_kcount_nulls(k, n * copies);
			pc_kfree_objs(k, n * copies);
		}
		iters -= n;
		if (iters && fatal_signal_pending(current)) {
			k->killed = true;
			break;
		}
		cond_resched();
	}
	return ticks;
}

static uint64_t loop_kmalloc(struct pc_kstate *k, uint64_t iters, bool hi)
{
	return pc_kbatches(k, iters, hi, false);
}

static uint64_t loop_kfree(struct pc_kstate *k, uint64_t iters, bool hi)
{
	return pc_kbatches(k, iters, hi, true);
}

/* The constant size's rows: the same batches, and its own pair. */
#define loop_kmalloc_const loop_kmalloc
#define loop_kfree_const loop_kfree

static uint64_t loop_kmalloc_kfree_const(struct pc_kstate *k, uint64_t iters, bool hi)
{
	return k->cnst ? k->cnst->pair(k, iters, hi) : 0;
}

/* The 2007 pattern's two rows are BATCH's, and the remote pattern's
 * REMOTE's, not loops of RUN. */
#define loop_kmalloc_batch10000 NULL
#define loop_kfree_batch10000 NULL
#define loop_kmalloc_remote NULL
#define loop_kfree_remote NULL

/* The pairs' kmalloc() tried once, untimed, before their loop: its NULL
 * is counted there, and then no NULL is looked for inside. */
static void pc_kpair_try(struct pc_kstate *k)
{
	void *p = k->cnst ? k->cnst->one() : kmalloc(k->size, GFP_KERNEL);

	pc_knote(k, p);
	kfree(p);
}

/* ---- the entries ------------------------------------------------------------------ */

struct pc_kentry {
	const char *name;
	uint64_t (*loop)(struct pc_kstate *k, uint64_t iters, bool hi);
};

#define PC_KE_ROW(id, name, touches, twin, what) [PC_KE_##id] = { name, loop_##id },
static const struct pc_kentry pc_kentries[PC_KE_COUNT] = {
	PC_KERNEL_ENTRIES(PC_KE_ROW)
};
#undef PC_KE_ROW

/* One timed loop, preemption off unless the entry sleeps. */
static uint64_t pc_kloop(int id, uint64_t iters, bool hi)
{
	uint64_t t;

	if (PC_KE_SLEEPS(id))
		return pc_kentries[id].loop(&pc_k, iters, hi);
	preempt_disable();
	t = pc_kentries[id].loop(&pc_k, iters, hi);
	preempt_enable();
	return t;
}

/* ---- the self-checks ------------------------------------------------------------------ */

/* The reason of a failure into c; -1. */
static __printf(2, 3) int pc_kfail(struct pc_kernel_cmd *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	return -1;
}
#define PC_KFAIL pc_kfail

/* *v: the counter entry id moves by one each operation (the low 32 bits
 * for atomic_t, which wraps there), read on this CPU (preemption off);
 * ~0 when the per-CPU pair's halves differ. false for an entry with none. */
static bool pc_kcounter(int id, uint64_t *v)
{
	switch (id) {
	case PC_KE_atomic_add_return:
	case PC_KE_atomic_cmpxchg:
		*v = (unsigned int)atomic_read(&pc_k.a);
		return true;
	case PC_KE_atomic64_add_return:
		*v = (uint64_t)atomic64_read(&pc_k.a64);
		return true;
	case PC_KE_cmpxchg_local:
		*v = pc_k.w;
		return true;
	case PC_KE_this_cpu_inc:
		*v = this_cpu_read(pc_kcount);
		return true;
	case PC_KE_this_cpu_cmpxchg:
		*v = this_cpu_read(pc_kword);
		return true;
	case PC_KE_this_cpu_cmpxchg_double:
		*v = this_cpu_read(pc_kdw.first) == this_cpu_read(pc_kdw.second) ?
		     this_cpu_read(pc_kdw.first) : ~0ULL;
		return true;
	default:
		*v = 0;
		return false;
	}
}

/* What the loops of 1 and 3 iterations, lo and hi, must leave: the
 * counters moved by their operations, interrupts on, locks free. */
static int pc_kcheck_loops(int id, struct pc_kernel_cmd *c)
{
	static const uint64_t iters[] = { 1, 3 };
	bool wraps32 = id == PC_KE_atomic_add_return || id == PC_KE_atomic_cmpxchg;
	uint64_t ops, before, after, due;
	unsigned int i;
	bool counted;
	int hi;

	for (i = 0; i < ARRAY_SIZE(iters); i++)
		for (hi = 0; hi <= 1; hi++) {
			ops = iters[i] * (hi ? PC_UNROLL_HI : PC_UNROLL_LO);
			preempt_disable();	/* the per-CPU counters: one CPU */
			counted = pc_kcounter(id, &before);
			if (PC_KE_SLEEPS(id))
				preempt_enable();
			pc_kentries[id].loop(&pc_k, iters[i], hi);
			if (PC_KE_SLEEPS(id))
				preempt_disable();
			pc_kcounter(id, &after);
			preempt_enable();
			due = !counted ? 0 : wraps32 ? (unsigned int)(before + ops) : before + ops;
			if (before == ~0ULL || after != due)
				return PC_KFAIL(c, "after %llu operations (%llu iterations, %s): "
						"%llu where %llu was due", (unsigned long long)ops,
						(unsigned long long)iters[i], hi ? "hi" : "lo",
						(unsigned long long)after,
						(unsigned long long)due);
			if (irqs_disabled())
				return PC_KFAIL(c, "interrupts left off after the loop");
			if (spin_is_locked(&pc_k.lock) || raw_spin_is_locked(&pc_k.raw) ||
			    mutex_is_locked(&pc_k.mutex))
				return PC_KFAIL(c, "a lock left held after the loop");
		}
	return 0;
}

/* The semantics of one operation: interrupts off inside the irq helpers,
 * the preemption count raised inside preempt_disable(), the locks held
 * inside their sections. */
static int pc_kcheck_inside(int id, struct pc_kernel_cmd *c)
{
	unsigned long f;
	int in = 1, count;

	switch (id) {
	case PC_KE_local_irq_save_restore:
		local_irq_save(f);
		in = irqs_disabled() && !arch_irqs_disabled_flags(f);
		local_irq_restore(f);
		break;
	case PC_KE_local_irq_disable_enable:
		local_irq_disable();
		in = irqs_disabled();
		local_irq_enable();
		break;
	case PC_KE_local_save_flags:
		local_save_flags(f);
		in = !arch_irqs_disabled_flags(f);
		break;
	case PC_KE_preempt_disable_enable:
		count = preempt_count();
		preempt_disable();
		in = preempt_count() == count + 1 || !IS_ENABLED(CONFIG_PREEMPT_COUNT);
		preempt_enable();
		break;
	case PC_KE_spin_lock_unlock:
		spin_lock(&pc_k.lock);
		in = spin_is_locked(&pc_k.lock);
		spin_unlock(&pc_k.lock);
		break;
	case PC_KE_spin_lock_irqsave_restore:
		/* PREEMPT_RT's leaves interrupts on: its spin lock sleeps */
		spin_lock_irqsave(&pc_k.lock, f);
		in = spin_is_locked(&pc_k.lock) && irqs_disabled() == !IS_ENABLED(CONFIG_PREEMPT_RT);
		spin_unlock_irqrestore(&pc_k.lock, f);
		break;
	case PC_KE_raw_spin_lock_unlock:
		raw_spin_lock(&pc_k.raw);
		in = raw_spin_is_locked(&pc_k.raw);
		raw_spin_unlock(&pc_k.raw);
		break;
	case PC_KE_mutex_lock_unlock:
		mutex_lock(&pc_k.mutex);
		in = mutex_is_locked(&pc_k.mutex);
		mutex_unlock(&pc_k.mutex);
		break;
	}
	return in ? 0 : PC_KFAIL(c, "the operation did not do what it says (%s)",
				 pc_kentries[id].name);
}

/* One object of the entry's allocator: the module's cache, kmalloc() of
 * the constant size, or of the variable one. */
static void *pc_kalloc_one(int id)
{
	if (id == PC_KE_kmem_cache_alloc_free)
		return kmem_cache_alloc(pc_k.cache, GFP_KERNEL);
	return pc_k.cnst ? pc_k.cnst->one() : kmalloc(pc_k.size, GFP_KERNEL);
}

/* Allocation: non-NULL, writable (each byte written and read back) and
 * distinct objects, a batch of them at once. */
static int pc_kcheck_alloc(int id, struct pc_kernel_cmd *c)
{
	size_t size = id == PC_KE_kmem_cache_alloc_free ? PC_KERNEL_CACHE_BYTES : pc_k.size;
	unsigned long n = PC_UNROLL_HI, i, j;
	int rc = 0;

	for (i = 0; i < n; i++) {
		pc_k.objs[i] = pc_kalloc_one(id);
		if (!pc_k.objs[i]) {
			rc = PC_KFAIL(c, "object %lu of %zu bytes: NULL", i, size);
			break;
		}
		memset(pc_k.objs[i], (int)(i & 0xff), size);
	}
	n = i;
	for (i = 0; !rc && i < n; i++) {
		const unsigned char *b = pc_k.objs[i];

		for (j = 0; j < size; j++)
			if (b[j] != (i & 0xff)) {
				rc = PC_KFAIL(c, "object %lu of %zu bytes: byte %lu reads %u, "
					      "not %lu as written", i, size, j, b[j], i & 0xff);
				break;
			}
		for (j = 0; !rc && j < i; j++)
			if (pc_k.objs[j] == pc_k.objs[i])
				rc = PC_KFAIL(c, "objects %lu and %lu are the same", j, i);
	}
	for (i = 0; i < n; i++) {
		if (id == PC_KE_kmem_cache_alloc_free)
			kmem_cache_free(pc_k.cache, pc_k.objs[i]);
		else
			kfree(pc_k.objs[i]);
	}
	return rc;
}

static void pc_kselfcheck(int id, struct pc_kernel_cmd *c)
{
	uint64_t nulls = pc_k.nulls;

	/* the 2007 pattern's rows have no loop of RUN: their BATCH is its
	 * allocation checked */
	if (pc_kcheck_inside(id, c) < 0 ||
	    (pc_kentries[id].loop && pc_kcheck_loops(id, c) < 0))
		goto failed;
	if (PC_KE_SLEEPS(id) && id != PC_KE_mutex_lock_unlock && pc_kcheck_alloc(id, c) < 0)
		goto failed;
	if (pc_k.nulls != nulls) {
		PC_KFAIL(c, "%llu allocations returned NULL",
			 (unsigned long long)(pc_k.nulls - nulls));
		goto failed;
	}
	return;
failed:
	c->status = PC_KERNEL_CHECK_FAILED;
}

/* ---- the contended spin lock ------------------------------------------------------ */

/* How long the threads wait for each other before they give up (a CPU
 * held by a real-time task may never run one). */
#define PC_KCONTEND_START_MS	1000

/* The lock and the mutual-exclusion counter in one line, as the contended
 * group's locks keep them (src/contend/locks.c). */
struct pc_klockline {
	spinlock_t lock;
	unsigned long counter;
} ____cacheline_aligned;

struct pc_kcontend;

struct pc_kthread {
	struct pc_kcontend *run;
	struct completion done;
	uint64_t ops, ticks;
};

struct pc_kcontend {
	struct pc_klockline line;
	atomic_t ready;
	unsigned int threads;
	bool stop;			/* leave now: the caller gave up, or a thread */
	u64 window_ns;
	unsigned long start_by;		/* jiffies: all in by then, or stop */
	/* The window's end: the last thread in starts the timer, whose
	 * callback sets halt (as the caller does when it gives up). halt
	 * has a line of its own, written by no one while the window runs:
	 * a thread's read of it stays in its cache, a load and no transfer,
	 * and nothing but the pairs runs in a thread's timed window. */
	struct hrtimer end;
	unsigned int halt ____cacheline_aligned;
	struct pc_kthread t[PC_KERNEL_MAX_THREADS] ____cacheline_aligned;
};

static enum hrtimer_restart pc_kcontend_end(struct hrtimer *end)
{
	WRITE_ONCE(container_of(end, struct pc_kcontend, end)->halt, 1);
	return HRTIMER_NORESTART;
}

/* Tells the threads to leave now, in their loop or before it. */
static void pc_kcontend_abort(struct pc_kcontend *r)
{
	WRITE_ONCE(r->stop, true);
	WRITE_ONCE(r->halt, 1);
}

/* Waits for every thread to come in, yielding, so that a bound thread
 * that comes late is not kept from its CPU by one already spinning there;
 * false when the run is to stop instead. The last in starts the window's
 * timer, on its CPU, in hard interrupt context (also under PREEMPT_RT). */
static bool pc_kcontend_start(struct pc_kcontend *r)
{
	if (atomic_inc_return(&r->ready) == (int)r->threads)
		hrtimer_start(&r->end, ns_to_ktime(r->window_ns), HRTIMER_MODE_REL_PINNED_HARD);
	while (atomic_read(&r->ready) < (int)r->threads) {
		if (READ_ONCE(r->stop))
			return false;
		if (time_after(jiffies, r->start_by)) {
			pc_kcontend_abort(r);
			return false;
		}
		cond_resched();
	}
	return true;
}

/* Lock and unlock, the counter raised inside, until the window ends: the
 * timer's flag read every 16 pairs. */
static int pc_kcontend_thread(void *arg)
{
	struct pc_kthread *t = arg;
	struct pc_kcontend *r = t->run;
	uint64_t ops = 0, t0, t1;
	unsigned int i;

	if (!pc_kcontend_start(r))
		kthread_complete_and_exit(&t->done, 0);
	t0 = pc_timer_read();
	do {
		for (i = 0; i < 16; i++) {
			spin_lock(&r->line.lock);
			r->line.counter++;
			spin_unlock(&r->line.lock);
		}
		ops += 16;
	} while (!READ_ONCE(r->halt));
	t1 = pc_timer_read();
	t->ops = ops;
	t->ticks = t1 - t0;
	kthread_complete_and_exit(&t->done, 0);
}

/* The threads and the window, checked: -EINVAL out of range; a CPU not
 * online, unsupported. The CPU-hotplug lock is held, so that the CPUs
 * found online stay so. */
static long pc_kcontend_check(struct pc_kernel_cmd *c)
{
	unsigned int i;

	if (c->threads < 1 || c->threads > PC_KERNEL_MAX_THREADS ||
	    c->threads > nr_cpu_ids || c->window_us < 1 ||
	    c->window_us > PC_KERNEL_MAX_WINDOW_US)
		return -EINVAL;
	for (i = 0; i < c->threads; i++)
		if (!cpu_online(i)) {
			c->status = PC_KERNEL_UNSUPPORTED;
			PC_KFAIL(c, "CPU %u is not online (%u online)", i,
				 num_online_cpus());
			break;
		}
	return 0;
}

/* Waits for the threads: killable, and bounded by the window and the
 * threads' start; the caller gone, the threads are told to stop, and
 * they leave at once. */
static long pc_kcontend_wait(struct pc_kcontend *r, unsigned int n)
{
	long left = 0, rc = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		left = wait_for_completion_killable_timeout(&r->t[i].done,
			msecs_to_jiffies(PC_KCONTEND_START_MS) + usecs_to_jiffies(
			r->window_ns / 1000) + HZ);
		if (left <= 0)
			break;
	}
	if (i < n) {
		pc_kcontend_abort(r);
		rc = left < 0 ? -EINTR : -ETIMEDOUT;
		for (; i < n; i++)
			wait_for_completion(&r->t[i].done);
	}
	return rc;
}

/* One window on threads bound to CPUs 0 .. threads-1: every thread's
 * ticks summed, the pairs of all, and the counter checked against them. */
static long pc_kcontend(struct pc_kernel_cmd *c)
{
	struct task_struct *task[PC_KERNEL_MAX_THREADS];
	struct pc_kcontend *r;
	unsigned int i, n;
	long rc;

	cpus_read_lock();
	rc = pc_kcontend_check(c);
	if (rc || c->status != PC_KERNEL_OK)
		goto unlock;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		rc = -ENOMEM;
		goto unlock;
	}
	spin_lock_init(&r->line.lock);
	r->threads = c->threads;
	r->window_ns = (u64)c->window_us * 1000;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&r->end, pc_kcontend_end, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
#else
	hrtimer_init(&r->end, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	r->end.function = pc_kcontend_end;
#endif
	r->start_by = jiffies + msecs_to_jiffies(PC_KCONTEND_START_MS);
	for (n = 0; n < c->threads; n++) {
		r->t[n].run = r;
		init_completion(&r->t[n].done);
		task[n] = kthread_create(pc_kcontend_thread, &r->t[n], "primcost/%u", n);
		if (IS_ERR(task[n]))
			break;
		kthread_bind(task[n], n);
	}
	if (n < c->threads) {
		/* never woken, the ones created stop without running their body */
		rc = PTR_ERR(task[n]);
		for (i = 0; i < n; i++)
			kthread_stop(task[i]);
		goto free;
	}
	for (i = 0; i < n; i++)
		wake_up_process(task[i]);
	rc = pc_kcontend_wait(r, n);
	hrtimer_cancel(&r->end);	/* started or not; its callback is done */
	c->ops = c->ticks = 0;
	for (i = 0; i < n; i++) {
		c->ops += r->t[i].ops;
		c->ticks += r->t[i].ticks;
	}
	if (!rc && READ_ONCE(r->stop)) {
		c->status = PC_KERNEL_UNSUPPORTED;
		PC_KFAIL(c, "the %u threads did not all start within %d ms (a CPU "
			 "kept busy by another task)", n, PC_KCONTEND_START_MS);
	} else if (!rc && r->line.counter != c->ops) {
		c->status = PC_KERNEL_CHECK_FAILED;
		PC_KFAIL(c, "mutual exclusion: the counter reads %lu after %llu "
			 "lock+unlock pairs", r->line.counter, (unsigned long long)c->ops);
	}
free:
	kfree(r);
unlock:
	cpus_read_unlock();
	return rc;
}

/* ---- the remote pattern -------------------------------------------------------------- */

/* A slot of the ring: a batch's pointers, full or empty, a line of its own. */
struct pc_kslot {
	atomic_t full;
	void *ptr[PC_KERNEL_REMOTE_OBJS];
} ____cacheline_aligned;

/* The two ends of one REMOTE command: the near thread kmalloc()s a batch
 * (timed), hands it over through the ring (untimed), the far thread
 * kfree()s it (timed) and counts the frees. */
struct pc_kremote {
	struct pc_kslot ring[PC_KERNEL_REMOTE_RING];
	size_t size;
	unsigned int batches;
	int cpu[2];
	atomic_t ready;
	bool stop;			/* leave now: the caller gave up, or an end */
	unsigned long give_up;		/* jiffies: the ends stop waiting by then */
	uint64_t ticks[2];
	unsigned long objects, freed, nulls;
	int wrong_cpu[2];		/* an end's CPU when it was not its own, or -1 */
	struct completion done[2];
};

/* Waits for the slot to be full (or empty): false when the run is to stop. */
static bool pc_kremote_wait(struct pc_kremote *r, struct pc_kslot *s, int full)
{
	unsigned int spins = 0;

	while (atomic_read_acquire(&s->full) != full) {
		if (READ_ONCE(r->stop))
			return false;
		if (++spins % 1024 == 0) {
			if (time_after(jiffies, r->give_up)) {
				WRITE_ONCE(r->stop, true);
				return false;
			}
			cond_resched();
		}
		cpu_relax();
	}
	return true;
}

static void pc_kremote_near(struct pc_kremote *r)
{
	void *local[PC_KERNEL_REMOTE_OBJS];
	uint64_t t = 0, t0, t1;
	unsigned int b, i;

	for (b = 0; b < r->batches; b++) {
		struct pc_kslot *s = &r->ring[b % PC_KERNEL_REMOTE_RING];

		t0 = pc_timer_read();
		for (i = 0; i < PC_KERNEL_REMOTE_OBJS; i++)
			local[i] = kmalloc(r->size, GFP_KERNEL);
		t1 = pc_timer_read();
		t += t1 - t0;
		if (!pc_kremote_wait(r, s, 0)) {
			for (i = 0; i < PC_KERNEL_REMOTE_OBJS; i++)
				kfree(local[i]);
			break;
		}
		memcpy(s->ptr, local, sizeof(local));
		atomic_set_release(&s->full, 1);
		r->objects += PC_KERNEL_REMOTE_OBJS;
	}
	r->ticks[0] = t;
}

static void pc_kremote_far(struct pc_kremote *r)
{
	void *local[PC_KERNEL_REMOTE_OBJS];
	uint64_t t = 0, t0, t1;
	unsigned int b, i;

	for (b = 0; b < r->batches; b++) {
		struct pc_kslot *s = &r->ring[b % PC_KERNEL_REMOTE_RING];

		if (!pc_kremote_wait(r, s, 1))
			break;
		memcpy(local, s->ptr, sizeof(local));
		atomic_set_release(&s->full, 0);
		for (i = 0; i < PC_KERNEL_REMOTE_OBJS; i++)
			r->nulls += !local[i];
		t0 = pc_timer_read();
		for (i = 0; i < PC_KERNEL_REMOTE_OBJS; i++)
			kfree(local[i]);
		t1 = pc_timer_read();
		t += t1 - t0;
		r->freed += PC_KERNEL_REMOTE_OBJS;
	}
	r->ticks[1] = t;
}

/* One end: waits for the other (yielding: a bound thread spinning there
 * would keep a late one from its CPU), checks its CPU, runs. */
static int pc_kremote_thread(void *arg, int end)
{
	struct pc_kremote *r = arg;

	atomic_inc(&r->ready);
	while (atomic_read(&r->ready) < 2 && !READ_ONCE(r->stop)) {
		if (time_after(jiffies, r->give_up))
			WRITE_ONCE(r->stop, true);
		cond_resched();
	}
	if (!READ_ONCE(r->stop)) {
		if (raw_smp_processor_id() != r->cpu[end])
			r->wrong_cpu[end] = raw_smp_processor_id();
		if (end == 0)
			pc_kremote_near(r);
		else
			pc_kremote_far(r);
	}
	kthread_complete_and_exit(&r->done[end], 0);
}

static int pc_kremote_near_thread(void *arg)
{
	return pc_kremote_thread(arg, 0);
}

static int pc_kremote_far_thread(void *arg)
{
	return pc_kremote_thread(arg, 1);
}

/* The CPUs, size and batches checked: -EINVAL out of range; a CPU not
 * online, or the ring's bytes over a quarter of the memory available,
 * unsupported. The CPU-hotplug lock is held. */
static long pc_kremote_check(struct pc_kernel_cmd *c)
{
	u64 bytes = (u64)(PC_KERNEL_REMOTE_RING + 1) * PC_KERNEL_REMOTE_OBJS * c->size;
	u64 avail = (u64)si_mem_available() << PAGE_SHIFT;
	unsigned int k;

	if (!PC_KE_REMOTE(c->entry) || c->size < 1 || c->size > PC_KERNEL_MAX_SIZE ||
	    c->count < 1 || c->count > PC_KERNEL_REMOTE_MAX ||
	    c->cpus[0] >= nr_cpu_ids || c->cpus[1] >= nr_cpu_ids || c->cpus[0] == c->cpus[1])
		return -EINVAL;
	for (k = 0; k < 2; k++)
		if (!cpu_online(c->cpus[k])) {
			c->status = PC_KERNEL_UNSUPPORTED;
			PC_KFAIL(c, "CPU %u is not online (%u online)", c->cpus[k],
				 num_online_cpus());
			return 0;
		}
	if (bytes > avail / 4) {
		c->status = PC_KERNEL_UNSUPPORTED;
		PC_KFAIL(c, "the ring's %llu MiB are over a quarter of the memory available "
			 "(%llu MiB)", (unsigned long long)(bytes >> 20),
			 (unsigned long long)(avail >> 20));
	}
	return 0;
}

/*
 * One REMOTE command: count batches kmalloc()ed on cpus[0] and kfree()d
 * on cpus[1], by kernel threads bound there, preemptible (GFP_KERNEL may
 * sleep). The caller's wait is killable and bounded; the ends give up
 * after PC_KERNEL_REMOTE_LIMIT_MS. Every object handed over must be
 * kfree()d on the far CPU: ops counts them.
 */
static long pc_kremote(struct pc_kernel_cmd *c)
{
	int (*fn[2])(void *) = { pc_kremote_near_thread, pc_kremote_far_thread };
	struct task_struct *task[2];
	struct pc_kremote *r;
	long rc, left;
	unsigned int k, n, b;

	cpus_read_lock();
	rc = pc_kremote_check(c);
	if (rc || c->status != PC_KERNEL_OK)
		goto unlock;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		rc = -ENOMEM;
		goto unlock;
	}
	r->size = c->size;
	r->batches = c->count;
	r->give_up = jiffies + msecs_to_jiffies(PC_KERNEL_REMOTE_LIMIT_MS);
	for (k = 0; k < 2; k++) {
		r->cpu[k] = (int)c->cpus[k];
		r->wrong_cpu[k] = -1;
		init_completion(&r->done[k]);
	}
	for (n = 0; n < 2; n++) {
		task[n] = kthread_create(fn[n], r, "primcost/r%u", n);
		if (IS_ERR(task[n]))
			break;
		kthread_bind(task[n], c->cpus[n]);
	}
	if (n < 2) {
		rc = PTR_ERR(task[n]);
		for (k = 0; k < n; k++)
			kthread_stop(task[k]);
		goto free;
	}
	for (k = 0; k < 2; k++)
		wake_up_process(task[k]);
	for (k = 0; k < 2; k++) {
		left = wait_for_completion_killable_timeout(&r->done[k],
			msecs_to_jiffies(PC_KERNEL_REMOTE_LIMIT_MS) + HZ);
		if (left <= 0) {
			/* told to stop, the ends leave at once */
			WRITE_ONCE(r->stop, true);
			rc = left < 0 ? -EINTR : -ETIMEDOUT;
			for (; k < 2; k++)
				wait_for_completion(&r->done[k]);
			break;
		}
	}
	/* what the near end handed over and the far end did not take */
	for (b = 0; b < PC_KERNEL_REMOTE_RING; b++)
		if (atomic_read(&r->ring[b].full))
			for (k = 0; k < PC_KERNEL_REMOTE_OBJS; k++)
				kfree(r->ring[b].ptr[k]);
	c->ticks = r->ticks[0];
	c->ticks_free = r->ticks[1];
	c->ops = r->freed;
	c->nulls = r->nulls;
	if (rc)
		goto free;
	if (READ_ONCE(r->stop)) {
		c->status = PC_KERNEL_UNSUPPORTED;
		PC_KFAIL(c, "the two ends did not finish within %d ms (a CPU kept busy by "
			 "another task)", PC_KERNEL_REMOTE_LIMIT_MS);
	} else if (r->wrong_cpu[0] >= 0 || r->wrong_cpu[1] >= 0) {
		c->status = PC_KERNEL_CHECK_FAILED;
		PC_KFAIL(c, "an end ran off its CPU: the near end on %d (not %u), the far on "
			 "%d (not %u)", r->wrong_cpu[0], c->cpus[0], r->wrong_cpu[1], c->cpus[1]);
	} else if (r->freed != r->objects ||
		   r->objects != (unsigned long)c->count * PC_KERNEL_REMOTE_OBJS) {
		c->status = PC_KERNEL_CHECK_FAILED;
		PC_KFAIL(c, "%lu objects handed over, %lu kfree()d on the far CPU",
			 r->objects, r->freed);
	}
free:
	kfree(r);
unlock:
	cpus_read_unlock();
	return rc;
}

/* ---- the commands ------------------------------------------------------------------ */

static uint32_t pc_kpreempt_model(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 19, 0)
	if (preempt_model_rt())
		return PC_KPREEMPT_RT;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	/* from 6.13 none of the three below is true of the lazy model */
	if (preempt_model_lazy())
		return PC_KPREEMPT_LAZY;
#endif
	if (preempt_model_full())
		return PC_KPREEMPT_FULL;
	if (preempt_model_voluntary())
		return PC_KPREEMPT_VOLUNTARY;
	if (preempt_model_none())
		return PC_KPREEMPT_NONE;
	return PC_KPREEMPT_UNKNOWN;
#else
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return PC_KPREEMPT_RT;
	if (IS_ENABLED(CONFIG_PREEMPT))
		return PC_KPREEMPT_FULL;
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return PC_KPREEMPT_VOLUNTARY;
	return PC_KPREEMPT_NONE;
#endif
}

static void pc_kinfo(struct pc_kernel_cmd *c)
{
	static const struct { bool on; uint64_t bit; } opts[] = {
		{ IS_ENABLED(CONFIG_PARAVIRT), PC_KCFG_PARAVIRT },
		{ IS_ENABLED(CONFIG_QUEUED_SPINLOCKS), PC_KCFG_QUEUED_SPINLOCKS },
		{ IS_ENABLED(CONFIG_PARAVIRT_SPINLOCKS), PC_KCFG_PARAVIRT_SPINLOCKS },
		{ IS_ENABLED(CONFIG_LOCKDEP), PC_KCFG_LOCKDEP },
		{ IS_ENABLED(CONFIG_PROVE_LOCKING), PC_KCFG_PROVE_LOCKING },
		{ IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC), PC_KCFG_DEBUG_LOCK_ALLOC },
		{ IS_ENABLED(CONFIG_DEBUG_SPINLOCK), PC_KCFG_DEBUG_SPINLOCK },
		{ IS_ENABLED(CONFIG_TRACE_IRQFLAGS), PC_KCFG_TRACE_IRQFLAGS },
		{ IS_ENABLED(CONFIG_DEBUG_PREEMPT), PC_KCFG_DEBUG_PREEMPT },
		{ IS_ENABLED(CONFIG_KASAN), PC_KCFG_KASAN },
		{ IS_ENABLED(CONFIG_KCSAN), PC_KCFG_KCSAN },
		{ IS_ENABLED(CONFIG_SLUB_DEBUG), PC_KCFG_SLUB_DEBUG },
		{ IS_ENABLED(CONFIG_PREEMPT_DYNAMIC), PC_KCFG_PREEMPT_DYNAMIC },
		{ IS_ENABLED(CONFIG_PREEMPT_LAZY), PC_KCFG_PREEMPT_LAZY },
		{ IS_ENABLED(CONFIG_PREEMPT_RCU), PC_KCFG_PREEMPT_RCU },
		{ IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP), PC_KCFG_DEBUG_ATOMIC_SLEEP },
		{ IS_ENABLED(CONFIG_KFENCE), PC_KCFG_KFENCE },
		{ IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED), PC_KCFG_SLAB_FREELIST_HARDENED },
		{ IS_ENABLED(CONFIG_RANDOM_KMALLOC_CACHES), PC_KCFG_RANDOM_KMALLOC_CACHES },
		{ IS_ENABLED(CONFIG_MEM_ALLOC_PROFILING), PC_KCFG_MEM_ALLOC_PROFILING },
	};
	uint64_t cfg = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].on)
			cfg |= opts[i].bit;
	/* Whether slub_debug is on (PC_KCFG_SLUB_DEBUG_ON) primcost reads
	 * from the caches timed in /sys/kernel/slab, as whether the module's
	 * cache was merged, KFENCE samples and allocation profiling is on:
	 * a cache's flags and those switches are not in the headers a module
	 * may include. */
	if (want_init_on_alloc(GFP_KERNEL))
		cfg |= PC_KCFG_INIT_ON_ALLOC;
	if (want_init_on_free())
		cfg |= PC_KCFG_INIT_ON_FREE;
	c->config = cfg;
	c->preempt = pc_kpreempt_model();
	c->kmalloc_max = KMALLOC_MAX_CACHE_SIZE;
	c->page_shift = PAGE_SHIFT;
	strscpy(c->release, utsname()->release, sizeof(c->release));
}

/* The entry and its size: -EINVAL out of range; unsupported (status and
 * reason) where this kernel or CPU cannot run it; else 0. */
static long pc_kentry_check(struct pc_kernel_cmd *c)
{
	if (c->entry >= PC_KE_COUNT)
		return -EINVAL;
	if (PC_KE_SIZED(c->entry) && (c->size < 1 || c->size > PC_KERNEL_MAX_SIZE))
		return -EINVAL;
	/* a constant size is one the module was compiled with */
	if (PC_KE_CONST(c->entry) && !pc_kconst_of(c->size))
		return -EINVAL;
	if (c->entry == PC_KE_this_cpu_cmpxchg_double && PC_KDOUBLE_WHY) {
		c->status = PC_KERNEL_UNSUPPORTED;
		PC_KFAIL(c, "%s", PC_KDOUBLE_WHY);
	} else if (c->entry == PC_KE_this_cpu_cmpxchg_double &&
		   !boot_cpu_has(X86_FEATURE_CX16)) {
		c->status = PC_KERNEL_UNSUPPORTED;
		PC_KFAIL(c, "no cmpxchg16b: the kernel runs its emulation, which it "
			 "does not export to modules");
	}
	pc_k.size = PC_KE_SIZED(c->entry) ? c->size : 0;
	pc_k.cnst = PC_KE_CONST(c->entry) ? pc_kconst_of(c->size) : NULL;
	return 0;
}

/* One timed loop of the entry: -EINVAL for a count out of range, -EINTR
 * when a fatal signal ended it. */
static long pc_krun(struct pc_kernel_cmd *c)
{
	if (c->iters < 1 || c->iters > PC_KERNEL_MAX_OPS / PC_UNROLL_HI ||
	    !pc_kentries[c->entry].loop)
		return -EINVAL;
	pc_k.nulls = 0;
	pc_k.killed = false;
	if (c->entry == PC_KE_kmalloc_kfree || c->entry == PC_KE_kmalloc_kfree_const)
		pc_kpair_try(&pc_k);
	c->ticks = pc_kloop(c->entry, c->iters, c->hi != 0);
	c->nulls = pc_k.nulls;
	return pc_k.killed ? -EINTR : 0;
}

/* The 2007 pattern's two passes, each timed as a whole: nothing but the
 * calls, the loop's count and the pointers stored. */
static noinline uint64_t pc_kbatch_alloc(void **objs, unsigned long n, size_t size)
{
	uint64_t t0, t1;
	unsigned long i;

	t0 = pc_timer_read();
	for (i = 0; i < n; i++)
		objs[i] = kmalloc(size, GFP_KERNEL);
	t1 = pc_timer_read();
	return t1 - t0;
}

static noinline uint64_t pc_kbatch_free(void **objs, unsigned long n)
{
	uint64_t t0, t1;
	unsigned long i;

	t0 = pc_timer_read();
	for (i = 0; i < n; i++)
		kfree(objs[i]);
	t1 = pc_timer_read();
	return t1 - t0;
}

/*
 * One batch of the 2007 pattern: count kmalloc()s of the variable size,
 * then their kfree()s, preemptible (GFP_KERNEL may sleep), as the 2007
 * module ran them. -EINVAL for a count out of range; unsupported where
 * the batch's bytes are over a quarter of the memory available (10000
 * objects of 16 KiB are 160 MiB).
 */
static long pc_kbatch(struct pc_kernel_cmd *c)
{
	u64 bytes = (u64)c->count * c->size, avail;

	if (!PC_KE_BATCH(c->entry) || c->count < 1 || c->count > PC_KERNEL_BATCH_MAX)
		return -EINVAL;
	avail = (u64)si_mem_available() << PAGE_SHIFT;
	if (bytes > avail / 4) {
		c->status = PC_KERNEL_UNSUPPORTED;
		PC_KFAIL(c, "%u kmalloc()s of %u bytes (%llu MiB) are over a quarter of "
			 "the memory available (%llu MiB)", c->count, c->size,
			 (unsigned long long)(bytes >> 20), (unsigned long long)(avail >> 20));
		return 0;
	}
	pc_k.nulls = 0;
	cond_resched();
	c->ticks = pc_kbatch_alloc(pc_k.objs, c->count, c->size);
	pc_kcount_nulls(&pc_k, c->count);
	c->ticks_free = pc_kbatch_free(pc_k.objs, c->count);
	c->nulls = pc_k.nulls;
	cond_resched();
	return 0;
}

long pc_kernel_exec(struct pc_kernel_cmd *c)
{
	long rc = 0;

	c->status = PC_KERNEL_OK;
	c->reason[0] = 0;
	pc_kinfo(c);
	switch (c->op) {
	case PC_KERNEL_OP_INFO:
		break;
	case PC_KERNEL_OP_SELFCHECK:
		rc = pc_kentry_check(c);
		if (!rc && c->status == PC_KERNEL_OK)
			pc_kselfcheck(c->entry, c);
		break;
	case PC_KERNEL_OP_RUN:
		rc = pc_kentry_check(c);
		if (!rc && c->status == PC_KERNEL_OK)
			rc = pc_krun(c);
		break;
	case PC_KERNEL_OP_CONTEND:
		rc = pc_kcontend(c);
		break;
	case PC_KERNEL_OP_BATCH:
		rc = pc_kentry_check(c);
		if (!rc && c->status == PC_KERNEL_OK)
			rc = pc_kbatch(c);
		break;
	case PC_KERNEL_OP_REMOTE:
		rc = pc_kentry_check(c);
		if (!rc && c->status == PC_KERNEL_OK)
			rc = pc_kremote(c);
		break;
	default:
		rc = -EINVAL;
		break;
	}
	return rc;
}

/*
 * The module's cache, never merged with another of its size: merged, its
 * objects would come from a cache others use too, and its name in
 * /sys/kernel/slab would be that alias's. SLAB_NO_MERGE says so from 6.5;
 * before, a cache with a user-copy region (the whole object) is never
 * merged, which changes only what hardened usercopy checks, not the
 * allocation (a constructor would, and poisoning or red zones would too).
 * primcost checks the name in /sys/kernel/slab all the same.
 */
static struct kmem_cache *pc_kcache_create(void)
{
#ifdef SLAB_NO_MERGE
	return kmem_cache_create("primcost_kernel", PC_KERNEL_CACHE_BYTES, 0, SLAB_NO_MERGE,
				 NULL);
#else
	return kmem_cache_create_usercopy("primcost_kernel", PC_KERNEL_CACHE_BYTES, 0, 0, 0,
					  PC_KERNEL_CACHE_BYTES, NULL);
#endif
}

int pc_kernel_init(void)
{
	spin_lock_init(&pc_k.lock);
	raw_spin_lock_init(&pc_k.raw);
	mutex_init(&pc_k.mutex);
	pc_k.objs = kvmalloc_array(PC_KOBJS, sizeof(*pc_k.objs), GFP_KERNEL);
	pc_k.cache = pc_kcache_create();
	if (!pc_k.objs || !pc_k.cache) {
		pc_kernel_exit();
		return -ENOMEM;
	}
	return 0;
}

void pc_kernel_exit(void)
{
	if (pc_k.cache)
		kmem_cache_destroy(pc_k.cache);
	kvfree(pc_k.objs);
	pc_k.cache = NULL;
	pc_k.objs = NULL;
}
