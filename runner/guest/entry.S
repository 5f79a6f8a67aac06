/* SPDX-License-Identifier: MIT */
/*
 * entry.S - the KVM micro-guest's header, entry point and exception stubs.
 *
 * The host (src/ring0_kvm.c) starts the vCPU directly in 64-bit mode at
 * `entry`, with paging, the GDT, the TSS and the IDT already in place; the
 * IDT's 256 gates point at the stubs below. A stub reports its vector, the
 * error code (0 where the CPU pushes none), RIP, CS, RFLAGS, RSP and CR2 in
 * the mailbox's trap fields, then writes PC_GUEST_TRAPPED to the port and
 * halts: the host resets the vCPU before the next command.
 */
#include "runner/ring0/abi.h"

	.section .head, "a"
	.long	PC_GUEST_MAGIC
	.long	PC_GUEST_ABI_VERSION
	.quad	pc_guest_entry
	.quad	pc_guest_stubs
	.quad	_end

	.text
	.globl	pc_guest_entry
pc_guest_entry:
	mov	$PC_GUEST_STACK_TOP, %rsp
	xor	%ebp, %ebp
	call	pc_guest_main
	ud2

/* Vectors for which the CPU pushes an error code. */
#define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
		      (v) == 21 || (v) == 29 || (v) == 30)

	.p2align 4
	.globl	pc_guest_stubs
pc_guest_stubs:
	vector = 0
	.rept	256
	/* Fails to assemble ("move .org backwards") if a stub is too long. */
	.org	pc_guest_stubs + vector * PC_GUEST_STUB_BYTES, 0xcc
	.if	HAS_ERROR(vector)
	.else
	pushq	$0
	.endif
	pushq	$vector
	jmp	pc_guest_trap
	vector = vector + 1
	.endr

/* The word at off(%rsp) into a mailbox field. */
	.macro	trap_field off, field
	mov	\off(%rsp), %rax
	mov	%rax, \field
	.endm

/* Stack: vector, error code, RIP, CS, RFLAGS, RSP, SS. */
pc_guest_trap:
	trap_field 0, PC_GUEST_TRAP_VECTOR
	trap_field 8, PC_GUEST_TRAP_ERROR
	trap_field 16, PC_GUEST_TRAP_RIP
	trap_field 24, PC_GUEST_TRAP_CS
	trap_field 32, PC_GUEST_TRAP_RFLAGS
	trap_field 40, PC_GUEST_TRAP_RSP
	mov	%cr2, %rax
	mov	%rax, PC_GUEST_TRAP_CR2
	mov	$PC_GUEST_TRAPPED, %eax
	mov	$PC_GUEST_PORT, %dx
	out	%eax, %dx
1:	hlt
	jmp	1b

	.section .note.GNU-stack, "", @progbits
