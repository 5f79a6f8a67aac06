/* SPDX-License-Identifier: MIT */
/*
 * table.h - the table model every view draws. A table is columns (a
 * heading, a width for the text view, how a figure is written, an optional
 * group heading over consecutive columns) and rows of cells. The first
 * columns may be stub columns, the row labels, which the text view repeats
 * on each page when the columns do not fit side by side. A cell holds a
 * figure or words, marks from the table's list of marks (a noisy figure's
 * "*"), an emphasis (a slower verdict) and a numbered footnote.
 *
 * One renderer per format draws any table (text, markdown, CSV, HTML); the
 * renderers know nothing of what the figures are.
 */
#ifndef PC_TABLE_H
#define PC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How a cell's figure is written. */
enum pc_cell_style {
	PC_CELL_CYCLES,		/* one decimal under 100, none from 100 on */
	PC_CELL_RATIO,		/* 1.23x, 12.3x, <0.01x */
	PC_CELL_FIXED,		/* digits decimals: %.*f */
	PC_CELL_GENERAL,	/* digits significant digits: %.*g */
};

/* Column flags. */
#define PC_COL_LEFT 1u		/* left-aligned (markdown: "---") */
#define PC_COL_STUB 2u		/* a row label, repeated on every page */
#define PC_COL_MARK 4u		/* the text view keeps the last characters of
				 * the width for the cells' marks (as many as
				 * the widest marks take, at least one) */
#define PC_COL_CODE 8u		/* markdown writes the cells as `code` */
#define PC_COL_ALONE 16u	/* the text view gives a cell wider than the
				 * column a line of its own, the row going on
				 * under it (a stub's long name) */
#define PC_COL_ASCII 32u	/* HTML writes the cells' characters beyond
				 * ASCII as numeric references (&#177;) */

struct pc_table_col {
	const char *group;	/* the heading over its group, or NULL */
	const char *head;	/* its own heading, cut to the width */
	int width;		/* in the text view; 0: as wide as it is */
	enum pc_cell_style style;
	unsigned flags;
	int digits;		/* PC_CELL_FIXED and PC_CELL_GENERAL */
	const char *gap;	/* the text view's space before the column; NULL:
				 * the table's gap where a group starts, none
				 * inside a group */
	const char *wide_head;	/* the heading in full, where width is no
				 * concern (markdown, HTML); NULL: head */
};

/* A cell's emphasis: the text view colours it on a terminal, markdown
 * writes an alert in bold, HTML gives it a class. */
enum pc_emph { PC_EMPH_NONE, PC_EMPH_ALERT, PC_EMPH_GOOD };

struct pc_table_cell {
	double v;		/* the figure; NAN: none */
	char *text;		/* words in place of the figure, or NULL */
	char *wide;		/* the words in full, where width is no concern
				 * (markdown, HTML), or NULL: text */
	unsigned marks;		/* bit i: the table's mark i */
	enum pc_emph emph;
	unsigned note;		/* the table's footnote number, 0: none */
	const char *cls;	/* HTML: its class, in place of the column's
				 * and the emphasis's; not owned; NULL: those */
	char *data;		/* HTML: what the cell names, as
				 * data-<cell_data>="..."; NULL: nothing */
};

/* A mark: its symbol in the text view, its word elsewhere ("~" and
 * " (noisy)"; "*" and "*"). */
struct pc_table_mark {
	const char *sym, *word;
};

struct pc_table {
	const char *gap;	/* before a group's first column (text view) */
	int page;		/* text view: at most this many columns besides
				 * the stubs side by side; 0: all that fit */
	int fit;		/* text view: the width a page fits, whole groups
				 * kept together where they fit; 0: no limit
				 * (pc_table_init sets pc_table_fit()) */
	const char *none;	/* a cell with nothing to show (PC_NO_VALUE) */
	bool color;		/* text view: emphasis in terminal colours */
	bool no_group_line;	/* text view: groups keep their columns on one
				 * page, without a line of group headings */
	bool drop_empty;	/* text view: a row with nothing but its stubs
				 * on a page is left out of that page */
	const struct pc_table_mark *marks;
	size_t nmarks;
	size_t ncols, nrows, cap;
	struct pc_table_col *cols;
	struct pc_table_cell *cells;	/* nrows x ncols */
	size_t nnotes;
	char **notes;		/* footnote n is notes[n - 1] */
	size_t nkept;
	char **kept;		/* the headings pc_table_col_add copied */
	const char *note_href;	/* HTML: a cell's footnote n is a link to
				 * note_href followed by n, in a list the page
				 * keeps; NULL: the notes follow the table */
	const char *row_data;	/* HTML: each row carries its first cell as
				 * data-<row_data>="..."; NULL: not */
	const char *cell_data;	/* HTML: the attribute a cell's data is
				 * written as (a table whose rows are not
				 * probes names each figure's probe) */
};

/* The width text views fit, set once by the command line ($COLUMNS, the
 * terminal's, or 80); 0 until then: no limit. */
void pc_table_set_fit(int width);
int pc_table_fit(void);

/* An empty table of ncols columns (cols copied, gap before each group);
 * -1 when out of memory. */
int pc_table_init(struct pc_table *t, const char *gap, const struct pc_table_col *cols,
		  size_t ncols);
/* Appends a column, its headings (group, head, wide_head) copied for the
 * table to keep; the rows there are get an empty cell in it. Its index, or
 * -1 when out of memory. */
long pc_table_col_add(struct pc_table *t, const struct pc_table_col *col);
/* Appends a row of empty cells; its index, or -1 when out of memory. */
long pc_table_row(struct pc_table *t);
/* Inserts a row of empty cells before row at (at most nrows); at, or -1. */
long pc_table_insert(struct pc_table *t, size_t at);
static inline struct pc_table_cell *pc_table_at(const struct pc_table *t, size_t row,
						size_t col)
{
	return &t->cells[row * t->ncols + col];
}
/* The cell's words (printf format); -1 when out of memory. */
int pc_table_text(struct pc_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The cell's words in full (markdown, HTML); -1 when out of memory. */
int pc_table_wide(struct pc_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* What the cell names (HTML: data-<cell_data>); -1 when out of memory. */
int pc_table_data(struct pc_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A footnote of the table: its number (1, 2, ...; the same text, the same
 * number), or 0 when out of memory. */
unsigned pc_table_note(struct pc_table *t, const char *text);
void pc_table_free(struct pc_table *t);

/* The text view: per page (a blank line between pages), a line of group
 * headings (when a column has one), a line of column headings, a line per
 * row; then the footnotes. */
void pc_table_draw_text(FILE *f, const struct pc_table *t);
/* The markdown view: "| size | glibc malloc | ...", then the footnotes as
 * a list. */
void pc_table_draw_markdown(FILE *f, const struct pc_table *t);
/* CSV: a line of headings (when head), a line per row, fields quoted as
 * needed; a figure as its column writes it. */
void pc_table_draw_csv(FILE *f, const struct pc_table *t, bool head);
/* An HTML table of class cls (or none), with the footnotes under it. */
void pc_table_draw_html(FILE *f, const struct pc_table *t, const char *cls);
/* One page of the text view: the stub columns and at most per columns from
 * column from; no footnotes. For a caller that chooses its own pages. */
void pc_table_draw_text_page(FILE *f, const struct pc_table *t, size_t from, size_t per);
/* The text view's width of the widest cell of column c (its words or
 * figure and its marks; in a mark column, the widest words or figure and
 * the marks' characters), 0 when there are no rows. */
int pc_table_widest(const struct pc_table *t, size_t c);
/* The footnotes, one a line after prefix: "[1] text", wrapped to t->fit. */
void pc_table_draw_notes(FILE *f, const struct pc_table *t, const char *prefix);

/* s with HTML's special characters as entities, control characters as
 * spaces. */
void pc_html_escape(FILE *f, const char *s);
/* Words of s wrapped to width (0: no limit), the first line after lead,
 * the others indented by indent. */
void pc_text_wrap(FILE *f, const char *lead, const char *s, int indent, int width);
/* Display width of UTF-8 text: one column per character. */
int pc_text_width(const char *s);

#endif
