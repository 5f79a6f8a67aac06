/* SPDX-License-Identifier: MIT */
/*
 * compare_render.c - renderings of the comparison model: a table (text,
 * coloured on a terminal, or markdown) of each comparison table, drawn by
 * the table model (results/table.h), CSV of every figure, and the model
 * itself as JSON. Nothing here decides anything; every figure and verdict
 * comes from the model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"
#include "results/table.h"
#include "core/util.h"

#define DASH PC_NO_VALUE	/* nothing to show */

/* The marks of a figure, a symbol in the text table and words in markdown:
 * noisy, not linear. The table's legend says what the symbols mean. */
#define MARK_NOISY "~"
#define MARK_NONLINEAR "^"
static const struct pc_table_mark marks[] = {
	{ MARK_NOISY, " (noisy)" },
	{ MARK_NONLINEAR, " (not linear)" },
};
#define MARKED_NOISY 1u		/* bit 0: marks[0] */
#define MARKED_NONLINEAR 2u

/* The p value of the U test; the other tests have none: their verdicts
 * carry a footnote (test_note). */
static const char *p_text(const struct pc_cmp_cell *c, char *buf, size_t len)
{
	if (c->test != PC_TEST_MWU)
		return DASH;
	if (c->p < 0.001)
		return "<0.001";
	snprintf(buf, len, "%.3f", c->p);
	return buf;
}

/* How a verdict was reached when not by the U test, or NULL. */
static const char *test_note(const struct pc_cmp_cell *c)
{
	switch (c->test) {
	case PC_TEST_QUARTILES:
		return "judged by whether the quartiles overlap: no raw samples were "
		       "kept (run -k keeps them for the U test)";
	case PC_TEST_SINGLE:
		return "a published figure is one number: judged by the difference "
		       "against the threshold alone";
	case PC_TEST_MODES:
		return "its own cost varies: judged by its modes, the same when each "
		       "lies within the threshold of one on the other side, else by "
		       "the mean over the modes";
	case PC_TEST_MWU:
	case PC_TEST_NONE:
		break;
	}
	return NULL;
}

/* Prose lines: "> " before markdown's, which are not wrapped; the text
 * view's wrapped to its width, later lines indented. */
static void prose(FILE *f, const char *quote, const char *lead, const char *text,
		  int indent)
{
	char l[PC_LABEL_LEN + 16];

	snprintf(l, sizeof(l), "%s%s", *quote ? ">" : "", lead);
	if (*quote && !*lead)
		fprintf(f, "> %s\n", text);
	else
		pc_text_wrap(f, l, text, indent, *quote ? 0 : pc_table_fit());
}

static void describe_side(FILE *f, const struct pc_cmp_side *s, size_t i,
			  const char *quote)
{
	char l[PC_LABEL_LEN], lead[PC_LABEL_LEN + 4], *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	fprintf(m, "= %s: %s", pc_shown(s->file), pc_shown(s->key));
	if (!s->entry)
		fputs(" (absent)", m);
	else if (s->brand)
		fprintf(m, " (%s%s)", pc_shown(s->brand),
			s->virtualized == 1 ? ", virtual machine" : "");
	if (s->entry && s->cycles_source)
		fprintf(m, ", cycles %s", pc_shown(s->cycles_source));
	if (fclose(m) == 0) {
		snprintf(lead, sizeof(lead), "%s%s", *quote ? " " : "", pc_side_label(i, l));
		prose(f, quote, lead, text, 4);
	}
	free(text);
}

static void rule_line(FILE *f, const struct pc_compare *m, const char *quote)
{
	char text[512];

	snprintf(text, sizeof(text), "%s, median \xc2\xb1MAD; verdict "
		 "against A: significant (Mann-Whitney U p < %g on raw samples, else "
		 "no overlap of quartiles) and |\xce\x94| >= %g%% or the probe's spread",
		 m->cfg.stat == PC_STAT_P99 ? "cycles per call at p99 of single calls, "
		 "each chunk's p99 a sample" : m->cfg.metric == PC_METRIC_CYCLES ?
		 "cycles per operation" : m->cfg.metric == PC_METRIC_NS ? "ns per operation" :
		 "ticks per operation", m->cfg.alpha, m->cfg.threshold_pct);
	prose(f, quote, "", text, 0);
}

/* What a table's sides are and its notes, each line after quote. */
static void describe_table(FILE *f, const struct pc_cmp_table *t, const char *quote)
{
	size_t i;

	for (i = 0; i < t->nsides; i++)
		describe_side(f, &t->side[i], i, quote);
	for (i = 0; i < t->nnotes; i++)
		prose(f, quote, *quote ? " note:" : "note:", t->note[i], 4);
}

/* ---- the table: probe, A's figure, then each other side's figure, ratio,
 * delta, p and verdict ---------------------------------------------------- */

#define W_PROBE 24		/* the probe column, at most (longer names go on
				 * a line of their own when the table must fit) */
#define W_PROBE_MIN 16

/* A side's columns, in order; side A has its figure alone. */
enum { COL_VALUE, COL_RATIO, COL_DELTA, COL_P, COL_VERDICT, COLS_PER_SIDE };

static size_t col_of(size_t side, int what)
{
	return side ? 2 + (side - 1) * COLS_PER_SIDE + (size_t)what : 1;
}

/* The headings that name a side: "B cycles", "B/A", and its group. */
struct side_heads {
	char value[PC_LABEL_LEN + 16], ratio[PC_LABEL_LEN + 4], label[PC_LABEL_LEN];
};

/* Does any side hold a figure of the row? */
static bool measured(const struct pc_cmp_row *row, size_t nsides)
{
	size_t i;

	for (i = 0; i < nsides; i++)
		if (row->cell[i].state == PC_CELL_OK)
			return true;
	return false;
}

/* The table's columns, their headings in h (one per side): A's figure is
 * a stub, so that each page of the text view repeats it, and each other
 * side's columns are a group kept on one page; -1 when out of memory. */
static int table_init(struct pc_table *tt, struct side_heads *h, const struct pc_compare *m,
		      const struct pc_cmp_table *t)
{
	size_t n = t->nsides ? col_of(t->nsides - 1, COL_VERDICT) + 1 : 1, i;
	struct pc_table_col *cols = calloc(n, sizeof(*cols));
	int rc;

	if (!cols)
		return -1;
	cols[0] = (struct pc_table_col){ .head = "probe",
		.flags = PC_COL_STUB | PC_COL_LEFT | PC_COL_CODE | PC_COL_ALONE, .gap = "" };
	for (i = 0; i < t->nsides; i++) {
		pc_side_label(i, h[i].label);
		snprintf(h[i].value, sizeof(h[i].value), "%s %s", h[i].label,
			 pc_metric_name(m->cfg.metric));
		cols[col_of(i, COL_VALUE)] = (struct pc_table_col){ .head = h[i].value,
			.flags = PC_COL_MARK | (i ? 0 : PC_COL_STUB), .gap = " ",
			.group = i ? h[i].label : NULL };
		if (!i)
			continue;
		snprintf(h[i].ratio, sizeof(h[i].ratio), "%s/A", h[i].label);
		cols[col_of(i, COL_RATIO)] = (struct pc_table_col){ .head = h[i].ratio,
			.gap = " ", .group = h[i].label };
		cols[col_of(i, COL_DELTA)] = (struct pc_table_col){ .head = "\xce\x94%",
			.gap = " ", .group = h[i].label };
		cols[col_of(i, COL_P)] = (struct pc_table_col){ .head = "p", .gap = " ",
			.group = h[i].label };
		cols[col_of(i, COL_VERDICT)] = (struct pc_table_col){ .head = "verdict",
			.flags = PC_COL_LEFT, .gap = " ", .group = h[i].label };
	}
	rc = pc_table_init(tt, NULL, cols, n);
	free(cols);
	if (rc == 0) {
		tt->marks = marks;
		tt->nmarks = sizeof(marks) / sizeof(marks[0]);
		tt->no_group_line = true;
	}
	return rc;
}

/* Each column as wide as its heading and widest cell (the verdict's last,
 * left-aligned, as wide as its widest word); the probe column as wide as
 * the longest name, narrowed (down to W_PROBE_MIN) when A's figure and one
 * other side's columns would not fit beside it. */
static void table_widths(struct pc_table *tt)
{
	size_t c, side = tt->ncols > 2 ? col_of(1, COL_VERDICT) + 1 : 2;
	int rest = 0, fit = pc_table_fit();

	for (c = 1; c < tt->ncols; c++) {
		int w = pc_table_widest(tt, c), h = pc_text_width(tt->cols[c].head);

		tt->cols[c].width = w > h ? w : h;
		if (c < side)
			rest += tt->cols[c].width + (int)strlen(tt->cols[c].gap);
	}
	tt->cols[0].width = pc_table_widest(tt, 0);
	if (tt->cols[0].width < W_PROBE_MIN)
		tt->cols[0].width = W_PROBE_MIN;
	if (fit > 0 && tt->cols[0].width + rest > fit)
		tt->cols[0].width = fit - rest > W_PROBE_MIN ? fit - rest : W_PROBE_MIN;
}

/* A side's figure: the median and its MAD, marked when noisy or not
 * linear; or the status, or n/a; nothing when the probe is absent. */
static int value_cell(struct pc_table *tt, size_t r, size_t col, const struct pc_cmp_cell *c)
{
	char v[32], d[32];

	switch (c->state) {
	case PC_CELL_ABSENT:
		return 0;
	case PC_CELL_STATUS:
		return pc_table_text(tt, r, col, "%s", c->status);
	case PC_CELL_NO_METRIC:
		return pc_table_text(tt, r, col, "n/a");
	case PC_CELL_OK:
		break;
	}
	pc_table_at(tt, r, col)->marks = (c->noisy ? MARKED_NOISY : 0) |
					 (c->nonlinear ? MARKED_NONLINEAR : 0);
	pc_fmt_figure(c->median, v, sizeof(v));
	/* a published figure is one point: it has no spread to show */
	if (c->single)
		return pc_table_text(tt, r, col, "%s", v);
	return pc_table_text(tt, r, col, "%s \xc2\xb1%s", v, pc_fmt_figure(c->mad, d, sizeof(d)));
}

static int ratio_cell(struct pc_table *tt, size_t r, size_t col, double ratio)
{
	return isnan(ratio) ? 0 : pc_table_text(tt, r, col, "%.3fx", ratio);
}

static int delta_cell(struct pc_table *tt, size_t r, size_t col, double d)
{
	return isnan(d) ? 0 : pc_table_text(tt, r, col, "%+.1f%%", fabs(d) < 0.05 ? 0.0 : d);
}

/* The verdict, slower an alert and faster good; "n/c" with why in a
 * footnote, and a verdict not reached by the U test with how. */
static int verdict_cell(struct pc_table *tt, size_t r, size_t col, const struct pc_cmp_cell *c)
{
	struct pc_table_cell *x = pc_table_at(tt, r, col);
	const char *how = test_note(c);
	char *why;

	x->emph = c->verdict == PC_VERDICT_SLOWER ? PC_EMPH_ALERT :
		  c->verdict == PC_VERDICT_FASTER ? PC_EMPH_GOOD : PC_EMPH_NONE;
	switch (c->verdict) {
	case PC_VERDICT_NONE:
		return 0;
	case PC_VERDICT_NOT_COMPARABLE:
		if (asprintf(&why, "not comparable: %s", c->why) < 0)
			return -1;
		x->note = pc_table_note(tt, why);
		free(why);
		return x->note ? pc_table_text(tt, r, col, "n/c") : -1;
	default:
		if (how && !(x->note = pc_table_note(tt, how)))
			return -1;
		return pc_table_text(tt, r, col, "%s", pc_verdict_name(c->verdict));
	}
}

static int probe_row(struct pc_table *tt, const struct pc_cmp_table *t,
		     const struct pc_cmp_row *row)
{
	long r = pc_table_row(tt);
	char buf[32];
	size_t i;
	int bad;

	if (r < 0)
		return -1;
	bad = pc_table_text(tt, (size_t)r, 0, "%s", row->probe) < 0;
	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_cell *c = &row->cell[i];

		bad |= value_cell(tt, (size_t)r, col_of(i, COL_VALUE), c) < 0;
		if (!i)
			continue;
		bad |= ratio_cell(tt, (size_t)r, col_of(i, COL_RATIO), c->ratio) < 0;
		bad |= delta_cell(tt, (size_t)r, col_of(i, COL_DELTA), c->delta_pct) < 0;
		bad |= c->verdict != PC_VERDICT_NONE &&
		       pc_table_text(tt, (size_t)r, col_of(i, COL_P), "%s",
				     p_text(c, buf, sizeof(buf))) < 0;
		bad |= verdict_cell(tt, (size_t)r, col_of(i, COL_VERDICT), c) < 0;
	}
	return bad ? -1 : 0;
}

/* The geometric mean of each side's ratios, and of how many probes: the
 * count in the p column, "probes" after it (in markdown, in one cell). */
static int geomean_row(struct pc_table *tt, const struct pc_cmp_table *t)
{
	long r = pc_table_row(tt);
	size_t i, n;
	double g;
	int bad;

	if (r < 0)
		return -1;
	bad = pc_table_text(tt, (size_t)r, 0, "geomean") < 0 ||
	      pc_table_wide(tt, (size_t)r, 0, "*geomean*") < 0;
	for (i = 0; i < t->nsides; i++) {
		bad |= pc_table_text(tt, (size_t)r, col_of(i, COL_VALUE), "%s", "") < 0;
		if (!i)
			continue;
		g = t->geomean[i];
		n = t->geomean_n[i];
		bad |= ratio_cell(tt, (size_t)r, col_of(i, COL_RATIO), g) < 0;
		bad |= delta_cell(tt, (size_t)r, col_of(i, COL_DELTA),
				  isnan(g) ? NAN : (g - 1) * 100) < 0;
		bad |= pc_table_text(tt, (size_t)r, col_of(i, COL_P), "%zu", n) < 0 ||
		       pc_table_wide(tt, (size_t)r, col_of(i, COL_P), "%zu probe%s", n,
				     n == 1 ? "" : "s") < 0;
		bad |= pc_table_text(tt, (size_t)r, col_of(i, COL_VERDICT), "probes") < 0 ||
		       pc_table_wide(tt, (size_t)r, col_of(i, COL_VERDICT), "%s", "") < 0;
	}
	return bad ? -1 : 0;
}

/* The marks the table used, each line after quote. */
static void marks_legend(FILE *f, const struct pc_cmp_table *t, const char *quote)
{
	size_t i, r;
	int noisy = 0, nonlinear = 0;

	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->nsides; i++) {
			noisy |= t->row[r].cell[i].noisy;
			nonlinear |= t->row[r].cell[i].nonlinear;
		}
	if (noisy || nonlinear)
		fputc('\n', f);
	if (noisy)
		prose(f, quote, "", MARK_NOISY " noisy: the samples stayed disturbed; the "
		      "figure is the last sampling's, not to be judged", 4);
	if (nonlinear)
		prose(f, quote, "", MARK_NONLINEAR " not linear: doubling the iterations "
		      "did not double the time", 4);
}

/* What the sides say of a row none measured: the first side's status that
 * has one ("unsupported"), else "absent". */
static const char *unmeasured_why(const struct pc_cmp_row *row, size_t nsides)
{
	size_t i;

	for (i = 0; i < nsides; i++)
		if (row->cell[i].status)
			return row->cell[i].status;
	return "absent";
}

/* The rows the text view leaves out, with no figure on any side: one line
 * per what the sides say of them ("unsupported: cmpxchg64 cmpxchg.llsc"). */
static void unmeasured(FILE *f, const struct pc_cmp_table *t)
{
	size_t r, q;

	for (r = 0; r < t->nrows; r++) {
		const char *st = unmeasured_why(&t->row[r], t->nsides);
		char *names = NULL, lead[96];
		size_t len = 0;
		FILE *m;

		if (measured(&t->row[r], t->nsides))
			continue;
		for (q = 0; q < r; q++)	/* said with an earlier row */
			if (!measured(&t->row[q], t->nsides) &&
			    strcmp(unmeasured_why(&t->row[q], t->nsides), st) == 0)
				break;
		if (q < r || !(m = open_memstream(&names, &len)))
			continue;
		for (q = r; q < t->nrows; q++)
			if (!measured(&t->row[q], t->nsides) &&
			    strcmp(unmeasured_why(&t->row[q], t->nsides), st) == 0)
				fprintf(m, "%s%s", q > r ? " " : "", t->row[q].probe);
		if (fclose(m) == 0) {
			snprintf(lead, sizeof(lead), "no figure on any side (%s):", st);
			pc_text_wrap(f, lead, names, 4, pc_table_fit());
		}
		free(names);
	}
}

/* A comparison table as text (coloured on a terminal) or markdown: its
 * title, its sides and notes, the table (the text view without the rows
 * no side measured, named under it) and its footnotes, the marks' legend;
 * -1 when out of memory. */
static int table_view(struct pc_view *v, const struct pc_compare *m,
		      const struct pc_cmp_table *t)
{
	struct side_heads *h = calloc(t->nsides + 1, sizeof(*h));
	bool markdown = v->fmt == PC_FORMAT_MARKDOWN;
	FILE *f = v->f;
	struct pc_table tt;
	size_t r, shown = 0;
	int rc;

	if (!h)
		return -1;
	rc = table_init(&tt, h, m, t);
	for (r = 0; rc == 0 && r < t->nrows; r++)
		if (markdown || measured(&t->row[r], t->nsides)) {
			rc = probe_row(&tt, t, &t->row[r]);
			shown++;
		}
	if (rc == 0 && t->nsides > 1)
		rc = geomean_row(&tt, t);
	if (rc == 0) {
		if (*t->title)
			fprintf(f, markdown ? "### `%s`\n\n" : "== %s\n", pc_shown(t->title));
		describe_table(f, t, pc_view_quote(v));
		fputc('\n', f);
		tt.color = v->color;
		if (!markdown)
			table_widths(&tt);
		if (shown || markdown)
			pc_view_table(v, &tt, t->title);
		if (!markdown && shown < t->nrows)
			fputc('\n', f);
		if (!markdown)
			unmeasured(f, t);
		marks_legend(f, t, pc_view_quote(v));
	}
	pc_table_free(&tt);
	free(h);
	return rc;
}

/* ---- CSV: a line per probe and side, a line per side's geomean ---------- */

static const char *state_name(enum pc_cell_state s)
{
	static const char *const names[] = { "absent", "status", "no-metric", "ok" };

	return names[s];
}

enum {
	CSV_TABLE, CSV_PROBE, CSV_GROUP, CSV_SIDE, CSV_FILE, CSV_CPU, CSV_STATE, CSV_STATUS,
	CSV_MEDIAN, CSV_Q1, CSV_Q3, CSV_MAD, CSV_SAMPLES, CSV_RAW_SAMPLES, CSV_RATIO,
	CSV_DELTA, CSV_P, CSV_TEST, CSV_VERDICT, CSV_NONLINEAR, CSV_SPREAD, CSV_THRESHOLD,
	CSV_WHY, CSV_COLS
};

/* Figures with six significant digits, counts whole. */
#define CSV_WORDS(name) { NULL, name, 0, PC_CELL_FIXED, PC_COL_LEFT, 0, NULL, NULL, NULL, NULL }
#define CSV_FIGURE(name) { NULL, name, 0, PC_CELL_GENERAL, 0, 6, NULL, NULL, NULL, NULL }
#define CSV_COUNT(name) { NULL, name, 0, PC_CELL_FIXED, 0, 0, NULL, NULL, NULL, NULL }
static const struct pc_table_col csv_cols[CSV_COLS] = {
	CSV_WORDS("table"), CSV_WORDS("probe"), CSV_WORDS("group"), CSV_WORDS("side"),
	CSV_WORDS("file"), CSV_WORDS("cpu"), CSV_WORDS("state"), CSV_WORDS("status"),
	CSV_FIGURE("median"), CSV_FIGURE("q1"), CSV_FIGURE("q3"), CSV_FIGURE("mad"),
	CSV_COUNT("samples"), CSV_COUNT("raw_samples"), CSV_FIGURE("ratio"),
	CSV_FIGURE("delta_pct"), CSV_FIGURE("p"), CSV_WORDS("test"), CSV_WORDS("verdict"),
	CSV_WORDS("nonlinear"), CSV_FIGURE("spread"), CSV_FIGURE("threshold_pct"),
	CSV_WORDS("why"),
};

/* Words, or nothing (the one word for no value) when there are none. */
static int csv_words(struct pc_table *tt, size_t r, size_t col, const char *s)
{
	return s && *s ? pc_table_text(tt, r, col, "%s", s) : 0;
}

/* A row's first fields: which table, probe, side. */
static int csv_lead(struct pc_table *tt, size_t r, const struct pc_cmp_table *t,
		    const char *probe, const char *group, size_t i)
{
	char l[PC_LABEL_LEN];

	return csv_words(tt, r, CSV_TABLE, t->title) < 0 ||
	       pc_table_text(tt, r, CSV_PROBE, "%s", probe) < 0 ||
	       pc_table_text(tt, r, CSV_GROUP, "%s", group ? group : "") < 0 ||
	       pc_table_text(tt, r, CSV_SIDE, "%s", pc_side_label(i, l)) < 0 ||
	       pc_table_text(tt, r, CSV_FILE, "%s", t->side[i].file) < 0 ||
	       pc_table_text(tt, r, CSV_CPU, "%s", t->side[i].key) < 0 ? -1 : 0;
}

static int csv_cell(struct pc_table *tt, const struct pc_cmp_table *t,
		    const struct pc_cmp_row *row, size_t i)
{
	const struct pc_cmp_cell *c = &row->cell[i];
	long r = pc_table_row(tt);
	size_t k = (size_t)r;
	bool ok = c->state == PC_CELL_OK;

	if (r < 0 || csv_lead(tt, k, t, row->probe, row->group, i) < 0)
		return -1;
	if (ok) {
		pc_table_at(tt, k, CSV_MEDIAN)->v = c->median;
		pc_table_at(tt, k, CSV_Q1)->v = c->q1;
		pc_table_at(tt, k, CSV_Q3)->v = c->q3;
		pc_table_at(tt, k, CSV_MAD)->v = c->single ? NAN : c->mad;	/* a point */
		pc_table_at(tt, k, CSV_SAMPLES)->v = (double)c->samples;
		pc_table_at(tt, k, CSV_RAW_SAMPLES)->v = (double)c->nraw;
	}
	pc_table_at(tt, k, CSV_RATIO)->v = c->ratio;
	pc_table_at(tt, k, CSV_DELTA)->v = c->delta_pct;
	pc_table_at(tt, k, CSV_P)->v = c->p;
	pc_table_at(tt, k, CSV_SPREAD)->v = c->spread;
	pc_table_at(tt, k, CSV_THRESHOLD)->v = c->threshold_pct;
	return pc_table_text(tt, k, CSV_STATE, "%s", state_name(c->state)) < 0 ||
	       csv_words(tt, k, CSV_STATUS, c->status) < 0 ||
	       csv_words(tt, k, CSV_TEST, i ? pc_test_name(c->test) : NULL) < 0 ||
	       csv_words(tt, k, CSV_VERDICT, pc_verdict_name(c->verdict)) < 0 ||
	       pc_table_text(tt, k, CSV_NONLINEAR, c->nonlinear ? "yes" : "no") < 0 ||
	       csv_words(tt, k, CSV_WHY, c->why) < 0 ? -1 : 0;
}

static int csv_geomean(struct pc_table *tt, const struct pc_cmp_table *t, size_t i)
{
	long r = pc_table_row(tt);
	size_t k = (size_t)r;
	double g = t->geomean[i];

	if (r < 0 || csv_lead(tt, k, t, "geomean", NULL, i) < 0 ||
	    pc_table_text(tt, k, CSV_GROUP, PC_NO_VALUE) < 0 ||
	    pc_table_text(tt, k, CSV_STATE, "geomean") < 0)
		return -1;
	pc_table_at(tt, k, CSV_RAW_SAMPLES)->v = (double)t->geomean_n[i];
	pc_table_at(tt, k, CSV_RATIO)->v = g;
	pc_table_at(tt, k, CSV_DELTA)->v = isnan(g) ? NAN : (g - 1) * 100;
	return 0;
}

/* Every comparison table's lines under one line of headings; -1 when out
 * of memory. */
static int render_csv(FILE *f, const struct pc_compare *m)
{
	struct pc_table tt;
	size_t c, r, i;
	int rc = pc_table_init(&tt, NULL, csv_cols, CSV_COLS);

	for (c = 0; rc == 0 && c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		for (r = 0; rc == 0 && r < t->nrows; r++)
			for (i = 0; rc == 0 && i < t->nsides; i++)
				rc = csv_cell(&tt, t, &t->row[r], i);
		for (i = 1; rc == 0 && i < t->nsides; i++)
			rc = csv_geomean(&tt, t, i);
	}
	if (rc == 0)
		pc_table_draw_csv(f, &tt, true);
	pc_table_free(&tt);
	return rc;
}

/* ---- JSON: the model itself ------------------------------------------------ */

static json_t *num_or_null(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *side_json_context(const struct pc_cmp_side *s, size_t i, char *l);

static json_t *side_json(const struct pc_cmp_side *s, size_t i)
{
	char l[PC_LABEL_LEN];
	json_t *o = side_json_context(s, i, l);

	/* Where the figures come from: one run, several, a partial one. */
	if (o && s->entry) {
		json_object_set_new(o, "runs_used", json_integer((json_int_t)s->runs_used));
		json_object_set_new(o, "partial_figures",
				    json_integer((json_int_t)s->partial_figures));
		json_object_set_new(o, "newest_run_date", str_or_null(s->newest_date));
		json_object_set_new(o, "oldest_run_date", str_or_null(s->oldest_date));
	}
	return o;
}

static json_t *side_json_context(const struct pc_cmp_side *s, size_t i, char *l)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
			 "label", pc_side_label(i, l), "file", s->file, "cpu", s->key,
			 "present", s->entry != NULL, "brand", str_or_null(s->brand),
			 "cycles_source", str_or_null(s->cycles_source),
			 "kernel", str_or_null(s->kernel),
			 "primcost_version", str_or_null(s->version),
			 "timer", str_or_null(s->timer),
			 "timer_hz", s->timer_hz > 0 ? json_real(s->timer_hz) : json_null(),
			 "virtualized", s->virtualized < 0 ? json_null() :
			 json_boolean(s->virtualized), "unreliable", s->unreliable,
			 "reference", str_or_null(s->reference));
}

static json_t *cell_json(const struct pc_cmp_cell *c, size_t i)
{
	json_t *o = json_pack("{s:s}", "state", state_name(c->state));

	if (!o)
		return NULL;
	if (c->status)
		json_object_set_new(o, "status", json_string(c->status));
	if (c->reason && *c->reason)
		json_object_set_new(o, "reason", json_string(c->reason));
	if (c->state == PC_CELL_OK) {
		json_object_set_new(o, "median", json_real(c->median));
		json_object_set_new(o, "q1", json_real(c->q1));
		json_object_set_new(o, "q3", json_real(c->q3));
		json_object_set_new(o, "mad", json_real(c->mad));
		json_object_set_new(o, "samples", json_integer(c->samples));
		json_object_set_new(o, "raw_samples", json_integer((json_int_t)c->nraw));
		json_object_set_new(o, "single", json_boolean(c->single));
		json_object_set_new(o, "nonlinear", json_boolean(c->nonlinear));
		json_object_set_new(o, "spread", num_or_null(c->spread));
		json_object_set_new(o, "history_spread", num_or_null(c->history_spread));
	}
	if (i) {
		json_object_set_new(o, "ratio", num_or_null(c->ratio));
		json_object_set_new(o, "delta_pct", num_or_null(c->delta_pct));
		json_object_set_new(o, "p", num_or_null(c->p));
		json_object_set_new(o, "test", json_string(pc_test_name(c->test)));
		json_object_set_new(o, "verdict", c->verdict == PC_VERDICT_NONE ?
				    json_null() : json_string(pc_verdict_name(c->verdict)));
		json_object_set_new(o, "threshold_pct", num_or_null(c->threshold_pct));
		if (c->verdict == PC_VERDICT_NOT_COMPARABLE)
			json_object_set_new(o, "why", json_string(c->why));
	}
	return o;
}

json_t *pc_compare_json(const struct pc_compare *m)
{
	json_t *out, *tables;
	size_t c, r, i;

	out = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:i, s:b, s:{s:I, s:I, s:I, s:I}, "
			"s:I}",
			"schema", "primcost-compare/1",
			"metric", pc_metric_name(m->cfg.metric),
			"threshold_pct", m->cfg.threshold_pct, "alpha", m->cfg.alpha,
			"floor", PC_COMPARE_FLOOR, "spread_k", PC_COMPARE_SPREAD_K,
			"min_raw_samples", PC_COMPARE_MIN_RAW,
			"paired", m->paired, "verdicts",
			"slower", (json_int_t)m->slower, "faster", (json_int_t)m->faster,
			"same", (json_int_t)m->same,
			"not_comparable", (json_int_t)m->not_comparable,
			"common", (json_int_t)m->common);
	tables = json_array();
	if (!out || !tables) {
		json_decref(out);
		json_decref(tables);
		return NULL;
	}
	json_object_set_new(out, "tables", tables);
	for (c = 0; c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];
		json_t *jt = json_object(), *sides = json_array(), *notes = json_array();
		json_t *rows = json_array(), *geo = json_array();

		json_array_append_new(tables, jt);
		json_object_set_new(jt, "title", json_string(t->title));
		json_object_set_new(jt, "sides", sides);
		json_object_set_new(jt, "notes", notes);
		json_object_set_new(jt, "rows", rows);
		json_object_set_new(jt, "geomean", geo);
		for (i = 0; i < t->nsides; i++) {
			json_array_append_new(sides, side_json(&t->side[i], i));
			json_array_append_new(geo, i == 0 ? json_null() :
				json_pack("{s:o, s:I}", "ratio", num_or_null(t->geomean[i]),
					  "probes", (json_int_t)t->geomean_n[i]));
		}
		for (i = 0; i < t->nnotes; i++)
			json_array_append_new(notes, json_string(t->note[i]));
		for (r = 0; r < t->nrows; r++) {
			json_t *cells = json_array();

			for (i = 0; i < t->nsides; i++)
				json_array_append_new(cells, cell_json(&t->row[r].cell[i], i));
			json_array_append_new(rows, json_pack("{s:s, s:o, s:o}",
				"probe", t->row[r].probe,
				"group", str_or_null(t->row[r].group), "cells", cells));
		}
	}
	return out;
}

int pc_compare_render(FILE *f, const struct pc_compare *m, enum pc_format fmt,
		      bool color)
{
	struct pc_view v;
	size_t c;

	if (fmt == PC_FORMAT_JSON) {
		json_t *j = pc_compare_json(m);
		int rc = j ? json_dumpf(j, f, JSON_INDENT(1) | JSON_REAL_PRECISION(7)) : -1;

		json_decref(j);
		fputc('\n', f);
		return rc < 0 || ferror(f) ? -1 : 0;
	}
	if (fmt == PC_FORMAT_CSV)
		return render_csv(f, m) < 0 || ferror(f) ? -1 : 0;
	pc_view_init(&v, f, fmt);
	v.color = color;
	rule_line(f, m, pc_view_quote(&v));
	for (c = 0; c < m->ntables; c++) {
		fputc('\n', f);
		if (table_view(&v, m, &m->table[c]) < 0)
			return -1;
		pc_compare_render_analogs(&v, m, &m->table[c]);
	}
	if (pc_view_end(&v) < 0)
		return -1;
	fprintf(f, "\n%s%zu slower, %zu faster, %zu same", pc_view_quote(&v), m->slower,
		m->faster, m->same);
	if (m->not_comparable)
		fprintf(f, ", %zu not comparable", m->not_comparable);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}
