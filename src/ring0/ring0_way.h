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

/* Opens the way o asks for; NULL with why filled when none works. */
struct pc_ring0_way *pc_ring0_way_open(const struct pc_ring0_options *o,
				       char *why, size_t len);
void pc_ring0_way_close(struct pc_ring0_way *w);
const char *pc_ring0_way_name(const struct pc_ring0_way *w);	/* "kvm", "kmod" */

/*
 * Each runs one command in ring 0 and returns 0, or -1 with err filled (a
 * trap, the time limit, a refusal); *vector gets a trap's vector, else -1.
 * selfcheck: 0 with *failed set when the probe's check failed there, err
 * then saying after how many operations and with IF on or off.
 */
int pc_ring0_way_selfcheck(struct pc_ring0_way *w, int id, bool *failed,
			   char *err, size_t len, int *vector);
int pc_ring0_way_init(struct pc_ring0_way *w, int id, struct pc_probe_state *st,
		      char *err, size_t len, int *vector);
int pc_ring0_way_run(struct pc_ring0_way *w, int id, struct pc_probe_state *st,
		     uint64_t iters, int hi, uint64_t *ticks, char *err, size_t len,
		     int *vector);

#endif
