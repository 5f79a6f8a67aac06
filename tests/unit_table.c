/* SPDX-License-Identifier: MIT */
/* unit_table.c - the table model's text and markdown views (table.h),
 * drawn into memory and compared with what they must print. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/table.h"
#include "tap.h"

/* What draw prints of t. */
static char *drawn(const struct pc_table *t, void (*draw)(FILE *, const struct pc_table *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	draw(f, t);
	fclose(f);
	return buf;
}

static int same(const char *got, const char *want, const char *what)
{
	int pass = got && strcmp(got, want) == 0;

	ok(pass, "%s", what);
	if (!pass)
		printf("# got:\n%s# want:\n%s", got ? got : "(nothing)\n", want);
	return pass;
}

/* The CSV view with its headings, the HTML view of class "figures". */
static void csv_headed(FILE *f, const struct pc_table *t)
{
	pc_table_draw_csv(f, t, true);
}

static void html_figures(FILE *f, const struct pc_table *t)
{
	pc_table_draw_html(f, t, "figures");
}

/* Groups, ratios, '-' for no figure (the allocator group's shape). */
static void grouped(void)
{
	static const struct pc_table_col cols[] = {
		{ NULL, "size", 6, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL, NULL, NULL },
		{ "glibc", "malloc", 7, PC_CELL_CYCLES, 0, 0, NULL, NULL, NULL, NULL },
		{ "glibc", "malloc+free", 12, PC_CELL_CYCLES, 0, 0, NULL, NULL, NULL, NULL },
		{ "ratio", "B/A", 7, PC_CELL_RATIO, 0, 0, NULL, NULL, NULL, NULL },
	};
	struct pc_table t;
	char *s;
	long r;

	ok(pc_table_init(&t, "  ", cols, 4) == 0, "a table of 4 columns");
	r = pc_table_row(&t);
	pc_table_at(&t, (size_t)r, 0)->v = 8;
	pc_table_at(&t, (size_t)r, 1)->v = 13.54;
	pc_table_at(&t, (size_t)r, 2)->v = 128.4;
	pc_table_at(&t, (size_t)r, 3)->v = 0.5;
	r = pc_table_row(&t);
	pc_table_at(&t, (size_t)r, 0)->v = 16384;
	pc_table_at(&t, (size_t)r, 3)->v = 0.001;
	r = pc_table_row(&t);
	pc_table_at(&t, (size_t)r, 0)->v = 32;
	pc_table_at(&t, (size_t)r, 1)->v = 99.96;
	pc_table_at(&t, (size_t)r, 3)->v = 12.345;
	ok(t.nrows == 3 && isnan(pc_table_at(&t, 1, 1)->v), "rows start with no figure");

	s = drawn(&t, pc_table_draw_text);
	same(s, "        glibc                ratio\n"
		"  size   malloc malloc+free      B/A\n"
		"     8     13.5         128    0.50x\n"
		" 16384        -           -   <0.01x\n"
		"    32    100.0           -    12.3x\n",
	     "text: group headings over their columns, a gap before each group, "
	     "one decimal under 100, '-' for no figure, ratios as x");
	free(s);
	s = drawn(&t, pc_table_draw_markdown);
	same(s, "| size | glibc malloc | glibc malloc+free | ratio B/A |\n"
		"|---:|---:|---:|---:|\n"
		"| 8 | 13.5 | 128 | 0.50x |\n"
		"| 16384 | - | - | <0.01x |\n"
		"| 32 | 100.0 | - | 12.3x |\n",
	     "markdown: a column's heading is its group's and its own");
	free(s);
	t.fit = 28;
	s = drawn(&t, pc_table_draw_text);
	same(s, "        glibc\n"
		"  size   malloc malloc+free\n"
		"     8     13.5         128\n"
		" 16384        -           -\n"
		"    32    100.0           -\n"
		"\n"
		"        ratio\n"
		"  size      B/A\n"
		"     8    0.50x\n"
		" 16384   <0.01x\n"
		"    32    12.3x\n",
	     "text fitted to 28 columns: pages of whole groups, the stub on each");
	free(s);
	t.fit = 16;
	s = drawn(&t, pc_table_draw_text);
	ok(s && strstr(s, "  size   malloc\n") && strstr(s, "  size   malloc+free\n") &&
	   strstr(s, "        glibc\n"),
	   "text fitted to 16 columns: a group wider than a page is split");
	free(s);
	pc_table_free(&t);
}

/* Two stub columns, a mark slot, words in place of a figure, pages of two
 * columns with the stubs repeated, headings cut (the contended group's
 * shape). */
static void paged(void)
{
	static const struct pc_table_mark marks[] = { { "*", "*" } };
	static const struct pc_table_col cols[] = {
		{ NULL, "threads", 7, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL, NULL, NULL },
		{ NULL, "placement", 9, PC_CELL_FIXED, PC_COL_STUB | PC_COL_LEFT, 0, " ", NULL, NULL, NULL },
		{ NULL, "ticket", 8, PC_CELL_CYCLES, PC_COL_MARK, 0, " ", NULL, NULL, NULL },
		{ NULL, "qspinlock", 8, PC_CELL_CYCLES, PC_COL_MARK, 0, " ", "A qspinlock", NULL, NULL },
		{ NULL, "mutex", 8, PC_CELL_CYCLES, PC_COL_MARK, 0, " ", NULL, NULL, NULL },
	};
	struct pc_table t;
	char *s;

	ok(pc_table_init(&t, " ", cols, 5) == 0, "a table of 2 stubs and 3 columns");
	t.page = 2;
	t.marks = marks;
	t.nmarks = 1;
	pc_table_row(&t);
	pc_table_at(&t, 0, 0)->v = 2;
	pc_table_text(&t, 0, 1, "compact");
	pc_table_at(&t, 0, 2)->v = 41.26;
	pc_table_at(&t, 0, 2)->marks = 1;
	pc_table_text(&t, 0, 3, "FAILED");
	ok(pc_table_insert(&t, 0) == 0, "a row inserted before the first");
	pc_table_at(&t, 0, 0)->v = 1;
	pc_table_text(&t, 0, 1, "spread");
	pc_table_at(&t, 0, 4)->v = 250;
	s = drawn(&t, pc_table_draw_text);
	same(s, "threads placement   ticket qspinloc\n"
		"      1 spread          -        -\n"
		"      2 compact      41.3*  FAILED\n"
		"\n"
		"threads placement    mutex\n"
		"      1 spread        250\n"
		"      2 compact         -\n",
	     "text: stubs on every page, the mark in its slot, headings cut to the width");
	free(s);
	t.drop_empty = true;
	s = drawn(&t, pc_table_draw_text);
	ok(s && strstr(s, "mutex\n      1 spread        250\n") && !strstr(s, "mutex\n      1 spread        250\n      2"),
	   "text: a row with nothing on a page left out of that page");
	free(s);
	s = drawn(&t, pc_table_draw_markdown);
	same(s, "| threads | placement | ticket | A qspinlock | mutex |\n"
		"|---:|---|---:|---:|---:|\n"
		"| 1 | spread | - | - | 250 |\n"
		"| 2 | compact | 41.3* | FAILED | - |\n",
	     "markdown: left-aligned stub, the heading in full, the mark's word");
	free(s);
	pc_table_free(&t);
}

/* Words with a wide form, marks appended, emphasis, footnotes, empty
 * words, UTF-8 widths, CSV and HTML (compare's shape). */
static void worded(void)
{
	static const struct pc_table_mark marks[] = { { "~", " (noisy)" },
						      { "^", " (not linear)" } };
	static const struct pc_table_col cols[] = {
		{ NULL, "probe", 8, PC_CELL_FIXED, PC_COL_STUB | PC_COL_LEFT | PC_COL_CODE,
		  0, NULL, NULL, NULL, NULL },
		{ NULL, "B cycles", 13, PC_CELL_FIXED, 0, 2, "", NULL, NULL, NULL },
		{ NULL, "\xce\x94%", 5, PC_CELL_GENERAL, 0, 3, "", NULL, NULL, NULL },
		{ NULL, "verdict", 7, PC_CELL_FIXED, PC_COL_LEFT, 0, " ", NULL, NULL, NULL },
	};
	struct pc_table t;
	unsigned n;
	char *s;

	ok(pc_table_init(&t, NULL, cols, 4) == 0, "a table of words");
	t.marks = marks;
	t.nmarks = 2;
	pc_table_row(&t);
	pc_table_row(&t);
	pc_table_text(&t, 0, 0, "cas");
	pc_table_text(&t, 0, 1, "12.00 \xc2\xb1" "0.10");
	pc_table_at(&t, 0, 1)->marks = 3;
	pc_table_at(&t, 0, 2)->v = 12.345;
	pc_table_text(&t, 0, 3, "slower");
	pc_table_at(&t, 0, 3)->emph = PC_EMPH_ALERT;
	pc_table_text(&t, 1, 0, "geomean");
	pc_table_wide(&t, 1, 0, "*geomean*");
	pc_table_text(&t, 1, 1, "%s", "");
	pc_table_text(&t, 1, 3, "n/c");
	n = pc_table_note(&t, "not comparable: no samples");
	ok(n == 1 && pc_table_note(&t, "not comparable: no samples") == 1,
	   "a footnote's number, the same for the same text");
	pc_table_at(&t, 1, 3)->note = n;
	pc_table_wide(&t, 1, 3, "not comparable");
	s = drawn(&t, pc_table_draw_text);
	same(s, "probe        B cycles   \xce\x94% verdict\n"
		"cas     12.00 \xc2\xb1" "0.10~^ 12.3 slower\n"
		"geomean                  - n/c[1]\n"
		"[1] not comparable: no samples\n",
	     "text: marks as symbols after the words, widths in characters, "
	     "footnotes numbered under the table");
	free(s);
	t.color = true;
	s = drawn(&t, pc_table_draw_text);
	ok(s && strstr(s, "\033[1;31mslower \033[0m"), "text: an alert in red on a terminal");
	free(s);
	s = drawn(&t, pc_table_draw_markdown);
	same(s, "| probe | B cycles | \xce\x94% | verdict |\n"
		"|---|---:|---:|---|\n"
		"| `cas` | 12.00 \xc2\xb1" "0.10 (noisy) (not linear) | 12.3 | **slower** |\n"
		"| *geomean* | | - | not comparable[1] |\n"
		"\n- [1] not comparable: no samples\n",
	     "markdown: words for marks, code, bold alerts, the wide words, an empty cell");
	free(s);
	s = drawn(&t, csv_headed);
	same(s, "probe,B cycles,\xce\x94%,verdict\n"
		"cas,12.00 \xc2\xb1" "0.10,12.3,slower\n"
		"*geomean*,,-,not comparable\n",
	     "csv: a line of headings, the words in full, no marks");
	free(s);
	s = drawn(&t, html_figures);
	ok(s && strstr(s, "<table class=\"figures\">\n<tr><th>probe</th>") &&
	   strstr(s, "<td><code>cas</code></td><td class=\"n\">12.00 \xc2\xb1" "0.10 (noisy)"
		  " (not linear)</td>") &&
	   strstr(s, "<td class=\"alert\">slower</td>") &&
	   strstr(s, "<p class=\"note\">[1] not comparable: no samples</p>"),
	   "html: cells with classes, code, marks as words, footnotes under the table");
	free(s);
	pc_table_free(&t);
}

/* A long stub on a line of its own, pages chosen by the caller, the
 * widest cell with its footnote (the compare matrix's shape). */
static void own_pages(void)
{
	static const struct pc_table_col cols[] = {
		{ NULL, "probe", 6, PC_CELL_FIXED, PC_COL_STUB | PC_COL_LEFT | PC_COL_ALONE,
		  0, NULL, NULL, NULL, NULL },
		{ NULL, "A", 6, PC_CELL_FIXED, 0, 2, " ", NULL, NULL, NULL },
		{ NULL, "B", 6, PC_CELL_FIXED, 0, 2, " ", NULL, NULL, NULL },
		{ NULL, "C", 6, PC_CELL_FIXED, 0, 2, " ", NULL, NULL, NULL },
	};
	struct pc_table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ok(pc_table_init(&t, NULL, cols, 4) == 0, "a table of a stub and 3 columns");
	pc_table_row(&t);
	pc_table_row(&t);
	pc_table_text(&t, 0, 0, "mb");
	pc_table_text(&t, 1, 0, "local_irq_save");
	pc_table_at(&t, 0, 1)->v = 77.923;
	pc_table_at(&t, 1, 1)->note = pc_table_note(&t, "unsupported: no such thing");
	pc_table_at(&t, 1, 2)->v = 102;
	pc_table_at(&t, 0, 3)->v = 1234.5;
	pc_table_at(&t, 0, 3)->note = pc_table_note(&t, "noisy");
	ok(pc_table_widest(&t, 0) == 14 && pc_table_widest(&t, 1) == 5 &&
	   pc_table_widest(&t, 3) == 10, "the widest cell, its footnote mark counted");
	f = open_memstream(&buf, &len);
	if (f) {
		pc_table_draw_text_page(f, &t, 1, 2);
		fputc('\n', f);
		pc_table_draw_text_page(f, &t, 3, 2);
		fclose(f);
	}
	same(buf, "probe       A      B\n"
		  "mb      77.92      -\n"
		  "local_irq_save\n"
		  "         -[1] 102.00\n"
		  "\n"
		  "probe       C\n"
		  "mb     1234.50[2]\n"
		  "local_irq_save\n"
		  "            -\n",
	     "text pages: the stub on each, a long stub on a line of its own, no footnotes");
	free(buf);
	pc_table_free(&t);
}

/* Columns added to a table that has rows: the rows' cells stay where they
 * were, the new column's are empty, its headings are the table's own copy. */
static void added(void)
{
	static const struct pc_table_col stub = {
		NULL, "threads", 7, PC_CELL_FIXED, PC_COL_STUB, 0, NULL, NULL, NULL, NULL };
	struct pc_table_col col = { NULL, NULL, 8, PC_CELL_CYCLES, 0, 0, " ", NULL, NULL, NULL };
	char head[16], wide[16];
	struct pc_table t;
	long c1, c2;
	char *s;

	ok(pc_table_init(&t, " ", &stub, 1) == 0, "a table of one stub");
	pc_table_row(&t);
	pc_table_row(&t);
	pc_table_at(&t, 0, 0)->v = 1;
	pc_table_at(&t, 1, 0)->v = 2;
	strcpy(head, "tas");
	col.head = head;
	c1 = pc_table_col_add(&t, &col);
	pc_table_at(&t, 1, (size_t)c1)->v = 31.94;
	strcpy(head, "ticket");
	strcpy(wide, "lock.ticket");
	col.wide_head = wide;
	c2 = pc_table_col_add(&t, &col);
	strcpy(head, "spoiled");
	strcpy(wide, "spoiled");
	ok(c1 == 1 && c2 == 2 && t.ncols == 3, "columns added after the stub, in order");
	pc_table_at(&t, 0, (size_t)c2)->v = 2752;
	ok(pc_table_insert(&t, 1) == 1, "a row inserted among them");
	pc_table_at(&t, 1, 0)->v = 4;
	s = drawn(&t, pc_table_draw_text);
	same(s, "threads      tas   ticket\n"
		"      1        -     2752\n"
		"      4        -        -\n"
		"      2     31.9        -\n",
	     "text: the rows' figures kept in place, the new cells empty, "
	     "the headings copied");
	free(s);
	s = drawn(&t, pc_table_draw_markdown);
	same(s, "| threads | tas | lock.ticket |\n"
		"|---:|---:|---:|\n"
		"| 1 | - | 2752 |\n"
		"| 4 | - | - |\n"
		"| 2 | 31.9 | - |\n",
	     "markdown: an added column's heading in full");
	free(s);
	pc_table_free(&t);
}

/* A table in a page of its own: rows named by a data- attribute, a cell's
 * own class, a column written in ASCII, footnotes that link to the page's
 * list (report's figures and comparison tables). */
static void in_page(void)
{
	static const struct pc_table_mark marks[] = { { "~", " (noisy)" } };
	static const struct pc_table_col cols[] = {
		{ .head = "probe", .flags = PC_COL_STUB | PC_COL_LEFT },
		{ .head = "A median \xc2\xb1MAD", .style = PC_CELL_FIXED,
		  .flags = PC_COL_ASCII, .digits = 2 },
		{ .head = "verdict", .flags = PC_COL_LEFT | PC_COL_ASCII },
	};
	struct pc_table t;
	char *s;

	ok(pc_table_init(&t, " ", cols, 3) == 0, "a table for a page");
	t.marks = marks;
	t.nmarks = 1;
	t.note_href = "#note-";
	t.row_data = "probe";
	pc_table_row(&t);
	pc_table_row(&t);
	pc_table_text(&t, 0, 0, "cas");
	pc_table_text(&t, 0, 1, "12.00 \xc2\xb1" "0.10");
	pc_table_at(&t, 0, 1)->marks = 1;
	pc_table_at(&t, 0, 1)->note = 3;
	pc_table_text(&t, 0, 2, "\xe2\x96\xb2 slower");
	pc_table_at(&t, 0, 2)->cls = "slower";
	pc_table_text(&t, 1, 0, "a<b");
	pc_table_at(&t, 1, 1)->v = 7;
	pc_table_text(&t, 1, 2, "x<\xf0\x9f\x98\x80\xff");
	s = drawn(&t, html_figures);
	same(s, "<table class=\"figures\">\n"
		"<tr><th>probe</th><th>A median \xc2\xb1MAD</th><th>verdict</th></tr>\n"
		"<tr data-probe=\"cas\"><td>cas</td>"
		"<td class=\"n\">12.00 &#177;0.10 (noisy)<sup><a href=\"#note-3\">[3]</a></sup></td>"
		"<td class=\"slower\">&#9650; slower</td></tr>\n"
		"<tr data-probe=\"a&lt;b\"><td>a&lt;b</td><td class=\"n\">7.00</td>"
		"<td>x&lt;&#128512;\xff</td></tr>\n"
		"</table>\n",
	     "html: rows named by data-probe, a cell's class, ASCII columns with numeric "
	     "references, a footnote as a link and no list under the table");
	free(s);
	pc_table_free(&t);
}

/* A table whose rows are not probes (a row per size, a column per
 * allocator): each figure names its probe as a data- attribute. */
static void named_cells(void)
{
	static const struct pc_table_col cols[] = {
		{ .head = "size", .flags = PC_COL_STUB | PC_COL_LEFT },
		{ .group = "alloc.malloc.*", .head = "A glibc" },
	};
	struct pc_table t;
	char *s;

	ok(pc_table_init(&t, " ", cols, 2) == 0, "a table of points");
	t.cell_data = "probe";
	pc_table_row(&t);
	pc_table_row(&t);
	pc_table_text(&t, 0, 0, "64");
	pc_table_text(&t, 0, 1, "20.00");
	pc_table_data(&t, 0, 1, "alloc.malloc.glibc.%d", 64);
	pc_table_text(&t, 1, 0, "128");
	s = drawn(&t, html_figures);
	same(s, "<table class=\"figures\">\n"
		"<tr><th colspan=\"1\"></th><th colspan=\"1\">alloc.malloc.*</th></tr>\n"
		"<tr><th>size</th><th>A glibc</th></tr>\n"
		"<tr><td>64</td><td class=\"n\" data-probe=\"alloc.malloc.glibc.64\">20.00</td></tr>\n"
		"<tr><td>128</td><td class=\"n\">-</td></tr>\n"
		"</table>\n",
	     "html: a cell names its probe by data-probe, a cell without one names none");
	free(s);
	pc_table_free(&t);
}

/* Prose wrapped to a width: words moved whole, a word wider than any line
 * (a long path) cut where the lines end, characters counted, not bytes. */
static void wrapped(void)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return;
	pc_text_wrap(f, "A =", "/a/very/long/path/±/file.json: key", 4, 16);
	fclose(f);
	same(s, "A = /a/very/long\n    /path/±/file\n    .json: key\n",
	     "wrap: a word wider than the width cut at the line's end, the rest indented");
	free(s);
}

/* A listing: name and status in the line; the description in it where the
 * line fits the width, else under the row; a detail always under it after
 * its label; a wrapping column within its width. */
static void listing(void)
{
	static const struct pc_table_col cols[] = {
		{ .head = "name", .width = 8, .style = PC_CELL_FIXED, .flags = PC_COL_LEFT },
		{ .head = "status", .width = 6, .style = PC_CELL_FIXED, .flags = PC_COL_LEFT,
		  .gap = " " },
		{ .head = "description", .style = PC_CELL_FIXED,
		  .flags = PC_COL_LEFT | PC_COL_FLOW, .gap = " " },
		{ .head = "sequence", .style = PC_CELL_FIXED, .flags = PC_COL_LEFT | PC_COL_UNDER,
		  .under = "sequence:" },
		{ .head = "api", .style = PC_CELL_FIXED, .flags = PC_COL_LEFT | PC_COL_UNDER,
		  .under = "api:", .key = "kernel_api" },
	};
	struct pc_table t;
	char *s;

	if (pc_table_init(&t, " ", cols, 5) < 0 || pc_table_row(&t) < 0 || pc_table_row(&t) < 0)
		return;
	t.under_indent = 2;
	pc_table_text(&t, 0, 0, "cmpxchg");
	pc_table_text(&t, 0, 1, "ok");
	pc_table_text(&t, 0, 2, "compare-and-swap that succeeds");
	pc_table_text(&t, 0, 3, "lock cmpxchg");
	pc_table_text(&t, 0, 4, "cmpxchg()");
	pc_table_text(&t, 1, 0, "xchg");
	pc_table_text(&t, 1, 1, "ok");
	pc_table_text(&t, 1, 2, "exchange");
	t.fit = 60;
	same(s = drawn(&t, pc_table_draw_text),
	     "name     status description\n"
	     "cmpxchg  ok     compare-and-swap that succeeds\n"
	     "  sequence: lock cmpxchg\n"
	     "  api:      cmpxchg()\n"
	     "xchg     ok     exchange\n",
	     "list: the description in the line where it fits, details under it, labels aligned");
	free(s);
	t.fit = 30;
	same(s = drawn(&t, pc_table_draw_text),
	     "name     status\n"
	     "cmpxchg  ok\n"
	     "  compare-and-swap that\n"
	     "  succeeds\n"
	     "  sequence: lock cmpxchg\n"
	     "  api:      cmpxchg()\n"
	     "xchg     ok\n"
	     "  exchange\n",
	     "list: narrower, the description under its row, wrapped to the width");
	free(s);
	t.indent = 4;
	t.fit = 26;
	same(s = drawn(&t, pc_table_draw_text),
	     "    name     status\n"
	     "    cmpxchg  ok\n"
	     "      compare-and-swap\n"
	     "      that succeeds\n"
	     "      sequence: lock\n"
	     "                cmpxchg\n"
	     "      api:      cmpxchg()\n"
	     "    xchg     ok\n"
	     "      exchange\n",
	     "indented by 4 in 26 columns: every line within them, the indent counted");
	free(s);
	t.indent = 0;
	same(s = drawn(&t, pc_table_draw_json),
	     "[\n {\n  \"name\": \"cmpxchg\",\n  \"status\": \"ok\",\n"
	     "  \"description\": \"compare-and-swap that succeeds\",\n"
	     "  \"sequence\": \"lock cmpxchg\",\n  \"kernel_api\": \"cmpxchg()\"\n },\n"
	     " {\n  \"name\": \"xchg\",\n  \"status\": \"ok\",\n"
	     "  \"description\": \"exchange\"\n }\n]\n",
	     "json: an object a row, keys from the headings or the column's own, no empty cell");
	free(s);
	same(s = drawn(&t, csv_headed),
	     "name,status,description,sequence,api\n"
	     "cmpxchg,ok,compare-and-swap that succeeds,lock cmpxchg,cmpxchg()\n"
	     "xchg,ok,exchange,-,-\n", "csv: every column, under or not");
	free(s);
	pc_table_free(&t);
}

/* A label and its value, the value's words wrapped within the rest of the
 * width (info's lines). */
static void labelled(void)
{
	static const struct pc_table_col cols[] = {
		{ .head = "label", .width = 8, .style = PC_CELL_FIXED, .flags = PC_COL_LEFT },
		{ .head = "value", .style = PC_CELL_FIXED, .flags = PC_COL_LEFT | PC_COL_WRAP,
		  .gap = " " },
	};
	struct pc_table t;
	char *s;

	if (pc_table_init(&t, " ", cols, 2) < 0 || pc_table_row(&t) < 0 || pc_table_row(&t) < 0)
		return;
	t.no_head = true;
	t.fit = 30;
	pc_table_text(&t, 0, 0, "cpu");
	pc_table_text(&t, 0, 1, "AMD EPYC, family 26 model 2 stepping 1");
	pc_table_text(&t, 1, 0, "kernel");
	pc_table_text(&t, 1, 1, "Linux");
	same(s = drawn(&t, pc_table_draw_text),
	     "cpu      AMD EPYC, family 26\n"
	     "         model 2 stepping 1\n"
	     "kernel   Linux\n",
	     "wrap: a value's words within the rest of the width, under its column");
	free(s);
	pc_table_free(&t);
}

/* The format words every command takes, and the one line for a format a
 * command does not write; counts with their nouns. */
static void formats(void)
{
	enum pc_format f = PC_FORMAT_JSON;
	char err[128], buf[32];

	ok(pc_format_parse("text", &f) == 0 && f == PC_FORMAT_TABLE &&
	   pc_format_parse("html", &f) == 0 && f == PC_FORMAT_HTML &&
	   pc_format_parse("yaml", &f) < 0, "formats: text is table, html is one, yaml none");
	ok(pc_format_take("csv", PC_FMT(PC_FORMAT_TABLE) | PC_FMT(PC_FORMAT_JSON), &f, err,
			  sizeof(err)) < 0 &&
	   strcmp(err, "--format: want table or json, got 'csv'") == 0,
	   "a format the command does not write: %s", err);
	ok(pc_format_take("json", PC_FMT(PC_FORMAT_TABLE) | PC_FMT(PC_FORMAT_JSON) |
			  PC_FMT(PC_FORMAT_CSV), &f, err, sizeof(err)) == 0 && f == PC_FORMAT_JSON,
	   "... and one it writes");
	pc_format_take("x", PC_FMT(PC_FORMAT_TABLE) | PC_FMT(PC_FORMAT_JSON) |
		       PC_FMT(PC_FORMAT_CSV), &f, err, sizeof(err));
	ok(strcmp(err, "--format: want table, json or csv, got 'x'") == 0, "%s", err);
	ok(strcmp(pc_count_of(buf, sizeof(buf), 1, "probe", "probes"), "1 probe") == 0 &&
	   strcmp(pc_count_of(buf, sizeof(buf), 2, "CPU", "CPUs"), "2 CPUs") == 0 &&
	   strcmp(pc_count_of(buf, sizeof(buf), 0, "sample", "samples"), "0 samples") == 0,
	   "counts: 1 probe, 2 CPUs, 0 samples");
}

int main(void)
{
	wrapped();
	listing();
	labelled();
	formats();
	grouped();
	paged();
	worded();
	own_pages();
	added();
	in_page();
	named_cells();
	return done_testing();
}
