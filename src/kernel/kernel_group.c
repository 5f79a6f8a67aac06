/* SPDX-License-Identifier: MIT */
/* kernel_group.c - the kernel group as run sees it (group.h): --kernel or
 * -p of its rows, the module opened before the run (or the reason it
 * cannot be, which ends the run), its rows measured, filed and shown. */
#include <string.h>

#include "kernel.h"
#include "results/group.h"

enum { OPT_KERNEL };

static const struct pc_group_option kernel_options[] = {
	[OPT_KERNEL] = { "kernel", false },
	{ NULL, false },
};

static int kernel_option(void *opts, int index, const char *arg, char *err, size_t errlen)
{
	(void)index;
	(void)arg;
	(void)err;
	(void)errlen;
	((struct pc_kernel_options *)opts)->on = true;
	return 0;
}

/* Chosen by --kernel or by -p of its rows only; on this machine alone. */
static int kernel_finish(void *opts, struct pc_group_args *g, char *err, size_t errlen)
{
	struct pc_kernel_options *k = opts;

	k->on |= strcmp(g->probes, "*") != 0 && pc_kernel_list_only(g->probes);
	if (!k->on)
		return 0;
	if (g->arch || g->events_list) {
		snprintf(err, errlen, "the kernel group runs alone, on this machine, "
			 "without %s", g->arch ? "--arch" : "--events");
		return -1;
	}
	if (!g->samples_given)
		*g->samples = PC_KERNEL_SAMPLES;
	return 0;
}

static bool kernel_chosen(const void *opts)
{
	return ((const struct pc_kernel_options *)opts)->on;
}

static int kernel_select(void *opts, const char *probes, char *err, size_t errlen)
{
	return pc_kernel_select(strcmp(probes, "*") != 0 ? probes : "kernel.*", opts, err,
				errlen);
}

static void kernel_describe(const void *opts, const void *state, json_t *run)
{
	const struct pc_kernel_run *kr = state;

	(void)opts;
	json_object_set_new(run, "kernel_config", pc_kernel_config_json(kr->release, kr->preempt,
								 kr->config));
}

static json_t *kernel_probes(const void *state, const struct pc_profile *prof,
			     const struct pc_clock *clk)
{
	(void)clk;
	return pc_kernel_json_probes(state, prof);
}

const struct pc_measurement_group pc_group_kernel = {
	.name = "kernel group",
	.unit = "rows",
	.unit_one = "row",
	.help = "\n"
		"The running kernel's own primitives (kernel.*), timed inside it by the\n"
		"primcost_ring0 module:\n"
		"      --kernel          measure the kernel group (also: -p 'kernel.*' ...);\n"
		"                        -n is then samples per row (default "
		PC_STRINGIFY_KERNEL(PC_KERNEL_SAMPLES) ")\n",
	.options = kernel_options,
	.option = kernel_option,
	.finish = kernel_finish,
	.chosen = kernel_chosen,
	.select = kernel_select,
	.state_size = sizeof(struct pc_kernel_run),
	.open = pc_kernel_open,
	.measure = pc_kernel_measure,
	.describe = kernel_describe,
	.probes = kernel_probes,
	.show = pc_kernel_show,
	.close = pc_kernel_close,
	.rows = pc_kernel_point_rows,
};
