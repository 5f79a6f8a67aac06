/* SPDX-License-Identifier: MIT */
/*
 * kernel_view.c - the kernel group's results shown (kernel.h): the
 * kernel's configuration as it decides the figures, then three tables of
 * the table model: the entries (cycles per operation), kmalloc by size in
 * the 2007 table's shape (kmalloc, kfree, kmalloc+kfree) and the contended
 * spin lock by threads (the contended group's shape); an option that
 * inflates a figure is its footnote. CSV: a line per row or point. And
 * the rows as list shows them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel.h"
#include "alloc/alloc.h"
#include "results/report.h"
#include "results/results.h"
#include "results/table.h"

static double stat_of(json_t *p, const char *stat)
{
	json_t *v = json_object_get(json_object_get(p, "cycles"), stat);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool figured(json_t *p)
{
	const char *st = json_string_value(json_object_get(p, "status"));

	return st && (strcmp(st, "ok") == 0 || strcmp(st, "noisy") == 0);
}

/* The cells of p from column c on: median, q1, q3; else its status, the
 * reason a footnote; the options that inflate it a footnote of the median. */
static int fill(struct pc_table *t, size_t row, size_t c, json_t *p, unsigned nstats)
{
	static const char *const stats[] = { "median", "q1", "q3" };
	const char *inflated = json_string_value(json_object_get(p, "inflated_by"));
	char note[600];
	unsigned k;

	if (!figured(p)) {
		const char *reason = json_string_value(json_object_get(p, "reason"));

		if (pc_table_text(t, row, c, "%s", json_string_value(json_object_get(p,
				  "status")) ? : "?") < 0)
			return -1;
		if (reason && !(pc_table_at(t, row, c)->note = pc_table_note(t, reason)))
			return -1;
		return 0;
	}
	for (k = 0; k < nstats; k++)
		pc_table_at(t, row, c + k)->v = stat_of(p, stats[k]);
	if (inflated) {
		snprintf(note, sizeof(note), "inflated by %s", inflated);
		if (!(pc_table_at(t, row, c)->note = pc_table_note(t, note)))
			return -1;
	}
	return 0;
}

static int entries_table(struct pc_view *v, json_t *probes)
{
	static const struct pc_table_col cols[] = {
		{ NULL, "kernel row", 34, PC_CELL_FIXED, PC_COL_STUB | PC_COL_LEFT | PC_COL_ALONE,
		  0, NULL, NULL, NULL, NULL },
		{ "cycles per operation", "median", 9, PC_CELL_CYCLES, 0, 0, NULL, NULL, NULL, NULL },
		{ "cycles per operation", "q1", 8, PC_CELL_CYCLES, 0, 0, "", NULL, NULL, NULL },
		{ "cycles per operation", "q3", 8, PC_CELL_CYCLES, 0, 0, "", NULL, NULL, NULL },
	};
	struct pc_table t;
	const char *name;
	json_t *p;
	long row;
	int rc = 0;

	if (pc_table_init(&t, "  ", cols, 4) < 0)
		return -1;
	json_object_foreach(probes, name, p) {
		if (strncmp(name, "kernel.", 7) != 0 || json_object_get(p, "points"))
			continue;
		if ((row = pc_table_row(&t)) < 0 ||
		    pc_table_text(&t, (size_t)row, 0, "%s", name) < 0 ||
		    fill(&t, (size_t)row, 1, p, 3) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && t.nrows)
		pc_view_table(v, &t, "kernel rows");
	pc_table_free(&t);
	return rc;
}

/* A table of kmalloc by size: what it is, and its three rows (NULL: a
 * column of none), a column each. */
struct sizes {
	const char *title;
	const char *what;
	const char *rows[3];
	const char *heads[3];
};

static const struct sizes sizes_tables[] = {
	{ "kmalloc by size, the size variable",
	  "the size variable, as the 2007 module called kmalloc() (__kmalloc() finds "
	  "the cache): batches of 80 timed by the engine's two loop lengths; cycles per "
	  "call, the pair's per pair",
	  { "kernel.kmalloc", "kernel.kfree", "kernel.kmalloc_kfree" },
	  { "kmalloc", "kfree", "kmalloc+kfree" } },
	{ "kmalloc by size, the size a constant",
	  "the size a constant (the cache chosen at compile time): the same batches",
	  { "kernel.kmalloc.const", "kernel.kfree.const", "kernel.kmalloc_kfree.const" },
	  { "kmalloc", "kfree", "kmalloc+kfree" } },
	{ "the 2007 pattern",
	  "the 2007 pattern: 10000 kmalloc(size) then their 10000 kfree(), the mean "
	  "cycles per call of each, a batch a sample; kmalloc then kfree at once, per "
	  "pair (the size variable)",
	  { "kernel.kmalloc.batch10000", "kernel.kfree.batch10000", "kernel.kmalloc_kfree" },
	  { "kmalloc", "kfree", "kmalloc+kfree" } },
};

/* The row of size in t, added after the others where there is none; -1
 * when out of memory. A size the page allocator serves has its words as
 * the note of its cell. */
static long size_row(struct pc_table *t, json_t *pt)
{
	double size = (double)json_integer_value(json_object_get(pt, "size"));
	const char *by = json_string_value(json_object_get(pt, "served_by"));
	size_t r;
	long row;

	for (r = 0; r < t->nrows && pc_table_at(t, r, 0)->v != size; r++)
		;
	if (r < t->nrows)
		return (long)r;
	if ((row = pc_table_row(t)) < 0)
		return -1;
	pc_table_at(t, (size_t)row, 0)->v = size;
	if (by && strncmp(by, "page", 4) == 0 &&
	    !(pc_table_at(t, (size_t)row, 0)->note = pc_table_note(t, by)))
		return -1;
	return row;
}

static int sizes_table(struct pc_view *v, json_t *probes, const struct sizes *z)
{
	struct pc_table_col cols[] = {
		{ NULL, "size", 8, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL, NULL, NULL },
		{ "cycles per call", z->heads[0], 10, PC_CELL_CYCLES, 0, 0, NULL, NULL, NULL, NULL },
		{ "cycles per call", z->heads[1], 10, PC_CELL_CYCLES, 0, 0, "", NULL, NULL, NULL },
		{ "cycles per call", z->heads[2], 14, PC_CELL_CYCLES, 0, 0, "", NULL, NULL,
		  NULL },
	};
	struct pc_table t;
	unsigned k;
	size_t i;
	json_t *pt;
	long r;

	if (pc_table_init(&t, "  ", cols, 4) < 0)
		return -1;
	for (k = 0; k < 3; k++)
		json_array_foreach(json_object_get(json_object_get(probes, z->rows[k]),
				   "points"), i, pt) {
			if ((r = size_row(&t, pt)) < 0 || fill(&t, (size_t)r, 1 + k, pt, 1) < 0)
				goto oom;
		}
	/* a table of the pair alone is the one before it again */
	for (r = 0, i = 0; i < t.nrows; i++)
		r += !isnan(pc_table_at(&t, i, 1)->v) || !isnan(pc_table_at(&t, i, 2)->v) ||
		     pc_table_at(&t, i, 1)->text || pc_table_at(&t, i, 2)->text;
	if (r) {
		pc_view_printf(v, "\n");
		pc_view_wrap(v, "", z->what, 2);
		pc_view_table(v, &t, z->title);
	}
	pc_table_free(&t);
	return 0;
oom:
	pc_table_free(&t);
	return -1;
}

static int contended_table(struct pc_view *v, json_t *probes)
{
	static const struct pc_table_col cols[] = {
		{ NULL, "threads", 7, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL, NULL, NULL },
		{ "cycles per pair", "median", 9,
		  PC_CELL_CYCLES, 0, 0, NULL, NULL, NULL, NULL },
		{ "cycles per pair", "q1", 8,
		  PC_CELL_CYCLES, 0, 0, "", NULL, NULL, NULL },
		{ "cycles per pair", "q3", 8,
		  PC_CELL_CYCLES, 0, 0, "", NULL, NULL, NULL },
	};
	json_t *points = json_object_get(json_object_get(probes, PC_KERNEL_CONTENDED), "points");
	struct pc_table t;
	size_t i;
	json_t *pt;
	long row;
	int rc = 0;

	if (!json_array_size(points))
		return 0;
	if (pc_table_init(&t, "  ", cols, 4) < 0)
		return -1;
	t.no_group_line = false;
	json_array_foreach(points, i, pt) {
		if ((row = pc_table_row(&t)) < 0 || fill(&t, (size_t)row, 1, pt, 3) < 0) {
			rc = -1;
			break;
		}
		pc_table_at(&t, (size_t)row, 0)->v =
			(double)json_integer_value(json_object_get(pt, "threads"));
	}
	if (rc == 0) {
		pc_view_printf(v, "\n");
		pc_view_wrap(v, "", PC_KERNEL_CONTENDED ": spin_lock and spin_unlock, cycles "
			     "per pair per thread; kernel threads bound to CPUs 0, 1, ..., in "
			     "windows of " PC_STRINGIFY_KERNEL(PC_KERNEL_WINDOW_US) " us", 2);
		pc_view_table(v, &t, PC_KERNEL_CONTENDED);
	}
	pc_table_free(&t);
	return rc;
}

/* The kernel as the module saw it, and a run's unreliable marking. */
static void heading(struct pc_view *v, json_t *entry, const char *key)
{
	json_t *runs = json_object_get(entry, "runs"), *run, *k, *a, *opt;
	size_t i, j;
	char line[600];
	int at;

	pc_view_printf(v, "%s\n", pc_entry_brand(entry, key));
	json_array_foreach(runs, i, run) {
		if (!(k = json_object_get(run, "kernel_config")))
			continue;
		snprintf(line, sizeof(line), "the running kernel %s: preemption %s%s, %s, "
			 "spin lock %s",
			 json_string_value(json_object_get(k, "release")) ? : "?",
			 json_string_value(json_object_get(k, "preempt")) ? : "?",
			 json_is_true(json_object_get(json_object_get(k, "config"),
						      "preempt_dynamic")) ? " (dynamic)" : "",
			 json_is_true(json_object_get(json_object_get(k, "config"),
						      "paravirt")) ? "paravirt" : "no paravirt",
			 json_string_value(json_object_get(k, "spinlock")) ? : "?");
		pc_view_wrap(v, "", line, 2);
		a = json_object_get(k, "inflating");
		at = snprintf(line, sizeof(line), "options that inflate figures:%s",
			      json_array_size(a) ? "" : " none");
		json_array_foreach(a, j, opt)
			if (at > 0 && (size_t)at < sizeof(line))
				at += snprintf(line + at, sizeof(line) - (size_t)at, "%s %s",
					       j ? "," : "", json_string_value(opt) ? : "?");
		pc_view_wrap(v, "", line, 2);
		if (pc_run_unreliable(run)) {
			snprintf(line, sizeof(line), "marked unreliable: %s",
				 pc_run_unreliable(run));
			pc_view_wrap(v, "", line, 2);
		}
	}
	pc_view_printf(v, "\n");
}

enum { K_CPU, K_PROBE, K_SIZE, K_THREADS, K_STATUS, K_MED, K_Q1, K_Q3, K_COLS };

/* A row or point of the CSV. */
static int csv_row(struct pc_table *t, const char *key, const char *name, json_t *p)
{
	static const char *const stats[] = { "median", "q1", "q3" };
	json_t *v;
	long r = pc_table_row(t);
	unsigned k;

	if (r < 0 || pc_table_text(t, (size_t)r, K_CPU, "%s", key) < 0 ||
	    pc_table_text(t, (size_t)r, K_PROBE, "%s", name) < 0 ||
	    pc_table_text(t, (size_t)r, K_STATUS, "%s", json_string_value(
			  json_object_get(p, "status")) ? : "") < 0)
		return -1;
	if ((v = json_object_get(p, "size")))
		pc_table_at(t, (size_t)r, K_SIZE)->v = (double)json_integer_value(v);
	if ((v = json_object_get(p, "threads")))
		pc_table_at(t, (size_t)r, K_THREADS)->v = (double)json_integer_value(v);
	for (k = 0; figured(p) && k < 3; k++)
		pc_table_at(t, (size_t)r, K_MED + k)->v = stat_of(p, stats[k]);
	/* a point without a figure: the word for none in every field of one */
	for (k = 0; !figured(p) && k < 3; k++)
		if (pc_table_text(t, (size_t)r, K_MED + k, PC_NO_VALUE) < 0)
			return -1;
	return 0;
}

/* A line a row or point of the kernel group, every CPU. */
static int csv_table(struct pc_table *t, json_t *doc)
{
#define K_WORDS(h) { .head = h, .style = PC_CELL_FIXED, .flags = PC_COL_LEFT }
#define K_FIGURE(h) { .head = h, .style = PC_CELL_GENERAL, .digits = 7 }
	static const struct pc_table_col cols[K_COLS] = {
		[K_CPU] = K_WORDS("cpu"), [K_PROBE] = K_WORDS("probe"),
		[K_SIZE] = { .head = "size", .style = PC_CELL_FIXED },
		[K_THREADS] = { .head = "threads", .style = PC_CELL_FIXED },
		[K_STATUS] = K_WORDS("status"), [K_MED] = K_FIGURE("cycles_median"),
		[K_Q1] = K_FIGURE("cycles_q1"), [K_Q3] = K_FIGURE("cycles_q3"),
	};
#undef K_WORDS
#undef K_FIGURE
	json_t *entry, *p, *pt;
	const char *key, *name;
	size_t i;

	if (pc_table_init(t, ",", cols, K_COLS) < 0)
		return -1;
	t->none = "";	/* a row has no size, a point no threads */
	json_object_foreach(json_object_get(doc, "cpus"), key, entry)
		json_object_foreach(json_object_get(entry, "probes"), name, p) {
			if (strncmp(name, "kernel.", 7) != 0)
				continue;
			if (!json_object_get(p, "points") && csv_row(t, key, name, p) < 0)
				return -1;
			json_array_foreach(json_object_get(p, "points"), i, pt)
				if (csv_row(t, key, name, pt) < 0)
					return -1;
		}
	return 0;
}

int pc_kernel_show(struct pc_view *v, json_t *doc)
{
	static const char *const remote_rows[2] = { "kernel.kmalloc.remote",
						     "kernel.kfree.remote" };
	json_t *entry, *probes;
	const char *key;
	struct pc_table t;
	size_t k;
	int rc;

	if (v->fmt == PC_FORMAT_CSV) {
		rc = csv_table(&t, doc);
		if (rc == 0)
			pc_table_draw_csv(v->f, &t, true);
		pc_table_free(&t);
		return rc;
	}
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		probes = json_object_get(entry, "probes");
		heading(v, entry, key);
		if (entries_table(v, probes) < 0)
			return -1;
		for (k = 0; k < sizeof(sizes_tables) / sizeof(sizes_tables[0]); k++)
			if (sizes_table(v, probes, &sizes_tables[k]) < 0)
				return -1;
		if (pc_alloc_remote_view(v, entry, key, false, remote_rows, "kernel.kmalloc.remote "
					 "and kernel.kfree.remote: objects kmalloc()ed on one CPU by "
					 "a kernel thread bound there and kfree()d on another (SLUB's "
					 "remote free path), handed over in batches of 80 through a "
					 "ring that is not timed: cycles per call at each end (median "
					 "of the samples; the p99 of single calls is the allocator "
					 "group's, in user space)") < 0 ||
		    contended_table(v, probes) < 0)
			return -1;
	}
	return 0;
}

/* ---- list: the rows ------------------------------------------------------------------ */

/* Why this machine cannot run them, or NULL where it can: the module is
 * x86-64 only, and a kernel without modules cannot load it (elsewhere run
 * loads it, as root, and says why where it cannot). */
static const char *unavailable(void)
{
#if defined(__x86_64__)
	if (access(PC_KMOD_DEVICE, F_OK) == 0 || access("/proc/modules", F_OK) == 0)
		return NULL;
	return "this kernel has no module support (no /proc/modules): the primcost_ring0 "
	       "module cannot be loaded here";
#else
	return "the primcost_ring0 module is x86-64 only";
#endif
}

const struct pc_point_row *pc_kernel_point_rows(size_t *n)
{
	static const char sel[] = "run --kernel, or -p 'kernel.*'";
	static const char method[] = "the running kernel's own function or inline helper, "
		"compiled from its headers into the primcost_ring0 module and called there: "
		"loops of 80 and 16 copies timed by the module, self-checked in the kernel, "
		"cycles per operation from the engine's two loop lengths, samples and rounds";
	static struct pc_point_row rows[PC_KE_COUNT + 1];
	const char *why = unavailable(), *avail = why ? "unsupported" : "ok";
	int e;

	static const char batch[] = "the 2007 pattern: " PC_STRINGIFY_KERNEL(PC_KERNEL_BATCH)
		" kmalloc()s of the size in the primcost_ring0 module, then their kfree()s, "
		"each pass timed as a whole, preemptible, as the 2007 module ran them; the "
		"mean per call of a batch is a sample, cycles by the run's calibration";

	for (e = 0; e < PC_KE_COUNT; e++)
		rows[e] = (struct pc_point_row){ pc_kernel_row_names[e], "kernel",
						 pc_kernel_entry_whats[e],
						 PC_KE_BATCH(e) ? batch : method, sel, avail,
						 true, why };
	rows[e] = (struct pc_point_row){ PC_KERNEL_CONTENDED, "kernel",
		"spin_lock() and spin_unlock() contended, by kernel threads on CPUs 0, 1, ...",
		"windows of " PC_STRINGIFY_KERNEL(PC_KERNEL_WINDOW_US) " us on kernel threads "
		"bound to CPUs 0 .. threads-1 (1, 2, 4, ... up to the CPUs online), a "
		"counter in the lock's line checked against the pairs; cycles per pair per "
		"thread", sel, avail, true, why };
	*n = PC_KE_COUNT + 1;
	return rows;
}
