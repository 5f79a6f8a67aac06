/* SPDX-License-Identifier: MIT */
/* select.c - probe selection by names and shell globs. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "probes/probes.h"

int pc_select_probes(const char *list, bool *selected, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int rc = 0, tokens = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(selected, 0, PC_PROBE_COUNT * sizeof(*selected));
	if (!*copy) {
		snprintf(err, errlen, "empty probe list");
		rc = -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		int id, hits = 0;

		tokens++;
		for (id = 0; id < PC_PROBE_COUNT; id++) {
			if (fnmatch(tok, pc_probe_rows[id].name, 0) == 0) {
				selected[id] = true;
				hits++;
			}
		}
		if (!hits) {
			snprintf(err, errlen, "no probe matches '%s' "
				 "(see primcost list)", tok);
			rc = -1;
		}
	}
	if (rc == 0 && !tokens) {
		snprintf(err, errlen, "no probe names in '%s' (see primcost list)", list);
		rc = -1;
	}
	free(copy);
	return rc;
}
