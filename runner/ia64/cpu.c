/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - the CPU identity from the ia64 CPUID registers, readable in user
 * mode: cpuid[0..1] the vendor string, cpuid[3] the version (number of
 * registers - 1, revision, model, family, architecture revision). The
 * same on both platforms (user and system mode): this is their
 * pc_rt_describe_cpu().
 */
#include "runner/runner.h"

static unsigned long cpuid(unsigned long i)
{
	unsigned long r;

	__asm__ volatile("mov %0=cpuid[%1]\n\t;;" : "=r"(r) : "r"(i));
	return r;
}

static void field(const char *key, uint64_t v)
{
	struct pc_line l = { .len = 0 };

	pc_line_str(&l, "pcr cpu ");
	pc_line_str(&l, key);
	pc_line_str(&l, " ");
	pc_line_u64(&l, v);
	pc_line_end(&l);
}

void pc_rt_describe_cpu(void)
{
	unsigned long w[2] = { cpuid(0), cpuid(1) }, version = cpuid(3);
	char vendor[17];
	int i, n = 0;

	for (i = 0; i < 16; i++) {
		unsigned char c = (unsigned char)(w[i / 8] >> (8 * (i % 8)));

		if (!c)
			break;
		vendor[n++] = c > ' ' && c < 127 ? (char)c : '_';
	}
	vendor[n] = 0;
	pc_runner_line("cpu", "vendor", n ? vendor : "unknown", (char *)0);
	field("family", (version >> 24) & 0xff);
	field("model", (version >> 16) & 0xff);
	field("revision", (version >> 8) & 0xff);
	field("archrev", (version >> 32) & 0xff);
}
