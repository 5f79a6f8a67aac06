/* SPDX-License-Identifier: MIT */
/* cli_common.c - what the subcommands share: option values, the end of
 * option parsing, the result file written under its lock. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "results/compare.h"
#include "results/table.h"
#include "commands.h"
#include "results/report.h"
#include "results/results.h"
#include "ring0/ring0.h"

int pc_opt_refused(char **argv, int c, char *err, size_t errlen)
{
	char opt[64];

	snprintf(err, errlen, c == ':' ? "option '%s' needs a value" :
		 "unknown option '%s'", pc_bad_option(argv, c, opt, sizeof(opt)));
	return -1;
}

int pc_opt_cpu(const char *arg, int *cpu, char *err, size_t errlen)
{
	long v;
	char want[32];

	snprintf(want, sizeof(want), "a CPU number 0..%d", PC_CPU_MAX);
	if (pc_opt_long("--cpu", arg, 0, PC_CPU_MAX, want, &v, err, errlen) < 0)
		return -1;
	*cpu = (int)v;
	return 0;
}

int pc_opt_format(const char *arg, unsigned allowed, enum pc_format *format, char *err,
		  size_t errlen)
{
	return pc_format_take(arg, allowed, format, err, errlen);
}

int pc_opt_ring0(const char *arg, enum pc_ring0_mode *mode, char *err, size_t errlen)
{
	if (pc_ring0_mode_parse(arg, mode) < 0) {
		snprintf(err, errlen, "--ring0: want auto, kvm, kmod or none, got '%s'", arg);
		return -1;
	}
	return 0;
}

int pc_options_parse(int argc, char **argv, const char *shortopts,
		     const struct option *longopts, pc_opt_take take, void *ctx,
		     char *err, size_t errlen)
{
	int c, rc;

	optind = 0;	/* a full reset: tests parse several argument vectors */
	opterr = 0;	/* the refusal is ours to word */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		rc = c == ':' || c == '?' ? PC_OPT_NOT_MINE : take(c, optarg, ctx, err, errlen);
		if (rc == PC_OPT_NOT_MINE)
			return pc_opt_refused(argv, c, err, errlen);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int pc_no_operand(int argc, char **argv, char *err, size_t errlen)
{
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

int pc_options_end(int rc, char *err, size_t errlen)
{
	if (rc < 0)
		pc_escape_controls(err, errlen);
	return rc;
}

int pc_options_exit(const char *cmd, int rc, const char *usage, const char *err)
{
	if (rc > 0) {
		fputs(usage, stdout);
		return PC_EXIT_OK;
	}
	if (rc < 0) {
		pc_error(cmd, "%s", err);
		return PC_EXIT_USAGE;
	}
	return -1;
}

