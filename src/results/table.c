/* SPDX-License-Identifier: MIT */
/* table.c - the table model (table.h) and its text, markdown, CSV, HTML and
 * JSON views. */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "report.h"
#include "core/util.h"

static int fit_width;

/* Room for a cell's words when a view copies them (a figure, a glyph
 * before them, their emphasis taken out). */
#define CELL_BUF 1024

/* ---- the formats ------------------------------------------------------------------ */

/* In the order of enum pc_format. */
static const char *const format_names[PC_FORMAT_COUNT] = {
	"table", "json", "csv", "markdown", "html",
};

int pc_format_parse(const char *s, enum pc_format *f)
{
	int i = pc_word_index(s, format_names, PC_FORMAT_COUNT);

	if (i < 0 && s && strcmp(s, "text") == 0)
		i = PC_FORMAT_TABLE;
	if (i < 0)
		return -1;
	*f = (enum pc_format)i;
	return 0;
}

const char *pc_format_name(enum pc_format f)
{
	return (unsigned)f < PC_FORMAT_COUNT ? format_names[f] : "?";
}

int pc_format_take(const char *arg, unsigned allowed, enum pc_format *f, char *err,
		   size_t errlen)
{
	enum pc_format got;
	size_t at, n = 0, k = 0, i;

	if (pc_format_parse(arg, &got) == 0 && (allowed & PC_FMT(got))) {
		*f = got;
		return 0;
	}
	for (i = 0; i < PC_FORMAT_COUNT; i++)
		n += (allowed & PC_FMT(i)) != 0;
	at = (size_t)snprintf(err, errlen, "--format: want");
	for (i = 0; i < PC_FORMAT_COUNT && at < errlen; i++) {
		if (!(allowed & PC_FMT(i)))
			continue;
		k++;
		at += (size_t)snprintf(err + at, errlen - at, "%s%s",
				       k == 1 ? " " : k == n ? " or " : ", ", format_names[i]);
	}
	if (at < errlen)
		snprintf(err + at, errlen - at, ", got '%s'", arg);
	return -1;
}

const char *pc_count_of(char *buf, size_t len, size_t count, const char *one,
			const char *many)
{
	if (count == 1 || many)
		snprintf(buf, len, "%zu %s", count, count == 1 ? one : many);
	else
		snprintf(buf, len, "%zu %ss", count, one);
	return buf;
}

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
int pc_table_keep(struct pc_table *t, const char **s)
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
	if (pc_table_keep(t, &c.group) < 0 || pc_table_keep(t, &c.head) < 0 ||
	    pc_table_keep(t, &c.wide_head) < 0)
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

int pc_table_json(struct pc_table *t, size_t row, size_t col, json_t *v)
{
	struct pc_table_cell *x = pc_table_at(t, row, col);

	json_decref(x->json);
	x->json = v;
	return v ? 0 : -1;
}

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
		json_decref(t->cells[i].json);
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

	for (; *s; s++)	/* control bytes (inline emphasis) take no column */
		w += ((unsigned char)*s & 0xc0) != 0x80 && (unsigned char)*s >= 0x20;
	return w;
}

/* s without its inline emphasis marks, into buf (cut to len). */
static const char *plain(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!strpbrk(s, PC_STRONG_ON PC_STRONG_OFF))
		return s;
	for (; *s && o + 1 < len; s++)
		if (*s != PC_STRONG_ON[0] && *s != PC_STRONG_OFF[0])
			buf[o++] = *s;
	buf[o] = 0;
	return buf;
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
 * nothing; its inline emphasis marks kept (HTML and markdown write them). */
static const char *marked_content(const struct pc_table *t, size_t r, size_t c, bool wide,
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

/* The same without the marks, and after the cell's glyph (the text and
 * markdown views; CSV and JSON take glyphless: no glyph). */
static const char *content_of(const struct pc_table *t, size_t r, size_t c, bool wide,
			      bool glyph, char *buf, size_t len)
{
	const struct pc_table_cell *x = pc_table_at(t, r, c);
	const char *v = marked_content(t, r, c, wide, buf, len);
	char tmp[CELL_BUF], *out = NULL;

	if ((!glyph || !x->glyph) && !strpbrk(v, PC_STRONG_ON PC_STRONG_OFF))
		return v;
	v = plain(v, tmp, sizeof(tmp));
	if (asprintf(&out, "%s%s%s", glyph && x->glyph ? x->glyph : "",
		     glyph && x->glyph ? " " : "", v) < 0)
		return "";
	if (len) {	/* v may be buf: copied out first */
		strncpy(buf, out, len - 1);
		buf[len - 1] = 0;
	}
	free(out);
	return buf;
}

static const char *content(const struct pc_table *t, size_t r, size_t c, bool wide,
			   char *buf, size_t len)
{
	return content_of(t, r, c, wide, false, buf, len);
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

/* The group a column's full heading is shown under (markdown, JSON, CSV):
 * none where the heading already ends in its name ("A tas" under "tas"). */
static const char *named_group(const struct pc_table_col *col)
{
	const char *h = col->wide_head ? col->wide_head : col->head;
	size_t n = h ? strlen(h) : 0, g = col->group ? strlen(col->group) : 0;

	return col->group && !(n > g && h[n - g - 1] == ' ' &&
			       strcmp(h + n - g, col->group) == 0) ? col->group : NULL;
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

/* The narrowest a wrapping column is made: narrower, a PC_COL_FLOW one
 * goes under its row. */
#define WRAP_MIN 20

/* Does column c go in the rows' lines of the text view (not under them)?
 * flow_under: the PC_COL_FLOW columns go under them. */
static bool in_line(const struct pc_table *t, size_t c, bool flow_under)
{
	unsigned fl = t->cols[c].flags;

	return !(fl & (PC_COL_UNDER | PC_COL_DATA)) && !((fl & PC_COL_FLOW) && flow_under);
}

/* The width a text page may take: the fit less the indent every line of
 * the table is given after it is drawn. */
static int text_fit(const struct pc_table *t)
{
	return t->fit > t->indent ? t->fit - t->indent : t->fit;
}

/* Do the PC_COL_FLOW columns go under the rows: is the line with them, at
 * their widest, wider than the fit? */
static bool flow_under(const struct pc_table *t)
{
	size_t c;
	int w = 0;
	bool flow = false;

	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c].flags & (PC_COL_UNDER | PC_COL_DATA))
			continue;
		flow |= (t->cols[c].flags & PC_COL_FLOW) != 0;
		w += (c ? (int)strlen(gap_of(t, c, false)) : 0);
		if ((t->cols[c].flags & PC_COL_FLOW) && (t->cols[c].flags & PC_COL_WRAP))
			w += pc_table_widest(t, c) < WRAP_MIN ? pc_table_widest(t, c) : WRAP_MIN;
		else if (t->cols[c].flags & PC_COL_FLOW)
			w += pc_table_widest(t, c);
		else
			w += col_width(t, c);
	}
	return flow && text_fit(t) > 0 && w > text_fit(t);
}

/* The columns after from that share a page with it: at most t->page, and
 * within t->fit columns, a page ending where a group ends when one does
 * inside it; at least one. Columns not in the rows' lines take no room. */
static size_t page_len(const struct pc_table *t, size_t ns, size_t from, bool fu)
{
	size_t c, n = 0, k = 0, whole = 0;
	int w = 0;

	for (c = 0; c < ns; c++)
		w += (c ? (int)strlen(gap_of(t, c, false)) : 0) + col_width(t, c);
	for (c = from; c < t->ncols; c++, k++) {
		int add;

		if (!in_line(t, c, fu))
			continue;
		add = (n || ns ? (int)strlen(gap_of(t, c, !n)) : 0) +
		      ((t->cols[c].flags & PC_COL_WRAP) && !t->cols[c].width ? 1 :
		       col_width(t, c));
		if (n && ((t->page > 0 && n == (size_t)t->page) ||
			  (text_fit(t) > 0 && w + add > text_fit(t))))
			return group_starts(t, c) || !whole ? k : whole;
		if (group_starts(t, c))
			whole = k;
		w += add;
		n++;
	}
	return k;
}

/* A page of the text view: the stubs, then the columns from from on, n of
 * them, that go in the rows' lines; their indices into idx, how many
 * returned. */
static size_t page_cols(const struct pc_table *t, size_t ns, size_t from, size_t n,
			bool fu, size_t *idx)
{
	size_t k = 0, c;

	for (c = 0; c < ns; c++)
		idx[k++] = c;
	for (c = from; c < from + n; c++)
		if (in_line(t, c, fu))
			idx[k++] = c;
	return k;
}

/* Is idx[i] a page's first column besides the stubs? */
static bool opens(const struct pc_table *t, const size_t *idx, size_t i)
{
	return !(t->cols[idx[i]].flags & PC_COL_STUB) &&
	       (!i || (t->cols[idx[i - 1]].flags & PC_COL_STUB));
}

static void text_groups(FILE *f, const struct pc_table *t, const size_t *idx, size_t n,
			const int *wid)
{
	size_t i, k;
	bool grouped = false;

	for (i = 0; i < n; i++)
		grouped |= t->cols[idx[i]].group != NULL;
	if (!grouped)
		return;
	for (i = 0; i < n; i++) {
		size_t c = idx[i];
		int w = wid[i];

		if (i && !opens(t, idx, i) && !group_starts(t, c))
			continue;	/* inside a group begun before */
		if (i)
			fputs(gap_of(t, c, opens(t, idx, i)), f);
		if (t->cols[c].flags & PC_COL_STUB) {
			spaces(f, w);
			continue;
		}
		for (k = i + 1; k < n && !group_starts(t, idx[k]); k++)
			w += wid[k] + (int)strlen(gap_of(t, idx[k], false));
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

/* A cell's words with its marks after them (not a PC_COL_MARK column's),
 * in *s to free. */
static const char *with_marks(const struct pc_table *t, size_t r, size_t c, char *buf,
			      size_t len, char **s)
{
	const struct pc_table_cell *x = pc_table_at(t, r, c);
	const char *v = content_of(t, r, c, false, true, buf, len);
	char m[64];

	*s = NULL;
	marks_of(t, x, true, m, sizeof(m));
	if (*m && !(t->cols[c].flags & PC_COL_MARK) && asprintf(s, "%s%s", v, m) >= 0)
		v = *s;
	return v;
}

static void text_cell(FILE *f, const struct pc_table *t, size_t r, size_t c, int width,
		      int slot)
{
	const struct pc_table_col *col = &t->cols[c];
	const struct pc_table_cell *x = pc_table_at(t, r, c);
	char buf[CELL_BUF], m[64], *s;
	const char *v = with_marks(t, r, c, buf, sizeof(buf), &s);
	bool left = col->flags & PC_COL_LEFT;
	const char *on = !t->color ? "" : x->emph == PC_EMPH_ALERT ? "\033[1;31m" :
			 x->emph == PC_EMPH_GOOD ? "\033[1;32m" : "";

	fputs(on, f);
	if (col->flags & PC_COL_MARK) {
		marks_of(t, x, true, m, sizeof(m));
		padded(f, v, width - slot, left, false);
		padded(f, m, slot, true, false);
	} else if ((col->flags & PC_COL_ALONE) && pc_text_width(v) > width) {
		fprintf(f, "%s\n", v);
		spaces(f, width);
	} else {
		padded(f, v, width, left, false);
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

/* s to f without the spaces that end its lines, each line that is not
 * empty indent columns in. */
static void put_trimmed(FILE *f, const char *s, size_t len, int indent)
{
	size_t i, blanks = 0;
	bool fresh = true;

	for (i = 0; i < len; i++) {
		if (s[i] == ' ') {
			blanks++;
			continue;
		}
		if (s[i] != '\n') {
			if (fresh)
				blanks += (size_t)(indent > 0 ? indent : 0);
			for (; blanks; blanks--)
				fputc(' ', f);
		}
		blanks = 0;
		fresh = s[i] == '\n';
		fputc(s[i], f);
	}
}

/* The lines of s wrapped to width: their count, each in (*lines)[i], to
 * free with the array; 0 when out of memory. */
static size_t wrapped(const char *s, int width, char ***lines)
{
	char *buf = NULL, *p, *nl, **v = NULL, **more;
	size_t len = 0, n = 0;
	FILE *m = open_memstream(&buf, &len);

	*lines = NULL;
	if (!m)
		return 0;
	pc_text_wrap(m, "", s, 0, width > 0 ? width : 1);
	if (fclose(m) != 0) {
		free(buf);
		return 0;
	}
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		more = realloc(v, (n + 1) * sizeof(*v));
		if (!more || !(more[n] = strndup(p, (size_t)(nl - p)))) {
			v = more ? more : v;
			break;
		}
		v = more;
		n++;
		if (!nl[1])
			break;
	}
	free(buf);
	*lines = v;
	return n;
}

static void free_lines(char **lines, size_t n)
{
	while (n)
		free(lines[--n]);
	free(lines);
}

/* The words under row r: the cells of its columns that are not in its
 * lines, each after its label, the labels as wide as the widest. */
static void text_under(FILE *f, const struct pc_table *t, size_t r, bool fu)
{
	char buf[CELL_BUF], lead[160], *s;
	const char *v;
	size_t c;
	int lw = 0, k;

	for (c = 0; c < t->ncols; c++)
		if (!in_line(t, c, fu) && !(t->cols[c].flags & PC_COL_DATA) &&
		    t->cols[c].under && (k = pc_text_width(t->cols[c].under)) > lw)
			lw = k;
	for (c = 0; c < t->ncols; c++) {
		const struct pc_table_cell *x = pc_table_at(t, r, c);
		const char *label = t->cols[c].under;

		if (in_line(t, c, fu) || (t->cols[c].flags & PC_COL_DATA) ||
		    (!x->text && isnan(x->v) && !x->note))
			continue;
		v = with_marks(t, r, c, buf, sizeof(buf), &s);
		/* each line of the words after the label (the first) or under it;
		 * the lead ends a space short: pc_text_wrap puts one */
		while (*v) {
			size_t n = strcspn(v, "\n");
			char *para = strndup(v, n);

			if (!para)
				break;
			if (label)
				snprintf(lead, sizeof(lead), "%*s%s%*s", t->under_indent, "",
					 label, lw - pc_text_width(label), "");
			else
				snprintf(lead, sizeof(lead), "%*s", t->under_indent > 0 ?
					 t->under_indent - 1 : 0, "");
			if (*para)
				pc_text_wrap(f, lead, para, t->under_indent + (label ? lw + 1 : 0),
					     text_fit(t));
			free(para);
			label = label ? "" : NULL;
			v += n + (v[n] == '\n');
		}
		free(s);
	}
}

/* The text view's width of each of the page's columns: its own; where it
 * has none, its widest cell's (the line's last: as it is, 0); a wrapping
 * column's without one, the rest of the fit. */
static void page_widths(const struct pc_table *t, const size_t *idx, size_t n, int *wid)
{
	size_t i, wrap = n;
	int used = 0;

	for (i = 0; i < n; i++)
		if ((t->cols[idx[i]].flags & PC_COL_WRAP) && !t->cols[idx[i]].width)
			wrap = i;
	for (i = 0; i < n; i++) {
		wid[i] = t->cols[idx[i]].width;
		if (!wid[i] && (wrap < n || i + 1 < n) && i != wrap)
			wid[i] = col_width(t, idx[i]);
		if (i != wrap)
			used += wid[i] + (i ? (int)strlen(gap_of(t, idx[i], opens(t, idx, i))) : 0);
	}
	if (wrap < n) {
		int fit = text_fit(t);

		used += wrap ? (int)strlen(gap_of(t, idx[wrap], opens(t, idx, wrap))) : 0;
		wid[wrap] = fit > used + WRAP_MIN ? fit - used : col_width(t, idx[wrap]);
		if (fit > used && wid[wrap] > fit - used)
			wid[wrap] = fit - used;
		if (wid[wrap] < WRAP_MIN)
			wid[wrap] = WRAP_MIN;
	}
}

/* The widest word of s, in columns. */
static int longest_word(const char *s)
{
	int most = 0, w;

	while (*s) {
		size_t n = strcspn(s, " ");
		char *word = strndup(s, n);

		w = word ? pc_text_width(word) : 0;
		free(word);
		most = w > most ? w : most;
		s += n;
		while (*s == ' ')
			s++;
	}
	return most;
}

/*
 * Row r whose last column wraps: its other cells, then that cell's words
 * after them, wrapped under the column, or under a shallower one (from the
 * next line) where a word is too wide for the column.
 */
static void text_row_last_wraps(FILE *f, const struct pc_table *t, size_t r,
				const size_t *idx, size_t n, const int *wid, const int *slot)
{
	char *pre = NULL, buf[64], *s;
	size_t len = 0, i;
	FILE *m = open_memstream(&pre, &len);
	const char *v;
	int at = 0, most;

	if (!m)
		return;
	for (i = 0; i + 1 < n; i++) {
		if (i)
			fputs(gap_of(t, idx[i], opens(t, idx, i)), m);
		text_cell(m, t, r, idx[i], wid[i], slot[i]);
		at += wid[i] + (i ? (int)strlen(gap_of(t, idx[i], opens(t, idx, i))) : 0);
	}
	if (n > 1) {
		fputs(gap_of(t, idx[n - 1], opens(t, idx, n - 1)), m);
		at += (int)strlen(gap_of(t, idx[n - 1], opens(t, idx, n - 1)));
	}
	if (fclose(m) != 0) {
		free(pre);
		return;
	}
	v = with_marks(t, r, idx[n - 1], buf, sizeof(buf), &s);
	most = longest_word(v);
	if (text_fit(t) > 0 && at + most > text_fit(t))
		at = text_fit(t) - most - 1 > 4 ? text_fit(t) - most - 1 : 4;
	/* the lead ends a space short: pc_text_wrap puts one */
	if (len && pre[len - 1] == ' ')
		pre[len - 1] = 0;
	pc_text_wrap(f, pre, v, at, text_fit(t));
	free(s);
	free(pre);
}

/* Row r's lines: as many as its widest wrapping cell takes. */
static void text_row(FILE *f, const struct pc_table *t, size_t r, const size_t *idx,
		     size_t n, const int *wid, const int *slot)
{
	char **lines[64] = { NULL };
	size_t nl[64] = { 0 }, i, k, most = 1;

	if (n && (t->cols[idx[n - 1]].flags & PC_COL_WRAP) && text_fit(t) > 0) {
		text_row_last_wraps(f, t, r, idx, n, wid, slot);
		return;
	}

	for (i = 0; i < n && i < 64; i++) {
		char buf[CELL_BUF], *s;
		const char *v;

		if (!(t->cols[idx[i]].flags & PC_COL_WRAP))
			continue;
		v = with_marks(t, r, idx[i], buf, sizeof(buf), &s);
		nl[i] = wrapped(v, wid[i], &lines[i]);
		free(s);
		most = nl[i] > most ? nl[i] : most;
	}
	for (k = 0; k < most; k++) {
		for (i = 0; i < n; i++) {
			bool wraps = i < 64 && (t->cols[idx[i]].flags & PC_COL_WRAP);

			if (i)
				fputs(gap_of(t, idx[i], opens(t, idx, i)), f);
			if (wraps)
				padded(f, k < nl[i] ? lines[i][k] : "", wid[i],
				       t->cols[idx[i]].flags & PC_COL_LEFT, false);
			else if (k == 0)
				text_cell(f, t, r, idx[i], wid[i], slot[i]);
			else
				spaces(f, wid[i]);
		}
		fputc('\n', f);
	}
	for (i = 0; i < n && i < 64; i++)
		free_lines(lines[i], nl[i]);
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
		put_trimmed(f, buf, len, t->indent);
	free(buf);
}

static void draw_page(FILE *f, const struct pc_table *t, size_t from, size_t per)
{
	size_t *idx = malloc((t->ncols ? t->ncols : 1) * sizeof(*idx)), n, r, i;
	int *slot = malloc((t->ncols ? t->ncols : 1) * sizeof(*slot));
	int *wid = malloc((t->ncols ? t->ncols : 1) * sizeof(*wid));
	bool fu = flow_under(t);

	if (!idx || !slot || !wid) {
		free(idx);
		free(slot);
		free(wid);
		return;
	}
	if (from > t->ncols)
		from = t->ncols;
	if (per > t->ncols - from)
		per = t->ncols - from;
	n = page_cols(t, stubs(t), from, per, fu, idx);
	page_widths(t, idx, n, wid);
	for (i = 0; i < n; i++)
		slot[i] = t->cols[idx[i]].flags & PC_COL_MARK ? mark_slot(t, idx[i]) : 0;
	if (!t->no_group_line && !t->no_head)
		text_groups(f, t, idx, n, wid);
	for (i = 0; i < n && !t->no_head; i++) {
		if (i)
			fputs(gap_of(t, idx[i], opens(t, idx, i)), f);
		padded(f, t->cols[idx[i]].head, wid[i], t->cols[idx[i]].flags & PC_COL_LEFT,
		       true);
	}
	if (!t->no_head)
		fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		if (t->drop_empty && !shows(t, r, idx, n))
			continue;
		text_row(f, t, r, idx, n, wid, slot);
		text_under(f, t, r, fu);
	}
	free(idx);
	free(slot);
	free(wid);
}

void pc_table_draw_text(FILE *f, const struct pc_table *t)
{
	size_t ns = stubs(t), from = ns, per;
	bool fu = flow_under(t);

	do {
		per = page_len(t, ns, from, fu);
		if (from > ns)
			fputc('\n', f);	/* between pages */
		pc_table_draw_text_page(f, t, from, per);
		from += per;
	} while (from < t->ncols);
	pc_table_draw_notes(f, t, "");
}

int pc_table_widest(const struct pc_table *t, size_t c)
{
	char buf[CELL_BUF], m[64];
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
	char buf[CELL_BUF], m[64];
	size_t r, c;

	fputc('|', f);
	for (c = 0; c < t->ncols; c++) {
		const struct pc_table_col *col = &t->cols[c];

		if (col->flags & PC_COL_DATA)
			continue;
		fprintf(f, " %s%s%s |", named_group(col) ? named_group(col) : "",
			named_group(col) ? " " : "", col->wide_head ? col->wide_head : col->head);
	}
	fputs("\n|", f);
	for (c = 0; c < t->ncols; c++)
		if (!(t->cols[c].flags & PC_COL_DATA))
			fputs(t->cols[c].flags & PC_COL_LEFT ? "---|" : "---:|", f);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			const struct pc_table_cell *x = pc_table_at(t, r, c);
			const char *v = marked_content(t, r, c, true, buf, sizeof(buf));
			bool code = t->cols[c].flags & PC_COL_CODE && !x->wide;
			const char *em = x->emph == PC_EMPH_ALERT ? "**" : "";

			if (t->cols[c].flags & PC_COL_DATA)
				continue;
			marks_of(t, x, false, m, sizeof(m));
			if (!*v && !*m && !x->glyph) {
				fputs(" |", f);
				continue;
			}
			fprintf(f, " %s%s%s%s", x->glyph ? x->glyph : "", x->glyph ? " " : "", em,
				code ? "`" : "");
			for (; *v; v++)	/* inline emphasis in bold */
				fputs(*v == PC_STRONG_ON[0] || *v == PC_STRONG_OFF[0] ? "**" :
				      (char[2]){ *v, 0 }, f);
			fprintf(f, "%s%s%s |", code ? "`" : "", em, m);
		}
		fputc('\n', f);
	}
	for (c = 0; c < t->nnotes; c++)	/* a list under the table */
		fprintf(f, "%s- [%zu] %s\n", c ? "" : "\n", c + 1, t->notes[c]);
}

/* ---- CSV --------------------------------------------------------------------------- */

void pc_table_draw_csv(FILE *f, const struct pc_table *t, bool head)
{
	char buf[CELL_BUF];
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

/* ---- JSON -------------------------------------------------------------------------- */

/* Column c's key: its own, else its group and heading in lower case, '_'
 * for whatever else ("glibc malloc" -> "glibc_malloc"). */
static const char *json_key(const struct pc_table *t, size_t c, char *buf, size_t len)
{
	const struct pc_table_col *col = &t->cols[c];
	char words[256];
	size_t i, o = 0;
	bool gap = false;

	if (col->key)
		return col->key;
	snprintf(words, sizeof(words), "%s%s%s", named_group(col) ? named_group(col) : "",
		 named_group(col) ? " " : "", col->wide_head ? col->wide_head : col->head ?
		 col->head : "");
	for (i = 0; words[i] && o + 1 < len; i++) {
		unsigned char ch = (unsigned char)words[i];

		if (isalnum(ch) || ch == '.') {
			if (gap && o)
				buf[o++] = '_';
			if (o + 1 < len)
				buf[o++] = (char)tolower(ch);
			gap = false;
		} else {
			gap = true;
		}
	}
	buf[o] = 0;
	if (!o)
		snprintf(buf, len, "column_%zu", c + 1);
	return buf;
}

/* A cell as JSON: its words (in full), else its figure; NULL when empty. */
static json_t *json_cell(const struct pc_table *t, size_t r, size_t c)
{
	const struct pc_table_cell *x = pc_table_at(t, r, c);
	const struct pc_table_col *col = &t->cols[c];

	if (x->json)
		return json_incref(x->json);
	if (x->wide || x->text)
		return json_string(x->wide ? x->wide : x->text);
	if (isnan(x->v))
		return NULL;
	if (col->style == PC_CELL_FIXED && col->digits == 0 && x->v == floor(x->v) &&
	    fabs(x->v) < 9e15)
		return json_integer((json_int_t)x->v);
	return json_real(pc_round7(x->v));
}

/* A cell's marks as their words, without the spaces and brackets around
 * them (" (noisy)": "noisy"). */
static json_t *json_marks(const struct pc_table *t, unsigned marks)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < t->nmarks; i++) {
		const char *w = t->marks[i].word, *e;

		if (!(marks & (1u << i)))
			continue;
		while (*w == ' ' || *w == '(')
			w++;
		for (e = w + strlen(w); e > w && (e[-1] == ' ' || e[-1] == ')'); e--)
			;
		json_array_append_new(a, json_stringn(w, (size_t)(e - w)));
	}
	return a;
}

void pc_table_draw_json(FILE *f, const struct pc_table *t)
{
	json_t *rows = json_array(), *row, *v;
	char buf[128], more[160];
	const char *key;
	size_t r, c;

	for (r = 0; rows && r < t->nrows; r++) {
		if (!(row = json_object()))
			break;
		for (c = 0; c < t->ncols; c++) {
			const struct pc_table_cell *x = pc_table_at(t, r, c);

			key = json_key(t, c, buf, sizeof(buf));
			if ((v = json_cell(t, r, c)))
				json_object_set_new(row, key, v);
			if (x->marks) {
				snprintf(more, sizeof(more), "%s_marks", key);
				json_object_set_new(row, more, json_marks(t, x->marks));
			}
			if (x->note && x->note <= t->nnotes) {
				snprintf(more, sizeof(more), "%s_note", key);
				json_object_set_new(row, more, json_string(t->notes[x->note - 1]));
			}
		}
		json_array_append_new(rows, row);
	}
	if (rows)
		json_dumpf(rows, f, JSON_INDENT(1));
	fputc('\n', f);
	json_decref(rows);
}

/* ---- one call for every format ------------------------------------------------------ */

void pc_table_draw(FILE *f, const struct pc_table *t, enum pc_format fmt)
{
	if (fmt == PC_FORMAT_JSON)
		pc_table_draw_json(f, t);
	else if (fmt == PC_FORMAT_CSV)
		pc_table_draw_csv(f, t, true);
	else if (fmt == PC_FORMAT_MARKDOWN)
		pc_table_draw_markdown(f, t);
	else if (fmt == PC_FORMAT_HTML)
		pc_table_draw_html(f, t, NULL);
	else
		pc_table_draw_text(f, t);
}

/* ---- a view ------------------------------------------------------------------------ */

void pc_view_init(struct pc_view *v, FILE *f, enum pc_format fmt)
{
	memset(v, 0, sizeof(*v));
	v->f = f;
	v->fmt = fmt;
	if (fmt == PC_FORMAT_JSON) {
		v->tables = json_array();
		v->notes = json_array();
		v->failed = !v->tables || !v->notes;
	}
}

const char *pc_view_quote(const struct pc_view *v)
{
	return v->fmt == PC_FORMAT_MARKDOWN ? "> " : "";
}

void pc_view_printf(struct pc_view *v, const char *fmt, ...)
{
	va_list ap;
	char *s;
	size_t n;

	if (v->fmt == PC_FORMAT_CSV)
		return;
	va_start(ap, fmt);
	if (v->fmt != PC_FORMAT_JSON) {
		vfprintf(v->f, fmt, ap);
		va_end(ap);
		return;
	}
	if (vasprintf(&s, fmt, ap) < 0) {
		va_end(ap);
		v->failed = 1;
		return;
	}
	va_end(ap);
	for (n = strlen(s); n && (s[n - 1] == '\n' || s[n - 1] == ' '); n--)
		s[n - 1] = 0;
	if (*s && json_array_append_new(v->notes, json_string(s)) < 0)
		v->failed = 1;
	free(s);
}

void pc_view_wrap(struct pc_view *v, const char *lead, const char *s, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (v->fmt == PC_FORMAT_CSV)
		return;
	if (!(m = open_memstream(&buf, &len))) {
		v->failed = 1;
		return;
	}
	pc_text_wrap(m, lead, s, indent, v->fmt == PC_FORMAT_TABLE ? pc_table_fit() : 0);
	if (fclose(m) == 0)
		pc_view_printf(v, "%s", buf);
	else
		v->failed = 1;
	free(buf);
}

/* A row's label for CSV: its stub cells' words, a space between. */
static void row_label(const struct pc_table *t, size_t r, char *out, size_t len)
{
	char buf[CELL_BUF];
	size_t c, o = 0;

	out[0] = 0;
	for (c = 0; c < t->ncols && (t->cols[c].flags & PC_COL_STUB) && o < len; c++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "",
				      content(t, r, c, true, buf, sizeof(buf)));
	if (!o && t->ncols)
		snprintf(out, len, "%s", content(t, r, 0, true, buf, sizeof(buf)));
}

/* The tidy CSV: a line a cell that holds something. */
static void view_csv(struct pc_view *v, const struct pc_table *t, const char *title)
{
	char label[512], col[256], buf[64], m[64];
	size_t r, c, first = 0;

	if (!v->csv_head) {
		fputs("table,row,column,value,marks,note\n", v->f);
		v->csv_head = true;
	}
	while (first < t->ncols && (t->cols[first].flags & PC_COL_STUB))
		first++;
	if (first == 0)
		first = 1;	/* no stubs: the first column names the row */
	for (r = 0; r < t->nrows; r++) {
		row_label(t, r, label, sizeof(label));
		for (c = first; c < t->ncols; c++) {
			const struct pc_table_cell *x = pc_table_at(t, r, c);
			const struct pc_table_col *k = &t->cols[c];

			if (!x->text && isnan(x->v) && !x->note)
				continue;
			snprintf(col, sizeof(col), "%s%s%s", named_group(k) ? named_group(k) : "",
				 named_group(k) ? " " : "", k->wide_head ? k->wide_head : k->head ?
				 k->head : "");
			marks_of(t, &(struct pc_table_cell){ .marks = x->marks }, false, m,
				 sizeof(m));
			pc_csv_field(v->f, title ? title : "");
			fputc(',', v->f);
			pc_csv_field(v->f, label);
			fputc(',', v->f);
			pc_csv_field(v->f, col);
			fputc(',', v->f);
			pc_csv_field(v->f, x->text || x->wide ? content(t, r, c, true, buf,
									 sizeof(buf)) :
				     (snprintf(buf, sizeof(buf), "%.7g", x->v), buf));
			fputc(',', v->f);
			pc_csv_field(v->f, m);
			fputc(',', v->f);
			pc_csv_field(v->f, x->note && x->note <= t->nnotes ? t->notes[x->note - 1] :
				     "");
			fputc('\n', v->f);
		}
	}
}

void pc_view_table(struct pc_view *v, const struct pc_table *t, const char *title)
{
	json_t *o, *rows;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	switch (v->fmt) {
	case PC_FORMAT_CSV:
		view_csv(v, t, title);
		return;
	case PC_FORMAT_JSON:
		m = open_memstream(&buf, &len);
		if (!m) {
			v->failed = 1;
			return;
		}
		pc_table_draw_json(m, t);
		if (fclose(m) != 0 || !(rows = json_loads(buf, 0, NULL))) {
			free(buf);
			v->failed = 1;
			return;
		}
		free(buf);
		o = json_pack("{s:s, s:o, s:o}", "title", title ? title : "", "notes", v->notes,
			      "rows", rows);
		v->notes = json_array();
		if (!o || !v->notes || json_array_append_new(v->tables, o) < 0)
			v->failed = 1;
		return;
	case PC_FORMAT_TABLE:
		pc_table_draw_text(v->f, t);
		return;
	default:
		pc_table_draw(v->f, t, v->fmt);
		return;
	}
}

int pc_view_end(struct pc_view *v)
{
	int failed = v->failed;

	if (v->fmt == PC_FORMAT_JSON && !failed) {
		/* words after the last table: a table of their own, without rows */
		if (json_array_size(v->notes))
			json_array_append_new(v->tables, json_pack("{s:s, s:O, s:[]}", "title",
								    "", "notes", v->notes, "rows"));
		json_dumpf(v->tables, v->f, JSON_INDENT(1));
		fputc('\n', v->f);
	}
	json_decref(v->tables);
	json_decref(v->notes);
	v->tables = v->notes = NULL;
	return failed || ferror(v->f) ? -1 : 0;
}

int pc_view_show(FILE *f, enum pc_format fmt, int (*draw)(struct pc_view *, json_t *),
		 json_t *doc)
{
	struct pc_view v;
	int rc;

	pc_view_init(&v, f, fmt);
	rc = draw(&v, doc);
	return pc_view_end(&v) < 0 ? -1 : rc;
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

void pc_html_ascii(FILE *f, const char *s)
{
	html_text(f, s, true);
}

/* A cell's words with their inline emphasis as <strong>. */
static void html_marked(FILE *f, const char *s, bool ascii)
{
	char *seg;
	size_t n;

	while (*s) {
		n = strcspn(s, PC_STRONG_ON PC_STRONG_OFF);
		if (n && (seg = strndup(s, n))) {
			html_text(f, seg, ascii);
			free(seg);
		}
		s += n;
		if (*s)
			fputs(*s++ == PC_STRONG_ON[0] ? "<strong>" : "</strong>", f);
	}
}

/* A row's <tr>, naming its first cell when the table says so. */
static void html_row(FILE *f, const struct pc_table *t, size_t r)
{
	char buf[CELL_BUF];

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
	char buf[CELL_BUF], m[64];

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
	if (x->glyph) {
		fputs("<span class=\"g\"", f);
		if (x->glyph_colour) {
			fputs(" style=\"color:", f);
			pc_html_escape(f, x->glyph_colour);
			fputc('"', f);
		}
		fputc('>', f);
		html_text(f, x->glyph, true);
		fputs("</span> ", f);
	}
	html_marked(f, marked_content(t, r, c, true, buf, sizeof(buf)), flags & PC_COL_ASCII);
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
			if (t->cols[c].flags & PC_COL_DATA)
				continue;
			fprintf(f, "<th colspan=\"%zu\">", k - c);
			pc_html_escape(f, t->cols[c].group);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("<tr>", f);
	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c].flags & PC_COL_DATA)
			continue;
		fputs("<th>", f);
		pc_html_escape(f, t->cols[c].wide_head ? t->cols[c].wide_head : t->cols[c].head);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < t->nrows; r++) {
		html_row(f, t, r);
		for (c = 0; c < t->ncols; c++)
			if (!(t->cols[c].flags & PC_COL_DATA))
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
