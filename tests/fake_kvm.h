/* SPDX-License-Identifier: MIT */
/*
 * fake_kvm.h - a /dev/kvm that opens but fails, put behind the KVM
 * micro-guest through its seam (pc_kvm_calls, src/ring0/ring0_backend.h),
 * so that every machine runs the branches of the machines nobody here has:
 * a hypervisor too old, one that cannot make a VM or a vCPU, one whose
 * ioctls return EINVAL, one whose KVM_RUN ends in an internal error, and a
 * software hypervisor that emulates guest ring 0 (kvm_pvm): it boots and
 * answers, 2,000 times slower than the host, and cannot emulate
 * cmpxchg16b. x86-64 only, as the micro-guest is.
 */
#ifndef PC_TEST_FAKE_KVM_H
#define PC_TEST_FAKE_KVM_H

enum fake_kvm_kind {
	FAKE_KVM_NO_DEVICE,	/* open: ENOENT */
	FAKE_KVM_NO_ACCESS,	/* open: EACCES */
	FAKE_KVM_OLD_API,	/* KVM_GET_API_VERSION: 11 */
	FAKE_KVM_NO_VM,		/* KVM_CREATE_VM: EINVAL */
	FAKE_KVM_NO_VCPU,	/* KVM_CREATE_VCPU: EINVAL */
	FAKE_KVM_NO_SREGS,	/* KVM_SET_SREGS: EINVAL */
	FAKE_KVM_RUN_EINVAL,	/* KVM_RUN: EINVAL, from the boot on */
	FAKE_KVM_BOOT_INTERNAL,	/* KVM_RUN: an internal error at the boot */
	FAKE_KVM_PVM,		/* boots; emulated ring 0, no cmpxchg16b */
	FAKE_KVM_LATER_EINVAL,	/* boots; then every KVM_RUN: EINVAL */
	FAKE_KVM_LATER_FAIL_ENTRY,	/* boots; then KVM cannot enter */
	FAKE_KVM_KINDS
};

/* What each kind is, in a few words, for the test's names. */
extern const char *const fake_kvm_names[FAKE_KVM_KINDS];

/* Puts the fake of kind k behind the micro-guest (from now until
 * fake_kvm_remove); the real calls again after that. */
void fake_kvm_install(enum fake_kvm_kind k);
void fake_kvm_remove(void);
/* The fds the fake handed out and has not had closed: 0 after a clean
 * close of the micro-guest. */
int fake_kvm_open_fds(void);

/* How many times slower than the host the fake's pvm runs a body. */
#define FAKE_KVM_SLOWDOWN 2000

#endif
