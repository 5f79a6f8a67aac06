/* SPDX-License-Identifier: MIT */
/*
 * Names the x86 instruction a probe trapped on, from its first bytes: the
 * few instructions that can fault or hang in a probe (privileged ones,
 * undefined opcodes, divisions, memory accesses, a jump to itself), not a
 * disassembler. Freestanding: a pure function over the bytes given.
 */
#include "arch/arch.h"

static int is_prefix(unsigned char b)
{
	switch (b) {
	case 0xf0:		/* lock */
	case 0xf2: case 0xf3:	/* repne, rep */
	case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65: /* segment */
	case 0x66: case 0x67:	/* operand, address size */
		return 1;
	}
#ifdef __x86_64__
	if ((b & 0xf0) == 0x40)	/* REX */
		return 1;
#endif
	return 0;
}

/* ModRM's reg field: the operation within an opcode group. */
static unsigned modrm_reg(const unsigned char *c, unsigned n, unsigned i)
{
	return i < n ? (c[i] >> 3) & 7 : 8;
}

/* rex_w: a REX prefix with W set came just before (64-bit operands). */
static const char *two_byte(const unsigned char *c, unsigned n, unsigned i, int rex_w)
{
	if (i >= n)
		return 0;
	switch (c[i]) {
	case 0x0b: return "ud2 (undefined instruction, on purpose)";
	case 0xb9: return "ud1 (undefined instruction)";
	case 0xff: return "ud0 (undefined instruction)";
	case 0x05: return "syscall";
	case 0x06: return "clts (privileged)";
	case 0x08: return "invd (privileged)";
	case 0x09: return "wbinvd (privileged)";
	case 0x20: case 0x22: return "mov to/from a control register (privileged)";
	case 0x21: case 0x23: return "mov to/from a debug register (privileged)";
	case 0x30: return "wrmsr (privileged)";
	case 0x31: return "rdtsc";
	case 0x32: return "rdmsr (privileged)";
	case 0x33: return "rdpmc (needs CR4.PCE in user mode)";
	case 0x34: return "sysenter";
	case 0xa2: return "cpuid";
	case 0xb0: case 0xb1: return "cmpxchg";
	case 0xc0: case 0xc1: return "xadd";
	case 0xc7:
		if (modrm_reg(c, n, i + 1) == 1)
			return rex_w ? "cmpxchg16b" : "cmpxchg8b";
		return 0;
	case 0xae:
		if (i + 1 < n) {
			if (c[i + 1] == 0xe8) return "lfence";
			if (c[i + 1] == 0xf0) return "mfence";
			if (c[i + 1] == 0xf8) return "sfence";
		}
		return 0;
	case 0x01:
		if (i + 1 < n) {
			switch (c[i + 1]) {
			case 0xf9: return "rdtscp";
			case 0xca: return "clac (privileged)";
			case 0xcb: return "stac (privileged)";
			case 0xc8: return "monitor";
			case 0xc9: return "mwait";
			case 0xd0: return "xgetbv";
			case 0xd1: return "xsetbv (privileged)";
			case 0xf8: return "swapgs (privileged)";
			}
		}
		return "a descriptor-table or system instruction (0f 01 group)";
	}
	return 0;
}

const char *pc_arch_insn_name(const unsigned char *c, unsigned n)
{
	unsigned i = 0;
	int rex_w = 0;

	while (i < n && i < 14 && is_prefix(c[i])) {
		/* REX comes last, right before the opcode: W from the last one */
		rex_w = (c[i] & 0xf8) == 0x48;
		i++;
	}
	if (i >= n)
		return 0;
	switch (c[i]) {
	case 0x0f: return two_byte(c, n, i + 1, rex_w);
	case 0xfa: return "cli (privileged: IOPL < 3 in user mode)";
	case 0xfb: return "sti (privileged: IOPL < 3 in user mode)";
	case 0xf4: return "hlt (privileged)";
	case 0x9c: return "pushf";
	case 0x9d: return "popf";
	case 0xcc: return "int3";
	case 0xcd: return "int n";
	case 0xcf: return "iret";
	case 0xe4: case 0xe5: case 0xec: case 0xed: return "in (port I/O, privileged)";
	case 0xe6: case 0xe7: case 0xee: case 0xef: return "out (port I/O, privileged)";
	case 0x6c: case 0x6d: return "ins (port I/O, privileged)";
	case 0x6e: case 0x6f: return "outs (port I/O, privileged)";
	case 0xeb:
		if (i + 1 < n && c[i + 1] == 0xfe)
			return "jmp to itself (an endless loop)";
		return "jmp";
	case 0xe9: return "jmp";
	case 0x90: return "nop or pause";
	case 0x86: case 0x87: return "xchg";
	case 0x88: case 0x89: return "mov to memory (a store)";
	case 0x8a: case 0x8b: return "mov from memory (a load)";
	case 0xa4: case 0xa5: return "movs (a string copy)";
	case 0xf6: case 0xf7:
		switch (modrm_reg(c, n, i + 1)) {
		case 4: return "mul";
		case 5: return "imul";
		case 6: return "div (unsigned divide: #DE on a zero divisor or an overflow)";
		case 7: return "idiv (signed divide: #DE on a zero divisor or an overflow)";
		}
		return 0;
	}
	return 0;
}
