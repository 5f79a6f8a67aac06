/* SPDX-License-Identifier: MIT */
/*
 * ring0_way.h - the way into ring 0 on this architecture, behind ring0.c:
 * ring0_cmd.c on x86-64 (the KVM micro-guest or the kernel module, one
 * struct pc_ring0_cmd at a time), ring0_none.c elsewhere (none: the
 * reason says so). ring0.c itself knows no architecture.
 */
#ifndef PC_RING0_WAY_H
#define PC_RING0_WAY_H

#include "ring0.h"

struct pc_ring0_way;

/* What a command in ring 0 came to. */
enum pc_ring0_outcome {
	PC_RING0_RAN = 0,		/* it ran; a self-check passed */
	PC_RING0_ROW_FAILED,		/* the row's failure: its self-check, a trap,
					 * the time limit, a refusal of the command */
	PC_RING0_MACHINE_CANNOT,	/* this machine's: the CPU lacks what the
					 * body needs, or the hypervisor cannot run it */
};

/* Opens the way o asks for; NULL with why filled when none works. */
struct pc_ring0_way *pc_ring0_way_open(const struct pc_ring0_options *o,
				       char *why, size_t len);
void pc_ring0_way_close(struct pc_ring0_way *w);
const char *pc_ring0_way_name(const struct pc_ring0_way *w);	/* "kvm", "kmod" */

/*
 * Each runs one command in ring 0 and says what it came to, err filled
 * unless it ran (after how many operations and with IF on or off, where a
 * self-check failed); *vector gets a trap's vector, else -1.
 */
enum pc_ring0_outcome pc_ring0_way_selfcheck(struct pc_ring0_way *w, int id, char *err,
					     size_t len, int *vector);
enum pc_ring0_outcome pc_ring0_way_init(struct pc_ring0_way *w, int id,
					struct pc_probe_state *st, char *err, size_t len,
					int *vector);
enum pc_ring0_outcome pc_ring0_way_run(struct pc_ring0_way *w, int id,
				       struct pc_probe_state *st, uint64_t iters, int hi,
				       uint64_t *ticks, char *err, size_t len, int *vector);

#endif
