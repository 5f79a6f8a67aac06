/* SPDX-License-Identifier: MIT */
/*
 * compare.c - the comparison model (see compare.h). Everything a rendering
 * shows is decided here: which CPUs face which, the figures, ratios,
 * p-values, verdicts, the geometric mean and the context warnings.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "packed.h"
#include "core/samples.h"
#include "core/util.h"

static const char *const metric_names[] = { "cycles", "ns", "ticks" };

const char *pc_metric_name(enum pc_metric m)
{
	return metric_names[m];
}

int pc_metric_parse(const char *s, enum pc_metric *m)
{
	int i = pc_word_index(s, metric_names, 3);

	if (i < 0)
		return -1;
	*m = (enum pc_metric)i;
	return 0;
}

const char *pc_verdict_name(enum pc_verdict v)
{
	static const char *const names[] = { "", "same", "faster", "slower",
					     "not comparable" };

	return names[v];
}

const char *pc_test_name(enum pc_test t)
{
	static const char *const names[] = { "none", "mann-whitney", "quartiles",
					     "single-figure", "modes" };

	return names[t];
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static json_t *newest_run(json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs");
	size_t n = json_array_size(runs);

	return n ? json_array_get(runs, n - 1) : NULL;
}

/* The run a current figure belongs to: its "run", else the last run. */
static size_t run_of(json_t *p, size_t nruns)
{
	json_t *r = json_object_get(p, "run");

	return json_is_integer(r) ? (size_t)json_integer_value(r) : nruns - 1;
}

static const char *date_of(json_t *run)
{
	const char *d = str(run, "date");

	return d ? d : "";
}

/* Which runs the current figures come from: how many, the newest and the
 * oldest of them, and how many figures a partial run gave. */
static json_t *runs_used(struct pc_cmp_side *s, json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs"), *p, *newest = NULL;
	size_t n = json_array_size(runs), k;
	const char *name;
	char *seen = n ? calloc(n, 1) : NULL;

	if (!seen)
		return newest_run(entry);
	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		k = run_of(p, n);
		if (k >= n)
			continue;
		if (json_is_true(json_object_get(json_array_get(runs, k), "partial"))) {
			s->partial_figures++;
			/* What interrupted the run the partial figures come
			 * from, which need not be the newest run used. */
			if (!s->interrupted_by)
				s->interrupted_by = str(json_array_get(runs, k),
							"interrupted_by");
		}
		if (seen[k]++)
			continue;
		s->runs_used++;
		if (!newest || pc_date_cmp(date_of(json_array_get(runs, k)), date_of(newest)) >= 0)
			newest = json_array_get(runs, k);
		if (!s->oldest_date || pc_date_cmp(date_of(json_array_get(runs, k)),
					       s->oldest_date) < 0)
			s->oldest_date = date_of(json_array_get(runs, k));
	}
	free(seen);
	return newest ? newest : newest_run(entry);
}

static void side_init(struct pc_cmp_side *s, const char *file, const char *key,
		      json_t *entry)
{
	json_t *cpu = json_object_get(entry, "cpu"), *run, *v;
	json_t *timer = json_object_get(cpu, "timer");

	memset(s, 0, sizeof(*s));
	s->file = file;
	s->key = key;
	s->entry = entry;
	s->virtualized = -1;
	if (!entry)
		return;
	/* The context is the run the figures come from (the newest of them). */
	run = runs_used(s, entry);
	s->newest_date = run ? date_of(run) : NULL;
	s->brand = str(cpu, "brand");
	s->cycles_source = str(run, "cycles_source");
	s->kernel = str(run, "kernel");
	s->version = str(run, "primcost_version");
	s->timer = str(timer, "name");
	s->timer_hz = json_number_value(json_object_get(timer, "hz"));
	v = json_object_get(cpu, "virtualized");
	if (json_is_boolean(v))
		s->virtualized = json_is_true(v);
	s->unreliable = json_is_true(json_object_get(run, "unreliable"));
	s->unreliable_reason = str(run, "unreliable_reason");
	{
		json_t *c = json_object_get(json_object_get(run, "contention"),
					    "canary_cycles_median");

		s->canary = json_is_number(c) ? json_number_value(c) : NAN;
	}
	s->pace = pc_run_pace(run);
	{
		json_t *h = json_object_get(run, "host_slower");

		s->slower_pace = json_number_value(json_object_get(h, "pace_cycles"));
		s->slower_best = json_number_value(json_object_get(h, "best_cycles"));
	}
	s->reference = str(json_object_get(run, "provenance"), "summary");
	s->environment = json_object_get(run, "environment");
}

/* ---- cells ----------------------------------------------------------------- */

/* The raw samples of p in the metric's unit, or NULL; *n their count and
 * *scale what each stored value must be multiplied by. */
static json_t *raw_of(json_t *p, enum pc_metric metric, const struct pc_cmp_side *s,
		      double *scale)
{
	json_t *raw = json_object_get(p, "raw");

	*scale = 1;
	switch (metric) {
	case PC_METRIC_CYCLES:
		return json_object_get(raw, "cycles");
	case PC_METRIC_TICKS:
		return json_object_get(raw, "ticks");
	case PC_METRIC_NS:
		if (!(s->timer_hz > 0))
			return NULL;
		*scale = 1e9 / s->timer_hz;
		return json_object_get(raw, "ticks");
	}
	return NULL;
}

void pc_cmp_cell_figures(struct pc_cmp_cell *c, json_t *p, json_t *m)
{
	const char *src;

	c->state = PC_CELL_OK;
	c->transfer = json_number_value(json_object_get(json_object_get(p, "transfer"),
							"cycles"));
	c->median = json_number_value(json_object_get(m, "median"));
	c->q1 = json_number_value(json_object_get(m, "q1"));
	c->q3 = json_number_value(json_object_get(m, "q3"));
	c->mad = json_number_value(json_object_get(m, "mad"));
	c->samples = (long long)json_integer_value(json_object_get(p, "samples"));
	c->noisy = pc_probe_rank(p) == 1;
	c->nonlinear = json_is_true(json_object_get(p, "nonlinear"));
	src = str(p, "cycles_source");
	c->published = src && strcmp(src, "published") == 0;
	c->single = c->samples <= 1 || c->published;
	c->spread = json_is_number(json_object_get(p, "round_spread")) ?
		    json_number_value(json_object_get(p, "round_spread")) : NAN;
}

static int differs(const char *a, const char *b)
{
	return a && b && strcmp(a, b) != 0;
}

/* Did runs a and b run under the same kernel and primcost version? */
static int same_conditions(json_t *a, json_t *b)
{
	return !differs(str(a, "kernel"), str(b, "kernel")) &&
	       !differs(str(a, "primcost_version"), str(b, "primcost_version"));
}

/* The spread of the probe's figures over the runs the file keeps: the
 * current one and those filed in runs[k].probes (docs/design.md,
 * "History") by runs of the same kernel and primcost version (a change
 * of either is what a comparison looks for), ok ones with the metric.
 * NAN with fewer than two. */
static double history_spread(json_t *entry, const char *name, enum pc_metric metric)
{
	json_t *runs = json_object_get(entry, "runs"), *run, *p, *cur;
	double v[PC_HISTORY_MAX], lo, hi, mid;
	size_t n = 0, k = 0, i;

	p = json_object_get(json_object_get(entry, "probes"), name);
	cur = json_array_get(runs, run_of(p, json_array_size(runs)));
	while (p && n < PC_HISTORY_MAX) {
		json_t *m = json_object_get(p, pc_metric_name(metric));

		if (pc_probe_rank(p) == 2 && json_is_number(json_object_get(m, "median")))
			v[n++] = json_number_value(json_object_get(m, "median"));
		p = NULL;
		while (!p && k < json_array_size(runs)) {
			run = json_array_get(runs, k++);
			if (same_conditions(run, cur))
				p = json_object_get(json_object_get(run, "probes"), name);
		}
	}
	if (n < 2)
		return NAN;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	mid = pc_median(v, n);
	return fabs(mid) >= PC_COMPARE_FLOOR ? (hi - lo) / fabs(mid) : NAN;
}

bool pc_cmp_cell_start(struct pc_cmp_cell *c, json_t *p)
{
	memset(c, 0, sizeof(*c));
	c->ratio = c->delta_pct = c->p = c->spread = c->threshold_pct = NAN;
	c->history_spread = NAN;
	if (!p) {
		c->state = PC_CELL_ABSENT;
		return false;
	}
	c->status = str(p, "status");
	c->reason = str(p, "reason");
	return true;
}

static void cell_fill(struct pc_cmp_cell *c, json_t *p, enum pc_metric metric,
		      const struct pc_cmp_side *s, const char *name)
{
	json_t *m, *raw;
	double scale;

	if (!pc_cmp_cell_start(c, p))
		return;
	/* ok and noisy carry figures; noisy ones are shown, never judged */
	if (!pc_probe_measured(p)) {
		c->state = PC_CELL_STATUS;
		return;
	}
	m = json_object_get(p, pc_metric_name(metric));
	if (!m) {
		c->state = PC_CELL_NO_METRIC;
		return;
	}
	pc_cmp_cell_figures(c, p, m);
	c->history_spread = history_spread(s->entry, name, metric);
	raw = raw_of(p, metric, s, &scale);
	c->nraw = pc_samples_count(raw) > 0 ? (size_t)pc_samples_count(raw) : 0;
}

/* The engine's round_spread (pc_round_spread: PC_ROUNDS equal runs of the
 * samples in the order taken), from the raw samples, for files that lack
 * it. NAN when there are too few samples. */
static double spread_of_raw(json_t *p, enum pc_metric metric,
			    const struct pc_cmp_side *s)
{
	double scale, spread = NAN, *v;
	size_t n = 0;

	v = pc_samples_values(raw_of(p, metric, s, &scale), &n);
	if (v && n >= PC_ROUNDS * PC_COMPARE_MIN_PER_ROUND)
		spread = pc_round_spread(v, n);
	free(v);
	return spread;
}

/* A measured cell's spread: the file's round_spread, else (when decode)
 * from its raw samples, once; NAN for a figure below the floor, whose
 * spread relative to ~0 says nothing. */
static double cell_spread(struct pc_cmp_cell *c, json_t *p, enum pc_metric metric,
			  const struct pc_cmp_side *s, bool decode)
{
	if (!(fabs(c->median) >= PC_COMPARE_FLOOR))
		return NAN;
	if (decode && isnan(c->spread) && !c->spread_tried &&
	    c->nraw >= PC_ROUNDS * PC_COMPARE_MIN_PER_ROUND)
		c->spread = spread_of_raw(p, metric, s);
	c->spread_tried |= decode;
	return c->spread;
}

/* The raw samples of p in the metric's unit, in ascending order (what the
 * U test takes), or NULL; *n their count. */
static double *raw_sorted(json_t *p, enum pc_metric metric, const struct pc_cmp_side *s,
			  size_t *n)
{
	double scale;
	json_t *raw = raw_of(p, metric, s, &scale);

	/* an array of numbers, or packed samples (packed.h) */
	return pc_samples_sorted(raw, scale, n);
}

/* The first side's figure of a row, against which every other side is
 * compared: its raw samples are decoded and sorted once, when first
 * needed. */
struct first {
	json_t *p;
	const struct pc_cmp_side *s;
	double *sorted;
	size_t n;
	int decoded;
};

/* Is the row the empty loop (group baseline in the files, else in
 * probes.def)? */
static int is_baseline(const struct pc_cmp_row *row)
{
	int id;

	if (row->group)
		return strcmp(row->group, pc_group_name(PC_GROUP_BASELINE)) == 0;
	id = pc_probe_find(row->probe);
	return id >= 0 && pc_probe_rows[id].group == PC_GROUP_BASELINE;
}

/*
 * Why a row's figures on sides a and b (labels la, lb) are not fit to
 * judge, into buf; 0 when they are. An unreliable run, a noisy figure, a
 * published loop's overhead against a measured baseline, which is zero by
 * construction (the loop is subtracted), or a difference in the
 * environment known to move the row (compare_env.c).
 */
static int not_comparable(const struct pc_cmp_row *row, const struct pc_cmp_cell *a,
			  const struct pc_cmp_cell *b, const struct pc_cmp_side *sa,
			  const struct pc_cmp_side *sb, const char *lb, char *buf,
			  size_t len)
{
	if (a->state != PC_CELL_OK || b->state != PC_CELL_OK)
		return 0;
	/* structural first: it holds whatever the runs were like */
	if (is_baseline(row) && a->published != b->published) {
		snprintf(buf, len, "%s's baseline is a published loop's overhead, the "
			 "other a subtracted loop (zero by construction)",
			 a->published ? "A" : lb);
	} else if (sa->unreliable || sb->unreliable) {
		const struct pc_cmp_side *s = sa->unreliable ? sa : sb;

		snprintf(buf, len, "%s's run is marked unreliable%s%s",
			 sa->unreliable ? "A" : lb, s->unreliable_reason ? ": " : "",
			 s->unreliable_reason ? s->unreliable_reason : "");
	} else if (a->transfer > 0 && b->transfer > 0 &&
		   fmax(a->transfer, b->transfer) > PC_TRANSFER_MOVED *
		   fmin(a->transfer, b->transfer)) {
		snprintf(buf, len, "a line moved between the CPUs in %.0f cycles in A, "
			 "%.0f in %s: they were not as far apart (a host that moved "
			 "a virtual machine's vCPUs?)", a->transfer, b->transfer, lb);
	} else if (a->noisy || b->noisy) {
		const struct pc_cmp_cell *n = a->noisy ? a : b;

		if (a->noisy && b->noisy)
			snprintf(buf, len, "A and %s are noisy", lb);
		else
			snprintf(buf, len, "%s is noisy%s%s", a->noisy ? "A" : lb,
				 n->reason ? ": " : "", n->reason ? n->reason : "");
	} else if (pc_compare_env_moved(row, a, b, sb)) {
		snprintf(buf, len, "%s", pc_compare_env_moved(row, a, b, sb));
	} else {
		return 0;
	}
	return 1;
}

/* The threshold of a row: --threshold, or PC_COMPARE_SPREAD_K times the
 * largest spread shown (the round medians' on either side, the runs' of
 * A's file: B's history may hold the very change compared) when that is
 * more. Raw samples are decoded for a spread only when decode (when the
 * threshold could take a verdict away). */
static double row_threshold(struct pc_cmp_cell *b, struct pc_cmp_cell *a,
			    const struct first *fa, json_t *pb,
			    const struct pc_cmp_side *sb, const struct pc_compare_config *cfg,
			    bool decode)
{
	double x[3] = { cell_spread(a, fa->p, cfg->metric, fa->s, decode),
			cell_spread(b, pb, cfg->metric, sb, decode),
			fabs(a->median) >= PC_COMPARE_FLOOR ? a->history_spread : NAN };
	double s = NAN;
	size_t i;

	for (i = 0; i < 3; i++)
		if (!isnan(x[i]) && (isnan(s) || x[i] > s))
			s = x[i];
	if (!isnan(s) && PC_COMPARE_SPREAD_K * s * 100 > cfg->threshold_pct)
		return PC_COMPARE_SPREAD_K * s * 100;
	return cfg->threshold_pct;
}

/* Is b's difference from a significant? Mann-Whitney U p < alpha when both
 * sides kept at least 9 raw samples; else the interquartile ranges do not
 * overlap when both sides have a spread; else (a single figure) always.
 * -1 when memory runs out. */
static int significant(struct pc_cmp_cell *b, const struct pc_cmp_cell *a,
		       struct first *fa, json_t *pb, const struct pc_cmp_side *sb,
		       const struct pc_compare_config *cfg)
{
	if (a->nraw >= PC_COMPARE_MIN_RAW && b->nraw >= PC_COMPARE_MIN_RAW) {
		struct pc_mwu u;
		size_t nb;
		double *xb;
		int rc;

		if (!fa->decoded) {
			fa->sorted = raw_sorted(fa->p, cfg->metric, fa->s, &fa->n);
			fa->decoded = 1;
		}
		xb = raw_sorted(pb, cfg->metric, sb, &nb);
		rc = fa->sorted && xb ? pc_mann_whitney_sorted(fa->sorted, fa->n, xb, nb,
							       &u) : -1;
		free(xb);
		if (rc < 0)
			return -1;
		b->test = PC_TEST_MWU;
		b->p = u.p;
		return u.p < cfg->alpha;
	}
	if (a->samples >= 2 && b->samples >= 2) {
		b->test = PC_TEST_QUARTILES;
		return b->q1 > a->q3 || b->q3 < a->q1;
	}
	b->test = PC_TEST_SINGLE;
	return 1;
}

/* A side's modes in cycles, rising, and their shares: a probe that varies
 * has its own (results: "modes"); any other figure is one mode, its median
 * (the metric's). Returns how many (at most max). */
static size_t modes_of(json_t *p, const struct pc_cmp_cell *c, enum pc_metric metric,
		       double *m, double *share, size_t max)
{
	json_t *modes = json_object_get(p, "modes"), *x;
	size_t i, n = 0;

	if (metric == PC_METRIC_CYCLES && json_is_true(json_object_get(p, "varies")))
		json_array_foreach(modes, i, x) {
			if (n < max && json_number_value(json_object_get(x, "cycles")) > 0) {
				m[n] = json_number_value(json_object_get(x, "cycles"));
				share[n++] = json_number_value(json_object_get(x, "share"));
			}
		}
	if (!n) {
		m[0] = c->median;
		share[0] = 1;
		n = 1;
	}
	return n;
}

static bool near_one(double x, const double *m, size_t n, double thr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(x / m[i] - 1) * 100 < thr)
			return true;
	return false;
}

/*
 * A probe whose own cost varies on a side is judged by its modes: the same
 * when every mode of the side with fewer lies within the threshold of one
 * of the other side's (the shares may move: they are the probe's own);
 * else slower or faster by the means over the modes, weighted by their
 * shares. Only where either side varies, in cycles.
 */
static void modes_compare(struct pc_cmp_cell *b, json_t *pa, json_t *pb,
			  const struct pc_cmp_cell *a, const struct pc_compare_config *cfg)
{
	double ma[PC_MODES_MAX], sa[PC_MODES_MAX], mb[PC_MODES_MAX], sb[PC_MODES_MAX];
	double mean_a = 0, mean_b = 0;
	size_t na = modes_of(pa, a, cfg->metric, ma, sa, PC_MODES_MAX),
	       nb = modes_of(pb, b, cfg->metric, mb, sb, PC_MODES_MAX), i;
	bool same = true;

	b->test = PC_TEST_MODES;
	b->threshold_pct = cfg->threshold_pct;
	for (i = 0; i < (na <= nb ? na : nb); i++)
		same &= na <= nb ? near_one(ma[i], mb, nb, cfg->threshold_pct) :
				   near_one(mb[i], ma, na, cfg->threshold_pct);
	for (i = 0; i < na; i++)
		mean_a += ma[i] * sa[i];
	for (i = 0; i < nb; i++)
		mean_b += mb[i] * sb[i];
	b->verdict = same ? PC_VERDICT_SAME :
		     mean_b > mean_a ? PC_VERDICT_SLOWER : PC_VERDICT_FASTER;
}

static bool varies(json_t *p)
{
	return json_is_true(json_object_get(p, "varies"));
}

/*
 * The verdict rule (primcost-compare(1)): no verdict where either side is
 * not fit to judge (why, from not_comparable()); else a difference is a
 * verdict only when it is both significant (above) and large enough:
 * |B - A| > PC_COMPARE_FLOOR and, when A is above the floor, |B/A - 1| at
 * least the row's threshold (row_threshold()).
 */
static int cell_compare(struct pc_cmp_cell *b, struct pc_cmp_cell *a,
			struct first *fa, json_t *pb, const struct pc_cmp_side *sb,
			const struct pc_compare_config *cfg, const char *why)
{
	double diff;
	int sig, large;

	b->verdict = PC_VERDICT_NONE;
	b->test = PC_TEST_NONE;
	if (a->state != PC_CELL_OK || b->state != PC_CELL_OK)
		return 0;
	diff = b->median - a->median;
	if (fabs(a->median) >= PC_COMPARE_FLOOR) {
		b->ratio = b->median / a->median;
		b->delta_pct = (b->ratio - 1) * 100;
	}
	if (why) {
		b->verdict = PC_VERDICT_NOT_COMPARABLE;
		snprintf(b->why, sizeof(b->why), "%s", why);
		return 0;
	}
	if (cfg->metric == PC_METRIC_CYCLES && (varies(fa->p) || varies(pb))) {
		modes_compare(b, fa->p, pb, a, cfg);
		return 0;
	}
	sig = significant(b, a, fa, pb, sb, cfg);
	if (sig < 0)
		return -1;
	/* the spreads the files state; the raw samples' only where a verdict
	 * hangs on them (decoding them all doubled compare's time) */
	b->threshold_pct = row_threshold(b, a, fa, pb, sb, cfg, false);
	large = fabs(diff) > PC_COMPARE_FLOOR &&
		(isnan(b->delta_pct) || fabs(b->delta_pct) >= b->threshold_pct);
	if (sig && large && (isnan(a->spread) || isnan(b->spread))) {
		b->threshold_pct = row_threshold(b, a, fa, pb, sb, cfg, true);
		large = isnan(b->delta_pct) || fabs(b->delta_pct) >= b->threshold_pct;
	}
	b->verdict = sig && large ? (diff > 0 ? PC_VERDICT_SLOWER : PC_VERDICT_FASTER) :
		     PC_VERDICT_SAME;
	return 0;
}

/* ---- tables ---------------------------------------------------------------- */

/* Takes s, allocated, as t's next note, of kind k; -1 (s freed) when
 * memory runs out. */
static int take_note(struct pc_cmp_table *t, char *s, enum pc_note_kind k)
{
	char **grown = realloc(t->note, (t->nnotes + 1) * sizeof(*grown));
	enum pc_note_kind *kinds;

	if (grown)
		t->note = grown;
	kinds = grown ? realloc(t->note_kind, (t->nnotes + 1) * sizeof(*kinds)) : NULL;
	if (!kinds) {
		free(s);
		return -1;
	}
	t->note_kind = kinds;
	t->note_kind[t->nnotes] = k;
	t->note[t->nnotes++] = s;
	return 0;
}

/* add_note (the context), side_note (a side's own fact), judging_note
 * (how the verdicts were reached): a note of that kind. */
#define NOTE_ADDER(name, kind)							\
static int __attribute__((format(printf, 2, 3)))				\
name(struct pc_cmp_table *t, const char *fmt, ...)				\
{										\
	char *s;								\
	va_list ap;								\
	int rc;									\
										\
	va_start(ap, fmt);							\
	rc = vasprintf(&s, fmt, ap);						\
	va_end(ap);								\
	return rc < 0 ? -1 : take_note(t, s, kind);				\
}
NOTE_ADDER(add_note, PC_NOTE_CONTEXT)
NOTE_ADDER(side_note, PC_NOTE_SIDE)
NOTE_ADDER(judging_note, PC_NOTE_JUDGING)

int pc_cmp_add_note(struct pc_cmp_table *t, const char *text)
{
	char *s = strdup(text);

	return s ? take_note(t, s, PC_NOTE_CONTEXT) : -1;
}

const char *pc_side_label(size_t i, char *buf)
{
	if (i < 26)
		snprintf(buf, PC_LABEL_LEN, "%c", (char)('A' + i));
	else
		snprintf(buf, PC_LABEL_LEN, "#%zu", i + 1);
	return buf;
}

/* Rows of runs newer than the figure shown that were not measured there, or
 * measured noisy over a figure (an entry never replaces one of a higher
 * rank: primcost-run(1)). */
static int unmeasured_notes(struct pc_cmp_table *t, const struct pc_cmp_side *b,
			    const char *lb)
{
	json_t *runs = json_object_get(b->entry, "runs"), *p, *run;
	size_t n = json_array_size(runs), k, said = 0, more = 0;
	const char *name;

	json_object_foreach(json_object_get(b->entry, "probes"), name, p) {
		size_t j = run_of(p, n);

		if (!pc_probe_measured(p) || j >= n)
			continue;
		json_array_foreach(runs, k, run) {
			json_t *rec = json_object_get(json_object_get(run, "probes"), name);
			int age = pc_date_cmp(date_of(run), date_of(json_array_get(runs, j)));

			/* Newer: a later date, or the same date and a later index. */
			if (!rec || pc_probe_rank(rec) >= pc_probe_rank(p) ||
			    age < 0 || (age == 0 && k <= j))
				continue;
			if (said++ >= 4) {
				more++;
				break;
			}
			if (add_note(t, "%s: %s: run %zu (%s) %s (%s%s%s); "
				     "the figure is run %zu's (%s)", lb, name, k,
				     date_of(run), pc_probe_measured(rec) ?
				     "measured it noisy" : "did not measure it",
				     str(rec, "status"), str(rec, "reason") ?
				     ": " : "", str(rec, "reason") ? str(rec, "reason") : "",
				     j, date_of(json_array_get(runs, j))) < 0)
				return -1;
			break;
		}
	}
	if (more && add_note(t, "%s: %zu more figures that a newer run did not "
			     "measure or measured noisy", lb, more) < 0)
		return -1;
	return 0;
}

/* Where a side's figures come from, when not from one whole run. */
static int history_notes(struct pc_cmp_table *t, const struct pc_cmp_side *b,
			 const char *lb)
{
	if (b->runs_used > 1 &&
	    add_note(t, "%s mixes runs: its figures come from %zu runs, %s to %s "
		     "(FILE@latest or FILE@N takes one run)", lb, b->runs_used,
		     b->oldest_date, b->newest_date) < 0)
		return -1;
	if (b->partial_figures &&
	    add_note(t, "%s is partial: %zu figure%s from a run interrupted%s%s and "
		     "saved with --save-partial", lb, b->partial_figures,
		     b->partial_figures == 1 ? " comes" : "s come",
		     b->interrupted_by ? " by " : "",
		     b->interrupted_by ? b->interrupted_by : "") < 0)
		return -1;
	return unmeasured_notes(t, b, lb);
}

/* What differs between side i and the first side in ways that matter. */
static int context_notes(struct pc_cmp_table *t, enum pc_metric metric)
{
	const struct pc_cmp_side *a = &t->side[0];
	char la[PC_LABEL_LEN], lb[PC_LABEL_LEN];
	size_t i;

	for (i = 0; i < t->nsides; i++) {
		const struct pc_cmp_side *b = &t->side[i];

		pc_side_label(i, lb);
		if (!b->entry) {
			if (side_note(t, "%s: %s holds no CPU %s", lb, b->file, b->key) < 0)
				return -1;
			continue;
		}
		if (b->reference &&
		    side_note(t, "%s is a published table: %s", lb, b->reference) < 0)
			return -1;
		if (b->unreliable &&
		    add_note(t, "%s: its run is marked unreliable%s%s%s: no verdicts "
			     "%s it, no geomean", lb, b->unreliable_reason ? " (" : "",
			     b->unreliable_reason ? b->unreliable_reason : "",
			     b->unreliable_reason ? ")" : "", i ? "for" : "against") < 0)
			return -1;
		if (history_notes(t, b, lb) < 0)
			return -1;
		if (b->slower_best > 0 &&
		    add_note(t, "%s ran on a slower host: its pace read %.2f cycles a "
			     "call, %.0f %% above the best of its file's earlier runs "
			     "of this CPU (%.2f): its figures may read high", lb,
			     b->slower_pace, 100 * (b->slower_pace / b->slower_best - 1),
			     b->slower_best) < 0)
			return -1;
		if (i == 0 || !a->entry)
			continue;
		pc_side_label(0, la);
		if (differs(a->cycles_source, b->cycles_source) &&
		    side_note(t, "cycles come from different sources: %s %s, %s %s", la,
			     a->cycles_source, lb, b->cycles_source) < 0)
			return -1;
		if (a->virtualized >= 0 && b->virtualized >= 0 &&
		    a->virtualized != b->virtualized &&
		    side_note(t, "%s ran %s a virtual machine, %s %s", la,
			     a->virtualized ? "in" : "outside", lb,
			     b->virtualized ? "in one" : "outside") < 0)
			return -1;
		/* The contention canary says how shared the core was. */
		if (a->canary > 0 && b->canary > 0 &&
		    fabs(b->canary - a->canary) > PC_COMPARE_CANARY * a->canary &&
		    add_note(t, "the core was shared more in one run: the contention "
			     "canary's median is %.3f cycles in %s, %.3f in %s "
			     "(code that shares a core's front end, as an allocator's, "
			     "can read over 1.5 times slower for that reason)",
			     a->canary, la, b->canary, lb) < 0)
			return -1;
		/* The host's pace says how quick the host was. */
		if (a->pace > 0 && b->pace > 0 &&
		    fabs(b->pace - a->pace) > PC_HOST_SLOWER * fmin(a->pace, b->pace) &&
		    add_note(t, "the host ran at another pace: %.2f cycles a call in "
			     "%s, %.2f in %s (code bound by instruction fetch, as an "
			     "allocator's, moves with it)", a->pace, la, b->pace, lb) < 0)
			return -1;
		if (differs(a->kernel, b->kernel) &&
		    add_note(t, "kernels differ: %s %s, %s %s", la, a->kernel, lb,
			     b->kernel) < 0)
			return -1;
		if (pc_compare_env_notes(t, i) < 0)
			return -1;
		if (differs(a->version, b->version) &&
		    add_note(t, "primcost versions differ: %s %s, %s %s", la, a->version,
			     lb, b->version) < 0)
			return -1;
		if (metric == PC_METRIC_TICKS && a->timer && b->timer &&
		    (differs(a->timer, b->timer) ||
		     fabs(a->timer_hz - b->timer_hz) > 1e-3 * a->timer_hz) &&
		    add_note(t, "timers differ (%s %s at %.1f MHz, %s %s at %.1f MHz): "
			     "ticks of different timers are not comparable; use "
			     "--metric cycles", la, a->timer, a->timer_hz / 1e6, lb,
			     b->timer, b->timer_hz / 1e6) < 0)
			return -1;
	}
	return 0;
}

/* Row index of probe name in t, added when new (name -> index in idx). */
static long row_of(struct pc_cmp_table *t, json_t *idx, const char *name,
		   json_t *p, size_t *cap)
{
	json_t *v = json_object_get(idx, name);

	if (v)
		return (long)json_integer_value(v);
	if (t->nrows == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct pc_cmp_row *g = realloc(t->row, ncap * sizeof(*g));

		if (!g)
			return -1;
		t->row = g;
		*cap = ncap;
	}
	memset(&t->row[t->nrows], 0, sizeof(t->row[0]));
	t->row[t->nrows].probe = name;
	t->row[t->nrows].group = str(p, "group");
	json_object_set_new(idx, name, json_integer((json_int_t)t->nrows));
	return (long)t->nrows++;
}

/* The cells of row r, every side against the first. */
static int row_fill(struct pc_cmp_table *t, struct pc_cmp_row *row,
		    const struct pc_compare_config *cfg)
{
	struct first fa = { NULL, &t->side[0], NULL, 0, 0 };
	char why[sizeof(row->cell[0].why)], lb[PC_LABEL_LEN];
	size_t i;

	if (!row->group) {	/* a name another side gave first */
		for (i = 0; i < t->nsides && !row->group; i++)
			row->group = str(json_object_get(json_object_get(
				t->side[i].entry, "probes"), row->probe), "group");
	}
	row->cell = calloc(t->nsides, sizeof(*row->cell));
	if (!row->cell)
		return -1;
	fa.p = json_object_get(json_object_get(t->side[0].entry, "probes"), row->probe);
	for (i = 0; i < t->nsides; i++) {
		json_t *p = json_object_get(json_object_get(t->side[i].entry, "probes"),
					    row->probe);
		struct pc_cmp_cell *c = &row->cell[i];

		cell_fill(c, p, cfg->metric, &t->side[i], row->probe);
		if (!i)
			continue;
		if (row->cell[0].state != PC_CELL_ABSENT && c->state != PC_CELL_ABSENT)
			t->common[i]++;
		pc_side_label(i, lb);
		if (cell_compare(c, &row->cell[0], &fa, p, &t->side[i], cfg,
				 not_comparable(row, &row->cell[0], c, &t->side[0],
						&t->side[i], lb, why, sizeof(why)) ?
				 why : NULL) < 0) {
			free(fa.sorted);
			return -1;
		}
	}
	free(fa.sorted);
	return 0;
}

/* Geometric mean of B/A over the probes with a verdict (both sides fit to
 * judge) above the floor on both sides. */
static void geomeans(struct pc_cmp_table *t)
{
	size_t i, r;

	for (i = 1; i < t->nsides; i++) {
		double sum = 0;
		size_t n = 0;

		for (r = 0; r < t->nrows; r++) {
			const struct pc_cmp_cell *a = &t->row[r].cell[0], *b = &t->row[r].cell[i];

			if (b->verdict != PC_VERDICT_NONE &&
			    b->verdict != PC_VERDICT_NOT_COMPARABLE &&
			    a->median >= PC_COMPARE_FLOOR && b->median >= PC_COMPARE_FLOOR) {
				sum += log(b->median / a->median);
				n++;
			}
		}
		t->geomean[i] = n ? exp(sum / (double)n) : NAN;
		t->geomean_n[i] = n;
	}
	t->geomean[0] = NAN;
}

/* What the judging of side i left out: nothing in common with A, rows
 * not comparable, thresholds that the spread raised. */
static int judging_notes(struct pc_cmp_table *t, size_t i,
			 const struct pc_compare_config *cfg)
{
	char lb[PC_LABEL_LEN], *list = NULL;
	size_t r, nc = 0, raised = 0, len = 0;
	FILE *f;
	int rc;

	pc_side_label(i, lb);
	if (!t->side[0].entry || !t->side[i].entry)
		return 0;
	if (!t->common[i])
		return judging_note(t, "A and %s have no probe in common: nothing to "
				"compare", lb);
	f = open_memstream(&list, &len);
	if (!f)
		return -1;
	for (r = 0; r < t->nrows; r++) {
		const struct pc_cmp_cell *b = &t->row[r].cell[i];

		nc += b->verdict == PC_VERDICT_NOT_COMPARABLE;
		if (b->verdict == PC_VERDICT_NONE || isnan(b->threshold_pct) ||
		    !(b->threshold_pct > cfg->threshold_pct))
			continue;
		if (raised++ < 8)
			fprintf(f, "%s%s %.1f %%", raised > 1 ? ", " : "",
				t->row[r].probe, b->threshold_pct);
	}
	if (raised > 8)
		fprintf(f, " and %zu more", raised - 8);
	rc = fclose(f) == 0 ? 0 : -1;
	if (!rc && raised)
		rc = judging_note(t, "%s: thresholds raised to %g x the largest spread of "
			      "the round medians or of A's runs' figures: %s", lb,
			      PC_COMPARE_SPREAD_K, list);
	if (!rc && nc == t->common[i] && nc)
		rc = judging_note(t, "%s: no probe is comparable with A (no verdict, no "
			      "geomean)", lb);
	free(list);
	return rc;
}

static int table_fill(struct pc_cmp_table *t, const struct pc_compare_config *cfg)
{
	json_t *idx = json_object();
	size_t cap = 0, i, r;
	int id, rc = -1;

	if (!idx)
		return -1;
	/* The probe table's order first, then names it lacks (reference-only
	 * groups, newer probes) in the order the files give them. */
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		for (i = 0; i < t->nsides; i++) {
			json_t *p = json_object_get(json_object_get(t->side[i].entry,
						    "probes"), pc_probe_rows[id].name);

			if (p) {
				if (row_of(t, idx, pc_probe_rows[id].name, p, &cap) < 0)
					goto out;
				break;
			}
		}
	}
	for (i = 0; i < t->nsides; i++) {
		const char *name;
		json_t *p;

		json_object_foreach(json_object_get(t->side[i].entry, "probes"), name, p)
			if (row_of(t, idx, name, p, &cap) < 0)
				goto out;
	}
	t->geomean = calloc(t->nsides, sizeof(*t->geomean));
	t->geomean_n = calloc(t->nsides, sizeof(*t->geomean_n));
	t->common = calloc(t->nsides, sizeof(*t->common));
	if (!t->geomean || !t->geomean_n || !t->common)
		goto out;
	for (i = 1; i < t->nsides; i++)
		if (t->side[0].entry && t->side[i].entry && pc_compare_env_marks(t, i) < 0)
			goto out;
	for (r = 0; r < t->nrows; r++)
		if (row_fill(t, &t->row[r], cfg) < 0)
			goto out;
	geomeans(t);
	rc = context_notes(t, cfg->metric);
	for (i = 1; rc == 0 && i < t->nsides; i++)
		rc = judging_notes(t, i, cfg);
	if (rc == 0)
		rc = pc_compare_analogs(t, cfg->metric);
out:
	json_decref(idx);
	return rc;
}

/* ---- which CPUs face which ---------------------------------------------------- */

static int selected(const char *key, const char *const *globs)
{
	if (!globs)
		return 1;
	for (; *globs; globs++)
		if (fnmatch(*globs, key, 0) == 0)
			return 1;
	return 0;
}

static size_t count_selected(json_t *doc, const char *const *globs)
{
	const char *key;
	json_t *e;
	size_t n = 0;

	json_object_foreach(json_object_get(doc, "cpus"), key, e)
		n += (size_t)selected(key, globs);
	return n;
}

static struct pc_cmp_table *new_table(struct pc_compare *m, size_t nsides)
{
	struct pc_cmp_table *g = realloc(m->table, (m->ntables + 1) * sizeof(*g)), *t;

	if (!g)
		return NULL;
	m->table = g;
	t = &m->table[m->ntables++];
	memset(t, 0, sizeof(*t));
	t->side = calloc(nsides ? nsides : 1, sizeof(*t->side));
	return t->side ? t : NULL;
}

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

int pc_compare_build(struct pc_compare *m, const struct pc_compare_input *in,
		     size_t nin, const struct pc_compare_config *cfg, char *err,
		     size_t errlen)
{
	const char *const *globs = cfg->cpu_globs;
	struct pc_cmp_table *t;
	size_t f, r, c, most = 0;
	long kept = 0, k;
	const char *key;
	json_t *e;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	for (f = 0; f < nin; f++) {
		size_t n = count_selected(in[f].doc, globs);

		if (pc_compare_expand_points(in[f].doc) < 0)
			ERR("out of memory");
		if (cfg->stat == PC_STAT_P99) {
			if ((k = pc_compare_p99(in[f].doc)) < 0)
				ERR("out of memory");
			kept += k;
		}

		if (!n)
			ERR("%s: no CPU %s", in[f].path, globs ? "matches --cpu" :
			    "in the file");
		if (n > most)
			most = n;
	}
	if (cfg->stat == PC_STAT_P99 && !kept)
		ERR("--stat p99: no row of %s has single calls (the allocator group's "
		    "points keep them: run --alloc)", nin > 1 ? "the files" : in[0].path);
	if (nin == 1 || most == 1) {
		/* One table: every selected CPU of every file, the first one
		 * the reference point. */
		size_t total = 0;

		for (f = 0; f < nin; f++)
			total += count_selected(in[f].doc, globs);
		if (total < 2 && !cfg->one_cpu_ok)
			ERR("nothing to compare: %s holds one CPU%s; give a second "
			    "file", in[0].path, globs ? " matching --cpu" : "");
		t = new_table(m, total);
		if (!t || !(t->title = strdup("")))
			ERR("out of memory");
		for (f = 0; f < nin; f++)
			json_object_foreach(json_object_get(in[f].doc, "cpus"), key, e)
				if (selected(key, globs))
					side_init(&t->side[t->nsides++], in[f].path, key, e);
	} else {
		/* Several CPUs per file: pair them by model key, one table per
		 * key, one side per file. */
		json_t *keys = json_object();

		if (!keys)
			ERR("out of memory");
		for (f = 0; f < nin; f++)
			json_object_foreach(json_object_get(in[f].doc, "cpus"), key, e)
				if (selected(key, globs))
					json_object_set_new(keys, key, json_true());
		m->paired = true;
		json_object_foreach(keys, key, e) {
			t = new_table(m, nin);
			if (!t || !(t->title = strdup(key))) {
				json_decref(keys);
				ERR("out of memory");
			}
			for (f = 0; f < nin; f++) {
				json_t *entry = json_object_get(json_object_get(in[f].doc,
								"cpus"), key);

				/* t->title outlives keys; the side's key is it */
				side_init(&t->side[t->nsides++], in[f].path,
					  t->title, entry);
			}
		}
		json_decref(keys);
	}
	for (c = 0; c < m->ntables; c++) {
		if (table_fill(&m->table[c], cfg) < 0)
			ERR("out of memory");
		for (r = 0; r < m->table[c].nrows; r++) {
			size_t i;

			for (i = 1; i < m->table[c].nsides; i++) {
				switch (m->table[c].row[r].cell[i].verdict) {
				case PC_VERDICT_SLOWER: m->slower++; break;
				case PC_VERDICT_FASTER: m->faster++; break;
				case PC_VERDICT_SAME: m->same++; break;
				case PC_VERDICT_NOT_COMPARABLE: m->not_comparable++; break;
				case PC_VERDICT_NONE: break;
				}
			}
		}
		for (r = 1; r < m->table[c].nsides; r++)
			m->common += m->table[c].common[r];
	}
	return 0;
fail:
	pc_compare_free(m);
	return -1;
}

const char *pc_compare_nothing_judged(const struct pc_compare *m, char *buf,
				      size_t len)
{
	if (m->slower + m->faster + m->same)
		return NULL;
	if (!m->common)
		snprintf(buf, len, "nothing was comparable: no probe in common");
	else if (m->not_comparable == m->common)
		snprintf(buf, len, "nothing was comparable: none of the %zu probes in "
			 "common is fit to judge (noisy, unreliable, a published loop, "
			 "or moved by the environment)", m->common);
	else if (m->not_comparable)
		snprintf(buf, len, "nothing was comparable: %zu of %zu probes in common "
			 "are not fit to judge (noisy, unreliable, a published loop, or "
			 "moved by the environment), the rest have no figure on both "
			 "sides", m->not_comparable, m->common);
	else
		snprintf(buf, len, "nothing was comparable: none of the %zu probes in "
			 "common has a figure on both sides", m->common);
	return buf;
}

void pc_compare_free(struct pc_compare *m)
{
	size_t c, r, i;

	for (c = 0; c < m->ntables; c++) {
		struct pc_cmp_table *t = &m->table[c];

		for (r = 0; r < t->nrows; r++)
			free(t->row[r].cell);
		for (i = 0; i < t->nnotes; i++)
			free(t->note[i]);
		free(t->note);
		free(t->note_kind);
		free(t->row);
		free(t->side);
		free(t->geomean);
		free(t->geomean_n);
		free(t->common);
		pc_compare_analogs_free(t);
		free(t->title);
	}
	free(m->table);
	memset(m, 0, sizeof(*m));
}
