/* SPDX-License-Identifier: MIT */
/*
 * compare_matrix.c - the probe x CPU matrix of medians (compare --matrix):
 * one narrow column per CPU, a legend naming them, and every reason once,
 * as a numbered footnote, instead of in every row. Up to four CPUs fit 80
 * columns; more are wrapped into blocks that repeat the probe column. A
 * probe name longer than its column gets a line of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"

#define MATRIX_MIN_PROBE 16	/* narrowest probe column */
#define MATRIX_MAX_COLS 4	/* CPUs per block, at most */
#define MATRIX_CELL 24

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

/* A median with about four significant digits, or the no-value word; a
 * footnote mark when the cell carries a reason. */
static void cell_text(const struct pc_cmp_cell *c, struct pc_footnotes *fn, char *buf)
{
	char v[32] = PC_NO_VALUE;
	int k = pc_cell_footnote(c, fn);

	if (c->state == PC_CELL_OK)
		pc_fmt_figure(c->median, v, sizeof(v));
	if (k > 0)
		snprintf(buf, MATRIX_CELL, "%s[%d]", v, k);
	else
		snprintf(buf, MATRIX_CELL, "%s", v);
}

/* Words of s wrapped to width, the first line after lead, the others
 * indented by indent. */
void pc_text_wrap(FILE *f, const char *lead, const char *s, int indent, int width)
{
	int col = fprintf(f, "%s", lead), fresh = !*lead;

	while (*s) {
		int w = (int)strcspn(s, " ");

		if (width > 0 && !fresh && col + 1 + w > width && col > indent) {
			col = fprintf(f, "\n%*s", indent, "") - 1;
			fresh = 1;
		}
		col += fprintf(f, "%s%.*s", fresh ? "" : " ", w, s);
		fresh = 0;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

int pc_cell_footnote(const struct pc_cmp_cell *c, struct pc_footnotes *fn)
{
	switch (c->state) {
	case PC_CELL_OK:	/* noisy and nonlinear figures say so */
		if (c->noisy || c->nonlinear)
			return pc_footnote(fn, c->noisy && c->nonlinear ? "noisy, nonlinear" :
					   c->noisy ? "noisy" : "nonlinear", c->reason);
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

static int probe_width(const struct pc_cmp_table *t, int cap)
{
	int w = MATRIX_MIN_PROBE;
	size_t r;

	for (r = 0; r < t->nrows; r++)
		if ((int)strlen(t->row[r].probe) > w)
			w = (int)strlen(t->row[r].probe);
	return w < cap ? w : cap;
}

/* One block: columns [from, to) of every row. */
static void block(FILE *f, const struct pc_cmp_table *t, char (*cells)[MATRIX_CELL],
		  const int *cw, size_t from, size_t to, int pw)
{
	char l[PC_LABEL_LEN];
	size_t r, i;

	fprintf(f, "%-*s", pw, "probe");
	for (i = from; i < to; i++)
		fprintf(f, " %*s", cw[i], pc_side_label(i, l));
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		const char *name = t->row[r].probe;

		if ((int)strlen(name) > pw)
			fprintf(f, "%s\n%-*s", name, pw, "");
		else
			fprintf(f, "%-*s", pw, name);
		for (i = from; i < to; i++)
			fprintf(f, " %*s", cw[i], cells[r * t->nsides + i]);
		fputc('\n', f);
	}
}

static int matrix_table(FILE *f, const struct pc_compare *m,
			const struct pc_cmp_table *t, int width)
{
	char (*cells)[MATRIX_CELL] = calloc(t->nrows * t->nsides + 1, MATRIX_CELL);
	int *cw = calloc(t->nsides + 1, sizeof(int));
	struct pc_footnotes fn = { 0, NULL };
	char l[PC_LABEL_LEN], lead[48];
	size_t r, i, from, per;
	int pw, used;

	if (!cells || !cw) {
		free(cells);
		free(cw);
		return -1;
	}
	for (i = 0; i < t->nsides; i++) {
		cw[i] = 6;
		for (r = 0; r < t->nrows; r++) {
			char *c = cells[r * t->nsides + i];

			cell_text(&t->row[r].cell[i], &fn, c);
			if ((int)strlen(c) > cw[i])
				cw[i] = (int)strlen(c);
		}
	}
	if (*t->title)
		fprintf(f, "== %s\n", t->title);
	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_side *s = &t->side[i];

		snprintf(lead, sizeof(lead), "%s =", pc_side_label(i, l));
		{
			char *d;

			if (asprintf(&d, "%s %s%s%s%s%s", s->key, s->brand ? "(" : "",
				     s->brand ? s->brand : "",
				     s->virtualized == 1 ? ", virtual machine" : "",
				     s->brand ? ")" : "", s->entry ? "" : " (absent)") < 0)
				d = NULL;
			pc_text_wrap(f, lead, d ? d : s->key, 4, width);
			free(d);
		}
	}
	fprintf(f, "%s per operation, median; %s: no value; [N]: footnote N\n\n",
		pc_metric_name(m->cfg.metric), PC_NO_VALUE);
	/* As many CPUs per block as fit beside a probe column of at least
	 * MATRIX_MIN_PROBE, and at most MATRIX_MAX_COLS. */
	for (from = 0; from < t->nsides; from += per) {
		used = 0;
		for (per = 0; from + per < t->nsides && per < MATRIX_MAX_COLS; per++) {
			if (per && MATRIX_MIN_PROBE + used + 1 + cw[from + per] > width)
				break;
			used += 1 + cw[from + per];
		}
		pw = probe_width(t, width - used);
		if (from)
			fputc('\n', f);
		block(f, t, cells, cw, from, from + per, pw);
	}
	if (fn.n)
		fputc('\n', f);
	for (i = 0; i < fn.n; i++) {
		snprintf(lead, sizeof(lead), "[%zu]", i + 1);
		pc_text_wrap(f, lead, fn.text[i], 5, width);
	}
	pc_footnotes_free(&fn);
	free(cells);
	free(cw);
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
