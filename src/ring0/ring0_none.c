/* SPDX-License-Identifier: MIT */
/*
 * ring0_none.c - no way into ring 0: the KVM micro-guest and the kernel
 * module are x86-64 only (ring0_way.h).
 */
#include <stdio.h>

#include "ring0_way.h"

struct pc_ring0_way *pc_ring0_way_open(const struct pc_ring0_options *o,
				       char *why, size_t len)
{
	(void)o;
	snprintf(why, len, "no ring-0 backend on %s (the KVM micro-guest and the "
		 "kernel module are x86-64 only)", pc_arch_name);
	return NULL;
}

void pc_ring0_way_close(struct pc_ring0_way *w)
{
	(void)w;
}

const char *pc_ring0_way_name(const struct pc_ring0_way *w)
{
	(void)w;
	return NULL;
}

static enum pc_ring0_outcome none(char *err, size_t len, int *vector)
{
	*vector = -1;
	snprintf(err, len, "no ring-0 backend on %s", pc_arch_name);
	return PC_RING0_MACHINE_CANNOT;
}

enum pc_ring0_outcome pc_ring0_way_selfcheck(struct pc_ring0_way *w, int id, char *err,
					     size_t len, int *vector)
{
	(void)w, (void)id;
	return none(err, len, vector);
}

enum pc_ring0_outcome pc_ring0_way_init(struct pc_ring0_way *w, int id,
					struct pc_probe_state *st, char *err, size_t len,
					int *vector)
{
	(void)w, (void)id, (void)st;
	return none(err, len, vector);
}

enum pc_ring0_outcome pc_ring0_way_run(struct pc_ring0_way *w, int id,
				       struct pc_probe_state *st, uint64_t iters, int hi,
				       uint64_t *ticks, char *err, size_t len, int *vector)
{
	(void)w, (void)id, (void)st, (void)iters, (void)hi, (void)ticks;
	return none(err, len, vector);
}
