/* SPDX-License-Identifier: MIT */
/*
 * placement.c - which CPUs the threads of a contended point run on, and
 * what those CPUs share (contend.h), from hwloc's tree: compact fills a
 * core's SMT siblings, then the cores of a cache, then a package; spread
 * deals one CPU to each package first, then to each node or cache within
 * them, then to each core, SMT siblings last. Without hwloc both are the
 * allowed CPUs in order and nothing is known of what they share.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "contend.h"

#ifdef HAVE_HWLOC
#include <hwloc.h>

/* The allowed PUs under o, dealt round-robin among o's children, each
 * child's own list dealt the same way: out[0..*n). */
static int spread_under(hwloc_obj_t o, hwloc_const_bitmap_t allowed, int *out,
			unsigned *n)
{
	unsigned c, k, at, total = 0, nlists = o->arity;
	int **lists;
	unsigned *len;

	if (o->type == HWLOC_OBJ_PU) {
		if (hwloc_bitmap_isset(allowed, o->os_index))
			out[(*n)++] = (int)o->os_index;
		return 0;
	}
	if (!nlists)
		return 0;
	lists = calloc(nlists, sizeof(*lists));
	len = calloc(nlists, sizeof(*len));
	for (c = 0; lists && len && c < nlists; c++) {
		int w = hwloc_bitmap_weight(o->children[c]->cpuset);

		lists[c] = malloc(sizeof(int) * (size_t)(w > 0 ? w : 1));
		if (!lists[c] || spread_under(o->children[c], allowed, lists[c], &len[c]) < 0)
			break;
		total += len[c];
	}
	if (!lists || !len || c < nlists) {
		for (k = 0; lists && k < nlists; k++)
			free(lists[k]);
		free(lists);
		free(len);
		return -1;
	}
	for (at = 0; total; at++)
		for (c = 0; c < nlists; c++)
			if (at < len[c]) {
				out[(*n)++] = lists[c][at];
				total--;
			}
	for (c = 0; c < nlists; c++)
		free(lists[c]);
	free(lists);
	free(len);
	return 0;
}

/* The allowed PUs: hwloc's, and on this machine this thread's affinity. */
static hwloc_bitmap_t allowed_set(hwloc_topology_t topo, bool here)
{
	hwloc_bitmap_t set = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo));
	hwloc_bitmap_t bound = hwloc_bitmap_alloc();

	if (set && bound && here &&
	    hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
	    hwloc_bitmap_intersects(set, bound))
		hwloc_bitmap_and(set, set, bound);
	hwloc_bitmap_free(bound);
	return set;
}

static int open_hwloc(struct pc_place *p, const char *xml, char *err, size_t errlen)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t allowed;
	hwloc_obj_t pu = NULL;
	unsigned n = 0;

	if (hwloc_topology_init(&topo) < 0 ||
	    (xml && hwloc_topology_set_xml(topo, xml) < 0) ||
	    hwloc_topology_load(topo) < 0) {
		snprintf(err, errlen, "%s: cannot read the topology", xml ? xml : "hwloc");
		hwloc_topology_destroy(topo);
		return -1;
	}
	allowed = allowed_set(topo, !xml);
	while (allowed && (pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu)) &&
	       n < PC_CONTEND_THREADS_MAX)
		if (hwloc_bitmap_isset(allowed, pu->os_index))
			p->compact[n++] = (int)pu->os_index;
	p->ncpus = n;
	n = 0;
	if (!allowed || spread_under(hwloc_get_root_obj(topo), allowed, p->spread, &n) < 0 ||
	    n != p->ncpus) {
		snprintf(err, errlen, "out of memory");
		hwloc_bitmap_free(allowed);
		hwloc_topology_destroy(topo);
		return -1;
	}
	hwloc_bitmap_free(allowed);
	p->topo = topo;
	return 0;
}

/* The set of PUs cpus[0..n); NULL when one is not in the topology. */
static hwloc_bitmap_t set_of(hwloc_topology_t topo, const int *cpus, unsigned n)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	unsigned i;

	for (i = 0; set && i < n; i++) {
		if (cpus[i] < 0 || !hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpus[i])) {
			hwloc_bitmap_free(set);
			return NULL;
		}
		hwloc_bitmap_set(set, (unsigned)cpus[i]);
	}
	return set;
}

int pc_place_nodes(const struct pc_place *p, const int *cpus, unsigned n)
{
	hwloc_topology_t topo = p->topo;
	hwloc_bitmap_t set;
	hwloc_obj_t node = NULL;
	int k = 0;

	if (!topo || !(set = set_of(topo, cpus, n)))
		return 1;
	while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)))
		k += hwloc_bitmap_intersects(node->cpuset, set);
	hwloc_bitmap_free(set);
	return k ? k : 1;
}

const char *pc_place_class(const struct pc_place *p, const int *cpus, unsigned n)
{
	hwloc_topology_t topo = p->topo;
	hwloc_bitmap_t set;
	hwloc_obj_t o;
	const char *cls = "machine";

	if (n == 1)
		return "single";
	if (!topo || !(set = set_of(topo, cpus, n)))
		return "unknown";
	for (o = hwloc_get_obj_covering_cpuset(topo, set); o; o = o->parent) {
		if (o->type == HWLOC_OBJ_CORE) {
			cls = "smt";
			break;
		}
		if (hwloc_obj_type_is_cache(o->type) && o->attr->cache.depth >= 2) {
			cls = o->attr->cache.depth == 2 ? "l2" : "l3";
			break;
		}
		if (o->type == HWLOC_OBJ_PACKAGE) {
			cls = pc_place_nodes(p, cpus, n) == 1 ? "node" : "package";
			break;
		}
	}
	hwloc_bitmap_free(set);
	return cls;
}

void pc_place_close(struct pc_place *p)
{
	if (p->topo)
		hwloc_topology_destroy(p->topo);
	p->topo = NULL;
}
#else
int pc_place_nodes(const struct pc_place *p, const int *cpus, unsigned n)
{
	(void)p, (void)cpus, (void)n;
	return 1;
}

const char *pc_place_class(const struct pc_place *p, const int *cpus, unsigned n)
{
	(void)p, (void)cpus;
	return n == 1 ? "single" : "unknown";
}

void pc_place_close(struct pc_place *p)
{
	(void)p;
}
#endif

#ifndef HAVE_HWLOC
/* Without hwloc: this thread's affinity, in order, for both placements. */
static int open_affinity(struct pc_place *p, char *err, size_t errlen)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		snprintf(err, errlen, "cannot read the CPUs this process may use");
		return -1;
	}
	for (c = 0; c < CPU_SETSIZE && p->ncpus < PC_CONTEND_THREADS_MAX; c++)
		if (CPU_ISSET(c, &set))
			p->compact[p->ncpus] = p->spread[p->ncpus] = c, p->ncpus++;
	return 0;
}
#endif

int pc_place_open(struct pc_place *p, const char *xml, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
#ifdef HAVE_HWLOC
	return open_hwloc(p, xml, err, errlen);
#else
	if (xml) {
		snprintf(err, errlen, "%s: built without hwloc", xml);
		return -1;
	}
	return open_affinity(p, err, errlen);
#endif
}

int pc_place_pick(const struct pc_place *p, enum pc_placement how, unsigned n,
		  int *cpus, char *err, size_t errlen)
{
	if (n < 1 || n > p->ncpus) {
		snprintf(err, errlen, "%u threads: %u CPUs allowed", n, p->ncpus);
		return -1;
	}
	memcpy(cpus, how == PC_PLACE_SPREAD ? p->spread : p->compact, n * sizeof(int));
	return 0;
}

/* One pair per class: the first allowed CPU with the first CPU (in compact
 * order) that shares each kind of thing with it. */
unsigned pc_place_pairs(const struct pc_place *p, int (*pairs)[2], unsigned max)
{
	const char *seen[8];
	unsigned i, k, n = 0, nseen = 0;

	for (i = 1; i < p->ncpus && n < max; i++) {
		int pair[2] = { p->compact[0], p->compact[i] };
		const char *cls = pc_place_class(p, pair, 2);

		for (k = 0; k < nseen && strcmp(seen[k], cls) != 0; k++)
			;
		if (k < nseen || nseen == 8)
			continue;
		seen[nseen++] = cls;
		pairs[n][0] = pair[0];
		pairs[n++][1] = pair[1];
	}
	return n;
}
