/* SPDX-License-Identifier: MIT */
/* arm64 timer: the generic timer's virtual count, read in program order. */
#ifndef PC_ARM64_TIMER_H
#define PC_ARM64_TIMER_H

#include <stdint.h>

/*
 * isb before the read: it waits until every earlier instruction has
 * completed; isb after: no later instruction starts before the read. The
 * counter ticks at cntfrq_el0 (1-100 MHz on most parts, 1 GHz from Armv8.6),
 * far below the core clock: the harness sizes samples for it.
 */
static inline uint64_t pc_timer_read(void)
{
	uint64_t t;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(t) : : "memory");
	return t;
}

#endif
