/* SPDX-License-Identifier: MIT */
/*
 * arm64 timed loop: the shared skeleton (arch/loop.h, PC_TIMED) with the
 * counter stepped by sub + cbnz, which leave the NZCV flags alone: the
 * flags rows write NZCV and read it back after the loop. Bodies use the
 * local labels 1 and 2; the loop's own is 90.
 */
#ifndef PC_ARM64_LOOP_H
#define PC_ARM64_LOOP_H

#define PC_LOOP_HEAD ".p2align 6\n90:\n\t"
#define PC_LOOP_TAIL "sub %x[pc_n], %x[pc_n], #1\n\tcbnz %x[pc_n], 90b\n\t"
#define PC_LOOP_CLOBBERS "cc", "memory"

#include "arch/loop.h"

#endif
