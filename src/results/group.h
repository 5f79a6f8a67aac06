/* SPDX-License-Identifier: MIT */
/*
 * group.h - the interface every measurement group implements.
 *
 * A group is a set of rows measured its own way: the probe table
 * (probes.def, one figure a probe; src/run/groups.c), the allocator group
 * (src/alloc/, points by size and allocator), the contended group
 * (src/contend/, points by threads and placement), the kernel group
 * (src/kernel/, the running kernel's own primitives). run (src/run/) parses
 * the options, gives each group its own, and then measures, files and
 * shows through the group chosen. A group sees its own options and state
 * and what run passes it, never run's structures: a new group is a folder
 * with one of these, and a line in run's registry (src/run/groups.c).
 */
#ifndef PC_GROUP_H
#define PC_GROUP_H

#include <stdbool.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/measure.h"
#include "report.h"
#include "results.h"

/* One of a group's long options: its name and whether it takes a value.
 * option() is given its index in the group's list. */
struct pc_group_option {
	const char *name;
	bool has_arg;
};

/* What run's own options say that a group checks itself against. */
struct pc_group_args {
	const char *probes;		/* -p as given; "*" when not */
	unsigned *samples;		/* -n: a group may lower the default */
	bool samples_given;		/* -n given */
	const char *arch;		/* --arch, or NULL */
	const char *events_list;	/* -e, or NULL */
	char **argv;			/* the run command's, to run it again */
};

struct pc_measurement_group {
	const char *name;		/* in errors: "allocator group" */
	const char *unit;		/* what run's last line counts: "points" */
	const char *unit_one;		/* one of them: "point" */
	/* Its section of run's help (NULL: none) and its long options
	 * (NULL-named end), which option() takes by index into opts (the
	 * group's options, as run's registry places them). */
	const char *help;
	const struct pc_group_option *options;
	int (*option)(void *opts, int index, const char *arg, char *err, size_t errlen);
	/* After every option: chosen or not (its options, or -p of its rows
	 * only) and its combinations checked; -1 with err (NULL: nothing to
	 * check). Then, for the group chosen, its rows selected; -1 with err. */
	int (*finish)(void *opts, struct pc_group_args *a, char *err, size_t errlen);
	bool (*chosen)(const void *opts);
	int (*select)(void *opts, const char *probes, char *err, size_t errlen);
	/* Before the thread is pinned: what the group needs opened or
	 * planned (allocators loaded, CPUs chosen) into state, state_size
	 * bytes that run allocates zeroed and frees after close; -1 with err
	 * (close is called either way). NULL: no state. */
	size_t state_size;
	int (*open)(const void *opts, void *state, char *err, size_t errlen);
	/* Measures every row or point into prof; -1 with err. */
	int (*measure)(const void *opts, void *state, const struct pc_measure_config *cfg,
		       const struct pc_clock *clk, struct pc_profile *prof, char *err,
		       size_t errlen);
	/* Adds what the group records about the run to run (NULL: nothing). */
	void (*describe)(const void *opts, const void *state, json_t *run);
	/* The probes object of the result. */
	json_t *(*probes)(const void *state, const struct pc_profile *prof,
			  const struct pc_clock *clk);
	/* A partial run's probes without the rows it never reached (NULL:
	 * the group files every point it planned). */
	void (*drop_unmeasured)(json_t *probes, const struct pc_profile *prof);
	/* Shows a run's document in the view's format, not JSON (NULL: the
	 * probe table's view, pc_report_verbose). */
	int (*show)(struct pc_view *v, json_t *doc);
	void (*close)(void *state);
	/* ---- what list and compare ask of it, with no run ---- */
	/* Its rows measured at points, as list shows them, *n set (NULL: the
	 * probe table's, which list takes from probes.def). */
	const struct pc_point_row *(*rows)(size_t *n);
	/* compare --by BY: its own view of the files side by side, in any
	 * format of a view (NULL: none); base is --base, which goes only with
	 * a group whose by_base is set (NULL when not given). */
	const char *by;
	bool by_base;
	int (*compare)(struct pc_view *v, json_t *const *docs, const char *const *names,
		       unsigned ndocs, const char *base, char *err, size_t errlen);
};

extern const struct pc_measurement_group pc_group_probes, pc_group_alloc, pc_group_contend,
	pc_group_kernel;

#endif
