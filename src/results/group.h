/* SPDX-License-Identifier: MIT */
/*
 * group.h - the interface every measurement group implements.
 *
 * A group is a set of rows measured its own way: the probe table
 * (probes.def, one figure a probe; src/run/groups.c) and the groups of
 * groups.def, each a folder of src/ (the allocator group, src/alloc/,
 * points by size and allocator; the contended group, src/contend/, points
 * by threads and placement; the kernel group, src/kernel/, the running
 * kernel's own primitives). run (src/run/) parses the options, gives each
 * group its own, and then measures, files and shows through the group
 * chosen; the validator, compare and the report read a group's points
 * through the shapes it declares here. A group sees its own options and
 * state and what run passes it, never run's structures: a new group is a
 * folder with one of these, pc_group_NAME, and its line in groups.def.
 */
#ifndef PC_GROUP_H
#define PC_GROUP_H

#include <stdbool.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/measure.h"
#include "report.h"
#include "results.h"

/* One of a group's long options: its name, whether it takes a value, and
 * whether giving it chooses the group (one that does not only goes with
 * it: run refuses it alone). option() is given its index in the list. */
struct pc_group_option {
	const char *name;
	bool has_arg;
	bool chooses;
};

/* What run's own options say that a group may need. */
struct pc_group_args {
	char **argv;			/* the run command's, to run it again */
};

/* The shape of a point of a probe measured at several points (a size and
 * an allocator; threads on CPUs): the key only its points have, what its
 * series run over, its own checks and how its point is named as a row. */
struct pc_point_shape {
	const char *key;		/* "size", "threads" */
	/* The x axis of its series in a chart's words ("size", "threads"),
	 * its title ("size (bytes)"), and what stands before x at the end of
	 * a point's row name: "threads" for NAME.threads4, "" for NAME.64. */
	const char *xword;
	const char *xtitle;
	const char *xtag;
	/* The point's own keys checked (the probe's figures are checked
	 * apart); -1 with err naming where. */
	int (*check)(json_t *pt, const char *where, char *err, size_t errlen);
	/* The point's row name: the probe's name and the keys that tell its
	 * points apart, x last (alloc.malloc.glibc.64); snprintf's count. */
	int (*name)(char *buf, size_t len, const char *probe, json_t *pt);
};

struct pc_measurement_group {
	const char *name;		/* in errors: "allocator group" */
	/* What its probes' "group" says in a result ("alloc"; NULL: the
	 * probe table, whose rows say their own). */
	const char *id;
	const char *unit;		/* what run's last line counts: "point", "points" */
	/* The prefixes of its rows' names, NULL-ended ("alloc."): -p of
	 * these only chooses the group, and their every row is its default. */
	const char *const *prefixes;
	/* It runs alone, on this machine, without --arch or --events; -n is
	 * then samples (or windows) a row or point, samples by default. */
	bool native_only;
	unsigned samples;
	/* Its section of run's help (NULL: none) and its long options
	 * (NULL-named end), which option() takes by index into opts (NULL:
	 * they only choose the group): the group's options, opts_size bytes
	 * (at most PC_GROUP_OPTIONS_MAX), zeroed before the first. */
	const char *help;
	const struct pc_group_option *options;
	size_t opts_size;
	int (*option)(void *opts, int index, const char *arg, char *err, size_t errlen);
	/* For the group chosen: what it needs of run's options, and its
	 * options' combinations checked (NULL: nothing); -1 with err. Then its
	 * rows chosen by a -p list: how many, or -1 with err. */
	int (*finish)(void *opts, const struct pc_group_args *a, char *err, size_t errlen);
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
	/* ---- what a result's reader asks of it ---- */
	/* The shapes of its points, NULL-ended (NULL: no points), and the
	 * statuses of a point that count as failed for its row, as bits
	 * PC_POINT_FAILS(status): a row whose every point failed has failed. */
	const struct pc_point_shape *const *points;
	unsigned point_fails;
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

#define PC_POINT_FAILS(status) (1u << (status))
/* The most bytes a group's options take (run keeps them in a slot). */
#define PC_GROUP_OPTIONS_MAX 256

/* The groups, NULL-ended: those of groups.def in its order, then the
 * probe table (src/run/), measured when no other is chosen. Defined by
 * run's registry (src/run/groups.c); the layers below run read the
 * groups' declarations through this, never a group's own header. */
extern const struct pc_measurement_group *const pc_groups[];
/* How many there are, the probe table included. */
size_t pc_groups_count(void);

/* ---- points (group.c) ------------------------------------------------------------ */

/* The shape of point pt of a probe whose "group" is id (NULL or unknown:
 * any group's whose key pt has); NULL when it has none. */
const struct pc_point_shape *pc_point_shape(const char *id, json_t *pt);
/* The keys that tell the shapes of group id's points apart, ", "
 * between two (NULL or unknown: every group's), in buf. */
const char *pc_point_keys(const char *id, char *buf, size_t len);
/* A probe row of group g measured at points, as it is gathered: its
 * points (NULL until the first), and how many of them failed. */
struct pc_points {
	json_t *points;
	size_t failed;
};
/* Point pt (taken, as json_pack's "o") of status s added to row pp. */
void pc_points_add(struct pc_points *pp, const struct pc_measurement_group *g, json_t *pt,
		   enum pc_status s);
/* Row pp as probe name of probes, when it has points: its status from
 * theirs (failed when every point failed, with a reason when some did),
 * ring, group, unit, extra's keys (NULL: none; taken), then the points;
 * pp emptied. */
void pc_points_file(json_t *probes, const char *name, struct pc_points *pp,
		    const struct pc_measurement_group *g, int ring, const char *unit,
		    json_t *extra);
/* The rows of a -p list that are all group g's (its prefixes only)? */
bool pc_group_list_only(const struct pc_measurement_group *g, const char *list);
/* g's rows all: its prefixes each with "*", comma-separated, in buf. */
const char *pc_group_default_list(const struct pc_measurement_group *g, char *buf,
				  size_t len);

#endif
