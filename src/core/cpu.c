/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - who is this CPU: identity, caches, PMU, virtualisation, and the
 * model key under which its results are filed.
 *
 * x86: libcpuid. Elsewhere, and as a fallback: /proc/cpuinfo.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cpu.h"
#include "arch/arch.h"
#include "config.h"
#include "primcost.h"
#include "topology.h"
#include "uarch.h"

#ifdef HAVE_LIBCPUID
#include <libcpuid/libcpuid.h>
#endif
#include <perfmon/pfmlib.h>

/* Copies src into dst[len], truncating. */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; src && n + 1 < len && src[n]; n++)
		dst[n] = src[n];
	dst[n] = 0;
}

/* Trims trailing spaces and newlines in place. */
static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

/* Value of the first "key : value" line of /proc/cpuinfo. */
static int cpuinfo_field(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	size_t klen = strlen(key);
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, key, klen) != 0)
			continue;
		colon = strchr(line, ':');
		if (!colon || (line[klen] != ' ' && line[klen] != '\t' &&
			       line[klen] != ':'))
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		copy(out, len, colon);
		rtrim(out);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

static void detect_from_cpuinfo(struct pc_cpu_info *ci)
{
	char v[256];

	if (!ci->vendor[0] && cpuinfo_field("vendor_id", v, sizeof(v)) == 0)
		copy(ci->vendor, sizeof(ci->vendor), v);
	if (!ci->brand[0] && cpuinfo_field("model name", v, sizeof(v)) == 0)
		copy(ci->brand, sizeof(ci->brand), v);
	if (!ci->family && cpuinfo_field("cpu family", v, sizeof(v)) == 0)
		ci->family = atoi(v);
	if (!ci->model && cpuinfo_field("model", v, sizeof(v)) == 0)
		ci->model = atoi(v);
	if (!ci->stepping && cpuinfo_field("stepping", v, sizeof(v)) == 0)
		ci->stepping = atoi(v);
	if (cpuinfo_field("flags", v, sizeof(v)) == 0 && strstr(v, " hypervisor"))
		ci->virtualized = true;
	if (!ci->threads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		ci->threads = n > 0 ? (int)n : 0;
	}
}

#ifdef HAVE_LIBCPUID
static const char *hypervisor_name(int hv)
{
	switch (hv) {
	case HYPERVISOR_BHYVE: return "bhyve";
	case HYPERVISOR_HYPERV: return "hyperv";
	case HYPERVISOR_KVM: return "kvm";
	case HYPERVISOR_PARALLELS: return "parallels";
	case HYPERVISOR_QEMU: return "qemu";
	case HYPERVISOR_VIRTUALBOX: return "virtualbox";
	case HYPERVISOR_VMWARE: return "vmware";
	case HYPERVISOR_XEN: return "xen";
	default: return "unknown";
	}
}

static int detect_libcpuid(struct pc_cpu_info *ci, char *err, size_t errlen)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;
	int hv;

	if (cpuid_get_raw_data(&raw) < 0 || cpu_identify(&raw, &id) < 0) {
		snprintf(err, errlen, "libcpuid: %s", cpuid_error());
		return -1;
	}
	copy(ci->vendor, sizeof(ci->vendor), id.vendor_str);
	copy(ci->brand, sizeof(ci->brand), id.brand_str);
	rtrim(ci->brand);
	copy(ci->codename, sizeof(ci->codename), id.cpu_codename);
	/* Displayed family/model fold in the extended fields, as the kernel does. */
	ci->family = id.ext_family;
	ci->model = id.ext_model;
	ci->stepping = id.stepping;
	/* Per package, and in a virtual machine whatever the hypervisor's
	 * CPUID says: the topology (hwloc) replaces both. */
	ci->cores = id.num_cores;
	ci->threads = id.total_logical_cpus;
	ci->l1d_kb = id.l1_data_cache > 0 ? id.l1_data_cache : 0;
	ci->l1i_kb = id.l1_instruction_cache > 0 ? id.l1_instruction_cache : 0;
	ci->l2_kb = id.l2_cache > 0 ? id.l2_cache : 0;
	ci->l3_kb = id.l3_cache > 0 ? id.l3_cache : 0;
	hv = (int)cpuid_get_hypervisor(&raw, &id);
	if (id.flags[CPU_FEATURE_HYPERVISOR] || hv > 0) {
		ci->virtualized = true;
		copy(ci->hypervisor, sizeof(ci->hypervisor),
		     hv > 0 ? hypervisor_name(hv) : "unknown");
	}
	return 0;
}
#endif

/* The most specific core PMU libpfm4 recognises (it identifies the model
 * by its own tables, often more precisely than libcpuid). */
static void detect_pmu(struct pc_cpu_info *ci)
{
	pfm_pmu_info_t info;
	int i;

	if (pfm_initialize() != PFM_SUCCESS)
		return;
	pfm_for_all_pmus(i) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(i, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (info.type != PFM_PMU_TYPE_CORE)
			continue;
		if (strncmp(info.name, "perf", 4) == 0)	/* generic, not a model */
			continue;
		copy(ci->pmu, sizeof(ci->pmu), info.name);
		copy(ci->pmu_desc, sizeof(ci->pmu_desc), info.desc);
		return;
	}
}

/* Lower-case, [a-z0-9] runs joined by '-'. */
static void slug(const char *in, char *out, size_t len)
{
	size_t o = 0;
	int dash = 0;

	for (; *in && o + 2 < len; in++) {
		unsigned char ch = (unsigned char)*in;

		if (isalnum(ch)) {
			if (dash && o)
				out[o++] = '-';
			out[o++] = (char)tolower(ch);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	out[o] = 0;
}

static const char *vendor_short(const char *vendor)
{
	if (strcmp(vendor, "AuthenticAMD") == 0)
		return "amd";
	if (strcmp(vendor, "GenuineIntel") == 0)
		return "intel";
	if (strcmp(vendor, "HygonGenuine") == 0)
		return "hygon";
	if (strcmp(vendor, "CentaurHauls") == 0)
		return "centaur";
	return NULL;
}

/*
 * arch.vendor.family-model-stepping.brand, e.g.
 * "x86_64.amd.25-1-1.amd-epyc": everything that identifies the silicon and
 * nothing that varies between hosts (no frequency, no core count, no host).
 */
void pc_cpu_make_key(struct pc_cpu_info *ci)
{
	char v[64], b[128];
	const char *vs = vendor_short(ci->vendor);

	if (vs)
		copy(v, sizeof(v), vs);
	else
		slug(ci->vendor[0] ? ci->vendor : "unknown", v, sizeof(v));
	slug(ci->brand[0] ? ci->brand : "unknown", b, sizeof(b));
	snprintf(ci->key, sizeof(ci->key), "%s.%s.%d-%d-%d.%s", ci->arch, v,
		 ci->family, ci->model, ci->stepping, b);
}

/* ---- arm64: MIDR_EL1 ------------------------------------------------------ */

/* Implementer codes and part numbers as Linux names them
 * (arch/arm64/include/asm/cputype.h). */
static const struct { unsigned code; const char *name; } midr_implementers[] = {
	{ 0x41, "Arm" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" },
	{ 0x46, "Fujitsu" }, { 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },
	{ 0x50, "APM" }, { 0x51, "Qualcomm" }, { 0x61, "Apple" },
	{ 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

static const struct { unsigned impl, part; const char *name; } midr_parts[] = {
	{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" },
	{ 0x41, 0xd05, "Cortex-A55" }, { 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse N1" }, { 0x41, 0xd0d, "Cortex-A77" },
	{ 0x41, 0xd0e, "Cortex-A76AE" }, { 0x41, 0xd40, "Neoverse V1" },
	{ 0x41, 0xd41, "Cortex-A78" }, { 0x41, 0xd42, "Cortex-A78AE" },
	{ 0x41, 0xd44, "Cortex-X1" }, { 0x41, 0xd46, "Cortex-A510" },
	{ 0x41, 0xd47, "Cortex-A710" }, { 0x41, 0xd48, "Cortex-X2" },
	{ 0x41, 0xd49, "Neoverse N2" }, { 0x41, 0xd4b, "Cortex-A78C" },
	{ 0x41, 0xd4c, "Cortex-X1C" }, { 0x41, 0xd4d, "Cortex-A715" },
	{ 0x41, 0xd4e, "Cortex-X3" }, { 0x41, 0xd4f, "Neoverse V2" },
	{ 0x41, 0xd80, "Cortex-A520" }, { 0x41, 0xd81, "Cortex-A720" },
	{ 0x41, 0xd82, "Cortex-X4" }, { 0x41, 0xd84, "Neoverse V3" },
	{ 0x41, 0xd85, "Cortex-X925" }, { 0x41, 0xd87, "Cortex-A725" },
	{ 0x41, 0xd8e, "Neoverse N3" },
	{ 0x42, 0x100, "Brahma-B53" }, { 0x42, 0x516, "Vulcan" },
	{ 0x43, 0x0a1, "ThunderX" }, { 0x43, 0x0a2, "ThunderX 81xx" },
	{ 0x43, 0x0a3, "ThunderX 83xx" }, { 0x43, 0x0af, "ThunderX2" },
	{ 0x46, 0x001, "A64FX" },
	{ 0x48, 0xd01, "TaiShan v110" },
	{ 0x4e, 0x003, "Denver" }, { 0x4e, 0x004, "Carmel" },
	{ 0x50, 0x000, "X-Gene" },
	{ 0x51, 0x001, "Oryon" }, { 0x51, 0x200, "Kryo" },
	{ 0x51, 0x800, "Kryo 2xx Gold" }, { 0x51, 0x801, "Kryo 2xx Silver" },
	{ 0x51, 0x802, "Kryo 3xx Gold" }, { 0x51, 0x803, "Kryo 3xx Silver" },
	{ 0x51, 0x804, "Kryo 4xx Gold" }, { 0x51, 0x805, "Kryo 4xx Silver" },
	{ 0x51, 0xc00, "Falkor" },
	{ 0x61, 0x022, "M1 Icestorm" }, { 0x61, 0x023, "M1 Firestorm" },
	{ 0x61, 0x024, "M1 Pro Icestorm" }, { 0x61, 0x025, "M1 Pro Firestorm" },
	{ 0x61, 0x028, "M1 Max Icestorm" }, { 0x61, 0x029, "M1 Max Firestorm" },
	{ 0x61, 0x032, "M2 Blizzard" }, { 0x61, 0x033, "M2 Avalanche" },
	{ 0x61, 0x034, "M2 Pro Blizzard" }, { 0x61, 0x035, "M2 Pro Avalanche" },
	{ 0x61, 0x038, "M2 Max Blizzard" }, { 0x61, 0x039, "M2 Max Avalanche" },
	{ 0x6d, 0xd49, "Azure Cobalt 100" },
	{ 0xc0, 0xac3, "Ampere-1" }, { 0xc0, 0xac4, "Ampere-1A" },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void pc_cpu_from_midr(struct pc_cpu_info *ci, unsigned long midr)
{
	unsigned impl = (unsigned)(midr >> 24) & 0xff, part = (unsigned)(midr >> 4) & 0xfff;
	const char *vname = NULL, *pname = NULL;
	size_t i;

	for (i = 0; i < ARRAY_LEN(midr_implementers); i++)
		if (midr_implementers[i].code == impl)
			vname = midr_implementers[i].name;
	for (i = 0; i < ARRAY_LEN(midr_parts); i++)
		if (midr_parts[i].impl == impl && midr_parts[i].part == part)
			pname = midr_parts[i].name;
	ci->midr = midr;
	if (vname)
		copy(ci->vendor, sizeof(ci->vendor), vname);
	else
		snprintf(ci->vendor, sizeof(ci->vendor), "implementer 0x%02x", impl);
	if (pname)
		snprintf(ci->brand, sizeof(ci->brand), "%s %s", ci->vendor, pname);
	else
		snprintf(ci->brand, sizeof(ci->brand), "%s part 0x%03x", ci->vendor, part);
	ci->family = (int)part;
	ci->model = (int)(midr >> 20) & 0xf;	/* variant: the X of rXpY */
	ci->stepping = (int)midr & 0xf;		/* revision: the Y */
}

#ifdef __aarch64__
/* MIDR_EL1 of CPU 0 from sysfs (Linux >= 4.7), else from /proc/cpuinfo. */
static void detect_arm64(struct pc_cpu_info *ci)
{
	static const char *const keys[] = { "CPU implementer", "CPU variant",
					    "CPU part", "CPU revision" };
	static const int shifts[] = { 24, 20, 4, 0 };
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long midr = 0;
	char v[64];
	unsigned i;

	if (f) {
		if (fgets(v, sizeof(v), f))
			midr = strtoul(v, NULL, 0);
		fclose(f);
	}
	for (i = 0; !midr && i < ARRAY_LEN(keys); i++)
		if (cpuinfo_field(keys[i], v, sizeof(v)) == 0)
			midr |= strtoul(v, NULL, 0) << shifts[i];
	if (midr)
		pc_cpu_from_midr(ci, midr);
}
#endif

/* ---- the running system ----------------------------------------------------- */

const struct pc_arch_env *pc_arch_env(void)
{
	static struct pc_arch_env env;
	static bool done;

	if (!done) {
		env.hwcap = getauxval(AT_HWCAP);
		env.hwcap2 = getauxval(AT_HWCAP2);
		done = true;
	}
	return &env;
}

/*
 * A user-mode emulator (qemu-user) runs this program on a kernel of another
 * architecture, whose /proc/cpuinfo describes the host: a line that every
 * kernel of this architecture prints is then missing.
 */
#if defined(__x86_64__) || defined(__i386__)
#define CPUINFO_OWN_LINE "vendor_id"
#elif defined(__aarch64__)
#define CPUINFO_OWN_LINE "CPU implementer"
#endif

static void detect_emulation(struct pc_cpu_info *ci)
{
#ifdef CPUINFO_OWN_LINE
	char v[256];

	if (access("/proc/cpuinfo", R_OK) != 0)
		return;
	if (cpuinfo_field(CPUINFO_OWN_LINE, v, sizeof(v)) != 0) {
		snprintf(ci->emulated, sizeof(ci->emulated), "/proc/cpuinfo has no "
			 "'%s' line: the kernel runs on another architecture and this "
			 "%s program under an emulator", CPUINFO_OWN_LINE, pc_arch_name);
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	/*
	 * Same architecture family, translated all the same (qemu-i386 on an
	 * x86-64 kernel that refuses 32-bit programs): the CPUID this program
	 * executes is the emulator's, while the kernel describes the real CPU.
	 * In a virtual machine both read the hypervisor's CPUID: the vendor,
	 * family and model agree (the brand string need not: a PVM guest's
	 * kernel may name the CPU otherwise).
	 */
	{
		char fam[32], mod[32];

		if (ci->vendor[0] && cpuinfo_field("cpu family", fam, sizeof(fam)) == 0 &&
		    cpuinfo_field("model", mod, sizeof(mod)) == 0 &&
		    (strcmp(v, ci->vendor) != 0 || atoi(fam) != ci->family ||
		     atoi(mod) != ci->model))
			snprintf(ci->emulated, sizeof(ci->emulated), "CPUID reads %.16s "
				 "family %d model %d but the kernel reports %.16s family "
				 "%.8s model %.8s: this %s program runs under an emulator",
				 ci->vendor, ci->family, ci->model, v, fam, mod,
				 pc_arch_name);
	}
#endif
#else
	(void)ci;
#endif
}

/* ---- what the identity means: data/uarch.tsv ------------------------------ */

static const char *libcpuid_name(char *buf, size_t len)
{
#ifdef HAVE_LIBCPUID
	snprintf(buf, len, "libcpuid %s", cpuid_lib_version());
#else
	snprintf(buf, len, "libcpuid");
#endif
	return buf;
}

void pc_cpu_name_uarch(struct pc_cpu_info *ci)
{
	const struct pc_uarch_row *r, *lib;
	char vendor[32], libname[48];

	if (ci->midr)
		snprintf(vendor, sizeof(vendor), "0x%02lx", (ci->midr >> 24) & 0xff);
	else
		copy(vendor, sizeof(vendor), ci->vendor);
	r = pc_uarch_find(ci->arch, vendor, ci->family, ci->model);
	ci->uarch[0] = ci->uarch_source[0] = ci->codename_note[0] = 0;
	if (r) {
		copy(ci->uarch, sizeof(ci->uarch), r->uarch);
		copy(ci->uarch_source, sizeof(ci->uarch_source), r->source);
	}
	if (!r || !ci->codename[0])
		return;		/* nothing to check libcpuid's codename against */
	lib = pc_uarch_by_codename(ci->arch, vendor, ci->codename);
	if (lib && strcmp(lib->uarch, r->uarch) == 0)
		return;		/* it agrees: kept */
	libcpuid_name(libname, sizeof(libname));
	if (lib && lib < r)
		snprintf(ci->codename_note, sizeof(ci->codename_note),
			 "%.24s (older than this CPU): %.48s, a %.40s name", libname,
			 ci->codename, lib->uarch);
	else if (lib)
		snprintf(ci->codename_note, sizeof(ci->codename_note),
			 "%.24s disagrees: %.48s, a %.40s name", libname, ci->codename,
			 lib->uarch);
	else
		snprintf(ci->codename_note, sizeof(ci->codename_note),
			 "%.24s: %.48s, not a codename of %.40s", libname, ci->codename,
			 r->uarch);
	ci->codename[0] = 0;
}

/* Why libpfm4 names no core PMU for this CPU. */
static void pmu_note(struct pc_cpu_info *ci)
{
#ifdef PC_LIBPFM_RELEASE
	if (!ci->pmu[0])
		snprintf(ci->pmu_note, sizeof(ci->pmu_note), "libpfm4 %s does not "
			 "know this CPU", PC_LIBPFM_RELEASE);
#else
	int v = pfm_get_version();	/* the API version, not the release */

	if (!ci->pmu[0])
		snprintf(ci->pmu_note, sizeof(ci->pmu_note), "libpfm4 (API %d.%d) does "
			 "not know this CPU", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
#endif
}

void pc_cpu_note_caches(struct pc_cpu_info *ci)
{
	const int cpuid_kb[] = { ci->l1d_kb, ci->l1i_kb, ci->l2_kb, ci->l3_kb };
	static const char *const names[] = { "L1d", "L1i", "L2", "L3" };
	static const int levels[] = { 1, 1, 2, 3 };
	static const char *const types[] = { "data", "instruction", "unified", "unified" };
	char a[96] = "", b[96] = "";
	size_t i, na = 0, nb = 0;

	ci->caches_note[0] = 0;
	if (!ci->l1d_kb && !ci->l2_kb && !ci->l3_kb)
		return;
	if (!ci->topo.os_caches) {
		snprintf(ci->caches_note, sizeof(ci->caches_note), "CPUID's sizes: the "
			 "kernel describes no caches (no /sys/devices/system/cpu/cpu0/"
			 "cache)%s", ci->virtualized ? "; in a virtual machine they are "
			 "the hypervisor's" : "");
		return;
	}
	for (i = 0; i < 4; i++) {
		long os = pc_topology_cache_kb(&ci->topo, levels[i], types[i]);

		if (!os && levels[i] > 1)
			os = pc_topology_cache_kb(&ci->topo, levels[i], "data");
		if (!os || !cpuid_kb[i] || os == cpuid_kb[i] || na + 24 >= sizeof(a))
			continue;
		na += (size_t)snprintf(a + na, sizeof(a) - na, "%s%s %d KiB",
				       na ? ", " : "", names[i], cpuid_kb[i]);
		nb += (size_t)snprintf(b + nb, sizeof(b) - nb, "%s%s %ld KiB",
				       nb ? ", " : "", names[i], os);
	}
	if (na)
		snprintf(ci->caches_note, sizeof(ci->caches_note), "CPUID says %s; "
			 "the kernel says %s", a, b);
}

/* Topology from hwloc; the thread count is always the online CPUs. */
static void detect_topology(struct pc_cpu_info *ci)
{
	char err[PC_ERRLEN];
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (pc_topology_load(&ci->topo, NULL, err, sizeof(err)) == 0 && ci->topo.cores > 0)
		ci->cores = ci->topo.cores;
	if (online > 0)
		ci->threads = (int)online;
}

int pc_cpu_detect(struct pc_cpu_info *ci, char *err, size_t errlen)
{
	struct utsname u;

	memset(ci, 0, sizeof(*ci));
	copy(ci->arch, sizeof(ci->arch), pc_arch_name);
#ifdef HAVE_LIBCPUID
	if (detect_libcpuid(ci, err, errlen) < 0)
		return -1;
#else
	(void)err;
	(void)errlen;
#endif
	detect_emulation(ci);
#ifdef __aarch64__
	if (!ci->emulated[0])
		detect_arm64(ci);
#endif
	if (ci->emulated[0]) {	/* /proc/cpuinfo describes the host */
		copy(ci->brand, sizeof(ci->brand), "emulated CPU");
		ci->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	} else {
		detect_from_cpuinfo(ci);
	}
	detect_pmu(ci);
	pmu_note(ci);
	detect_topology(ci);
	pc_cpu_detect_hypervisor(ci);
	pc_cpu_note_caches(ci);
	pc_cpu_name_uarch(ci);
	if (uname(&u) == 0) {
		snprintf(ci->kernel, sizeof(ci->kernel), "%s %s", u.sysname, u.release);
		copy(ci->host, sizeof(ci->host), u.nodename);
	}
	pc_cpu_make_key(ci);
	return 0;
}
