/* SPDX-License-Identifier: MIT */
/*
 * report_calls.c - the single calls of a group's points (a point's
 * "latency": the allocator group's calls timed one by one, in cycles, the
 * timer's own cost subtracted) on primcost report's page (report_page.h)
 * and in its text view (report_html.h).
 *
 * On the page, each point's calls are drawn from its histogram as their
 * cumulative distribution: a chart per size and panel (the group's series
 * laid out as its lines are), a line per series and CPU (the CPU's colour,
 * the series' dash pattern), each line's p50 and p99 marked with the CPU's
 * marker, a key of the lines above the charts and a caption under them;
 * the points' percentiles follow in tables. The text view gives the
 * percentiles, a row per point. Nothing where no point has single calls.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"
#include "report_page.h"
#include "results/table.h"

json_t *pc_page_calls(const struct pc_cmp_table *t, size_t r, size_t i)
{
	json_t *p = json_object_get(json_object_get(t->side[i].entry, "probes"),
				    t->row[r].probe);
	json_t *l = json_object_get(p, "latency"), *h = json_object_get(l, "histogram");

	if (!json_array_size(json_object_get(h, "buckets")) ||
	    json_integer_value(json_object_get(h, "per_octave")) < 1)
		return NULL;
	return l;
}

static double figure_of(json_t *l, const char *key)
{
	json_t *v = json_object_get(l, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A figure of cycles as the result keeps it: a tenth under 100, whole
 * cycles above. */
static const char *cycles(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*f", v < 100 ? 1 : 0, v);
	return buf;
}

/* The percentiles the tables give (the result has max too). */
static const struct {
	const char *key;
	double at;		/* the fraction of calls */
} pcts[] = { { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p99.9", 0.999 } };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))
/* Those marked on each line of a chart, each a dashed line across it. */
#define MARKED_P50 0
#define MARKED_P99 2

/* ---- a point's distribution -------------------------------------------------- */

/* A point's distribution: (cycles, the fraction of its calls that took at
 * most so many) at the edges of its histogram's buckets, the calls of a
 * bucket spread evenly across it on the log scale; n 0 for none. */
struct cdf {
	size_t n;
	double (*pt)[2];
	double least;		/* the least edge above 0, or INFINITY */
};

static int by_edge(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The distribution of latency l into d: a bucket [lo, calls] ends where
 * the next begins (lo times 2^(1/per_octave); the first, from 0, at 1
 * cycle), the last at the slowest call where that is within it. -1 when
 * out of memory. */
static int cdf_make(struct cdf *d, json_t *l)
{
	json_t *h = json_object_get(l, "histogram"), *b = json_object_get(h, "buckets"), *v;
	double step = exp2(1.0 / (double)json_integer_value(json_object_get(h, "per_octave")));
	double (*bk)[2] = calloc(json_array_size(b) + 1, sizeof(*bk));
	double max = figure_of(l, "max"), total = 0, cum = 0, lo, calls, hi;
	size_t i, n = 0;

	d->n = 0;
	d->least = INFINITY;
	d->pt = calloc(2 * json_array_size(b) + 1, sizeof(*d->pt));
	if (!bk || !d->pt) {
		free(bk);
		return -1;
	}
	json_array_foreach(b, i, v) {
		lo = json_number_value(json_array_get(v, 0));
		calls = json_number_value(json_array_get(v, 1));
		if (!(lo >= 0) || !(calls > 0))
			continue;
		bk[n][0] = lo;
		bk[n++][1] = calls;
		total += calls;
	}
	qsort(bk, n, sizeof(*bk), by_edge);
	for (i = 0; i < n; i++) {
		hi = bk[i][0] > 0 ? bk[i][0] * step : 1;
		/* the edges are rounded: a bucket ends where the next begins */
		if (i + 1 < n && hi > bk[i + 1][0])
			hi = bk[i + 1][0];
		if (max >= bk[i][0] && max < hi)
			hi = max;
		d->pt[d->n][0] = bk[i][0];
		d->pt[d->n++][1] = cum / total;
		cum += bk[i][1];
		d->pt[d->n][0] = hi;
		d->pt[d->n++][1] = i + 1 == n ? 1 : cum / total;
		if (bk[i][0] > 0 && bk[i][0] < d->least)
			d->least = bk[i][0];
	}
	free(bk);
	return 0;
}

/* ---- a group's charts -------------------------------------------------------- */

/* A chart's geometry: its height, the margins about its plot (the y ticks
 * and title at the left, the names of the dashed lines at the right). */
#define CALLS_H 210
#define CALLS_L 48
#define CALLS_R 26
#define CALLS_T 24
#define CALLS_B 38
#define CALLS_CHAR 6.4		/* a character of a title, about */
#define KEY_ROW 16		/* a row of the key */
/* Most lines a table of percentiles takes, four columns each. */
#define TABLE_LINES 4

struct calls {
	const struct pc_page_lines *ls;
	struct cdf *d;			/* line k at x j: d[k * nx + j] */
	size_t *dash;			/* a line's dash pattern: its label's */
	struct pc_page_scale s;
	int w, pw, ph;
};

/* The row of line ln's point at x, or -1. */
static long point_row(const struct pc_page_line *ln, double x)
{
	size_t q;

	for (q = 0; q < ln->n; q++)
		if (ln->x[q] == x)
			return (long)ln->row[q];
	return -1;
}

/* The single calls of line k's point at the j-th x, or NULL. */
static json_t *line_calls(const struct pc_page_lines *ls, size_t k, size_t j)
{
	long r = point_row(&ls->line[k], ls->xs[j]);

	return r < 0 ? NULL : pc_page_calls(ls->t, (size_t)r, ls->line[k].side);
}

/* A line's name in the key: its CPU, then what tells it apart in its
 * panel ("A glibc"). */
static const char *line_name(const struct pc_page_line *ln, char *buf, size_t len)
{
	char l[PC_LABEL_LEN];

	snprintf(buf, len, "%s%s%s", pc_side_label(ln->side, l), *ln->label ? " " : "",
		 ln->label);
	return buf;
}

/* Each line's dash pattern: the n-th label of the lines the n-th (a
 * series' dash means the same in every chart of the figure). */
static void dashes(struct calls *cs)
{
	const struct pc_page_lines *ls = cs->ls;
	size_t k, q, n = 0;

	for (k = 0; k < ls->nlines; k++) {
		for (q = 0; q < k && strcmp(ls->line[q].label, ls->line[k].label) != 0; q++)
			;
		cs->dash[k] = q < k ? cs->dash[q] : n++;
	}
}

/* Where a point's distribution needs the axis to reach: its p99.9 (the
 * slowest call, max, may be a thousand times the others': a fault, a
 * preemption), else its last bucket's end. */
static double tail(json_t *l, const struct cdf *d)
{
	double p999 = figure_of(l, "p99.9");

	return p999 > 0 ? p999 : d->pt[d->n - 1][0];
}

/* The lines' distributions at every x, one log scale of cycles for all
 * (to the power of ten at or above the largest p99.9), each line's dash
 * pattern, each chart's size: three a row of the page where the panels
 * are three (a size a row), else four. -1 when out of memory. */
static int calls_init(struct calls *cs, const struct pc_page_lines *ls)
{
	double lo = INFINITY, hi = 0;
	size_t k, j, n = ls->nlines * ls->nx;
	json_t *l;

	memset(cs, 0, sizeof(*cs));
	cs->ls = ls;
	cs->d = calloc(n + 1, sizeof(*cs->d));
	cs->dash = calloc(ls->nlines + 1, sizeof(*cs->dash));
	if (!cs->d || !cs->dash)
		return -1;
	for (k = 0; k < ls->nlines; k++)
		for (j = 0; j < ls->nx; j++) {
			struct cdf *d = &cs->d[k * ls->nx + j];

			if (!(l = line_calls(ls, k, j)))
				continue;
			if (cdf_make(d, l) < 0)
				return -1;
			if (d->least < lo)
				lo = d->least;
			if (d->n && !(tail(l, d) <= hi))
				hi = tail(l, d);
		}
	/* every call under a cycle (0 once the timer's cost is subtracted):
	 * an axis from 1 */
	pc_page_scale_log(&cs->s, isfinite(lo) ? lo : 1, hi > 1 ? hi : 1);
	dashes(cs);
	cs->w = ls->npanels == 3 ? PC_PAGE_W / 3 - 8 : PC_PAGE_W / 4 - 8;
	cs->pw = cs->w - CALLS_L - CALLS_R;
	cs->ph = CALLS_H - CALLS_T - CALLS_B;
	return 0;
}

static void calls_free(struct calls *cs)
{
	size_t k, n = cs->ls ? cs->ls->nlines * cs->ls->nx : 0;

	for (k = 0; cs->d && k < n; k++)
		free(cs->d[k].pt);
	free(cs->d);
	free(cs->dash);
}

static double px(const struct calls *cs, double cycles)
{
	return CALLS_L + cs->pw * pc_page_at(&cs->s, cycles);
}

static double py(const struct calls *cs, double fraction)
{
	return CALLS_T + cs->ph * (1 - fraction);
}

/* The axes: the fractions of calls up the left (light lines at each
 * quarter, dashed ones at p50 and p99, named at the right), the cycles
 * along the bottom at each power of ten, a short tick at its multiples. */
static void chart_axes(FILE *f, const struct calls *cs)
{
	static const double quarters[] = { 0, 0.25, 0.5, 0.75, 1 };
	const int marked[] = { MARKED_P50, MARKED_P99 };
	double t, x, y;
	char v[32];
	size_t k;
	int i, m;

	for (k = 0; k < sizeof(quarters) / sizeof(quarters[0]); k++) {
		y = py(cs, quarters[k]);
		if (quarters[k] != pcts[MARKED_P50].at)
			fprintf(f, "<path d=\"M%d %.1fh%d\" stroke=\"#ddd\"/>", CALLS_L, y,
				cs->pw);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			CALLS_L - 4, y + 4, quarters[k]);
	}
	for (k = 0; k < sizeof(marked) / sizeof(marked[0]); k++) {
		y = py(cs, pcts[marked[k]].at);
		fprintf(f, "<path d=\"M%d %.1fh%d\" stroke=\"#777\" stroke-dasharray=\"3 3\"/>"
			"<text x=\"%d\" y=\"%.1f\">%s</text>\n", CALLS_L, y, cs->pw,
			CALLS_L + cs->pw + 3, y + 4, pcts[marked[k]].key);
	}
	for (i = 0; !isnan(t = pc_page_tick(&cs->s, i)); i++) {
		x = px(cs, t);
		fprintf(f, "<path d=\"M%.1f %dv%d\" stroke=\"#eee\"/><path d=\"M%.1f %dv5\" "
			"stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s"
			"</text>\n", x, CALLS_T, cs->ph, x, CALLS_T + cs->ph, x,
			CALLS_T + cs->ph + 16, pc_page_tick_text(&cs->s, t, v, sizeof(v)));
		for (m = 2; m < 10 && t * m < cs->s.hi; m++)
			fprintf(f, "<path d=\"M%.1f %dv3\" stroke=\"#333\"/>", px(cs, t * m),
				CALLS_T + cs->ph);
		fputc('\n', f);
	}
	fprintf(f, "<path d=\"M%d %dV%dH%d\" stroke=\"#333\" fill=\"none\"/>\n"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">cycles (log)</text>\n"
		"<text x=\"11\" y=\"%d\" transform=\"rotate(-90 11 %d)\" "
		"text-anchor=\"middle\">fraction of calls</text>\n", CALLS_L, CALLS_T,
		CALLS_T + cs->ph, CALLS_L + cs->pw, CALLS_L + cs->pw / 2, CALLS_T + cs->ph + 32,
		CALLS_T + cs->ph / 2, CALLS_T + cs->ph / 2);
}

/* Line k at its j-th x: its distribution (its figures in data-cdf: cycles
 * and the fraction, a pair a bucket's edge) and its p50 and p99 marked. */
static void chart_line(FILE *f, const struct calls *cs, size_t k, size_t j)
{
	const struct pc_page_lines *ls = cs->ls;
	const struct pc_page_line *ln = &ls->line[k];
	const struct cdf *d = &cs->d[k * ls->nx + j];
	const char *probe = ls->t->row[point_row(ln, ls->xs[j])].probe;
	const int marked[] = { MARKED_P50, MARKED_P99 };
	char name[192], tip[512], v[32];
	json_t *l = line_calls(ls, k, j);
	double c;
	size_t q;

	line_name(ln, name, sizeof(name));
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" "
		"stroke-dasharray=\"%s\" data-cpu=\"", pc_page_colour(ln->side),
		pc_page_dash(cs->dash[k]));
	pc_html_escape(f, ls->t->side[ln->side].key);
	fputs("\" data-probe=\"", f);
	pc_html_escape(f, probe);
	fputs("\" data-line=\"", f);
	pc_html_escape(f, name);
	fputs("\" data-cdf=\"", f);
	for (q = 0; q < d->n; q++)
		fprintf(f, "%s%.6g,%.6f", q ? " " : "", d->pt[q][0], d->pt[q][1]);
	fputs("\" points=\"", f);
	for (q = 0; q < d->n; q++)
		fprintf(f, "%s%.1f,%.1f", q ? " " : "", px(cs, d->pt[q][0]),
			py(cs, d->pt[q][1]));
	fputs("\"><title>", f);
	pc_html_escape(f, name);
	fputc(' ', f);
	pc_html_escape(f, probe);
	fprintf(f, ": p50 %s, ", cycles(figure_of(l, "p50"), v, sizeof(v)));
	fprintf(f, "p99 %s, ", cycles(figure_of(l, "p99"), v, sizeof(v)));
	fprintf(f, "max %s cycles</title></polyline>\n", cycles(figure_of(l, "max"), v,
		sizeof(v)));
	for (q = 0; q < sizeof(marked) / sizeof(marked[0]); q++) {
		if (isnan(c = figure_of(l, pcts[marked[q]].key)))
			continue;
		snprintf(tip, sizeof(tip), "%s %s: %s %s cycles", name, probe,
			 pcts[marked[q]].key, cycles(c, v, sizeof(v)));
		pc_page_marker(f, ln->side, px(cs, c), py(cs, pcts[marked[q]].at), tip);
	}
}

/* The chart of panel p at the j-th x: nothing where none of its lines
 * has single calls there. */
static void chart(FILE *f, struct pc_page *pg, const struct calls *cs, size_t j, size_t p)
{
	const struct pc_page_lines *ls = cs->ls;
	char head[256];
	size_t k, n = 0, id;

	for (k = 0; k < ls->nlines; k++)
		n += ls->line[k].panel == p && cs->d[k * ls->nx + j].n;
	if (!n)
		return;
	id = pg->nfigures++;
	snprintf(head, sizeof(head), "%s %g: %s", ls->xword, ls->xs[j], ls->panel[p]);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"calls\" role=\"img\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" aria-labelledby=\"chart%zu-t "
		"chart%zu-d\" data-x=\"%g\" data-panel=\"", cs->w, CALLS_H, cs->w, CALLS_H, id,
		id, ls->xs[j]);
	pc_html_escape(f, ls->panel[p]);
	fprintf(f, "\">\n<title id=\"chart%zu-t\">", id);
	pc_html_escape(f, ls->group);
	fputs(": single calls at ", f);
	pc_html_escape(f, head);
	fprintf(f, ", the cumulative distribution of their cycles</title>\n<desc "
		"id=\"chart%zu-d\">A line per CPU (its colour) and series (its dash "
		"pattern): the fraction of the point's calls that took at most so many "
		"cycles, on a logarithmic scale, its p50 and p99 marked; the key above "
		"names the lines, the table below gives the percentiles.</desc>\n"
		"<text x=\"4\" y=\"15\" font-weight=\"bold\"", id);
	/* a long panel's name squeezed into the chart's width, never cut */
	if (strlen(head) * CALLS_CHAR > cs->w - 8)
		fprintf(f, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"", cs->w - 8);
	fputc('>', f);
	pc_html_escape(f, head);
	fputs("</text>\n", f);
	chart_axes(f, cs);
	for (k = 0; k < ls->nlines; k++)
		if (ls->line[k].panel == p && cs->d[k * ls->nx + j].n)
			chart_line(f, cs, k, j);
	fputs("</svg>\n", f);
}

/* The key: each line's name (its CPU and label), a sample of its dash
 * pattern and its CPU's marker, in rows across the page. */
static void key(FILE *f, struct pc_page *pg, const struct calls *cs)
{
	const struct pc_page_lines *ls = cs->ls;
	double *x = calloc(ls->nlines + 1, sizeof(*x)), at = 4, w;
	int *row = calloc(ls->nlines + 1, sizeof(*row)), rows = 1;
	char name[192], other[192];
	size_t k, q, id = pg->nfigures++;

	if (!x || !row) {
		free(x);
		free(row);
		return;
	}
	for (k = 0; k < ls->nlines; k++) {
		line_name(&ls->line[k], name, sizeof(name));
		for (q = 0; q < k && strcmp(line_name(&ls->line[q], other, sizeof(other)),
					    name) != 0; q++)
			;
		x[k] = -1;
		if (q < k)	/* named by an earlier line */
			continue;
		w = 40 + CALLS_CHAR * (double)strlen(name) + 16;
		if (at > 4 && at + w > PC_PAGE_W) {
			at = 4;
			rows++;
		}
		x[k] = at;
		row[k] = rows - 1;
		at += w;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"key\" role=\"img\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" aria-labelledby=\"chart%zu-t\">"
		"\n<title id=\"chart%zu-t\">The lines of the charts below: a CPU's colour and "
		"marker, a series' dash pattern</title>\n", PC_PAGE_W, rows * KEY_ROW + 4,
		PC_PAGE_W, rows * KEY_ROW + 4, id, id);
	for (k = 0; k < ls->nlines; k++) {
		double y = row[k] * KEY_ROW + 10;

		if (x[k] < 0)
			continue;
		line_name(&ls->line[k], name, sizeof(name));
		fprintf(f, "<path d=\"M%.1f %.1fh30\" stroke=\"%s\" stroke-width=\"1.6\" "
			"stroke-dasharray=\"%s\"/>\n", x[k], y, pc_page_colour(ls->line[k].side),
			pc_page_dash(cs->dash[k]));
		pc_page_marker(f, ls->line[k].side, x[k] + 15, y, name);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x[k] + 36, y + 4);
		pc_html_escape(f, name);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	free(x);
	free(row);
}

/* "A 73 cycles, B 60 cycles": each CPU's largest figure key among the
 * single calls of rows[0 .. n) of t ("73 cycles" where one CPU has
 * them). */
static void per_cpu(FILE *f, const struct pc_cmp_table *t, const size_t *rows, size_t n,
		    const char *key)
{
	char l[PC_LABEL_LEN], v[32];
	size_t i, r, said = 0, cpus = 0;
	double *most = calloc(t->nsides + 1, sizeof(*most));
	json_t *c;

	if (!most)
		return;
	for (i = 0; i < t->nsides; i++) {
		most[i] = NAN;
		for (r = 0; r < n; r++)
			if ((c = pc_page_calls(t, rows[r], i)) && !(figure_of(c, key) <= most[i]))
				most[i] = figure_of(c, key);
		cpus += !isnan(most[i]);
	}
	for (i = 0; i < t->nsides; i++)
		if (!isnan(most[i]))
			fprintf(f, "%s%s%s%s cycles", said++ ? ", " : "", cpus > 1 ?
				pc_side_label(i, l) : "", cpus > 1 ? " " : "",
				cycles(most[i], v, sizeof(v)));
	free(most);
}

/* The timer's cost and the resolution of rows[0 .. n) of t, in words. */
static void timer_words(FILE *f, const struct pc_cmp_table *t, const size_t *rows, size_t n,
			const char *resolves)
{
	fputs("the timer's own cost subtracted (", f);
	per_cpu(f, t, rows, n, "timer_cycles");
	fprintf(f, "); %s ", resolves);
	per_cpu(f, t, rows, n, "resolution_cycles");
}

/* The figure's caption: what a chart shows, in what units, to what
 * resolution. */
static int caption(FILE *f, const struct calls *cs, size_t charts)
{
	const struct pc_page_lines *ls = cs->ls;
	double lo = INFINITY, hi = 0, calls, per = 0;
	size_t k, j, n = 0, *rows;
	json_t *l;

	for (k = 0; k < ls->nlines; k++)
		n += ls->line[k].n;
	if (!(rows = calloc(n + 1, sizeof(*rows))))
		return -1;
	for (k = 0, n = 0; k < ls->nlines; k++)
		for (j = 0; j < ls->line[k].n; j++)
			rows[n++] = ls->line[k].row[j];
	for (k = 0; k < ls->nlines; k++)
		for (j = 0; j < ls->nx; j++) {
			if (!(l = line_calls(ls, k, j)))
				continue;
			calls = figure_of(l, "calls");
			lo = calls < lo ? calls : lo;
			hi = calls > hi ? calls : hi;
			per = (double)json_integer_value(json_object_get(json_object_get(l,
							 "histogram"), "per_octave"));
		}
	fputs("<figcaption>", f);
	pc_html_escape(f, ls->group);
	fprintf(f, ": single calls by %s, each point's calls (", ls->xword);
	if (lo < hi)
		fprintf(f, "%.0f to ", lo);
	fprintf(f, "%.0f a point, each timed alone) as the fraction that took at most so "
		"many cycles, on a logarithmic scale, ", hi);
	timer_words(f, ls->t, rows, n, "one call's figure resolves");
	fprintf(f, " (the timer's step): calls closer than that are not told apart. A call "
		"under the axis's start (0 once the timer's cost is subtracted) is drawn at "
		"it, one past its end (the power of ten at or above the largest p99.9: at "
		"most one call in 1000 of a point's) at its end. Read from each point's "
		"histogram of log buckets (%.0f a power of two), its calls spread evenly "
		"across a bucket; each line's p50 and p99 marked on the dashed lines; %zu "
		"chart%s on the same axes.</figcaption>\n",
		per, charts, charts == 1 ? "" : "s");
	free(rows);
	return 0;
}

/* A table of the lines ln[0 .. n): a row per x, a group per line (its
 * CPU and series) of its points' percentiles. -1 when out of memory. */
static int percentiles(FILE *f, const struct pc_page_lines *ls, const size_t *ln, size_t n)
{
	struct pc_table_col stub = { .head = ls->xword, .style = PC_CELL_FIXED,
				     .flags = PC_COL_STUB };
	char group[PC_LABEL_LEN + 192], l[PC_LABEL_LEN];
	struct pc_table tab = { 0 };
	size_t k, j, q;
	long r;
	json_t *c;
	int rc = pc_table_init(&tab, NULL, &stub, 1);

	tab.cell_data = "probe";
	for (k = 0; rc == 0 && k < n; k++) {
		const struct pc_page_line *line = &ls->line[ln[k]];

		snprintf(group, sizeof(group), "%s %s", pc_side_label(line->side, l),
			 line->series);
		for (q = 0; rc == 0 && q < NPCTS; q++)
			rc = pc_table_col_add(&tab, &(struct pc_table_col){ .group = group,
					      .head = pcts[q].key, .style = PC_CELL_CYCLES })
					      < 0 ? -1 : 0;
	}
	for (j = 0; rc == 0 && j < ls->nx; j++) {
		for (k = 0; k < n && !line_calls(ls, ln[k], j); k++)
			;
		if (k == n)
			continue;
		if ((r = pc_table_row(&tab)) < 0) {
			rc = -1;
			break;
		}
		pc_table_at(&tab, (size_t)r, 0)->v = ls->xs[j];
		for (k = 0; rc == 0 && k < n; k++) {
			if (!(c = line_calls(ls, ln[k], j)))
				continue;
			for (q = 0; q < NPCTS; q++)
				pc_table_at(&tab, (size_t)r, 1 + k * NPCTS + q)->v =
					figure_of(c, pcts[q].key);
			rc = pc_table_data(&tab, (size_t)r, 1 + k * NPCTS, "%s", ls->t->row[
					   point_row(&ls->line[ln[k]], ls->xs[j])].probe);
		}
	}
	if (rc == 0)
		pc_page_table_draw(f, &tab, "calls");
	pc_table_free(&tab);
	return rc;
}

/* The percentiles of every line, TABLE_LINES a table, side by side where
 * they fit. -1 when out of memory. */
static int tables(FILE *f, const struct pc_page_lines *ls)
{
	size_t ln[TABLE_LINES], k, n;
	int rc = 0;

	fputs("<div class=\"pair\">\n", f);
	for (k = 0; rc == 0 && k < ls->nlines; k += n) {
		for (n = 0; n < TABLE_LINES && k + n < ls->nlines; n++)
			ln[n] = k + n;
		rc = percentiles(f, ls, ln, n);
	}
	fputs("</div>\n", f);
	return rc;
}

int pc_page_calls_figure(FILE *f, struct pc_page *pg, const struct pc_page_lines *ls)
{
	struct calls cs;
	size_t j, p, charts = pg->nfigures;
	int rc = calls_init(&cs, ls);

	if (rc == 0) {
		fprintf(f, "<h4 id=\"g%zu-", ls->c);
		pc_html_escape(f, ls->group);
		fputs("-calls\">", f);
		if (*ls->t->title) {
			pc_html_escape(f, ls->t->title);
			fputs(": ", f);
		}
		pc_html_escape(f, ls->group);
		fputs(": single calls, their cumulative distribution</h4>\n<figure>\n", f);
		key(f, pg, &cs);
		charts = pg->nfigures;
		fputs("<div class=\"panels\">\n", f);
		for (j = 0; j < ls->nx; j++)
			for (p = 0; p < ls->npanels; p++)
				chart(f, pg, &cs, j, p);
		fputs("</div>\n", f);
		rc = caption(f, &cs, pg->nfigures - charts);
		fputs("</figure>\n", f);
		if (rc == 0)
			rc = tables(f, ls);
	}
	calls_free(&cs);
	return rc;
}

/* ---- the text view ----------------------------------------------------------- */

/* The text view's columns of a percentile (at least, a space before
 * each), and the least of its points' names beside them (a longer name
 * goes on a line of its own). */
#define TEXT_COL 6
#define TEXT_POINT_MIN 12

/* Table t's points with single calls: a row per point, a group per CPU of
 * its percentiles, the points' names as wide as the width leaves beside a
 * group; no rows where none has them. -1 when out of memory. */
static int text_table(struct pc_table *tab, const struct pc_cmp_table *t)
{
	static const struct pc_table_col point = {
		.head = "point", .flags = PC_COL_STUB | PC_COL_LEFT | PC_COL_ALONE };
	int fit = pc_table_fit() > 0 ? pc_table_fit() : 80;
	int room, group, widest = 0, w;
	char l[PC_LABEL_LEN];
	size_t r, i, q;
	long at = 0;
	json_t *c;
	int rc = pc_table_init(tab, "  ", &point, 1);

	for (i = 0; rc == 0 && i < t->nsides; i++)
		for (q = 0; rc == 0 && q < NPCTS; q++)
			rc = pc_table_col_add(tab, &(struct pc_table_col){
					      .group = pc_side_label(i, l), .head = pcts[q].key,
					      .width = TEXT_COL, .style = PC_CELL_CYCLES,
					      .gap = q ? " " : "  " }) < 0 ?
					      -1 : 0;
	for (r = 0; rc == 0 && r < t->nrows; r++) {
		for (i = 0; i < t->nsides && !pc_page_calls(t, r, i); i++)
			;
		if (i == t->nsides)
			continue;
		if ((at = pc_table_row(tab)) < 0 ||
		    pc_table_text(tab, (size_t)at, 0, "%s", t->row[r].probe) < 0)
			return -1;
		for (i = 0; i < t->nsides; i++)
			for (q = 0; (c = pc_page_calls(t, r, i)) && q < NPCTS; q++)
				pc_table_at(tab, (size_t)at, 1 + i * NPCTS + q)->v =
					figure_of(c, pcts[q].key);
	}
	if (rc != 0)
		return rc;
	/* a figure wider than its column widens it (an emulated run's p99.9
	 * of 1234567 cycles ran into its neighbour); the names take the room
	 * the widest CPU's group leaves */
	for (i = 0; i < t->nsides; i++) {
		for (q = 0, group = 0; q < NPCTS; q++) {
			struct pc_table_col *col = &tab->cols[1 + i * NPCTS + q];

			w = pc_table_widest(tab, 1 + i * NPCTS + q);
			col->width = w > TEXT_COL ? w : TEXT_COL;
			group += (int)strlen(col->gap) + col->width;
		}
		widest = group > widest ? group : widest;
	}
	room = fit - 2 - widest;
	tab->cols[0].width = pc_table_widest(tab, 0) < room ? pc_table_widest(tab, 0) :
			     room > TEXT_POINT_MIN ? room : TEXT_POINT_MIN;
	return rc;
}

/* What the text view's table is, under its title (a table of the model's,
 * where there are several). */
static void text_words(struct pc_view *v, const struct pc_cmp_table *t)
{
	size_t *rows = calloc(t->nrows + 1, sizeof(*rows)), r;
	char *words = NULL;
	size_t len = 0;
	FILE *m;

	if (!rows || !(m = open_memstream(&words, &len))) {
		free(rows);
		return;
	}
	for (r = 0; r < t->nrows; r++)
		rows[r] = r;
	fprintf(m, "%s%ssingle calls: cycles per call at p50, p90, p99 and p99.9, each "
		"timed alone, ", t->title, *t->title ? ": " : "");
	timer_words(m, t, rows, t->nrows, "resolution");
	if (fclose(m) == 0)
		pc_view_wrap(v, "", words, 2);
	free(words);
	free(rows);
}

int pc_report_calls_text(struct pc_view *v, const struct pc_compare *m)
{
	struct pc_table tab;
	size_t c;
	int rc = 0;

	for (c = 0; rc == 0 && c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		rc = text_table(&tab, t);
		if (rc == 0 && tab.nrows) {
			pc_view_printf(v, "\n");
			text_words(v, t);
			pc_view_table(v, &tab, *t->title ? t->title : "single calls");
		}
		pc_table_free(&tab);
	}
	return rc;
}
