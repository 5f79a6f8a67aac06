/* SPDX-License-Identifier: MIT */
/* platform.h - what the two ia64 runner platforms share. */
#ifndef PC_RUNNER_IA64_PLATFORM_H
#define PC_RUNNER_IA64_PLATFORM_H

/* Writes "pcr cpu ..." lines from the CPUID registers. */
void pc_ia64_describe_cpu(void);

#endif
