/* SPDX-License-Identifier: MIT */
/*
 * compare_matrix.c - the probe x CPU matrix of medians (compare --matrix):
 * one narrow column per CPU, a legend naming them, and every reason once,
 * as a numbered footnote, instead of in every row. Up to four CPUs fit 80
 * columns; more are wrapped into blocks that repeat the probe column. A
 * probe name longer than its column gets a line of its own. The matrix is
 * a table of the table model (results/table.h), drawn a block at a time
 * by its text view; the legend and the wrapped footnotes are drawn here.
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

/* The matrix as a table: the probe, then a column per side of medians,
 * each reason a footnote; -1 when out of memory. Columns are filled side
 * by side, so footnotes are numbered down the first column first. */
static int matrix_init(struct pc_table *tt, char (*labels)[PC_LABEL_LEN],
		       const struct pc_cmp_table *t)
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
			.width = MATRIX_MIN_CELL, .gap = " " };
	rc = pc_table_init(tt, NULL, cols, t->nsides + 1);
	tt->drop_empty = true;	/* a block's rows without a figure or a reason */
	free(cols);
	for (r = 0; rc == 0 && r < t->nrows; r++)
		rc = pc_table_row(tt) < 0 ? -1 : pc_table_text(tt, r, 0, "%s", t->row[r].probe);
	for (i = 0; rc == 0 && i < t->nsides; i++) {
		for (r = 0; rc == 0 && r < t->nrows; r++) {
			const struct pc_cmp_cell *c = &t->row[r].cell[i];

			if (c->state == PC_CELL_OK)
				rc = pc_table_text(tt, r, i + 1, "%s",
						   pc_fmt_figure(c->median, v, sizeof(v)));
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

/* Who each side is, wrapped to width. */
static void legend(FILE *f, const struct pc_compare *m, const struct pc_cmp_table *t,
		   int width)
{
	char l[PC_LABEL_LEN], lead[48], *d;
	size_t i;

	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_side *s = &t->side[i];

		const char *base = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;

		snprintf(lead, sizeof(lead), "%s =", pc_side_label(i, l));
		if (asprintf(&d, "%s: %s %s%s%s%s%s", base, s->key, s->brand ? "(" : "",
			     s->brand ? s->brand : "",
			     s->virtualized == 1 ? ", virtual machine" : "",
			     s->brand ? ")" : "", s->entry ? "" : " (absent)") < 0)
			d = NULL;
		pc_text_wrap(f, lead, d ? d : s->key, 4, width);
		free(d);
	}
	fprintf(f, "%s per operation, median; %s: no value; [N]: footnote N\n\n",
		pc_metric_name(m->cfg.metric), PC_NO_VALUE);
}

static int matrix_table(FILE *f, const struct pc_compare *m,
			const struct pc_cmp_table *t, int width)
{
	char (*labels)[PC_LABEL_LEN] = calloc(t->nsides + 1, PC_LABEL_LEN);
	struct pc_table tt = { .page = 0 };	/* drop_empty set by matrix_init */
	char lead[32];
	size_t i, from, per;
	int used;

	if (!labels || matrix_init(&tt, labels, t) < 0) {
		pc_table_free(&tt);
		free(labels);
		return -1;
	}
	if (*t->title)
		fprintf(f, "== %s\n", t->title);
	legend(f, m, t, width);
	/* As many CPUs per block as fit beside a probe column of at least
	 * MATRIX_MIN_PROBE, and at most MATRIX_MAX_COLS; the probe column
	 * is given what the block leaves of the width. */
	for (from = 1; from <= t->nsides; from += per) {
		used = 0;
		for (per = 0; from + per <= t->nsides && per < MATRIX_MAX_COLS; per++) {
			int cw = tt.cols[from + per].width;

			if (per && MATRIX_MIN_PROBE + used + 1 + cw > width)
				break;
			used += 1 + cw;
		}
		tt.cols[0].width = probe_width(&tt, width - used);
		if (from > 1)
			fputc('\n', f);
		pc_table_draw_text_page(f, &tt, from, per);
	}
	if (tt.nnotes)
		fputc('\n', f);
	for (i = 0; i < tt.nnotes; i++) {
		snprintf(lead, sizeof(lead), "[%zu]", i + 1);
		pc_text_wrap(f, lead, tt.notes[i], 5, width);
	}
	pc_table_free(&tt);
	free(labels);
	return 0;
}

int pc_compare_matrix(FILE *f, const struct pc_compare *m, int width)
{
	size_t c;

	for (c = 0; c < m->ntables; c++) {
		if (c)
			fputc('\n', f);
		if (matrix_table(f, m, &m->table[c], width) < 0)
			return -1;
		pc_compare_render_analogs(f, m, &m->table[c], false, width);
	}
	return ferror(f) ? -1 : 0;
}
