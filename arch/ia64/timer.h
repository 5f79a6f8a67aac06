/* SPDX-License-Identifier: MIT */
/* ia64 timer: the interval time counter, ar.itc, read in program order. */
#ifndef PC_IA64_TIMER_H
#define PC_IA64_TIMER_H

#include <stdint.h>

/*
 * The stops put the read in an instruction group of its own: Itanium issues
 * groups in order, so every earlier group has issued and no later one issues
 * before the read. No srlz is needed: serialization makes a *write* of a
 * system register visible (after `mov ar.itc=`), it does not order reads.
 * Memory operations still in flight when the loop ends are the same for
 * both loop lengths and cancel in the difference.
 *
 * ar.itc counts at a rate of its own, not the core clock: a quarter of it
 * on the Itanium 2 of the 2007 measurements (400 MHz ITC, 1.6 GHz core).
 */
static inline uint64_t pc_timer_read(void)
{
	uint64_t t;

	__asm__ volatile(";;\n\tmov %0=ar.itc\n\t;;" : "=r"(t) : : "memory");
	return t;
}

#endif
