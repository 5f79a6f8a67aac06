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
	[OPT_LOCKS] = { "locks", false },
	[OPT_THREADS] = { "threads", true },
	[OPT_PLACEMENT] = { "placement", true },
	[OPT_CPUS] = { "cpus", true },
	[OPT_DATA_LINES] = { "data-lines", true },
	[OPT_MATRIX] = { "matrix", false },
	[OPT_WINDOW_US] = { "window-us", true },
	{ NULL, false },
};

/* Each option but --window-us selects the group. */
static int contend_option(void *opts, int index, const char *arg, char *err, size_t errlen)
{
	struct pc_contend_options *k = opts;
	int v[PC_CONTEND_THREADS_MAX];
	unsigned n;
	long w;

	switch (index) {
	case OPT_LOCKS:
	case OPT_MATRIX:
		k->matrix |= index == OPT_MATRIX;
		k->on |= index == OPT_LOCKS;
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

/* Chosen by its options or by -p of its rows only; on this machine alone,
 * 15 windows a point unless -n. */
static int contend_finish(void *opts, struct pc_group_args *g, char *err, size_t errlen)
{
	struct pc_contend_options *k = opts;

	k->on = k->matrix || k->threads || k->placement || k->cpus || k->data_lines || k->on ||
		(strcmp(g->probes, "*") != 0 && pc_contend_list_only(g->probes));
	if (!k->on) {
		if (k->window_us) {
			snprintf(err, errlen, "--window-us goes with the contended "
				 "group (--locks or -p 'lock.*')");
			return -1;
		}
		return 0;
	}
	if (g->arch || g->events_list) {
		snprintf(err, errlen, "the contended group runs alone, on this machine, "
			 "without %s", g->arch ? "--arch" : "--events");
		return -1;
	}
	if (!g->samples_given)
		*g->samples = PC_CONTEND_SAMPLES;
	return 0;
}

static bool contend_chosen(const void *opts)
{
	return ((const struct pc_contend_options *)opts)->on;
}

static int contend_select(void *opts, const char *probes, char *err, size_t errlen)
{
	struct pc_contend_options *k = opts;

	return pc_contend_select(strcmp(probes, "*") != 0 ? probes :
				 "lock.*,contended.*,c2c.*", k->kinds, err, errlen);
}

static int contend_measure(const void *opts, void *state,
			   const struct pc_measure_config *cfg, const struct pc_clock *clk,
			   struct pc_profile *prof, char *err, size_t errlen)
{
	(void)opts;
	return pc_contend_measure(state, cfg, clk, prof, err, errlen);
}

static void contend_describe(const void *opts, const void *state, json_t *run)
{
	(void)opts;
	json_object_set_new(run, "contend", pc_contend_json_run(state));
}

static json_t *contend_probes(const void *state, const struct pc_profile *prof,
			      const struct pc_clock *clk)
{
	(void)clk;
	return pc_contend_json_probes(state, prof);
}

const struct pc_measurement_group pc_group_contend = {
	.name = "contended group",
	.unit = "points",
	.unit_one = "point",
	.help = "\n"
		"Contended primitives (lock.*, contended.*, c2c.latency), in windows:\n"
		"      --locks           measure the contended group (also: -p 'lock.*' ...);\n"
		"                        -n is then windows per point (default "
		PC_STRINGIFY(PC_CONTEND_SAMPLES) ")\n"
		"      --threads LIST    thread counts (default 1, 2, 4, ... up to the CPUs)\n"
		"      --placement LIST  compact, spread or both (default compact)\n"
		"      --cpus LIST       run the threads on these CPUs, in this order; c2c:\n"
		"                        the first CPU with each other one\n"
		"      --data-lines LIST lines of protected data each lock's critical\n"
		"                        section writes, 0.." PC_STRINGIFY(PC_CONTEND_DATA_LINES_MAX)
		" (default " PC_CONTEND_DATA_LINES ";\n"
		"                        the 2014 tables' is 0)\n"
		"      --matrix          c2c between every pair of CPUs: the cost grows as\n"
		"                        CPUs squared (64 CPUs: 2016 pairs)\n"
		"      --window-us US    length of one window (default 1000)\n",
	.options = contend_options,
	.option = contend_option,
	.finish = contend_finish,
	.chosen = contend_chosen,
	.select = contend_select,
	.state_size = sizeof(struct pc_contend_run),
	/* the CPUs allowed are read before run pins its thread */
	.open = pc_contend_plan,
	.measure = contend_measure,
	.describe = contend_describe,
	.probes = contend_probes,
	.show = pc_contend_show,
	.close = pc_contend_close,
	.rows = pc_contend_point_rows,
	.by = "lock",
	.compare = pc_contend_compare,
};
