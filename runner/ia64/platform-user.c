/* SPDX-License-Identifier: MIT */
/* platform-user.c - the user-mode runner's services: Linux/ia64 system
 * calls (also what Ski's user mode emulates). */
#include "runner/runner.h"

#define NR_WRITE	1027
#define NR_GETTIMEOFDAY	1087

long pc_ia64_syscall(long a0, long a1, long a2, long nr);

void pc_rt_write(const char *buf, unsigned long len)
{
	while (len) {
		long n = pc_ia64_syscall(1, (long)buf, (long)len, NR_WRITE);

		if (n <= 0)
			return;
		buf += n;
		len -= (unsigned long)n;
	}
}

/* tv_usec is a long on Linux/ia64 and an int plus padding in Ski's copy:
 * the low 32 bits hold it either way. */
int pc_rt_clock_us(uint64_t *us)
{
	struct {
		uint64_t sec;
		uint32_t usec, pad;
	} tv;

	if (pc_ia64_syscall((long)&tv, 0, 0, NR_GETTIMEOFDAY) < 0)
		return -1;
	*us = tv.sec * 1000000 + tv.usec;
	return 0;
}

int pc_rt_ring(void)
{
	return 3;
}
