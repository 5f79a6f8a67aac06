/* SPDX-License-Identifier: MIT */
/* x86-64: the probe bodies are the shared x86 ones (arch/x86/probes.c). */
#include "arch/arch.h"

const char pc_arch_name[] = "x86_64";
