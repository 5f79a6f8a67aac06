/* SPDX-License-Identifier: MIT */
/*
 * results.c - the result file: build it, merge runs into it, validate it,
 * read it and write it atomically. data/schema.json is the contract; this
 * file is its C reading.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "commands.h"
#include "contain.h"
#include "packed.h"
#include "results.h"

/*
 * Figures carry 7 significant digits: far beyond what a measurement can
 * resolve, and short enough to read. They are rounded when the document is
 * built, so that what is written and read back equals what was built.
 */
#define REAL_DIGITS 7
#define DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(REAL_DIGITS))

static json_t *real(double x)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*g", REAL_DIGITS, x);
	return json_real(strtod(buf, NULL));
}

/* ---- building ------------------------------------------------------------ */

json_t *pc_doc_new(void)
{
	char schema[64];

	snprintf(schema, sizeof(schema), "%s/%d", PC_SCHEMA_NAME, PC_SCHEMA_VERSION);
	return json_pack("{s:s, s:{}}", "schema", schema, "cpus");
}

static json_t *topology_json(const struct pc_topology *t)
{
	json_t *o = json_pack("{s:s, s:i}", "source", t->source, "threads", t->threads),
	       *caches = json_array();
	int i;

	if (!o || !caches) {
		json_decref(o);
		json_decref(caches);
		return NULL;
	}
	if (t->cores) {
		json_object_set_new(o, "packages", json_integer(t->packages));
		json_object_set_new(o, "numa_nodes", json_integer(t->numa_nodes));
		json_object_set_new(o, "cores", json_integer(t->cores));
		json_object_set_new(o, "threads_per_core", json_integer(t->threads_per_core));
	}
	if (t->allowed[0])
		json_object_set_new(o, "allowed_cpus", json_string(t->allowed));
	for (i = 0; i < t->ncaches; i++) {
		const struct pc_topo_cache *c = &t->caches[i];

		json_array_append_new(caches, json_pack("{s:i, s:s, s:I, s:i, s:i, s:s}",
			"level", c->level, "type", c->type, "size_kb", (json_int_t)c->size_kb,
			"instances", c->instances, "cpus_each", c->cpus_each,
			"sharing", c->sharing));
	}
	if (t->ncaches)
		json_object_set_new(o, "caches", caches);
	else
		json_decref(caches);
	if (t->ncaches)
		json_object_set_new(o, "os_caches", json_boolean(t->os_caches));
	return o;
}

/* Each witness of the hypervisor: CPUID's signature, the kernel's word. */
static json_t *virtualization_json(const struct pc_cpu_info *ci)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (ci->hv_cpuid[0]) {
		json_object_set_new(o, "cpuid_signature", json_string(ci->hv_cpuid_raw));
		json_object_set_new(o, "cpuid", json_string(ci->hv_cpuid));
	}
	if (ci->hv_kernel[0]) {
		json_object_set_new(o, "kernel", json_string(ci->hv_kernel));
		json_object_set_new(o, "kernel_source", json_string(ci->hv_kernel_source));
	}
	return o;
}

/* The optional strings of the cpu block: set when not empty. */
static void set_strings(json_t *cpu, const struct pc_cpu_info *ci)
{
	const struct { const char *key, *value; } s[] = {
		{ "codename", ci->codename }, { "codename_note", ci->codename_note },
		{ "uarch", ci->uarch }, { "uarch_source", ci->uarch_source },
		{ "pmu", ci->pmu }, { "pmu_note", ci->pmu_note },
		{ "caches_note", ci->caches_note },
	};
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].value[0])
			json_object_set_new(cpu, s[i].key, json_string(s[i].value));
}

json_t *pc_json_cpu(const struct pc_cpu_info *ci, const struct pc_clock *clk,
		    double cycles_per_tick)
{
	json_t *cpu = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i}",
				"arch", ci->arch, "vendor", ci->vendor,
				"brand", ci->brand, "family", ci->family,
				"model", ci->model, "stepping", ci->stepping);

	if (!cpu)
		return NULL;
	set_strings(cpu, ci);
	if (ci->cores)
		json_object_set_new(cpu, "cores", json_integer(ci->cores));
	if (ci->threads)
		json_object_set_new(cpu, "threads", json_integer(ci->threads));
	json_object_set_new(cpu, "caches_kb",
			    json_pack("{s:i, s:i, s:i, s:i}", "l1d", ci->l1d_kb,
				      "l1i", ci->l1i_kb, "l2", ci->l2_kb,
				      "l3", ci->l3_kb));
	json_object_set_new(cpu, "virtualized", json_boolean(ci->virtualized));
	if (ci->hypervisor[0])
		json_object_set_new(cpu, "hypervisor", json_string(ci->hypervisor));
	if (ci->hv_cpuid[0] || ci->hv_kernel[0])
		json_object_set_new(cpu, "virtualization", virtualization_json(ci));
	if (ci->topo.source[0])
		json_object_set_new(cpu, "topology", topology_json(&ci->topo));
	if (ci->midr) {
		char midr[24];

		snprintf(midr, sizeof(midr), "0x%08lx", ci->midr);
		json_object_set_new(cpu, "midr", json_string(midr));
	}
	if (clk) {
		json_t *timer = json_pack("{s:s, s:o, s:b}", "name", clk->timer,
					  "hz", real(clk->tick_hz), "measured",
					  clk->tick_hz_measured);

		/* The timer's step, where it was measured (not for a runner's). */
		if (timer && clk->tick_step)
			json_object_set_new(timer, "resolution_ticks",
					    json_integer((json_int_t)clk->tick_step));
		json_object_set_new(cpu, "timer", timer);
		if (cycles_per_tick > 0)
			json_object_set_new(cpu, "core_hz_estimate",
					    real(clk->tick_hz * cycles_per_tick));
	}
	return cpu;
}

static json_t *summary_json(const struct pc_summary *s)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "min", real(s->min),
			 "q1", real(s->q1), "median", real(s->median), "q3", real(s->q3),
			 "max", real(s->max), "mad", real(s->mad));
}

static json_t *array_of(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, real(v[i]));
	return a;
}

/* Raw samples: one packed string (packed.h) of the values rounded as
 * figures are, or where that would not be exact, an array of numbers. */
static json_t *samples_of(const double *v, size_t n)
{
	double *r = malloc((n ? n : 1) * sizeof(*r));
	char buf[64], *s = NULL;
	json_t *j;
	size_t i;

	for (i = 0; r && i < n; i++) {
		snprintf(buf, sizeof(buf), "%.*g", REAL_DIGITS, v[i]);
		r[i] = strtod(buf, NULL);
	}
	if (r && n)
		s = pc_pack_doubles(r, n);
	j = s ? json_string(s) : array_of(v, n);
	free(s);
	free(r);
	return j;
}

/* ---- events counted around each sample (events.c) ---- */

/* events.NAME: per-op statistics, or why the event has none here. */
static void probe_events_json(json_t *p, const struct pc_probe_result *r)
{
	const struct pc_probe_events *pe = &r->events;
	const struct pc_events *d = pe->def;
	unsigned i;

	if (d && d->n) {
		json_t *evs = json_object();

		for (i = 0; i < d->n; i++) {
			const struct pc_event *e = &d->ev[i];
			json_t *o;

			if (!e->counted)
				o = json_pack("{s:s, s:s}", "status", "unsupported",
					      "reason", e->reason);
			else if (!pe->counted || !pe->counted[i])
				o = json_pack("{s:s, s:s}", "status", "unsupported",
					      "reason", "the counter opened but read 0 "
					      "in every loop: this PMU does not count "
					      "the event here");
			else {
				o = summary_json(&pe->per_op[i]);
				if (pe->raw)
					json_object_set_new(o, "raw", samples_of(
						pe->raw[i], r->samples));
			}
			json_object_set_new(evs, e->name, o);
		}
		json_object_set_new(p, "events", evs);
	}
	json_object_set_new(p, "discarded", json_pack("{s:i, s:i, s:i, s:i}",
			    "disturbed", (int)pe->disturbed, "multiplexed",
			    (int)pe->multiplexed, "short_by", (int)pe->short_by,
			    "contended", (int)pe->contended));
}

void pc_json_run_events(json_t *run, const struct pc_events *e)
{
	json_t *arr = json_array(), *dist;
	unsigned i;

	for (i = 0; e && i < e->n; i++) {
		const struct pc_event *ev = &e->ev[i];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "name", ev->name,
				      "encoding", ev->encoding, "kind",
				      ev->hardware ? "hardware" : "software",
				      "status", ev->counted ? "counted" : "unsupported");

		if (ev->reason[0])
			json_object_set_new(o, ev->counted ? "note" : "reason",
					    json_string(ev->reason));
		json_array_append_new(arr, o);
	}
	json_object_set_new(run, "events", arr);
	dist = json_pack("{s:b}", "checked", e && e->reject);
	if (e && e->reject)
		json_object_set_new(dist, "counters", json_pack("[s, s]",
				    e->ev[e->cs].name, e->ev[e->mig].name));
	else
		json_object_set_new(dist, "reason", json_string(
				    e && e->reject_reason[0] ? e->reject_reason :
				    "not counted"));
	json_object_set_new(run, "disturbance", dist);
}

json_t *pc_json_probe(const struct pc_probe_result *r, const struct pc_clock *clk)
{
	const struct pc_probe_row *row = &pc_probe_rows[r->id];
	json_t *p = json_pack("{s:s, s:i, s:s}", "status", pc_status_name(r->status),
			      "ring", r->ring, "group", pc_group_name(row->group));

	if (!p)
		return NULL;
	if (r->reason[0])
		json_object_set_new(p, "reason", json_string(r->reason));
	if (r->partial)
		json_object_set_new(p, "partial", json_true());
	if (r->status != PC_STATUS_OK)
		return p;
	json_object_set_new(p, "cycles_source",
			    json_string(pc_cycles_source_name(r->cycles_source)));
	json_object_set_new(p, "cycles_per_tick", real(r->cycles_per_tick));
	json_object_set_new(p, "samples", json_integer((json_int_t)r->samples));
	json_object_set_new(p, "iters", json_integer((json_int_t)r->iters));
	json_object_set_new(p, "ops_per_sample",
			    json_integer((json_int_t)r->ops_per_sample));
	json_object_set_new(p, "linearity",
			    isnan(r->linearity) ? json_null() : real(r->linearity));
	json_object_set_new(p, "ticks", summary_json(&r->ticks));
	json_object_set_new(p, "cycles", summary_json(&r->cycles));
	json_object_set_new(p, "ns", summary_json(&r->ns));
	probe_events_json(p, r);
	if (r->raw_ticks) {
		json_t *raw = json_object();

		json_object_set_new(raw, "ticks", samples_of(r->raw_ticks, r->samples));
		if (r->raw_cycles)
			json_object_set_new(raw, "cycles",
					    samples_of(r->raw_cycles, r->samples));
		json_object_set_new(p, "raw", raw);
	}
	(void)clk;
	return p;
}

json_t *pc_json_probes(const struct pc_profile *prof, const struct pc_clock *clk)
{
	json_t *probes = json_object();
	size_t i;

	for (i = 0; probes && i < prof->nprobes; i++)
		json_object_set_new(probes, pc_probe_rows[prof->probes[i].id].name,
				    pc_json_probe(&prof->probes[i], clk));
	return probes;
}

json_t *pc_json_run(const struct pc_cpu_info *ci, const struct pc_clock *clk,
		    const struct pc_profile *prof, json_t *options)
{
	char date[32];
	time_t now = time(NULL);
	struct tm tm;
	json_t *run;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	run = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:b}",
			"date", date, "host", ci->host, "kernel", ci->kernel,
			"primcost_version", PACKAGE_VERSION,
			"cycles_source", pc_cycles_source_name(clk->source),
			"cycles_per_tick", real(prof->cycles_per_tick),
			"calibration_drift", real(prof->calib_drift),
			"wall_s", real(prof->wall_s), "unreliable", prof->unreliable);
	if (!run)
		return NULL;
	if (clk->source != PC_CYCLES_PMU && clk->pmu_reason[0])
		json_object_set_new(run, "pmu_reason", json_string(clk->pmu_reason));
	if (clk->source == PC_CYCLES_PMU) {
		json_object_set_new(run, "pmu_read", json_string(clk->pmu_read_reason));
		json_object_set_new(run, "pmu_user_only", json_boolean(clk->pmu_user_only));
	}
	if (prof->unreliable)
		json_object_set_new(run, "unreliable_reason",
				    json_string(prof->unreliable_reason));
	if (prof->canary)
		json_object_set_new(run, "contention", json_pack(
			"{s:s, s:o, s:o, s:o, s:i}", "canary", "calib.add_throughput",
			"canary_cycles_best", real(prof->canary_best),
			"canary_cycles_median", real(prof->canary_median),
			"tolerance", real(PC_CONTENTION_TOLERANCE),
			"samples_dropped", (int)prof->contended));
	if (prof->interrupted) {
		json_object_set_new(run, "partial", json_true());
		json_object_set_new(run, "interrupted_by",
				    json_string(pc_signal_name(prof->interrupted)));
	}
	json_object_set_new(run, "options", options ? options : json_object());
	return run;
}

/* Is p a measured figure (status ok)? */
int pc_probe_measured(json_t *p)
{
	const char *st = json_string_value(json_object_get(p, "status"));

	return st && strcmp(st, "ok") == 0;
}

/* Files p (its "run" member dropped) in the record of run k: a figure a
 * newer one replaced, or a row the run did not measure. */
static void file_in_run(json_t *runs, size_t k, const char *name, json_t *p)
{
	json_t *run = json_array_get(runs, k), *hist;

	if (!run)
		return;
	hist = json_object_get(run, "probes");
	if (!hist) {
		hist = json_object();
		json_object_set_new(run, "probes", hist);
	}
	json_object_set(hist, name, p);
	json_object_del(json_object_get(hist, name), "run");
}

/* The run a current entry belongs to: its "run", else the last run. */
static size_t run_index(json_t *p, size_t nruns)
{
	json_t *r = json_object_get(p, "run");

	return json_is_integer(r) ? (size_t)json_integer_value(r) : nruns - 1;
}

static const char *date_of(json_t *runs, size_t k)
{
	const char *d = json_string_value(json_object_get(json_array_get(runs, k),
							  "date"));

	return d ? d : "";
}

/*
 * Only measurements replace measurements: where the current entry of a probe
 * is not a figure (skipped, unsupported, failed) but a run's record holds
 * one, the newest such figure becomes current again and the entry goes to
 * its own run's record. Files written before the rule are repaired so.
 */
void pc_entry_promote_measured(json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs"), *cur = json_object_get(entry, "probes");
	const char *name;
	json_t *p;
	void *it;

	json_object_foreach_safe(cur, it, name, p) {
		size_t k, best = (size_t)-1;
		json_t *run, *fig;

		if (pc_probe_measured(p))
			continue;
		json_array_foreach(runs, k, run) {
			fig = json_object_get(json_object_get(run, "probes"), name);
			if (pc_probe_measured(fig) && (best == (size_t)-1 ||
			    strcmp(date_of(runs, k), date_of(runs, best)) >= 0))
				best = k;
		}
		if (best == (size_t)-1)
			continue;
		fig = json_deep_copy(json_object_get(json_object_get(
			json_array_get(runs, best), "probes"), name));
		json_object_del(json_object_get(json_array_get(runs, best), "probes"), name);
		json_object_set_new(fig, "run", json_integer((json_int_t)best));
		json_incref(p);
		json_object_set_new(cur, name, fig);
		file_in_run(runs, run_index(p, json_array_size(runs)), name, p);
		json_decref(p);
	}
}

/*
 * Files a run under its model key. Same key again: the run is appended to
 * runs[] and the cpu description is replaced by the newer one. Each probe
 * the run measured becomes current, and the entry it replaces moves into
 * the record of the run that produced it (runs[k].probes). A row the run
 * did not measure (skipped, unsupported, failed) becomes current only where
 * no measured figure is: otherwise it stays in the run's own record. Nothing
 * is lost, and cpus.KEY.probes holds the newest figure of every probe.
 */
int pc_doc_add_run(json_t *doc, const char *key, json_t *cpu, json_t *run,
		   json_t *probes, char *err, size_t errlen)
{
	json_t *cpus = json_object_get(doc, "cpus"), *entry, *runs, *cur;
	const char *name;
	json_t *p;
	size_t k;

	if (!json_is_object(cpus)) {
		snprintf(err, errlen, "document has no \"cpus\" object");
		goto fail;
	}
	entry = json_object_get(cpus, key);
	if (!entry && json_object_size(cpus) >= PC_LIMIT_CPUS) {
		snprintf(err, errlen, "the file already holds %d CPUs (the limit)",
			 PC_LIMIT_CPUS);
		goto fail;
	}
	if (entry && !json_is_object(entry)) {
		snprintf(err, errlen, "cpus.%s is not an object", key);
		goto fail;
	}
	if (entry) {
		size_t fresh = 0;

		json_object_foreach(probes, name, p)
			fresh += !json_object_get(json_object_get(entry, "probes"), name);
		if (json_object_size(json_object_get(entry, "probes")) + fresh >
		    PC_LIMIT_PROBES) {
			snprintf(err, errlen, "cpus.%s would hold more than %d probes "
				 "(the limit)", key, PC_LIMIT_PROBES);
			goto fail;
		}
	}
	if (!entry) {
		entry = json_object();
		json_object_set_new(entry, "cpu", cpu);
		json_object_set_new(entry, "runs", json_array());
		json_object_set_new(entry, "probes", json_object());
		json_object_set_new(cpus, key, entry);
	} else {
		json_object_set_new(entry, "cpu", cpu);
	}
	runs = json_object_get(entry, "runs");
	cur = json_object_get(entry, "probes");
	k = json_array_size(runs);
	json_array_append_new(runs, run);
	json_object_foreach(probes, name, p) {
		json_t *old = json_object_get(cur, name);

		if (old && pc_probe_measured(old) && !pc_probe_measured(p)) {
			file_in_run(runs, k, name, p);
			continue;
		}
		if (old && k > 0)
			file_in_run(runs, run_index(old, k), name, old);
		json_object_set_new(p, "run", json_integer((json_int_t)k));
		json_object_set(cur, name, p);
	}
	json_decref(probes);
	/* A file written before the rule may hide a figure: bring it back. */
	pc_entry_promote_measured(entry);
	return 0;
fail:
	json_decref(cpu);
	json_decref(run);
	json_decref(probes);
	return -1;
}

/* ---- validation -------------------------------------------------------- */

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

static int check_raw(json_t *raw, const char *where, char *err, size_t errlen)
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
			continue;
		}
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
	return 0;
}

/* events.NAME is a summary or {status: unsupported, reason}; discarded
 * holds counts. */
static int check_probe_events(json_t *p, const char *where, char *err, size_t errlen)
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
				int rc = check_raw(raw, sub, err, errlen);

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

/* A probe measured at several points (the allocator group: a size and an
 * allocator each); every point is a probe's figure itself. */
static int check_points(json_t *pts, const char *where, char *err, size_t errlen)
{
	char sub[PC_ERRLEN];
	json_t *pt, *v;
	size_t i;

	if (!json_is_array(pts) || json_array_size(pts) > PC_LIMIT_PROBES)
		FAIL("%s.points: not an array of at most %d points", where, PC_LIMIT_PROBES);
	json_array_foreach(pts, i, pt) {
		snprintf(sub, sizeof(sub), "%s.points[%zu]", where, i);
		v = json_object_get(pt, "size");
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			FAIL("%s.size: missing or not a positive integer", sub);
		v = json_object_get(pt, "allocator");
		if (!json_is_string(v) || !pc_name_ok(json_string_value(v), PC_LIMIT_NAME))
			FAIL("%s.allocator: missing or not a name", sub);
		if (json_object_get(pt, "points"))
			FAIL("%s: points within a point", sub);
		if (pc_validate_probe(pt, sub, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int pc_validate_probe(json_t *p, const char *where, char *err, size_t errlen)
{
	static const char *const statuses[] = { "ok", "skipped", "unsupported", "failed",
						NULL };
	static const char *const metrics[] = { "ticks", "cycles", "ns" };
	json_t *st, *v;
	char sub[PC_ERRLEN];
	size_t i;
	int published, nmetrics = 0;

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
	if (json_object_get(p, "points"))	/* the figures are the points' */
		return check_points(json_object_get(p, "points"), where, err, errlen);
	if (strcmp(json_string_value(st), "ok") != 0)
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
		if (check_raw(v, sub, err, errlen) < 0)
			return -1;
	}
	if (check_probe_events(p, where, err, errlen) < 0)
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

/* Errors name where, in the document's own words: control characters in
 * its keys are replaced so that the message stays one line. */
int pc_doc_validate(json_t *doc, char *err, size_t errlen)
{
	int rc = validate_doc(doc, err, errlen);

	if (rc < 0)
		pc_one_line(err);
	return rc;
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
	json_object_foreach(cpus, key, entry) {
		json_t *cpu, *runs, *probes, *p, *run;
		const char *pname;
		char where[PC_ERRLEN];
		size_t i;

		if (!pc_name_ok(key, PC_LIMIT_KEY))
			FAIL("cpus: model key \"%.64s\" is empty, longer than %d bytes or "
			     "not made of letters, digits, '_', '.', '+', '-'", key,
			     PC_LIMIT_KEY);
		if (!json_is_object(entry))
			FAIL("cpus.%s: not an object", key);
		cpu = json_object_get(entry, "cpu");
		if (!json_is_object(cpu) ||
		    !json_is_string(json_object_get(cpu, "arch")))
			FAIL("cpus.%s.cpu: missing, or has no \"arch\" string", key);
		snprintf(where, sizeof(where), "cpus.%s.cpu", key);
		if (check_cpu(cpu, where, err, errlen) < 0)
			return -1;
		runs = json_object_get(entry, "runs");
		if (!json_is_array(runs))
			FAIL("cpus.%s.runs: missing or not an array", key);
		if (json_array_size(runs) > PC_LIMIT_RUNS)
			FAIL("cpus.%s.runs: %zu runs (limit %d)", key,
			     json_array_size(runs), PC_LIMIT_RUNS);
		json_array_foreach(runs, i, run) {
			json_t *hist;

			if (!json_is_object(run) ||
			    !json_is_string(json_object_get(run, "date")))
				FAIL("cpus.%s.runs[%zu]: not an object with a \"date\"",
				     key, i);
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
				continue;
			if (!json_is_object(hist))
				FAIL("cpus.%s.runs[%zu].probes: not an object", key, i);
			if (json_object_size(hist) > PC_LIMIT_PROBES)
				FAIL("cpus.%s.runs[%zu].probes: %zu probes (limit %d)", key,
				     i, json_object_size(hist), PC_LIMIT_PROBES);
			json_object_foreach(hist, pname, p) {
				snprintf(where, sizeof(where), "cpus.%s.runs[%zu].probes.%s",
					 key, i, pname);
				if (!pc_name_ok(pname, PC_LIMIT_NAME))
					FAIL("%s: not a probe name", where);
				if (pc_validate_probe(p, where, err, errlen) < 0)
					return -1;
			}
		}
		probes = json_object_get(entry, "probes");
		if (!json_is_object(probes))
			FAIL("cpus.%s.probes: missing or not an object", key);
		if (json_object_size(probes) > PC_LIMIT_PROBES)
			FAIL("cpus.%s.probes: %zu probes (limit %d)", key,
			     json_object_size(probes), PC_LIMIT_PROBES);
		json_object_foreach(probes, pname, p) {
			json_t *r;

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
	}
	return 0;
}

/* ---- reading ----------------------------------------------------------- */

/* Nothing but white space: an empty file, not a JSON syntax error. */
static int blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)buf[i]))
			return 0;
	return 1;
}

/* Reads fd to its end, at most PC_LIMIT_FILE_BYTES + 1 bytes (one more says
 * "too big"); *len the bytes read. NULL with err filled on an error. */
static char *read_all(int fd, const char *name, size_t *len, char *err,
		      size_t errlen)
{
	size_t cap = 65536, got = 0, limit = (size_t)PC_LIMIT_FILE_BYTES + 1;
	char *buf = malloc(cap + 1), *grown;
	ssize_t r;

	while (buf) {
		if (got == cap) {
			cap = cap * 2 < limit ? cap * 2 : limit;
			grown = realloc(buf, cap + 1);
			if (!grown)
				break;
			buf = grown;
		}
		r = read(fd, buf + got, cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			free(buf);
			return NULL;
		}
		got += (size_t)r;
		if (r == 0 || got >= limit) {
			*len = got;
			return buf;
		}
	}
	free(buf);
	snprintf(err, errlen, "%s: out of memory", name);
	return NULL;
}

json_t *pc_doc_parse(const char *buf, size_t len, const char *name, char *err,
		     size_t errlen)
{
	json_error_t jerr;
	json_t *doc;
	char why[PC_ERRLEN], *small;
	size_t smalllen;
	struct pc_packed_store st;

	if (len > PC_LIMIT_FILE_BYTES) {
		snprintf(err, errlen, "%s: %zu bytes (limit %d MiB)", name, len,
			 PC_LIMIT_FILE_BYTES >> 20);
		return NULL;
	}
	if (blank(buf, len)) {
		snprintf(err, errlen, "%s: empty file", name);
		pc_one_line(err);
		return NULL;
	}
	/* Packed samples bypass the lexer: taken out, parsed, put back. */
	small = pc_packed_extract(buf, len, &smalllen, &st);
	if (!small) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	doc = json_loadb(small, smalllen, JSON_REJECT_DUPLICATES, &jerr);
	free(small);
	if (doc && pc_packed_restore(doc, &st) < 0) {
		json_decref(doc);
		pc_packed_store_free(&st);
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	pc_packed_store_free(&st);
	if (!doc) {
		snprintf(err, errlen, "%s: not valid JSON: %s (line %d)", name,
			 jerr.text, jerr.line);
		pc_one_line(err);
		return NULL;
	}
	if (pc_doc_validate(doc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		pc_one_line(err);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

json_t *pc_doc_load(const char *path, int *missing, char *err, size_t errlen)
{
	struct stat sb;
	json_t *doc;
	char *buf;
	size_t got = 0;
	ssize_t r;
	int fd;

	if (missing)
		*missing = 0;
	if (strcmp(path, "-") == 0) {
		buf = read_all(STDIN_FILENO, PC_STDIN_NAME, &got, err, errlen);
		if (!buf)
			return NULL;
		doc = pc_doc_parse(buf, got, PC_STDIN_NAME, err, errlen);
		free(buf);
		return doc;
	}
	if (stat(path, &sb) != 0) {
		if (errno == ENOENT && missing)
			*missing = 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		pc_one_line(err);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		pc_one_line(err);
		return NULL;
	}
	if (sb.st_size > PC_LIMIT_FILE_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes (limit %d MiB)", path,
			 (long long)sb.st_size, PC_LIMIT_FILE_BYTES >> 20);
		pc_one_line(err);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	buf = malloc((size_t)sb.st_size + 1);
	if (fd < 0 || !buf) {
		snprintf(err, errlen, "%s: %s", path, fd < 0 ? strerror(errno) :
			 "out of memory");
		pc_one_line(err);
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	/* The size was checked; a file that grows meanwhile is read no further. */
	while (got < (size_t)sb.st_size &&
	       (r = read(fd, buf + got, (size_t)sb.st_size - got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			pc_one_line(err);
			close(fd);
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	close(fd);
	doc = pc_doc_parse(buf, got, path, err, errlen);
	free(buf);
	return doc;
}

/* ---- writing ------------------------------------------------------------ */

int pc_doc_dump(json_t *doc, FILE *f)
{
	if (json_dumpf(doc, f, DUMP_FLAGS) < 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

int pc_write_target(const char *path, char *out, size_t outlen, char *err,
		    size_t errlen)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	ssize_t n;
	int hops;

	if ((size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		goto too_long;
	for (hops = 0; hops < 40; hops++) {
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {	/* not a link, or not there: the file itself */
			if ((size_t)snprintf(out, outlen, "%s", cur) >= outlen)
				goto too_long;
			return 0;
		}
		link[n] = 0;
		snprintf(dir, sizeof(dir), "%s", cur);
		if (link[0] == '/' || !strchr(cur, '/'))
			n = snprintf(cur, sizeof(cur), "%s", link);
		else
			n = snprintf(cur, sizeof(cur), "%s/%s", dirname(dir), link);
		if ((size_t)n >= sizeof(cur))
			goto too_long;
	}
	snprintf(err, errlen, "%s: too many levels of symbolic links", path);
	pc_one_line(err);
	return -1;
too_long:
	snprintf(err, errlen, "%.200s: file name too long", path);
	pc_one_line(err);
	return -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int open_lock_file(const char *target, char *err, size_t errlen)
{
	char *d = strdup(target), *b = strdup(target), *lock = NULL;
	int fd = -1;

	if (d && b && asprintf(&lock, "%s/.%s.lock", dirname(d), basename(b)) >= 0) {
		fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			fd = open(lock, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			snprintf(err, errlen, "cannot lock %s: %s: %s", target, lock,
				 strerror(errno));
	} else {
		snprintf(err, errlen, "out of memory");
	}
	free(d);
	free(b);
	free(lock);
	return fd;
}

int pc_doc_lock(const char *target, const char *cmd, int (*stop)(void),
		int *stopped, char *err, size_t errlen)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	double start = now_s();
	int fd = open_lock_file(target, err, errlen), said = 0;

	if (stopped)
		*stopped = 0;
	if (fd < 0) {
		pc_one_line(err);
		return -1;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			snprintf(err, errlen, "cannot lock %s: %s", target, strerror(errno));
			goto fail;
		}
		if (stop && stop()) {
			snprintf(err, errlen, "interrupted while waiting for another "
				 "primcost to finish writing %s", target);
			if (stopped)
				*stopped = 1;
			goto fail;
		}
		if (!said && now_s() - start > PC_LOCK_NOTICE_S) {
			pc_error(cmd, "waiting for another primcost to finish writing %s",
				 target);
			said = 1;
		}
		nanosleep(&pause, NULL);
	}
	return fd;
fail:
	pc_one_line(err);
	close(fd);
	return -1;
}

void pc_doc_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* closing the only descriptor releases the lock */
}

/* Checked on the file a write lands in (a symbolic link's target). */
int pc_check_writable(const char *path, char *err, size_t errlen)
{
	char target[PATH_MAX], *copy, *dir;
	int rc = 0;

	if (pc_write_target(path, target, sizeof(target), err, errlen) < 0)
		return -1;
	copy = strdup(target);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	dir = dirname(copy);
	if (access(dir, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "cannot write %s: directory %s: %s", path, dir,
			 strerror(errno));
		rc = -1;
	} else if (access(target, F_OK) == 0 && access(target, W_OK) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	free(copy);
	return rc;
}

/*
 * Writes doc to path through a temporary file in the same directory:
 * fsync, then rename over the old file, so that a reader (or a crash) sees
 * either the old file whole or the new one whole.
 */
static int doc_write_file(json_t *doc, const char *path, char *err, size_t errlen);

/*
 * A signal that would end the program (SIGINT, SIGTERM, SIGHUP, ...) waits
 * while the temporary file exists: it takes effect after the rename (or
 * after the temporary file is removed on an error), so none is left behind
 * and the destination is whole, old or new. Only SIGKILL or a crash can
 * leave a "FILE.tmp.XXXXXX", never a damaged FILE.
 */
int pc_doc_write(json_t *doc, const char *path, char *err, size_t errlen)
{
	sigset_t all, old;
	char why[PC_ERRLEN], target[PATH_MAX];
	int rc;

	/* What primcost writes, primcost reads back: a document its own
	 * reader would refuse is an error here, not in the next run. */
	if (pc_doc_validate(doc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: not written: the result would not read back: %s",
			 path, why);
		pc_one_line(err);
		return -1;
	}
	if (strcmp(path, "-") == 0)
		return doc_write_file(doc, path, err, errlen);
	/* Through a symbolic link, the file it points to is replaced. */
	if (pc_write_target(path, target, sizeof(target), err, errlen) < 0)
		return -1;
	path = target;
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);	/* faults must still be reported */
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGABRT);
	sigdelset(&all, SIGTRAP);
	sigdelset(&all, SIGSYS);
	sigprocmask(SIG_BLOCK, &all, &old);
	rc = doc_write_file(doc, path, err, errlen);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int doc_write_file(json_t *doc, const char *path, char *err, size_t errlen)
{
	char *tmp = NULL, *copy, *dir;
	FILE *f = NULL;
	int fd = -1, dfd;

	if (strcmp(path, "-") == 0) {
		if (pc_doc_dump(doc, stdout) < 0 || fflush(stdout) != 0) {
			snprintf(err, errlen, "cannot write to standard output: %s",
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f || pc_doc_dump(doc, f) < 0 || fflush(f) != 0 ||
	    ftello(f) > PC_LIMIT_FILE_BYTES || fsync(fd) != 0) {
		if (f && !ferror(f) && ftello(f) > PC_LIMIT_FILE_BYTES)
			/* primcost would refuse to read it back */
			snprintf(err, errlen, "cannot write %s: it would be %lld bytes, "
				 "over the %d MiB a result file may have", path,
				 (long long)ftello(f), PC_LIMIT_FILE_BYTES >> 20);
		else
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	/* Make the rename itself durable. */
	copy = strdup(path);
	if (copy) {
		dir = dirname(copy);
		dfd = open(dir, O_RDONLY | O_DIRECTORY);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(copy);
	}
	return 0;
}
