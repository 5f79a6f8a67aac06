/* SPDX-License-Identifier: MIT */
/*
 * arm64 probe bodies: one function per row of probes/probes.def, each the
 * instruction sequence the Linux arm64 kernel uses for that API
 * (arch/arm64/include/asm/{atomic_lse,atomic_ll_sc,cmpxchg,barrier,
 * preempt,arch_timer}.h). Atomic rows run the LSE instruction where the CPU
 * has it (HWCAP_ATOMICS) and fall back to the LL/SC loop otherwise, as the
 * kernel's alternatives do; the NAME.llsc rows always run the LL/SC loop.
 *
 * Freestanding: no libc, no globals but the const table at the end.
 */
#include "arch/arch.h"
#include "arch/checks.h"
#include "arm64.h"

const char pc_arch_name[] = "arm64";

#define ARM64_HWCAP_ATOMICS (1UL << 8)	/* HWCAP_ATOMICS, <asm/hwcap.h> */
#define ARM64_HWCAP2_ECV (1UL << 19)	/* HWCAP2_ECV, <asm/hwcap.h> */

static const char *need_lse(const struct pc_arch_env *env)
{
	return env->hwcap & ARM64_HWCAP_ATOMICS ? 0 :
		"this CPU has no LSE atomics (HWCAP_ATOMICS clear): measured "
		"the kernel's LL/SC fallback, as the .llsc row";
}

static const char *need_ecv(const struct pc_arch_env *env)
{
	return env->hwcap2 & ARM64_HWCAP2_ECV ? 0 :
		"this CPU has no FEAT_ECV (HWCAP2_ECV clear): measured the "
		"kernel's isb; mrs cntvct_el0 form";
}

/* ---- baseline and calibration ---------------------------------------- */

PC_RUN_NO_OPERAND(run_baseline, "")
PC_RUN_REG(run_add_chain, "", "add %x[r], %x[r], #1", "", ())
PC_RUN_REG(run_mul_chain, "", "mul %x[r], %x[r], %x[k]", "", ([k] "r"(st->reg[1])))

/* Four independent adds: throughput-bound (the contention canary). */
PC_RUN_REG4(run_add_throughput,
	    "add %x[a], %x[a], #1\n\tadd %x[b], %x[b], #1\n\t"
	    "add %x[c], %x[c], #1\n\tadd %x[d], %x[d], #1")

/* ---- timer ------------------------------------------------------------ */

static void init_get_cycles(struct pc_probe_state *st)
{
	st->reg[0] = pc_timer_read();
}

/*
 * get_cycles() is arch_timer_read_counter(), a function pointer: to
 * arch_counter_get_cntvct() where the timer is on the virtual PPI, else
 * arch_counter_get_cntpct(), and to their *_stable variants on CPUs with
 * timer errata. The rows time the read that pointer reaches on a CPU
 * without errata, inlined: isb, the counter read, and an artificial
 * dependency (a load from sp + 0 * count) that keeps later loads from
 * passing the read (arch_counter_enforce_ordering(), Linux 5.2 on). The
 * call through the pointer (ldr; blr; ret) is not timed. On a CPU with
 * FEAT_ECV, Linux 5.16 on patches the isb into a nop and reads the
 * self-synchronised CNTVCTSS_EL0 instead (run_get_cycles_ecv below).
 */
#define ARM64_RUN_GET_CYCLES(fn, read)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long c = st->reg[0], u;				\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", read "\n\t"				\
		 "eor %x[u], %x[c], %x[c]\n\tadd %x[u], sp, %x[u]\n\t"	\
		 "ldr xzr, [%x[u]]", "",				\
		 (, [c] "+r"(c), [u] "=&r"(u)), ());			\
	st->reg[0] = c;							\
	return t;							\
}

ARM64_RUN_GET_CYCLES(run_get_cycles, "isb\n\tmrs %x[c], cntvct_el0")
/* The ARM64_HAS_ECV alternative of __arch_counter_get_cntvct(): "nop" and
 * mrs of CNTVCTSS_EL0, written by encoding (S3_3_C14_C0_6, as the kernel's
 * __mrs_s) so that no assembler option is needed; the ordering as above. */
ARM64_RUN_GET_CYCLES(run_get_cycles_ecv, "nop\n\tmrs %x[c], S3_3_C14_C0_6")

/* What runs without FEAT_ECV (and from 5.2 to 5.15 on every CPU; before
 * 5.2, isb and mrs alone). */
static const struct pc_arch_probe get_cycles_isb = PC_ROW(run_get_cycles,
	init_get_cycles, check_timer_advanced, 0,
	"isb; mrs %c, cntvct_el0; eor %u, %c, %c; add %u, sp, %u; ldr xzr, [%u]   "
	"[no FEAT_ECV, or Linux 5.2-5.15; before 5.2 isb; mrs alone; the "
	"read arch_timer_read_counter points at, without the indirect call]");

/* ---- cmpxchg: cmpxchg(&v, V, V) back to back, always succeeding --------- */

#define ARM64_RUN_LSE_CAS(fn, seq)					\
	PC_RUN_REG_AT(fn, 0, o, "+r", "", seq, "",			\
		      (, [m] "+Q"(st->mem[0])), ([d] "r"(st->reg[1])))

#define ARM64_RUN_LLSC_CAS(fn, seq)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long found = st->reg[0], u;				\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", seq, "",				\
		 (, [t] "=&r"(found), [u] "=&r"(u),			\
		  [m] "+Q"(st->mem[0])),				\
		 ([o] "r"(st->reg[0]), [d] "r"(st->reg[1])));		\
	st->reg[0] = found;						\
	return t;							\
}

ARM64_RUN_LSE_CAS(run_cmpxchg_lse, ARM64_LSE_CAS_MB)
ARM64_RUN_LSE_CAS(run_cmpxchg_local_lse, ARM64_LSE_CAS)
ARM64_RUN_LLSC_CAS(run_cmpxchg_llsc, ARM64_LLSC_CAS_MB)
ARM64_RUN_LLSC_CAS(run_cmpxchg_local_llsc, ARM64_LLSC_CAS)

PC_SEMANTICS_CMPXCHG(semantics_cmpxchg_lse, pc_arm64_lse_cas_mb)
PC_SEMANTICS_CMPXCHG(semantics_cmpxchg_local_lse, pc_arm64_lse_cas)
PC_SEMANTICS_CMPXCHG(semantics_cmpxchg_llsc, pc_arm64_llsc_cas_mb)
PC_SEMANTICS_CMPXCHG(semantics_cmpxchg_local_llsc, pc_arm64_llsc_cas)

/* ---- add_return -------------------------------------------------------- */

#define ARM64_RUN_ADD_RETURN(fn, seq)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long r = st->reg[0], u = 0;				\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", seq, "",				\
		 (, [r] "+r"(r), [u] "+r"(u), [m] "+Q"(st->mem[0])), \
		 ([i] "r"(st->reg[1])));				\
	(void)u;							\
	st->reg[0] = r;							\
	return t;							\
}

ARM64_RUN_ADD_RETURN(run_add_return_lse, ARM64_LSE_ADD_RETURN_MB)
ARM64_RUN_ADD_RETURN(run_add_return_llsc, ARM64_LLSC_ADD_RETURN_MB)
/* atomic_t is an int: the 32-bit forms (the counter is the low half of
 * mem[0]; the checks' sums never carry out of it). */
ARM64_RUN_ADD_RETURN(run_add_return32_lse, ARM64_LSE_ADD_RETURN_MB_("w"))
ARM64_RUN_ADD_RETURN(run_add_return32_llsc, ARM64_LLSC_ADD_RETURN_MB_("w"))

/* ---- x = xchg(&v, x): register and memory swap every operation ---------- */

#define ARM64_RUN_XCHG(fn, seq)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long r = st->reg[0], old, u = 0;			\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", seq, "",				\
		 (, [r] "+r"(r), [t] "=&r"(old), [u] "+r"(u),		\
		  [m] "+Q"(st->mem[0])), ());				\
	(void)old;							\
	(void)u;							\
	st->reg[0] = r;							\
	return t;							\
}

ARM64_RUN_XCHG(run_xchg_lse, ARM64_LSE_XCHG_MB)
ARM64_RUN_XCHG(run_xchg_llsc, ARM64_LLSC_XCHG_MB)

/* ---- barriers (arch/arm64/include/asm/barrier.h) ------------------------ */

#define ARM64_RUN_BARE(fn, insn)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", insn, "",				\
		 (, [m] "+Q"(st->mem[0])), ());				\
	return t;							\
}

ARM64_RUN_BARE(run_mb, "dsb sy")
ARM64_RUN_BARE(run_rmb, "dsb ld")
ARM64_RUN_BARE(run_wmb, "dsb st")
ARM64_RUN_BARE(run_smp_mb, "dmb ish")
ARM64_RUN_BARE(run_smp_rmb, "dmb ishld")
ARM64_RUN_BARE(run_smp_wmb, "dmb ishst")

/*
 * ---- flags: PSTATE.NZCV, the user-mode analog -----------------------------
 * local_save_flags() reads DAIF, which EL0 may not touch (SCTLR_EL1.UMA is
 * clear under Linux: mrs daif traps). What EL0 can move between a register
 * and PSTATE is the NZCV condition flags, through the same mrs/msr
 * system-register path: these rows time that.
 */
#define ARM64_NZCV_A 0xa0000000UL	/* N and C */
#define ARM64_NZCV_B 0x50000000UL	/* Z and V: the complement */

static void init_flags(struct pc_probe_state *st)
{
	st->reg[0] = ARM64_NZCV_A;	/* flags set, then read; or written */
	st->reg[1] = 0;			/* flags read back after the loop */
	st->reg[2] = ARM64_NZCV_B;	/* flags before flags_restore's loop */
}

static uint64_t run_flags_save(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long f = 0;
	uint64_t t;

	PC_TIMED(t, iters, hi, "msr nzcv, %x[k]\n\t", "mrs %x[f], nzcv", "",
		 (, [f] "+r"(f)), ([k] "r"(st->reg[0])));
	st->reg[0] = f;
	return t;
}

static PC_CHECK(check_flags_save,
	PC_FAIL((after->reg[0] & ARM64_NZCV_MASK) != ARM64_NZCV_A,
		"the value read is not the NZCV set before the loop"))

/* NZCV starts at the complement of the value written: a write that does not
 * happen shows in the read-back. */
PC_RUN_READBACK(run_flags_restore, "msr nzcv, %x[k]\n\t", "msr nzcv, %x[f]",
		"mrs %x[g], nzcv", ([f] "r"(st->reg[0]), [k] "r"(st->reg[2])))

static uint64_t run_flags_save_restore(struct pc_probe_state *st,
				       uint64_t iters, int hi)
{
	unsigned long g = st->reg[1], f = 0;
	uint64_t t;

	PC_TIMED(t, iters, hi, "msr nzcv, %x[k]\n\t",
		 "mrs %x[f], nzcv\n\tmsr nzcv, %x[f]", "mrs %x[g], nzcv",
		 (, [g] "+r"(g), [f] "+r"(f)), ([k] "r"(st->reg[0])));
	st->reg[1] = g;
	return t;
}

static PC_CHECK(check_flags_kept,
	PC_FAIL((after->reg[1] & ARM64_NZCV_MASK) != before->reg[0],
		"NZCV after the loop is not the value written"))

/* ---- preempt_disable(); preempt_enable() --------------------------------- */

/*
 * thread_info's 64-bit preempt_count: the count in the low half, the
 * inverted NEED_RESCHED flag (1: no reschedule needed) in the high half, so
 * that the whole word is zero only when a reschedule is due. In the kernel
 * the word is found through sp_el0 (current); here it is plain memory.
 */
#define ARM64_PREEMPT_ENABLED (1UL << 32)

PC_INIT_PREEMPT(init_preempt, ARM64_PREEMPT_ENABLED)

/*
 * __preempt_count_add(1): 32-bit read, add, write of the count.
 * __preempt_count_dec_and_test(): 64-bit read, decrement, 32-bit write of
 * the count, branch if the word was zero, else re-read the word (an
 * interrupt may have set NEED_RESCHED in between) and branch if zero.
 */
static uint64_t run_preempt(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long taken = st->reg[0], c;
	uint64_t t;

	PC_TIMED(t, iters, hi, "",
		 "ldr %w[c], %[m]\n\tadd %w[c], %w[c], #1\n\tstr %w[c], %[m]\n\t"
		 "ldr %x[c], %[m]\n\tsub %x[c], %x[c], #1\n\tstr %w[c], %[m]\n\t"
		 "cbz %x[c], 9f\n\tldr %x[c], %[m]\n\tcbz %x[c], 9f",
		 "b 8f\n9:\n\tmov %x[taken], #1\n8:\n\t",
		 (, [m] "+Q"(st->mem[0]), [taken] "+r"(taken), [c] "=&r"(c)), ());
	st->reg[0] = taken;
	return t;
}


/* ---- per-CPU operations: this_cpu_*() ------------------------------------ */

/*
 * arm64's this_cpu ops (arch/arm64/include/asm/percpu.h, _pcp_protect and
 * _pcp_protect_return) are the operation between preempt_disable_notrace()
 * and preempt_enable_notrace(), on raw_cpu_ptr(&v): the variable's
 * address plus this CPU's offset, read from tpidr_el1 (tpidr_el2 under
 * VHE). EL0 reads its own thread register, tpidr_el0, with the same mrs:
 * the body adds to it the variable's offset from it. The count is that of
 * preempt_disable_enable, at mem[PC_PERCPU_COUNT]; the address of the
 * variable (adrp; add in the kernel) and of current (mrs sp_el0) stay in
 * registers, as a compiler keeps them across a loop.
 */
#define ARM64_PREEMPT_OFF						\
	"ldr %w[c], %[pc]\n\tadd %w[c], %w[c], #1\n\tstr %w[c], %[pc]\n\t"
#define ARM64_CPU_PTR							\
	"mrs %x[p], tpidr_el0\n\tadd %x[p], %x[p], %x[off]\n\t"
#define ARM64_PREEMPT_ON						\
	"\n\tldr %x[c], %[pc]\n\tsub %x[c], %x[c], #1\n\tstr %w[c], %[pc]\n\t" \
	"cbz %x[c], 9f\n\tldr %x[c], %[pc]\n\tcbz %x[c], 9f"
#define ARM64_PREEMPT_TAKEN "b 8f\n9:\n\tmov %x[taken], #1\n8:\n\t"

/* The variable's offset from this thread's tpidr_el0. */
static unsigned long arm64_tls_off(const void *p)
{
	unsigned long base;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(base));
	return (unsigned long)p - base;
}

PC_INIT_PERCPU(init_this_cpu_add_arm64, init_this_cpu_add, ARM64_PREEMPT_ENABLED)
PC_INIT_PERCPU(init_this_cpu_cmpxchg, init_cmpxchg, ARM64_PREEMPT_ENABLED)
PC_INIT_PERCPU(init_this_cpu_cmpxchg_double, init_cmpxchg_double,
	       ARM64_PREEMPT_ENABLED)

/*
 * One operation between the preempt halves; op_ uses %[p] (the variable's
 * address), %[t] and %[u] (scratch), and the operands of ins_. The timed
 * loop's state out: the reschedule branch taken into mem[PC_PERCPU_TAKEN].
 */
#define ARM64_RUN_THIS_CPU(fn, op_, outs_, ins_)			\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long taken = 0, c, p, t, u,				\
		      off = arm64_tls_off(&st->mem[0]);			\
	uint64_t t_;							\
									\
	PC_TIMED(t_, iters, hi, "",					\
		 ARM64_PREEMPT_OFF ARM64_CPU_PTR op_ ARM64_PREEMPT_ON,	\
		 ARM64_PREEMPT_TAKEN,					\
		 (, [pc] "+Q"(st->mem[PC_PERCPU_COUNT]), [taken] "+r"(taken), \
		  [c] "=&r"(c), [p] "=&r"(p), [t] "=&r"(t), [u] "=&r"(u) \
		  PC_UNPAREN outs_),					\
		 ([off] "r"(off) PC_UNPAREN ins_));			\
	(void)t;							\
	(void)u;							\
	st->mem[PC_PERCPU_TAKEN] = taken;				\
	return t_;							\
}

/* this_cpu_add(): __percpu_add_case_64, an alternative whose LSE side is
 * stadd and __nops(3), as long as the LL/SC side (Linux 5.1 on; before,
 * the LL/SC loop on every CPU). */
ARM64_RUN_THIS_CPU(run_this_cpu_add_lse,
	ARM64_LSE "stadd %x[i], [%x[p]]\n\tnop\n\tnop\n\tnop", (),
	(, [i] "r"(st->reg[1])))
ARM64_RUN_THIS_CPU(run_this_cpu_add_llsc,
	"1:\tldxr %x[t], [%x[p]]\n\tadd %x[t], %x[t], %x[i]\n\t"
	"stxr %w[u], %x[t], [%x[p]]\n\tcbnz %w[u], 1b", (),
	(, [i] "r"(st->reg[1])))

/* this_cpu_cmpxchg(): cmpxchg_relaxed(), which system_uses_lse_atomics()
 * chooses as for cmpxchg_local (ARM64_LSE_SELECT, ARM64_LLSC_SELECT); %[o]
 * the expected value in, the value found out (in %[t] for LL/SC). */
#define ARM64_RUN_THIS_CPU_CAS(fn, op_)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long taken = 0, c, p, t, u, o = st->reg[0],		\
		      off = arm64_tls_off(&st->mem[0]);			\
	uint64_t t_;							\
									\
	PC_TIMED(t_, iters, hi, "",					\
		 ARM64_PREEMPT_OFF ARM64_CPU_PTR op_ ARM64_PREEMPT_ON,	\
		 ARM64_PREEMPT_TAKEN,					\
		 (, [pc] "+Q"(st->mem[PC_PERCPU_COUNT]), [taken] "+r"(taken), \
		  [c] "=&r"(c), [p] "=&r"(p), [t] "=&r"(t), [u] "=&r"(u), \
		  [o] "+r"(o)),						\
		 ([off] "r"(off), [d] "r"(st->reg[1])));		\
	(void)u;							\
	st->reg[0] = ARM64_CAS_FOUND;					\
	st->mem[PC_PERCPU_TAKEN] = taken;				\
	return t_;							\
}

#define ARM64_CAS_FOUND o
ARM64_RUN_THIS_CPU_CAS(run_this_cpu_cmpxchg_lse,
	ARM64_LSE_SELECT ARM64_LSE "cas %x[o], %x[d], [%x[p]]")
#undef ARM64_CAS_FOUND
#define ARM64_CAS_FOUND t
ARM64_RUN_THIS_CPU_CAS(run_this_cpu_cmpxchg_llsc,
	ARM64_LLSC_SELECT "prfm pstl1strm, [%x[p]]\n"
	"1:\tldxr %x[t], [%x[p]]\n\teor %x[u], %x[t], %x[o]\n\t"
	"cbnz %x[u], 2f\n\tstxr %w[u], %x[d], [%x[p]]\n\tcbnz %w[u], 1b\n2:")
#undef ARM64_CAS_FOUND

/*
 * The double word: this_cpu_try_cmpxchg128() (6.5 on) is
 * cmpxchg128_local() between the preempt halves: __cmpxchg128, chosen by
 * system_uses_lse_atomics(), casp on the register pairs x0:x1 (expected,
 * found) and x2:x3 (new), or an ldxp/stxp loop. try_cmpxchg's compare of
 * the two halves found is the compiler's, after the row.
 */
#define ARM64_RUN_THIS_CPU_DOUBLE(fn, op_, lo_, hi_)				\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	register unsigned long x0 __asm__("x0") = st->reg[0];		\
	register unsigned long x1 __asm__("x1") = st->reg[1];		\
	register unsigned long x2 __asm__("x2") = st->reg[2];		\
	register unsigned long x3 __asm__("x3") = st->reg[3];		\
	unsigned long taken = 0, c, p, u, rl, rh,			\
		      off = arm64_tls_off(&st->mem[0]);			\
	uint64_t t_;							\
									\
	PC_TIMED(t_, iters, hi, "",					\
		 ARM64_PREEMPT_OFF ARM64_CPU_PTR op_ ARM64_PREEMPT_ON,	\
		 ARM64_PREEMPT_TAKEN,					\
		 (, [pc] "+Q"(st->mem[PC_PERCPU_COUNT]), [taken] "+r"(taken), \
		  [c] "=&r"(c), [p] "=&r"(p), [u] "=&r"(u),		\
		  [rl] "=&r"(rl), [rh] "=&r"(rh),			\
		  [ol] "+r"(x0), [oh] "+r"(x1)),			\
		 ([off] "r"(off), [nl] "r"(x2), [nh] "r"(x3)));		\
	(void)u;							\
	(void)rl;							\
	(void)rh;							\
	st->reg[0] = (lo_);	/* the pair found */			\
	st->reg[1] = (hi_);						\
	st->mem[PC_PERCPU_TAKEN] = taken;				\
	return t_;							\
}

ARM64_RUN_THIS_CPU_DOUBLE(run_this_cpu_cmpxchg_double_lse,
	ARM64_LSE_SELECT ARM64_LSE_CASP("", "[%x[p]]"), x0, x1)
ARM64_RUN_THIS_CPU_DOUBLE(run_this_cpu_cmpxchg_double_llsc,
	ARM64_LLSC_SELECT ARM64_LLSC_CASP("stxp", "", "[%x[p]]"), rl, rh)

/* ---- cmpxchg128(): the fully ordered 16-byte compare-and-swap ---------- */

/* __cmpxchg128_mb: caspal, or the LL/SC loop with stlxp and dmb ish. */
#define ARM64_RUN_CMPXCHG128(fn, seq, lo_, hi_)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	register unsigned long x0 __asm__("x0") = st->reg[0];		\
	register unsigned long x1 __asm__("x1") = st->reg[1];		\
	register unsigned long x2 __asm__("x2") = st->reg[2];		\
	register unsigned long x3 __asm__("x3") = st->reg[3];		\
	unsigned long u, rl, rh;					\
	uint64_t t_;							\
									\
	PC_TIMED(t_, iters, hi, "", seq, "",				\
		 (, [m] "+Q"(ARM64_DOUBLE(st->mem)), [u] "=&r"(u),	\
		  [rl] "=&r"(rl), [rh] "=&r"(rh),			\
		  [ol] "+r"(x0), [oh] "+r"(x1)),			\
		 ([nl] "r"(x2), [nh] "r"(x3)));				\
	(void)u;							\
	(void)rl;							\
	(void)rh;							\
	st->reg[0] = (lo_);	/* the pair found */			\
	st->reg[1] = (hi_);						\
	return t_;							\
}

ARM64_RUN_CMPXCHG128(run_cmpxchg128_lse, ARM64_LSE_SELECT ARM64_LSE_CASP_MB,
		     x0, x1)
ARM64_RUN_CMPXCHG128(run_cmpxchg128_llsc, ARM64_LLSC_SELECT ARM64_LLSC_CASP_MB,
		     rl, rh)

PC_SEMANTICS_CMPXCHG_DOUBLE(semantics_cmpxchg128_lse, pc_arm64_lse_casp_mb)
PC_SEMANTICS_CMPXCHG_DOUBLE(semantics_cmpxchg128_llsc, pc_arm64_llsc_casp_mb)
/* The per-CPU rows' instructions, unordered (the bodies address the pair
 * through tpidr_el0; the checks prove that address by the pair found). */
PC_SEMANTICS_CMPXCHG_DOUBLE(semantics_casp, pc_arm64_lse_casp)
PC_SEMANTICS_CMPXCHG_DOUBLE(semantics_ldxp_stxp, pc_arm64_llsc_casp)

/* ---- the table ---------------------------------------------------------- */

#define ARM64_IRQ_EL1 { .unsupported = "needs EL1 (msr daifset/daifclr and " \
		"DAIF writes trap at EL0) and this build has no arm64 ring-0 backend" }

#define LLSC_CAS_MB_SEQ "b 3f; 3: prfm pstl1strm, (v); 1: ldxr %t, (v); eor %u, %t, %old; " \
		"cbnz %u, 2f; stlxr %w, %new, (v); cbnz %w, 1b; dmb ish; 2:"
#define LLSC_CAS_SEQ "b 3f; 3: prfm pstl1strm, (v); 1: ldxr %t, (v); eor %u, %t, %old; " \
		"cbnz %u, 2f; stxr %w, %new, (v); cbnz %w, 1b; 2:"
#define LLSC_ADD_RETURN_SEQ "b 3f; 3: prfm pstl1strm, (v); 1: ldxr %r, (v); " \
		"add %r, %r, %i; stlxr %w, %r, (v); cbnz %w, 1b; dmb ish"
#define LLSC_ADD_RETURN32_SEQ "b 3f; 3: prfm pstl1strm, (v); 1: ldxr %wr, (v); " \
		"add %wr, %wr, %wi; stlxr %w, %wr, (v); cbnz %w, 1b; dmb ish"
#define LLSC_XCHG_SEQ "prfm pstl1strm, (v); 1: ldxr %t, (v); stlxr %w, %x, (v); " \
		"cbnz %w, 1b; dmb ish; mov %x, %t"

#define PREEMPT_OFF_SEQ "ldr %w, (pc); add %w, %w, #1; str %w, (pc); "
#define CPU_PTR_SEQ "mrs %p, tpidr_el0; add %p, %p, %off; "
#define PREEMPT_ON_SEQ "ldr %x, (pc); sub %x, %x, #1; str %w, (pc); " \
		"cbz %x, <resched>; ldr %x, (pc); cbz %x, <resched>"
/* The LSE cas of Linux 6.4 on; before, through a scratch register. */
#define LSE_ERA "Linux 6.4 on; 5.x-6.3: mov %t, %old; cas %t, %new, (p); mov %old, %t"
#define LSE_ERA_V "Linux 6.4 on; 5.x-6.3: mov %t, %old; cas %t, %new, (v); mov %old, %t"
#define LLSC_CAS_SEQ_P "prfm pstl1strm, (p); 1: ldxr %t, (p); eor %u, %t, %old; " \
		"cbnz %u, 2f; stxr %w, %new, (p); cbnz %w, 1b; 2:"
#define LLSC_CASP_SEQ(st_, mb_, a_) "prfm pstl1strm, " a_ "; 1: ldxp %rl, " \
		"%rh, " a_ "; cmp %rl, %ol; ccmp %rh, %oh, #0, eq; b.ne 2f; " st_ \
		" %w, %nl, %nh, " a_ "; cbnz %w, 1b;" mb_ " 2:"

const struct pc_arch_probe pc_arch_probes[PC_PROBE_COUNT] = {
	PC_ROWS_BASELINE_CHAINS("add %x, %x, #1", "mul %x, %x, %k"),
	[PC_PROBE_calib_add_throughput] = PC_ROW(run_add_throughput, 0,
		check_add_throughput, 0, "add %a, %a, #1; add %b, %b, #1; add %c, %c, #1; add %d, %d, #1"),
	[PC_PROBE_get_cycles] = PC_ROW_ALT(run_get_cycles_ecv, init_get_cycles,
		check_timer_advanced, 0, "nop; mrs %c, cntvctss_el0; eor %u, %c, %c; "
		"add %u, sp, %u; ldr xzr, [%u]   [FEAT_ECV, Linux 5.16 on; the "
		"read arch_timer_read_counter points at, without the indirect call]",
		need_ecv, &get_cycles_isb),
	[PC_PROBE_cmpxchg] = PC_ROW_ALT(run_cmpxchg_lse, init_cmpxchg, check_cmpxchg,
		semantics_cmpxchg_lse, "nop; casal %old, %new, (v)   [LSE; succeeds; " LSE_ERA_V "]",
		need_lse, &pc_arch_probes[PC_PROBE_cmpxchg_llsc]),
	[PC_PROBE_cmpxchg_local] = PC_ROW_ALT(run_cmpxchg_local_lse, init_cmpxchg,
		check_cmpxchg, semantics_cmpxchg_local_lse,
		"nop; cas %old, %new, (v)   [LSE, no ordering; succeeds; "
		LSE_ERA_V "]",
		need_lse, &pc_arch_probes[PC_PROBE_cmpxchg_local_llsc]),
	[PC_PROBE_cmpxchg64] = { .unsupported = "a 64-bit machine has no "
		"separate 64-bit compare-and-swap: cmpxchg64() is the cmpxchg row" },
	[PC_PROBE_cmpxchg_llsc] = PC_ROW(run_cmpxchg_llsc, init_cmpxchg, check_cmpxchg,
		semantics_cmpxchg_llsc, LLSC_CAS_MB_SEQ),
	[PC_PROBE_cmpxchg_local_llsc] = PC_ROW(run_cmpxchg_local_llsc, init_cmpxchg,
		check_cmpxchg, semantics_cmpxchg_local_llsc, LLSC_CAS_SEQ),
	[PC_PROBE_atomic_add_return] = PC_ROW_ALT(run_add_return32_lse, init_add_return,
		check_add_return, 0, "nop; ldaddal %wi, %wr, (v); add %wr, %wr, %wi   "
		"[LSE; atomic_t: 32-bit]",
		need_lse, &pc_arch_probes[PC_PROBE_atomic_add_return_llsc]),
	/* arm64 has no asm/local.h: asm-generic's local_add_return() is
	 * atomic_long_add_return(), fully ordered, on 64 bits. */
	[PC_PROBE_local_add_return] = PC_ROW_ALT(run_add_return_lse, init_add_return,
		check_add_return, 0, "nop; ldaddal %i, %r, (v); add %r, %r, %i   "
		"[LSE; = atomic_long_add_return: 64-bit]",
		need_lse, &pc_arch_probes[PC_PROBE_local_add_return_llsc]),
	[PC_PROBE_atomic_add_return_llsc] = PC_ROW(run_add_return32_llsc, init_add_return,
		check_add_return, 0, LLSC_ADD_RETURN32_SEQ "   [atomic_t: 32-bit]"),
	[PC_PROBE_local_add_return_llsc] = PC_ROW(run_add_return_llsc, init_add_return,
		check_add_return, 0, LLSC_ADD_RETURN_SEQ
		"   [= atomic_long_add_return: 64-bit]"),
	[PC_PROBE_xchg] = PC_ROW_ALT(run_xchg_lse, init_xchg, check_xchg, 0,
		"swpal %x, %t, (v); nop; nop; nop; nop; mov %x, %t   [LSE, Linux "
		"4.3 on; the nops pad it to the LL/SC form's 5 instructions]",
		need_lse, &pc_arch_probes[PC_PROBE_xchg_llsc]),
	[PC_PROBE_xchg_llsc] = PC_ROW(run_xchg_llsc, init_xchg, check_xchg, 0,
		LLSC_XCHG_SEQ),
	/* The fetchadd rows are ia64's older form of add_return. */
	PC_ROWS_FETCHADD({ .unsupported = "the fetchadd form is ia64's: arm64 "
		"runs ldaddal (or its LL/SC loop) for every increment" }),
	[PC_PROBE_mb] = PC_ROW(run_mb, 0, check_unchanged, 0, "dsb sy"),
	[PC_PROBE_rmb] = PC_ROW(run_rmb, 0, check_unchanged, 0, "dsb ld"),
	[PC_PROBE_wmb] = PC_ROW(run_wmb, 0, check_unchanged, 0, "dsb st"),
	[PC_PROBE_smp_mb] = PC_ROW(run_smp_mb, 0, check_unchanged, 0, "dmb ish"),
	[PC_PROBE_smp_rmb] = PC_ROW(run_smp_rmb, 0, check_unchanged, 0, "dmb ishld"),
	[PC_PROBE_smp_wmb] = PC_ROW(run_smp_wmb, 0, check_unchanged, 0, "dmb ishst"),
	PC_ROWS_FLAGS(check_flags_save, check_flags_kept,
		"mrs %f, nzcv   [DAIF is EL1-only; NZCV is the PSTATE field EL0 reads]",
		"msr nzcv, %f", "mrs %f, nzcv; msr nzcv, %f"),
	[PC_PROBE_preempt_disable_enable] = PC_ROW(run_preempt, init_preempt,
		check_preempt, 0, "ldr %w, (pc); add %w, %w, #1; str %w, (pc); "
		"ldr %x, (pc); sub %x, %x, #1; str %w, (pc); cbz %x, <resched>; "
		"ldr %x, (pc); cbz %x, <resched>"),
	[PC_PROBE_this_cpu_add] = PC_ROW_ALT(run_this_cpu_add_lse,
		init_this_cpu_add_arm64, check_this_cpu_add, 0,
		PREEMPT_OFF_SEQ CPU_PTR_SEQ "stadd %i, (p); nop; nop; nop; "
		PREEMPT_ON_SEQ "   [LSE, Linux 5.1 on]",
		need_lse, &pc_arch_probes[PC_PROBE_this_cpu_add_llsc]),
	[PC_PROBE_this_cpu_add_llsc] = PC_ROW(run_this_cpu_add_llsc,
		init_this_cpu_add_arm64, check_this_cpu_add, 0,
		PREEMPT_OFF_SEQ CPU_PTR_SEQ "1: ldxr %t, (p); add %t, %t, %i; "
		"stxr %w, %t, (p); cbnz %w, 1b; " PREEMPT_ON_SEQ),
	[PC_PROBE_this_cpu_cmpxchg] = PC_ROW_ALT(run_this_cpu_cmpxchg_lse,
		init_this_cpu_cmpxchg, check_this_cpu_cmpxchg,
		semantics_cmpxchg_local_lse, PREEMPT_OFF_SEQ CPU_PTR_SEQ
		"nop; cas %old, %new, (p); " PREEMPT_ON_SEQ "   [LSE; " LSE_ERA "]",
		need_lse, &pc_arch_probes[PC_PROBE_this_cpu_cmpxchg_llsc]),
	[PC_PROBE_this_cpu_cmpxchg_llsc] = PC_ROW(run_this_cpu_cmpxchg_llsc,
		init_this_cpu_cmpxchg, check_this_cpu_cmpxchg,
		semantics_cmpxchg_local_llsc, PREEMPT_OFF_SEQ CPU_PTR_SEQ
		"b 3f; 3: " LLSC_CAS_SEQ_P "; " PREEMPT_ON_SEQ),
	[PC_PROBE_this_cpu_cmpxchg_double] = PC_ROW_ALT(
		run_this_cpu_cmpxchg_double_lse, init_this_cpu_cmpxchg_double,
		check_cmpxchg_double, semantics_casp, PREEMPT_OFF_SEQ CPU_PTR_SEQ
		"nop; casp %ol, %oh, %nl, %nh, (p); " PREEMPT_ON_SEQ
		"   [LSE, Linux 6.5 on; before, casp then eor; eor; orr]",
		need_lse, &pc_arch_probes[PC_PROBE_this_cpu_cmpxchg_double_llsc]),
	[PC_PROBE_this_cpu_cmpxchg_double_llsc] = PC_ROW(
		run_this_cpu_cmpxchg_double_llsc, init_this_cpu_cmpxchg_double,
		check_cmpxchg_double, semantics_ldxp_stxp,
		PREEMPT_OFF_SEQ CPU_PTR_SEQ "b 3f; 3: " LLSC_CASP_SEQ("stxp", "", "(p)")
		"; " PREEMPT_ON_SEQ),
	[PC_PROBE_cmpxchg128] = PC_ROW_ALT(run_cmpxchg128_lse,
		init_cmpxchg_double, check_cmpxchg_double, semantics_cmpxchg128_lse,
		"nop; caspal %ol, %oh, %nl, %nh, (v)   [LSE; Linux 6.5 on; "
		"before, cmpxchg_double(): caspal then eor; eor; orr]",
		need_lse, &pc_arch_probes[PC_PROBE_cmpxchg128_llsc]),
	[PC_PROBE_cmpxchg128_llsc] = PC_ROW(run_cmpxchg128_llsc,
		init_cmpxchg_double, check_cmpxchg_double,
		semantics_cmpxchg128_llsc,
		"b 3f; 3: " LLSC_CASP_SEQ("stlxp", " dmb ish;", "(v)")),
	[PC_PROBE_local_irq_disable] = ARM64_IRQ_EL1,
	[PC_PROBE_local_irq_enable] = ARM64_IRQ_EL1,
	[PC_PROBE_local_irq_save] = ARM64_IRQ_EL1,
	[PC_PROBE_local_irq_restore] = ARM64_IRQ_EL1,
	[PC_PROBE_local_irq_save_restore] = ARM64_IRQ_EL1,
	[PC_PROBE_local_irq_disable_enable] = ARM64_IRQ_EL1,
	[PC_PROBE_local_irq_restore_popf] = { .unsupported = "the popf form is "
		"x86's: arm64 restores the interrupt mask with msr daif" },
	[PC_PROBE_local_irq_save_restore_popf] = { .unsupported = "the popf form "
		"is x86's: arm64 restores the interrupt mask with msr daif" },
};

const char pc_arch_timer_name[] = "cntvct_el0";

/* The generic timer states its rate in cntfrq_el0 (firmware sets it). */
uint64_t pc_arch_timer_hz(void)
{
	uint64_t hz;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	return hz & 0xffffffffUL;
}
