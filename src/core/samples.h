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
#include "primcost.h"

/* One probe's samples, per operation, in the order taken. */
struct pc_sample_set {
	unsigned cap, n;		/* slots; samples kept */
	double *dt;			/* ticks per operation */
	double *dc;			/* cycles per operation */
	double *cpt;			/* cycles per tick of the paired calibration */
	double *can_c;			/* the canary's cycles per operation, or NULL */
	double lin_n[PC_LINEARITY_PAIRS], lin_2n[PC_LINEARITY_PAIRS];
	unsigned nlin;
	uint64_t iters, cal_iters, can_iters;	/* loop iterations of each pair */
	bool pmu;			/* cycles counted, not calibrated */
};

/* Room for cap samples (and their canary when canary). -1: out of memory. */
int pc_sample_set_init(struct pc_sample_set *s, unsigned cap, bool canary);
void pc_sample_set_free(struct pc_sample_set *s);

/*
 * Turns raw sample x into slot `slot`. pmu_cycles, when s->pmu: the PMU
 * cycles of the probe pair (hi - lo) and of the canary pair. False when the
 * sample cannot be used: its calibration pair read no difference (a coarse
 * timer), so it scales nothing. Allocates nothing (contained work calls it).
 */
bool pc_sample_set_put(struct pc_sample_set *s, unsigned slot,
		       const struct pc_sample *x, const double *pmu_cycles);
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
 * makes no sense (PC_CORE_HZ_MIN..MAX, PC_CALIB_DRIFT_MAX), or when PMU
 * cycles read the add chain off 1 cycle.
 */
void pc_profile_judge(struct pc_profile *prof, const struct pc_clock *clk,
		      const char *emulated);

#endif
