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
	static const char *const names[] = { "", "same", "faster", "slower" };

	return names[v];
}

const char *pc_test_name(enum pc_test t)
{
	static const char *const names[] = { "none", "mann-whitney", "quartiles",
					     "single-figure" };

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
		if (json_is_true(json_object_get(json_array_get(runs, k), "partial")))
			s->partial_figures++;
		if (seen[k]++)
			continue;
		s->runs_used++;
		if (!newest || strcmp(date_of(json_array_get(runs, k)), date_of(newest)) >= 0)
			newest = json_array_get(runs, k);
		if (!s->oldest_date || strcmp(date_of(json_array_get(runs, k)),
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
	s->interrupted_by = str(run, "interrupted_by");
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
	{
		json_t *c = json_object_get(json_object_get(run, "contention"),
					    "canary_cycles_median");

		s->canary = json_is_number(c) ? json_number_value(c) : NAN;
	}
	s->reference = str(json_object_get(run, "provenance"), "summary");
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
	c->state = PC_CELL_OK;
	c->median = json_number_value(json_object_get(m, "median"));
	c->q1 = json_number_value(json_object_get(m, "q1"));
	c->q3 = json_number_value(json_object_get(m, "q3"));
	c->mad = json_number_value(json_object_get(m, "mad"));
	c->samples = (long long)json_integer_value(json_object_get(p, "samples"));
}

static void cell_fill(struct pc_cmp_cell *c, json_t *p, enum pc_metric metric,
		      const struct pc_cmp_side *s)
{
	json_t *m, *raw;
	double scale;

	memset(c, 0, sizeof(*c));
	c->ratio = c->delta_pct = c->p = NAN;
	if (!p) {
		c->state = PC_CELL_ABSENT;
		return;
	}
	c->status = str(p, "status");
	c->reason = str(p, "reason");
	if (strcmp(c->status, "ok") != 0) {
		c->state = PC_CELL_STATUS;
		return;
	}
	m = json_object_get(p, pc_metric_name(metric));
	if (!m) {
		c->state = PC_CELL_NO_METRIC;
		return;
	}
	pc_cmp_cell_figures(c, p, m);
	raw = raw_of(p, metric, s, &scale);
	c->nraw = pc_samples_count(raw) > 0 ? (size_t)pc_samples_count(raw) : 0;
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

/*
 * The verdict rule (primcost-compare(1)): a difference is a verdict only
 * when it is both significant and large enough.
 *   significant: Mann-Whitney U p < alpha when both sides kept at least 9
 *     raw samples; else the interquartile ranges do not overlap when both
 *     sides have a spread; else (a single figure) always.
 *   large enough: |B - A| > PC_COMPARE_FLOOR and, when A is above the
 *     floor, |B/A - 1| >= threshold.
 */
static int cell_compare(struct pc_cmp_cell *b, const struct pc_cmp_cell *a,
			struct first *fa, json_t *pb, const struct pc_cmp_side *sb,
			const struct pc_compare_config *cfg)
{
	double diff;
	int significant, large;

	b->verdict = PC_VERDICT_NONE;
	b->test = PC_TEST_NONE;
	if (a->state != PC_CELL_OK || b->state != PC_CELL_OK)
		return 0;
	diff = b->median - a->median;
	if (fabs(a->median) >= PC_COMPARE_FLOOR) {
		b->ratio = b->median / a->median;
		b->delta_pct = (b->ratio - 1) * 100;
	}
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
		significant = u.p < cfg->alpha;
	} else if (a->samples >= 2 && b->samples >= 2) {
		b->test = PC_TEST_QUARTILES;
		significant = b->q1 > a->q3 || b->q3 < a->q1;
	} else {
		b->test = PC_TEST_SINGLE;
		significant = 1;
	}
	large = fabs(diff) > PC_COMPARE_FLOOR &&
		(isnan(b->delta_pct) || fabs(b->delta_pct) >= cfg->threshold_pct);
	if (significant && large)
		b->verdict = diff > 0 ? PC_VERDICT_SLOWER : PC_VERDICT_FASTER;
	else
		b->verdict = PC_VERDICT_SAME;
	return 0;
}

/* ---- tables ---------------------------------------------------------------- */

static int add_note(struct pc_cmp_table *t, const char *fmt, ...)
{
	char **grown, *s;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	grown = realloc(t->note, (t->nnotes + 1) * sizeof(*grown));
	if (!grown) {
		free(s);
		return -1;
	}
	t->note = grown;
	t->note[t->nnotes++] = s;
	return 0;
}

static int differs(const char *a, const char *b)
{
	return a && b && strcmp(a, b) != 0;
}

const char *pc_side_label(size_t i, char *buf)
{
	if (i < 26)
		snprintf(buf, PC_LABEL_LEN, "%c", (char)('A' + i));
	else
		snprintf(buf, PC_LABEL_LEN, "#%zu", i + 1);
	return buf;
}

/* Rows of runs newer than the figure shown that were not measured there
 * (a figure is never replaced by such a row: primcost-run(1)). */
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

			if (!rec || pc_probe_measured(rec) ||
			    strcmp(date_of(run), date_of(json_array_get(runs, j))) <= 0)
				continue;
			if (said++ >= 4) {
				more++;
				break;
			}
			if (add_note(t, "%s: %s: run %zu (%s) did not measure it (%s%s%s); "
				     "the figure is run %zu's (%s)", lb, name, k,
				     date_of(run), str(rec, "status"), str(rec, "reason") ?
				     ": " : "", str(rec, "reason") ? str(rec, "reason") : "",
				     j, date_of(json_array_get(runs, j))) < 0)
				return -1;
			break;
		}
	}
	if (more && add_note(t, "%s: %zu more figures that a newer run did not "
			     "measure", lb, more) < 0)
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
			if (add_note(t, "%s: %s holds no CPU %s", lb, b->file, b->key) < 0)
				return -1;
			continue;
		}
		if (b->reference &&
		    add_note(t, "%s is a published table: %s", lb, b->reference) < 0)
			return -1;
		if (b->unreliable &&
		    add_note(t, "%s: its run is marked unreliable", lb) < 0)
			return -1;
		if (history_notes(t, b, lb) < 0)
			return -1;
		if (i == 0 || !a->entry)
			continue;
		pc_side_label(0, la);
		if (differs(a->cycles_source, b->cycles_source) &&
		    add_note(t, "cycles come from different sources: %s %s, %s %s", la,
			     a->cycles_source, lb, b->cycles_source) < 0)
			return -1;
		if (a->virtualized >= 0 && b->virtualized >= 0 &&
		    a->virtualized != b->virtualized &&
		    add_note(t, "%s ran %s a virtual machine, %s %s", la,
			     a->virtualized ? "in" : "outside", lb,
			     b->virtualized ? "in one" : "outside") < 0)
			return -1;
		/* The contention canary says how shared the core was. */
		if (a->canary > 0 && b->canary > 0 &&
		    fabs(b->canary - a->canary) > PC_CONTENTION_TOLERANCE * a->canary &&
		    add_note(t, "the core was shared more in one run: the contention "
			     "canary's median is %.2f cycles in %s, %.2f in %s "
			     "(throughput-bound probes differ for that reason)",
			     a->canary, la, b->canary, lb) < 0)
			return -1;
		if (differs(a->kernel, b->kernel) &&
		    add_note(t, "kernels differ: %s %s, %s %s", la, a->kernel, lb,
			     b->kernel) < 0)
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
	if (!t->geomean || !t->geomean_n)
		goto out;
	for (r = 0; r < t->nrows; r++) {
		struct pc_cmp_row *row = &t->row[r];
		struct first fa = { NULL, &t->side[0], NULL, 0, 0 };

		if (!row->group) {	/* a name another side gave first */
			for (i = 0; i < t->nsides && !row->group; i++)
				row->group = str(json_object_get(json_object_get(
					t->side[i].entry, "probes"), row->probe), "group");
		}
		row->cell = calloc(t->nsides, sizeof(*row->cell));
		if (!row->cell)
			goto out;
		fa.p = json_object_get(json_object_get(t->side[0].entry, "probes"),
				       row->probe);
		for (i = 0; i < t->nsides; i++) {
			json_t *p = json_object_get(json_object_get(t->side[i].entry,
						    "probes"), row->probe);

			cell_fill(&row->cell[i], p, cfg->metric, &t->side[i]);
			if (i && cell_compare(&row->cell[i], &row->cell[0], &fa, p,
					      &t->side[i], cfg) < 0) {
				free(fa.sorted);
				goto out;
			}
		}
		free(fa.sorted);
	}
	/* Geometric mean of B/A over the probes both sides measured above the
	 * floor. */
	for (i = 1; i < t->nsides; i++) {
		double sum = 0;
		size_t n = 0;

		for (r = 0; r < t->nrows; r++) {
			const struct pc_cmp_cell *a = &t->row[r].cell[0], *b = &t->row[r].cell[i];

			if (a->state == PC_CELL_OK && b->state == PC_CELL_OK &&
			    a->median >= PC_COMPARE_FLOOR && b->median >= PC_COMPARE_FLOOR) {
				sum += log(b->median / a->median);
				n++;
			}
		}
		t->geomean[i] = n ? exp(sum / (double)n) : NAN;
		t->geomean_n[i] = n;
	}
	t->geomean[0] = NAN;
	rc = context_notes(t, cfg->metric);
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
	const char *key;
	json_t *e;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	for (f = 0; f < nin; f++) {
		size_t n = count_selected(in[f].doc, globs);

		if (!n)
			ERR("%s: no CPU %s", in[f].path, globs ? "matches --cpu" :
			    "in the file");
		if (n > most)
			most = n;
	}
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
				case PC_VERDICT_NONE: break;
				}
			}
		}
	}
	return 0;
fail:
	pc_compare_free(m);
	return -1;
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
		free(t->row);
		free(t->side);
		free(t->geomean);
		free(t->geomean_n);
		pc_compare_analogs_free(t);
		free(t->title);
	}
	free(m->table);
	memset(m, 0, sizeof(*m));
}
