/* SPDX-License-Identifier: MIT */
/* alloc_group.c - the allocator group as run sees it (group.h): its options
 * (--alloc, --allocator, --touch), its allocators opened before the run,
 * its points measured, filed and shown. */
#include <string.h>

#include "alloc.h"
#include "results/group.h"

enum { OPT_ALLOC, OPT_ALLOCATOR, OPT_TOUCH, OPT_REMOTE };

static const struct pc_group_option alloc_options[] = {
	[OPT_ALLOC] = { "alloc", false, true },
	[OPT_ALLOCATOR] = { "allocator", true, true },
	[OPT_TOUCH] = { "touch", false, false },
	[OPT_REMOTE] = { "remote", false, true },
	{ NULL, false, false },
};

static int alloc_option(void *opts, int index, const char *arg, char *err, size_t errlen)
{
	struct pc_alloc_options *a = opts;

	a->touch |= index == OPT_TOUCH;
	a->remote |= index == OPT_REMOTE;
	if (index != OPT_ALLOCATOR)
		return 0;
	if (a->allocators) {
		snprintf(err, errlen, "--allocator: give one list, comma-separated");
		return -1;
	}
	a->allocators = arg;
	return pc_allocator_list_check(arg, err, errlen);
}

/* The command, to run it again with room for an allocator's TLS. */
static int alloc_finish(void *opts, const struct pc_group_args *g, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	((struct pc_alloc_options *)opts)->argv = g->argv;
	return 0;
}

static int alloc_select(void *opts, const char *probes, char *err, size_t errlen)
{
	struct pc_alloc_options *o = opts;
	int n = pc_alloc_select(probes, o->rows, err, errlen);

	/* --remote: the remote pattern's rows besides those selected */
	if (n >= 0 && o->remote) {
		n += !o->rows[PC_ALLOC_REMOTE_MALLOC] + !o->rows[PC_ALLOC_REMOTE_FREE];
		o->rows[PC_ALLOC_REMOTE_MALLOC] = o->rows[PC_ALLOC_REMOTE_FREE] = true;
	}
	return n;
}

/* The remote points first: they have a size and an allocator too. */
static const struct pc_point_shape *const alloc_points[] = { &pc_alloc_remote_shape,
							     &pc_alloc_point_shape, NULL };

const struct pc_measurement_group pc_group_alloc = {
	.name = "allocator group",
	.id = "alloc",
	.unit = "point",
	.prefixes = (const char *const[]){ "alloc.", NULL },
	.native_only = true,
	.samples = PC_ALLOC_SAMPLES,
	.help = "\n"
		"Allocator fast paths (malloc, free, malloc+free by size, 8 .. 16384):\n"
		"      --alloc           measure the allocator group (also: -p 'alloc.*')\n"
		"      --allocator LIST  glibc, jemalloc, tcmalloc, mimalloc (default glibc;\n"
		"                        implies --alloc)\n"
		"      --touch           write the first byte of every block allocated\n"
		"      --remote          also the remote pattern: allocated on one CPU, freed\n"
		"                        on another (alloc.remote.*), at each placement\n",
	.options = alloc_options,
	.opts_size = sizeof(struct pc_alloc_options),
	.option = alloc_option,
	.finish = alloc_finish,
	.select = alloc_select,
	.state_size = sizeof(struct pc_alloc_run),
	.open = pc_alloc_open,
	.measure = pc_alloc_measure,
	.describe = pc_alloc_describe,
	.probes = pc_alloc_json_probes,
	.show = pc_alloc_show,
	.close = pc_alloc_close,
	.points = alloc_points,
	/* a noisy point, or one not measured, is no figure of the allocator */
	.point_fails = PC_POINT_FAILS(PC_STATUS_SKIPPED) | PC_POINT_FAILS(PC_STATUS_UNSUPPORTED) |
		       PC_POINT_FAILS(PC_STATUS_FAILED) | PC_POINT_FAILS(PC_STATUS_NOISY),
	.rows = pc_alloc_point_rows,
	.by = "allocator",
	.by_base = true,
	.compare = pc_alloc_compare,
};
