/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pc_kmod.h - the kernel module's interface: a character device with one
 * ioctl that executes a struct pc_ring0_cmd (runner/ring0/abi.h) on
 * the calling CPU, preemption off, interrupts restored afterwards.
 */
#ifndef PC_KMOD_H
#define PC_KMOD_H

#include <linux/ioctl.h>

#define PC_KMOD_NAME	"primcost_ring0"
#define PC_KMOD_DEVICE	"/dev/primcost_ring0"
#define PC_KMOD_IOC_EXEC _IOWR('p', 0x30, struct pc_ring0_cmd)
/* Test only (module parameter test_entries=1): an entry that executes ud2
 * in ring 0 under an exception-table fixup; the micro-guest's ud2 entry
 * (PC_RING0_TEST_UD2) has the same number. */
#define PC_KMOD_TEST_FAULT	PC_PROBE_COUNT

#endif
