/* SPDX-License-Identifier: MIT */
/* commands.h - one entry point per subcommand (src/cmd_*.c, main.c). */
#ifndef PC_COMMANDS_H
#define PC_COMMANDS_H

#include "core/options.h"
#include "core/primcost.h"
#include "core/util.h"

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
/* A command's help on f: as written where the line holds its widest line,
 * else its prose wrapped and its options a table of the model, each
 * option's words wrapped beside it (or under it where even that is too
 * narrow). */
void pc_usage_print(FILE *f, const char *text);

#endif
