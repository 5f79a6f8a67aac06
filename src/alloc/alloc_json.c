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
#include "results/results.h"

static json_t *point_json(const struct pc_alloc_run *ar, size_t i,
			  const struct pc_probe_result *r)
{
	const struct pc_alloc_point *pt = &ar->points[i];
	json_t *p = json_pack("{s:I, s:s, s:s}", "size", (json_int_t)pt->size,
			      "allocator", ar->alloc[pt->allocator].name,
			      "status", pc_status_name(r->status));

	if (!p)
		return NULL;
	if (!pc_json_outcome(p, r))
		return p;
	pc_json_figures(p, r);
	json_object_set_new(p, "discarded", pc_json_discarded(&r->events));
	if (r->raw_ticks && r->raw_cycles)
		json_object_set_new(p, "raw", json_pack("{s:o, s:o}", "ticks",
				    pc_json_values(r->raw_ticks, r->samples), "cycles",
				    pc_json_values(r->raw_cycles, r->samples)));
	return p;
}

json_t *pc_alloc_json_probes(const struct pc_alloc_run *ar, const struct pc_profile *prof)
{
	json_t *probes = json_object();
	unsigned row;
	size_t i;

	for (row = 0; probes && row < PC_ALLOC_PATTERNS; row++) {
		json_t *points = json_array(), *p;
		size_t n = 0, failed = 0;

		for (i = 0; points && i < prof->nprobes; i++) {
			if (ar->points[i].pattern != row)
				continue;
			n++;
			failed += prof->probes[i].status != PC_STATUS_OK;
			json_array_append_new(points, point_json(ar, i, &prof->probes[i]));
		}
		if (!n) {
			json_decref(points);
			continue;
		}
		p = json_pack("{s:s, s:i, s:s, s:s, s:b, s:o}", "status",
			      failed == n ? "failed" : "ok", "ring", 3, "group", "alloc",
			      "unit", "per call", "touch", ar->touch, "points", points);
		if (p && failed)
			json_object_set_new(p, "reason", json_sprintf("%zu of %zu points "
					    "failed", failed, n));
		json_object_set_new(probes, pc_alloc_rows[row], p);
	}
	return probes;
}

json_t *pc_alloc_json_allocators(const struct pc_alloc_run *ar, bool touch)
{
	json_t *list = json_array();
	unsigned i;

	for (i = 0; list && i < ar->nalloc; i++)
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s}",
				      "name", ar->alloc[i].name,
				      "version", ar->alloc[i].version,
				      "library", ar->alloc[i].library,
				      "package", ar->alloc[i].package));
	return json_pack("{s:o, s:b}", "allocators", list, "touch", touch);
}

bool pc_alloc_has_points(json_t *p)
{
	return json_is_array(json_object_get(p, "points"));
}
