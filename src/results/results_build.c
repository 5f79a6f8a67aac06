/* SPDX-License-Identifier: MIT */
/*
 * results_build.c - the result document built: the cpu block, a run, the
 * figures of its probes (pc_json_*), and a run filed under its model key
 * with the history rules (pc_doc_add_run). data/schema.json is the
 * contract; results_validate.c reads it back, results_io.c reads and
 * writes files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/events.h"
#include "core/contain.h"
#include "core/environment.h"
#include "packed.h"
#include "results.h"
#include "core/primcost.h"

/*
 * Figures carry 7 significant digits: far beyond what a measurement can
 * resolve, and short enough to read. They are rounded when the document is
 * built, so that what is written and read back equals what was built.
 */
double pc_round7(double x)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*g", PC_REAL_DIGITS, x);
	return strtod(buf, NULL);
}

json_t *pc_json_real7(double x)
{
	return json_real(pc_round7(x));
}

static json_t *real(double x)
{
	return pc_json_real7(x);
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

json_t *pc_json_summary(const struct pc_summary *s)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "min", real(s->min),
			 "q1", real(s->q1), "median", real(s->median), "q3", real(s->q3),
			 "max", real(s->max), "mad", real(s->mad));
}

json_t *pc_json_values(const double *v, size_t n)
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
	char *s = NULL;
	json_t *j;
	size_t i;

	for (i = 0; r && i < n; i++)
		r[i] = pc_round7(v[i]);
	if (r && n)
		s = pc_pack_doubles(r, n);
	j = s ? json_string(s) : pc_json_values(v, n);
	free(s);
	free(r);
	return j;
}

/* ---- events counted around each sample (events.c) ---- */

/* events.NAME: per-op statistics, or why the event has none here. */
json_t *pc_json_discarded(const struct pc_probe_events *pe)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
			 "disturbed", (int)pe->disturbed, "multiplexed",
			 (int)pe->multiplexed, "short_by", (int)pe->short_by,
			 "contended", (int)pe->contended, "slow", (int)pe->slow,
			 "slow_calibration", (int)pe->slow_cal, "slow_late",
			 (int)pe->slow_late, "resampled", (int)pe->noisy_retries);
}

bool pc_json_outcome(json_t *p, const struct pc_probe_result *r)
{
	if (r->reason[0])
		json_object_set_new(p, "reason", json_string(r->reason));
	if (r->partial)
		json_object_set_new(p, "partial", json_true());
	/* a noisy figure is the last sampling's, carried as ok's is */
	return r->status == PC_STATUS_OK || r->status == PC_STATUS_NOISY;
}

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
				o = pc_json_summary(&pe->per_op[i]);
				if (pe->raw)
					json_object_set_new(o, "raw", samples_of(
						pe->raw[i], r->samples));
			}
			json_object_set_new(evs, e->name, o);
		}
		json_object_set_new(p, "events", evs);
	}
	json_object_set_new(p, "discarded", pc_json_discarded(pe));
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

/* One fact: its value (an object of lines for a list) and where it was
 * read, or why it is unknown. */
static json_t *env_fact_json(const struct pc_env_field *field,
			     const struct pc_env_fact *f)
{
	json_t *o, *lines;
	size_t i;

	if (!f->known)
		return json_pack("{s:s}", "unknown", f->unknown);
	if (!field->lines) {
		o = json_pack("{s:s, s:s}", "value", f->value, "source", f->source);
	} else {
		lines = json_object();
		for (i = 0; lines && i < f->nlines; i++)
			json_object_set_new(lines, f->line[i].name,
					    json_string(f->line[i].value));
		o = json_pack("{s:o, s:s}", "value", lines, "source", f->source);
	}
	if (o && f->note[0])
		json_object_set_new(o, "note", json_string(f->note));
	return o;
}

json_t *pc_json_environment(const struct pc_env *env)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && env && i < PC_ENV_COUNT; i++)
		json_object_set_new(o, pc_env_fields[i].key,
				    env_fact_json(&pc_env_fields[i], &env->fact[i]));
	return o;
}

void pc_json_figures(json_t *p, const struct pc_probe_result *r)
{
	json_object_set_new(p, "cycles_source",
			    json_string(pc_cycles_source_name(r->cycles_source)));
	json_object_set_new(p, "cycles_per_tick", real(r->cycles_per_tick));
	json_object_set_new(p, "samples", json_integer((json_int_t)r->samples));
	if (r->known)
		json_object_set_new(p, "known", json_true());
	if (r->varies) {
		json_t *modes = json_array();
		size_t k;

		for (k = 0; modes && k < r->nmodes; k++)
			json_array_append_new(modes, json_pack("{s:o, s:o}", "cycles",
					      real(r->modes[k].cycles), "share",
					      real(r->modes[k].share)));
		json_object_set_new(p, "varies", json_true());
		if (modes)
			json_object_set_new(p, "modes", modes);
	}
	json_object_set_new(p, "iters", json_integer((json_int_t)r->iters));
	json_object_set_new(p, "ops_per_sample",
			    json_integer((json_int_t)r->ops_per_sample));
	json_object_set_new(p, "linearity",
			    isnan(r->linearity) ? json_null() : real(r->linearity));
	if (r->nonlinear)
		json_object_set_new(p, "nonlinear", json_true());
	if (isfinite(r->round_spread) && r->round_spread >= 0)
		json_object_set_new(p, "round_spread", real(r->round_spread));
	json_object_set_new(p, "ticks", pc_json_summary(&r->ticks));
	json_object_set_new(p, "cycles", pc_json_summary(&r->cycles));
	json_object_set_new(p, "ns", pc_json_summary(&r->ns));
}

json_t *pc_json_probe(const struct pc_probe_result *r, const struct pc_clock *clk)
{
	const struct pc_probe_row *row = &pc_probe_rows[r->id];
	json_t *p = json_pack("{s:s, s:i, s:s}", "status", pc_status_name(r->status),
			      "ring", r->ring, "group", pc_group_name(row->group));

	if (!p)
		return NULL;
	if (!pc_json_outcome(p, r))
		return p;
	pc_json_figures(p, r);
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
	char date[40];
	struct timespec now;
	struct tm tm;
	json_t *run;

	/* To the millisecond: two runs in one second still read in order. */
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(date + strlen(date), sizeof(date) - strlen(date), ".%03ldZ",
		 now.tv_nsec / 1000000);
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

int pc_probe_rank(json_t *p)
{
	const char *st = json_string_value(json_object_get(p, "status"));

	if (!st)
		return 0;
	return strcmp(st, "ok") == 0 ? 2 : strcmp(st, "noisy") == 0 ? 1 : 0;
}

int pc_probe_measured(json_t *p)
{
	return pc_probe_rank(p) > 0;
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
 * ranks below an entry a run's record holds (pc_probe_rank: a row that was
 * not measured below a noisy figure below a figure), the newest entry of the
 * highest rank becomes current again and the current one goes to its own
 * run's record. Files written before the rule are repaired so.
 */
void pc_entry_promote_measured(json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs"), *cur = json_object_get(entry, "probes");
	const char *name;
	json_t *p;
	void *it;

	json_object_foreach_safe(cur, it, name, p) {
		size_t k, best = (size_t)-1;
		int rank = pc_probe_rank(p), r;
		json_t *run, *fig;

		if (rank == 2)
			continue;
		json_array_foreach(runs, k, run) {
			fig = json_object_get(json_object_get(run, "probes"), name);
			r = fig ? pc_probe_rank(fig) : -1;
			if (r > rank || (r == rank && best != (size_t)-1 &&
			    pc_date_cmp(date_of(runs, k), date_of(runs, best)) >= 0)) {
				best = k;
				rank = r;
			}
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
 * the record of the run that produced it (runs[k].probes). An entry that
 * ranks below the current one (pc_probe_rank: a row the run did not measure
 * below a noisy figure below a figure) does not replace it: it stays in the
 * run's own record. Nothing
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

		if (old && pc_probe_rank(p) < pc_probe_rank(old)) {
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
