/* SPDX-License-Identifier: MIT */
/* ia64 spin-wait hint: the kernel's cpu_relax(). */
#ifndef PC_IA64_RELAX_H
#define PC_IA64_RELAX_H

/*
 * hint @pause: on a multithreaded Itanium (Montecito on) it switches to the
 * other hardware thread; elsewhere it is a nop. "memory": the next load of
 * the lock word is not hoisted out of the loop.
 */
static inline void pc_relax(void)
{
	__asm__ volatile("hint @pause" : : : "memory");
}

#endif
