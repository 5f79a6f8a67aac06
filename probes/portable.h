/* SPDX-License-Identifier: MIT */
/* portable.h - probe bodies written in C against libc, for every arch. */
#ifndef PC_PORTABLE_H
#define PC_PORTABLE_H

#include "arch/arch.h"

extern const struct pc_probe_row pc_probe_rows[PC_PROBE_COUNT];
extern const struct pc_arch_probe pc_portable_probes[PC_PROBE_COUNT];
const char *pc_group_name(enum pc_group g);

uint64_t pc_run_sigprocmask(struct pc_probe_state *st, uint64_t iters, int hi);
void pc_init_sigprocmask(struct pc_probe_state *st);
const char *pc_check_sigprocmask(const struct pc_probe_state *before,
				 const struct pc_probe_state *after, uint64_t ops);

#endif
