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

/*
 * atomic_add_return(i, v) for an increment fetchadd can encode:
 * ia64_fetch_and_add(i, v) = fetchadd (old value, release semantics) + i,
 * on the width of the kernel type: fetchadd4.rel on atomic_t (an int),
 * fetchadd8.rel on atomic64_t and atomic_long_t (local_t). The increment
 * is an immediate, hence one asm per value.
 */
#define PC_IA64_FETCHADD_CASE(w, n)					\
	case n:								\
		__asm__ volatile("fetchadd" #w ".rel %0=[%1],%2\n\t;;"	\
				 : "=r"(old) : "r"(v), "i"(n) : "memory"); \
		break

#define PC_IA64_FETCH_AND_ADD(fn, w, type)				\
static inline unsigned long fn(long i, type *v)				\
{									\
	unsigned long old = 0;						\
									\
	switch (i) {							\
	PC_IA64_FETCHADD_CASE(w, -16);					\
	PC_IA64_FETCHADD_CASE(w, -8);					\
	PC_IA64_FETCHADD_CASE(w, -4);					\
	PC_IA64_FETCHADD_CASE(w, -1);					\
	PC_IA64_FETCHADD_CASE(w, 1);					\
	PC_IA64_FETCHADD_CASE(w, 4);					\
	PC_IA64_FETCHADD_CASE(w, 8);					\
	PC_IA64_FETCHADD_CASE(w, 16);					\
	default:							\
		return 0;	/* callers check PC_IA64_FETCHADD_OK first */ \
	}								\
	return old + (unsigned long)i;					\
}

PC_IA64_FETCH_AND_ADD(pc_ia64_fetch_and_add4, 4, unsigned int)
PC_IA64_FETCH_AND_ADD(pc_ia64_fetch_and_add8, 8, unsigned long)

/*
 * The cmpxchg_acq loops of ia64_atomic_add(i, v) (atomic_t, 4 bytes) and
 * ia64_atomic64_add(i, v) (atomic64_t/atomic_long_t, 8 bytes): what
 * atomic_add_return() and local_add_return() run for an increment fetchadd
 * cannot encode and, in Linux 5.14 to 6.6, for every increment that is not
 * a literal at the macro (see probes.c). The read is arch_atomic_read() or
 * arch_atomic64_read(), a volatile access, which GCC's ia64 back end emits
 * as ld4.acq or ld8.acq. %[r] returns the new value; %[o] the value read,
 * %[t] the value cmpxchg found (the loop repeats while it differs from
 * %[o]); %[i] the increment, register or immediate. A compare may feed a
 * branch in the same instruction group.
 *
 * The 4-byte loop is the instructions GCC 12 makes of the kernel's C: old
 * is an int, and ia64_cmpxchg() puts (__u32)(long)old in ar.ccv, a zero
 * extension GCC writes as addp4 %[c]=%[o],r0 (the upper bits come from r0:
 * zero); the compare of the int cmpxchg returned with old is cmp4.
 */
#define PC_IA64_ADD_LOOP4						\
	"2:\tld4.acq %[o]=[%[p]]\n\t;;\n\t"				\
	"add %[r]=%[i],%[o]\n\t"					\
	"addp4 %[c]=%[o],r0\n\t;;\n\t"				\
	"mov ar.ccv=%[c]\n\t;;\n\t"					\
	"cmpxchg4.acq %[t]=[%[p]],%[r],ar.ccv\n\t;;\n\t"		\
	"cmp4.ne p7,p0=%[t],%[o]\n\t"					\
	"(p7) br.cond.dpnt.few 2b\n\t;;"

#define PC_IA64_ADD_LOOP8						\
	"2:\tld8.acq %[o]=[%[p]]\n\t;;\n\t"				\
	"add %[r]=%[i],%[o]\n\t"					\
	"mov ar.ccv=%[o]\n\t;;\n\t"					\
	"cmpxchg8.acq %[t]=[%[p]],%[r],ar.ccv\n\t;;\n\t"		\
	"cmp.ne p7,p0=%[t],%[o]\n\t"					\
	"(p7) br.cond.dpnt.few 2b\n\t;;"

#define PC_IA64_ADD_LOOP(fn, loop, type)				\
static inline unsigned long fn(long i, type *v)				\
{									\
	unsigned long r, o, t, c;					\
									\
	__asm__ volatile(";;\n" loop					\
			 : [r] "=&r"(r), [o] "=&r"(o), [t] "=&r"(t),	\
			   [c] "=&r"(c)					\
			 : [p] "r"(v), [i] "r"(i)			\
			 : "p7", "memory");				\
	(void)c;							\
	return r;							\
}

PC_IA64_ADD_LOOP(pc_ia64_add_loop4, PC_IA64_ADD_LOOP4, unsigned int)
PC_IA64_ADD_LOOP(pc_ia64_add_loop8, PC_IA64_ADD_LOOP8, unsigned long)

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
