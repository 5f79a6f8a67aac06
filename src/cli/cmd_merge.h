/* SPDX-License-Identifier: MIT */
/* cmd_merge.h - primcost merge's options (parsed apart from the core). */
#ifndef PC_CMD_MERGE_H
#define PC_CMD_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#define PC_MERGE_MAX_FILES 100000

struct pc_merge_options {
	char **files;		/* into argv */
	size_t nfiles;
	const char *output;	/* "-" = stdout */
	bool quiet;
};

/* 0: merge; 1: --help asked; -1: error in err. */
int pc_merge_options_parse(int argc, char **argv, struct pc_merge_options *o,
			   char *err, size_t errlen);

#endif
