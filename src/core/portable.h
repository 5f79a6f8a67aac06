/* SPDX-License-Identifier: MIT */
/* portable.h - probe bodies written in C against libc, for every arch
 * (sigprocmask.c), behind the same interface as a backend's. */
#ifndef PC_PORTABLE_H
#define PC_PORTABLE_H

#include "arch/arch.h"

extern const struct pc_arch_probe pc_portable_probes[PC_PROBE_COUNT];

uint64_t pc_run_sigprocmask(struct pc_probe_state *st, uint64_t iters, int hi);
void pc_init_sigprocmask(struct pc_probe_state *st);
const char *pc_check_sigprocmask(const struct pc_probe_state *before,
				 const struct pc_probe_state *after, uint64_t ops);

#endif
