/* SPDX-License-Identifier: MIT */
/*
 * The KVM micro-guest on this machine: it boots and answers; every probe's
 * functional self-check passes in ring 0, the interrupt-flag ones included
 * (IF as pushf reads it back is what the kernel API promises); a trap is a
 * clean failure naming its vector; the time limit ends a guest that never
 * answers; the vCPU recovers after both; and the validation gate gives its
 * verdict with the evidence. Skips, with the reason, where /dev/kvm cannot
 * be used.
 */
#include <string.h>
#include <time.h>

#include "ring0/ring0.h"
#include "tap.h"
#include "ring0_checks.h"
#include "core/primcost.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
	struct pc_ring0_options o = { PC_RING0_KVM, 0.5, NULL };
	struct pc_ring0 *r;
	struct pc_probe_result res;
	struct pc_clock clk;
	char buf[256], err[PC_ERRLEN];
	const char *why, *hv;
	double t0, dt;

	pc_pin_cpu(-1, err, sizeof(err));
	r = pc_ring0_open(&o);
	ok(r != NULL, "pc_ring0_open returns an object");
	if (!r || !pc_ring0_backend_name(r)) {
		skip(r ? pc_ring0_why_none(r) : "out of memory", "the micro-guest boots");
		pc_ring0_close(r);
		return done_testing();
	}
	ok(strcmp(pc_ring0_backend_name(r), "kvm") == 0,
	   "the micro-guest boots and answers on its port");

	ring0_common_checks(r, false);
	ok(if_after(r, PC_PROBE_local_irq_save_restore, &res),
	   "local_irq_save_restore entered with IF set leaves it set");

	/* A trap: a clean failure with its vector, then the guest carries on. */
	why = pc_ring0_selfcheck(r, PC_RING0_TEST_UD2, buf, sizeof(buf));
	ok(why && strstr(why, "vector 6 (#UD") && pc_ring0_last_vector(r) == 6,
	   "a ud2 in ring 0 is reported as vector 6: %s", why ? why : "(passed?)");
	memset(&res, 0, sizeof(res));
	res.id = (enum pc_probe_id)PC_RING0_TEST_UD2;
	{
		struct pc_probe_state st;

		memset(&st, 0, sizeof(st));
		ok(pc_ring0_run(r, PC_RING0_TEST_UD2, &st, 1, 1) == 0,
		   "a trapping timed loop returns no time");
	}
	pc_ring0_finish(r, &res);
	ok(res.status == PC_STATUS_FAILED && strstr(res.reason, "vector 6"),
	   "... and its row is failed with the vector: %s", res.reason);
	ok(pc_ring0_selfcheck(r, PC_PROBE_cmpxchg, buf, sizeof(buf)) == NULL,
	   "the guest runs the next command after the trap");

	/* The time limit (0.5 s here) ends a guest spinning with IF clear. */
	t0 = now_s();
	why = pc_ring0_selfcheck(r, PC_RING0_TEST_SPIN, buf, sizeof(buf));
	dt = now_s() - t0;
	ok(why && strstr(why, "timed out"), "a guest that never answers times out: %s",
	   why ? why : "(it answered?)");
	ok(dt >= 0.45 && dt < 10, "... after the limit, not before and not much later "
	   "(%.2f s for a 0.5 s limit)", dt);
	ok(pc_ring0_selfcheck(r, PC_PROBE_local_irq_save, buf, sizeof(buf)) == NULL,
	   "the guest runs the next command after the time limit");

	/* The gate's verdict on this machine. */
	if (pc_clock_init(&clk, false, err, sizeof(err)) < 0) {
		skip(err, "the validation gate gives a verdict");
		pc_ring0_close(r);
		return done_testing();
	}
	ok(pc_ring0_validate(r, &clk, 20e-6) == 0 && pc_ring0_evidence(r),
	   "the gate measures its evidence: %s", pc_ring0_gate_reason(r));
	hv = pc_ring0_hypervisor(NULL, 0);
	if (pc_ring0_evidence(r)) {
		const struct pc_ring0_evidence *e = pc_ring0_evidence(r);
		double add = e->ring0_add_ticks / e->host_add_ticks;

		diag("ring-0 add chain %.2f cycles per add; cmpxchg %.2f (ring 0) vs "
		     "%.2f (ring 3); hypervisor %s", add,
		     e->ring0_cmpxchg_ticks / e->host_add_ticks,
		     e->host_cmpxchg_ticks / e->host_add_ticks, hv);
		if (strcmp(hv, "pvm") == 0) {
			ok(!pc_ring0_trusted(r) && add > 10 &&
			   strstr(pc_ring0_gate_reason(r), "ring 0 is emulated (pvm)"),
			   "pvm emulates guest ring 0: the gate rejects it with the evidence");
		} else if (strcmp(hv, "kvm-intel") == 0 || strcmp(hv, "kvm-amd") == 0) {
			ok(add > 0.8 && add < 1.25, "under %s the guest's add chain runs "
			   "natively (%.3f cycles per add)", hv, add);
		} else {
			skip("an unknown KVM provider: no expectation", "the gate's verdict");
		}
	}
	pc_clock_close(&clk);
	pc_ring0_close(r);
	return done_testing();
}
