/* SPDX-License-Identifier: MIT */
/*
 * arm64 primitives as the Linux kernel implements them, shared by the timed
 * loops and their semantic checks so that the checks prove the very text
 * that is timed. LSE forms: arch/arm64/include/asm/atomic_lse.h (cas since
 * Linux 5.18 without the mov through a scratch register); LL/SC forms:
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

/* ---- cmpxchg: %[o] returns the value found (== expected on success) ---- */
#define ARM64_LSE_CAS_MB	ARM64_LSE "casal %x[o], %x[d], %[m]"
#define ARM64_LSE_CAS		ARM64_LSE "cas %x[o], %x[d], %[m]"

/* %[t] returns the value found; prfm asks for the line in unique state. */
#define ARM64_LLSC_CAS_(st, mb)						\
	"prfm pstl1strm, %[m]\n"					\
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
	ARM64_LSE "ldaddal %" w "[i], %" w "[r], %[m]\n\t"		\
	"add %" w "[r], %" w "[r], %" w "[i]"
#define ARM64_LLSC_ADD_RETURN_MB_(w)					\
	"prfm pstl1strm, %[m]\n"					\
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

/* ---- PSTATE.NZCV: the flags EL0 may read and write ------------------------ */
#define ARM64_NZCV_MASK 0xf0000000UL

static inline unsigned long pc_arm64_nzcv(void)
{
	unsigned long f;

	__asm__ volatile("mrs %x0, nzcv" : "=r"(f));
	return f;
}

#endif
