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
 * One renderer per format draws any table (text, markdown, CSV, HTML,
 * JSON), chosen by one call, pc_table_draw(); the renderers know nothing of
 * what the figures are. The text view fits the one width the command line
 * set (pc_table_fit): columns too many for it go on pages, a long column's
 * words wrap within it (PC_COL_WRAP) or go under their row (PC_COL_FLOW,
 * PC_COL_UNDER).
 */
#ifndef PC_TABLE_H
#define PC_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- the formats ------------------------------------------------------------------ */

/* What a command writes its views in, one vocabulary for every command:
 * each takes the formats its output has (PC_FMT bits) and refuses the
 * others at the edge. */
enum pc_format {
	PC_FORMAT_TABLE,	/* the text view ("table", or "text") */
	PC_FORMAT_JSON,
	PC_FORMAT_CSV,
	PC_FORMAT_MARKDOWN,
	PC_FORMAT_HTML,
	PC_FORMAT_COUNT
};
#define PC_FMT(f) (1u << (f))

/* The format named s ("table" or "text", "json", "csv", "markdown",
 * "html"); -1 for another word. */
int pc_format_parse(const char *s, enum pc_format *f);
const char *pc_format_name(enum pc_format f);
/* --format's value, one of those allowed (PC_FMT bits): 0, or -1 with err
 * saying which the command writes. */
int pc_format_take(const char *arg, unsigned allowed, enum pc_format *f, char *err,
		   size_t errlen);

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
#define PC_COL_WRAP 64u		/* the text view wraps a cell's words within
				 * the column, its row taking as many lines as
				 * it needs; width 0: the rest of the fit */
#define PC_COL_UNDER 128u	/* the text view writes the cell under its row,
				 * after the column's label (under), never in
				 * the row's line; an empty cell, nothing */
#define PC_COL_FLOW 256u	/* the text view keeps the column in the row's
				 * line where the line fits the width, else
				 * writes it under the row, as PC_COL_UNDER */
#define PC_COL_DATA 512u	/* a column of the data views (CSV, JSON) only:
				 * the text, markdown and HTML views leave it
				 * out (the model key beside the brand shown) */

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
	const char *key;	/* the JSON view's key; NULL: made of the
				 * heading (lower case, '_' for the rest) */
	const char *under;	/* PC_COL_UNDER: the label its words follow
				 * ("kernel API:"); NULL: none */
};

/* A cell's emphasis: the text view colours it on a terminal, markdown
 * writes an alert in bold, HTML gives it a class. */
enum pc_emph { PC_EMPH_NONE, PC_EMPH_ALERT, PC_EMPH_GOOD };

/* Inline emphasis: words of a cell between PC_STRONG_ON and PC_STRONG_OFF
 * are strong (HTML <strong>, markdown **); the text view, CSV and JSON
 * write them as they are. */
#define PC_STRONG_ON "\001"
#define PC_STRONG_OFF "\002"

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
	json_t *json;		/* the JSON view's value in place of the words
				 * or figure (true, a list), or NULL; owned */
	const char *glyph;	/* a glyph before the words (a CPU's marker in
				 * the report's charts), in glyph_colour (HTML);
				 * not owned; NULL: none */
	const char *glyph_colour;
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
	int under_indent;	/* text view: where the words under a row
				 * start (PC_COL_UNDER, PC_COL_FLOW) */
	bool no_head;		/* text view: no line of headings (a list of
				 * labels and values) */
	int indent;		/* text view: each line begins this far in */
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
/* *s replaced by a copy the table keeps and frees (a heading made for it;
 * NULL stays NULL); -1 when out of memory. */
int pc_table_keep(struct pc_table *t, const char **s);
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
/* The cell's value in the JSON view (the table takes v; NULL: none); -1
 * when v is NULL (out of memory). */
int pc_table_json(struct pc_table *t, size_t row, size_t col, json_t *v);
/* What the cell names (HTML: data-<cell_data>); -1 when out of memory. */
int pc_table_data(struct pc_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A footnote of the table: its number (1, 2, ...; the same text, the same
 * number), or 0 when out of memory. */
unsigned pc_table_note(struct pc_table *t, const char *text);
void pc_table_free(struct pc_table *t);

/* t in format fmt, by the renderer of that format: the text view, markdown,
 * CSV with its headings, HTML (no class), JSON. */
void pc_table_draw(FILE *f, const struct pc_table *t, enum pc_format fmt);
/* The text view: per page (a blank line between pages), a line of group
 * headings (when a column has one), a line of column headings, a line per
 * row (more where a cell wraps, and the words under it); then the
 * footnotes. */
void pc_table_draw_text(FILE *f, const struct pc_table *t);
/* The JSON view: an array of an object a row, keyed by the columns' keys;
 * a figure a number, words a string, an empty cell no key; a cell's marks
 * (their words) and footnote under KEY_marks and KEY_note. */
void pc_table_draw_json(FILE *f, const struct pc_table *t);
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

/* ---- a view: its tables and the words between them, in one format -------------------- */

/*
 * What a command shows of its model, in the format the user chose, drawn
 * through one object: the words a view writes (pc_view_printf) and its
 * tables (pc_view_table). The text and markdown views write both as they
 * come. CSV writes the tables' cells, one a line, under one heading line:
 * table, row (its stubs), column (its group and heading), value, marks,
 * note, so that tables of any shape make one file. JSON writes one array
 * at the end, an object a table: its title, the words before it (notes),
 * its rows (pc_table_draw_json).
 */
struct pc_view {
	FILE *f;
	enum pc_format fmt;
	bool color;		/* text view: emphasis in terminal colours */
	json_t *tables;		/* JSON: the tables so far */
	json_t *notes;		/* JSON: the words since the last table */
	bool csv_head;		/* CSV: the heading line is written */
	int failed;		/* out of memory on the way */
};

void pc_view_init(struct pc_view *v, FILE *f, enum pc_format fmt);
/* Words of the view (text and markdown as written; JSON, the next table's
 * notes, one a call, without their line ends; CSV, nothing). */
void pc_view_printf(struct pc_view *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Words after lead, wrapped in the text view to the width (pc_table_fit),
 * the lines after the first indented by indent; one line in markdown. */
void pc_view_wrap(struct pc_view *v, const char *lead, const char *s, int indent);
/* "> " in markdown (the view's prose quoted), "" elsewhere. */
const char *pc_view_quote(const struct pc_view *v);
/* A table of the view under title (the text and markdown views write no
 * title: a view writes its own heading first). */
void pc_view_table(struct pc_view *v, const struct pc_table *t, const char *title);
/* Ends the view (JSON: writes the array); -1 when something failed. */
int pc_view_end(struct pc_view *v);
/* draw's view of doc, in fmt on f, from its start to its end: draw's
 * status, -1 when the view failed. */
int pc_view_show(FILE *f, enum pc_format fmt, int (*draw)(struct pc_view *, json_t *),
		 json_t *doc);

/* s with HTML's special characters as entities, control characters as
 * spaces. */
void pc_html_escape(FILE *f, const char *s);
/* The same, and every character beyond ASCII as a numeric reference. */
void pc_html_ascii(FILE *f, const char *s);
/* Words of s wrapped to width (0: no limit), the first line after lead,
 * the others indented by indent. */
void pc_text_wrap(FILE *f, const char *lead, const char *s, int indent, int width);
/* count and the noun, singular or plural: "1 probe", "2 probes" (many
 * NULL: one with an s). */
const char *pc_count_of(char *buf, size_t len, size_t count, const char *one,
			const char *many);
/* Display width of UTF-8 text: one column per character. */
int pc_text_width(const char *s);

#endif
