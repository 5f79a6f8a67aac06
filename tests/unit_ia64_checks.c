/* SPDX-License-Identifier: MIT */
/*
 * The ia64 probes' functional checks on the host: ia64's own
 * (arch/ia64/checks.c) and the shared ones its rows use (arch/checks.h).
 * They are plain C, so any machine can prove that each accepts the state
 * its primitive must leave and rejects a wrong one (a deliberately wrong
 * expected value, a corrupted word, one operation too many). Under Ski the
 * same code decides whether the real instructions did their job.
 */
#include <string.h>

#include "arch/arch.h"
#include "arch/checks.h"
#include "arch/ia64/checks.h"
#include "tap.h"

static void init(struct pc_probe_state *s, void (*fn)(struct pc_probe_state *))
{
	memset(s, 0, sizeof(*s));
	if (fn)
		fn(s);
}

int main(void)
{
	struct pc_probe_state b, a;
	uint64_t ops = 3 * PC_UNROLL_HI, i;

	/* baseline and barriers: nothing may change */
	init(&b, NULL);
	b.mem[0] = 42;
	a = b;
	ok(!check_unchanged(&b, &a, ops), "unchanged: an untouched state passes");
	a.mem[5] ^= 1;
	ok(check_unchanged(&b, &a, ops) != NULL, "unchanged: a flipped memory bit fails");
	a = b;
	a.reg[3] = 7;
	ok(check_unchanged(&b, &a, ops) != NULL, "unchanged: a changed register fails");

	/* add chain: start + ops */
	init(&b, NULL);
	b.reg[0] = 10;
	a = b;
	a.reg[0] = 10 + ops;
	ok(!check_add_chain(&b, &a, ops), "add chain: start + ops passes");
	ok(check_add_chain(&b, &a, ops + 1) != NULL,
	   "add chain: expecting one add more fails");

	/* mul chain: start * 3^ops mod 2^64 */
	init(&b, init_mul_chain);
	a = b;
	for (i = 0; i < ops; i++)
		a.reg[0] *= b.reg[1];
	ok(!check_mul_chain(&b, &a, ops), "mul chain: start * k^ops passes");
	ok(check_mul_chain(&b, &a, ops - 1) != NULL,
	   "mul chain: expecting one multiply fewer fails");

	/* get_cycles: ar.itc must advance */
	init(&b, NULL);
	b.reg[0] = 1000;
	a = b;
	a.reg[0] = 1500;
	ok(!check_timer_advanced(&b, &a, ops), "get_cycles: an advancing ar.itc passes");
	a.reg[0] = 1000;
	ok(check_timer_advanced(&b, &a, ops) != NULL, "get_cycles: a stopped ar.itc fails");

	/* cmpxchg V for V: memory holds new, the result equals ar.ccv */
	init(&b, init_cmpxchg);
	a = b;
	ok(!check_cmpxchg(&b, &a, ops), "cmpxchg: a successful swap passes");
	a.reg[0] = 0x5a5b;
	ok(check_cmpxchg(&b, &a, ops) != NULL,
	   "cmpxchg: a result other than ar.ccv (a failed swap) fails");
	a = b;
	a.mem[0] = 0;
	ok(check_cmpxchg(&b, &a, ops) != NULL, "cmpxchg: memory without the new value fails");

	/* add_return: fetchadd (or the loop) + i, ops times, on 4 or 8 bytes */
	init(&b, init_add_return);
	ok(b.reg[1] == PC_IA64_ADD_INC,
	   "add_return: the initial increment is the one the timed loop adds");
	a = b;
	for (i = 0; i < ops; i++) {
		unsigned long old = a.mem[0];

		a.mem[0] = old + b.reg[1];
		a.reg[0] = old + b.reg[1];
	}
	ok(!check_add_return(&b, &a, ops), "add_return: start + ops * i passes");
	ok(check_add_return(&b, &a, ops + 1) != NULL,
	   "add_return: expecting one add more fails");
	a.reg[0] -= 1;	/* returned the old value, as fetchadd alone does */
	ok(check_add_return(&b, &a, ops) != NULL,
	   "add_return: returning the old value instead of the new fails");

	/* xchg8: swapped once per operation */
	init(&b, init_xchg);
	a = b;
	ok(!check_xchg(&b, &a, 2), "xchg: an even count leaves the values in place");
	ok(check_xchg(&b, &a, 3) != NULL, "xchg: an odd count expects them swapped");
	a.mem[0] = b.reg[0];
	a.reg[0] = b.mem[0];
	ok(!check_xchg(&b, &a, 3), "xchg: swapped after an odd count passes");

	/* psr.um read and written back */
	init(&b, NULL);
	b.reg[0] = b.reg[1] = b.reg[2] = 0x2;	/* psr.be clear, psr.up set, say */
	a = b;
	ok(!pc_ia64_check_flags_save(&b, &a, ops) && !pc_ia64_check_flags_kept(&b, &a, ops),
	   "flags: psr.um read and kept passes");
	a.reg[0] = 0x6;
	ok(pc_ia64_check_flags_save(&b, &a, ops) != NULL, "flags_save: a wrong value read fails");
	a = b;
	a.reg[1] = 0x0;
	ok(pc_ia64_check_flags_kept(&b, &a, ops) != NULL,
	   "flags_restore: psr.um changed by the write fails");

	/* preempt: count back to start, no reschedule */
	init(&b, pc_ia64_init_preempt);
	a = b;
	ok(!pc_ia64_check_preempt(&b, &a, ops), "preempt: balanced count, no branch passes");
	a.reg[0] = 1;
	ok(pc_ia64_check_preempt(&b, &a, ops) != NULL, "preempt: a taken reschedule branch fails");
	a = b;
	a.mem[0] = 1;
	ok(pc_ia64_check_preempt(&b, &a, ops) != NULL, "preempt: an unbalanced count fails");

	/* psr.i */
	init(&b, NULL);
	a = b;
	a.reg[1] = 0x2000;	/* psr.ic set, psr.i clear */
	ok(!pc_ia64_check_irq_off(&b, &a, ops) && pc_ia64_check_irq_on(&b, &a, ops),
	   "irq: psr.i clear passes 'off' and fails 'on'");
	a.reg[1] |= PC_IA64_PSR_I;
	ok(pc_ia64_check_irq_off(&b, &a, ops) && !pc_ia64_check_irq_on(&b, &a, ops),
	   "irq: psr.i set fails 'off' and passes 'on'");

	ok(PC_IA64_FETCHADD_OK(1) && PC_IA64_FETCHADD_OK(-16) && !PC_IA64_FETCHADD_OK(2) &&
	   !PC_IA64_FETCHADD_OK(3) && !PC_IA64_FETCHADD_OK(32),
	   "fetchadd takes +-1, 4, 8, 16 only; other increments use the cmpxchg loop");
	return done_testing();
}
