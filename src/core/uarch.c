/* SPDX-License-Identifier: MIT */
/* uarch.c - which microarchitecture a CPU identity is (data/uarch.tsv). */
#include <ctype.h>
#include <string.h>

#include "uarch.h"

const char *pc_uarch_arch(const char *arch)
{
	if (strcmp(arch, "x86_64") == 0 || strcmp(arch, "i386") == 0)
		return "x86";
	return arch;
}

const struct pc_uarch_row *pc_uarch_find(const char *arch, const char *vendor,
					 int family, int model)
{
	const char *a = pc_uarch_arch(arch);
	size_t i;

	for (i = 0; i < pc_uarch_nrows; i++) {
		const struct pc_uarch_row *r = &pc_uarch_rows[i];

		if (strcmp(r->arch, a) != 0 || strcmp(r->vendor, vendor) != 0 ||
		    r->family != family)
			continue;
		if ((r->first < 0 || model >= r->first) && (r->last < 0 || model <= r->last))
			return r;
	}
	return NULL;
}

/* Whether name[0..n) occurs in s as a whole word (not inside another). */
static int has_word(const char *s, const char *name, size_t n)
{
	const char *p;

	for (p = s; n && (p = strstr(p, name)) != NULL; p++) {
		char before = p == s ? ' ' : p[-1], after = p[n];

		if (!isalnum((unsigned char)before) && !isalnum((unsigned char)after))
			return 1;
	}
	return 0;
}

/* Whether codename names one entry of a comma-separated list. */
static int names_one(const char *codename, const char *list)
{
	char name[64];

	while (*list) {
		size_t n = strcspn(list, ",");

		if (n < sizeof(name)) {
			memcpy(name, list, n);
			name[n] = 0;
			if (has_word(codename, name, n))
				return 1;
		}
		list += n + (list[n] == ',');
	}
	return 0;
}

const struct pc_uarch_row *pc_uarch_by_codename(const char *arch, const char *vendor,
						const char *codename)
{
	const char *a = pc_uarch_arch(arch);
	size_t i;

	for (i = 0; codename && *codename && i < pc_uarch_nrows; i++) {
		const struct pc_uarch_row *r = &pc_uarch_rows[i];

		if (strcmp(r->arch, a) == 0 && strcmp(r->vendor, vendor) == 0 &&
		    names_one(codename, r->codenames))
			return r;
	}
	return NULL;
}
