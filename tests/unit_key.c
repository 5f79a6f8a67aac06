/* SPDX-License-Identifier: MIT */
/* The model key: same CPU model on two hosts gives the same key. */
#include <string.h>

#include "core/primcost.h"
#include "core/cpu.h"
#include "tap.h"

static void fill(struct pc_cpu_info *c, const char *vendor, const char *brand,
		 int fam, int model, int step)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->arch, sizeof(c->arch), "x86_64");
	snprintf(c->vendor, sizeof(c->vendor), "%s", vendor);
	snprintf(c->brand, sizeof(c->brand), "%s", brand);
	c->family = fam;
	c->model = model;
	c->stepping = step;
}

/* An arm64 CPU identified by its MIDR_EL1 alone, with its key. */
static void fill_midr(struct pc_cpu_info *c, unsigned long midr)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->arch, sizeof(c->arch), "arm64");
	pc_cpu_from_midr(c, midr);
	pc_cpu_make_key(c);
}

int main(void)
{
	struct pc_cpu_info a, b;
	char err[PC_ERRLEN];

	fill(&a, "AuthenticAMD", "AMD EPYC 9654 96-Core Processor", 25, 17, 1);
	pc_cpu_make_key(&a);
	ok(strcmp(a.key, "x86_64.amd.25-17-1.amd-epyc-9654-96-core-processor") == 0,
	   "key of an EPYC 9654 reads as arch.vendor.fam-model-step.brand (%s)", a.key);

	fill(&b, "AuthenticAMD", "AMD EPYC 9654 96-Core Processor  ", 25, 17, 1);
	b.cores = 96;
	b.threads = 192;
	b.virtualized = true;
	snprintf(b.host, sizeof(b.host), "other-host");
	snprintf(b.kernel, sizeof(b.kernel), "Linux 5.10");
	pc_cpu_make_key(&b);
	ok(strcmp(a.key, b.key) == 0,
	   "another host with the same model (other cores, kernel, host name, VM) has the same key");

	fill(&b, "AuthenticAMD", "AMD EPYC 9654 96-Core Processor", 25, 17, 2);
	pc_cpu_make_key(&b);
	ok(strcmp(a.key, b.key) != 0, "another stepping has another key");

	fill(&b, "GenuineIntel", "Intel(R) Core(TM)2 Quad CPU    Q9450  @ 2.66GHz", 6, 23, 7);
	pc_cpu_make_key(&b);
	ok(strcmp(b.key, "x86_64.intel.6-23-7.intel-r-core-tm-2-quad-cpu-q9450-2-66ghz") == 0,
	   "punctuation and runs of spaces in a brand collapse to single dashes (%s)", b.key);

	fill(&b, "", "", 0, 0, 0);
	pc_cpu_make_key(&b);
	ok(strcmp(b.key, "x86_64.unknown.0-0-0.unknown") == 0,
	   "an unidentified CPU still gets a well-formed key (%s)", b.key);

	/* arm64: identity from MIDR_EL1 (implementer, variant, part, revision). */
	fill_midr(&b, 0x413fd0c1UL);
	ok(strcmp(b.key, "arm64.arm.3340-3-1.arm-neoverse-n1") == 0 &&
	   strcmp(b.brand, "Arm Neoverse N1") == 0,
	   "MIDR 0x413fd0c1 is an Arm Neoverse N1 r3p1: %s (%s)", b.key, b.brand);
	fill_midr(&b, 0x611f0221UL);
	ok(strcmp(b.vendor, "Apple") == 0 && strcmp(b.brand, "Apple M1 Icestorm") == 0 &&
	   b.model == 1 && b.stepping == 1,
	   "MIDR 0x611f0221 is an Apple M1 Icestorm r1p1 (%s)", b.brand);
	fill_midr(&b, 0xc00fac30UL);
	ok(strcmp(b.brand, "Ampere Ampere-1") == 0, "MIDR 0xc00fac30 is an Ampere-1 (%s)",
	   b.brand);
	fill_midr(&b, 0x120fabc0UL);
	ok(strcmp(b.brand, "implementer 0x12 part 0xabc") == 0 &&
	   strcmp(b.key, "arm64.implementer-0x12.2748-0-0.implementer-0x12-part-0xabc") == 0,
	   "an unknown implementer and part still name themselves by number (%s)", b.key);

	/* What issue 15 added beside the identity never enters the key: a Zen 5
	 * guest's key is what it was before the uarch, topology and hypervisor
	 * witnesses were recorded, so old and new files pair in merge/compare. */
	fill(&b, "AuthenticAMD", "Oxide Virtual Turin-like Processor", 26, 2, 1);
	snprintf(b.codename, sizeof(b.codename), "Abu Dhabi");
	pc_cpu_make_key(&b);
	ok(strcmp(b.key, "x86_64.amd.26-2-1.oxide-virtual-turin-like-processor") == 0,
	   "a Zen 5 guest's key keeps its form (%s)", b.key);
	pc_cpu_name_uarch(&b);
	snprintf(b.hv_cpuid, sizeof(b.hv_cpuid), "bhyve");
	snprintf(b.hv_kernel, sizeof(b.hv_kernel), "PVM");
	b.topo.threads = b.threads = 2;
	b.topo.cores = b.cores = 2;
	pc_cpu_make_key(&b);
	ok(strcmp(b.key, "x86_64.amd.26-2-1.oxide-virtual-turin-like-processor") == 0 &&
	   strcmp(b.uarch, "Zen 5") == 0,
	   "its uarch (%s), topology and hypervisors leave the key unchanged", b.uarch);

	ok(pc_cpu_detect(&a, err, sizeof(err)) == 0, "detects this CPU");
	pc_cpu_detect(&b, err, sizeof(err));
	ok(strcmp(a.key, b.key) == 0 && a.key[0], "detection gives a stable key: %s", a.key);
	ok(strspn(a.key, "abcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(a.key),
	   "the key uses only [a-z0-9._-]");
	return done_testing();
}
