/* SPDX-License-Identifier: MIT */
/*
 * report_html.c - the comparison model as one HTML page (report_html.h).
 * Everything is written here and in report_summary.c, report_chart.c,
 * report_heatmap.c and report_calls.c:
 * the SVG charts are plain elements, the style one inline sheet, no
 * script, nothing fetched. Every figure and verdict comes from the model;
 * colour repeats what a word, a shape or a figure already says.
 *
 * The page leads with the user's own files: the summary (their CPUs and
 * overview matrix, a comparison's verdicts; then the answers to the
 * published tables' questions and those tables beside them), then a chart
 * per probe group with its table, the comparison, the CPUs in detail and,
 * last, the notes, each said once.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_page.h"
#include "results/answers.h"
#include "results/table.h"

/* ---- each CPU's style -------------------------------------------------------- */

/* Each CPU's colour and marker shape, twelve of each and every pair
 * distinct. The colours: Okabe-Ito's but its yellow (a line or a cross
 * in it all but vanishes on white), then five of Paul Tol's (indigo,
 * wine, rose, olive, brown) chosen to stay apart from them under simulated
 * deuteranopia and protanopia; so many colours are not all told apart
 * with a colour-vision deficiency, so the shapes tell every CPU apart
 * without colour (and in print). The shape as a character (UTF-8; the
 * page writes it as a numeric reference): circle, square, triangle,
 * diamond, triangle down, plus, cross, ring, then open square, open
 * triangle, open diamond and star. */
static const struct {
	const char *colour, *glyph;
} styles[PC_PAGE_STYLES] = {
	{ "#0072b2", "\u25cf" }, { "#e69f00", "\u25a0" }, { "#009e73", "\u25b2" },
	{ "#cc79a7", "\u25c6" }, { "#56b4e9", "\u25bc" }, { "#d55e00", "\u271a" },
	{ "#000000", "\u2716" }, { "#332288", "\u25cb" }, { "#882255", "\u25a1" },
	{ "#ee6677", "\u25b3" }, { "#666633", "\u25c7" }, { "#663333", "\u2605" },
};

const char *pc_page_colour(size_t side)
{
	return styles[side % PC_PAGE_STYLES].colour;
}

const char *pc_page_glyph(size_t side)
{
	return styles[side % PC_PAGE_STYLES].glyph;
}

/* A five-pointed star about (x, y), filled with c. */
static void star(FILE *f, double x, double y, const char *c)
{
	int k;

	fputs("<path d=\"", f);
	for (k = 0; k < 10; k++) {
		double r = k % 2 ? 2.2 : 5.2, a = M_PI * k / 5;

		fprintf(f, "%c%.1f %.1f", k ? 'L' : 'M', x + r * sin(a), y - r * cos(a));
	}
	fprintf(f, "z\" fill=\"%s\"", c);
}

/* The shape of side at (x, y), its element left open for its title; the
 * element's name. */
static const char *shape(FILE *f, size_t side, double x, double y)
{
	static const char open[] = "fill=\"#fff\" stroke-width=\"1.8\" stroke";
	const char *c = pc_page_colour(side);

	switch (side % PC_PAGE_STYLES) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"", x, y, c);
		return "circle";
	case 1:
		fprintf(f, "<path d=\"M%.1f %.1fh6v6h-6z\" fill=\"%s\"", x - 3, y - 3, c);
		break;
	case 2:
		fprintf(f, "<path d=\"M%.1f %.1fl4 7h-8z\" fill=\"%s\"", x, y - 4.5, c);
		break;
	case 3:
		fprintf(f, "<path d=\"M%.1f %.1fl4.5 4.5l-4.5 4.5l-4.5 -4.5z\" fill=\"%s\"",
			x, y - 4.5, c);
		break;
	case 4:
		fprintf(f, "<path d=\"M%.1f %.1fl4 -7h-8z\" fill=\"%s\"", x, y + 4.5, c);
		break;
	case 5:
		fprintf(f, "<path d=\"M%.1f %.1fh9M%.1f %.1fv9\" stroke=\"%s\" "
			"stroke-width=\"2.5\" fill=\"none\"", x - 4.5, y, x, y - 4.5, c);
		break;
	case 6:
		fprintf(f, "<path d=\"M%.1f %.1fl7 7M%.1f %.1fl-7 7\" stroke=\"%s\" "
			"stroke-width=\"2.5\" fill=\"none\"", x - 3.5, y - 3.5, x + 3.5,
			y - 3.5, c);
		break;
	case 7:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#fff\" "
			"stroke=\"%s\" stroke-width=\"2\"", x, y, c);
		return "circle";
	case 8:
		fprintf(f, "<path d=\"M%.1f %.1fh7v7h-7z\" %s=\"%s\"", x - 3.5, y - 3.5,
			open, c);
		break;
	case 9:
		fprintf(f, "<path d=\"M%.1f %.1fl4.5 8h-9z\" %s=\"%s\"", x, y - 5, open, c);
		break;
	case 10:
		fprintf(f, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" %s=\"%s\"", x, y - 5,
			open, c);
		break;
	default:
		star(f, x, y, c);
		break;
	}
	return "path";
}

void pc_page_marker(FILE *f, size_t side, double x, double y, const char *tip)
{
	const char *element = shape(f, side, x, y);

	fputs("><title>", f);
	pc_html_escape(f, tip);
	fprintf(f, "</title></%s>\n", element);
}

const char *pc_page_cpu_name(const struct pc_cmp_side *s)
{
	return s->brand ? s->brand : s->key;
}

const char *pc_page_other_unit(const struct pc_page *pg, const struct pc_cmp_side *s,
			       const char *probe)
{
	static const char *const units[] = { "cycles", "ns", "ticks" };
	size_t u;

	for (u = 0; s->entry && u < sizeof(units) / sizeof(units[0]); u++)
		if (strcmp(units[u], pc_metric_name(pg->m->cfg.metric)) != 0 &&
		    !isnan(pc_probe_median(s->entry, probe, units[u])))
			return units[u];
	return NULL;
}

/* ---- the page's notes -------------------------------------------------------- */

/* Where a number of a reason starts (digits, a fraction), and its length;
 * not one inside a word ("cmpxchg64"), a date or a range ("64-bit"). */
static size_t number_at(const char *s, const char *start)
{
	size_t n;

	if (!isdigit((unsigned char)*s) || (s > start && (isalnum((unsigned char)s[-1]) ||
							   strchr("_.-", s[-1]))))
		return 0;
	n = strspn(s, "0123456789");
	if (s[n] == '.' && isdigit((unsigned char)s[n + 1]))
		n += 1 + strspn(s + n + 1, "0123456789");
	if (isalnum((unsigned char)s[n]) || strchr("_-", s[n]))
		return 0;
	return n;
}

/* text as its shape (numbers as \1) into sh, its numbers into num (at most
 * max); the count of numbers. */
static size_t shape_of(const char *text, char *sh, double *num, char (*num_text)[24],
		       size_t max)
{
	const char *s = text;
	size_t n = 0, k;

	while (*s) {
		k = n < max ? number_at(s, text) : 0;
		if (k && k < 24) {
			snprintf(num_text[n], 24, "%.*s", (int)k, s);
			num[n] = atof(num_text[n]);
			n++;
			*sh++ = '\1';
			s += k;
			continue;
		}
		*sh++ = *s++;
	}
	*sh = 0;
	return n;
}

#define NOTE_NUMS 16

/* Widens note's ranges by the numbers num. */
static void note_widen(struct pc_page_note *note, const double *num,
		       char (*num_text)[24])
{
	size_t i;

	for (i = 0; i < note->nnum; i++) {
		if (num[i] < note->lo[i]) {
			note->lo[i] = num[i];
			memcpy(note->lo_text[i], num_text[i], 24);
		}
		if (num[i] > note->hi[i]) {
			note->hi[i] = num[i];
			memcpy(note->hi_text[i], num_text[i], 24);
		}
	}
}

static int note_add(struct pc_page *pg, const char *shape, const double *num,
		    char (*num_text)[24], size_t nnum)
{
	struct pc_page_note *g = realloc(pg->note, (pg->nnotes + 1) * sizeof(*g)), *note;

	if (!g)
		return -1;
	pg->note = g;
	note = memset(&g[pg->nnotes], 0, sizeof(*note));
	note->shape = strdup(shape);
	note->nnum = nnum;
	note->lo = calloc(nnum + 1, sizeof(double));
	note->hi = calloc(nnum + 1, sizeof(double));
	note->lo_text = calloc(nnum + 1, 24);
	note->hi_text = calloc(nnum + 1, 24);
	pg->nnotes++;
	if (!note->shape || !note->lo || !note->hi || !note->lo_text || !note->hi_text)
		return -1;
	memcpy(note->lo, num, nnum * sizeof(double));
	memcpy(note->hi, num, nnum * sizeof(double));
	memcpy(note->lo_text, num_text, nnum * 24);
	memcpy(note->hi_text, num_text, nnum * 24);
	return (int)pg->nnotes;
}

int pc_page_note(struct pc_page *pg, const char *text, bool merge)
{
	char *shape = malloc(strlen(text) + 1), num_text[NOTE_NUMS][24];
	double num[NOTE_NUMS];
	size_t i, n;
	int k;

	if (!shape)
		return -1;
	/* a note that merges none keeps its text whole: no number, no \1 */
	n = merge ? shape_of(text, shape, num, num_text, NOTE_NUMS) :
		    (strcpy(shape, text), 0);
	for (i = 0; i < pg->nnotes; i++) {
		if (pg->note[i].merge == merge && pg->note[i].nnum == n &&
		    strcmp(pg->note[i].shape, shape) == 0)
			break;
	}
	if (i < pg->nnotes) {
		note_widen(&pg->note[i], num, num_text);
		k = (int)i + 1;
	} else {
		k = note_add(pg, shape, num, num_text, n);
		if (k > 0)
			pg->note[k - 1].merge = merge;
	}
	free(shape);
	return k;
}

int pc_page_cell_note(struct pc_page *pg, const struct pc_cmp_cell *c)
{
	int k = pc_cell_footnote(c, &pg->raw);

	return k > 0 ? pc_page_note(pg, pg->raw.text[k - 1], true) : k;
}

void pc_page_note_ref(FILE *f, int k)
{
	if (k > 0)
		fprintf(f, "<sup><a href=\"#note-%d\">[%d]</a></sup>", k, k);
}

static void note_text(FILE *f, const struct pc_page_note *note)
{
	const char *s;
	char one[2] = { 0, 0 };
	size_t i = 0;

	for (s = note->shape ? note->shape : ""; *s; s++) {
		if (*s != '\1') {
			one[0] = *s;
			pc_html_escape(f, one);
			continue;
		}
		pc_html_escape(f, note->lo_text[i]);
		if (note->hi[i] != note->lo[i]) {
			fputs(" to ", f);
			pc_html_escape(f, note->hi_text[i]);
		}
		i++;
	}
}

static void notes_free(struct pc_page *pg)
{
	size_t i;

	for (i = 0; i < pg->nnotes; i++) {
		free(pg->note[i].shape);
		free(pg->note[i].lo);
		free(pg->note[i].hi);
		free(pg->note[i].lo_text);
		free(pg->note[i].hi_text);
	}
	free(pg->note);
	pc_footnotes_free(&pg->raw);
}

/* ---- the page ---------------------------------------------------------------- */

static void head(FILE *f, const struct pc_report_html_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"primcost ", f);
	pc_html_escape(f, o->version);
	fputs("\">\n<title>primcost report</title>\n<style>\n"
	      "body{font:14px/1.4 sans-serif;color:#111;background:#fff;margin:1.5em auto;"
	      "max-width:80em;padding:0 1em}\n"
	      "h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;border-bottom:1px solid "
	      "#999;margin:1.4em 0 .5em}h3{font-size:1.1em;margin:1.2em 0 .4em}h4{font-size:1em;margin:1em 0 .3em}\n"
	      "p{margin:.4em 0;max-width:62em}\n"
	      "table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #bbb;"
	      "padding:1px 6px;vertical-align:top}th{background:#eee;text-align:left}\n"
	      "td.n,table.overview td{text-align:right;font-variant-numeric:tabular-nums;"
	      "white-space:nowrap}table.overview td:first-child{text-align:left}\n"
	      ".g{font-size:1.1em;line-height:1}\n"
	      ".slower{background:#f8d0d0}.faster{background:#cfeccf}.same{background:#eee}\n"
	      ".nc{font-style:italic}\n"
	      /* the overview's shades: purple cheaper, orange dearer (PuOr) */
	      ".s-3{background:#b2abd2}.s-2{background:#d8daeb}.s-1{background:#e9e8f3}"
	      ".s0{background:#fff}.s1{background:#fdebd3}.s2{background:#fee0b6}"
	      ".s3{background:#fdb863}\n"
	      "span.key{display:inline-block;padding:0 .5em;border:1px solid #bbb;"
	      "margin-right:.2em;font-size:.9em}\n"
	      "dl.answers dt{margin-top:.4em;font-weight:bold}dl.answers dd{margin-left:1.5em}\n"
	      ".src{color:#444;font-weight:normal}\n"
	      "figure{margin:.6em 0;page-break-inside:avoid;break-inside:avoid}"
	      /* a caption wraps to its figure, never widens it */
	      "figcaption{font-size:.9em;color:#333;contain:inline-size}\n"
	      "div.panels{display:flex;flex-wrap:wrap;gap:0 8px}\n"
	      "div.pair{display:flex;flex-wrap:wrap;gap:0 1.5em;align-items:flex-start}"
	      "div.pair>*{min-width:0;max-width:100%}\n"
	      /* the page is never wider than the window: a wider table scrolls
	       * in its own box, a long word breaks */
	      "div.wide{max-width:100%;overflow-x:auto}body{overflow-wrap:break-word}\n"
	      "svg{max-width:100%;height:auto}svg text{font:11px sans-serif;fill:#111}"
	      "svg text.cell{font-size:9.5px}svg text.on-dark{fill:#fff}\n"
	      "sup{line-height:0}sup a{text-decoration:none}ol.notes li{margin:.2em 0}\n"
	      "@media print{body{max-width:none;margin:0;font-size:11px}"
	      "a{color:inherit}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	      "table,tr{page-break-inside:avoid;break-inside:avoid}div.wide{overflow:visible}}\n"
	      "</style>\n</head>\n<body>\n<h1>primcost report</h1>\n", f);
}

/* ---- the CPUs in detail ------------------------------------------------------ */

enum { SIDE_KEY, SIDE_CPU, SIDE_MODEL, SIDE_FILE, SIDE_CYCLES, SIDE_VIRT, SIDE_RELIABILITY,
       SIDE_COLS };

/* Side i's row of the CPUs' table. -1 when out of memory. */
static int side_row(struct pc_table *tab, const struct pc_cmp_side *s, size_t i)
{
	char l[PC_LABEL_LEN], *rel = NULL;
	size_t len = 0;
	long r = pc_table_row(tab);
	FILE *m;

	if (r < 0 || !(m = open_memstream(&rel, &len)))
		return -1;
	if (!s->entry)
		fputs("absent from this file", m);
	else if (s->unreliable)
		fputs(PC_STRONG_ON "unreliable" PC_STRONG_OFF, m);
	else
		fputs("reliable", m);
	if (s->partial_figures)
		fprintf(m, "; %zu figures from a partial run", s->partial_figures);
	if (s->runs_used > 1)
		fprintf(m, "; figures from %zu runs", s->runs_used);
	if (fclose(m) != 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_KEY, "%s", s->key) < 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_CPU, "%s", pc_side_label(i, l)) < 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_MODEL, "%s", s->key) < 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_FILE, "%s", s->file) < 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_CYCLES, "%s", s->cycles_source ?
			  s->cycles_source : PC_NO_VALUE) < 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_VIRT, "%s", s->virtualized == 1 ?
			  "virtual machine" : s->virtualized == 0 ? "bare metal" : "unknown") < 0 ||
	    pc_table_text(tab, (size_t)r, SIDE_RELIABILITY, "%s", rel) < 0) {
		free(rel);
		return -1;
	}
	free(rel);
	pc_table_at(tab, (size_t)r, SIDE_CPU)->glyph = pc_page_glyph(i);
	pc_table_at(tab, (size_t)r, SIDE_CPU)->glyph_colour = pc_page_colour(i);
	return 0;
}

/* Each table's CPUs in detail: a table of the model each. */
static int cpus(FILE *f, const struct pc_compare *m)
{
	static const struct pc_table_col cols[SIDE_COLS] = {
		[SIDE_KEY] = { .head = "model key", .flags = PC_COL_LEFT | PC_COL_DATA },
		[SIDE_CPU] = { .head = "CPU", .flags = PC_COL_LEFT },
		[SIDE_MODEL] = { .head = "model key", .flags = PC_COL_LEFT },
		[SIDE_FILE] = { .head = "file", .flags = PC_COL_LEFT },
		[SIDE_CYCLES] = { .head = "cycles", .flags = PC_COL_LEFT },
		[SIDE_VIRT] = { .head = "virtualization", .flags = PC_COL_LEFT },
		[SIDE_RELIABILITY] = { .head = "reliability", .flags = PC_COL_LEFT },
	};
	struct pc_table tab;
	size_t c, i;
	int rc = 0;

	fputs("<section id=\"cpus\">\n<h2>The CPUs in detail</h2>\n", f);
	for (c = 0; rc == 0 && c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		if (*t->title) {
			fputs("<h3>", f);
			pc_html_escape(f, t->title);
			fputs("</h3>\n", f);
		}
		if (pc_table_init(&tab, NULL, cols, SIDE_COLS) < 0)
			return -1;
		tab.row_data = "cpu";
		for (i = 0; rc == 0 && i < t->nsides; i++)
			rc = side_row(&tab, &t->side[i], i);
		if (rc == 0)
			pc_page_table_draw(f, &tab, NULL);
		pc_table_free(&tab);
	}
	fputs("</section>\n", f);
	return rc;
}

/* ---- the comparison view ----------------------------------------------------- */

/* The tables' marks: a figure noisy, not linear. */
static const struct pc_table_mark figure_marks[] = {
	{ "~", " (noisy)" }, { "^", " (not linear)" },
};
#define PLUS_MINUS "\xc2\xb1"		/* &#177; */
#define SIGN_SLOWER "\xe2\x96\xb2"	/* &#9650; */
#define SIGN_FASTER "\xe2\x96\xbc"	/* &#9660; */
#define HEAD_LEN (PC_LABEL_LEN + 16)

void pc_page_table_draw(FILE *f, const struct pc_table *t, const char *cls)
{
	fputs("<div class=\"wide\">\n", f);
	pc_table_draw_html(f, t, cls);
	fputs("</div>\n", f);
}

void pc_page_table_marks(struct pc_table *t)
{
	t->marks = figure_marks;
	t->nmarks = 2;
}

int pc_page_figure_cell(struct pc_table *t, size_t r, size_t col,
			const struct pc_cmp_cell *c)
{
	char v[32], d[32];

	if (c->state == PC_CELL_STATUS)
		return pc_table_text(t, r, col, "%s", c->status ? c->status : "");
	if (c->state != PC_CELL_OK)
		return 0;
	pc_table_at(t, r, col)->marks = (c->noisy ? 1u : 0) | (c->nonlinear ? 2u : 0);
	pc_fmt_figure(c->median, v, sizeof(v));
	if (c->single)
		return pc_table_text(t, r, col, "%s", v);
	return pc_table_text(t, r, col, "%s " PLUS_MINUS "%s", v,
			     pc_fmt_figure(c->mad, d, sizeof(d)));
}

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

		if (pc_page_figure_cell(tab, r, col++, c) < 0)
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
	cols[n++] = (struct pc_table_col){ .head = "probe",
					   .flags = PC_COL_STUB | PC_COL_LEFT };
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
	pc_page_table_marks(tab);
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
			pc_page_table_draw(f, &tab, NULL);
		pc_table_free(&tab);
		free(head);
	}
	fputs("</section>\n", f);
	return rc;
}

/* ---- the notes --------------------------------------------------------------- */

/* Whether the page shows note i of t: not what the CPUs' table says of
 * each CPU, not how verdicts were reached when there are none; not twice. */
static bool note_shown(const struct pc_page *pg, size_t c, size_t i)
{
	const struct pc_cmp_table *t = &pg->m->table[c];
	size_t d, j;

	if (t->note_kind[i] == PC_NOTE_SIDE ||
	    (t->note_kind[i] == PC_NOTE_JUDGING && !pg->o->comparison))
		return false;
	for (d = 0; d <= c; d++)
		for (j = 0; j < (d < c ? pg->m->table[d].nnotes : i); j++)
			if (strcmp(pg->m->table[d].note[j], t->note[i]) == 0 &&
			    strcmp(pg->m->table[d].title, t->title) == 0)
				return false;
	return true;
}

static void notes(FILE *f, const struct pc_page *pg)
{
	size_t c, i, n = 0;

	fputs("<section id=\"notes\">\n<h2>Notes</h2>\n", f);
	for (c = 0; c < pg->m->ntables; c++) {
		const struct pc_cmp_table *t = &pg->m->table[c];

		for (i = 0; i < t->nnotes; i++) {
			if (!note_shown(pg, c, i))
				continue;
			fputs(n++ ? "<li>" : "<p>Between the CPUs:</p>\n<ul>\n<li>", f);
			if (*t->title) {
				pc_html_escape(f, t->title);
				fputs(": ", f);
			}
			pc_html_escape(f, t->note[i]);
			fputs("</li>\n", f);
		}
	}
	if (n)
		fputs("</ul>\n", f);
	if (!pg->nnotes && !n)
		fputs("<p>None.</p>\n", f);
	if (pg->nnotes)
		fputs("<ol class=\"notes\">\n", f);
	for (i = 0; i < pg->nnotes; i++) {
		fprintf(f, "<li id=\"note-%zu\">", i + 1);
		note_text(f, &pg->note[i]);
		fputs("</li>\n", f);
	}
	if (pg->nnotes)
		fputs("</ol>\n", f);
	fputs("</section>\n", f);
}

int pc_report_html(FILE *f, const struct pc_compare *m,
		   const struct pc_report_html_opts *o)
{
	struct pc_page pg = { .m = m, .o = o };
	int rc;

	head(f, o);
	fprintf(f, "<p>Written by primcost %s. Figures are %s per operation, the median "
		"of each probe; &#8220;%s&#8221; marks a figure that is not there, [N] its "
		"note at the end of the page.</p>\n", o->version,
		pc_metric_name(m->cfg.metric), PC_NO_VALUE);
	rc = pc_page_summary(f, &pg);
	if (rc == 0)
		rc = pc_page_charts(f, &pg);
	if (rc == 0 && o->comparison)
		rc = comparison(f, m);
	if (rc == 0)
		rc = cpus(f, m);
	notes(f, &pg);
	fputs("</body>\n</html>\n", f);
	notes_free(&pg);
	return rc < 0 || ferror(f) ? -1 : 0;
}
