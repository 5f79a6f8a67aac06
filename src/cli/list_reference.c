/* SPDX-License-Identifier: MIT */
/* list_reference.c - primcost list --reference: the published tables. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "core/primcost.h"
#include "core/util.h"
#include "results/results.h"

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

enum { R_NAME, R_FILE, R_KEY, R_DATE, R_PROBES, R_BRAND, R_SOURCE, R_COLS };

/* The columns: the table's name, its date, its probes and the CPU's brand
 * in a row's line (the brand's words wrapped within the rest of the width,
 * or under the row where that is too narrow), each run's source under it
 * (-v); the file and the model key in CSV and JSON only. */
static int reference_table(struct pc_table *t, int verbose)
{
	static const struct pc_table_col cols[R_COLS] = {
		[R_NAME] = { .head = "reference", .width = 32, .flags = PC_COL_LEFT },
		[R_FILE] = { .head = "file", .flags = PC_COL_LEFT | PC_COL_DATA },
		[R_KEY] = { .head = "cpu", .flags = PC_COL_LEFT | PC_COL_DATA },
		[R_DATE] = { .head = "date", .width = 12, .flags = PC_COL_LEFT, .gap = " " },
		[R_PROBES] = { .head = "probes", .width = 6, .style = PC_CELL_FIXED, .gap = " " },
		[R_BRAND] = { .head = "cpu", .key = "brand", .wide_head = "brand",
			      .flags = PC_COL_LEFT | PC_COL_WRAP | PC_COL_FLOW, .gap = "  " },
		[R_SOURCE] = { .head = "source", .under = "source:",
			       .flags = PC_COL_LEFT | PC_COL_UNDER },
	};

	if (pc_table_init(t, " ", cols, R_COLS) < 0)
		return -1;
	t->none = "";
	t->under_indent = 4;
	if (!verbose)
		t->cols[R_SOURCE].flags |= PC_COL_DATA;
	return 0;
}

/* One CPU of one reference table, a row: its runs' sources one a line. */
static int reference_row(struct pc_table *t, const char *name, const char *path,
			 const char *key, json_t *e, enum pc_format fmt)
{
	json_t *runs = json_object_get(e, "runs"), *run = json_array_get(runs, 0);
	const char *brand = json_string_value(json_object_get(json_object_get(e, "cpu"),
							      "brand"));
	const char *date = json_string_value(json_object_get(run, "date"));
	const char *summary;
	char *sources = NULL, *more;
	long r = pc_table_row(t);
	size_t k;
	int rc = 0;

	if (r < 0)
		return -1;
	pc_table_at(t, (size_t)r, R_PROBES)->v =
		(double)json_object_size(json_object_get(e, "probes"));
	/* the text view shows names as they are safe to show; the data views
	 * give them whole */
	if (pc_table_text(t, (size_t)r, R_NAME, "%s", fmt == PC_FORMAT_TABLE ? pc_shown(name) :
			  name) < 0 ||
	    pc_table_text(t, (size_t)r, R_FILE, "%s", path) < 0 ||
	    pc_table_text(t, (size_t)r, R_KEY, "%s", key) < 0 ||
	    pc_table_text(t, (size_t)r, R_DATE, "%s", date ? date : "") < 0)
		return -1;
	if (fmt == PC_FORMAT_TABLE)
		rc = pc_table_text(t, (size_t)r, R_BRAND, "%s", pc_shown(brand ? brand : key));
	else if (brand)
		rc = pc_table_text(t, (size_t)r, R_BRAND, "%s", brand);
	for (k = 0; rc == 0 && k < json_array_size(runs); k++) {
		summary = json_string_value(json_object_get(json_object_get(
			json_array_get(runs, k), "provenance"), "summary"));
		if (!summary || (fmt != PC_FORMAT_TABLE && k))
			continue;	/* the data views: the first run's */
		if (asprintf(&more, "%s%s%s", sources ? sources : "", sources ? "\n" : "",
			     summary) < 0) {
			rc = -1;
			break;
		}
		free(sources);
		sources = more;
	}
	if (rc == 0 && sources)
		rc = pc_table_text(t, (size_t)r, R_SOURCE, "%s", sources);
	free(sources);
	return rc;
}

/* The published tables installed with primcost (pc_reference_dir()),
 * each validated as it is read. */
int pc_list_reference(const char *pattern, enum pc_format fmt, int verbose)
{
	char where[PC_ERRLEN];
	const char *dir = pc_reference_dir(where, sizeof(where));
	struct dirent **names;
	struct pc_table t;
	int n, i, rc = PC_EXIT_OK;

	if (!dir) {
		pc_error("list", "%s", where);
		return PC_EXIT_USAGE;
	}
	n = scandir(dir, &names, json_name, alphasort);
	if (n < 0) {
		pc_error("list", "reference tables: %s: %s", dir, strerror(errno));
		return PC_EXIT_USAGE;
	}
	if (reference_table(&t, verbose) < 0)
		rc = PC_EXIT_USAGE;
	for (i = 0; rc == PC_EXIT_OK && i < n; i++) {
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
			if (reference_row(&t, name, path, key, e, fmt) < 0)
				rc = PC_EXIT_USAGE;
		json_decref(doc);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc == PC_EXIT_OK)
		pc_table_draw(stdout, &t, fmt);
	pc_table_free(&t);
	return rc;
}
