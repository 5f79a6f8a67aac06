/* SPDX-License-Identifier: MIT */
/* cli_common.h - the result file a subcommand writes (cli_common.c; the
 * option functions are declared in commands.h). */
#ifndef PC_CLI_COMMON_H
#define PC_CLI_COMMON_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "report.h"
#include "results.h"
#include "ring0.h"

/* --format FMT: table, json, csv or markdown (report.h). */
int pc_opt_format(const char *arg, enum pc_format *format, char *err, size_t errlen);
/* --ring0 MODE: auto, kvm, kmod or none (see commands.h for the others). */
int pc_opt_ring0(const char *arg, enum pc_ring0_mode *mode, char *err, size_t errlen);

struct pc_output {
	char target[PATH_MAX];	/* -o with its symbolic links followed */
	int lock_fd;		/* held while >= 0: pc_doc_unlock */
	struct stat read_st;	/* the file read, when read_existed */
	bool read_existed;
	int read_fd;		/* that file, open until the write: its inode
				 * number cannot name another file meanwhile */
};

/* Takes the lock of output (as cmd; stop and stopped as pc_doc_lock) and
 * reads it under the lock: the document, a new one when there is no file,
 * with out->lock_fd held. NULL with err, and no lock held, when it cannot
 * be locked or is not a result (that would be lost by a rewrite). */
json_t *pc_output_open(const char *output, const char *cmd, int (*stop)(void),
		       int *stopped, struct pc_output *out, char *err, size_t errlen);
/* The width text output must fit: $COLUMNS, else the terminal's, else 80. */
int pc_term_width(void);
/* Prints text, each line longer than width wrapped at spaces: its first
 * indent columns (a label) kept, the rest under column indent, or under a
 * shallower one (from the next line) where a word would not fit there. */
void pc_wrap_lines(FILE *f, const char *text, int indent, int width);

/* After the write (or instead of it): the lock released, the file read closed. */
void pc_output_close(struct pc_output *out);

#endif
