/* SPDX-License-Identifier: MIT */
/*
 * report_html.c - the comparison model as one HTML page (report_html.h).
 * Everything is written here: the SVG charts are plain elements, the style
 * one inline sheet, no script, nothing fetched. Every figure and verdict
 * comes from the model; colour repeats what a word already says.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/answers.h"
#include "results/table.h"
#include "report_html.h"

/* Okabe-Ito: told apart with the common colour-vision deficiencies. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
	"#f0e442", "#000000",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

/* Chart geometry, in SVG user units (CSS pixels). */
#define CH_W 760
#define CH_LABEL 250		/* probe names, right-aligned */
#define CH_LABEL_CHARS 38	/* ... of at most about this many characters */
#define CH_X0 (CH_LABEL + 22)	/* the axis */
#define CH_PLOT (CH_W - CH_X0 - 80)
#define CH_BAR 11
#define CH_GAP 2
#define CH_ROW_GAP 8
#define CH_TOP 8
#define CH_AXIS 34
/* Values spanning this factor or more are drawn on a log scale. */
#define CH_LOG_SPAN 100.0

static const char *colour(size_t i)
{
	return palette[i % NPALETTE];
}

static void head(FILE *f, const struct pc_report_html_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"primcost ", f);
	pc_html_escape(f, o->version);
	fputs("\">\n<title>primcost report</title>\n<style>\n"
	      "body{font:14px/1.4 sans-serif;color:#111;background:#fff;margin:1.5em auto;"
	      "max-width:62em;padding:0 1em}\n"
	      "h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #999;"
	      "margin-top:1.6em}h3{font-size:1.1em}\n"
	      "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;"
	      "padding:2px 6px;vertical-align:top}th{background:#eee;text-align:left}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	      ".sw{display:inline-block;width:.9em;height:.9em;border:1px solid #333;"
	      "vertical-align:middle;margin-right:.3em}\n"
	      ".slower{background:#f8d0d0}.faster{background:#cfeccf}.same{background:#eee}\n"
	      ".nc{font-style:italic}\n"
	      "figure{margin:1em 0;page-break-inside:avoid;break-inside:avoid}"
	      "figcaption{font-size:.9em;color:#333}\n"
	      "svg{max-width:100%;height:auto}svg text{font:11px sans-serif;fill:#111}\n"
	      "sup a{text-decoration:none}ol.notes li{margin:.2em 0}\n"
	      "@media print{body{max-width:none;margin:0;font-size:11px}"
	      "a{color:inherit}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	      "table,tr{page-break-inside:avoid;break-inside:avoid}}\n"
	      "</style>\n</head>\n<body>\n<h1>primcost report</h1>\n", f);
}

static void note_ref(FILE *f, int k)
{
	if (k > 0)
		fprintf(f, "<sup><a href=\"#note-%d\">[%d]</a></sup>", k, k);
}

/* The tables' marks: a figure noisy, not linear. */
static const struct pc_table_mark figure_marks[] = {
	{ "~", " (noisy)" }, { "^", " (not linear)" },
};
#define MARK_NOISY 1u
#define MARK_NONLINEAR 2u
/* Signs in the tables' words, written as numeric references (PC_COL_ASCII). */
#define PLUS_MINUS "\xc2\xb1"		/* &#177; */
#define SIGN_SLOWER "\xe2\x96\xb2"	/* &#9650; */
#define SIGN_FASTER "\xe2\x96\xbc"	/* &#9660; */

/* The tables' first column. */
static const struct pc_table_col probe_col = {
	.head = "probe", .flags = PC_COL_STUB | PC_COL_LEFT,
};

/* A side's cell of a table: the median and MAD (a published point has no
 * spread), marked when noisy or not linear; else the probe's status, or
 * nothing. -1 when out of memory. */
static int side_cell(struct pc_table *t, size_t r, size_t col,
		     const struct pc_cmp_cell *c)
{
	char v[32], d[32];

	if (c->state == PC_CELL_STATUS)
		return pc_table_text(t, r, col, "%s", c->status ? c->status : "");
	if (c->state != PC_CELL_OK)
		return 0;
	pc_table_at(t, r, col)->marks = (c->noisy ? MARK_NOISY : 0) |
					(c->nonlinear ? MARK_NONLINEAR : 0);
	pc_fmt_figure(c->median, v, sizeof(v));
	if (c->single)
		return pc_table_text(t, r, col, "%s", v);
	return pc_table_text(t, r, col, "%s " PLUS_MINUS "%s", v,
			     pc_fmt_figure(c->mad, d, sizeof(d)));
}

/* ---- the CPUs and their context --------------------------------------------- */

static void side_row(FILE *f, const struct pc_cmp_side *s, size_t i,
		     struct pc_footnotes *fn)
{
	char l[PC_LABEL_LEN];

	fprintf(f, "<tr data-cpu=\"");
	pc_html_escape(f, s->key);
	fprintf(f, "\"><td><span class=\"sw\" style=\"background:%s\"></span>%s</td><td>",
		colour(i), pc_side_label(i, l));
	pc_html_escape(f, s->key);
	fputs("</td><td>", f);
	pc_html_escape(f, s->brand ? s->brand : PC_NO_VALUE);
	fputs("</td><td>", f);
	pc_html_escape(f, s->file);
	fputs("</td><td>", f);
	pc_html_escape(f, s->cycles_source ? s->cycles_source : PC_NO_VALUE);
	fprintf(f, "</td><td>%s</td><td>", s->virtualized == 1 ? "virtual machine" :
		s->virtualized == 0 ? "bare metal" : "unknown");
	if (!s->entry)
		fputs("absent from this file", f);
	else if (s->unreliable)
		fputs("<strong>unreliable</strong>", f);
	else
		fputs("reliable", f);
	if (s->partial_figures)
		fprintf(f, "; %zu figures from a partial run", s->partial_figures);
	if (s->runs_used > 1)
		fprintf(f, "; figures from %zu runs", s->runs_used);
	fputs("</td><td>", f);
	if (s->reference) {
		fputs("published table", f);
		note_ref(f, pc_footnote(fn, "source", s->reference));
	} else {
		pc_html_escape(f, s->newest_date ? s->newest_date : "");
		if (s->kernel) {
			fputs(", kernel ", f);
			pc_html_escape(f, s->kernel);
		}
	}
	fputs("</td></tr>\n", f);
}

static void cpus(FILE *f, const struct pc_compare *m, struct pc_footnotes *fn)
{
	size_t c, i;

	fputs("<section id=\"cpus\">\n<h2>CPUs</h2>\n", f);
	for (c = 0; c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		if (*t->title) {
			fputs("<h3>", f);
			pc_html_escape(f, t->title);
			fputs("</h3>\n", f);
		}
		fputs("<table>\n<tr><th>label</th><th>model key</th><th>CPU</th>"
		      "<th>file</th><th>cycles</th><th>virtualization</th>"
		      "<th>reliability</th><th>run</th></tr>\n", f);
		for (i = 0; i < t->nsides; i++)
			side_row(f, &t->side[i], i, fn);
		fputs("</table>\n", f);
		for (i = 0; i < t->nnotes; i++) {
			fputs("<p>Note: ", f);
			pc_html_escape(f, t->note[i]);
			fputs("</p>\n", f);
		}
	}
	fputs("</section>\n", f);
}

/* ---- answers ------------------------------------------------------------------ */

static void analog_item(FILE *f, const struct pc_compare *m,
			const struct pc_cmp_table *t, const struct pc_cmp_analog *a)
{
	char l[PC_LABEL_LEN], v[32];
	size_t i;

	fputs("<li>", f);
	pc_html_escape(f, a->probe);
	fputs(" (ring 0) and its ring-3 analog ", f);
	pc_html_escape(f, a->analog);
	fputs(" (", f);
	pc_html_escape(f, a->how);
	fputs("; an analog, not the same probe): ", f);
	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_cell *c = &a->cell[i];

		if (c->state != PC_CELL_OK)
			continue;
		fprintf(f, "%s%s %s %s %s", i ? "; " : "", pc_side_label(i, l),
			a->is_analog[i] ? a->analog : a->probe,
			pc_fmt_figure(c->median, v, sizeof(v)), pc_metric_name(m->cfg.metric));
		if (a->is_analog[i])
			fputs(" (analog)", f);
	}
	fputs("</li>\n", f);
}

static void answers(FILE *f, const struct pc_compare *m)
{
	struct pc_answer ans[16];
	char l[PC_LABEL_LEN], line[512];
	size_t c, i, k, n, shown = 0;

	fputs("<section id=\"answers\">\n<h2>Answers</h2>\n"
	      "<p>The questions the published measurements asked (Desnoyers and Brunelle, 2007; Rostedt, 2010), where both probes were "
	      "measured and the run is not marked unreliable.</p>\n", f);
	for (c = 0; c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		for (i = 0; i < t->nsides; i++) {
			n = t->side[i].entry && pc_answer_count <= 16 ?
				pc_answers(t->side[i].entry, ans) : 0;
			if (!n)
				continue;
			fprintf(f, "<h3>%s: ", pc_side_label(i, l));
			pc_html_escape(f, t->side[i].brand ? t->side[i].brand : t->side[i].key);
			fputs("</h3>\n<ul>\n", f);
			for (k = 0; k < n; k++) {
				pc_answer_line(&ans[k], line, sizeof(line));
				fputs("<li>", f);
				pc_html_escape(f, line);
				fputs("</li>\n", f);
			}
			fputs("</ul>\n", f);
			shown++;
		}
		if (t->nanalogs) {
			fputs("<h3>Ring-3 analogs</h3>\n<ul>\n", f);
			for (k = 0; k < t->nanalogs; k++)
				analog_item(f, m, t, &t->analog[k]);
			fputs("</ul>\n", f);
			shown++;
		}
	}
	if (!shown)
		fputs("<p>None: no file measured both probes of a pair.</p>\n", f);
	fputs("</section>\n", f);
}

/* ---- charts ------------------------------------------------------------------- */

struct scale {
	bool log;
	double lo, hi;
};

static void scale_of(const struct pc_cmp_table *t, const size_t *rows, size_t n,
		     struct scale *s)
{
	double lo = INFINITY, hi = 0;
	size_t r, i;

	for (r = 0; r < n; r++) {
		for (i = 0; i < t->nsides; i++) {
			const struct pc_cmp_cell *c = &t->row[rows[r]].cell[i];
			double top = c->q3 > c->median ? c->q3 : c->median;

			if (c->state != PC_CELL_OK)
				continue;
			if (c->median > 0 && c->median < lo)
				lo = c->median;
			if (top > hi)
				hi = top;
		}
	}
	s->log = hi > 0 && isfinite(lo) && hi / lo >= CH_LOG_SPAN;
	if (s->log) {
		s->lo = pow(10, floor(log10(lo)));
		s->hi = pow(10, ceil(log10(hi)));
		if (s->hi <= s->lo)
			s->hi = s->lo * 10;
	} else {
		double step = hi > 0 ? pow(10, floor(log10(hi))) : 1;

		s->lo = 0;
		s->hi = hi > 0 ? ceil(hi * 1.05 / step) * step : 1;
	}
}

/* Position of v along the axis, 0..CH_PLOT. */
static double pos(const struct scale *s, double v)
{
	double x;

	if (s->log)
		x = v <= s->lo ? 0 : (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	else
		x = (v - s->lo) / (s->hi - s->lo);
	return CH_PLOT * (x < 0 ? 0 : x > 1 ? 1 : x);
}

static void axis(FILE *f, const struct scale *s, double y, const char *unit)
{
	char v[32];
	double t, step;

	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.0f\" stroke=\"#333\"/>\n",
		CH_X0, CH_TOP, CH_X0, y);
	if (s->log) {
		for (t = s->lo; t <= s->hi * 1.0001; t *= 10)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\" "
				"stroke=\"#ccc\"/><text x=\"%.1f\" y=\"%.0f\" "
				"text-anchor=\"middle\">%g</text>\n", CH_X0 + pos(s, t),
				CH_TOP, CH_X0 + pos(s, t), y, CH_X0 + pos(s, t), y + 13, t);
	} else {
		step = s->hi / 5;
		for (t = 0; t <= s->hi * 1.0001; t += step)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\" "
				"stroke=\"#ccc\"/><text x=\"%.1f\" y=\"%.0f\" "
				"text-anchor=\"middle\">%s</text>\n", CH_X0 + pos(s, t),
				CH_TOP, CH_X0 + pos(s, t), y, CH_X0 + pos(s, t), y + 13,
				pc_fmt_figure(t, v, sizeof(v)));
	}
	fprintf(f, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"middle\">%s per operation, "
		"median with interquartile range%s</text>\n", CH_X0 + CH_PLOT / 2,
		y + 28, unit, s->log ? " (log scale)" : "");
}

/* One CPU's bar of one probe, its IQR whisker and its figure. */
static void bar(FILE *f, const struct pc_cmp_row *row, size_t i, double y,
		const struct scale *s, const char *unit, struct pc_footnotes *fn)
{
	const struct pc_cmp_cell *c = &row->cell[i];
	char l[PC_LABEL_LEN], v[32], q1[32], q3[32];
	double w, a, b, mid = y + CH_BAR / 2.0;
	int k = pc_cell_footnote(c, fn);

	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		CH_X0 - 4, mid + 4, pc_side_label(i, l));
	if (c->state != PC_CELL_OK) {
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%s", CH_X0 + 4, mid + 4,
			c->state == PC_CELL_STATUS ? c->status : PC_NO_VALUE);
		if (k > 0)
			fprintf(f, " [%d]", k);
		fputs("</text>\n", f);
		return;
	}
	w = pos(s, c->median);
	a = pos(s, c->q1);
	b = pos(s, c->q3);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
		"<title>%s ", CH_X0, y, w, CH_BAR, colour(i), l);
	pc_html_escape(f, row->probe);
	fprintf(f, ": %s %s (IQR %s to %s)</title></rect>\n",
		pc_fmt_figure(c->median, v, sizeof(v)), unit,
		pc_fmt_figure(c->q1, q1, sizeof(q1)), pc_fmt_figure(c->q3, q3, sizeof(q3)));
	if (b - a >= 1)
		fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
			"stroke=\"#000\" fill=\"none\"/>\n", CH_X0 + a, mid, CH_X0 + b,
			CH_X0 + a, mid - 3, mid + 3, CH_X0 + b, mid - 3, mid + 3);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s", CH_X0 + (w > b ? w : b) + 4,
		mid + 4, v);
	if (k > 0)
		fprintf(f, " [%d]", k);
	fputs("</text>\n", f);
}

static void chart(FILE *f, const struct pc_compare *m, const struct pc_cmp_table *t,
		  const size_t *rows, size_t n, const char *group, size_t id,
		  struct pc_footnotes *fn)
{
	const char *unit = pc_metric_name(m->cfg.metric);
	double per = t->nsides * (CH_BAR + CH_GAP) + CH_ROW_GAP;
	double h = CH_TOP + n * per + CH_AXIS + 6, y;
	struct scale s;
	size_t r, i;

	scale_of(t, rows, n, &s);
	fprintf(f, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
		"viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" "
		"aria-labelledby=\"chart%zu-t chart%zu-d\">\n<title id=\"chart%zu-t\">",
		CH_W, h, CH_W, h, id, id, id);
	pc_html_escape(f, group);
	fprintf(f, ": %s per operation by CPU</title>\n<desc id=\"chart%zu-d\">Bars: the "
		"median of each probe on each CPU (A, B, ...), whiskers the interquartile "
		"range%s. The table below gives the same figures.</desc>\n", unit, id,
		s.log ? "; logarithmic scale" : "");
	for (r = 0; r < n; r++) {
		const struct pc_cmp_row *row = &t->row[rows[r]];

		y = CH_TOP + r * per;
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\"", CH_LABEL,
			y + (per - CH_ROW_GAP) / 2 + 4);
		/* a point's name (lock.ticket.compact.threads2) can be longer
		 * than the label's room: squeezed into it, never cut */
		if (strlen(row->probe) > CH_LABEL_CHARS)
			fprintf(f, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"",
				CH_LABEL);
		fputc('>', f);
		pc_html_escape(f, row->probe);
		fputs("</text>\n", f);
		for (i = 0; i < t->nsides; i++)
			bar(f, row, i, y + i * (CH_BAR + CH_GAP), &s, unit, fn);
	}
	axis(f, &s, CH_TOP + n * per, unit);
	fputs("</svg>\n<figcaption>", f);
	pc_html_escape(f, group);
	fprintf(f, ": %s per operation (%s scale)</figcaption>\n</figure>\n", unit,
		s.log ? "logarithmic" : "linear");
}

/* ---- lines over threads or sizes ------------------------------------------------ */

/* Probes named NAME.WORDn (spin_lock_unlock.ticket.nodes1.threads4,
 * alloc.malloc.glibc.64) are points of a series NAME over n. */
#define LN_SERIES 8
#define LN_POINTS 64
#define LN_H 300
#define LN_X0 70
#define LN_PLOT_W 440
#define LN_TOP 10

struct series {
	char name[160];
	const char *xword;	/* "threads", or "" for a bare size */
	size_t n;
	size_t row[LN_POINTS];
	double x[LN_POINTS];
};

struct lines {
	size_t n;
	struct series s[LN_SERIES];
	double xlo, xhi;
	bool xlog;
};

/* Splits probe into series name, x word and x; 0 when it is no point. */
static int point_of(const char *probe, char *name, size_t len, const char **xword,
		    double *x)
{
	const char *dot = strrchr(probe, '.'), *d;
	static const char *const words[] = { "threads", "" };
	size_t w;

	if (!dot || (size_t)(dot - probe) >= len)
		return 0;
	for (w = 0; w < 2; w++) {
		if (strncmp(dot + 1, words[w], strlen(words[w])) != 0)
			continue;
		d = dot + 1 + strlen(words[w]);
		if (!*d || strspn(d, "0123456789") != strlen(d))
			continue;
		snprintf(name, len, "%.*s", (int)(dot - probe), probe);
		*xword = words[w];
		*x = atof(d);
		return *x > 0;
	}
	return 0;
}

/* The group as series, when every probe is a point and a series has at
 * least 3; 0 otherwise (drawn as bars). */
static int lines_of(const struct pc_cmp_table *t, const size_t *rows, size_t n,
		    struct lines *l)
{
	char name[160];
	const char *xword;
	size_t r, k, most = 0;
	double x;

	memset(l, 0, sizeof(*l));
	l->xlo = INFINITY;
	for (r = 0; r < n; r++) {
		if (!point_of(t->row[rows[r]].probe, name, sizeof(name), &xword, &x))
			return 0;
		for (k = 0; k < l->n && strcmp(l->s[k].name, name) != 0; k++)
			;
		if (k == LN_SERIES || (k < l->n && l->s[k].n == LN_POINTS))
			return 0;
		if (k == l->n) {
			snprintf(l->s[l->n].name, sizeof(l->s[0].name), "%s", name);
			l->s[l->n++].xword = xword;
		}
		l->s[k].row[l->s[k].n] = rows[r];
		l->s[k].x[l->s[k].n++] = x;
		if (l->s[k].n > most)
			most = l->s[k].n;
		l->xlo = x < l->xlo ? x : l->xlo;
		l->xhi = x > l->xhi ? x : l->xhi;
	}
	l->xlog = l->xhi / l->xlo >= 16;
	return most >= 3 && l->xhi > l->xlo;
}

static double xpos(const struct lines *l, double x)
{
	if (l->xlog)
		return LN_X0 + LN_PLOT_W * (log2(x) - log2(l->xlo)) /
			(log2(l->xhi) - log2(l->xlo));
	return LN_X0 + LN_PLOT_W * (x - l->xlo) / (l->xhi - l->xlo);
}

static double ypos(const struct scale *s, double v)
{
	return LN_TOP + LN_H * (1 - pos(s, v) / CH_PLOT);
}

static const char *const dashes[] = { "", "6 3", "2 2", "8 3 2 3" };

/* One series of one CPU: a polyline through its measured points, a marker
 * with its figure at each. */
static void series_line(FILE *f, const struct pc_cmp_table *t, const struct series *se,
			size_t k, size_t i, const struct scale *s, const struct lines *l)
{
	char v[32], lab[PC_LABEL_LEN];
	size_t p;
	int any = 0;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		"stroke-dasharray=\"%s\" points=\"", colour(k), dashes[i % 4]);
	for (p = 0; p < se->n; p++) {
		const struct pc_cmp_cell *c = &t->row[se->row[p]].cell[i];

		if (c->state == PC_CELL_OK && c->median > 0)
			fprintf(f, "%s%.1f,%.1f", any++ ? " " : "", xpos(l, se->x[p]),
				ypos(s, c->median));
	}
	fputs("\"/>\n", f);
	for (p = 0; p < se->n; p++) {
		const struct pc_cmp_cell *c = &t->row[se->row[p]].cell[i];

		if (c->state != PC_CELL_OK || !(c->median > 0))
			continue;
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s ",
			xpos(l, se->x[p]), ypos(s, c->median), colour(k),
			pc_side_label(i, lab));
		pc_html_escape(f, t->row[se->row[p]].probe);
		fprintf(f, ": %s</title></circle>\n", pc_fmt_figure(c->median, v, sizeof(v)));
	}
}

static void line_axes(FILE *f, const struct scale *s, const struct lines *l,
		      const char *unit)
{
	char v[32];
	double y, x;

	fprintf(f, "<path d=\"M%d %dV%dH%d\" stroke=\"#333\" fill=\"none\"/>\n", LN_X0,
		LN_TOP, LN_TOP + LN_H, LN_X0 + LN_PLOT_W);
	for (y = s->lo; y <= s->hi * 1.0001; y = s->log ? y * 10 : y + s->hi / 5)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LN_X0,
			LN_X0 + LN_PLOT_W, ypos(s, y), ypos(s, y), LN_X0 - 4, ypos(s, y) + 4,
			s->log ? (snprintf(v, sizeof(v), "%g", y), v) :
			pc_fmt_figure(y, v, sizeof(v)));
	for (x = l->xlo; x <= l->xhi * 1.0001; x = l->xlog ? x * 2 : x + 1)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
			xpos(l, x), LN_TOP + LN_H + 14, x);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n"
		"<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
		"text-anchor=\"middle\">%s per operation%s</text>\n",
		LN_X0 + LN_PLOT_W / 2, LN_TOP + LN_H + 30,
		*l->s[0].xword ? l->s[0].xword : "size", LN_TOP + LN_H / 2,
		LN_TOP + LN_H / 2, unit, s->log ? " (log scale)" : "");
}

static void line_chart(FILE *f, const struct pc_compare *m, const struct pc_cmp_table *t,
		       const size_t *rows, size_t n, const struct lines *l,
		       const char *group, size_t id)
{
	const char *unit = pc_metric_name(m->cfg.metric);
	char lab[PC_LABEL_LEN];
	struct scale s;
	size_t k, i;
	int h = LN_TOP + LN_H + 40, y;

	scale_of(t, rows, n, &s);
	fprintf(f, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"aria-labelledby=\"chart%zu-t chart%zu-d\">\n<title id=\"chart%zu-t\">",
		CH_W, h, CH_W, h, id, id, id);
	pc_html_escape(f, group);
	fprintf(f, ": %s per operation over %s</title>\n<desc id=\"chart%zu-d\">One line "
		"per series (colour) and CPU (dash pattern), through the medians. The "
		"table below gives the same figures.</desc>\n", unit,
		*l->s[0].xword ? l->s[0].xword : "size", id);
	line_axes(f, &s, l, unit);
	for (k = 0; k < l->n; k++)
		for (i = 0; i < t->nsides; i++)
			series_line(f, t, &l->s[k], k, i, &s, l);
	for (k = 0, y = LN_TOP + 10; k < l->n; k++, y += 16) {
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">", LN_X0 + LN_PLOT_W + 16,
			LN_X0 + LN_PLOT_W + 36, y, y, colour(k), LN_X0 + LN_PLOT_W + 40, y + 4);
		pc_html_escape(f, l->s[k].name);
		fputs("</text>\n", f);
	}
	for (i = 0; t->nsides > 1 && i < t->nsides; i++, y += 16)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\" "
			"stroke-width=\"2\" stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%d\">"
			"CPU %s</text>\n", LN_X0 + LN_PLOT_W + 16, LN_X0 + LN_PLOT_W + 36, y, y,
			dashes[i % 4], LN_X0 + LN_PLOT_W + 40, y + 4, pc_side_label(i, lab));
	fputs("</svg>\n<figcaption>", f);
	pc_html_escape(f, group);
	fprintf(f, ": %s per operation over %s (%s scale)</figcaption>\n</figure>\n", unit,
		*l->s[0].xword ? l->s[0].xword : "size", s.log ? "logarithmic" : "linear");
}

#define HEAD_LEN (PC_LABEL_LEN + 16)

/* The figures of a group's rows, a column per side; -1 when out of memory.
 * head: a heading's room per side. */
static int figures_table(struct pc_table *tab, const struct pc_cmp_table *t,
			 const size_t *rows, size_t n, struct pc_footnotes *fn,
			 char (*head)[HEAD_LEN])
{
	struct pc_table_col *cols = calloc(t->nsides + 1, sizeof(*cols));
	char l[PC_LABEL_LEN];
	size_t r, i;
	int rc, k;

	if (!cols)
		return -1;
	cols[0] = probe_col;
	for (i = 0; i < t->nsides; i++) {
		snprintf(head[i], HEAD_LEN, "%s median " PC_MAD_LABEL,
			 pc_side_label(i, l));
		cols[1 + i] = (struct pc_table_col){ .head = head[i],
						     .flags = PC_COL_ASCII };
	}
	rc = pc_table_init(tab, NULL, cols, t->nsides + 1);
	free(cols);
	tab->marks = figure_marks;
	tab->nmarks = 2;
	tab->note_href = "#note-";
	tab->row_data = "probe";
	for (r = 0; rc == 0 && r < n; r++) {
		const struct pc_cmp_row *row = &t->row[rows[r]];

		if (pc_table_row(tab) < 0 ||
		    pc_table_text(tab, r, 0, "%s", row->probe) < 0)
			return -1;
		for (i = 0; i < t->nsides; i++) {
			if (side_cell(tab, r, 1 + i, &row->cell[i]) < 0)
				return -1;
			if ((k = pc_cell_footnote(&row->cell[i], fn)) > 0)
				pc_table_at(tab, r, 1 + i)->note = (unsigned)k;
		}
	}
	return rc;
}

/* The chart's figures as a table: its text alternative, and what prints;
 * -1 when out of memory. */
static int figures(FILE *f, const struct pc_cmp_table *t, const size_t *rows,
		   size_t n, struct pc_footnotes *fn)
{
	char (*head)[HEAD_LEN] = calloc(t->nsides + 1, sizeof(*head));
	struct pc_table tab = { 0 };
	int rc = head ? figures_table(&tab, t, rows, n, fn, head) : -1;

	if (rc == 0)
		pc_table_draw_html(f, &tab, "figures");
	pc_table_free(&tab);
	free(head);
	return rc;
}

static int groups(FILE *f, const struct pc_compare *m, struct pc_footnotes *fn)
{
	size_t c, r, q, n, *rows, id = 0;
	static struct lines ln;

	fputs("<section id=\"charts\">\n<h2>Figures by probe group</h2>\n", f);
	for (c = 0; c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		rows = calloc(t->nrows + 1, sizeof(*rows));
		if (!rows)
			return -1;
		for (r = 0; r < t->nrows; r++) {
			const char *g = t->row[r].group ? t->row[r].group : "other";

			for (q = 0; q < r; q++)	/* drawn with an earlier row */
				if (strcmp(t->row[q].group ? t->row[q].group : "other", g) == 0)
					break;
			if (q < r)
				continue;
			for (n = 0, q = r; q < t->nrows; q++)
				if (strcmp(t->row[q].group ? t->row[q].group : "other", g) == 0)
					rows[n++] = q;
			fputs("<h3>", f);
			if (*t->title) {
				pc_html_escape(f, t->title);
				fputs(": ", f);
			}
			pc_html_escape(f, g);
			fputs("</h3>\n", f);
			if (lines_of(t, rows, n, &ln))
				line_chart(f, m, t, rows, n, &ln, g, id++);
			else
				chart(f, m, t, rows, n, g, id++, fn);
			if (figures(f, t, rows, n, fn) < 0) {
				free(rows);
				return -1;
			}
		}
		free(rows);
	}
	fputs("</section>\n", f);
	return 0;
}

/* ---- the comparison view ------------------------------------------------------ */

/* A verdict in words after its sign, in its class (the page's colours). */
static int verdict_cell(struct pc_table *tab, size_t r, size_t col,
			const struct pc_cmp_cell *c)
{
	const char *name = pc_verdict_name(c->verdict);

	if (c->verdict == PC_VERDICT_NONE)
		return 0;
	if (c->verdict == PC_VERDICT_NOT_COMPARABLE) {
		pc_table_at(tab, r, col)->cls = "nc";
		return pc_table_text(tab, r, col, "not comparable: %s", c->why);
	}
	pc_table_at(tab, r, col)->cls = name;
	return pc_table_text(tab, r, col, "%s %s", c->verdict == PC_VERDICT_SLOWER ?
			     SIGN_SLOWER : c->verdict == PC_VERDICT_FASTER ? SIGN_FASTER :
			     "=", name);
}

/* A probe's row: each side's figure, and for each but A its ratio to A
 * and its verdict. */
static int comparison_row(struct pc_table *tab, const struct pc_cmp_table *t,
			  const struct pc_cmp_row *row)
{
	long at = pc_table_row(tab);
	size_t r = (size_t)at, col = 1, i;

	if (at < 0 || pc_table_text(tab, r, 0, "%s", row->probe) < 0)
		return -1;
	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_cell *c = &row->cell[i];

		if (side_cell(tab, r, col++, c) < 0)
			return -1;
		if (!i)
			continue;
		if (!isnan(c->ratio) && pc_table_text(tab, r, col, "%.3fx", c->ratio) < 0)
			return -1;
		if (verdict_cell(tab, r, col + 1, c) < 0)
			return -1;
		col += 2;
	}
	return 0;
}

/* The comparison of a table's sides: probe, then per side its figure, and
 * for each but A "B/A" and the verdict; -1 when out of memory. head: two
 * headings' room per side. */
static int comparison_table(struct pc_table *tab, const struct pc_cmp_table *t,
			    char (*head)[HEAD_LEN])
{
	struct pc_table_col *cols = calloc(3 * t->nsides, sizeof(*cols));
	size_t n = 0, r, i;
	int rc;

	if (!cols)
		return -1;
	cols[n++] = probe_col;
	for (i = 0; i < t->nsides; i++) {
		cols[n++] = (struct pc_table_col){ .head = pc_side_label(i, head[2 * i]),
						   .flags = PC_COL_ASCII };
		if (!i)
			continue;
		snprintf(head[2 * i + 1], HEAD_LEN, "%s/A", head[2 * i]);
		cols[n++] = (struct pc_table_col){ .head = head[2 * i + 1] };
		cols[n++] = (struct pc_table_col){ .head = "verdict",
						   .flags = PC_COL_LEFT | PC_COL_ASCII };
	}
	rc = pc_table_init(tab, NULL, cols, n);
	free(cols);
	tab->marks = figure_marks;
	tab->nmarks = 2;
	for (r = 0; rc == 0 && r < t->nrows; r++)
		rc = comparison_row(tab, t, &t->row[r]);
	return rc;
}

static int comparison(FILE *f, const struct pc_compare *m)
{
	size_t c;
	int rc = 0;

	fprintf(f, "<section id=\"comparison\">\n<h2>Comparison against A</h2>\n"
		"<p>%s per operation, median " PC_MAD_LABEL "; ratio to A; verdict: "
		"significant (Mann-Whitney U p &lt; %g on raw samples, else no overlap "
		"of quartiles) and at least %g%% or the probe's spread (&#9650; slower, "
		"&#9660; faster, = same). Totals: %zu slower, %zu faster, %zu same, "
		"%zu not comparable.</p>\n",
		pc_metric_name(m->cfg.metric), m->cfg.alpha, m->cfg.threshold_pct,
		m->slower, m->faster, m->same, m->not_comparable);
	for (c = 0; rc == 0 && c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];
		char (*head)[HEAD_LEN];
		struct pc_table tab = { 0 };

		if (t->nsides < 2)
			continue;
		head = calloc(2 * t->nsides, sizeof(*head));
		rc = head ? comparison_table(&tab, t, head) : -1;
		if (rc == 0)
			pc_table_draw_html(f, &tab, NULL);
		pc_table_free(&tab);
		free(head);
	}
	fputs("</section>\n", f);
	return rc;
}

static void notes(FILE *f, const struct pc_footnotes *fn)
{
	size_t i;

	fputs("<section id=\"notes\">\n<h2>Notes</h2>\n", f);
	if (!fn->n)
		fputs("<p>None.</p>\n", f);
	else
		fputs("<ol class=\"notes\">\n", f);
	for (i = 0; i < fn->n; i++) {
		fprintf(f, "<li id=\"note-%zu\">", i + 1);
		pc_html_escape(f, fn->text[i]);
		fputs("</li>\n", f);
	}
	if (fn->n)
		fputs("</ol>\n", f);
	fputs("</section>\n", f);
}

int pc_report_html(FILE *f, const struct pc_compare *m,
		   const struct pc_report_html_opts *o)
{
	struct pc_footnotes fn = { 0, NULL };
	int rc;

	head(f, o);
	fprintf(f, "<p>Written by primcost %s. Figures are %s per operation; "
		"&#8220;%s&#8221; marks a figure that is not there, [N] its "
		"reason in the notes.</p>\n", o->version, pc_metric_name(m->cfg.metric),
		PC_NO_VALUE);
	cpus(f, m, &fn);
	answers(f, m);
	rc = groups(f, m, &fn);
	if (rc == 0 && o->comparison)
		rc = comparison(f, m);
	notes(f, &fn);
	fputs("</body>\n</html>\n", f);
	pc_footnotes_free(&fn);
	return rc < 0 || ferror(f) ? -1 : 0;
}
