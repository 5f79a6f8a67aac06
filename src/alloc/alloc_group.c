/* SPDX-License-Identifier: MIT */
/* alloc_group.c - the allocator group as run sees it (group.h): its options
 * (--alloc, --allocator, --touch), its allocators opened before the run,
 * its points measured, filed and shown. */
#include <string.h>

#include "alloc.h"
#include "results/group.h"

enum { OPT_ALLOC, OPT_ALLOCATOR, OPT_TOUCH };

static const struct pc_group_option alloc_options[] = {
	[OPT_ALLOC] = { "alloc", false },
	[OPT_ALLOCATOR] = { "allocator", true },
	[OPT_TOUCH] = { "touch", false },
	{ NULL, false },
};

static int alloc_option(void *opts, int index, const char *arg, char *err, size_t errlen)
{
	struct pc_alloc_options *a = opts;

	a->on |= index != OPT_TOUCH;
	a->touch |= index == OPT_TOUCH;
	if (index != OPT_ALLOCATOR)
		return 0;
	if (a->allocators) {
		snprintf(err, errlen, "--allocator: give one list, comma-separated");
		return -1;
	}
	a->allocators = arg;
	return pc_allocator_list_check(arg, err, errlen);
}

/* -p of alloc rows only selects the group too; it runs on this machine
 * alone, with its own default samples (alloc.h) unless -n says otherwise. */
static int alloc_finish(void *opts, struct pc_group_args *g, char *err, size_t errlen)
{
	struct pc_alloc_options *a = opts;

	a->argv = g->argv;	/* to run again (alloc.h) */
	if (strcmp(g->probes, "*") != 0 && pc_alloc_list_only(g->probes))
		a->on = true;
	if (!a->on) {
		if (a->touch) {
			snprintf(err, errlen, "--touch goes with the allocator group "
				 "(--alloc, --allocator or -p 'alloc.*')");
			return -1;
		}
		return 0;
	}
	if (g->arch) {
		snprintf(err, errlen, "--arch: the allocator group runs on this machine "
			 "only");
		return -1;
	}
	if (g->events_list) {
		snprintf(err, errlen, "--events: not counted for the allocator group");
		return -1;
	}
	if (!g->samples_given)
		*g->samples = PC_ALLOC_SAMPLES;
	return 0;
}

static bool alloc_chosen(const void *opts)
{
	return ((const struct pc_alloc_options *)opts)->on;
}

static int alloc_select(void *opts, const char *probes, char *err, size_t errlen)
{
	struct pc_alloc_options *a = opts;

	return pc_alloc_select(strcmp(probes, "*") != 0 ? probes : "alloc.*", a->rows,
			       err, errlen);
}

static void alloc_describe(const void *opts, const void *state, json_t *run)
{
	json_object_set_new(run, "alloc", pc_alloc_json_allocators(
		state, ((const struct pc_alloc_options *)opts)->touch));
}

static json_t *alloc_probes(const void *state, const struct pc_profile *prof,
			    const struct pc_clock *clk)
{
	(void)clk;
	return pc_alloc_json_probes(state, prof);
}

const struct pc_measurement_group pc_group_alloc = {
	.name = "allocator group",
	.unit = "points",
	.unit_one = "point",
	.help = "\n"
		"Allocator fast paths (malloc, free, malloc+free by size, 8 .. 16384):\n"
		"      --alloc           measure the allocator group (also: -p 'alloc.*')\n"
		"      --allocator LIST  glibc, jemalloc, tcmalloc, mimalloc (default glibc;\n"
		"                        implies --alloc)\n"
		"      --touch           write the first byte of every block allocated\n",
	.options = alloc_options,
	.option = alloc_option,
	.finish = alloc_finish,
	.chosen = alloc_chosen,
	.select = alloc_select,
	.state_size = sizeof(struct pc_alloc_run),
	.open = pc_alloc_open,
	.measure = pc_alloc_measure,
	.describe = alloc_describe,
	.probes = alloc_probes,
	.show = pc_alloc_show,
	.close = pc_alloc_close,
	.rows = pc_alloc_point_rows,
	.by = "allocator",
	.by_base = true,
	.compare = pc_alloc_compare,
};
