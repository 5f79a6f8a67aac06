/* SPDX-License-Identifier: MIT */
/*
 * ring0_checks.h - the checks every way into ring 0 passes (the KVM
 * micro-guest, the kernel module): each probe's functional self-check, and
 * the interrupt flag each sequence leaves, read back with pushf. Included
 * by one test program each; needs tap.h before it.
 */
#ifndef PC_TEST_RING0_CHECKS_H
#define PC_TEST_RING0_CHECKS_H

#include <string.h>

#include "ring0/ring0.h"

#define X86_FLAGS_IF 0x200UL

/* IF read back after one timed loop of row id, run in ring 0. */
static int if_after(struct pc_ring0 *r, int id, struct pc_probe_result *res)
{
	struct pc_probe_state st;

	memset(&st, 0, sizeof(st));
	memset(res, 0, sizeof(*res));
	res->id = (enum pc_probe_id)id;
	pc_ring0_init_state(r, id, &st);
	pc_ring0_run(r, id, &st, 3, 1);
	pc_ring0_finish(r, res);
	return (st.reg[1] & X86_FLAGS_IF) != 0;
}

/*
 * The self-check in ring 0 of every row the way runs (all of them in the
 * micro-guest; in a kernel, kernel_rows, only the ring-0 rows and the
 * gate's), then the interrupt-flag sequences. A row this machine cannot run
 * (the product's verdict: the CPU lacks the instruction, the hypervisor
 * cannot emulate it in guest ring 0) is a skip with that reason.
 */
static void ring0_common_checks(struct pc_ring0 *r, bool kernel_rows)
{
	struct pc_probe_result res;
	char buf[256];
	const char *why;
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		if (!pc_arch_probes[id].run)
			continue;	/* libc rows (sigprocmask) never enter ring 0 */
		if (kernel_rows && pc_probe_rows[id].ring != 0 && id != PC_RING0_GATE_ADD &&
		    id != PC_RING0_GATE_CMPXCHG)
			continue;
		why = pc_ring0_selfcheck(r, id, buf, sizeof(buf));
		if (why && pc_ring0_machine_cannot(r))
			skip(why, "%s self-check passes in ring 0", pc_probe_rows[id].name);
		else
			ok(why == NULL, "%s self-check passes in ring 0%s%s",
			   pc_probe_rows[id].name, why ? ": " : "", why ? why : "");
	}
	ok(!if_after(r, PC_PROBE_local_irq_disable, &res) && res.status == PC_STATUS_OK,
	   "local_irq_disable (cli) leaves IF clear in ring 0");
	ok(if_after(r, PC_PROBE_local_irq_enable, &res) && res.status == PC_STATUS_OK,
	   "local_irq_enable (sti) leaves IF set in ring 0");
	ok(!if_after(r, PC_PROBE_local_irq_save, &res), "local_irq_save leaves IF clear");
	ok(if_after(r, PC_PROBE_local_irq_restore, &res), "local_irq_restore leaves IF set");
	ok(if_after(r, PC_PROBE_local_irq_restore_popf, &res),
	   "local_irq_restore.popf (popf) leaves IF set");
	/* The pairs of real transitions: the loop enters with IF set, and each
	 * pair gives it back set (a pair that lost its second half would not). */
	ok(if_after(r, PC_PROBE_local_irq_disable_enable, &res) && res.status == PC_STATUS_OK,
	   "local_irq_disable_enable (cli; sti) leaves IF set");
	ok(if_after(r, PC_PROBE_local_irq_save_restore, &res),
	   "local_irq_save_restore leaves IF set");
	ok(if_after(r, PC_PROBE_local_irq_save_restore_popf, &res) && res.status == PC_STATUS_OK,
	   "local_irq_save_restore.popf (pushf; pop; cli; push; popf) leaves IF set");
}

#endif
