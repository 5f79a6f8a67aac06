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

static const char *p_text(const struct pc_cmp_cell *c, char *buf, size_t len)
{
	switch (c->test) {
	case PC_TEST_MWU:
		if (c->p < 0.001)
			return "<0.001";
		snprintf(buf, len, "%.3f", c->p);
		return buf;
	case PC_TEST_QUARTILES:
		return "iqr";
	case PC_TEST_SINGLE:
		return "single";
	case PC_TEST_NONE:
		break;
	}
	return DASH;
}

static void describe_side(FILE *f, const struct pc_cmp_side *s, size_t i,
			  const char *prefix)
{
	char l[PC_LABEL_LEN];

	fprintf(f, "%s%s = %s: %s", prefix, pc_side_label(i, l), pc_shown(s->file),
		pc_shown(s->key));
	if (!s->entry) {
		fputs(" (absent)\n", f);
		return;
	}
	if (s->brand)
		fprintf(f, " (%s%s)", pc_shown(s->brand),
			s->virtualized == 1 ? ", virtual machine" : "");
	if (s->cycles_source)
		fprintf(f, ", cycles %s", pc_shown(s->cycles_source));
	fputc('\n', f);
}

static void rule_line(FILE *f, const struct pc_compare *m, const char *prefix)
{
	fprintf(f, "%s%s per operation, median \xc2\xb1MAD; verdict against A: "
		"significant (Mann-Whitney U p < %g on raw samples, else no "
		"overlap of quartiles) and |\xce\x94| >= %g%% or the probe's spread\n",
		prefix,
		pc_metric_name(m->cfg.metric), m->cfg.alpha, m->cfg.threshold_pct);
}

/* What a table's sides are and its notes, each line after quote. */
static void describe_table(FILE *f, const struct pc_cmp_table *t, const char *quote)
{
	size_t i;

	for (i = 0; i < t->nsides; i++)
		describe_side(f, &t->side[i], i, quote);
	for (i = 0; i < t->nnotes; i++)
		fprintf(f, "%snote: %s\n", quote, t->note[i]);
}

/* ---- the table: probe, A's figure, then each other side's figure, ratio,
 * delta, p and verdict ---------------------------------------------------- */

#define W_PROBE 24
#define W_VALUE 17
#define W_RATIO 8
#define W_DELTA 8
#define W_P 7
#define W_VERDICT 7

/* A side's columns, in order; side A has its figure alone. */
enum { COL_VALUE, COL_RATIO, COL_DELTA, COL_P, COL_VERDICT, COLS_PER_SIDE };

static size_t col_of(size_t side, int what)
{
	return side ? 2 + (side - 1) * COLS_PER_SIDE + (size_t)what : 1;
}

/* The headings that name a side: "B cycles", "B/A". */
struct side_heads {
	char value[PC_LABEL_LEN + 16], ratio[PC_LABEL_LEN + 4];
};

/* The table's columns, their headings in h (one per side); -1 when out
 * of memory. */
static int table_init(struct pc_table *tt, struct side_heads *h, const struct pc_compare *m,
		      const struct pc_cmp_table *t)
{
	size_t n = t->nsides ? col_of(t->nsides - 1, COL_VERDICT) + 1 : 1, i, r;
	struct pc_table_col *cols = calloc(n, sizeof(*cols));
	char l[PC_LABEL_LEN];
	int rc;

	if (!cols)
		return -1;
	cols[0] = (struct pc_table_col){ .head = "probe", .width = W_PROBE,
		.flags = PC_COL_STUB | PC_COL_LEFT | PC_COL_CODE, .gap = "" };
	for (r = 0; r < t->nrows; r++)	/* a space after the longest name */
		if (pc_text_width(t->row[r].probe) + 1 > cols[0].width)
			cols[0].width = pc_text_width(t->row[r].probe) + 1;
	for (i = 0; i < t->nsides; i++) {
		snprintf(h[i].value, sizeof(h[i].value), "%s %s", pc_side_label(i, l),
			 pc_metric_name(m->cfg.metric));
		cols[col_of(i, COL_VALUE)] = (struct pc_table_col){ .head = h[i].value,
			.width = W_VALUE, .gap = "" };
		if (!i)
			continue;
		snprintf(h[i].ratio, sizeof(h[i].ratio), "%s/A", l);
		cols[col_of(i, COL_RATIO)] = (struct pc_table_col){ .head = h[i].ratio,
			.width = W_RATIO, .gap = "" };
		cols[col_of(i, COL_DELTA)] = (struct pc_table_col){ .head = "\xce\x94%",
			.width = W_DELTA, .gap = "" };
		cols[col_of(i, COL_P)] = (struct pc_table_col){ .head = "p", .width = W_P,
			.gap = "" };
		cols[col_of(i, COL_VERDICT)] = (struct pc_table_col){ .head = "verdict",
			.width = W_VERDICT, .flags = PC_COL_LEFT, .gap = " " };
	}
	rc = pc_table_init(tt, NULL, cols, n);
	free(cols);
	if (rc == 0) {
		tt->marks = marks;
		tt->nmarks = sizeof(marks) / sizeof(marks[0]);
	}
	return rc;
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

/* The verdict: n/c in the text table, why in markdown; slower an alert,
 * faster good. */
static int verdict_cell(struct pc_table *tt, size_t r, size_t col, const struct pc_cmp_cell *c)
{
	struct pc_table_cell *x = pc_table_at(tt, r, col);

	x->emph = c->verdict == PC_VERDICT_SLOWER ? PC_EMPH_ALERT :
		  c->verdict == PC_VERDICT_FASTER ? PC_EMPH_GOOD : PC_EMPH_NONE;
	switch (c->verdict) {
	case PC_VERDICT_NONE:
		return 0;
	case PC_VERDICT_NOT_COMPARABLE:
		if (pc_table_text(tt, r, col, "n/c") < 0)
			return -1;
		return pc_table_wide(tt, r, col, "not comparable: %s", c->why);
	default:
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
		bad |= pc_table_text(tt, (size_t)r, col_of(i, COL_P), "%s",
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
		       pc_table_wide(tt, (size_t)r, col_of(i, COL_P), "%zu probes", n) < 0;
		bad |= pc_table_text(tt, (size_t)r, col_of(i, COL_VERDICT), "probes") < 0 ||
		       pc_table_wide(tt, (size_t)r, col_of(i, COL_VERDICT), "%s", "") < 0;
	}
	return bad ? -1 : 0;
}

/* The rows side i could not be judged on, grouped by why, and the marks
 * the table used; each line after quote. */
static void judging_legend(FILE *f, const struct pc_cmp_table *t, const char *quote)
{
	char l[PC_LABEL_LEN], lead[64];
	size_t i, r, q;
	int noisy = 0, nonlinear = 0;

	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->nsides; i++) {
			noisy |= t->row[r].cell[i].noisy;
			nonlinear |= t->row[r].cell[i].nonlinear;
		}
	if (noisy || nonlinear)
		fputc('\n', f);
	if (noisy)
		fprintf(f, "%s" MARK_NOISY " noisy: the samples stayed disturbed; the "
			"figure is the last sampling's, not to be judged\n", quote);
	if (nonlinear)
		fprintf(f, "%s" MARK_NONLINEAR " not linear: doubling the iterations did "
			"not double the time\n", quote);
	for (i = 1; i < t->nsides; i++) {
		for (r = 0; r < t->nrows; r++) {
			const struct pc_cmp_cell *c = &t->row[r].cell[i];
			char *names = NULL;
			size_t len = 0;
			FILE *m;

			if (c->verdict != PC_VERDICT_NOT_COMPARABLE)
				continue;
			for (q = 0; q < r; q++)	/* said with an earlier row */
				if (t->row[q].cell[i].verdict == PC_VERDICT_NOT_COMPARABLE &&
				    strcmp(t->row[q].cell[i].why, c->why) == 0)
					break;
			if (q < r || !(m = open_memstream(&names, &len)))
				continue;
			for (q = r; q < t->nrows; q++)
				if (t->row[q].cell[i].verdict == PC_VERDICT_NOT_COMPARABLE &&
				    strcmp(t->row[q].cell[i].why, c->why) == 0)
					fprintf(m, "%s%s", q > r ? " " : "", t->row[q].probe);
			if (fclose(m) == 0) {
				snprintf(lead, sizeof(lead), "%s%s n/c: not comparable:",
					 quote, pc_side_label(i, l));
				fprintf(f, "%s %s: %s\n", lead, c->why, names);
			}
			free(names);
		}
	}
}

/* A comparison table as text (coloured on a terminal) or markdown: its
 * title, its sides and notes, the table, the legend of what it could not
 * judge; -1 when out of memory. */
static int table_view(FILE *f, const struct pc_compare *m, const struct pc_cmp_table *t,
		      bool markdown, bool color)
{
	struct side_heads *h = calloc(t->nsides + 1, sizeof(*h));
	struct pc_table tt;
	size_t r;
	int rc;

	if (!h)
		return -1;
	rc = table_init(&tt, h, m, t);
	for (r = 0; rc == 0 && r < t->nrows; r++)
		rc = probe_row(&tt, t, &t->row[r]);
	if (rc == 0 && t->nsides > 1)
		rc = geomean_row(&tt, t);
	if (rc == 0) {
		if (*t->title)
			fprintf(f, markdown ? "### `%s`\n\n" : "== %s\n", pc_shown(t->title));
		describe_table(f, t, markdown ? "> " : "");
		fputc('\n', f);
		tt.color = color;
		if (markdown)
			pc_table_draw_markdown(f, &tt);
		else
			pc_table_draw_text(f, &tt);
		judging_legend(f, t, markdown ? "> " : "");
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
#define CSV_WORDS(name) { NULL, name, 0, PC_CELL_FIXED, PC_COL_LEFT, 0, NULL, NULL }
#define CSV_FIGURE(name) { NULL, name, 0, PC_CELL_GENERAL, 0, 6, NULL, NULL }
#define CSV_COUNT(name) { NULL, name, 0, PC_CELL_FIXED, 0, 0, NULL, NULL }
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
	bool markdown = fmt == PC_FORMAT_MARKDOWN;
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
	rule_line(f, m, markdown ? "> " : "");
	for (c = 0; c < m->ntables; c++) {
		fputc('\n', f);
		if (table_view(f, m, &m->table[c], markdown, color) < 0)
			return -1;
		pc_compare_render_analogs(f, m, &m->table[c], markdown, 0);
	}
	fprintf(f, "\n%s%zu slower, %zu faster, %zu same", markdown ? "> " : "", m->slower,
		m->faster, m->same);
	if (m->not_comparable)
		fprintf(f, ", %zu not comparable", m->not_comparable);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}
