/* SPDX-License-Identifier: MIT */
/* The microarchitecture table (data/uarch.tsv) on the identities of real
 * machines, libcpuid's codename checked against it, and the hypervisor
 * witnesses' parsers. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/primcost.h"
#include "core/cpu.h"
#include "tap.h"
#include "core/uarch.h"

/* Identities as these machines report them (/proc/cpuinfo, MIDR_EL1). */
static const struct fixture {
	const char *what, *arch, *vendor, *brand;
	int family, model, stepping;
	unsigned long midr;
	const char *libcpuid;	/* libcpuid 0.6.2's codename for it, or NULL */
	const char *uarch;	/* what the table must say ("" : unknown) */
	int codename_kept;	/* libcpuid's codename agrees with the table */
} fixtures[] = {
	{ "Zen 3 server (EPYC 7763)", "x86_64", "AuthenticAMD",
	  "AMD EPYC 7763 64-Core Processor", 25, 1, 1, 0, "EPYC (Milan)", "Zen 3", 1 },
	{ "Zen 3 desktop (Ryzen 9 5950X)", "x86_64", "AuthenticAMD",
	  "AMD Ryzen 9 5950X 16-Core Processor", 25, 33, 0, 0, "Ryzen 9 (Vermeer)",
	  "Zen 3", 1 },
	{ "Zen 4 server (EPYC 9654)", "x86_64", "AuthenticAMD",
	  "AMD EPYC 9654 96-Core Processor", 25, 17, 1, 0, "EPYC (Milan)", "Zen 4", 0 },
	{ "Zen 5 VM (Turin)", "x86_64", "AuthenticAMD", "AMD EPYC", 26, 2, 1, 0,
	  "Abu Dhabi", "Zen 5", 0 },
	{ "Intel client with SMT (Core i7-1165G7)", "x86_64", "GenuineIntel",
	  "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", 6, 140, 1, 0,
	  "Tiger Lake-U", "Willow Cove (Tiger Lake)", 1 },
	{ "Intel Core 2 Quad Q9450 (a seed CPU)", "x86_64", "GenuineIntel",
	  "Intel(R) Core(TM)2 Quad CPU Q9450 @ 2.66GHz", 6, 23, 7, 0,
	  "Core 2 Quad (Yorkfield)", "Core 2 (Penryn)", 1 },
	{ "Opteron 6276 (a seed CPU), on i386", "i386", "AuthenticAMD",
	  "AMD Opteron(TM) Processor 6276", 21, 1, 2, 0, "Opteron (Interlagos)",
	  "Bulldozer", 1 },
	{ "arm64 Neoverse N1 (Ampere Altra)", "arm64", NULL, NULL, 0, 0, 0,
	  0x413fd0c1UL, NULL, "Neoverse N1", 0 },
	{ "arm64 Neoverse V2 (NVIDIA Grace)", "arm64", NULL, NULL, 0, 0, 0,
	  0x410fd4f0UL, NULL, "Neoverse V2", 0 },
	{ "Itanium 2 9050 (a seed CPU)", "ia64", "GenuineIntel",
	  "Dual-Core Intel(R) Itanium(R) 2 Processor 9050", 32, 0, 7, 0, NULL,
	  "Itanium 2 (Montecito)", 0 },
	{ "an AMD family the table does not know", "x86_64", "AuthenticAMD",
	  "AMD Future", 30, 0, 0, 0, "Abu Dhabi", "", 1 },
};

static void fill(struct pc_cpu_info *c, const struct fixture *f)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->arch, sizeof(c->arch), "%s", f->arch);
	if (f->midr) {
		pc_cpu_from_midr(c, f->midr);
	} else {
		snprintf(c->vendor, sizeof(c->vendor), "%s", f->vendor);
		snprintf(c->brand, sizeof(c->brand), "%s", f->brand);
		c->family = f->family;
		c->model = f->model;
		c->stepping = f->stepping;
	}
	if (f->libcpuid)
		snprintf(c->codename, sizeof(c->codename), "%s", f->libcpuid);
}

static void check_fixtures(void)
{
	size_t i;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const struct fixture *f = &fixtures[i];
		struct pc_cpu_info c;
		char key[256];

		fill(&c, f);
		pc_cpu_make_key(&c);
		snprintf(key, sizeof(key), "%s", c.key);
		pc_cpu_name_uarch(&c);
		ok(strcmp(c.uarch, f->uarch) == 0 && (!*f->uarch || c.uarch_source[0]),
		   "%s is '%s' (%s)", f->what, c.uarch, c.uarch_source);
		if (f->libcpuid)
			ok(f->codename_kept ? strcmp(c.codename, f->libcpuid) == 0 &&
			   !c.codename_note[0] : !c.codename[0] && c.codename_note[0],
			   "%s: libcpuid's '%s' %s (%s)", f->what, f->libcpuid,
			   f->codename_kept ? "is kept" : "is replaced by a note",
			   c.codename_note);
		pc_cpu_make_key(&c);
		ok(strcmp(key, c.key) == 0, "%s: naming it leaves the key alone", f->what);
	}
}

/* Rows of one arch, vendor and family never overlap, and every row says
 * where it comes from. */
static void check_table(void)
{
	size_t i, j, overlaps = 0, unsourced = 0;

	for (i = 0; i < pc_uarch_nrows; i++) {
		const struct pc_uarch_row *a = &pc_uarch_rows[i];

		if (!a->source[0] || !a->uarch[0])
			unsourced++;
		for (j = i + 1; j < pc_uarch_nrows; j++) {
			const struct pc_uarch_row *b = &pc_uarch_rows[j];
			int alo = a->first < 0 ? 0 : a->first, ahi = a->last < 0 ? 1 << 30 : a->last;
			int blo = b->first < 0 ? 0 : b->first, bhi = b->last < 0 ? 1 << 30 : b->last;

			if (strcmp(a->arch, b->arch) == 0 && strcmp(a->vendor, b->vendor) == 0 &&
			    a->family == b->family && alo <= bhi && blo <= ahi) {
				diag("rows %zu and %zu overlap: %s %s", i, j, a->uarch, b->uarch);
				overlaps++;
			}
		}
	}
	ok(pc_uarch_nrows > 100, "the table has %zu rows", pc_uarch_nrows);
	ok(!overlaps, "no two rows claim the same model");
	ok(!unsourced, "every row names its microarchitecture and its source");
}

/* Every MIDR part whose name makes an arm64 brand (and so a model key, in
 * cpu.c) has a uarch row. The table may know more parts: cpu.c must not
 * learn their names, or the keys of files already written would change. */
static void check_midr_parts(void)
{
	unsigned impl, part, named = 0, unplaced = 0, extra = 0;
	struct pc_cpu_info c;
	char vendor[8];

	for (impl = 0; impl < 256; impl++)
		for (part = 0; part < 0x1000; part++) {
			bool brand, row;

			memset(&c, 0, sizeof(c));
			pc_cpu_from_midr(&c, (unsigned long)impl << 24 | part << 4);
			brand = !strstr(c.brand, " part 0x");
			snprintf(vendor, sizeof(vendor), "0x%02x", impl);
			row = pc_uarch_find("arm64", vendor, (int)part, 0) != NULL;
			named += brand;
			if (brand && !row)
				diag("MIDR %s part 0x%03x (%s) has no uarch row", vendor,
				     part, c.brand), unplaced++;
			extra += row && !brand;
		}
	ok(named > 50 && !unplaced, "the %u MIDR parts cpu.c names all have a uarch row "
	   "(and %u more rows name parts whose brand stays a number)", named, extra);
}

static void check_hypervisor_parsers(void)
{
	char out[64];

	ok(pc_hypervisor_signature_name("bhyve bhyve ") &&
	   strcmp(pc_hypervisor_signature_name("bhyve bhyve "), "bhyve") == 0,
	   "CPUID signature 'bhyve bhyve ' is bhyve");
	ok(pc_hypervisor_signature_name("KVMKVMKVM") &&
	   strcmp(pc_hypervisor_signature_name("KVMKVMKVM"), "KVM") == 0,
	   "CPUID signature 'KVMKVMKVM' is KVM");
	ok(pc_hypervisor_signature_name("Microsoft Hv") &&
	   strcmp(pc_hypervisor_signature_name("Microsoft Hv"), "Hyper-V") == 0,
	   "CPUID signature 'Microsoft Hv' is Hyper-V");
	ok(!pc_hypervisor_signature_name("NotAHypervsr"), "an unknown signature has no name");
	ok(pc_hypervisor_from_log("6,0,0,-;Hypervisor detected: PVM\n", out, sizeof(out)) == 0 &&
	   strcmp(out, "PVM") == 0, "a /dev/kmsg record 'Hypervisor detected: PVM' is PVM");
	ok(pc_hypervisor_from_log("[    0.000000] Hypervisor detected: KVM\n", out,
				  sizeof(out)) == 0 && strcmp(out, "KVM") == 0,
	   "a dmesg line 'Hypervisor detected: KVM' is KVM");
	ok(pc_hypervisor_from_log("[    0.000000] Linux version 6.1\n", out, sizeof(out)) < 0,
	   "another log line names no hypervisor");
}

/* This machine: the thread count is the online CPU count, and naming the
 * uarch changed nothing the key is made of. */
static void check_this_machine(void)
{
	struct pc_cpu_info c;
	char err[PC_ERRLEN], key[256];
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (pc_cpu_detect(&c, err, sizeof(err)) < 0) {
		ok(0, "detects this CPU: %s", err);
		return;
	}
	ok(c.threads == online, "threads (%d) is the online CPU count (%ld)", c.threads,
	   online);
	snprintf(key, sizeof(key), "%s", c.key);
	pc_cpu_make_key(&c);
	ok(strcmp(key, c.key) == 0, "the key is made of the identity alone: %s", c.key);
	diag("this CPU: %s, uarch '%s' (%s)%s%s", c.brand, c.uarch, c.uarch_source,
	     c.codename_note[0] ? "; " : "", c.codename_note);
}

int main(void)
{
	check_table();
	check_fixtures();
	check_midr_parts();
	check_hypervisor_parsers();
	check_this_machine();
	return done_testing();
}
