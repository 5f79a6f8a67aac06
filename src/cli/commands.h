/* SPDX-License-Identifier: MIT */
/* commands.h - one entry point per subcommand (src/cmd_*.c, main.c). */
#ifndef PC_COMMANDS_H
#define PC_COMMANDS_H

#include "options.h"
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
/* Appends the operands argv[optind..argc) to files[*n], which holds at most
 * max; -1 with err filled on standard input given twice or too many files. */
int pc_add_files(int argc, char **argv, const char **files, size_t *n, size_t max,
		 char *err, size_t errlen);

/* Replaces control characters (a newline in a file name, a key, an option
 * value) so that an error message stays on one line. */
void pc_one_line(char *s);
/* Rewrites control characters as C escapes (\n, \t, \x1b), in place in
 * s[size], cutting what no longer fits: a user's value shown escaped on
 * one line. */
void pc_escape_controls(char *s, size_t size);
/* The option getopt_long just refused (it returned c, '?' or ':'), as the
 * user typed it: "--bogus", "-z". */
const char *pc_bad_option(char **argv, int c, char *buf, size_t len);

/* The number of elements of array a. */
#define PC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- cli_common.c: options the subcommands share (as options.h) -----------*/

/* getopt_long returned c (':' or '?'): "option '-Z' needs a value" or
 * "unknown option '--bogus'" into err; always -1. */
int pc_opt_refused(char **argv, int c, char *err, size_t errlen);
/* --cpu N: a CPU number. */
int pc_opt_cpu(const char *arg, int *cpu, char *err, size_t errlen);
/* The option loop of every subcommand: resets getopt, then gives take each
 * option getopt_long (shortopts starting with ':') returns, with its value,
 * ctx, err and errlen. take returns 0, -1 after filling err, or
 * PC_OPT_NOT_MINE for an option it does not know. -h is --help (1); an
 * option nobody takes or getopt refuses is named in err (-1). 0 when all
 * were taken, optind then being the first operand. */
struct option;
typedef int (*pc_opt_take)(int c, const char *arg, void *ctx, char *err,
			   size_t errlen);
int pc_options_parse(int argc, char **argv, const char *shortopts,
		     const struct option *longopts, pc_opt_take take, void *ctx,
		     char *err, size_t errlen);
/* After the options: nothing more (or "unexpected argument 'x'", -1). */
int pc_no_operand(int argc, char **argv, char *err, size_t errlen);
/* Ends an option parser: a refusal's err escaped onto one line. Returns rc
 * (0 parsed, 1 --help, -1 refused). */
int pc_options_end(int rc, char *err, size_t errlen);
/* What a subcommand does with its parser's rc: -1 to go on; else after
 * --help (usage on stdout) PC_EXIT_OK, after a refusal (err through
 * pc_error) PC_EXIT_USAGE. */
int pc_options_exit(const char *cmd, int rc, const char *usage, const char *err);

#endif
