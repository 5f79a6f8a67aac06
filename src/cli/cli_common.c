/* SPDX-License-Identifier: MIT */
/* cli_common.c - what the subcommands share: option values, the end of
 * option parsing, the result file written under its lock. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "compare.h"
#include "commands.h"
#include "report.h"
#include "results.h"
#include "ring0.h"

int pc_opt_refused(char **argv, int c, char *err, size_t errlen)
{
	char opt[64];

	snprintf(err, errlen, c == ':' ? "option '%s' needs a value" :
		 "unknown option '%s'", pc_bad_option(argv, c, opt, sizeof(opt)));
	return -1;
}

int pc_opt_long(const char *opt, const char *arg, long lo, long hi,
		const char *want, long *out, char *err, size_t errlen)
{
	long v = pc_parse_long(arg, lo, hi);

	if (v < 0) {
		snprintf(err, errlen, "%s: want %s, got '%s'", opt, want, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int pc_opt_double(const char *opt, const char *arg, double lo, double hi,
		  const char *want, double *out, char *err, size_t errlen)
{
	double v = pc_parse_double(arg, lo, hi);

	if (isnan(v)) {
		snprintf(err, errlen, "%s: want %s, got '%s'", opt, want, arg);
		return -1;
	}
	*out = v;
	return 0;
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

int pc_opt_format(const char *arg, enum pc_format *format, char *err, size_t errlen)
{
	if (pc_format_parse(arg, format) < 0) {
		snprintf(err, errlen, "--format: want table, json, csv or markdown, got "
			 "'%s'", arg);
		return -1;
	}
	return 0;
}

int pc_opt_ring0(const char *arg, enum pc_ring0_mode *mode, char *err, size_t errlen)
{
	if (pc_ring0_mode_parse(arg, mode) < 0) {
		snprintf(err, errlen, "--ring0: want auto, kvm, kmod or none, got '%s'", arg);
		return -1;
	}
	return 0;
}

int pc_opt_nonempty(const char *opt, const char *arg, const char **out,
		    char *err, size_t errlen)
{
	if (!*arg) {
		snprintf(err, errlen, "%s: empty value", opt);
		return -1;
	}
	*out = arg;
	return 0;
}

int pc_opt_word(const char *opt, const char *arg, const char *const *words,
		char *err, size_t errlen)
{
	size_t i, n, at;

	for (n = 0; words[n]; n++)
		if (strcmp(arg, words[n]) == 0)
			return (int)n;
	at = (size_t)snprintf(err, errlen, "%s: want ", opt);
	for (i = 0; i < n && at < errlen; i++)
		at += (size_t)snprintf(err + at, errlen - at, "%s%s",
				       i == 0 ? "" : i + 1 == n ? " or " : ", ", words[i]);
	if (at < errlen)
		snprintf(err + at, errlen - at, ", got '%s'", arg);
	return -1;
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

json_t *pc_output_open(const char *output, const char *cmd, int (*stop)(void),
		       int *stopped, struct pc_output *out, char *err, size_t errlen)
{
	char why[PC_ERRLEN];
	struct stat st;
	json_t *doc;

	out->lock_fd = -1;
	out->read_fd = -1;
	if (pc_write_target(output, out->target, sizeof(out->target), err, errlen) < 0)
		return NULL;
	/* a result is read, changed and replaced: a device or a FIFO cannot be */
	if (stat(out->target, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a result is read and "
			 "replaced; give a file, or -o - for standard output)", output);
		return NULL;
	}
	/* Writers of one file take turns: read, change and write under the lock. */
	out->lock_fd = pc_doc_lock(out->target, cmd, stop, stopped, err, errlen);
	if (out->lock_fd < 0)
		return NULL;
	/* The file read is the one checked before the rename: its identity
	 * taken from the descriptor it is read through. */
	out->read_fd = open(out->target, O_RDONLY | O_CLOEXEC);
	out->read_existed = out->read_fd >= 0 && fstat(out->read_fd, &out->read_st) == 0;
	if (out->read_existed)
		doc = pc_doc_load_fd(out->read_fd, out->target, why, sizeof(why));
	else if (out->read_fd < 0 && errno == ENOENT)
		doc = pc_doc_new();
	else {
		snprintf(why, sizeof(why), "%.400s: %s", out->target, strerror(errno));
		doc = NULL;
	}
	if (!doc) {
		snprintf(err, errlen, "%.400s (refusing to replace it; move it away or "
			 "choose another -o)", why);
		pc_output_close(out);
	}
	return doc;
}

void pc_output_close(struct pc_output *out)
{
	pc_doc_unlock(out->lock_fd);
	out->lock_fd = -1;
	if (out->read_fd >= 0)
		close(out->read_fd);
	out->read_fd = -1;
}

int pc_term_width(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (c && *c) {
		n = strtol(c, &end, 10);
		if (!*end && n >= 20 && n <= 10000)
			return (int)n;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* The longest word of s, in bytes. */
static int longest_word(const char *s)
{
	int most = 0;

	while (*s) {
		int w = (int)strcspn(s, " ");

		if (w > most)
			most = w;
		s += w + (s[w] == ' ');
	}
	return most;
}

void pc_wrap_lines(FILE *f, const char *text, int indent, int width)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		char lead[256], *line = strndup(text, n);
		int at = indent, most;

		if (!line)
			return;
		if ((int)n <= width || indent < 1 || indent >= (int)sizeof(lead) ||
		    (int)n <= indent) {
			fprintf(f, "%s\n", line);
		} else {
			/* A word too long to follow the label goes under a
			 * shallower column, from the line after the label. */
			most = longest_word(line + indent);
			if (at + most > width)
				at = width - most - 1 > 4 ? width - most - 1 : 4;
			/* the label without its last space: pc_text_wrap puts one */
			snprintf(lead, sizeof(lead), "%.*s", indent - 1, line);
			pc_text_wrap(f, lead, line + indent, at, width);
		}
		free(line);
		text += n + (text[n] == '\n');
	}
}
