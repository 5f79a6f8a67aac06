/* SPDX-License-Identifier: MIT */
/*
 * executor.h - primcost's executor for the engine (engine/engine.h): one
 * timed loop of a body, with the PMU cycles counter and the perf group
 * read right outside it. The body is a direct call of the backend's code
 * (ring 3) or whatever the caller plugs in: ring0.c plugs in a command to
 * the KVM micro-guest or the kernel module.
 */
#ifndef PC_EXECUTOR_H
#define PC_EXECUTOR_H

#include "engine/engine.h"
#include "events.h"
#include "clock.h"
#include "measure.h"

/* A body: what one loop runs, itself an executor and its context. */
struct pc_body {
	const struct pc_executor *exec;
	void *ctx;
};

/* The engine's ctx for pc_host_executor: one series of loops. */
struct pc_host_loop {
	struct pc_body body;
	const struct pc_clock *clk;	/* its PMU is read when pmu is set */
	bool pmu;
	const struct pc_events *ev;	/* read around each loop, or NULL */
	/* What the last lo ([0]) and hi ([1]) loops saw. */
	struct pc_loop_counts counts[2];
	uint64_t cycles[2];
};

/* Where a run's ring-0 rows run: the way into ring 0 the run opened
 * (ring0.c gives one: pc_ring0_target). measure.c asks it to admit each such
 * row, times the row through its body, then has it judge the loops. */
struct pc_ring0_target {
	void *ctx;
	/* True when res is to be timed in ring 0; else res says why not. */
	bool (*admit)(void *ctx, struct pc_probe_result *res,
		      const struct pc_clock *clk, double sample_s);
	/* The body that runs a probe's loops in ring 0. */
	struct pc_body (*body)(void *ctx);
	/* Marks res failed when its ring-0 loops (or their calibration)
	 * failed. */
	void (*finish)(void *ctx, struct pc_probe_result *res);
};

extern const struct pc_executor pc_host_executor;

/* A direct call of the backend's body p in this process. */
struct pc_body pc_body_direct(const struct pc_arch_probe *p);

/* Points l (an engine series of probe `probe`) at hl running body. */
void pc_host_loop_bind(struct pc_loop *l, struct pc_host_loop *hl, int probe,
		       struct pc_body body, const struct pc_clock *clk, bool pmu);

/*
 * A row whose loop is the caller's own body (alloc.c), measured by the same
 * host as the probe table (measure.c): calibration, canary, perf group,
 * rounds, retakes. r's status must be ok for it to be measured; the body
 * runs uncontained (it may hold its library's locks) and its cycles are
 * always calibrated (its loop may time only part of what runs).
 */
struct pc_measure_item {
	struct pc_probe_result *r;
	struct pc_body body;
	char name[64];			/* for the progress lines */
	/* Its loops' length varies by design (an allocator's slow paths,
	 * every so many calls): only the calibration's loops are held to
	 * their fastest (PC_SLOW_LOOP_TOLERANCE). */
	bool loops_vary;
	/* The relative spread (MAD / median) over which its samples are
	 * taken again, then `noisy`; 0: the probe table's rule. */
	double spread_limit;
	/* Pair the host's pace (core/pace.h) with each sample: a body bound
	 * by instruction fetch feels a slower host. Its samples' median pace
	 * over PC_HOST_SLOWER above the run's best: taken again, then
	 * `noisy`. */
	bool pace;
};

/* Measures items[0..n) into prof's results (prof->probes already holds
 * the results the items point into). 0, or -1 with err. */
int pc_measure_items(const struct pc_measure_item *items, size_t n,
		     const struct pc_measure_config *cfg, const struct pc_clock *clk,
		     struct pc_profile *prof, char *err, size_t errlen);

#endif
