/* SPDX-License-Identifier: MIT */
/*
 * method.h - every threshold of the measurement method, named once.
 *
 * Freestanding (macros only): the engine (engine.c) builds into primcost,
 * the freestanding runner and the ring-0 executors; the host's finishing
 * (src/core/samples.c), the option parsers and the ring-0 gate read the same
 * names. docs/design.md says where each number comes from.
 */
#ifndef PC_METHOD_H
#define PC_METHOD_H

/* ---- sizing ---------------------------------------------------------------- */
/* A timed hi loop lasts at least this many timer steps: a sample is the
 * difference of two intervals each read within one step, and 1000 steps
 * keep that error under 0.3 % of the difference. */
#define PC_MIN_SAMPLE_STEPS	1000
/* Sizing stops at this fraction of the target (tenths). */
#define PC_SIZE_STOP_TENTHS	9
/* The most iterations one loop is sized to. */
#define PC_MAX_ITERS		(1ULL << 32)
/* A timer that has not moved after this many iterations does not count. */
#define PC_TIMER_STUCK_ITERS	(1ULL << 16)

/* ---- warm-up ------------------------------------------------------------- */
/* Batches of pairs until two consecutive batch medians agree within 1 %
 * plus 0.005 ticks per operation, at most PC_WARMUP_MAX_BATCHES. */
#define PC_WARMUP_BATCH		15
#define PC_WARMUP_MAX_BATCHES	20

/* ---- sampling -------------------------------------------------------------- */
#define PC_ROUNDS		10	/* rounds the samples are spread over */
#define PC_SAMPLES_DEFAULT	101
#define PC_SAMPLES_MIN		9	/* fewer cannot be judged */
#define PC_SAMPLES_MAX		1000000
/* Sequential stopping (without -n: the count is the ceiling): every probe
 * takes PC_STOP_FLOOR samples in a first pass of rounds, spread over the
 * run like any count; then, after that pass and after each round of a
 * second pass up to the ceiling, a probe stops when the 95 % confidence
 * interval of its median (order statistics: the ranks n/2 -+ PC_STOP_Z
 * sqrt(n)/2) lies within PC_STOP_PRECISION of the median or
 * PC_STOP_PRECISION_CYCLES, whichever is wider, on both sides, and the
 * medians of the first and second halves of its samples (in the order
 * taken: rounds apart) lie within twice that of each other: the figure is
 * then known finer than a comparison of two runs resolves (compare's
 * threshold is wider), and held its level while it was taken. docs/design/engine-and-measurement.md gives the
 * times. */
#define PC_STOP_FLOOR		31
#define PC_STOP_Z		1.96
#define PC_STOP_PRECISION	0.005
#define PC_STOP_PRECISION_CYCLES 0.02

/* ---- linearity ------------------------------------------------------------- */
/* D(2N)/D(N), medians of PC_LINEARITY_PAIRS pairs each, must be 2 within
 * 10 %; below PC_LINEARITY_FLOOR_TICKS per operation D(N) is timer noise
 * and the check says nothing. */
#define PC_LINEARITY_PAIRS	31
#define PC_LINEARITY_TOLERANCE	0.10
#define PC_LINEARITY_FLOOR_TICKS 0.05

/* ---- the contention canary ------------------------------------------------ */
/* A sample whose canary ran more than 10 % above the run's first quartile
 * is dropped, unless fewer than PC_SAMPLES_MIN or a quarter would stay. */
#define PC_CONTENTION_TOLERANCE	0.10
/* A run whose host pace (core/pace.c: calls through 64 functions) reads
 * over 10 % above the best an output file's earlier runs of its CPU saw
 * ran on a slower host: it says so (bench/canary-study.sh: the gauge read
 * 20 % higher in a slow phase, under 1 % apart within a quick one). */
#define PC_HOST_SLOWER		0.10

/* ---- the contended group's transfer gauge ------------------------------------ */
/* Gauges over this many times apart (a point's windows: third quartile
 * against first; two points compared) ran with their CPUs at other
 * distances. Steady on the development VM: within 15 %; moved: 230
 * against 820 cycles. */
#define PC_TRANSFER_MOVED	1.3

/* ---- disturbed samples ------------------------------------------------------ */
/* A sample one of whose loops (the probe's lo or hi, the calibration's lo
 * or hi) ran more than 10 % plus two timer steps above the fastest of the
 * last PC_FLOOR_WINDOW such loops is retaken: an interrupt or a preemption
 * inside it, or the core taken away for part of it. The window lets the
 * floor follow a lasting change of pace (a busy sibling, a new clock),
 * which moves every loop and cancels in the cycles, up to 25 % above the
 * fastest loop ever: beyond that the loops are disturbed, not paced.
 * docs/design.md gives the distributions. */
#define PC_SLOW_LOOP_TOLERANCE	0.10
#define PC_FLOOR_WINDOW		16
#define PC_FLOOR_FOLLOW_MAX	0.25
/* A probe whose kept samples' MAD exceeds 2 % of their median (10 % for
 * a system call's cost) plus 0.01 cycles is sampled again, at most
 * PC_NOISY_RETRIES more times; then it is `noisy`. */
#define PC_NOISY_SPREAD		0.02
#define PC_NOISY_SPREAD_SYSCALL	0.10
#define PC_NOISY_FLOOR_CYCLES	0.01
#define PC_NOISY_RETRIES	2
/* The groups' points spread by design, so by more: an allocator's batches
 * meet its slow paths more or less often (MAD up to 27 % of the median for
 * jemalloc's batches of 256 B to 8 KiB, 12 % for tcmalloc's, 6 % for
 * glibc's, over 432 points on the development VM, its other vCPU busy),
 * and a lock's hand-offs go one way in one window and another in the next
 * (up to 11 %). Over these, the
 * point is sampled again, then `noisy` (docs/design.md). */
#define PC_NOISY_SPREAD_ALLOC	0.30
#define PC_NOISY_SPREAD_CONTEND	0.25
/* A sample of a body whose loops vary (an allocator's) that reads under
 * PC_LOW_SAMPLE_SHARE of the median while its lo loop ran over
 * PC_LOW_LOOP_SLOW times the median lo loop was lowered by whatever
 * interrupted that loop (the difference hi - lo loses it): it is dropped,
 * as is any sample at or under zero, which no call can cost. */
#define PC_LOW_SAMPLE_SHARE	0.5
#define PC_LOW_LOOP_SLOW	2.0

/* A probe whose own loops vary: in the samples where the host's gauges
 * (the calibration's loops and the contention canary's) held their floors,
 * its loops alone ran slow (over the tolerance above their floor) in
 * PC_VARY_MIN_SAMPLES or more, PC_VARY_MIN_SHARE of them or more, and
 * PC_VARY_RATIO times the share of the run's other probes (their median)
 * or more (a run of fewer than three probes, or an interrupted one, does
 * not judge it). A disturbance of the host slows every probe alike; a probe
 * that varies by itself stands out from the others. (On the development
 * VM in a noisy phase the other probes' share was 0.31-0.35, a body slow
 * in 5 phases of 8 read 0.78.) Such a probe is sampled again holding the
 * calibration's loops only, and reported ok, as varying, with its modes:
 * peaks of a histogram of bins PC_MODE_BIN of the median, holding
 * PC_MODE_MIN_SHARE of the samples or more, at most PC_MODES_MAX. */
#define PC_VARY_MIN_SAMPLES	8
#define PC_VARY_MIN_SHARE	0.5
#define PC_VARY_RATIO		2
#define PC_MODE_BIN		0.01
#define PC_MODE_MIN_SHARE	0.05
#define PC_MODES_MAX		4

/* ---- calibration sanity ---------------------------------------------------- */
/* A calibrated core clock outside 200 MHz .. 10 GHz, or the probes'
 * calibrations spreading more than 5 % (max - min over the median) within a
 * run, makes the run unreliable; so does a canary (4 independent adds) under
 * half a cycle: no core has more than 8 integer ALUs. */
#define PC_CORE_HZ_MIN		2e8
#define PC_CORE_HZ_MAX		1e10
#define PC_CALIB_DRIFT_MAX	0.05
#define PC_CANARY_FLOOR_CYCLES	0.5
/* With PMU cycles, the dependent add chain must read 1 cycle within 10 %. */
#define PC_PMU_ADD_TOLERANCE	0.10

/* ---- the ring-0 gate ------------------------------------------------------ */
/* Before a ring-0 figure is published, the ring-0 add chain must read 1
 * cycle of the host's within 5 % and ring-0 cmpxchg match the host's
 * ring-3 cmpxchg within 10 %, each the median of 51 interleaved samples;
 * an add of 10 cycles or more in ring 0 is not executed natively. */
#define PC_RING0_GATE_ADD_TOLERANCE	0.05
#define PC_RING0_GATE_CMPXCHG_TOLERANCE	0.10
#define PC_RING0_GATE_SAMPLES		51
#define PC_RING0_EMULATED_CYCLES	10.0
/* The rows it times in ring 0 besides the ring-0 rows: the dependent add
 * chain, which also calibrates every ring-0 loop, and cmpxchg. A kernel
 * host runs no other (runner/ring0/exec.c, pc_ring0_kernel_row). */
#define PC_RING0_GATE_ADD		PC_PROBE_calib_add_chain
#define PC_RING0_GATE_CMPXCHG		PC_PROBE_cmpxchg

/* ---- CPUs ------------------------------------------------------------------ */
/* --cpu takes 0 .. PC_CPU_MAX; glibc's cpu_set_t (CPU_SETSIZE, 1024) is
 * not the limit: pinning uses a dynamically sized set. */
#define PC_CPU_MAX		4095

#endif
