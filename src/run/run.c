/* SPDX-License-Identifier: MIT */
/*
 * run.c - a run's life: the CPU detected, the thread pinned, the clock,
 * the events and the way into ring 0 opened, the chosen group measured
 * (or another architecture's probe runner run), the one-run document
 * built, filed into the result file under its lock, and all of it closed.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/contain.h"
#include "core/environment.h"
#include "core/pace.h"
#include "results/packed.h"
#include "run.h"
#include "core/primcost.h"
#include "core/util.h"

double pc_run_probe_timeout(const struct pc_run_options *o, double sample_floor_s)
{
	double sample_s = (double)o->sample_us * 1e-6;

	if (o->probe_timeout_s >= 0)
		return o->probe_timeout_s;
	if (sample_floor_s > sample_s)	/* a coarse timer makes samples longer */
		sample_s = sample_floor_s;
	return 10.0 + 40.0 * ((double)o->samples + 500.0) * sample_s;
}

void pc_run_defaults(struct pc_run_options *o)
{
	memset(o, 0, sizeof(*o));
	o->probes = "*";
	o->cpu = -1;
	o->samples = 501;
	o->sample_us = 20;
	o->output = "primcost.json";
	o->format = PC_FORMAT_TABLE;
	o->pmu = true;
	o->ring0.mode = PC_RING0_AUTO;
	o->ring0.timeout_s = PC_RING0_TIMEOUT_DEFAULT_S;
	o->reject_disturbed = true;
	pc_events_init(&o->events);
	o->probe_timeout_s = -1;
	o->status_fd = -1;
}

int pc_run_recordable(const char *opt, const char *arg, char *err, size_t errlen)
{
	if (strlen(arg) <= PC_LIMIT_STRING)
		return 0;
	snprintf(err, errlen, "%s: a list of %zu bytes (the result records at most %d)",
		 opt, strlen(arg), PC_LIMIT_STRING);
	return -1;
}

/* The shortest sample the timer allows (pc_sample_ticks), in seconds. */
static double sample_floor(const struct pc_run_options *o, const struct pc_clock *clk)
{
	return clk && clk->tick_hz > 0 ?
	       pc_sample_ticks(clk, (double)o->sample_us * 1e-6) / clk->tick_hz : 0;
}

/* The stopping rule (method.h): sequential with --until-known, unless a
 * runner (another architecture's) took a fixed count. */
static json_t *stopping_json(const struct pc_run_options *o)
{
	if (!o->until_known || o->arch)
		return json_pack("{s:s}", "rule", "fixed");
	return json_pack("{s:s, s:i, s:i, s:f, s:f, s:f}", "rule", "sequential",
			 "floor", PC_STOP_FLOOR, "ceiling", (int)o->samples,
			 "confidence", 0.95, "precision", PC_STOP_PRECISION,
			 "precision_cycles", PC_STOP_PRECISION_CYCLES);
}

/* The options as the result records them. */
static json_t *options_json(const struct pc_run *r)
{
	const struct pc_run_options *o = r->o;
	json_t *j = json_pack("{s:s, s:i, s:i, s:i, s:b, s:b, s:s, s:f, s:s, s:b, s:b, s:f}",
			 "probes", o->probes, "cpu", r->cpu_no, "samples", (int)o->samples,
			 "sample_us", (int)o->sample_us, "keep_samples",
			 o->keep_samples, "pmu", o->pmu,
			 "ring0", pc_ring0_mode_name(o->ring0.mode),
			 "ring0_timeout_s", o->ring0.timeout_s, "events",
			 o->events_list ? o->events_list : "",
			 "reject_disturbed", o->reject_disturbed,
			 "keep_contended", o->keep_contended,
			 "probe_timeout_s", pc_run_probe_timeout(o, sample_floor(o, &r->clk)));

	if (j && o->arch)
		json_object_set_new(j, "arch", json_string(o->arch));
	if (j)
		json_object_set_new(j, "stopping", stopping_json(o));
	return j;
}

/* Is any selected row a ring-0 one? Only then is a way into ring 0 opened. */
static bool wants_ring0(const struct pc_run_options *o)
{
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++)
		if (o->selected[id] && pc_probe_rows[id].ring == 0)
			return true;
	return false;
}

/* One line per reason for the events that will not be counted, and for a
 * disturbance check that cannot run: the run goes on without them. */
static void warn_uncounted(const struct pc_events *e, bool reject)
{
	bool done[PC_EVENTS_MAX] = { false };
	char names[PC_ERRLEN];
	unsigned i, k;
	size_t at;

	for (i = 0; i < e->n; i++) {
		if (e->ev[i].counted || done[i])
			continue;
		at = (size_t)snprintf(names, sizeof(names), "%s", e->ev[i].name);
		for (k = i + 1; k < e->n; k++) {
			if (!e->ev[k].counted && !done[k] &&
			    strcmp(e->ev[k].reason, e->ev[i].reason) == 0) {
				if (at < sizeof(names))
					at += (size_t)snprintf(names + at, sizeof(names) - at,
							       ", %s", e->ev[k].name);
				done[k] = true;
			}
		}
		pc_error("run", "%s: not counted: %s", names, e->ev[i].reason);
	}
	if (reject && !e->reject)
		pc_error("run", "disturbed samples cannot be detected: %s",
			 e->reject_reason);
}

/* Measures this machine: the group opened, detect, pin, clock, events,
 * ring 0, the group measured. What it opened is closed by pc_run_close. */
static int run_native(struct pc_run *r, char *err, size_t errlen)
{
	const struct pc_run_options *o = r->o;
	const struct pc_measurement_group *g = o->group;
	const void *opts = pc_group_options(o, g);
	struct pc_measure_config cfg;
	char why[256];

	if (g->state_size) {
		r->group_state = calloc(1, g->state_size);
		if (!r->group_state) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	if (g->open && g->open(opts, r->group_state, err, errlen) < 0)
		return -1;
	if (pc_cpu_detect(&r->ci, err, errlen) < 0)
		return -1;
	r->cpu_no = pc_pin_cpu(o->cpu, why, sizeof(why));
	if (r->cpu_no < 0) {
		if (o->cpu >= 0)
			snprintf(err, errlen, "--cpu %d: %s", o->cpu, why);
		else
			snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (pc_clock_init(&r->clk, o->pmu, err, errlen) < 0)
		return -1;
	r->clk_open = true;
	r->events = o->events;
	if (pc_events_open(&r->events, o->reject_disturbed, err, errlen) < 0)
		return -1;
	warn_uncounted(&r->events, o->reject_disturbed);

	memset(&cfg, 0, sizeof(cfg));
	cfg.samples = o->samples;
	cfg.stop_floor = o->until_known ? PC_STOP_FLOOR : 0;	/* else a fixed count */
	cfg.sample_s = o->sample_us * 1e-6;
	cfg.keep_samples = o->keep_samples;
	cfg.progress = !o->quiet && isatty(STDERR_FILENO);
	cfg.status_fd = o->status_fd;
	cfg.cpu = r->cpu_no;
	cfg.emulated = r->ci.emulated[0] != 0;
	if (wants_ring0(o)) {
		r->r0 = pc_ring0_open(&o->ring0);
		if (!r->r0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		cfg.ring0 = pc_ring0_target(r->r0);
	}
	cfg.events = &r->events;
	cfg.probe_timeout_s = pc_run_probe_timeout(o, sample_floor(o, &r->clk));
	cfg.keep_contended = o->keep_contended;
	/* the host's pace on either side of the figures, on the CPU they use */
	if (pc_pace(&r->pace_ticks[0], &r->pace_cycles[0]) < 0)
		r->pace_ticks[0] = 0;
	if (g->measure(opts, r->group_state, &cfg, &r->clk, &r->prof, err, errlen) < 0)
		return -1;
	if (pc_pace(&r->pace_ticks[1], &r->pace_cycles[1]) < 0)
		r->pace_ticks[1] = 0;
	return 0;
}

/* The pace as the run records it; NULL when it was not measured (a probe
 * runner's run, a timer that did not move). */
static json_t *pace_json(const struct pc_run *r)
{
	json_t *j;

	if (!(r->pace_ticks[0] > 0) || !(r->pace_ticks[1] > 0))
		return NULL;
	j = json_pack("{s:s, s:o, s:o, s:o, s:o}", "gauge", PC_PACE_GAUGE,
		      "cycles_start", json_real(pc_round7(r->pace_cycles[0])),
		      "cycles_end", json_real(pc_round7(r->pace_cycles[1])),
		      "ticks_start", json_real(pc_round7(r->pace_ticks[0])),
		      "ticks_end", json_real(pc_round7(r->pace_ticks[1])));
	/* paired with every sample: the run's own pace */
	if (j && r->prof.pace) {
		json_object_set_new(j, "cycles_best", json_real(pc_round7(r->prof.pace_best)));
		json_object_set_new(j, "cycles_median",
				    json_real(pc_round7(r->prof.pace_median)));
	}
	return j;
}

/* What besides the CPU moves the figures, as it was when they were taken:
 * this machine's, unless the probe runner ran elsewhere. -1 when memory
 * runs out. */
static int read_environment(struct pc_run *r)
{
	struct pc_env_source src;

	if (r->o->runner_output) {
		r->env = pc_env_unknown("the probe runner ran on another machine: its "
					"output was read from a file (--runner-output)");
	} else {
		pc_env_source_here(&src, r->cpu_no, r->ci.virtualized);
		r->env = pc_env_read(&src);
	}
	return r->env ? 0 : -1;
}

int pc_run_measure(struct pc_run *r, const struct pc_run_options *o, char *err,
		   size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	pc_events_init(&r->events);
	if ((o->arch ? pc_remote_measure(r, err, errlen) : run_native(r, err, errlen)) < 0)
		return -1;
	if (read_environment(r) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Under an emulator every timing is the emulator's, whatever the
	 * calibration says. */
	if (r->ci.emulated[0]) {
		r->prof.unreliable = true;
		snprintf(r->prof.unreliable_reason, sizeof(r->prof.unreliable_reason),
			 "emulated: %s", r->ci.emulated);
	}
	return 0;
}

json_t *pc_run_document(struct pc_run *r, char *err, size_t errlen)
{
	const struct pc_run_options *o = r->o;
	const struct pc_measurement_group *g = o->group;
	json_t *cpu, *run, *probes, *doc, *pace;

	snprintf(err, errlen, "out of memory");
	cpu = pc_json_cpu(&r->ci, &r->clk, r->prof.cycles_per_tick);
	run = pc_json_run(&r->ci, &r->clk, &r->prof, options_json(r));
	if (run && r->env)
		json_object_set_new(run, "environment", pc_json_environment(r->env));
	if (run && r->r0)
		json_object_set_new(run, "ring0", pc_ring0_json(r->r0));
	if (run && (pace = pace_json(r)))
		json_object_set_new(run, "pace", pace);
	if (run && r->extra)
		json_object_update(run, r->extra);
	json_decref(r->extra);
	r->extra = NULL;
	if (run)
		pc_json_run_events(run, &r->events);
	if (run && g->describe)
		g->describe(pc_group_options(o, g), r->group_state, run);
	probes = g->probes(r->group_state, &r->prof, &r->clk);
	doc = pc_doc_new();
	if (!cpu || !run || !probes || !doc ||
	    pc_doc_add_run(doc, r->ci.key, cpu, run, probes, err, errlen) < 0) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* --status-fd must name a descriptor open for writing. A reader that goes
 * away must not kill the run: SIGPIPE is then ignored (writes fail). */
static int status_fd_open(int fd, char *err, size_t errlen)
{
	int fl;

	if (fd < 0)
		return 0;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		snprintf(err, errlen, "--status-fd %d: %s", fd, fl < 0 ?
			 "not an open file descriptor" : "not open for writing");
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int pc_run_preflight(const struct pc_run_options *o, char *err, size_t errlen)
{
	char why[PC_ERRLEN];
	json_t *doc = NULL;
	int missing = 0;

	if (status_fd_open(o->status_fd, err, errlen) < 0)
		return -1;
	if (strcmp(o->output, "-") == 0)
		return 0;
	if (pc_check_writable(o->output, err, errlen) < 0)
		return -1;
	doc = pc_doc_load(o->output, &missing, why, sizeof(why));
	if (!doc && !missing) {
		snprintf(err, errlen, "%s (refusing to replace it; move it away or choose "
			 "another -o)", why);
		return -1;
	}
	json_decref(doc);
	return 0;
}

/*
 * Files the run (entry of a one-run document) into output. Writers of one
 * file take turns: under the lock on the file (its symbolic link's target)
 * it is read again, since another primcost may have written it while this
 * one measured, and replaced with the run added. An interrupted run files
 * only what it measured (the group's drop_unmeasured).
 */
static int file_run(struct pc_run *r, json_t *run_doc, bool may_stop, int *stopped,
		    char *err, size_t errlen)
{
	const struct pc_measurement_group *g = r->o->group;
	json_t *entry = json_object_get(json_object_get(run_doc, "cpus"), r->ci.key);
	json_t *run = json_array_get(json_object_get(entry, "runs"), 0);
	json_t *keep = json_deep_copy(json_object_get(entry, "probes"));
	struct pc_output dest;
	json_t *doc;
	int rc = PC_OUT_LOCK_LOST;

	if (r->sig && g->drop_unmeasured)
		g->drop_unmeasured(keep, &r->prof);
	/* a lock lost to its file's removal: read, add and write again */
	while (rc == PC_OUT_LOCK_LOST) {
		doc = pc_output_open(r->o->output, "run", may_stop ? pc_interrupted : NULL,
				     stopped, &dest, err, errlen);
		if (!doc)
			break;
		/* judged against the file's history as it is now: the view
		 * shows what the file records */
		if (!r->prof.unreliable)
			pc_run_judge_pace(run, json_object_get(json_object_get(doc, "cpus"),
							       r->ci.key));
		rc = pc_doc_add_run(doc, r->ci.key, json_deep_copy(json_object_get(entry, "cpu")),
				    json_deep_copy(run), json_deep_copy(keep), err, errlen);
		if (rc == 0) {
			pc_doc_pack_raw(doc);	/* raw samples an older primcost wrote */
			rc = pc_doc_write_locked(doc, dest.target, &dest.lock_fd,
						 dest.read_existed ? &dest.read_st : NULL,
						 err, errlen);
		}
		json_decref(doc);
		pc_output_close(&dest);
	}
	json_decref(keep);
	return rc < 0 ? -1 : 0;
}

int pc_run_save(struct pc_run *r, json_t *run_doc, int *stopped, char *err,
		size_t errlen)
{
	if (strcmp(r->o->output, "-") == 0)
		return pc_doc_write(run_doc, "-", err, errlen);
	return file_run(r, run_doc, !r->sig, stopped, err, errlen);
}

size_t pc_run_measured(const struct pc_run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->prof.nprobes; i++)
		n += r->prof.probes[i].samples > 0;
	return n;
}

bool pc_run_failed(const struct pc_run *r)
{
	size_t i;

	for (i = 0; i < r->prof.nprobes; i++)
		if (r->prof.probes[i].status == PC_STATUS_FAILED)
			return true;
	return false;
}

bool pc_run_refused(const struct pc_run *r, char *why, size_t len)
{
	const struct pc_probe_result *p = r->prof.probes, *first = NULL;
	size_t i, n = r->prof.nprobes, skipped = 0;
	bool same = true;

	if (!n || pc_run_measured(r) || pc_run_failed(r))
		return false;
	for (i = 0; i < n; i++) {
		if (p[i].status != PC_STATUS_SKIPPED && p[i].status != PC_STATUS_UNSUPPORTED)
			return false;
		skipped += p[i].status == PC_STATUS_SKIPPED;
		if (!first)
			first = &p[i];
		else if (strcmp(first->reason, p[i].reason) != 0)
			same = false;
	}
	if (skipped == 0 || skipped == n) {
		char who[64];

		if (n <= 2)
			snprintf(who, sizeof(who), "%s", n == 1 ? "the selected row is" :
				 "both selected rows are");
		else
			snprintf(who, sizeof(who), "all %zu selected rows are", n);
		snprintf(why, len, "nothing measured, nothing saved: %s %s here%s %s", who,
			 pc_status_name(first->status), same ? ":" : "; the first:",
			 first->reason);
	} else
		snprintf(why, len, "nothing measured, nothing saved: of the %zu selected "
			 "rows, %zu %s skipped and %zu unsupported here; the first: %s",
			 n, skipped, skipped == 1 ? "is" : "are", n - skipped, first->reason);
	return true;
}

void pc_run_close(struct pc_run *r)
{
	const struct pc_measurement_group *g = r->o ? r->o->group : NULL;

	if (!r->o)	/* never measured: nothing opened */
		return;
	if (r->group_state && g->close)
		g->close(r->group_state);
	free(r->group_state);
	r->group_state = NULL;
	pc_ring0_close(r->r0);
	r->r0 = NULL;
	pc_env_free(r->env);
	r->env = NULL;
	pc_profile_free(&r->prof);
	pc_events_close(&r->events);
	if (r->clk_open)
		pc_clock_close(&r->clk);
	r->clk_open = false;
	json_decref(r->extra);
	r->extra = NULL;
}
