/* SPDX-License-Identifier: MIT */
/*
 * sigprocmask: the user-space way to keep signal handlers out of a critical
 * section: block every signal, then put the old mask back. Two system calls
 * per operation. The loop is C, so each operation also carries one inner
 * loop step and a sigismember() (a few cycles against two syscalls).
 */
#include <signal.h>
#include <stddef.h>

#include "portable.h"

void pc_init_sigprocmask(struct pc_probe_state *st)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	st->reg[0] = 0;				/* operations that saw all blocked */
	st->reg[1] = sigismember(&cur, SIGUSR1) == 1;	/* mask after the run */
}

uint64_t pc_run_sigprocmask(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long reps = hi ? PC_UNROLL_HI : PC_UNROLL_LO;
	unsigned long seen_blocked = st->reg[0];
	sigset_t all, old, seen;
	uint64_t t0, t1, i;
	unsigned long r;

	sigfillset(&all);
	t0 = pc_timer_read();
	for (i = 0; i < iters; i++) {
		for (r = 0; r < reps; r++) {
			sigprocmask(SIG_BLOCK, &all, &old);
			sigprocmask(SIG_SETMASK, &old, &seen);
			seen_blocked += sigismember(&seen, SIGUSR1) == 1;
		}
	}
	t1 = pc_timer_read();
	sigprocmask(SIG_BLOCK, NULL, &old);
	st->reg[0] = seen_blocked;
	st->reg[1] = sigismember(&old, SIGUSR1) == 1;
	return t1 - t0;
}

const char *pc_check_sigprocmask(const struct pc_probe_state *before,
				 const struct pc_probe_state *after, uint64_t ops)
{
	if (after->reg[0] != before->reg[0] + ops)
		return "a SIG_BLOCK of all signals did not block SIGUSR1";
	if (after->reg[1] != before->reg[1])
		return "the signal mask was not restored";
	return NULL;
}

/* Rows whose body needs libc are the same on every architecture. */
const struct pc_arch_probe pc_portable_probes[PC_PROBE_COUNT] = {
	[PC_PROBE_sigprocmask] = PC_ROW(pc_run_sigprocmask, pc_init_sigprocmask,
		pc_check_sigprocmask, 0,
		"sigprocmask(SIG_BLOCK, all, &old); sigprocmask(SIG_SETMASK, &old, &seen)"),
};
