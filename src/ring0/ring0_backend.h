/* SPDX-License-Identifier: MIT */
/* ring0_backend.h - the ways into ring 0 behind src/ring0.c (x86-64). */
#ifndef PC_RING0_BACKEND_H
#define PC_RING0_BACKEND_H

#include "ring0.h"
#include "runner/ring0/abi.h"

struct pc_ring0_backend {
	const char *name;	/* "kvm", "kmod" */
	/* Executes c in ring 0: 0, or -1 with err filled (a trap, the time
	 * limit, the backend itself); *vector gets a trap's vector, else -1. */
	int (*exec)(void *impl, struct pc_ring0_cmd *c, int *vector,
		    char *err, size_t errlen);
	void (*close)(void *impl);
};

extern const struct pc_ring0_backend pc_ring0_kvm_backend;
extern const struct pc_ring0_backend pc_ring0_kmod_backend;

/* Each returns the backend's state, or NULL with why filled. */
void *pc_ring0_kvm_open(double timeout_s, char *why, size_t len);
/* load: may it load the module (root) when none is loaded? */
void *pc_ring0_kmod_open(const char *module_path, bool load, char *why, size_t len);
/* The module's device, open, for its other ioctl (the kernel group). */
int pc_ring0_kmod_fd(const void *impl);

#endif
