/* SPDX-License-Identifier: MIT */
/*
 * The validation gate as a pure function, on synthetic figures: a native
 * ring 0 (hardware virtualization, a kernel module) passes, an emulated one
 * (a software hypervisor: thousands of cycles per add) fails with the
 * evidence in the reason, and the tolerances sit where the man page says.
 * Also the --ring0 mode names, and why there is no /dev/kvm on machines
 * laid out in a temporary directory (sys/module, proc/cpuinfo).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ring0/ring0.h"
#include "tap.h"

/* A 3.2 GHz core under a 2.445 GHz TSC: 0.757 ticks per cycle. */
#define TPC 0.757

static bool gate(double add_cycles, double cmpxchg_cycles, double host_cmpxchg_cycles,
		 const char *hv, char *why)
{
	struct pc_ring0_evidence e = {
		.host_add_ticks = TPC,
		.ring0_add_ticks = add_cycles * TPC,
		.host_cmpxchg_ticks = host_cmpxchg_cycles * TPC,
		.ring0_cmpxchg_ticks = cmpxchg_cycles * TPC,
	};

	return pc_ring0_gate(&e, hv, why, 256);
}

/* A machine under dir: these modules in sys/module, a VM if vm. */
static void machine(const char *dir, const char *const *modules, bool vm)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "rm -rf '%s/sys' '%s/proc'", dir, dir);
	if (system(path) != 0)
		return;
	snprintf(path, sizeof(path), "%s/sys", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/module", dir);
	mkdir(path, 0700);
	for (; modules && *modules; modules++) {
		snprintf(path, sizeof(path), "%s/sys/module/%s", dir, *modules);
		mkdir(path, 0700);
	}
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", dir);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "processor\t: 0\nflags\t\t: fpu vme de%s sse\n",
			vm ? " hypervisor" : "");
		fclose(f);
	}
}

static void check_no_kvm_reasons(void)
{
	static const char *const pvm[] = { "kvm", "kvm_pvm", NULL };
	static const char *const amd[] = { "kvm", "kvm_amd", NULL };
	static const char *const core[] = { "kvm", NULL };
	char dir[] = "/tmp/primcost-ring0.XXXXXX", why[256], rm[64];

	if (!mkdtemp(dir)) {
		skip("cannot make a temporary directory", "reasons for no /dev/kvm");
		return;
	}
	machine(dir, pvm, true);
	pc_ring0_no_kvm_reason(dir, why, sizeof(why));
	ok(strstr(why, "kvm_pvm module (a software hypervisor) is present but there "
		  "is no /dev/kvm") != NULL, "kvm_pvm without a device: %s", why);
	machine(dir, amd, false);
	pc_ring0_no_kvm_reason(dir, why, sizeof(why));
	ok(strstr(why, "kvm_amd module is present") != NULL, "kvm_amd without a device: %s",
	   why);
	machine(dir, core, false);
	pc_ring0_no_kvm_reason(dir, why, sizeof(why));
	ok(strstr(why, "no vendor module") != NULL, "kvm alone: %s", why);
	machine(dir, NULL, true);
	pc_ring0_no_kvm_reason(dir, why, sizeof(why));
	ok(strstr(why, "no KVM module, in a virtual machine") != NULL,
	   "no module in a VM: %s", why);
	machine(dir, NULL, false);
	pc_ring0_no_kvm_reason(dir, why, sizeof(why));
	ok(strcmp(why, "no /dev/kvm: no KVM module loaded") == 0,
	   "no module on bare metal: %s", why);
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	if (system(rm) != 0)
		diag("could not remove %s", dir);
}

int main(void)
{
	check_no_kvm_reasons();
	char why[256];
	enum pc_ring0_mode m;
	bool pass;

	pass = gate(1.003, 9.04, 9.00, "kvm-intel", why);
	ok(pass && strstr(why, "ring 0 validated"),
	   "native-looking figures pass (add 1.003, cmpxchg 9.04 vs 9.00): %s", why);
	pass = gate(1.0, 18.2, 18.0, NULL, why);
	ok(pass && !strstr(why, "()"), "a kernel module's figures pass, no hypervisor named: %s",
	   why);

	pass = gate(2250.0, 6477.0, 9.18, "pvm", why);
	ok(!pass, "emulated-looking figures fail (add 2250 cycles, cmpxchg 6477)");
	ok(strstr(why, "ring 0 is emulated (pvm)") != NULL,
	   "... the reason says ring 0 is emulated and names the hypervisor: %s", why);
	ok(strstr(why, "add chain reads 2250 cycles per add") &&
	   strstr(why, "cmpxchg 6477 cycles") && strstr(why, "host ring 3: 9.18"),
	   "... and carries the measured evidence");

	ok(gate(1.04, 9.0, 9.0, "kvm-amd", why), "an add chain 4 %% slow is within tolerance");
	pass = gate(1.06, 9.0, 9.0, "kvm-amd", why);
	ok(!pass && strstr(why, "disagrees") && strstr(why, "1.06"),
	   "an add chain 6 %% slow fails, as a disagreement, not emulation: %s", why);
	ok(gate(1.0, 9.8, 9.0, NULL, why), "a ring-0 cmpxchg 9 %% slower passes");
	ok(!gate(1.0, 10.1, 9.0, NULL, why), "a ring-0 cmpxchg 12 %% slower fails: %s", why);
	ok(!gate(1.0, 7.9, 9.0, NULL, why), "a ring-0 cmpxchg 12 %% faster fails too");
	ok(!gate(1.0, 9.0, 0.0, NULL, why) && strstr(why, "cannot be validated"),
	   "a zero host figure cannot validate: %s", why);
	ok(!gate(NAN, 9.0, 9.0, NULL, why), "a NaN ring-0 add chain cannot validate");

	ok(pc_ring0_mode_parse("auto", &m) == 0 && m == PC_RING0_AUTO &&
	   pc_ring0_mode_parse("kvm", &m) == 0 && m == PC_RING0_KVM &&
	   pc_ring0_mode_parse("kmod", &m) == 0 && m == PC_RING0_KMOD &&
	   pc_ring0_mode_parse("none", &m) == 0 && m == PC_RING0_NONE,
	   "--ring0 auto, kvm, kmod and none parse");
	ok(pc_ring0_mode_parse("xen", &m) < 0 && pc_ring0_mode_parse("", &m) < 0,
	   "--ring0 refuses anything else");
	ok(strcmp(pc_ring0_mode_name(PC_RING0_KMOD), "kmod") == 0, "mode names round-trip");
	{
		const char *k = pc_ring0_hypervisor(why, sizeof(why));

		ok(strcmp(k, "kvm-intel") == 0 || strcmp(k, "kvm-amd") == 0 ||
		   strcmp(k, "pvm") == 0 || strcmp(k, "kvm") == 0 || strcmp(k, "none") == 0,
		   "the hypervisor kind is one of the documented names: %s (%s)", k, why);
	}
	return done_testing();
}
