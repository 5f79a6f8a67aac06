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

/* ---- help at any width --------------------------------------------------------------- */

/* An option's line of a help: 2 to 6 spaces (a long option without a
 * short one is further in), then a dash; the words of an option go on
 * further in. */
static bool option_line(const char *line, size_t len)
{
	size_t sp = strspn(line, " ");

	return sp >= 2 && sp <= 6 && sp < len && line[sp] == '-';
}

static const struct pc_table_col usage_cols[] = {
	{ .head = "option", .flags = PC_COL_LEFT },
	{ .head = "what", .flags = PC_COL_LEFT | PC_COL_WRAP | PC_COL_FLOW, .gap = "  " },
};

/* A table of a help's options: no headings, indented 2, the words under
 * an option (6 in) where the line is too narrow for both. */
static int usage_table(struct pc_table *t)
{
	if (pc_table_init(t, "  ", usage_cols, PC_ARRAY_LEN(usage_cols)) < 0)
		return -1;
	t->no_head = true;
	t->indent = 2;
	t->under_indent = 6;
	return 0;
}

/* The help's options gathered so far, drawn as one table, and a new one
 * begun. */
static void usage_options(FILE *f, struct pc_table *t)
{
	if (!t->nrows)
		return;
	pc_table_draw(f, t, PC_FORMAT_TABLE);
	pc_table_free(t);
	usage_table(t);
}

/* The prose gathered so far, wrapped, and emptied. */
static void usage_prose(FILE *f, char *prose, size_t *at)
{
	if (*at)
		pc_text_wrap(f, "", prose, 0, pc_table_fit());
	*at = 0;
	prose[0] = '\0';
}

void pc_usage_print(FILE *f, const char *text)
{
	const char *p = text, *q;
	size_t widest = 0, at = 0, len;
	char prose[2048] = "", line[512];
	struct pc_table t;
	long r = -1;

	for (q = p; *q; q += len + (q[len] == '\n')) {
		len = strcspn(q, "\n");
		widest = len > widest ? len : widest;
	}
	if (!pc_table_fit() || widest <= (size_t)pc_table_fit() || usage_table(&t) < 0) {
		fputs(text, f);
		return;
	}
	for (; *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		if (!len) {		/* a paragraph ends */
			usage_options(f, &t);
			usage_prose(f, prose, &at);
			fputc('\n', f);
			r = -1;
		} else if (option_line(line, len)) {
			/* the option as written, a long one alone under the short */
			char *spec = line + 2, *words = strstr(spec + strspn(spec, " "), "  ");

			usage_prose(f, prose, &at);
			if (words)
				*words++ = '\0';
			if ((r = pc_table_row(&t)) >= 0)
				pc_table_text(&t, (size_t)r, 0, "%s", spec);
			if (r >= 0 && words)
				pc_table_text(&t, (size_t)r, 1, "%s", words + strspn(words, " "));
		} else if (line[0] == ' ' && r >= 0) {	/* the option's words go on */
			struct pc_table_cell *x = pc_table_at(&t, (size_t)r, 1);

			pc_table_text(&t, (size_t)r, 1, "%s%s%s", x->text ? x->text : "",
				      x->text ? " " : "", line + strspn(line, " "));
		} else {		/* prose, maybe after options */
			usage_options(f, &t);
			r = -1;
			if (at < sizeof(prose))
				at += (size_t)snprintf(prose + at, sizeof(prose) - at, "%s%s",
						       at ? " " : "", line + strspn(line, " "));
		}
	}
	usage_options(f, &t);
	usage_prose(f, prose, &at);
	pc_table_free(&t);
}

int pc_options_exit(const char *cmd, int rc, const char *usage, const char *err)
{
	if (rc > 0) {
		pc_usage_print(stdout, usage);
		return PC_EXIT_OK;
	}
	if (rc < 0) {
		pc_error(cmd, "%s", err);
		return PC_EXIT_USAGE;
	}
	return -1;
}

