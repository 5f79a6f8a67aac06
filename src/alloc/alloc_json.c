/* SPDX-License-Identifier: MIT */
/*
 * alloc_json.c - the allocator group's results (alloc.h): three probes,
 * alloc.malloc, alloc.free and alloc.malloc_free, each with points[] by
 * size and allocator.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "results/report.h"
#include "results/group.h"
#include "results/results.h"
#include "core/util.h"

static json_t *point_json(const struct pc_alloc_run *ar, size_t i,
			  const struct pc_probe_result *r)
{
	const struct pc_alloc_point *pt = &ar->points[i];
	json_t *p = json_pack("{s:I, s:s, s:s}", "size", (json_int_t)pt->size,
			      "allocator", ar->alloc[pt->allocator].name,
			      "status", pc_status_name(r->status));

	if (!p)
		return NULL;
	if (pt->pair >= 0) {
		const struct pc_alloc_pair *pair = &ar->pairs[pt->pair];
		char cpus[32];

		snprintf(cpus, sizeof(cpus), "%d,%d", pair->cpus[0], pair->cpus[1]);
		json_object_set_new(p, "placement", json_string(pair->placement));
		json_object_set_new(p, "cpus", json_string(cpus));
		json_object_set_new(p, "class", json_string(pair->cls));
		if (pt->objects) {
			json_object_set_new(p, "objects", json_integer((json_int_t)pt->objects));
			json_object_set_new(p, "freed_far", json_integer((json_int_t)pt->counted));
		}
	}
	if (!pc_json_outcome(p, r))
		return p;
	pc_json_figures(p, r);
	if (ar->dist && ar->dist[i].calls)
		json_object_set_new(p, "latency", pc_alloc_dist_json(&ar->dist[i]));
	json_object_set_new(p, "discarded", pc_json_discarded(&r->events));
	if (r->raw_ticks && r->raw_cycles)
		json_object_set_new(p, "raw", json_pack("{s:o, s:o}", "ticks",
				    pc_json_values(r->raw_ticks, r->samples), "cycles",
				    pc_json_values(r->raw_cycles, r->samples)));
	return p;
}

json_t *pc_alloc_json_probes(const void *state, const struct pc_profile *prof,
			     const struct pc_clock *clk)
{
	const struct pc_alloc_run *ar = state;
	json_t *probes = json_object();
	unsigned row;
	size_t i;

	(void)clk;

	for (row = 0; probes && row < PC_ALLOC_ROWS; row++) {
		struct pc_points pp = { NULL, 0 };

		if (!ar->rows[row])
			continue;
		for (i = 0; i < prof->nprobes; i++)
			if (ar->points[i].pattern == row)
				pc_points_add(&pp, &pc_group_alloc, point_json(ar, i, &prof->probes[i]),
					      prof->probes[i].status);
		pc_points_file(probes, pc_alloc_rows[row], &pp, &pc_group_alloc, 3, "per call",
			       json_pack("{s:b}", "touch", ar->touch));
	}
	return probes;
}

void pc_alloc_describe(const void *opts, const void *state, json_t *run)
{
	const struct pc_alloc_run *ar = state;
	bool touch = ((const struct pc_alloc_options *)opts)->touch;
	json_t *list = json_array();
	unsigned i;

	for (i = 0; list && i < ar->nalloc; i++)
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s}",
				      "name", ar->alloc[i].name,
				      "version", ar->alloc[i].version,
				      "library", ar->alloc[i].library,
				      "package", ar->alloc[i].package));
	json_object_set_new(run, "alloc", json_pack("{s:o, s:b}", "allocators", list,
						    "touch", touch));
}

bool pc_alloc_has_points(json_t *p)
{
	return json_is_array(json_object_get(p, "points"));
}

/* ---- its points' shape (group.h) ------------------------------------------------ */

/* A size and the allocator that served it (the kernel group's kmalloc too). */
static int point_check(json_t *pt, const char *where, char *err, size_t errlen)
{
	json_t *v = json_object_get(pt, "size");

	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return pc_fail(err, errlen, "%s.size: missing or not a positive integer", where);
	v = json_object_get(pt, "allocator");
	if (!json_is_string(v) || !pc_name_ok(json_string_value(v), PC_LIMIT_NAME))
		return pc_fail(err, errlen, "%s.allocator: missing or not a name", where);
	return 0;
}

/* alloc.malloc.glibc.64: the size last, the series a chart draws over sizes. */
static int point_name(char *buf, size_t len, const char *probe, json_t *pt)
{
	return snprintf(buf, len, "%s.%s.%lld", probe,
			json_string_value(json_object_get(pt, "allocator")),
			(long long)json_integer_value(json_object_get(pt, "size")));
}

/* Its key; its x axis: word, title, tag; its check and name (group.h). */
const struct pc_point_shape pc_alloc_point_shape = {
	"size", "size", "size (bytes)", "", point_check, point_name,
};

/* A remote point: a size, an allocator, and the placement of its pair of
 * CPUs (compact, spread) with the CPUs, near end first. */
static int remote_check(json_t *pt, const char *where, char *err, size_t errlen)
{
	if (point_check(pt, where, err, errlen) < 0)
		return -1;
	if (!json_is_string(json_object_get(pt, "placement")) ||
	    !pc_name_ok(json_string_value(json_object_get(pt, "placement")), PC_LIMIT_NAME))
		return pc_fail(err, errlen, "%s.placement: missing or not a name", where);
	if (!json_is_string(json_object_get(pt, "cpus")))
		return pc_fail(err, errlen, "%s.cpus: missing or not a string", where);
	return 0;
}

/* alloc.remote.free.glibc.compact.64: the size last, as the others'. */
static int remote_name(char *buf, size_t len, const char *probe, json_t *pt)
{
	return snprintf(buf, len, "%s.%s.%s.%lld", probe,
			json_string_value(json_object_get(pt, "allocator")),
			json_string_value(json_object_get(pt, "placement")),
			(long long)json_integer_value(json_object_get(pt, "size")));
}

const struct pc_point_shape pc_alloc_remote_shape = {
	"placement", "size", "size (bytes)", "", remote_check, remote_name,
};
