/* SPDX-License-Identifier: MIT */
/* The answers of probes/answers.def on entries whose figures are known:
 * the ratio and its direction, both figures in the line, and no answer
 * where a side is missing, failed or its run unreliable; a question asked
 * of points (run --locks) answered from them, once; the ring-3 analog
 * of a ring-0 row in the comparison model, marked and without a verdict;
 * the matrix's width and footnotes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/answers.h"
#include "results/compare.h"
#include "tap.h"

static json_t *fig(double median)
{
	return json_pack("{s:s, s:i, s:{s:f, s:f, s:f, s:f}}", "status", "ok",
			 "samples", 101, "cycles", "median", median, "q1", median,
			 "q3", median, "mad", 0.0);
}

/* An entry with the given probe figures (a negative one: unsupported). */
static json_t *entry(int unreliable, const char *const *names, const double *v, size_t n)
{
	json_t *probes = json_object(), *e;
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(probes, names[i], v[i] >= 0 ? fig(v[i]) :
			json_pack("{s:s, s:s}", "status", "unsupported", "reason",
				  "needs ring 0, and no way in works here"));
	e = json_pack("{s:{s:s}, s:[{s:s, s:s, s:b}], s:o}", "cpu", "brand", "test CPU",
		      "runs", "date", "2026-12-01T00:00:00Z", "cycles_source", "calibrated",
		      "unreliable", unreliable, "probes", probes);
	return e;
}

static size_t find(const struct pc_answer *a, size_t n, const char *first)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(a[i].def->a, first) == 0)
			return i;
	return n;
}

static void answers(void)
{
	static const char *const names[] = { "cmpxchg_local", "local_irq_save_restore",
		"local_add_return", "atomic_add_return", "flags_restore",
		"local_irq_restore", "local_irq_restore.popf" };
	static const double v[] = { 9, 30, 8, 20, 14, -1, 13 };
	struct pc_answer a[16];
	char line[512];
	json_t *e = entry(0, names, v, 7);
	size_t n = pc_answers(e, a), k;

	ok(pc_answer_count >= 4 && pc_answer_count <= 16, "answers.def has the seeds' "
	   "pairs (%zu)", pc_answer_count);
	ok(n == 3, "three pairs measured on both sides, one (sti, unsupported) left "
	   "out (%zu)", n);
	k = find(a, n, "cmpxchg_local");
	ok(k < n && fabs(a[k].ratio - 30.0 / 9) < 1e-9, "cmpxchg_local vs "
	   "local_irq_save_restore: ratio 30/9");
	if (k < n) {
		pc_answer_line(&a[k], line, sizeof(line));
		ok(strcmp(line, "cmpxchg_local is 3.3 times cheaper than "
		   "local_irq_save_restore here: 9.00 vs 30.00 cycles") == 0,
		   "one line with the ratio and both figures: %s", line);
	}
	k = find(a, n, "flags_restore");
	if (k < n) {
		pc_answer_line(&a[k], line, sizeof(line));
		ok(strstr(line, "1.6 times dearer than cmpxchg_local") != NULL,
		   "a pair the other way round says dearer: %s", line);
	}
	ok(find(a, n, "local_irq_restore") == n, "no answer where one side is unsupported");
	k = find(a, n, "local_add_return");
	if (k < n) {
		a[k].b = a[k].a * 1.02;
		a[k].ratio = 1.02;
		pc_answer_line(&a[k], line, sizeof(line));
		ok(strstr(line, "costs about the same as atomic_add_return here (1.02 "
			  "times)") != NULL, "a ratio near 1 reads about the same: %s", line);
	}
	json_decref(e);
	e = entry(1, names, v, 7);
	ok(pc_answers(e, a) == 0, "no answer from a run marked unreliable");
	json_decref(e);
}

/* A probe measured at points as run writes it: lock with a point of 1 and
 * one of 2 threads, placed compact, without data lines. */
static json_t *lock_points(double one, double two)
{
	json_t *pts = json_array();
	json_t *p = json_pack("{s:s, s:s, s:o}", "status", "ok", "group", "contended",
			      "points", pts);
	int t;

	for (t = 1; t <= 2; t++) {
		json_t *pt = fig(t == 1 ? one : two);

		json_object_set_new(pt, "threads", json_integer(t));
		json_object_set_new(pt, "placement", json_string("compact"));
		json_object_set_new(pt, "cpus", json_string(t == 1 ? "0" : "0,1"));
		json_object_set_new(pt, "class", json_string(t == 1 ? "single" : "node"));
		json_object_set_new(pt, "nodes", json_integer(1));
		json_object_set_new(pt, "data_lines", json_integer(0));
		json_array_append_new(pts, pt);
	}
	return p;
}

static void answers_from_points(void)
{
	static const char *const names[] = { "cmpxchg_local" };
	static const double v[] = { 9 };
	struct pc_answer a[16];
	char line[512];
	json_t *e = entry(0, names, v, 1), *probes = json_object_get(e, "probes");
	size_t n, k;

	json_object_set_new(probes, "lock.qspinlock", lock_points(28, 1984));
	json_object_set_new(probes, "lock.ticket", lock_points(27, 1550));
	ok(fabs(pc_probe_median(e, "lock.ticket.compact.threads2", "cycles") - 1550) < 1e-9 &&
	   isnan(pc_probe_median(e, "lock.ticket.compact.threads4", "cycles")),
	   "a point is found by the name compare gives its row, not by another");
	n = pc_answers(e, a);
	k = find(a, n, "lock.qspinlock.compact.threads2");
	ok(n == 1 && k == 0 && fabs(a[0].ratio - 1550.0 / 1984) < 1e-9,
	   "the queued lock against the ticket lock, from run --locks' points (%zu)", n);
	if (k < n) {
		pc_answer_line(&a[k], line, sizeof(line));
		ok(strcmp(line, "lock.qspinlock.compact.threads2 is 1.3 times dearer than "
		   "lock.ticket.compact.threads2 here: 1984.00 vs 1550.00 cycles") == 0,
		   "its line names the points: %s", line);
	}
	/* the published names too: the question is answered once, by its
	 * first row */
	json_object_set_new(probes, "spin_lock_unlock.qspinlock.nodes1.threads2", fig(600));
	json_object_set_new(probes, "spin_lock_unlock.ticket.nodes1.threads2", fig(1200));
	n = pc_answers(e, a);
	ok(n == 1 && strcmp(a[0].def->a, "spin_lock_unlock.qspinlock.nodes1.threads2") == 0,
	   "an entry holding both names answers the question once (%zu)", n);
	for (k = 0, n = 0; k < pc_answer_count; k++)
		n += pc_answer_first(k);
	ok(n == pc_answer_count - 1, "the lock question is one question of two rows");
	json_decref(e);
}

static void analog_and_matrix(void)
{
	static const char *const here_n[] = { "flags_restore", "local_irq_restore.popf" };
	static const double here_v[] = { 14, -1 };
	static const char *const p4_n[] = { "local_irq_restore.popf" };
	static const double p4_v[] = { 112 };
	json_t *d1 = json_pack("{s:s, s:{s:o}}", "schema", "primcost-result/1", "cpus",
			       "x86_64.here", entry(0, here_n, here_v, 2));
	json_t *d2 = json_pack("{s:s, s:{s:o}}", "schema", "primcost-result/1", "cpus",
			       "i386.p4", entry(0, p4_n, p4_v, 1));
	struct pc_compare_input in[2] = { { "here.json", d1 }, { "p4.json", d2 } };
	struct pc_compare_config cfg = { PC_METRIC_CYCLES, PC_STAT_MEDIAN, 3, 0.05, NULL, false };
	struct pc_compare m;
	char err[256], *buf = NULL, line[256];
	size_t len = 0, r, widest = 0;
	const struct pc_cmp_analog *a;
	FILE *f;

	if (!ok(pc_compare_build(&m, in, 2, &cfg, err, sizeof(err)) == 0, "model built"))
		return;
	ok(m.table[0].nanalogs == 1, "one analog row: popf measured on one side only");
	a = m.table[0].analog;
	ok(a && a->is_analog[0] && !a->is_analog[1] &&
	   strcmp(a->analog, "flags_restore") == 0 && a->cell[0].median == 14 &&
	   a->cell[1].median == 112, "A stands in with flags_restore (14, marked "
	   "analog), B keeps its own popf row (112)");
	ok(a && a->cell[1].verdict == PC_VERDICT_NONE && fabs(a->cell[1].ratio - 8) < 1e-9,
	   "the analog has a ratio (8x) and no verdict");
	for (r = 0; r < m.table[0].nrows; r++)
		if (strcmp(m.table[0].row[r].probe, "local_irq_restore.popf") == 0)
			ok(m.table[0].row[r].cell[1].verdict == PC_VERDICT_NONE,
			   "the table's own popf row is not compared with the analog");
	f = open_memstream(&buf, &len);
	pc_table_set_fit(80);
	if (f) {
		struct pc_view v;

		pc_view_init(&v, f, PC_FORMAT_TABLE);
		ok(pc_compare_matrix(&v, &m) == 0 && pc_view_end(&v) == 0 && fclose(f) == 0,
		   "matrix rendered");
	} else {
		ok(0, "matrix rendered");
	}
	f = fmemopen(buf, len, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strlen(line) - 1 > widest)
			widest = strlen(line) - 1;
	if (f)
		fclose(f);
	ok(widest <= 80, "matrix fits 80 columns (%zu)", widest);
	ok(buf && strstr(buf, "[1] unsupported: needs ring 0") != NULL &&
	   strstr(buf, "-[1]") != NULL, "the reason is a numbered footnote, the cell "
	   "says -[1]");
	free(buf);
	pc_compare_free(&m);
	json_decref(d1);
	json_decref(d2);
}

int main(void)
{
	answers();
	answers_from_points();
	analog_and_matrix();
	return done_testing();
}
