/* SPDX-License-Identifier: MIT */
/*
 * samples.h - the host's half of the method: raw samples from the engine
 * (engine/engine.h), whichever executor took them, become a probe's
 * result here, and a run's results are judged here. measure.c feeds it
 * the samples it takes in process; runner_host.c the ones a freestanding
 * runner printed.
 */
#ifndef PC_SAMPLES_H
#define PC_SAMPLES_H

#include "engine/engine.h"
#include "clock.h"
#include "measure.h"

#define PC_SAMPLE_LOOPS 4

/* One probe's samples, per operation, in the order taken. */
struct pc_sample_set {
	unsigned cap, n;		/* slots; samples kept */
	double *dt;			/* ticks per operation */
	double *dc;			/* cycles per operation */
	double *cpt;			/* cycles per tick of the paired calibration */
	double *can_c;			/* the canary's cycles per operation, or NULL */
	double *pace_c;			/* the host pace's cycles a call
					 * (core/pace.h), or NULL */
	double lin_n[PC_LINEARITY_PAIRS], lin_2n[PC_LINEARITY_PAIRS];
	unsigned nlin;
	uint64_t iters, cal_iters, can_iters, pace_iters;	/* loop iterations
								 * of each pair */
	bool pmu;			/* cycles counted, not calibrated */
	/* ---- loops far above their floors (pc_sample_set_put) ---- */
	/* the last PC_FLOOR_WINDOW of each loop (probe lo, hi, calibration
	 * lo, hi ticks), every sample put, kept or not */
	uint64_t recent[PC_SAMPLE_LOOPS][PC_FLOOR_WINDOW];
	unsigned nrecent;
	uint64_t least[PC_SAMPLE_LOOPS];	/* the fastest of each ever */
	uint64_t (*loops)[PC_SAMPLE_LOOPS];	/* each slot's four loops */
	uint64_t slack;			/* ticks a loop may exceed its floor by
					 * besides the tolerance: timer steps */
	unsigned slow_probe, slow_cal;	/* samples refused, by loop */
	unsigned slow_late;		/* kept ones dropped by the final pass */
	bool probe_loops_vary;		/* hold the calibration's loops only */
	/* ---- who ran slow, sample by sample (pc_sample_set_put) ---- */
	unsigned slow_alone;		/* the probe's loops only: the
					 * calibration's at their floors and the
					 * canary at its best */
	unsigned slow_gauges;		/* the calibration's loops or the canary */
	uint64_t can_recent[2][PC_FLOOR_WINDOW];	/* the canary's last loops */
	unsigned ncan;
	unsigned nput;			/* samples put, kept or not */
};

/* Room for cap samples (and their canary when canary). -1: out of memory. */
int pc_sample_set_init(struct pc_sample_set *s, unsigned cap, bool canary);
/* Room for the host pace paired with each sample too. -1: out of memory. */
int pc_sample_set_pace(struct pc_sample_set *s);
void pc_sample_set_free(struct pc_sample_set *s);

/* What pc_sample_set_put made of a sample. */
enum pc_put {
	PC_PUT_OK,
	PC_PUT_UNUSABLE,	/* the calibration pair read no difference */
	PC_PUT_SLOW,		/* a loop of the probe's pair ran far above its floor */
	PC_PUT_SLOW_CAL,	/* a loop of the calibration's did */
};

/*
 * Turns raw sample x into slot `slot`. pmu_cycles, when s->pmu: the PMU
 * cycles of the probe pair (hi - lo) and of the canary pair. Not OK when the
 * sample cannot be used: its calibration pair read no difference (a coarse
 * timer), so it scales nothing; or one of its loops ran more than
 * PC_SLOW_LOOP_TOLERANCE above the fastest of the last PC_FLOOR_WINDOW
 * such loops (an interrupt, a preemption, the core taken away: the
 * difference would carry it), counted in slow_probe or slow_cal.
 * Allocates nothing (contained work calls it).
 */
enum pc_put pc_sample_set_put(struct pc_sample_set *s, unsigned slot,
			      const struct pc_sample *x, const double *pmu_cycles);
/* After sampling: keep[i] false for the kept samples with a loop over
 * (1 + PC_FLOOR_FOLLOW_MAX)(1 + PC_SLOW_LOOP_TOLERANCE) times the fastest
 * such loop of the whole run: the first samples, judged before the window
 * held a floor; and, where the probe's loops vary, for the samples an
 * interrupted lo loop lowered (PC_LOW_SAMPLE_SHARE, PC_LOW_LOOP_SLOW) or
 * at or under zero. Returns how many; the caller that drops them counts
 * them in slow_late. */
unsigned pc_sample_set_final(struct pc_sample_set *s, bool *keep);
/*
 * Whether samples are too spread to stand for one cost: their median
 * absolute deviation over limit times the median (pc_spread_limit for a
 * row of the probe table) plus PC_NOISY_FLOOR_CYCLES. *spread gets MAD /
 * |median|. cycles[0..n) is not changed.
 */
bool pc_samples_noisy(const double *cycles, size_t n, double limit, double *spread);
/*
 * Sequential stopping (method.h, PC_STOP_*): whether the median of
 * x[0..n) is known, its 95 % confidence interval within the precision on
 * both sides; *half (when not NULL) gets the interval's wider side.
 * scratch has room for n values; x is not changed. False under
 * PC_STOP_FLOOR samples, or with a sample that is not a number.
 */
bool pc_median_known(const double *x, size_t n, double *scratch, double *half);
/* Of the samples whose calibration and canary loops held their floors,
 * the share whose probe loops ran slow; NAN when there is none. */
double pc_slow_alone_share(const struct pc_sample_set *s);
/*
 * Whether a probe's own cost varies (method.h, PC_VARY_*): while the host's
 * gauges (the calibration's loops, the canary's) held their floors, its
 * loops ran slow in many samples: PC_VARY_MIN_SHARE of them or more, and
 * PC_VARY_RATIO times the share of the run's other probes (others: their
 * median; measure.c does not ask with fewer than two others, nor in an
 * interrupted run, which samples nothing again).
 */
bool pc_probe_varies(const struct pc_sample_set *s, double others);
/* The modes of samples x[0..n), in rising order, at most max (and
 * PC_MODES_MAX): how many (0 when out of memory). */
size_t pc_modes(const double *x, size_t n, struct pc_mode *m, size_t max);
/* The relative spread (MAD / median) a quiet host keeps row id within:
 * PC_NOISY_SPREAD, or PC_NOISY_SPREAD_SYSCALL for a row whose cost is a
 * system call. */
double pc_spread_limit(int id);
/* (max - min) / |median| of the medians of the samples in PC_ROUNDS equal
 * parts, in order; NAN for fewer than PC_ROUNDS samples or a zero median. */
double pc_round_spread(const double *x, size_t n);
/* One linearity pair (hi - lo ticks at iters and at 2 * iters). */
void pc_sample_set_lin(struct pc_sample_set *s, int64_t d_n, int64_t d_2n);
/* Keeps the samples whose keep[i] is set, in order; returns how many. */
unsigned pc_sample_set_keep(struct pc_sample_set *s, const bool *keep);

/*
 * The linearity verdict, for every executor: D(2N)/D(N) from the medians
 * of the pairs, NAN when D(N) is under PC_LINEARITY_FLOOR_TICKS per
 * operation (nothing to judge); *nonlinear when it is not 2 within
 * PC_LINEARITY_TOLERANCE.
 */
double pc_linearity(double d_n, double d_2n, double ops, bool *nonlinear);

/* Fills r's figures from s (status, reason and id are the caller's); the
 * raw arrays move to r when keep. -1: out of memory. */
int pc_sample_set_finish(struct pc_sample_set *s, struct pc_probe_result *r,
			 const struct pc_clock *clk, bool keep);

/* A profile with one result per selected row, in table order: id, ring,
 * cycles source set, no figures yet. -1: out of memory (prof empty). */
int pc_profile_alloc(struct pc_profile *prof, const bool *selected,
		     enum pc_cycles_source source);

/*
 * Judges a run: the median calibration and its drift across its ok probes,
 * then unreliable when emulated (the reason given), when the calibration
 * makes no sense (PC_CORE_HZ_MIN..MAX), moved over PC_CALIB_DRIFT_MAX, or
 * made the canary beat PC_CANARY_FLOOR_CYCLES, or when PMU cycles read
 * the add chain off 1 cycle.
 */
void pc_profile_judge(struct pc_profile *prof, const struct pc_clock *clk,
		      const char *emulated);

#endif
