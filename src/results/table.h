/* SPDX-License-Identifier: MIT */
/*
 * table.h - the table model the views draw: a stub column of row labels,
 * then columns of figures, consecutive columns under one group heading
 * ("glibc" over malloc, free and pair). A view builds a table and draws it
 * with a renderer, one per format (text, markdown); the renderers know
 * nothing of what the figures are.
 */
#ifndef PC_TABLE_H
#define PC_TABLE_H

#include <stddef.h>
#include <stdio.h>

/* How a cell's figure is written. */
enum pc_cell_style {
	PC_CELL_CYCLES,		/* one decimal under 100, none from 100 on */
	PC_CELL_RATIO,		/* 1.23x, 12.3x, <0.01x */
};

struct pc_table_col {
	const char *group;	/* the heading over its group, or NULL */
	const char *head;	/* its own heading */
	int width;		/* in the text view, right-aligned */
	enum pc_cell_style style;
};

struct pc_table {
	const char *stub_head;	/* the row labels' heading ("size") */
	int stub_width;
	const char *gap;	/* the text view's space before each group */
	size_t ncols, nrows, cap;
	struct pc_table_col *cols;
	char (*label)[32];	/* a row's label */
	double *v;		/* nrows x ncols; NAN: no figure ("-") */
};

/* An empty table of ncols columns (cols copied); -1 when out of memory. */
int pc_table_init(struct pc_table *t, const char *stub_head, int stub_width,
		  const char *gap, const struct pc_table_col *cols, size_t ncols);
/* Appends a row of NAN cells labelled label; its index, or -1. */
long pc_table_row(struct pc_table *t, const char *label);
static inline double *pc_table_cell(struct pc_table *t, size_t row, size_t col)
{
	return &t->v[row * t->ncols + col];
}
void pc_table_free(struct pc_table *t);

/* The text view: a line of group headings (when any column has one), a
 * line of column headings, a line per row. */
void pc_table_text(FILE *f, const struct pc_table *t);
/* The markdown view: "| size | glibc malloc | ...", every column of
 * figures right-aligned. */
void pc_table_markdown(FILE *f, const struct pc_table *t);

#endif
