/* SPDX-License-Identifier: MIT */
/*
 * contend.h - the contended group: lock kinds, contended atomics and the
 * transfer of a cache line between CPUs (the rows: locks.h), each
 * measured at points (a thread count and the CPUs they run on), planned
 * (contend_plan.c), in time-bounded windows (contend_window.c) sampled
 * into figures (contend.c); where the threads go (placement.c); the
 * results as points[] (contend_json.c) and their views (contend_view.c).
 */
#ifndef PC_CONTEND_H
#define PC_CONTEND_H

#include <stdio.h>
#include <jansson.h>

#include "core/clock.h"
#include "core/measure.h"
#include "results/report.h"
#include "locks.h"

/* ---- placement.c: where the threads run ---------------------------------------- */

enum pc_placement { PC_PLACE_COMPACT, PC_PLACE_SPREAD, PC_PLACE_LIST, PC_PLACE_PAIR };
extern const char *const pc_placement_names[];

/* The CPUs threads may run on, in the order each placement takes them. */
struct pc_place {
	unsigned ncpus;
	int compact[PC_CONTEND_THREADS_MAX];	/* SMT siblings, cores, packages */
	int spread[PC_CONTEND_THREADS_MAX];	/* packages, nodes, cores, siblings */
	void *topo;				/* hwloc's, or NULL */
};

/* This machine (xml NULL: its allowed CPUs) or an hwloc XML export's. */
int pc_place_open(struct pc_place *p, const char *xml, char *err, size_t errlen);
void pc_place_close(struct pc_place *p);
/* The first n CPUs of a placement (compact or spread); -1 with err when
 * fewer are allowed. */
int pc_place_pick(const struct pc_place *p, enum pc_placement how, unsigned n,
		  int *cpus, char *err, size_t errlen);
/* What CPUs cpus[0..n) share at most: "single" (one CPU), "smt" (a
 * core), "l2", "l3" (a cache), "node" (a NUMA node of a package),
 * "package" (nodes of one package), "machine" (packages); "unknown"
 * without hwloc. */
const char *pc_place_class(const struct pc_place *p, const int *cpus, unsigned n);
/* The NUMA nodes cpus[0..n) span (1 without hwloc). */
int pc_place_nodes(const struct pc_place *p, const int *cpus, unsigned n);
/* One pair of CPUs per class, the first allowed CPU in each: at most max. */
unsigned pc_place_pairs(const struct pc_place *p, int (*pairs)[2], unsigned max);
/* At least two CPUs are allowed (list's availability of what needs two). */
bool pc_contend_two_cpus(void);

/* ---- contend_plan.c, contend_window.c, contend.c: the points and windows ---------- */

/* The default window, and the default windows per point (-n). */
#define PC_CONTEND_WINDOW_US	1000
#define PC_CONTEND_SAMPLES	31
#define PC_STRINGIFY_(x)	#x
#define PC_STRINGIFY(x)		PC_STRINGIFY_(x)	/* a constant in help text */
#define PC_CONTEND_ROUNDS	5
/* A point's windows go on until the standard error of their median is
 * PC_CONTEND_SE of it (from their MAD), up to PC_CONTEND_MORE times -n. */
#define PC_CONTEND_SE		0.01
#define PC_CONTEND_MORE		4
/*
 * The sets of lines windows take in turn (the lock's, the counter's, the
 * words', the threads' queue nodes): what moving a line between two cores
 * costs depends on its address (the cache slice or directory that serves
 * it). Two vCPUs here: 429 to 560 ticks one way by the line's offset in
 * its page, steady for each line, so a point on one set of lines read up to
 * 30 % apart from run to run. Each set is a page further and
 * PC_CONTEND_SLOT_SHIFT bytes further into its page than the last: 64 sets
 * cover each of a page's 32 line offsets twice.
 */
#define PC_CONTEND_SLOTS	64
#define PC_CONTEND_PAGE		4096
#define PC_CONTEND_SLOT_SHIFT	(3 * PC_LINE)
/* Round trips of the transfer gauge after each window of two threads or
 * more (about 15 us with a transfer of 800 cycles). */
#define PC_CONTEND_GAUGE_TRIPS	32
/* Samples of the add-chain calibration. */
#define PC_CONTEND_CAL_SAMPLES	21
/* A thread stalled in a window (its CPU taken away, by the kernel or, in
 * a virtual machine, by the host, which the thread's context switches do
 * not show) when the longest time between two of its deadline checks is
 * over PC_CONTEND_STALL_FACTOR times their mean and over a tenth of its
 * time in the window, or when it began or stopped a tenth of the window
 * late (it ran apart from the others): the window is disturbed. (Shorter gaps, interrupts,
 * come in every window alike: a 1 ms window in a busy virtual machine saw
 * one of about 40 us in each.) */
#define PC_CONTEND_STALL_FACTOR	8
#define PC_CONTEND_STALL_SHARE	0.10
/* Iterations of each loop of the canary's pair (80 and 16 operations
 * each): about 20000 cycles. */
#define PC_CONTEND_CANARY_ITERS	256
/* The lock rows' default data lines: the empty critical section of the
 * 2014 tables, and one line of protected data beside the lock's. */
#define PC_CONTEND_DATA_LINES	"0,1"
/* The default thread counts: powers of two up to the CPUs, at most this
 * many points per row and placement. */
#define PC_CONTEND_MAX_COUNTS	8

/* The group (contend_group.c). */
extern const struct pc_measurement_group pc_group_contend;
/* Its points: threads on CPUs, or a pair of CPUs (group.h). */
extern const struct pc_point_shape pc_contend_point_shape;

struct pc_contend_options {
	bool kinds[32];				/* rows, as pc_contend_kinds[] */
	const char *threads;			/* --threads LIST, or NULL */
	const char *placement;			/* --placement LIST, or NULL */
	const char *cpus;			/* --cpus LIST, or NULL */
	const char *data_lines;			/* --data-lines LIST, or NULL */
	bool matrix;				/* c2c between every pair */
	unsigned window_us;			/* --window-us */
	const char *topology;			/* an hwloc XML (tests), or NULL */
};

/* Fairness of one window: the coefficient of variation of the threads'
 * operations (population standard deviation / mean), and the largest
 * share any thread took (1 for one thread). Both 0 without operations. */
void pc_fairness(const uint64_t *ops, unsigned n, double *cv, double *max_share);

/* The transfer gauge of n windows (x, ticks per transfer, sorted in
 * place): its quartiles; true when the third is over PC_TRANSFER_MOVED
 * times the first (the windows ran at two distances between the CPUs). */
bool pc_contend_moved(double *x, size_t n, double *q1, double *med, double *q3);

/* One point: a row, its threads, their CPUs. */
struct pc_contend_point {
	const struct pc_contend_kind *kind;
	unsigned nthreads;
	int *cpus;				/* [nthreads] */
	enum pc_placement placement;
	unsigned data_lines;			/* lock rows: lines of protected
						 * data the critical section writes */
	const char *cls;			/* pc_place_class() */
	int nodes;
	/* what its windows said */
	double cv, max_share, max_share_worst;	/* medians; the worst window */
	double ops_per_s;			/* all threads, median */
	unsigned windows, disturbed;		/* taken; with a context switch */
	/* every window taken: its figure (ticks per operation), fairness,
	 * operations per second, round, and whether it was clean */
	double *v, *cv_w, *share_w, *rate_w;
	double *xfer_w;			/* the gauge's ticks per transfer */
	double xfer;			/* their median (0: one thread) */
	double *cal_w;			/* the add chain's ticks per cycle after
					 * the window, its threads' mean; 0: none */
	double *can_t;			/* [cap][nthreads]: each one's canary */
	unsigned char *round;
	bool *switched;			/* a thread was switched out */
	bool *clean;			/* neither that nor a slow canary */
	unsigned nv, cap;
	unsigned contended;		/* windows dropped by the canary */
	bool failed;
	char reason[256];
};

struct pc_contend_run {
	struct pc_place place;
	struct pc_contend_point *points;	/* [prof.nprobes] */
	size_t npoints;
	unsigned window_us;
	double cycles_per_tick;
	/* The contention canary (calib.add_throughput) each thread runs
	 * after a window, and the run's limit for it: 10 % above the first
	 * quartile of the rounds' canaries (0 until the rounds are done). */
	const struct pc_arch_probe *canary;
	double *canary_limit;		/* [place.ncpus], by compact index */
	/* The add chain each thread runs after a window: the point's cycles
	 * per tick (its windows' median), as the engine calibrates each
	 * sample, not the run's at its start. */
	const struct pc_arch_probe *chain;
};

/* contend_plan.c. Marks the rows a -p list names (lock.*, contended.*,
 * c2c.*): how many; -1 (err) when a token matches no row. */
int pc_contend_select(const char *list, bool *kinds, char *err, size_t errlen);
/* Parses a CPU or thread-count list ("0,2-5"); -1 with err. */
int pc_contend_list(const char *what, const char *list, int *out, unsigned max,
		    unsigned *n, char *err, size_t errlen);

/* The group's open and close (group.h): opts is a struct
 * pc_contend_options, state a struct pc_contend_run. Plans the points of
 * opts (the topology read, the CPUs chosen); -1 with err. */
int pc_contend_plan(const void *opts, void *state, char *err, size_t errlen);
void pc_contend_close(void *state);
/* contend.c. The group's measure (group.h): every point of state, a
 * struct pc_contend_run: prof->probes[i] is the result of its points[i];
 * cfg->samples windows a point. -1 with err. */
int pc_contend_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
		       const struct pc_clock *clk, struct pc_profile *prof, char *err,
		       size_t errlen);

/* ---- contend_json.c: results ----------------------------------------------------- */

/* The group's probes and describe (group.h): state is its struct
 * pc_contend_run. The probes object: a probe per row, its points[]. The
 * run's "contend": window, rounds, placement source. */
json_t *pc_contend_json_probes(const void *state, const struct pc_profile *prof,
			       const struct pc_clock *clk);
void pc_contend_describe(const void *opts, const void *state, json_t *run);

/* ---- contend_view.c: results shown ------------------------------------------------ */
/* Every CPU of doc in the published tables' shape (fmt PC_FORMAT_TABLE:
 * rows = threads, columns = lock kinds, cycles per lock+unlock per thread,
 * then the atomics, then c2c, a heat map when there are pairs enough), as
 * those tables in markdown, or as CSV (one line per point). */
int pc_contend_show(struct pc_view *v, json_t *doc);
/* compare --by lock: the lock rows of the files (and the published
 * spin_lock_unlock tables) side by side, paired by threads, nodes and
 * placement (the published ones, which have none, by threads and nodes). */
int pc_contend_compare(struct pc_view *v, json_t *const *docs, const char *const *names,
		       unsigned ndocs, const char *base, char *err, size_t errlen);
/* The group's rows as list shows them (hidden ones left out); *n set. */
struct pc_point_row;
const struct pc_point_row *pc_contend_point_rows(size_t *n);

#endif
