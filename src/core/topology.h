/* SPDX-License-Identifier: MIT */
/* topology.h - packages, NUMA nodes, cores, caches (hwloc) (topology.c). */
#ifndef PC_TOPOLOGY_H
#define PC_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#define PC_TOPO_CACHES 6

struct pc_topology {
	char source[48];	/* "hwloc 2.9.0", or "sysconf" without hwloc */
	int packages, numa_nodes, cores;
	int threads;		/* logical CPUs (online ones, on this machine) */
	int threads_per_core;	/* most threads any core has */
	char allowed[128];	/* the CPUs this process may run on, as a list */
	bool os_caches;		/* the kernel describes the caches (sysfs) */
	int ncaches;
	struct pc_topo_cache {
		int level;
		char type[12];		/* "data", "instruction" or "unified" */
		long size_kb;
		int instances;
		int cpus_each;		/* logical CPUs sharing one instance */
		char sharing[160];	/* each instance's CPUs: "0,4 1,5 ..." */
	} caches[PC_TOPO_CACHES];
};

/* This machine's topology (xml_path NULL), or an hwloc XML export's.
 * Without hwloc, only threads (sysconf) is known. */
int pc_topology_load(struct pc_topology *t, const char *xml_path, char *err,
		     size_t errlen);
/* The OS's size of cache level/type ("data", "unified", ...), or 0. */
long pc_topology_cache_kb(const struct pc_topology *t, int level, const char *type);

#endif
