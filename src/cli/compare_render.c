/* SPDX-License-Identifier: MIT */
/*
 * compare_render.c - renderings of the comparison model: an aligned table
 * (coloured on a terminal), markdown, CSV and the model itself as JSON.
 * Nothing here decides anything; every figure and verdict comes from the
 * model.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/compare.h"
#include "core/util.h"

#define DASH PC_NO_VALUE	/* nothing to show */

/* Figures keep about four significant digits, and -0.00 shows as 0.00. */
static const char *fmt_value(double x, char *buf, size_t len)
{
	if (fabs(x) < 0.005)
		x = 0;
	if (fabs(x) >= 10000)
		snprintf(buf, len, "%.0f", x);
	else if (fabs(x) >= 1000)
		snprintf(buf, len, "%.1f", x);
	else
		snprintf(buf, len, "%.2f", x);
	return buf;
}

/* The marks of a figure in the text table (words elsewhere): noisy, not
 * linear. The table's legend says what they mean. */
#define MARK_NOISY "~"
#define MARK_NONLINEAR "^"

static const char *cell_text(const struct pc_cmp_cell *c, char *buf, size_t len,
			     int with_mad)
{
	char v[32], d[32];
	const char *mark = c->noisy ? MARK_NOISY : "";
	const char *mark2 = c->nonlinear ? MARK_NONLINEAR : "";

	switch (c->state) {
	case PC_CELL_ABSENT:
		return DASH;
	case PC_CELL_STATUS:
		return c->status;
	case PC_CELL_NO_METRIC:
		return "n/a";
	case PC_CELL_OK:
		break;
	}
	fmt_value(c->median, v, sizeof(v));
	if (with_mad > 1) {	/* words: markdown */
		mark = c->noisy ? " (noisy)" : "";
		mark2 = c->nonlinear ? " (not linear)" : "";
	}
	/* a published figure is one point: it has no spread to show */
	if (with_mad && !c->single) {
		fmt_value(c->mad, d, sizeof(d));
		snprintf(buf, len, "%s \xc2\xb1%s%s%s", v, d, mark, mark2);
	} else {
		snprintf(buf, len, "%s%s%s", v, mark, mark2);
	}
	return buf;
}

static const char *ratio_text(double r, char *buf, size_t len)
{
	if (isnan(r))
		return DASH;
	snprintf(buf, len, "%.3fx", r);
	return buf;
}

static const char *delta_text(double d, char *buf, size_t len)
{
	if (isnan(d))
		return DASH;
	snprintf(buf, len, "%+.1f%%", fabs(d) < 0.05 ? 0.0 : d);
	return buf;
}

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

/* Display width of UTF-8 text: one column per character. */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, const char *s, int w, int right)
{
	int n = w - width(s);

	if (right)
		for (; n > 0; n--)
			fputc(' ', f);
	fputs(s, f);
	if (!right)
		for (; n > 0; n--)
			fputc(' ', f);
}

static void verdict_out(FILE *f, enum pc_verdict v, bool color, int w)
{
	const char *on = "";

	if (color && v == PC_VERDICT_SLOWER)
		on = "\033[1;31m";
	else if (color && v == PC_VERDICT_FASTER)
		on = "\033[1;32m";
	fputs(on, f);
	pad(f, v == PC_VERDICT_NONE ? DASH : v == PC_VERDICT_NOT_COMPARABLE ? "n/c" :
	    pc_verdict_name(v), w, 0);
	if (*on)
		fputs("\033[0m", f);
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

/* ---- table ------------------------------------------------------------------ */

#define W_PROBE 24
#define W_VALUE 17
#define W_RATIO 8
#define W_DELTA 8
#define W_P 7
#define W_VERDICT 7

static int probe_width(const struct pc_cmp_table *t)
{
	int w = W_PROBE;
	size_t r;

	for (r = 0; r < t->nrows; r++)
		if (width(t->row[r].probe) + 1 > w)
			w = width(t->row[r].probe) + 1;
	return w;
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

static void judging_legend(FILE *f, const struct pc_cmp_table *t, const char *quote);

static void table_text(FILE *f, const struct pc_compare *m, const struct pc_cmp_table *t,
		       bool color)
{
	char buf[96], l[PC_LABEL_LEN], h[96];
	int wp = probe_width(t);
	size_t r, i;

	if (*t->title)
		fprintf(f, "== %s\n", pc_shown(t->title));
	describe_table(f, t, "");
	fputc('\n', f);
	pad(f, "probe", wp, 0);
	for (i = 0; i < t->nsides; i++) {
		snprintf(h, sizeof(h), "%s %s", pc_side_label(i, l),
			 pc_metric_name(m->cfg.metric));
		pad(f, h, W_VALUE, 1);
		if (i) {
			snprintf(h, sizeof(h), "%s/A", l);
			pad(f, h, W_RATIO, 1);
			pad(f, "\xce\x94%", W_DELTA, 1);
			pad(f, "p", W_P, 1);
			fputc(' ', f);
			pad(f, "verdict", W_VERDICT, 0);
		}
	}
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		const struct pc_cmp_row *row = &t->row[r];

		pad(f, row->probe, wp, 0);
		for (i = 0; i < t->nsides; i++) {
			const struct pc_cmp_cell *c = &row->cell[i];

			pad(f, cell_text(c, buf, sizeof(buf), 1), W_VALUE, 1);
			if (!i)
				continue;
			pad(f, ratio_text(c->ratio, buf, sizeof(buf)), W_RATIO, 1);
			pad(f, delta_text(c->delta_pct, buf, sizeof(buf)), W_DELTA, 1);
			pad(f, p_text(c, buf, sizeof(buf)), W_P, 1);
			fputc(' ', f);
			verdict_out(f, c->verdict, color, W_VERDICT);
		}
		fputc('\n', f);
	}
	if (t->nsides > 1) {
		pad(f, "geomean", wp, 0);
		for (i = 0; i < t->nsides; i++) {
			pad(f, "", W_VALUE, 1);
			if (!i)
				continue;
			pad(f, ratio_text(t->geomean[i], buf, sizeof(buf)), W_RATIO, 1);
			pad(f, delta_text(isnan(t->geomean[i]) ? NAN :
					  (t->geomean[i] - 1) * 100, buf, sizeof(buf)),
			    W_DELTA, 1);
			snprintf(h, sizeof(h), "%zu", t->geomean_n[i]);
			pad(f, h, W_P, 1);
			fputs(" probes ", f);
		}
		fputc('\n', f);
	}
	judging_legend(f, t, "");
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

/* ---- markdown ------------------------------------------------------------- */

static void table_markdown(FILE *f, const struct pc_compare *m,
			   const struct pc_cmp_table *t)
{
	char buf[96], l[PC_LABEL_LEN];
	size_t r, i;

	if (*t->title)
		fprintf(f, "### `%s`\n\n", pc_shown(t->title));
	describe_table(f, t, "> ");
	fputs("\n| probe |", f);
	for (i = 0; i < t->nsides; i++) {
		fprintf(f, " %s %s |", pc_side_label(i, l), pc_metric_name(m->cfg.metric));
		if (i)
			fprintf(f, " %s/A | \xce\x94%% | p | verdict |", l);
	}
	fputs("\n|---|", f);
	for (i = 0; i < t->nsides; i++)
		fputs(i ? "---:|---:|---:|---:|---|" : "---:|", f);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		const struct pc_cmp_row *row = &t->row[r];

		fprintf(f, "| `%s` |", row->probe);
		for (i = 0; i < t->nsides; i++) {
			const struct pc_cmp_cell *c = &row->cell[i];

			fprintf(f, " %s |", cell_text(c, buf, sizeof(buf), 2));
			if (!i)
				continue;
			fprintf(f, " %s |", ratio_text(c->ratio, buf, sizeof(buf)));
			fprintf(f, " %s |", delta_text(c->delta_pct, buf, sizeof(buf)));
			fprintf(f, " %s |", p_text(c, buf, sizeof(buf)));
			if (c->verdict == PC_VERDICT_NOT_COMPARABLE)
				fprintf(f, " not comparable: %s |", c->why);
			else
				fprintf(f, " %s |", c->verdict == PC_VERDICT_SLOWER ?
					"**slower**" : c->verdict == PC_VERDICT_NONE ? DASH :
					pc_verdict_name(c->verdict));
		}
		fputc('\n', f);
	}
	if (t->nsides > 1) {
		fputs("| *geomean* |", f);
		for (i = 0; i < t->nsides; i++) {
			fputs(" |", f);
			if (!i)
				continue;
			fprintf(f, " %s |", ratio_text(t->geomean[i], buf, sizeof(buf)));
			fprintf(f, " %s | %zu probes | |",
				delta_text(isnan(t->geomean[i]) ? NAN :
					   (t->geomean[i] - 1) * 100, buf, sizeof(buf)),
				t->geomean_n[i]);
		}
		fputc('\n', f);
	}
}

/* ---- CSV ---------------------------------------------------------------------- */

/* A text field, or the one word for no value when it is empty. */
static void csv_text(FILE *f, const char *s)
{
	pc_csv_field(f, s && *s ? s : PC_NO_VALUE);
}

/* A number, or the one word for no value (PC_NO_VALUE), as in every view. */
static void csv_num(FILE *f, double x)
{
	if (!isnan(x))
		fprintf(f, "%.6g", x);
	else
		fputs(PC_NO_VALUE, f);
	fputc(',', f);
}

static const char *state_name(enum pc_cell_state s)
{
	static const char *const names[] = { "absent", "status", "no-metric", "ok" };

	return names[s];
}

static void table_csv(FILE *f, const struct pc_cmp_table *t)
{
	size_t r, i;
	char l[PC_LABEL_LEN];

	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < t->nsides; i++) {
			const struct pc_cmp_cell *c = &t->row[r].cell[i];
			int ok = c->state == PC_CELL_OK;

			csv_text(f, t->title);
			fputc(',', f);
			pc_csv_field(f, t->row[r].probe);
			fputc(',', f);
			pc_csv_field(f, t->row[r].group);
			fprintf(f, ",%s,", pc_side_label(i, l));
			pc_csv_field(f, t->side[i].file);
			fputc(',', f);
			pc_csv_field(f, t->side[i].key);
			fprintf(f, ",%s,%s,", state_name(c->state), c->status ? c->status : PC_NO_VALUE);
			csv_num(f, ok ? c->median : NAN);
			csv_num(f, ok ? c->q1 : NAN);
			csv_num(f, ok ? c->q3 : NAN);
			csv_num(f, ok && !c->single ? c->mad : NAN);	/* a point */
			if (ok)
				fprintf(f, "%lld,%zu,", c->samples, c->nraw);
			else
				fputs(PC_NO_VALUE "," PC_NO_VALUE ",", f);
			csv_num(f, c->ratio);
			csv_num(f, c->delta_pct);
			csv_num(f, c->p);
			csv_text(f, i ? pc_test_name(c->test) : NULL);
			fputc(',', f);
			csv_text(f, pc_verdict_name(c->verdict));
			fprintf(f, ",%s,", c->nonlinear ? "yes" : "no");
			csv_num(f, c->spread);
			csv_num(f, c->threshold_pct);
			csv_text(f, c->why);
			fputc('\n', f);
		}
	}
	for (i = 1; i < t->nsides; i++) {
		csv_text(f, t->title);
		fprintf(f, ",geomean," PC_NO_VALUE ",%s,", pc_side_label(i, l));
		pc_csv_field(f, t->side[i].file);
		fputc(',', f);
		pc_csv_field(f, t->side[i].key);
		fprintf(f, ",geomean,%1$s,%1$s,%1$s,%1$s,%1$s,%1$s,%2$zu,", PC_NO_VALUE,
			t->geomean_n[i]);
		csv_num(f, t->geomean[i]);
		csv_num(f, isnan(t->geomean[i]) ? NAN : (t->geomean[i] - 1) * 100);
		fputs(PC_NO_VALUE "," PC_NO_VALUE "," PC_NO_VALUE "," PC_NO_VALUE ","
		      PC_NO_VALUE "," PC_NO_VALUE "," PC_NO_VALUE "\n", f);
	}
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
	size_t c;

	if (fmt == PC_FORMAT_JSON) {
		json_t *j = pc_compare_json(m);
		int rc = j ? json_dumpf(j, f, JSON_INDENT(1) | JSON_REAL_PRECISION(7)) : -1;

		json_decref(j);
		fputc('\n', f);
		return rc < 0 || ferror(f) ? -1 : 0;
	}
	if (fmt == PC_FORMAT_CSV)
		fputs("table,probe,group,side,file,cpu,state,status,median,q1,q3,mad,"
		      "samples,raw_samples,ratio,delta_pct,p,test,verdict,nonlinear,"
		      "spread,threshold_pct,why\n", f);
	else
		rule_line(f, m, fmt == PC_FORMAT_MARKDOWN ? "> " : "");
	for (c = 0; c < m->ntables; c++) {
		switch (fmt) {
		case PC_FORMAT_TABLE:
			fputc('\n', f);
			table_text(f, m, &m->table[c], color);
			pc_compare_render_analogs(f, m, &m->table[c], false, 0);
			break;
		case PC_FORMAT_MARKDOWN:
			fputc('\n', f);
			table_markdown(f, m, &m->table[c]);
			judging_legend(f, &m->table[c], "> ");
			pc_compare_render_analogs(f, m, &m->table[c], true, 0);
			break;
		case PC_FORMAT_CSV:
			table_csv(f, &m->table[c]);
			break;
		case PC_FORMAT_JSON:
			break;
		}
	}
	if (fmt == PC_FORMAT_TABLE || fmt == PC_FORMAT_MARKDOWN)
	{
		fprintf(f, "\n%s%zu slower, %zu faster, %zu same",
			fmt == PC_FORMAT_MARKDOWN ? "> " : "", m->slower, m->faster,
			m->same);
		if (m->not_comparable)
			fprintf(f, ", %zu not comparable", m->not_comparable);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
