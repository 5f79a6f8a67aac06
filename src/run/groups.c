/* SPDX-License-Identifier: MIT */
/* groups.c - the measurement groups run knows: those of groups.def, then
 * the probe table's own (one figure a probe of probes.def, measured by the
 * engine); which one a run's options choose, written once for every
 * group. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "core/select.h"
#include "core/util.h"

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
	.unit = "probe",
	.select = probes_select,
	.measure = probes_measure,
	.probes = probes_json,
	.drop_unmeasured = probes_drop_unmeasured,
};

#define PC_GROUP(name) extern const struct pc_measurement_group pc_group_##name;
#include "results/groups.def"
#undef PC_GROUP

#define PC_GROUP(name) &pc_group_##name,
const struct pc_measurement_group *const pc_groups[] = {
#include "results/groups.def"
	&pc_group_probes, NULL
};
#undef PC_GROUP

_Static_assert(PC_ARRAY_LEN(pc_groups) - 2 <= PC_GROUPS_MAX,
	       "more groups in groups.def than run's PC_GROUPS_MAX");

size_t pc_groups_count(void)
{
	return PC_ARRAY_LEN(pc_groups) - 1;
}

/* Where g is in pc_groups. */
static size_t group_index(const struct pc_measurement_group *g)
{
	size_t i;

	for (i = 0; pc_groups[i] && pc_groups[i] != g; i++)
		;
	return i;
}

void *pc_group_options(const struct pc_run_options *o, const struct pc_measurement_group *g)
{
	if (g == &pc_group_probes)
		return (void *)o->selected;
	return (void *)o->choice[group_index(g)].opts;
}

int pc_group_option(struct pc_run_options *o, const struct pc_measurement_group *g,
		    int index, const char *arg, char *err, size_t errlen)
{
	struct pc_group_choice *c = &o->choice[group_index(g)];

	if (g->options[index].chooses)
		c->on = true;
	else if (!c->alone)
		c->alone = g->options[index].name;
	return g->option ? g->option(c->opts, index, arg, err, errlen) : 0;
}

/* The first of g's options that choose it and its first rows, for an
 * error: "--locks or -p 'lock.*'". */
static void choose_hint(const struct pc_measurement_group *g, char *buf, size_t len)
{
	const struct pc_group_option *opt;

	for (opt = g->options; opt->name && !opt->chooses; opt++)
		;
	snprintf(buf, len, "--%s or -p '%s*'", opt->name ? opt->name : "",
		 g->prefixes[0]);
}

/* Whether group g (at i) is chosen, and what goes with it checked. */
static int choose(struct pc_run_options *o, size_t i, char *err, size_t errlen)
{
	const struct pc_measurement_group *g = pc_groups[i];
	struct pc_group_choice *c = &o->choice[i];
	char hint[128];

	if (g->opts_size > sizeof(c->opts)) {
		snprintf(err, errlen, "the %s's options take %zu bytes, more than run "
			 "keeps (%d)", g->name, g->opts_size, PC_GROUP_OPTIONS_MAX);
		return -1;
	}
	c->on |= strcmp(o->probes, "*") != 0 && pc_group_list_only(g, o->probes);
	if (!c->on) {
		if (!c->alone)
			return 0;
		choose_hint(g, hint, sizeof(hint));
		snprintf(err, errlen, "--%s goes with the %s (%s)", c->alone, g->name, hint);
		return -1;
	}
	if (g->native_only && (o->arch || o->events_list)) {
		snprintf(err, errlen, "the %s runs alone, on this machine, without %s",
			 g->name, o->arch ? "--arch" : "--events");
		return -1;
	}
	if (o->group) {
		snprintf(err, errlen, "the %s runs alone, on this machine, without the %s",
			 g->name, o->group->name);
		return -1;
	}
	o->group = g;
	return 1;
}

int pc_groups_finish(struct pc_run_options *o, char *err, size_t errlen)
{
	struct pc_group_args args = { o->argv };
	const struct pc_measurement_group *g;
	char list[128];
	size_t i;
	void *opts;
	int rc;

	o->group = NULL;
	for (i = 0; pc_groups[i] != &pc_group_probes; i++)
		if (choose(o, i, err, errlen) < 0)
			return -1;
	if (!o->group) {
		o->group = &pc_group_probes;
		return pc_select_probes(o->probes, o->selected, err, errlen) < 0 ? -1 : 0;
	}
	g = o->group;
	i = group_index(g);
	opts = o->choice[i].opts;
	if (g->finish && g->finish(opts, &args, err, errlen) < 0)
		return -1;
	if (g->samples && !o->samples_given)
		o->samples = g->samples;
	rc = g->select(opts, strcmp(o->probes, "*") != 0 ? o->probes :
		       pc_group_default_list(g, list, sizeof(list)), err, errlen);
	if (rc < 0)
		return -1;
	o->choice[i].rows = rc;
	return 0;
}
