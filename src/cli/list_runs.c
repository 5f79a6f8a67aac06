/* SPDX-License-Identifier: MIT */
/* list_runs.c - primcost list --runs FILE: the history a result file keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "list.h"
#include "core/primcost.h"
#include "core/util.h"
#include "results/results.h"

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
			 "s:b, s:I, s:I}",
			 "cpu", key, "run", (json_int_t)k, "date", run_str(run, "date"),
			 "host", run_str(run, "host"), "kernel", run_str(run, "kernel"),
			 "primcost_version", run_str(run, "primcost_version"),
			 "measured", (json_int_t)c.measured,
			 "not_measured", (json_int_t)c.unmeasured,
			 "current", (json_int_t)c.current,
			 "partial", json_is_true(json_object_get(run, "partial")),
			 "interrupted_by", run_str(run, "interrupted_by"),
			 "unreliable", json_is_true(json_object_get(run, "unreliable")),
			 "host_slower", json_is_object(json_object_get(run, "host_slower")),
			 "noisy", (json_int_t)c.noisy, "nonlinear", (json_int_t)c.nonlinear);
}

/* The width of a row of --runs with every column on it. */
#define RUNS_WIDE 111

static void print_run_row(json_t *r, int fmt)
{
	static const char *const keys[] = { "cpu", "run", "date", "host", "kernel",
					    "primcost_version", "measured", "not_measured",
					    "current", "partial", "unreliable", "host_slower",
					    "noisy", "nonlinear", NULL };
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
	int wide = pc_term_width() >= RUNS_WIDE, narrow;
	char flags[256], when[32], where[3 * 4 * PATH_MAX];

	if (fmt == 1) {
		pc_list_csv_line(r, keys);
		return;
	}
	/* The table shows the date to the second (the run number orders runs
	 * of one second); -f csv and json give it whole. Where the terminal
	 * is narrower than a row of every column, host, kernel and version go
	 * on a line of their own under the row. */
	snprintf(flags, sizeof(flags), "%s%s%s%s", json_is_true(json_object_get(r, "partial")) ?
		 "  partial " : "", json_string_value(json_object_get(r, "interrupted_by")),
		 json_is_true(json_object_get(r, "unreliable")) ? "  unreliable" : "",
		 json_is_true(json_object_get(r, "host_slower")) ? "  host slower" : "");
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
		pc_list_fit(RUNS_WIDE - 2, "  %4" JSON_INTEGER_FORMAT "  %-20s  %-16.16s  %-24.24s  "
		    "%-8.8s  %8" JSON_INTEGER_FORMAT "  %8" JSON_INTEGER_FORMAT "  %7"
		    JSON_INTEGER_FORMAT "%s", run, when, host, kernel, version, measured,
		    not_measured, current, flags);
		return;
	}
	/* flags that would not fit after the figures go on a line of their own */
	narrow = 55 + (int)strlen(flags) > pc_term_width();
	pc_list_fit(8, "  %4" JSON_INTEGER_FORMAT "  %-20s  %8" JSON_INTEGER_FORMAT "  %8"
	    JSON_INTEGER_FORMAT "  %7" JSON_INTEGER_FORMAT "%s", run, when, measured,
	    not_measured, current, narrow ? "" : flags);
	if (narrow)
		pc_list_fit(8, "        %s", flags + 2);
	snprintf(where, sizeof(where), "%s%s%s%s%s%s", *host ? "  host " : "", host,
		 *kernel ? "  kernel " : "", kernel, *version ? "  primcost " : "", version);
	if (*where)
		pc_list_fit(8, "      %s", where);
}

int pc_list_runs(const char *file, int fmt)
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
		       "current,partial,unreliable,host_slower,noisy,nonlinear\n");
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		const char *brand = json_string_value(json_object_get(
			json_object_get(entry, "cpu"), "brand"));

		if (fmt == 0) {
			if (json_array_size(arr))
				putchar('\n');
			pc_list_fit((int)strlen(pc_shown(key)) + 2, "%s%s%s", pc_shown(key),
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

