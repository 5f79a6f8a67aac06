/* SPDX-License-Identifier: MIT */
/* list_events.c - primcost list --events: the events libpfm4 offers here. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "core/events.h"
#include "core/primcost.h"
#include "core/util.h"

enum { E_NAME, E_KIND, E_HERE, E_SAME, E_DESC, E_REASON, E_ATTRS, E_COLS };

struct event_rows {
	struct pc_table t;
	int verbose;
	bool text;		/* the text view: descriptions on one line */
	int rc;
};

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

/* An event's unit masks and modifiers (-v): a list in JSON, a line each in
 * the text view. */
static int attributes(struct event_rows *rows, size_t r, const struct pc_event_info *info)
{
	json_t *attrs = json_array();
	char *lines = NULL, *more, d[4096];
	int a;

	for (a = 0; attrs && a < info->nattrs; a++) {
		struct pc_event_attr at;

		if (pc_event_attr_get(info->idx, a, &at) < 0)
			continue;
		json_array_append_new(attrs, json_pack("{s:s, s:s, s:s, s:b}", "name", at.name,
						       "kind", at.umask ? "unit mask" : "modifier",
						       "description", at.desc, "default", at.dfl));
		if (asprintf(&more, "%s%s:%s%s  %s", lines ? lines : "", lines ? "\n" : "",
			     at.name, at.dfl ? " (default)" : "",
			     one_line(at.desc, 0, d, sizeof(d))) < 0)
			break;
		free(lines);
		lines = more;
	}
	if (pc_table_json(&rows->t, r, E_ATTRS, attrs) < 0 ||
	    (lines && pc_table_text(&rows->t, r, E_ATTRS, "%s", lines) < 0)) {
		free(lines);
		return -1;
	}
	free(lines);
	return 0;
}

static void add_event(const struct pc_event_info *info, void *ctx)
{
	struct event_rows *rows = ctx;
	struct pc_table *t = &rows->t;
	long r = pc_table_row(t);
	char d[4096], same[512];

	if (r < 0 || rows->rc < 0) {
		rows->rc = -1;
		return;
	}
	if (pc_table_text(t, (size_t)r, E_NAME, "%s", info->name) < 0 ||
	    pc_table_text(t, (size_t)r, E_KIND, "%s", info->hardware ? "hardware" :
			  "software") < 0 ||
	    pc_table_text(t, (size_t)r, E_HERE, "%s", info->counts ? "yes" : "no") < 0 ||
	    pc_table_json(t, (size_t)r, E_HERE, json_boolean(info->counts)) < 0 ||
	    (info->equiv && pc_table_text(t, (size_t)r, E_SAME, "%s", info->equiv) < 0) ||
	    pc_table_text(t, (size_t)r, E_DESC, "%s", !rows->text ? info->desc :
			  info->equiv ? (snprintf(same, sizeof(same), "same as %s",
						  info->equiv), same) :
			  one_line(info->desc, rows->verbose ? 0 : 72, d, sizeof(d))) < 0 ||
	    (!info->counts && pc_table_text(t, (size_t)r, E_REASON, "%s", info->why) < 0) ||
	    (rows->verbose && attributes(rows, (size_t)r, info) < 0))
		rows->rc = -1;
	/* the text view: why an event does not count, once, as a footnote */
	if (rows->text && !info->counts)
		pc_table_at(t, (size_t)r, E_HERE)->note = pc_table_note(t, info->why);
}

/* The columns: the event, whether it counts here (the reason why not a
 * footnote) and what it counts (the event it is the same as, else its
 * description) in a line, or that under it where the line is too narrow;
 * the unit masks and modifiers under it (-v). */
static int events_table(struct pc_table *t, bool text, int verbose)
{
	static const struct pc_table_col cols[E_COLS] = {
		[E_NAME] = { .head = "event", .key = "name", .width = 44,
			     .flags = PC_COL_LEFT | PC_COL_ALONE },
		[E_KIND] = { .head = "kind", .flags = PC_COL_LEFT | PC_COL_DATA },
		[E_HERE] = { .head = "here", .key = "counts_here", .wide_head = "counts_here",
			     .width = 7, .flags = PC_COL_LEFT, .gap = " " },
		[E_SAME] = { .head = "same_as", .flags = PC_COL_LEFT | PC_COL_DATA },
		[E_DESC] = { .head = "description", .flags = PC_COL_LEFT | PC_COL_FLOW,
			     .gap = " " },
		[E_REASON] = { .head = "reason", .flags = PC_COL_LEFT | PC_COL_DATA },
		[E_ATTRS] = { .head = "attributes", .flags = PC_COL_LEFT | PC_COL_UNDER },
	};

	if (pc_table_init(t, " ", cols, E_COLS) < 0)
		return -1;
	t->none = "";
	t->under_indent = 4;
	if (text && !verbose)
		t->cols[E_ATTRS].flags |= PC_COL_DATA;
	return 0;
}

int pc_list_events(const char *pattern, int verbose, enum pc_format fmt)
{
	struct event_rows rows = { .verbose = verbose, .text = fmt == PC_FORMAT_TABLE };
	char err[PC_ERRLEN];
	int n;

	if (events_table(&rows.t, rows.text, verbose) < 0)
		return PC_EXIT_USAGE;
	n = pc_events_list(pattern, add_event, &rows, err, sizeof(err));
	if (n < 0 || (pattern && n == 0) || rows.rc < 0) {
		if (n < 0)
			pc_error("list", "%s", err);
		else if (rows.rc < 0)
			pc_error("list", "out of memory");
		else
			pc_error("list", "no event matches '%s' (see primcost list "
				 "--events)", pattern);
		pc_table_free(&rows.t);
		return PC_EXIT_USAGE;
	}
	pc_table_draw(stdout, &rows.t, fmt);
	pc_table_free(&rows.t);
	return PC_EXIT_OK;
}
