/* SPDX-License-Identifier: MIT */
/*
 * unit_kernel.c - the kernel group's pieces that need no module: the
 * inflating options named beside exactly the figures they touch (lockdep,
 * which no Debian kernel flavour has, included), the configuration's
 * words, slub_debug read from a cache's sysfs files (and the module's
 * cache merged, KFENCE and allocation profiling), the page allocator's
 * sizes named, the rows selected by
 * -p, the group's JSON accepted by the validator with "inflated_by", and
 * each row's portable twin paired in compare.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/kernel/kernel.h"
#include "src/results/group.h"
#include "src/results/answers.h"
#include "src/results/results.h"
#include "tap.h"
#include "core/primcost.h"

static const char *inflated(uint64_t config, int entry)
{
	static char buf[160];

	return pc_kernel_inflated_by(config, pc_kernel_entry_touches[entry], buf, sizeof(buf));
}

static void test_inflated(void)
{
	uint64_t lockdep = PC_KCFG_LOCKDEP | PC_KCFG_PROVE_LOCKING | PC_KCFG_DEBUG_LOCK_ALLOC |
			   PC_KCFG_TRACE_IRQFLAGS;

	ok(strcmp(inflated(lockdep, PC_KE_spin_lock_unlock), "lockdep") == 0,
	   "a lockdep kernel: spin_lock_unlock inflated by lockdep");
	ok(strcmp(inflated(lockdep, PC_KE_local_irq_save_restore), "lockdep") == 0,
	   "... local_irq_save_restore by lockdep alone (it traces the flags itself): %s",
	   inflated(lockdep, PC_KE_local_irq_save_restore));
	ok(strcmp(inflated(lockdep, PC_KE_rcu_read_lock_unlock), "lockdep") == 0,
	   "... rcu_read_lock_unlock by lockdep");
	ok(!inflated(lockdep, PC_KE_cmpxchg_local)[0] && !inflated(lockdep, PC_KE_kmalloc)[0],
	   "... cmpxchg_local and kmalloc untouched by it");
	ok(strcmp(inflated(PC_KCFG_TRACE_IRQFLAGS, PC_KE_local_irq_disable_enable),
		  "irq-flag tracing") == 0, "irq-flag tracing without lockdep is named as such");
	ok(strcmp(inflated(PC_KCFG_INIT_ON_ALLOC, PC_KE_kmalloc), "init_on_alloc") == 0 &&
	   !inflated(PC_KCFG_INIT_ON_ALLOC, PC_KE_kfree)[0],
	   "init_on_alloc: beside kmalloc, not kfree");
	ok(strcmp(inflated(PC_KCFG_INIT_ON_FREE | PC_KCFG_INIT_ON_ALLOC, PC_KE_kmalloc_kfree),
		  "init_on_alloc, init_on_free") == 0,
	   "both init_on_* beside the pair: %s",
	   inflated(PC_KCFG_INIT_ON_FREE | PC_KCFG_INIT_ON_ALLOC, PC_KE_kmalloc_kfree));
	ok(strcmp(inflated(PC_KCFG_KASAN | PC_KCFG_SLUB_DEBUG_ON, PC_KE_kmem_cache_alloc_free),
		  "KASAN, slub_debug") == 0 &&
	   strcmp(inflated(PC_KCFG_KASAN, PC_KE_atomic_add_return), "KASAN") == 0 &&
	   !inflated(PC_KCFG_KASAN, PC_KE_this_cpu_inc)[0],
	   "KASAN beside the atomics and allocations, not this_cpu_inc");
	ok(!inflated(PC_KCFG_SLUB_DEBUG, PC_KE_kmalloc)[0],
	   "SLUB_DEBUG built in but off inflates nothing");
	ok(strcmp(inflated(PC_KCFG_DEBUG_PREEMPT, PC_KE_preempt_disable_enable),
		  "preempt debugging") == 0 &&
	   strcmp(inflated(PC_KCFG_DEBUG_SPINLOCK, PC_KE_raw_spin_lock_unlock),
		  "spinlock debugging") == 0, "preempt and spinlock debugging named");
	ok(!inflated(PC_KCFG_PARAVIRT | PC_KCFG_QUEUED_SPINLOCKS | PC_KCFG_PARAVIRT_SPINLOCKS |
		     PC_KCFG_PREEMPT_DYNAMIC, PC_KE_spin_lock_unlock)[0],
	   "paravirt and the queued lock are recorded, not named as inflating");
	ok(strcmp(inflated(PC_KCFG_DEBUG_ATOMIC_SLEEP, PC_KE_mutex_lock_unlock),
		  "atomic-sleep debugging") == 0 &&
	   strcmp(inflated(PC_KCFG_DEBUG_ATOMIC_SLEEP, PC_KE_kmalloc_batch10000),
		  "atomic-sleep debugging") == 0 &&
	   !inflated(PC_KCFG_DEBUG_ATOMIC_SLEEP, PC_KE_kfree)[0] &&
	   !inflated(PC_KCFG_DEBUG_ATOMIC_SLEEP, PC_KE_spin_lock_unlock)[0],
	   "atomic-sleep debugging beside what may sleep (the mutex, GFP_KERNEL), not kfree "
	   "or the spin lock");
	ok(strcmp(inflated(PC_KCFG_KFENCE_ON | PC_KCFG_SLAB_FREELIST_HARDENED |
			   PC_KCFG_MEM_ALLOC_PROFILING_ON, PC_KE_kfree_const),
		  "KFENCE, freelist hardening, allocation profiling") == 0 &&
	   !inflated(PC_KCFG_KFENCE | PC_KCFG_MEM_ALLOC_PROFILING, PC_KE_kfree)[0],
	   "KFENCE, freelist hardening and allocation profiling beside the frees when on; "
	   "built in but off, nothing");
	ok(strcmp(inflated(PC_KCFG_RANDOM_KMALLOC_CACHES, PC_KE_kmalloc_const),
		  "random kmalloc caches") == 0 &&
	   !inflated(PC_KCFG_RANDOM_KMALLOC_CACHES, PC_KE_kfree)[0],
	   "random kmalloc caches beside the allocations");
	ok(!inflated(PC_KCFG_PREEMPT_RCU | PC_KCFG_PREEMPT_LAZY, PC_KE_rcu_read_lock_unlock)[0],
	   "preemptible RCU and lazy preemption are recorded, not named as inflating");
}

static void test_words(void)
{
	json_t *j = pc_kernel_config_json("6.1.0-57-amd64", PC_KPREEMPT_VOLUNTARY,
					  PC_KCFG_PARAVIRT | PC_KCFG_QUEUED_SPINLOCKS |
					  PC_KCFG_PARAVIRT_SPINLOCKS | PC_KCFG_INIT_ON_ALLOC |
					  PC_KCFG_SLUB_DEBUG);
	json_t *a = json_object_get(j, "inflating");

	ok(strcmp(json_string_value(json_object_get(j, "preempt")), "voluntary") == 0 &&
	   strcmp(json_string_value(json_object_get(j, "spinlock")), "queued, paravirt") == 0 &&
	   json_is_true(json_object_get(json_object_get(j, "config"), "paravirt")) &&
	   json_is_false(json_object_get(json_object_get(j, "config"), "lockdep")),
	   "the run's kernel object: preemption, spin lock, each option");
	ok(json_array_size(a) == 1 &&
	   strcmp(json_string_value(json_array_get(a, 0)), "init_on_alloc") == 0,
	   "... and the inflating options on: init_on_alloc only");
	json_decref(j);
	ok(strcmp(pc_kernel_preempt_name(PC_KPREEMPT_FULL), "full") == 0 &&
	   strcmp(pc_kernel_preempt_name(99), "unknown") == 0 &&
	   strcmp(pc_kernel_spinlock_name(PC_KPREEMPT_FULL, 0), "generic") == 0 &&
	   strcmp(pc_kernel_spinlock_name(PC_KPREEMPT_NONE, PC_KCFG_QUEUED_SPINLOCKS),
		  "queued") == 0,
	   "preemption models and spin locks named");
	ok(strcmp(pc_kernel_preempt_name(PC_KPREEMPT_LAZY), "lazy") == 0,
	   "the lazy model (6.13 on) is named, not unknown");
	ok(strcmp(pc_kernel_spinlock_name(PC_KPREEMPT_RT, PC_KCFG_QUEUED_SPINLOCKS |
					  PC_KCFG_PARAVIRT_SPINLOCKS),
		  "rt_mutex (raw: queued, paravirt)") == 0,
	   "under PREEMPT_RT the spin lock is an rt_mutex, the raw lock queued");
}

static void test_slub_debug(void)
{
	char dir[] = "/tmp/unit_kernel.XXXXXX", path[64];
	FILE *f;

	ok(mkdtemp(dir) != NULL, "a temporary cache directory");
	snprintf(path, sizeof(path), "%s/red_zone", dir);
	f = fopen(path, "w");
	fputs("0\n", f);
	fclose(f);
	ok(!pc_kernel_slub_debug_on(dir), "red_zone 0: slub_debug off");
	f = fopen(path, "w");
	fputs("1\n", f);
	fclose(f);
	ok(pc_kernel_slub_debug_on(dir), "red_zone 1: slub_debug on");
	ok(!pc_kernel_slub_debug_on("/nonexistent"), "no such cache: off");
	remove(path);
	rmdir(dir);
}

/* What the module cannot see, from a tree of its own: slub_debug on a
 * timed kmalloc cache, the module's cache merged (a link), KFENCE
 * sampling and allocation profiling on. */
static void put(const char *root, const char *path, const char *text)
{
	char full[256], dir[256], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = 0;
		mkdir(dir, 0700);
		*slash = '/';
	}
	if ((f = fopen(full, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_config_read(void)
{
	char root[] = "/tmp/unit_kernel_root.XXXXXX", alias[64], link[256], cmd[300];
	uint64_t cfg;

	ok(mkdtemp(root) != NULL, "a temporary root");
	cfg = pc_kernel_config_read(root, 8192, alias, sizeof(alias));
	ok(cfg == 0 && !alias[0], "nothing there: nothing on, nothing merged");
	put(root, "/sys/kernel/slab/kmalloc-2k/poison", "1\n");
	put(root, "/sys/kernel/slab/:0000256/red_zone", "0\n");
	snprintf(link, sizeof(link), "%s/sys/kernel/slab/primcost_kernel", root);
	ok(symlink(":0000256", link) == 0, "the module's cache a link to an alias");
	put(root, "/sys/module/kfence/parameters/sample_interval", "100\n");
	put(root, "/proc/sys/vm/mem_profiling", "1\n");
	cfg = pc_kernel_config_read(root, 8192, alias, sizeof(alias));
	ok(cfg == (PC_KCFG_SLUB_DEBUG_ON | PC_KCFG_CACHE_MERGED | PC_KCFG_KFENCE_ON |
		   PC_KCFG_MEM_ALLOC_PROFILING_ON) && strcmp(alias, ":0000256") == 0,
	   "slub_debug on kmalloc-2k, the module's cache merged into %s, KFENCE sampling, "
	   "allocation profiling on", alias);
	ok(!(pc_kernel_config_read(root, 1024, alias, sizeof(alias)) & PC_KCFG_SLUB_DEBUG_ON),
	   "kmalloc-2k above the largest cache timed: its slub_debug not counted");
	put(root, "/sys/module/kfence/parameters/sample_interval", "0\n");
	ok(!(pc_kernel_config_read(root, 8192, alias, sizeof(alias)) & PC_KCFG_KFENCE_ON),
	   "KFENCE's interval 0: not sampling");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ok(system(cmd) == 0, "the tree removed");
}

static void test_served_by(void)
{
	char buf[64];

	ok(pc_kernel_served_by(8192, 8192, 12, buf, sizeof(buf)) &&
	   strcmp(buf, "slab cache") == 0, "8192 bytes: a slab cache (the largest)");
	ok(pc_kernel_served_by(16384, 8192, 12, buf, sizeof(buf)) &&
	   strcmp(buf, "page allocator, order 2") == 0, "16384 bytes: %s", buf);
	ok(pc_kernel_served_by(12288, 8192, 12, buf, sizeof(buf)) &&
	   strcmp(buf, "page allocator, order 2") == 0, "12288 bytes: order 2 (rounded up)");
	ok(pc_kernel_served_by(16384, 8192, 14, buf, sizeof(buf)) &&
	   strcmp(buf, "page allocator, order 0") == 0, "16 KiB pages: order 0");
	ok(!pc_kernel_served_by(16384, 0, 12, buf, sizeof(buf)),
	   "a result of before (no largest cache known): no label");
}

static void test_select(void)
{
	struct pc_kernel_options o;
	char err[PC_ERRLEN];

	ok(strcmp(pc_kernel_row_names[PC_KE_kmalloc], "kernel.kmalloc") == 0 &&
	   strcmp(pc_kernel_row_names[PC_KE_COUNT], PC_KERNEL_CONTENDED) == 0,
	   "row names: kernel. and the entry's name, the contended row last");
	ok(pc_kernel_select("kernel.*", &o, err, sizeof(err)) == PC_KE_COUNT + 1 && o.contended &&
	   o.entries[PC_KE_kmalloc] && o.entries[PC_KE_local_irq_save_restore],
	   "kernel.* selects every row and the contended one");
	ok(pc_kernel_select("kernel.kmalloc,kernel.cmpxchg_local", &o, err, sizeof(err)) == 2 &&
	   o.entries[PC_KE_kmalloc] && o.entries[PC_KE_cmpxchg_local] &&
	   !o.entries[PC_KE_kfree] && !o.contended, "two rows by name");
	ok(pc_kernel_select("kernel.nope", &o, err, sizeof(err)) < 0 && strstr(err, "kernel.nope"),
	   "a name of no row is refused: %s", err);
	ok(pc_kernel_select(",", &o, err, sizeof(err)) < 0 && strstr(err, "no probe names"),
	   "a list of commas only is refused, not run empty: %s", err);
	ok(pc_group_list_only(&pc_group_kernel, "kernel.spin_*") &&
	   !pc_group_list_only(&pc_group_kernel, "*") &&
	   !pc_group_list_only(&pc_group_kernel, "kernel.cmpxchg_local,cmpxchg_local"),
	   "-p of kernel rows only chooses the group");
}

/* A probes object as the group files it, in a document the validator
 * takes, inflated_by beside the figures. */
static void test_json(void)
{
	struct pc_kernel_row rows[3] = {
		{ .entry = PC_KE_cmpxchg_local },
		{ .entry = PC_KE_kmalloc, .size = 64 },
		{ .entry = -1, .threads = 2 },
	};
	struct pc_probe_result res[3];
	struct pc_profile prof = { .probes = res, .nprobes = 3 };
	struct pc_kernel_run kr = { .rows = rows, .nrows = 3, .config = PC_KCFG_INIT_ON_ALLOC,
				    .kmalloc_max = 8192, .page_shift = 12 };
	json_t *probes, *k;
	size_t i;

	memset(res, 0, sizeof(res));
	for (i = 0; i < 3; i++) {
		struct pc_summary s = { 10, 11, 12, 13, 14, 0.5, 12, 9 };

		res[i].status = PC_STATUS_OK;
		res[i].ticks = res[i].cycles = res[i].ns = s;
		res[i].samples = 9;
		res[i].iters = 100;
		res[i].ops_per_sample = 6400;
		res[i].cycles_per_tick = 1;
		res[i].linearity = 2;
		res[i].round_spread = 0.01;
	}
	probes = pc_kernel_json_probes(&kr, &prof, NULL);
	k = json_object_get(probes, "kernel.kmalloc");
	ok(json_object_get(probes, "kernel.cmpxchg_local") &&
	   !json_object_get(json_object_get(probes, "kernel.cmpxchg_local"), "inflated_by"),
	   "kernel.cmpxchg_local filed, nothing inflating it");
	ok(k && strcmp(json_string_value(json_object_get(json_array_get(json_object_get(k,
		"points"), 0), "inflated_by")), "init_on_alloc") == 0 &&
	   json_integer_value(json_object_get(json_array_get(json_object_get(k, "points"), 0),
					      "size")) == 64,
	   "kernel.kmalloc: a point of 64 bytes, inflated by init_on_alloc");
	ok(strcmp(json_string_value(json_object_get(json_array_get(json_object_get(k,
		"points"), 0), "served_by")) ? : "", "slab cache") == 0,
	   "... served by a slab cache");
	ok(json_integer_value(json_object_get(json_array_get(json_object_get(json_object_get(
		probes, PC_KERNEL_CONTENDED), "points"), 0), "threads")) == 2,
	   "the contended row: a point of 2 threads");
	for (i = 0, k = probes; i < 1; i++) {
		const char *name;
		json_t *p;
		char err[PC_ERRLEN];
		int bad = 0;

		json_object_foreach(k, name, p)
			if (pc_validate_probe(p, name, err, sizeof(err)) < 0) {
				bad = 1;
				diag("%s", err);
			}
		ok(!bad, "each row passes the result validator");
	}
	json_decref(probes);
}

/* Each entry's portable twin (pc_kernel.h) is an analog compare shows
 * (probes/answers.def), so the two lists cannot drift apart. */
static void test_twins(void)
{
	const char *row;
	size_t d;
	int e, missing = 0;

	for (e = 0; e < PC_KE_COUNT; e++) {
		if (!pc_kernel_entry_twins[e][0])
			continue;
		row = pc_kernel_row_names[e];
		for (d = 0; d < pc_analog_count; d++)
			if (strcmp(pc_analog_defs[d].probe, pc_kernel_entry_twins[e]) == 0 &&
			    strcmp(pc_analog_defs[d].analog, row) == 0)
				break;
		if (d == pc_analog_count) {
			missing++;
			diag("no analog %s ~ %s", pc_kernel_entry_twins[e], row);
		}
	}
	ok(!missing, "every kernel row with a portable twin is an analog of it in compare");
}

int main(void)
{
	test_twins();
	test_inflated();
	test_words();
	test_slub_debug();
	test_config_read();
	test_served_by();
	test_select();
	test_json();
	return done_testing();
}
