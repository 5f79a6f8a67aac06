/* SPDX-License-Identifier: MIT */
/* report.h - rendering result documents for people. */
#ifndef PC_REPORT_H
#define PC_REPORT_H

#include "results.h"
#include "table.h"

/* The words of every text view (table, markdown; CSV leaves a
 * number's field empty) for a figure that is not there, and for
 * the spread next to a median. */
#define PC_NO_VALUE "-"
#define PC_MAD_LABEL "\xc2\xb1MAD"
/* How samples.c words a nonlinear figure's reason; a view whose word for
 * the status already says it ("nonlinear") leaves this lead out. */
#define PC_NOT_LINEAR_LEAD "not linear: "

/* Renders every CPU of doc. */
int pc_report(FILE *f, json_t *doc, enum pc_format fmt);
/* The same; verbose adds per-probe detail (discarded samples) to the table. */
int pc_report_verbose(FILE *f, json_t *doc, enum pc_format fmt, bool verbose);
/* The line that ends a run's view when its host was slower (host_slower:
 * primcost(1), HOST PACE): for each CPU of doc, of its newest run; a
 * paragraph in markdown, nothing in CSV or JSON. */
void pc_report_host(FILE *f, json_t *doc, enum pc_format fmt);
/* What a table calls the CPU of entry (filed under key): its brand, else
 * the key. */
const char *pc_entry_brand(json_t *entry, const char *key);

/* A row of a group measured at points (the contended group, the allocator
 * group), as list shows it next to the probe table's rows. */
struct pc_point_row {
	const char *name;		/* "lock.ticket" */
	const char *group;		/* as the result file's "group" */
	const char *what;		/* one line: what it times */
	const char *method;		/* how (list -v) */
	const char *selected_by;	/* the run options that measure it */
	const char *availability;	/* "ok" or "unsupported" (note says why) */
	bool ring0;			/* runs in the kernel (ring 0), not 3 */
	const char *note;		/* why it is unsupported here, or NULL */
};

#endif
