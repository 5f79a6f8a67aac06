/* SPDX-License-Identifier: MIT */
/*
 * engine.h - the sampling method, written once: the self-check sequence,
 * sizing, warm-up, differential hi/lo pairs, rounds, retakes and the
 * linearity pairs, over any executor.
 *
 * An executor runs one timed loop of a probe somewhere: in this process
 * (src/core/executor.c, with the PMU and the perf group read around it), in ring
 * 0 (src/ring0/ring0.c: a command to the KVM micro-guest or the kernel module),
 * or in the freestanding runner (runner/runner.c, a direct call). The
 * engine hands every sample, raw ticks, to the host's sink: primcost keeps
 * it, the runner prints it; either way src/core/samples.c turns the samples into
 * a result, with the same code.
 *
 * Freestanding: no libc, no allocation, no writable globals; it builds for
 * every backend, the ia64 runner and the ring-0 images included.
 */
#ifndef PC_ENGINE_H
#define PC_ENGINE_H

#include <stdint.h>

#include "arch/arch.h"
#include "engine/method.h"

struct pc_executor {
	/* The probe's initial state (NULL: a zeroed state is right). */
	void (*init)(void *ctx, int probe, struct pc_probe_state *st);
	/* One timed loop: iters iterations of the body unrolled PC_UNROLL_HI
	 * (hi) or PC_UNROLL_LO times; the elapsed timer ticks. */
	uint64_t (*run)(void *ctx, int probe, struct pc_probe_state *st,
			uint64_t iters, int hi);
};

/* The direct executor: a call of the body in this context; ctx is the
 * const struct pc_arch_probe * to run. */
extern const struct pc_executor pc_direct_executor;

/* One series of loops of one probe on one executor. */
struct pc_loop {
	const struct pc_executor *exec;	/* NULL: no such series */
	void *ctx;
	int probe;			/* the executor's probe number */
	uint64_t iters;			/* sized by pc_loop_size() */
	unsigned flip;			/* which loop of a pair runs first */
	struct pc_probe_state st;
};

/* The two loops of a differential pair: ticks of the lo and hi loops. */
struct pc_pair {
	uint64_t lo, hi;
};

/* One sample of a probe: its pair, then the add-chain calibration's, the
 * contention canary's and the host pace's, taken right after it (zero when
 * not taken). */
struct pc_sample {
	struct pc_pair probe, cal, canary, pace;
};

/* What the sink says of a sample. */
enum pc_sample_verdict {
	PC_SAMPLE_KEEP,
	PC_SAMPLE_DISTURBED,		/* a context switch or CPU migration */
	PC_SAMPLE_MULTIPLEXED,		/* a counter was not running throughout */
	PC_SAMPLE_SLOW,			/* a loop ran far above its floor */
};

/* A probe being measured. */
struct pc_job {
	struct pc_loop probe, cal, canary, pace;	/* all but probe: optional */
	/* Self-checked in the engine's process before sizing (NULL: the host
	 * checked it elsewhere, in ring 0). */
	const struct pc_arch_probe *check;
	uint64_t target_ticks, cal_target_ticks;
	int live;		/* cleared when the probe fails */
	unsigned kept;		/* samples kept so far */
	unsigned budget;	/* retakes left */
	unsigned short_by;	/* samples lost once the budget ran out */
	unsigned kept_slow;	/* slow samples kept once it ran out */
	int known;		/* the host's enough() said the figure is known:
				 * no more rounds */
	void *host;		/* the host's own data of this probe */
};

struct pc_engine_host {
	/* One sample into slot `slot`; anything but KEEP retakes it in the
	 * same slot while the job's budget lasts; after that a SLOW sample
	 * is kept (counted in kept_slow: the best there is), any other lost. */
	enum pc_sample_verdict (*sample)(void *ctx, struct pc_job *j, unsigned slot,
					 const struct pc_sample *s);
	/* One linearity pair: hi - lo ticks at iters and at 2 * iters. */
	void (*linearity)(void *ctx, struct pc_job *j, int64_t d_n, int64_t d_2n);
	/* The probe failed before sampling, in phase "self-check" (ops: the
	 * operations of the failing run; 0: its semantics) or "sizing" (a
	 * timer that does not advance). The engine has cleared j->live. */
	void (*failed)(void *ctx, struct pc_job *j, const char *phase,
		       const char *why, uint64_t ops);
	/* Optional: sized and warmed up; sampling begins. */
	void (*prepared)(void *ctx, struct pc_job *j);
	/* Optional: runs fn(arg), the engine's work for j in `phase`, and
	 * returns 0 when it completed (a host may contain traps and hangs; it
	 * clears j->live when the probe failed). NULL: a direct call. */
	int (*guard)(void *ctx, struct pc_job *j, const char *phase,
		     void (*fn)(void *), void *arg);
	/* Optional: nonzero when j's figure is known from its j->kept samples
	 * so far, to the precision a comparison needs: j takes no more rounds
	 * (sequential stopping). With a floor, the samples come in two
	 * passes of rounds: the floor's, then the rest up to the ceiling; it
	 * is asked after the first pass and after each round of the second
	 * but its last. NULL, or a floor of 0: every job takes all its
	 * samples, in one pass. */
	int (*enough)(void *ctx, struct pc_job *j);
	/* Optional: nonzero stops the run (an interruption). */
	int (*stop)(void *ctx);
	/* Optional: "warm-up" k of n, "round" or "resample" k of n begins
	 * for j. */
	void (*progress)(void *ctx, const char *what, unsigned k, unsigned n,
			 const struct pc_job *j);
	void *ctx;
};

struct pc_engine_config {
	unsigned samples;	/* per probe: the count, or the ceiling when floor */
	unsigned rounds;	/* at most samples */
	unsigned floor;		/* 0: a fixed count; else the first pass's
				 * samples, before the host's enough() is asked */
};

/*
 * Measures *jobs[0..njobs): each live job is self-checked (when j->check),
 * sized and warmed up in turn; then the samples are taken in rounds, each
 * a share of every live job's in turn (a job the host's enough() called
 * known sits out the rest); then each job's linearity pairs.
 * Returns the host's stop value when it stopped the run, else 0.
 */
int pc_engine_run(struct pc_job *const *jobs, unsigned njobs,
		  const struct pc_engine_config *cfg, const struct pc_engine_host *h);
/*
 * Takes the live jobs' samples again, from slot 0, in rounds, then their
 * linearity pairs: for the host that judged a probe's samples disturbed
 * throughout. Each job keeps its sizing and warm-up; its kept
 * count, budget, short_by, kept_slow and known start afresh.
 */
int pc_engine_resample(struct pc_job *const *jobs, unsigned njobs,
		       const struct pc_engine_config *cfg,
		       const struct pc_engine_host *h);

/* ---- the pieces, for the ring-0 gate and the tests -------------------------- */

/* (engine/selfcheck.c, alone in the ring-0 images) The self-check sequence: 1 and 3 iterations of the lo and then the hi
 * loop, each from the initial state and checked, then the semantics.
 * around(ctx, 1) is called before each run's init and around(ctx, 0) after
 * its timed loop (ring 0 sets the interrupt flag there: the init records it); may be NULL. NULL when it
 * passed, else why, with *ops the operations of the failing run (0: the
 * semantics). */
const char *pc_engine_selfcheck(const struct pc_arch_probe *p,
				void (*around)(void *ctx, int entering), void *ctx,
				uint64_t *ops);
/* The smallest iteration count whose hi loop lasts about target ticks
 * (PC_SIZE_STOP_TENTHS of it); 0 when the timer does not advance. */
uint64_t pc_loop_size(struct pc_loop *l, uint64_t target);
/* Batches of pairs until two consecutive batch medians agree. */
void pc_loop_warm_up(struct pc_loop *l);
/* One differential pair at l->iters, the order alternating. */
void pc_loop_pair(struct pc_loop *l, uint64_t iters, struct pc_pair *p);
/* A zeroed job; a series bound to exec (ctx, probe), not yet sized. */
void pc_job_clear(struct pc_job *j);
void pc_loop_bind(struct pc_loop *l, const struct pc_executor *exec, void *ctx,
		  int probe);
/* Puts l's initial state (zeroed, then the executor's init). */
void pc_loop_init(struct pc_loop *l);

/* Unsigned 64-bit division without the compiler's runtime library. */
uint64_t pc_udiv64(uint64_t n, uint64_t d);

#endif
