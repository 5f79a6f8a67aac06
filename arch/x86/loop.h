/* SPDX-License-Identifier: MIT */
/*
 * x86 timed loop: the shared skeleton (arch/loop.h, PC_TIMED) with the
 * counter stepped by dec + jnz, and the stack pieces bodies that push need.
 */
#ifndef PC_X86_LOOP_H
#define PC_X86_LOOP_H

#ifdef __x86_64__
#define PC_X86_SP "%%rsp"
/* User-mode code may keep data in the 128 bytes below %rsp (the red zone):
 * bodies that push step over it first. */
#define PC_X86_STACK_ENTER "lea -128(%%rsp), %%rsp\n\t"
#define PC_X86_STACK_LEAVE "lea 128(%%rsp), %%rsp\n\t"
#else
#define PC_X86_SP "%%esp"
#define PC_X86_STACK_ENTER ""
#define PC_X86_STACK_LEAVE ""
#endif

/* The loop starts on a cache line; dec writes the flags: "cc". */
#define PC_LOOP_HEAD ".p2align 6\n1:\n\t"
#define PC_LOOP_TAIL "dec %[pc_n]\n\tjnz 1b\n\t"
#define PC_LOOP_CLOBBERS "cc", "memory"

#include "arch/loop.h"

#endif
