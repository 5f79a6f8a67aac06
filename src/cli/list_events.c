/* SPDX-License-Identifier: MIT */
/* list_events.c - primcost list --events: the events libpfm4 offers here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "core/events.h"
#include "core/primcost.h"
#include "core/util.h"

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

int pc_list_events(const char *pattern, int verbose, int fmt)
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
			pc_list_csv_line(o, keys);
	} else {
		printf("%-44s %-4s  %s\n", "event", "here", "description");
		json_array_foreach(rows.arr, i, o) {
			const char *eq = json_string_value(json_object_get(o, "same_as"));
			json_t *attrs = json_object_get(o, "attributes"), *at;

			pc_list_fit(51, "%-44s %-4s  %s%s", json_string_value(json_object_get(o, "name")),
			    json_is_true(json_object_get(o, "counts_here")) ? "yes" : "no",
			    eq ? "same as " : "", eq ? eq : one_line(json_string_value(
				json_object_get(o, "description")), verbose ? 0 : 72, d, sizeof(d)));
			json_array_foreach(attrs, j, at)
				pc_list_fit(51, "%46s:%s%s  %s", "", json_string_value(json_object_get(at, "name")),
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
			pc_list_fit(n, "%s%s", d, why);
		}
	}
	json_decref(rows.arr);
	json_decref(reasons);
	return PC_EXIT_OK;
}

