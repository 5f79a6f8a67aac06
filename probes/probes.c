/* SPDX-License-Identifier: MIT */
/* probes.c - the rows of probes.def as data, and the groups' names. */
#include "probes.h"

const struct pc_probe_row pc_probe_rows[PC_PROBE_COUNT] = {
#define PC_PROBE(id, name, group, ring, syscalls, api, desc) \
	[PC_PROBE_##id] = { name, group, ring, syscalls, api, desc },
#include "probes.def"
#undef PC_PROBE
};

static const char *const group_names[PC_GROUP_COUNT] = {
	[PC_GROUP_BASELINE] = "baseline",
	[PC_GROUP_CALIBRATION] = "calibration",
	[PC_GROUP_TIMER] = "timer",
	[PC_GROUP_CMPXCHG] = "cmpxchg",
	[PC_GROUP_ADD_RETURN] = "add_return",
	[PC_GROUP_XCHG] = "xchg",
	[PC_GROUP_BARRIER] = "barriers",
	[PC_GROUP_RING3_ANALOG] = "ring3",
	[PC_GROUP_PERCPU] = "percpu",
	[PC_GROUP_IRQ] = "irq",
};

const char *pc_group_name(enum pc_group g)
{
	return (unsigned)g < PC_GROUP_COUNT ? group_names[g] : "?";
}
