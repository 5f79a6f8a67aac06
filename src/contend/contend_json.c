/* SPDX-License-Identifier: MIT */
/*
 * contend_json.c - the contended group's results (contend.h): a probe per
 * row with points[] (threads, placement, cpus, class, nodes, a lock's data
 * lines, the figures, fairness).
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "contend.h"
#include "results/report.h"
#include "results/results.h"
#include "core/util.h"

static const char *const units[] = {
	[PC_KIND_LOCK] = "per lock+unlock pair, per thread",
	[PC_KIND_ATOMIC] = "per operation, per thread",
	[PC_KIND_C2C] = "per one-way transfer of a line",
};

static json_t *cpus_json(const int *cpus, unsigned n)
{
	char buf[PC_CONTEND_THREADS_MAX * 6] = "";
	size_t at = 0;
	unsigned i;

	for (i = 0; i < n && at < sizeof(buf); i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%d", i ? "," : "",
				       cpus[i]);
	return json_string(buf);
}

static json_t *point_json(const struct pc_contend_point *pt,
			  const struct pc_probe_result *r)
{
	json_t *p = json_pack("{s:i, s:s, s:o, s:s, s:i, s:s}", "threads",
			      (int)pt->nthreads, "placement",
			      pc_placement_names[pt->placement], "cpus",
			      cpus_json(pt->cpus, pt->nthreads), "class", pt->cls,
			      "nodes", pt->nodes, "status", pc_status_name(r->status));

	if (!p)
		return NULL;
	if (pt->kind->cls == PC_KIND_LOCK)
		json_object_set_new(p, "data_lines", json_integer(pt->data_lines));
	if (!pc_json_outcome(p, r))
		return p;
	pc_json_figures(p, r);	/* round_spread with them, when it is a number */
	json_object_set_new(p, "fairness", json_pack("{s:o, s:o, s:o}",
			    "cv", pc_json_real7(pt->cv),
			    "max_share", pc_json_real7(pt->max_share),
			    "max_share_worst", pc_json_real7(pt->max_share_worst)));
	json_object_set_new(p, "ops_per_s", pc_json_real7(pt->ops_per_s));
	if (pt->xfer > 0 && r->ticks.median > 0)
		json_object_set_new(p, "transfer", json_pack("{s:o, s:o}", "cycles",
				    pc_json_real7(pt->xfer * r->cycles_per_tick), "ns",
				    pc_json_real7(pt->xfer * r->ns.median / r->ticks.median)));
	json_object_set_new(p, "windows", json_pack("{s:i, s:i, s:i}", "taken",
			    (int)pt->windows, "disturbed", (int)pt->disturbed,
			    "contended", (int)pt->contended));
	return p;
}

json_t *pc_contend_json_probes(const struct pc_contend_run *cr,
			       const struct pc_profile *prof)
{
	json_t *probes = json_object();
	unsigned k;
	size_t i;

	for (k = 0; probes && k < pc_contend_nkinds; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];
		json_t *points = json_array(), *p;
		size_t n = 0, failed = 0;

		for (i = 0; points && i < cr->npoints; i++) {
			if (cr->points[i].kind != kind)
				continue;
			n++;
			failed += prof->probes[i].status == PC_STATUS_FAILED;
			json_array_append_new(points, point_json(&cr->points[i],
								 &prof->probes[i]));
		}
		if (!n) {
			json_decref(points);
			continue;
		}
		p = json_pack("{s:s, s:i, s:s, s:s, s:o}", "status",
			      failed == n ? "failed" : "ok", "ring", 3, "group", "contended",
			      "unit", units[kind->cls], "points", points);
		if (p && failed)
			json_object_set_new(p, "reason", json_sprintf("%zu of %zu points "
					    "failed", failed, n));
		json_object_set_new(probes, kind->name, p);
	}
	return probes;
}

json_t *pc_contend_json_run(const struct pc_contend_run *cr)
{
	return json_pack("{s:i, s:i, s:s}", "window_us", (int)cr->window_us,
			 "rounds", PC_CONTEND_ROUNDS, "placement_source",
			 cr->place.topo ? "hwloc" : "affinity (no hwloc)");
}
