/* SPDX-License-Identifier: MIT */
/* table.c - the table model (table.h) and its text and markdown views. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

int pc_table_init(struct pc_table *t, const char *stub_head, int stub_width,
		  const char *gap, const struct pc_table_col *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->stub_head = stub_head;
	t->stub_width = stub_width;
	t->gap = gap;
	t->ncols = ncols;
	t->cols = malloc(ncols * sizeof(*t->cols));
	if (!t->cols)
		return -1;
	memcpy(t->cols, cols, ncols * sizeof(*cols));
	return 0;
}

long pc_table_row(struct pc_table *t, const char *label)
{
	size_t c;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char (*l)[32] = realloc(t->label, cap * sizeof(*l));
		double *v;

		if (!l)
			return -1;
		t->label = l;
		v = realloc(t->v, cap * t->ncols * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	snprintf(t->label[t->nrows], sizeof(t->label[0]), "%s", label);
	for (c = 0; c < t->ncols; c++)
		*pc_table_cell(t, t->nrows, c) = NAN;
	return (long)t->nrows++;
}

void pc_table_free(struct pc_table *t)
{
	free(t->cols);
	free(t->label);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static void cell(FILE *f, const struct pc_table_col *col, double v, int width)
{
	if (isnan(v))
		fprintf(f, "%*s", width, "-");
	else if (col->style == PC_CELL_CYCLES)
		fprintf(f, "%*.*f", width, v < 100 ? 1 : 0, v);
	else if (v < 0.01)
		fprintf(f, "%*s", width, "<0.01x");
	else
		fprintf(f, v < 10 ? "%*.2fx" : "%*.1fx", width > 1 ? width - 1 : 1, v);
}

/* Is column c the first of its group (a gap and a heading before it)? */
static int group_starts(const struct pc_table *t, size_t c)
{
	const char *a = c ? t->cols[c - 1].group : NULL, *b = t->cols[c].group;

	return !c || !a || !b || strcmp(a, b) != 0;
}

static int group_width(const struct pc_table *t, size_t c)
{
	int w = t->cols[c].width;

	while (++c < t->ncols && !group_starts(t, c))
		w += t->cols[c].width;
	return w;
}

void pc_table_text(FILE *f, const struct pc_table *t)
{
	size_t r, c;
	int grouped = 0;

	for (c = 0; c < t->ncols; c++)
		grouped |= t->cols[c].group != NULL;
	if (grouped) {
		fprintf(f, "%*s", t->stub_width, "");
		for (c = 0; c < t->ncols; c++)
			if (group_starts(t, c))
				fprintf(f, "%s%-*.*s", t->gap, group_width(t, c),
					group_width(t, c), t->cols[c].group ? : "");
		fputc('\n', f);
	}
	fprintf(f, "%*s", t->stub_width, t->stub_head);
	for (c = 0; c < t->ncols; c++)
		fprintf(f, "%s%*s", group_starts(t, c) ? t->gap : "", t->cols[c].width,
			t->cols[c].head);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "%*s", t->stub_width, t->label[r]);
		for (c = 0; c < t->ncols; c++) {
			if (group_starts(t, c))
				fputs(t->gap, f);
			cell(f, &t->cols[c], t->v[r * t->ncols + c], t->cols[c].width);
		}
		fputc('\n', f);
	}
}

void pc_table_markdown(FILE *f, const struct pc_table *t)
{
	size_t r, c;

	fprintf(f, "| %s |", t->stub_head);
	for (c = 0; c < t->ncols; c++)
		fprintf(f, " %s%s%s |", t->cols[c].group ? : "", t->cols[c].group ? " " : "",
			t->cols[c].head);
	fputs("\n|---:|", f);
	for (c = 0; c < t->ncols; c++)
		fputs("---:|", f);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "| %s |", t->label[r]);
		for (c = 0; c < t->ncols; c++) {
			fputc(' ', f);
			cell(f, &t->cols[c], t->v[r * t->ncols + c], 1);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}
