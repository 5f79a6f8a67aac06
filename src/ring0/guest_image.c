/* SPDX-License-Identifier: MIT */
/*
 * guest_image.c - the KVM micro-guest's flat image (runner/guest/,
 * built by make as runner/guest/guest.bin), embedded read-only.
 * PC_GUEST_BIN is its path as the assembler sees it: make runs the compiler
 * from the top of the build tree.
 */
#ifndef PC_GUEST_BIN
#define PC_GUEST_BIN "runner/guest/guest.bin"
#endif

__asm__(".section .rodata\n"
	".balign 64\n"
	".globl pc_guest_image\n"
	".type pc_guest_image, @object\n"
	"pc_guest_image:\n"
	".incbin \"" PC_GUEST_BIN "\"\n"
	".globl pc_guest_image_end\n"
	"pc_guest_image_end:\n"
	".size pc_guest_image, pc_guest_image_end - pc_guest_image\n"
	".previous\n");
