/* SPDX-License-Identifier: MIT */
/* x86-64 reads PMU counters in user mode with the shared x86 rdpmc. */
#ifndef PC_X86_64_PMC_H
#define PC_X86_64_PMC_H

#include "../x86/pmc.h"

#define PC_ARCH_HAVE_USER_PMC 1

static inline int pc_arch_pmc_page_read(const volatile struct perf_event_mmap_page *pg,
					struct pc_pmc_reading *r)
{
	return pc_perf_page_read(pg, pc_x86_rdpmc, r);
}

#endif
