/* SPDX-License-Identifier: MIT */
/*
 * start-user.S - entry and system calls of the user-mode ia64 runner, a
 * static program for Linux/ia64 (and Ski's user mode, which emulates its
 * system calls). No libc: _start finds argc/argv, calls the driver, exits.
 *
 * System calls: break 0x100000, number in r15, arguments in the frame's
 * output registers (r32.. of a function that has not allocated a frame),
 * result in r8, r10 = -1 on error with the errno in r8.
 */
	.text
	.section .text.entry, "ax"
	.global _start
	.proc _start
_start:
	alloc r2=ar.pfs,0,0,2,0
	movl gp=__gp
	adds r14=16,sp		// the kernel leaves argc at sp+16, then argv
	;;
	ld8 out0=[r14],8
	;;
	mov out1=r14
	br.call.sptk.many rp=pc_runner_main
	;;
	mov out0=r8		// exit(status)
	mov r15=1025
	;;
	break.i 0x100000
	;;
1:	br.cond.sptk.few 1b	// exit does not return
	;;
	.endp _start

	.text
	/* long pc_ia64_syscall(long a0, long a1, long a2, long nr):
	 * the result, or -errno. */
	.global pc_ia64_syscall
	.proc pc_ia64_syscall
pc_ia64_syscall:
	mov r15=r35
	;;
	break.i 0x100000
	;;
	cmp.eq p6,p0=-1,r10
	;;
(p6)	sub r8=r0,r8
	br.ret.sptk.many rp
	;;
	.endp pc_ia64_syscall

	.section .note.GNU-stack, "", @progbits
