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
		pc_list_fit(55, "%-32s %-12s %6zu  %s", pc_shown(name), pc_shown(date), np,
		    pc_shown(brand ? brand : key));
		for (k = 0; verbose && k < json_array_size(runs); k++)
			pc_list_fit(33, "%32s %s", "", json_string_value(json_object_get(
				json_object_get(json_array_get(runs, k), "provenance"),
				"summary")));
		return;
	}
	r = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:I, s:s?}", "reference", name,
		      "file", path, "cpu", key, "brand", brand, "date", date,
		      "probes", (json_int_t)np, "source", summary);
	if (fmt == 1) {
		pc_list_csv_line(r, keys);
		json_decref(r);
	} else {
		json_array_append_new(arr, r);
	}
}

/* The published tables installed with primcost (pc_reference_dir()),
 * each validated as it is read. */
int pc_list_reference(const char *pattern, int fmt, int verbose)
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

