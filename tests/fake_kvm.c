/* SPDX-License-Identifier: MIT */
/*
 * fake_kvm.c - a /dev/kvm that opens but fails (fake_kvm.h), behind the
 * micro-guest's seam. Its file descriptors are numbers of its own; its
 * vCPU's struct kvm_run is memory of its own. The pvm kind plays the
 * micro-guest's side of the mailbox itself: it answers the boot, passes
 * every self-check, times the gate's rows by running their bodies here, in
 * ring 3, FAKE_KVM_SLOWDOWN times over (the ring-0 rows, which would fault
 * here, by a fixed cost), reports a trap for the ud2 test entry, and ends
 * in KVM's internal error (emulation) on the cmpxchg16b rows, its rip on a
 * cmpxchg16b it wrote into guest memory, as kvm_pvm does.
 */
#include "fake_kvm.h"

#if defined(__x86_64__)
#include <errno.h>
#include <linux/kvm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ring0/ring0_backend.h"

const char *const fake_kvm_names[FAKE_KVM_KINDS] = {
	[FAKE_KVM_NO_DEVICE] = "no /dev/kvm",
	[FAKE_KVM_NO_ACCESS] = "a /dev/kvm this user may not open",
	[FAKE_KVM_OLD_API] = "a KVM of API 11",
	[FAKE_KVM_NO_VM] = "KVM_CREATE_VM fails (EINVAL)",
	[FAKE_KVM_NO_VCPU] = "a vCPU that cannot be made (KVM_CREATE_VCPU: EINVAL)",
	[FAKE_KVM_NO_SREGS] = "KVM_SET_SREGS fails (EINVAL)",
	[FAKE_KVM_RUN_EINVAL] = "KVM_RUN fails (EINVAL) from the start",
	[FAKE_KVM_BOOT_INTERNAL] = "an internal error as the guest boots",
	[FAKE_KVM_PVM] = "a software hypervisor (emulated ring 0, no cmpxchg16b)",
	[FAKE_KVM_LATER_EINVAL] = "KVM_RUN fails (EINVAL) after the boot",
	[FAKE_KVM_LATER_FAIL_ENTRY] = "KVM cannot enter the guest after the boot",
};

enum { FD_KVM = 10001, FD_VM, FD_VCPU, FD_END };

/* Where the fake writes the instruction it cannot emulate. */
#define FAKE_RIP 0x9000
/* The ring-0 rows' fake cost per operation, in timer ticks, before the
 * slowdown: they cannot run here. */
#define FAKE_RING0_TICKS 3

static struct {
	enum fake_kvm_kind kind;
	bool open[FD_END - FD_KVM];
	unsigned char *mem;		/* guest memory, as KVM_SET_USER_MEMORY_REGION gave it */
	struct kvm_run *run;
	size_t run_size;
	bool booting;			/* KVM_SET_REGS was given the entry: READY next */
	uint64_t rip;
} fake;

static int fail(int e)
{
	errno = e;
	return -1;
}

static int new_fd(int fd)
{
	fake.open[fd - FD_KVM] = true;
	return fd;
}

static int fake_open(const char *path, int flags)
{
	(void)path;
	(void)flags;
	if (fake.kind == FAKE_KVM_NO_DEVICE)
		return fail(ENOENT);
	if (fake.kind == FAKE_KVM_NO_ACCESS)
		return fail(EACCES);
	return new_fd(FD_KVM);
}

static int fake_close(int fd)
{
	if (fd < FD_KVM || fd >= FD_END || !fake.open[fd - FD_KVM])
		return fail(EBADF);
	fake.open[fd - FD_KVM] = false;
	return 0;
}

static void *fake_mmap_run(size_t len, int fd)
{
	if (fd != FD_VCPU || fake.run) {
		errno = EINVAL;
		return (void *)-1;
	}
	fake.run = aligned_alloc(4096, len);
	if (!fake.run)
		return (void *)-1;
	memset(fake.run, 0, len);
	fake.run_size = len;
	return fake.run;
}

static int fake_munmap(void *addr, size_t len)
{
	if (addr != fake.run || len != fake.run_size)
		return fail(EINVAL);
	free(fake.run);
	fake.run = NULL;
	return 0;
}

/* ---- the run ------------------------------------------------------------------ */

/* The guest writes what to its port. */
static int port_exit(uint32_t what)
{
	struct kvm_run *run = fake.run;

	run->exit_reason = KVM_EXIT_IO;
	run->io.direction = KVM_EXIT_IO_OUT;
	run->io.port = PC_GUEST_PORT;
	run->io.size = 4;
	run->io.count = 1;
	run->io.data_offset = 4096;
	memcpy((unsigned char *)run + run->io.data_offset, &what, 4);
	return 0;
}

/* KVM's internal error, emulation, on a cmpxchg16b of the fake's. */
static int internal_error(void)
{
	static const unsigned char cmpxchg16b[] = { 0xf0, 0x48, 0x0f, 0xc7, 0x0e };

	memcpy(fake.mem + FAKE_RIP, cmpxchg16b, sizeof(cmpxchg16b));
	fake.rip = FAKE_RIP;
	fake.run->exit_reason = KVM_EXIT_INTERNAL_ERROR;
	fake.run->internal.suberror = KVM_INTERNAL_ERROR_EMULATION;
	fake.run->internal.ndata = 0;
	return 0;
}

/* A timed loop as the emulated guest would take it. */
static uint64_t emulated_ticks(struct pc_ring0_cmd *c)
{
	const struct pc_arch_probe *p = &pc_arch_probes[c->probe];
	uint64_t ops = c->iters * (c->hi ? PC_UNROLL_HI : PC_UNROLL_LO);

	if (pc_probe_rows[c->probe].ring == 0 || !p->run)
		return ops * FAKE_RING0_TICKS * FAKE_KVM_SLOWDOWN;
	return p->run(&c->st, c->iters, c->hi != 0) * FAKE_KVM_SLOWDOWN;
}

/* The pvm guest's side of one command in the mailbox. */
static int pvm_command(void)
{
	struct pc_guest_mailbox *mb = (struct pc_guest_mailbox *)(fake.mem + PC_GUEST_MAILBOX);
	struct pc_ring0_cmd *c = &mb->cmd;

	if ((c->probe == PC_PROBE_this_cpu_cmpxchg_double || c->probe == PC_PROBE_cmpxchg128) &&
	    c->op != PC_RING0_OP_INIT)
		return internal_error();
	if (c->probe == PC_RING0_TEST_UD2) {
		mb->trap_vector = 6;
		mb->trap_rip = 0x100000;
		return port_exit(PC_GUEST_TRAPPED);
	}
	c->status = PC_RING0_OK;
	c->reason[0] = 0;
	if (c->probe >= PC_PROBE_COUNT) {
		c->status = PC_RING0_BAD_COMMAND;
		strcpy(c->reason, "no such probe in ring 0");
	} else if (c->op == PC_RING0_OP_INIT) {
		memset(&c->st, 0, sizeof(c->st));
		if (pc_arch_probes[c->probe].init)
			pc_arch_probes[c->probe].init(&c->st);
	} else if (c->op == PC_RING0_OP_RUN) {
		c->ticks = emulated_ticks(c);
	}
	return port_exit(PC_GUEST_DONE);
}

static int fake_kvm_run(void)
{
	if (fake.kind == FAKE_KVM_RUN_EINVAL)
		return fail(EINVAL);
	if (fake.booting) {
		fake.booting = false;
		if (fake.kind == FAKE_KVM_BOOT_INTERNAL)
			return internal_error();
		return port_exit(PC_GUEST_READY);
	}
	switch (fake.kind) {
	case FAKE_KVM_LATER_EINVAL:
		return fail(EINVAL);
	case FAKE_KVM_LATER_FAIL_ENTRY:
		fake.run->exit_reason = KVM_EXIT_FAIL_ENTRY;
		fake.run->fail_entry.hardware_entry_failure_reason = 0x80000021;
		return 0;
	default:
		return pvm_command();
	}
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	if (fd < FD_KVM || fd >= FD_END || !fake.open[fd - FD_KVM])
		return fail(EBADF);
	switch (request) {
	case KVM_GET_API_VERSION:
		return fake.kind == FAKE_KVM_OLD_API ? 11 : KVM_API_VERSION;
	case KVM_CREATE_VM:
		return fake.kind == FAKE_KVM_NO_VM ? fail(EINVAL) : new_fd(FD_VM);
	case KVM_SET_USER_MEMORY_REGION:
		fake.mem = (unsigned char *)(uintptr_t)
			((struct kvm_userspace_memory_region *)arg)->userspace_addr;
		return 0;
	case KVM_CREATE_VCPU:
		return fake.kind == FAKE_KVM_NO_VCPU ? fail(EINVAL) : new_fd(FD_VCPU);
	case KVM_GET_VCPU_MMAP_SIZE:
		return 3 * 4096;
	case KVM_GET_SUPPORTED_CPUID:	/* the micro-guest does without */
		return fail(EINVAL);
	case KVM_GET_SREGS:
		memset(arg, 0, sizeof(struct kvm_sregs));
		return 0;
	case KVM_SET_SREGS:
		return fake.kind == FAKE_KVM_NO_SREGS ? fail(EINVAL) : 0;
	case KVM_SET_REGS:
		fake.rip = ((struct kvm_regs *)arg)->rip;
		fake.booting = true;
		return 0;
	case KVM_GET_REGS:
		memset(arg, 0, sizeof(struct kvm_regs));
		((struct kvm_regs *)arg)->rip = fake.rip;
		return 0;
	case KVM_RUN:
		return fake_kvm_run();
	default:
		return fail(ENOTTY);
	}
}

static const struct pc_kvm_calls fake_calls = {
	fake_open, fake_ioctl, fake_mmap_run, fake_munmap, fake_close,
};

void fake_kvm_install(enum fake_kvm_kind k)
{
	memset(&fake, 0, sizeof(fake));
	fake.kind = k;
	pc_kvm_calls = &fake_calls;
}

void fake_kvm_remove(void)
{
	pc_kvm_calls = &pc_kvm_real_calls;
}

int fake_kvm_open_fds(void)
{
	int i, n = 0;

	for (i = 0; i < FD_END - FD_KVM; i++)
		n += fake.open[i];
	return n + (fake.run != NULL);
}
#endif
