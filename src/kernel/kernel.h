/* SPDX-License-Identifier: MIT */
/*
 * kernel.h - the kernel group: the running kernel's own primitives, timed
 * inside it by the kernel module (runner/kmod/pc_kernel.c) through its
 * second ioctl, rows kernel.*. The entries (runner/kmod/pc_kernel.h), the
 * kmalloc patterns by size as points (kernel.kmalloc, kernel.kfree,
 * kernel.kmalloc_kfree, as the allocator group's), and the contended spin
 * lock on kernel threads (kernel.spin_lock_unlock.contended, points by
 * threads). What the kernel's configuration says of the figures
 * (kernel_config.c) goes with each: the options that inflate a figure
 * are named beside it.
 */
#ifndef PC_KERNEL_GROUP_H
#define PC_KERNEL_GROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "alloc/alloc.h"
#include "core/clock.h"
#include "core/measure.h"
#include "results/report.h"
#include "runner/kmod/pc_kernel.h"
#include "runner/kmod/pc_kmod.h"

/* The contended row, and its windows: length, how many a point. */
#define PC_KERNEL_CONTENDED	"kernel.spin_lock_unlock.contended"
#define PC_KERNEL_WINDOW_US	1000
#define PC_KERNEL_WINDOWS	15
/* The default samples a row (run -n): the kernel's entries under an
 * emulator cost a thousand times what they do on a CPU. */
#define PC_KERNEL_SAMPLES	21
#define PC_KERNEL_SIZES		12	/* 8 .. 16384 bytes */
/* The 2007 pattern's batch: this many kmalloc()s, then their kfree()s. */
#define PC_KERNEL_BATCH		PC_KERNEL_BATCH_MAX
/* The remote pattern's sample: this many batches of PC_KERNEL_REMOTE_OBJS. */
#define PC_KERNEL_REMOTE_BATCHES	16
/* Where the kernel's switches are read: / (tests give a tree of their own). */
#define PC_KERNEL_ROOT		""
#define PC_KSTR_(x)		#x
#define PC_STRINGIFY_KERNEL(x)	PC_KSTR_(x)	/* a constant in text */

/* ---- kernel_config.c: what the configuration says (pure) ------------------ */

/* The words of the options on in config (PC_KCFG_* bits) that inflate an
 * entry touching `touches` (PC_KT_* bits), comma-separated into buf
 * ("lockdep, init_on_alloc"); "" when none. Returns buf. */
const char *pc_kernel_inflated_by(uint64_t config, unsigned touches, char *buf, size_t len);
/* Every inflating option on in config, as words, into a JSON array. */
json_t *pc_kernel_inflating_json(uint64_t config);
/* "none", "voluntary", "full", "rt" or "unknown". */
const char *pc_kernel_preempt_name(uint32_t model);
/* The spin lock as built: "queued", "queued, paravirt" or "generic"; under
 * PREEMPT_RT (preempt PC_KPREEMPT_RT) "rt_mutex", the raw lock's form after. */
const char *pc_kernel_spinlock_name(uint32_t preempt, uint64_t config);
/* The run's "kernel" object: release, preemption, paravirt, spin lock,
 * each option's state, the inflating ones. */
json_t *pc_kernel_config_json(const char *release, uint32_t preempt, uint64_t config);
/* slub_debug on a cache: any of sanity_checks, red_zone, poison,
 * store_user reads 1 in dir (/sys/kernel/slab/CACHE). */
bool pc_kernel_slub_debug_on(const char *dir);
/* What the module cannot see, read under root ("" for /): slub_debug on
 * any cache timed (kmalloc-8 .. kmalloc-KMALLOC_MAX, the module's own),
 * the module's cache merged (its name a link to an alias: the alias in
 * alias), KFENCE sampling, allocation profiling on. PC_KCFG_* bits. */
uint64_t pc_kernel_config_read(const char *root, unsigned kmalloc_max, char *alias,
			       size_t len);
/* What serves kmalloc(size): "page allocator, order N" above the largest
 * kmalloc cache (kmalloc_max), else "slab cache"; NULL (nothing written)
 * where kmalloc_max is not known (0: a result of before). */
const char *pc_kernel_served_by(unsigned size, unsigned kmalloc_max, unsigned page_shift,
				char *buf, size_t len);

/* ---- kernel.c: the group ---------------------------------------------------- */

/* A row: an entry (and a size, and a pair of CPUs), or a contended point
 * (threads). */
struct pc_kernel_row {
	int entry;		/* enum pc_kernel_entry; -1: contended */
	unsigned size;		/* kmalloc entries */
	int pair;		/* remote: index into the run's pairs; -1: none */
	unsigned long objects;	/* remote: handed over */
	unsigned long freed;	/* remote: kfree()d on the far CPU */
	unsigned threads;	/* contended */
	uint64_t nulls;		/* allocations that returned NULL */
	bool check_failed;
};

/* The group (kernel_group.c), and its contended lock's points: threads on
 * the first CPUs (group.h). */
extern const struct pc_measurement_group pc_group_kernel;
extern const struct pc_point_shape pc_kernel_threads_shape;

struct pc_kernel_options {
	bool entries[PC_KE_COUNT];
	bool contended;
};

struct pc_kernel_run {
	int fd;			/* the module's device */
	bool loaded;		/* primcost loaded it */
	void *kmod;		/* the ring-0 way's handle */
	struct pc_kernel_row *rows;	/* [prof.nprobes] */
	size_t nrows;
	uint64_t config;
	uint32_t preempt;
	uint32_t kmalloc_max;	/* KMALLOC_MAX_CACHE_SIZE */
	uint32_t page_shift;
	char cache_alias[64];	/* the module's cache merged into this, or "" */
	/* the remote rows' pairs of CPUs (the allocator group's), or why
	 * there are none */
	struct pc_alloc_pair pairs[PC_ALLOC_PAIRS];
	unsigned npairs;
	char no_pairs[160];
	char release[65];
	unsigned online;	/* CPUs the contended points may use */
};

/* Each entry's row name ("kernel." and its name, as pc_kernel.h lists
 * them), then the contended row's, PC_KERNEL_CONTENDED; what touches the
 * entries. */
extern const char *const pc_kernel_row_names[PC_KE_COUNT + 1];
extern const unsigned pc_kernel_entry_touches[PC_KE_COUNT];
extern const char *const pc_kernel_entry_twins[PC_KE_COUNT];
extern const char *const pc_kernel_entry_whats[PC_KE_COUNT];

/* Marks the rows a -p list names: how many; -1 (err) when a token
 * matches no row. */
int pc_kernel_select(const char *list, struct pc_kernel_options *o, char *err, size_t errlen);
int pc_kernel_open(const void *opts, void *state, char *err, size_t errlen);
void pc_kernel_close(void *state);
int pc_kernel_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
		      const struct pc_clock *clk, struct pc_profile *prof, char *err,
		      size_t errlen);
json_t *pc_kernel_json_probes(const void *state, const struct pc_profile *prof,
			      const struct pc_clock *clk);

/* ---- kernel_view.c: shown --------------------------------------------------- */

int pc_kernel_show(struct pc_view *v, json_t *doc);
struct pc_point_row;
const struct pc_point_row *pc_kernel_point_rows(size_t *n);

#endif
