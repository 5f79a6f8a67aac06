/* SPDX-License-Identifier: MIT */
/*
 * checks.h - what the ia64 probes must leave behind where that is ia64's
 * own (the rest is arch/checks.h), as plain C on struct pc_probe_state: no
 * instruction in here, so the host's own compiler builds it too and the
 * unit tests prove on any machine that every check accepts the right state
 * and rejects a wrong one.
 */
#ifndef PC_IA64_CHECKS_H
#define PC_IA64_CHECKS_H

#include <stdint.h>
#include "probes/probes.h"

struct pc_probe_state;

/* psr.i, the interrupt enable bit of the processor status register. */
#define PC_IA64_PSR_I		(1UL << 14)
/* The increments fetchadd can encode; atomic_add_return() uses fetchadd
 * for these and a cmpxchg loop for any other. */
#define PC_IA64_FETCHADD_OK(i)	((i) == 1 || (i) == 4 || (i) == 8 || (i) == 16 || \
				 (i) == -1 || (i) == -4 || (i) == -8 || (i) == -16)
/* The timed loops of atomic_add_return/local_add_return add 1: the
 * increment init_add_return() (arch/checks.h) puts in reg[1]. */
#define PC_IA64_ADD_INC		1
/* The bit the generic preempt_enable() tests in thread_info.flags:
 * TIF_NEED_RESCHED is bit 1 on ia64 (bit 2 is TIF_SYSCALL_TRACE). The
 * flags word is mem[1] of the state. */
#define PC_IA64_TIF_NEED_RESCHED 1

/* The initial state and the checks of the rows that are ia64's own (the
 * others use arch/checks.h). */
void pc_ia64_init_preempt(struct pc_probe_state *st);

typedef const char *pc_ia64_check_fn(const struct pc_probe_state *before,
				     const struct pc_probe_state *after,
				     uint64_t ops);

pc_ia64_check_fn pc_ia64_check_flags_save;
pc_ia64_check_fn pc_ia64_check_flags_kept;
pc_ia64_check_fn pc_ia64_check_preempt;
pc_ia64_check_fn pc_ia64_check_irq_off;
pc_ia64_check_fn pc_ia64_check_irq_on;

#endif
