/* SPDX-License-Identifier: MIT */
/* commands.h - one entry point per subcommand (src/cmd_*.c, main.c). */
#ifndef PC_COMMANDS_H
#define PC_COMMANDS_H

#include "primcost.h"

struct pc_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* The one line on stderr of a user-facing error: "primcost: CMD: what",
 * control characters replaced (cmd NULL: "primcost: what"). */
void pc_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The places the published reference tables may be, in order:
 * $PRIMCOST_REFERENCE_DIR alone when it is set; else data/reference next to
 * the program (a build tree), then the installed data directory. */
struct pc_data_dirs {
	int n;
	char dir[2][4096];
};
int pc_reference_dirs(struct pc_data_dirs *d);
/* The first of those that is a directory; NULL, with err naming every place
 * and why it failed, when none is. */
const char *pc_reference_dir(char *err, size_t errlen);
/* A compare/merge argument: the file itself, or when no such file exists
 * and name has no '/', the reference table NAME(.json) of the first place
 * that has one; NULL, err naming the places looked in, when none has. */
const char *pc_input_path(const char *name, char *buf, size_t len,
			  char *err, size_t errlen);
/* Reads and validates an input argument: a file, a reference table, "-"
 * (standard input), each optionally followed by @N, @latest or
 * @YYYY-MM-DD to pick one run of every CPU (unless a file of the whole
 * name exists). path gets the name to show. Declared here, built on
 * results.h: json_t is jansson's. */
struct json_t;
struct json_t *pc_input_load(const char *arg, char *path, size_t pathlen,
			     char *err, size_t errlen);

/* Is arg a second "-" among the n files before it? (Standard input can be
 * read once.) Fills err when so. */
int pc_stdin_twice(const char *const *files, size_t n, const char *arg, char *err,
		   size_t errlen);

/* Parses a non-negative integer option value in [lo, hi]; -1 if bad. */
long pc_parse_long(const char *s, long lo, long hi);
/* A finite number in [lo, hi] (decimal point allowed); NAN if bad. */
double pc_parse_double(const char *s, double lo, double hi);
/* Replaces control characters (a newline in a file name, a key, an option
 * value) so that an error message stays on one line. */
void pc_one_line(char *s);
/* The option getopt_long just refused (it returned c, '?' or ':'), as the
 * user typed it: "--bogus", "-z". */
const char *pc_bad_option(char **argv, int c, char *buf, size_t len);

#endif
