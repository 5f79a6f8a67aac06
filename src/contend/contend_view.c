/* SPDX-License-Identifier: MIT */
/*
 * contend_view.c - the contended group's results shown (contend.h): the
 * published tables' shape (rows = threads, columns = lock kinds), the c2c
 * pairs and their heat map, as text, markdown or CSV; compare --by lock,
 * which pairs points by threads, nodes and placement, the published
 * spin_lock_unlock tables (no placement) beside every placement of their
 * threads and nodes; its rows as list shows them.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "contend.h"
#include "results/report.h"
#include "results/results.h"
#include "results/table.h"
#include "core/util.h"

/* ---- a point's fields into cells ------------------------------------------------- */

/* The number key of o, or NAN. */
static double number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The point's string key as the words of cell (r, c), none when it has no
 * such string. -1: out of memory. */
static int put_words(struct pc_table *t, long r, size_t c, json_t *pt, const char *key,
		     const char *none)
{
	return pc_table_text(t, (size_t)r, c, "%s",
			     json_string_value(json_object_get(pt, key)) ? : none);
}

/* ---- the kinds' tables: a row per threads and key, a column per kind -------------- */

/* The stub columns: threads, the key (the placement, or in compare the
 * nodes and the placement), and where lock rows are, their data lines. */
#define KEY_COLS 2
#define DATA_COL 2

static const struct pc_table_mark noisy[] = { { "*", "*" } };

/* An empty table of the stubs (the key's heading keyname; data: a column
 * of the data lines too): the text view as many kinds a page as fit, a
 * noisy figure marked '*'. -1: out of memory. */
static int kinds_table(struct pc_table *t, const char *keyname, bool data)
{
	const struct pc_table_col stubs[KEY_COLS + 1] = {
		{ .head = "threads", .width = 7, .style = PC_CELL_FIXED, .flags = PC_COL_STUB },
		{ .head = keyname, .width = 9, .style = PC_CELL_FIXED,
		  .flags = PC_COL_STUB | PC_COL_LEFT },
		[DATA_COL] = { .head = "data", .width = 4, .style = PC_CELL_FIXED, .flags = PC_COL_STUB,
			       .wide_head = "data lines" },
	};

	if (pc_table_init(t, " ", stubs, KEY_COLS + data) < 0)
		return -1;
	t->marks = noisy;
	t->nmarks = 1;
	return 0;
}

/* The stub columns of t. */
static size_t stubs(const struct pc_table *t)
{
	size_t c;

	for (c = 0; c < t->ncols && t->cols[c].flags & PC_COL_STUB; c++)
		;
	return c;
}

/* A lock point's data lines; -1 for another row's. A result of before the
 * data lines counts as 0 where old is (compare pairs it with today's 0:
 * its critical section wrote the counter, on a line of its own). */
static int data_of(const char *name, json_t *pt, bool old)
{
	json_t *d = json_object_get(pt, "data_lines");

	if (json_is_integer(d))
		return (int)json_integer_value(d);
	return old && strncmp(name, "lock.", 5) == 0 ? 0 : -1;
}

/* The column of kind name (the row's name after its group's prefix, with
 * a CPU's letter in compare), added when there is none, at least 11 wide.
 * -1: out of memory. */
static long kind_col(struct pc_table *t, const char *name)
{
	int w = (int)strlen(name) + 2;
	const struct pc_table_col col = { NULL, name, w > 11 ? w : 11, PC_CELL_CYCLES,
					  PC_COL_MARK, 0, NULL, name, NULL, NULL };
	size_t c;

	for (c = stubs(t); c < t->ncols; c++)
		if (strcmp(t->cols[c].wide_head, name) == 0)
			return (long)c;
	return pc_table_col_add(t, &col);
}

/* Is row r's data lines data (-1: none), in a table with a column of them? */
static bool data_is(const struct pc_table *t, size_t r, int data)
{
	const struct pc_table_cell *c = pc_table_at(t, r, DATA_COL);

	return stubs(t) <= DATA_COL || (data < 0 ? c->text != NULL : c->v == data);
}

/* The row of (threads, key, data lines), added after the rows of as many
 * threads or fewer when there is none. -1: out of memory. */
static long kind_row(struct pc_table *t, int threads, const char *key, int data)
{
	size_t r;
	long at;

	for (r = 0; r < t->nrows; r++)
		if (pc_table_at(t, r, 0)->v == threads &&
		    strcmp(pc_table_at(t, r, 1)->text, key) == 0 && data_is(t, r, data))
			return (long)r;
	for (r = 0; r < t->nrows && pc_table_at(t, r, 0)->v <= threads; r++)
		;
	if ((at = pc_table_insert(t, r)) < 0)
		return -1;
	pc_table_at(t, (size_t)at, 0)->v = threads;
	if (stubs(t) > DATA_COL) {
		if (data >= 0)
			pc_table_at(t, (size_t)at, DATA_COL)->v = data;
		else if (pc_table_text(t, (size_t)at, DATA_COL, "-") < 0)
			return -1;
	}
	return pc_table_text(t, (size_t)at, 1, "%s", key) < 0 ? -1 : at;
}

/* A point's median into the cell (a point met again keeps the figure when
 * it has none), marked when noisy, FAILED in its place when failed. */
static int put_cell(struct pc_table *t, long r, long c, json_t *pt)
{
	const char *st = json_string_value(json_object_get(pt, "status")) ? : "";
	json_t *m = json_object_get(json_object_get(pt, "cycles"), "median");
	struct pc_table_cell *x = pc_table_at(t, (size_t)r, (size_t)c);

	if (json_is_number(m))
		x->v = json_number_value(m);
	x->marks = strcmp(st, "noisy") == 0;
	free(x->text);
	x->text = NULL;
	return strcmp(st, "failed") == 0 ? pc_table_text(t, (size_t)r, (size_t)c, "FAILED") : 0;
}

/* A point at (threads, key, data lines) under kind. -1: out of memory. */
static int put_point(struct pc_table *t, int threads, const char *key, int data,
		     const char *kind, json_t *pt)
{
	long r = kind_row(t, threads, key, data), c = kind_col(t, kind);

	return r < 0 || c < 0 ? -1 : put_cell(t, r, c, pt);
}

/* The points of the rows of entry whose name starts with prefix. */
static int add_points(struct pc_table *t, json_t *entry, const char *prefix)
{
	json_t *probes = json_object_get(entry, "probes"), *p, *pt;
	const char *name;
	size_t i;

	json_object_foreach(probes, name, p) {
		if (strncmp(name, prefix, strlen(prefix)) != 0)
			continue;
		json_array_foreach(json_object_get(p, "points"), i, pt) {
			json_t *th = json_object_get(pt, "threads");
			const char *pl = json_string_value(json_object_get(pt, "placement"));

			if (json_is_integer(th) &&
			    put_point(t, (int)json_integer_value(th), pl ? pl : "?",
				      data_of(name, pt, false), name + strlen(prefix), pt) < 0)
				return -1;
		}
	}
	return 0;
}

/* ---- c2c: the pairs, and a heat map of them ---------------------------------------- */

#define HEAT_CPUS 64

/* Every pair's one-way cycles on a CPU x CPU grid, darker when dearer: a
 * table of glyph cells, a column a CPU one character wide, a '|' over every
 * tenth. -1 when out of memory. */
static int heat_map(struct pc_view *v, json_t *points)
{
	static const char shade[] = " .:-=+*#%@";
	int cpu[HEAT_CPUS], a, b, rc = 0;
	double m[HEAT_CPUS][HEAT_CPUS], lo = INFINITY, hi = 0;
	unsigned n = 0, i, j;
	struct pc_table t;
	json_t *pt;
	size_t k;

	for (i = 0; i < HEAT_CPUS; i++)
		for (j = 0; j < HEAT_CPUS; j++)
			m[i][j] = NAN;
	json_array_foreach(points, k, pt) {
		double x = json_number_value(json_object_get(json_object_get(pt, "cycles"),
							     "median"));
		int ia, ib;

		if (sscanf(json_string_value(json_object_get(pt, "cpus")) ? : "", "%d,%d",
			   &a, &b) != 2 || !(x > 0))
			continue;
		for (ia = 0; ia < (int)n && cpu[ia] != a; ia++)
			;
		if (ia == (int)n && n < HEAT_CPUS)
			cpu[n++] = a;
		for (ib = 0; ib < (int)n && cpu[ib] != b; ib++)
			;
		if (ib == (int)n && n < HEAT_CPUS)
			cpu[n++] = b;
		if (ia >= (int)n || ib >= (int)n)
			continue;
		m[ia][ib] = m[ib][ia] = x;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	if (n < 3)
		return 0;
	if (pc_table_init(&t, NULL, &(struct pc_table_col){ .head = "", .width = 3,
			  .style = PC_CELL_FIXED, .flags = PC_COL_STUB }, 1) < 0)
		return -1;
	t.fit = 0;	/* a column a CPU: the grid is never paged */
	for (j = 0; rc == 0 && j < n; j++)
		rc = pc_table_col_add(&t, &(struct pc_table_col){ .head = j % 10 == 0 ? "|" : " ",
			.width = 1, .flags = PC_COL_LEFT, .gap = j ? "" : " " }) < 0 ? -1 : 0;
	for (i = 0; rc == 0 && i < n; i++) {
		long r = pc_table_row(&t);

		if (r < 0) {
			rc = -1;
			break;
		}
		pc_table_at(&t, (size_t)r, 0)->v = cpu[i];
		for (j = 0; rc == 0 && j < n; j++)
			rc = pc_table_text(&t, (size_t)r, j + 1, "%c", isnan(m[i][j]) ?
					   (i == j ? '\\' : '?') :
					   shade[hi > lo ? (int)((m[i][j] - lo) / (hi - lo) * 9 + 0.5) :
						 0]);
	}
	if (rc == 0) {
		pc_view_printf(v, "\nheat map, one-way cycles: ' ' %.0f .. '@' %.0f\n", lo, hi);
		pc_view_table(v, &t, "c2c.latency heat map");
	}
	pc_table_free(&t);
	return rc;
}

/* The pairs of c2c.latency as a table. -1: out of memory. */
enum { C2C_CPUS, C2C_CLASS, C2C_CYCLES, C2C_NS, C2C_STATUS, C2C_COLS };

static int c2c_table(struct pc_table *t, json_t *points)
{
	static const struct pc_table_col cols[C2C_COLS] = {
		[C2C_CPUS] = { .head = "cpus", .width = 11, .style = PC_CELL_FIXED,
			       .flags = PC_COL_STUB | PC_COL_LEFT },
		[C2C_CLASS] = { .head = "class", .width = 8, .style = PC_CELL_FIXED,
				.flags = PC_COL_STUB | PC_COL_LEFT },
		[C2C_CYCLES] = { .head = "cycles", .width = 10, .style = PC_CELL_CYCLES,
				 .flags = PC_COL_MARK },
		[C2C_NS] = { .head = "ns", .width = 10, .style = PC_CELL_CYCLES, .flags = PC_COL_MARK,
			     .gap = "" },
		[C2C_STATUS] = { .head = "status", .style = PC_CELL_FIXED, .flags = PC_COL_LEFT },
	};
	json_t *pt;
	size_t k;
	long r;

	if (pc_table_init(t, " ", cols, C2C_COLS) < 0)
		return -1;
	json_array_foreach(points, k, pt) {
		if ((r = pc_table_row(t)) < 0 || put_words(t, r, C2C_CPUS, pt, "cpus", "?") < 0 ||
		    put_words(t, r, C2C_CLASS, pt, "class", "?") < 0 ||
		    put_words(t, r, C2C_STATUS, pt, "status", "?") < 0)
			return -1;
		pc_table_at(t, (size_t)r, C2C_CYCLES)->v = number(json_object_get(pt, "cycles"),
								  "median");
		pc_table_at(t, (size_t)r, C2C_NS)->v = number(json_object_get(pt, "ns"), "median");
	}
	return 0;
}

/* c2c.latency's pairs under their title, and in the text view the heat
 * map. -1: out of memory. */
static int c2c_view(struct pc_view *v, json_t *probe)
{
	json_t *points = json_object_get(probe, "points");
	struct pc_table t;
	int rc;

	if (!json_array_size(points))
		return 0;
	if ((rc = c2c_table(&t, points)) == 0) {
		pc_view_printf(v, "\nc2c.latency: one-way transfer of a line (CAS ping-pong, "
			       "round trip / 2)\n%s", v->fmt == PC_FORMAT_MARKDOWN ? "\n" : "");
		pc_view_table(v, &t, "c2c.latency");
		if (v->fmt == PC_FORMAT_TABLE)
			rc = heat_map(v, points);
	}
	pc_table_free(&t);
	return rc;
}

/* Under the tables: the line transfer timed after every window, over the
 * entry's points, and why each point that is not ok is what it is. */
static void transfer_and_reasons(struct pc_view *v, json_t *entry)
{
	double lo = INFINITY, hi = 0, *x = NULL, *nx;
	json_t *p, *pt;
	const char *name;
	size_t n = 0, i;

	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		if (strcmp(json_string_value(json_object_get(p, "group")) ? : "",
			   "contended") != 0)
			continue;
		json_array_foreach(json_object_get(p, "points"), i, pt) {
			double cy = json_number_value(json_object_get(json_object_get(pt,
						      "transfer"), "cycles"));
			const char *st = json_string_value(json_object_get(pt, "status"));
			const char *why = json_string_value(json_object_get(pt, "reason"));

			if (cy > 0 && (nx = realloc(x, (n + 1) * sizeof(*x)))) {
				x = nx;
				x[n++] = cy;
				lo = cy < lo ? cy : lo;
				hi = cy > hi ? cy : hi;
			}
			if (st && strcmp(st, "ok") != 0) {
				char lead[160], data[32] = "";
				int d = data_of(name, pt, false);

				if (d >= 0)
					snprintf(data, sizeof(data), ", %d data lines", d);
				snprintf(lead, sizeof(lead), "%s %s, %lld threads %s%s:",
					 strcmp(st, "noisy") == 0 ? "*" : "!", name,
					 (long long)json_integer_value(json_object_get(pt,
								"threads")),
					 json_string_value(json_object_get(pt, "placement")) ? : "",
					 data);
				pc_view_wrap(v, lead, why ? why : st, 4);
			}
		}
	}
	if (n)
		pc_view_printf(v, "line transfer between each point's first two CPUs, timed "
			       "after every window:\n%.0f cycles, the median of %zu point%s "
			       "(%.0f to %.0f)\n", pc_median(x, n), n, n == 1 ? "" : "s", lo, hi);
	free(x);
}

/* The kinds' tables of an entry: the rows' prefix and the title. */
static const struct {
	const char *prefix, *title;
} kinds[] = {
	{ "lock.", "locks: cycles per lock+unlock pair per thread (median of the windows; "
	  "* noisy);\ndata: lines of protected data each critical section writes" },
	{ "contended.", "contended atomics: cycles per operation per thread" },
};

/* The table of entry's rows kinds[k].prefix* under its title (nothing when
 * there are none). -1: out of memory. */
static int kinds_view(struct pc_view *v, json_t *entry, size_t k)
{
	struct pc_table t;
	int rc = kinds_table(&t, "placement", strcmp(kinds[k].prefix, "lock.") == 0);

	if (rc == 0)
		rc = add_points(&t, entry, kinds[k].prefix);
	if (rc == 0 && t.ncols > stubs(&t)) {
		if (v->fmt == PC_FORMAT_MARKDOWN)
			pc_view_printf(v, "\n%s\n\n", kinds[k].title);
		else
			pc_view_printf(v, "%s%s\n", k ? "\n" : "", kinds[k].title);
		pc_view_table(v, &t, kinds[k].prefix);
	}
	pc_table_free(&t);
	return rc;
}

/* An entry's tables: the locks', the atomics', c2c's. -1: out of memory. */
static int entry_tables(struct pc_view *v, json_t *entry)
{
	size_t k;

	for (k = 0; k < PC_ARRAY_LEN(kinds); k++)
		if (kinds_view(v, entry, k) < 0)
			return -1;
	return c2c_view(v, json_object_get(json_object_get(entry, "probes"), "c2c.latency"));
}

/* The published tables' shape, per CPU: the locks, the atomics, c2c; the
 * text view then the line transfer and the reasons. */
static int tables_view(struct pc_view *v, json_t *doc)
{
	json_t *entry;
	const char *key;

	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		pc_view_printf(v, "%s\n", pc_entry_brand(entry, key));
		if (entry_tables(v, entry) < 0)
			return -1;
		if (v->fmt == PC_FORMAT_MARKDOWN)
			continue;
		pc_view_printf(v, "\n");
		transfer_and_reasons(v, entry);
	}
	return 0;
}

/* ---- compare --by lock --------------------------------------------------------------- */

/* What compare_add takes of an entry: our points, the published rows, both. */
enum { ADD_OURS = 1, ADD_PUBLISHED = 2, ADD_BOTH = 3 };

/* A published figure (no placement, an empty critical section) beside
 * every placement of its threads and nodes that our points hold at 0 data
 * lines; a row of its own ("N -") when none. */
static int put_published(struct pc_table *t, int threads, int nodes, const char *kind,
			 json_t *p)
{
	char key[24];
	size_t len = (size_t)snprintf(key, sizeof(key), "%d ", nodes), r;
	long c = kind_col(t, kind);
	bool put = false;

	if (c < 0)
		return -1;
	for (r = 0; r < t->nrows; r++) {
		const char *k = pc_table_at(t, r, 1)->text;

		if (pc_table_at(t, r, 0)->v == threads && strncmp(k, key, len) == 0 &&
		    strcmp(k + len, "-") != 0 && data_is(t, r, 0)) {
			if (put_cell(t, (long)r, c, p) < 0)
				return -1;
			put = true;
		}
	}
	if (put)
		return 0;
	snprintf(key, sizeof(key), "%d -", nodes);
	return put_point(t, threads, key, 0, kind, p);
}

/* Our lock and atomic rows' points (rows by threads, nodes and placement)
 * and the published flat rows spin_lock_unlock.<lock>.nodes<N>.threads<T>
 * (put_published) of one CPU entry (tag: its letter) into t. -1: out of
 * memory. */
static int compare_add(struct pc_table *t, json_t *entry, char tag, int what)
{
	json_t *probes = json_object_get(entry, "probes"), *p, *pt;
	const char *name;
	char col[48], lock[32], key[24];
	size_t i;

	json_object_foreach(probes, name, p) {
		int n, th, end = 0;

		if (sscanf(name, "spin_lock_unlock.%31[^.].nodes%d.threads%d%n", lock, &n,
			   &th, &end) == 3 && !name[end]) {
			snprintf(col, sizeof(col), "%c %s", tag, lock);
			if (what & ADD_PUBLISHED && put_published(t, th, n, col, p) < 0)
				return -1;
			continue;
		}
		if (!(what & ADD_OURS) || (strncmp(name, "lock.", 5) != 0 &&
					   strncmp(name, "contended.", 10) != 0))
			continue;
		snprintf(col, sizeof(col), "%c %s", tag, strchr(name, '.') + 1);
		json_array_foreach(json_object_get(p, "points"), i, pt) {
			json_t *threads = json_object_get(pt, "threads");

			snprintf(key, sizeof(key), "%lld %.12s",
				 (long long)json_integer_value(json_object_get(pt, "nodes")),
				 json_string_value(json_object_get(pt, "placement")) ? : "?");
			if (json_is_integer(threads) &&
			    put_point(t, (int)json_integer_value(threads), key,
				      data_of(name, pt, true), col, pt) < 0)
				return -1;
		}
	}
	return 0;
}

/* text at indent, wrapped to the width (later lines 4 further in). */
static void wrapped(struct pc_view *v, int indent, const char *text)
{
	char lead[16];

	snprintf(lead, sizeof(lead), "%*s", indent - 1, "");
	pc_view_wrap(v, lead, text, indent + 4);
}

/* How the published figures were taken, next to how primcost takes them. */
static void method_notes(struct pc_view *v, json_t *entry, char tag)
{
	json_t *run = json_array_get(json_object_get(entry, "runs"), 0);
	json_t *prov = json_object_get(run, "provenance");
	const char *clock = json_string_value(json_object_get(prov, "clock"));
	const char *what = json_string_value(json_object_get(prov, "what_was_timed"));
	char buf[1200];

	if (!prov)
		return;
	snprintf(buf, sizeof(buf), "%c (published): %s", tag, what ? what : "?");
	wrapped(v, 2, buf);
	if (clock) {
		snprintf(buf, sizeof(buf), "%c's clock: %s", tag, clock);
		wrapped(v, 2, buf);
	}
}

static const char method_primcost[] =
	"primcost: the C11 locks of src/contend/locks.c, not the kernel's code (its "
	"lock.qspinlock is today's design, the qspinlock of Zijlstra's 2014 "
	"tables the patch with the pending bit and the 2-task optimization, their "
	"ticket the kernel's of 2014, primcost's a portable one); every thread runs for "
	"the same time-bounded window after a start barrier, pinned to its CPU, "
	"and the figure is the threads' time over their acquisitions, the median "
	"of the clean windows; cycles are ticks scaled by the add-chain "
	"calibration, not TSC ticks taken as cycles; the critical section holds "
	"the counter of the mutual-exclusion check, a plain increment in the "
	"lock's own line, and at 1 data line or more a plain increment in each "
	"line of data.";

/* The next letter, from 'A' (at most 'Z'). */
static char next_tag(char tag)
{
	return tag == 'Z' ? 'Z' : (char)(tag + 1);
}

/* What a pass over the entries does with each (compare_pass). */
enum { PASS_NAME = 0, PASS_METHODS = 4 };	/* besides ADD_OURS, ADD_PUBLISHED */

/* How a published table was measured, against primcost's method (the latter
 * once, before the first). */
static void pass_methods(struct pc_view *v, json_t *entry, char tag, bool *seen)
{
	if (!json_object_get(json_array_get(json_object_get(entry, "runs"), 0), "provenance"))
		return;
	if (!*seen) {
		pc_view_printf(v, "\nmethod differences:\n");
		wrapped(v, 2, method_primcost);
	}
	*seen = true;
	method_notes(v, entry, tag);
}

/* The entries of the documents that hold lock rows, lettered from A: each
 * named and its columns added to t in that order (PASS_NAME), its points or
 * the published rows put into t (ADD_OURS, ADD_PUBLISHED), or its method
 * told when it is a published one (PASS_METHODS). Returns how many, or -1
 * when out of memory. */
static long compare_pass(struct pc_view *v, struct pc_table *t, json_t *const *docs,
			 const char *const *names, unsigned ndocs, int what)
{
	struct pc_table one;
	json_t *entry;
	const char *key;
	unsigned d;
	size_t c;
	long n = 0;
	char tag = 'A', buf[512];
	bool seen = false;

	for (d = 0; d < ndocs; d++)
		json_object_foreach(json_object_get(docs[d], "cpus"), key, entry) {
			int rc = kinds_table(&one, "nodes pl.", true);

			if (rc == 0)
				rc = compare_add(&one, entry, tag, ADD_BOTH);
			if (rc == 0 && one.ncols > stubs(&one)) {
				n++;
				if (what == PASS_METHODS) {
					pass_methods(v, entry, tag, &seen);
				} else if (what) {
					rc = compare_add(t, entry, tag, what);
				} else {
					for (c = stubs(&one); rc == 0 && c < one.ncols; c++)
						rc = kind_col(t, one.cols[c].wide_head) < 0 ? -1 : 0;
					snprintf(buf, sizeof(buf), "%c = %s (%s)", tag,
						 pc_entry_brand(entry, key), names[d]);
					wrapped(v, 2, buf);
				}
				tag = next_tag(tag);
			}
			pc_table_free(&one);
			if (rc < 0)
				return -1;
		}
	return n;
}

/* The column name ("A ticket") in a group of its kind's, kept on one page
 * of the text view. -1: out of memory. */
static long grouped_col(struct pc_table *t, const char *name)
{
	int w = (int)strlen(name) + 2;
	const struct pc_table_col col = { strchr(name, ' ') + 1, name, w > 11 ? w : 11,
					  PC_CELL_CYCLES, PC_COL_MARK, 0, " ", name, NULL, NULL };

	return pc_table_col_add(t, &col);
}

/* The columns of t (no rows yet) put side by side by kind: every CPU's
 * "ticket" next to each other, on one page where they fit, in the order
 * the kinds came, the CPUs in order of their letters. -1 when out of
 * memory. */
static int by_kind(struct pc_table *t)
{
	struct pc_table sorted;
	size_t c, k, s = stubs(t);
	int rc = kinds_table(&sorted, t->cols[1].head, s > DATA_COL);

	for (c = s; rc == 0 && c < t->ncols; c++) {
		const char *kind = strchr(t->cols[c].wide_head, ' ');

		for (k = s; k < c; k++)	/* placed with an earlier one */
			if (strcmp(strchr(t->cols[k].wide_head, ' '), kind) == 0)
				break;
		if (k < c)
			continue;
		for (k = c; rc == 0 && k < t->ncols; k++)
			if (strcmp(strchr(t->cols[k].wide_head, ' '), kind) == 0)
				rc = grouped_col(&sorted, t->cols[k].wide_head) < 0 ? -1 : 0;
	}
	sorted.no_group_line = true;
	if (rc < 0) {
		pc_table_free(&sorted);
		return -1;
	}
	pc_table_free(t);
	*t = sorted;
	return 0;
}

int pc_contend_compare(struct pc_view *v, json_t *const *docs, const char *const *names,
		       unsigned ndocs, const char *base, char *err, size_t errlen)
{
	struct pc_table t;
	long n;

	(void)base;	/* the published tables are the reference */

	if (kinds_table(&t, "nodes pl.", true) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (v->fmt == PC_FORMAT_TABLE)
		pc_view_printf(v, "locks and atomics under contention: cycles per lock+unlock "
			       "pair (or operation)\nper thread, medians; rows: threads, the NUMA "
			       "nodes they span, the placement\n(Zijlstra's 2014 tables have "
			       "none: beside every placement, else -) and a lock's\ndata lines "
			       "(the 2014 tables': 0; a result of before them: 0, its counter on "
			       "a\nline of its own)\n");
	else
		pc_view_wrap(v, v->fmt == PC_FORMAT_MARKDOWN ? ">" : "", "locks and atomics under "
			     "contention: cycles "
			     "per lock+unlock pair (or operation) per thread, medians; rows: "
			     "threads, the NUMA nodes they span, the placement (Zijlstra's 2014 "
			     "tables have none: beside every placement, else -) and a lock's "
			     "data lines (the 2014 tables': 0; a result of before them: 0, its "
			     "counter on a line of its own)", 0);
	/* Our points make the rows; the published figures go beside them. */
	n = compare_pass(v, &t, docs, names, ndocs, PASS_NAME);
	if (n > 0 && by_kind(&t) < 0)
		n = -1;
	if (n > 0 && (compare_pass(v, &t, docs, names, ndocs, ADD_OURS) < 0 ||
		      compare_pass(v, &t, docs, names, ndocs, ADD_PUBLISHED) < 0))
		n = -1;
	if (n > 0) {
		pc_view_printf(v, "\n");
		t.drop_empty = true;	/* the rows of other CPUs' threads */
		pc_view_table(v, &t, "locks and atomics under contention");
		n = compare_pass(v, NULL, docs, names, ndocs, PASS_METHODS);
	}
	pc_table_free(&t);
	if (n == 0)
		snprintf(err, errlen, "--by lock: no lock rows (points of lock.* or "
			 "contended.*, or the published spin_lock_unlock tables) in %s%s", names[0],
			 ndocs > 1 ? " and the rest" : "");
	else if (n < 0)
		snprintf(err, errlen, "out of memory");
	return n > 0 ? 0 : -1;
}

/* ---- list: the rows -------------------------------------------------------------------- */

static const char *const methods[] = {
	[PC_KIND_LOCK] = "threads pinned by placement (compact, spread, --cpus) take "
		"and release the lock for the same time-bounded window after a start "
		"barrier; the figure is the threads' time over their acquisitions, "
		"the median of the windows; a plain counter in the lock's line, and "
		"a word in each line of protected data (--data-lines), written in the "
		"critical section, must equal the acquisitions (mutual-exclusion "
		"check)",
	[PC_KIND_ATOMIC] = "threads pinned by placement (compact, spread, --cpus) "
		"repeat the operation for the same time-bounded window after a start "
		"barrier; the figure is the threads' time over their operations, the "
		"median of the windows; the word must hold every operation",
	[PC_KIND_C2C] = "two threads pinned to a pair of CPUs (one per topology "
		"class, --cpus or --matrix) pass one line back and forth by "
		"compare-and-exchange in time-bounded windows; round trip / 2",
};

/* Can this process run threads on two CPUs (c2c needs a pair)? */
bool pc_contend_two_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 2;
}

const struct pc_point_row *pc_contend_point_rows(size_t *n)
{
	static struct pc_point_row rows[32];
	unsigned k;
	bool lonely;

	*n = 0;
	for (k = 0; k < pc_contend_nkinds && *n < 32; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];

		if (kind->hidden)
			continue;
		lonely = kind->cls == PC_KIND_C2C && !pc_contend_two_cpus();
		rows[*n] = (struct pc_point_row){ kind->name, "contended", kind->what,
			methods[kind->cls], "run --locks (or -p with its name)",
			lonely ? "needs-2-cpus" : "ok", false,
			lonely ? "one CPU online: a line has no second CPU to move to" : NULL };
		(*n)++;
	}
	return rows;
}

/* ---- csv and markdown ------------------------------------------------------------------- */

/* The CSV's columns: a point's words (the CPU entry, the row, its threads
 * ...), then its figures (csv_figures). */
enum { CSV_CPU, CSV_PROBE, CSV_THREADS, CSV_PLACEMENT, CSV_CPUS, CSV_CLASS, CSV_NODES,
       CSV_DATA_LINES, CSV_STATUS, CSV_WORDS };

static const struct pc_table_col csv_words[CSV_WORDS] = {
	[CSV_CPU] = { .head = "cpu" },
	[CSV_PROBE] = { .head = "probe" },
	[CSV_THREADS] = { .head = "threads", .style = PC_CELL_FIXED },
	[CSV_PLACEMENT] = { .head = "placement" },
	[CSV_CPUS] = { .head = "cpus" },
	[CSV_CLASS] = { .head = "class" },
	[CSV_NODES] = { .head = "nodes", .style = PC_CELL_FIXED },
	[CSV_DATA_LINES] = { .head = "data_lines", .style = PC_CELL_FIXED },
	[CSV_STATUS] = { .head = "status" },
};

/* The figures, and where in a point each is (in: an object of the point;
 * NULL: the point itself). */
static const struct {
	const char *head, *in, *key;
} csv_figures[] = {
	{ "cycles_median", "cycles", "median" }, { "cycles_q1", "cycles", "q1" },
	{ "cycles_q3", "cycles", "q3" }, { "ns_median", "ns", "median" },
	{ "samples", NULL, "samples" }, { "fairness_cv", "fairness", "cv" },
	{ "max_share", "fairness", "max_share" }, { "ops_per_s", NULL, "ops_per_s" },
	{ "transfer_cycles", "transfer", "cycles" },
};

/* A table of the CSV's columns; a missing figure an empty field. */
static int csv_table(struct pc_table *t)
{
	struct pc_table_col cols[CSV_WORDS + PC_ARRAY_LEN(csv_figures)];
	size_t i;

	memcpy(cols, csv_words, sizeof(csv_words));
	for (i = 0; i < PC_ARRAY_LEN(csv_figures); i++)
		cols[CSV_WORDS + i] = (struct pc_table_col){ .head = csv_figures[i].head,
			.style = PC_CELL_GENERAL, .digits = 7 };
	if (pc_table_init(t, NULL, cols, PC_ARRAY_LEN(cols)) < 0)
		return -1;
	t->none = "";
	return 0;
}

/* A point's line: its words, then its figures. -1: out of memory. */
static int csv_point(struct pc_table *t, const char *key, const char *name, json_t *pt)
{
	long r = pc_table_row(t);
	size_t i;

	if (r < 0 || pc_table_text(t, (size_t)r, CSV_CPU, "%s", key) < 0 ||
	    pc_table_text(t, (size_t)r, CSV_PROBE, "%s", name) < 0 ||
	    put_words(t, r, CSV_PLACEMENT, pt, "placement", "") < 0 ||
	    put_words(t, r, CSV_CPUS, pt, "cpus", "") < 0 ||
	    put_words(t, r, CSV_CLASS, pt, "class", "") < 0 ||
	    put_words(t, r, CSV_STATUS, pt, "status", "") < 0)
		return -1;
	pc_table_at(t, (size_t)r, CSV_THREADS)->v =
		(double)json_integer_value(json_object_get(pt, "threads"));
	pc_table_at(t, (size_t)r, CSV_NODES)->v =
		(double)json_integer_value(json_object_get(pt, "nodes"));
	pc_table_at(t, (size_t)r, CSV_DATA_LINES)->v = number(pt, "data_lines");
	for (i = 0; i < PC_ARRAY_LEN(csv_figures); i++)
		pc_table_at(t, (size_t)r, CSV_WORDS + i)->v = number(csv_figures[i].in ?
			json_object_get(pt, csv_figures[i].in) : pt, csv_figures[i].key);
	return 0;
}

/* A line per point of the contended rows, every CPU entry's. */
static int csv_view(struct pc_view *v, json_t *doc)
{
	struct pc_table t;
	json_t *entry, *p, *pt;
	const char *key, *name;
	size_t i;
	int rc = csv_table(&t);

	json_object_foreach(json_object_get(doc, "cpus"), key, entry)
		json_object_foreach(json_object_get(entry, "probes"), name, p) {
			if (strcmp(json_string_value(json_object_get(p, "group")) ? : "",
				   "contended") != 0)
				continue;
			json_array_foreach(json_object_get(p, "points"), i, pt)
				if (rc == 0)
					rc = csv_point(&t, key, name, pt);
		}
	if (rc == 0)
		pc_table_draw_csv(v->f, &t, true);
	pc_table_free(&t);
	return rc;
}

int pc_contend_show(struct pc_view *v, json_t *doc)
{
	return v->fmt == PC_FORMAT_CSV ? csv_view(v, doc) : tables_view(v, doc);
}
