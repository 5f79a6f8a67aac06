/* SPDX-License-Identifier: MIT */
/*
 * x86 lock accesses C11 atomics cannot express: a byte or a half-word of a
 * lock's 32-bit word stored or exchanged on its own, and a bit set by a
 * locked bts, as the kernel's queued spinlock does them
 * (asm-generic/qspinlock.h, kernel/locking/qspinlock.h, asm/qspinlock.h).
 * The pointer is to the byte or half-word inside the word.
 */
#ifndef PC_X86_LOCK_H
#define PC_X86_LOCK_H

#include <stdint.h>

/* smp_store_release() of a byte: x86 stores are not reordered with
 * earlier accesses, so a plain mov; "memory" keeps the critical section's
 * accesses before it. */
static inline void pc_store_release_u8(void *p, uint8_t v)
{
	__asm__ volatile("movb %1, %0" : "=m"(*(volatile uint8_t *)p) : "iq"(v) : "memory");
}

/* WRITE_ONCE() of a byte: a plain mov. */
static inline void pc_store_u8(void *p, uint8_t v)
{
	__asm__ volatile("movb %1, %0" : "=m"(*(volatile uint8_t *)p) : "iq"(v) : "memory");
}

/* WRITE_ONCE() of a half-word: a plain mov. */
static inline void pc_store_u16(void *p, uint16_t v)
{
	__asm__ volatile("movw %1, %0" : "=m"(*(volatile uint16_t *)p) : "ir"(v) : "memory");
}

/* xchg_relaxed() of a half-word: xchg with a memory operand is locked
 * without the prefix (and a full barrier, as every locked instruction). */
static inline uint16_t pc_xchg_u16(void *p, uint16_t v)
{
	__asm__ volatile("xchgw %0, %1" : "+r"(v), "+m"(*(volatile uint16_t *)p) : : "memory");
	return v;
}

/* queued_fetch_set_pending_acquire(): lock bts sets the bit and returns
 * it in the carry flag; the word's other bits are read after it (the
 * kernel's x86 form, not a fetch-or, which x86 has only as a cmpxchg loop). */
static inline uint32_t pc_fetch_set_bit_acquire_u32(void *p, unsigned bit)
{
	volatile uint32_t *w = p;
	_Bool was;

	__asm__ volatile("lock btsl %2, %0" : "+m"(*w), "=@ccc"(was) : "Ir"(bit) : "memory");
	return (uint32_t)was << bit | (*w & ~(1u << bit));
}

#endif
