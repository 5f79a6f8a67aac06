/* SPDX-License-Identifier: MIT */
/*
 * abi.h - what primcost hands to a ring-0 host of the probe code (the KVM
 * micro-guest, the kernel module) and what it gets back.
 *
 * One command is one struct pc_ring0_cmd: initialise a probe's state, run
 * one timed loop of it, or run its functional self-check. The ring-0 side
 * executes it with pc_ring0_exec() (exec.c) on the same freestanding probe
 * bodies the host links (arch/x86/probes.c); the host turns the raw ticks
 * into statistics. Both sides are x86-64 and share this layout.
 */
#ifndef PC_RING0_ABI_H
#define PC_RING0_ABI_H

#ifndef __ASSEMBLER__
#include "arch/arch.h"
#endif

/* ---- the guest's physical memory (identity-mapped, 2 MiB pages) ------------ */
#define PC_GUEST_MEM_BYTES	0x400000	/* 4 MiB: two large pages */
#define PC_GUEST_GDT		0x1000
#define PC_GUEST_IDT		0x2000		/* 256 16-byte gates */
#define PC_GUEST_TSS		0x3000
#define PC_GUEST_PML4		0x4000
#define PC_GUEST_PDPT		0x5000
#define PC_GUEST_PD		0x6000
#define PC_GUEST_MAILBOX	0x7000		/* struct pc_guest_mailbox */
#define PC_GUEST_TRAP_STACK_TOP	0x10000		/* IST1: every exception */
#define PC_GUEST_IMAGE		0x100000	/* the flat image is linked here */
#define PC_GUEST_STACK_TOP	0x400000

/* GDT selectors. */
#define PC_GUEST_SEL_CODE	0x08
#define PC_GUEST_SEL_DATA	0x10
#define PC_GUEST_SEL_TSS	0x18

/* The one I/O port the guest writes, and what it writes there. */
#define PC_GUEST_PORT		0x00e9
#define PC_GUEST_READY		1	/* booted: the mailbox may hold a command */
#define PC_GUEST_DONE		2	/* the command in the mailbox is done */
#define PC_GUEST_TRAPPED	3	/* an exception: see the trap fields */

/* The image starts with this header (see guest/entry.S). */
#define PC_GUEST_MAGIC		0x30706370	/* "pcp0" */
#define PC_GUEST_ABI_VERSION	2
#define PC_GUEST_STUB_BYTES	16	/* exception stub v is at stubs + 16 v */

/* Trap report: the fields the exception stubs fill, at fixed addresses so
 * that the assembly can write them. */
#define PC_GUEST_TRAP_VECTOR	(PC_GUEST_MAILBOX + 0x00)
#define PC_GUEST_TRAP_ERROR	(PC_GUEST_MAILBOX + 0x08)
#define PC_GUEST_TRAP_RIP	(PC_GUEST_MAILBOX + 0x10)
#define PC_GUEST_TRAP_CS	(PC_GUEST_MAILBOX + 0x18)
#define PC_GUEST_TRAP_RFLAGS	(PC_GUEST_MAILBOX + 0x20)
#define PC_GUEST_TRAP_RSP	(PC_GUEST_MAILBOX + 0x28)
#define PC_GUEST_TRAP_CR2	(PC_GUEST_MAILBOX + 0x30)

#ifndef __ASSEMBLER__

enum pc_ring0_op {
	PC_RING0_OP_INIT = 1,	/* st = the probe's initial state */
	PC_RING0_OP_RUN,	/* one timed loop: st in/out, ticks out */
	PC_RING0_OP_SELFCHECK,	/* the functional self-check, in ring 0 */
};

enum pc_ring0_status {
	PC_RING0_OK = 0,
	PC_RING0_BAD_COMMAND,	/* unknown op or probe, or too many iterations */
	PC_RING0_CHECK_FAILED,	/* reason, ops and if_start say what and when */
	PC_RING0_UNAVAILABLE,	/* the CPU lacks what the body needs: reason */
};

/* The most operations one RUN may ask for (iters * PC_UNROLL_HI). */
#define PC_RING0_MAX_OPS	(1ULL << 22)
/*
 * The kernel module runs a RUN in windows of at most this many iterations
 * (PC_RING0_WINDOW_OPS operations of the hi loop), with RFLAGS put back and
 * preemption allowed between two: interrupts are never off for longer than
 * one window, about 0.1 ms at 20 cycles an operation and 1 ms at 60 cycles
 * on a 1 GHz core. Hi and lo loops of the same iterations have as many
 * windows, so what a window adds cancels in their difference.
 */
#define PC_RING0_WINDOW_OPS	16384
#define PC_RING0_WINDOW_ITERS	(PC_RING0_WINDOW_OPS / PC_UNROLL_HI)

struct pc_ring0_cmd {
	uint32_t op;		/* enum pc_ring0_op */
	uint32_t probe;		/* row of probes.def (or a guest test entry) */
	uint64_t iters;
	uint32_t hi;
	uint32_t status;	/* enum pc_ring0_status */
	uint64_t ticks;		/* RUN: elapsed timer ticks */
	uint64_t ops;		/* SELFCHECK: operations of the failing run */
	uint32_t if_start;	/* SELFCHECK: IF before the failing run (0/1) */
	uint32_t windows;	/* module, RUN: the windows it ran in */
	uint64_t longest_window_ns;	/* module: the longest, in ns */
	uint64_t kernel_flags;	/* module: RFLAGS after the command */
	char reason[128];	/* what was wrong, NUL-terminated */
	struct pc_probe_state st;
} __attribute__((aligned(64)));

struct pc_guest_mailbox {
	uint64_t trap_vector, trap_error, trap_rip, trap_cs, trap_rflags,
		 trap_rsp, trap_cr2, trap_pad;
	struct pc_ring0_cmd cmd;
};

struct pc_guest_header {
	uint32_t magic;
	uint32_t abi_version;
	uint64_t entry;		/* where the vCPU starts */
	uint64_t stubs;		/* exception stub of vector 0 */
	uint64_t end;		/* first byte past the image, .bss included */
};

/*
 * Executes c in the calling context (ring 0). extra[0..nextra) are probe
 * entries numbered from PC_PROBE_COUNT on (the guest's test entries; the
 * kernel module has none). A row whose body the CPU cannot run (its
 * unavailable(), asked in ring 0) is refused with PC_RING0_UNAVAILABLE.
 * Freestanding.
 */
void pc_ring0_exec(struct pc_ring0_cmd *c, const struct pc_arch_probe *extra,
		   unsigned nextra);

/* Is row probe one a kernel may run for a caller: a ring-0 row of
 * probes.def, or one of the gate's (PC_RING0_GATE_*, engine/method.h)? */
int pc_ring0_kernel_row(uint32_t probe);

#endif
#endif
