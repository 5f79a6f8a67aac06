/* SPDX-License-Identifier: MIT */
/* measure.h - the probe runs: status, pinning, calibration, the profile (measure.c). */
#ifndef PC_MEASURE_H
#define PC_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "engine/method.h"

#include "core/stats.h"
#include "core/clock.h"

/* One progress line on the --status-fd descriptor (primcost-run(1) gives the
 * format). Nothing happens when fd < 0; a failed write (a reader that went
 * away) is ignored: it stops the lines, not the run. */
void pc_status_line(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* NOISY: a figure, the best clean estimate, from a probe whose samples
 * stayed disturbed past the sampling bound; the reason says why. */
enum pc_status { PC_STATUS_OK, PC_STATUS_SKIPPED, PC_STATUS_UNSUPPORTED,
		 PC_STATUS_FAILED, PC_STATUS_NOISY };

const char *pc_status_name(enum pc_status s);

struct pc_ring0_target;

struct pc_measure_config {
	unsigned samples;		/* differential samples per probe: the
					 * count, or the ceiling when stop_floor */
	unsigned stop_floor;		/* 0: a fixed count; else sequential
					 * stopping from this many (method.h) */
	double sample_s;		/* target duration of one hi loop */
	bool keep_samples;
	bool progress;			/* progress line on stderr */
	int status_fd;			/* --status-fd: progress lines; -1: none */
	int cpu;			/* pinned CPU */
	bool emulated;			/* an emulator's timings: spread not judged */
	const struct pc_ring0_target *ring0;	/* where ring-0 rows run (executor.h);
					 * NULL: nowhere */
	/* ---- events counted around each sample (events.c) ---- */
	struct pc_events *events;	/* open group (-e, disturbance), or NULL */
	double probe_timeout_s;		/* time limit of one probe; 0: none */
	bool keep_contended;		/* keep samples the contention canary flags */
};

/* The progress line on a terminal (cfg->progress) and the --status-fd
 * line (primcost-run(1)): "WHAT K/N NAME" ("warm-up", "round", "resample"),
 * or "measured" when name is NULL, which also clears the terminal's line. */
void pc_progress(const struct pc_measure_config *cfg, const char *what, size_t k,
		 size_t n, const char *name);

/* A mode of a probe whose own cost varies: its figure, its share. */
struct pc_mode {
	double cycles, share;
};

struct pc_probe_result {
	enum pc_probe_id id;
	enum pc_status status;
	char reason[512];
	int ring;
	struct pc_summary ticks, cycles, ns;	/* per operation */
	size_t samples;
	bool known;			/* sequential stopping: its median was
					 * known before the ceiling */
	/* its own cost varies (samples.c, pc_probe_varies): its modes */
	bool varies;
	size_t nmodes;
	struct pc_mode modes[PC_MODES_MAX];
	uint64_t iters;			/* loop iterations per sample */
	uint64_t ops_per_sample;	/* iters * PC_UNROLL_DIFF */
	double linearity;		/* D(2N)/D(N); NAN when D is ~0 */
	bool nonlinear;			/* failed the linearity check */
	/* (max - min) / median of the per-round medians: how far the figure
	 * moved within the run; NAN when not measured in rounds. */
	double round_spread;
	enum pc_cycles_source cycles_source;
	double cycles_per_tick;
	double *raw_ticks;		/* per-op ticks of every sample, or NULL */
	double *raw_cycles;
	/* ---- events counted around each sample (events.c) ---- */
	struct pc_probe_events {
		const struct pc_events *def;	/* names and states, or NULL */
		struct pc_summary *per_op;	/* [def->n]: hi minus lo, per op */
		bool *counted;		/* [def->n]: false: never counted here */
		double **raw;		/* [def->n][samples], --keep-samples */
		bool checked;		/* disturbances were looked for */
		unsigned disturbed, multiplexed;	/* samples discarded */
		unsigned short_by;	/* samples missing: discard budget spent */
		unsigned contended;	/* samples dropped: the core was shared */
		unsigned slow, slow_cal;	/* samples refused: a loop of the
						 * probe's (the calibration's)
						 * pair far above its floor */
		unsigned slow_late;	/* samples dropped after sampling: a
					 * loop far above the run's fastest */
		unsigned noisy_retries;	/* times sampled again, disturbed */
	} events;
	bool partial;			/* cut short by an interruption */
};

struct pc_profile {
	struct pc_probe_result *probes;
	size_t nprobes;
	double cycles_per_tick;		/* median calibration of the run */
	double calib_drift;		/* (max - min) / median of calibrations */
	double wall_s;
	bool unreliable;		/* calibration makes no sense (emulator) */
	char unreliable_reason[256];
	int interrupted;		/* the signal that stopped the run, or 0 */
	/* The contention canary (calib.add_throughput paired with every
	 * sample): its cycles per operation at their best (first quartile)
	 * and at the median over the run, and the samples it dropped. */
	double canary_best, canary_median;
	unsigned contended;
	bool canary;			/* the canary ran */
	/* The host's pace paired with every sample of the bodies that asked
	 * for it (core/pace.h): cycles a call at its best (first quartile)
	 * and median over the run. */
	double pace_best, pace_median;
	bool pace;			/* it ran */
};

/* Marks keep[i] = canary[i] <= limit; returns how many are kept. */
size_t pc_contention_keep(const double *canary, size_t n, double limit, bool *keep);

/* The implementation of a row on this build: backend first, then portable
 * C bodies, then the backend's fallback when this CPU cannot run the body;
 * NULL when nothing implements it. */
const struct pc_arch_probe *pc_probe_impl(enum pc_probe_id id);
/* Why a row is unsupported here, or why its fallback runs; NULL when the
 * row's own body runs. */
const char *pc_probe_note(enum pc_probe_id id);
/* The width of a column of probe names: the longest row name. */
int pc_probe_name_width(void);
/* Finds a probe id by exact name; -1 when none. */
int pc_probe_find(const char *name);

/* Runs a probe's functional self-check. NULL when right, else the reason
 * in buf. */
const char *pc_selfcheck(const struct pc_arch_probe *p, char *buf, size_t len);

/* Measures the selected probes (selected[id] true) in table order. */
int pc_profile_run(const bool *selected, const struct pc_measure_config *cfg,
		   const struct pc_clock *clk, struct pc_profile *prof,
		   char *err, size_t errlen);
void pc_profile_free(struct pc_profile *prof);

/* Pins the calling thread to cpu (-1: the one it runs on); returns the CPU
 * or -1 with err filled. */
int pc_pin_cpu(int cpu, char *err, size_t errlen);

/* Ticks one timed loop should last: `seconds` of the timer, but never so
 * few timer steps that its resolution would cost 0.5 % of a sample. */
double pc_sample_ticks(const struct pc_clock *clk, double seconds);

/* Calibrates core cycles per timer tick with the dependent add chain. */
int pc_calibrate(const struct pc_clock *clk, unsigned samples, double sample_s,
		 double *cycles_per_tick, char *err, size_t errlen);

#endif
