/* SPDX-License-Identifier: MIT */
/* uarch.h - the microarchitecture table (data/uarch.tsv, compiled in). */
#ifndef PC_UARCH_H
#define PC_UARCH_H

#include <stddef.h>

struct pc_uarch_row {
	const char *arch;	/* "x86", "arm64" or "ia64" */
	const char *vendor;	/* CPUID vendor string, or "0x41" (MIDR implementer) */
	int family;		/* x86/ia64 family; arm64 MIDR part */
	int first, last;	/* model range; -1: any */
	const char *uarch;
	const char *codenames;	/* comma-separated product codenames, or "" */
	const char *source;
};

/* The table, in the order of data/uarch.tsv (generated uarch_table.c). */
extern const struct pc_uarch_row pc_uarch_rows[];
extern const size_t pc_uarch_nrows;

/* The table's arch for a build arch name ("x86_64", "i386" -> "x86"). */
const char *pc_uarch_arch(const char *arch);
/* The row of this CPU (vendor: for arm64 the implementer as "0x%02x"),
 * or NULL when the table does not know it. */
const struct pc_uarch_row *pc_uarch_find(const char *arch, const char *vendor,
					 int family, int model);
/* The row among this vendor's whose codenames name codename (a libcpuid
 * codename such as "EPYC (Milan)"), or NULL. */
const struct pc_uarch_row *pc_uarch_by_codename(const char *arch, const char *vendor,
						const char *codename);

#endif
