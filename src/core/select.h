/* SPDX-License-Identifier: MIT */
/* select.h - choosing probes by name and glob (select.c). */
#ifndef PC_SELECT_H
#define PC_SELECT_H

#include <stdbool.h>
#include <stddef.h>

/* Marks in selected[] the probes named by a comma-separated list of names
 * and shell globs. Each element must match at least one probe. */
int pc_select_probes(const char *list, bool *selected, char *err, size_t errlen);

#endif
