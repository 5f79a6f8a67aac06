/* SPDX-License-Identifier: MIT */
/*
 * start-system.S - entry of the system-mode ia64 runner image: bare metal,
 * linked at physical 0x100000, where the Ski simulator starts it in system
 * mode at privilege level 0 with physical addressing, so that the ring-0
 * rows (rsm/ssm psr.i, mov r=psr) can run. It prints and exits through
 * Ski's simulator calls (SSC): break 0x80001, number in r15, arguments in
 * r32-r35 of the frame.
 */
	.section .text.entry, "ax"
	.global _start
	.proc _start
_start:
	mov ar.rsc=0		// RSE in enforced lazy mode, loadrs field 0
	;;
	loadrs			// discard whatever the stacked registers held
	movl r2=pc_sys_rbs
	movl r12=pc_sys_stack_top - 16	// 16 bytes of scratch below sp (ABI)
	movl gp=__gp
	;;
	mov ar.bspstore=r2	// our register backing store
	;;
	mov ar.rsc=3		// eager RSE
	;;
	alloc r3=ar.pfs,0,0,5,0
	;;			// the call reads the frame alloc writes
	mov out0=r0		// argc
	mov out1=r0		// argv
	br.call.sptk.many rp=pc_runner_main
	;;
	mov out0=r8		// SSC_EXIT(status)
	mov out1=r0
	mov out2=r0
	mov out3=r0
	mov out4=66
	br.call.sptk.many rp=pc_ia64_ssc
	;;
1:	br.cond.sptk.few 1b
	;;
	.endp _start

	.text
	/* long pc_ia64_ssc(long a0, long a1, long a2, long a3, long nr) */
	.global pc_ia64_ssc
	.proc pc_ia64_ssc
pc_ia64_ssc:
	mov r15=r36
	;;
	break.i 0x80001
	;;
	br.ret.sptk.many rp
	;;
	.endp pc_ia64_ssc

	/* Memory stack (grows down) and register backing store (grows up),
	 * in .data so that they are in the image whatever the loader does
	 * with .bss. */
	.data
	.align 16
pc_sys_stack:
	.skip 65536
pc_sys_stack_top:
	.align 512
pc_sys_rbs:
	.skip 65536

	.section .note.GNU-stack, "", @progbits
