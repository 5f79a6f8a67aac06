/* SPDX-License-Identifier: MIT */
/*
 * report_heatmap.c - the points of pairs of CPUs on primcost report's page
 * (report_page.h): c2c.latency's pairs (run --locks, --matrix for every
 * pair) as a heat map per CPU that measured them, a grid of its CPUs
 * against its CPUs, each cell's colour its figure on one scale for the
 * probe's maps, the figure written in the cell where it fits. The group's
 * table keeps the same figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_page.h"
#include "results/table.h"

bool pc_page_pair(const struct pc_cmp_table *t, size_t r, unsigned *a, unsigned *b)
{
	unsigned x, y;
	size_t i;
	int n;

	for (i = 0; i < t->nsides; i++) {
		json_t *p = json_object_get(json_object_get(t->side[i].entry, "probes"),
					    t->row[r].probe);
		const char *pl = json_string_value(json_object_get(p, "placement"));
		const char *cpus = json_string_value(json_object_get(p, "cpus"));

		if (!pl || strcmp(pl, "pair") != 0 || !cpus)
			continue;
		if (sscanf(cpus, "%u,%u%n", &x, &y, &n) != 2 || cpus[n] || x == y)
			continue;
		if (a)
			*a = x;
		if (b)
			*b = y;
		return true;
	}
	return false;
}

/* ---- the colour scale -------------------------------------------------------- */

/* viridis, reversed: pale yellow the cheapest, dark violet the dearest,
 * as the text view's map is darker when dearer; even steps of lightness,
 * read the same with the common colour-vision deficiencies and in grey. */
static const unsigned char ramp[][3] = {
	{ 0xfd, 0xe7, 0x25 }, { 0xad, 0xdc, 0x30 }, { 0x5e, 0xc9, 0x62 },
	{ 0x28, 0xae, 0x80 }, { 0x21, 0x91, 0x8c }, { 0x2c, 0x72, 0x8e },
	{ 0x3b, 0x52, 0x8b }, { 0x47, 0x2d, 0x7b }, { 0x44, 0x01, 0x54 },
};
#define RAMP_STOPS (sizeof(ramp) / sizeof(ramp[0]))

struct heat {
	double lo, hi;		/* the scale's ends: the figures of the probe's pairs,
				 * a factor of HM_SPAN apart at least */
	const char *unit;	/* "cycles" */
	const char *per;	/* what one figure is: "per one-way transfer of a line" */
	const char *probe;	/* "c2c.latency" */
};

#define PAIR_PROBE 160

/* Where v is on the scale, 0..1. */
static double heat_at(const struct heat *h, double v)
{
	double x = h->hi > h->lo ? (v - h->lo) / (h->hi - h->lo) : 0.5;

	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The colour at x (0..1) into buf ("#rrggbb"); whether text on it is
 * best white. */
static bool heat_colour(double x, char *buf, size_t len)
{
	double at = x * (RAMP_STOPS - 1), w;
	size_t k = (size_t)at, c;
	unsigned char rgb[3];

	if (k >= RAMP_STOPS - 1)
		k = RAMP_STOPS - 2;
	w = at - (double)k;
	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)lround(ramp[k][c] * (1 - w) + ramp[k + 1][c] * w);
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
	return x > 0.5;
}

/* A cell's figure, short: whole above 10, else one decimal (its tooltip
 * and the table hold it in full). */
static const char *heat_text(double v, char *buf, size_t len)
{
	snprintf(buf, len, v >= 10 ? "%.0f" : "%.1f", v);
	return buf;
}

/* ---- a CPU's map ------------------------------------------------------------- */

/* A map's geometry: its cell, the margins for the CPUs' numbers. */
#define HM_GRID 440		/* the grid's width at most */
#define HM_CELL_MAX 44
#define HM_CELL_MIN 4
#define HM_LEFT 44
#define HM_TOP 44
#define HM_CHAR 5.6		/* a cell's character at 9.5 px, about */
#define HM_LABEL 14		/* room a CPU's number needs along an axis */
#define HM_MAX_CPUS 1024
/* The least factor between the scale's ends. */
#define HM_SPAN 2.0

/* The CPUs of side i's pairs among rows, ascending, into cpu; how many. */
static size_t map_cpus(const struct pc_cmp_table *t, const size_t *rows, size_t n,
		       size_t i, unsigned *cpu)
{
	unsigned ab[2];
	size_t r, k, j, m = 0;

	for (r = 0; r < n; r++) {
		if (t->row[rows[r]].cell[i].state != PC_CELL_OK ||
		    !pc_page_pair(t, rows[r], &ab[0], &ab[1]))
			continue;
		for (k = 0; k < 2; k++) {
			for (j = 0; j < m && cpu[j] < ab[k]; j++)
				;
			if ((j < m && cpu[j] == ab[k]) || m == HM_MAX_CPUS)
				continue;
			memmove(&cpu[j + 1], &cpu[j], (m - j) * sizeof(*cpu));
			cpu[j] = ab[k];
			m++;
		}
	}
	return m;
}

static size_t cpu_index(const unsigned *cpu, size_t m, unsigned c)
{
	size_t j;

	for (j = 0; j < m && cpu[j] != c; j++)
		;
	return j;
}

/* The grid's frame: the CPUs' numbers along both axes (every k-th where
 * they would crowd), the diagonal (a CPU with itself) grey. */
static void map_frame(FILE *f, const unsigned *cpu, size_t m, int cell)
{
	size_t j, every = (size_t)ceil((double)HM_LABEL / cell);
	double mid;

	for (j = 0; j < m; j++) {
		mid = (double)j * cell + cell / 2.0;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
			"fill=\"#ddd\"/>\n", HM_LEFT + (double)j * cell,
			HM_TOP + (double)j * cell, cell, cell);
		if (j % every)
			continue;
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%u</text>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%u</text>\n",
			HM_LEFT - 4, HM_TOP + mid + 4, cpu[j], HM_LEFT + mid, HM_TOP - 5,
			cpu[j]);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%zu\" height=\"%zu\" fill=\"none\" "
		"stroke=\"#999\"/>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">CPU</text>"
		"<text x=\"11\" y=\"%.1f\" transform=\"rotate(-90 11 %.1f)\" "
		"text-anchor=\"middle\">CPU</text>\n", HM_LEFT, HM_TOP, m * (size_t)cell,
		m * (size_t)cell, HM_LEFT + m * cell / 2.0, HM_TOP - 18, HM_TOP + m * cell / 2.0,
		HM_TOP + m * cell / 2.0);
}

/* A pair's two cells (a, b) and (b, a): its colour, its figure where it
 * fits, its tooltip. */
static void map_pair(FILE *f, const struct heat *h, const struct pc_cmp_row *row,
		     size_t side, size_t ja, size_t jb, int cell)
{
	const struct pc_cmp_cell *c = &row->cell[side];
	char colour[8], v[32], full[32], l[PC_LABEL_LEN];
	bool white = heat_colour(heat_at(h, c->median), colour, sizeof(colour));
	size_t k, x, y;

	heat_text(c->median, v, sizeof(v));
	for (k = 0; k < 2; k++) {
		x = k ? jb : ja;
		y = k ? ja : jb;
		fprintf(f, "<rect x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" fill=\"%s\" "
			"data-probe=\"", HM_LEFT + x * (size_t)cell, HM_TOP + y * (size_t)cell,
			cell, cell, colour);
		pc_html_escape(f, row->probe);
		fprintf(f, "\"><title>%s ", pc_side_label(side, l));
		pc_html_escape(f, row->probe);
		fprintf(f, ": %s %s%s</title></rect>\n", pc_fmt_figure(c->median, full,
			sizeof(full)), h->unit, c->noisy ? " (noisy)" : "");
		if (strlen(v) * HM_CHAR + 4 > cell || cell < 14)
			continue;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"class=\"cell%s\">%s</text>\n", HM_LEFT + (x + 0.5) * cell,
			HM_TOP + (y + 0.5) * cell + 3.5, white ? " on-dark" : "", v);
	}
}

/* The scale under the grid: its colours in steps, the figures at its ends
 * and middle, the unit, what grey and white mean. */
static void map_legend(FILE *f, const struct heat *h, double y, int w)
{
	char colour[8], v[32];
	double step = (w - 20) / 9.0, x;
	int k;

	fputs("<g class=\"scale\">\n", f);
	for (k = 0; k < 9; k++) {
		heat_colour(k / 8.0, colour, sizeof(colour));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" "
			"fill=\"%s\"/>", 10 + k * step, y, step + 0.5, colour);
	}
	fputc('\n', f);
	for (k = 0; k < 3; k++) {
		x = k == 0 ? 10 : k == 1 ? w / 2.0 : w - 10;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", x,
			y + 22, k == 0 ? "start" : k == 1 ? "middle" : "end",
			pc_fmt_figure(h->lo + (h->hi - h->lo) * k / 2.0, v, sizeof(v)));
	}
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">%s ", w / 2, y + 36,
		h->unit);
	pc_html_escape(f, h->per);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">grey: the "
		"CPU itself; white: no figure</text>\n</g>\n", w / 2, y + 50);
}

/* Side i's map of the pairs rows (all of one probe). -1 when out of
 * memory. */
static int heat_map(FILE *f, struct pc_page *pg, const struct heat *h,
		    const struct pc_cmp_table *t, const size_t *rows, size_t n, size_t i)
{
	unsigned *cpu = calloc(HM_MAX_CPUS, sizeof(*cpu)), ab[2];
	size_t m = cpu ? map_cpus(t, rows, n, i, cpu) : 0, r, id;
	char l[PC_LABEL_LEN];
	int cell, w, height;

	if (!cpu)
		return -1;
	if (m < 2) {
		free(cpu);
		return 0;
	}
	cell = HM_GRID / (int)m;
	cell = cell > HM_CELL_MAX ? HM_CELL_MAX : cell < HM_CELL_MIN ? HM_CELL_MIN : cell;
	w = HM_LEFT + (int)m * cell + 10;
	w = w < 300 ? 300 : w;
	height = HM_TOP + (int)m * cell + 70;
	id = pg->nfigures++;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" "
		"role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"aria-labelledby=\"chart%zu-t chart%zu-d\" data-cpu=\"", w, height, w, height,
		id, id);
	pc_html_escape(f, t->side[i].key);
	fprintf(f, "\">\n<title id=\"chart%zu-t\">%s ", id, pc_side_label(i, l));
	pc_html_escape(f, pc_page_cpu_name(&t->side[i]));
	fputs(": ", f);
	pc_html_escape(f, h->probe);
	fprintf(f, ", %s ", h->unit);
	pc_html_escape(f, h->per);
	fprintf(f, ", CPU by CPU</title>\n<desc id=\"chart%zu-d\">A heat map: a row and a "
		"column per CPU, each pair's figure its cell's colour (pale cheap, dark "
		"dear, the scale under it), written in the cell where it fits; the table "
		"gives the same figures.</desc>\n", id);
	pc_page_marker(f, i, 5, 8, l);
	fprintf(f, "<text x=\"14\" y=\"12\" font-weight=\"bold\">%s", l);
	/* its name where it fits beside the letter */
	if ((strlen(l) + 1 + strlen(pc_page_cpu_name(&t->side[i]))) * 6.4 < w - 20) {
		fputc(' ', f);
		pc_html_escape(f, pc_page_cpu_name(&t->side[i]));
	}
	fputs("</text>\n", f);
	map_frame(f, cpu, m, cell);
	for (r = 0; r < n; r++)
		if (t->row[rows[r]].cell[i].state == PC_CELL_OK &&
		    pc_page_pair(t, rows[r], &ab[0], &ab[1]))
			map_pair(f, h, &t->row[rows[r]], i, cpu_index(cpu, m, ab[0]),
				 cpu_index(cpu, m, ab[1]), cell);
	map_legend(f, h, HM_TOP + (double)m * cell + 12, w);
	fputs("</svg>\n", f);
	free(cpu);
	return 0;
}

/* The probe whose point of a pair row r is: its name up to ".cpusA,B"
 * (c2c.latency), into buf. */
static const char *pair_probe(const struct pc_cmp_table *t, size_t r, char *buf, size_t len)
{
	const char *name = t->row[r].probe, *dot = strrchr(name, '.');

	snprintf(buf, len, "%.*s", (int)(dot ? dot - name : (long)strlen(name)), name);
	return buf;
}

/* The rows of rows that are pairs of probe, into out; how many. */
static size_t pairs_of(const struct pc_cmp_table *t, const size_t *rows, size_t n,
		       const char *probe, size_t *out)
{
	char name[PAIR_PROBE];
	size_t r, k = 0;

	for (r = 0; r < n; r++)
		if (pc_page_pair(t, rows[r], NULL, NULL) &&
		    strcmp(pair_probe(t, rows[r], name, sizeof(name)), probe) == 0)
			out[k++] = rows[r];
	return k;
}

/* What one figure of probe's pairs is, from its unit in a side's entry
 * ("per one-way transfer of a line"). */
static const char *pairs_per(const struct pc_cmp_table *t, const size_t *rows, size_t n)
{
	const char *u;
	size_t r, i;

	for (r = 0; r < n; r++)
		for (i = 0; i < t->nsides; i++) {
			u = json_string_value(json_object_get(json_object_get(json_object_get(
				t->side[i].entry, "probes"), t->row[rows[r]].probe), "unit"));
			if (u)
				return u;
		}
	return "per operation";
}

/* The maps of probe's pairs (rows), one scale for all. -1 when out of
 * memory. */
static int probe_maps(FILE *f, struct pc_page *pg, const struct pc_cmp_table *t,
		      const size_t *rows, size_t n, const char *probe)
{
	struct heat h = { INFINITY, -INFINITY, pc_metric_name(pg->m->cfg.metric),
			  pairs_per(t, rows, n), probe };
	size_t r, i;
	int rc = 0;

	for (r = 0; r < n; r++)
		for (i = 0; i < t->nsides; i++) {
			const struct pc_cmp_cell *c = &t->row[rows[r]].cell[i];

			if (c->state != PC_CELL_OK)
				continue;
			h.lo = c->median < h.lo ? c->median : h.lo;
			h.hi = c->median > h.hi ? c->median : h.hi;
		}
	if (!(h.hi >= h.lo))
		return 0;
	/* the scale spans a factor of two at least: figures within noise of
	 * each other (two runs' one pair, 806 and 833) are shades apart, not
	 * its two ends */
	if (h.lo > h.hi / HM_SPAN)
		h.lo = h.hi / HM_SPAN;
	fputs("<figure>\n<div class=\"panels\">\n", f);
	for (i = 0; rc == 0 && i < t->nsides; i++)
		rc = heat_map(f, pg, &h, t, rows, n, i);
	fputs("</div>\n<figcaption>", f);
	pc_html_escape(f, probe);
	fprintf(f, ": %s ", h.unit);
	pc_html_escape(f, h.per);
	fputs(", a heat map of the pairs of CPUs for each CPU that measured them, "
	      "one colour scale for all</figcaption>\n</figure>\n", f);
	return rc;
}

int pc_page_heat_maps(FILE *f, struct pc_page *pg, const struct pc_cmp_table *t,
		      const size_t *rows, size_t n)
{
	size_t *mine = calloc(n + 1, sizeof(*mine)), r, q, k;
	char name[PAIR_PROBE], seen[PAIR_PROBE];
	int rc = mine ? 0 : -1;

	for (r = 0; rc == 0 && r < n; r++) {
		if (!pc_page_pair(t, rows[r], NULL, NULL))
			continue;
		pair_probe(t, rows[r], name, sizeof(name));
		for (q = 0; q < r; q++)	/* drawn with an earlier row */
			if (pc_page_pair(t, rows[q], NULL, NULL) &&
			    strcmp(pair_probe(t, rows[q], seen, sizeof(seen)), name) == 0)
				break;
		if (q < r)
			continue;
		k = pairs_of(t, rows, n, name, mine);
		rc = probe_maps(f, pg, t, mine, k, name);
	}
	free(mine);
	return rc;
}
