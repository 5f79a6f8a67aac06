/* SPDX-License-Identifier: MIT */
/*
 * arm64 primitives as the Linux kernel implements them, shared by the timed
 * loops and their semantic checks so that the checks prove the very text
 * that is timed. LSE forms: arch/arm64/include/asm/atomic_lse.h (cas since
 * Linux 6.4 without the mov through a scratch register before and after); LL/SC forms:
 * atomic_ll_sc.h and cmpxchg.h. The fully ordered API (cmpxchg(), xchg(),
 * atomic_add_return()) is the "al" LSE instruction, or ldxr/stlxr followed
 * by dmb ish; the _local/_relaxed API has no ordering at all.
 *
 * Operands: %[m] the word ("Q": one base register, as exclusives and LSE
 * atomics require), %[o] expected, %[d] new, %[i] addend, %[r] result,
 * %[t] value loaded, %[u] scratch / store-exclusive status.
 */
#ifndef PC_ARM64_H
#define PC_ARM64_H

#include "loop.h"

/* The assembler takes LSE mnemonics only when told: the run-time check
 * (HWCAP_ATOMICS) decides whether they execute. */
#define ARM64_LSE ".arch_extension lse\n\t"

/*
 * How an atomic of asm/atomic.h and asm/cmpxchg.h (xchg apart: an
 * alternative in line) picks its form: __lse_ll_sc_body() tests
 * system_uses_lse_atomics(), since Linux 6.2 one alternative_has_cap_likely()
 * site (alternative_has_feature_likely() in 6.2): a nop where the CPU has
 * LSE, else a branch to the LL/SC code, which the compiler lays out apart.
 * 5.x kernels tested two static keys there: a second nop (and, on the LL/SC
 * side, a nop before the branch), which the rows leave out.
 */
#define ARM64_LSE_SELECT	"nop\n\t"
#define ARM64_LLSC_SELECT	"b 3f\n3:\t"

/* ---- cmpxchg: %[o] returns the value found (== expected on success) ---- */
#define ARM64_LSE_CAS_MB						\
	ARM64_LSE_SELECT ARM64_LSE "casal %x[o], %x[d], %[m]"
#define ARM64_LSE_CAS							\
	ARM64_LSE_SELECT ARM64_LSE "cas %x[o], %x[d], %[m]"

/* %[t] returns the value found; prfm asks for the line in unique state. */
#define ARM64_LLSC_CAS_(st, mb)						\
	ARM64_LLSC_SELECT "prfm pstl1strm, %[m]\n"			\
	"1:\tldxr %x[t], %[m]\n\t"					\
	"eor %x[u], %x[t], %x[o]\n\t"					\
	"cbnz %x[u], 2f\n\t"						\
	st " %w[u], %x[d], %[m]\n\t"					\
	"cbnz %w[u], 1b\n\t"						\
	mb "\n"								\
	"2:"
#define ARM64_LLSC_CAS_MB	ARM64_LLSC_CAS_("stlxr", "dmb ish")
#define ARM64_LLSC_CAS		ARM64_LLSC_CAS_("stxr", "")

/* ---- atomic_add_return(i, v): %[r] = new value ---------------------------- */
/* w: the register width, "x" for atomic_long_t (local_t), "w" for the
 * 32-bit counter of atomic_t; the store-exclusive status is always %w[u]. */
#define ARM64_LSE_ADD_RETURN_MB_(w)					\
	ARM64_LSE_SELECT ARM64_LSE					\
	"ldaddal %" w "[i], %" w "[r], %[m]\n\t"			\
	"add %" w "[r], %" w "[r], %" w "[i]"
#define ARM64_LLSC_ADD_RETURN_MB_(w)					\
	ARM64_LLSC_SELECT "prfm pstl1strm, %[m]\n"			\
	"1:\tldxr %" w "[r], %[m]\n\t"				\
	"add %" w "[r], %" w "[r], %" w "[i]\n\t"			\
	"stlxr %w[u], %" w "[r], %[m]\n\t"				\
	"cbnz %w[u], 1b\n\t"						\
	"dmb ish"
#define ARM64_LSE_ADD_RETURN_MB		ARM64_LSE_ADD_RETURN_MB_("x")
#define ARM64_LLSC_ADD_RETURN_MB	ARM64_LLSC_ADD_RETURN_MB_("x")

/* ---- x = xchg(&v, x): the old value comes back in %[t], then moves to x
 * (the move the compiler emits for x = xchg(&v, x): the kernel's asm
 * returns in a register apart from the one stored) --------------------- */
/* The LSE alternative of __XCHG_CASE (asm/cmpxchg.h) is swpal, __nops(3)
 * and nop_lse ("nop" for the fully ordered xchg()): 4 nops, so that it is
 * as long as the LL/SC form it replaces (prfm, ldxr, stlxr, cbnz, dmb). */
#define ARM64_LSE_XCHG_MB						\
	ARM64_LSE "swpal %x[r], %x[t], %[m]\n\t"			\
	"nop\n\tnop\n\tnop\n\tnop\n\t"				\
	"mov %x[r], %x[t]"
#define ARM64_LLSC_XCHG_MB						\
	"prfm pstl1strm, %[m]\n"					\
	"1:\tldxr %x[t], %[m]\n\t"					\
	"stlxr %w[u], %x[r], %[m]\n\t"					\
	"cbnz %w[u], 1b\n\t"						\
	"dmb ish\n\t"							\
	"mov %x[r], %x[t]"

/* The same sequences as functions, for the semantic checks. */
#define ARM64_CAS_FN(name, seq)						\
static inline unsigned long name(unsigned long *p, unsigned long old,	\
				 unsigned long new_val)			\
{									\
	__asm__ volatile(seq : [o] "+r"(old), [m] "+Q"(*p)		\
			 : [d] "r"(new_val) : "memory");		\
	return old;							\
}
#define ARM64_LLSC_CAS_FN(name, seq)					\
static inline unsigned long name(unsigned long *p, unsigned long old,	\
				 unsigned long new_val)			\
{									\
	unsigned long t, u;						\
									\
	__asm__ volatile(seq : [t] "=&r"(t), [u] "=&r"(u), [m] "+Q"(*p)	\
			 : [o] "r"(old), [d] "r"(new_val) : "memory");	\
	return t;							\
}

ARM64_CAS_FN(pc_arm64_lse_cas_mb, ARM64_LSE_CAS_MB)
ARM64_CAS_FN(pc_arm64_lse_cas, ARM64_LSE_CAS)
ARM64_LLSC_CAS_FN(pc_arm64_llsc_cas_mb, ARM64_LLSC_CAS_MB)
ARM64_LLSC_CAS_FN(pc_arm64_llsc_cas, ARM64_LLSC_CAS)


/* ---- the 16-byte compare-and-swap: x0:x1 (%[ol], %[oh]) expected, the
 * value found comes back there; x2:x3 (%[nl], %[nh]) new; the register
 * pairs must be even-numbered, hence the named registers. LL/SC: %[rl],
 * %[rh] the pair loaded, %[u] the store status. (asm/atomic_lse.h and
 * atomic_ll_sc.h, __CMPXCHG128, Linux 6.5 on; before, __CMPXCHG_DBL, the
 * same instructions and an eor/eor/orr of the result.) ---------------- */
#define ARM64_DOUBLE(p) (*(struct { unsigned long w[2]; } *)(void *)(p))
#define ARM64_LSE_CASP(mb, mem)						\
	ARM64_LSE "casp" mb " %x[ol], %x[oh], %x[nl], %x[nh], " mem
#define ARM64_LSE_CASP_MB	ARM64_LSE_CASP("al", "%[m]")
#define ARM64_LLSC_CASP(st, mb, mem)					\
	"prfm pstl1strm, " mem "\n"					\
	"1:\tldxp %x[rl], %x[rh], " mem "\n\t"				\
	"cmp %x[rl], %x[ol]\n\t"					\
	"ccmp %x[rh], %x[oh], #0, eq\n\t"				\
	"b.ne 2f\n\t"							\
	st " %w[u], %x[nl], %x[nh], " mem "\n\t"			\
	"cbnz %w[u], 1b\n\t"						\
	mb "\n"								\
	"2:"
#define ARM64_LLSC_CASP_MB	ARM64_LLSC_CASP("stlxp", "dmb ish", "%[m]")

/* try_cmpxchg128()'s contract: nonzero on success, the pair found in o
 * (lo, hi: x0, x1 after casp; rl, rh after the LL/SC loop). */
#define ARM64_CASP_FN(name, seq, lo, hi)					\
static inline int name(unsigned long *p, unsigned long *o,		\
		       const unsigned long *n)				\
{									\
	register unsigned long x0 __asm__("x0") = o[0];			\
	register unsigned long x1 __asm__("x1") = o[1];			\
	register unsigned long x2 __asm__("x2") = n[0];			\
	register unsigned long x3 __asm__("x3") = n[1];			\
	unsigned long u, rl, rh, want0 = o[0], want1 = o[1];		\
									\
	__asm__ volatile(seq						\
			 : [m] "+Q"(ARM64_DOUBLE(p)), [u] "=&r"(u),	\
			   [rl] "=&r"(rl), [rh] "=&r"(rh),		\
			   [ol] "+r"(x0), [oh] "+r"(x1)		\
			 : [nl] "r"(x2), [nh] "r"(x3) : "cc", "memory"); \
	(void)u;							\
	(void)rl;							\
	(void)rh;							\
	o[0] = (lo);							\
	o[1] = (hi);							\
	return o[0] == want0 && o[1] == want1;				\
}

ARM64_CASP_FN(pc_arm64_lse_casp_mb, ARM64_LSE_CASP_MB, x0, x1)
ARM64_CASP_FN(pc_arm64_llsc_casp_mb, ARM64_LLSC_CASP_MB, rl, rh)
ARM64_CASP_FN(pc_arm64_lse_casp, ARM64_LSE_CASP("", "%[m]"), x0, x1)
ARM64_CASP_FN(pc_arm64_llsc_casp, ARM64_LLSC_CASP("stxp", "", "%[m]"), rl, rh)

/* ---- PSTATE.NZCV: the flags EL0 may read and write ------------------------ */
#define ARM64_NZCV_MASK 0xf0000000UL

static inline unsigned long pc_arm64_nzcv(void)
{
	unsigned long f;

	__asm__ volatile("mrs %x0, nzcv" : "=r"(f));
	return f;
}

#endif
