/* SPDX-License-Identifier: MIT */
/* list.h - the listings of primcost list (cmd_list.c and list_*.c): each
 * builds a table of the model (results/table.h) and draws it in the
 * format asked for. */
#ifndef PC_LIST_H
#define PC_LIST_H

#include "results/table.h"

int pc_list_events(const char *pattern, int verbose, enum pc_format fmt);
int pc_list_reference(const char *pattern, enum pc_format fmt, int verbose);
int pc_list_runs(const char *file, enum pc_format fmt);

#endif
