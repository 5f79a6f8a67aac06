/* SPDX-License-Identifier: MIT */
/*
 * The lock accesses of arch/<arch>/lock.h in the compiler's __atomic
 * builtins, for an architecture without its own: what the kernel's
 * asm-generic forms do (a byte or half-word of a lock's 32-bit word stored
 * or exchanged on its own, atomic_fetch_or_acquire for a bit). Mixed-size
 * accesses to one word are outside C11; GCC and Clang make them the
 * target's byte and half-word instructions.
 */
#ifndef PC_LOCK_GENERIC_H
#define PC_LOCK_GENERIC_H

#include <stdint.h>

static inline void pc_store_release_u8(void *p, uint8_t v)
{
	__atomic_store_n((uint8_t *)p, v, __ATOMIC_RELEASE);
}

static inline void pc_store_u8(void *p, uint8_t v)
{
	__atomic_store_n((uint8_t *)p, v, __ATOMIC_RELAXED);
}

static inline void pc_store_u16(void *p, uint16_t v)
{
	__atomic_store_n((uint16_t *)p, v, __ATOMIC_RELAXED);
}

static inline uint16_t pc_xchg_u16(void *p, uint16_t v)
{
	return __atomic_exchange_n((uint16_t *)p, v, __ATOMIC_RELAXED);
}

static inline uint32_t pc_fetch_set_bit_acquire_u32(void *p, unsigned bit)
{
	return __atomic_fetch_or((uint32_t *)p, 1u << bit, __ATOMIC_ACQUIRE);
}

#endif
