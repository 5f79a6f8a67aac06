/* SPDX-License-Identifier: MIT */
/*
 * report_chart.c - the charts of primcost report's page (report_page.h), a
 * probe group at a time, each followed by a table of its figures.
 *
 * A probe measured once per CPU is a bar per CPU that has its figure. The
 * points of a series (NAME.threadsN, an allocator's NAME.SIZE) are lines
 * over threads or size, in panels that share their axes: a line per CPU
 * (its colour and marker) and series (a dash pattern), labelled at its
 * end; their table has a row per line or per x. The points of pairs of
 * CPUs (c2c.latency.cpus0,1) are a heat map (report_heatmap.c) after the
 * bars, their figures in a table of their own beside it. Points that keep
 * their single calls get the distributions of those (report_calls.c)
 * after their lines. A group with no figure in the page's unit gets a line
 * that says so, not an empty chart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_page.h"
#include "results/table.h"

/* ---- scales ------------------------------------------------------------------ */

/* Figures spanning this factor or more are drawn on a log scale. */
#define LOG_SPAN 100.0
/* Ticks on a linear axis: about this many steps of 1, 2 or 5 x 10^k. */
#define LINEAR_STEPS 5

void pc_page_scale_log(struct pc_page_scale *s, double lo, double hi)
{
	s->log = true;
	s->lo = pow(10, floor(log10(lo)));
	s->hi = pow(10, ceil(log10(hi)));
	if (!(s->hi > s->lo))
		s->hi = 10 * s->lo;
}

void pc_page_scale_fit(struct pc_page_scale *s, double lo, double hi)
{
	double raw, mag;

	if (isfinite(lo) && hi / lo >= LOG_SPAN) {
		pc_page_scale_log(s, lo, hi);
		return;
	}
	s->log = false;
	/* figures all within the floor (the baseline) get an axis to it */
	if (!(hi >= 2 * PC_COMPARE_FLOOR))
		hi = 2 * PC_COMPARE_FLOOR;
	/* a figure within 1 % past a tick ends at that tick (1.0004 at 1) */
	raw = hi / LINEAR_STEPS / 1.01;
	mag = pow(10, floor(log10(raw)));
	s->step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag :
		  10 * mag;
	s->lo = 0;
	s->hi = ceil(hi / 1.01 / s->step - 1e-9) * s->step;
	s->decimals = s->step >= 1 ? 0 : (int)ceil(-log10(s->step) - 1e-9);
}

/* Widens lo and hi by cell c's figures. */
static void scale_add(double *lo, double *hi, const struct pc_cmp_cell *c)
{
	if (c->state != PC_CELL_OK)
		return;
	if (c->median >= PC_COMPARE_FLOOR && c->median < *lo)
		*lo = c->median;
	if (c->median > *hi)
		*hi = c->median;
	if (!c->single && c->q3 > *hi)
		*hi = c->q3;
}

/* Whether v has a place on the axis: a log scale has none for 0, nor for
 * a figure below what the method resolves. */
static bool placed(const struct pc_page_scale *s, double v)
{
	return !s->log || (v >= PC_COMPARE_FLOOR && v >= s->lo);
}

double pc_page_at(const struct pc_page_scale *s, double v)
{
	double x;

	if (s->log)
		x = v <= s->lo ? 0 : (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	else
		x = (v - s->lo) / (s->hi - s->lo);
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

double pc_page_tick(const struct pc_page_scale *s, int k)
{
	double t = s->log ? s->lo * pow(10, k) : k * s->step;

	return t <= s->hi * 1.000001 ? t : NAN;
}

const char *pc_page_tick_text(const struct pc_page_scale *s, double t, char *buf,
			      size_t len)
{
	int d = !s->log ? s->decimals : t < 1 ? (int)ceil(-log10(t) - 1e-9) : 0;

	if (s->log && t >= 1e6)
		snprintf(buf, len, "%.0fM", t / 1e6);
	else if (s->log && t >= 1e4)
		snprintf(buf, len, "%.0fk", t / 1e3);
	else
		snprintf(buf, len, "%.*f", d, t);
	return buf;
}

/* ---- a group's rows ---------------------------------------------------------- */

/* Most lines in one panel; past it, a group's series are split. */
#define LINES_PER_PANEL 4
#define SERIES_NAME 160

struct series {
	char name[SERIES_NAME];		/* "alloc.malloc.glibc" */
	size_t n, *row;			/* its points' rows */
	double *x;
	size_t panel, dash;		/* its panel, its dash pattern there */
	char label[SERIES_NAME];	/* what tells it apart in its panel */
};

struct group {
	const struct pc_cmp_table *t;
	size_t c;			/* the table's index */
	const char *name;
	size_t *bar, nbar;		/* rows drawn as bars */
	size_t nseries;
	struct series *s;
	const struct pc_point_shape *shape;	/* of its points: its x axis */
	double *xs;			/* the distinct x, ascending */
	size_t nx;
	bool xlog;
	size_t npanels;
	char (*panel)[SERIES_NAME];	/* their titles: "alloc.malloc.*" */
	bool calls;			/* its lines are those with single calls */
};

static const char *group_of(const struct pc_cmp_row *row)
{
	return row->group ? row->group : "other";
}

bool pc_page_point(const char *probe, char *series, size_t len,
		   const struct pc_point_shape **shape, double *x)
{
	const struct pc_measurement_group *const *g;
	const struct pc_point_shape *const *sh;
	const char *dot = strrchr(probe, '.'), *d;

	if (!dot || (size_t)(dot - probe) >= len)
		return false;
	for (g = pc_groups; *g; g++)
		for (sh = (*g)->points; sh && *sh; sh++) {
			if (strncmp(dot + 1, (*sh)->xtag, strlen((*sh)->xtag)) != 0)
				continue;
			d = dot + 1 + strlen((*sh)->xtag);
			if (!*d || strspn(d, "0123456789") != strlen(d))
				continue;
			snprintf(series, len, "%.*s", (int)(dot - probe), probe);
			*shape = *sh;
			*x = atof(d);
			return *x > 0;
		}
	return false;
}

/* Row r's point into its series (a new one when none has its name); false
 * when it is no point of the group's kind. -1 when out of memory. */
static int series_add(struct group *g, size_t r)
{
	const struct pc_point_shape *shape;
	char name[SERIES_NAME];
	struct series *s;
	double x;
	size_t k;

	if (!pc_page_point(g->t->row[r].probe, name, sizeof(name), &shape, &x) ||
	    (g->shape && strcmp(g->shape->xword, shape->xword) != 0))
		return 0;
	g->shape = shape;
	for (k = 0; k < g->nseries && strcmp(g->s[k].name, name) != 0; k++)
		;
	if (k == g->nseries) {
		if (!(s = realloc(g->s, (k + 1) * sizeof(*s))))
			return -1;
		g->s = s;
		memset(&s[k], 0, sizeof(*s));
		snprintf(s[k].name, sizeof(s[k].name), "%s", name);
		g->nseries++;
	}
	s = &g->s[k];
	if (!(s->row = realloc(s->row, (s->n + 1) * sizeof(*s->row))) ||
	    !(s->x = realloc(s->x, (s->n + 1) * sizeof(*s->x))))
		return -1;
	s->row[s->n] = r;
	s->x[s->n++] = x;
	return 1;
}

static void series_free(struct series *s)
{
	free(s->row);
	free(s->x);
}

/* Fewest points of a line: two are a bar each (lock.tas.compact.threads1
 * and threads2). */
#define LINE_POINTS 3

/* A series of fewer points is no line: its rows are drawn as bars. */
static void short_series_to_bars(struct group *g)
{
	size_t k, j, q;

	for (k = 0, j = 0; k < g->nseries; k++) {
		if (g->s[k].n < LINE_POINTS) {
			for (q = 0; q < g->s[k].n; q++)
				g->bar[g->nbar++] = g->s[k].row[q];
			series_free(&g->s[k]);
			continue;
		}
		g->s[j++] = g->s[k];
	}
	g->nseries = j;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int by_x(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The distinct x of the series, ascending. -1 when out of memory. */
static int x_values(struct group *g)
{
	size_t k, p, i, n = 0;

	for (k = 0; k < g->nseries; k++)
		n += g->s[k].n;
	if (!(g->xs = calloc(n + 1, sizeof(*g->xs))))
		return -1;
	for (k = 0; k < g->nseries; k++)
		for (p = 0; p < g->s[k].n; p++) {
			for (i = 0; i < g->nx && g->xs[i] != g->s[k].x[p]; i++)
				;
			if (i == g->nx)
				g->xs[g->nx++] = g->s[k].x[p];
		}
	qsort(g->xs, g->nx, sizeof(*g->xs), by_x);
	g->xlog = g->nx > 1 && g->xs[g->nx - 1] / g->xs[0] >= 16;
	return 0;
}

static bool has_figure(const struct pc_cmp_table *t, const size_t *rows, size_t n,
		       size_t side)
{
	size_t r;

	for (r = 0; r < n; r++)
		if (t->row[rows[r]].cell[side].state == PC_CELL_OK)
			return true;
	return false;
}

/* Whether side i has single calls in series s. */
static bool series_calls(const struct group *g, const struct series *s, size_t i)
{
	size_t q;

	for (q = 0; q < s->n; q++)
		if (pc_page_calls(g->t, s->row[q], i))
			return true;
	return false;
}

/* Lines of series s: the CPUs with a figure in it (with single calls,
 * where the group's lines are those). */
static size_t lines_of(const struct group *g, const struct series *s)
{
	size_t i, n = 0;

	for (i = 0; i < g->t->nsides; i++)
		n += g->calls ? series_calls(g, s, i) : has_figure(g->t, s->row, s->n, i);
	return n;
}

/* Sorts s's points by x. */
static void series_sort(struct series *s)
{
	size_t i, j;

	for (i = 1; i < s->n; i++)
		for (j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double x = s->x[j];
			size_t r = s->row[j];

			s->x[j] = s->x[j - 1];
			s->row[j] = s->row[j - 1];
			s->x[j - 1] = x;
			s->row[j - 1] = r;
		}
}

/* ---- panels ------------------------------------------------------------------ */

#define MAX_WORDS 16

/* name's words ("alloc", "malloc", "glibc"): with those of mask as "*"
 * (star), or only those of mask, joined by dots (pick). */
static void name_by_mask(const char *name, unsigned long mask, bool star, char *out,
			 size_t len)
{
	size_t k = 0, n = 0, w;
	bool in;

	out[0] = 0;
	for (; *name && n + 1 < len; k++) {
		w = strcspn(name, ".");
		in = k < MAX_WORDS && (mask >> k & 1);
		if (star && in)
			n += (size_t)snprintf(out + n, len - n, "%s*", n ? "." : "");
		else if (star || in)
			n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? "." : "",
					      (int)w, name);
		name += w + (name[w] == '.');
		if (n >= len)
			n = len - 1;
	}
}

/* The series in panels by word mask (the words that tell the series of a
 * panel apart); the most lines in one panel. */
static size_t panels_by(struct group *g, unsigned long mask)
{
	char key[SERIES_NAME];
	size_t k, p, most = 0, *lines = calloc(g->nseries + 1, sizeof(*lines));

	g->npanels = 0;
	for (k = 0; k < g->nseries; k++) {
		struct series *s = &g->s[k];

		name_by_mask(s->name, mask, true, key, sizeof(key));
		for (p = 0; p < g->npanels && strcmp(g->panel[p], key) != 0; p++)
			;
		if (p == g->npanels)
			snprintf(g->panel[g->npanels++], SERIES_NAME, "%s", key);
		s->panel = p;
		for (s->dash = 0, p = 0; p < k; p++)
			s->dash += g->s[p].panel == s->panel;
		name_by_mask(s->name, mask, false, s->label, sizeof(s->label));
		if (lines)
			lines[s->panel] += lines_of(g, s);
	}
	for (p = 0; lines && p < g->npanels; p++)
		most = lines[p] > most ? lines[p] : most;
	free(lines);
	return most;
}

/* The words where the series' names differ. */
static unsigned long varying_words(const struct group *g)
{
	char a[SERIES_NAME], b[SERIES_NAME];
	unsigned long mask = 0;
	size_t k, w;

	for (w = 0; w < MAX_WORDS; w++)
		for (k = 1; k < g->nseries; k++) {
			name_by_mask(g->s[0].name, 1ul << w, false, a, sizeof(a));
			name_by_mask(g->s[k].name, 1ul << w, false, b, sizeof(b));
			if (strcmp(a, b) != 0)
				mask |= 1ul << w;
		}
	return mask;
}

/* Panels of at most most lines: one for all; else the lines of a panel
 * told apart by the last word that keeps them that few (the allocator:
 * alloc.malloc.* with a line per allocator; the lock:
 * spin_lock_unlock.*.nodes1), the other words making the panels; else a
 * panel per series. -1 when out of memory. */
static int panels(struct group *g, size_t most)
{
	unsigned long vary;
	size_t w;

	if (!(g->panel = calloc(g->nseries + 1, sizeof(*g->panel))))
		return -1;
	vary = varying_words(g);
	if (panels_by(g, vary) <= most)
		return 0;
	for (w = MAX_WORDS; w-- > 0;)
		if ((vary >> w & 1) && panels_by(g, 1ul << w) <= most)
			return 0;
	panels_by(g, 0);
	return 0;
}

/* The group's rows of t from row r on: series and bars. -1 when out of
 * memory. */
static int group_init(struct group *g, const struct pc_cmp_table *t, size_t c, size_t r)
{
	size_t q, k;
	int rc;

	memset(g, 0, sizeof(*g));
	g->t = t;
	g->c = c;
	g->name = group_of(&t->row[r]);
	if (!(g->bar = calloc(t->nrows + 1, sizeof(*g->bar))))
		return -1;
	for (q = r; q < t->nrows; q++) {
		if (strcmp(group_of(&t->row[q]), g->name) != 0)
			continue;
		if ((rc = series_add(g, q)) < 0)
			return -1;
		if (!rc)
			g->bar[g->nbar++] = q;
	}
	short_series_to_bars(g);
	qsort(g->bar, g->nbar, sizeof(*g->bar), by_index);
	for (k = 0; k < g->nseries; k++)
		series_sort(&g->s[k]);
	if (!g->nseries)
		return 0;
	return x_values(g) < 0 || panels(g, LINES_PER_PANEL) < 0 ? -1 : 0;
}

static void group_free(struct group *g)
{
	size_t k;

	for (k = 0; k < g->nseries; k++)
		series_free(&g->s[k]);
	free(g->s);
	free(g->bar);
	free(g->xs);
	free(g->panel);
}

/* ---- lines over threads or sizes --------------------------------------------- */

/* A panel's geometry: its height, and the margins about its plot (the y
 * ticks at the left, the lines' labels at the right). */
#define PANEL_H 250
#define PANEL_L 50
#define LABEL_CHAR 6.4		/* a label's character, about */
#define PLOT_MIN_W 200		/* three panels a row while plots are as wide */
#define PANEL_T 22
#define PANEL_B 38
#define LABEL_GAP 12		/* between two lines' labels */

/* Dash patterns: a series in its panel (the CPUs have colours and
 * markers). */
static const char *const dashes[] = {
	"", "6 3", "2 2", "9 3 2 3", "1 4", "12 4", "4 2 1 2 1 2", "3 6",
};

const char *pc_page_dash(size_t k)
{
	return dashes[k % (sizeof(dashes) / sizeof(dashes[0]))];
}

struct panel {
	int w, pw, ph;			/* width; the plot's */
	int right;			/* the labels' room */
	const struct pc_page_scale *s;
	const struct group *g;
};

static double px(const struct panel *p, double x)
{
	const struct group *g = p->g;
	double a = g->xs[0], b = g->xs[g->nx - 1], fx;

	if (b <= a)
		fx = 0.5;
	else if (g->xlog)
		fx = (log2(x) - log2(a)) / (log2(b) - log2(a));
	else
		fx = (x - a) / (b - a);
	return PANEL_L + p->pw * fx;
}

static double py(const struct panel *p, double v)
{
	return PANEL_T + p->ph * (1 - pc_page_at(p->s, v));
}

static const char *x_title(const struct group *g)
{
	return g->shape->xtitle;
}

/* Which x get a label: the first and the last, and between them those
 * that keep clear of their neighbours' (show: one flag per x). */
static void x_labels(const struct panel *p, bool *show)
{
	const struct group *g = p->g;
	double last = -1e9, prev = 0, half, end;
	char v[32];
	size_t k, n = g->nx;

	end = snprintf(v, sizeof(v), "%g", g->xs[n - 1]) * LABEL_CHAR / 2;
	for (k = 0; k < n; k++) {
		half = snprintf(v, sizeof(v), "%g", g->xs[k]) * LABEL_CHAR / 2;
		show[k] = px(p, g->xs[k]) - last >= prev + half + 6 &&
			  (k == n - 1 || px(p, g->xs[n - 1]) - px(p, g->xs[k]) >= half + end + 6);
		if (show[k]) {
			last = px(p, g->xs[k]);
			prev = half;
		}
	}
}

static void panel_axes(FILE *f, const struct panel *p, const char *unit)
{
	bool *show = calloc(p->g->nx + 1, sizeof(*show));
	char v[32];
	double t;
	int k;

	for (k = 0; !isnan(t = pc_page_tick(p->s, k)); k++)
		fprintf(f, "<path d=\"M%d %.1fh%d\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n", PANEL_L, py(p, t), p->pw,
			PANEL_L - 4, py(p, t) + 4, pc_page_tick_text(p->s, t, v, sizeof(v)));
	if (show)
		x_labels(p, show);
	for (k = 0; k < (int)p->g->nx; k++) {
		t = px(p, p->g->xs[k]);
		fprintf(f, "<path d=\"M%.1f %dv4\" stroke=\"#333\"/>", t, PANEL_T + p->ph);
		if (show && show[k])
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				t, PANEL_T + p->ph + 15, p->g->xs[k]);
	}
	free(show);
	fprintf(f, "<path d=\"M%d %dV%dH%d\" stroke=\"#333\" fill=\"none\"/>\n"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n"
		"<text x=\"11\" y=\"%d\" transform=\"rotate(-90 11 %d)\" "
		"text-anchor=\"middle\">%s%s</text>\n",
		PANEL_L, PANEL_T, PANEL_T + p->ph, PANEL_L + p->pw,
		PANEL_L + p->pw / 2, PANEL_T + p->ph + 31, x_title(p->g),
		PANEL_T + p->ph / 2, PANEL_T + p->ph / 2, unit, p->s->log ? " (log)" : "");
}

/* A line's label at the right of the plot: where its last point is (x0,
 * y0), where the label goes (y). */
struct end_label {
	double x0, y0, y;
	size_t side, dash;
	char text[SERIES_NAME + PC_LABEL_LEN];
};

/* One CPU's line through series se's points that have a place on the
 * axis, a marker at each; its end label into e. false when it has none. */
static bool series_line(FILE *f, const struct panel *p, const struct series *se,
			size_t side, const char *unit, struct end_label *e)
{
	char l[PC_LABEL_LEN], v[32], tip[SERIES_NAME + 96];
	size_t q;
	int n = 0;

	pc_side_label(side, l);
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
		"stroke-dasharray=\"%s\" points=\"", pc_page_colour(side),
		pc_page_dash(se->dash));
	for (q = 0; q < se->n; q++) {
		const struct pc_cmp_cell *c = &p->g->t->row[se->row[q]].cell[side];

		if (c->state == PC_CELL_OK && placed(p->s, c->median))
			fprintf(f, "%s%.1f,%.1f", n++ ? " " : "", px(p, se->x[q]),
				py(p, c->median));
	}
	fputs("\"/>\n", f);
	for (q = 0; q < se->n; q++) {
		const struct pc_cmp_cell *c = &p->g->t->row[se->row[q]].cell[side];

		if (c->state != PC_CELL_OK || !placed(p->s, c->median))
			continue;
		snprintf(tip, sizeof(tip), "%s %s: %s %s", l,
			 p->g->t->row[se->row[q]].probe,
			 pc_fmt_figure(c->median, v, sizeof(v)), unit);
		pc_page_marker(f, side, px(p, se->x[q]), py(p, c->median), tip);
		e->x0 = px(p, se->x[q]);
		e->y0 = e->y = py(p, c->median);
	}
	e->side = side;
	e->dash = se->dash;
	snprintf(e->text, sizeof(e->text), "%s%s%s", l, *se->label ? " " : "", se->label);
	return n > 0;
}

static int by_y(const void *a, const void *b)
{
	const struct end_label *x = a, *y = b;

	return x->y0 < y->y0 ? -1 : x->y0 > y->y0;
}

/* The labels moved apart (LABEL_GAP at least), within the plot's height
 * where they fit, and drawn: a sample of the line, its marker, its words. */
static void end_labels(FILE *f, const struct panel *p, struct end_label *e, size_t n)
{
	double right = PANEL_L + p->pw, bottom = PANEL_T + p->ph;
	size_t i;

	qsort(e, n, sizeof(*e), by_y);
	for (i = 1; i < n; i++)
		if (e[i].y < e[i - 1].y + LABEL_GAP)
			e[i].y = e[i - 1].y + LABEL_GAP;
	if (n && e[n - 1].y > bottom)
		e[n - 1].y = bottom;
	for (i = n; i-- > 1;)
		if (e[i - 1].y > e[i].y - LABEL_GAP)
			e[i - 1].y = e[i].y - LABEL_GAP;
	for (i = 0; i < n; i++) {
		if (fabs(e[i].y - e[i].y0) > 1 || e[i].x0 < right - 1)
			fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1f\" stroke=\"#aaa\" "
				"stroke-width=\".7\"/>", e[i].x0 + 4, e[i].y0, right + 3,
				e[i].y);
		fprintf(f, "<path d=\"M%.1f %.1fh18\" stroke=\"%s\" stroke-width=\"1.8\" "
			"stroke-dasharray=\"%s\"/>\n", right + 4, e[i].y,
			pc_page_colour(e[i].side), pc_page_dash(e[i].dash));
		pc_page_marker(f, e[i].side, right + 13, e[i].y, e[i].text);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", right + 25, e[i].y + 4);
		pc_html_escape(f, e[i].text);
		fputs("</text>\n", f);
	}
}

/* Panel k of the group's lines, an SVG of its own. -1 when out of memory. */
static int panel(FILE *f, struct pc_page *pg, const struct panel *p, size_t k)
{
	const struct group *g = p->g;
	const char *unit = pc_metric_name(pg->m->cfg.metric);
	struct end_label *e = calloc(g->nseries * g->t->nsides + 1, sizeof(*e));
	size_t id = pg->nfigures++, q, i, n = 0;

	if (!e)
		return -1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 "
		"%d %d\" width=\"%d\" height=\"%d\" aria-labelledby=\"chart%zu-t "
		"chart%zu-d\">\n<title id=\"chart%zu-t\">", p->w, PANEL_H, p->w, PANEL_H,
		id, id, id);
	pc_html_escape(f, g->name);
	fputs(": ", f);
	pc_html_escape(f, g->panel[k]);
	fprintf(f, ", %s per operation over %s</title>\n<desc id=\"chart%zu-d\">A line "
		"per CPU (its colour and marker) and series (its dash pattern), through "
		"the medians, named at its end; the table below gives the same "
		"figures.</desc>\n<text x=\"%d\" y=\"13\" font-weight=\"bold\">", unit,
		x_title(g), id, PANEL_L);
	pc_html_escape(f, g->panel[k]);
	fputs("</text>\n", f);
	panel_axes(f, p, unit);
	for (q = 0; q < g->nseries; q++) {
		if (g->s[q].panel != k)
			continue;
		for (i = 0; i < g->t->nsides; i++)
			if (has_figure(g->t, g->s[q].row, g->s[q].n, i) &&
			    series_line(f, p, &g->s[q], i, unit, &e[n]))
				n++;
	}
	end_labels(f, p, e, n);
	fputs("</svg>\n", f);
	free(e);
	return 0;
}

/* The room the lines' labels take at the right of a panel: the widest
 * ("B slub-cmpxchg_local"), after a sample of the line. */
static int panel_right(const struct group *g)
{
	size_t k, most = 0;

	for (k = 0; k < g->nseries; k++)
		if (strlen(g->s[k].label) > most)
			most = strlen(g->s[k].label);
	return 34 + (int)(LABEL_CHAR * (double)(most + 2));
}

/* The group's series: a panel each (side by side where they fit), one
 * scale for all. -1 when out of memory. */
static int line_figure(FILE *f, struct pc_page *pg, const struct group *g)
{
	double lo = INFINITY, hi = 0;
	struct pc_page_scale s;
	struct panel p = { .s = &s, .g = g };
	size_t k, q, i;

	for (k = 0; k < g->nseries; k++)
		for (q = 0; q < g->s[k].n; q++)
			for (i = 0; i < g->t->nsides; i++)
				scale_add(&lo, &hi, &g->t->row[g->s[k].row[q]].cell[i]);
	pc_page_scale_fit(&s, lo, hi);
	p.right = panel_right(g);
	p.w = g->npanels == 1 ? 640 : PC_PAGE_W / 3 - 8 - PANEL_L - p.right >= PLOT_MIN_W &&
	      g->npanels != 2 && g->npanels != 4 ? PC_PAGE_W / 3 - 8 : PC_PAGE_W / 2 - 8;
	p.pw = p.w - PANEL_L - p.right;
	p.ph = PANEL_H - PANEL_T - PANEL_B;
	fputs("<figure>\n<div class=\"panels\">\n", f);
	for (k = 0; k < g->npanels; k++)
		if (panel(f, pg, &p, k) < 0)
			return -1;
	fputs("</div>\n<figcaption>", f);
	pc_html_escape(f, g->name);
	fprintf(f, ": %s per operation over %s (%s scale)", pc_metric_name(pg->m->cfg.metric),
		g->shape->xword, s.log ? "logarithmic" : "linear");
	if (g->npanels > 1)
		fprintf(f, ", %zu panels on the same axes", g->npanels);
	fputs("</figcaption>\n</figure>\n", f);
	return 0;
}

/* ---- bars -------------------------------------------------------------------- */

/* A bar chart's geometry, in SVG user units (CSS pixels): the probes'
 * names at the left, as wide as the longest (at most CH_LABEL_MAX; a
 * longer name is squeezed into it), the plot, room for the figures. */
#define CH_LABEL_MAX 300
#define CH_LABEL_MIN 60
#define CH_CHAR 6.8		/* a name's character, about */
#define CH_PLOT 320
#define CH_FIGURE 84		/* room after the longest bar */
#define CH_BAR 11
#define CH_GAP 2
#define CH_ROW_GAP 7
#define CH_TOP 6
#define CH_AXIS 34

struct bars {
	int label, x0, w;	/* the names' right edge, the axis, the width */
	const struct pc_page_scale *s;
};

/* The CPUs with a figure in row r. */
static size_t figures_in(const struct pc_cmp_table *t, size_t r)
{
	size_t i, n = 0;

	for (i = 0; i < t->nsides; i++)
		n += t->row[r].cell[i].state == PC_CELL_OK;
	return n;
}

/* The bars of row r: a bar per CPU with a figure, none for a pair of CPUs
 * (its heat map shows it). */
static size_t bars_in(const struct pc_cmp_table *t, size_t r)
{
	return pc_page_pair(t, r, NULL, NULL) ? 0 : figures_in(t, r);
}

static void bar_axis(FILE *f, const struct bars *b, double y, const char *unit)
{
	const struct pc_page_scale *s = b->s;
	char v[32];
	double t, x;
	int k;

	fprintf(f, "<path d=\"M%d %dV%.0f\" stroke=\"#333\"/>\n", b->x0, CH_TOP, y);
	for (k = 0; !isnan(t = pc_page_tick(s, k)); k++) {
		x = b->x0 + CH_PLOT * pc_page_at(s, t);
		fprintf(f, "<path d=\"M%.1f %dV%.0f\" stroke=\"#ccc\"/><text x=\"%.1f\" "
			"y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", x, CH_TOP, y, x,
			y + 13, pc_page_tick_text(s, t, v, sizeof(v)));
	}
	fprintf(f, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"middle\">%s per operation, "
		"median and interquartile range%s</text>\n", b->x0 + CH_PLOT / 2,
		y + 28, unit, s->log ? " (log scale)" : "");
}

/* One CPU's bar of one probe, its IQR whisker and its figure (a figure
 * with no place on a log scale: the figure alone). */
static void bar(FILE *f, struct pc_page *pg, const struct bars *g,
		const struct pc_cmp_row *row, size_t i, double y, const char *unit)
{
	const struct pc_cmp_cell *c = &row->cell[i];
	char l[PC_LABEL_LEN], v[32], q1[32], q3[32];
	double w, a, b, mid = y + CH_BAR / 2.0;
	int k = pc_page_cell_note(pg, c);

	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		g->x0 - 4, mid + 4, pc_side_label(i, l));
	pc_fmt_figure(c->median, v, sizeof(v));
	w = placed(g->s, c->median) ? CH_PLOT * pc_page_at(g->s, c->median) : 0;
	a = CH_PLOT * pc_page_at(g->s, c->q1);
	b = c->single ? w : CH_PLOT * pc_page_at(g->s, c->q3);
	if (w > 0) {
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			"fill=\"%s\" stroke=\"#333\" stroke-width=\".4\"><title>%s ", g->x0, y,
			w, CH_BAR, pc_page_colour(i), l);
		pc_html_escape(f, row->probe);
		fprintf(f, ": %s %s (IQR %s to %s)</title></rect>\n", v, unit,
			pc_fmt_figure(c->q1, q1, sizeof(q1)),
			pc_fmt_figure(c->q3, q3, sizeof(q3)));
	}
	if (w > 0 && !c->single && b - a >= 1)
		fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
			"stroke=\"#000\" fill=\"none\"/>\n", g->x0 + a, mid, g->x0 + b,
			g->x0 + a, mid - 3, mid + 3, g->x0 + b, mid - 3, mid + 3);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s", g->x0 + (w > b ? w : b) + 4,
		mid + 4, v);
	if (k > 0)
		fprintf(f, " [%d]", k);
	fputs("</text>\n", f);
}

/* The probe's name at the left of its bars. */
static void bar_label(FILE *f, const struct bars *b, const char *probe, double y)
{
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\"", b->label, y + 4);
	/* a point's name (lock.ticket.compact.threads2) can be longer than the
	 * label's room: squeezed into it, never cut */
	if (strlen(probe) * CH_CHAR > CH_LABEL_MAX)
		fprintf(f, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"",
			CH_LABEL_MAX);
	fputc('>', f);
	pc_html_escape(f, probe);
	fputs("</text>\n", f);
}

/* The chart's geometry and scale, and its height. */
static double bars_fit(const struct group *g, struct bars *b, struct pc_page_scale *s)
{
	const struct pc_cmp_table *t = g->t;
	double lo = INFINITY, hi = 0, h = CH_TOP + CH_AXIS + 6, name = CH_LABEL_MIN;
	size_t r, i, n;

	for (r = 0; r < g->nbar; r++) {
		if (!(n = bars_in(t, g->bar[r])))
			continue;
		h += n * (CH_BAR + CH_GAP) + CH_ROW_GAP;
		if (strlen(t->row[g->bar[r]].probe) * CH_CHAR > name)
			name = (double)strlen(t->row[g->bar[r]].probe) * CH_CHAR;
		for (i = 0; i < t->nsides; i++)
			scale_add(&lo, &hi, &t->row[g->bar[r]].cell[i]);
	}
	pc_page_scale_fit(s, lo, hi);
	b->s = s;
	b->label = name < CH_LABEL_MAX ? (int)name + 4 : CH_LABEL_MAX;
	b->x0 = b->label + 22;
	b->w = b->x0 + CH_PLOT + CH_FIGURE;
	return h;
}

/* The bars of the group's rows with a figure: a bar per CPU that has one. */
static void bar_chart(FILE *f, struct pc_page *pg, const struct group *g)
{
	const struct pc_cmp_table *t = g->t;
	const char *unit = pc_metric_name(pg->m->cfg.metric);
	size_t r, i, n, id = pg->nfigures++;
	struct pc_page_scale s;
	struct bars b;
	double h = bars_fit(g, &b, &s), y = CH_TOP;

	fprintf(f, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
		"viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" "
		"aria-labelledby=\"chart%zu-t chart%zu-d\">\n<title id=\"chart%zu-t\">",
		b.w, h, b.w, h, id, id, id);
	pc_html_escape(f, g->name);
	fprintf(f, ": %s per operation by CPU</title>\n<desc id=\"chart%zu-d\">Bars: the "
		"median of each probe on each CPU that measured it (A, B, ...), whiskers the "
		"interquartile range%s. The table beside gives the same figures.</desc>\n",
		unit, id, s.log ? "; logarithmic scale" : "");
	for (r = 0; r < g->nbar; r++) {
		const struct pc_cmp_row *row = &t->row[g->bar[r]];

		if (!(n = bars_in(t, g->bar[r])))
			continue;
		bar_label(f, &b, row->probe, y + n * (CH_BAR + CH_GAP) / 2.0);
		for (i = 0; i < t->nsides; i++) {
			if (row->cell[i].state != PC_CELL_OK)
				continue;
			bar(f, pg, &b, row, i, y, unit);
			y += CH_BAR + CH_GAP;
		}
		y += CH_ROW_GAP;
	}
	bar_axis(f, &b, y, unit);
	fputs("</svg>\n<figcaption>", f);
	pc_html_escape(f, g->name);
	fprintf(f, ": %s per operation (%s scale)</figcaption>\n</figure>\n", unit,
		s.log ? "logarithmic" : "linear");
}

/* ---- the figures as tables --------------------------------------------------- */

/* The CPUs that have something in the rows (a figure or a status). */
static size_t present(const struct pc_cmp_table *t, const size_t *rows, size_t n,
		      size_t *side)
{
	size_t i, r, k = 0;

	for (i = 0; i < t->nsides; i++) {
		for (r = 0; r < n && t->row[rows[r]].cell[i].state == PC_CELL_ABSENT; r++)
			;
		if (r < n)
			side[k++] = i;
	}
	return k;
}

/* Cell (r, col) of tab: cell c's figure, its note linked, what it names.
 * -1 when out of memory. */
static int figure(struct pc_page *pg, struct pc_table *tab, size_t r, size_t col,
		  const struct pc_cmp_cell *c, const char *probe)
{
	int k = pc_page_cell_note(pg, c);

	if (k < 0 || pc_page_figure_cell(tab, r, col, c) < 0)
		return -1;
	pc_table_at(tab, r, col)->note = k > 0 ? (unsigned)k : 0;
	if (probe && c->state != PC_CELL_ABSENT &&
	    pc_table_data(tab, r, col, "%s", probe) < 0)
		return -1;
	return 0;
}

/* A table for the page: its marks, its notes the page's. */
static int page_table(struct pc_table *tab, const struct pc_table_col *cols, size_t n)
{
	int rc = pc_table_init(tab, NULL, cols, n);

	pc_page_table_marks(tab);
	tab->note_href = "#note-";
	return rc;
}

/* The figures of rows (the bars', or the pairs'): a row per probe, a
 * column per CPU that has something there. -1 when out of memory. */
static int bar_table(FILE *f, struct pc_page *pg, const struct group *g,
		     const size_t *rows, size_t nrows)
{
	static const struct pc_table_col probe = { .head = "probe",
						   .flags = PC_COL_STUB | PC_COL_LEFT };
	const struct pc_cmp_table *t = g->t;
	size_t *side = calloc(t->nsides + 1, sizeof(*side)), n, r, j;
	struct pc_table tab = { 0 };
	char l[PC_LABEL_LEN], head[PC_LABEL_LEN + 16];
	int rc = side ? page_table(&tab, &probe, 1) : -1;

	n = side ? present(t, rows, nrows, side) : 0;
	tab.row_data = "probe";
	for (j = 0; rc == 0 && j < n; j++) {
		snprintf(head, sizeof(head), "%s median " PC_MAD_LABEL,
			 pc_side_label(side[j], l));
		rc = pc_table_col_add(&tab, &(struct pc_table_col){ .head = head,
				      .flags = PC_COL_ASCII }) < 0 ? -1 : 0;
	}
	for (r = 0; rc == 0 && r < nrows; r++) {
		const struct pc_cmp_row *row = &t->row[rows[r]];

		rc = pc_table_row(&tab) < 0 ||
		     pc_table_text(&tab, r, 0, "%s", row->probe) < 0 ? -1 : 0;
		for (j = 0; rc == 0 && j < n; j++)
			rc = figure(pg, &tab, r, 1 + j, &row->cell[side[j]], NULL);
	}
	if (rc == 0)
		pc_page_table_draw(f, &tab, "figures");
	pc_table_free(&tab);
	free(side);
	return rc;
}

/* The lines of the series' table: a series and a CPU that has something
 * in it, in the panels' order. */
struct line_ref {
	size_t series, side;
};

static size_t line_refs(const struct group *g, struct line_ref *out)
{
	size_t p, k, i, r, n = 0;

	for (p = 0; p < g->npanels; p++)
		for (k = 0; k < g->nseries; k++)
			for (i = 0; g->s[k].panel == p && i < g->t->nsides; i++) {
				for (r = 0; r < g->s[k].n; r++)
					if (g->t->row[g->s[k].row[r]].cell[i].state !=
					    PC_CELL_ABSENT)
						break;
				if (r < g->s[k].n)
					out[n++] = (struct line_ref){ k, i };
			}
	return n;
}

/* The row of series s at x, or -1. */
static long point_row(const struct series *s, double x)
{
	size_t q;

	for (q = 0; q < s->n; q++)
		if (s->x[q] == x)
			return (long)s->row[q];
	return -1;
}

/* A row per line (series, CPU), a column per x. -1 when out of memory. */
static int lines_by_x(struct pc_page *pg, struct pc_table *tab, const struct group *g,
		      const struct line_ref *ln, size_t nl)
{
	static const struct pc_table_col stubs[] = {
		{ .head = "series", .flags = PC_COL_STUB | PC_COL_LEFT },
		{ .head = "CPU", .flags = PC_COL_STUB | PC_COL_LEFT },
	};
	char head[32], l[PC_LABEL_LEN];
	size_t j, k;
	long r;
	int rc = page_table(tab, stubs, 2);

	for (j = 0; rc == 0 && j < g->nx; j++) {
		snprintf(head, sizeof(head), "%g", g->xs[j]);
		rc = pc_table_col_add(tab, &(struct pc_table_col){ .group = x_title(g),
				      .head = head, .flags = PC_COL_ASCII }) < 0 ? -1 : 0;
	}
	for (k = 0; rc == 0 && k < nl; k++) {
		const struct series *s = &g->s[ln[k].series];

		rc = pc_table_row(tab) < 0 ||
		     pc_table_text(tab, k, 0, "%s", s->name) < 0 ||
		     pc_table_text(tab, k, 1, "%s", pc_side_label(ln[k].side, l)) < 0 ? -1 : 0;
		for (j = 0; rc == 0 && j < g->nx; j++)
			if ((r = point_row(s, g->xs[j])) >= 0)
				rc = figure(pg, tab, k, 2 + j, &g->t->row[r].cell[ln[k].side],
					    g->t->row[r].probe);
	}
	return rc;
}

/* A row per x, a column per line (series, CPU) under its panel's title.
 * -1 when out of memory. */
static int x_by_lines(struct pc_page *pg, struct pc_table *tab, const struct group *g,
		      const struct line_ref *ln, size_t nl)
{
	struct pc_table_col stub = { .head = x_title(g), .flags = PC_COL_STUB | PC_COL_LEFT };
	char head[SERIES_NAME + PC_LABEL_LEN], l[PC_LABEL_LEN];
	size_t j, k;
	long r;
	int rc = page_table(tab, &stub, 1);

	for (k = 0; rc == 0 && k < nl; k++) {
		const struct series *s = &g->s[ln[k].series];

		snprintf(head, sizeof(head), "%s%s%s", pc_side_label(ln[k].side, l),
			 *s->label ? " " : "", s->label);
		rc = pc_table_col_add(tab, &(struct pc_table_col){
				      .group = g->panel[s->panel], .head = head,
				      .flags = PC_COL_ASCII }) < 0 ? -1 : 0;
	}
	for (j = 0; rc == 0 && j < g->nx; j++) {
		rc = pc_table_row(tab) < 0 ||
		     pc_table_text(tab, j, 0, "%g", g->xs[j]) < 0 ? -1 : 0;
		for (k = 0; rc == 0 && k < nl; k++) {
			const struct series *s = &g->s[ln[k].series];

			if ((r = point_row(s, g->xs[j])) >= 0)
				rc = figure(pg, tab, j, 1 + k, &g->t->row[r].cell[ln[k].side],
					    g->t->row[r].probe);
		}
	}
	return rc;
}

/* Most columns of x a table of lines takes; more x make a row each: the
 * thread counts of run --locks (8 at most) fit the page, the allocator's
 * 12 sizes did not (1,600 pixels with their spreads). */
#define TABLE_X_COLS 8

/* A table of lines (a row per line, or a row per x with the lines ln of
 * one panel or all), its cells naming their points. -1 when out of
 * memory. */
static int lines_table(FILE *f, struct pc_page *pg, const struct group *g,
		       const struct line_ref *ln, size_t nl, bool by_x)
{
	struct pc_table tab = { 0 };
	int rc = by_x ? x_by_lines(pg, &tab, g, ln, nl) : lines_by_x(pg, &tab, g, ln, nl);

	tab.cell_data = "probe";
	if (rc == 0)
		pc_page_table_draw(f, &tab, "figures");
	pc_table_free(&tab);
	return rc;
}

/* Most columns of lines a table with a row per x takes: the lines of
 * whole panels, as many as fit this many (a column for every line of
 * every panel was wider than the page: 24 with four allocators on two
 * CPUs). */
#define TABLE_LINE_COLS 6

/* The series' figures: a row per line and a column per x where the x are
 * fewer, else a row per x in tables of whole panels' lines, side by side
 * where they fit. -1 when out of memory. */
static int series_table(FILE *f, struct pc_page *pg, const struct group *g)
{
	struct line_ref *ln = calloc(g->nseries * g->t->nsides + 1, sizeof(*ln));
	size_t nl, k, e, p;
	int rc = 0;

	if (!ln)
		return -1;
	nl = line_refs(g, ln);
	if (g->nx <= nl && g->nx <= TABLE_X_COLS) {
		rc = lines_table(f, pg, g, ln, nl, false);
		free(ln);
		return rc;
	}
	fputs("<div class=\"pair\">\n", f);
	for (k = 0; rc == 0 && k < nl; k = e) {
		/* a panel at least, then the next panels while they fit */
		for (e = k, p = k + 1; p <= nl; p++) {
			if (p < nl && g->s[ln[p].series].panel == g->s[ln[p - 1].series].panel)
				continue;
			if (e > k && p - k > TABLE_LINE_COLS)
				break;
			e = p;
		}
		rc = lines_table(f, pg, g, ln + k, e - k, true);
	}
	fputs("</div>\n", f);
	free(ln);
	return rc;
}

/* ---- single calls ------------------------------------------------------------ */

/* Most lines in a chart of single calls: more than a panel of medians
 * holds, its lines named in a key, not at their ends (a distribution's
 * lines all end at 1). */
#define CALLS_LINES 8

/* The distributions of the series' single calls, where their points have
 * them (report_calls.c): the series that have them laid out in panels of
 * at most CALLS_LINES lines, a line per series and CPU with them (a
 * published table's allocators beside a run's have none, and are no
 * line nor a reason for a panel). -1 when out of memory. */
static int calls_figure(FILE *f, struct pc_page *pg, const struct group *g)
{
	struct group cg = *g;
	struct pc_page_line *ln = calloc(g->nseries * g->t->nsides + 1, sizeof(*ln));
	const char **titles = calloc(g->nseries + 1, sizeof(*titles));
	struct pc_page_lines ls = { .t = g->t, .c = g->c, .group = g->name,
				    .xword = g->shape->xword, .line = ln, .panel = titles,
				    .xs = g->xs, .nx = g->nx };
	size_t p, k, i;
	int rc = ln && titles && (cg.s = calloc(g->nseries + 1, sizeof(*cg.s))) ? 0 : -1;

	cg.calls = true;
	cg.panel = NULL;
	for (k = 0, cg.nseries = 0; rc == 0 && k < g->nseries; k++)
		if (lines_of(&cg, &g->s[k]))
			cg.s[cg.nseries++] = g->s[k];
	if (rc == 0 && cg.nseries)
		rc = panels(&cg, CALLS_LINES);
	for (p = 0; rc == 0 && cg.nseries && p < cg.npanels; p++) {
		titles[p] = cg.panel[p];
		for (k = 0; k < cg.nseries; k++)
			for (i = 0; cg.s[k].panel == p && i < g->t->nsides; i++)
				if (series_calls(&cg, &cg.s[k], i))
					ln[ls.nlines++] = (struct pc_page_line){
						.side = i, .series = cg.s[k].name,
						.label = cg.s[k].label, .panel = p,
						.n = cg.s[k].n, .row = cg.s[k].row,
						.x = cg.s[k].x };
	}
	ls.npanels = cg.npanels;
	if (rc == 0 && ls.nlines)
		rc = pc_page_calls_figure(f, pg, &ls);
	free(cg.s == g->s ? NULL : cg.s);
	free(cg.panel);
	free(ln);
	free(titles);
	return rc;
}

/* ---- a group ----------------------------------------------------------------- */

/* What side i has of row r in words, for a group with no figure: its
 * status and note, or where its figure is. */
static int status_words(FILE *f, struct pc_page *pg, const struct pc_cmp_table *t,
			size_t r, size_t i)
{
	const struct pc_cmp_cell *c = &t->row[r].cell[i];
	const char *unit = NULL;
	char l[PC_LABEL_LEN];
	int k;

	if (c->state == PC_CELL_NO_METRIC)
		unit = pc_page_other_unit(pg, &t->side[i], t->row[r].probe);
	fprintf(f, "%s ", pc_side_label(i, l));
	if (unit) {
		fprintf(f, "in %s only (--metric %s)", unit, unit);
		return 0;
	}
	if ((k = pc_page_cell_note(pg, c)) < 0)
		return -1;
	pc_html_escape(f, c->state == PC_CELL_STATUS && c->status ? c->status :
		       "no figure");
	pc_page_note_ref(f, k);
	return 0;
}

/* What the CPUs have of row r, in words ("A unsupported[12]"), into
 * *words (allocated). -1 when out of memory. */
static int row_words(struct pc_page *pg, const struct pc_cmp_table *t, size_t r,
		     char **words)
{
	size_t len = 0, i, k = 0;
	FILE *f = open_memstream(words, &len);
	int rc = f ? 0 : -1;

	for (i = 0; rc == 0 && i < t->nsides; i++) {
		if (t->row[r].cell[i].state == PC_CELL_ABSENT)
			continue;
		fputs(k++ ? ", " : "", f);
		rc = status_words(f, pg, t, r, i);
	}
	if (f && fclose(f) != 0)
		rc = -1;
	return rc;
}

/* A group with no figure in the page's unit: a line, no chart; its probes
 * named (data-probe), those whose CPUs have the same to say together.
 * -1 when out of memory. */
static int no_figure(FILE *f, struct pc_page *pg, const struct group *g,
		     const size_t *rows, size_t n)
{
	char **words = calloc(n + 1, sizeof(*words));
	size_t r, q, said = 0;
	int rc = words ? 0 : -1;

	for (r = 0; rc == 0 && r < n; r++)
		rc = row_words(pg, g->t, rows[r], &words[r]);
	fprintf(f, "<p>No figure in %s: ", pc_metric_name(pg->m->cfg.metric));
	for (r = 0; rc == 0 && r < n; r++) {
		for (q = 0; q < r && strcmp(words[q], words[r]) != 0; q++)
			;
		if (q < r)	/* said with an earlier probe */
			continue;
		for (q = r; q < n; q++) {
			if (strcmp(words[q], words[r]) != 0)
				continue;
			fputs(q == r ? (said++ ? "; " : "") : ", ", f);
			fputs("<span data-probe=\"", f);
			pc_html_escape(f, g->t->row[rows[q]].probe);
			fputs("\">", f);
			pc_html_escape(f, g->t->row[rows[q]].probe);
			fputs("</span>", f);
		}
		fprintf(f, ": %s", words[r]);
	}
	fputs(".</p>\n", f);
	for (r = 0; words && r < n; r++)
		free(words[r]);
	free(words);
	return rc;
}

/* The group's rows, in the model's order. */
static size_t rows_of(const struct group *g, size_t *rows)
{
	size_t r, n = 0;

	for (r = 0; r < g->t->nrows; r++)
		if (strcmp(group_of(&g->t->row[r]), g->name) == 0)
			rows[n++] = r;
	return n;
}

/* The group's heading, then its lines, bars and pairs of CPUs, each with
 * its table. -1 when out of memory. */
static int group_draw(FILE *f, struct pc_page *pg, const struct group *g)
{
	const struct pc_cmp_table *t = g->t;
	size_t *rows = calloc(t->nrows + 1, sizeof(*rows)), n, r, figs = 0, npairs;
	size_t *pairs = calloc(t->nrows + 1, sizeof(*pairs));
	int rc = 0;

	if (!rows || !pairs) {
		free(rows);
		free(pairs);
		return -1;
	}
	n = rows_of(g, rows);
	for (r = 0; r < n; r++)
		figs += figures_in(t, rows[r]);
	fprintf(f, "<h3 id=\"g%zu-", g->c);
	pc_html_escape(f, g->name);
	fputs("\">", f);
	if (*t->title) {
		pc_html_escape(f, t->title);
		fputs(": ", f);
	}
	pc_html_escape(f, g->name);
	fputs("</h3>\n", f);
	if (!figs) {
		rc = no_figure(f, pg, g, rows, n);
		free(rows);
		free(pairs);
		return rc;
	}
	if (g->nseries && (rc = line_figure(f, pg, g)) == 0)
		rc = series_table(f, pg, g);
	if (g->nseries && rc == 0)
		rc = calls_figure(f, pg, g);
	/* the bars with their table, then the pairs' heat maps with theirs */
	for (r = 0, n = 0, npairs = 0; r < g->nbar; r++) {
		if (pc_page_pair(t, g->bar[r], NULL, NULL))
			pairs[npairs++] = g->bar[r];
		else
			rows[n++] = g->bar[r];
	}
	for (r = 0, figs = 0; r < g->nbar; r++)
		figs += bars_in(t, g->bar[r]);
	if (rc == 0 && n) {
		fputs("<div class=\"pair\">\n", f);
		if (figs)
			bar_chart(f, pg, g);
		rc = bar_table(f, pg, g, rows, n);
		fputs("</div>\n", f);
	}
	if (rc == 0 && npairs) {
		fputs("<div class=\"pair\">\n", f);
		rc = pc_page_heat_maps(f, pg, t, pairs, npairs);
		if (rc == 0)
			rc = bar_table(f, pg, g, pairs, npairs);
		fputs("</div>\n", f);
	}
	free(rows);
	free(pairs);
	return rc;
}

int pc_page_charts(FILE *f, struct pc_page *pg)
{
	const struct pc_compare *m = pg->m;
	struct group g;
	size_t c, r, q;
	int rc = 0;

	fputs("<section id=\"charts\">\n<h2>Figures by probe group</h2>\n", f);
	for (c = 0; rc == 0 && c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		for (r = 0; rc == 0 && r < t->nrows; r++) {
			for (q = 0; q < r; q++)	/* drawn with an earlier row */
				if (strcmp(group_of(&t->row[q]), group_of(&t->row[r])) == 0)
					break;
			if (q < r)
				continue;
			rc = group_init(&g, t, c, r);
			if (rc == 0)
				rc = group_draw(f, pg, &g);
			group_free(&g);
		}
	}
	fputs("</section>\n", f);
	return rc;
}
