/* SPDX-License-Identifier: MIT */
/*
 * hypervisor.c - which hypervisor runs this machine, by each witness: the
 * CPUID signature (leaf 0x40000000) the hypervisor presents, and the
 * kernel's own detection (/sys/hypervisor/type, or "Hypervisor detected"
 * in the boot log). They may differ: a PVM guest's hypervisor presents
 * bhyve's signature while its kernel says PVM.
 *
 * One signature is an emulator's, not a hypervisor's: QEMU's TCG translates
 * every instruction, ring 0's included, so no timing under it is the CPU's.
 * The run is then marked emulated (ci->emulated), and ring 0 is refused
 * whatever its gate measures (ring0.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>	/* the compiler's CPUID wrapper, not inline asm of ours */
#endif

/* Known signatures (12 bytes, NULs trimmed), their names, and the
 * emulator's short name where the signature is an emulator's. */
static const struct { const char *sig, *id, *name, *emulator; } signatures[] = {
	{ "KVMKVMKVM", "kvm", "KVM", NULL },
	{ "bhyve bhyve ", "bhyve", "bhyve", NULL },
	{ "Microsoft Hv", "hyperv", "Hyper-V", NULL },
	{ "VMwareVMware", "vmware", "VMware", NULL },
	{ "XenVMMXenVMM", "xen", "Xen", NULL },
	{ "TCGTCGTCGTCG", "qemu", "QEMU TCG", "TCG" },
	{ " lrpepyh  vr", "parallels", "Parallels", NULL },
	{ "VBoxVBoxVBox", "virtualbox", "VirtualBox", NULL },
	{ "ACRNACRNACRN", "acrn", "ACRN", NULL },
	{ "Jailhouse", "jailhouse", "Jailhouse", NULL },
};

static int signature_index(const char *sig)
{
	size_t i;

	for (i = 0; sig && i < sizeof(signatures) / sizeof(signatures[0]); i++)
		if (strcmp(sig, signatures[i].sig) == 0)
			return (int)i;
	return -1;
}

const char *pc_hypervisor_signature_name(const char *sig)
{
	int i = signature_index(sig);

	return i < 0 ? NULL : signatures[i].name;
}

int pc_hypervisor_from_log(const char *line, char *out, size_t len)
{
	static const char tag[] = "Hypervisor detected: ";
	const char *p = strstr(line, tag);
	size_t n;

	if (!p || !len)
		return -1;
	p += sizeof(tag) - 1;
	n = strcspn(p, "\r\n");
	while (n && p[n - 1] == ' ')
		n--;
	if (!n)
		return -1;
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = 0;
	pc_one_line(out);
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
/* The hypervisor signature CPUID leaf 0x40000000 presents, NULs trimmed and
 * unprintable bytes replaced; false without a hypervisor. */
static bool cpuid_signature(char sig[13])
{
	unsigned a, b, c, d, regs[3];
	int k;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return false;
	__cpuid(0x40000000, a, regs[0], regs[1], regs[2]);
	memcpy(sig, regs, 12);
	sig[12] = 0;	/* KVM's is "KVMKVMKVM\0\0\0": read up to the first NUL */
	for (k = 0; sig[k]; k++)
		if ((unsigned char)sig[k] < 0x20 || (unsigned char)sig[k] > 0x7e)
			sig[k] = '?';
	return true;
}

/* CPUID.1:ECX[31] says a hypervisor is present; leaf 0x40000000 holds its
 * signature in EBX, ECX, EDX. */
static void from_cpuid(struct pc_cpu_info *ci)
{
	char sig[13];
	int i;

	if (!cpuid_signature(sig))
		return;
	ci->virtualized = true;
	snprintf(ci->hv_cpuid_raw, sizeof(ci->hv_cpuid_raw), "%s", sig);
	i = signature_index(sig);
	snprintf(ci->hv_cpuid, sizeof(ci->hv_cpuid), "%s", i < 0 ? "unknown" :
		 signatures[i].name);
	if (i >= 0)
		snprintf(ci->hypervisor, sizeof(ci->hypervisor), "%s", signatures[i].id);
	if (i >= 0 && signatures[i].emulator)
		snprintf(ci->emulated, sizeof(ci->emulated), "%s, from the CPUID "
			 "hypervisor signature %s: every instruction is translated, "
			 "ring 0's included", signatures[i].name, sig);
}
#endif

const char *pc_hypervisor_emulator(void)
{
#if defined(__x86_64__) || defined(__i386__)
	char sig[13];
	int i;

	if (!cpuid_signature(sig))
		return NULL;
	i = signature_index(sig);
	return i < 0 ? NULL : signatures[i].emulator;
#else
	return NULL;
#endif
}

/* The first "Hypervisor detected" line of a log, read a record or a line at
 * a time: /dev/kmsg (non-blocking; may be forbidden to ordinary users) or
 * a boot log under /var/log. */
static int from_log(const char *path, char *out, size_t len)
{
	char rec[1024];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), found = -1;
	bool kmsg = strcmp(path, "/dev/kmsg") == 0;
	FILE *f;
	unsigned lines = 0;

	if (fd < 0)
		return -1;
	if (kmsg) {	/* one record per read(); EAGAIN at the end */
		ssize_t n;

		while (found < 0 && (n = read(fd, rec, sizeof(rec) - 1)) != 0) {
			if (n < 0 && errno == EPIPE)	/* overwritten record */
				continue;
			if (n < 0)
				break;
			rec[n] = 0;
			found = pc_hypervisor_from_log(rec, out, len);
		}
		close(fd);
		return found;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -1;
	}
	/* The line comes early in a boot; do not read a whole syslog. */
	while (found < 0 && lines++ < 20000 && fgets(rec, sizeof(rec), f))
		found = pc_hypervisor_from_log(rec, out, len);
	fclose(f);
	return found;
}

static void from_kernel(struct pc_cpu_info *ci)
{
	static const char *const logs[] = { "/dev/kmsg", "/var/log/dmesg",
					    "/var/log/kern.log" };
	FILE *f = fopen("/sys/hypervisor/type", "r");
	size_t i;

	if (f) {
		if (fgets(ci->hv_kernel, sizeof(ci->hv_kernel), f)) {
			ci->hv_kernel[strcspn(ci->hv_kernel, "\n")] = 0;
			pc_one_line(ci->hv_kernel);
			snprintf(ci->hv_kernel_source, sizeof(ci->hv_kernel_source),
				 "/sys/hypervisor/type");
		}
		fclose(f);
		if (ci->hv_kernel[0])
			return;
	}
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
		if (from_log(logs[i], ci->hv_kernel, sizeof(ci->hv_kernel)) == 0) {
			snprintf(ci->hv_kernel_source, sizeof(ci->hv_kernel_source),
				 "%s", logs[i]);
			return;
		}
	ci->hv_kernel[0] = 0;
}

void pc_cpu_detect_hypervisor(struct pc_cpu_info *ci)
{
#if defined(__x86_64__) || defined(__i386__)
	if (!ci->emulated[0])
		from_cpuid(ci);
#endif
	from_kernel(ci);
	if (ci->hv_kernel[0])
		ci->virtualized = true;
}
