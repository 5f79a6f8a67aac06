/* SPDX-License-Identifier: MIT */
/* Topology from hwloc: XML exports of a 2-socket 4-NUMA-node server and an
 * SMT laptop (tests/fixtures/topology), and this machine. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/primcost.h"
#include "core/topology.h"
#include "core/cpu.h"
#include "fixture.h"
#include "tap.h"

static const struct pc_topo_cache *cache(const struct pc_topology *t, int level,
					  const char *type)
{
	int i;

	for (i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level && strcmp(t->caches[i].type, type) == 0)
			return &t->caches[i];
	return NULL;
}

static int load(struct pc_topology *t, const char *name)
{
	char path[1024], err[PC_ERRLEN];
	int rc = pc_topology_load(t, topology_fixture(path, sizeof(path), name), err, sizeof(err));

	return fixture_loaded(rc, "loads", name, err);
}

static void check_server(void)
{
	struct pc_topology t;
	const struct pc_topo_cache *l3, *l2;

	if (load(&t, "server-2s-4numa.xml") < 0)
		return;
	ok(t.packages == 2 && t.numa_nodes == 4, "server: 2 packages, 4 NUMA nodes (%d, %d)",
	   t.packages, t.numa_nodes);
	ok(t.cores == 32 && t.threads == 64 && t.threads_per_core == 2,
	   "server: 32 cores, 64 threads, 2 per core (%d, %d, %d)", t.cores, t.threads,
	   t.threads_per_core);
	l3 = cache(&t, 3, "unified");
	ok(l3 && l3->instances == 4 && l3->cpus_each == 16 && l3->size_kb == 32768 &&
	   strcmp(l3->sharing, "0-15 16-31 32-47 48-63") == 0,
	   "server: 4 L3s of 32 MiB, each shared by 16 CPUs (%s)", l3 ? l3->sharing : "none");
	l2 = cache(&t, 2, "unified");
	ok(l2 && l2->instances == 32 && l2->cpus_each == 2 && strncmp(l2->sharing, "0-1 2-3", 7) == 0,
	   "server: an L2 per core, shared by its 2 threads (%s)", l2 ? l2->sharing : "none");
	ok(strcmp(t.allowed, "0-31") == 0, "server: the process may run on the first "
	   "package only (%s)", t.allowed);
}

static void check_laptop(void)
{
	struct pc_topology t;
	const struct pc_topo_cache *l1d, *l2, *l3;

	if (load(&t, "laptop-smt.xml") < 0)
		return;
	ok(t.packages == 1 && t.numa_nodes == 1 && t.cores == 4 && t.threads == 8 &&
	   t.threads_per_core == 2, "laptop: 1 package, 1 node, 4 cores, 8 threads, 2 per "
	   "core (%d, %d, %d, %d, %d)", t.packages, t.numa_nodes, t.cores, t.threads,
	   t.threads_per_core);
	l1d = cache(&t, 1, "data");
	l2 = cache(&t, 2, "unified");
	l3 = cache(&t, 3, "unified");
	ok(l1d && l1d->size_kb == 48 && l2 && l2->size_kb == 1280 && l3 && l3->size_kb == 12288,
	   "laptop: L1d 48 KiB, L2 1280 KiB, L3 12288 KiB");
	ok(l2 && strcmp(l2->sharing, "0,4 1,5 2,6 3,7") == 0,
	   "laptop: SMT siblings numbered n and n+4 share an L2 (%s)", l2 ? l2->sharing : "none");
	ok(l3 && l3->instances == 1 && strcmp(l3->sharing, "0-7") == 0,
	   "laptop: one L3 for all 8 CPUs");
	ok(pc_topology_cache_kb(&t, 3, "unified") == 12288 &&
	   pc_topology_cache_kb(&t, 4, "unified") == 0, "cache size lookup by level");
}

/* CPUID's sizes against the kernel's: both shown where they differ. */
static void check_caches_note(void)
{
	struct pc_cpu_info ci;

	memset(&ci, 0, sizeof(ci));
	if (load(&ci.topo, "laptop-smt.xml") < 0)
		return;
	ci.l1d_kb = 48;
	ci.l1i_kb = 32;
	ci.l2_kb = 1024;	/* a hypervisor's CPUID, say */
	ci.l3_kb = 12288;
	pc_cpu_note_caches(&ci);
	ok(strstr(ci.caches_note, "CPUID says L2 1024 KiB") &&
	   strstr(ci.caches_note, "the kernel says L2 1280 KiB") &&
	   !strstr(ci.caches_note, "L3") && !strstr(ci.caches_note, "L1"),
	   "CPUID's L2 differs from the kernel's: both shown, nothing else (%s)",
	   ci.caches_note);
	ci.l2_kb = 1280;
	pc_cpu_note_caches(&ci);
	ok(!ci.caches_note[0], "all sizes agree: no note (%s)", ci.caches_note);
	ci.topo.os_caches = false;
	ci.virtualized = true;
	pc_cpu_note_caches(&ci);
	ok(strstr(ci.caches_note, "CPUID's sizes") && strstr(ci.caches_note, "hypervisor's"),
	   "the kernel describes no caches, in a VM: the sizes are said to be the "
	   "hypervisor's CPUID (%s)", ci.caches_note);
}

static void check_this_machine(void)
{
	struct pc_topology t;
	char err[PC_ERRLEN];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (pc_topology_load(&t, NULL, err, sizeof(err)) < 0) {
		ok(0, "loads this machine's topology: %s", err);
		return;
	}
	ok(t.threads == online, "this machine: %d threads, the online CPU count (%ld)",
	   t.threads, online);
	ok(t.cores >= 1 && t.cores <= t.threads && t.cores * t.threads_per_core >= t.threads,
	   "this machine: %d cores of up to %d threads hold the %d threads", t.cores,
	   t.threads_per_core, t.threads);
	ok(t.packages >= 1 && t.numa_nodes >= 1, "this machine: %d packages, %d NUMA nodes",
	   t.packages, t.numa_nodes);
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		struct pc_topology one;
		cpu_set_t pin;
		int cpu = -1, i;
		char want[16];

		for (i = 0; i < CPU_SETSIZE && cpu < 0; i++)
			if (CPU_ISSET(i, &set))
				cpu = i;
		CPU_ZERO(&pin);
		CPU_SET(cpu, &pin);
		snprintf(want, sizeof(want), "%d", cpu);
		if (sched_setaffinity(0, sizeof(pin), &pin) == 0) {
			pc_topology_load(&one, NULL, err, sizeof(err));
			ok(strcmp(one.allowed, want) == 0, "pinned to CPU %d, the allowed CPUs "
			   "read '%s'", cpu, one.allowed);
			sched_setaffinity(0, sizeof(set), &set);
		} else {
			skip("cannot pin this process", "allowed CPUs follow the binding");
		}
	}
}

int main(void)
{
	struct pc_topology t;
	char err[PC_ERRLEN];

	if (pc_topology_load(&t, NULL, err, sizeof(err)) == 0 &&
	    strncmp(t.source, "hwloc", 5) != 0) {
		skip("built without hwloc", "topology from XML exports");
		ok(t.threads == sysconf(_SC_NPROCESSORS_ONLN), "threads is the online count");
		return done_testing();
	}
	check_server();
	check_laptop();
	check_caches_note();
	check_this_machine();
	return done_testing();
}
