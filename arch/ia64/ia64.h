/* SPDX-License-Identifier: MIT */
/*
 * ia64 primitives shared by the timed loops and their semantic checks, each
 * the sequence of Linux/ia64 (arch/ia64/include/uapi/asm/gcc_intrin.h,
 * asm/cmpxchg.h, asm/atomic.h).
 */
#ifndef PC_IA64_H
#define PC_IA64_H

#include "loop.h"

/* cmpxchg() and cmpxchg_local() are both cmpxchg_acq(): ar.ccv holds the
 * expected value and must be written in an earlier instruction group. */
#define PC_IA64_CMPXCHG \
	"mov ar.ccv=%[o]\n\t;;\n\tcmpxchg8.acq %[r]=[%[p]],%[nv],ar.ccv\n\t;;"

static inline unsigned long pc_ia64_cmpxchg(unsigned long *p, unsigned long old,
					    unsigned long new_val)
{
	unsigned long r;

	__asm__ volatile(PC_IA64_CMPXCHG
			 : [r] "=r"(r)
			 : [p] "r"(p), [o] "r"(old), [nv] "r"(new_val)
			 : "memory");
	return r;
}

/* atomic64_add_return(i, v) for an increment fetchadd can encode:
 * ia64_fetch_and_add(i, v) = fetchadd8.rel (old value) + i. */
#define PC_IA64_FETCHADD_CASE(n)					\
	case n:								\
		__asm__ volatile("fetchadd8.rel %0=[%1],%2\n\t;;"	\
				 : "=r"(old) : "r"(v), "i"(n) : "memory"); \
		break

static inline unsigned long pc_ia64_fetch_and_add(long i, unsigned long *v)
{
	unsigned long old = 0;

	switch (i) {
	PC_IA64_FETCHADD_CASE(-16);
	PC_IA64_FETCHADD_CASE(-8);
	PC_IA64_FETCHADD_CASE(-4);
	PC_IA64_FETCHADD_CASE(-1);
	PC_IA64_FETCHADD_CASE(1);
	PC_IA64_FETCHADD_CASE(4);
	PC_IA64_FETCHADD_CASE(8);
	PC_IA64_FETCHADD_CASE(16);
	default:
		return 0;	/* callers check PC_IA64_FETCHADD_OK first */
	}
	return old + (unsigned long)i;
}

/*
 * ia64_atomic64_add(i, v), the cmpxchg_acq loop: what atomic_add_return()
 * runs for an increment fetchadd cannot encode, and, in Linux 5.14 to 6.6,
 * for every increment (__ia64_atomic_const() is then always false, see
 * probes.c). The read is arch_atomic64_read(), a volatile access, which
 * GCC's ia64 back end emits as ld8.acq. %[r] returns the new value; %[o]
 * the value read, %[t] the value cmpxchg found (the loop repeats while it
 * differs from %[o]); %[i] the increment, register or immediate. A compare
 * may feed a branch in the same instruction group.
 */
#define PC_IA64_ADD_LOOP						\
	"2:\tld8.acq %[o]=[%[p]]\n\t;;\n\t"			\
	"add %[r]=%[i],%[o]\n\t"					\
	"mov ar.ccv=%[o]\n\t;;\n\t"					\
	"cmpxchg8.acq %[t]=[%[p]],%[r],ar.ccv\n\t;;\n\t"		\
	"cmp.ne p7,p0=%[t],%[o]\n\t"					\
	"(p7) br.cond.dpnt.few 2b\n\t;;"

static inline unsigned long pc_ia64_add_loop(long i, unsigned long *v)
{
	unsigned long r, o, t;

	__asm__ volatile(";;\n" PC_IA64_ADD_LOOP
			 : [r] "=&r"(r), [o] "=&r"(o), [t] "=&r"(t)
			 : [p] "r"(v), [i] "r"(i)
			 : "p7", "memory");
	return r;
}

/* The user mask of the processor status register: readable and writable
 * in user mode (mov r=psr and mov psr.l= are privileged). */
static inline unsigned long pc_ia64_psr_um(void)
{
	unsigned long f;

	__asm__ volatile(";;\n\tmov %0=psr.um\n\t;;" : "=r"(f) : : "memory");
	return f;
}

/* The whole psr: privileged, for the ring-0 rows only. */
static inline unsigned long pc_ia64_psr(void)
{
	unsigned long f;

	__asm__ volatile(";;\n\tmov %0=psr\n\t;;" : "=r"(f) : : "memory");
	return f;
}

#endif
