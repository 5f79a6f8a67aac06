/* SPDX-License-Identifier: MIT */
/*
 * report_html.h - the comparison model as one self-contained HTML page
 * (primcost report): inline SVG bar charts per probe group, each CPU's
 * identity and context, the answers, the comparison view, footnotes.
 */
#ifndef PC_REPORT_HTML_H
#define PC_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "results/compare.h"

struct pc_report_html_opts {
	bool comparison;	/* show ratios and verdicts against side A */
	const char *version;	/* primcost's, shown in the page */
};

/* Writes the page; -1 on a write error or when memory runs out. */
int pc_report_html(FILE *f, const struct pc_compare *m,
		   const struct pc_report_html_opts *o);
/* The text view's single calls (report_calls.c): for each table of the
 * model whose points have them, a row per point and a group per CPU of
 * their percentiles; nothing where none has them. -1 when memory runs
 * out. */
int pc_report_calls_text(struct pc_view *v, const struct pc_compare *m);

#endif
