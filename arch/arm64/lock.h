/* SPDX-License-Identifier: MIT */
/*
 * arm64 lock accesses C11 atomics cannot express: a byte or a half-word of
 * a lock's 32-bit word stored or exchanged on its own, as the kernel's
 * queued spinlock does them (asm-generic/qspinlock.h,
 * kernel/locking/qspinlock.h; arm64's asm/cmpxchg.h, atomic_lse.h). The
 * pointer is to the byte or half-word inside the word.
 */
#ifndef PC_ARM64_LOCK_H
#define PC_ARM64_LOCK_H

#include <stdint.h>

/* smp_store_release() of a byte: stlrb. */
static inline void pc_store_release_u8(void *p, uint8_t v)
{
	__asm__ volatile("stlrb %w1, %0" : "=Q"(*(volatile uint8_t *)p) : "r"(v) : "memory");
}

/* WRITE_ONCE() of a byte: strb. */
static inline void pc_store_u8(void *p, uint8_t v)
{
	__asm__ volatile("strb %w1, %0" : "=Q"(*(volatile uint8_t *)p) : "r"(v) : "memory");
}

/* WRITE_ONCE() of a half-word: strh. */
static inline void pc_store_u16(void *p, uint16_t v)
{
	__asm__ volatile("strh %w1, %0" : "=Q"(*(volatile uint16_t *)p) : "r"(v) : "memory");
}

/*
 * xchg_relaxed() of a half-word: LSE's swph where the compiler may use LSE,
 * else the LL/SC loop ldxrh/stxrh after a prefetch for store. (The kernel chooses between the two when
 * it boots; the relaxed forms have no acquire or release, where the fully
 * ordered xchg would take swpalh, or ldaxrh/stlxrh and a dmb.)
 */
static inline uint16_t pc_xchg_u16(void *p, uint16_t v)
{
	uint32_t old;
#ifdef __ARM_FEATURE_ATOMICS
	__asm__ volatile("swph %w2, %w0, %1" : "=&r"(old), "+Q"(*(volatile uint16_t *)p)
			 : "r"(v) : "memory");
#else
	uint32_t fail;

	__asm__ volatile("	prfm	pstl1strm, %2\n"
			 "1:	ldxrh	%w0, %2\n"
			 "	stxrh	%w1, %w3, %2\n"
			 "	cbnz	%w1, 1b"
			 : "=&r"(old), "=&r"(fail), "+Q"(*(volatile uint16_t *)p)
			 : "r"(v) : "memory");
#endif
	return (uint16_t)old;
}

/* queued_fetch_set_pending_acquire(): arm64 takes the generic
 * atomic_fetch_or_acquire (ldseta, or ldaxr/orr/stxr). */
static inline uint32_t pc_fetch_set_bit_acquire_u32(void *p, unsigned bit)
{
	return __atomic_fetch_or((uint32_t *)p, 1u << bit, __ATOMIC_ACQUIRE);
}

#endif
