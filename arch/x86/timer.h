/* SPDX-License-Identifier: MIT */
/* x86 timer: the time-stamp counter, read in program order. */
#ifndef PC_X86_TIMER_H
#define PC_X86_TIMER_H

#include <stdint.h>

/*
 * lfence before rdtsc: the read waits until every earlier instruction has
 * completed; lfence after: no later instruction starts before the read.
 * The same sequence opens and closes a measurement, rather than rdtscp at
 * the end, because guests often lack RDTSCP and the ordering is the same.
 * (cpuid would serialize too, but exits to the hypervisor in a VM.)
 */
static inline uint64_t pc_timer_read(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence"
			 : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif
