/* SPDX-License-Identifier: MIT */
/* cmd_compare.c - primcost compare: result files side by side. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cmd_compare.h"
#include "commands.h"
#include "run/run.h"

static const char usage_text[] =
	"usage: primcost compare [OPTIONS] FILE [FILE...]\n"
	"\n"
	"Put the CPUs of result files side by side, probe by probe, against the\n"
	"first: each side's median and MAD, the ratio and difference, and a\n"
	"verdict (faster, slower, same) that must be statistically significant\n"
	"and at least --threshold percent. Files holding several CPUs each are\n"
	"paired by model key. FILE may be - (standard input), a reference\n"
	"table's name, and may end in @N, @latest or @YYYY-MM-DD to take one\n"
	"run of every CPU instead of the current figures (see primcost(1)).\n"
	"\n"
	"  -c, --cpu GLOB        only CPUs whose model key matches (repeatable)\n"
	"  -m, --metric UNIT     cycles, ns or ticks (default cycles)\n"
	"      --stat STAT       median (default) or p99: the p99 of the allocator\n"
	"                        points' single calls, judged as medians are\n"
	"  -f, --format FMT      table, markdown, csv or json (default table)\n"
	"      --color WHEN      auto, always or never (default auto: on a terminal)\n"
	"  -t, --threshold PCT   smallest difference that is a verdict (default 3)\n"
	"      --alpha P         significance level of the U test (default 0.05)\n"
	"      --matrix          a probe x CPU matrix of medians\n"
	"      --fail-on-regression\n"
	"                        exit 1 when a probe is slower than the first side,\n"
	"                        or when no probe was comparable\n"
	"      --by allocator    the allocator group's points: each allocator of the\n"
	"                        files against the first, size by size\n"
	"      --base NAME       with --by allocator: the allocator compared against\n"
	"      --by lock         the contended group's lock points and Zijlstra's\n"
	"                        2014 spin_lock_unlock tables, by threads and nodes\n"
	"  -h, --help            this help\n";

enum { OPT_COLOR = 256, OPT_ALPHA, OPT_FAIL, OPT_MATRIX, OPT_BY, OPT_BASE, OPT_STAT };

/* --color, in the order of enum pc_color */
static const char *const color_words[] = { "auto", "always", "never", NULL };

static const struct option long_options[] = {
	{ "cpu", required_argument, NULL, 'c' },
	{ "metric", required_argument, NULL, 'm' },
	{ "format", required_argument, NULL, 'f' },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "threshold", required_argument, NULL, 't' },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "fail-on-regression", no_argument, NULL, OPT_FAIL },
	{ "matrix", no_argument, NULL, OPT_MATRIX },
	{ "by", required_argument, NULL, OPT_BY },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "stat", required_argument, NULL, OPT_STAT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* --by WORD: the registered group with that view; else every word named. */
static int by_group(const char *arg, const struct pc_measurement_group **by, char *err,
		    size_t errlen)
{
	const struct pc_measurement_group *const *e;
	const char *sep = " ";
	size_t len;

	for (e = pc_groups; *e; e++)
		if ((*e)->by && strcmp(arg, (*e)->by) == 0) {
			*by = *e;
			return 0;
		}
	len = (size_t)snprintf(err, errlen, "--by: want");
	for (e = pc_groups; *e && len < errlen; e++)
		if ((*e)->by) {
			len += (size_t)snprintf(err + len, errlen - len, "%s%s", sep,
						(*e)->by);
			sep = " or ";
		}
	if (len < errlen)
		snprintf(err + len, errlen - len, ", got '%s'", arg);
	return -1;
}

static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	struct pc_compare_options *o = ctx;
	int v;

	switch (c) {
	case 'c':
		if (o->nglobs == PC_COMPARE_MAX_GLOBS) {
			snprintf(err, errlen, "--cpu: at most %d patterns",
				 PC_COMPARE_MAX_GLOBS);
			return -1;
		}
		return pc_opt_nonempty("--cpu", arg, &o->globs[o->nglobs++], err, errlen);
	case 'm':
		if (pc_metric_parse(arg, &o->metric) < 0) {
			snprintf(err, errlen, "--metric: want cycles, ns or ticks, got '%s'",
				 arg);
			return -1;
		}
		o->metric_given = true;
		return 0;
	case OPT_STAT:
		if (pc_stat_parse(arg, &o->stat) < 0) {
			snprintf(err, errlen, "--stat: want median or p99, got '%.64s'", arg);
			return -1;
		}
		return 0;
	case 'f':
		return pc_opt_format(arg, PC_FMTS_VIEWS, &o->format, err, errlen);
	case OPT_COLOR:
		if ((v = pc_opt_word("--color", arg, color_words, err, errlen)) < 0)
			return -1;
		o->color = (enum pc_color)v;
		return 0;
	case 't':
		return pc_opt_double("--threshold", arg, 0, 1000, "a percentage 0..1000",
				     &o->threshold_pct, err, errlen);
	case OPT_ALPHA:
		return pc_opt_double("--alpha", arg, 1e-12, 0.5, "a probability above 0 "
				     "and at most 0.5", &o->alpha, err, errlen);
	case OPT_FAIL:
		o->fail_on_regression = true;
		return 0;
	case OPT_MATRIX:
		o->matrix = true;
		return 0;
	case OPT_BY:
		return by_group(arg, &o->by, err, errlen);
	case OPT_BASE:
		return pc_opt_nonempty("--base", arg, &o->base, err, errlen);
	}
	return PC_OPT_NOT_MINE;
}

static int parse_options(int argc, char **argv, struct pc_compare_options *o,
			     char *err, size_t errlen)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->metric = PC_METRIC_CYCLES;
	o->format = PC_FORMAT_TABLE;
	o->color = PC_COLOR_AUTO;
	o->threshold_pct = 3;
	o->alpha = 0.05;
	rc = pc_options_parse(argc, argv, ":c:m:f:t:h", long_options, take_option, o,
			      err, errlen);
	if (rc != 0)
		return rc;
	if (pc_add_files(argc, argv, o->files, &o->nfiles, PC_COMPARE_MAX_FILES, err,
			 errlen) < 0)
		return -1;
	if (!o->nfiles) {
		snprintf(err, errlen, "no file to compare (see primcost compare --help)");
		return -1;
	}
	if (o->stat == PC_STAT_P99 && o->by) {
		snprintf(err, errlen, "--stat p99 does not go with --by");
		return -1;
	}
	if (o->stat == PC_STAT_P99 && o->metric_given && o->metric != PC_METRIC_CYCLES) {
		snprintf(err, errlen, "--stat p99 is in cycles: --metric %s does not go with it",
			 pc_metric_name(o->metric));
		return -1;
	}
	if (o->base && !(o->by && o->by->by_base)) {
		const struct pc_measurement_group *const *e;

		for (e = pc_groups; *e && !(*e)->by_base; e++)
			;
		snprintf(err, errlen, "--base goes with --by %s",
			 *e ? (*e)->by : "a group that takes it");
		return -1;
	}
	return 0;
}

int pc_compare_options_parse(int argc, char **argv, struct pc_compare_options *o, char *err, size_t errlen)
{
	return pc_options_end(parse_options(argc, argv, o, err, errlen), err, errlen);
}

/* --color auto: a terminal that shows colour (not TERM=dumb, nor unset) and
 * no NO_COLOR set to a value (no-color.org). */
static bool want_color(enum pc_color c)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (c != PC_COLOR_AUTO)
		return c == PC_COLOR_ALWAYS;
	return isatty(STDOUT_FILENO) && !(no && *no) && term && *term &&
	       strcmp(term, "dumb") != 0;
}

/* compare --by BY: the group's own view (its compare). */
static int by_view(const struct pc_compare_options *o, const struct pc_compare_input *in,
		   size_t n)
{
	json_t *docs[PC_COMPARE_MAX_FILES];
	char err[PC_ERRLEN];
	struct pc_view v;
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		docs[i] = in[i].doc;
	pc_view_init(&v, stdout, o->format);
	rc = o->by->compare(&v, docs, o->files, (unsigned)n, o->base, err, sizeof(err));
	if (pc_view_end(&v) < 0 && rc == 0) {
		snprintf(err, sizeof(err), "cannot write to standard output");
		rc = -1;
	}
	if (rc < 0) {
		pc_error("compare", "%s", err);
		return PC_EXIT_USAGE;
	}
	return fflush(stdout) == 0 ? PC_EXIT_OK : PC_EXIT_USAGE;
}

int pc_compare_load_inputs(const char *cmd, const char *const *files, size_t nfiles,
			   struct pc_compare_input *in, char (*paths)[4096], size_t *n)
{
	char err[PC_ERRLEN];

	for (*n = 0; *n < nfiles; (*n)++) {
		in[*n].doc = pc_input_load(files[*n], paths[*n], sizeof(paths[*n]), err,
					   sizeof(err));
		in[*n].path = paths[*n];
		if (!in[*n].doc) {
			pc_error(cmd, "%s", err);
			return -1;
		}
		/* A reference table named by its name is shown by that name,
		 * not by where it was found. */
		if (strcmp(files[*n], "-") != 0 && !strchr(files[*n], '/') &&
		    strcmp(paths[*n], files[*n]) != 0)
			snprintf(paths[*n], sizeof(paths[*n]), "%s", files[*n]);
	}
	return 0;
}

/* --matrix, in the view's format. */
static int matrix(const struct pc_compare_options *o, const struct pc_compare *m)
{
	struct pc_view v;
	int rc;

	pc_view_init(&v, stdout, o->format);
	rc = pc_compare_matrix(&v, m);
	return pc_view_end(&v) < 0 ? -1 : rc;
}

/* --fail-on-regression: exit 1 on a slower probe, and when nothing was
 * comparable (a gate that judged nothing must not pass). */
static int gate(const struct pc_compare_options *o, const struct pc_compare *m)
{
	char why[PC_ERRLEN];

	if (!o->fail_on_regression)
		return PC_EXIT_OK;
	if (m->slower)
		return PC_EXIT_FAILURE;
	if (pc_compare_nothing_judged(m, why, sizeof(why))) {
		pc_error("compare", "--fail-on-regression: %s", why);
		return PC_EXIT_FAILURE;
	}
	return PC_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct pc_compare_options o;
	struct pc_compare_input in[PC_COMPARE_MAX_FILES];
	struct pc_compare_config cfg;
	struct pc_compare m;
	static char paths[PC_COMPARE_MAX_FILES][4096];
	char err[PC_ERRLEN];
	size_t i, n = 0;
	int rc;

	rc = pc_compare_options_parse(argc, argv, &o, err, sizeof(err));
	if (rc != 0)
		return pc_options_exit("compare", rc, usage_text, err);
	rc = PC_EXIT_USAGE;
	if (pc_compare_load_inputs("compare", o.files, o.nfiles, in, paths, &n) < 0)
		goto out;
	if (o.by) {
		rc = by_view(&o, in, n);
		goto out;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.metric = o.metric;
	cfg.stat = o.stat;
	cfg.threshold_pct = o.threshold_pct;
	cfg.alpha = o.alpha;
	cfg.cpu_globs = o.nglobs ? o.globs : NULL;
	if (pc_compare_build(&m, in, n, &cfg, err, sizeof(err)) < 0) {
		pc_error("compare", "%s", err);
		goto out;
	}
	errno = 0;
	if ((o.matrix ? matrix(&o, &m) :
	     pc_compare_render(stdout, &m, o.format, want_color(o.color))) < 0 ||
	    fflush(stdout) != 0 || ferror(stdout)) {
		pc_error("compare", "cannot write to standard output: %s",
			 errno ? strerror(errno) : "out of memory");
	} else {
		rc = gate(&o, &m);
	}
	pc_compare_free(&m);
out:
	for (i = 0; i < n; i++)
		json_decref(in[i].doc);
	return rc;
}
