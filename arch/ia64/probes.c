/* SPDX-License-Identifier: MIT */
/*
 * ia64 probe bodies: one function per row of probes/probes.def, each the
 * instruction sequence Linux/ia64 used for that API
 * (arch/ia64/include/{uapi/asm/gcc_intrin.h, asm/cmpxchg.h, asm/atomic.h,
 * asm/barrier.h, asm/irqflags.h, asm/timex.h}; asm-generic/{local.h,
 * preempt.h}). Each body ends with the stop (;;) the next repetition
 * needs; the assembler bundles the instructions.
 *
 * Freestanding: no libc, no globals but the const table at the end. The
 * checks and the initial states that need no instruction are plain C:
 * arch/checks.h where every machine agrees, checks.c where ia64 differs.
 */
#include "arch/arch.h"
#include "arch/checks.h"
#include "checks.h"
#include "ia64.h"

/* ---- baseline and calibration -------------------------------------------- */

PC_RUN_NO_OPERAND(run_baseline, "")

/* Each add reads the previous one's result: one group per add. */
PC_RUN_REG(run_add_chain, "", "adds %[r]=1,%[r]\n\t;;", "", ())

/* ia64 multiplies integers in the floating-point unit: xmpy.l on the
 * significands (setf.sig/getf.sig move them in and out, once). */
PC_RUN_REG(run_mul_chain, "setf.sig f6=%[r]\n\tsetf.sig f7=%[k]\n\t;;\n",
	   "xmpy.l f6=f6,f7\n\t;;", "getf.sig %[r]=f6\n\t;;\n\t",
	   ([k] "r"(st->reg[1])))

/* ---- timer ------------------------------------------------------------------- */

static void init_get_cycles(struct pc_probe_state *st)
{
	st->reg[0] = pc_timer_read();
}

/* get_cycles() is a bare mov from ar.itc (asm/timex.h). */
PC_RUN_REG(run_get_cycles, "", "mov %[r]=ar.itc\n\t;;", "", ())

/* ---- cmpxchg: mov ar.ccv=old;; cmpxchg8.acq ------------------------------------- */

PC_RUN_REG(run_cmpxchg, "", PC_IA64_CMPXCHG, "",
	   ([p] "r"(&st->mem[0]), [o] "r"(st->reg[0]), [nv] "r"(st->reg[1])))

PC_SEMANTICS_CMPXCHG(semantics_cmpxchg, pc_ia64_cmpxchg)

/* ---- add_return: two widths, two forms ------------------------------------------ */

/*
 * atomic_add_return(i, v) is on atomic_t, an int: ia64_atomic_add(), the
 * ld4.acq + cmpxchg4.acq loop, or fetchadd4.rel. local_add_return() is
 * asm-generic/local.h's atomic_long_add_return(), on atomic64_t: the
 * ld8.acq + cmpxchg8.acq loop, or fetchadd8.rel. The kernel's macro picks
 * ia64_fetch_and_add() (fetchadd, then + i) when its test says i is a
 * constant fetchadd encodes (+-1, 4, 8, 16), else the loop.
 *
 * What the test sees changed (arch/ia64/include/asm/atomic.h):
 * - 2.6 to 4.x: __builtin_constant_p(i) in the expression, so a constant
 *   that reaches the macro through an inline function counts: that is how
 *   local_add_return(1, l) took fetchadd8 through atomic_long_add_return().
 * - then (a 32-bit atomic_add_return() test before 4.19, both widths'
 *   __ia64_atomic_const() in 5.x): a `static const` initialised from
 *   __builtin_constant_p(i), true only for a literal at the macro. The
 *   inline atomic_long_add_return() passes i as a parameter: the loop.
 * - 5.14 to 6.6: atomic_add_return(i, v) is the instrumented wrapper whose
 *   i is a parameter: the loop. atomic_inc_return() and atomic_dec_return()
 *   still reach arch_atomic_add_return() with a literal 1: fetchadd4.
 * GCC 12 compiling the kernel's C for each case gives these bodies.
 *
 * atomic_add_return, local_add_return: the loops (also what every kernel
 *   ran for increments fetchadd cannot encode, such as the 10 of the 2007
 *   measurements).
 * *.fetchadd: the fetchadds.
 */
_Static_assert(PC_IA64_ADD_INC == 1, "init_add_return() starts the increment at 1");

#define IA64_RUN_ADD_RETURN(fn, loop)					\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long r = st->reg[0], o = 0, t = 0, c = 0;		\
	uint64_t tk;							\
									\
	PC_TIMED(tk, iters, hi, "", loop, "",				\
		 (, [r] "+r"(r), [o] "+r"(o), [t] "+r"(t), [c] "+r"(c)),	\
		 ([p] "r"(&st->mem[0]), [i] "i"(PC_IA64_ADD_INC)));	\
	st->reg[0] = r;							\
	return tk;							\
}

IA64_RUN_ADD_RETURN(run_add_return4, PC_IA64_ADD_LOOP4)
IA64_RUN_ADD_RETURN(run_add_return8, PC_IA64_ADD_LOOP8)

/* mem[0] is the counter; the 4-byte forms use its low half (little
 * endian), which init_add_return() starts at 1000 with the high half 0. */
#define IA64_FETCHADD(w)						\
	"fetchadd" #w ".rel %[r]=[%[p]],%[i]\n\t;;\n\tadds %[r]=%[i],%[r]\n\t;;"

PC_RUN_REG(run_fetchadd4, "", IA64_FETCHADD(4), "",
	   ([p] "r"(&st->mem[0]), [i] "i"(PC_IA64_ADD_INC)))
PC_RUN_REG(run_fetchadd8, "", IA64_FETCHADD(8), "",
	   ([p] "r"(&st->mem[0]), [i] "i"(PC_IA64_ADD_INC)))

/* The increments of the semantic checks: every one fetchadd encodes, then
 * two it does not. */
static const long add_incs[] = { 1, 4, 8, 16, -1, -4, -8, -16, 3, 1000 };

/* One add of i on the width's counter, by fetchadd where asked and
 * encodable (as the kernel's macro), else by the loop. */
static unsigned long add_once(struct pc_probe_state *s, int wide, int fetchadd,
			      long i)
{
	unsigned int *v4 = (unsigned int *)&s->mem[0];

	if (fetchadd && PC_IA64_FETCHADD_OK(i))
		return wide ? pc_ia64_fetch_and_add8(i, &s->mem[0]) :
			      pc_ia64_fetch_and_add4(i, v4);
	return wide ? pc_ia64_add_loop8(i, &s->mem[0]) : pc_ia64_add_loop4(i, v4);
}

/* The guard in the high half of the counter's word: a 4-byte add must leave
 * it as it was, an 8-byte add carries into it. */
#define IA64_ADD_GUARD 0x5a5a5a5aUL

/*
 * The values returned and left must be those of an atomic add on the
 * kernel type's width: every increment ten times from 500 (the guard
 * above it), then a carry
 * out of the low 32 bits (0xfffffff8 + 8), which atomic_t wraps to 0 with
 * the high half untouched and atomic64_t carries into it.
 */
static const char *check_add_semantics(struct pc_probe_state *s, int wide,
				       int fetchadd)
{
	unsigned long mask = wide ? ~0UL : 0xffffffffUL, high = IA64_ADD_GUARD << 32;
	unsigned long want = (high | 500) & mask, got;
	unsigned int k, n;

	s->mem[0] = high | 500;
	for (k = 0; k < sizeof(add_incs) / sizeof(add_incs[0]); k++) {
		for (n = 0; n < 10; n++) {
			long i = add_incs[k];

			got = add_once(s, wide, fetchadd, i);
			want = (want + (unsigned long)i) & mask;
			if ((got & mask) != want)
				return "add_return did not return the new value";
			if ((s->mem[0] & mask) != want)
				return "add_return did not leave old + i in memory";
			if (!wide && (s->mem[0] & ~mask) != high)
				return "atomic_add_return wrote past its 4 bytes";
		}
	}
	s->mem[0] = high | 0xfffffff8UL;
	got = add_once(s, wide, fetchadd, 8);
	want = wide ? high + 0x100000000UL : high;
	if (s->mem[0] != want || (got & mask) != (want & mask))
		return wide ? "local_add_return did not carry into the high 32 bits" :
			      "atomic_add_return did not wrap in its 4 bytes";
	return 0;
}

static const char *semantics_add_return4(struct pc_probe_state *s)
{
	return check_add_semantics(s, 0, 0);
}

static const char *semantics_add_return8(struct pc_probe_state *s)
{
	return check_add_semantics(s, 1, 0);
}

static const char *semantics_fetchadd4(struct pc_probe_state *s)
{
	return check_add_semantics(s, 0, 1);
}

static const char *semantics_fetchadd8(struct pc_probe_state *s)
{
	return check_add_semantics(s, 1, 1);
}

/* ---- xchg8 ------------------------------------------------------------------------- */

/* xchg() is xchg8: always acquire semantics, no ar.ccv. The same register
 * is source and destination, so consecutive exchanges need a stop. */
PC_RUN_REG(run_xchg, "", "xchg8 %[r]=[%[p]],%[r]\n\t;;", "", ([p] "r"(&st->mem[0])))

/* ---- barriers: all six are mf on ia64 (asm/barrier.h, SMP) ---------------------- */

/* ia64_mf() is asm volatile ("mf" ::: "memory"): no stop around it. */
static uint64_t run_mf(struct pc_probe_state *st, uint64_t iters, int hi)
{
	uint64_t t;

	PC_TIMED(t, iters, hi, "", "mf", "", (), ([p] "r"(&st->mem[0])));
	return t;
}

/* ---- psr.um: the ring-3 halves of local_irq_save/restore --------------------------- */

PC_INIT_FLAGS(init_flags, pc_ia64_psr_um())

PC_RUN_REG(run_flags_save, "", "mov %[r]=psr.um\n\t;;", "", ())

#define IA64_UM_READBACK "mov %[g]=psr.um\n\t;;\n\t"

PC_RUN_READBACK(run_flags_restore, "", "mov psr.um=%[f]\n\t;;",
		IA64_UM_READBACK, ([f] "r"(st->reg[0])))

static uint64_t run_flags_save_restore(struct pc_probe_state *st, uint64_t iters,
				       int hi)
{
	unsigned long f = st->reg[0], g = st->reg[1];
	uint64_t t;

	PC_TIMED(t, iters, hi, "",
		 "mov %[f]=psr.um\n\t;;\n\tmov psr.um=%[f]\n\t;;",
		 IA64_UM_READBACK, (, [f] "+r"(f), [g] "+r"(g)), ());
	st->reg[0] = f;
	st->reg[1] = g;
	return t;
}

/* ---- preempt_disable(); preempt_enable(): asm-generic/preempt.h --------------------- */

/*
 * The count is a 32-bit word in thread_info (r13-relative in the kernel,
 * plain memory here), reached through preempt_count_ptr(), a volatile int
 * pointer (Linux 4.7 on): GCC's ia64 back end gives volatile loads acquire
 * and volatile stores release semantics, so ld4.acq/add/st4.rel up,
 * compiler barrier, ld4.acq/add/st4.rel down; at zero, tif_need_resched():
 * test_bit(TIF_NEED_RESCHED, &thread_info.flags), a volatile unsigned long
 * read (ld8.acq) and a test of bit 1, branching to preempt_schedule() when
 * set. A taken branch leaves the loop and is reported by the check.
 */
static uint64_t run_preempt(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long taken = st->reg[0], c = 0, fl = 0;
	uint64_t t;

	PC_TIMED(t, iters, hi, "",
		 "ld4.acq %[c]=[%[p]]\n\t;;\n\t"
		 "adds %[c]=1,%[c]\n\t;;\n\t"
		 "st4.rel [%[p]]=%[c]\n\t;;\n\t"
		 "ld4.acq %[c]=[%[p]]\n\t;;\n\t"
		 "adds %[c]=-1,%[c]\n\t;;\n\t"
		 "st4.rel [%[p]]=%[c]\n\t"
		 "cmp4.eq p6,p0=0,%[c]\n\t;;\n\t"
		 "(p6) ld8.acq %[fl]=[%[q]]\n\t;;\n\t"
		 "(p6) tbit.nz p6,p0=%[fl]," PC_STR(PC_IA64_TIF_NEED_RESCHED) "\n\t;;\n\t"
		 "(p6) br.cond.dpnt.few 9f\n\t;;",
		 "br.cond.sptk.few 8f\n\t;;\n"
		 "9:\n\tmov %[taken]=1\n\t;;\n"
		 "8:\n\t",
		 (, [taken] "+r"(taken), [c] "+r"(c), [fl] "+r"(fl)),
		 ([p] "r"(&st->mem[0]), [q] "r"(&st->mem[1])));
	st->reg[0] = taken;
	return t;
}

/* The flag tested is TIF_NEED_RESCHED and no other: with bit 2
 * (TIF_SYSCALL_TRACE) set the branch stays untaken, with bit 1 it is taken. */
static const char *semantics_preempt(struct pc_probe_state *s)
{
	pc_ia64_init_preempt(s);
	s->mem[1] = 1UL << 2;
	run_preempt(s, 1, 0);
	if (s->reg[0])
		return "preempt_enable() rescheduled for a flag other than TIF_NEED_RESCHED";
	pc_ia64_init_preempt(s);
	s->mem[1] = 1UL << PC_IA64_TIF_NEED_RESCHED;
	run_preempt(s, 1, 0);
	if (!s->reg[0])
		return "preempt_enable() did not reschedule with TIF_NEED_RESCHED set";
	return 0;
}

/* ---- psr.i: ring 0 only (rsm/ssm/mov psr are privileged) ----------------------------- */

/*
 * The rows start from interrupts enabled, the state local_irq_save() is
 * normally called in (and the one in which rsm psr.i changes something).
 */
static void init_irq(struct pc_probe_state *st)
{
	unsigned long psr;

	__asm__ volatile(";;\n\tssm psr.i\n\t;;\n\tsrlz.d\n\t;;" : : : "memory");
	psr = pc_ia64_psr();

	st->reg[0] = psr | PC_IA64_PSR_I;	/* saved flags: interrupts were on */
	st->reg[1] = psr;			/* psr read back after the loop */
	st->reg[2] = psr;			/* psr as it was at the start */
	st->reg[3] = PC_IA64_PSR_I;		/* the mask restore applies */
}

/* After the loop: read psr back for the check, then put psr.i back as
 * it was at the start, whatever the body left. */
#define IA64_IRQ_READBACK						\
	"mov %[g]=psr\n\t;;\n\t"					\
	"tbit.nz p6,p7=%[s],14\n\t;;\n\t"				\
	"(p7) rsm psr.i\n\t"						\
	"(p6) ssm psr.i\n\t;;\n\t"					\
	"(p6) srlz.d\n\t;;\n\t"

#define IA64_RUN_IRQ(fn, body)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	unsigned long f = st->reg[0], g = st->reg[1], x = 0;		\
	uint64_t t;							\
									\
	PC_TIMED(t, iters, hi, "", body, IA64_IRQ_READBACK,		\
		 (, [f] "+r"(f), [g] "+r"(g), [x] "+r"(x)),		\
		 ([s] "r"(st->reg[2]), [m] "r"(st->reg[3])));		\
	st->reg[0] = f;							\
	st->reg[1] = g;							\
	return t;							\
}

/* arch_local_irq_disable(): ia64_stop(); rsm psr.i */
#define IA64_IRQ_DISABLE "rsm psr.i\n\t;;"
/* arch_local_irq_enable(): ia64_stop(); ssm psr.i; ;; srlz.d */
#define IA64_IRQ_ENABLE "ssm psr.i\n\t;;\n\tsrlz.d\n\t;;"
/* arch_local_irq_save(): ;; mov flags=psr; ;; rsm psr.i */
#define IA64_IRQ_SAVE "mov %[f]=psr\n\t;;\n\trsm psr.i\n\t;;"
/* arch_local_irq_restore(flags): ia64_intrin_local_irq_restore(flags & psr.i) */
#define IA64_IRQ_RESTORE						\
	"and %[x]=%[f],%[m]\n\t;;\n\t"					\
	"cmp.ne p6,p7=%[x],r0\n\t;;\n\t"				\
	"(p6) ssm psr.i\n\t"						\
	"(p7) rsm psr.i\n\t;;\n\t"					\
	"(p6) srlz.d\n\t;;"

IA64_RUN_IRQ(run_irq_disable, IA64_IRQ_DISABLE)
IA64_RUN_IRQ(run_irq_enable, IA64_IRQ_ENABLE)
IA64_RUN_IRQ(run_irq_save, IA64_IRQ_SAVE)
IA64_RUN_IRQ(run_irq_restore, IA64_IRQ_RESTORE)
IA64_RUN_IRQ(run_irq_save_restore, IA64_IRQ_SAVE "\n\t" IA64_IRQ_RESTORE)
/* Real transitions (see probes.def): rsm finds psr.i set, ssm finds it clear. */
IA64_RUN_IRQ(run_irq_disable_enable, IA64_IRQ_DISABLE "\n\t" IA64_IRQ_ENABLE)

/* ---- the table ------------------------------------------------------------------------ */

#define SEQ_CMPXCHG "mov ar.ccv=old;; cmpxchg8.acq r=[v],new,ar.ccv;;   [succeeds]"
#define SEQ_ADD_RETURN4 "1: ld4.acq o=[v];; add r=1,o; addp4 c=o,r0;; " \
	"mov ar.ccv=c;; cmpxchg4.acq t=[v],r,ar.ccv;; cmp4.ne p7=t,o; " \
	"(p7) br 1b;;   [atomic_t: 4 bytes; Linux 5.14-6.6 for any i; " \
	"older kernels for an i not constant, or not +-1, 4, 8, 16, as the " \
	"10 of the 2007 figures]"
#define SEQ_ADD_RETURN8 "1: ld8.acq o=[v];; add r=1,o; mov ar.ccv=o;; " \
	"cmpxchg8.acq t=[v],r,ar.ccv;; cmp.ne p7=t,o; (p7) br 1b;;   " \
	"[local_t is atomic_long_t: 8 bytes; Linux 5.x-6.6 for any i " \
	"(atomic_long_add_return() passes i on); 2.6-4.x for an i not " \
	"constant, or not +-1, 4, 8, 16, as the 10 of the 2007 figures]"
#define SEQ_FETCHADD4 "fetchadd4.rel r=[v],1;; adds r=1,r;;   " \
	"[atomic_t: 4 bytes; atomic_inc_return() in every kernel to 6.6; " \
	"atomic_add_return() of a constant +-1, 4, 8, 16 before 5.14]"
#define SEQ_FETCHADD8 "fetchadd8.rel r=[v],1;; adds r=1,r;;   " \
	"[local_t is atomic_long_t: 8 bytes; Linux 2.6-4.x, a constant " \
	"+-1, 4, 8, 16 seen through the inline atomic_long_add_return()]"
#define SEQ_RESTORE "and t=flags,psr.i;; cmp.ne p6,p7=t,r0;; (p6) ssm psr.i; " \
	"(p7) rsm psr.i;; (p6) srlz.d;;"
/* The single-operation rows repeat one half, as the 2007 measurements did:
 * the loop enters with psr.i set, so only its first rsm changes anything. */
#define SEQ_OFF "[repeated: psr.i already clear after the first, as the 2007 " \
	"measurements timed]"
#define SEQ_ON "[repeated: psr.i already set, as the 2007 measurements timed]"

const struct pc_arch_probe pc_arch_probes[PC_PROBE_COUNT] = {
	PC_ROWS_BASELINE_CHAINS("adds r=1,r;;",
		"xmpy.l f6=f6,f7;;   [integer multiply in the FPU]"),
	[PC_PROBE_get_cycles] = PC_ROW(run_get_cycles, init_get_cycles,
		check_timer_advanced, 0, "mov r=ar.itc;;"),
	[PC_PROBE_cmpxchg] = PC_ROW(run_cmpxchg, init_cmpxchg,
		check_cmpxchg, semantics_cmpxchg, SEQ_CMPXCHG),
	[PC_PROBE_cmpxchg_local] = PC_ROW(run_cmpxchg, init_cmpxchg,
		check_cmpxchg, semantics_cmpxchg,
		SEQ_CMPXCHG "   [cmpxchg_local is cmpxchg on ia64]"),
	[PC_PROBE_atomic_add_return] = PC_ROW(run_add_return4, init_add_return,
		check_add_return, semantics_add_return4, SEQ_ADD_RETURN4),
	[PC_PROBE_local_add_return] = PC_ROW(run_add_return8, init_add_return,
		check_add_return, semantics_add_return8, SEQ_ADD_RETURN8),
	[PC_PROBE_atomic_add_return_fetchadd] = PC_ROW(run_fetchadd4,
		init_add_return, check_add_return, semantics_fetchadd4,
		SEQ_FETCHADD4),
	[PC_PROBE_local_add_return_fetchadd] = PC_ROW(run_fetchadd8,
		init_add_return, check_add_return, semantics_fetchadd8,
		SEQ_FETCHADD8),
	[PC_PROBE_xchg] = PC_ROW(run_xchg, init_xchg, check_xchg, 0,
		"xchg8 r=[v],r;;   [acquire semantics]"),
	PC_ROWS_BARRIERS(PC_ROW(run_mf, 0, check_unchanged, 0, "mf")),
	PC_ROWS_FLAGS(pc_ia64_check_flags_save, pc_ia64_check_flags_kept,
		"mov r=psr.um;;   [user mask: mov r=psr is privileged]",
		"mov psr.um=r;;   [value unchanged]",
		"mov r=psr.um;; mov psr.um=r;;"),
	[PC_PROBE_preempt_disable_enable] = PC_ROW(run_preempt, pc_ia64_init_preempt,
		pc_ia64_check_preempt, semantics_preempt,
		"ld4.acq;; adds 1;; st4.rel;; ld4.acq;; adds -1;; st4.rel; cmp4.eq p6=0;; "
		"(p6) ld8.acq flags;; (p6) tbit.nz p6=flags,1;; (p6) br <resched>   "
		"[Linux 4.7-6.6; bit 1 is TIF_NEED_RESCHED]"),
	[PC_PROBE_local_irq_disable] = PC_ROW(run_irq_disable, init_irq,
		pc_ia64_check_irq_off, 0, "rsm psr.i;;   " SEQ_OFF),
	[PC_PROBE_local_irq_enable] = PC_ROW(run_irq_enable, init_irq,
		pc_ia64_check_irq_on, 0, "ssm psr.i;; srlz.d;;   " SEQ_ON),
	[PC_PROBE_local_irq_save] = PC_ROW(run_irq_save, init_irq, pc_ia64_check_irq_off, 0,
		"mov r=psr;; rsm psr.i;;   " SEQ_OFF),
	[PC_PROBE_local_irq_restore] = PC_ROW(run_irq_restore, init_irq,
		pc_ia64_check_irq_on, 0, SEQ_RESTORE "   " SEQ_ON),
	[PC_PROBE_local_irq_save_restore] = PC_ROW(run_irq_save_restore, init_irq,
		pc_ia64_check_irq_on, 0, "mov r=psr;; rsm psr.i;; " SEQ_RESTORE
		"   [real transitions: rsm from psr.i set, ssm from psr.i clear]"),
	[PC_PROBE_local_irq_disable_enable] = PC_ROW(run_irq_disable_enable, init_irq,
		pc_ia64_check_irq_on, 0, "rsm psr.i;; ssm psr.i;; srlz.d;;   "
		"[real transitions: rsm from psr.i set, ssm from psr.i clear]"),
	/* Rows of other architectures' forms. */
	[PC_PROBE_cmpxchg64] = { .unsupported = "a 64-bit machine has no separate "
		"64-bit compare-and-swap: cmpxchg64() is the cmpxchg row" },
	/* ia64 atomics are cmpxchg, fetchadd and xchg: there is no LL/SC form. */
	PC_ROWS_LLSC({ .unsupported = "ia64 has no load-linked/store-"
		"conditional: its atomics are cmpxchg, fetchadd and xchg" }),
	/*
	 * The per-CPU rows. Linux/ia64 has no this_cpu operations of its own:
	 * asm/percpu.h includes asm-generic/percpu.h, whose this_cpu_add(),
	 * this_cpu_cmpxchg() and this_cpu_cmpxchg_double() wrap a plain access
	 * through raw_cpu_ptr() (local_per_cpu_offset, read from the per-CPU
	 * page) in raw_local_irq_save()/raw_local_irq_restore() since 3.3
	 * (2.6.33 to 3.2: preempt_disable()/preempt_enable()). mov r=psr and
	 * rsm/ssm psr.i fault in user mode, and these are ring-3 rows, which
	 * the user-mode runner runs: no faithful body can run there.
	 */
	[PC_PROBE_this_cpu_add] = { .unsupported = "ia64 runs asm-generic's "
		"this_cpu_add(): local_irq_save(), a plain add, local_irq_restore() "
		"(3.3 on); psr.i needs ring 0 and this row runs in user mode" },
	[PC_PROBE_this_cpu_cmpxchg] = { .unsupported = "ia64 runs asm-generic's "
		"this_cpu_cmpxchg(): local_irq_save(), a plain compare and store, "
		"local_irq_restore(); psr.i needs ring 0 and this row runs in "
		"user mode" },
	[PC_PROBE_this_cpu_cmpxchg_double] = { .unsupported = "ia64 never "
		"selected HAVE_CMPXCHG_DOUBLE: SLUB's this_cpu_cmpxchg_double() "
		"was asm-generic's local_irq_save() form; psr.i needs ring 0 and "
		"this row runs in user mode" },
	[PC_PROBE_cmpxchg128] = { .unsupported = "Linux/ia64 has no "
		"cmpxchg128(): cmp8xchg16 compares only 8 of the 16 bytes, and "
		"ia64 never selected HAVE_CMPXCHG_DOUBLE" },
	[PC_PROBE_local_irq_restore_popf] = { .unsupported = "the popf form is "
		"x86's: ia64 restores psr.i with ssm/rsm (local_irq_restore)" },
	[PC_PROBE_local_irq_save_restore_popf] = { .unsupported = "the popf form is "
		"x86's: ia64 restores psr.i with ssm/rsm (local_irq_save_restore)" },
	[PC_PROBE_calib_add_throughput] = { .unsupported = "not written for ia64 "
		"yet (its bundles issue up to 6 integer operations a cycle)" },
};

/* In .rodata, not the small-data section gcc picks for 8 bytes or less
 * (see arch.c). */
const char pc_arch_timer_name[] __attribute__((section(".rodata"))) = "ar.itc";

/* The ITC's rate is firmware knowledge (PAL_FREQ_RATIOS, /proc/cpuinfo's
 * "itc MHz"), not architecturally visible: the harness measures it. */
uint64_t pc_arch_timer_hz(void)
{
	return 0;
}
