/* SPDX-License-Identifier: MIT */
/*
 * topology.c - packages, NUMA nodes, cores, threads, which CPUs share which
 * caches, and the CPUs this process may run on: hwloc's view, which follows
 * the kernel's (sysfs) and so holds in a virtual machine where CPUID's core
 * counts do not.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "topology.h"

#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif

long pc_topology_cache_kb(const struct pc_topology *t, int level, const char *type)
{
	int i;

	for (i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level && strcmp(t->caches[i].type, type) == 0)
			return t->caches[i].size_kb;
	return 0;
}

#ifdef HAVE_HWLOC
/* Appends " LIST" of one cache instance to buf, or "..." once it is full. */
static void append_set(char *buf, size_t len, hwloc_const_bitmap_t set)
{
	char list[96];
	size_t n = strlen(buf);

	if (hwloc_bitmap_list_snprintf(list, sizeof(list), set) < 0)
		return;
	if (n + strlen(list) + 5 < len)
		snprintf(buf + n, len - n, "%s%s", n ? " " : "", list);
	else if (n + 5 <= len && strcmp(buf + n - 3, "...") != 0)
		snprintf(buf + n, len - n, " ...");
}

static void read_caches(hwloc_topology_t topo, struct pc_topology *t)
{
	static const struct { hwloc_obj_type_t type; int level; const char *kind; } c[] = {
		{ HWLOC_OBJ_L1CACHE, 1, "data" }, { HWLOC_OBJ_L1ICACHE, 1, "instruction" },
		{ HWLOC_OBJ_L2CACHE, 2, "unified" }, { HWLOC_OBJ_L3CACHE, 3, "unified" },
		{ HWLOC_OBJ_L4CACHE, 4, "unified" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]) && t->ncaches < PC_TOPO_CACHES; i++) {
		int n = hwloc_get_nbobjs_by_type(topo, c[i].type), k;
		struct pc_topo_cache *pc = &t->caches[t->ncaches];
		hwloc_obj_t o = hwloc_get_obj_by_type(topo, c[i].type, 0);

		if (n <= 0 || !o)
			continue;
		pc->level = c[i].level;
		snprintf(pc->type, sizeof(pc->type), "%s",
			 o->attr->cache.type == HWLOC_OBJ_CACHE_UNIFIED ? "unified" : c[i].kind);
		pc->size_kb = (long)(o->attr->cache.size / 1024);
		pc->instances = n;
		pc->cpus_each = hwloc_bitmap_weight(o->cpuset);
		for (k = 0; k < n; k++)
			append_set(pc->sharing, sizeof(pc->sharing),
				   hwloc_get_obj_by_type(topo, c[i].type, (unsigned)k)->cpuset);
		t->ncaches++;
	}
}

static void read_counts(hwloc_topology_t topo, struct pc_topology *t)
{
	int i;

	t->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	t->numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	t->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	t->threads = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	t->threads_per_core = t->cores > 0 ? 0 : 1;
	for (i = 0; i < t->cores; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
		int w = hwloc_bitmap_weight(core->cpuset);

		if (w > t->threads_per_core)
			t->threads_per_core = w;
	}
}

/* The CPUs this process may run on: the calling thread's binding here (as
 * sched_getaffinity: under qemu-user the emulator's own threads are not
 * bound like the program's), the topology's allowed set in an XML export
 * (another machine's). */
static void read_allowed(hwloc_topology_t topo, struct pc_topology *t)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (!set)
		return;
	if (!hwloc_topology_is_thissystem(topo) ||
	    hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) < 0)
		hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(topo));
	hwloc_bitmap_list_snprintf(t->allowed, sizeof(t->allowed), set);
	hwloc_bitmap_free(set);
}

int pc_topology_load(struct pc_topology *t, const char *xml_path, char *err,
		     size_t errlen)
{
	hwloc_topology_t topo;

	memset(t, 0, sizeof(*t));
	if (hwloc_topology_init(&topo) < 0) {
		snprintf(err, errlen, "hwloc: cannot initialize a topology");
		return -1;
	}
	/* Disallowed CPUs (another cgroup's) are still online CPUs. */
	hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
	if ((xml_path && hwloc_topology_set_xml(topo, xml_path) < 0) ||
	    hwloc_topology_load(topo) < 0) {
		snprintf(err, errlen, "hwloc: cannot load %s", xml_path ? xml_path :
			 "this machine's topology");
		hwloc_topology_destroy(topo);
		return -1;
	}
	snprintf(t->source, sizeof(t->source), "hwloc %s", HWLOC_VERSION);
	read_counts(topo, t);
	read_caches(topo, t);
	read_allowed(topo, t);
	t->os_caches = xml_path || access("/sys/devices/system/cpu/cpu0/cache/index0",
					  F_OK) == 0;
	hwloc_topology_destroy(topo);
	return 0;
}
#else
int pc_topology_load(struct pc_topology *t, const char *xml_path, char *err,
		     size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(t, 0, sizeof(*t));
	if (xml_path) {
		snprintf(err, errlen, "built without hwloc: cannot read %s", xml_path);
		return -1;
	}
	snprintf(t->source, sizeof(t->source), "sysconf (built without hwloc)");
	t->threads = n > 0 ? (int)n : 0;
	return 0;
}
#endif
