/* SPDX-License-Identifier: MIT */
/* kernel_group.c - the kernel group as run sees it (group.h): --kernel or
 * -p of its rows, the module opened before the run (or the reason it
 * cannot be, which ends the run), its rows measured, filed and shown. */
#include <string.h>

#include "kernel.h"
#include "alloc/alloc.h"
#include "results/group.h"

enum { OPT_KERNEL };

static const struct pc_group_option kernel_options[] = {
	[OPT_KERNEL] = { "kernel", false, true },
	{ NULL, false, false },
};

static int kernel_select(void *opts, const char *probes, char *err, size_t errlen)
{
	return pc_kernel_select(probes, opts, err, errlen);
}

static void kernel_describe(const void *opts, const void *state, json_t *run)
{
	const struct pc_kernel_run *kr = state;

	json_t *k = pc_kernel_config_json(kr->release, kr->preempt, kr->config);
	json_t *cache = json_pack("{s:s, s:i, s:b}", "name", "primcost_kernel", "size",
				  PC_KERNEL_CACHE_BYTES, "merged",
				  (kr->config & PC_KCFG_CACHE_MERGED) != 0);

	(void)opts;
	if (cache && kr->cache_alias[0])
		json_object_set_new(cache, "alias", json_string(kr->cache_alias));
	if (k && kr->kmalloc_max)
		json_object_set_new(k, "kmalloc_max_cache_size", json_integer(kr->kmalloc_max));
	if (k)
		json_object_set_new(k, "module_cache", cache);
	else
		json_decref(cache);
	json_object_set_new(run, "kernel_config", k);
}

/* The remote points first: they have a size and an allocator too. */
static const struct pc_point_shape *const kernel_points[] = { &pc_alloc_remote_shape,
								     &pc_alloc_point_shape,
								     &pc_kernel_threads_shape, NULL };

const struct pc_measurement_group pc_group_kernel = {
	.name = "kernel group",
	.id = "kernel",
	.unit = "row",
	.prefixes = (const char *const[]){ "kernel.", NULL },
	.native_only = true,
	.samples = PC_KERNEL_SAMPLES,
	.help = "\n"
		"The running kernel's own primitives (kernel.*), timed inside it by the\n"
		"primcost_ring0 module:\n"
		"      --kernel          measure the kernel group (also: -p 'kernel.*' ...);\n"
		"                        -n is then samples per row (default "
		PC_STRINGIFY_KERNEL(PC_KERNEL_SAMPLES) ")\n",
	.options = kernel_options,
	.opts_size = sizeof(struct pc_kernel_options),
	.select = kernel_select,
	.state_size = sizeof(struct pc_kernel_run),
	.open = pc_kernel_open,
	.measure = pc_kernel_measure,
	.describe = kernel_describe,
	.probes = pc_kernel_json_probes,
	.show = pc_kernel_show,
	.close = pc_kernel_close,
	.points = kernel_points,
	/* a noisy point is still a figure */
	.point_fails = PC_POINT_FAILS(PC_STATUS_SKIPPED) | PC_POINT_FAILS(PC_STATUS_UNSUPPORTED) |
		       PC_POINT_FAILS(PC_STATUS_FAILED),
	.rows = pc_kernel_point_rows,
};
