/* SPDX-License-Identifier: MIT */
/*
 * x86 probe bodies, shared by x86-64 and i386: one function per row of
 * probes/probes.def, each the instruction sequence the Linux kernel uses for
 * that API (arch/x86/include/asm/{cmpxchg,atomic,barrier,irqflags,preempt}.h).
 * Operands are machine words; the assembler picks q or l from the register.
 *
 * Freestanding: no libc, no globals but the const table at the end.
 */
#include "arch/arch.h"
#include "arch/checks.h"
#include "loop.h"
#include "x86.h"

#define X86_FLAGS_CF	0x0001UL
#define X86_FLAGS_ONE	0x0002UL	/* bit 1 always reads 1 */
#define X86_FLAGS_IF	0x0200UL
#define X86_FLAGS_DF	0x0400UL
#define X86_FLAGS_IOPL	0x3000UL
/* The flags an instruction sequence must not disturb by accident. */
#define X86_FLAGS_SYSTEM (X86_FLAGS_ONE | X86_FLAGS_IF | X86_FLAGS_DF | X86_FLAGS_IOPL)

/* Kernel's PREEMPT_NEED_RESCHED is folded into the count, inverted: the
 * bit set means "no reschedule needed", so the count never decrements to 0. */
#define X86_PREEMPT_ENABLED 0x80000000UL

/* ---- baseline and calibration ---------------------------------------- */

PC_RUN_NO_OPERAND(run_baseline, "")
PC_RUN_REG(run_add_chain, "", "add $1, %[r]", "", ())
PC_RUN_REG(run_mul_chain, "", "imul %[k], %[r]", "", ([k] "r"(st->reg[1])))

/*
 * Four independent adds per operation: as many per cycle as the core has
 * integer ALUs, so 1.00 cycle on a 4-ALU core that has the core to itself.
 * Throughput-bound, it slows when a sibling hyperthread or a neighbour
 * shares the core, while the dependent add chain does not: the harness
 * uses it as its contention canary.
 */
PC_RUN_REG4(run_add_throughput,
	    "add $1, %[a]\n\tadd $1, %[b]\n\tadd $1, %[c]\n\tadd $1, %[d]")

/* ---- timer ------------------------------------------------------------ */

static void init_get_cycles(struct pc_probe_state *st)
{
	uint64_t now = pc_timer_read();

	st->reg[0] = (unsigned long)(uint32_t)now;
	st->reg[1] = (unsigned long)(now >> 32);
}

/*
 * get_cycles() is rdtsc(): a bare rdtsc, unordered, unlike the harness's
 * reads. On x86-64 the kernel returns one 64-bit value, EAX_EDX_VAL(): the
 * compiler joins the halves with shl $32, %rdx; or %rdx, %rax. On i386 the
 * value is the edx:eax pair itself and nothing follows the rdtsc.
 */
#ifdef __x86_64__
#define X86_GET_CYCLES "rdtsc\n\tshl $32, %%rdx\n\tor %%rdx, %%rax"
#define X86_GET_CYCLES_SEQ "rdtsc; shl $32, %rdx; or %rdx, %rax"
#else
#define X86_GET_CYCLES "rdtsc"
#define X86_GET_CYCLES_SEQ "rdtsc"
#endif

static uint64_t run_get_cycles(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long lo = st->reg[0], hi32 = st->reg[1];
	uint64_t t;

	PC_TIMED(t, iters, hi, "", X86_GET_CYCLES, "", (, "+a"(lo), "+d"(hi32)), ());
	st->reg[0] = lo;
#ifdef __x86_64__
	st->reg[1] = (uint64_t)lo >> 32;	/* the high half, as on i386 */
#else
	st->reg[1] = hi32;
#endif
	return t;
}

/* The time-stamp counter a state holds: edx:eax in reg[1]:reg[0]. */
static inline uint64_t x86_tsc(const struct pc_probe_state *st)
{
	return ((uint64_t)st->reg[1] << 32) | (uint32_t)st->reg[0];
}

static PC_CHECK(check_get_cycles,
	PC_FAIL(x86_tsc(after) <= x86_tsc(before),
		"time-stamp counter did not advance"))

/* ---- cmpxchg ---------------------------------------------------------- */

/*
 * The timed loop repeats cmpxchg(&v, V, V) (init_cmpxchg: the expected
 * value in rax), as in the 2007 measurements. semantics_cmpxchg*() runs the
 * very same instruction with old != new.
 */

#define X86_RUN_CMPXCHG(fn, insn)					\
	PC_RUN_REG_AT(fn, 0, a, "+a", "", insn, "",			\
		      (, [m] "+m"(st->mem[0])), ([d] "r"(st->reg[1])))

X86_RUN_CMPXCHG(run_cmpxchg, PC_X86_CMPXCHG)
X86_RUN_CMPXCHG(run_cmpxchg_local, PC_X86_CMPXCHG_LOCAL)

PC_SEMANTICS_CMPXCHG(semantics_cmpxchg, pc_x86_cmpxchg)
PC_SEMANTICS_CMPXCHG(semantics_cmpxchg_local, pc_x86_cmpxchg_local)

/* ---- add_return: i + xadd(&v, i), as arch_atomic_add_return() ---------- */

/*
 * w is the operand-size modifier of the registers: "k" for the 32-bit
 * counter of atomic_t (an int: xaddl, on x86-64 too), "" for a machine
 * word (local_t wraps atomic_long_t: xaddq on x86-64). The counter is the
 * low half of mem[0] in the 32-bit form; the checks' sums never carry out
 * of it.
 */
#define X86_RUN_ADD_RETURN(fn, xadd, w)					\
	PC_RUN_REG_AT(fn, 0, r, "+r", "",				\
		      "mov %" w "[i], %" w "[r]\n\t" xadd " %" w "[r], %[m]\n\t" \
		      "add %" w "[i], %" w "[r]",				\
		      "", (, [m] "+m"(st->mem[0])), ([i] "r"(st->reg[1])))

X86_RUN_ADD_RETURN(run_atomic_add_return, "lock xadd", "k")
X86_RUN_ADD_RETURN(run_local_add_return, "xadd", "")

/* ---- xchg: implicitly locked ------------------------------------------ */

PC_RUN_REG_AT(run_xchg, 0, r, "+r", "", "xchg %[r], %[m]", "",
	      (, [m] "+m"(st->mem[0])), ())

/* ---- barriers --------------------------------------------------------- */

#define X86_RUN_BARE(fn, insn)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", insn, "", (, [m] "+m"(st->mem[0])), ()); \
	return t;							\
}

X86_RUN_BARE(run_mb, "mfence")
X86_RUN_BARE(run_rmb, "lfence")
X86_RUN_BARE(run_wmb, "sfence")
/* Since 4.15 the kernel orders cacheable memory with a locked no-op add on
 * the stack rather than mfence: cheaper, and enough for smp_mb(). */
X86_RUN_BARE(run_smp_mb, "lock addl $0, -4(" PC_X86_SP ")")
/* x86 is TSO: smp_rmb()/smp_wmb() are compiler barriers, no instruction. */
X86_RUN_BARE(run_compiler_barrier, "")

/* ---- flags: the ring-3 halves of local_irq_save/restore ---------------- */

PC_INIT_FLAGS(init_flags, pc_x86_flags())

PC_RUN_REG(run_flags_save, PC_X86_STACK_ENTER, "pushf\n\tpop %[r]",
	   PC_X86_STACK_LEAVE, ())

static PC_CHECK(check_flags_save,
	PC_FAIL((after->reg[0] & X86_FLAGS_SYSTEM) != (before->reg[2] & X86_FLAGS_SYSTEM),
		"the value read is not the flags register"))

#define X86_FLAGS_READBACK "pushf\n\tpop %[g]\n\t"

PC_RUN_READBACK(run_flags_restore, PC_X86_STACK_ENTER, "push %[f]\n\tpopf",
		X86_FLAGS_READBACK PC_X86_STACK_LEAVE, ([f] "r"(st->reg[0])))
PC_RUN_READBACK(run_flags_save_restore, PC_X86_STACK_ENTER, "pushf\n\tpopf",
		X86_FLAGS_READBACK PC_X86_STACK_LEAVE, ())

static PC_CHECK(check_flags_kept,
	PC_FAIL((after->reg[1] & X86_FLAGS_SYSTEM) != (before->reg[2] & X86_FLAGS_SYSTEM),
		"writing the flags back changed IF, DF or IOPL"))

/* ---- preempt_disable(); preempt_enable() --------------------------------- */

PC_INIT_PREEMPT(init_preempt, X86_PREEMPT_ENABLED)

/*
 * incl/decl on the per-CPU count (%gs-relative in the kernel, plain memory
 * here); preempt_enable() branches to __preempt_schedule() when the count
 * reaches zero, which the folded NEED_RESCHED bit prevents. A taken branch
 * leaves the loop and is reported by the check.
 */
static uint64_t run_preempt(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long taken = st->reg[0];
	uint64_t t;

	PC_TIMED(t, iters, hi, "", "incl %[m]\n\tdecl %[m]\n\tjz 9f",
		 "jmp 8f\n9:\n\tmov $1, %[taken]\n8:\n\t",
		 (, [m] "+m"(st->mem[0]), [taken] "+r"(taken)), ());
	st->reg[0] = taken;
	return t;
}

/*
 * The kernel's count is per-CPU, reached through a segment with a base:
 * incl %gs:__preempt_count on x86-64, %fs: on i386. User mode cannot point
 * %gs at it on x86-64 (no FSGSBASE here, and the kernel owns the
 * register), and %fs is null in a 32-bit process: each uses the segment a
 * Linux process already has, the thread pointer's (%fs on x86-64, %gs on
 * i386; the x86 TLS ABIs put the thread pointer itself at offset 0), with
 * the counter's offset from its base. The prefix byte differs from the
 * kernel's; what it costs (a segment base added to the address) does not.
 */
#ifdef __x86_64__
#define X86_TLS_SEG "%%fs:"
#define X86_TLS_SEQ_SEG "%fs:"
#define X86_KERNEL_SEQ_SEG "%gs:"	/* the kernel's, for the sequences */
#else
#define X86_TLS_SEG "%%gs:"
#define X86_TLS_SEQ_SEG "%gs:"
#define X86_KERNEL_SEQ_SEG "%fs:"
#endif

/* Every Linux process has its thread pointer in that segment; the
 * freestanding executors, which have none, pass no env and run the plain
 * form. */
static const char *need_tls_segment(const struct pc_arch_env *env)
{
	(void)env;
	return 0;
}

static uint64_t run_preempt_seg(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long taken = st->reg[0], base, off;
	uint64_t t;

	__asm__ volatile("mov " X86_TLS_SEG "0, %0" : "=r"(base));
	off = (unsigned long)&st->mem[0] - base;
	PC_TIMED(t, iters, hi, "",
		 "incl " X86_TLS_SEG "(%[off])\n\tdecl " X86_TLS_SEG "(%[off])\n\tjz 9f",
		 "jmp 8f\n9:\n\tmov $1, %[taken]\n8:\n\t",
		 (, [taken] "+r"(taken)), ([off] "r"(off)));
	st->reg[0] = taken;
	return t;
}

/* One operation from a count of `count`: why, unless it comes back to
 * `count` and takes the reschedule branch exactly when `taken`. */
static const char *preempt_seg_from(struct pc_probe_state *s,
				    unsigned long count, unsigned long taken,
				    const char *why)
{
	init_preempt(s);
	s->mem[0] = count;
	run_preempt_seg(s, 1, 0);
	return s->reg[0] != taken || s->mem[0] != count ? why : 0;
}

/* The segment-relative accesses reach the counter: from a count of 0 the
 * decrement reaches zero and the reschedule branch is taken, from 5 it is
 * not (a body that missed the counter would branch the same both times). */
static const char *semantics_preempt_seg(struct pc_probe_state *s)
{
	const char *why = preempt_seg_from(s, 0, 1, "the segment-relative "
		"count is not the counter: a count of 0 did not come back to 0 "
		"and branch");

	return why ? why : preempt_seg_from(s, 5, 0, "the segment-relative "
		"count is not the counter: a count of 5 branched or changed");
}

static const struct pc_arch_probe preempt_plain = PC_ROW(run_preempt,
	init_preempt, check_preempt, 0,
	"incl (count); decl (count); jz <resched>   [no segment prefix]");

/* ---- per-CPU operations: this_cpu_*() ------------------------------------ */

/*
 * The kernel's this_cpu ops are one instruction on the variable through
 * the per-CPU segment, with no lock prefix and no preemption guard
 * (arch/x86/include/asm/percpu.h: an instruction cannot be split by a
 * move to another CPU). Here, as for preempt_disable_enable, the segment
 * is the thread pointer's and the address the variable's offset from its
 * base; the freestanding executors run the plain form.
 */
static unsigned long x86_tls_off(const void *p)
{
	unsigned long base;

	__asm__ volatile("mov " X86_TLS_SEG "0, %0" : "=r"(base));
	return (unsigned long)p - base;
}

/* this_cpu_add(v, i): add %i, %gs:v (this_cpu_inc(v): incq, the same
 * micro-ops). */
static uint64_t run_this_cpu_add_seg(struct pc_probe_state *st, uint64_t iters,
				     int hi)
{
	unsigned long off = x86_tls_off(&st->mem[0]);
	uint64_t t;

	PC_TIMED(t, iters, hi, "", "add %[i], " X86_TLS_SEG "(%[off])", "", (),
		 ([i] "r"(st->reg[1]), [off] "r"(off)));
	return t;
}

static uint64_t run_this_cpu_add(struct pc_probe_state *st, uint64_t iters,
				 int hi)
{
	uint64_t t;

	PC_TIMED(t, iters, hi, "", "add %[i], %[m]", "",
		 (, [m] "+m"(st->mem[0])), ([i] "r"(st->reg[1])));
	return t;
}

PC_INIT_PERCPU(init_this_cpu_add_x86, init_this_cpu_add, 0)
PC_INIT_PERCPU(init_this_cpu_cmpxchg, init_cmpxchg, 0)

/* this_cpu_cmpxchg(v, old, new): cmpxchg %new, %gs:v, no lock. */
#define X86_THIS_CPU_CMPXCHG "cmpxchg %[d], " X86_TLS_SEG "(%[off])"

static uint64_t run_this_cpu_cmpxchg_seg(struct pc_probe_state *st,
					 uint64_t iters, int hi)
{
	unsigned long off = x86_tls_off(&st->mem[0]), o = st->reg[0];
	uint64_t t;

	PC_TIMED(t, iters, hi, "", X86_THIS_CPU_CMPXCHG, "", (, "+a"(o)),
		 ([d] "r"(st->reg[1]), [off] "r"(off)));
	st->reg[0] = o;
	return t;
}

static inline unsigned long x86_this_cpu_cmpxchg(unsigned long *p,
						 unsigned long old,
						 unsigned long new_val)
{
	__asm__ volatile(X86_THIS_CPU_CMPXCHG : "+a"(old)
			 : [d] "r"(new_val), [off] "r"(x86_tls_off(p))
			 : "cc", "memory");
	return old;
}

PC_SEMANTICS_CMPXCHG(semantics_this_cpu_cmpxchg, x86_this_cpu_cmpxchg)

/*
 * The double word: cmpxchg16b on x86-64, cmpxchg8b on i386, edx:eax
 * expected, ecx:ebx new, no lock prefix (the kernel's
 * percpu_try_cmpxchg128_op and percpu_try_cmpxchg64_op of 6.5 on, and
 * this_cpu_cmpxchg_double before). The kernel tests ZF as a flag output
 * (before 6.5: setz); the row times the instruction.
 */
#ifdef __x86_64__
#define X86_CMPXCHG_DOUBLE "cmpxchg16b"
#else
#define X86_CMPXCHG_DOUBLE "cmpxchg8b"
#endif

#define X86_RUN_CMPXCHG_DOUBLE(fn, insn, mem_, ins_)			\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long a = st->reg[0], d = st->reg[1];			\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", insn, "",				\
		 (, "+a"(a), "+d"(d) PC_UNPAREN mem_),			\
		 ("b"(st->reg[2]), "c"(st->reg[3]) PC_UNPAREN ins_));	\
	st->reg[0] = a;							\
	st->reg[1] = d;							\
	return t;							\
}

/* The double word as the memory operand of one instruction. */
struct x86_double { unsigned long w[2]; };
#define X86_DOUBLE(p) (*(struct x86_double *)(void *)(p))

X86_RUN_CMPXCHG_DOUBLE(run_this_cpu_cmpxchg_double,
	X86_CMPXCHG_DOUBLE " %[m]", (, [m] "+m"(X86_DOUBLE(st->mem))), ())

static uint64_t run_this_cpu_cmpxchg_double_seg(struct pc_probe_state *st,
						uint64_t iters, int hi)
{
	unsigned long off = x86_tls_off(&st->mem[0]), a = st->reg[0],
		      d = st->reg[1];
	uint64_t t;

	PC_TIMED(t, iters, hi, "", X86_CMPXCHG_DOUBLE " " X86_TLS_SEG "(%[off])",
		 "", (, "+a"(a), "+d"(d)),
		 ("b"(st->reg[2]), "c"(st->reg[3]), [off] "r"(off)));
	st->reg[0] = a;
	st->reg[1] = d;
	return t;
}

/* try_cmpxchg's contract, for the semantic check: the value found in o. */
static inline int x86_this_cpu_cmpxchg_double(unsigned long *p,
					      unsigned long *o,
					      const unsigned long *n)
{
	int ok;

	__asm__ volatile(X86_CMPXCHG_DOUBLE " " X86_TLS_SEG "(%[off])"
			 : "=@ccz"(ok), "+a"(o[0]), "+d"(o[1])
			 : "b"(n[0]), "c"(n[1]), [off] "r"(x86_tls_off(p))
			 : "memory");
	return ok;
}

PC_SEMANTICS_CMPXCHG_DOUBLE(semantics_this_cpu_cmpxchg_double,
			    x86_this_cpu_cmpxchg_double)

/*
 * cmpxchg16b and cmpxchg8b are CPUID features (leaf 1, ECX bit 13 and
 * EDX bit 8), which the kernel patches in with an alternative: without
 * them this_cpu_cmpxchg16b_emu (and _8b_) run a pushf; cli; compare;
 * popf sequence that needs ring 0, and cmpxchg128() does not exist
 * (system_has_cmpxchg128() is false). Read with CPUID, as the kernel does.
 */
static const char *need_cmpxchg_double(const struct pc_arch_env *env)
{
	unsigned int a = 1, b, c = 0, d;

	(void)env;
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	(void)b;
#ifdef __x86_64__
	return c & (1U << 13) ? 0 : "this CPU has no CMPXCHG16B (CPUID.1:ECX "
		"bit 13 clear): the kernel emulates it with interrupts off, "
		"or has no cmpxchg128()";
#else
	return d & (1U << 8) ? 0 : "this CPU has no CMPXCHG8B (CPUID.1:EDX "
		"bit 8 clear): the kernel emulates it with interrupts off";
#endif
}

static const struct pc_arch_probe this_cpu_add_plain = PC_ROW(run_this_cpu_add,
	init_this_cpu_add_x86, check_this_cpu_add, 0,
	"add %i, (v)   [no segment prefix]");
static const struct pc_arch_probe this_cpu_cmpxchg_plain = PC_ROW(
	run_cmpxchg_local, init_this_cpu_cmpxchg, check_this_cpu_cmpxchg,
	semantics_cmpxchg_local, "cmpxchg %new, (v)   [no segment prefix]");
static const struct pc_arch_probe this_cpu_cmpxchg_double_plain = PC_ROW_ALT(
	run_this_cpu_cmpxchg_double, init_cmpxchg_double, check_cmpxchg_double,
	0, X86_CMPXCHG_DOUBLE " (v)   [no segment prefix]",
	need_cmpxchg_double, 0);

/* Where a process has its thread pointer and the CPU the instruction. */
static const char *need_tls_cmpxchg_double(const struct pc_arch_env *env)
{
	const char *why = need_cmpxchg_double(env);

	return why ? why : need_tls_segment(env);
}

/* cmpxchg128(): the same instruction, locked (x86-64 only). */
#ifdef __x86_64__
X86_RUN_CMPXCHG_DOUBLE(run_cmpxchg128, "lock cmpxchg16b %[m]",
	(, [m] "+m"(X86_DOUBLE(st->mem))), ())

static inline int x86_cmpxchg128(unsigned long *p, unsigned long *o,
				 const unsigned long *n)
{
	int ok;

	__asm__ volatile("lock cmpxchg16b %[m]"
			 : "=@ccz"(ok), "+a"(o[0]), "+d"(o[1]),
			   [m] "+m"(X86_DOUBLE(p))
			 : "b"(n[0]), "c"(n[1]) : "memory");
	return ok;
}

PC_SEMANTICS_CMPXCHG_DOUBLE(semantics_cmpxchg128, x86_cmpxchg128)

#define X86_CMPXCHG128 PC_ROW_ALT(run_cmpxchg128, init_cmpxchg_double,	\
	check_cmpxchg_double, semantics_cmpxchg128,			\
	"lock cmpxchg16b (v)   [%rdx:%rax == (v): succeeds; new in "	\
	"%rcx:%rbx; CMPXCHG16B]", need_cmpxchg_double, 0)
#define X86_DOUBLE_SEQ "cmpxchg16b %fs:(v)   [no lock prefix; %rdx:%rax == " \
	"(v): succeeds; new in %rcx:%rbx; the kernel's %gs:v; 6.5 on, and " \
	"before it with a setz after]"
#else
#define X86_CMPXCHG128 { .unsupported = "a 32-bit machine has no 16-byte " \
	"compare-and-swap: its widest is cmpxchg64 (lock cmpxchg8b)" }
#define X86_DOUBLE_SEQ "cmpxchg8b %gs:(v)   [no lock prefix; %edx:%eax == " \
	"(v): succeeds; new in %ecx:%ebx; the kernel's %fs:v; 6.5 on, and " \
	"before it with a setz after]"
#endif

/* ---- interrupt flag: ring 0 only (cli/sti fault in user mode) ---------- */

/*
 * The native sequences. A kernel built with CONFIG_PARAVIRT_XXL (one that
 * can also boot as a Xen PV guest: most distribution kernels) reaches them
 * through paravirt call sites that boot patches on bare metal and under
 * KVM into the same instructions followed by NOP padding to the length of
 * the indirect call they replace: one NOP more per half, not timed here.
 */

static void init_irq(struct pc_probe_state *st)
{
	unsigned long f = pc_x86_flags();

	st->reg[0] = f | X86_FLAGS_IF;	/* saved flags: interrupts were on */
	st->reg[1] = f;			/* flags read back after the loop */
	st->reg[2] = f;
}

#define X86_RUN_IRQ(fn, body)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long f = st->reg[0], g = st->reg[1];			\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, PC_X86_STACK_ENTER, body,		\
		 X86_FLAGS_READBACK PC_X86_STACK_LEAVE,			\
		 (, [f] "+r"(f), [g] "+r"(g)), ());			\
	st->reg[0] = f;							\
	st->reg[1] = g;							\
	return t;							\
}

/* Today's arch_local_irq_restore(): sti only when the saved IF was set. */
#define X86_IRQ_RESTORE "test $0x200, %[f]\n\tjz 2f\n\tsti\n2:"

X86_RUN_IRQ(run_irq_disable, "cli")
X86_RUN_IRQ(run_irq_enable, "sti")
X86_RUN_IRQ(run_irq_save, "pushf\n\tpop %[f]\n\tcli")
X86_RUN_IRQ(run_irq_restore, X86_IRQ_RESTORE)
X86_RUN_IRQ(run_irq_save_restore, "pushf\n\tpop %[f]\n\tcli\n\t" X86_IRQ_RESTORE)
/* The arch_local_irq_restore() of kernels before commit ab234a260b1f
 * ("x86/pv: Rework arch_local_irq_restore() to not use popf", 2021): the
 * saved flags, IF set, written back whole. */
X86_RUN_IRQ(run_irq_restore_popf, "push %[f]\n\tpopf")
/*
 * Real transitions. The loop enters with IF set (the ring-0 executor), so
 * in the rows above every operation after the first finds IF as it leaves
 * it: the repeated half the 2007 measurements timed. A transition needs its
 * opposite before it can happen again, so these time the pair, each half
 * changing IF.
 */
X86_RUN_IRQ(run_irq_disable_enable, "cli\n\tsti")
X86_RUN_IRQ(run_irq_save_restore_popf, "pushf\n\tpop %[f]\n\tcli\n\tpush %[f]\n\tpopf")

static PC_CHECK(check_irq_off,
	PC_FAIL(after->reg[1] & X86_FLAGS_IF,
		"interrupts are still enabled (IF set)"))
/* local_irq_save(); local_irq_restore() leaves IF as it found it. */
static PC_CHECK(check_irq_kept,
	PC_FAIL((after->reg[1] ^ before->reg[2]) & X86_FLAGS_IF,
		"the interrupt flag is not what it was before the save"))
static PC_CHECK(check_irq_on,
	PC_FAIL(!(after->reg[1] & X86_FLAGS_IF),
		"interrupts are not enabled (IF clear)"))

/*
 * The 32-bit kernel's mb()/rmb()/wmb() are alternatives: mfence/lfence/
 * sfence on a CPU with SSE2 (X86_FEATURE_XMM2), else the locked no-op add on
 * the stack (Linux 4.x on; 2.6 added at 0(%esp), and keyed wmb() on SSE).
 * The kernel decides from CPUID, and so does this: leaf 1, EDX bit 26.
 * (AT_HWCAP is not used: qemu-user passes 0x1 there, and some x86-64
 * kernels a value other than that EDX.)
 */
#ifdef __i386__
#define X86_CPUID1_EDX_SSE2 (1U << 26)

static const char *need_sse2(const struct pc_arch_env *env)
{
	unsigned int a = 1, b, c = 0, d;

	(void)env;
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	(void)b;
	return d & X86_CPUID1_EDX_SSE2 ? 0 :
		"this CPU has no SSE2 (CPUID.1:EDX bit 26 clear): measured the "
		"32-bit kernel's lock addl $0,-4(%esp) fallback";
}

static const struct pc_arch_probe barrier_lock_add = PC_ROW(run_smp_mb, 0,
	check_unchanged, 0, "lock addl $0, -4(%esp)   [no SSE2: the 32-bit "
	"kernel's fallback]");

#define X86_FENCE(run_, insn) PC_ROW_ALT(run_, 0, check_unchanged, 0,	\
		insn "   [SSE2; without it lock addl $0, -4(%esp)]",	\
		need_sse2, &barrier_lock_add)
#else
#define X86_FENCE(run_, insn) PC_ROW(run_, 0, check_unchanged, 0, insn)
#endif

/* ---- rows that are not x86's -------------------------------------------- */

#ifdef __i386__
#include "arch/i386/cmpxchg64.h"
#define X86_CMPXCHG64 PC_ROW(run_cmpxchg64, init_cmpxchg64, check_cmpxchg64, \
		semantics_cmpxchg64, \
		"lock cmpxchg8b (v)   [%edx:%eax == (v): succeeds; new in %ecx:%ebx]")
#else
#define X86_CMPXCHG64 { .unsupported = "a 64-bit machine has no separate " \
		"64-bit compare-and-swap: cmpxchg64() is the cmpxchg row" }
#endif

/* ---- the table ---------------------------------------------------------- */

const struct pc_arch_probe pc_arch_probes[PC_PROBE_COUNT] = {
	PC_ROWS_BASELINE_CHAINS("add $1, %reg", "imul %k, %reg"),
	[PC_PROBE_calib_add_throughput] = PC_ROW(run_add_throughput, 0,
		check_add_throughput, 0, "add $1, %a; add $1, %b; add $1, %c; add $1, %d"),
	[PC_PROBE_get_cycles] = PC_ROW(run_get_cycles, init_get_cycles,
		check_get_cycles, 0, X86_GET_CYCLES_SEQ),
	[PC_PROBE_cmpxchg] = PC_ROW(run_cmpxchg, init_cmpxchg, check_cmpxchg,
		semantics_cmpxchg, "lock cmpxchg %new, (v)   [%ax == (v): succeeds]"),
	[PC_PROBE_cmpxchg_local] = PC_ROW(run_cmpxchg_local, init_cmpxchg,
		check_cmpxchg, semantics_cmpxchg_local,
		"cmpxchg %new, (v)   [no lock prefix; succeeds]"),
	[PC_PROBE_cmpxchg64] = X86_CMPXCHG64,
	/* x86 atomics are single locked instructions; there is no LL/SC form. */
	PC_ROWS_LLSC({ .unsupported = "x86 has no load/store-exclusive "
		"instructions: its atomics are single locked instructions" }),
	/* The fetchadd rows are ia64's older form of add_return. */
	PC_ROWS_FETCHADD({ .unsupported = "the fetchadd form is ia64's: x86 "
		"runs xadd for every increment (the atomic_add_return row)" }),
	[PC_PROBE_atomic_add_return] = PC_ROW(run_atomic_add_return, init_add_return,
		check_add_return, 0, "mov %i, %r; lock xaddl %r, (v); add %i, %r   "
		"[atomic_t: 32-bit operands]"),
	[PC_PROBE_local_add_return] = PC_ROW(run_local_add_return, init_add_return,
		check_add_return, 0, "mov %i, %r; xadd %r, (v); add %i, %r   "
		"[local_t wraps atomic_long_t: machine word]"),
	[PC_PROBE_xchg] = PC_ROW(run_xchg, init_xchg, check_xchg, 0,
		"xchg %r, (v)   [implicitly locked]"),
	[PC_PROBE_mb] = X86_FENCE(run_mb, "mfence"),
	[PC_PROBE_rmb] = X86_FENCE(run_rmb, "lfence"),
	[PC_PROBE_wmb] = X86_FENCE(run_wmb, "sfence"),
	[PC_PROBE_smp_mb] = PC_ROW(run_smp_mb, 0, check_unchanged, 0,
		"lock addl $0, -4(%sp)"),
	[PC_PROBE_smp_rmb] = PC_ROW(run_compiler_barrier, 0, check_unchanged, 0,
		"(compiler barrier only: no instruction)"),
	[PC_PROBE_smp_wmb] = PC_ROW(run_compiler_barrier, 0, check_unchanged, 0,
		"(compiler barrier only: no instruction)"),
	PC_ROWS_FLAGS(check_flags_save, check_flags_kept, "pushf; pop %r",
		"push %r; popf   [IF unchanged]", "pushf; popf"),
	[PC_PROBE_preempt_disable_enable] = PC_ROW_ALT(run_preempt_seg, init_preempt,
		check_preempt, semantics_preempt_seg,
		"incl " X86_TLS_SEQ_SEG "(count); decl " X86_TLS_SEQ_SEG "(count); "
		"jz <resched>   [the kernel's, Linux 3.13 on: %gs: on x86-64, %fs: "
		"on i386; no published measurement timed it]", need_tls_segment, &preempt_plain),
	[PC_PROBE_this_cpu_add] = PC_ROW_ALT(run_this_cpu_add_seg,
		init_this_cpu_add_x86, check_this_cpu_add, 0,
		"add %i, " X86_TLS_SEQ_SEG "(v)   [no lock prefix; the kernel's "
		"add %i, " X86_KERNEL_SEQ_SEG "v; this_cpu_inc(): inc]",
		need_tls_segment, &this_cpu_add_plain),
	[PC_PROBE_this_cpu_cmpxchg] = PC_ROW_ALT(run_this_cpu_cmpxchg_seg,
		init_this_cpu_cmpxchg, check_this_cpu_cmpxchg,
		semantics_this_cpu_cmpxchg, "cmpxchg %new, " X86_TLS_SEQ_SEG
		"(v)   [no lock prefix; %ax == (v): succeeds; the kernel's "
		X86_KERNEL_SEQ_SEG "v]",
		need_tls_segment, &this_cpu_cmpxchg_plain),
	[PC_PROBE_this_cpu_cmpxchg_double] = PC_ROW_ALT(
		run_this_cpu_cmpxchg_double_seg, init_cmpxchg_double,
		check_cmpxchg_double, semantics_this_cpu_cmpxchg_double,
		X86_DOUBLE_SEQ, need_tls_cmpxchg_double,
		&this_cpu_cmpxchg_double_plain),
	[PC_PROBE_cmpxchg128] = X86_CMPXCHG128,
	[PC_PROBE_local_irq_disable] = PC_ROW(run_irq_disable, init_irq,
		check_irq_off, 0, "cli   [native; repeated: IF already clear after the first, "
		"as the 2007 measurements timed]"),
	[PC_PROBE_local_irq_enable] = PC_ROW(run_irq_enable, init_irq,
		check_irq_on, 0, "sti   [native; repeated: IF already set, as the 2007 measurements timed]"),
	[PC_PROBE_local_irq_save] = PC_ROW(run_irq_save, init_irq, check_irq_off, 0,
		"pushf; pop %r; cli   [native; repeated: IF already clear after the first, "
		"as the 2007 measurements timed]"),
	[PC_PROBE_local_irq_restore] = PC_ROW(run_irq_restore, init_irq,
		check_irq_on, 0, "test $0x200, %r; jz 1f; sti; 1:   [native; today's kernels; "
		"repeated: IF already set]"),
	[PC_PROBE_local_irq_save_restore] = PC_ROW(run_irq_save_restore, init_irq,
		check_irq_kept, 0,
		"pushf; pop %r; cli; test $0x200, %r; jz 1f; sti; 1:   [native; today's kernels; "
		"real transitions: cli from IF set, sti from IF clear]"),
	[PC_PROBE_local_irq_restore_popf] = PC_ROW(run_irq_restore_popf, init_irq,
		check_irq_on, 0, "push %r; popf   [native; kernels before 2021; IF set in %r; "
		"repeated: IF already set, as the 2007 measurements timed]"),
	[PC_PROBE_local_irq_disable_enable] = PC_ROW(run_irq_disable_enable,
		init_irq, check_irq_on, 0, "cli; sti   [native; real transitions: cli from "
		"IF set, sti from IF clear]"),
	[PC_PROBE_local_irq_save_restore_popf] = PC_ROW(run_irq_save_restore_popf,
		init_irq, check_irq_kept, 0, "pushf; pop %r; cli; push %r; popf   "
		"[native; kernels before 2021; real transitions: cli from IF "
		"set, popf from IF clear]"),
};

const char pc_arch_timer_name[] = "tsc";

/* The TSC's rate is not architecturally visible without cpuid leaf 0x15,
 * which many CPUs leave empty: the harness measures it. */
uint64_t pc_arch_timer_hz(void)
{
	return 0;
}
