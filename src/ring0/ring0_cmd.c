/* SPDX-License-Identifier: MIT */
/*
 * ring0_cmd.c - the x86-64 ways into ring 0 (ring0_way.h): a loaded kernel
 * module, the KVM micro-guest, or the module loaded now; each executes one
 * struct pc_ring0_cmd at a time on the shared probe code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring0_backend.h"
#include "ring0_way.h"

struct pc_ring0_way {
	const struct pc_ring0_backend *be;
	void *impl;
};

static struct pc_ring0_way *way(const struct pc_ring0_backend *be, void *impl)
{
	struct pc_ring0_way *w;

	if (!impl)
		return NULL;
	if (!(w = calloc(1, sizeof(*w)))) {
		be->close(impl);
		return NULL;
	}
	w->be = be;
	w->impl = impl;
	return w;
}

/* auto: a module already loaded is the bare-metal way; else KVM; else try
 * loading the module. */
struct pc_ring0_way *pc_ring0_way_open(const struct pc_ring0_options *o,
				       char *why, size_t len)
{
	char kvm_why[256] = "", kmod_why[256] = "";
	double timeout = o->timeout_s > 0 ? o->timeout_s : PC_RING0_TIMEOUT_DEFAULT_S;
	struct pc_ring0_way *w = NULL;

	if (o->mode == PC_RING0_AUTO || o->mode == PC_RING0_KMOD)
		w = way(&pc_ring0_kmod_backend,
			pc_ring0_kmod_open(o->module_path, o->mode == PC_RING0_KMOD,
					   kmod_why, sizeof(kmod_why)));
	if (!w && (o->mode == PC_RING0_AUTO || o->mode == PC_RING0_KVM))
		w = way(&pc_ring0_kvm_backend,
			pc_ring0_kvm_open(timeout, kvm_why, sizeof(kvm_why)));
	if (!w && o->mode == PC_RING0_AUTO)
		w = way(&pc_ring0_kmod_backend,
			pc_ring0_kmod_open(o->module_path, true, kmod_why,
					   sizeof(kmod_why)));
	if (w)
		return w;
	if (o->mode == PC_RING0_KVM)
		snprintf(why, len, "kvm: %s", kvm_why);
	else if (o->mode == PC_RING0_KMOD)
		snprintf(why, len, "kmod: %s", kmod_why);
	else
		snprintf(why, len, "kvm: %s; kmod: %s", kvm_why, kmod_why);
	return NULL;
}

void pc_ring0_way_close(struct pc_ring0_way *w)
{
	if (!w)
		return;
	w->be->close(w->impl);
	free(w);
}

const char *pc_ring0_way_name(const struct pc_ring0_way *w)
{
	return w ? w->be->name : NULL;
}

/* One command of op on entry id, the rest of c filled by the caller (cleared
 * by the caller): what it came to, err filled unless it ran. A status of
 * the command's own (a failed check, a row the CPU cannot run) is read by
 * the caller. */
static enum pc_ring0_outcome command(struct pc_ring0_way *w, struct pc_ring0_cmd *c,
				     uint32_t op, int id, char *err, size_t len,
				     int *vector)
{
	int rc;

	c->op = op;
	c->probe = (uint32_t)id;
	*vector = -1;
	if (!w) {
		snprintf(err, len, "no ring-0 backend");
		return PC_RING0_MACHINE_CANNOT;
	}
	rc = w->be->exec(w->impl, c, vector, err, len);
	if (rc != PC_RING0_EXEC_OK)
		return rc == PC_RING0_EXEC_CANNOT ? PC_RING0_MACHINE_CANNOT :
		       PC_RING0_ROW_FAILED;
	c->reason[sizeof(c->reason) - 1] = 0;
	if (c->status == PC_RING0_OK)
		return PC_RING0_RAN;
	if (c->status == PC_RING0_UNAVAILABLE) {
		snprintf(err, len, "this CPU cannot run it in ring 0: %s", c->reason);
		return PC_RING0_MACHINE_CANNOT;
	}
	snprintf(err, len, "%s", c->reason);
	return PC_RING0_ROW_FAILED;
}

enum pc_ring0_outcome pc_ring0_way_selfcheck(struct pc_ring0_way *w, int id, char *err,
					     size_t len, int *vector)
{
	struct pc_ring0_cmd c;
	enum pc_ring0_outcome o;

	memset(&c, 0, sizeof(c));
	o = command(w, &c, PC_RING0_OP_SELFCHECK, id, err, len, vector);
	if (o == PC_RING0_ROW_FAILED && c.status == PC_RING0_CHECK_FAILED && c.ops)
		snprintf(err, len, "self-check failed in ring 0 after %llu operations "
			 "(entered with interrupts %s): %s", (unsigned long long)c.ops,
			 c.if_start ? "on" : "off", c.reason);
	else if (o == PC_RING0_ROW_FAILED && c.status != PC_RING0_OK)
		snprintf(err, len, "self-check failed in ring 0: %s", c.reason);
	return o;
}

enum pc_ring0_outcome pc_ring0_way_init(struct pc_ring0_way *w, int id,
					struct pc_probe_state *st, char *err, size_t len,
					int *vector)
{
	struct pc_ring0_cmd c;
	enum pc_ring0_outcome o;

	memset(&c, 0, sizeof(c));
	o = command(w, &c, PC_RING0_OP_INIT, id, err, len, vector);
	if (o == PC_RING0_RAN)
		*st = c.st;
	return o;
}

enum pc_ring0_outcome pc_ring0_way_run(struct pc_ring0_way *w, int id,
				       struct pc_probe_state *st, uint64_t iters, int hi,
				       uint64_t *ticks, char *err, size_t len, int *vector)
{
	struct pc_ring0_cmd c;
	enum pc_ring0_outcome o;
	char why[sizeof(c.reason)];

	memset(&c, 0, sizeof(c));
	c.iters = iters;
	c.hi = hi != 0;
	c.st = *st;
	o = command(w, &c, PC_RING0_OP_RUN, id, err, len, vector);
	if (o == PC_RING0_RAN) {
		*st = c.st;
		*ticks = c.ticks;
	} else if (c.status != PC_RING0_OK && c.status != PC_RING0_UNAVAILABLE) {
		snprintf(why, sizeof(why), "%s", c.reason);
		snprintf(err, len, "%s (%llu iterations)", why, (unsigned long long)iters);
	}
	return o;
}
