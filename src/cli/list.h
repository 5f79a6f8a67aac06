/* SPDX-License-Identifier: MIT */
/* list.h - the listings of primcost list (cmd_list.c and list_*.c), and
 * what they share. fmt: 0 a text table, 1 CSV, 2 JSON. */
#ifndef PC_LIST_H
#define PC_LIST_H

#include <jansson.h>

/* One CSV line: the fields keys of row, strings quoted where they must be,
 * integers, booleans as yes or no. */
void pc_list_csv_line(json_t *row, const char *const *keys);
/* Prints a line (or lines) of a text table, each wrapped to the terminal
 * under column indent, where its last field begins. */
void pc_list_fit(int indent, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int pc_list_events(const char *pattern, int verbose, int fmt);
int pc_list_reference(const char *pattern, int fmt, int verbose);
int pc_list_runs(const char *file, int fmt);

#endif
