/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* pc_kernel_mod.h - what pc_main.c calls of pc_kernel.c (in the module). */
#ifndef PC_KERNEL_MOD_H
#define PC_KERNEL_MOD_H

struct pc_kernel_cmd;

int pc_kernel_init(void);
void pc_kernel_exit(void);
/* Runs c (pc_kernel.h) on the calling CPU; c->status and reason say how.
 * 0, or -EINVAL for a field out of range, -EINTR when a fatal signal
 * ended it, -ENOMEM. One at a time: the caller serialises. */
long pc_kernel_exec(struct pc_kernel_cmd *c);

#endif
