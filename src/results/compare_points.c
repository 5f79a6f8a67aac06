/* SPDX-License-Identifier: MIT */
/*
 * compare_points.c - probes measured at points (the groups' shapes,
 * group.h) as rows of the comparison model: a row per point, named by its
 * parameters the way the published flat tables name theirs
 * (spin_lock_unlock.ticket.nodes1.threads4, alloc.malloc.glibc.64), so that
 * points pair by their parameters and every view of the model shows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "group.h"
#include "core/primcost.h"

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
