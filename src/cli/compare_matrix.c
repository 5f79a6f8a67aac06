/* SPDX-License-Identifier: MIT */
/*
 * compare_matrix.c - the probe x CPU matrix of medians (compare --matrix):
 * one narrow column per CPU, a legend naming them, and every reason once,
 * as a numbered footnote, instead of in every row. Up to four CPUs fit 80
 * columns; more are wrapped into blocks that repeat the probe column (the
 * text view's pages, as wide as the width fits). A probe name longer than
 * its column gets a line of its own. The matrix is a table of the table
 * model (results/table.h), drawn in the view's format; the legend is its
 * words.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"
#include "results/table.h"

#define MATRIX_MIN_PROBE 16	/* narrowest probe column */
#define MATRIX_MAX_COLS 4	/* CPUs per block, at most */
#define MATRIX_MIN_CELL 6	/* narrowest CPU column */

int pc_footnote(struct pc_footnotes *fn, const char *status, const char *reason)
{
	char *s, **g;
	size_t i;

	if (asprintf(&s, "%s%s%s", status ? status : "", reason && *reason ? ": " : "",
		     reason ? reason : "") < 0)
		return -1;
	for (i = 0; i < fn->n; i++) {
		if (strcmp(fn->text[i], s) == 0) {
			free(s);
			return (int)i + 1;
		}
	}
	g = realloc(fn->text, (fn->n + 1) * sizeof(*g));
	if (!g) {
		free(s);
		return -1;
	}
	fn->text = g;
	fn->text[fn->n] = s;
	return (int)++fn->n;
}

void pc_footnotes_free(struct pc_footnotes *fn)
{
	size_t i;

	for (i = 0; i < fn->n; i++)
		free(fn->text[i]);
	free(fn->text);
	fn->text = NULL;
	fn->n = 0;
}

const char *pc_fmt_figure(double x, char *buf, size_t len)
{
	if (fabs(x) < 0.005)
		x = 0;
	snprintf(buf, len, fabs(x) >= 10000 ? "%.0f" : fabs(x) >= 1000 ? "%.1f" :
		 "%.2f", x);
	return buf;
}

int pc_cell_footnote(const struct pc_cmp_cell *c, struct pc_footnotes *fn)
{
	const char *reason = c->reason;

	switch (c->state) {
	case PC_CELL_OK:	/* noisy and nonlinear figures say so, once */
		if (c->nonlinear && reason &&
		    strncmp(reason, PC_NOT_LINEAR_LEAD, strlen(PC_NOT_LINEAR_LEAD)) == 0)
			reason += strlen(PC_NOT_LINEAR_LEAD);
		if (c->noisy || c->nonlinear)
			return pc_footnote(fn, c->noisy && c->nonlinear ? "noisy, nonlinear" :
					   c->noisy ? "noisy" : "nonlinear", reason);
		return c->reason && *c->reason ? pc_footnote(fn, "ok", c->reason) : 0;
	case PC_CELL_STATUS:
		return pc_footnote(fn, c->status, c->reason);
	case PC_CELL_NO_METRIC:
		return pc_footnote(fn, "no figure in this unit", NULL);
	case PC_CELL_ABSENT:
		break;
	}
	return 0;
}

/* The matrix as a table: the probe, then a column per side of medians
 * (their figures as numbers in the data views), each reason a footnote; -1
 * when out of memory. Columns are filled side by side, so footnotes are
 * numbered down the first column first. */
static int matrix_init(struct pc_table *tt, char (*labels)[PC_LABEL_LEN],
		       const struct pc_cmp_table *t, bool text)
{
	struct pc_table_col *cols = calloc(t->nsides + 1, sizeof(*cols));
	struct pc_footnotes fn = { 0, NULL };
	char v[32];
	size_t r, i;
	int rc, k;

	if (!cols)
		return -1;
	cols[0] = (struct pc_table_col){ .head = "probe",
		.flags = PC_COL_STUB | PC_COL_LEFT | PC_COL_ALONE };
	for (i = 0; i < t->nsides; i++)
		cols[i + 1] = (struct pc_table_col){ .head = pc_side_label(i, labels[i]),
			.width = MATRIX_MIN_CELL, .gap = " ", .style = PC_CELL_GENERAL,
			.digits = 7 };
	rc = pc_table_init(tt, NULL, cols, t->nsides + 1);
	/* where width is no concern, each side's heading says who it is */
	for (i = 0; rc == 0 && i < t->nsides; i++) {
		char *wide;

		if (asprintf(&wide, "%s %s", labels[i], t->side[i].key) < 0) {
			rc = -1;
			break;
		}
		tt->cols[i + 1].wide_head = wide;
		rc = pc_table_keep(tt, &tt->cols[i + 1].wide_head);
		free(wide);
	}
	tt->drop_empty = true;	/* a block's rows without a figure or a reason */
	free(cols);
	for (r = 0; rc == 0 && r < t->nrows; r++)
		rc = pc_table_row(tt) < 0 ? -1 : pc_table_text(tt, r, 0, "%s", t->row[r].probe);
	for (i = 0; rc == 0 && i < t->nsides; i++) {
		for (r = 0; rc == 0 && r < t->nrows; r++) {
			const struct pc_cmp_cell *c = &t->row[r].cell[i];

			if (c->state == PC_CELL_OK && text)
				rc = pc_table_text(tt, r, i + 1, "%s",
						   pc_fmt_figure(c->median, v, sizeof(v)));
			else if (c->state == PC_CELL_OK)
				pc_table_at(tt, r, i + 1)->v = c->median;
			/* the reason in the words the other views use */
			if ((k = pc_cell_footnote(c, &fn)) > 0)
				pc_table_at(tt, r, i + 1)->note = pc_table_note(tt, fn.text[k - 1]);
		}
		if (rc == 0 && pc_table_widest(tt, i + 1) > tt->cols[i + 1].width)
			tt->cols[i + 1].width = pc_table_widest(tt, i + 1);
	}
	pc_footnotes_free(&fn);
	return rc;
}

/* The probe column: as wide as the longest name, at least
 * MATRIX_MIN_PROBE, at most cap. */
static int probe_width(const struct pc_table *tt, int cap)
{
	int w = pc_table_widest(tt, 0);

	if (w < MATRIX_MIN_PROBE)
		w = MATRIX_MIN_PROBE;
	return w < cap ? w : cap;
}

/* Who each side is, wrapped to the width. */
static void legend(struct pc_view *v, const struct pc_compare *m, const struct pc_cmp_table *t)
{
	char l[PC_LABEL_LEN], lead[48], *d;
	size_t i;

	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_side *s = &t->side[i];

		const char *base = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;

		snprintf(lead, sizeof(lead), "%s%s =", pc_view_quote(v), pc_side_label(i, l));
		if (asprintf(&d, "%s: %s %s%s%s%s%s", base, s->key, s->brand ? "(" : "",
			     s->brand ? s->brand : "",
			     s->virtualized == 1 ? ", virtual machine" : "",
			     s->brand ? ")" : "", s->entry ? "" : " (absent)") < 0)
			d = NULL;
		pc_view_wrap(v, lead, d ? d : s->key, 4);
		free(d);
	}
	pc_view_printf(v, "%s%s per operation, %s; %s: no value; [N]: footnote N\n\n",
		       pc_view_quote(v), pc_metric_name(m->cfg.metric),
		       m->cfg.stat == PC_STAT_P99 ? "p99 of single calls" : "median", PC_NO_VALUE);
}

/* The probe column's width, that of the widest block beside it: as many
 * CPUs per block as fit beside a probe column of at least MATRIX_MIN_PROBE,
 * at most MATRIX_MAX_COLS; the probe column is given what that block
 * leaves of the width. */
static int stub_width(const struct pc_table *tt, int width)
{
	size_t from, per;
	int used, most = 0;

	for (from = 1; from < tt->ncols; from += per) {
		used = 0;
		for (per = 0; from + per < tt->ncols && per < MATRIX_MAX_COLS; per++) {
			int cw = tt->cols[from + per].width;

			if (per && MATRIX_MIN_PROBE + used + 1 + cw > width)
				break;
			used += 1 + cw;
		}
		most = used > most ? used : most;
	}
	return probe_width(tt, width - most);
}

static int matrix_table(struct pc_view *v, const struct pc_compare *m,
			const struct pc_cmp_table *t, int width)
{
	char (*labels)[PC_LABEL_LEN] = calloc(t->nsides + 1, PC_LABEL_LEN);
	struct pc_table tt = { .page = 0 };	/* drop_empty set by matrix_init */
	bool text = v->fmt == PC_FORMAT_TABLE || v->fmt == PC_FORMAT_MARKDOWN;
	char lead[32];
	size_t i;

	if (!labels || matrix_init(&tt, labels, t, text) < 0) {
		pc_table_free(&tt);
		free(labels);
		return -1;
	}
	if (*t->title)
		pc_view_printf(v, "%s%s\n", v->fmt == PC_FORMAT_MARKDOWN ? "### " : "== ",
			       t->title);
	legend(v, m, t);
	tt.cols[0].width = stub_width(&tt, width);
	tt.page = MATRIX_MAX_COLS;
	tt.fit = width;
	if (v->fmt != PC_FORMAT_TABLE) {
		pc_view_table(v, &tt, *t->title ? t->title : "matrix");
	} else {
		/* the blocks, then the footnotes as the matrix has always
		 * written them (indented under their words) */
		struct pc_table blocks = tt;

		blocks.nnotes = 0;
		pc_table_draw_text(v->f, &blocks);
		if (tt.nnotes)
			pc_view_printf(v, "\n");
		for (i = 0; i < tt.nnotes; i++) {
			snprintf(lead, sizeof(lead), "[%zu]", i + 1);
			pc_view_wrap(v, lead, tt.notes[i], 5);
		}
	}
	pc_table_free(&tt);
	free(labels);
	return 0;
}

int pc_compare_matrix(struct pc_view *v, const struct pc_compare *m)
{
	int width = pc_table_fit() > 0 ? pc_table_fit() : 80;
	size_t c;

	for (c = 0; c < m->ntables; c++) {
		if (c)
			pc_view_printf(v, "\n");
		if (matrix_table(v, m, &m->table[c], width) < 0)
			return -1;
		pc_compare_render_analogs(v, m, &m->table[c]);
	}
	return 0;
}
