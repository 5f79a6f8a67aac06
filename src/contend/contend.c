/* SPDX-License-Identifier: MIT */
/*
 * contend.c - the contended group's sampling and figures (contend.h).
 *
 * Each point is sampled in rounds of windows (contend_window.c): the
 * window's figure is the threads' time over their operations (cycles per
 * operation per thread, as the 2014 tables' "cycles one thread spends in
 * one lock + unlock"), or for c2c a thread's time over the transfers. A
 * window in which any thread was switched out involuntarily, stalled, or
 * ran the canary slow is disturbed: retaken, as the engine retakes a
 * disturbed sample. Then the point's figure, its spread over the rounds
 * and its fairness.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contend_window.h"
#include "core/contain.h"
#include "core/samples.h"

void pc_fairness(const uint64_t *ops, unsigned n, double *cv, double *max_share)
{
	double sum = 0, mean, var = 0, top = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		sum += (double)ops[i];
		top = (double)ops[i] > top ? (double)ops[i] : top;
	}
	*cv = *max_share = 0;
	if (sum <= 0)
		return;
	mean = sum / n;
	for (i = 0; i < n; i++)
		var += ((double)ops[i] - mean) * ((double)ops[i] - mean);
	*cv = sqrt(var / n) / mean;
	*max_share = top / sum;
}

/* Did a thread lose its CPU for a while (PC_CONTEND_STALL_FACTOR)? */
static bool stalled(uint64_t ops, uint64_t ticks, uint64_t gap)
{
	double checks = (double)(ops / PC_CONTEND_CHECK_EVERY);
	double mean = (double)ticks / (checks > 1 ? checks : 1);

	return gap > PC_CONTEND_STALL_FACTOR * mean &&
	       gap > PC_CONTEND_STALL_SHARE * (double)ticks;
}

/* The compact index of a CPU (its canary limit's). */
static unsigned cpu_index(const struct pc_place *pl, int cpu)
{
	unsigned i;

	for (i = 0; i < pl->ncpus && pl->compact[i] != cpu; i++)
		;
	return i;
}

/* Did a thread of window k run its canary above its CPU's limit? */
static bool slow(const struct pc_contend_run *cr, const struct pc_contend_point *pt,
		 unsigned k)
{
	unsigned i, c;

	if (!cr->canary_limit)
		return false;
	for (i = 0; i < pt->nthreads; i++) {
		c = cpu_index(&cr->place, pt->cpus[i]);
		if (c < cr->place.ncpus && cr->canary_limit[c] > 0 &&
		    pt->can_t[(size_t)k * pt->nthreads + i] > cr->canary_limit[c])
			return true;
	}
	return false;
}

/* Window w of batch b into pt's windows (round r); false when its check
 * failed (pt is then failed, with the reason). */
static bool take(const struct pc_contend_run *cr, struct pc_contend_point *pt,
		 const struct pc_contend_batch *b, unsigned w, unsigned r, double tick_hz)
{
	unsigned n = pt->nthreads, i, k = pt->nv;
	uint64_t total = 0, ticks = 0;
	bool clean = true;

	if (b->why[w]) {
		uint64_t sum = 0;

		for (i = 0; i < n; i++)
			sum += b->acq[w * n + i];
		pt->failed = true;
		snprintf(pt->reason, sizeof(pt->reason), "%s (%llu, against %llu)",
			 b->why[w], (unsigned long long)b->counter[w],
			 (unsigned long long)sum);
		return false;
	}
	if (k == pt->cap)
		return true;
	for (i = 0; i < n; i++) {
		total += b->acq[w * n + i];
		ticks += b->ticks[w * n + i];
		clean &= b->switched[w * n + i] == 0 &&
			 !stalled(b->acq[w * n + i], b->ticks[w * n + i], b->gap[w * n + i]) &&
			 b->late[w * n + i] <= PC_CONTEND_STALL_SHARE * b->window_ticks;
	}
	pt->windows++;
	pt->disturbed += !clean;
	if (!total)
		return true;
	pt->switched[k] = !clean;
	memcpy(&pt->can_t[(size_t)k * n], &b->can[w * n], n * sizeof(double));
	if (clean && slow(cr, pt, k)) {
		clean = false;
		pt->contended++;
	}
	pc_fairness(&b->acq[w * n], n, &pt->cv_w[k], &pt->share_w[k]);
	/* c2c: one thread's time over the transfers both made */
	pt->v[k] = (double)ticks / (double)total /
		   (pt->kind->cls == PC_KIND_C2C ? (double)n : 1.0);
	pt->rate_w[k] = (double)total / ((double)ticks / n / tick_hz);
	pt->xfer_w[k] = b->xfer[w];
	for (i = 0, pt->cal_w[k] = 0; i < n && b->cal[w * n + i] > 0; i++)
		pt->cal_w[k] += b->cal[w * n + i] / n;
	if (i < n)
		pt->cal_w[k] = 0;
	pt->round[k] = (unsigned char)r;
	pt->clean[k] = clean;
	pt->nv++;
	return true;
}

static unsigned clean_count(const struct pc_contend_point *pt)
{
	unsigned i, n = 0;

	for (i = 0; i < pt->nv; i++)
		n += pt->clean[i];
	return n;
}

/* What every batch of a run shares. */
struct sampling {
	struct pc_contend_run *cr;
	struct pc_contend_shared *s;	/* the barrier's */
	char *pool;			/* PC_CONTEND_SLOTS sets of lines */
	size_t stride;			/* from one set to the next */
	unsigned *next;			/* the set the next window takes */
	uint64_t window_ticks;
	double tick_hz;
	const struct pc_measure_config *cfg;	/* where progress goes */
};

/* The progress lines of pt's windows (what: "round" or "resample"). */
static void point_progress(const struct sampling *sp, const struct pc_contend_point *pt,
			   const char *what, unsigned r)
{
	char name[96];

	int at = snprintf(name, sizeof(name), "%s/%u/%s", pt->kind->name, pt->nthreads,
			  pc_placement_names[pt->placement]);

	if (pt->kind->cls == PC_KIND_LOCK && at > 0 && (size_t)at < sizeof(name))
		snprintf(name + at, sizeof(name) - (size_t)at, "/%u data lines",
			 pt->data_lines);
	pc_progress(sp->cfg, what, r + 1, PC_CONTEND_ROUNDS, name);
}

/* nwin windows of pt, into its windows (round r). -1 with err. */
static int windows(const struct sampling *sp, struct pc_contend_point *pt, unsigned nwin,
		   unsigned r, char *err, size_t errlen)
{
	unsigned n = pt->nthreads, w;
	struct pc_contend_batch b;
	int rc = -1;

	memset(&b, 0, sizeof(b));
	b.pt = pt;
	b.s = sp->s;
	b.window_ticks = sp->window_ticks;
	b.nwin = nwin;
	b.canary = sp->cr->canary;
	b.chain = sp->cr->chain;
	b.acq = calloc((size_t)nwin * n, sizeof(*b.acq));
	b.ticks = calloc((size_t)nwin * n, sizeof(*b.ticks));
	b.switched = calloc((size_t)nwin * n, sizeof(*b.switched));
	b.can = calloc((size_t)nwin * n, sizeof(*b.can));
	b.cal = calloc((size_t)nwin * n, sizeof(*b.cal));
	b.gap = calloc((size_t)nwin * n, sizeof(*b.gap));
	b.late = calloc((size_t)nwin * n, sizeof(*b.late));
	b.deadline = calloc(nwin, sizeof(*b.deadline));
	b.why = calloc(nwin, sizeof(*b.why));
	b.counter = calloc(nwin, sizeof(*b.counter));
	b.slot = calloc(nwin, sizeof(*b.slot));
	b.xfer = calloc(nwin, sizeof(*b.xfer));
	for (w = 0; b.slot && w < nwin; w++, ++*sp->next)
		b.slot[w] = (struct pc_contend_shared *)(sp->pool + sp->stride *
							 (*sp->next % PC_CONTEND_SLOTS));
	if (!b.acq || !b.ticks || !b.switched || !b.can || !b.cal || !b.gap || !b.late ||
	    !b.deadline || !b.why || !b.counter || !b.slot)
		snprintf(err, errlen, "out of memory");
	else if (pc_contend_batch_run(&b, err, errlen) == 0)
		rc = 0;
	for (w = 0; rc == 0 && w < nwin &&
	     take(sp->cr, pt, &b, w, r, sp->tick_hz); w++)
		;
	free(b.acq);
	free(b.ticks);
	free(b.switched);
	free(b.can);
	free(b.cal);
	free(b.gap);
	free(b.late);
	free(b.deadline);
	free(b.why);
	free(b.counter);
	free(b.slot);
	free(b.xfer);
	return rc;
}

/* The median of the windows of pt that count (used[i]) in x; NAN if none. */
static double median_of(const struct pc_contend_point *pt, const double *x,
			const bool *used, int round, double *tmp)
{
	unsigned i, n = 0;

	for (i = 0; i < pt->nv; i++)
		if (used[i] && (round < 0 || pt->round[i] == round))
			tmp[n++] = x[i];
	return n ? pc_median(tmp, n) : NAN;
}

/* The spread of the round medians: (max - min) / median. */
static double round_spread(const struct pc_contend_point *pt, const bool *used,
			   double *tmp)
{
	double med[PC_CONTEND_ROUNDS], all;
	unsigned r, n = 0;

	for (r = 0; r < PC_CONTEND_ROUNDS; r++) {
		double m = median_of(pt, pt->v, used, (int)r, tmp);

		if (!isnan(m))
			med[n++] = m;
	}
	if (n < 2)
		return NAN;
	all = pc_median(med, n);
	return (med[n - 1] - med[0]) / all;	/* sorted by pc_median */
}

/*
 * The transfer gauge of pt's windows (used): its median into pt->xfer
 * (ticks; 0 for one thread); when its quartiles are over
 * PC_TRANSFER_MOVED apart, the windows ran with their CPUs at two distances
 * (a host that moved a virtual machine's vCPUs between cores near and
 * apart): their figures mix the two, and the point is noisy.
 */
bool pc_contend_moved(double *x, size_t n, double *q1, double *med, double *q3)
{
	*q1 = *med = *q3 = 0;
	if (!n || pc_sort_doubles(x, n) < 0)
		return false;
	*q1 = pc_quantile_sorted(x, n, 0.25);
	*med = pc_quantile_sorted(x, n, 0.5);
	*q3 = pc_quantile_sorted(x, n, 0.75);
	return *q3 > PC_TRANSFER_MOVED * *q1;
}

static void moved(struct pc_contend_point *pt, struct pc_probe_result *r, const bool *used,
		  double *tmp, double cpt)
{
	unsigned i, n = 0;
	double q1, q3;

	for (i = 0; i < pt->nv; i++)
		if (used[i] && pt->xfer_w[i] > 0)
			tmp[n++] = pt->xfer_w[i];
	if (!pc_contend_moved(tmp, n, &q1, &pt->xfer, &q3) || r->status == PC_STATUS_NOISY)
		return;
	r->status = PC_STATUS_NOISY;
	snprintf(r->reason, sizeof(r->reason), "its windows moved a line between its "
		 "CPUs in %.0f to %.0f cycles (first to third quartile): the CPUs were "
		 "not as far apart throughout (a host moving a virtual machine's vCPUs)",
		 q1 * cpt, q3 * cpt);
}

/* The point's cycles per tick: the median of its windows' (used) add
 * chains, or the run's (cpt) when none ran. */
static double point_cpt(const struct pc_contend_point *pt, const bool *used, double *tmp,
			double cpt)
{
	unsigned i, n = 0;

	for (i = 0; i < pt->nv; i++)
		if (used[i] && pt->cal_w[i] > 0)
			tmp[n++] = pt->cal_w[i];
	return n ? 1 / pc_median(tmp, n) : cpt;
}

/* A point's figures into r: the clean windows, or every window (noisy)
 * when none was clean. -1: out of memory. */
static int finish(struct pc_contend_point *pt, struct pc_probe_result *r,
		  unsigned samples, double window_s, double cpt, double tick_hz,
		  bool interrupted)
{
	unsigned clean = clean_count(pt), i, n = 0;
	double spread;
	bool *used = calloc(pt->nv + 1, sizeof(bool));
	double *tmp = calloc(pt->nv + 1, sizeof(double));
	int rc = -1;

	r->ring = 3;
	r->linearity = NAN;
	r->round_spread = NAN;
	r->cycles_source = PC_CYCLES_CALIBRATED;
	r->cycles_per_tick = cpt;
	if (!used || !tmp)
		goto out;
	rc = 0;
	if (!pt->failed && !pt->windows && interrupted) {
		r->status = PC_STATUS_SKIPPED;
		r->partial = true;
		snprintf(r->reason, sizeof(r->reason), "interrupted before it was measured");
		goto out;
	}
	r->partial = interrupted;
	if (pt->failed || !pt->nv) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "%s", pt->failed ? pt->reason :
			 "no window made an operation");
		goto out;
	}
	/* a window of no time per operation measured nothing */
	for (i = 0; i < pt->nv; i++)
		if ((used[i] = (pt->clean[i] || !clean) && pt->v[i] > 0))
			tmp[n++] = pt->v[i];
	if (!n) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "no window took any time");
		goto out;
	}
	if (clean < samples) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "of %u windows, %u saw a thread "
			 "switched out or stalled and %u a slow canary (the core "
			 "shared)%s",
			 pt->windows, pt->disturbed, pt->contended,
			 clean ? "; the clean ones kept" : "; none was clean: all kept");
	} else if (pc_samples_noisy(tmp, n, PC_NOISY_SPREAD_CONTEND, &spread)) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "disturbed: its %u windows spread "
			 "by %.1f %% (median absolute deviation; a quiet host: under "
			 "%.0f %%)", n, spread * 100, PC_NOISY_SPREAD_CONTEND * 100);
	}
	if (pc_summarize(tmp, n, &r->ticks) < 0) {
		rc = -1;
		goto out;
	}
	cpt = point_cpt(pt, used, tmp, cpt);
	r->cycles_per_tick = cpt;
	moved(pt, r, used, tmp, cpt);
	r->cycles = pc_summary_scale(&r->ticks, cpt);
	r->ns = pc_summary_scale(&r->ticks, 1e9 / tick_hz);
	r->samples = n;
	r->events.disturbed = pt->disturbed;
	r->events.contended = pt->contended;
	r->round_spread = round_spread(pt, used, tmp);
	pt->cv = median_of(pt, pt->cv_w, used, -1, tmp);
	pt->max_share = median_of(pt, pt->share_w, used, -1, tmp);
	pt->ops_per_s = median_of(pt, pt->rate_w, used, -1, tmp);
	for (i = 0, pt->max_share_worst = 0; i < pt->nv; i++)
		if (used[i] && pt->share_w[i] > pt->max_share_worst)
			pt->max_share_worst = pt->share_w[i];
	/* a window is one loop: the operations all its threads made */
	r->iters = 1;
	r->ops_per_sample = (uint64_t)(pt->ops_per_s * window_s);
out:
	free(used);
	free(tmp);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Room for PC_CONTEND_MORE x samples windows a point, and as many again
 * (the retakes' budget). */
static int point_arrays(struct pc_contend_point *pt, unsigned samples)
{
	unsigned cap = (PC_CONTEND_MORE + 1) * samples;

	pt->v = calloc(cap, 6 * sizeof(double) + 1 + 2 * sizeof(bool));
	pt->can_t = calloc((size_t)cap * pt->nthreads, sizeof(double));
	if (!pt->v || !pt->can_t)
		return -1;
	pt->cv_w = pt->v + cap;
	pt->share_w = pt->cv_w + cap;
	pt->rate_w = pt->share_w + cap;
	pt->xfer_w = pt->rate_w + cap;
	pt->cal_w = pt->xfer_w + cap;
	pt->round = (unsigned char *)(pt->cal_w + cap);
	pt->switched = (bool *)(pt->round + cap);
	pt->clean = pt->switched + cap;
	pt->cap = cap;
	return 0;
}

/* The first quartile of the canaries run on CPU (compact index) c, 10 %
 * up; 0 when none ran there. */
static double cpu_limit(const struct pc_contend_run *cr, unsigned c, double *all)
{
	size_t i, n = 0;
	unsigned k, t;

	for (i = 0; i < cr->npoints; i++) {
		const struct pc_contend_point *pt = &cr->points[i];

		for (t = 0; t < pt->nthreads; t++)
			if (cpu_index(&cr->place, pt->cpus[t]) == c)
				for (k = 0; k < pt->nv; k++)
					all[n++] = pt->can_t[(size_t)k * pt->nthreads + t];
	}
	if (!n || pc_sort_doubles(all, n) < 0)
		return 0;
	return pc_quantile_sorted(all, n, 0.25) * (1 + PC_CONTENTION_TOLERANCE);
}

/*
 * The canary's limits, once the rounds are done: on each CPU, 10 % above
 * the first quartile of the canaries run there (as the engine's samples);
 * a window with a thread above its CPU's limit is not clean, unless fewer
 * than a quarter of a point's would stay (its cores were shared
 * throughout: it keeps them, and the retakes would not do better).
 */
static int canary_limits(struct pc_contend_run *cr)
{
	size_t i, n = 0;
	unsigned k, c;
	double *all;

	for (i = 0; i < cr->npoints; i++)
		n += (size_t)cr->points[i].nv * cr->points[i].nthreads;
	if (!cr->canary || !n)
		return 0;
	all = malloc(n * sizeof(double));
	cr->canary_limit = calloc(cr->place.ncpus + 1, sizeof(double));
	if (!all || !cr->canary_limit) {
		free(all);
		return -1;
	}
	for (c = 0; c < cr->place.ncpus; c++)
		cr->canary_limit[c] = cpu_limit(cr, c, all);
	free(all);
	for (i = 0; i < cr->npoints; i++) {
		struct pc_contend_point *pt = &cr->points[i];
		unsigned nslow = 0;

		for (k = 0; k < pt->nv; k++)
			nslow += !pt->switched[k] && slow(cr, pt, k);
		if (nslow > pt->nv * 3 / 4)
			continue;
		pt->contended += nslow;
		for (k = 0; k < pt->nv; k++)
			pt->clean[k] = !pt->switched[k] && !slow(cr, pt, k);
	}
	return 0;
}

/*
 * The clean windows pt wants: enough that the standard error of their
 * median, about 1.25 x 1.4826 x MAD / sqrt(n), is PC_CONTEND_SE of it, at
 * least samples and at most PC_CONTEND_MORE x samples. A lock whose
 * hand-offs go one way in one window and another in the next scatters
 * 5-10 % and wants 90 windows or more; an atomic's 2 % wants the 31.
 */
static unsigned wanted(const struct pc_contend_point *pt, unsigned samples, double *tmp)
{
	unsigned i, n = 0;
	double spread, want;

	for (i = 0; i < pt->nv; i++)
		if (pt->clean[i])
			tmp[n++] = pt->v[i];
	if (n < samples)
		return samples;
	/* the engine's spread: the relative MAD (its verdict is not ours) */
	pc_samples_noisy(tmp, n, PC_NOISY_SPREAD_CONTEND, &spread);
	if (!(spread >= 0))
		return samples;
	want = 1.25 * 1.4826 * spread / PC_CONTEND_SE;
	want *= want;
	return want <= samples ? samples : want >= PC_CONTEND_MORE * samples ?
	       PC_CONTEND_MORE * samples : (unsigned)ceil(want);
}

/* The windows the points want beyond samples, in rounds as the first ones
 * (a share of each wanting point in each); -1 with err, 1 interrupted. */
static int more_windows(const struct sampling *sp, unsigned samples, char *err,
			size_t errlen)
{
	struct pc_contend_run *cr = sp->cr;
	unsigned per = (samples + PC_CONTEND_ROUNDS - 1) / PC_CONTEND_ROUNDS;
	double *tmp = malloc((size_t)(PC_CONTEND_MORE + 1) * samples * sizeof(double));
	bool again = true;
	size_t i;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (again) {
		again = false;
		for (i = 0; i < cr->npoints; i++) {
			struct pc_contend_point *pt = &cr->points[i];
			unsigned want = wanted(pt, samples, tmp), have = clean_count(pt);

			if (pt->failed || have >= want || pt->windows >= pt->cap)
				continue;
			if (pc_interrupted()) {
				free(tmp);
				return 1;
			}
			point_progress(sp, pt, "resample", PC_CONTEND_ROUNDS - 1);
			if (windows(sp, pt, want - have < per ? want - have : per,
				    PC_CONTEND_ROUNDS - 1, err, errlen) < 0) {
				free(tmp);
				return -1;
			}
			again = true;
		}
	}
	free(tmp);
	return 0;
}

/* Every point's windows: a share in each round, point after point, then
 * the disturbed and contended ones retaken while the budget lasts, then
 * more where the windows scatter (more_windows). 1 when an interruption
 * (SIGINT, SIGTERM, SIGHUP) stopped it. */
static int sample_points(const struct sampling *sp, unsigned samples, char *err,
			 size_t errlen)
{
	struct pc_contend_run *cr = sp->cr;
	unsigned per = (samples + PC_CONTEND_ROUNDS - 1) / PC_CONTEND_ROUNDS, r;
	size_t i;

	for (r = 0; r < PC_CONTEND_ROUNDS; r++)
		for (i = 0; i < cr->npoints; i++) {
			struct pc_contend_point *pt = &cr->points[i];
			unsigned left = samples > pt->nv ? samples - pt->nv : 0;

			if (pt->failed || !left)
				continue;
			if (pc_interrupted())
				return 1;
			point_progress(sp, pt, "round", r);
			if (windows(sp, pt, left < per ? left : per, r, err, errlen) < 0)
				return -1;
		}
	if (canary_limits(cr) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < cr->npoints; i++) {
		struct pc_contend_point *pt = &cr->points[i];

		while (!pt->failed && clean_count(pt) < samples && pt->windows < pt->cap) {
			if (pc_interrupted())
				return 1;
			point_progress(sp, pt, "resample", PC_CONTEND_ROUNDS - 1);
			if (windows(sp, pt, samples - clean_count(pt), PC_CONTEND_ROUNDS - 1,
				    err, errlen) < 0)
				return -1;
		}
	}
	return more_windows(sp, samples, err, errlen);
}

/* The run's contention canary, as the engine's (measure.c): the first
 * quartile and median of every window's canaries, on every CPU, in cycles
 * (each point's: finish() put them in prof); the windows they dropped. */
static void run_canary(const struct pc_contend_run *cr, struct pc_profile *prof)
{
	size_t i, n = 0, k = 0, j, m;
	double *all;

	for (i = 0; i < cr->npoints; i++)
		n += (size_t)cr->points[i].nv * cr->points[i].nthreads;
	if (!cr->canary || !n || !(all = malloc(n * sizeof(*all))))
		return;
	for (i = 0; i < cr->npoints; i++) {
		m = (size_t)cr->points[i].nv * cr->points[i].nthreads;
		for (j = 0; j < m; j++)
			all[k++] = cr->points[i].can_t[j] * prof->probes[i].cycles_per_tick;
		prof->contended += cr->points[i].contended;
	}
	if (pc_sort_doubles(all, n) == 0) {
		prof->canary_best = pc_quantile_sorted(all, n, 0.25);
		prof->canary_median = pc_quantile_sorted(all, n, 0.5);
		prof->canary = prof->canary_best > 0;
	}
	free(all);
}

/* Cycles per tick: the add chain, through the engine like any row (its
 * warm-up and time limits hold under an emulator too), on this thread's
 * CPU. */
static int calibrate(const struct pc_measure_config *cfg, const struct pc_clock *clk,
		     double *cpt, char *err, size_t errlen)
{
	bool sel[PC_PROBE_COUNT] = { false };
	struct pc_measure_config c = *cfg;
	struct pc_profile p;

	sel[PC_PROBE_calib_add_chain] = true;
	c.samples = PC_CONTEND_CAL_SAMPLES;
	c.progress = false;
	c.status_fd = -1;	/* its "measured" would come before the windows */
	if (pc_profile_run(sel, &c, clk, &p, err, errlen) < 0)
		return -1;
	*cpt = p.cycles_per_tick;
	if (!(*cpt > 0) && p.nprobes && p.probes[0].ticks.median > 0)
		*cpt = 1 / p.probes[0].ticks.median;
	pc_profile_free(&p);
	if (*cpt > 0 && isfinite(*cpt))
		return 0;
	snprintf(err, errlen, "the add-chain calibration gave no figure");
	return -1;
}

/*
 * The sets of lines the windows take in turn: PC_CONTEND_SLOTS of them, each
 * the shared lines then the threads' (a point's most), the next set
 * PC_CONTEND_SLOT_SHIFT further into its page than the last, so that the
 * sets cover every line offset of a page, on pages of their own. NULL when
 * out of memory.
 */
static char *slot_pool(const struct pc_contend_run *cr, size_t *stride)
{
	size_t head = (sizeof(struct pc_contend_shared) + PC_LINE - 1) / PC_LINE * PC_LINE;
	unsigned most = 1, i;
	char *pool;

	for (i = 0; i < cr->npoints; i++)
		most = cr->points[i].nthreads > most ? cr->points[i].nthreads : most;
	*stride = head + most * sizeof(struct pc_contend_thread);
	*stride = (*stride + PC_CONTEND_PAGE - 1) / PC_CONTEND_PAGE * PC_CONTEND_PAGE +
		  PC_CONTEND_SLOT_SHIFT;
	pool = aligned_alloc(PC_CONTEND_PAGE, *stride * PC_CONTEND_SLOTS);
	if (!pool)
		return NULL;
	memset(pool, 0, *stride * PC_CONTEND_SLOTS);
	for (i = 0; i < PC_CONTEND_SLOTS; i++)
		((struct pc_contend_shared *)(pool + i * *stride))->threads =
			(struct pc_contend_thread *)(pool + i * *stride + head);
	return pool;
}

int pc_contend_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
		       const struct pc_clock *clk, struct pc_profile *prof, char *err,
		       size_t errlen)
{
	struct pc_contend_run *cr = state;
	struct pc_contend_shared *s = aligned_alloc(PC_LINE, sizeof(*s));
	double t0 = now_s(), cpt;
	struct sampling sp;
	unsigned next = 0;
	int rc = -1, stopped;
	char *pool = NULL;
	size_t i, stride;

	(void)opts;

	memset(prof, 0, sizeof(*prof));
	prof->probes = calloc(cr->npoints + 1, sizeof(*prof->probes));
	if (!s || !prof->probes || !(pool = slot_pool(cr, &stride))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memset(s, 0, sizeof(*s));
	if (calibrate(cfg, clk, &cpt, err, errlen) < 0)
		goto out;
	cr->cycles_per_tick = cpt;
	for (i = 0; i < cr->npoints; i++)
		if (point_arrays(&cr->points[i], cfg->samples) < 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	sp = (struct sampling){ cr, s, pool, stride, &next,
				(uint64_t)(cr->window_us * 1e-6 * clk->tick_hz), clk->tick_hz, cfg };
	cr->canary = pc_probe_impl(PC_PROBE_calib_add_throughput);
	if (cr->canary && !cr->canary->run)
		cr->canary = NULL;
	cr->chain = pc_probe_impl(PC_PROBE_calib_add_chain);
	if (cr->chain && !cr->chain->run)
		cr->chain = NULL;
	stopped = sample_points(&sp, cfg->samples, err, errlen);
	pc_progress(cfg, NULL, 0, 0, NULL);
	if (stopped < 0)
		goto out;
	prof->interrupted = stopped ? pc_interrupted() : 0;
	prof->nprobes = cr->npoints;
	for (i = 0; i < cr->npoints; i++)
		if (finish(&cr->points[i], &prof->probes[i], cfg->samples,
			   cr->window_us * 1e-6, cpt, clk->tick_hz, stopped) < 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	prof->cycles_per_tick = cpt;
	run_canary(cr, prof);
	prof->wall_s = now_s() - t0;
	rc = 0;
out:
	free(pool);
	free(s);
	if (rc < 0) {
		free(prof->probes);
		prof->probes = NULL;
		prof->nprobes = 0;
	}
	return rc;
}
