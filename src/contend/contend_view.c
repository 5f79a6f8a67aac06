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
#include "core/util.h"

/* ---- the model of the views: a figure by row (threads and a key) and column ------- */

#define G_ROWS 64
#define G_COLS 32

struct grid {
	unsigned nrow, ncol;
	int threads[G_ROWS];
	char key[G_ROWS][24];		/* placement, or nodes */
	char col[G_COLS][48];
	double v[G_ROWS][G_COLS];	/* NAN: none */
	char mark[G_ROWS][G_COLS];	/* ' ', '*' noisy, '!' failed */
};

static void grid_init(struct grid *g)
{
	unsigned r, c;

	memset(g, 0, sizeof(*g));
	for (r = 0; r < G_ROWS; r++)
		for (c = 0; c < G_COLS; c++) {
			g->v[r][c] = NAN;
			g->mark[r][c] = ' ';
		}
}

/* The row of (threads, key), kept in order of threads; -1 when full. */
static int grid_row(struct grid *g, int threads, const char *key)
{
	unsigned r, k;

	for (r = 0; r < g->nrow; r++)
		if (g->threads[r] == threads && strcmp(g->key[r], key) == 0)
			return (int)r;
	if (g->nrow == G_ROWS)
		return -1;
	for (r = 0; r < g->nrow && g->threads[r] <= threads; r++)
		;
	for (k = g->nrow; k > r; k--) {
		g->threads[k] = g->threads[k - 1];
		memcpy(g->key[k], g->key[k - 1], sizeof(g->key[k]));
		memcpy(g->v[k], g->v[k - 1], sizeof(g->v[k]));
		memcpy(g->mark[k], g->mark[k - 1], sizeof(g->mark[k]));
	}
	g->threads[r] = threads;
	snprintf(g->key[r], sizeof(g->key[r]), "%s", key);
	for (k = 0; k < G_COLS; k++) {
		g->v[r][k] = NAN;
		g->mark[r][k] = ' ';
	}
	g->nrow++;
	return (int)r;
}

static int grid_col(struct grid *g, const char *name)
{
	unsigned c;

	for (c = 0; c < g->ncol; c++)
		if (strcmp(g->col[c], name) == 0)
			return (int)c;
	if (g->ncol == G_COLS)
		return -1;
	snprintf(g->col[c], sizeof(g->col[c]), "%s", name);
	return (int)g->ncol++;
}

static void grid_put(struct grid *g, int threads, const char *key, const char *col,
		     json_t *pt)
{
	const char *st = json_string_value(json_object_get(pt, "status")) ? : "";
	json_t *m = json_object_get(json_object_get(pt, "cycles"), "median");
	int r = grid_row(g, threads, key), c = grid_col(g, col);

	if (r < 0 || c < 0)
		return;
	if (json_is_number(m))
		g->v[r][c] = json_number_value(m);
	g->mark[r][c] = strcmp(st, "failed") == 0 ? '!' : strcmp(st, "noisy") == 0 ?
			'*' : ' ';
}

static void cell(FILE *f, double v, char mark, int width)
{
	if (mark == '!')
		fprintf(f, "%*s ", width - 1, "FAILED");
	else if (isnan(v))
		fprintf(f, "%*s ", width - 1, PC_NO_VALUE);
	else
		fprintf(f, "%*.*f%c", width - 1, v < 100 ? 1 : 0, v, mark);
}

/* A row's name in 11 columns with a CPU's letter: the longer ones shortened. */
static const char *short_name(const char *name)
{
	static const char *const names[][2] = {
		{ "pthread_spin", "pspin" }, { "pthread_mutex", "pmutex" },
		{ "atomic_add_return", "add_ret" }, { "false_sharing", "false_sh" },
	};
	const char *tail = strchr(name, ' ') ? strchr(name, ' ') + 1 : name;
	static char buf[48];
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(tail, names[i][0]) == 0) {
			snprintf(buf, sizeof(buf), "%.*s%s", (int)(tail - name), name,
				 names[i][1]);
			return buf;
		}
	return name;
}

/* Columns 5 at a time (80 columns): rows = threads and key. */
static void grid_render(FILE *f, const struct grid *g, const char *keyname)
{
	unsigned from, c, r;

	for (from = 0; from < g->ncol; from += 5) {
		fprintf(f, "%7s %-9s", "threads", keyname);
		for (c = from; c < g->ncol && c < from + 5; c++)
			fprintf(f, " %11.11s", short_name(g->col[c]));
		fputc('\n', f);
		for (r = 0; r < g->nrow; r++) {
			fprintf(f, "%7d %-9s", g->threads[r], g->key[r]);
			for (c = from; c < g->ncol && c < from + 5; c++) {
				fputc(' ', f);
				cell(f, g->v[r][c], g->mark[r][c], 11);
			}
			fputc('\n', f);
		}
	}
}

/* The points of the rows of entry whose name starts with prefix. */
static void add_points(struct grid *g, json_t *entry, const char *prefix)
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

			if (json_is_integer(th))
				grid_put(g, (int)json_integer_value(th), pl ? pl : "?",
					 name + strlen(prefix), pt);
		}
	}
}

/* ---- c2c: the pairs, and a heat map of them ---------------------------------------- */

#define HEAT_CPUS 64

/* Every pair's one-way cycles on a CPU x CPU grid, darker when dearer. */
static void heat_map(FILE *f, json_t *points)
{
	static const char shade[] = " .:-=+*#%@";
	int cpu[HEAT_CPUS], a, b;
	double m[HEAT_CPUS][HEAT_CPUS], lo = INFINITY, hi = 0;
	unsigned n = 0, i, j;
	json_t *pt;
	size_t k;

	for (i = 0; i < HEAT_CPUS; i++)
		for (j = 0; j < HEAT_CPUS; j++)
			m[i][j] = NAN;
	json_array_foreach(points, k, pt) {
		double v = json_number_value(json_object_get(json_object_get(pt, "cycles"),
							     "median"));
		int ia, ib;

		if (sscanf(json_string_value(json_object_get(pt, "cpus")) ? : "", "%d,%d",
			   &a, &b) != 2 || !(v > 0))
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
		m[ia][ib] = m[ib][ia] = v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (n < 3)
		return;
	fprintf(f, "\nheat map, one-way cycles: ' ' %.0f .. '@' %.0f\n    ", lo, hi);
	for (j = 0; j < n; j++)
		fputc(j % 10 == 0 ? '|' : ' ', f);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%3d ", cpu[i]);
		for (j = 0; j < n; j++)
			fputc(isnan(m[i][j]) ? (i == j ? '\\' : '?') :
			      shade[hi > lo ? (int)((m[i][j] - lo) / (hi - lo) * 9 + 0.5) : 0], f);
		fputc('\n', f);
	}
}

static void c2c_report(FILE *f, json_t *probe)
{
	json_t *points = json_object_get(probe, "points"), *pt;
	size_t k;

	if (!json_array_size(points))
		return;
	fprintf(f, "\nc2c.latency: one-way transfer of a line (CAS ping-pong, round "
		"trip / 2)\n%-11s %-8s %10s %10s  %s\n", "cpus", "class", "cycles", "ns",
		"status");
	json_array_foreach(points, k, pt) {
		json_t *c = json_object_get(json_object_get(pt, "cycles"), "median");
		json_t *ns = json_object_get(json_object_get(pt, "ns"), "median");

		fprintf(f, "%-11s %-8s ", json_string_value(json_object_get(pt, "cpus")) ? : "?",
			json_string_value(json_object_get(pt, "class")) ? : "?");
		cell(f, json_is_number(c) ? json_number_value(c) : NAN, ' ', 10);
		cell(f, json_is_number(ns) ? json_number_value(ns) : NAN, ' ', 10);
		fprintf(f, " %s\n", json_string_value(json_object_get(pt, "status")) ? : "?");
	}
	heat_map(f, points);
}

/* Under the tables: the transfer gauge over the entry's points, and why
 * each point that is not ok is what it is. */
static void gauge_and_reasons(FILE *f, json_t *entry)
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
			double v = json_number_value(json_object_get(json_object_get(pt,
						     "transfer"), "cycles"));
			const char *st = json_string_value(json_object_get(pt, "status"));
			const char *why = json_string_value(json_object_get(pt, "reason"));

			if (v > 0 && (nx = realloc(x, (n + 1) * sizeof(*x)))) {
				x = nx;
				x[n++] = v;
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
			if (st && strcmp(st, "ok") != 0)
				fprintf(f, "%s %s, %lld threads %s: %s\n", strcmp(st, "noisy") == 0 ?
					"*" : "!", name,
					(long long)json_integer_value(json_object_get(pt, "threads")),
					json_string_value(json_object_get(pt, "placement")) ? : "",
					why ? why : st);
		}
	}
	if (n)
		fprintf(f, "line transfer between each point's first two CPUs (the gauge "
			"after every window):\n%.0f cycles, the median of %zu points (%.0f "
			"to %.0f)\n", pc_median(x, n), n, lo, hi);
	free(x);
}

static int report(FILE *f, json_t *doc)
{
	struct grid *g = malloc(sizeof(*g));
	json_t *entry;
	const char *key;

	if (!g)
		return -1;
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		fprintf(f, "%s\n", pc_entry_brand(entry, key));
		grid_init(g);
		add_points(g, entry, "lock.");
		if (g->ncol) {
			fprintf(f, "locks: cycles per lock+unlock pair per thread (median of "
				"the windows; * noisy)\n");
			grid_render(f, g, "placement");
		}
		grid_init(g);
		add_points(g, entry, "contended.");
		if (g->ncol) {
			fprintf(f, "\ncontended atomics: cycles per operation per thread\n");
			grid_render(f, g, "placement");
		}
		c2c_report(f, json_object_get(json_object_get(entry, "probes"),
					      "c2c.latency"));
		fputc('\n', f);
		gauge_and_reasons(f, entry);
	}
	free(g);
	return 0;
}

/* ---- compare --by lock --------------------------------------------------------------- */

/* What compare_add takes of an entry: our points, the published rows, both. */
enum { ADD_OURS = 1, ADD_PUBLISHED = 2, ADD_BOTH = 3 };

/* A published figure (no placement) beside every placement of its threads
 * and nodes that our points hold; a row of its own ("N -") when none. */
static void put_published(struct grid *g, int threads, int nodes, const char *col, json_t *p)
{
	char key[24];
	size_t len = (size_t)snprintf(key, sizeof(key), "%d ", nodes);
	unsigned r, n = g->nrow;
	bool put = false;

	for (r = 0; r < n; r++)
		if (g->threads[r] == threads && strncmp(g->key[r], key, len) == 0 &&
		    strcmp(g->key[r] + len, "-") != 0) {
			grid_put(g, threads, g->key[r], col, p);
			put = true;
		}
	if (!put) {
		snprintf(key, sizeof(key), "%d -", nodes);
		grid_put(g, threads, key, col, p);
	}
}

/* Our lock and atomic rows' points (rows by threads, nodes and placement)
 * and the published flat rows spin_lock_unlock.<lock>.nodes<N>.threads<T>
 * (put_published) of one CPU entry (tag: its letter) into g. */
static void compare_add(struct grid *g, json_t *entry, char tag, int what)
{
	json_t *probes = json_object_get(entry, "probes"), *p, *pt;
	const char *name;
	char col[48], lock[32], key[24];
	size_t i;

	json_object_foreach(probes, name, p) {
		int n, t, end = 0;

		if (sscanf(name, "spin_lock_unlock.%31[^.].nodes%d.threads%d%n", lock, &n,
			   &t, &end) == 3 && !name[end]) {
			snprintf(col, sizeof(col), "%c %s", tag, lock);
			if (what & ADD_PUBLISHED)
				put_published(g, t, n, col, p);
			continue;
		}
		if (!(what & ADD_OURS) || (strncmp(name, "lock.", 5) != 0 &&
					   strncmp(name, "contended.", 10) != 0))
			continue;
		snprintf(col, sizeof(col), "%c %s", tag, strchr(name, '.') + 1);
		json_array_foreach(json_object_get(p, "points"), i, pt) {
			json_t *th = json_object_get(pt, "threads");

			snprintf(key, sizeof(key), "%lld %.12s",
				 (long long)json_integer_value(json_object_get(pt, "nodes")),
				 json_string_value(json_object_get(pt, "placement")) ? : "?");
			if (json_is_integer(th))
				grid_put(g, (int)json_integer_value(th), key, col, pt);
		}
	}
}

/* text at indent, wrapped at 80 columns (later lines 4 further in). */
static void wrapped(FILE *f, int indent, const char *text)
{
	int col = 0, width = 80 - indent;

	while (*text) {
		size_t len = strcspn(text, " ");

		if (col && col + 1 + (int)len > width) {
			fprintf(f, "\n%*s", indent + 4, "");
			col = 4;
			width = 80 - indent;
		} else if (col) {
			fputc(' ', f);
			col++;
		} else {
			fprintf(f, "%*s", indent, "");
		}
		fprintf(f, "%.*s", (int)len, text);
		col += (int)len;
		text += len;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* How the published figures were taken, next to how primcost takes them. */
static void method_notes(FILE *f, json_t *entry, char tag)
{
	json_t *run = json_array_get(json_object_get(entry, "runs"), 0);
	json_t *prov = json_object_get(run, "provenance");
	const char *clock = json_string_value(json_object_get(prov, "clock"));
	const char *what = json_string_value(json_object_get(prov, "what_was_timed"));
	char buf[1200];

	if (!prov)
		return;
	snprintf(buf, sizeof(buf), "%c (published): %s", tag, what ? what : "?");
	wrapped(f, 2, buf);
	if (clock) {
		snprintf(buf, sizeof(buf), "%c's clock: %s", tag, clock);
		wrapped(f, 2, buf);
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
	"the counter of the mutual-exclusion check, a plain increment.";

/* The next letter, from 'A' (at most 'Z'). */
static char next_tag(char tag)
{
	return tag == 'Z' ? 'Z' : (char)(tag + 1);
}

/* What a pass over the entries does with each (compare_pass). */
enum { PASS_NAME = 0, PASS_METHODS = 4 };	/* besides ADD_OURS, ADD_PUBLISHED */

/* How a published table was measured, against primcost's method (the latter
 * once, before the first). */
static void pass_methods(FILE *f, json_t *entry, char tag, bool *seen)
{
	if (!json_object_get(json_array_get(json_object_get(entry, "runs"), 0), "provenance"))
		return;
	if (!*seen) {
		fputs("\nmethod differences:\n", f);
		wrapped(f, 2, method_primcost);
	}
	*seen = true;
	method_notes(f, entry, tag);
}

/* The entries of the documents that hold lock rows, lettered from A: each
 * named and its columns registered in g in that order (PASS_NAME), its
 * points or the published rows put into g (ADD_OURS, ADD_PUBLISHED), or its
 * method told when it is a published one (PASS_METHODS). Returns how many. */
static unsigned compare_pass(FILE *f, struct grid *g, json_t *const *docs,
			     const char *const *names, unsigned ndocs, int what)
{
	struct grid *one = malloc(sizeof(*one));
	json_t *entry;
	const char *key;
	unsigned d, c, n = 0;
	char tag = 'A', buf[512];
	bool seen = false;

	for (d = 0; one && d < ndocs; d++)
		json_object_foreach(json_object_get(docs[d], "cpus"), key, entry) {
			grid_init(one);
			compare_add(one, entry, tag, ADD_BOTH);
			if (!one->ncol)
				continue;
			n++;
			if (what == PASS_METHODS) {
				pass_methods(f, entry, tag, &seen);
			} else if (what) {
				compare_add(g, entry, tag, what);
			} else {
				for (c = 0; c < one->ncol; c++)
					grid_col(g, one->col[c]);
				snprintf(buf, sizeof(buf), "%c = %s (%s)", tag,
					 pc_entry_brand(entry, key), names[d]);
				wrapped(f, 2, buf);
			}
			tag = next_tag(tag);
		}
	free(one);
	return n;
}

int pc_contend_compare(FILE *f, json_t *const *docs, const char *const *names,
		       unsigned ndocs, const char *base, char *err, size_t errlen)
{
	struct grid *g = malloc(sizeof(*g));

	(void)base;	/* the published tables are the reference */

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	grid_init(g);
	fprintf(f, "locks and atomics under contention: cycles per lock+unlock pair "
		"(or operation)\nper thread, medians; rows: threads, the NUMA nodes they "
		"span and the placement\n(Zijlstra's 2014 tables have none: beside "
		"every placement, else -)\n");
	/* Our points make the rows; the published figures go beside them. */
	if (!compare_pass(f, g, docs, names, ndocs, PASS_NAME)) {
		snprintf(err, errlen, "--by lock: no lock rows (points of lock.* or "
			 "contended.*, or the published spin_lock_unlock tables) in %s%s", names[0],
			 ndocs > 1 ? " and the rest" : "");
		free(g);
		return -1;
	}
	compare_pass(f, g, docs, names, ndocs, ADD_OURS);
	compare_pass(f, g, docs, names, ndocs, ADD_PUBLISHED);
	fputc('\n', f);
	grid_render(f, g, "nodes pl.");
	compare_pass(f, NULL, docs, names, ndocs, PASS_METHODS);
	free(g);
	return 0;
}

/* ---- list: the rows -------------------------------------------------------------------- */

static const char *const methods[] = {
	[PC_KIND_LOCK] = "threads pinned by placement (compact, spread, --cpus) take "
		"and release the lock for the same time-bounded window after a start "
		"barrier; the figure is the threads' time over their acquisitions, "
		"the median of the windows; a plain counter in the critical section "
		"must equal the acquisitions (mutual-exclusion check)",
	[PC_KIND_ATOMIC] = "threads pinned by placement (compact, spread, --cpus) "
		"repeat the operation for the same time-bounded window after a start "
		"barrier; the figure is the threads' time over their operations, the "
		"median of the windows; the word must hold every operation",
	[PC_KIND_C2C] = "two threads pinned to a pair of CPUs (one per topology "
		"class, --cpus or --matrix) pass one line back and forth by "
		"compare-and-exchange in time-bounded windows; round trip / 2",
};

/* Can this process run threads on two CPUs (c2c needs a pair)? */
static bool two_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 2;
}

const struct pc_point_row *pc_contend_point_rows(size_t *n)
{
	static struct pc_point_row rows[32];
	unsigned k;

	*n = 0;
	for (k = 0; k < pc_contend_nkinds && *n < 32; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];

		if (kind->hidden)
			continue;
		rows[*n] = (struct pc_point_row){ kind->name, "contended", kind->what,
			methods[kind->cls], "run --locks (or -p with its name)",
			kind->cls == PC_KIND_C2C && !two_cpus() ? "needs-2-cpus" : "ok" };
		(*n)++;
	}
	return rows;
}

/* ---- csv and markdown ------------------------------------------------------------------- */

static void csv_number(FILE *f, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		fprintf(f, ",%.7g", json_number_value(v));
	else
		fputs(",", f);
}

/* One line per point of one CPU entry; cpus is quoted (it holds commas). */
static void csv_points(FILE *f, const char *key, json_t *entry)
{
	json_t *p, *pt;
	const char *name;
	size_t i;

	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		if (strcmp(json_string_value(json_object_get(p, "group")) ? : "",
			   "contended") != 0)
			continue;
		json_array_foreach(json_object_get(p, "points"), i, pt) {
			json_t *cyc = json_object_get(pt, "cycles");
			json_t *fair = json_object_get(pt, "fairness");

			pc_csv_field(f, key);
			fprintf(f, ",%s,%lld,%s,", name,
				(long long)json_integer_value(json_object_get(pt, "threads")),
				json_string_value(json_object_get(pt, "placement")) ? : "");
			pc_csv_field(f, json_string_value(json_object_get(pt, "cpus")));
			fprintf(f, ",%s,%lld,%s", json_string_value(json_object_get(pt,
				"class")) ? : "",
				(long long)json_integer_value(json_object_get(pt, "nodes")),
				json_string_value(json_object_get(pt, "status")) ? : "");
			csv_number(f, cyc, "median");
			csv_number(f, cyc, "q1");
			csv_number(f, cyc, "q3");
			csv_number(f, json_object_get(pt, "ns"), "median");
			csv_number(f, pt, "samples");
			csv_number(f, fair, "cv");
			csv_number(f, fair, "max_share");
			csv_number(f, pt, "ops_per_s");
			csv_number(f, json_object_get(pt, "transfer"), "cycles");
			fputc('\n', f);
		}
	}
}

static void md_cell(FILE *f, double v, char mark)
{
	if (mark == '!')
		fputs(" FAILED |", f);
	else if (isnan(v))
		fputs(" " PC_NO_VALUE " |", f);
	else
		fprintf(f, " %.*f%s |", v < 100 ? 1 : 0, v, mark == '*' ? "*" : "");
}

/* A grid as one markdown table: rows = threads and placement. */
static void md_grid(FILE *f, const struct grid *g)
{
	unsigned c, r;

	fputs("| threads | placement |", f);
	for (c = 0; c < g->ncol; c++)
		fprintf(f, " %s |", g->col[c]);
	fputs("\n|---:|---|", f);
	for (c = 0; c < g->ncol; c++)
		fputs("---:|", f);
	fputc('\n', f);
	for (r = 0; r < g->nrow; r++) {
		fprintf(f, "| %d | %s |", g->threads[r], g->key[r]);
		for (c = 0; c < g->ncol; c++)
			md_cell(f, g->v[r][c], g->mark[r][c]);
		fputc('\n', f);
	}
}

static void md_c2c(FILE *f, json_t *probe)
{
	json_t *pt;
	size_t k;

	if (!json_array_size(json_object_get(probe, "points")))
		return;
	fputs("\nc2c.latency: one-way transfer of a line (CAS ping-pong, round trip / 2)"
	      "\n\n| cpus | class | cycles | ns | status |\n|---|---|---:|---:|---|\n", f);
	json_array_foreach(json_object_get(probe, "points"), k, pt) {
		json_t *c = json_object_get(json_object_get(pt, "cycles"), "median");
		json_t *ns = json_object_get(json_object_get(pt, "ns"), "median");

		fprintf(f, "| %s | %s |", json_string_value(json_object_get(pt, "cpus")) ? : "?",
			json_string_value(json_object_get(pt, "class")) ? : "?");
		md_cell(f, json_is_number(c) ? json_number_value(c) : NAN, ' ');
		md_cell(f, json_is_number(ns) ? json_number_value(ns) : NAN, ' ');
		fprintf(f, " %s |\n", json_string_value(json_object_get(pt, "status")) ? : "?");
	}
}

/* The published tables' shape in markdown: the locks, the atomics, c2c, per CPU. */
static void md_entry(FILE *f, struct grid *g, const char *key, json_t *entry)
{
	fprintf(f, "%s\n", pc_entry_brand(entry, key));
	grid_init(g);
	add_points(g, entry, "lock.");
	if (g->ncol) {
		fputs("\nlocks: cycles per lock+unlock pair per thread (median of the "
		      "windows; * noisy)\n\n", f);
		md_grid(f, g);
	}
	grid_init(g);
	add_points(g, entry, "contended.");
	if (g->ncol) {
		fputs("\ncontended atomics: cycles per operation per thread\n\n", f);
		md_grid(f, g);
	}
	md_c2c(f, json_object_get(json_object_get(entry, "probes"), "c2c.latency"));
}

static int report_as(FILE *f, json_t *doc, bool csv)
{
	struct grid *g = csv ? NULL : malloc(sizeof(*g));
	json_t *entry;
	const char *key;

	if (!csv && !g)
		return -1;
	if (csv)
		fputs("cpu,probe,threads,placement,cpus,class,nodes,status,cycles_median,"
		      "cycles_q1,cycles_q3,ns_median,samples,fairness_cv,max_share,"
		      "ops_per_s,transfer_cycles\n", f);
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		if (csv)
			csv_points(f, key, entry);
		else
			md_entry(f, g, key, entry);
	}
	free(g);
	return 0;
}

int pc_contend_show(FILE *f, json_t *doc, enum pc_format fmt)
{
	return fmt == PC_FORMAT_TABLE ? report(f, doc) :
	       report_as(f, doc, fmt == PC_FORMAT_CSV);
}
