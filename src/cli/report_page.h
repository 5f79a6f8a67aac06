/* SPDX-License-Identifier: MIT */
/*
 * report_page.h - what the files of primcost report's page share
 * (report_html.c: the page, its CPUs and notes; report_summary.c: the
 * answers and the overview matrix; report_chart.c: the charts and their
 * tables; report_heatmap.c: the pairs of CPUs as heat maps;
 * report_calls.c: the distributions of single calls): the page's numbered
 * notes, each CPU's style, the scales of the charts, the points of series
 * and of pairs, the lines of series.
 */
#ifndef PC_REPORT_PAGE_H
#define PC_REPORT_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "report_html.h"
#include "results/compare.h"
#include "results/group.h"

/* A note of the page. Reasons that differ only in their numbers are one
 * note ("scaled the difference by 2.24 to 2.69"): the text keeps a \1 where
 * each number was, and each number its smallest and largest value. */
struct pc_page_note {
	bool merge;		/* its numbers may be ranges */
	char *shape;
	size_t nnum;
	double *lo, *hi;
	char (*lo_text)[24], (*hi_text)[24];
};

struct pc_page {
	const struct pc_compare *m;
	const struct pc_report_html_opts *o;
	struct pc_footnotes raw;	/* the cells' reasons, as compare words them */
	size_t nnotes;
	struct pc_page_note *note;
	size_t nfigures;		/* charts drawn: their ids */
};

/* The number of the page's note of text (added when new): merge, a reason
 * whose numbers may be given as ranges; else only the same text is the same
 * note. -1 when memory runs out. */
int pc_page_note(struct pc_page *pg, const char *text, bool merge);
/* The note a cell carries (its status and reason), 0 for none. */
int pc_page_cell_note(struct pc_page *pg, const struct pc_cmp_cell *c);
/* "<sup><a href="#note-N">[N]</a></sup>", nothing for k <= 0. */
void pc_page_note_ref(FILE *f, int k);

/* Each CPU's style, the same in every chart and key: a colour, a marker
 * shape, and that shape as a character for the text. Twelve of each, told
 * apart without colour; a thirteenth CPU takes the first's again (its
 * letter tells it apart). */
#define PC_PAGE_STYLES 12
const char *pc_page_colour(size_t side);
const char *pc_page_glyph(size_t side);
/* The marker of side at (x, y), its tooltip text tip (escaped here). */
void pc_page_marker(FILE *f, size_t side, double x, double y, const char *tip);
/* The dash pattern of a series in its panel (SVG's stroke-dasharray, ""
 * solid), eight of them. */
const char *pc_page_dash(size_t k);
/* The CPU's name in a sentence: its brand, else its model key. */
const char *pc_page_cpu_name(const struct pc_cmp_side *s);
/* A unit besides the page's in which side s measured probe ("ns"), or
 * NULL. */
const char *pc_page_other_unit(const struct pc_page *pg, const struct pc_cmp_side *s,
			       const char *probe);

/* A table's cell of a figure: the median and MAD (a published point has
 * no spread), marked (noisy, not linear: pc_page_table_marks) when so;
 * else the probe's status, or nothing. -1 when out of memory. */
struct pc_table;
int pc_page_figure_cell(struct pc_table *t, size_t r, size_t col,
			const struct pc_cmp_cell *c);
void pc_page_table_marks(struct pc_table *t);
/* Table t of class cls (or NULL) in a box of its own that scrolls sideways
 * where the table is wider than the page: the page never is. */
void pc_page_table_draw(FILE *f, const struct pc_table *t, const char *cls);

/* The page's width (80em), what a row of charts fits. */
#define PC_PAGE_W 1120

/* A chart's axis (report_chart.c): linear from 0 in steps of 1, 2 or 5 x
 * 10^k, or logarithmic between powers of ten. */
struct pc_page_scale {
	bool log;
	double lo, hi;		/* the axis's ends */
	double step;		/* linear: between ticks */
	int decimals;		/* linear: the ticks' */
};

/* The axis for figures from lo (the smallest at or above compare's floor,
 * INFINITY for none: a log scale needs a positive minimum) to hi: log
 * where they span a factor of 100 or more. */
void pc_page_scale_fit(struct pc_page_scale *s, double lo, double hi);
/* A log axis from the power of ten at or below lo (> 0) to the one at or
 * above hi, a decade at least. */
void pc_page_scale_log(struct pc_page_scale *s, double lo, double hi);
/* Where v is along the axis, 0..1 (a log axis's start for v at or below
 * it). */
double pc_page_at(const struct pc_page_scale *s, double v);
/* The k-th tick, or NAN past the last. */
double pc_page_tick(const struct pc_page_scale *s, int k);
/* A tick's words: decimals from the step (log: from the power); a log
 * scale's thousands as k and millions as M, so that a tick is short. */
const char *pc_page_tick_text(const struct pc_page_scale *s, double t, char *buf,
			      size_t len);

/* Whether probe is a point of a series, as a group's point shape ends its
 * name (group.h: NAME.threadsN, or NAME.N for an allocator's size): its
 * series name, its shape (the x axis) and x. */
bool pc_page_point(const char *probe, char *series, size_t len,
		   const struct pc_point_shape **shape, double *x);

/* Whether row r of t is a point of a pair of CPUs (placement "pair",
 * c2c.latency.cpus0,1 in any side's entry): its two CPUs into a and b
 * (either may be NULL). */
bool pc_page_pair(const struct pc_cmp_table *t, size_t r, unsigned *a, unsigned *b);
/* The heat maps of the pairs among rows: for each probe measured at pairs,
 * a CPU x CPU grid for each side that has figures of it. -1 when memory
 * runs out. */
int pc_page_heat_maps(FILE *f, struct pc_page *pg, const struct pc_cmp_table *t,
		      const size_t *rows, size_t n);

/* A CPU's line through a series' points (a group's lines, report_chart.c),
 * for the charts of their single calls. */
struct pc_page_line {
	size_t side;		/* the CPU */
	const char *series;	/* "alloc.malloc.glibc" */
	const char *label;	/* what tells it apart in its panel: "glibc" */
	size_t panel;
	size_t n;
	const size_t *row;	/* its points' rows, x ascending */
	const double *x;
};

/* A group's lines in panels: those of the rows of table c of the model
 * with single calls. */
struct pc_page_lines {
	const struct pc_cmp_table *t;
	size_t c;
	const char *group;	/* "alloc" */
	const char *xword;	/* what x is: "size" */
	size_t nlines;
	const struct pc_page_line *line;	/* in the panels' order */
	size_t npanels;
	const char *const *panel;	/* their titles: "alloc.malloc.*" */
	const double *xs;	/* the distinct x, ascending */
	size_t nx;
};

/* The single calls of side i at row r of t (a point's "latency": its
 * percentiles and histogram, in cycles), or NULL. */
json_t *pc_page_calls(const struct pc_cmp_table *t, size_t r, size_t i);
/* The distributions of single calls of the lines (report_calls.c): a
 * heading, a chart per x (size) and panel of the cumulative distribution,
 * a key, a caption, and the percentiles in tables. -1 when memory runs
 * out. */
int pc_page_calls_figure(FILE *f, struct pc_page *pg, const struct pc_page_lines *ls);

/* The page's sections; -1 when memory runs out. */
int pc_page_summary(FILE *f, struct pc_page *pg);
int pc_page_charts(FILE *f, struct pc_page *pg);

#endif
