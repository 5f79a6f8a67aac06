/* SPDX-License-Identifier: MIT */
/* x86 primitives shared by the timed loops and their semantic checks. */
#ifndef PC_X86_H
#define PC_X86_H

#include "loop.h"

/* The one instruction each cmpxchg row times; the helpers below run the
 * same text so the semantic checks prove the timed instruction. */
#define PC_X86_CMPXCHG		"lock cmpxchg %[d], %[m]"
#define PC_X86_CMPXCHG_LOCAL	"cmpxchg %[d], %[m]"

#define PC_X86_CAS_FN(name, insn)					\
static inline unsigned long name(unsigned long *p, unsigned long old,	\
				 unsigned long new_val)			\
{									\
	__asm__ volatile(insn						\
			 : "+a"(old), [m] "+m"(*p)			\
			 : [d] "r"(new_val)				\
			 : "cc", "memory");				\
	return old;							\
}

PC_X86_CAS_FN(pc_x86_cmpxchg, PC_X86_CMPXCHG)
PC_X86_CAS_FN(pc_x86_cmpxchg_local, PC_X86_CMPXCHG_LOCAL)

static inline unsigned long pc_x86_flags(void)
{
	unsigned long f;

	__asm__ volatile(PC_X86_STACK_ENTER "pushf\n\tpop %0\n\t" PC_X86_STACK_LEAVE
			 : "=r"(f) : : "memory");
	return f;
}

#endif
