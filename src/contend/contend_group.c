/* SPDX-License-Identifier: MIT */
/* contend_group.c - the contended group as run sees it (group.h): its
 * options (--locks, --threads, --placement, --cpus, --matrix, --window-us),
 * its points planned before the run, measured in windows, filed and shown. */
#include <string.h>

#include "contend.h"
#include "results/group.h"
#include "core/options.h"

enum { OPT_LOCKS, OPT_THREADS, OPT_PLACEMENT, OPT_CPUS, OPT_DATA_LINES, OPT_MATRIX,
       OPT_WINDOW_US };

static const struct pc_group_option contend_options[] = {
	[OPT_LOCKS] = { "locks", false, true },
	[OPT_THREADS] = { "threads", true, true },
	[OPT_PLACEMENT] = { "placement", true, true },
	[OPT_CPUS] = { "cpus", true, true },
	[OPT_DATA_LINES] = { "data-lines", true, true },
	[OPT_MATRIX] = { "matrix", false, true },
	[OPT_WINDOW_US] = { "window-us", true, false },
	{ NULL, false, false },
};

static int contend_option(void *opts, int index, const char *arg, char *err, size_t errlen)
{
	struct pc_contend_options *k = opts;
	int v[PC_CONTEND_THREADS_MAX];
	unsigned n;
	long w;

	switch (index) {
	case OPT_LOCKS:
		return 0;
	case OPT_MATRIX:
		k->matrix = true;
		return 0;
	case OPT_THREADS:
		k->threads = arg;
		return pc_contend_list("--threads", arg, v, 64, &n, err, errlen);
	case OPT_PLACEMENT:
		k->placement = arg;
		return 0;
	case OPT_CPUS:
		k->cpus = arg;
		return pc_contend_list("--cpus", arg, v, PC_CONTEND_THREADS_MAX, &n, err,
				       errlen);
	case OPT_DATA_LINES:
		k->data_lines = arg;
		return pc_contend_list("--data-lines", arg, v, PC_CONTEND_DATA_LINES_MAX + 1,
				       &n, err, errlen);
	default:
		if (pc_opt_long("--window-us", arg, 100, 10000000, "100..10000000", &w,
				err, errlen) < 0)
			return -1;
		k->window_us = (unsigned)w;
		return 0;
	}
}

static int contend_select(void *opts, const char *probes, char *err, size_t errlen)
{
	return pc_contend_select(probes, ((struct pc_contend_options *)opts)->kinds, err,
				 errlen);
}

static const struct pc_point_shape *const contend_points[] = { &pc_contend_point_shape,
								      NULL };

const struct pc_measurement_group pc_group_contend = {
	.name = "contended group",
	.id = "contended",
	.unit = "point",
	.prefixes = (const char *const[]){ "lock.", "contended.", "c2c.", NULL },
	/* 15 windows a point unless -n */
	.native_only = true,
	.samples = PC_CONTEND_SAMPLES,
	.help = "\n"
		"Contended primitives (lock.*, contended.*, c2c.latency), in windows:\n"
		"      --locks           measure the contended group (also: -p 'lock.*' ...);\n"
		"                        -n is then windows per point (default "
		PC_STRINGIFY(PC_CONTEND_SAMPLES) ")\n"
		"      --threads LIST    thread counts (default 1, 2, 4, ... up to the CPUs)\n"
		"      --placement LIST  compact, spread or both (default compact)\n"
		"      --cpus LIST       run the threads on these CPUs, in this order; c2c:\n"
		"                        the first CPU with each other one\n"
		"      --data-lines LIST\n"
		"                        lines of protected data each lock's critical\n"
		"                        section writes, 0.." PC_STRINGIFY(PC_CONTEND_DATA_LINES_MAX)
		" (default " PC_CONTEND_DATA_LINES ";\n"
		"                        the 2014 tables' is 0)\n"
		"      --matrix          c2c between every pair of CPUs: the cost grows as\n"
		"                        CPUs squared (64 CPUs: 2016 pairs)\n"
		"      --window-us US    length of one window (default 1000)\n",
	.options = contend_options,
	.opts_size = sizeof(struct pc_contend_options),
	.option = contend_option,
	.select = contend_select,
	.state_size = sizeof(struct pc_contend_run),
	/* the CPUs allowed are read before run pins its thread */
	.open = pc_contend_plan,
	.measure = pc_contend_measure,
	.describe = pc_contend_describe,
	.probes = pc_contend_json_probes,
	.show = pc_contend_show,
	.close = pc_contend_close,
	.points = contend_points,
	/* a noisy point is still a figure; one not measured is no failure */
	.point_fails = PC_POINT_FAILS(PC_STATUS_FAILED),
	.rows = pc_contend_point_rows,
	.by = "lock",
	.compare = pc_contend_compare,
};
