/* SPDX-License-Identifier: MIT */
/* ring0_backend.h - the ways into ring 0 behind src/ring0.c (x86-64). */
#ifndef PC_RING0_BACKEND_H
#define PC_RING0_BACKEND_H

#include "ring0.h"
#include "runner/ring0/abi.h"

/* What a backend's exec returns. */
enum pc_ring0_exec_rc {
	PC_RING0_EXEC_OK = 0,
	PC_RING0_EXEC_FAULT = -1,	/* the command's: a trap, the time limit, a refusal */
	PC_RING0_EXEC_CANNOT = -2,	/* the machine's: the hypervisor cannot run it */
};

struct pc_ring0_backend {
	const char *name;	/* "kvm", "kmod" */
	/* Executes c in ring 0: PC_RING0_EXEC_OK, or another with err filled;
	 * *vector gets a trap's vector, else -1. */
	int (*exec)(void *impl, struct pc_ring0_cmd *c, int *vector,
		    char *err, size_t errlen);
	void (*close)(void *impl);
};

/*
 * The calls the KVM micro-guest makes of /dev/kvm, as a table: the real
 * system calls, or a test's stand-in (tests/fake_kvm.c) for a /dev/kvm
 * that opens but fails (a vCPU that cannot be made, an ioctl that returns
 * EINVAL, KVM_RUN ending in an internal error), so that every machine,
 * with /dev/kvm or without, runs those branches.
 */
struct pc_kvm_calls {
	int (*open)(const char *path, int flags);
	int (*ioctl)(int fd, unsigned long request, void *arg);
	/* the vCPU's struct kvm_run, shared with KVM */
	void *(*mmap_run)(size_t len, int vcpu_fd);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
};
extern const struct pc_kvm_calls pc_kvm_real_calls;
/* The calls the micro-guest makes: &pc_kvm_real_calls unless a test set it. */
extern const struct pc_kvm_calls *pc_kvm_calls;

extern const struct pc_ring0_backend pc_ring0_kvm_backend;
extern const struct pc_ring0_backend pc_ring0_kmod_backend;

/* Each returns the backend's state, or NULL with why filled. */
void *pc_ring0_kvm_open(double timeout_s, char *why, size_t len);
/* load: may it load the module (root) when none is loaded? */
void *pc_ring0_kmod_open(const char *module_path, bool load, char *why, size_t len);
/* The module's device, open, for its other ioctl (the kernel group). */
int pc_ring0_kmod_fd(const void *impl);

#endif
