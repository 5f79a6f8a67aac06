/* SPDX-License-Identifier: MIT */
/* groups.c - the measurement groups run knows (group.h), and the probe
 * table's own: one figure a probe of probes.def, measured by the engine. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "core/select.h"

static int probes_select(void *opts, const char *probes, char *err, size_t errlen)
{
	return pc_select_probes(probes, opts, err, errlen);
}

static int probes_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
			  const struct pc_clock *clk, struct pc_profile *prof, char *err,
			  size_t errlen)
{
	(void)state;
	return pc_profile_run(opts, cfg, clk, prof, err, errlen);
}

static json_t *probes_json(const void *state, const struct pc_profile *prof,
			   const struct pc_clock *clk)
{
	(void)state;
	return pc_json_probes(prof, clk);
}

/* A partial run files only what it measured: a probe it never reached
 * must not replace an earlier figure of that probe. */
static void probes_drop_unmeasured(json_t *probes, const struct pc_profile *prof)
{
	size_t i;

	for (i = 0; i < prof->nprobes; i++)
		if (prof->probes[i].partial && !prof->probes[i].samples)
			json_object_del(probes, pc_probe_rows[prof->probes[i].id].name);
}

/* Its options are the probes selected (o->selected). */
const struct pc_measurement_group pc_group_probes = {
	.name = "probe table",
	.unit = "probes",
	.unit_one = "probe",
	.select = probes_select,
	.measure = probes_measure,
	.probes = probes_json,
	.drop_unmeasured = probes_drop_unmeasured,
};

const struct pc_group_entry pc_groups[] = {
	{ &pc_group_alloc, offsetof(struct pc_run_options, alloc) },
	{ &pc_group_contend, offsetof(struct pc_run_options, contend) },
	{ &pc_group_kernel, offsetof(struct pc_run_options, kernel) },
	{ &pc_group_probes, offsetof(struct pc_run_options, selected) },
	{ NULL, 0 },
};

void *pc_group_options(const struct pc_run_options *o, const struct pc_measurement_group *g)
{
	const struct pc_group_entry *e;

	for (e = pc_groups; e->group; e++)
		if (e->group == g)
			return (char *)o + e->options;
	return NULL;
}

int pc_groups_finish(struct pc_run_options *o, char *err, size_t errlen)
{
	struct pc_group_args args = { o->probes, &o->samples, o->samples_given, o->arch,
				      o->events_list, o->argv };
	const struct pc_group_entry *e;
	void *opts;

	o->group = NULL;
	for (e = pc_groups; e->group; e++) {
		const struct pc_measurement_group *g = e->group;

		opts = (char *)o + e->options;
		if (!e[1].group && !o->group)	/* the default */
			o->group = g;
		else if (g->finish && g->finish(opts, &args, err, errlen) < 0)
			return -1;
		else if (!g->chosen || !g->chosen(opts))
			continue;
		else if (o->group) {
			snprintf(err, errlen, "the %s runs alone, on this machine, without "
				 "the %s", g->name, o->group->name);
			return -1;
		} else {
			o->group = g;
		}
		if (g->select(opts, o->probes, err, errlen) < 0)
			return -1;
	}
	return 0;
}
