/* SPDX-License-Identifier: MIT */
/*
 * results_validate.c - reading is validation: every document read (run's
 * output, compare and merge inputs, reference tables) and every document
 * about to be written goes through pc_doc_validate, with the limits of
 * results.h (documented in primcost(1)).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "packed.h"
#include "results.h"
#include "core/primcost.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static const char *const sources[] = { "pmu", "calibrated", "published", NULL };

static int one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

int pc_name_ok(const char *s, size_t maxlen)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > maxlen || s[0] == '.' || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!(isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-'))
			return 0;
	}
	return 1;
}

static int string_bad(const char *s, size_t n)
{
	size_t i;

	if (n > PC_LIMIT_STRING)
		return 1;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 2;
	return 0;
}

/* Where the walk is: the path is only spelled out for an error. */
struct walk {
	const struct walk *up;
	const char *key;	/* object member, or NULL: array index */
	size_t index;
};

/* Is this a member "raw", or a member of one? */
static int under_raw(const struct walk *w)
{
	return (w && w->key && strcmp(w->key, "raw") == 0) ||
	       (w && w->up && w->up->key && strcmp(w->up->key, "raw") == 0);
}

static void walk_path(const struct walk *w, char *buf, size_t len)
{
	char tail[PC_ERRLEN];

	if (!w || !w->up) {
		snprintf(buf, len, "document");
		return;
	}
	walk_path(w->up, tail, sizeof(tail));
	if (strcmp(tail, "document") == 0)
		tail[0] = 0;
	if (w->key)
		snprintf(buf, len, "%s%s%.64s", tail, *tail ? "." : "", w->key);
	else
		snprintf(buf, len, "%s[%zu]", tail, w->index);
}

static int limit_error(const struct walk *w, const char *what, int why, size_t n,
		       char *err, size_t errlen)
{
	char where[PC_ERRLEN];

	walk_path(w, where, sizeof(where));
	if (why == 1)
		FAIL("%s: a %s of %zu bytes (limit %d)", where, what, n, PC_LIMIT_STRING);
	FAIL("%s: a %s holds a control character", where, what);
}

/* Depth-first walk; the path of the first offence goes into err. */
static int check_limits(json_t *j, int depth, const struct walk *w, char *err,
			size_t errlen)
{
	struct walk sub = { w, NULL, 0 };
	const char *k;
	json_t *v;
	size_t i;
	int bad;

	if (depth > PC_LIMIT_DEPTH) {
		char where[PC_ERRLEN];

		walk_path(w, where, sizeof(where));
		FAIL("%s: nested deeper than %d levels", where, PC_LIMIT_DEPTH);
	}
	if (json_is_string(j)) {
		/* Packed raw samples (raw.NAME, events.NAME.raw) are long, and
		 * are checked where they belong; nowhere else. */
		if (under_raw(w) && json_string_length(j) <= PC_LIMIT_FILE_BYTES &&
		    pc_packed_clean(json_string_value(j), json_string_length(j)))
			return 0;
		bad = string_bad(json_string_value(j), json_string_length(j));
		return bad ? limit_error(w, "string", bad, json_string_length(j), err,
					 errlen) : 0;
	}
	if (json_is_object(j)) {
		json_object_foreach(j, k, v) {
			bad = string_bad(k, strlen(k));
			if (bad)
				return limit_error(w, "key", bad, strlen(k), err, errlen);
			if (!json_is_object(v) && !json_is_array(v) && !json_is_string(v))
				continue;
			sub.key = k;
			if (check_limits(v, depth + 1, &sub, err, errlen) < 0)
				return -1;
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			/* Arrays of numbers (raw samples) are the only big ones. */
			if (json_is_number(v))
				continue;
			sub.key = NULL;
			sub.index = i;
			if (check_limits(v, depth + 1, &sub, err, errlen) < 0)
				return -1;
		}
	}
	return 0;
}

int pc_json_check_limits(json_t *j, char *err, size_t errlen)
{
	struct walk top = { NULL, NULL, 0 };

	return check_limits(j, 1, &top, err, errlen);
}

static int check_summary(json_t *s, const char *where, char *err, size_t errlen)
{
	static const char *const keys[] = { "min", "q1", "median", "q3", "max", "mad" };
	size_t i;

	if (!json_is_object(s))
		FAIL("%s: missing or not an object", where);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(s, keys[i]);
		double x;

		if (!json_is_number(v))
			FAIL("%s.%s: missing or not a number", where, keys[i]);
		x = json_number_value(v);
		if (!isfinite(x) || fabs(x) > PC_LIMIT_ABS_VALUE)
			FAIL("%s.%s: absurd value %g", where, keys[i], x);
	}
	for (i = 0; i + 1 < 5; i++)	/* min <= q1 <= median <= q3 <= max */
		if (json_number_value(json_object_get(s, keys[i])) >
		    json_number_value(json_object_get(s, keys[i + 1])))
			FAIL("%s: min <= q1 <= median <= q3 <= max does not hold", where);
	if (json_number_value(json_object_get(s, "mad")) < 0)
		FAIL("%s.mad: negative", where);
	return 0;
}

/* Two figures equal to the 7 significant digits a file carries. */
static bool same_figure(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

/*
 * The raw samples a (checked sane) against what they are the samples of:
 * as many as the figure's samples, and their least and greatest the
 * summary's min and max (summary NULL: no summary of that name).
 */
static int raw_matches(json_t *a, long samples, json_t *summary, const char *where,
		       const char *k, char *err, size_t errlen)
{
	double *v, lo, hi;
	size_t i, n;

	v = pc_samples_values(a, &n);
	if (!v && n)
		FAIL("%s.%s: out of memory", where, k);
	if ((long)n != samples) {
		free(v);
		FAIL("%s.%s: %zu raw samples where the figure has %ld", where, k, n,
		     samples);
	}
	if (!summary || !n) {
		free(v);
		return 0;
	}
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	free(v);
	if (!same_figure(lo, json_number_value(json_object_get(summary, "min"))) ||
	    !same_figure(hi, json_number_value(json_object_get(summary, "max"))))
		FAIL("%s.%s: raw samples from %g to %g, not the figure's min %g and "
		     "max %g", where, k, lo, hi,
		     json_number_value(json_object_get(summary, "min")),
		     json_number_value(json_object_get(summary, "max")));
	return 0;
}

/*
 * raw.NAME (or events.EVENT.raw): arrays of numbers or packed strings,
 * each of samples values whose extremes are those of the summary of the
 * same name in figs (figs NULL: the one summary, the event's).
 */
static int check_raw(json_t *raw, long samples, json_t *figs, json_t *summary,
		     const char *where, char *err, size_t errlen)
{
	const char *k;
	json_t *a;

	if (!json_is_object(raw))
		FAIL("%s: not an object", where);
	json_object_foreach(raw, k, a) {
		size_t i, n;

		if (json_is_string(a)) {
			char why[PC_ERRLEN];

			if (pc_unpack_doubles(json_string_value(a), json_string_length(a),
					      PC_LIMIT_SAMPLES, PC_LIMIT_ABS_VALUE, NULL, &n,
					      why, sizeof(why)) < 0)
				FAIL("%s.%s: %s", where, k, why);
		} else {
			if (!json_is_array(a))
				FAIL("%s.%s: not an array or packed samples", where, k);
			n = json_array_size(a);
			if (n > PC_LIMIT_SAMPLES)
				FAIL("%s.%s: %zu samples (limit %d)", where, k, n,
				     PC_LIMIT_SAMPLES);
			for (i = 0; i < n; i++) {
				json_t *v = json_array_get(a, i);

				if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
				    fabs(json_number_value(v)) > PC_LIMIT_ABS_VALUE)
					FAIL("%s.%s[%zu]: not a sane number", where, k, i);
			}
		}
		if (raw_matches(a, samples, figs ? json_object_get(figs, k) : summary,
				where, k, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* events.NAME is a summary or {status: unsupported, reason}; discarded
 * holds counts. */
static int check_probe_events(json_t *p, long samples, const char *where, char *err,
			      size_t errlen)
{
	json_t *evs = json_object_get(p, "events"), *v, *d;
	const char *k;
	char sub[PC_ERRLEN];

	if (evs) {
		if (!json_is_object(evs))
			FAIL("%s.events: not an object", where);
		json_object_foreach(evs, k, v) {
			json_t *st = json_object_get(v, "status");

			snprintf(sub, sizeof(sub), "%s.events.%s", where, k);
			if (st) {
				if (!json_is_string(st) ||
				    strcmp(json_string_value(st), "unsupported") != 0 ||
				    !json_is_string(json_object_get(v, "reason")))
					FAIL("%s: neither figures nor \"unsupported\" "
					     "with a reason", sub);
				continue;
			}
			if (check_summary(v, sub, err, errlen) < 0)
				return -1;
			if (json_object_get(v, "raw")) {
				json_t *raw = json_pack("{s:O}", "raw",
							json_object_get(v, "raw"));
				int rc = check_raw(raw, samples, NULL, v, sub, err, errlen);

				json_decref(raw);
				if (rc < 0)
					return -1;
			}
		}
	}
	d = json_object_get(p, "discarded");
	if (d) {
		if (!json_is_object(d))
			FAIL("%s.discarded: not an object", where);
		json_object_foreach(d, k, v)
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    json_integer_value(v) > PC_LIMIT_SAMPLES)
				FAIL("%s.discarded.%s: not a count", where, k);
	}
	return 0;
}

/* A probe measured at several points (group.h: the shapes the groups
 * declare, a size and an allocator, threads on CPUs); every point is a
 * probe's figure itself. */
static int check_points(json_t *pts, const char *group, const char *where, char *err,
			size_t errlen)
{
	const struct pc_point_shape *shape;
	char sub[PC_ERRLEN], keys[128];
	json_t *pt;
	size_t i;

	if (!json_is_array(pts) || json_array_size(pts) > PC_LIMIT_POINTS)
		FAIL("%s.points: not an array of at most %d points", where, PC_LIMIT_POINTS);
	json_array_foreach(pts, i, pt) {
		snprintf(sub, sizeof(sub), "%s.points[%zu]", where, i);
		if (!json_is_object(pt))
			FAIL("%s: not an object", sub);
		shape = pc_point_shape(group, pt);
		if (!shape)
			FAIL("%s: a point of no known shape (none of its keys: %s)", sub,
			     pc_point_keys(group, keys, sizeof(keys)));
		if (shape->check(pt, sub, err, errlen) < 0)
			return -1;
		if (json_object_get(pt, "points"))
			FAIL("%s: points within a point", sub);
		if (pc_validate_probe(pt, sub, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* What the run says of a figure's quality: nonlinear (failed the linearity
 * check; true or absent) and round_spread (how far the round medians moved,
 * a fraction: not negative). */
static int check_quality(json_t *p, const char *where, char *err, size_t errlen)
{
	json_t *v = json_object_get(p, "nonlinear");

	if (v && !json_is_true(v))
		FAIL("%s.nonlinear: not true (absent when the probe is linear)", where);
	v = json_object_get(p, "round_spread");
	if (v && (!json_is_number(v) || !(json_number_value(v) >= 0) ||
		  json_number_value(v) > PC_LIMIT_ABS_VALUE))
		FAIL("%s.round_spread: not a number from 0 to %g", where,
		     PC_LIMIT_ABS_VALUE);
	return 0;
}

int pc_validate_probe(json_t *p, const char *where, char *err, size_t errlen)
{
	static const char *const statuses[] = { "ok", "skipped", "unsupported", "failed", "noisy",
						NULL };
	static const char *const metrics[] = { "ticks", "cycles", "ns" };
	json_t *st, *v;
	char sub[PC_ERRLEN];
	size_t i;
	int published, nmetrics = 0;
	long samples;

	if (!json_is_object(p))
		FAIL("%s: not an object", where);
	st = json_object_get(p, "status");
	if (!json_is_string(st))
		FAIL("%s.status: missing or not a string", where);
	if (!one_of(json_string_value(st), statuses))
		FAIL("%s.status: unknown status \"%.40s\"", where, json_string_value(st));
	v = json_object_get(p, "reason");
	if (v && !json_is_string(v))
		FAIL("%s.reason: not a string", where);
	v = json_object_get(p, "ring");
	if (v && (!json_is_integer(v) || json_integer_value(v) < 0 ||
		  json_integer_value(v) > 3))
		FAIL("%s.ring: not 0..3", where);
	v = json_object_get(p, "partial");
	if (v && !json_is_boolean(v))
		FAIL("%s.partial: not true or false", where);
	v = json_object_get(p, "group");
	if (v && !json_is_string(v))
		FAIL("%s.group: not a string", where);
	v = json_object_get(p, "published");
	if (v && !json_is_object(v))
		FAIL("%s.published: not an object", where);
	if (check_quality(p, where, err, errlen) < 0)
		return -1;
	if (json_object_get(p, "points"))	/* the figures are the points' */
		return check_points(json_object_get(p, "points"),
				    json_string_value(json_object_get(p, "group")), where, err,
				    errlen);
	/* a noisy probe carries figures (its last sampling's) as ok does */
	if (!pc_probe_measured(p))
		return 0;
	v = json_object_get(p, "cycles_source");
	if (!json_is_string(v))
		FAIL("%s.cycles_source: missing or not a string", where);
	if (!one_of(json_string_value(v), sources))
		FAIL("%s.cycles_source: unknown source \"%.40s\"", where,
		     json_string_value(v));
	/* Published figures carry the units their source gave (at least one);
	 * measured ones all three. */
	published = strcmp(json_string_value(v), "published") == 0;
	for (i = 0; i < 3; i++) {
		json_t *m = json_object_get(p, metrics[i]);

		if (!m && published)
			continue;
		snprintf(sub, sizeof(sub), "%s.%s", where, metrics[i]);
		if (check_summary(m, sub, err, errlen) < 0)
			return -1;
		nmetrics++;
	}
	if (!nmetrics)
		FAIL("%s: no ticks, cycles or ns", where);
	v = json_object_get(p, "samples");
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > PC_LIMIT_SAMPLES)
		FAIL("%s.samples: missing or not 1..%d", where, PC_LIMIT_SAMPLES);
	samples = (long)json_integer_value(v);
	for (i = 0; i < 2; i++) {
		static const char *const counts[] = { "iters", "ops_per_sample" };

		v = json_object_get(p, counts[i]);
		if (v && (!json_is_integer(v) || json_integer_value(v) < 1))
			FAIL("%s.%s: not a positive integer", where, counts[i]);
	}
	v = json_object_get(p, "linearity");
	if (v && !json_is_null(v) && !json_is_number(v))
		FAIL("%s.linearity: not a number or null", where);
	v = json_object_get(p, "cycles_per_tick");
	if (v && (!json_is_number(v) || !(json_number_value(v) > 0) ||
		  json_number_value(v) > PC_LIMIT_ABS_VALUE))
		FAIL("%s.cycles_per_tick: not a positive number", where);
	v = json_object_get(p, "raw");
	if (v) {
		snprintf(sub, sizeof(sub), "%s.raw", where);
		if (check_raw(v, samples, p, NULL, sub, err, errlen) < 0)
			return -1;
	}
	if (check_probe_events(p, samples, where, err, errlen) < 0)
		return -1;
	return 0;
}

/* Optional members must have their schema type when present. */
static int check_types(json_t *o, const char *const *strs, const char *const *ints,
		       const char *const *bools, const char *where, char *err,
		       size_t errlen)
{
	json_t *v;

	for (; strs && *strs; strs++)
		if ((v = json_object_get(o, *strs)) && !json_is_string(v))
			FAIL("%s.%s: not a string", where, *strs);
	for (; ints && *ints; ints++)
		if ((v = json_object_get(o, *ints)) &&
		    (!json_is_integer(v) || json_integer_value(v) < -1 ||
		     json_integer_value(v) > 1000000000))
			FAIL("%s.%s: not a sane integer", where, *ints);
	for (; bools && *bools; bools++)
		if ((v = json_object_get(o, *bools)) && !json_is_boolean(v))
			FAIL("%s.%s: not true or false", where, *bools);
	return 0;
}

static int positive(json_t *v)
{
	return json_is_number(v) && json_number_value(v) > 0 &&
	       json_number_value(v) <= PC_LIMIT_ABS_VALUE;
}

static int check_cpu(json_t *cpu, const char *where, char *err, size_t errlen)
{
	static const char *const strs[] = { "vendor", "brand", "codename", "pmu",
					    "hypervisor", "uarch", "uarch_source",
					    "codename_note", "pmu_note", "caches_note", NULL };
	static const char *const ints[] = { "family", "model", "stepping", "cores",
					    "threads", NULL };
	static const char *const bools[] = { "virtualized", NULL };
	static const char *const topo_strs[] = { "source", "allowed_cpus", NULL };
	static const char *const topo_ints[] = { "packages", "numa_nodes", "cores",
						 "threads", "threads_per_core", NULL };
	static const char *const virt_strs[] = { "cpuid_signature", "cpuid", "kernel",
						 "kernel_source", NULL };
	char sub[640];
	json_t *t, *v;

	if (check_types(cpu, strs, ints, bools, where, err, errlen) < 0)
		return -1;
	v = json_object_get(cpu, "topology");
	snprintf(sub, sizeof(sub), "%s.topology", where);
	if (v && !json_is_object(v))
		FAIL("%s: not an object", sub);
	if (v && json_object_get(v, "caches") && !json_is_array(json_object_get(v, "caches")))
		FAIL("%s.caches: not an array", sub);
	if (v && check_types(v, topo_strs, topo_ints, NULL, sub, err, errlen) < 0)
		return -1;
	v = json_object_get(cpu, "virtualization");
	snprintf(sub, sizeof(sub), "%s.virtualization", where);
	if (v && !json_is_object(v))
		FAIL("%s: not an object", sub);
	if (v && check_types(v, virt_strs, NULL, NULL, sub, err, errlen) < 0)
		return -1;
	t = json_object_get(cpu, "timer");
	if (t) {
		if (!json_is_object(t) || !json_is_string(json_object_get(t, "name")))
			FAIL("%s.timer: not an object with a \"name\"", where);
		if (!positive(json_object_get(t, "hz")))
			FAIL("%s.timer.hz: missing or not a positive number", where);
	}
	v = json_object_get(cpu, "core_hz_estimate");
	if (v && !positive(v))
		FAIL("%s.core_hz_estimate: not a positive number", where);
	return 0;
}

/* The run's environment: each fact an object with a value (a string, or
 * an object of strings for a list) and its source, or why it is unknown. */
static int check_environment(json_t *env, const char *where, char *err, size_t errlen)
{
	static const char *const strs[] = { "unknown", "source", "note", NULL };
	const char *k, *line;
	char sub[640];
	json_t *f, *v, *l;

	if (!json_is_object(env))
		FAIL("%s.environment: not an object", where);
	json_object_foreach(env, k, f) {
		snprintf(sub, sizeof(sub), "%s.environment.%s", where, k);
		if (!json_is_object(f))
			FAIL("%s: not an object", sub);
		if (check_types(f, strs, NULL, NULL, sub, err, errlen) < 0)
			return -1;
		v = json_object_get(f, "value");
		if (!v == !json_object_get(f, "unknown"))
			FAIL("%s: neither a value nor why it is unknown, or both", sub);
		if (v && !json_is_string(v) && !json_is_object(v))
			FAIL("%s.value: not a string or an object", sub);
		json_object_foreach(json_is_object(v) ? v : NULL, line, l)
			if (!json_is_string(l))
				FAIL("%s.value.%s: not a string", sub, line);
	}
	return 0;
}

static int check_run(json_t *run, const char *where, char *err, size_t errlen)
{
	static const char *const strs[] = { "host", "kernel", "primcost_version",
					    "unreliable_reason", "pmu_reason", NULL };
	static const char *const bools[] = { "unreliable", NULL };
	const char *k;
	json_t *v;

	if (check_types(run, strs, NULL, bools, where, err, errlen) < 0)
		return -1;
	v = json_object_get(run, "cycles_source");
	if (v && (!json_is_string(v) || !one_of(json_string_value(v), sources)))
		FAIL("%s.cycles_source: not pmu, calibrated or published", where);
	v = json_object_get(run, "options");
	if (v && !json_is_object(v))
		FAIL("%s.options: not an object", where);
	v = json_object_get(run, "date");
	if (v && (!json_is_string(v) || !pc_date_valid(json_string_value(v),
				   json_object_get(run, "provenance") != NULL)))
		FAIL("%s.date: not a date and time in UTC (RFC 3339, as "
		     "2026-12-04T18:59:01.123Z), got \"%.40s\"", where, json_string_value(v));
	v = json_object_get(run, "environment");
	if (v && check_environment(v, where, err, errlen) < 0)
		return -1;
	v = json_object_get(run, "provenance");
	if (v) {
		if (!json_is_object(v))
			FAIL("%s.provenance: not an object", where);
		json_object_foreach(json_object_get(run, "provenance"), k, v)
			if (!json_is_string(v))
				FAIL("%s.provenance.%s: not a string", where, k);
	}
	return 0;
}

static int validate_doc(json_t *doc, char *err, size_t errlen);

/* Errors name where, in the document's own words (pc_error escapes the
 * control characters of its keys). */
int pc_doc_validate(json_t *doc, char *err, size_t errlen)
{
	return validate_doc(doc, err, errlen);
}

/* runs[i] of the CPU key: its members, and the figures and rows it holds
 * that are not current. */
static int check_run_record(json_t *run, const char *key, size_t i, char *err,
			    size_t errlen)
{
	char where[PC_ERRLEN];
	const char *pname;
	json_t *hist, *p;

	if (!json_is_object(run) || !json_is_string(json_object_get(run, "date")))
		FAIL("cpus.%s.runs[%zu]: not an object with a \"date\"", key, i);
	if (json_object_get(run, "partial") &&
	    !json_is_boolean(json_object_get(run, "partial")))
		FAIL("cpus.%s.runs[%zu].partial: not true or false", key, i);
	if (json_object_get(run, "interrupted_by") &&
	    !json_is_string(json_object_get(run, "interrupted_by")))
		FAIL("cpus.%s.runs[%zu].interrupted_by: not a string", key, i);
	snprintf(where, sizeof(where), "cpus.%s.runs[%zu]", key, i);
	if (check_run(run, where, err, errlen) < 0)
		return -1;
	hist = json_object_get(run, "probes");
	if (!hist)
		return 0;
	if (!json_is_object(hist))
		FAIL("cpus.%s.runs[%zu].probes: not an object", key, i);
	if (json_object_size(hist) > PC_LIMIT_PROBES)
		FAIL("cpus.%s.runs[%zu].probes: %zu probes (limit %d)", key, i,
		     json_object_size(hist), PC_LIMIT_PROBES);
	json_object_foreach(hist, pname, p) {
		snprintf(where, sizeof(where), "cpus.%s.runs[%zu].probes.%s", key, i,
			 pname);
		if (!pc_name_ok(pname, PC_LIMIT_NAME))
			FAIL("%s: not a probe name", where);
		if (pc_validate_probe(p, where, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The current figures of the CPU key: each names a run that does not also
 * hold it as replaced. */
static int check_current(json_t *probes, json_t *runs, const char *key, char *err,
			 size_t errlen)
{
	char where[PC_ERRLEN];
	const char *pname;
	json_t *p, *r;

	if (!json_is_object(probes))
		FAIL("cpus.%s.probes: missing or not an object", key);
	if (json_object_size(probes) > PC_LIMIT_PROBES)
		FAIL("cpus.%s.probes: %zu probes (limit %d)", key,
		     json_object_size(probes), PC_LIMIT_PROBES);
	json_object_foreach(probes, pname, p) {
		snprintf(where, sizeof(where), "cpus.%s.probes.%s", key, pname);
		if (!pc_name_ok(pname, PC_LIMIT_NAME))
			FAIL("%s: not a probe name (letters, digits, '_', '.', '+', "
			     "'-', at most %d bytes)", where, PC_LIMIT_NAME);
		if (pc_validate_probe(p, where, err, errlen) < 0)
			return -1;
		r = json_object_get(p, "run");
		if (r && (!json_is_integer(r) || json_integer_value(r) < 0 ||
			  (size_t)json_integer_value(r) >= json_array_size(runs)))
			FAIL("%s.run: not an index into runs", where);
		/* The current figure of a run is not also its replaced one. */
		if (r && json_object_get(json_object_get(json_array_get(runs,
				(size_t)json_integer_value(r)), "probes"), pname))
			FAIL("%s: run %lld holds it both as current and as replaced",
			     where, (long long)json_integer_value(r));
	}
	return 0;
}

/* cpus.KEY: the cpu block, the runs, the current figures. */
static int check_entry(const char *key, json_t *entry, char *err, size_t errlen)
{
	json_t *cpu, *runs, *run;
	char where[PC_ERRLEN];
	size_t i;

	if (!pc_name_ok(key, PC_LIMIT_KEY))
		FAIL("cpus: model key \"%.64s\" is empty, longer than %d bytes or "
		     "not made of letters, digits, '_', '.', '+', '-'", key, PC_LIMIT_KEY);
	if (!json_is_object(entry))
		FAIL("cpus.%s: not an object", key);
	cpu = json_object_get(entry, "cpu");
	if (!json_is_object(cpu) || !json_is_string(json_object_get(cpu, "arch")))
		FAIL("cpus.%s.cpu: missing, or has no \"arch\" string", key);
	snprintf(where, sizeof(where), "cpus.%s.cpu", key);
	if (check_cpu(cpu, where, err, errlen) < 0)
		return -1;
	runs = json_object_get(entry, "runs");
	if (!json_is_array(runs))
		FAIL("cpus.%s.runs: missing or not an array", key);
	if (json_array_size(runs) > PC_LIMIT_RUNS)
		FAIL("cpus.%s.runs: %zu runs (limit %d)", key, json_array_size(runs),
		     PC_LIMIT_RUNS);
	json_array_foreach(runs, i, run)
		if (check_run_record(run, key, i, err, errlen) < 0)
			return -1;
	return check_current(json_object_get(entry, "probes"), runs, key, err, errlen);
}

static int validate_doc(json_t *doc, char *err, size_t errlen)
{
	json_t *schema, *cpus, *entry;
	const char *key;
	char expect[64];

	if (!json_is_object(doc))
		FAIL("not a primcost result (not a JSON object)");
	if (pc_json_check_limits(doc, err, errlen) < 0)
		return -1;
	schema = json_object_get(doc, "schema");
	if (!schema)
		FAIL("not a primcost result (no \"schema\" key)");
	snprintf(expect, sizeof(expect), "%s/%d", PC_SCHEMA_NAME, PC_SCHEMA_VERSION);
	if (!json_is_string(schema))
		FAIL("\"schema\" is not a string");
	if (strcmp(json_string_value(schema), expect) != 0) {
		size_t n = strlen(PC_SCHEMA_NAME);

		if (strncmp(json_string_value(schema), PC_SCHEMA_NAME, n) == 0 &&
		    json_string_value(schema)[n] == '/')
			FAIL("unsupported schema version \"%.40s\" (this primcost "
			     "reads %s)", json_string_value(schema), expect);
		FAIL("not a primcost result (schema \"%.40s\")",
		     json_string_value(schema));
	}
	cpus = json_object_get(doc, "cpus");
	if (!json_is_object(cpus))
		FAIL("\"cpus\" is missing or not an object");
	if (json_object_size(cpus) > PC_LIMIT_CPUS)
		FAIL("%zu CPUs (limit %d)", json_object_size(cpus), PC_LIMIT_CPUS);
	json_object_foreach(cpus, key, entry)
		if (check_entry(key, entry, err, errlen) < 0)
			return -1;
	return 0;
}
