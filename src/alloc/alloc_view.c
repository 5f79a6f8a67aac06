/* SPDX-License-Identifier: MIT */
/*
 * alloc_view.c - the allocator group's results shown (alloc.h): the
 * published table's shape (rows = sizes, columns = malloc, free and pair
 * per allocator) as text, markdown or CSV; allocators side by side for
 * compare --by allocator; its rows as list shows them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "results/report.h"
#include "results/results.h"
#include "results/table.h"

/* ---- the model of the views: cycles per call by size and allocator ---------------- */

#define GRID_COLS 16
#define GRID_SIZES 32

struct grid {
	unsigned ncol, nsize;
	char name[GRID_COLS][48];	/* the allocator, as labelled */
	const char *origin[GRID_COLS];	/* its CPU's brand, or model key */
	size_t size[GRID_SIZES];	/* ascending */
	double v[GRID_COLS][GRID_SIZES][PC_ALLOC_PATTERNS];	/* NAN: none */
};

static void grid_init(struct grid *g)
{
	unsigned c, s, r;

	memset(g, 0, sizeof(*g));
	for (c = 0; c < GRID_COLS; c++)
		for (s = 0; s < GRID_SIZES; s++)
			for (r = 0; r < PC_ALLOC_PATTERNS; r++)
				g->v[c][s][r] = NAN;
}

/* The column of allocator `name` from `origin`: a name met again from
 * another origin gets its own column ("name#2"). -1 when full. */
static int grid_col(struct grid *g, const char *name, const char *origin)
{
	unsigned c, same = 0;

	for (c = 0; c < g->ncol; c++) {
		if (strncmp(g->name[c], name, strlen(name)) != 0 ||
		    (g->name[c][strlen(name)] && g->name[c][strlen(name)] != '#'))
			continue;
		if (g->origin[c] == origin)
			return (int)c;
		same++;
	}
	if (g->ncol == GRID_COLS)
		return -1;
	if (same)
		snprintf(g->name[c], sizeof(g->name[c]), "%.40s#%u", name, same + 1);
	else
		snprintf(g->name[c], sizeof(g->name[c]), "%.46s", name);
	g->origin[c] = origin;
	return (int)g->ncol++;
}

static int grid_row(struct grid *g, size_t size)
{
	unsigned s, k, r;

	for (s = 0; s < g->nsize && g->size[s] < size; s++)
		;
	if (s < g->nsize && g->size[s] == size)
		return (int)s;
	if (g->nsize == GRID_SIZES)
		return -1;
	for (k = g->nsize; k > s; k--) {
		unsigned c, r;

		g->size[k] = g->size[k - 1];
		for (c = 0; c < GRID_COLS; c++)
			for (r = 0; r < PC_ALLOC_PATTERNS; r++)
				g->v[c][k][r] = g->v[c][k - 1][r];
	}
	g->size[s] = size;
	for (k = 0; k < GRID_COLS; k++)
		for (r = 0; r < PC_ALLOC_PATTERNS; r++)
			g->v[k][s][r] = NAN;
	g->nsize++;
	return (int)s;
}

/* The points of one CPU entry's probes into g. */
static void grid_add(struct grid *g, json_t *entry, const char *origin)
{
	json_t *probes = json_object_get(entry, "probes"), *pt;
	unsigned row;
	size_t i;

	for (row = 0; row < PC_ALLOC_PATTERNS; row++) {
		json_t *points = json_object_get(json_object_get(probes, pc_alloc_rows[row]),
						 "points");

		json_array_foreach(points, i, pt) {
			const char *name = json_string_value(json_object_get(pt, "allocator"));
			json_t *size = json_object_get(pt, "size");
			json_t *m = json_object_get(json_object_get(pt, "cycles"), "median");
			int c, s;

			if (!name || !json_is_integer(size) || json_integer_value(size) < 1)
				continue;
			if ((c = grid_col(g, name, origin)) < 0 ||
			    (s = grid_row(g, (size_t)json_integer_value(size))) < 0)
				continue;
			if (json_is_number(m) && strcmp(json_string_value(json_object_get(pt,
						"status")) ? : "", "ok") == 0)
				g->v[c][s][row] = json_number_value(m);
		}
	}
}

static const char *const pattern_head[PC_ALLOC_PATTERNS] = { "malloc", "free", "pair" };

/* The grid as a table: a row per size, a group of columns per allocator
 * (malloc, free, pair); -1 when out of memory. */
static int grid_table(const struct grid *g, struct pc_table *t, const char *stub_head,
		      int stub_width)
{
	struct pc_table_col cols[1 + GRID_COLS * PC_ALLOC_PATTERNS];
	unsigned c, s, r;
	long row;

	cols[0] = (struct pc_table_col){ NULL, stub_head, stub_width, PC_CELL_FIXED,
					 PC_COL_STUB, 0, NULL, NULL };
	for (c = 0; c < g->ncol; c++)
		for (r = 0; r < PC_ALLOC_PATTERNS; r++)
			cols[1 + c * PC_ALLOC_PATTERNS + r] = (struct pc_table_col){
				g->name[c], pattern_head[r], r == PC_ALLOC_PAIR ? 8 : 7,
				PC_CELL_CYCLES, 0, 0, NULL, NULL };
	if (pc_table_init(t, "  ", cols, 1 + g->ncol * PC_ALLOC_PATTERNS) < 0)
		return -1;
	for (s = 0; s < g->nsize; s++) {
		if ((row = pc_table_row(t)) < 0)
			return -1;
		pc_table_at(t, (size_t)row, 0)->v = (double)g->size[s];
		for (c = 0; c < g->ncol; c++)
			for (r = 0; r < PC_ALLOC_PATTERNS; r++)
				pc_table_at(t, (size_t)row, 1 + c * PC_ALLOC_PATTERNS + r)->v =
					g->v[c][s][r];
	}
	return 0;
}

/* Draws g in the view's format (pc_table_draw_text or pc_table_draw_markdown). */
static int grid_draw(FILE *f, const struct grid *g,
		     void (*draw)(FILE *, const struct pc_table *))
{
	struct pc_table t;
	int rc = grid_table(g, &t, "size", 6);

	if (rc == 0)
		draw(f, &t);
	pc_table_free(&t);
	return rc;
}

/* The allocators a run recorded: "glibc 2.36, jemalloc 5.3.0-0-g54eaed1d8b56". */
static void versions(FILE *f, json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs"), *run, *a;
	size_t i, k;

	json_array_foreach(runs, i, run) {
		json_t *list = json_object_get(json_object_get(run, "alloc"), "allocators");

		if (!json_array_size(list))
			continue;
		fprintf(f, "run %zu (%s):", i, json_string_value(json_object_get(run,
			"date")) ? : "?");
		json_array_foreach(list, k, a)
			fprintf(f, "%s %s %s", k ? "," : "",
				json_string_value(json_object_get(a, "name")) ? : "?",
				json_string_value(json_object_get(a, "version")) ? : "?");
		fputc('\n', f);
	}
}

static int report(FILE *f, json_t *doc)
{
	json_t *entry;
	const char *key;
	struct grid *g = malloc(sizeof(*g));

	if (!g)
		return -1;
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		grid_init(g);
		grid_add(g, entry, key);
		if (!g->ncol)
			continue;
		fprintf(f, "%s\nallocator fast paths: cycles per call (median of the "
			"samples); pair = malloc + free\n", pc_entry_brand(entry, key));
		versions(f, entry);
		if (grid_draw(f, g, pc_table_draw_text) < 0)
			break;
	}
	free(g);
	return key ? -1 : 0;
}

/* ---- compare --by allocator ------------------------------------------------------------- */

/* One allocator (B) against the base (A): 80 columns. */
static int compare_block(FILE *f, const struct grid *g, unsigned base, unsigned o)
{
	static const char *const head[PC_ALLOC_PATTERNS] = { "malloc", "free",
							     "malloc+free" };
	struct pc_table_col cols[1 + 3 * PC_ALLOC_PATTERNS] = {
		{ NULL, "size", 5, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL },
	};
	struct pc_table t;
	unsigned s, r;
	long row;

	for (r = 0; r < PC_ALLOC_PATTERNS; r++) {
		cols[1 + 3 * r] = (struct pc_table_col){ head[r], "A", 8, PC_CELL_CYCLES,
							 0, 0, NULL, NULL };
		cols[2 + 3 * r] = (struct pc_table_col){ head[r], "B", 8, PC_CELL_CYCLES,
							 0, 0, NULL, NULL };
		cols[3 + 3 * r] = (struct pc_table_col){ head[r], "B/A", 7, PC_CELL_RATIO,
							 0, 0, NULL, NULL };
	}
	if (pc_table_init(&t, "  ", cols, 1 + 3 * PC_ALLOC_PATTERNS) < 0)
		return -1;
	for (s = 0; s < g->nsize; s++) {
		if ((row = pc_table_row(&t)) < 0) {
			pc_table_free(&t);
			return -1;
		}
		pc_table_at(&t, (size_t)row, 0)->v = (double)g->size[s];
		for (r = 0; r < PC_ALLOC_PATTERNS; r++) {
			double a = g->v[base][s][r], b = g->v[o][s][r];

			pc_table_at(&t, (size_t)row, 1 + 3 * r)->v = a;
			pc_table_at(&t, (size_t)row, 2 + 3 * r)->v = b;
			pc_table_at(&t, (size_t)row, 3 + 3 * r)->v = a > 0 ? b / a : NAN;
		}
	}
	fprintf(f, "\nB = %s against A = %s, cycles per call\n", g->name[o],
		g->name[base]);
	pc_table_draw_text(f, &t);
	pc_table_free(&t);
	return 0;
}

int pc_alloc_compare(FILE *f, json_t *const *docs, const char *const *names,
		     unsigned ndocs, const char *base, char *err, size_t errlen)
{
	struct grid *g = malloc(sizeof(*g));
	unsigned d, c, b = 0;
	json_t *entry;
	const char *key;

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	grid_init(g);
	for (d = 0; d < ndocs; d++)
		json_object_foreach(json_object_get(docs[d], "cpus"), key, entry)
			grid_add(g, entry, pc_entry_brand(entry, key));
	for (c = 0; base && c < g->ncol && strcmp(g->name[c], base) != 0; c++)
		;
	if (base && c == g->ncol) {
		snprintf(err, errlen, "--base %.64s: no points of that allocator", base);
		free(g);
		return -1;
	}
	if (g->ncol < 2) {
		snprintf(err, errlen, "--by allocator needs points of two allocators "
			 "(found %u) in %s%s", g->ncol, names[0],
			 ndocs > 1 ? " and the rest" : "");
		free(g);
		return -1;
	}
	b = base ? c : 0;
	fprintf(f, "allocators (cycles per call, medians; pair = malloc + free):\n");
	for (c = 0; c < g->ncol; c++)
		fprintf(f, "  %-20.20s %.56s\n", g->name[c], g->origin[c]);
	for (c = 0; c < g->ncol; c++)
		if (c != b && compare_block(f, g, b, c) < 0)
			break;
	d = c < g->ncol;	/* out of memory */
	free(g);
	if (d)
		snprintf(err, errlen, "out of memory");
	return d ? -1 : 0;
}

/* ---- csv and markdown ------------------------------------------------------------------- */

static void csv_number(FILE *f, json_t *pt, const char *metric, const char *stat)
{
	json_t *v = json_object_get(json_object_get(pt, metric), stat);

	if (json_is_number(v))
		fprintf(f, ",%.7g", json_number_value(v));
	else
		fputs("," PC_NO_VALUE, f);
}

/* One line per point; every field is a name, a status or a number, so none
 * needs quoting (the reasons are in the JSON). */
static void csv_points(FILE *f, const char *key, json_t *entry)
{
	unsigned row;
	size_t i;
	json_t *pt;

	for (row = 0; row < PC_ALLOC_PATTERNS; row++) {
		json_t *p = json_object_get(json_object_get(entry, "probes"), pc_alloc_rows[row]);

		json_array_foreach(json_object_get(p, "points"), i, pt) {
			fprintf(f, "%s,%s,%s,%lld,%s", key, pc_alloc_rows[row],
				json_string_value(json_object_get(pt, "allocator")) ? : "",
				(long long)json_integer_value(json_object_get(pt, "size")),
				json_string_value(json_object_get(pt, "status")) ? : "");
			csv_number(f, pt, "cycles", "median");
			csv_number(f, pt, "cycles", "q1");
			csv_number(f, pt, "cycles", "q3");
			csv_number(f, pt, "ns", "median");
			fprintf(f, ",%lld\n", (long long)json_integer_value(json_object_get(pt,
											    "samples")));
		}
	}
}

static int report_as(FILE *f, json_t *doc, bool csv)
{
	struct grid *g = malloc(sizeof(*g));
	json_t *entry;
	const char *key;

	if (!g)
		return -1;
	if (csv)
		fputs("cpu,probe,allocator,size,status,cycles_median,cycles_q1,cycles_q3,"
		      "ns_median,samples\n", f);
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		if (csv) {
			csv_points(f, key, entry);
			continue;
		}
		grid_init(g);
		grid_add(g, entry, key);
		if (!g->ncol)
			continue;
		fprintf(f, "%s: cycles per call (median)\n\n", pc_entry_brand(entry, key));
		if (grid_draw(f, g, pc_table_draw_markdown) < 0)
			break;
	}
	free(g);
	return key ? -1 : 0;
}

/* ---- list: the rows -------------------------------------------------------------------- */

const struct pc_point_row *pc_alloc_point_rows(size_t *n)
{
	static const char sel[] = "run --alloc, or --allocator LIST (glibc, jemalloc, "
		"tcmalloc, mimalloc: those installed are found when it runs)";
	static const struct pc_point_row rows[PC_ALLOC_PATTERNS] = {
		[PC_ALLOC_MALLOC] = { "alloc.malloc", "alloc",
			"malloc fast path, by size (8 .. 16384 bytes) and allocator",
			"batch: a batch of mallocs of one size timed, their frees "
			"untimed; cycles per call from the engine's two batch lengths, "
			"samples and rounds; memory untouched unless --touch", sel, "ok" },
		[PC_ALLOC_FREE] = { "alloc.free", "alloc",
			"free fast path, by size and allocator",
			"batch: a batch of mallocs untimed, then their frees timed in "
			"the order allocated; cycles per call", sel, "ok" },
		[PC_ALLOC_PAIR] = { "alloc.malloc_free", "alloc",
			"malloc and free of one block at once, by size and allocator",
			"pair: a malloc immediately freed, the pair timed; cycles per pair",
			sel, "ok" },
	};

	*n = PC_ALLOC_PATTERNS;
	return rows;
}

int pc_alloc_show(FILE *f, json_t *doc, enum pc_format fmt)
{
	return fmt == PC_FORMAT_TABLE ? report(f, doc) :
	       report_as(f, doc, fmt == PC_FORMAT_CSV);
}
