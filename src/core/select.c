/* SPDX-License-Identifier: MIT */
/* select.c - rows chosen by a comma-separated list of names and shell globs. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "select.h"
#include "probes/probes.h"

/* The longest glob compared: longer than any row's name, so that one cut
 * here could only have matched nothing anyway. */
#define GLOB_MAX 128

int pc_select_names(const char *list, const char *const *names, size_t n, bool *hit,
		    const char *rows, char *err, size_t errlen)
{
	const char *p = list;
	bool any_glob = false;
	int count = 0;
	size_t i;

	memset(hit, 0, n * sizeof(*hit));
	for (;;) {
		size_t len = strcspn(p, ",");
		bool matched = false;
		char glob[GLOB_MAX];

		if (len > 0) {
			any_glob = true;
			snprintf(glob, sizeof(glob), "%.*s", (int)len, p);
			for (i = 0; len < sizeof(glob) && i < n; i++)
				if (names[i] && fnmatch(glob, names[i], 0) == 0)
					hit[i] = matched = true;
			if (!matched) {
				snprintf(err, errlen, "no probe matches '%s' (%s)", glob, rows);
				return -1;
			}
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!any_glob) {
		snprintf(err, errlen, "no probe names in '%s' (see primcost list)", list);
		return -1;
	}
	for (i = 0; i < n; i++)
		count += hit[i];
	return count;
}

int pc_select_probes(const char *list, bool *selected, char *err, size_t errlen)
{
	static const char *names[PC_PROBE_COUNT];
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++)
		names[id] = pc_probe_rows[id].name;
	return pc_select_names(list, names, PC_PROBE_COUNT, selected, "see primcost list",
			       err, errlen);
}
