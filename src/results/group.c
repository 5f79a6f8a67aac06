/* SPDX-License-Identifier: MIT */
/* group.c - what every measurement group shares (group.h): the rows of a
 * -p list that are a group's own, its default rows, its points' shapes and
 * its rows made of points. */
#include <string.h>

#include "group.h"

static bool has_prefix(const struct pc_measurement_group *g, const char *tok, size_t len)
{
	const char *const *p;

	for (p = g->prefixes; p && *p; p++)
		if (len >= strlen(*p) && strncmp(tok, *p, strlen(*p)) == 0)
			return true;
	return false;
}

bool pc_group_list_only(const struct pc_measurement_group *g, const char *list)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (!has_prefix(g, p, len))
			return false;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

const char *pc_group_default_list(const struct pc_measurement_group *g, char *buf,
				  size_t len)
{
	const char *const *p;
	size_t at = 0;

	buf[0] = '\0';
	for (p = g->prefixes; p && *p && at < len; p++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s*", at ? "," : "", *p);
	return buf;
}

/* The shape among g's points that pt has the key of; NULL when none. */
static const struct pc_point_shape *shape_in(const struct pc_measurement_group *g, json_t *pt)
{
	const struct pc_point_shape *const *s;

	for (s = g->points; s && *s; s++)
		if (json_object_get(pt, (*s)->key))
			return *s;
	return NULL;
}

const struct pc_point_shape *pc_point_shape(const char *id, json_t *pt)
{
	const struct pc_measurement_group *const *g;
	const struct pc_point_shape *s;

	for (g = pc_groups; id && *g; g++)
		if ((*g)->id && strcmp((*g)->id, id) == 0)
			return shape_in(*g, pt);
	for (g = pc_groups; *g; g++)
		if ((s = shape_in(*g, pt)))
			return s;
	return NULL;
}

/* Calls f(shape, arg) for each shape of the group id (NULL or unknown:
 * every group's). */
static void each_shape(const char *id, void (*f)(const struct pc_point_shape *, void *),
		       void *arg)
{
	const struct pc_measurement_group *const *g;
	const struct pc_point_shape *const *s;
	bool known = false;

	for (g = pc_groups; id && *g; g++)
		known |= (*g)->id && strcmp((*g)->id, id) == 0;
	for (g = pc_groups; *g; g++)
		if (!known || strcmp((*g)->id ? (*g)->id : "", id) == 0)
			for (s = (*g)->points; s && *s; s++)
				f(*s, arg);
}

struct keys {
	char *buf;
	size_t len, at;
};

static void add_key(const struct pc_point_shape *s, void *arg)
{
	struct keys *k = arg;

	if (k->at < k->len && !strstr(k->buf, s->key))
		k->at += (size_t)snprintf(k->buf + k->at, k->len - k->at, "%s%s",
					  k->at ? ", " : "", s->key);
}

const char *pc_point_keys(const char *id, char *buf, size_t len)
{
	struct keys k = { buf, len, 0 };

	buf[0] = '\0';
	each_shape(id, add_key, &k);
	return buf;
}

void pc_points_add(struct pc_points *pp, const struct pc_measurement_group *g, json_t *pt,
		   enum pc_status s)
{
	if (!pp->points)
		pp->points = json_array();
	pp->failed += (g->point_fails & PC_POINT_FAILS(s)) != 0;
	if (pp->points)
		json_array_append_new(pp->points, pt);
	else
		json_decref(pt);
}

void pc_points_file(json_t *probes, const char *name, struct pc_points *pp,
		    const struct pc_measurement_group *g, int ring, const char *unit,
		    json_t *extra)
{
	size_t n = json_array_size(pp->points);
	json_t *p = n ? json_pack("{s:s, s:i, s:s, s:s}", "status",
				  pp->failed == n ? "failed" : "ok", "ring", ring, "group",
				  g->id, "unit", unit) : NULL;

	if (p && extra)
		json_object_update(p, extra);
	if (p) {
		json_object_set(p, "points", pp->points);
		if (pp->failed)
			json_object_set_new(p, "reason", json_sprintf("%zu of %zu points failed",
								      pp->failed, n));
		json_object_set_new(probes, name, p);
	}
	json_decref(extra);
	json_decref(pp->points);
	*pp = (struct pc_points){ NULL, 0 };
}
