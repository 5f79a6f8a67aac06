/* SPDX-License-Identifier: MIT */
/*
 * report_summary.c - the top of primcost report's page (report_page.h):
 * the CPUs in a line each and the overview matrix (probe x CPU, each cell
 * shaded by its cost against the median of its row), the answers to the
 * published tables' questions. With the user's own files, their overview
 * leads (and the verdicts against A of a comparison), the answers follow,
 * then the published tables beside them; with published tables only, the
 * answers lead. The points of series (allocator sizes, thread counts) and
 * of pairs of CPUs are left to their charts: the matrix names them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_page.h"
#include "results/answers.h"
#include "results/table.h"

/* ---- answers ----------------------------------------------------------------- */

static void analog_item(FILE *f, const struct pc_compare *m,
			const struct pc_cmp_table *t, const struct pc_cmp_analog *a)
{
	char l[PC_LABEL_LEN], v[32];
	size_t i;
	int n = 0;

	fputs("<dd>", f);
	pc_html_escape(f, a->probe);
	fputs(" (ring 0) and its ring-3 analog ", f);
	pc_html_escape(f, a->analog);
	fputs(" (", f);
	pc_html_escape(f, a->how);
	fputs("; an analog, not the same probe): ", f);
	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_cell *c = &a->cell[i];

		if (c->state != PC_CELL_OK)
			continue;
		fprintf(f, "%s%s %s %s %s", n++ ? "; " : "", pc_side_label(i, l),
			a->is_analog[i] ? a->analog : a->probe,
			pc_fmt_figure(c->median, v, sizeof(v)), pc_metric_name(m->cfg.metric));
		if (a->is_analog[i])
			fputs(" (analog)", f);
	}
	fputs("</dd>\n", f);
}

/* The answers to row d's question (whichever of its rows a CPU measured)
 * from the sides of t (ans: pc_answer_count per side, n: how many each);
 * false when no side answers it. */
static bool question(FILE *f, const struct pc_cmp_table *t, size_t d,
		     const struct pc_answer *ans, const size_t *n)
{
	const struct pc_answer_def *def = &pc_answer_defs[d];
	char l[PC_LABEL_LEN], line[512];
	size_t i, k;
	bool any = false;

	for (i = 0; i < t->nsides; i++) {
		for (k = 0; k < n[i]; k++) {
			const struct pc_answer *a = &ans[i * pc_answer_count + k];

			if (!pc_answer_of(a, d))
				continue;
			if (!any) {
				fputs("<dt>", f);
				pc_html_escape(f, def->question);
				fputs(" <span class=\"src\">(", f);
				pc_html_escape(f, def->source);
				fputs(")</span></dt>\n", f);
			}
			any = true;
			pc_answer_line(a, line, sizeof(line));
			fputs("<dd data-cpu=\"", f);
			pc_html_escape(f, t->side[i].key);
			fprintf(f, "\"><span class=\"g\" style=\"color:%s\">", pc_page_colour(i));
			pc_html_ascii(f, pc_page_glyph(i));
			fprintf(f, "</span> %s, ", pc_side_label(i, l));
			pc_html_escape(f, pc_page_cpu_name(&t->side[i]));
			fputs(": ", f);
			pc_html_escape(f, line);
			fputs("</dd>\n", f);
		}
	}
	return any;
}

/* The questions of one table: each with the answers of its CPUs, then
 * those no CPU answers, in a line. */
static int table_answers(FILE *f, const struct pc_compare *m, const struct pc_cmp_table *t)
{
	struct pc_answer *ans = calloc(t->nsides * pc_answer_count + 1, sizeof(*ans));
	size_t *n = calloc(t->nsides + 1, sizeof(*n)), i, d, open = 0;
	bool *said = calloc(pc_answer_count + 1, sizeof(*said));

	if (!ans || !n || !said) {
		free(ans);
		free(n);
		free(said);
		return -1;
	}
	for (i = 0; i < t->nsides; i++)
		n[i] = t->side[i].entry ? pc_answers(t->side[i].entry,
						     &ans[i * pc_answer_count]) : 0;
	fputs("<dl class=\"answers\">\n", f);
	for (d = 0; d < pc_answer_count; d++)
		said[d] = !pc_answer_first(d) || question(f, t, d, ans, n);
	if (t->nanalogs)
		fputs("<dt>Ring-3 analogs</dt>\n", f);
	for (i = 0; i < t->nanalogs; i++)
		analog_item(f, m, t, &t->analog[i]);
	fputs("</dl>\n", f);
	for (d = 0; d < pc_answer_count; d++) {
		if (said[d])
			continue;
		fputs(open++ ? "; " : "<p>Not answered here (no CPU measured both "
		      "probes): ", f);
		pc_html_escape(f, pc_answer_defs[d].question);
		fputs(" (", f);
		pc_html_escape(f, pc_answer_defs[d].source);
		fputc(')', f);
	}
	if (open)
		fputs(".</p>\n", f);
	free(ans);
	free(n);
	free(said);
	return 0;
}

static int answers(FILE *f, const struct pc_compare *m)
{
	size_t c;

	fputs("<h3 id=\"answers\">Answers</h3>\n<p>The questions the published "
	      "measurements asked, answered from the figures of each CPU that measured "
	      "both probes (a run marked unreliable answers none).</p>\n", f);
	for (c = 0; c < m->ntables; c++) {
		if (*m->table[c].title) {
			fputs("<p><b>", f);
			pc_html_escape(f, m->table[c].title);
			fputs("</b></p>\n", f);
		}
		if (table_answers(f, m, &m->table[c]) < 0)
			return -1;
	}
	return 0;
}

/* ---- the CPUs, a line each --------------------------------------------------- */

/* A published table's source, by author, list and year: its summary up
 * to the first " (" or ": " ("Mathieu Desnoyers, linux-kernel 2007"). */
static int source_len(const char *summary)
{
	const char *p = strstr(summary, " ("), *c = strstr(summary, ": ");

	if (!p || (c && c < p))
		p = c;
	return p ? (int)(p - summary) : (int)strlen(summary);
}

/* A run's date as people write it: 2026-12-06T00:15:18.666Z as
 * "2026-12-06 00:15 UTC"; another form as it is. */
static void run_date(FILE *f, const char *iso)
{
	size_t n = strlen(iso);

	if (n >= 17 && iso[10] == 'T' && iso[n - 1] == 'Z' &&
	    strspn(iso, "0123456789-") == 10) {
		fprintf(f, "%.10s %.5s UTC", iso, iso + 11);
		return;
	}
	fputs(iso, f);
}

/* Where side s's figures come from, in words into m (a cell's: its
 * emphasis marked), a published table's source in full as a note of the
 * page: its number, or 0; -1 when out of memory. */
static int figures_from(FILE *m, struct pc_page *pg, const struct pc_cmp_side *s)
{
	char *src;
	int k;

	if (!s->entry) {
		fputs("absent from this file", m);
		return 0;
	}
	if (s->reference) {
		if (asprintf(&src, "source: %s", s->reference) < 0)
			return -1;
		k = pc_page_note(pg, src, false);
		free(src);
		fprintf(m, "published table: %.*s", source_len(s->reference), s->reference);
		return k;
	}
	fputs("a run", m);
	if (s->newest_date) {
		fputs(" of ", m);
		run_date(m, s->newest_date);
	}
	if (s->kernel)
		fprintf(m, ", kernel %s", s->kernel);
	if (s->virtualized == 1)
		fputs(", in a virtual machine", m);
	if (s->unreliable)
		fputs("; " PC_STRONG_ON "marked unreliable" PC_STRONG_OFF, m);
	if (s->partial_figures)
		fprintf(m, "; %zu figures from a partial run", s->partial_figures);
	return 0;
}

enum { KEY_CPU, KEY_LABEL, KEY_NAME, KEY_FROM, KEY_FILE, KEY_COLS };

/* The table naming each CPU of t that show holds: its glyph and letter,
 * its name, where its figures come from (a published table's source a
 * note of the page), its file; each row names the CPU's model key
 * (data-cpu). */
static int cpu_key(FILE *f, struct pc_page *pg, const struct pc_cmp_table *t,
		   const bool *show)
{
	static const struct pc_table_col cols[KEY_COLS] = {
		[KEY_CPU] = { .head = "model key", .flags = PC_COL_LEFT | PC_COL_DATA },
		[KEY_LABEL] = { .head = "CPU", .flags = PC_COL_LEFT },
		[KEY_NAME] = { .head = "name", .flags = PC_COL_LEFT },
		[KEY_FROM] = { .head = "figures from", .flags = PC_COL_LEFT },
		[KEY_FILE] = { .head = "file", .flags = PC_COL_LEFT },
	};
	struct pc_table tab;
	char l[PC_LABEL_LEN], *from = NULL;
	const char *base;
	size_t i, len = 0;
	FILE *m;
	long r;
	int k, rc = pc_table_init(&tab, NULL, cols, KEY_COLS);

	tab.row_data = "cpu";
	tab.note_href = "#note-";
	for (i = 0; rc == 0 && i < t->nsides; i++) {
		const struct pc_cmp_side *s = &t->side[i];

		if (!show[i])
			continue;
		if ((r = pc_table_row(&tab)) < 0 || !(m = open_memstream(&from, &len))) {
			rc = -1;
			break;
		}
		k = figures_from(m, pg, s);
		base = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;
		if (fclose(m) != 0 || k < 0 ||
		    pc_table_text(&tab, (size_t)r, KEY_CPU, "%s", s->key) < 0 ||
		    pc_table_text(&tab, (size_t)r, KEY_LABEL, "%s", pc_side_label(i, l)) < 0 ||
		    pc_table_text(&tab, (size_t)r, KEY_NAME, "%s", pc_page_cpu_name(s)) < 0 ||
		    pc_table_text(&tab, (size_t)r, KEY_FROM, "%s", from) < 0 ||
		    pc_table_text(&tab, (size_t)r, KEY_FILE, "%s", base) < 0)
			rc = -1;
		pc_table_at(&tab, (size_t)r, KEY_LABEL)->glyph = pc_page_glyph(i);
		pc_table_at(&tab, (size_t)r, KEY_LABEL)->glyph_colour = pc_page_colour(i);
		pc_table_at(&tab, (size_t)r, KEY_FROM)->note = k > 0 ? (unsigned)k : 0;
		free(from);
		from = NULL;
	}
	if (rc == 0)
		pc_page_table_draw(f, &tab, "key");
	pc_table_free(&tab);
	return rc;
}

/* ---- the overview matrix ----------------------------------------------------- */

/* A cell's shade: its figure against the median of its row, in steps of a
 * factor of 2 (within 0.8 to 1.25 times: about the same). */
static const char *shade(double v, double median)
{
	double l = log2(v / median);

	return l <= -2 ? "s-3" : l <= -1 ? "s-2" : l <= -0.32 ? "s-1" : l < 0.32 ? "s0" :
	       l < 1 ? "s1" : l < 2 ? "s2" : "s3";
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Whether row r of t is a point of a series or of a pair of CPUs. */
static bool is_point(const struct pc_cmp_table *t, size_t r)
{
	const struct pc_point_shape *shape;
	char series[160];
	double x;

	return pc_page_point(t->row[r].probe, series, sizeof(series), &shape, &x) ||
	       pc_page_pair(t, r, NULL, NULL);
}

/* A row of the matrix: a probe measured once per CPU (no point of a
 * series) with a figure on one of the CPUs. */
static bool matrix_row(const struct pc_cmp_table *t, size_t r)
{
	size_t i;

	if (is_point(t, r))
		return false;
	for (i = 0; i < t->nsides; i++)
		if (t->row[r].cell[i].state == PC_CELL_OK)
			return true;
	return false;
}

/* The matrix's row of row: its figures, each shaded against their median
 * where two or more CPUs have one; -1 when out of memory. */
static int matrix_fill(struct pc_table *tab, const struct pc_cmp_row *row,
		       const size_t *col, size_t ncol, double *v)
{
	long r = pc_table_row(tab);
	size_t j, n = 0;
	char fig[32];
	double median;

	if (r < 0 || pc_table_text(tab, (size_t)r, 0, "%s", row->probe) < 0)
		return -1;
	/* a figure below what the method resolves (a subtracted loop's 0.00)
	 * is no cost to shade against */
	for (j = 0; j < ncol; j++)
		if (row->cell[col[j]].state == PC_CELL_OK &&
		    row->cell[col[j]].median >= PC_COMPARE_FLOOR)
			v[n++] = row->cell[col[j]].median;
	qsort(v, n, sizeof(*v), by_value);
	median = n % 2 ? v[n / 2] : n ? (v[n / 2 - 1] + v[n / 2]) / 2 : NAN;
	for (j = 0; j < ncol; j++) {
		const struct pc_cmp_cell *c = &row->cell[col[j]];

		if (c->state != PC_CELL_OK)
			continue;
		if (pc_table_text(tab, (size_t)r, 1 + j, "%s",
				  pc_fmt_figure(c->median, fig, sizeof(fig))) < 0)
			return -1;
		if (n >= 2 && c->median >= PC_COMPARE_FLOOR)
			pc_table_at(tab, (size_t)r, 1 + j)->cls = shade(c->median, median);
	}
	return 0;
}

/* Rows of the matrix past which it is drawn in two halves side by side
 * (below each other where the page is too narrow for both). */
#define MATRIX_HALF 16

/* The matrix of t over the sides col, rows from to at most to; -1 when
 * out of memory. */
static int matrix_part(FILE *f, const struct pc_cmp_table *t, const size_t *col,
		       size_t ncol, size_t from, size_t to)
{
	struct pc_table_col *cols = calloc(ncol + 1, sizeof(*cols));
	char (*head)[PC_LABEL_LEN] = calloc(ncol + 1, sizeof(*head));
	double *v = calloc(ncol + 1, sizeof(*v));
	struct pc_table tab = { 0 };
	size_t j, r;
	int rc = cols && head && v ? 0 : -1;

	if (rc == 0) {
		cols[0] = (struct pc_table_col){ .head = "probe",
						 .flags = PC_COL_STUB | PC_COL_LEFT };
		for (j = 0; j < ncol; j++)
			cols[1 + j] = (struct pc_table_col){
				.head = pc_side_label(col[j], head[j]) };
		rc = pc_table_init(&tab, NULL, cols, ncol + 1);
	}
	for (r = from; rc == 0 && r < to; r++)
		if (matrix_row(t, r))
			rc = matrix_fill(&tab, &t->row[r], col, ncol, v);
	if (rc == 0)
		pc_page_table_draw(f, &tab, "overview");
	pc_table_free(&tab);
	free(cols);
	free(head);
	free(v);
	return rc;
}

/* The matrix of t over the sides col, in two halves when long (split at
 * a row, never inside one); -1 when out of memory. */
static int matrix_draw(FILE *f, const struct pc_cmp_table *t, const size_t *col,
		       size_t ncol)
{
	size_t r, n = 0, k = 0;
	int rc;

	for (r = 0; r < t->nrows; r++)
		n += matrix_row(t, r);
	if (n <= MATRIX_HALF)
		return matrix_part(f, t, col, ncol, 0, t->nrows);
	for (r = 0; r < t->nrows && k < (n + 1) / 2; r++)
		k += matrix_row(t, r);
	fputs("<div class=\"pair\">\n", f);
	rc = matrix_part(f, t, col, ncol, 0, r);
	if (rc == 0)
		rc = matrix_part(f, t, col, ncol, r, t->nrows);
	fputs("</div>\n", f);
	return rc;
}

static const char *group_name(const struct pc_cmp_row *row)
{
	return row->group ? row->group : "other";
}

/* Whether row q of t is a point of group g with a figure on a CPU of show
 * (all of them: NULL), or on side i alone (i < t->nsides). */
static bool point_of(const struct pc_cmp_table *t, size_t q, const char *g, const bool *show,
		     size_t i)
{
	size_t k;

	if (!is_point(t, q) || strcmp(group_name(&t->row[q]), g) != 0)
		return false;
	if (i < t->nsides)
		return t->row[q].cell[i].state == PC_CELL_OK;
	for (k = 0; k < t->nsides; k++)
		if ((!show || show[k]) && t->row[q].cell[k].state == PC_CELL_OK)
			return true;
	return !show;
}

/* The groups measured at points, in a line: how many points the CPUs of
 * show have figures at, of which CPUs, linked to their charts. */
static void points_line(FILE *f, const struct pc_cmp_table *t, size_t c, const bool *show)
{
	char l[PC_LABEL_LEN];
	size_t r, q, i, n, said = 0;

	for (r = 0; r < t->nrows; r++) {
		const char *g = group_name(&t->row[r]);

		for (q = 0; q < r && !point_of(t, q, g, NULL, t->nsides); q++)
			;
		if (q < r || !is_point(t, r))	/* not a point, or said */
			continue;
		for (n = 0, q = r; q < t->nrows; q++)
			n += point_of(t, q, g, show, t->nsides);
		if (!n)
			continue;
		fputs(said++ ? "; " : "<p>Not in the matrix, the points of series "
		      "and of pairs of CPUs (thread counts, sizes, c2c's pairs), in their "
		      "charts: ", f);
		fprintf(f, "<a href=\"#g%zu-", c);
		pc_html_escape(f, g);
		fputs("\">", f);
		pc_html_escape(f, g);
		fprintf(f, "</a> (%zu point%s, of", n, n == 1 ? "" : "s");
		for (i = 0, n = 0; i < t->nsides; i++) {
			for (q = show[i] ? r : t->nrows; q < t->nrows; q++)
				if (point_of(t, q, g, NULL, i))
					break;
			if (q < t->nrows)
				fprintf(f, "%s %s", n++ ? "," : "", pc_side_label(i, l));
		}
		fputc(')', f);
	}
	if (said)
		fputs(".</p>\n", f);
}

/* Why side i has no column: 0 its figures are points, 1 they are in
 * another unit (*unit), 2 it has none. */
static int absent_kind(const struct pc_page *pg, const struct pc_cmp_table *t, size_t i,
		       const char **unit)
{
	size_t r;

	for (r = 0; r < t->nrows; r++)
		if (t->row[r].cell[i].state == PC_CELL_OK)
			return 0;
	for (r = 0, *unit = NULL; r < t->nrows && !*unit; r++)
		if (t->row[r].cell[i].state == PC_CELL_NO_METRIC)
			*unit = pc_page_other_unit(pg, &t->side[i], t->row[r].probe);
	return *unit ? 1 : 2;
}

/* The CPUs of show without a column (in), in a line: why. */
static void absent_line(FILE *f, const struct pc_page *pg, const struct pc_cmp_table *t,
			const bool *show, const bool *in)
{
	const char *metric = pc_metric_name(pg->m->cfg.metric), *unit, *other = NULL;
	char l[PC_LABEL_LEN];
	size_t i, n, k, said = 0;
	int w;

	for (w = 0; w < 3; w++) {
		for (i = 0, n = 0; i < t->nsides; i++)
			n += show[i] && !in[i] && absent_kind(pg, t, i, &unit) == w;
		if (!n)
			continue;
		fputs(said++ ? "; " : "<p>Without a column: ", f);
		for (i = 0, k = 0; i < t->nsides; i++) {
			if (!show[i] || in[i] || absent_kind(pg, t, i, &unit) != w)
				continue;
			other = unit;
			k++;
			fprintf(f, "%s%s", k == 1 ? "" : k == n ? " and " : ", ",
				pc_side_label(i, l));
		}
		if (w == 0)
			fputs(" (figures only at points, in the charts)", f);
		else if (w == 1)
			fprintf(f, " (no figure in %s: --metric %s shows %s)", metric, other,
				n > 1 ? "theirs" : "its");
		else
			fprintf(f, " (no figure in %s)", metric);
	}
	if (said)
		fputs(".</p>\n", f);
}

/* The overview matrix of t over the CPUs show holds, with the lines that
 * name its points and the CPUs without a column. -1 when out of memory. */
static int overview(FILE *f, const struct pc_page *pg, const struct pc_cmp_table *t,
		    size_t c, const bool *show)
{
	size_t *col = calloc(t->nsides + 1, sizeof(*col)), ncol = 0, i, r;
	bool *in = calloc(t->nsides + 1, sizeof(*in));
	int rc;

	if (!col || !in) {
		free(col);
		free(in);
		return -1;
	}
	for (i = 0; i < t->nsides; i++) {
		for (r = show[i] ? 0 : t->nrows; r < t->nrows; r++)
			if (matrix_row(t, r) && t->row[r].cell[i].state == PC_CELL_OK)
				break;
		if ((in[i] = r < t->nrows))
			col[ncol++] = i;
	}
	fprintf(f, "<p>A row per probe measured once per CPU, a column per CPU with a "
		"figure: the median in %s", pc_metric_name(pg->m->cfg.metric));
	if (ncol > 1)
		fputs(", shaded against the median of its row (where two or more CPUs "
		      "have one above 0.05) "
		      "<span class=\"key s-3\">&#8804; &#188;</span>"
		      "<span class=\"key s-2\">&#8804; &#189;</span>"
		      "<span class=\"key s-1\">&#8804; 0.8</span>"
		      "<span class=\"key s0\">about the same</span>"
		      "<span class=\"key s1\">&#8805; 1.25</span>"
		      "<span class=\"key s2\">&#8805; 2</span>"
		      "<span class=\"key s3\">&#8805; 4 times</span>", f);
	fputs(". Spreads, marks and reasons are in each group's table below.</p>\n", f);
	rc = ncol ? matrix_draw(f, t, col, ncol) : 0;
	if (!ncol)
		fputs("<p>No probe measured once per CPU has a figure here.</p>\n", f);
	points_line(f, t, c, show);
	absent_line(f, pg, t, show, in);
	free(col);
	free(in);
	return rc;
}

/* ---- the verdicts, in a line ------------------------------------------------- */

/* Most probes a verdict's list names; the comparison below has them all. */
#define VERDICT_NAMES 6

/* The probes of t whose verdict for side i is v, in words ("2 slower
 * (mb, sigprocmask)"). */
static void verdict_words(FILE *f, const struct pc_cmp_table *t, size_t i,
			  enum pc_verdict v)
{
	size_t r, n = 0, k = 0;

	for (r = 0; r < t->nrows; r++)
		n += t->row[r].cell[i].verdict == v;
	fprintf(f, "%zu %s", n, pc_verdict_name(v));
	for (r = 0; r < t->nrows && v != PC_VERDICT_SAME; r++) {
		if (t->row[r].cell[i].verdict != v)
			continue;
		if (k == VERDICT_NAMES) {
			fprintf(f, " and %zu more", n - k);
			break;
		}
		fputs(k++ ? ", " : " (", f);
		pc_html_escape(f, t->row[r].probe);
	}
	if (k)
		fputc(')', f);
}

/* Each CPU's verdicts against A, a line each, linked to the comparison. */
static void verdicts(FILE *f, const struct pc_cmp_table *t)
{
	static const enum pc_verdict order[] = { PC_VERDICT_SLOWER, PC_VERDICT_FASTER,
		PC_VERDICT_SAME, PC_VERDICT_NOT_COMPARABLE };
	char l[PC_LABEL_LEN];
	size_t i, k;

	for (i = 1; i < t->nsides; i++) {
		if (!t->side[i].entry || !t->side[0].entry)
			continue;
		fprintf(f, "<p class=\"verdicts\">%s against A: ", pc_side_label(i, l));
		for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
			fputs(k ? ", " : "", f);
			verdict_words(f, t, i, order[k]);
		}
		fputs("; each in <a href=\"#comparison\">the comparison</a>.</p>\n", f);
	}
}

/* ---- the summary -------------------------------------------------------------- */

/* The CPUs a part of the summary is about: every one; those of the runs
 * (the user's files); those of the published tables. */
enum which { ALL_CPUS, RUN_CPUS, PUBLISHED_CPUS };

static bool is_shown(const struct pc_cmp_side *s, enum which w)
{
	if (w == RUN_CPUS)
		return s->entry && !s->reference;
	return w == ALL_CPUS || s->reference;
}

/* Whether a table of m has a CPU of w. */
static bool any_cpu(const struct pc_compare *m, enum which w)
{
	size_t c, i;

	for (c = 0; c < m->ntables; c++)
		for (i = 0; i < m->table[c].nsides; i++)
			if (is_shown(&m->table[c].side[i], w))
				return true;
	return false;
}

/* The heading of table c's overview of w: "Overview", "Overview: TITLE";
 * the published tables' "Beside the published tables". */
static void overview_heading(FILE *f, const struct pc_cmp_table *t, size_t c,
			     enum which w)
{
	const char *id = w == PUBLISHED_CPUS ? "published" : "overview";

	if (c)
		fprintf(f, "<h3 id=\"%s-%zu\">", id, c);
	else
		fprintf(f, "<h3 id=\"%s\">", id);
	fputs(w == PUBLISHED_CPUS ? "Beside the published tables" : "Overview", f);
	if (*t->title) {
		fputs(": ", f);
		pc_html_escape(f, t->title);
	}
	fputs("</h3>\n", f);
}

/* Each table's overview: the key of w's CPUs, in the runs' overview of a
 * comparison the verdicts against A, the matrix (of w's CPUs; of every CPU
 * beside the published tables). -1 when out of memory. */
static int overviews(FILE *f, struct pc_page *pg, enum which w)
{
	const struct pc_compare *m = pg->m;
	bool *show, *all;
	size_t c, i;
	int rc = 0;

	for (c = 0; rc == 0 && c < m->ntables; c++) {
		const struct pc_cmp_table *t = &m->table[c];

		show = calloc(t->nsides + 1, sizeof(*show));
		all = calloc(t->nsides + 1, sizeof(*all));
		for (i = 0; show && all && i < t->nsides; i++) {
			show[i] = is_shown(&t->side[i], w);
			all[i] = true;
		}
		overview_heading(f, t, c, w);
		rc = show && all ? cpu_key(f, pg, t, show) : -1;
		if (rc == 0 && w == RUN_CPUS && pg->o->comparison)
			verdicts(f, t);
		if (rc == 0)
			rc = overview(f, pg, t, c, w == PUBLISHED_CPUS ? all : show);
		free(show);
		free(all);
	}
	return rc;
}

/* With the user's own files (runs), their overview leads and the answers
 * follow, then the published tables beside them; with published tables
 * only, the answers lead. */
int pc_page_summary(FILE *f, struct pc_page *pg)
{
	const struct pc_compare *m = pg->m;
	bool runs = any_cpu(m, RUN_CPUS);
	int rc = 0;

	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
	if (runs)
		rc = overviews(f, pg, RUN_CPUS);
	if (rc == 0)
		rc = answers(f, m);
	if (rc == 0 && !runs)
		rc = overviews(f, pg, ALL_CPUS);
	else if (rc == 0 && any_cpu(m, PUBLISHED_CPUS))
		rc = overviews(f, pg, PUBLISHED_CPUS);
	fputs("</section>\n", f);
	return rc;
}
