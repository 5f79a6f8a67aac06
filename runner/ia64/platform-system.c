/* SPDX-License-Identifier: MIT */
/* platform-system.c - the system-mode runner's services: the Ski
 * simulator's SSC calls (console output, time of day). */
#include "runner/runner.h"

#define SSC_PUTCHAR	31
#define SSC_GET_TOD	74

long pc_ia64_ssc(long a0, long a1, long a2, long a3, long nr);

void pc_rt_write(const char *buf, unsigned long len)
{
	for (; len; len--, buf++)
		pc_ia64_ssc((unsigned char)*buf, 0, 0, 0, SSC_PUTCHAR);
}

/* Addresses are physical here, and equal to the linked ones. */
int pc_rt_clock_us(uint64_t *us)
{
	volatile struct {
		uint32_t sec, usec;
	} tv = { 0, 0 };
	volatile struct {
		uint32_t minuteswest, dsttime;
	} tz = { 0, 0 };

	pc_ia64_ssc((long)&tv, (long)&tz, 0, 0, SSC_GET_TOD);
	if (!tv.sec && !tv.usec)
		return -1;
	*us = (uint64_t)tv.sec * 1000000 + tv.usec;
	return 0;
}

int pc_rt_ring(void)
{
	return 0;
}
