/* SPDX-License-Identifier: MIT */
/* select.h - choosing rows by name and glob (select.c). */
#ifndef PC_SELECT_H
#define PC_SELECT_H

#include <stdbool.h>
#include <stddef.h>

/* Marks in hit[] (cleared first) the names[0 .. n) that a comma-separated
 * list of names and shell globs names; a NULL name is never named, and an
 * empty element is passed over. Each glob must name a row, and the list
 * one glob at least; else -1, err says which, with rows (the rows there
 * are, or where to find them) in brackets. The rows marked: how many. */
int pc_select_names(const char *list, const char *const *names, size_t n, bool *hit,
		    const char *rows, char *err, size_t errlen);

/* pc_select_names over the probe table's rows. */
int pc_select_probes(const char *list, bool *selected, char *err, size_t errlen);

#endif
