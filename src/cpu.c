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
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "primcost.h"

#ifdef HAVE_LIBCPUID
#include <libcpuid/libcpuid.h>
#endif
#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib.h>
#endif

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
	ci->cores = id.num_cores;
	ci->threads = id.num_logical_cpus;
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

#ifdef HAVE_LIBPFM
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
#endif

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
	detect_from_cpuinfo(ci);
#ifdef HAVE_LIBPFM
	detect_pmu(ci);
#endif
	if (uname(&u) == 0) {
		snprintf(ci->kernel, sizeof(ci->kernel), "%s %s", u.sysname, u.release);
		copy(ci->host, sizeof(ci->host), u.nodename);
	}
	pc_cpu_make_key(ci);
	return 0;
}
