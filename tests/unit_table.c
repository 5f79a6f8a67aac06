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

int main(void)
{
	static const struct pc_table_col cols[] = {
		{ "glibc", "malloc", 7, PC_CELL_CYCLES },
		{ "glibc", "pair", 8, PC_CELL_CYCLES },
		{ "ratio", "B/A", 7, PC_CELL_RATIO },
	};
	struct pc_table t;
	char *s;
	long r;

	ok(pc_table_init(&t, "size", 6, "  ", cols, 3) == 0, "a table of 3 columns");
	r = pc_table_row(&t, "8");
	*pc_table_cell(&t, (size_t)r, 0) = 13.54;
	*pc_table_cell(&t, (size_t)r, 1) = 128.4;
	*pc_table_cell(&t, (size_t)r, 2) = 0.5;
	r = pc_table_row(&t, "16384");
	*pc_table_cell(&t, (size_t)r, 2) = 0.001;
	r = pc_table_row(&t, "32");
	*pc_table_cell(&t, (size_t)r, 0) = 99.96;
	*pc_table_cell(&t, (size_t)r, 2) = 12.345;
	ok(t.nrows == 3 && isnan(*pc_table_cell(&t, 1, 0)), "rows start with no figure");

	s = drawn(&t, pc_table_text);
	same(s, "        glibc            ratio  \n"
		"  size   malloc    pair      B/A\n"
		"     8     13.5     128    0.50x\n"
		" 16384        -       -   <0.01x\n"
		"    32    100.0       -    12.3x\n",
	     "text: group headings over their columns, a gap before each group, "
	     "one decimal under 100, '-' for no figure, ratios as x");
	free(s);
	s = drawn(&t, pc_table_markdown);
	same(s, "| size | glibc malloc | glibc pair | ratio B/A |\n"
		"|---:|---:|---:|---:|\n"
		"| 8 | 13.5 | 128 | 0.50x |\n"
		"| 16384 | - | - | <0.01x |\n"
		"| 32 | 100.0 | - | 12.3x |\n",
	     "markdown: a column's heading is its group's and its own");
	free(s);
	pc_table_free(&t);

	ok(pc_table_init(&t, "n", 3, " ", (const struct pc_table_col[]){
		{ NULL, "a", 5, PC_CELL_CYCLES } }, 1) == 0, "a table without groups");
	r = pc_table_row(&t, "1");
	*pc_table_cell(&t, (size_t)r, 0) = 2;
	s = drawn(&t, pc_table_text);
	same(s, "  n     a\n  1   2.0\n", "text without groups: no line of group headings");
	free(s);
	pc_table_free(&t);
	return done_testing();
}
