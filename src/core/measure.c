/* SPDX-License-Identifier: MIT */
/*
 * measure.c - a native run: the engine (engine/engine.h) over this
 * process's executor (executor.c) and, for ring-0 rows, ring0.c's; with
 * pinning, containment of traps and hangs, the perf group's verdict on
 * every sample, the contention canary, and the results finished by
 * samples.c.
 */
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "portable.h"
#include "contain.h"
#include "events.h"
#include "executor.h"
#include "pace.h"
#include "stats.h"
#include "cpu.h"
#include "clock.h"
#include "samples.h"

const char *pc_status_name(enum pc_status s)
{
	static const char *const names[] = { "ok", "skipped", "unsupported", "failed",
						     "noisy" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* A test program may define this table to give rows test-only bodies (the
 * trapping ones of tests/trap_run.c); primcost does not, and it is NULL. */
extern const struct pc_arch_probe pc_test_bodies[PC_PROBE_COUNT] __attribute__((weak));

/* The row's own body, or the fallback the backend names when this CPU
 * cannot run it (arm64: LL/SC where LSE atomics are missing). */
const struct pc_arch_probe *pc_probe_impl(enum pc_probe_id id)
{
	const struct pc_arch_probe *p = NULL;

	if ((unsigned)id >= PC_PROBE_COUNT)
		return NULL;
	if (pc_test_bodies && pc_test_bodies[id].run)
		p = &pc_test_bodies[id];
	else if (pc_arch_probes[id].run)
		p = &pc_arch_probes[id];
	else if (pc_portable_probes[id].run)
		p = &pc_portable_probes[id];
	while (p && p->unavailable && p->unavailable(pc_arch_env()))
		p = p->fallback;
	return p;
}

const char *pc_probe_note(enum pc_probe_id id)
{
	const struct pc_arch_probe *p;

	if ((unsigned)id >= PC_PROBE_COUNT)
		return NULL;
	p = &pc_arch_probes[id];
	if (!p->run)
		return pc_portable_probes[id].run ? NULL : p->unsupported;
	return p->unavailable ? p->unavailable(pc_arch_env()) : NULL;
}

int pc_probe_name_width(void)
{
	int id, w = 0;

	for (id = 0; id < PC_PROBE_COUNT; id++)
		if ((int)strlen(pc_probe_rows[id].name) > w)
			w = (int)strlen(pc_probe_rows[id].name);
	return w;
}

int pc_probe_find(const char *name)
{
	int i;

	for (i = 0; i < PC_PROBE_COUNT; i++)
		if (strcmp(pc_probe_rows[i].name, name) == 0)
			return i;
	return -1;
}

int pc_pin_cpu(int cpu, char *err, size_t errlen)
{
	size_t size = CPU_ALLOC_SIZE(PC_CPU_MAX + 1);
	cpu_set_t *set;
	int rc = 0;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0 || cpu > PC_CPU_MAX) {
		snprintf(err, errlen, "no such CPU: %d", cpu);
		return -1;
	}
	if (!(set = CPU_ALLOC(PC_CPU_MAX + 1))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)cpu, size, set);
	if (sched_setaffinity(0, size, set) != 0) {
		snprintf(err, errlen, "cannot pin to CPU %d: %m", cpu);
		rc = -1;
	}
	CPU_FREE(set);
	return rc < 0 ? -1 : cpu;
}

/* ---- pieces others use ---------------------------------------------------- */

const char *pc_selfcheck(const struct pc_arch_probe *p, char *buf, size_t len)
{
	uint64_t ops;
	const char *why = pc_engine_selfcheck(p, NULL, NULL, &ops);

	if (!why)
		return NULL;
	if (ops)
		snprintf(buf, len, "self-check failed after %llu operations: %s",
			 (unsigned long long)ops, why);
	else
		snprintf(buf, len, "self-check failed: %s", why);
	return buf;
}

double pc_sample_ticks(const struct pc_clock *clk, double seconds)
{
	double want = seconds * clk->tick_hz;
	double floor = (double)PC_MIN_SAMPLE_STEPS * (double)(clk->tick_step ? clk->tick_step : 1);

	return want > floor ? want : floor;
}

int pc_calibrate(const struct pc_clock *clk, unsigned samples, double sample_s,
		 double *cycles_per_tick, char *err, size_t errlen)
{
	const struct pc_arch_probe *p = &pc_arch_probes[PC_PROBE_calib_add_chain];
	struct pc_host_loop hl;
	struct pc_loop l;
	double ticks_per_add, *d;
	unsigned i;

	if (!p->run) {
		snprintf(err, errlen, "this backend has no add chain to calibrate with");
		return -1;
	}
	if (!(d = calloc(samples ? samples : 1, sizeof(*d)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pc_host_loop_bind(&l, &hl, PC_PROBE_calib_add_chain, pc_body_direct(p), clk, false);
	pc_loop_init(&l);
	l.iters = pc_loop_size(&l, (uint64_t)pc_sample_ticks(clk, sample_s));
	if (l.iters)
		pc_loop_warm_up(&l);
	for (i = 0; l.iters && i < samples; i++) {
		struct pc_pair pr;

		pc_loop_pair(&l, l.iters, &pr);
		d[i] = ((double)pr.hi - (double)pr.lo) / (double)(l.iters * PC_UNROLL_DIFF);
	}
	ticks_per_add = l.iters ? pc_median(d, samples) : 0;
	free(d);
	if (!(ticks_per_add > 0)) {
		snprintf(err, errlen, "add-chain calibration read %.4f ticks per add",
			 ticks_per_add);
		return -1;
	}
	*cycles_per_tick = 1.0 / ticks_per_add;
	return 0;
}

size_t pc_contention_keep(const double *canary, size_t n, double limit, bool *keep)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		keep[i] = canary[i] <= limit;
		kept += keep[i];
	}
	return kept;
}

/* ---- a probe being measured ----------------------------------------------- */

/*
 * Without a PMU, every probe sample is paired with an add-chain sample
 * taken right after it: the sample's cycles are its ticks per op divided by
 * the add chain's ticks per add at that moment, so a host that changes the
 * core clock during the run moves both together. The contention canary's
 * pair comes last.
 */
struct job {
	struct pc_probe_result *r;
	struct pc_job ej;
	struct pc_host_loop hp, hc, hk, hq;	/* probe, calibration, canary, pace */
	struct pc_sample_set set;
	const struct pc_arch_probe *impl;	/* a table row's body, or NULL */
	const struct pc_measure_item *item;	/* a caller's body, or NULL */
	const struct pc_events *ev;	/* counted around each loop, or NULL */
	unsigned nev;			/* the user's events */
	double **evv;			/* [nev][samples]: per-op counts */
	bool *ev_nonzero;		/* [nev]: counted something in some loop */
	unsigned disturbed, multiplexed;	/* samples discarded, by cause */
	unsigned retries;		/* times sampled again, disturbed */
	char noisy[160];		/* why the samples do not stand, or "" */
	double *scratch;		/* [samples]: the stopping rule's sort */
	bool varies;			/* its own loops vary (samples.c) */
	unsigned vary_alone, vary_clean;	/* the evidence: samples whose
					 * loops alone ran slow, of those whose
					 * gauges held their floors */
	double vary_others;		/* the other probes' share, or NAN */
	double spent_s;			/* time spent in this probe's code */
};

struct run {
	const struct pc_measure_config *cfg;
	const struct pc_clock *clk;
	struct job *jobs;
	size_t njobs;
};

static int job_alloc_events(struct job *j, unsigned samples)
{
	unsigned i;

	j->nev = j->ev ? j->ev->n : 0;
	if (!j->nev)
		return 0;
	j->evv = calloc(j->nev, sizeof(*j->evv));
	j->ev_nonzero = calloc(j->nev, sizeof(*j->ev_nonzero));
	if (!j->evv || !j->ev_nonzero)
		return -1;
	for (i = 0; i < j->nev; i++)
		if (!(j->evv[i] = calloc(samples, sizeof(**j->evv))))
			return -1;
	return 0;
}

/* What a job times: a table row's body in this process or in ring 0, or
 * a caller's body (pc_measure_items). */
struct what {
	const struct pc_arch_probe *impl;
	const struct pc_ring0_target *r0;
	const struct pc_measure_item *item;
};

/* Everything a probe needs before its code runs: no probe code here. */
static int job_setup(struct job *j, const struct what *w,
		     const struct pc_measure_config *cfg, const struct pc_clock *clk)
{
	const struct pc_arch_probe *add = &pc_arch_probes[PC_PROBE_calib_add_chain];
	const struct pc_arch_probe *can = pc_probe_impl(PC_PROBE_calib_add_throughput);
	/* Ring-0 loops are calibrated by the ring-0 add chain, never the PMU,
	 * nor a caller's body (its loop may time only part of what runs); the
	 * canary runs in ring 3 only (ring-0 rows are gated apart). */
	bool pmu = clk->pmu_fd >= 0 && !w->r0 && !w->item;
	bool canary = !w->r0 && !cfg->keep_contended && can;
	bool pace = w->item && w->item->pace && !pmu;
	struct pc_body body = w->item ? w->item->body :
			      w->r0 ? w->r0->body(w->r0->ctx) : pc_body_direct(w->impl);

	j->impl = w->impl;
	j->item = w->item;
	j->ej.host = j;
	j->ej.live = 1;
	j->ej.budget = cfg->samples;	/* up to as many retakes as samples */
	/* ring-0 rows passed theirs in ring 0; a caller checks its own */
	j->ej.check = w->r0 || w->item ? NULL : w->impl;
	j->ej.target_ticks = (uint64_t)pc_sample_ticks(clk, cfg->sample_s);
	j->ej.cal_target_ticks = (uint64_t)pc_sample_ticks(clk, 0.5 * cfg->sample_s);
	pc_host_loop_bind(&j->ej.probe, &j->hp, (int)j->r->id, body, clk, pmu);
	if (!pmu)
		pc_host_loop_bind(&j->ej.cal, &j->hc, PC_PROBE_calib_add_chain,
				  w->r0 ? w->r0->body(w->r0->ctx) : pc_body_direct(add),
				  clk, false);
	if (canary)
		pc_host_loop_bind(&j->ej.canary, &j->hk, PC_PROBE_calib_add_throughput,
				  pc_body_direct(can), clk, pmu);
	if (pace)
		pc_host_loop_bind(&j->ej.pace, &j->hq, -1, pc_pace_body(), clk, false);
	j->ev = pc_events_active(cfg->events) ? cfg->events : NULL;
	if (cfg->stop_floor && !(j->scratch = malloc(cfg->samples * sizeof(*j->scratch))))
		return -1;
	if (pc_sample_set_init(&j->set, cfg->samples, canary) < 0 ||
	    (pace && pc_sample_set_pace(&j->set) < 0))
		return -1;
	j->set.pmu = pmu;
	j->set.probe_loops_vary = w->item && w->item->loops_vary;
	j->set.slack = 2 * (clk->tick_step ? clk->tick_step : 1);
	return job_alloc_events(j, cfg->samples);
}

static void job_free(struct job *j)
{
	unsigned i;

	pc_sample_set_free(&j->set);
	for (i = 0; j->evv && i < j->nev; i++)
		free(j->evv[i]);
	free(j->evv);
	free(j->ev_nonzero);
	free(j->scratch);
}

/* ---- the engine's host: sink, guard, progress -------------------------------- */

static enum pc_sample_verdict sink_sample(void *ctx, struct pc_job *ej, unsigned slot,
					  const struct pc_sample *x)
{
	struct job *j = ej->host;
	struct pc_loop_counts loops[4] = { j->hp.counts[0], j->hp.counts[1],
					   j->hc.counts[0], j->hc.counts[1] };
	double pmu[2] = { (double)j->hp.cycles[1] - (double)j->hp.cycles[0],
			  (double)j->hk.cycles[1] - (double)j->hk.cycles[0] };
	enum pc_sample_verdict v;
	enum pc_put put;
	unsigned i;

	(void)ctx;
	v = pc_events_verdict(j->ev, loops, j->ej.cal.exec ? 4 : 2);
	if (v == PC_SAMPLE_DISTURBED)
		j->disturbed++;
	else if (v == PC_SAMPLE_MULTIPLEXED)
		j->multiplexed++;
	if (v != PC_SAMPLE_KEEP)
		return v;
	put = pc_sample_set_put(&j->set, slot, x, pmu);	/* slow: counted there */
	if (put == PC_PUT_UNUSABLE) {
		/* A coarse timer (an emulator's) can read no difference in
		 * the calibration: it scales nothing; the sample is retaken. */
		j->disturbed++;
		return PC_SAMPLE_DISTURBED;
	}
	for (i = 0; i < j->nev; i++) {
		uint64_t hi = loops[1].value[i], lo = loops[0].value[i];

		j->evv[i][slot] = ((double)hi - (double)lo) /
				  (double)(j->set.iters * PC_UNROLL_DIFF);
		j->ev_nonzero[i] |= hi != 0 || lo != 0;
	}
	return put == PC_PUT_OK ? PC_SAMPLE_KEEP : PC_SAMPLE_SLOW;
}

/* Sequential stopping: the median of the samples kept so far is known
 * (samples.c, pc_median_known). */
static int sink_enough(void *ctx, struct pc_job *ej)
{
	struct job *j = ej->host;

	(void)ctx;
	return pc_median_known(j->set.dc, ej->kept, j->scratch, NULL);
}

static void sink_linearity(void *ctx, struct pc_job *ej, int64_t d_n, int64_t d_2n)
{
	(void)ctx;
	pc_sample_set_lin(&((struct job *)ej->host)->set, d_n, d_2n);
}

static void sink_failed(void *ctx, struct pc_job *ej, const char *phase,
			const char *why, uint64_t ops)
{
	struct pc_probe_result *r = ((struct job *)ej->host)->r;

	(void)ctx;
	r->status = PC_STATUS_FAILED;
	if (strcmp(phase, "self-check") != 0)
		snprintf(r->reason, sizeof(r->reason), "%s", why);
	else if (ops)
		snprintf(r->reason, sizeof(r->reason), "self-check failed after "
			 "%llu operations: %s", (unsigned long long)ops, why);
	else
		snprintf(r->reason, sizeof(r->reason), "self-check failed: %s", why);
}

/* Sizing and warm-up judge nothing: the events are read from here on. */
static void sink_prepared(void *ctx, struct pc_job *ej)
{
	struct job *j = ej->host;

	(void)ctx;
	j->hp.ev = j->hc.ev = j->ev;
	j->set.iters = ej->probe.iters;
	j->set.cal_iters = ej->cal.iters;
	j->set.can_iters = ej->canary.iters;
	j->set.pace_iters = ej->pace.iters;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Every call into probe code goes through the guard: the self-check,
 * sizing and warm-up, each round's share of samples, the linearity check.
 * A trap (SIGILL, SIGSEGV, SIGBUS, SIGFPE) or the probe's time running out
 * makes the probe failed, with the signal and the instruction in the
 * reason; an interruption stops the run. See contain.c for why this costs
 * the timed loops nothing.
 */
static int guard(void *ctx, struct pc_job *ej, const char *phase,
		 void (*fn)(void *), void *arg)
{
	const struct pc_measure_config *cfg = ((struct run *)ctx)->cfg;
	struct job *j = ej->host;
	struct pc_probe_result *r = j->r;
	double t0 = now_s(), limit = 0;
	enum pc_contain_result rc;
	struct pc_trap t;
	char what[320];

	/* A caller's body may hold its library's locks (an allocator's):
	 * abandoning it could deadlock the next call. It runs uncontained. */
	if (j->item) {
		fn(arg);
		return 0;
	}
	if (cfg->probe_timeout_s > 0) {
		limit = cfg->probe_timeout_s - j->spent_s;
		if (limit < 1e-3)
			limit = 1e-3;
	}
	rc = pc_contain_call(fn, arg, limit, &t);
	j->spent_s += now_s() - t0;
	if (rc == PC_CONTAIN_DONE)
		return 0;
	if (rc == PC_CONTAIN_INTERRUPTED)
		return 1;	/* not the probe's fault: the run stops */
	ej->live = 0;
	r->status = PC_STATUS_FAILED;
	pc_trap_describe(&t, what, sizeof(what));
	if (rc == PC_CONTAIN_TRAP)
		snprintf(r->reason, sizeof(r->reason), "trapped in %s: %s; sequence: %s",
			 phase, what, j->impl->sequence ? j->impl->sequence : "?");
	else
		snprintf(r->reason, sizeof(r->reason), "still running after its "
			 "time limit of %.3g s (--probe-timeout), in %s: %s",
			 cfg->probe_timeout_s, phase, what);
	return 1;
}

static int stop(void *ctx)
{
	(void)ctx;
	return pc_interrupted();
}

void pc_progress(const struct pc_measure_config *cfg, const char *what, size_t k,
		 size_t n, const char *name)
{
	if (name)
		pc_status_line(cfg->status_fd, "%s %zu/%zu %s", what, k, n, name);
	else
		pc_status_line(cfg->status_fd, "measured");
	if (!cfg->progress)
		return;
	if (name)
		fprintf(stderr, "\rprimcost: %s [%2zu/%zu] %-28s", what, k, n, name);
	else
		fprintf(stderr, "\r%-70s\r", "");
	fflush(stderr);
}

static void progress(void *ctx, const char *what, unsigned k, unsigned n,
		     const struct pc_job *ej)
{
	const struct job *j = ej->host;

	pc_progress(((struct run *)ctx)->cfg, what, k, n,
		      j->item ? j->item->name : pc_probe_rows[j->r->id].name);
}

/* ---- before and after the engine ----------------------------------------------- */

/* Status of a row before any timing: NULL implementation, ring. */
static const struct pc_arch_probe *admit(struct pc_probe_result *r,
					 const struct pc_measure_config *cfg,
					 const struct pc_clock *clk)
{
	const struct pc_probe_row *row = &pc_probe_rows[r->id];
	const struct pc_arch_probe *impl = pc_probe_impl(r->id);

	if (!impl) {
		r->status = PC_STATUS_UNSUPPORTED;
		if (pc_probe_note(r->id))
			snprintf(r->reason, sizeof(r->reason), "%s", pc_probe_note(r->id));
		else
			snprintf(r->reason, sizeof(r->reason),
				 "no %s implementation of this probe", pc_arch_name);
		return NULL;
	}
	if (row->ring == 0 && !cfg->ring0) {
		r->status = PC_STATUS_SKIPPED;
		snprintf(r->reason, sizeof(r->reason), "needs ring 0 (this instruction "
			 "faults in user mode) and no ring-0 backend was opened");
		return NULL;
	}
	if (row->ring == 0)	/* self-check and validation gate in ring 0 */
		return cfg->ring0->admit(cfg->ring0->ctx, r, clk, cfg->sample_s) ?
		       impl : NULL;
	if (pc_probe_note(r->id))	/* measured through the fallback */
		snprintf(r->reason, sizeof(r->reason), "%s", pc_probe_note(r->id));
	return impl;
}

/* A job for each row of the profile that is to be timed. */
static int admit_all(struct run *run, struct pc_profile *prof)
{
	size_t k;

	for (k = 0; k < prof->nprobes; k++) {
		struct pc_probe_result *r = &prof->probes[k];
		const struct pc_arch_probe *impl = admit(r, run->cfg, run->clk);
		struct what w = { impl, r->ring == 0 ? run->cfg->ring0 : NULL, NULL };

		if (!impl)
			continue;
		run->jobs[run->njobs].r = r;
		if (job_setup(&run->jobs[run->njobs++], &w, run->cfg, run->clk) < 0)
			return -1;
	}
	return 0;
}

/* The best (first quartile) and median of a series paired with every
 * sample (member: the sample set's can_c or pace_c) over the whole run,
 * every probe's samples together: the reference a sample's is held to.
 * The first quartile, not the minimum: one sample is a ratio of two short
 * measurements, and its noise reaches below the core's true best. False
 * when no sample has one. */
static bool paired_reference(struct run *run, size_t member, double *best, double *median)
{
	size_t i, n = 0, k = 0;
	double *all;

#define PAIRED(j) (*(double *const *)((const char *)&(j)->set + member))
	for (i = 0; i < run->njobs; i++)
		if (run->jobs[i].ej.live && PAIRED(&run->jobs[i]))
			n += run->jobs[i].set.n;
	if (!n || !(all = malloc(n * sizeof(*all))))
		return false;
	for (i = 0; i < run->njobs; i++) {
		const struct job *j = &run->jobs[i];

		if (j->ej.live && PAIRED(j)) {
			memcpy(all + k, PAIRED(j), j->set.n * sizeof(*all));
			k += j->set.n;
		}
	}
#undef PAIRED
	*median = pc_median(all, n);
	*best = pc_quantile_sorted(all, n, 0.25);
	free(all);
	return *best > 0;
}

/* The contention canary's and the host pace's references. */
static void references(struct run *run, struct pc_profile *prof)
{
	prof->canary = paired_reference(run, offsetof(struct pc_sample_set, can_c),
					&prof->canary_best, &prof->canary_median);
	prof->pace = paired_reference(run, offsetof(struct pc_sample_set, pace_c),
				      &prof->pace_best, &prof->pace_median);
}

/* Whether j's samples ran at a slower pace than the run's best: the
 * reason into j->noisy. */
static void judge_pace(struct job *j, const struct pc_profile *prof)
{
	double *x, med;

	if (!prof->pace || !j->set.pace_c || !j->set.n ||
	    !(x = malloc(j->set.n * sizeof(*x))))
		return;
	memcpy(x, j->set.pace_c, j->set.n * sizeof(*x));
	med = pc_median(x, j->set.n);
	free(x);
	if (med > prof->pace_best * (1 + PC_HOST_SLOWER))
		snprintf(j->noisy, sizeof(j->noisy), "the host was slower while it was "
			 "measured: the pace of its samples read %.2f cycles a call, "
			 "%.0f %% above the run's best of %.2f", med,
			 100 * (med / prof->pace_best - 1), prof->pace_best);
}

/*
 * Drops the samples taken while the canary ran slow: the core was shared
 * (a busy sibling hyperthread, a neighbour's vCPU) and a throughput-bound
 * sequence then costs more for reasons that are not its own. Unless so many
 * are flagged that the rest could not stand for the probe: then the core
 * was contended throughout, every sample is kept and the reason says so.
 */
static void compact(struct job *j, const bool *keep)
{
	unsigned e, i, k;

	for (e = 0; e < j->nev; e++)
		for (i = 0, k = 0; i < j->set.n; i++)
			if (keep[i])
				j->evv[e][k++] = j->evv[e][i];
	pc_sample_set_keep(&j->set, keep);
}

static void drop_contended(struct job *j, double limit)
{
	unsigned n = j->set.n, kept;
	bool *keep;

	if (!j->set.can_c || !n || !(keep = malloc(n * sizeof(*keep))))
		return;
	kept = (unsigned)pc_contention_keep(j->set.can_c, n, limit, keep);
	if (kept < n && (kept < PC_SAMPLES_MIN || kept < n / 4)) {
		size_t len = strlen(j->r->reason);

		snprintf(j->r->reason + len, sizeof(j->r->reason) - len,
			 "%scontended: the core was shared during %u of %u samples "
			 "(kept them all)", len ? "; " : "", n - kept, n);
	} else if (kept < n) {
		compact(j, keep);
		j->r->events.contended += n - kept;
	}
	free(keep);
}

/*
 * Judges what stays: noisy when over half of the wanted samples were lost
 * to slow loops, or when the rest spread more than a quiet host's would
 * (samples.c), a caller's body (an allocator's) by its own limit. An
 * emulator's timings are not judged.
 */
static void judge_clean(struct job *j, const struct pc_measure_config *cfg)
{
	unsigned want = j->ej.kept + j->ej.short_by;	/* the samples asked for */
	double spread, limit = j->item && j->item->spread_limit > 0 ?
			       j->item->spread_limit : pc_spread_limit((int)j->r->id);
	bool *keep;

	j->noisy[0] = 0;
	if (cfg->emulated)	/* the run is unreliable as a whole */
		return;
	if (j->set.n && (keep = malloc(j->set.n * sizeof(*keep)))) {
		unsigned n = j->set.n, late = pc_sample_set_final(&j->set, keep);

		if (late && 2 * late <= n) {
			compact(j, keep);
			j->set.slow_late += late;
		} else if (late) {	/* a disturbed run, or an odd fastest loop */
			snprintf(j->noisy, sizeof(j->noisy), "%u of %u samples had a loop "
				 "over %.3g times the run's fastest", late, n,
				 (1 + PC_FLOOR_FOLLOW_MAX) * (1 + PC_SLOW_LOOP_TOLERANCE));
		}
		free(keep);
	}
	if (j->noisy[0])
		return;
	if (2 * (j->ej.short_by + j->ej.kept_slow) > want)
		snprintf(j->noisy, sizeof(j->noisy), "%u of %u samples were lost or "
			 "kept with a loop over %.0f %% above its floor",
			 j->ej.short_by + j->ej.kept_slow, want, PC_SLOW_LOOP_TOLERANCE * 100);
	else if (!j->varies && pc_samples_noisy(j->set.dc, j->set.n, limit, &spread))
		snprintf(j->noisy, sizeof(j->noisy), "the samples spread by %.1f %% "
			 "(median absolute deviation; a quiet host: under %.0f %%)",
			 spread * 100, limit * 100);
}

/* Per-op statistics of the events, and what was discarded. */
static int finish_events(struct job *j, const struct pc_measure_config *cfg)
{
	struct pc_probe_events *pe = &j->r->events;
	unsigned i;

	/* With no group open at all (every event refused), the events are
	 * still reported, as unsupported with their reasons. */
	pe->def = j->ev ? j->ev : cfg->events && cfg->events->n ? cfg->events : NULL;
	pe->checked = j->ev && j->ev->reject;
	pe->disturbed = j->disturbed;
	pe->multiplexed = j->multiplexed;
	pe->short_by = j->ej.short_by;
	pe->slow = j->set.slow_probe;
	pe->slow_cal = j->set.slow_cal;
	pe->slow_late = j->set.slow_late;
	pe->noisy_retries = j->retries;
	if (!j->nev || !j->set.n)
		return 0;
	pe->per_op = calloc(j->nev, sizeof(*pe->per_op));
	pe->counted = calloc(j->nev, sizeof(*pe->counted));
	if (!pe->per_op || !pe->counted)
		return -1;
	for (i = 0; i < j->nev; i++) {
		pe->counted[i] = pc_event_has_figures(&j->ev->ev[i], j->ev_nonzero[i]);
		if (pc_summarize(j->evv[i], j->set.n, &pe->per_op[i]) < 0)
			return -1;
	}
	if (cfg->keep_samples) {
		pe->raw = j->evv;
		j->evv = NULL;
	}
	return 0;
}

/* A probe whose own cost varies (its modes found): why it is said to vary. */
static void say_varies(struct job *j)
{
	struct pc_probe_result *r = j->r;
	size_t len, k;

	if (r->nonlinear) {	/* its pairs at N and 2N in different modes */
		r->nonlinear = false;
		snprintf(r->reason, sizeof(r->reason), "linearity not judged (D(2N)/D(N) "
			 "%.2f): a cost that varies puts the pairs at N and 2N "
			 "iterations in different modes", r->linearity);
	}
	len = strlen(r->reason);
	r->varies = true;
	len += (size_t)snprintf(r->reason + len, sizeof(r->reason) - len, "%svaries: its "
				"own loops ran slow in %u of the %u samples whose "
				"calibration and canary held their floors", len ? "; " : "",
				j->vary_alone, j->vary_clean);
	if (!isnan(j->vary_others) && len < sizeof(r->reason))
		len += (size_t)snprintf(r->reason + len, sizeof(r->reason) - len,
					" (the other probes': %.0f %%)", 100 * j->vary_others);
	if (len < sizeof(r->reason))
		len += (size_t)snprintf(r->reason + len, sizeof(r->reason) - len,
					"; %zu mode%s:", r->nmodes, r->nmodes == 1 ? "" : "s");
	for (k = 0; k < r->nmodes && len < sizeof(r->reason); k++)
		len += (size_t)snprintf(r->reason + len, sizeof(r->reason) - len,
					"%s %.4g (%.0f %%)", k ? "," : "", r->modes[k].cycles,
					100 * r->modes[k].share);
}

static int job_finish(struct job *j, const struct pc_measure_config *cfg,
		      const struct pc_clock *clk)
{
	struct pc_probe_result *r = j->r;

	if (finish_events(j, cfg) < 0)
		return -1;
	if (!j->set.n) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "every sample was discarded "
			 "(%u disturbed by a context switch or migration, %u with "
			 "counters not running throughout)", j->disturbed,
			 j->multiplexed);
		return 0;
	}
	if (j->varies)		/* before the samples move to r (keep_samples) */
		r->nmodes = pc_modes(j->set.dc, j->set.n, r->modes, PC_MODES_MAX);
	if (pc_sample_set_finish(&j->set, r, clk, cfg->keep_samples) < 0)
		return -1;
	if (r->ring == 0)
		cfg->ring0->finish(cfg->ring0->ctx, r);
	if (j->varies)
		say_varies(j);
	if (j->ej.short_by) {
		size_t len = strlen(r->reason);

		snprintf(r->reason + len, sizeof(r->reason) - len, "%s%u of %u "
			 "samples: the rest were discarded (disturbed or multiplexed) "
			 "after the retake budget ran out", len ? "; " : "", j->set.n,
			 j->set.n + j->ej.short_by);
	}
	return 0;
}

/* A probe the run did not reach, or did not finish, before an interruption. */
static void cut_short(struct pc_probe_result *r, unsigned have, unsigned want,
		      int sig)
{
	r->partial = true;
	if (have) {
		snprintf(r->reason, sizeof(r->reason), "partial: %u of %u samples "
			 "(the run was interrupted by %s)", have, want,
			 pc_signal_name(sig));
		return;
	}
	r->status = PC_STATUS_SKIPPED;
	snprintf(r->reason, sizeof(r->reason), "not measured: the run was "
		 "interrupted by %s", pc_signal_name(sig));
}

/* The median share of slow probe loops alone (pc_slow_alone_share) over
 * the run's jobs but j, of a fixed body; NAN with fewer than two. */
static double others_share(const struct run *run, const struct job *j)
{
	double *x = malloc((run->njobs ? run->njobs : 1) * sizeof(*x)), med = NAN;
	size_t i, n = 0;

	for (i = 0; x && i < run->njobs; i++) {
		const struct job *o = &run->jobs[i];
		double share = pc_slow_alone_share(&o->set);

		if (o != j && o->ej.live && !o->item && !isnan(share))
			x[n++] = share;
	}
	if (n >= 2)
		med = pc_median(x, n);
	free(x);
	return med;
}

/* Every live job's samples cleaned and judged (the canary's limit, when it
 * ran, from the whole run's first pass). */
static void clean_all(struct run *run, struct pc_profile *prof, bool only_noisy)
{
	double others;
	size_t i;

	for (i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];

		if (!j->ej.live || (only_noisy && !j->noisy[0]))
			continue;
		j->set.n = j->ej.kept;
		if (prof->canary)
			drop_contended(j, prof->canary_best * (1 + PC_CONTENTION_TOLERANCE));
		/* judged against the run's other probes, and only where it
		 * can be sampled again: not in an interrupted run */
		if (!j->varies && !j->set.probe_loops_vary && !run->cfg->emulated &&
		    !pc_interrupted() && !isnan(others = others_share(run, j)) &&
		    pc_probe_varies(&j->set, others)) {
			/* sampled again holding the calibration's loops only */
			j->varies = true;
			j->vary_alone = j->set.slow_alone;
			j->vary_clean = j->set.nput - j->set.slow_gauges;
			j->vary_others = others;
			j->set.probe_loops_vary = true;
			j->set.slow_late = 0;
			snprintf(j->noisy, sizeof(j->noisy), "its own loops varied: "
				 "sampling again was cut short");
			continue;
		}
		judge_clean(j, run->cfg);
		if (!j->noisy[0] && !run->cfg->emulated)
			judge_pace(j, prof);
	}
}

/* The probes judged noisy are sampled again, up to PC_NOISY_RETRIES times,
 * in rounds among themselves: a disturbance of seconds may have passed. */
static int resample_noisy(struct run *run, struct pc_profile *prof,
			  const struct pc_engine_host *host)
{
	const struct pc_engine_config ecfg = { run->cfg->samples, PC_ROUNDS,
					       run->cfg->stop_floor };
	struct pc_job **ej = calloc(run->njobs ? run->njobs : 1, sizeof(*ej));
	unsigned attempt, n, i;

	if (!ej)
		return -1;
	for (attempt = 0; attempt < PC_NOISY_RETRIES && !pc_interrupted(); attempt++) {
		for (i = 0, n = 0; i < run->njobs; i++)
			if (run->jobs[i].ej.live && run->jobs[i].noisy[0]) {
				run->jobs[i].retries++;
				ej[n++] = &run->jobs[i].ej;
			}
		if (!n)
			break;
		pc_engine_resample(ej, n, &ecfg, host);
		if (!pc_interrupted())
			clean_all(run, prof, true);
	}
	free(ej);
	return 0;
}

static void mark_noisy(struct job *j)
{
	struct pc_probe_result *r = j->r;
	size_t len = strlen(r->reason);

	if (!j->noisy[0] || r->status != PC_STATUS_OK)
		return;
	r->status = PC_STATUS_NOISY;
	snprintf(r->reason + len, sizeof(r->reason) - len, "%sdisturbed: %s, "
		 "sampled %u times; the figure is the last sampling's", len ? "; " : "",
		 j->noisy, j->retries + 1);
}

/* After the engine: disturbed samples dropped, figures or reasons. */
static int finish_all(struct run *run, struct pc_profile *prof,
		      const struct pc_engine_host *host)
{
	const struct pc_measure_config *cfg = run->cfg;
	int stop, failed = 0;
	size_t i;

	for (i = 0; i < run->njobs; i++)
		run->jobs[i].set.n = run->jobs[i].ej.kept;
	references(run, prof);
	clean_all(run, prof, false);
	if (!pc_interrupted() && resample_noisy(run, prof, host) < 0)
		return -1;
	stop = pc_interrupted();
	for (i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];

		if (!j->ej.live)
			continue;
		prof->contended += j->r->events.contended;
		j->r->known = j->ej.known;
		if (stop && !j->ej.known && j->ej.kept < cfg->samples)
			cut_short(j->r, j->ej.kept, cfg->samples, stop);
		if ((j->set.n || !stop) && job_finish(j, cfg, run->clk) < 0)
			failed = -1;
		else
			mark_noisy(j);
	}
	/* Probes the run never reached. */
	if (stop) {
		prof->interrupted = stop;
		for (i = 0; i < prof->nprobes; i++)
			if (prof->probes[i].status == PC_STATUS_OK &&
			    !prof->probes[i].samples && !prof->probes[i].partial)
				cut_short(&prof->probes[i], 0, cfg->samples, stop);
	}
	return failed;
}

/* The engine over the run's jobs, then their results. */
static int run_jobs(struct run *run, struct pc_profile *prof)
{
	const struct pc_engine_host host = {
		.sample = sink_sample, .linearity = sink_linearity,
		.failed = sink_failed, .prepared = sink_prepared, .guard = guard,
		.stop = stop, .progress = progress, .enough = sink_enough, .ctx = run,
	};
	const struct pc_engine_config ecfg = { run->cfg->samples, PC_ROUNDS,
					       run->cfg->stop_floor };
	struct pc_job **ejobs = calloc(run->njobs ? run->njobs : 1, sizeof(*ejobs));
	size_t i;
	int rc = -1;

	if (ejobs) {
		for (i = 0; i < run->njobs; i++)
			ejobs[i] = &run->jobs[i].ej;
		pc_engine_run(ejobs, (unsigned)run->njobs, &ecfg, &host);
		rc = finish_all(run, prof, &host);
	}
	free(ejobs);
	return rc;
}

/* Before and after any run: containment, the jobs freed, the verdict. */
static int run_end(struct run *run, struct pc_profile *prof, int rc, double t_start,
		   char *err, size_t errlen)
{
	size_t i;

	pc_contain_fini();
	for (i = 0; run->jobs && i < run->njobs; i++)
		job_free(&run->jobs[i]);
	free(run->jobs);
	if (rc < 0) {
		pc_profile_free(prof);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pc_progress(run->cfg, NULL, 0, 0, NULL);
	pc_profile_judge(prof, run->clk, NULL);
	prof->wall_s = now_s() - t_start;
	return 0;
}

/*
 * Probes are measured in rounds (engine.c): each round takes a share of
 * every probe's samples in turn. A disturbance of the host lasting some
 * milliseconds (a busy sibling hyperthread, another guest) then touches a
 * little of every probe instead of all of one, and the medians stay put
 * from run to run.
 */
int pc_profile_run(const bool *selected, const struct pc_measure_config *cfg,
		   const struct pc_clock *clk, struct pc_profile *prof,
		   char *err, size_t errlen)
{
	struct run run = { cfg, clk, NULL, 0 };
	double t_start = now_s();
	int rc = 0;

	memset(prof, 0, sizeof(*prof));
	if (pc_contain_init(err, errlen) < 0)
		return -1;
	if (pc_profile_alloc(prof, selected, clk->source) < 0 ||
	    !(run.jobs = calloc(prof->nprobes ? prof->nprobes : 1, sizeof(*run.jobs))) ||
	    admit_all(&run, prof) < 0)
		rc = -1;
	if (rc == 0)
		rc = run_jobs(&run, prof);
	return run_end(&run, prof, rc, t_start, err, errlen);
}

int pc_measure_items(const struct pc_measure_item *items, size_t n,
		     const struct pc_measure_config *cfg, const struct pc_clock *clk,
		     struct pc_profile *prof, char *err, size_t errlen)
{
	struct run run = { cfg, clk, NULL, 0 };
	double t_start = now_s();
	size_t i;
	int rc = 0;

	if (pc_contain_init(err, errlen) < 0)
		return -1;
	if (!(run.jobs = calloc(n ? n : 1, sizeof(*run.jobs))))
		rc = -1;
	for (i = 0; rc == 0 && i < n; i++) {
		struct what w = { NULL, NULL, &items[i] };

		if (items[i].r->status != PC_STATUS_OK)
			continue;
		run.jobs[run.njobs].r = items[i].r;
		if (job_setup(&run.jobs[run.njobs++], &w, cfg, clk) < 0)
			rc = -1;
	}
	if (rc == 0)
		rc = run_jobs(&run, prof);
	return run_end(&run, prof, rc, t_start, err, errlen);
}

void pc_profile_free(struct pc_profile *prof)
{
	size_t i;

	for (i = 0; prof->probes && i < prof->nprobes; i++) {
		struct pc_probe_events *pe = &prof->probes[i].events;
		unsigned k;

		free(prof->probes[i].raw_ticks);
		free(prof->probes[i].raw_cycles);
		for (k = 0; pe->raw && k < pe->def->n; k++)
			free(pe->raw[k]);
		free(pe->raw);
		free(pe->per_op);
		free(pe->counted);
	}
	free(prof->probes);
	memset(prof, 0, sizeof(*prof));
}
