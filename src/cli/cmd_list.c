/* SPDX-License-Identifier: MIT */
/* cmd_list.c - primcost list: the probe table and what this build runs. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "run/run.h"
#include "results/compare.h"
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

/* One CSV line: the fields keys of row, strings quoted where they must be,
 * integers, booleans as yes or no. */
static void csv_line(json_t *row, const char *const *keys)
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

/* ---- the rows: the probe table's, then the groups measured at points ---- */

#define MAX_POINT_ROWS 40

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

/* ---- list --events: what libpfm4 offers here ---------------------------- */

struct event_rows {
	json_t *arr;
	int verbose;
};

static void add_event(const struct pc_event_info *info, void *ctx)
{
	struct event_rows *rows = ctx;
	json_t *o = json_pack("{s:s, s:s, s:s, s:b}", "name", info->name,
			      "kind", info->hardware ? "hardware" : "software",
			      "description", info->desc, "counts_here", info->counts);
	int a;

	if (info->equiv)
		json_object_set_new(o, "same_as", json_string(info->equiv));
	if (!info->counts)
		json_object_set_new(o, "reason", json_string(info->why));
	if (rows->verbose) {
		json_t *attrs = json_array();

		for (a = 0; a < info->nattrs; a++) {
			struct pc_event_attr at;

			if (pc_event_attr_get(info->idx, a, &at) < 0)
				continue;
			json_array_append_new(attrs, json_pack(
				"{s:s, s:s, s:s, s:b}", "name", at.name, "kind",
				at.umask ? "unit mask" : "modifier", "description",
				at.desc, "default", at.dfl));
		}
		json_object_set_new(o, "attributes", attrs);
	}
	json_array_append_new(rows->arr, o);
}

/* Prints a line (or lines) of a text table, each wrapped to the terminal
 * under column indent, where its last field begins. */
static void fit(int indent, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fit(int indent, const char *fmt, ...)
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

/* A description on one line: newlines and tabs as spaces, cut at max
 * bytes with "..." (0: whole). */
static const char *one_line(const char *d, size_t max, char *out, size_t len)
{
	size_t i;

	for (i = 0; d[i] && (!max || i < max) && i + 4 < len; i++)
		out[i] = d[i] == '\n' || d[i] == '\t' ? ' ' : d[i];
	snprintf(out + i, len - i, "%s", d[i] ? "..." : "");
	return out;
}

static int list_events(const char *pattern, int verbose, int fmt)
{
	struct event_rows rows = { json_array(), verbose };
	char err[PC_ERRLEN], d[4096];
	json_t *o, *reasons = json_object();
	const char *why;
	size_t i, j;
	int n;

	n = pc_events_list(pattern, add_event, &rows, err, sizeof(err));
	if (n < 0 || (pattern && n == 0)) {
		if (n < 0)
			pc_error("list", "%s", err);
		else
			pc_error("list", "no event matches '%s' (see primcost list "
				 "--events)", pattern);
		json_decref(rows.arr);
		json_decref(reasons);
		return PC_EXIT_USAGE;
	}
	if (fmt == 2) {
		json_dumpf(rows.arr, stdout, JSON_INDENT(1));
		putchar('\n');
	} else if (fmt == 1) {
		static const char *const keys[] = { "name", "kind", "counts_here", "same_as",
						    "description", "reason", NULL };

		printf("event,kind,counts_here,same_as,description,reason\n");
		json_array_foreach(rows.arr, i, o)
			csv_line(o, keys);
	} else {
		printf("%-44s %-4s  %s\n", "event", "here", "description");
		json_array_foreach(rows.arr, i, o) {
			const char *eq = json_string_value(json_object_get(o, "same_as"));
			json_t *attrs = json_object_get(o, "attributes"), *at;

			fit(51, "%-44s %-4s  %s%s", json_string_value(json_object_get(o, "name")),
			    json_is_true(json_object_get(o, "counts_here")) ? "yes" : "no",
			    eq ? "same as " : "", eq ? eq : one_line(json_string_value(
				json_object_get(o, "description")), verbose ? 0 : 72, d, sizeof(d)));
			json_array_foreach(attrs, j, at)
				fit(51, "%46s:%s%s  %s", "", json_string_value(json_object_get(at, "name")),
				    json_is_true(json_object_get(at, "default")) ? " (default)" : "",
				    one_line(json_string_value(json_object_get(at, "description")), 0,
					     d, sizeof(d)));
			why = json_string_value(json_object_get(o, "reason"));
			if (why)
				json_object_set_new(reasons, why, json_integer(1 +
					json_integer_value(json_object_get(reasons, why))));
		}
		if (json_object_size(reasons))
			printf("\n");
		json_object_foreach(reasons, why, o) {
			n = snprintf(d, sizeof(d), "%" JSON_INTEGER_FORMAT " not here: ",
				     json_integer_value(o));
			fit(n, "%s%s", d, why);
		}
	}
	json_decref(rows.arr);
	json_decref(reasons);
	return PC_EXIT_OK;
}

/* ---- the reference tables ---------------------------------------------------- */

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

/* One CPU of one reference table: a line of the table or the CSV, or a
 * row appended to arr (JSON). */
static void reference_row(const char *name, const char *path, const char *key,
			  json_t *e, int fmt, int verbose, json_t *arr)
{
	static const char *const keys[] = { "reference", "file", "cpu", "brand", "date",
					    "probes", "source", NULL };
	json_t *runs = json_object_get(e, "runs"), *run = json_array_get(runs, 0), *r;
	const char *brand = json_string_value(json_object_get(json_object_get(e, "cpu"),
							      "brand"));
	const char *date = json_string_value(json_object_get(run, "date"));
	const char *summary = json_string_value(json_object_get(
		json_object_get(run, "provenance"), "summary"));
	size_t np = json_object_size(json_object_get(e, "probes")), k;

	date = date ? date : "";
	if (fmt == 0) {
		fit(55, "%-32s %-12s %6zu  %s", pc_shown(name), pc_shown(date), np,
		    pc_shown(brand ? brand : key));
		for (k = 0; verbose && k < json_array_size(runs); k++)
			fit(33, "%32s %s", "", json_string_value(json_object_get(
				json_object_get(json_array_get(runs, k), "provenance"),
				"summary")));
		return;
	}
	r = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:I, s:s?}", "reference", name,
		      "file", path, "cpu", key, "brand", brand, "date", date,
		      "probes", (json_int_t)np, "source", summary);
	if (fmt == 1) {
		csv_line(r, keys);
		json_decref(r);
	} else {
		json_array_append_new(arr, r);
	}
}

/* The published tables installed with primcost (pc_reference_dir()),
 * each validated as it is read. */
static int list_reference(const char *pattern, int fmt, int verbose)
{
	char where[PC_ERRLEN];
	const char *dir = pc_reference_dir(where, sizeof(where));
	struct dirent **names;
	json_t *arr;
	int n, i, rc = PC_EXIT_OK;

	if (!dir) {
		pc_error("list", "%s", where);
		return PC_EXIT_USAGE;
	}
	arr = fmt == 2 ? json_array() : NULL;
	n = scandir(dir, &names, json_name, alphasort);
	if (n < 0) {
		pc_error("list", "reference tables: %s: %s", dir, strerror(errno));
		json_decref(arr);
		return PC_EXIT_USAGE;
	}
	if (fmt == 0)
		printf("%-32s %-12s %6s  %s\n", "reference", "date", "probes", "cpu");
	else if (fmt == 1)
		printf("reference,file,cpu,brand,date,probes,source\n");
	for (i = 0; i < n; i++) {
		char path[4096], err[PC_ERRLEN], name[256];
		const char *key;
		json_t *doc, *e;

		snprintf(name, sizeof(name), "%.*s", (int)strlen(names[i]->d_name) - 5,
			 names[i]->d_name);
		if (pattern && fnmatch(pattern, name, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		doc = pc_doc_load(path, NULL, err, sizeof(err));
		if (!doc) {
			pc_error("list", "%s", err);
			rc = PC_EXIT_USAGE;
			break;
		}
		json_object_foreach(json_object_get(doc, "cpus"), key, e)
			reference_row(name, path, key, e, fmt, verbose, arr);
		json_decref(doc);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (arr) {
		if (rc == PC_EXIT_OK) {
			json_dumpf(arr, stdout, JSON_INDENT(1));
			putchar('\n');
		}
		json_decref(arr);
	}
	return rc;
}

/* ---- list --runs FILE: the history a result file keeps ------------------- */

static const char *run_str(json_t *run, const char *k)
{
	const char *v = json_string_value(json_object_get(run, k));

	return v ? v : "";
}

/* One run of one CPU as a row: what a table, CSV or JSON shows. */
static json_t *run_row(const char *key, json_t *entry, size_t k)
{
	json_t *run = json_array_get(json_object_get(entry, "runs"), k);
	struct pc_run_counts c;

	pc_run_counts(entry, k, &c);
	return json_pack("{s:s, s:I, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:b, s:s, s:b, "
			 "s:I, s:I}",
			 "cpu", key, "run", (json_int_t)k, "date", run_str(run, "date"),
			 "host", run_str(run, "host"), "kernel", run_str(run, "kernel"),
			 "primcost_version", run_str(run, "primcost_version"),
			 "measured", (json_int_t)c.measured,
			 "not_measured", (json_int_t)c.unmeasured,
			 "current", (json_int_t)c.current,
			 "partial", json_is_true(json_object_get(run, "partial")),
			 "interrupted_by", run_str(run, "interrupted_by"),
			 "unreliable", json_is_true(json_object_get(run, "unreliable")),
			 "noisy", (json_int_t)c.noisy, "nonlinear", (json_int_t)c.nonlinear);
}

/* The width of a row of --runs with every column on it. */
#define RUNS_WIDE 111

static void print_run_row(json_t *r, int fmt)
{
	static const char *const keys[] = { "cpu", "run", "date", "host", "kernel",
					    "primcost_version", "measured", "not_measured",
					    "current", "partial", "unreliable", "noisy",
					    "nonlinear", NULL };
	json_int_t noisy = json_integer_value(json_object_get(r, "noisy"));
	json_int_t nonlinear = json_integer_value(json_object_get(r, "nonlinear"));
	json_int_t run = json_integer_value(json_object_get(r, "run"));
	json_int_t measured = json_integer_value(json_object_get(r, "measured"));
	json_int_t not_measured = json_integer_value(json_object_get(r, "not_measured"));
	json_int_t current = json_integer_value(json_object_get(r, "current"));
	const char *date = pc_shown(json_string_value(json_object_get(r, "date")));
	const char *host = pc_shown(json_string_value(json_object_get(r, "host")));
	const char *kernel = pc_shown(json_string_value(json_object_get(r, "kernel")));
	const char *version = pc_shown(json_string_value(json_object_get(r, "primcost_version")));
	int wide = pc_term_width() >= RUNS_WIDE;
	char flags[256], when[32], where[3 * 4 * PATH_MAX];

	if (fmt == 1) {
		csv_line(r, keys);
		return;
	}
	/* The table shows the date to the second (the run number orders runs
	 * of one second); -f csv and json give it whole. Where the terminal
	 * is narrower than a row of every column, host, kernel and version go
	 * on a line of their own under the row. */
	snprintf(flags, sizeof(flags), "%s%s%s", json_is_true(json_object_get(r, "partial")) ?
		 "  partial " : "", json_string_value(json_object_get(r, "interrupted_by")),
		 json_is_true(json_object_get(r, "unreliable")) ? "  unreliable" : "");
	/* figures of the run that are measured but not trustworthy as they are */
	if (noisy)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 "  %" JSON_INTEGER_FORMAT " noisy", noisy);
	if (nonlinear)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 "  %" JSON_INTEGER_FORMAT " nonlinear", nonlinear);
	/* a date to the second ends in Z; a published table's may be a year */
	snprintf(when, sizeof(when), strlen(date) > 19 ? "%.19sZ" : "%s", date);
	if (wide) {
		fit(RUNS_WIDE - 2, "  %4" JSON_INTEGER_FORMAT "  %-20s  %-16.16s  %-24.24s  "
		    "%-8.8s  %8" JSON_INTEGER_FORMAT "  %8" JSON_INTEGER_FORMAT "  %7"
		    JSON_INTEGER_FORMAT "%s", run, when, host, kernel, version, measured,
		    not_measured, current, flags);
		return;
	}
	fit(8, "  %4" JSON_INTEGER_FORMAT "  %-20s  %8" JSON_INTEGER_FORMAT "  %8"
	    JSON_INTEGER_FORMAT "  %7" JSON_INTEGER_FORMAT "%s", run, when, measured,
	    not_measured, current, flags);
	snprintf(where, sizeof(where), "%s%s%s%s%s%s", *host ? "  host " : "", host,
		 *kernel ? "  kernel " : "", kernel, *version ? "  primcost " : "", version);
	if (*where)
		fit(8, "      %s", where);
}

static int list_runs(const char *file, int fmt)
{
	char err[PC_ERRLEN], path[4096];
	json_t *doc = pc_input_load(file, path, sizeof(path), err, sizeof(err));
	json_t *arr, *entry, *r;
	const char *key;
	size_t k;

	if (!doc) {
		pc_error("list", "%s", err);
		return PC_EXIT_USAGE;
	}
	arr = json_array();
	if (fmt == 1)
		printf("cpu,run,date,host,kernel,primcost_version,measured,not_measured,"
		       "current,partial,unreliable,noisy,nonlinear\n");
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		const char *brand = json_string_value(json_object_get(
			json_object_get(entry, "cpu"), "brand"));

		if (fmt == 0) {
			if (json_array_size(arr))
				putchar('\n');
			fit((int)strlen(pc_shown(key)) + 2, "%s%s%s", pc_shown(key),
			    brand ? ": " : "", brand ? pc_shown(brand) : "");
			if (pc_term_width() >= RUNS_WIDE)
				printf("  %4s  %-20s  %-16s  %-24s  %-8s  %8s  %8s  %7s\n", "run",
				       "date", "host", "kernel", "version", "measured",
				       "not-meas", "current");
			else
				printf("  %4s  %-20s  %8s  %8s  %7s\n", "run", "date",
				       "measured", "not-meas", "current");
		}
		for (k = 0; k < json_array_size(json_object_get(entry, "runs")); k++) {
			r = run_row(key, entry, k);
			if (fmt != 2)
				print_run_row(r, fmt);
			json_array_append_new(arr, r);
		}
	}
	if (fmt == 2) {
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
	}
	json_decref(arr);
	json_decref(doc);
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
	return json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s}", "name",
			 r->name, "group", r->group, "ring", 3, "kernel_api", "-",
			 "availability", r->availability, "sequence", "",
			 "description", r->what, "method", r->method,
			 "selected_by", r->selected_by);
}

static const char *const list_keys[] = { "name", "group", "ring", "kernel_api",
					  "availability", "sequence", "description",
					  "method", "selected_by", NULL };

/* The widest name of every row. */
static int name_width(void)
{
	int w = 0;
	size_t i;

	for (i = 0; row_name(i); i++)
		if ((int)strlen(row_name(i)) > w)
			w = (int)strlen(row_name(i));
	return w;
}

/* The rows of the groups measured at points (those matching pattern): a
 * line each, or a row of the CSV or of arr. */
static void list_point_rows(const char *pattern, int verbose, int fmt, json_t *arr)
{
	size_t n, i;
	const struct pc_point_row *rows = point_rows(&n);
	int w = name_width();

	for (i = 0; i < n; i++) {
		const struct pc_point_row *r = &rows[i];
		json_t *row;

		if (pattern && !matches(pattern, r->name))
			continue;
		if (fmt == 0) {
			fit(w + 32, "%-*s %-12s %4d %-12s %s", w, r->name, r->group, 3,
			    r->availability, r->what);
			if (verbose) {
				char lead[96];

				snprintf(lead, sizeof(lead), "%*s method:    ", w, "");
				pc_text_wrap(stdout, lead, r->method, w + 13, pc_term_width());
				snprintf(lead, sizeof(lead), "%*s measured:  ", w, "");
				pc_text_wrap(stdout, lead, r->selected_by, w + 13, pc_term_width());
			}
			continue;
		}
		row = point_row_json(r);
		if (fmt == 1) {
			csv_line(row, list_keys);
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
	int id, w = name_width();

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
			fit(w + 32, "%-*s %-12s %4d %-12s %s", w, r->name,
			    pc_group_name(r->group), r->ring, availability(id), r->description);
			if (verbose)
				fit(w + 13, "%*s kernel API: %s\n%*s sequence:   %s", w, "",
				    r->kernel_api, w, "", sequence(id));
			if (verbose && pc_probe_note((enum pc_probe_id)id))
				fit(w + 13, "%*s note:       %s", w, "",
				    pc_probe_note((enum pc_probe_id)id));
		} else {
			json_t *row = probe_row(id);

			if (fmt == 1) {
				csv_line(row, list_keys);
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
		return list_runs(o.pattern, o.fmt);
	if (o.names)
		return list_names(o.pattern);
	if (o.events)
		return list_events(o.pattern, o.verbose, o.fmt);
	if (o.reference)
		return list_reference(o.pattern, o.fmt, o.verbose);
	if (o.pattern) {
		char err[PC_ERRLEN];

		if (pattern_check(o.pattern, err, sizeof(err)) < 0) {
			pc_error("list", "%s", err);
			return PC_EXIT_USAGE;
		}
	}
	return list_probes(o.pattern, o.verbose, o.fmt);
}
