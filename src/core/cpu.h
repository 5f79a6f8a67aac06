/* SPDX-License-Identifier: MIT */
/* cpu.h - the CPU's identity (libcpuid, libpfm4, the hypervisor) (cpu.c). */
#ifndef PC_CPU_H
#define PC_CPU_H

#include <stdbool.h>
#include <stddef.h>

#include "core/topology.h"

struct pc_cpu_info {
	char arch[16];
	char vendor[32];	/* "AuthenticAMD", "GenuineIntel", ... */
	char brand[128];
	char codename[64];	/* libcpuid's name for the core */
	char pmu[64];		/* libpfm4's most specific core PMU, "" if none */
	char pmu_desc[128];
	int family, model, stepping;	/* as /proc/cpuinfo shows them */
	int cores, threads;
	int l1d_kb, l1i_kb, l2_kb, l3_kb;
	bool virtualized;
	char hypervisor[32];	/* "kvm", "vmware", ... or "" */
	char kernel[160];
	char host[128];
	char key[256];		/* the model key: same CPU model -> same key */
	unsigned long midr;	/* arm64: MIDR_EL1 (family-model-stepping are
				 * its part-variant-revision); 0 elsewhere */
	char emulated[224];	/* why this looks like an emulator, or "" */
	/* ---- what the identity means (data/uarch.tsv), and who says so ---- */
	char uarch[64];		/* "Zen 5", "" when the table has no row */
	char uarch_source[96];	/* the row's source */
	char codename_note[160];	/* libcpuid's codename when it disagrees */
	char pmu_note[96];	/* why libpfm4 names no PMU */
	char caches_note[192];	/* CPUID's caches against the OS's */
	/* ---- virtualization, named by each witness ---- */
	char hv_cpuid_raw[16];	/* CPUID 0x40000000 signature, 12 bytes, or "" */
	char hv_cpuid[32];	/* its name: "bhyve", "KVM", ... */
	char hv_kernel[64];	/* the kernel's: /sys/hypervisor/type, boot log */
	char hv_kernel_source[48];
	struct pc_topology topo;
};

int pc_cpu_detect(struct pc_cpu_info *ci, char *err, size_t errlen);
/* What the OS says about this CPU's features, for the backend (AT_HWCAP). */
const struct pc_arch_env *pc_arch_env(void);
/* Fills vendor, brand, family (part), model (variant) and stepping
 * (revision) from an arm64 MIDR_EL1 value, with the names of known
 * implementers and parts. */
void pc_cpu_from_midr(struct pc_cpu_info *ci, unsigned long midr);
/* Builds the model key from the identity fields into ci->key. */
void pc_cpu_make_key(struct pc_cpu_info *ci);
/* Fills uarch and uarch_source from data/uarch.tsv, and codename_note when
 * libcpuid's codename (ci->codename, which it then clears) disagrees. */
void pc_cpu_name_uarch(struct pc_cpu_info *ci);
/* Fills hv_cpuid_raw, hv_cpuid (and hypervisor), hv_kernel and its source,
 * and virtualized when either witness saw a hypervisor (hypervisor.c). */
void pc_cpu_detect_hypervisor(struct pc_cpu_info *ci);
/* Sets caches_note: CPUID's cache sizes (l1d_kb ... l3_kb) against the
 * kernel's (topo, from sysfs), both where they differ; or, when the kernel
 * describes no caches, that the sizes are CPUID's. */
void pc_cpu_note_caches(struct pc_cpu_info *ci);
/* The name of a CPUID hypervisor signature ("bhyve bhyve " -> "bhyve"),
 * or NULL when unknown. */
const char *pc_hypervisor_signature_name(const char *sig);
/* The emulator whose CPUID hypervisor signature this CPU presents ("TCG"
 * for QEMU's TCGTCGTCGTCG), or NULL: under it no timing is the CPU's. */
const char *pc_hypervisor_emulator(void);
/* The hypervisor the kernel names in a boot log line ("Hypervisor
 * detected: PVM" -> "PVM"), copied into out; -1 when the line has none. */
int pc_hypervisor_from_log(const char *line, char *out, size_t len);

#endif
