/* SPDX-License-Identifier: MIT */
/* list_runs.c - primcost list --runs FILE: the history a result file keeps. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "core/primcost.h"
#include "core/util.h"
#include "results/results.h"

enum { U_CPU, U_RUN, U_DATE, U_HOST, U_KERNEL, U_VERSION, U_MEASURED, U_NOT, U_CURRENT,
       U_PARTIAL, U_INTERRUPTED, U_UNRELIABLE, U_SLOWER, U_NOISY, U_NONLINEAR, U_FLAGS,
       U_COLS };

/* The columns: the run, its date to the second, where it ran (host, kernel,
 * primcost; under the row where the line is too narrow), what it measured,
 * and in the text view the words for what is not trustworthy in it; the
 * CPU and each flag in CSV and JSON. */
static int runs_table(struct pc_table *t, bool text)
{
#define U_FIGURE(h, k, w) { .head = h, .key = k, .wide_head = k, .width = w,		\
			    .style = PC_CELL_FIXED, .gap = "  " }
#define U_DATA(k, style_) { .head = k, .style = style_, .flags = PC_COL_LEFT | PC_COL_DATA }
	static const struct pc_table_col cols[U_COLS] = {
		[U_CPU] = U_DATA("cpu", PC_CELL_FIXED),
		[U_RUN] = { .head = "run", .width = 6, .style = PC_CELL_FIXED },
		[U_DATE] = { .head = "date", .width = 20, .flags = PC_COL_LEFT, .gap = "  " },
		[U_HOST] = { .head = "host", .under = "host", .flags = PC_COL_LEFT | PC_COL_FLOW,
			     .gap = "  " },
		[U_KERNEL] = { .head = "kernel", .under = "kernel",
			       .flags = PC_COL_LEFT | PC_COL_FLOW, .gap = "  " },
		[U_VERSION] = { .head = "version", .key = "primcost_version",
				.wide_head = "primcost_version", .under = "primcost",
				.flags = PC_COL_LEFT | PC_COL_FLOW, .gap = "  " },
		[U_MEASURED] = U_FIGURE("measured", "measured", 8),
		[U_NOT] = U_FIGURE("not-meas", "not_measured", 8),
		[U_CURRENT] = U_FIGURE("current", "current", 7),
		[U_PARTIAL] = U_DATA("partial", PC_CELL_FIXED),
		[U_INTERRUPTED] = U_DATA("interrupted_by", PC_CELL_FIXED),
		[U_UNRELIABLE] = U_DATA("unreliable", PC_CELL_FIXED),
		[U_SLOWER] = U_DATA("host_slower", PC_CELL_FIXED),
		[U_NOISY] = U_DATA("noisy", PC_CELL_FIXED),
		[U_NONLINEAR] = U_DATA("nonlinear", PC_CELL_FIXED),
		[U_FLAGS] = { .head = "", .flags = PC_COL_LEFT | PC_COL_FLOW, .gap = "  " },
	};
#undef U_FIGURE
#undef U_DATA

	if (pc_table_init(t, " ", cols, text ? U_COLS : U_FLAGS) < 0)
		return -1;
	t->none = "";
	t->under_indent = 8;
	return 0;
}

/* A flag of a run: its words in the text view's flags, true or false in
 * JSON, yes or no in CSV. */
static int flag(struct pc_table *t, size_t r, int c, bool on, const char *words, char *flags,
		size_t len)
{
	if (on && words && strlen(flags) + strlen(words) + 3 < len)
		snprintf(flags + strlen(flags), len - strlen(flags), "%s%s",
			 *flags ? "  " : "", words);
	if (pc_table_text(t, r, (size_t)c, "%s", on ? "yes" : "no") < 0)
		return -1;
	return pc_table_json(t, r, (size_t)c, json_boolean(on));
}

static const char *run_str(json_t *run, const char *k)
{
	const char *v = json_string_value(json_object_get(run, k));

	return v ? v : "";
}

/* One run of one CPU, a row. The text view shows the date to the second
 * (the run number orders runs of one second), the data views whole. */
static int run_row(struct pc_table *t, const char *key, json_t *entry, size_t k, bool text)
{
	json_t *run = json_array_get(json_object_get(entry, "runs"), k);
	const char *date = run_str(run, "date"), *sig = run_str(run, "interrupted_by");
	struct pc_run_counts c;
	char flags[256] = "", fig[64];
	long r = pc_table_row(t);
	size_t i;

	if (r < 0)
		return -1;
	pc_run_counts(entry, k, &c);
	pc_table_at(t, (size_t)r, U_RUN)->v = (double)k;
	pc_table_at(t, (size_t)r, U_MEASURED)->v = (double)c.measured;
	pc_table_at(t, (size_t)r, U_NOT)->v = (double)c.unmeasured;
	pc_table_at(t, (size_t)r, U_CURRENT)->v = (double)c.current;
	pc_table_at(t, (size_t)r, U_NOISY)->v = (double)c.noisy;
	pc_table_at(t, (size_t)r, U_NONLINEAR)->v = (double)c.nonlinear;
	if (pc_table_text(t, (size_t)r, U_CPU, "%s", key) < 0 ||
	    pc_table_text(t, (size_t)r, U_DATE, text && strlen(date) > 19 ? "%.19sZ" : "%s",
			  date) < 0 ||
	    pc_table_text(t, (size_t)r, U_INTERRUPTED, "%s", sig) < 0)
		return -1;
	for (i = 0; i < 3; i++) {
		static const char *const keys[] = { "host", "kernel", "primcost_version" };
		const char *v = run_str(run, keys[i]);

		if (*v && pc_table_text(t, (size_t)r, U_HOST + i, "%s",
					text ? pc_shown(v) : v) < 0)
			return -1;
	}
	if (flag(t, (size_t)r, U_PARTIAL, json_is_true(json_object_get(run, "partial")),
		 *sig ? NULL : "partial", flags, sizeof(flags)) < 0)
		return -1;
	if (*sig) {
		snprintf(fig, sizeof(fig), "partial %s", sig);
		flag(t, (size_t)r, U_PARTIAL, true, fig, flags, sizeof(flags));
	}
	if (flag(t, (size_t)r, U_UNRELIABLE, json_is_true(json_object_get(run, "unreliable")),
		 "unreliable", flags, sizeof(flags)) < 0 ||
	    flag(t, (size_t)r, U_SLOWER, json_is_object(json_object_get(run, "host_slower")),
		 "host slower", flags, sizeof(flags)) < 0)
		return -1;
	/* figures of the run that are measured but not trustworthy as they are */
	if (c.noisy)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%s%zu noisy",
			 *flags ? "  " : "", (size_t)c.noisy);
	if (c.nonlinear)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%s%zu nonlinear",
			 *flags ? "  " : "", (size_t)c.nonlinear);
	return text && *flags ? pc_table_text(t, (size_t)r, U_FLAGS, "%s", flags) : 0;
}

/* The text view: each CPU, its key and brand, then a table of its runs. */
static int runs_text(json_t *doc)
{
	json_t *entry;
	const char *key;
	bool first = true;
	int rc = 0;

	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		const char *brand = json_string_value(json_object_get(
			json_object_get(entry, "cpu"), "brand"));
		struct pc_table t;
		size_t k;
		char head[1024];

		if (runs_table(&t, true) < 0)
			return -1;
		for (k = 0; rc == 0 && k < json_array_size(json_object_get(entry, "runs")); k++)
			rc = run_row(&t, key, entry, k, true);
		if (rc == 0) {
			if (!first)
				putchar('\n');
			/* the key, then ": brand" wrapped under it */
			snprintf(head, sizeof(head), "%s%s", pc_shown(key), brand ? ":" : "");
			pc_text_wrap(stdout, head, brand ? pc_shown(brand) : "", 2, pc_table_fit());
			pc_table_draw_text(stdout, &t);
		}
		pc_table_free(&t);
		first = false;
	}
	return rc;
}

int pc_list_runs(const char *file, enum pc_format fmt)
{
	char err[PC_ERRLEN], path[4096];
	json_t *doc = pc_input_load(file, path, sizeof(path), err, sizeof(err));
	json_t *entry;
	const char *key;
	struct pc_table t;
	size_t k;
	int rc = 0;

	if (!doc) {
		pc_error("list", "%s", err);
		return PC_EXIT_USAGE;
	}
	if (fmt == PC_FORMAT_TABLE) {
		rc = runs_text(doc);
	} else if (runs_table(&t, false) < 0) {
		rc = -1;
	} else {
		json_object_foreach(json_object_get(doc, "cpus"), key, entry)
			for (k = 0; rc == 0 &&
			     k < json_array_size(json_object_get(entry, "runs")); k++)
				rc = run_row(&t, key, entry, k, false);
		if (rc == 0)
			pc_table_draw(stdout, &t, fmt);
		pc_table_free(&t);
	}
	json_decref(doc);
	if (rc < 0) {
		pc_error("list", "out of memory");
		return PC_EXIT_USAGE;
	}
	return PC_EXIT_OK;
}
