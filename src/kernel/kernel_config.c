/* SPDX-License-Identifier: MIT */
/*
 * kernel_config.c - what the running kernel's configuration says of the
 * kernel group's figures: which options are on (the module reports them,
 * PC_KCFG_* of pc_kernel.h), which of those inflate a figure, and by what
 * the figure does (PC_KT_*). Pure functions, unit-tested
 * (tests/unit_kernel.c): no Debian kernel flavour has lockdep on.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel.h"

/* An option that makes the kernel do more than the primitive: its word,
 * the config bits that turn it on, what it inflates. */
struct inflating {
	const char *word;
	uint64_t config;
	unsigned touches;
};

static const struct inflating inflating[] = {
	/* lock acquisitions recorded and validated; with it the irq-flag
	 * and RCU read-side hooks */
	{ "lockdep", PC_KCFG_LOCKDEP | PC_KCFG_PROVE_LOCKING | PC_KCFG_DEBUG_LOCK_ALLOC,
	  PC_KT_LOCK | PC_KT_IRQ | PC_KT_RCU },
	/* every interrupt-flag change traced (lockdep's, or a tracer's) */
	{ "irq-flag tracing", PC_KCFG_TRACE_IRQFLAGS, PC_KT_IRQ },
	{ "spinlock debugging", PC_KCFG_DEBUG_SPINLOCK, PC_KT_LOCK },
	{ "preempt debugging", PC_KCFG_DEBUG_PREEMPT, PC_KT_PREEMPT },
	/* instrumented atomics and allocations */
	{ "KASAN", PC_KCFG_KASAN, PC_KT_ATOMIC | PC_KT_LOCK | PC_KT_ALLOC | PC_KT_FREE },
	{ "KCSAN", PC_KCFG_KCSAN, PC_KT_ATOMIC | PC_KT_LOCK | PC_KT_ALLOC | PC_KT_FREE },
	{ "slub_debug", PC_KCFG_SLUB_DEBUG_ON, PC_KT_ALLOC | PC_KT_FREE },
	/* the object zeroed when allocated, or when freed */
	{ "init_on_alloc", PC_KCFG_INIT_ON_ALLOC, PC_KT_ALLOC },
	{ "init_on_free", PC_KCFG_INIT_ON_FREE, PC_KT_FREE },
	/* might_sleep()'s check in what may sleep: the GFP_KERNEL
	 * allocations and the mutex */
	{ "atomic-sleep debugging", PC_KCFG_DEBUG_ATOMIC_SLEEP, PC_KT_SLEEP },
	/* an allocation sampled now and then (a guarded page), and every
	 * free asks whether its object is one */
	{ "KFENCE", PC_KCFG_KFENCE_ON, PC_KT_ALLOC | PC_KT_FREE },
	/* the free pointer stored scrambled, unscrambled on allocation */
	{ "freelist hardening", PC_KCFG_SLAB_FREELIST_HARDENED, PC_KT_ALLOC | PC_KT_FREE },
	/* the kmalloc cache chosen by a hash of the caller */
	{ "random kmalloc caches", PC_KCFG_RANDOM_KMALLOC_CACHES, PC_KT_ALLOC },
	/* a counter of the call site raised and lowered */
	{ "allocation profiling", PC_KCFG_MEM_ALLOC_PROFILING_ON, PC_KT_ALLOC | PC_KT_FREE },
};

#define NINFLATING (sizeof(inflating) / sizeof(inflating[0]))

const char *pc_kernel_inflated_by(uint64_t config, unsigned touches, char *buf, size_t len)
{
	size_t i, at = 0;

	if (len)
		buf[0] = 0;
	for (i = 0; i < NINFLATING; i++) {
		if (!(config & inflating[i].config) || !(touches & inflating[i].touches))
			continue;
		/* lockdep traces the flags itself: one word for both */
		if (inflating[i].config == PC_KCFG_TRACE_IRQFLAGS &&
		    (config & inflating[0].config))
			continue;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       inflating[i].word);
	}
	return buf;
}

json_t *pc_kernel_inflating_json(uint64_t config)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < NINFLATING; i++)
		if (config & inflating[i].config)
			json_array_append_new(a, json_string(inflating[i].word));
	return a;
}

const char *pc_kernel_preempt_name(uint32_t model)
{
	static const char *const names[] = {
		[PC_KPREEMPT_UNKNOWN] = "unknown", [PC_KPREEMPT_NONE] = "none",
		[PC_KPREEMPT_VOLUNTARY] = "voluntary", [PC_KPREEMPT_FULL] = "full",
		[PC_KPREEMPT_RT] = "rt", [PC_KPREEMPT_LAZY] = "lazy",
	};

	return model < sizeof(names) / sizeof(names[0]) ? names[model] : "unknown";
}

const char *pc_kernel_spinlock_name(uint32_t preempt, uint64_t config)
{
	static const char *const names[2][3] = {
		{ "generic", "queued", "queued, paravirt" },
		/* PREEMPT_RT: spinlock_t sleeps; raw_spinlock_t is the arch's */
		{ "rt_mutex (raw: generic)", "rt_mutex (raw: queued)",
		  "rt_mutex (raw: queued, paravirt)" },
	};
	int form = !(config & PC_KCFG_QUEUED_SPINLOCKS) ? 0 :
		   config & PC_KCFG_PARAVIRT_SPINLOCKS ? 2 : 1;

	return names[preempt == PC_KPREEMPT_RT][form];
}

json_t *pc_kernel_config_json(const char *release, uint32_t preempt, uint64_t config)
{
	static const struct { const char *key; uint64_t bit; } opts[] = {
		{ "paravirt", PC_KCFG_PARAVIRT },
		{ "preempt_dynamic", PC_KCFG_PREEMPT_DYNAMIC },
		{ "queued_spinlocks", PC_KCFG_QUEUED_SPINLOCKS },
		{ "paravirt_spinlocks", PC_KCFG_PARAVIRT_SPINLOCKS },
		{ "lockdep", PC_KCFG_LOCKDEP },
		{ "prove_locking", PC_KCFG_PROVE_LOCKING },
		{ "debug_lock_alloc", PC_KCFG_DEBUG_LOCK_ALLOC },
		{ "debug_spinlock", PC_KCFG_DEBUG_SPINLOCK },
		{ "trace_irqflags", PC_KCFG_TRACE_IRQFLAGS },
		{ "debug_preempt", PC_KCFG_DEBUG_PREEMPT },
		{ "kasan", PC_KCFG_KASAN },
		{ "kcsan", PC_KCFG_KCSAN },
		{ "slub_debug", PC_KCFG_SLUB_DEBUG },
		{ "slub_debug_on", PC_KCFG_SLUB_DEBUG_ON },
		{ "init_on_alloc", PC_KCFG_INIT_ON_ALLOC },
		{ "init_on_free", PC_KCFG_INIT_ON_FREE },
		{ "preempt_lazy", PC_KCFG_PREEMPT_LAZY },
		{ "preempt_rcu", PC_KCFG_PREEMPT_RCU },
		{ "debug_atomic_sleep", PC_KCFG_DEBUG_ATOMIC_SLEEP },
		{ "kfence", PC_KCFG_KFENCE },
		{ "kfence_on", PC_KCFG_KFENCE_ON },
		{ "slab_freelist_hardened", PC_KCFG_SLAB_FREELIST_HARDENED },
		{ "random_kmalloc_caches", PC_KCFG_RANDOM_KMALLOC_CACHES },
		{ "mem_alloc_profiling", PC_KCFG_MEM_ALLOC_PROFILING },
		{ "mem_alloc_profiling_on", PC_KCFG_MEM_ALLOC_PROFILING_ON },
		{ "module_cache_merged", PC_KCFG_CACHE_MERGED },
	};
	json_t *o = json_object(), *c = json_object();
	size_t i;

	for (i = 0; c && i < sizeof(opts) / sizeof(opts[0]); i++)
		json_object_set_new(c, opts[i].key, json_boolean(config & opts[i].bit));
	json_object_set_new(o, "release", json_string(release));
	json_object_set_new(o, "preempt", json_string(pc_kernel_preempt_name(preempt)));
	json_object_set_new(o, "spinlock", json_string(pc_kernel_spinlock_name(preempt,
									    config)));
	json_object_set_new(o, "config", c);
	json_object_set_new(o, "inflating", pc_kernel_inflating_json(config));
	return o;
}

bool pc_kernel_slub_debug_on(const char *dir)
{
	static const char *const files[] = { "sanity_checks", "red_zone", "poison",
					     "store_user" };
	char path[512];
	size_t i;
	int c;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (!(f = fopen(path, "r")))
			continue;
		c = fgetc(f);
		fclose(f);
		if (c == '1')
			return true;
	}
	return false;
}

/* The first character of file path under root; 0 when it cannot be read. */
static int first_char(const char *root, const char *path)
{
	char full[512];
	FILE *f;
	int c;

	snprintf(full, sizeof(full), "%s%s", root, path);
	if (!(f = fopen(full, "r")))
		return 0;
	c = fgetc(f);
	fclose(f);
	return c == EOF ? 0 : c;
}

uint64_t pc_kernel_config_read(const char *root, unsigned kmalloc_max, char *alias,
			       size_t len)
{
	char path[512], link[256];
	uint64_t cfg = 0;
	unsigned size;
	ssize_t n;
	int c;

	if (len)
		alias[0] = 0;
	/* the caches timed: kmalloc's of the sizes measured, and the module's */
	for (size = 8; size <= kmalloc_max && size <= PC_KERNEL_MAX_SIZE; size *= 2) {
		if (size < 1024)
			snprintf(path, sizeof(path), "%s/sys/kernel/slab/kmalloc-%u", root, size);
		else
			snprintf(path, sizeof(path), "%s/sys/kernel/slab/kmalloc-%uk", root,
				 size / 1024);
		if (pc_kernel_slub_debug_on(path))
			cfg |= PC_KCFG_SLUB_DEBUG_ON;
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/slab/primcost_kernel", root);
	if (pc_kernel_slub_debug_on(path))
		cfg |= PC_KCFG_SLUB_DEBUG_ON;
	/* merged, the cache's name is a link to the alias's unique name */
	if ((n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = 0;
		cfg |= PC_KCFG_CACHE_MERGED;
		if (len)
			snprintf(alias, len, "%s", strrchr(link, '/') ? strrchr(link, '/') + 1 :
				 link);
	}
	/* KFENCE samples unless its interval is 0 */
	c = first_char(root, "/sys/module/kfence/parameters/sample_interval");
	if (c && c != '0')
		cfg |= PC_KCFG_KFENCE_ON;
	if (first_char(root, "/proc/sys/vm/mem_profiling") == '1')
		cfg |= PC_KCFG_MEM_ALLOC_PROFILING_ON;
	return cfg;
}

const char *pc_kernel_served_by(unsigned size, unsigned kmalloc_max, unsigned page_shift,
				char *buf, size_t len)
{
	unsigned order = 0;

	if (!kmalloc_max || !page_shift || page_shift > 20)
		return NULL;
	if (size <= kmalloc_max) {
		snprintf(buf, len, "slab cache");
		return buf;
	}
	/* get_order(): the pages, rounded up to a power of two */
	while (((size_t)1 << (page_shift + order)) < size)
		order++;
	snprintf(buf, len, "page allocator, order %u", order);
	return buf;
}
