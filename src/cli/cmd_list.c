/* SPDX-License-Identifier: MIT */
/* cmd_list.c - primcost list: its options, the probe table and the rows
 * measured at points, and what this build runs; the other listings are
 * list_events.c, list_reference.c and list_runs.c. */
#include <fnmatch.h>
#include <stdarg.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "list.h"
#include "remote/runner_host.h"
#include "run/run.h"
#include "results/compare.h"
#include "results/table.h"
#include "core/events.h"
#include "results/report.h"
#include "results/results.h"

static const char usage_text[] =
	"usage: primcost list [OPTIONS] [PATTERN]\n"
	"       primcost list --events [OPTIONS] [PATTERN]\n"
	"       primcost list --reference [OPTIONS] [PATTERN]\n"
	"       primcost list --names [PATTERN]\n"
	"       primcost list --archs\n"
	"       primcost list --runs [OPTIONS] FILE\n"
	"\n"
	"List the probes (all, or those matching the shell glob PATTERN) with\n"
	"their group, ring, kernel API and whether this build can run them; then\n"
	"the rows measured at points, by run's options for their group (the\n"
	"allocator group: alloc.*; the contended group: lock.*, contended.*,\n"
	"c2c.latency), with their method (-v).\n"
	"\n"
	"      --events          list the events libpfm4 offers on this machine\n"
	"                        instead (for run -e), and whether they count here\n"
	"  -v, --verbose         also show the instruction sequence each probe times\n"
	"                        (the method of the rows measured at points)\n"
	"                        (with --events: full descriptions, unit masks)\n"
	"  -r, --reference       list the published reference tables instead\n"
	"      --names           only the probe names, then the globs that select\n"
	"                        two or more of them, one a line (for completion)\n"
	"      --runs FILE       list the runs a result file keeps for each CPU\n"
	"                        (date, host, kernel, version, probes; FILE may be\n"
	"                        -, and FILE@N picks runs as in compare)\n"
	"      --archs           the architectures this build measures, one a line\n"
	"                        (this machine's first; for completion)\n"
	"  -f, --format FMT      table, csv, json or markdown (default table)\n"
	"  -h, --help            this help\n";

enum { OPT_EVENTS = 256, OPT_NAMES, OPT_RUNS, OPT_ARCHS };

static const struct option long_options[] = {
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "reference", no_argument, NULL, 'r' },
	{ "names", no_argument, NULL, OPT_NAMES },
	{ "runs", no_argument, NULL, OPT_RUNS },
	{ "archs", no_argument, NULL, OPT_ARCHS },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What `run` will do with the row on this build. */
static const char *availability(int id)
{
	if (!pc_probe_impl((enum pc_probe_id)id))
		return "unsupported";
	if (pc_probe_rows[id].ring == 0)
		return "needs-ring0";
	return "ok";
}

#define GLOB_LEN 64

static const char *sequence(int id)
{
	const struct pc_arch_probe *p = pc_probe_impl((enum pc_probe_id)id);

	return p && p->sequence ? p->sequence : "";
}

/* ---- the rows: the probe table's, then the groups measured at points ---- */

#define MAX_POINT_ROWS 64

/* The rows of every measurement group measured at points, in the order
 * of run's registry. */
static const struct pc_point_row *point_rows(size_t *n)
{
	static struct pc_point_row rows[MAX_POINT_ROWS];
	const struct pc_measurement_group *const *e;
	const struct pc_point_row *g;
	size_t ng, k;

	*n = 0;
	for (e = pc_groups; *e; e++) {
		if (!(*e)->rows)
			continue;
		g = (*e)->rows(&ng);
		for (k = 0; k < ng && *n < MAX_POINT_ROWS; k++)
			rows[(*n)++] = g[k];
	}
	return rows;
}

/* Row i of every row list shows: the probe table's first. */
static const char *row_name(size_t i)
{
	size_t n;
	const struct pc_point_row *pr = point_rows(&n);

	return i < PC_PROBE_COUNT ? pc_probe_rows[i].name :
	       i - PC_PROBE_COUNT < n ? pr[i - PC_PROBE_COUNT].name : NULL;
}

/* Does a token of the comma-separated pattern match name? */
static bool matches(const char *pattern, const char *name)
{
	char tok[GLOB_LEN * 2];
	const char *p = pattern;

	for (;;) {
		size_t len = strcspn(p, ",");

		snprintf(tok, sizeof(tok), "%.*s", (int)len, p);
		if (len && fnmatch(tok, name, 0) == 0)
			return true;
		if (!p[len])
			return false;
		p += len + 1;
	}
}

/* Every token of pattern must match a row; -1 with err otherwise. */
static int pattern_check(const char *pattern, char *err, size_t errlen)
{
	const char *p = pattern;
	char tok[GLOB_LEN * 2];
	size_t i;

	for (;;) {
		size_t len = strcspn(p, ",");
		bool hit = false;

		snprintf(tok, sizeof(tok), "%.*s", (int)len, p);
		for (i = 0; len && row_name(i) && !hit; i++)
			hit = fnmatch(tok, row_name(i), 0) == 0;
		if (!hit) {
			snprintf(err, errlen, len ? "no probe matches '%s' (see primcost "
				 "list)" : "an empty name in '%s'", len ? tok : pattern);
			return -1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* ---- list --names: what --probes accepts, for shell completion ------------- */

#define MAX_GLOBS ((PC_PROBE_COUNT + MAX_POINT_ROWS) * 8)

static int glob_hits(const char *glob)
{
	int hits = 0;
	size_t i;

	for (i = 0; row_name(i); i++)
		hits += fnmatch(glob, row_name(i), 0) == 0;
	return hits;
}

/* Prints glob once, if it selects two or more probes (and pattern allows). */
static void add_glob(char (*globs)[GLOB_LEN], int *n, const char *glob,
		     const char *pattern)
{
	int i;

	if (*n >= MAX_GLOBS || glob_hits(glob) < 2)
		return;
	for (i = 0; i < *n; i++)
		if (strcmp(globs[i], glob) == 0)
			return;
	snprintf(globs[(*n)++], GLOB_LEN, "%s", glob);
	if (!pattern || fnmatch(pattern, glob, 0) == 0)
		puts(glob);
}

/* The probe names, then the globs made of a name's prefix up to a '.' or
 * '_' (calib.*, local_irq_*), of the whole name (cmpxchg*) or of its '.'
 * suffix (*.llsc). */
static int list_names(const char *pattern)
{
	static char globs[MAX_GLOBS][GLOB_LEN];
	char g[GLOB_LEN];
	int n = 0;
	size_t i;

	for (i = 0; row_name(i); i++)
		if (!pattern || fnmatch(pattern, row_name(i), 0) == 0)
			puts(row_name(i));
	for (i = 0; row_name(i); i++) {
		const char *name = row_name(i), *p;

		for (p = name; *p; p++) {
			if (*p != '.' && *p != '_')
				continue;
			snprintf(g, sizeof(g), "%.*s*", (int)(p - name + 1), name);
			add_glob(globs, &n, g, pattern);
		}
		snprintf(g, sizeof(g), "%s*", name);
		add_glob(globs, &n, g, pattern);
		p = strrchr(name, '.');
		if (p) {
			snprintf(g, sizeof(g), "*%s", p);
			add_glob(globs, &n, g, pattern);
		}
	}
	return PC_EXIT_OK;
}

/* This machine's architecture, then every one a probe runner measures
 * (run --arch), one a line. */
static int list_archs(void)
{
	const char *l = pc_runner_arch_list();

	puts(pc_arch_name);
	while (*l) {
		size_t n = strcspn(l, ", ");

		if (n && (strlen(pc_arch_name) != n || strncmp(l, pc_arch_name, n) != 0))
			printf("%.*s\n", (int)n, l);
		l += n;
		l += strspn(l, ", ");
	}
	return PC_EXIT_OK;
}

struct list_options {
	const char *pattern;
	int verbose;
	enum pc_format fmt;
	int events, reference, names, runs, archs;
};

/* The formats of every listing. */
#define LIST_FORMATS (PC_FMT(PC_FORMAT_TABLE) | PC_FMT(PC_FORMAT_CSV) |		\
		      PC_FMT(PC_FORMAT_JSON) | PC_FMT(PC_FORMAT_MARKDOWN))

/* The options that set a flag of struct list_options. */
static const struct {
	int opt;
	size_t field;
} list_flags[] = {
	{ 'v', offsetof(struct list_options, verbose) },
	{ OPT_EVENTS, offsetof(struct list_options, events) },
	{ 'r', offsetof(struct list_options, reference) },
	{ OPT_NAMES, offsetof(struct list_options, names) },
	{ OPT_RUNS, offsetof(struct list_options, runs) },
	{ OPT_ARCHS, offsetof(struct list_options, archs) },
};

static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	struct list_options *o = ctx;
	size_t i;

	if (c == 'f')
		return pc_opt_format(arg, LIST_FORMATS, &o->fmt, err, errlen);
	for (i = 0; i < PC_ARRAY_LEN(list_flags); i++) {
		if (list_flags[i].opt == c) {
			*(int *)((char *)o + list_flags[i].field) = 1;
			return 0;
		}
	}
	return PC_OPT_NOT_MINE;
}

/* The operands after the options: at most a pattern (or --runs' FILE). */
static int take_operands(int argc, char **argv, struct list_options *o, char *err,
			 size_t errlen)
{
	if (optind < argc)
		o->pattern = argv[optind++];
	return pc_no_operand(argc, argv, err, errlen);
}

/* ---- the rows, as a table ---------------------------------------------------------- */

/* In the order of the CSV's columns. */
enum { L_NAME, L_GROUP, L_RING, L_API, L_AVAIL, L_SEQ, L_DESC, L_METHOD, L_SELECTED, L_NOTE,
       L_COLS };

/* The name column: as wide as the widest name among the rows listed, but
 * no wider than the probe table's names, so that the kernel group's long
 * names do not narrow the other columns; a longer name has a line of its
 * own (PC_COL_ALONE). */
#define NAME_WIDTH_MAX 28

static int name_width(const char *pattern)
{
	int w = 5;	/* "probe" */
	size_t i;

	for (i = 0; row_name(i); i++)
		if ((!pattern || matches(pattern, row_name(i))) &&
		    (int)strlen(row_name(i)) > w)
			w = (int)strlen(row_name(i));
	return w < NAME_WIDTH_MAX ? w : NAME_WIDTH_MAX;
}

/* The listing's columns: name, group, ring and status in a row's line, the
 * description in it where the line fits the width, else under it; what -v
 * adds under the row (the text view), every column in CSV and JSON. */
static int list_table(struct pc_table *t, const char *pattern)
{
	const struct pc_table_col cols[L_COLS] = {
		[L_NAME] = { .head = "probe", .key = "name", .width = name_width(pattern),
			     .flags = PC_COL_LEFT | PC_COL_ALONE },
		[L_GROUP] = { .head = "group", .width = 12, .flags = PC_COL_LEFT, .gap = " " },
		[L_RING] = { .head = "ring", .width = 4, .style = PC_CELL_FIXED, .gap = " " },
		[L_AVAIL] = { .head = "status", .key = "availability", .wide_head = "availability",
			      .width = 12, .flags = PC_COL_LEFT, .gap = " " },
		[L_DESC] = { .head = "description", .flags = PC_COL_LEFT | PC_COL_FLOW,
			     .gap = " " },
		[L_API] = { .head = "kernel_api", .under = "kernel API:",
			    .flags = PC_COL_LEFT | PC_COL_UNDER },
		[L_SEQ] = { .head = "sequence", .under = "sequence:",
			    .flags = PC_COL_LEFT | PC_COL_UNDER },
		[L_METHOD] = { .head = "method", .under = "method:",
			       .flags = PC_COL_LEFT | PC_COL_UNDER },
		[L_SELECTED] = { .head = "selected_by", .under = "measured:",
				 .flags = PC_COL_LEFT | PC_COL_UNDER },
		[L_NOTE] = { .head = "note", .under = "note:", .flags = PC_COL_LEFT | PC_COL_UNDER },
	};

	if (pc_table_init(t, " ", cols, L_COLS) < 0)
		return -1;
	t->none = "";
	t->under_indent = 2;
	return 0;
}

/* Sets the cell's words when there are any (an empty cell stays empty). */
static int words(struct pc_table *t, size_t r, int c, const char *s)
{
	return s && *s ? pc_table_text(t, r, (size_t)c, "%s", s) : 0;
}

/* A row of the probe table. */
static int probe_row(struct pc_table *t, int id)
{
	const struct pc_probe_row *p = &pc_probe_rows[id];
	long r = pc_table_row(t);

	if (r < 0 || words(t, (size_t)r, L_NAME, p->name) < 0 ||
	    words(t, (size_t)r, L_GROUP, pc_group_name(p->group)) < 0 ||
	    words(t, (size_t)r, L_AVAIL, availability(id)) < 0 ||
	    words(t, (size_t)r, L_DESC, p->description) < 0 ||
	    words(t, (size_t)r, L_API, p->kernel_api) < 0 ||
	    pc_table_text(t, (size_t)r, L_SEQ, "%s", sequence(id)) < 0 ||
	    words(t, (size_t)r, L_NOTE, pc_probe_note((enum pc_probe_id)id)) < 0)
		return -1;
	pc_table_at(t, (size_t)r, L_RING)->v = p->ring;
	return 0;
}

/* A row of a group measured at points. */
static int point_row(struct pc_table *t, const struct pc_point_row *p)
{
	long r = pc_table_row(t);

	if (r < 0 || words(t, (size_t)r, L_NAME, p->name) < 0 ||
	    words(t, (size_t)r, L_GROUP, p->group) < 0 ||
	    words(t, (size_t)r, L_AVAIL, p->availability) < 0 ||
	    words(t, (size_t)r, L_DESC, p->what) < 0 ||
	    pc_table_text(t, (size_t)r, L_API, "-") < 0 ||
	    pc_table_text(t, (size_t)r, L_SEQ, "%s", "") < 0 ||
	    words(t, (size_t)r, L_METHOD, p->method) < 0 ||
	    words(t, (size_t)r, L_SELECTED, p->selected_by) < 0 ||
	    words(t, (size_t)r, L_NOTE, p->note) < 0)
		return -1;
	pc_table_at(t, (size_t)r, L_RING)->v = p->ring0 ? 0 : 3;
	return 0;
}

/* The probe table, then the rows measured at points (those matching
 * pattern); the text view shows what is under a row with -v only. */
static int list_probes(const char *pattern, int verbose, enum pc_format fmt)
{
	const struct pc_point_row *rows;
	struct pc_table t;
	size_t n, i;
	int id, rc = 0;

	if (list_table(&t, pattern) < 0)
		return PC_EXIT_USAGE;
	if (fmt == PC_FORMAT_TABLE && !verbose)
		for (i = 0; i < L_COLS; i++)
			if (t.cols[i].flags & PC_COL_UNDER)
				t.cols[i].flags |= PC_COL_DATA;
	for (id = 0; rc == 0 && id < PC_PROBE_COUNT; id++)
		if (!pattern || matches(pattern, pc_probe_rows[id].name))
			rc = probe_row(&t, id);
	rows = point_rows(&n);
	for (i = 0; rc == 0 && i < n; i++)
		if (!pattern || matches(pattern, rows[i].name))
			rc = point_row(&t, &rows[i]);
	if (rc == 0)
		pc_table_draw(stdout, &t, fmt);
	pc_table_free(&t);
	return rc == 0 ? PC_EXIT_OK : PC_EXIT_USAGE;
}

int cmd_list(int argc, char **argv)
{
	struct list_options o = { 0 };
	char err[PC_ERRLEN];
	int rc = pc_options_parse(argc, argv, ":vrf:h", long_options, take_option, &o,
				  err, sizeof(err));

	if (rc == 0)
		rc = take_operands(argc, argv, &o, err, sizeof(err));
	rc = pc_options_end(rc, err, sizeof(err));
	if (rc != 0)
		return pc_options_exit("list", rc, usage_text, err);
	if (o.events + o.reference + o.names + o.runs + o.archs > 1) {
		pc_error("list", "--events, --reference, --names, --runs and --archs exclude "
			 "each other");
		return PC_EXIT_USAGE;
	}
	if (o.archs && o.pattern) {
		pc_error("list", "--archs takes no pattern");
		return PC_EXIT_USAGE;
	}
	if (o.archs)
		return list_archs();
	if (o.runs && !o.pattern) {
		pc_error("list", "--runs needs a result FILE (- for standard input)");
		return PC_EXIT_USAGE;
	}
	if (o.runs)
		return pc_list_runs(o.pattern, o.fmt);
	if (o.names)
		return list_names(o.pattern);
	if (o.events)
		return pc_list_events(o.pattern, o.verbose, o.fmt);
	if (o.reference)
		return pc_list_reference(o.pattern, o.fmt, o.verbose);
	if (o.pattern) {
		char err[PC_ERRLEN];

		if (pattern_check(o.pattern, err, sizeof(err)) < 0) {
			pc_error("list", "%s", err);
			return PC_EXIT_USAGE;
		}
	}
	return list_probes(o.pattern, o.verbose, o.fmt);
}
