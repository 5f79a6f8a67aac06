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
#include "results/group.h"
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

json_t *pc_contend_json_probes(const void *state, const struct pc_profile *prof,
			       const struct pc_clock *clk)
{
	const struct pc_contend_run *cr = state;
	json_t *probes = json_object();
	unsigned k;
	size_t i;

	(void)clk;
	for (k = 0; probes && k < pc_contend_nkinds; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];
		struct pc_points pp = { NULL, 0 };

		for (i = 0; i < cr->npoints; i++)
			if (cr->points[i].kind == kind)
				pc_points_add(&pp, &pc_group_contend,
					      point_json(&cr->points[i], &prof->probes[i]),
					      prof->probes[i].status);
		pc_points_file(probes, kind->name, &pp, &pc_group_contend, 3, units[kind->cls],
			       NULL);
	}
	return probes;
}

void pc_contend_describe(const void *opts, const void *state, json_t *run)
{
	const struct pc_contend_run *cr = state;

	(void)opts;
	json_object_set_new(run, "contend", json_pack("{s:i, s:i, s:s}", "window_us",
			    (int)cr->window_us, "rounds", PC_CONTEND_ROUNDS, "placement_source",
			    cr->place.topo ? "hwloc" : "affinity (no hwloc)"));
}

/* ---- its points' shape (group.h) ------------------------------------------------ */

/* Threads, their placement and CPUs, what the CPUs share, the nodes they
 * span, a lock's data lines; fairness and the line transfer between its
 * CPUs when measured. */
static int point_check(json_t *pt, const char *where, char *err, size_t errlen)
{
	static const char *const names[] = { "placement", "cpus", "class" };
	static const char *const objs[] = { "fairness", "transfer" };
	json_t *v = json_object_get(pt, "threads"), *f;
	const char *k;
	size_t i;

	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > 65536)
		return pc_fail(err, errlen, "%s.threads: not a thread count", where);
	for (i = 0; i < 3; i++)
		if (!json_is_string(json_object_get(pt, names[i])))
			return pc_fail(err, errlen, "%s.%s: missing or not a string", where,
				       names[i]);
	v = json_object_get(pt, "nodes");
	if (v && (!json_is_integer(v) || json_integer_value(v) < 1))
		return pc_fail(err, errlen, "%s.nodes: not a node count", where);
	v = json_object_get(pt, "data_lines");
	if (v && (!json_is_integer(v) || json_integer_value(v) < 0 ||
		  json_integer_value(v) > 65536))
		return pc_fail(err, errlen, "%s.data_lines: not a count of lines", where);
	for (i = 0; i < 2; i++) {
		f = json_object_get(pt, objs[i]);
		if (!f)
			continue;
		if (!json_is_object(f))
			return pc_fail(err, errlen, "%s.%s: not an object", where, objs[i]);
		json_object_foreach(f, k, v)
			if (!json_is_number(v) || json_number_value(v) < 0)
				return pc_fail(err, errlen, "%s.%s: not numbers of 0 or more",
					       where, objs[i]);
	}
	return 0;
}

/* By placement, CPUs and data lines, threads last (the series a chart
 * draws over threads): lock.ticket.compact.threads4,
 * lock.ticket.cpus0,2.data1.threads2; a c2c pair by its CPUs,
 * c2c.latency.cpus0,1. 0 data lines, the 2014 tables' empty critical
 * section, keeps the name of the points written before there were data
 * lines. */
static int point_name(char *buf, size_t len, const char *probe, json_t *pt)
{
	const char *pl = json_string_value(json_object_get(pt, "placement"));
	const char *cpus = json_string_value(json_object_get(pt, "cpus"));
	json_int_t d = json_integer_value(json_object_get(pt, "data_lines"));
	bool list = strcmp(pl, "list") == 0;
	char data[32] = "";

	if (strcmp(pl, "pair") == 0)
		return snprintf(buf, len, "%s.cpus%s", probe, cpus);
	if (d > 0)
		snprintf(data, sizeof(data), ".data%lld", (long long)d);
	return snprintf(buf, len, "%s.%s%s%s.threads%lld", probe, list ? "cpus" : pl,
			list ? cpus : "", data,
			(long long)json_integer_value(json_object_get(pt, "threads")));
}

/* Its key; its x axis: word, title, tag; its check and name (group.h). */
const struct pc_point_shape pc_contend_point_shape = {
	"threads", "threads", "threads", "threads", point_check, point_name,
};
