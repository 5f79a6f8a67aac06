/* SPDX-License-Identifier: MIT */
/*
 * alloc_view.c - the allocator group's results shown (alloc.h): the
 * published table's shape (rows = sizes, columns = malloc, free and
 * malloc+free per allocator) as text or markdown, its points as CSV;
 * allocators side by side for compare --by allocator, in every format of
 * a view (table.h); its rows as list shows them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contend/contend.h"
#include "results/report.h"
#include "results/results.h"
#include "results/table.h"

/* ---- the model of the views: cycles per call by size and allocator ---------------- */

/* The patterns' headings, and their widths in the text view: the heading
 * and a space, at least 7. */
static const struct {
	const char *head;
	int width;
} pattern[PC_ALLOC_PATTERNS] = {
	[PC_ALLOC_MALLOC] = { "malloc", 7 },
	[PC_ALLOC_FREE] = { "free", 7 },
	[PC_ALLOC_PAIR] = { "malloc+free", 12 },
};

/* The table of the views: a row per size (ascending), a group of columns
 * per allocator (malloc, free, malloc+free), the allocator's label over
 * them; and each allocator's CPU entry (its brand or model key). */
struct allocs {
	struct pc_table t;
	const char **origin;	/* allocator k: columns 1 + 3k .. 3 + 3k */
	size_t n;		/* allocators */
};

static const struct pc_table_mark noisy[] = { { "*", "*" } };

/* An empty table of the size stub, a noisy figure marked '*'; -1 when out
 * of memory. */
static int allocs_init(struct allocs *a)
{
	static const struct pc_table_col size = { NULL, "size", 6, PC_CELL_FIXED,
						   PC_COL_STUB, 0, NULL, NULL, NULL, NULL };

	a->origin = NULL;
	a->n = 0;
	if (pc_table_init(&a->t, "  ", &size, 1) < 0)
		return -1;
	a->t.marks = noisy;
	a->t.nmarks = 1;
	return 0;
}

static void allocs_free(struct allocs *a)
{
	pc_table_free(&a->t);
	free(a->origin);
}

/* The first column of allocator k. */
static size_t alloc_first(size_t k)
{
	return 1 + PC_ALLOC_PATTERNS * k;
}

/* Allocator k's label: its name, or "name#2" ... */
static const char *alloc_label(const struct allocs *a, size_t k)
{
	return a->t.cols[alloc_first(k)].group;
}

/* Is label allocator name's: name itself or name#N? */
static bool labels(const char *label, const char *name)
{
	size_t n = strlen(name);

	return strncmp(label, name, n) == 0 && (!label[n] || label[n] == '#');
}

/* The first column of allocator name from origin, its group added when
 * there is none: a name met again from another origin is labelled
 * "name#2", "name#3" ... -1 when out of memory. */
static long alloc_col(struct allocs *a, const char *name, const char *origin)
{
	struct pc_table_col col = { NULL, NULL, 0, PC_CELL_CYCLES, PC_COL_MARK, 0, NULL, NULL, NULL, NULL };
	const char **o;
	char *label = NULL;
	unsigned same = 0, r;
	size_t k;
	long c = 0;

	for (k = 0; k < a->n; k++) {
		if (!labels(alloc_label(a, k), name))
			continue;
		if (a->origin[k] == origin)
			return (long)alloc_first(k);
		same++;
	}
	if (!(o = realloc(a->origin, (a->n + 1) * sizeof(*o))))
		return -1;
	a->origin = o;
	if (same && asprintf(&label, "%s#%u", name, same + 1) < 0)
		return -1;
	col.group = label ? label : name;
	for (r = 0; r < PC_ALLOC_PATTERNS && c >= 0; r++) {
		col.head = pattern[r].head;
		col.width = pattern[r].width;
		c = pc_table_col_add(&a->t, &col);
	}
	free(label);
	if (c < 0)
		return -1;
	o[a->n] = origin;
	return (long)alloc_first(a->n++);
}

/* The row of size, added among the ascending sizes when there is none;
 * -1 when out of memory. */
static long size_row(struct pc_table *t, size_t size)
{
	size_t r;
	long at;

	for (r = 0; r < t->nrows && pc_table_at(t, r, 0)->v < (double)size; r++)
		;
	if (r < t->nrows && pc_table_at(t, r, 0)->v == (double)size)
		return (long)r;
	if ((at = pc_table_insert(t, r)) >= 0)
		pc_table_at(t, (size_t)at, 0)->v = (double)size;
	return at;
}

/*
 * The rows whose points are an allocator's figures: the column (pattern)
 * each fills, and the label of its allocator, NULL for the point's own
 * (the allocator group's rows, the reference tables). The kernel group's
 * kmalloc rows are three allocators by pattern: "kmalloc" is the 2007
 * table's own (10000 kmallocs then their kfrees, the mean of each; the
 * pair), set beside it; "kmalloc-batch" today's batches timed by the
 * engine; "kmalloc-const" those batches with the size a constant.
 */
static const struct alloc_row {
	const char *row;
	enum pc_alloc_pattern col;
	const char *label;
} alloc_rows[] = {
	{ "alloc.malloc", PC_ALLOC_MALLOC, NULL },
	{ "alloc.free", PC_ALLOC_FREE, NULL },
	{ "alloc.malloc_free", PC_ALLOC_PAIR, NULL },
	{ "kernel.kmalloc.batch10000", PC_ALLOC_MALLOC, "kmalloc" },
	{ "kernel.kfree.batch10000", PC_ALLOC_FREE, "kmalloc" },
	{ "kernel.kmalloc_kfree", PC_ALLOC_PAIR, "kmalloc" },
	{ "kernel.kmalloc", PC_ALLOC_MALLOC, "kmalloc-batch" },
	{ "kernel.kfree", PC_ALLOC_FREE, "kmalloc-batch" },
	{ "kernel.kmalloc_kfree", PC_ALLOC_PAIR, "kmalloc-batch" },
	{ "kernel.kmalloc.const", PC_ALLOC_MALLOC, "kmalloc-const" },
	{ "kernel.kfree.const", PC_ALLOC_FREE, "kmalloc-const" },
	{ "kernel.kmalloc_kfree.const", PC_ALLOC_PAIR, "kmalloc-const" },
};

/* What the kernel's allocators of alloc_rows measure, in the 2007 table's
 * words, for the legend; NULL for any other label. */
static const char *label_words(const char *label)
{
	static const struct { const char *label, *words; } words[] = {
		{ "kmalloc", "measured, in cycles: kmalloc(size), repeated allocations "
		  "then frees (10000 of each, the mean); kmalloc(size) then kfree at "
		  "once, per pair" },
		{ "kmalloc-batch", "measured, in cycles: batches of 80, calls 17 to 80 "
		  "timed" },
		{ "kmalloc-const", "measured, in cycles: those batches, the size a "
		  "constant" },
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(words[i].label, label) == 0)
			return words[i].words;
	return NULL;
}

/* The points of one CPU entry's rows, its allocators from origin: an ok
 * point's median in its cell; -1 when out of memory. */
static int allocs_add(struct allocs *a, json_t *entry, const char *origin)
{
	json_t *probes = json_object_get(entry, "probes"), *pt;
	size_t row, i;

	for (row = 0; row < sizeof(alloc_rows) / sizeof(alloc_rows[0]); row++) {
		json_t *points = json_object_get(json_object_get(probes, alloc_rows[row].row),
						 "points");
		unsigned col = alloc_rows[row].col;

		json_array_foreach(points, i, pt) {
			const char *alloc = alloc_rows[row].label ? alloc_rows[row].label :
				json_string_value(json_object_get(pt, "allocator"));
			const char *st = json_string_value(json_object_get(pt, "status"));
			json_t *size = json_object_get(pt, "size");
			json_t *m = json_object_get(json_object_get(pt, "cycles"), "median");
			long c, s;

			if (!alloc || !json_is_integer(size) || json_integer_value(size) < 1)
				continue;
			if ((c = alloc_col(a, alloc, origin)) < 0 ||
			    (s = size_row(&a->t, (size_t)json_integer_value(size))) < 0)
				return -1;
			if (!json_is_number(m))
				continue;
			if (strcmp(st ? : "", "ok") == 0 || strcmp(st ? : "", "noisy") == 0)
				pc_table_at(&a->t, (size_t)s, (size_t)c + col)->v =
					json_number_value(m);
			pc_table_at(&a->t, (size_t)s, (size_t)c + col)->marks =
				strcmp(st ? : "", "noisy") == 0;
		}
	}
	return 0;
}

/* ---- the run's tables: text and markdown ----------------------------------------------- */

/* The allocators a run recorded: "glibc 2.36, jemalloc 5.3.0-0-g54eaed1d8b56",
 * wrapped to the width. */
static void versions(struct pc_view *v, json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs"), *run, *a;
	size_t i, k;

	json_array_foreach(runs, i, run) {
		json_t *list = json_object_get(json_object_get(run, "alloc"), "allocators");
		char *line = NULL;
		size_t len = 0;
		FILE *m;

		if (!json_array_size(list) || !(m = open_memstream(&line, &len)))
			continue;
		fprintf(m, "run %zu (%s):", i, json_string_value(json_object_get(run,
			"date")) ? : "?");
		json_array_foreach(list, k, a)
			fprintf(m, "%s %s %s", k ? "," : "",
				json_string_value(json_object_get(a, "name")) ? : "?",
				json_string_value(json_object_get(a, "version")) ? : "?");
		if (fclose(m) == 0)
			pc_view_wrap(v, "", line, 2);
		free(line);
	}
}

/* A point's statistic, or none. */
static double stat_of(json_t *pt, const char *metric, const char *stat)
{
	json_t *v = json_object_get(json_object_get(pt, metric), stat);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ---- single calls: the percentiles ------------------------------------------------ */

/* The percentiles the views show; the JSON and CSV have p90 and max too. */
static const struct {
	const char *key, *head;
} shown[] = { { "p50", "p50" }, { "p99", "p99" }, { "p99.9", "p99.9" } };
#define NSHOWN (sizeof(shown) / sizeof(shown[0]))

/* The group of allocator alloc's pattern row in t, added after the
 * others when there is none: its first column; -1 when out of memory. */
static long latency_cols(struct pc_table *t, const char *alloc, unsigned row)
{
	struct pc_table_col col = { NULL, NULL, 7, PC_CELL_CYCLES, 0, 0, NULL, NULL, NULL, NULL };
	char group[96];
	size_t c;
	long first = -1;
	unsigned k;

	snprintf(group, sizeof(group), "%s %s", alloc, pattern[row].head);
	for (c = 1; c < t->ncols; c += NSHOWN)
		if (strcmp(t->cols[c].group, group) == 0)
			return (long)c;
	col.group = group;
	for (k = 0; k < NSHOWN; k++) {
		long at;

		col.head = shown[k].head;
		if ((at = pc_table_col_add(t, &col)) < 0)
			return -1;
		if (first < 0)
			first = at;
	}
	return first;
}

/* One CPU entry's single calls: a row per size, a group of p50, p99 and
 * p99.9 per allocator and pattern, under the timer's cost and resolution;
 * nothing where no point has them. -1 when out of memory. */
/* What a table is, wrapped, then the table (a blank line between them in
 * markdown). */
static void words_table(struct pc_view *v, const char *words, const struct pc_table *t,
			const char *brand)
{
	pc_view_wrap(v, "", words, 2);
	if (v->fmt == PC_FORMAT_MARKDOWN)
		pc_view_printf(v, "\n");
	pc_view_table(v, t, brand);
}

static int latency_table(struct pc_view *v, json_t *entry, const char *brand)
{
	static const struct pc_table_col size = { NULL, "size", 6, PC_CELL_FIXED,
						   PC_COL_STUB, 0, NULL, NULL, NULL, NULL };
	json_t *probes = json_object_get(entry, "probes"), *pt, *l;
	double timer = 0, resolution = 0;
	struct pc_table t;
	unsigned row, k;
	char line[240];
	long c, r;
	size_t i;

	if (pc_table_init(&t, "  ", &size, 1) < 0)
		return -1;
	for (row = 0; row < PC_ALLOC_PATTERNS; row++)
		json_array_foreach(json_object_get(json_object_get(probes, pc_alloc_rows[row]),
						   "points"), i, pt) {
			const char *alloc = json_string_value(json_object_get(pt, "allocator"));
			json_t *sz = json_object_get(pt, "size");

			if (!alloc || !json_is_integer(sz) || !(l = json_object_get(pt, "latency")))
				continue;
			if ((c = latency_cols(&t, alloc, row)) < 0 ||
			    (r = size_row(&t, (size_t)json_integer_value(sz))) < 0)
				goto oom;
			for (k = 0; k < NSHOWN; k++)
				pc_table_at(&t, (size_t)r, (size_t)c + k)->v =
					json_number_value(json_object_get(l, shown[k].key));
			timer = fmax(timer, json_number_value(json_object_get(l, "timer_cycles")));
			resolution = fmax(resolution, json_number_value(json_object_get(l,
							"resolution_cycles")));
		}
	if (t.ncols > 1) {
		snprintf(line, sizeof(line), "single calls: cycles per call at p50, p99 and "
			 "p99.9, of %d calls a point, the timer's own cost (%.0f cycles) "
			 "subtracted; resolution %.*f cycles", PC_DIST_CALLS, timer,
			 resolution < 10 ? 1 : 0, resolution);
		pc_view_printf(v, "\n");
		words_table(v, line, &t, brand);
	}
	pc_table_free(&t);
	return 0;
oom:
	pc_table_free(&t);
	return -1;
}

/* ---- the remote pattern ----------------------------------------------------------- */

/* One CPU entry's remote points: a row per size, a group per allocator
 * and pair of CPUs (placement and CPUs, near end first) of the median
 * malloc at the near end, the median free at the far end, and the p99 of
 * their single calls; nothing where there are none. -1 when out of
 * memory. */
int pc_alloc_remote_view(struct pc_view *v, json_t *entry, const char *brand, bool heading,
			 const char *const *rows, const char *what)
{
	static const char *const heads[4] = { "malloc", "free", "p99 malloc", "p99 free" };
	static const struct pc_table_col size = { NULL, "size", 6, PC_CELL_FIXED,
						   PC_COL_STUB, 0, NULL, NULL, NULL, NULL };
	json_t *probes = json_object_get(entry, "probes"), *pt;
	struct pc_table_col col = { NULL, NULL, 11, PC_CELL_CYCLES, PC_COL_MARK, 0, NULL, NULL,
				    NULL, NULL };
	struct pc_table t;
	char group[96];
	unsigned row, k;
	size_t i, c;
	bool fresh;
	long r;

	if (pc_table_init(&t, "  ", &size, 1) < 0)
		return -1;
	t.marks = noisy;
	t.nmarks = 1;
	for (row = 0; row < 2; row++)
		json_array_foreach(json_object_get(json_object_get(probes, rows[row]),
						   "points"), i, pt) {
			const char *alloc = json_string_value(json_object_get(pt, "allocator"));
			const char *st = json_string_value(json_object_get(pt, "status"));
			json_t *sz = json_object_get(pt, "size");
			unsigned end = row;

			if (!alloc || !json_is_integer(sz))
				continue;
			snprintf(group, sizeof(group), "%s %s %s", alloc, json_string_value(
				 json_object_get(pt, "placement")) ? : "?", json_string_value(
				 json_object_get(pt, "cpus")) ? : "?");
			for (c = 1; c < t.ncols && strcmp(t.cols[c].group, group) != 0; c += 4)
				;
			for (k = 0, fresh = c == t.ncols; fresh && k < 4; k++) {
				col.group = group;
				col.head = heads[k];
				if (pc_table_col_add(&t, &col) < 0)
					goto oom;
			}
			if ((r = size_row(&t, (size_t)json_integer_value(sz))) < 0)
				goto oom;
			if (strcmp(st ? : "", "ok") == 0 || strcmp(st ? : "", "noisy") == 0)
				pc_table_at(&t, (size_t)r, c + end)->v = stat_of(pt, "cycles", "median");
			pc_table_at(&t, (size_t)r, c + end)->marks = strcmp(st ? : "", "noisy") == 0;
			pc_table_at(&t, (size_t)r, c + 2 + end)->v = stat_of(pt, "latency", "p99");
		}
	if (t.ncols > 1) {
		pc_view_printf(v, heading ? "%s\n" : "\n", brand);
		words_table(v, what, &t, brand);
	}
	pc_table_free(&t);
	return 0;
oom:
	pc_table_free(&t);
	return -1;
}

/* Every CPU of doc with allocator points as a table: the text view (the
 * CPU, the title, the allocators' versions) or markdown; then their
 * single calls' percentiles, and the remote pattern's points. */
static int tables(struct pc_view *v, json_t *doc)
{
	json_t *entry;
	const char *key;
	struct allocs a;

	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		const char *brand = pc_entry_brand(entry, key);
		int rc = allocs_init(&a) < 0 || allocs_add(&a, entry, key) < 0 ? -1 : 0;

		if (rc == 0 && a.n && v->fmt == PC_FORMAT_MARKDOWN) {
			pc_view_printf(v, "%s: cycles per call (median)\n\n", brand);
			pc_view_table(v, &a.t, brand);
		} else if (rc == 0 && a.n) {
			pc_view_printf(v, "%s\nallocator fast paths: cycles per call (median "
				       "of the samples)\n", brand);
			versions(v, entry);
			pc_view_table(v, &a.t, brand);
		}
		if (rc == 0 && a.n)
			rc = latency_table(v, entry, brand);
		if (rc == 0)
			rc = pc_alloc_remote_view(v, entry, brand, !a.n, pc_alloc_rows +
						  PC_ALLOC_REMOTE_MALLOC, "remote: objects allocated "
						  "on one CPU (the near end, the first of the pair) and "
						  "freed on the other, handed over in batches of 80 "
						  "through a ring that is not timed: cycles per malloc at "
						  "the near end and per free at the far end (median of the "
						  "samples; * noisy), and the p99 of their single calls");
		allocs_free(&a);
		if (rc < 0)
			break;
	}
	return key ? -1 : 0;
}

/* ---- compare --by allocator ------------------------------------------------------------- */

/* One allocator (B) against the base (A), size by size: 80 columns. -1
 * when out of memory. */
static int compare_block(struct pc_view *v, const struct allocs *a, size_t base, size_t o)
{
	struct pc_table_col cols[1 + 3 * PC_ALLOC_PATTERNS] = {
		{ NULL, "size", 5, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL, NULL, NULL },
	};
	size_t s, ca = alloc_first(base), cb = alloc_first(o);
	struct pc_table t;
	char *title;
	unsigned r;
	long row;

	for (r = 0; r < PC_ALLOC_PATTERNS; r++) {
		const char *head = pattern[r].head;

		cols[1 + 3 * r] = (struct pc_table_col){ head, "A", 8, PC_CELL_CYCLES,
							 0, 0, NULL, NULL, NULL, NULL };
		cols[2 + 3 * r] = (struct pc_table_col){ head, "B", 8, PC_CELL_CYCLES,
							 0, 0, NULL, NULL, NULL, NULL };
		cols[3 + 3 * r] = (struct pc_table_col){ head, "B/A", 7, PC_CELL_RATIO,
							 0, 0, NULL, NULL, NULL, NULL };
	}
	if (pc_table_init(&t, "  ", cols, 1 + 3 * PC_ALLOC_PATTERNS) < 0)
		return -1;
	for (s = 0; s < a->t.nrows; s++) {
		if ((row = pc_table_row(&t)) < 0) {
			pc_table_free(&t);
			return -1;
		}
		pc_table_at(&t, (size_t)row, 0)->v = pc_table_at(&a->t, s, 0)->v;
		for (r = 0; r < PC_ALLOC_PATTERNS; r++) {
			double va = pc_table_at(&a->t, s, ca + r)->v;
			double vb = pc_table_at(&a->t, s, cb + r)->v;

			pc_table_at(&t, (size_t)row, 1 + 3 * r)->v = va;
			pc_table_at(&t, (size_t)row, 2 + 3 * r)->v = vb;
			pc_table_at(&t, (size_t)row, 3 + 3 * r)->v = va > 0 ? vb / va : NAN;
		}
	}
	pc_view_printf(v, "\n%sB = %s against A = %s, cycles per call\n%s", pc_view_quote(v),
		       alloc_label(a, o), alloc_label(a, base),
		       v->fmt == PC_FORMAT_MARKDOWN ? "\n" : "");
	if (asprintf(&title, "%s against %s", alloc_label(a, o), alloc_label(a, base)) < 0) {
		pc_table_free(&t);
		return -1;
	}
	pc_view_table(v, &t, title);
	free(title);
	pc_table_free(&t);
	return 0;
}

/* The points of every CPU entry of the documents, each entry's allocators
 * from its brand; -1 when out of memory. */
static int allocs_of(struct allocs *a, json_t *const *docs, unsigned ndocs)
{
	json_t *entry;
	const char *key;
	unsigned d;

	if (allocs_init(a) < 0)
		return -1;
	for (d = 0; d < ndocs; d++)
		json_object_foreach(json_object_get(docs[d], "cpus"), key, entry)
			if (allocs_add(a, entry, pc_entry_brand(entry, key)) < 0)
				return -1;
	return 0;
}

/* "marked unreliable: REASON" when a run of the CPU entry whose brand is
 * origin was marked so (an emulated CPU: the figures are the emulator's);
 * NULL when none was. */
static const char *unreliable(json_t *const *docs, unsigned ndocs, const char *origin)
{
	static char why[320];
	json_t *entry, *run;
	const char *key;
	unsigned d;
	size_t i;

	for (d = 0; d < ndocs; d++)
		json_object_foreach(json_object_get(docs[d], "cpus"), key, entry) {
			if (pc_entry_brand(entry, key) != origin)
				continue;
			json_array_foreach(json_object_get(entry, "runs"), i, run)
				if (pc_run_unreliable(run)) {
					snprintf(why, sizeof(why), "marked unreliable: %s",
						 pc_run_unreliable(run));
					return why;
				}
		}
	return NULL;
}

/* How a reference table published allocator label's figures (from the
 * CPU entry whose brand is origin): "as published, in UNIT: LABEL" of its
 * first malloc point, the table's own words; NULL when none says. */
static const char *published(json_t *const *docs, unsigned ndocs, const char *origin,
			     const char *label)
{
	static char words[320];
	json_t *entry, *pt, *pub;
	const char *key;
	unsigned d;
	size_t i;

	for (d = 0; d < ndocs; d++)
		json_object_foreach(json_object_get(docs[d], "cpus"), key, entry) {
			if (pc_entry_brand(entry, key) != origin)
				continue;
			json_array_foreach(json_object_get(json_object_get(json_object_get(entry,
					   "probes"), pc_alloc_rows[PC_ALLOC_MALLOC]), "points"), i, pt) {
				const char *alloc = json_string_value(json_object_get(pt,
										  "allocator"));

				if (!alloc || strcmp(alloc, label) != 0 ||
				    !(pub = json_object_get(pt, "published")) ||
				    !json_string_value(json_object_get(pub, "label")))
					continue;
				snprintf(words, sizeof(words), "as published, in %s: %s",
					 json_string_value(json_object_get(pub, "unit")) ? : "cycles",
					 json_string_value(json_object_get(pub, "label")));
				return words;
			}
		}
	return NULL;
}

/* Each allocator's label and the CPU its points are from, and under it
 * what its figures are (the reference table's words, or the kernel's
 * pattern) and whether its run was marked unreliable. -1 when out of
 * memory. */
static int legend(struct pc_view *v, json_t *const *docs, unsigned ndocs,
		  const struct allocs *a)
{
	static const struct pc_table_col cols[] = {
		{ .head = "allocator", .width = 20, .flags = PC_COL_LEFT | PC_COL_CODE },
		{ .head = "cpu", .flags = PC_COL_LEFT, .gap = " " },
		{ .head = "note", .flags = PC_COL_LEFT | PC_COL_UNDER, .under = "" },
	};
	struct pc_table t;
	size_t k;
	long r;
	int rc = pc_table_init(&t, "  ", cols, 3);

	t.no_head = true;
	t.none = "";
	t.indent = 2;
	t.under_indent = 4;
	for (k = 0; rc == 0 && k < a->n; k++) {
		const char *why = unreliable(docs, ndocs, a->origin[k]);
		const char *words = published(docs, ndocs, a->origin[k], alloc_label(a, k));
		size_t j;

		/* an origin's marking said once, then named */
		for (j = 0; why && j < k && a->origin[j] != a->origin[k]; j++)
			;
		if (why && j < k)
			why = "marked unreliable, as above";
		if (!words)
			words = label_words(alloc_label(a, k));
		if ((r = pc_table_row(&t)) < 0 ||
		    pc_table_text(&t, (size_t)r, 0, "%.20s", alloc_label(a, k)) < 0 ||
		    pc_table_text(&t, (size_t)r, 1, "%.56s", a->origin[k]) < 0 ||
		    ((why || words) && pc_table_text(&t, (size_t)r, 2, "%s%s%s", why ? : "",
						     words && why ? "; " : "", words ? : "") < 0))
			rc = -1;
	}
	if (rc == 0)
		pc_view_table(v, &t, "allocators");
	pc_table_free(&t);
	return rc;
}

int pc_alloc_compare(struct pc_view *v, json_t *const *docs, const char *const *names,
		     unsigned ndocs, const char *base, char *err, size_t errlen)
{
	struct allocs a;
	size_t b = 0, k;
	int rc = allocs_of(&a, docs, ndocs);

	if (rc < 0)
		goto out;
	while (base && b < a.n && strcmp(alloc_label(&a, b), base) != 0)
		b++;
	if (base && b == a.n) {
		snprintf(err, errlen, "--base %.64s: no points of that allocator", base);
		allocs_free(&a);
		return -1;
	}
	if (a.n < 2) {
		snprintf(err, errlen, "--by allocator needs points of two allocators "
			 "(found %zu) in %s%s", a.n, names[0], ndocs > 1 ? " and the rest" : "");
		allocs_free(&a);
		return -1;
	}
	pc_view_printf(v, "%sallocators (cycles per call, medians):\n%s", pc_view_quote(v),
		       v->fmt == PC_FORMAT_MARKDOWN ? "\n" : "");
	rc = legend(v, docs, ndocs, &a);
	for (k = 0; k < a.n && rc == 0; k++)
		if (k != b)
			rc = compare_block(v, &a, b, k);
out:
	allocs_free(&a);
	if (rc < 0)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* ---- csv ------------------------------------------------------------------------------------ */

enum { A_CPU, A_PROBE, A_ALLOC, A_SIZE, A_STATUS, A_CMED, A_CQ1, A_CQ3, A_NMED, A_SAMPLES,
       A_P50, A_P90, A_P99, A_P999, A_PMAX, A_COLS };


/* The points of every CPU, a row each (the reasons are in the JSON). */
static int points_table(struct pc_table *t, json_t *doc)
{
#define A_WORDS(h) { .head = h, .style = PC_CELL_FIXED, .flags = PC_COL_LEFT }
#define A_FIGURE(h) { .head = h, .style = PC_CELL_GENERAL, .digits = 7 }
	static const struct pc_table_col cols[A_COLS] = {
		[A_CPU] = A_WORDS("cpu"), [A_PROBE] = A_WORDS("probe"),
		[A_ALLOC] = A_WORDS("allocator"),
		[A_SIZE] = { .head = "size", .style = PC_CELL_FIXED },
		[A_STATUS] = A_WORDS("status"), [A_CMED] = A_FIGURE("cycles_median"),
		[A_CQ1] = A_FIGURE("cycles_q1"), [A_CQ3] = A_FIGURE("cycles_q3"),
		[A_NMED] = A_FIGURE("ns_median"),
		[A_SAMPLES] = { .head = "samples", .style = PC_CELL_FIXED },
		[A_P50] = A_FIGURE("p50_cycles"), [A_P90] = A_FIGURE("p90_cycles"),
		[A_P99] = A_FIGURE("p99_cycles"), [A_P999] = A_FIGURE("p99.9_cycles"),
		[A_PMAX] = A_FIGURE("max_cycles"),
	};
	static const char *const dist[] = { "p50", "p90", "p99", "p99.9", "max" };
	unsigned k;
#undef A_WORDS
#undef A_FIGURE
	json_t *entry, *pt;
	const char *key;
	unsigned row;
	size_t i;
	long r;

	if (pc_table_init(t, ",", cols, A_COLS) < 0)
		return -1;
	json_object_foreach(json_object_get(doc, "cpus"), key, entry)
		for (row = 0; row < PC_ALLOC_PATTERNS; row++) {
			json_t *p = json_object_get(json_object_get(entry, "probes"),
						    pc_alloc_rows[row]);

			json_array_foreach(json_object_get(p, "points"), i, pt) {
				if ((r = pc_table_row(t)) < 0 ||
				    pc_table_text(t, (size_t)r, A_CPU, "%s", key) < 0 ||
				    pc_table_text(t, (size_t)r, A_PROBE, "%s",
						  pc_alloc_rows[row]) < 0 ||
				    pc_table_text(t, (size_t)r, A_ALLOC, "%s", json_string_value(
						  json_object_get(pt, "allocator")) ? : "") < 0 ||
				    pc_table_text(t, (size_t)r, A_STATUS, "%s", json_string_value(
						  json_object_get(pt, "status")) ? : "") < 0)
					return -1;
				pc_table_at(t, (size_t)r, A_SIZE)->v =
					(double)json_integer_value(json_object_get(pt, "size"));
				pc_table_at(t, (size_t)r, A_CMED)->v = stat_of(pt, "cycles", "median");
				pc_table_at(t, (size_t)r, A_CQ1)->v = stat_of(pt, "cycles", "q1");
				pc_table_at(t, (size_t)r, A_CQ3)->v = stat_of(pt, "cycles", "q3");
				pc_table_at(t, (size_t)r, A_NMED)->v = stat_of(pt, "ns", "median");
				pc_table_at(t, (size_t)r, A_SAMPLES)->v = (double)json_integer_value(
					json_object_get(pt, "samples"));
				for (k = 0; k < sizeof(dist) / sizeof(dist[0]); k++)
					pc_table_at(t, (size_t)r, A_P50 + k)->v = stat_of(pt,
						"latency", dist[k]);
			}
		}
	return 0;
}

/* ---- list: the rows -------------------------------------------------------------------- */

const struct pc_point_row *pc_alloc_point_rows(size_t *n)
{
	static const char sel[] = "run --alloc, or --allocator LIST (glibc, jemalloc, "
		"tcmalloc, mimalloc: those installed are found when it runs)";
	static struct pc_point_row rows[PC_ALLOC_ROWS] = {
		[PC_ALLOC_MALLOC] = { "alloc.malloc", "alloc",
			"malloc fast path, by size (8 .. 16384 bytes) and allocator",
			"batch: a batch of mallocs of one size timed, their frees "
			"untimed; cycles per call from the engine's two batch lengths, "
			"samples and rounds; memory untouched unless --touch", sel, "ok", false,
			NULL },
		[PC_ALLOC_FREE] = { "alloc.free", "alloc",
			"free fast path, by size and allocator",
			"batch: a batch of mallocs untimed, then their frees timed in "
			"the order allocated; cycles per call", sel, "ok", false, NULL },
		[PC_ALLOC_PAIR] = { "alloc.malloc_free", "alloc",
			"malloc and free of one block at once, by size and allocator",
			"pair: a malloc immediately freed, the pair timed; cycles per pair",
			sel, "ok", false, NULL },
		[PC_ALLOC_REMOTE_MALLOC] = { "alloc.remote.malloc", "alloc",
			"malloc on one CPU of objects another CPU frees, by size, allocator "
			"and placement", NULL, NULL, "ok", false, NULL },
		[PC_ALLOC_REMOTE_FREE] = { "alloc.remote.free", "alloc",
			"free on one CPU of objects another CPU allocated (the remote free "
			"path), by size, allocator and placement", NULL, NULL, "ok", false,
			NULL },
	};
	static const char remote_sel[] = "run --remote (with --allocator LIST), or -p "
		"'alloc.remote.*'";
	static const char remote[] = "remote: two threads on a pair of CPUs (compact and "
		"spread placements): batches of 80 mallocs timed on the first, handed over "
		"through a ring that is not timed, their frees timed on the second; cycles "
		"per call, the median of samples of 16 batches; every free counted at the "
		"far end";
	bool lonely = !pc_contend_two_cpus();
	unsigned k;

	for (k = PC_ALLOC_REMOTE_MALLOC; k < PC_ALLOC_ROWS; k++) {
		rows[k].method = remote;
		rows[k].selected_by = remote_sel;
		rows[k].availability = lonely ? "needs-2-cpus" : "ok";
		rows[k].note = lonely ? "one CPU allowed: an object has no second CPU to "
			       "be freed on" : NULL;
	}
	*n = PC_ALLOC_ROWS;
	return rows;
}

int pc_alloc_show(struct pc_view *v, json_t *doc)
{
	struct pc_table t;
	int rc;

	if (v->fmt != PC_FORMAT_CSV)
		return tables(v, doc);
	rc = points_table(&t, doc);
	if (rc == 0)
		pc_table_draw_csv(v->f, &t, true);
	pc_table_free(&t);
	return rc;
}
