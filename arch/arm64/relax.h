/* SPDX-License-Identifier: MIT */
/* arm64 spin-wait hint: the kernel's cpu_relax(). */
#ifndef PC_ARM64_RELAX_H
#define PC_ARM64_RELAX_H

/*
 * yield: a hint that this thread spins (an SMT core gives the other thread
 * the slot; most cores treat it as a nop). lockhammer offers isb instead,
 * which stalls the pipeline for a while and so spaces the spin's loads out;
 * yield is what Linux's cpu_relax() uses, and what primcost measures.
 * "memory": the next load of the lock word is not hoisted out of the loop.
 */
static inline void pc_relax(void)
{
	__asm__ volatile("yield" : : : "memory");
}

#endif
