/* SPDX-License-Identifier: MIT */
/*
 * alloc.h - the allocator group: malloc and free fast paths by size, for
 * the C library's allocator and for others loaded by name (alloc.c), timed
 * by the engine (engine/engine.h) like every other row, and their results
 * as points of three probes (alloc_json.c), shown by alloc_view.c.
 */
#ifndef PC_ALLOC_H
#define PC_ALLOC_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "core/events.h"
#include "core/clock.h"
#include "core/measure.h"
#include "results/report.h"

/* The three rows: N calls timed, then their N frees; or the reverse; or a
 * malloc immediately freed. Then the remote pattern's two (alloc_remote.c):
 * the mallocs on one CPU, the frees of those objects on another. */
enum pc_alloc_pattern { PC_ALLOC_MALLOC, PC_ALLOC_FREE, PC_ALLOC_PAIR, PC_ALLOC_PATTERNS,
			PC_ALLOC_REMOTE_MALLOC = PC_ALLOC_PATTERNS, PC_ALLOC_REMOTE_FREE,
			PC_ALLOC_ROWS };
extern const char *const pc_alloc_rows[PC_ALLOC_ROWS];
/* The remote pattern's batches go through a ring of this many slots; a
 * sample is this many batches of PC_UNROLL_HI objects. */
#define PC_REMOTE_RING		4
#define PC_REMOTE_BATCHES	16

/* Sizes 8, 16, ... 16384 bytes (as the kernel's kmalloc caches of 2007). */
#define PC_ALLOC_SIZE_MIN	8
#define PC_ALLOC_NSIZES		12
#define PC_ALLOCATORS_MAX	5
/* The test allocator's library (--allocator test, the tests only). */
#define PC_TEST_ALLOCATOR_ENV	"PRIMCOST_TEST_ALLOCATOR"

/* The group's default samples a point (run -n); docs/design.md gives the
 * measurements. */
#define PC_ALLOC_SAMPLES	51

/* One allocator, loaded (dlopen) and reached through its own symbols. */
struct pc_allocator {
	const char *name;		/* "glibc", "jemalloc", ... */
	const char *package;		/* the Debian package that ships it */
	void *handle;
	void *(*malloc)(size_t);
	void (*free)(void *);
	size_t (*usable_size)(void *);
	/* The allocator's own count of bytes in use, where it keeps one
	 * (NULL: none); -1 when it cannot tell. */
	long long (*in_use)(const struct pc_allocator *a);
	/* The frees the calling thread made, where the allocator counts them
	 * (the test allocator's pc_test_alloc_frees), or NULL. */
	unsigned long (*frees)(void);
	char version[64];
	char library[256];		/* the file its malloc lives in */
};

struct pc_alloc_options {
	bool rows[PC_ALLOC_ROWS];	/* -p among the rows */
	const char *allocators;		/* --allocator LIST, or NULL: glibc */
	bool touch;			/* --touch: write the first byte */
	bool remote;			/* --remote: the remote pattern's rows too */
	char **argv;			/* the run command's, to run it again */
};

/* The allocator names, comma-separated ("glibc, jemalloc, ..."). */
const char *pc_allocator_names(void);
/* Marks rows[] from -p globs: how many; -1 (err) when a token matches
 * no row. The remote pattern's rows only by a token that names them
 * (alloc.remote...): alloc.* is the three rows, the default run's. */
int pc_alloc_select(const char *list, bool *rows, char *err, size_t errlen);
/* Checks a --allocator list: known names, no repeats, at most
 * PC_ALLOCATORS_MAX. -1 with err otherwise. */
int pc_allocator_list_check(const char *list, char *err, size_t errlen);

/* Loads allocator `name`; -1 with err when the name is unknown or its
 * library is not installed (err then names the Debian package);
 * PC_ALLOC_NEEDS_TLS when the library's thread-local storage found no room
 * (its initial-exec TLS must fit glibc's static TLS surplus). */
#define PC_ALLOC_NEEDS_TLS	(-3)
int pc_allocator_open(const char *name, struct pc_allocator *a, char *err,
		      size_t errlen);
void pc_allocator_close(struct pc_allocator *a);

/*
 * Does memory freed go back to the allocator? PC_RETURN_ROUNDS rounds of n
 * blocks of size bytes, each with at least size usable bytes, allocated
 * and then freed: they must use at most PC_RETURN_REUSE * n distinct
 * addresses (a leak uses PC_RETURN_ROUNDS * n), and where the allocator
 * counts the bytes in use, that count must come back to where it was.
 * NULL when it does, else why not (in why).
 */
#define PC_RETURN_ROUNDS	16
#define PC_RETURN_REUSE		4
const char *pc_allocator_returns(const struct pc_allocator *a, size_t size,
				 unsigned n, char *why, size_t len);

/* One point of the group: a row at one size on one allocator (and a
 * remote one on a pair of CPUs). */
struct pc_alloc_point {
	enum pc_alloc_pattern pattern;
	size_t size;
	unsigned allocator;		/* index into the run's allocators */
	int pair;			/* remote: index into the run's pairs; -1 */
	unsigned long objects;		/* remote: handed over */
	unsigned long counted;		/* remote: frees counted at the far end */
};

/* A pair of CPUs of the remote pattern: a placement of the contended
 * group's, its first two CPUs (the near end, the far end) and what they
 * share. */
struct pc_alloc_pair {
	int cpus[2];
	const char *placement;		/* "compact", "spread" */
	const char *cls;		/* "smt", "l2", ... (placement.c) */
};
#define PC_ALLOC_PAIRS		2
/* The remote pattern's pairs of CPUs: the first two of each placement of
 * the contended group's, read before the thread is pinned (placement.c;
 * a pair two placements give alike once, under the first), into
 * pairs[PC_ALLOC_PAIRS]; -1 with err where fewer than two CPUs are
 * allowed. The kernel group's remote rows take them too. */
int pc_alloc_pairs(struct pc_alloc_pair *pairs, unsigned *npairs, char *err, size_t errlen);

/* ---- alloc_dist.c: each point's single calls --------------------------------- */

/* Calls timed one by one a point, after its samples, in PC_DIST_CHUNKS
 * chunks (each a p99: what compare --stat p99 judges). */
#define PC_DIST_CALLS		16000
#define PC_DIST_CHUNKS		16
/* Empty intervals timed a point for the timer's own cost. */
#define PC_DIST_EMPTY		4000
/* The histogram's buckets: this many a power of two, from 1 cycle to
 * 2^40 (the last open-ended), and one below 1. */
#define PC_DIST_PER_OCTAVE	8
#define PC_DIST_BUCKETS		(PC_DIST_PER_OCTAVE * 40 + 2)

/* The timer's own cost: an empty interval between two reads, in ticks
 * (the median), and what a call's figure resolves, in cycles: the
 * timer's step (what every interval is a multiple of), or the empty
 * interval's interquartile range where that is wider. */
struct pc_alloc_timer {
	double ticks;
	double resolution_cycles;
};

/* The distribution of a point's single calls, in cycles, the timer's
 * cost subtracted (none below 0). */
struct pc_alloc_dist {
	unsigned calls;			/* 0: not measured */
	double p50, p90, p99, p999, max;
	double chunk_p99[PC_DIST_CHUNKS];
	double timer_cycles, resolution_cycles;
	uint32_t bucket[PC_DIST_BUCKETS];
};

/* The timer's cost from n empty intervals (ticks), and its step from
 * those and the ncalls intervals of the calls: the greatest common
 * divisor of them all (a VM's TSC here moves 21 ticks at a time), at
 * cpt cycles per tick. */
void pc_alloc_timer_cost(const uint32_t *ticks, unsigned n, const uint32_t *calls,
			 unsigned ncalls, double cpt, struct pc_alloc_timer *t);
/* d from n calls' ticks (n a multiple of PC_DIST_CHUNKS); -1 when out of
 * memory. */
int pc_alloc_dist_make(struct pc_alloc_dist *d, const uint32_t *ticks, unsigned n,
		       const struct pc_alloc_timer *timer, double cpt);
/* The lower bound of bucket b, in cycles. */
double pc_alloc_dist_bucket_lo(unsigned b);
/* A point's "latency" (data/schema.json), or NULL when out of memory. */
json_t *pc_alloc_dist_json(const struct pc_alloc_dist *d);

struct pc_alloc_run {
	struct pc_allocator alloc[PC_ALLOCATORS_MAX];
	/* A block of each allocator held above its reserve (alloc.c). */
	void *pin[PC_ALLOCATORS_MAX];
	unsigned nalloc;
	struct pc_alloc_point *points;	/* [prof.nprobes] */
	struct pc_alloc_dist *dist;	/* [prof.nprobes]: their single calls */
	bool touch;
	bool rows[PC_ALLOC_ROWS];	/* the rows filed */
	struct pc_alloc_pair pairs[PC_ALLOC_PAIRS];
	unsigned npairs;		/* 0: no remote pattern */
};

/* alloc_remote.c. The remote points of allocator a among points[first ..
 * first + n) (each malloc row's point with its free row's next), on their
 * pairs of CPUs, cfg->samples samples each at cpt cycles a tick, then
 * their single calls; -1 with err when its threads cannot start. */
int pc_alloc_remote(struct pc_alloc_run *ar, unsigned a, size_t first, size_t n,
		    const struct pc_measure_config *cfg, const struct pc_clock *clk,
		    struct pc_profile *prof, double cpt, char *err, size_t errlen);

/* An allocator's reserve (alloc.c says why): batches (PC_ALLOC_RESERVE;
 * the remote pattern's near end, what its ring holds, PC_REMOTE_RESERVE)
 * of PC_UNROLL_HI blocks of the largest size allocated, a block of
 * PC_ALLOC_PIN_SIZE bytes (no point's size) allocated, the batches freed.
 * Returns that block, the pin, to free (a->free) when the run ends. */
#define PC_ALLOC_RESERVE	2
#define PC_REMOTE_RESERVE	(PC_REMOTE_RING + 2)
#define PC_ALLOC_PIN_SIZE	(3 * ((size_t)PC_ALLOC_SIZE_MIN << (PC_ALLOC_NSIZES - 2)))
void *pc_alloc_reserve(const struct pc_allocator *a, unsigned batches);

/* Runs primcost again (argv: the run command's, from "run") with glibc's
 * static TLS surplus raised to PC_ALLOC_TLS_BYTES; returns only on error. */
#define PC_ALLOC_TLS_TUNABLE	"glibc.rtld.optional_static_tls"
#define PC_ALLOC_TLS_BYTES	65536
int pc_alloc_reexec(char **argv, char *err, size_t errlen);

/* The group's open, measure and close (group.h): opts is a struct
 * pc_alloc_options, state a struct pc_alloc_run. */
/* Opens the allocators of opts (glibc when none given); -1 with err. */
int pc_alloc_open(const void *opts, void *state, char *err, size_t errlen);
void pc_alloc_close(void *state);
/* Measures the selected rows at every size on every allocator of state:
 * prof->probes[i] is the result of its points[i]. */
int pc_alloc_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
		     const struct pc_clock *clk, struct pc_profile *prof, char *err,
		     size_t errlen);

/* ---- alloc_json.c: results ------------------------------------------------------ */

/* The group (alloc_group.c). */
extern const struct pc_measurement_group pc_group_alloc;
/* Its points: a size and an allocator (group.h; the kernel group's sized
 * rows' too); the remote pattern's, those and a placement. */
extern const struct pc_point_shape pc_alloc_point_shape;
extern const struct pc_point_shape pc_alloc_remote_shape;

/* The group's probes and describe (group.h): state is its struct
 * pc_alloc_run. The probes object of the run: a probe per row, its
 * points[] by size and allocator. The run's "alloc": name, version,
 * library and package of each allocator, and whether blocks were touched. */
json_t *pc_alloc_json_probes(const void *state, const struct pc_profile *prof,
			     const struct pc_clock *clk);
void pc_alloc_describe(const void *opts, const void *state, json_t *run);
/* Is p a probe with points[] (the allocator group, or a table like it)? */
bool pc_alloc_has_points(json_t *p);

/* ---- alloc_view.c: results shown --------------------------------------------- */
/* Every CPU of doc as a table in the published table's shape (fmt
 * PC_FORMAT_TABLE: rows = sizes, columns = malloc / free / malloc+free
 * per allocator, cycles per call, median), as markdown tables, or as CSV
 * (one line per point). */
int pc_alloc_show(struct pc_view *v, json_t *doc);
/* The remote points of rows[0] (mallocs at the near end) and rows[1] (frees
 * at the far end) of one CPU entry as a table under what they are (and
 * the CPU's brand first when heading); nothing where there are none. -1
 * when out of memory. The kernel group's remote rows too. */
int pc_alloc_remote_view(struct pc_view *v, json_t *entry, const char *brand, bool heading,
			 const char *const *rows, const char *what);
/* The group's three rows as list shows them; *n set. */
struct pc_point_row;
const struct pc_point_row *pc_alloc_point_rows(size_t *n);
/* compare --by allocator: allocators side by side, each against the first
 * (base), for every CPU of the documents, within 80 columns. */
int pc_alloc_compare(struct pc_view *v, json_t *const *docs, const char *const *names,
		     unsigned ndocs, const char *base, char *err, size_t errlen);

#endif
