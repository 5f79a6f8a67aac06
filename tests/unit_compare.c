/* SPDX-License-Identifier: MIT */
/* The comparison model on documents whose answers are known: ratios,
 * verdicts and the test behind each, missing probes, statuses, the floor,
 * the geometric mean, probe order, units, pairing and CPU selection, and
 * probes measured at points as rows paired by their parameters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"
#include "tap.h"
#include "core/primcost.h"

/* How a probe of a test document looks. */
struct spec {
	const char *name;
	double median;		/* cycles; ticks = cycles / 1.25 */
	double spread;		/* samples spread uniformly over +-spread/2 */
	int nraw;		/* raw samples kept (0: summaries only) */
	const char *status;	/* NULL: ok */
	int published;		/* a single published figure */
};

static json_t *summary(double lo, double q1, double med, double q3, double hi, double mad)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "min", lo, "q1", q1, "median",
			 med, "q3", q3, "max", hi, "mad", mad);
}

/* Deterministic samples: median + spread * u, u spread over [-0.5, 0.5]. */
static double sample(const struct spec *s, int i)
{
	return s->median + s->spread * ((double)((i * 37) % 101) / 100.0 - 0.5);
}

static json_t *probe(const struct spec *s)
{
	json_t *p;
	double c = s->median, h = s->spread / 2, lo = c - h, hi = c + h;
	int i;

	if (s->status)
		return json_pack("{s:s, s:s, s:i}", "status", s->status, "reason",
				 "test reason", "ring", 0);
	if (s->published)
		return json_pack("{s:s, s:i, s:s, s:i, s:o, s:o}", "status", "ok", "ring", 0,
				 "cycles_source", "published", "samples", 1, "cycles",
				 summary(c, c, c, c, c, 0), "ticks",
				 summary(c / 4, c / 4, c / 4, c / 4, c / 4, 0));
	/* the extremes of the raw samples, where there are some */
	for (i = 0; i < s->nraw; i++) {
		lo = i ? fmin(lo, sample(s, i)) : sample(s, i);
		hi = i ? fmax(hi, sample(s, i)) : sample(s, i);
	}
	p = json_pack("{s:s, s:i, s:s, s:i, s:i, s:o, s:o, s:o}", "status", "ok", "ring", 3,
		      "cycles_source", "calibrated", "run", 0, "samples",
		      s->nraw ? s->nraw : 501,
		      "cycles", summary(lo, c - h / 2, c, c + h / 2, hi, h / 2),
		      "ticks", summary(lo / 1.25, (c - h / 2) / 1.25, c / 1.25,
				       (c + h / 2) / 1.25, hi / 1.25, h / 2.5),
		      "ns", summary((c - h) / 2.5, (c - h / 2) / 2.5, c / 2.5,
				    (c + h / 2) / 2.5, (c + h) / 2.5, h / 5));
	if (s->nraw) {
		json_t *rc = json_array(), *rt = json_array();

		for (i = 0; i < s->nraw; i++) {
			json_array_append_new(rc, json_real(sample(s, i)));
			json_array_append_new(rt, json_real(sample(s, i) / 1.25));
		}
		json_object_set_new(p, "raw", json_pack("{s:o, s:o}", "cycles", rc,
							"ticks", rt));
	}
	return p;
}

static json_t *entry(const struct spec *specs, int n, const char *kernel)
{
	json_t *probes = json_object();
	int i;

	for (i = 0; i < n; i++)
		json_object_set_new(probes, specs[i].name, probe(&specs[i]));
	/* timer at 2.5 GHz: ns = ticks / 2.5 */
	return json_pack("{s:{s:s, s:s, s:b, s:{s:s, s:f}}, s:[{s:s, s:s, s:s, s:s}], s:o}",
			 "cpu", "arch", "x86_64", "brand", "Test CPU", "virtualized", 0,
			 "timer", "name", "tsc", "hz", 2.5e9,
			 "runs", "date", "2026-01-01T00:00:00Z", "kernel", kernel, "cycles_source",
			 "calibrated", "primcost_version", "0.1.0", "probes", probes);
}

static json_t *doc1(const char *key, const struct spec *specs, int n, const char *kernel)
{
	json_t *d = json_pack("{s:s, s:{}}", "schema", "primcost-result/1", "cpus");

	json_object_set_new(json_object_get(d, "cpus"), key, entry(specs, n, kernel));
	return d;
}

static const struct pc_cmp_row *row(const struct pc_cmp_table *t, const char *name)
{
	size_t r;

	for (r = 0; r < t->nrows; r++)
		if (strcmp(t->row[r].probe, name) == 0)
			return &t->row[r];
	return NULL;
}

static int build(struct pc_compare *m, json_t *a, json_t *b, const struct pc_compare_config *cfg)
{
	struct pc_compare_input in[2] = { { "a.json", a }, { "b.json", b } };
	char err[PC_ERRLEN] = "";
	int rc = pc_compare_build(m, in, b ? 2 : 1, cfg, err, sizeof(err));

	if (rc < 0)
		diag("build: %s", err);
	return rc;
}

#define N(x) (int)(sizeof(x) / sizeof((x)[0]))

static json_t *probe_of(json_t *d, const char *name)
{
	const char *key;
	json_t *e;

	json_object_foreach(json_object_get(d, "cpus"), key, e)
		return json_object_get(json_object_get(e, "probes"), name);
	return NULL;
}

static json_t *run0_of(json_t *d)
{
	const char *key;
	json_t *e;

	json_object_foreach(json_object_get(d, "cpus"), key, e)
		return json_array_get(json_object_get(e, "runs"), 0);
	return NULL;
}

/* Does a rendering of m in fmt contain what? (said in a diagnostic when it
 * does not and should) */
static int contains(const struct pc_compare *m, enum pc_format fmt, const char *what,
		    int should)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int found;

	if (!f)
		return 0;
	pc_compare_render(f, m, fmt, false);
	fclose(f);
	found = buf && strstr(buf, what) != NULL;
	if (!found && should)
		diag("no \"%s\" in:\n%s", what, buf ? buf : "");
	free(buf);
	return found;
}

#define renders(m, fmt, what) contains(m, fmt, what, 1)

/* Does a rendering of m in fmt contain every one of want[] (NULL-ended)?
 * Stops at the first missing, which renders says. */
static int renders_all(const struct pc_compare *m, enum pc_format fmt,
		       const char *const *want)
{
	int found = 1;

	for (; found && *want; want++)
		found = renders(m, fmt, *want);
	return found;
}

/* Sides not fit to judge: noisy figures, unreliable runs, a published loop
 * against our zero baseline, nothing in common. */
/* The contention canary's medians: 2 % apart is noted, 0.5 % is not. */
static void canary_note(json_t *da, json_t *db, struct pc_compare_config *cfg)
{
	static const double b_canary[] = { 1.075, 1.045 };
	json_t *ca = json_deep_copy(da), *cb = json_deep_copy(db);
	struct pc_compare m;
	unsigned i;
	size_t k;

	json_object_set_new(run0_of(ca), "contention", json_pack("{s:f}",
			    "canary_cycles_median", 1.040));
	for (i = 0; i < 2; i++) {
		int noted = 0;

		json_object_set_new(run0_of(cb), "contention", json_pack("{s:f}",
				    "canary_cycles_median", b_canary[i]));
		if (build(&m, ca, cb, cfg) < 0) {
			ok(0, "builds with canaries");
			continue;
		}
		for (k = 0; k < m.table[0].nnotes; k++)
			noted |= strstr(m.table[0].note[k], "shared more in one run") != NULL;
		ok(noted == (i == 0), "canary 1.040 against %.3f: %s", b_canary[i],
		   i == 0 ? "the sharing is noted" : "no note");
		pc_compare_free(&m);
	}
	json_decref(ca);
	json_decref(cb);
}

/* How each format shows a noisy and a nonlinear figure. */
static const struct {
	enum pc_format fmt;
	const char *want[8];	/* NULL-terminated */
	const char *says;
} noisy_shown[] = {
	{ PC_FORMAT_TABLE, { "n/c", "~ noisy", "^ not linear",
			     "n/c[1]", "[1] not comparable: B is noisy: still disturbed",
			     "1 not comparable" },
	  "the table marks noisy and nonlinear figures and says why n/c" },
	{ PC_FORMAT_MARKDOWN, { "(noisy) |", "(not linear) |", "| n/c[1] |",
				"- [1] not comparable: B is noisy" },
	  "markdown says noisy, not linear and not comparable in words" },
	{ PC_FORMAT_CSV, { ",verdict,nonlinear,spread,threshold_pct,why\n", ",noisy,",
			   ",not comparable,no,", ",faster,yes," },
	  "CSV: status noisy, verdict not comparable, the nonlinear column" },
	{ PC_FORMAT_JSON, { "\"why\": \"B is noisy: still disturbed\"", "\"nonlinear\": true",
			    "\"not_comparable\": 1" },
	  "JSON: why, nonlinear, the count of not comparable" },
};

static void not_comparable(json_t *da, json_t *db, struct pc_compare_config *cfg)
{
	struct pc_compare m;
	const struct pc_cmp_row *r;
	json_t *dn = json_deep_copy(db), *p;
	char why[256];
	size_t i;

	p = probe_of(dn, "cmpxchg");
	json_object_set_new(p, "status", json_string("noisy"));
	json_object_set_new(p, "reason", json_string("still disturbed"));
	json_object_set_new(probe_of(dn, "xchg"), "nonlinear", json_true());
	ok(build(&m, da, dn, cfg) == 0, "a side with a noisy figure builds");
	r = row(&m.table[0], "cmpxchg");
	ok(r->cell[1].state == PC_CELL_OK && r->cell[1].noisy &&
	   r->cell[1].verdict == PC_VERDICT_NOT_COMPARABLE &&
	   strstr(r->cell[1].why, "B is noisy: still disturbed") && !isnan(r->cell[1].ratio),
	   "a noisy figure is shown, with its ratio, but not comparable: %s", r->cell[1].why);
	r = row(&m.table[0], "xchg");
	ok(r->cell[1].nonlinear && r->cell[1].verdict == PC_VERDICT_FASTER,
	   "a nonlinear figure is marked, and still judged");
	ok(m.table[0].geomean_n[1] == 6 && m.slower == 1 && m.not_comparable == 1,
	   "the noisy probe leaves the geomean and the verdicts (%zu probes, %zu slower)",
	   m.table[0].geomean_n[1], m.slower);
	for (i = 0; i < sizeof(noisy_shown) / sizeof(noisy_shown[0]); i++)
		ok(renders_all(&m, noisy_shown[i].fmt, noisy_shown[i].want), "%s",
		   noisy_shown[i].says);
	pc_compare_free(&m);
	json_decref(dn);

	/* a side whose run is marked unreliable: no verdict, no geomean */
	dn = json_deep_copy(db);
	json_object_set_new(run0_of(dn), "unreliable", json_true());
	json_object_set_new(run0_of(dn), "unreliable_reason",
			    json_string("emulated (Ski)"));
	build(&m, da, dn, cfg);
	ok(m.slower + m.faster + m.same == 0 &&
	   m.not_comparable == 8 && m.table[0].geomean_n[1] == 0 &&
	   isnan(m.table[0].geomean[1]) &&
	   strstr(row(&m.table[0], "cmpxchg")->cell[1].why,
		  "B's run is marked unreliable: emulated (Ski)"),
	   "an unreliable side: every row not comparable (%zu), no geomean",
	   m.not_comparable);
	ok(pc_compare_nothing_judged(&m, why, sizeof(why)) &&
	   strstr(why, "8 of 9 probes in common are not fit to judge"),
	   "--fail-on-regression has nothing to judge: %s", why);
	ok(renders(&m, PC_FORMAT_TABLE, "no verdicts for it, no geomean"),
	   "the table's notes say so");
	pc_compare_free(&m);
	ok(build(&m, dn, da, cfg) == 0 && m.not_comparable == 8 &&
	   strstr(row(&m.table[0], "cmpxchg")->cell[1].why, "A's run is marked unreliable"),
	   "an unreliable first side: nothing comparable against it");
	pc_compare_free(&m);
	json_decref(dn);
}

/* Published figures: one point each; their baseline is their loop. */
static void published(json_t *da, struct pc_compare_config *cfg)
{
	static const struct spec ref[] = { { "baseline", 1.0, 0, 0, NULL, 1 },
					   { "cmpxchg", 12, 0, 0, NULL, 1 } };
	static const struct spec locks[] = { { "spin_lock_unlock.x.threads2", 1282, 0, 0,
					       NULL, 1 } };
	json_t *dr = doc1("ia64.test.32-0-7.ref", ref, N(ref), "Linux 2.6");
	json_t *dl = doc1("x86_64.test.6-44-x.ref", locks, N(locks), "Linux 3.14");
	struct pc_compare m;
	const struct pc_cmp_row *r;
	char why[256];

	json_object_set_new(run0_of(dr), "cycles_source", json_string("published"));
	ok(build(&m, da, dr, cfg) == 0, "a run against a published table with a loop builds");
	r = row(&m.table[0], "baseline");
	ok(r->cell[1].verdict == PC_VERDICT_NOT_COMPARABLE &&
	   strstr(r->cell[1].why, "published loop"),
	   "baseline against a published loop: not comparable (%s)", r->cell[1].why);
	r = row(&m.table[0], "cmpxchg");
	ok(r->cell[1].single && !r->cell[0].single &&
	   r->cell[1].verdict == PC_VERDICT_SLOWER && m.table[0].geomean_n[1] == 1,
	   "a published figure is one point; it is judged and in the geomean");
	ok(renders(&m, PC_FORMAT_TABLE, " 12.00 ") && !contains(&m, PC_FORMAT_TABLE,
								   "12.00 \xc2\xb1", 0),
	   "a published figure shows no \xc2\xb1");
	pc_compare_free(&m);
	ok(build(&m, da, dl, cfg) == 0 && m.common == 0 &&
	   m.slower + m.faster + m.same == 0 && renders(&m, PC_FORMAT_TABLE,
				"A and B have no probe in common") &&
	   pc_compare_nothing_judged(&m, why, sizeof(why)) &&
	   strstr(why, "no probe in common"),
	   "no probe in common: a note, and nothing judged (%s)", why);
	pc_compare_free(&m);
	json_decref(dr);
	json_decref(dl);
}

/* The threshold follows the probe's measured spread: its round medians
 * (round_spread, else the raw samples in the order taken) and its runs'
 * figures in the file's history. */
static void spread_threshold(struct pc_compare_config *cfg)
{
	static const struct spec sa[] = { { "sigprocmask", 7000, 10, 101, NULL, 0 } };
	static const struct spec sb[] = { { "sigprocmask", 7350, 10, 101, NULL, 0 } };
	json_t *da = doc1("x86_64.test.1-2-3.cpu-a", sa, 1, "Linux 6.1");
	json_t *db = doc1("x86_64.test.1-2-3.cpu-a", sb, 1, "Linux 6.1");
	json_t *raw, *e;
	struct pc_compare m;
	const struct pc_cmp_cell *c;
	size_t i;

	build(&m, da, db, cfg);
	c = &m.table[0].row[0].cell[1];
	ok(c->verdict == PC_VERDICT_SLOWER && c->threshold_pct == 3,
	   "+5 %% with steady rounds: slower at the 3 %% threshold");
	pc_compare_free(&m);
	json_object_set_new(probe_of(da, "sigprocmask"), "round_spread", json_real(0.09));
	build(&m, da, db, cfg);
	c = &m.table[0].row[0].cell[1];
	ok(c->verdict == PC_VERDICT_SAME && fabs(c->threshold_pct - 13.5) < 1e-9,
	   "A's rounds spread 9 %%: the threshold is 1.5 x 9 %%, +5 %% is same");
	ok(renders(&m, PC_FORMAT_TABLE, "thresholds raised") &&
	   renders(&m, PC_FORMAT_TABLE, "sigprocmask 13.5 %"), "a note names the raised threshold");
	pc_compare_free(&m);
	/* a spread relative to a figure of ~0 says nothing: B fell to 0.01 */
	json_object_set_new(probe_of(da, "sigprocmask"), "round_spread", json_real(0.01));
	e = probe_of(db, "sigprocmask");
	json_object_set_new(e, "round_spread", json_real(40));
	json_object_set_new(e, "cycles", json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "min",
				0.001, "q1", 0.005, "median", 0.01, "q3", 0.015, "max", 0.02,
				"mad", 0.005));
	json_object_del(e, "raw");
	build(&m, da, db, cfg);
	c = &m.table[0].row[0].cell[1];
	ok(c->verdict == PC_VERDICT_FASTER && c->threshold_pct == 3,
	   "a side below the floor brings no spread: 7000 to 0.01 is faster");
	pc_compare_free(&m);
	json_decref(db);
	db = doc1("x86_64.test.1-2-3.cpu-a", sb, 1, "Linux 6.1");
	json_object_del(probe_of(da, "sigprocmask"), "round_spread");
	/* the raw samples in the order taken: the first half of the rounds 8 %
	 * down (read only where a verdict hangs on them: +5 % here) */
	raw = json_object_get(json_object_get(probe_of(da, "sigprocmask"), "raw"), "cycles");
	for (i = 0; i < 50; i++)
		json_array_set_new(raw, i, json_real(json_number_value(
			json_array_get(raw, i)) * 0.92));
	build(&m, da, db, cfg);
	c = &m.table[0].row[0].cell[0];
	ok(fabs(c->spread - 0.08) < 0.01 && m.table[0].row[0].cell[1].verdict == PC_VERDICT_SAME,
	   "without round_spread, the spread comes from the raw samples in order (%.3f)",
	   c->spread);
	pc_compare_free(&m);
	json_decref(da);
	/* two runs in A's history, 7000 and 7490: a 6.8 % spread */
	da = doc1("x86_64.test.1-2-3.cpu-a", sa, 1, "Linux 6.1");
	e = json_object_get(json_object_get(da, "cpus"), "x86_64.test.1-2-3.cpu-a");
	json_array_append_new(json_object_get(e, "runs"), json_pack("{s:s, s:s, s:s, s:o}",
		"date", "2025-12-01T00:00:00Z", "kernel", "Linux 6.1", "primcost_version", "0.1.0",
		"probes", json_pack("{s:o}", "sigprocmask",
				    json_deep_copy(probe_of(da, "sigprocmask")))));
	json_object_set_new(json_object_get(json_object_get(json_object_get(json_array_get(
		json_object_get(e, "runs"), 1), "probes"), "sigprocmask"), "cycles"), "median",
		json_real(7490));
	build(&m, da, db, cfg);
	c = &m.table[0].row[0].cell[1];
	ok(fabs(m.table[0].row[0].cell[0].history_spread - 490.0 / 7245) < 1e-9 &&
	   c->verdict == PC_VERDICT_SAME && c->threshold_pct > 10.1,
	   "the file's earlier runs moved the figure by 6.8 %%: +5 %% is same");
	pc_compare_free(&m);
	build(&m, db, da, cfg);
	c = &m.table[0].row[0].cell[1];
	ok(c->verdict == PC_VERDICT_FASTER && c->threshold_pct == 3,
	   "B's own history is not noise: it may hold the very change compared");
	pc_compare_free(&m);
	json_object_set_new(json_array_get(json_object_get(e, "runs"), 1), "kernel",
			    json_string("Linux 6.0"));
	build(&m, da, db, cfg);
	c = &m.table[0].row[0].cell[1];
	ok(isnan(m.table[0].row[0].cell[0].history_spread) && c->verdict == PC_VERDICT_SLOWER,
	   "... but not a run under another kernel: the change a comparison looks for");
	pc_compare_free(&m);
	json_decref(da);
	json_decref(db);
}

/* A point of the contended group (threads, placement, cpus) or of the
 * allocator group (allocator, size) with its cycles. */
static json_t *point(int threads, const char *placement, const char *cpus,
		     const char *alloc, int size, double median)
{
	json_t *p = alloc ? json_pack("{s:s, s:i}", "allocator", alloc, "size", size) :
		    json_pack("{s:i, s:s, s:s, s:s, s:i}", "threads", threads, "placement",
			      placement, "cpus", cpus, "class", "node", "nodes", 1);

	json_object_set_new(p, "status", json_string("ok"));
	json_object_set_new(p, "samples", json_integer(9));
	json_object_set_new(p, "cycles", summary(median * 0.99, median * 0.995, median,
						 median * 1.005, median * 1.01, median * 0.004));
	return p;
}

/* Probes measured at points are rows named by their parameters, and pair
 * across files by them: never a compact point with a spread one. */
static void points(struct pc_compare_config *cfg)
{
	static const struct spec none[] = { { "cmpxchg", 9, 0.2, 0, NULL, 0 } };
	json_t *da = doc1("x86_64.test", none, N(none), "6.1");
	json_t *db = doc1("x86_64.test", none, N(none), "6.1");
	json_t *lock = json_pack("{s:s, s:s, s:i, s:[o, o, o]}", "status", "ok", "group",
				 "contended", "run", 0, "points",
				 point(2, "compact", "0,1", NULL, 0, 100),
				 point(2, "spread", "0,1", NULL, 0, 200),
				 point(2, "list", "0,3", NULL, 0, 300));
	json_t *lock_b = json_pack("{s:s, s:s, s:[o]}", "status", "ok", "group",
				   "contended", "points", point(2, "compact", "0,1", NULL, 0, 110));
	json_t *alloc = json_pack("{s:s, s:s, s:[o, o]}", "status", "ok", "group", "alloc",
				  "points", point(0, NULL, NULL, "glibc", 64, 20),
				  point(0, NULL, NULL, "jemalloc", 64, 10));
	json_t *c2c = json_pack("{s:s, s:s, s:[o]}", "status", "ok", "group", "contended",
				"points", point(2, "pair", "0,1", NULL, 0, 800));
	json_t *probes = json_object_get(json_object_get(json_object_get(da, "cpus"),
					 "x86_64.test"), "probes");
	json_t *odd = json_pack("{s:i}", "k", 1), *pa, *pb;
	const struct pc_cmp_row *r;
	struct pc_compare m;
	char name[64];

	json_object_set_new(probes, "lock.ticket", lock);
	json_object_set_new(probes, "alloc.malloc", alloc);
	json_object_set_new(probes, "c2c.latency", c2c);
	json_object_set_new(json_object_get(json_object_get(json_object_get(db, "cpus"),
			    "x86_64.test"), "probes"), "lock.ticket", lock_b);
	pc_point_row_name(name, sizeof(name), "x.y", NULL, odd, 4);
	json_decref(odd);
	ok(strcmp(name, "x.y.point5") == 0, "a point of unknown parameters: %s", name);
	odd = json_pack("{s:s, s:s, s:s, s:i, s:i}", "placement", "compact", "cpus", "0,1",
			"class", "l3", "threads", 2, "data_lines", 1);
	pc_point_row_name(name, sizeof(name), "lock.tas", "contended", odd, 0);
	ok(strcmp(name, "lock.tas.compact.data1.threads2") == 0, "a lock's point at 1 "
	   "data line: %s", name);
	json_object_set_new(odd, "data_lines", json_integer(0));
	pc_point_row_name(name, sizeof(name), "lock.tas", "contended", odd, 0);
	ok(strcmp(name, "lock.tas.compact.threads2") == 0, "at 0 data lines, the name "
	   "of the points written before there were data lines: %s", name);
	json_decref(odd);
	if (build(&m, da, db, cfg) < 0) {
		ok(0, "the model of files with points");
		json_decref(da);
		json_decref(db);
		return;
	}
	r = row(&m.table[0], "lock.ticket.compact.threads2");
	ok(r && r->cell[0].state == PC_CELL_OK && r->cell[0].median == 100 &&
	   r->cell[1].median == 110 && fabs(r->cell[1].ratio - 1.1) < 1e-12 &&
	   strcmp(r->group, "contended") == 0,
	   "lock.ticket.compact.threads2: A 100 against B 110, group contended");
	r = row(&m.table[0], "lock.ticket.spread.threads2");
	ok(r && r->cell[0].median == 200 && r->cell[1].state == PC_CELL_ABSENT,
	   "lock.ticket.spread.threads2: B's compact point is not its pair");
	r = row(&m.table[0], "lock.ticket.cpus0,3.threads2");
	ok(r && r->cell[0].median == 300, "--cpus: the row names the CPUs");
	r = row(&m.table[0], "c2c.latency.cpus0,1");
	ok(r && r->cell[0].median == 800, "c2c: the row names the pair");
	ok(row(&m.table[0], "alloc.malloc.glibc.64") && row(&m.table[0],
	   "alloc.malloc.jemalloc.64")->cell[0].median == 10 &&
	   strcmp(row(&m.table[0], "alloc.malloc.glibc.64")->group, "alloc") == 0,
	   "alloc: a row per allocator and size, group alloc");
	ok(!row(&m.table[0], "lock.ticket") && !row(&m.table[0], "alloc.malloc"),
	   "a probe with points is no row of its own");
	pc_compare_free(&m);
	/* The transfer gauges: 770 against 231 cycles (a host that moved the
	 * vCPUs) is not comparable; against 800, it is. (The build left the
	 * documents with a row per point.) */
	pa = json_object_get(probes, "lock.ticket.compact.threads2");
	pb = json_object_get(json_object_get(json_object_get(json_object_get(db, "cpus"),
			     "x86_64.test"), "probes"), "lock.ticket.compact.threads2");
	json_object_set_new(pa, "transfer", json_pack("{s:f, s:f}", "cycles", 770.0,
						      "ns", 220.0));
	json_object_set_new(pb, "transfer", json_pack("{s:f, s:f}", "cycles", 231.0,
						      "ns", 66.0));
	if (build(&m, da, db, cfg) == 0) {
		r = row(&m.table[0], "lock.ticket.compact.threads2");
		ok(r && r->cell[1].verdict == PC_VERDICT_NOT_COMPARABLE &&
		   strstr(r->cell[1].why, "770 cycles in A, 231 in B"),
		   "transfer 770 against 231: not comparable (%s)", r ? r->cell[1].why : "");
		pc_compare_free(&m);
	}
	json_object_set_new(pb, "transfer", json_pack("{s:f, s:f}", "cycles", 800.0,
						      "ns", 228.0));
	if (build(&m, da, db, cfg) == 0) {
		r = row(&m.table[0], "lock.ticket.compact.threads2");
		ok(r && r->cell[1].verdict != PC_VERDICT_NOT_COMPARABLE &&
		   r->cell[1].verdict != PC_VERDICT_NONE,
		   "transfer 770 against 800: judged");
		pc_compare_free(&m);
	}
	json_decref(da);
	json_decref(db);
}

/* An environment as a run records it: microcode, mitigations (a line
 * each), firmware version, the command line. */
static json_t *environment(const char *microcode, const char *spectre_v2,
			   const char *firmware, const char *cmdline)
{
	return json_pack("{s:{s:s, s:s}, s:{s:{s:s, s:s}, s:s}, s:{s:s, s:s}, s:{s:s, s:s}}",
			 "microcode", "value", microcode, "source", "/proc/cpuinfo",
			 "vulnerabilities", "value", "spectre_v2", spectre_v2, "meltdown",
			 "Not affected", "source", "/sys/devices/system/cpu/vulnerabilities",
			 "firmware_version", "value", firmware, "source",
			 "/sys/class/dmi/id/bios_version", "cmdline", "value", cmdline,
			 "source", "/proc/cmdline");
}

static int has_note(const struct pc_cmp_table *t, const char *what)
{
	size_t k;

	for (k = 0; k < t->nnotes; k++)
		if (strstr(t->note[k], what))
			return 1;
	return 0;
}

#define CMDLINE "BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=UUID=0123 ro quiet"

/* Two runs whose environments differ: a note per fact both recorded, and
 * the rows a difference moves not judged (sigprocmask makes system calls;
 * a contended point moves lines between CPUs), however far apart. */
static void environments(struct pc_compare_config *cfg)
{
	static const struct spec sa[] = { { "sigprocmask", 7000, 10, 101, NULL, 0 },
					  { "cmpxchg", 9, 0.2, 101, NULL, 0 } };
	static const struct spec sb[] = { { "sigprocmask", 21000, 10, 101, NULL, 0 },
					  { "cmpxchg", 9, 0.2, 101, NULL, 0 } };
	json_t *da = doc1("x86_64.test.1-2-3.cpu-a", sa, N(sa), "Linux 6.1");
	json_t *db = doc1("x86_64.test.1-2-3.cpu-a", sb, N(sb), "Linux 6.1");
	const struct pc_cmp_row *r;
	struct pc_compare m;

	/* files without an environment: sigprocmask is judged */
	build(&m, da, db, cfg);
	r = row(&m.table[0], "sigprocmask");
	ok(r && r->cell[1].verdict == PC_VERDICT_SLOWER && !has_note(&m.table[0], "microcode"),
	   "no environment recorded: sigprocmask 3 times slower is judged, nothing noted");
	pc_compare_free(&m);

	json_object_set_new(run0_of(da), "environment", environment("0xa0011d5",
			    "Mitigation: Retpolines", "1.2", CMDLINE));
	json_object_set_new(run0_of(db), "environment", environment("0xa0011d1",
			    "Mitigation: Enhanced / Automatic IBRS", "1.2",
			    CMDLINE " mitigations=off"));
	build(&m, da, db, cfg);
	ok(has_note(&m.table[0], "B's microcode 0xa0011d1 differs from A's 0xa0011d5: "
		    "figures may move"), "the microcode that differs is a note");
	ok(has_note(&m.table[0], "B's mitigations differ from A's: spectre_v2 "
		    "\"Mitigation: Enhanced / Automatic IBRS\" in B, \"Mitigation: "
		    "Retpolines\" in A"), "the mitigation line that differs is a note");
	ok(has_note(&m.table[0], "B's kernel command line differs from A's: it adds "
		    "mitigations=off: figures may move"),
	   "a long command line: the words it adds");
	ok(!has_note(&m.table[0], "firmware"), "a fact that agrees is not noted");
	r = row(&m.table[0], "sigprocmask");
	ok(r && r->cell[1].verdict == PC_VERDICT_NOT_COMPARABLE &&
	   strstr(r->cell[1].why, "B's microcode and mitigations differ from A's: what a "
		  "system call costs moves with them"),
	   "sigprocmask is not judged: %s", r ? r->cell[1].why : "");
	r = row(&m.table[0], "cmpxchg");
	ok(r && r->cell[1].verdict == PC_VERDICT_SAME, "cmpxchg, no system call, is judged");
	ok(renders(&m, PC_FORMAT_JSON, "\"why\": \"B's microcode and mitigations differ "
		   "from A's"), "the rendered model says why");
	pc_compare_free(&m);

	/* a fact one side could not read is not compared */
	json_object_set_new(json_object_get(run0_of(db), "environment"), "microcode",
			    json_pack("{s:s}", "unknown", "/proc/cpuinfo has no microcode line"));
	json_object_set_new(json_object_get(run0_of(db), "environment"), "vulnerabilities",
			    json_pack("{s:{s:s}, s:s}", "value", "meltdown", "Not affected",
				      "source", "/sys/devices/system/cpu/vulnerabilities"));
	build(&m, da, db, cfg);
	r = row(&m.table[0], "sigprocmask");
	ok(!has_note(&m.table[0], "microcode") && !has_note(&m.table[0], "B's mitigations") &&
	   r && r->cell[1].verdict == PC_VERDICT_SLOWER,
	   "microcode unknown on one side, and the lines both hold the same: no note, "
	   "sigprocmask judged");
	pc_compare_free(&m);

	/* a firmware update moves line transfers between CPUs */
	json_object_set_new(json_object_get(run0_of(db), "environment"), "firmware_version",
			    json_pack("{s:s, s:s}", "value", "1.3", "source", "dmi"));
	json_object_set_new(probe_of(da, "cmpxchg"), "transfer", json_pack("{s:f}", "cycles",
										 800.0));
	json_object_set_new(probe_of(db, "cmpxchg"), "transfer", json_pack("{s:f}", "cycles",
										 790.0));
	build(&m, da, db, cfg);
	r = row(&m.table[0], "cmpxchg");
	ok(has_note(&m.table[0], "B's firmware version 1.3 differs from A's 1.2") && r &&
	   r->cell[1].verdict == PC_VERDICT_NOT_COMPARABLE &&
	   strstr(r->cell[1].why, "firmware version differs from A's: what a line's "
		  "transfer between CPUs costs moves with it"),
	   "a firmware that differs: a row with a transfer gauge is not judged (%s)",
	   r ? r->cell[1].why : "");
	pc_compare_free(&m);

	/* a file that gives a list where a value belongs is still told */
	json_object_set_new(json_object_get(run0_of(db), "environment"), "firmware_version",
			    json_pack("{s:{s:s}, s:s}", "value", "bios", "1.3", "source", "dmi"));
	ok(build(&m, da, db, cfg) == 0 &&
	   has_note(&m.table[0], "B's firmware version differs from A's: figures may move"),
	   "a list against a value: noted, nothing read as what it is not");
	pc_compare_free(&m);
	json_decref(da);
	json_decref(db);
}

int main(void)
{
	static const struct spec a[] = {
		{ "baseline", 0.001, 0.01, 101, NULL, 0 },
		{ "cmpxchg", 9, 0.2, 101, NULL, 0 },
		{ "xchg", 7.5, 0.2, 101, NULL, 0 },
		{ "mb", 61, 0.2, 101, NULL, 0 },	/* +1 %: significant, too small */
		{ "rmb", 10, 8, 9, NULL, 0 },		/* +10 % in a lot of noise */
		{ "wmb", 1, 0.02, 0, NULL, 0 },	/* summaries only */
		{ "smp_mb", 7.5, 0.2, 0, NULL, 0 },
		{ "flags_save", 4, 0.1, 101, NULL, 0 },	/* only in A */
		{ "local_irq_save", 0, 0, 0, "skipped", 0 },
		{ "zz.extra_a", 5, 0.1, 101, NULL, 0 },	/* not in probes.def */
	};
	static const struct spec b[] = {
		{ "zz.extra_b", 5, 0.1, 101, NULL, 0 },	/* given first, not in A */
		{ "baseline", -0.002, 0.01, 101, NULL, 0 },
		{ "cmpxchg", 9.9, 0.2, 101, NULL, 0 },
		{ "xchg", 6.75, 0.2, 101, NULL, 0 },
		{ "mb", 61.61, 0.2, 101, NULL, 0 },
		{ "rmb", 11, 8, 9, NULL, 0 },
		{ "wmb", 1.2, 0.02, 0, NULL, 0 },
		{ "smp_mb", 7.6, 0.4, 0, NULL, 0 },
		{ "local_irq_save", 0, 0, 0, "skipped", 0 },
		{ "zz.extra_a", 5, 0.1, 101, NULL, 0 },
	};
	struct pc_compare_config cfg = { PC_METRIC_CYCLES, PC_STAT_MEDIAN, 3, 0.05, NULL, false };
	struct pc_compare m;
	const struct pc_cmp_table *t;
	const struct pc_cmp_row *r;
	json_t *da = doc1("x86_64.test.1-2-3.cpu-a", a, N(a), "Linux 6.1");
	json_t *db = doc1("x86_64.test.1-2-3.cpu-a", b, N(b), "Linux 6.12");
	char err[PC_ERRLEN] = "";
	struct pc_mwu u;
	double xa[101], xb[101];
	int i;

	ok(pc_doc_validate(da, err, sizeof(err)) == 0 && pc_doc_validate(db, err, sizeof(err)) == 0,
	   "the test documents are valid results (%s)", err);

	/* A document against itself: nothing but same. */
	json_t *copy = json_deep_copy(da);

	ok(build(&m, da, copy, &cfg) == 0, "a file against a copy of itself builds");
	t = &m.table[0];
	ok(m.slower == 0 && m.faster == 0 && m.same == 9,
	   "... every comparable probe is same (%zu slower, %zu faster, %zu same)", m.slower,
	   m.faster, m.same);
	near(t->geomean[1], 1, 1e-12, "... and the geometric mean is 1");
	pc_compare_free(&m);
	json_decref(copy);

	ok(build(&m, da, db, &cfg) == 0, "A against B builds");
	ok(m.ntables == 1 && m.table[0].nsides == 2 && !m.paired,
	   "one CPU per file: one table, two sides");
	t = &m.table[0];

	r = row(t, "cmpxchg");
	near(r->cell[1].ratio, 1.1, 1e-12, "cmpxchg: ratio of medians 9.9 / 9");
	near(r->cell[1].delta_pct, 10, 1e-9, "cmpxchg: delta +10 %%");
	ok(r->cell[1].test == PC_TEST_MWU && r->cell[1].p < 1e-6,
	   "cmpxchg: Mann-Whitney U on the raw samples, p = %g", r->cell[1].p);
	for (i = 0; i < 101; i++) {
		xa[i] = sample(&a[1], i);
		xb[i] = sample(&b[2], i);
	}
	pc_mann_whitney(xa, 101, xb, 101, &u);
	near(r->cell[1].p, u.p, 1e-15, "cmpxchg: the model's p is the U test's on raw.cycles");
	ok(r->cell[1].verdict == PC_VERDICT_SLOWER, "cmpxchg: +10 %% and significant: slower");

	r = row(t, "xchg");
	ok(r->cell[1].verdict == PC_VERDICT_FASTER && r->cell[1].delta_pct < -9.9,
	   "xchg: -10 %% and significant: faster");
	r = row(t, "mb");
	ok(r->cell[1].test == PC_TEST_MWU && r->cell[1].p < 0.05 &&
	   r->cell[1].verdict == PC_VERDICT_SAME,
	   "mb: +1 %% is significant (p = %g) but below the 3 %% threshold: same", r->cell[1].p);
	r = row(t, "rmb");
	ok(r->cell[1].test == PC_TEST_MWU && r->cell[1].p >= 0.05 &&
	   r->cell[1].verdict == PC_VERDICT_SAME,
	   "rmb: +10 %% lost in noise with 9 samples (p = %.3f): same", r->cell[1].p);
	r = row(t, "wmb");
	ok(r->cell[1].test == PC_TEST_QUARTILES && r->cell[1].verdict == PC_VERDICT_SLOWER,
	   "wmb: no raw samples, quartiles apart and +20 %%: slower by the quartile rule");
	r = row(t, "smp_mb");
	ok(r->cell[1].test == PC_TEST_QUARTILES && r->cell[1].verdict == PC_VERDICT_SAME,
	   "smp_mb: quartiles overlap: same");
	r = row(t, "baseline");
	ok(isnan(r->cell[1].ratio) && r->cell[1].verdict == PC_VERDICT_SAME,
	   "baseline: medians below the floor: no ratio, same");
	r = row(t, "flags_save");
	ok(r && r->cell[1].state == PC_CELL_ABSENT && r->cell[1].verdict == PC_VERDICT_NONE,
	   "flags_save only in A: absent in B, no verdict");
	r = row(t, "zz.extra_b");
	ok(r && r->cell[0].state == PC_CELL_ABSENT && r->cell[1].state == PC_CELL_OK,
	   "a probe only in B is a row, absent in A");
	r = row(t, "local_irq_save");
	ok(r->cell[0].state == PC_CELL_STATUS && strcmp(r->cell[1].status, "skipped") == 0 &&
	   r->cell[1].verdict == PC_VERDICT_NONE, "a skipped probe shows its status, no verdict");
	ok(strcmp(t->row[0].probe, "baseline") == 0 &&
	   strcmp(t->row[t->nrows - 1].probe, "zz.extra_b") == 0 &&
	   strcmp(t->row[t->nrows - 2].probe, "zz.extra_a") == 0,
	   "rows: probes.def order first, then other names as the files give them");
	/* geomean over cmpxchg 1.1, xchg 0.9, mb 1.01, rmb 1.1, wmb 1.2, smp_mb
	 * 7.6/7.5, zz.extra_a 1 */
	near(t->geomean[1], exp((log(1.1) + log(0.9) + log(1.01) + log(1.1) + log(1.2) +
				 log(7.6 / 7.5) + log(1.0)) / 7), 1e-9,
	     "geometric mean over the 7 probes both sides measured above the floor");
	ok(t->geomean_n[1] == 7, "... counting 7 probes");
	ok(m.slower == 2 && m.faster == 1, "2 slower (cmpxchg, wmb), 1 faster (xchg) over the table (%zu, %zu)", m.slower, m.faster);
	{
		size_t k;
		int kern = 0;

		for (k = 0; k < t->nnotes; k++)
			kern |= strstr(t->note[k], "kernels differ") != NULL;
		ok(kern, "a kernel difference is noted");
	}
	pc_compare_free(&m);

	/* Threshold 0: the significant +1 % becomes a verdict. */
	cfg.threshold_pct = 0;
	build(&m, da, db, &cfg);
	ok(row(&m.table[0], "mb")->cell[1].verdict == PC_VERDICT_SLOWER,
	   "--threshold 0: a significant +1 %% is slower");
	pc_compare_free(&m);
	cfg.threshold_pct = 3;

	/* ns: raw ticks scaled by 1e9 / timer hz. */
	cfg.metric = PC_METRIC_NS;
	build(&m, da, db, &cfg);
	r = row(&m.table[0], "cmpxchg");
	near(r->cell[0].median, 9 / 2.5, 1e-9, "--metric ns reads the ns summary");
	ok(r->cell[1].test == PC_TEST_MWU && r->cell[1].verdict == PC_VERDICT_SLOWER,
	   "--metric ns tests the raw ticks scaled to ns");
	pc_compare_free(&m);
	cfg.metric = PC_METRIC_CYCLES;

	/* A published single figure. */
	{
		static const struct spec ref[] = { { "cmpxchg", 12, 0, 0, NULL, 1 } };
		json_t *dr = doc1("ia64.test.32-0-7.ref", ref, 1, "Linux 2.6");

		json_object_set_new(json_array_get(json_object_get(json_object_get(
			json_object_get(dr, "cpus"), "ia64.test.32-0-7.ref"), "runs"), 0),
			"cycles_source", json_string("published"));
		ok(build(&m, da, dr, &cfg) == 0, "a run against a published table builds");
		r = row(&m.table[0], "cmpxchg");
		ok(r->cell[1].test == PC_TEST_SINGLE && r->cell[1].verdict == PC_VERDICT_SLOWER,
		   "a single published figure: the threshold alone decides");
		ok(row(&m.table[0], "mb")->cell[1].state == PC_CELL_ABSENT,
		   "probes the table lacks are absent, not errors");
		pc_compare_free(&m);
		cfg.metric = PC_METRIC_NS;
		build(&m, da, dr, &cfg);
		ok(row(&m.table[0], "cmpxchg")->cell[1].state == PC_CELL_NO_METRIC,
		   "a unit the published table does not give reads n/a");
		pc_compare_free(&m);
		cfg.metric = PC_METRIC_CYCLES;
		json_decref(dr);
	}

	/* Files with several CPUs: paired by key; --cpu selects. */
	{
		json_t *fa = json_deep_copy(da), *fb = json_deep_copy(db);
		const char *only_a[] = { "*cpu-a", NULL }, *none[] = { "nomatch*", NULL };

		json_object_set_new(json_object_get(fa, "cpus"), "x86_64.test.9-9-9.cpu-x",
				    entry(a, 3, "Linux 6.1"));
		json_object_set_new(json_object_get(fb, "cpus"), "x86_64.test.8-8-8.cpu-y",
				    entry(b, 3, "Linux 6.1"));
		ok(build(&m, fa, fb, &cfg) == 0 && m.paired && m.ntables == 3,
		   "two files of two CPUs each, one key shared: paired, 3 tables");
		ok(m.table[0].side[0].entry && m.table[0].side[1].entry &&
		   !m.table[1].side[1].entry && !m.table[2].side[0].entry,
		   "the shared key faces itself; a key in one file faces an absent side");
		pc_compare_free(&m);
		cfg.cpu_globs = only_a;
		ok(build(&m, fa, fb, &cfg) == 0 && !m.paired && m.ntables == 1 &&
		   m.table[0].nsides == 2, "--cpu '*cpu-a' selects one CPU per file");
		pc_compare_free(&m);
		cfg.cpu_globs = NULL;
		ok(build(&m, fa, NULL, &cfg) == 0 && m.ntables == 1 && m.table[0].nsides == 2,
		   "one file with two CPUs: they are compared with each other");
		pc_compare_free(&m);
		cfg.cpu_globs = none;
		ok(build(&m, fa, fb, &cfg) < 0, "--cpu matching nothing is an error");
		cfg.cpu_globs = NULL;
		ok(build(&m, da, NULL, &cfg) < 0, "one file with one CPU: nothing to compare");
		json_decref(fa);
		json_decref(fb);
	}

	/* The JSON rendering is the model. */
	{
		json_t *j, *cell;
		size_t k;

		build(&m, da, db, &cfg);
		j = pc_compare_json(&m);
		cell = NULL;
		for (k = 0; k < m.table[0].nrows; k++)
			if (strcmp(m.table[0].row[k].probe, "cmpxchg") == 0)
				cell = json_array_get(json_object_get(json_array_get(json_object_get(
					json_array_get(json_object_get(j, "tables"), 0), "rows"), k),
					"cells"), 1);
		ok(cell && strcmp(json_string_value(json_object_get(cell, "verdict")),
				  "slower") == 0 &&
		   fabs(json_number_value(json_object_get(cell, "ratio")) - 1.1) < 1e-12 &&
		   strcmp(json_string_value(json_object_get(cell, "test")), "mann-whitney") == 0,
		   "--format json carries the model: cmpxchg slower, ratio 1.1, mann-whitney");
		ok(json_integer_value(json_object_get(json_object_get(j, "verdicts"), "slower")) == 2,
		   "--format json counts the verdicts");
		json_decref(j);
		pc_compare_free(&m);
	}
	not_comparable(da, db, &cfg);
	canary_note(da, db, &cfg);
	published(da, &cfg);
	spread_threshold(&cfg);
	points(&cfg);
	environments(&cfg);
	json_decref(da);
	json_decref(db);
	return done_testing();
}
