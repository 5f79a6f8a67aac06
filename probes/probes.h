/* SPDX-License-Identifier: MIT */
/* probes.h - the probe table as C: ids, groups, rows. Freestanding. */
#ifndef PC_PROBES_H
#define PC_PROBES_H

enum pc_group {
	PC_GROUP_BASELINE,
	PC_GROUP_CALIBRATION,
	PC_GROUP_TIMER,
	PC_GROUP_CMPXCHG,
	PC_GROUP_ADD_RETURN,
	PC_GROUP_XCHG,
	PC_GROUP_BARRIER,
	PC_GROUP_RING3_ANALOG,
	PC_GROUP_PERCPU,
	PC_GROUP_IRQ,
	PC_GROUP_COUNT
};

enum pc_probe_id {
#define PC_PROBE(id, name, group, ring, syscalls, api, desc) PC_PROBE_##id,
#include "probes.def"
#undef PC_PROBE
	PC_PROBE_COUNT
};

struct pc_probe_row {
	const char *name;
	enum pc_group group;
	int ring;		/* 3: user mode is enough; 0: needs kernel mode */
	int syscalls;		/* system calls one operation makes */
	const char *kernel_api;
	const char *description;
};

/* probes.c */
extern const struct pc_probe_row pc_probe_rows[PC_PROBE_COUNT];
const char *pc_group_name(enum pc_group g);

#endif
