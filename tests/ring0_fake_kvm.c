/* SPDX-License-Identifier: MIT */
/*
 * The KVM micro-guest behind a /dev/kvm that opens but fails (fake_kvm.c),
 * on every machine, with /dev/kvm or without: each way KVM can fail is a
 * way in that does not open, or a row this machine cannot run, said with
 * KVM's own words, never a failed row, and every fd is closed again. The
 * software hypervisor's (pvm's) run: the guest boots and answers, the
 * cmpxchg16b rows end in KVM's internal error, named as the instruction the
 * hypervisor cannot run in guest ring 0 and taken as "this machine cannot"
 * (the row unsupported), the vCPU restarts for the next command, a real
 * trap is still the row's failure, and the gate refuses the emulated ring
 * 0 with its evidence.
 */
#include <stdio.h>
#include <string.h>

#include "core/primcost.h"
#include "ring0/ring0.h"
#include "tap.h"

#if defined(__x86_64__)
#include "fake_kvm.h"

static struct pc_ring0 *open_kvm(void)
{
	struct pc_ring0_options o = { PC_RING0_KVM, 2.0, NULL };

	return pc_ring0_open(&o);
}

/* A row admitted (or not) as a run would, with its status and reason. */
static bool admit(struct pc_ring0 *r, int id, struct pc_probe_result *res,
		  const struct pc_clock *clk)
{
	memset(res, 0, sizeof(*res));
	res->id = (enum pc_probe_id)id;
	res->ring = pc_probe_rows[id].ring;
	return pc_ring0_admit(r, res, clk, 20e-6);
}

/* The kinds in which no way in opens: the reason KVM gave. */
static void does_not_open(enum fake_kvm_kind k, const char *words,
			  const struct pc_clock *clk)
{
	struct pc_probe_result res;
	struct pc_ring0 *r;
	bool admitted;

	fake_kvm_install(k);
	r = open_kvm();
	if (!r) {
		ok(0, "%s: pc_ring0_open returns an object", fake_kvm_names[k]);
		fake_kvm_remove();
		return;
	}
	ok(!pc_ring0_backend_name(r) && strstr(pc_ring0_why_none(r), words),
	   "%s: no way into ring 0, saying \"%s\": %s", fake_kvm_names[k], words,
	   pc_ring0_why_none(r));
	admitted = admit(r, PC_PROBE_local_irq_save, &res, clk);
	ok(!admitted && res.status == PC_STATUS_UNSUPPORTED && strstr(res.reason, words),
	   "... and a ring-0 row is unsupported with that reason, not failed (%s)",
	   pc_status_name(res.status));
	pc_ring0_close(r);
	ok(fake_kvm_open_fds() == 0, "... and every fd of /dev/kvm is closed again");
	fake_kvm_remove();
}

/* The kinds that boot, then fail every command: the machine's. */
static void fails_later(enum fake_kvm_kind k, const char *words, const struct pc_clock *clk)
{
	struct pc_probe_result res;
	struct pc_ring0 *r;
	char buf[256];
	const char *why;
	bool admitted;

	fake_kvm_install(k);
	r = open_kvm();
	ok(r && pc_ring0_backend_name(r), "%s: the micro-guest boots", fake_kvm_names[k]);
	if (!r || !pc_ring0_backend_name(r)) {
		pc_ring0_close(r);
		fake_kvm_remove();
		return;
	}
	why = pc_ring0_selfcheck(r, PC_PROBE_local_irq_save, buf, sizeof(buf));
	ok(why && strstr(why, words) && pc_ring0_machine_cannot(r),
	   "... then a command fails as the machine's, saying \"%s\": %s", words,
	   why ? why : "(passed?)");
	admitted = admit(r, PC_PROBE_local_irq_save, &res, clk);
	ok(!admitted && res.status == PC_STATUS_UNSUPPORTED,
	   "... and the row is unsupported, not failed (%s: %s)", pc_status_name(res.status),
	   res.reason);
	pc_ring0_close(r);
	ok(fake_kvm_open_fds() == 0, "... and every fd of /dev/kvm is closed again");
	fake_kvm_remove();
}

/* The software hypervisor, row by row, then its gate. */
static void pvm(const struct pc_clock *clk)
{
	struct pc_probe_result res;
	struct pc_probe_state st;
	struct pc_ring0 *r;
	char buf[256];
	const char *why;
	bool admitted;
	int id, passed = 0, cannot = 0, other = 0;

	fake_kvm_install(FAKE_KVM_PVM);
	r = open_kvm();
	ok(r && pc_ring0_backend_name(r), "%s: the micro-guest boots",
	   fake_kvm_names[FAKE_KVM_PVM]);
	if (!r || !pc_ring0_backend_name(r)) {
		pc_ring0_close(r);
		fake_kvm_remove();
		return;
	}
	why = pc_ring0_selfcheck(r, PC_PROBE_this_cpu_cmpxchg_double, buf, sizeof(buf));
	ok(why && strstr(why, "the hypervisor cannot run cmpxchg16b in guest ring 0: KVM "
			 "internal error, emulation") && pc_ring0_machine_cannot(r),
	   "this_cpu_cmpxchg_double: the hypervisor cannot run cmpxchg16b in guest "
	   "ring 0, in words, and the machine's: %s", why ? why : "(passed?)");
	ok(pc_ring0_selfcheck(r, PC_PROBE_cmpxchg, buf, sizeof(buf)) == NULL &&
	   !pc_ring0_machine_cannot(r),
	   "the vCPU restarts: the next command runs and passes");
	/* every row as ring0_checks.h takes it: passed, or the machine's verdict */
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		if (!pc_arch_probes[id].run)
			continue;
		why = pc_ring0_selfcheck(r, id, buf, sizeof(buf));
		if (!why)
			passed++;
		else if (pc_ring0_machine_cannot(r))
			cannot++;
		else
			other++;
	}
	ok(cannot == 2 && other == 0 && passed > 20,
	   "every row's self-check passes or is the machine's verdict: %d passed, %d "
	   "this machine cannot (the two cmpxchg16b rows), %d failed", passed, cannot, other);
	why = pc_ring0_selfcheck(r, PC_RING0_TEST_UD2, buf, sizeof(buf));
	ok(why && strstr(why, "vector 6") && !pc_ring0_machine_cannot(r),
	   "a trap is still the row's failure, not the machine's: %s", why ? why : "(passed?)");
	/* a timed loop that ends in the internal error: the row unsupported */
	memset(&st, 0, sizeof(st));
	ok(pc_ring0_run(r, PC_PROBE_cmpxchg128, &st, 1, 1) == 0,
	   "a timed loop of cmpxchg128 gives no time");
	memset(&res, 0, sizeof(res));
	res.id = PC_PROBE_cmpxchg128;
	res.status = PC_STATUS_OK;
	pc_ring0_finish(r, &res);
	ok(res.status == PC_STATUS_UNSUPPORTED && strstr(res.reason, "cmpxchg16b"),
	   "... and its row is unsupported with the reason: %s", res.reason);
	/* the gate: 2,000 cycles an add in ring 0 */
	admitted = admit(r, PC_PROBE_local_irq_save, &res, clk);
	ok(!admitted && res.status == PC_STATUS_UNSUPPORTED &&
	   strstr(res.reason, "ring 0 is emulated") && !pc_ring0_trusted(r),
	   "the gate refuses the emulated ring 0 with its evidence: %s", res.reason);
	if (pc_ring0_evidence(r))
		diag("the gate's ring-0 add chain: %.0f cycles an add",
		     pc_ring0_evidence(r)->ring0_add_ticks / pc_ring0_evidence(r)->host_add_ticks);
	pc_ring0_close(r);
	ok(fake_kvm_open_fds() == 0, "... and every fd of /dev/kvm is closed again");
	fake_kvm_remove();
}

int main(void)
{
	struct pc_clock clk;
	char err[PC_ERRLEN];

	pc_pin_cpu(-1, err, sizeof(err));
	if (pc_clock_init(&clk, false, err, sizeof(err)) < 0) {
		skip(err, "the KVM micro-guest behind a failing /dev/kvm");
		return done_testing();
	}
	does_not_open(FAKE_KVM_NO_DEVICE, "no /dev/kvm", &clk);
	does_not_open(FAKE_KVM_NO_ACCESS, "/dev/kvm: Permission denied", &clk);
	does_not_open(FAKE_KVM_OLD_API, "/dev/kvm speaks KVM API 11, not 12", &clk);
	does_not_open(FAKE_KVM_NO_VM, "KVM_CREATE_VM: Invalid argument", &clk);
	does_not_open(FAKE_KVM_NO_VCPU, "KVM_CREATE_VCPU: Invalid argument", &clk);
	does_not_open(FAKE_KVM_NO_SREGS, "KVM_SET_SREGS (64-bit mode): Invalid argument", &clk);
	does_not_open(FAKE_KVM_RUN_EINVAL, "the micro-guest does not start: KVM_RUN: "
		      "Invalid argument", &clk);
	does_not_open(FAKE_KVM_BOOT_INTERNAL, "the micro-guest does not start: the "
		      "hypervisor cannot run cmpxchg16b in guest ring 0", &clk);
	fails_later(FAKE_KVM_LATER_EINVAL, "KVM_RUN: Invalid argument", &clk);
	fails_later(FAKE_KVM_LATER_FAIL_ENTRY, "KVM cannot enter the guest (reason 0x80000021)",
		    &clk);
	pvm(&clk);
	pc_clock_close(&clk);
	return done_testing();
}
#else
TAP_SKIP_MAIN("the KVM micro-guest is x86-64 only", "the KVM micro-guest behind a failing /dev/kvm")
#endif
