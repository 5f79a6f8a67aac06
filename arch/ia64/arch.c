/* SPDX-License-Identifier: MIT */
/* ia64: the probe bodies are in probes.c, their checks in checks.c. */
#include "arch/arch.h"

/* gcc puts objects of 8 bytes or less, const ones too, in the writable
 * small-data section (.sdata); read-only data belongs in .rodata. */
const char pc_arch_name[] __attribute__((section(".rodata"))) = "ia64";
