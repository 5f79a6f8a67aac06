/* SPDX-License-Identifier: MIT */
/*
 * compare_points.c - probes measured at points (the groups' shapes,
 * group.h) as rows of the comparison model: a row per point, named by its
 * parameters the way the published flat tables name theirs
 * (spin_lock_unlock.ticket.nodes1.threads4, alloc.malloc.glibc.64), so that
 * points pair by their parameters and every view of the model shows them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "group.h"
#include "core/primcost.h"
#include "core/stats.h"

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

int pc_point_row_name(char *buf, size_t len, const char *probe, const char *group, json_t *pt,
		      size_t i)
{
	const struct pc_point_shape *shape = pc_point_shape(group, pt);
	char err[PC_ERRLEN];

	if (shape && shape->check(pt, "point", err, sizeof(err)) == 0)
		return shape->name(buf, len, probe, pt);
	return snprintf(buf, len, "%s.point%zu", probe, i + 1);
}

/* The row of point pt: the point's own keys, and the probe's that it
 * lacks (group, ring, unit, run, touch). NULL when memory runs out. */
static json_t *point_row(json_t *probe, json_t *pt)
{
	json_t *row = json_copy(pt), *v;
	const char *k;

	if (!row)
		return NULL;
	json_object_foreach(probe, k, v)
		if (strcmp(k, "points") != 0 && !json_object_get(row, k))
			json_object_set(row, k, v);
	return row;
}

/* The points of one CPU entry's probes as rows; -1 when memory runs out. */
static int expand_entry(json_t *probes)
{
	json_t *names = json_array(), *p, *pt, *n;
	const char *name;
	char row[512];
	size_t i, k;
	int rc = 0;

	if (!names)
		return -1;
	json_object_foreach(probes, name, p)
		if (json_is_array(json_object_get(p, "points")))
			json_array_append_new(names, json_string(name));
	json_array_foreach(names, i, n) {
		p = json_incref(json_object_get(probes, json_string_value(n)));
		json_object_del(probes, json_string_value(n));
		json_array_foreach(json_object_get(p, "points"), k, pt) {
			pc_point_row_name(row, sizeof(row), json_string_value(n),
					  str(p, "group"), pt, k);
			if (json_object_set_new(probes, row, point_row(p, pt)) < 0)
				rc = -1;
		}
		json_decref(p);
	}
	json_decref(names);
	return rc;
}

int pc_compare_expand_points(json_t *doc)
{
	json_t *entry;
	const char *key;
	int rc = 0;

	json_object_foreach(json_object_get(doc, "cpus"), key, entry)
		if (expand_entry(json_object_get(entry, "probes")) < 0)
			rc = -1;
	return rc;
}

static const char *const stat_names[] = { "median", "p99" };

const char *pc_stat_name(enum pc_stat s)
{
	return stat_names[s];
}

int pc_stat_parse(const char *s, enum pc_stat *st)
{
	size_t i;

	for (i = 0; i < sizeof(stat_names) / sizeof(stat_names[0]); i++)
		if (strcmp(s, stat_names[i]) == 0) {
			*st = (enum pc_stat)i;
			return 0;
		}
	return -1;
}

/* Row p's figure made its single calls' p99: 1 when it has them, 0 when
 * not, -1 when memory runs out. */
static int p99_row(json_t *p)
{
	json_t *chunks = json_object_get(json_object_get(p, "latency"), "p99_chunks"), *v;
	struct pc_summary s;
	double *x;
	size_t i, n = json_array_size(chunks);
	int rc = -1;

	if (!n)
		return 0;
	if (!(x = malloc(n * sizeof(*x))))
		return -1;
	json_array_foreach(chunks, i, v)
		x[i] = json_number_value(v);
	if (pc_summarize(x, n, &s) == 0) {
		/* how far it moves within the run: its chunks' middle half, no
		 * finer than one call's figure resolves (the timer's step) */
		double res = json_number_value(json_object_get(json_object_get(p, "latency"),
							       "resolution_cycles"));

		json_object_set_new(p, "cycles", pc_json_summary(&s));
		json_object_set_new(p, "raw", json_pack("{s:o}", "cycles", json_deep_copy(chunks)));
		json_object_set_new(p, "samples", json_integer((json_int_t)n));
		json_object_del(p, "ticks");
		json_object_del(p, "ns");
		if (s.median > 0)
			json_object_set_new(p, "round_spread", json_real(fmax(s.q3 - s.q1,
					    res) / s.median));
		else
			json_object_del(p, "round_spread");
		rc = 1;
	}
	free(x);
	return rc;
}

long pc_compare_p99(json_t *doc)
{
	json_t *entry, *probes, *p, *drop;
	const char *key, *name;
	long kept = 0;
	size_t i;
	int r;

	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		probes = json_object_get(entry, "probes");
		if (!(drop = json_array()))
			return -1;
		json_object_foreach(probes, name, p) {
			if ((r = p99_row(p)) < 0) {
				json_decref(drop);
				return -1;
			}
			if (r)
				kept++;
			else
				json_array_append_new(drop, json_string(name));
		}
		json_array_foreach(drop, i, p)
			json_object_del(probes, json_string_value(p));
		json_decref(drop);
	}
	return kept;
}
