/* SPDX-License-Identifier: MIT */
/* table.c - the table model (table.h) and its text, markdown, CSV and HTML
 * views. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "report.h"
#include "core/util.h"

static int fit_width;

void pc_table_set_fit(int width)
{
	fit_width = width > 0 ? width : 0;
}

int pc_table_fit(void)
{
	return fit_width;
}

int pc_table_init(struct pc_table *t, const char *gap, const struct pc_table_col *cols,
		  size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->gap = gap;
	t->fit = fit_width;
	t->none = PC_NO_VALUE;
	t->ncols = ncols;
	t->cols = malloc((ncols ? ncols : 1) * sizeof(*t->cols));
	if (!t->cols)
		return -1;
	memcpy(t->cols, cols, ncols * sizeof(*cols));
	return 0;
}

/* *s replaced by a copy the table keeps (NULL stays NULL); -1 when out of
 * memory. */
static int keep(struct pc_table *t, const char **s)
{
	char **kept, *copy;

	if (!*s)
		return 0;
	kept = realloc(t->kept, (t->nkept + 1) * sizeof(*kept));
	if (!kept)
		return -1;
	t->kept = kept;
	if (!(copy = strdup(*s)))
		return -1;
	kept[t->nkept++] = copy;
	*s = copy;
	return 0;
}

long pc_table_col_add(struct pc_table *t, const struct pc_table_col *col)
{
	size_t r, n = t->ncols;
	struct pc_table_col *cols = realloc(t->cols, (n + 1) * sizeof(*cols)), c = *col;
	struct pc_table_cell *cells;

	if (!cols)
		return -1;
	t->cols = cols;
	if (keep(t, &c.group) < 0 || keep(t, &c.head) < 0 || keep(t, &c.wide_head) < 0)
		return -1;
	if (t->cap) {
		cells = realloc(t->cells, t->cap * (n + 1) * sizeof(*cells));
		if (!cells)
			return -1;
		t->cells = cells;
		/* each row one cell longer, from the last row back */
		for (r = t->nrows; r-- > 0;) {
			memmove(&cells[r * (n + 1)], &cells[r * n], n * sizeof(*cells));
			cells[r * (n + 1) + n] = (struct pc_table_cell){ .v = NAN };
		}
	}
	cols[n] = c;
	t->ncols = n + 1;
	return (long)n;
}

long pc_table_insert(struct pc_table *t, size_t at)
{
	size_t c, n = t->ncols;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct pc_table_cell *cells = realloc(t->cells, cap * (n ? n : 1) *
						      sizeof(*cells));

		if (!cells)
			return -1;
		t->cells = cells;
		t->cap = cap;
	}
	if (at > t->nrows)
		at = t->nrows;
	memmove(&t->cells[(at + 1) * n], &t->cells[at * n],
		(t->nrows - at) * n * sizeof(*t->cells));
	for (c = 0; c < n; c++)
		t->cells[at * n + c] = (struct pc_table_cell){ .v = NAN };
	t->nrows++;
	return (long)at;
}

long pc_table_row(struct pc_table *t)
{
	return pc_table_insert(t, t->nrows);
}

static int set_words(char **to, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return -1;
	free(*to);
	*to = s;
	return 0;
}

/* pc_table_text, pc_table_wide and pc_table_data: the words of a cell's
 * field. */
#define WORDS_SETTER(name, field)						\
int name(struct pc_table *t, size_t row, size_t col, const char *fmt, ...)	\
{										\
	va_list ap;								\
	int rc;									\
										\
	va_start(ap, fmt);							\
	rc = set_words(&pc_table_at(t, row, col)->field, fmt, ap);		\
	va_end(ap);								\
	return rc;								\
}
WORDS_SETTER(pc_table_text, text)
WORDS_SETTER(pc_table_wide, wide)
WORDS_SETTER(pc_table_data, data)

unsigned pc_table_note(struct pc_table *t, const char *text)
{
	char **notes, *s;
	size_t i;

	for (i = 0; i < t->nnotes; i++)
		if (strcmp(t->notes[i], text) == 0)
			return (unsigned)i + 1;
	notes = realloc(t->notes, (t->nnotes + 1) * sizeof(*notes));
	if (!notes)
		return 0;
	t->notes = notes;
	if (!(s = strdup(text)))
		return 0;
	notes[t->nnotes++] = s;
	return (unsigned)t->nnotes;
}

void pc_table_free(struct pc_table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++) {
		free(t->cells[i].text);
		free(t->cells[i].wide);
		free(t->cells[i].data);
	}
	for (i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	for (i = 0; i < t->nkept; i++)
		free(t->kept[i]);
	free(t->kept);
	free(t->cols);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

int pc_text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void pc_text_wrap(FILE *f, const char *lead, const char *s, int indent, int width)
{
	int col = pc_text_width(lead), fresh = !*lead;

	fputs(lead, f);
	while (*s) {
		int n = (int)strcspn(s, " "), w;
		char *word = strndup(s, (size_t)n);

		if (!word)
			return;
		w = pc_text_width(word);
		if (width > 0 && !fresh && col + 1 + w > width && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			fresh = 1;
		}
		if (width > 0 && col + !fresh + w > width) {
			/* wider than any line (a long path): cut where lines end */
			const char *c = word;

			if (!fresh)
				fputc(' ', f), col++;
			while (*c) {
				size_t k = 1;

				if (col >= width) {
					fprintf(f, "\n%*s", indent, "");
					col = indent;
				}
				while (c[k] && ((unsigned char)c[k] & 0xc0) == 0x80)
					k++;
				fwrite(c, 1, k, f);
				c += k;
				col++;
			}
		} else {
			fprintf(f, "%s%s", fresh ? "" : " ", word);
			col += w + !fresh;
		}
		fresh = 0;
		free(word);
		s += n;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

/* ---- what a cell says ------------------------------------------------------------ */

/* A figure as its column writes it. */
static void figure(char *buf, size_t len, const struct pc_table_col *col, double v)
{
	switch (col->style) {
	case PC_CELL_CYCLES:
		snprintf(buf, len, "%.*f", v < 100 ? 1 : 0, v);
		break;
	case PC_CELL_RATIO:
		if (v < 0.01)
			snprintf(buf, len, "<0.01x");
		else
			snprintf(buf, len, v < 10 ? "%.2fx" : "%.1fx", v);
		break;
	case PC_CELL_FIXED:
		snprintf(buf, len, "%.*f", col->digits, v);
		break;
	case PC_CELL_GENERAL:
		snprintf(buf, len, "%.*g", col->digits, v);
		break;
	}
}

/* The cell's words (wide: in full) or its figure, or the table's word for
 * nothing. */
static const char *content(const struct pc_table *t, size_t r, size_t c, bool wide,
			   char *buf, size_t len)
{
	const struct pc_table_cell *x = pc_table_at(t, r, c);

	if (wide && x->wide)
		return x->wide;
	if (x->text)
		return x->text;
	if (isnan(x->v))
		return t->none ? t->none : PC_NO_VALUE;
	figure(buf, len, &t->cols[c], x->v);
	return buf;
}

/* The marks of a cell (text: symbols, else words) and its footnote. */
static void marks_of(const struct pc_table *t, const struct pc_table_cell *x, bool text,
		     char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = 0;
	for (i = 0; i < t->nmarks && o < len; i++)
		if (x->marks & (1u << i))
			o += (size_t)snprintf(buf + o, len - o, "%s",
					      text ? t->marks[i].sym : t->marks[i].word);
	if (x->note && o < len)
		snprintf(buf + o, len - o, "[%u]", x->note);
}

/* ---- text ------------------------------------------------------------------------- */

static void spaces(FILE *f, int n)
{
	for (; n > 0; n--)
		fputc(' ', f);
}

/* s padded to width w (0: as it is), at most w columns when cut. */
static void padded(FILE *f, const char *s, int w, bool left, bool cut)
{
	int n = pc_text_width(s);

	if (cut && w > 0 && n > w) {
		int k = 0;

		for (; *s && (k < w || ((unsigned char)*s & 0xc0) == 0x80); s++) {
			k += ((unsigned char)*s & 0xc0) != 0x80;
			fputc(*s, f);
		}
		return;
	}
	if (!left)
		spaces(f, w - n);
	fputs(s, f);
	if (left)
		spaces(f, w - n);
}

/* Is column c the first of its group? */
static bool group_starts(const struct pc_table *t, size_t c)
{
	const char *a = c ? t->cols[c - 1].group : NULL, *b = t->cols[c].group;

	return !c || !a || !b || strcmp(a, b) != 0;
}

/* The text view's space before column c when it is not the line's first
 * (opens: it opens a page, where its group's heading starts again). */
static const char *gap_of(const struct pc_table *t, size_t c, bool opens)
{
	if (t->cols[c].gap)
		return t->cols[c].gap;
	return (opens || group_starts(t, c)) && t->gap ? t->gap : "";
}

static size_t stubs(const struct pc_table *t)
{
	size_t n = 0;

	while (n < t->ncols && (t->cols[n].flags & PC_COL_STUB))
		n++;
	return n;
}

/* The width column c takes in the text view: its own, or where it has
 * none, its widest cell's or its heading's. */
static int col_width(const struct pc_table *t, size_t c)
{
	int w = t->cols[c].width, h;

	if (w)
		return w;
	w = pc_table_widest(t, c);
	h = t->cols[c].head ? pc_text_width(t->cols[c].head) : 0;
	return w > h ? w : h;
}

/* The columns after from that share a page with it: at most t->page, and
 * within t->fit columns, a page ending where a group ends when one does
 * inside it; at least one. */
static size_t page_len(const struct pc_table *t, size_t ns, size_t from)
{
	size_t c, n = 0, whole = 0;
	int w = 0;

	for (c = 0; c < ns; c++)
		w += (c ? (int)strlen(gap_of(t, c, false)) : 0) + col_width(t, c);
	for (c = from; c < t->ncols; c++, n++) {
		int add = (n || ns ? (int)strlen(gap_of(t, c, !n)) : 0) + col_width(t, c);

		if (n && ((t->page > 0 && n == (size_t)t->page) ||
			  (t->fit > 0 && w + add > t->fit)))
			return group_starts(t, c) || !whole ? n : whole;
		if (group_starts(t, c))
			whole = n;
		w += add;
	}
	return n;
}

/* A page of the text view: the stubs, then n columns from on; their
 * indices into idx, how many returned. */
static size_t page_cols(size_t ns, size_t from, size_t n, size_t *idx)
{
	size_t k = 0, c;

	for (c = 0; c < ns; c++)
		idx[k++] = c;
	for (c = from; c < from + n; c++)
		idx[k++] = c;
	return k;
}

/* Is idx[i] a page's first column besides the stubs? */
static bool opens(const struct pc_table *t, const size_t *idx, size_t i)
{
	return !(t->cols[idx[i]].flags & PC_COL_STUB) &&
	       (!i || (t->cols[idx[i - 1]].flags & PC_COL_STUB));
}

static void text_groups(FILE *f, const struct pc_table *t, const size_t *idx, size_t n)
{
	size_t i, k;
	bool grouped = false;

	for (i = 0; i < n; i++)
		grouped |= t->cols[idx[i]].group != NULL;
	if (!grouped)
		return;
	for (i = 0; i < n; i++) {
		size_t c = idx[i];
		int w = t->cols[c].width;

		if (i && !opens(t, idx, i) && !group_starts(t, c))
			continue;	/* inside a group begun before */
		if (i)
			fputs(gap_of(t, c, opens(t, idx, i)), f);
		if (t->cols[c].flags & PC_COL_STUB) {
			spaces(f, w);
			continue;
		}
		for (k = i + 1; k < n && !group_starts(t, idx[k]); k++)
			w += t->cols[idx[k]].width + (int)strlen(gap_of(t, idx[k], false));
		padded(f, t->cols[c].group ? t->cols[c].group : "", w, true, true);
	}
	fputc('\n', f);
}

/* The characters a PC_COL_MARK column keeps for its marks: its widest
 * cell's marks and footnote mark, at least one. */
static int mark_slot(const struct pc_table *t, size_t c)
{
	char m[64];
	int w = 1, k;
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		marks_of(t, pc_table_at(t, r, c), true, m, sizeof(m));
		k = pc_text_width(m);
		w = k > w ? k : w;
	}
	return w;
}

static void text_cell(FILE *f, const struct pc_table *t, size_t r, size_t c, int slot)
{
	const struct pc_table_col *col = &t->cols[c];
	const struct pc_table_cell *x = pc_table_at(t, r, c);
	char buf[64], m[64], *s = NULL;
	const char *v = content(t, r, c, false, buf, sizeof(buf));
	bool left = col->flags & PC_COL_LEFT;
	const char *on = !t->color ? "" : x->emph == PC_EMPH_ALERT ? "\033[1;31m" :
			 x->emph == PC_EMPH_GOOD ? "\033[1;32m" : "";

	marks_of(t, x, true, m, sizeof(m));
	if (*m && !(col->flags & PC_COL_MARK) && asprintf(&s, "%s%s", v, m) >= 0)
		v = s;	/* the marks after the words */
	fputs(on, f);
	if (col->flags & PC_COL_MARK) {
		padded(f, v, col->width - slot, left, false);
		padded(f, m, slot, true, false);
	} else if ((col->flags & PC_COL_ALONE) && pc_text_width(v) > col->width) {
		fprintf(f, "%s\n", v);
		spaces(f, col->width);
	} else {
		padded(f, v, col->width, left, false);
	}
	if (*on)
		fputs("\033[0m", f);
	free(s);
}

/* Has row r something to show in the page's columns besides the stubs
 * (words, a figure or a footnote)? */
static bool shows(const struct pc_table *t, size_t r, const size_t *idx, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct pc_table_cell *x = pc_table_at(t, r, idx[i]);

		if (!(t->cols[idx[i]].flags & PC_COL_STUB) &&
		    (x->text || !isnan(x->v) || x->note))
			return true;
	}
	return false;
}

/* s to f without the spaces that end its lines. */
static void put_trimmed(FILE *f, const char *s, size_t len)
{
	size_t i, blanks = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == ' ') {
			blanks++;
			continue;
		}
		if (s[i] != '\n')
			for (; blanks; blanks--)
				fputc(' ', f);
		blanks = 0;
		fputc(s[i], f);
	}
}

static void draw_page(FILE *f, const struct pc_table *t, size_t from, size_t per);

void pc_table_draw_text_page(FILE *f, const struct pc_table *t, size_t from, size_t per)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	draw_page(m, t, from, per);
	if (fclose(m) == 0)
		put_trimmed(f, buf, len);
	free(buf);
}

static void draw_page(FILE *f, const struct pc_table *t, size_t from, size_t per)
{
	size_t *idx = malloc((t->ncols ? t->ncols : 1) * sizeof(*idx)), n, r, i;
	int *slot = malloc((t->ncols ? t->ncols : 1) * sizeof(*slot));

	if (!idx || !slot) {
		free(idx);
		free(slot);
		return;
	}
	if (from > t->ncols)
		from = t->ncols;
	if (per > t->ncols - from)
		per = t->ncols - from;
	n = page_cols(stubs(t), from, per, idx);
	for (i = 0; i < n; i++)
		slot[i] = t->cols[idx[i]].flags & PC_COL_MARK ? mark_slot(t, idx[i]) : 0;
	if (!t->no_group_line)
		text_groups(f, t, idx, n);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(gap_of(t, idx[i], opens(t, idx, i)), f);
		padded(f, t->cols[idx[i]].head, t->cols[idx[i]].width,
		       t->cols[idx[i]].flags & PC_COL_LEFT, true);
	}
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		if (t->drop_empty && !shows(t, r, idx, n))
			continue;
		for (i = 0; i < n; i++) {
			if (i)
				fputs(gap_of(t, idx[i], opens(t, idx, i)), f);
			text_cell(f, t, r, idx[i], slot[i]);
		}
		fputc('\n', f);
	}
	free(idx);
	free(slot);
}

void pc_table_draw_text(FILE *f, const struct pc_table *t)
{
	size_t ns = stubs(t), from = ns, per;

	do {
		per = page_len(t, ns, from);
		if (from > ns)
			fputc('\n', f);	/* between pages */
		pc_table_draw_text_page(f, t, from, per);
		from += per;
	} while (from < t->ncols);
	pc_table_draw_notes(f, t, "");
}

int pc_table_widest(const struct pc_table *t, size_t c)
{
	char buf[64], m[64];
	bool slot = t->cols[c].flags & PC_COL_MARK;
	int w = 0, k;
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		marks_of(t, pc_table_at(t, r, c), true, m, sizeof(m));
		k = pc_text_width(content(t, r, c, false, buf, sizeof(buf))) +
		    (slot ? 0 : pc_text_width(m));
		if (k > w)
			w = k;
	}
	return slot && t->nrows ? w + mark_slot(t, c) : w;
}

/* ---- markdown ---------------------------------------------------------------------- */

void pc_table_draw_markdown(FILE *f, const struct pc_table *t)
{
	char buf[64], m[64];
	size_t r, c;

	fputc('|', f);
	for (c = 0; c < t->ncols; c++) {
		const struct pc_table_col *col = &t->cols[c];

		fprintf(f, " %s%s%s |", col->group ? col->group : "", col->group ? " " : "",
			col->wide_head ? col->wide_head : col->head);
	}
	fputs("\n|", f);
	for (c = 0; c < t->ncols; c++)
		fputs(t->cols[c].flags & PC_COL_LEFT ? "---|" : "---:|", f);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			const struct pc_table_cell *x = pc_table_at(t, r, c);
			const char *v = content(t, r, c, true, buf, sizeof(buf));
			bool code = t->cols[c].flags & PC_COL_CODE && !x->wide;
			const char *em = x->emph == PC_EMPH_ALERT ? "**" : "";

			marks_of(t, x, false, m, sizeof(m));
			if (!*v && !*m) {
				fputs(" |", f);
				continue;
			}
			fprintf(f, " %s%s%s%s%s%s |", em, code ? "`" : "", v, code ? "`" : "",
				em, m);
		}
		fputc('\n', f);
	}
	for (c = 0; c < t->nnotes; c++)	/* a list under the table */
		fprintf(f, "%s- [%zu] %s\n", c ? "" : "\n", c + 1, t->notes[c]);
}

/* ---- CSV --------------------------------------------------------------------------- */

void pc_table_draw_csv(FILE *f, const struct pc_table *t, bool head)
{
	char buf[64];
	size_t r, c;

	for (c = 0; head && c < t->ncols; c++) {
		if (c)
			fputc(',', f);
		pc_csv_field(f, t->cols[c].wide_head ? t->cols[c].wide_head : t->cols[c].head);
	}
	if (head)
		fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			pc_csv_field(f, content(t, r, c, true, buf, sizeof(buf)));
		}
		fputc('\n', f);
	}
}

/* ---- HTML -------------------------------------------------------------------------- */

void pc_html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

/* The length of the UTF-8 sequence beyond ASCII at s, its code point in
 * *cp; 0 when s starts none. */
static int utf8_seq(const unsigned char *s, unsigned long *cp)
{
	int n = *s >= 0xf8 ? 0 : *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc0 ? 2 : 0, k;

	*cp = *s & (0x7fu >> n);
	for (k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[k] & 0x3fu);
	}
	return n;
}

/* A cell's words: escaped; beyond ASCII as numeric references when ascii. */
static void html_text(FILE *f, const char *s, bool ascii)
{
	char c[2] = { 0, 0 };
	unsigned long cp;
	int n;

	if (!ascii) {
		pc_html_escape(f, s);
		return;
	}
	for (; *s; s += n ? n : 1) {
		if ((n = utf8_seq((const unsigned char *)s, &cp)) > 0) {
			fprintf(f, "&#%lu;", cp);
		} else {
			c[0] = *s;
			pc_html_escape(f, c);
		}
	}
}

/* A row's <tr>, naming its first cell when the table says so. */
static void html_row(FILE *f, const struct pc_table *t, size_t r)
{
	char buf[64];

	fputs("<tr", f);
	if (t->row_data && t->ncols) {
		fputs(" data-", f);
		pc_html_escape(f, t->row_data);
		fputs("=\"", f);
		pc_html_escape(f, content(t, r, 0, true, buf, sizeof(buf)));
		fputc('"', f);
	}
	fputc('>', f);
}

static void html_cell(FILE *f, const struct pc_table *t, size_t r, size_t c)
{
	const struct pc_table_cell *x = pc_table_at(t, r, c);
	struct pc_table_cell marked = *x;
	unsigned flags = t->cols[c].flags;
	const char *cls = x->cls ? x->cls : x->emph == PC_EMPH_ALERT ? "alert" :
			  x->emph == PC_EMPH_GOOD ? "good" :
			  flags & PC_COL_LEFT ? NULL : "n";
	char buf[64], m[64];

	if (t->note_href)
		marked.note = 0;	/* a link, after the marks */
	marks_of(t, &marked, false, m, sizeof(m));
	fputs("<td", f);
	if (cls) {
		fputs(" class=\"", f);
		pc_html_escape(f, cls);
		fputc('"', f);
	}
	if (t->cell_data && x->data) {
		fprintf(f, " data-");
		pc_html_escape(f, t->cell_data);
		fputs("=\"", f);
		pc_html_escape(f, x->data);
		fputc('"', f);
	}
	fputc('>', f);
	if (flags & PC_COL_CODE)
		fputs("<code>", f);
	html_text(f, content(t, r, c, true, buf, sizeof(buf)), flags & PC_COL_ASCII);
	if (flags & PC_COL_CODE)
		fputs("</code>", f);
	html_text(f, m, flags & PC_COL_ASCII);
	if (t->note_href && x->note) {
		fputs("<sup><a href=\"", f);
		pc_html_escape(f, t->note_href);
		fprintf(f, "%u\">[%u]</a></sup>", x->note, x->note);
	}
	fputs("</td>", f);
}

void pc_table_draw_html(FILE *f, const struct pc_table *t, const char *cls)
{
	size_t r, c, k;
	bool grouped = false;

	fputs("<table", f);
	if (cls) {
		fputs(" class=\"", f);
		pc_html_escape(f, cls);
		fputc('"', f);
	}
	fputs(">\n", f);
	for (c = 0; c < t->ncols; c++)
		grouped |= t->cols[c].group != NULL;
	if (grouped) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c = k) {
			for (k = c + 1; k < t->ncols && !group_starts(t, k); k++)
				;
			fprintf(f, "<th colspan=\"%zu\">", k - c);
			pc_html_escape(f, t->cols[c].group);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("<tr>", f);
	for (c = 0; c < t->ncols; c++) {
		fputs("<th>", f);
		pc_html_escape(f, t->cols[c].wide_head ? t->cols[c].wide_head : t->cols[c].head);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < t->nrows; r++) {
		html_row(f, t, r);
		for (c = 0; c < t->ncols; c++)
			html_cell(f, t, r, c);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (k = 0; !t->note_href && k < t->nnotes; k++) {
		fprintf(f, "<p class=\"note\">[%zu] ", k + 1);
		pc_html_escape(f, t->notes[k]);
		fputs("</p>\n", f);
	}
}

void pc_table_draw_notes(FILE *f, const struct pc_table *t, const char *prefix)
{
	char lead[64];
	size_t k;

	for (k = 0; k < t->nnotes; k++) {
		snprintf(lead, sizeof(lead), "%s[%zu]", prefix, k + 1);
		pc_text_wrap(f, lead, t->notes[k], pc_text_width(lead) + 1, t->fit);
	}
}
