/* SPDX-License-Identifier: MIT */
/* cmd_report.c - primcost report: result files as one HTML page. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_compare.h"
#include "commands.h"
#include "config.h"
#include "report_html.h"
#include "results/results.h"

static const char usage_text[] =
	"usage: primcost report [OPTIONS] -o OUT FILE [FILE...]\n"
	"\n"
	"Write the CPUs of result files as one self-contained HTML page: first a\n"
	"summary (your runs' CPUs, with two files the verdicts against the first,\n"
	"an overview matrix of probe x CPU; the answers to the published tables'\n"
	"questions; the published tables beside yours), then a chart per probe\n"
	"group (bars of medians with their interquartile range, lines over\n"
	"threads or sizes, a heat map of c2c's pairs of CPUs, the cumulative\n"
	"distribution of the allocator points' single calls by size) with its\n"
	"table, with two files or --baseline the comparison against the first,\n"
	"each CPU's run context, and the notes. FILE may be - (standard input)\n"
	"or a reference table's name, and may end in @N, @latest or\n"
	"@YYYY-MM-DD.\n"
	"\n"
	"  -o, --output OUT      the page (- for standard output)\n"
	"  -b, --baseline FILE   compare every other CPU against this file's\n"
	"  -f, --format FMT      html, or table (or text): the probe x CPU matrix,\n"
	"                        then the single calls' percentiles (default html)\n"
	"  -c, --cpu GLOB        only CPUs whose model key matches (repeatable)\n"
	"  -m, --metric UNIT     cycles, ns or ticks (default cycles)\n"
	"  -t, --threshold PCT   smallest difference that is a verdict (default 3)\n"
	"      --alpha P         significance level of the U test (default 0.05)\n"
	"  -h, --help            this help\n";

enum { OPT_ALPHA = 256 };

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "format", required_argument, NULL, 'f' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "metric", required_argument, NULL, 'm' },
	{ "threshold", required_argument, NULL, 't' },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct report_options {
	const char *out;
	const char *baseline;
	enum pc_format fmt;	/* html, or table (text): the matrix */
	struct pc_compare_config cfg;
	const char *globs[PC_COMPARE_MAX_GLOBS + 1];
	size_t nglobs;
	const char *files[PC_COMPARE_MAX_FILES];
	size_t nfiles;
};

static int option(int c, struct report_options *o, char *err, size_t errlen)
{
	switch (c) {
	case 'o': o->out = optarg; return 0;
	case 'b': o->baseline = optarg; return 0;
	case 'f':
		return pc_format_take(optarg, PC_FMT(PC_FORMAT_HTML) | PC_FMT(PC_FORMAT_TABLE),
				      &o->fmt, err, errlen);
	case 'c':
		if (o->nglobs == PC_COMPARE_MAX_GLOBS || !*optarg)
			break;
		o->globs[o->nglobs++] = optarg;
		return 0;
	case 'm':
		if (pc_metric_parse(optarg, &o->cfg.metric) < 0)
			break;
		return 0;
	case 't':
		o->cfg.threshold_pct = pc_parse_double(optarg, 0, 1000);
		if (isnan(o->cfg.threshold_pct))
			break;
		return 0;
	case OPT_ALPHA:
		o->cfg.alpha = pc_parse_double(optarg, 1e-12, 0.5);
		if (isnan(o->cfg.alpha))
			break;
		return 0;
	}
	snprintf(err, errlen, "--%s: bad value '%s' (see primcost report --help)",
		 c == 'o' ? "output" : c == 'b' ? "baseline" : c == 'f' ? "format" :
		 c == 'c' ? "cpu" : c == 'm' ? "metric" : c == 't' ? "threshold" :
		 "alpha", optarg);
	return -1;
}

/* 0: write; 1: --help; -1: error in err. */
static int parse(int argc, char **argv, struct report_options *o, char *err,
		 size_t errlen)
{
	char bad[64];
	int c;

	memset(o, 0, sizeof(*o));
	o->fmt = PC_FORMAT_HTML;
	o->cfg.metric = PC_METRIC_CYCLES;
	o->cfg.threshold_pct = 3;
	o->cfg.alpha = 0.05;
	o->cfg.one_cpu_ok = true;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:b:f:c:m:t:h", long_options, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':') {
			snprintf(err, errlen, "%s '%s'", c == ':' ? "option needs a value:" :
				 "unknown option", pc_bad_option(argv, c, bad, sizeof(bad)));
			return -1;
		}
		if (option(c, o, err, errlen) < 0)
			return -1;
	}
	if (o->baseline)
		o->files[o->nfiles++] = o->baseline;
	if (pc_add_files(argc, argv, o->files, &o->nfiles, PC_COMPARE_MAX_FILES, err,
			 errlen) < 0)
		return -1;
	if (!o->nfiles || (o->baseline && o->nfiles < 2)) {
		snprintf(err, errlen, "no file to report (see primcost report --help)");
		return -1;
	}
	if (!o->out) {
		snprintf(err, errlen, "no output: give -o FILE, or -o - for standard output");
		return -1;
	}
	o->globs[o->nglobs] = NULL;
	o->cfg.cpu_globs = o->nglobs ? o->globs : NULL;
	return 0;
}

/* Writes the page to out (pc_out_open: never half a page, never over an
 * input). */
static int write_out(const struct report_options *o, const struct pc_compare *m,
		     struct pc_out *out)
{
	struct pc_report_html_opts ho = { o->baseline || o->nfiles == 2, PACKAGE_VERSION };
	char err[PC_ERRLEN];
	int rc;

	errno = 0;
	if (o->fmt == PC_FORMAT_TABLE) {
		struct pc_view v;

		pc_view_init(&v, out->f, PC_FORMAT_TABLE);
		rc = pc_compare_matrix(&v, m);
		if (rc == 0)
			rc = pc_report_calls_text(&v, m);
		if (pc_view_end(&v) < 0)
			rc = -1;
	} else {
		rc = pc_report_html(out->f, m, &ho);
	}
	if (rc < 0) {
		pc_error("report", "cannot write %s: %s", o->out, errno ?
			 strerror(errno) : "the page could not be made");
		pc_out_abort(out);
		return -1;
	}
	if (pc_out_commit(out, err, sizeof(err)) < 0) {
		pc_error("report", "%s", err);
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_options o;
	struct pc_compare_input in[PC_COMPARE_MAX_FILES];
	struct pc_compare m;
	struct pc_out out;
	static char paths[PC_COMPARE_MAX_FILES][4096];
	char err[PC_ERRLEN];
	size_t i, n;
	int rc = parse(argc, argv, &o, err, sizeof(err));

	if (rc > 0) {
		pc_usage_print(stdout, usage_text);
		return PC_EXIT_OK;
	}
	if (rc < 0) {
		pc_error("report", "%s", err);
		return PC_EXIT_USAGE;
	}
	/* the output checked (and its temporary file made) before the work */
	if (pc_out_open(&out, o.out, o.files, o.nfiles, err, sizeof(err)) < 0) {
		pc_error("report", "%s", err);
		return PC_EXIT_USAGE;
	}
	rc = PC_EXIT_USAGE;
	n = 0;
	if (pc_compare_load_inputs("report", o.files, o.nfiles, in, paths, &n) < 0 ||
	    pc_compare_build(&m, in, n, &o.cfg, err, sizeof(err)) < 0) {
		if (n == o.nfiles)
			pc_error("report", "%s", err);
		pc_out_abort(&out);
		goto out;
	}
	if (write_out(&o, &m, &out) == 0)
		rc = PC_EXIT_OK;
	pc_compare_free(&m);
out:
	for (i = 0; i < n; i++)
		json_decref(in[i].doc);
	return rc;
}
