/* SPDX-License-Identifier: MIT */
/*
 * For a backend without an instruction table of its own: the harness then
 * names a trapping instruction by its bytes and the probe's sequence only.
 * Freestanding.
 */
#include "arch/arch.h"

const char *pc_arch_insn_name(const unsigned char *code, unsigned n)
{
	(void)code;
	(void)n;
	return 0;
}
