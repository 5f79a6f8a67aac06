/* SPDX-License-Identifier: MIT */
/* i386: the probe bodies are the shared x86 ones (arch/x86/probes.c) with
 * 32-bit operands, plus cmpxchg64 (cmpxchg64.h). */
#include "arch/arch.h"

const char pc_arch_name[] = "i386";
