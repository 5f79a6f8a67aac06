/* SPDX-License-Identifier: MIT */
/* x86 spin-wait hint: the kernel's cpu_relax(). */
#ifndef PC_X86_RELAX_H
#define PC_X86_RELAX_H

/*
 * pause (rep; nop): tells the core this is a spin-wait loop, so it does not
 * speculate a stream of loads past the spin (the memory-order machine clear
 * when the line finally changes) and yields issue slots to an SMT sibling.
 * "memory": the loop's next load of the lock word is not hoisted out.
 */
static inline void pc_relax(void)
{
	__asm__ volatile("pause" : : : "memory");
}

#endif
