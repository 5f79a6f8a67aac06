/* SPDX-License-Identifier: MIT */
/*
 * samples.c - raw samples to a probe's result, and a run's verdict
 * (samples.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pace.h"
#include "samples.h"

int pc_sample_set_init(struct pc_sample_set *s, unsigned cap, bool canary)
{
	memset(s, 0, sizeof(*s));
	s->cap = cap;
	s->dt = calloc(cap ? cap : 1, sizeof(*s->dt));
	s->dc = calloc(cap ? cap : 1, sizeof(*s->dc));
	s->cpt = calloc(cap ? cap : 1, sizeof(*s->cpt));
	s->loops = calloc(cap ? cap : 1, sizeof(*s->loops));
	if (canary)
		s->can_c = calloc(cap ? cap : 1, sizeof(*s->can_c));
	if (!s->dt || !s->dc || !s->cpt || !s->loops || (canary && !s->can_c)) {
		pc_sample_set_free(s);
		return -1;
	}
	return 0;
}

int pc_sample_set_pace(struct pc_sample_set *s)
{
	s->pace_c = calloc(s->cap ? s->cap : 1, sizeof(*s->pace_c));
	return s->pace_c ? 0 : -1;
}

void pc_sample_set_free(struct pc_sample_set *s)
{
	double **series[] = { &s->dt, &s->dc, &s->cpt, &s->can_c, &s->pace_c };
	size_t i;

	for (i = 0; i < sizeof(series) / sizeof(series[0]); i++) {
		free(*series[i]);
		*series[i] = NULL;
	}
	free(s->loops);
	s->loops = NULL;
}

static double pair_ticks(const struct pc_pair *p)
{
	return (double)p->hi - (double)p->lo;
}

/* The floor of loop k before this sample: the fastest of the last
 * PC_FLOOR_WINDOW, but never over PC_FLOOR_FOLLOW_MAX above the fastest
 * ever; 0 when there is none yet. */
static uint64_t window_floor(const struct pc_sample_set *s, int k)
{
	unsigned i, n = s->nrecent < PC_FLOOR_WINDOW ? s->nrecent : PC_FLOOR_WINDOW;
	uint64_t f = 0;
	double cap = (double)s->least[k] * (1 + PC_FLOOR_FOLLOW_MAX);

	for (i = 0; i < n; i++)
		if (s->recent[k][i] && (!f || s->recent[k][i] < f))
			f = s->recent[k][i];
	return (double)f > cap ? (uint64_t)cap : f;
}

/* Whether a loop of the canary's pair ran over the tolerance above the
 * fastest of its last PC_FLOOR_WINDOW (its loop times, not its figure: an
 * interrupted lo loop lowers the figure, never the floor); then the pair
 * joins the window. */
static bool canary_slow(struct pc_sample_set *s, const struct pc_pair *c)
{
	const uint64_t v[2] = { c->lo, c->hi };
	unsigned n = s->ncan < PC_FLOOR_WINDOW ? s->ncan : PC_FLOOR_WINDOW, i;
	bool slow = false;
	int k;

	for (k = 0; k < 2; k++) {
		uint64_t f = 0;

		for (i = 0; i < n; i++)
			if (s->can_recent[k][i] && (!f || s->can_recent[k][i] < f))
				f = s->can_recent[k][i];
		slow |= f && v[k] && (double)v[k] > (double)f * (1 + PC_SLOW_LOOP_TOLERANCE) +
						    (double)s->slack;
		s->can_recent[k][s->ncan % PC_FLOOR_WINDOW] = v[k];
	}
	s->ncan++;
	return slow;
}

/* The first of a sample's loops above its floor, or -1; *mask gets a bit
 * per loop above its floor (the probe's loops too where they vary). Then
 * the loops join the window, whatever the verdict, so that the floor
 * follows a lasting change of pace. */
static int slow_loop(struct pc_sample_set *s, const uint64_t *v, unsigned *mask)
{
	int k, slow = -1;

	*mask = 0;
	for (k = 0; k < PC_SAMPLE_LOOPS; k++) {
		uint64_t f = window_floor(s, k);

		if (!f || !v[k] ||
		    (double)v[k] <= (double)f * (1 + PC_SLOW_LOOP_TOLERANCE) + (double)s->slack)
			continue;
		*mask |= 1u << k;
		if (slow < 0 && (k >= 2 || !s->probe_loops_vary))
			slow = k;
	}
	for (k = 0; k < PC_SAMPLE_LOOPS; k++) {
		s->recent[k][s->nrecent % PC_FLOOR_WINDOW] = v[k];
		if (v[k] && (!s->least[k] || v[k] < s->least[k]))
			s->least[k] = v[k];
	}
	s->nrecent++;
	return slow;
}

enum pc_put pc_sample_set_put(struct pc_sample_set *s, unsigned slot,
			      const struct pc_sample *x, const double *pmu_cycles)
{
	double ops = (double)(s->iters * PC_UNROLL_DIFF);
	const uint64_t v[PC_SAMPLE_LOOPS] = { x->probe.lo, x->probe.hi, x->cal.lo,
					      x->cal.hi };
	unsigned mask;
	bool can_slow;
	int k;

	if (slot >= s->cap)
		return PC_PUT_UNUSABLE;
	s->dt[slot] = pair_ticks(&x->probe) / ops;
	if (s->pmu) {
		s->dc[slot] = pmu_cycles[0] / ops;
	} else {
		double cal = pair_ticks(&x->cal);

		if (!(cal > 0))
			return PC_PUT_UNUSABLE;
		s->cpt[slot] = (double)(s->cal_iters * PC_UNROLL_DIFF) / cal;
		s->dc[slot] = s->dt[slot] * s->cpt[slot];
	}
	if (s->can_c)
		s->can_c[slot] = (s->pmu ? pmu_cycles[1] :
				  pair_ticks(&x->canary) * s->cpt[slot]) /
				 (double)(s->can_iters * PC_UNROLL_DIFF);
	if (s->pace_c)
		s->pace_c[slot] = pair_ticks(&x->pace) * s->cpt[slot] /
				  ((double)(s->pace_iters * PC_UNROLL_DIFF) * PC_PACE_CALLS);
	memcpy(s->loops[slot], v, sizeof(v));
	k = slow_loop(s, v, &mask);
	/* Who ran slow: the probe's loops alone (the calibration's and the
	 * canary's at their floors), or the host's gauges too. */
	can_slow = s->can_c && canary_slow(s, &x->canary);
	s->nput++;
	if ((mask & 12) || can_slow)
		s->slow_gauges++;
	else if (mask & 3)
		s->slow_alone++;
	if (k < 0)
		return PC_PUT_OK;
	if (k < 2)
		s->slow_probe++;
	else
		s->slow_cal++;
	return k < 2 ? PC_PUT_SLOW : PC_PUT_SLOW_CAL;
}

/*
 * A body whose loops vary has no fastest loop to hold its own to, but a
 * sample that an interrupt of its lo loop lowered is told by both signs at
 * once: it reads under PC_LOW_SAMPLE_SHARE of the median, and its lo loop
 * ran over PC_LOW_LOOP_SLOW times the median lo loop. A sample at or under
 * zero is no cost at all. Marks them in keep[]; the medians are of every
 * sample (med: room for s->n).
 */
static void impossible(const struct pc_sample_set *s, bool *keep, double *med)
{
	double low, slow;
	unsigned i;

	memcpy(med, s->dc, s->n * sizeof(*med));
	low = PC_LOW_SAMPLE_SHARE * pc_median(med, s->n);
	for (i = 0; i < s->n; i++)
		med[i] = (double)s->loops[i][0];
	slow = PC_LOW_LOOP_SLOW * pc_median(med, s->n);
	for (i = 0; i < s->n; i++)
		if (s->dc[i] <= 0 || (s->dc[i] < low && (double)s->loops[i][0] > slow))
			keep[i] = false;
}

unsigned pc_sample_set_final(struct pc_sample_set *s, bool *keep)
{
	const double most = (1 + PC_FLOOR_FOLLOW_MAX) * (1 + PC_SLOW_LOOP_TOLERANCE);
	unsigned i, dropped = 0;
	double *med;
	int k;

	for (i = 0; i < s->n; i++) {
		keep[i] = true;
		for (k = s->probe_loops_vary ? 2 : 0; k < PC_SAMPLE_LOOPS && keep[i]; k++)
			keep[i] = !s->loops[i][k] ||
				  (double)s->loops[i][k] <= (double)s->least[k] * most +
							    (double)s->slack;
	}
	if (s->probe_loops_vary && s->n && (med = malloc(s->n * sizeof(*med)))) {
		impossible(s, keep, med);
		free(med);
	}
	for (i = 0; i < s->n; i++)
		dropped += !keep[i];
	return dropped;
}

/* Rows whose cost is a system call vary more from sample to sample (and
 * run to run) than instructions do. */
double pc_spread_limit(int id)
{
	return id == PC_PROBE_sigprocmask ? PC_NOISY_SPREAD_SYSCALL : PC_NOISY_SPREAD;
}

bool pc_samples_noisy(const double *cycles, size_t n, double limit, double *spread)
{
	double *x, med, mad;
	size_t i;

	*spread = NAN;
	if (n < 2 || !(x = malloc(n * sizeof(*x))))
		return false;
	memcpy(x, cycles, n * sizeof(*x));
	med = pc_median(x, n);
	for (i = 0; i < n; i++)
		x[i] = fabs(x[i] - med);
	mad = pc_median(x, n);
	free(x);
	if (med != 0)
		*spread = mad / fabs(med);
	return mad > limit * fabs(med) + PC_NOISY_FLOOR_CYCLES;
}

bool pc_median_known(const double *x, size_t n, double *scratch, double *half)
{
	double med, reach, lo, hi, wide, enough;
	size_t l, u, h;

	if (half)
		*half = NAN;
	if (n < PC_STOP_FLOOR || !scratch)
		return false;
	for (l = 0; l < n; l++)
		if (!isfinite(x[l]))
			return false;
	memcpy(scratch, x, n * sizeof(*x));
	if (pc_sort_doubles(scratch, n) < 0)
		return false;
	med = pc_quantile_sorted(scratch, n, 0.5);
	/* 1-based ranks n/2 - z sqrt(n)/2 (down) and 1 + n/2 + z sqrt(n)/2 (up) */
	reach = PC_STOP_Z * sqrt((double)n) / 2;
	l = (size_t)floor((double)n / 2 - reach);
	u = (size_t)ceil(1 + (double)n / 2 + reach);
	lo = scratch[l >= 1 ? l - 1 : 0];
	hi = scratch[u <= n ? u - 1 : n - 1];
	wide = fmax(med - lo, hi - med);
	if (half)
		*half = wide;
	enough = fmax(PC_STOP_PRECISION * fabs(med), PC_STOP_PRECISION_CYCLES);
	if (!isfinite(wide) || wide > enough)
		return false;
	/* the level held: the first half's median and the second's (in the
	 * order taken, rounds apart in time) within the precision of each
	 * other's on both sides */
	h = n / 2;
	memcpy(scratch, x, h * sizeof(*x));
	memcpy(scratch + h, x + h, (n - h) * sizeof(*x));
	if (pc_sort_doubles(scratch, h) < 0 || pc_sort_doubles(scratch + h, n - h) < 0)
		return false;
	return fabs(pc_quantile_sorted(scratch, h, 0.5) -
		    pc_quantile_sorted(scratch + h, n - h, 0.5)) <= 2 * enough;
}

double pc_slow_alone_share(const struct pc_sample_set *s)
{
	return s->nput > s->slow_gauges ?
	       (double)s->slow_alone / (double)(s->nput - s->slow_gauges) : NAN;
}

bool pc_probe_varies(const struct pc_sample_set *s, double others)
{
	double share = pc_slow_alone_share(s);

	return s->slow_alone >= PC_VARY_MIN_SAMPLES && share >= PC_VARY_MIN_SHARE &&
	       !(share < PC_VARY_RATIO * others);
}

/*
 * The modes of x[0..n): a histogram of bins PC_MODE_BIN of the median
 * wide, smoothed over three bins; its peaks holding PC_MODE_MIN_SHARE of
 * the samples or more, each parted from the next by a valley under half
 * the lower peak, are the modes. Each sample goes to the nearest peak; a
 * mode's figure is the median of its samples, its share their fraction.
 */
size_t pc_modes(const double *x, size_t n, struct pc_mode *m, size_t max)
{
	enum { BINS = 400 };
	double *v, med, w, lo, h[BINS], sm[BINS];
	size_t i, b, nb, npk = 0, pk[BINS], count[PC_MODES_MAX + 1], k;

	if (!n || !max || !(v = malloc(n * sizeof(*v))))
		return 0;
	memcpy(v, x, n * sizeof(*v));
	if (pc_sort_doubles(v, n) < 0) {
		free(v);
		return 0;
	}
	med = pc_quantile_sorted(v, n, 0.5);
	w = fmax(fabs(med) * PC_MODE_BIN, 1e-9);
	lo = v[0];
	if ((v[n - 1] - lo) / w + 1 > BINS)	/* spread far beyond: coarser bins */
		w = (v[n - 1] - lo) / (BINS - 1), nb = BINS;
	else
		nb = (size_t)((v[n - 1] - lo) / w) + 1;
	memset(h, 0, sizeof(h));
	for (i = 0; i < n; i++) {
		b = (size_t)((v[i] - lo) / w);
		h[b < nb ? b : nb - 1]++;
	}
	for (b = 0; b < nb; b++)
		sm[b] = (h[b] + (b ? h[b - 1] : 0) + (b + 1 < nb ? h[b + 1] : 0)) / 3;
	/* peaks: local maxima (the first of a plateau) with enough samples near */
	for (b = 0; b < nb; b++) {
		double near = h[b] + (b ? h[b - 1] : 0) + (b + 1 < nb ? h[b + 1] : 0);

		if ((b && sm[b - 1] >= sm[b]) || (b + 1 < nb && sm[b + 1] > sm[b]) ||
		    near < PC_MODE_MIN_SHARE * (double)n)
			continue;
		if (npk) {	/* a valley under half the lower peak, or one peak */
			double valley = sm[b];
			size_t c;

			for (c = pk[npk - 1]; c <= b; c++)
				valley = fmin(valley, sm[c]);
			if (valley >= 0.5 * fmin(sm[pk[npk - 1]], sm[b])) {
				if (sm[b] > sm[pk[npk - 1]])
					pk[npk - 1] = b;
				continue;
			}
		}
		pk[npk++] = b;
	}
	if (!npk)		/* no peak stands out: one mode, the median */
		pk[npk++] = (size_t)((med - lo) / w) < nb ? (size_t)((med - lo) / w) : nb - 1;
	if (npk > max)
		npk = max;
	if (npk > PC_MODES_MAX)
		npk = PC_MODES_MAX;
	/* each sample to its nearest peak (v sorted: the peaks' runs in order) */
	memset(count, 0, sizeof(count));
	for (i = 0, k = 0; i < n; i++) {
		while (k + 1 < npk && fabs(v[i] - (lo + ((double)pk[k + 1] + 0.5) * w)) <
					 fabs(v[i] - (lo + ((double)pk[k] + 0.5) * w)))
			k++;
		count[k]++;
	}
	for (k = 0, i = 0; k < npk; i += count[k], k++) {
		m[k].cycles = pc_quantile_sorted(v + i, count[k], 0.5);
		m[k].share = (double)count[k] / (double)n;
	}
	free(v);
	return npk;
}

double pc_round_spread(const double *x, size_t n)
{
	double med[PC_ROUNDS], *part, lo, hi, mid;
	size_t r, a, b;

	if (n < PC_ROUNDS || !(part = malloc(n * sizeof(*part))))
		return NAN;
	for (r = 0; r < PC_ROUNDS; r++) {
		a = n * r / PC_ROUNDS;
		b = n * (r + 1) / PC_ROUNDS;
		memcpy(part, x + a, (b - a) * sizeof(*part));
		med[r] = pc_median(part, b - a);
	}
	memcpy(part, x, n * sizeof(*part));
	mid = pc_median(part, n);
	free(part);
	lo = hi = med[0];
	for (r = 1; r < PC_ROUNDS; r++) {
		lo = med[r] < lo ? med[r] : lo;
		hi = med[r] > hi ? med[r] : hi;
	}
	return mid != 0 ? (hi - lo) / fabs(mid) : NAN;
}

void pc_sample_set_lin(struct pc_sample_set *s, int64_t d_n, int64_t d_2n)
{
	if (s->nlin >= PC_LINEARITY_PAIRS)
		return;
	s->lin_n[s->nlin] = (double)d_n;
	s->lin_2n[s->nlin] = (double)d_2n;
	s->nlin++;
}

unsigned pc_sample_set_keep(struct pc_sample_set *s, const bool *keep)
{
	unsigned i, k = 0;

	for (i = 0; i < s->n; i++) {
		if (!keep[i])
			continue;
		s->dt[k] = s->dt[i];
		s->dc[k] = s->dc[i];
		s->cpt[k] = s->cpt[i];
		memcpy(s->loops[k], s->loops[i], sizeof(s->loops[k]));
		if (s->can_c)
			s->can_c[k] = s->can_c[i];
		if (s->pace_c)
			s->pace_c[k] = s->pace_c[i];
		k++;
	}
	return s->n = k;
}

double pc_linearity(double d_n, double d_2n, double ops, bool *nonlinear)
{
	double ratio;

	*nonlinear = false;
	if (!(d_n / ops >= PC_LINEARITY_FLOOR_TICKS))
		return NAN;
	ratio = d_2n / d_n;
	*nonlinear = fabs(ratio - 2.0) > 2.0 * PC_LINEARITY_TOLERANCE;
	return ratio;
}

static void judge_linearity(struct pc_sample_set *s, struct pc_probe_result *r)
{
	r->linearity = NAN;
	if (!s->nlin)
		return;
	r->linearity = pc_linearity(pc_median(s->lin_n, s->nlin),
				    pc_median(s->lin_2n, s->nlin),
				    (double)(s->iters * PC_UNROLL_DIFF), &r->nonlinear);
	if (r->nonlinear)
		snprintf(r->reason, sizeof(r->reason), "not linear: doubling the "
			 "iterations scaled the difference by %.2f, not 2",
			 r->linearity);
}

int pc_sample_set_finish(struct pc_sample_set *s, struct pc_probe_result *r,
			 const struct pc_clock *clk, bool keep)
{
	r->iters = s->iters;
	r->ops_per_sample = s->iters * PC_UNROLL_DIFF;
	r->samples = s->n;
	r->cycles_source = s->pmu ? PC_CYCLES_PMU : PC_CYCLES_CALIBRATED;
	if (pc_summarize(s->dt, s->n, &r->ticks) < 0 ||
	    pc_summarize(s->dc, s->n, &r->cycles) < 0)
		return -1;
	r->ns = pc_summary_scale(&r->ticks, 1e9 / clk->tick_hz);
	r->cycles_per_tick = s->pmu ? r->cycles.median / r->ticks.median :
			     pc_median(s->cpt, s->n);
	judge_linearity(s, r);
	r->round_spread = pc_round_spread(s->dc, s->n);
	if (keep) {
		r->raw_ticks = s->dt;
		r->raw_cycles = s->dc;
		s->dt = s->dc = NULL;
	}
	return 0;
}

int pc_profile_alloc(struct pc_profile *prof, const bool *selected,
		     enum pc_cycles_source source)
{
	size_t n = 0, k = 0;
	int id;

	memset(prof, 0, sizeof(*prof));
	for (id = 0; id < PC_PROBE_COUNT; id++)
		n += selected[id];
	if (!(prof->probes = calloc(n ? n : 1, sizeof(*prof->probes))))
		return -1;
	prof->nprobes = n;
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		struct pc_probe_result *r = &prof->probes[k];

		if (!selected[id])
			continue;
		k++;
		r->id = (enum pc_probe_id)id;
		r->ring = pc_probe_rows[id].ring;
		r->linearity = NAN;
		r->round_spread = NAN;
		r->cycles_source = source;
	}
	return 0;
}

/* The median calibration of the run's ok probes and how far it moved. */
static size_t run_calibration(struct pc_profile *prof)
{
	double *calib = calloc(prof->nprobes ? prof->nprobes : 1, sizeof(*calib));
	size_t i, n = 0;

	if (!calib)
		return 0;
	for (i = 0; i < prof->nprobes; i++) {
		const struct pc_probe_result *r = &prof->probes[i];

		if (r->status == PC_STATUS_OK && r->cycles_per_tick > 0 &&
		    isfinite(r->cycles_per_tick))
			calib[n++] = r->cycles_per_tick;
	}
	if (n) {
		double lo = calib[0], hi = calib[0];

		for (i = 1; i < n; i++) {
			lo = calib[i] < lo ? calib[i] : lo;
			hi = calib[i] > hi ? calib[i] : hi;
		}
		prof->cycles_per_tick = pc_median(calib, n);
		prof->calib_drift = (hi - lo) / prof->cycles_per_tick;
	}
	free(calib);
	return n;
}

static void unreliable(struct pc_profile *prof, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void unreliable(struct pc_profile *prof, const char *fmt, ...)
{
	va_list ap;

	prof->unreliable = true;
	va_start(ap, fmt);
	vsnprintf(prof->unreliable_reason, sizeof(prof->unreliable_reason), fmt, ap);
	va_end(ap);
}

void pc_profile_judge(struct pc_profile *prof, const struct pc_clock *clk,
		      const char *emulated)
{
	size_t ncal = run_calibration(prof), i;
	double core_hz = prof->cycles_per_tick * clk->tick_hz;

	if (emulated) {
		unreliable(prof, "%s", emulated);
		return;
	}
	/* Emulators and broken timers give calibrations no core can have. */
	if (ncal && clk->source == PC_CYCLES_CALIBRATED &&
	    !(core_hz > PC_CORE_HZ_MIN && core_hz < PC_CORE_HZ_MAX)) {
		unreliable(prof, "calibration makes no sense: core clock %.0f MHz "
			   "(an emulator, or a timer that does not count time?)",
			   core_hz / 1e6);
		return;
	}
	if (ncal > 1 && prof->calib_drift > PC_CALIB_DRIFT_MAX) {
		unreliable(prof, "the core clock moved by %.1f %% during the run "
			   "(probes' calibrations from %s): figures taken at "
			   "different clocks do not compare", prof->calib_drift * 100,
			   "the dependent add chain");
		return;
	}
	/* Four independent adds cannot issue in under half a cycle: no core
	 * has more than 8 integer ALUs. A canary below that says the cycles
	 * themselves are wrong (the calibration caught a disturbed add chain). */
	if (prof->canary && prof->canary_best < PC_CANARY_FLOOR_CYCLES) {
		unreliable(prof, "the canary (4 independent adds) read %.2f cycles at "
			   "its best, below the %.2f no core can beat: the cycles of "
			   "this run are wrong (a disturbed calibration?)",
			   prof->canary_best, PC_CANARY_FLOOR_CYCLES);
		return;
	}
	/* With PMU cycles the add chain is an independent check: one cycle per
	 * add on every real core, whatever an emulator's counter says. */
	for (i = 0; i < prof->nprobes; i++) {
		const struct pc_probe_result *r = &prof->probes[i];

		if (r->id == PC_PROBE_calib_add_chain && r->status == PC_STATUS_OK &&
		    r->cycles_source == PC_CYCLES_PMU &&
		    fabs(r->cycles.median - 1.0) > PC_PMU_ADD_TOLERANCE) {
			unreliable(prof, "the dependent add chain reads %.2f PMU "
				   "cycles per add, not 1 (an emulator, or a counter "
				   "that does not count core cycles?)", r->cycles.median);
			return;
		}
	}
}
