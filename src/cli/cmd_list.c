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
	"  -f, --format FMT      table, csv or json (default table)\n"
	"  -h, --help            this help\n";

enum { OPT_EVENTS = 256, OPT_NAMES, OPT_RUNS };

static const struct option long_options[] = {
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "reference", no_argument, NULL, 'r' },
	{ "names", no_argument, NULL, OPT_NAMES },
	{ "runs", no_argument, NULL, OPT_RUNS },
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

void pc_list_csv_line(json_t *row, const char *const *keys)
{
	size_t i;

	for (i = 0; keys[i]; i++) {
		json_t *v = json_object_get(row, keys[i]);

		if (i)
			putchar(',');
		if (json_is_integer(v))
			printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
		else if (json_is_boolean(v))
			fputs(json_is_true(v) ? "yes" : "no", stdout);
		else
			pc_csv_field(stdout, json_string_value(v));
	}
	putchar('\n');
}

void pc_list_fit(int indent, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	pc_wrap_lines(stdout, line, indent, pc_term_width());
	free(line);
}

/* ---- the rows: the probe table's, then the groups measured at points ---- */

#define MAX_POINT_ROWS 64

/* The rows of every measurement group measured at points, in the order
 * of run's registry. */
static const struct pc_point_row *point_rows(size_t *n)
{
	static struct pc_point_row rows[MAX_POINT_ROWS];
	const struct pc_group_entry *e;
	const struct pc_point_row *g;
	size_t ng, k;

	*n = 0;
	for (e = pc_groups; e->group; e++) {
		if (!e->group->rows)
			continue;
		g = e->group->rows(&ng);
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

struct list_options {
	const char *pattern;
	int verbose, fmt;	/* fmt: 0 table, 1 csv, 2 json */
	int events, reference, names, runs;
};

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
};

static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	static const char *const formats[] = { "table", "csv", "json", NULL };
	struct list_options *o = ctx;
	size_t i;

	if (c == 'f')
		return (o->fmt = pc_opt_word("--format", arg, formats, err, errlen)) < 0 ?
		       -1 : 0;
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

/* One row of the probe table, as list --format json shows it. */
static json_t *probe_row(int id)
{
	const struct pc_probe_row *r = &pc_probe_rows[id];
	const char *note = pc_probe_note((enum pc_probe_id)id);
	json_t *row = json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s}", "name", r->name,
				"group", pc_group_name(r->group), "ring", r->ring,
				"kernel_api", r->kernel_api, "availability",
				availability(id), "sequence", sequence(id),
				"description", r->description);

	if (row && note)
		json_object_set_new(row, "note", json_string(note));
	return row;
}

/* One row of a group measured at points, as list --format json shows it. */
static json_t *point_row_json(const struct pc_point_row *r)
{
	json_t *row = json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s}", "name",
				r->name, "group", r->group, "ring", r->ring0 ? 0 : 3,
				"kernel_api", "-", "availability", r->availability,
				"sequence", "", "description", r->what, "method", r->method,
				"selected_by", r->selected_by);

	if (row && r->note)
		json_object_set_new(row, "note", json_string(r->note));
	return row;
}

static const char *const list_keys[] = { "name", "group", "ring", "kernel_api",
					  "availability", "sequence", "description",
					  "method", "selected_by", NULL };

/* The name column: as wide as the widest name among the rows listed, but
 * no wider than the probe table's names, so that the kernel group's long
 * names do not narrow the description of every row; a longer name has a
 * line of its own (name_line). */
#define NAME_WIDTH_MAX 28

static int name_width(const char *pattern)
{
	int w = 0;
	size_t i;

	for (i = 0; row_name(i); i++)
		if ((!pattern || matches(pattern, row_name(i))) &&
		    (int)strlen(row_name(i)) > w)
			w = (int)strlen(row_name(i));
	return w < NAME_WIDTH_MAX ? w : NAME_WIDTH_MAX;
}

/* The name to print in a column w wide: a name wider than it goes on a
 * line of its own, and the row's fields follow under a blank name. */
static const char *name_line(const char *name, int w)
{
	if ((int)strlen(name) <= w)
		return name;
	puts(name);
	return "";
}

/* The rows of the groups measured at points (those matching pattern): a
 * line each, or a row of the CSV or of arr. */
static void list_point_rows(const char *pattern, int verbose, int fmt, json_t *arr)
{
	size_t n, i;
	const struct pc_point_row *rows = point_rows(&n);
	int w = name_width(pattern);

	for (i = 0; i < n; i++) {
		const struct pc_point_row *r = &rows[i];
		json_t *row;

		if (pattern && !matches(pattern, r->name))
			continue;
		if (fmt == 0) {
			pc_list_fit(w + 32, "%-*s %-12s %4d %-12s %s", w, name_line(r->name, w), r->group,
			    r->ring0 ? 0 : 3, r->availability, r->what);
			if (verbose) {
				char lead[96];

				snprintf(lead, sizeof(lead), "%*s method:    ", w, "");
				pc_text_wrap(stdout, lead, r->method, w + 13, pc_term_width());
				snprintf(lead, sizeof(lead), "%*s measured:  ", w, "");
				pc_text_wrap(stdout, lead, r->selected_by, w + 13, pc_term_width());
				if (r->note) {
					snprintf(lead, sizeof(lead), "%*s note:      ", w, "");
					pc_text_wrap(stdout, lead, r->note, w + 13, pc_term_width());
				}
			}
			continue;
		}
		row = point_row_json(r);
		if (fmt == 1) {
			pc_list_csv_line(row, list_keys);
			json_decref(row);
		} else {
			json_array_append_new(arr, row);
		}
	}
}

/* The probe table, then the rows measured at points (those matching
 * pattern). */
static int list_probes(const char *pattern, int verbose, int fmt)
{
	json_t *arr = NULL;
	int id, w = name_width(pattern);

	if (fmt == 0)
		printf("%-*s %-12s %4s %-12s %s\n", w, "probe", "group", "ring",
		       pc_arch_name, "description");
	else if (fmt == 1)
		printf("probe,group,ring,kernel_api,%s,sequence,description,method,"
		       "selected_by\n", pc_arch_name);
	else
		arr = json_array();
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		const struct pc_probe_row *r = &pc_probe_rows[id];

		if (pattern && !matches(pattern, r->name))
			continue;
		if (fmt == 0) {
			pc_list_fit(w + 32, "%-*s %-12s %4d %-12s %s", w,
			    name_line(r->name, w), pc_group_name(r->group), r->ring, availability(id), r->description);
			if (verbose)
				pc_list_fit(w + 13, "%*s kernel API: %s\n%*s sequence:   %s", w, "",
				    r->kernel_api, w, "", sequence(id));
			if (verbose && pc_probe_note((enum pc_probe_id)id))
				pc_list_fit(w + 13, "%*s note:       %s", w, "",
				    pc_probe_note((enum pc_probe_id)id));
		} else {
			json_t *row = probe_row(id);

			if (fmt == 1) {
				pc_list_csv_line(row, list_keys);
				json_decref(row);
			} else {
				json_array_append_new(arr, row);
			}
		}
	}
	list_point_rows(pattern, verbose, fmt, arr);
	if (arr) {
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(arr);
	}
	return PC_EXIT_OK;
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
	if (o.events + o.reference + o.names + o.runs > 1) {
		pc_error("list", "--events, --reference, --names and --runs exclude each other");
		return PC_EXIT_USAGE;
	}
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
