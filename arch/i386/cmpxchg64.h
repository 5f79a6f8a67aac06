/* SPDX-License-Identifier: MIT */
/*
 * cmpxchg64() on i386: a 64-bit compare-and-swap on a 32-bit machine, as
 * arch/x86/include/asm/cmpxchg_32.h implements it with CONFIG_X86_CMPXCHG64
 * (every CPU since the Pentium): lock cmpxchg8b compares edx:eax with the
 * 64-bit word and, when equal, stores ecx:ebx. Included by
 * arch/x86/probes.c on i386 only; freestanding like it.
 *
 * Register pressure: the instruction takes eax, ebx, ecx and edx, the loop
 * counter and the word's address two more: six of the seven, so it builds
 * with a frame pointer (%ebp) too, and in position-independent code, where
 * gcc saves its GOT pointer (%ebx) around the asm.
 */
#ifndef PC_I386_CMPXCHG64_H
#define PC_I386_CMPXCHG64_H

#define PC_I386_CMPXCHG64 "lock cmpxchg8b %[m]"

/* The 64-bit word: mem[0] low half, mem[1] high half (little endian). */
static inline uint64_t *word64(struct pc_probe_state *st)
{
	return (uint64_t *)(void *)&st->mem[0];
}

static inline uint64_t pc_i386_cmpxchg64(uint64_t *p, uint64_t old,
					 uint64_t new_val)
{
	__asm__ volatile(PC_I386_CMPXCHG64
			 : "+A"(old), [m] "+m"(*p)
			 : "b"((uint32_t)new_val), "c"((uint32_t)(new_val >> 32))
			 : "cc", "memory");
	return old;
}

/* Halves that differ, so that a 32-bit store cannot pass for a 64-bit one. */
#define I386_CMPXCHG64_LO 0x9abcdef0UL
#define I386_CMPXCHG64_HI 0x12345678UL

static void init_cmpxchg64(struct pc_probe_state *st)
{
	st->mem[0] = I386_CMPXCHG64_LO;
	st->mem[1] = I386_CMPXCHG64_HI;
	st->reg[0] = I386_CMPXCHG64_LO;	/* expected: eax */
	st->reg[1] = I386_CMPXCHG64_HI;	/*           edx */
	st->reg[2] = I386_CMPXCHG64_LO;	/* new:      ebx */
	st->reg[3] = I386_CMPXCHG64_HI;	/*           ecx */
}

/* As the cmpxchg row: cmpxchg64(&v, V, V) back to back, always succeeding. */
static uint64_t run_cmpxchg64(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long a = st->reg[0], d = st->reg[1];
	uint64_t t;

	PC_TIMED(t, iters, hi, "", PC_I386_CMPXCHG64, "",
		 (, "+a"(a), "+d"(d), [m] "+m"(*word64(st))),
		 ("b"(st->reg[2]), "c"(st->reg[3])));
	st->reg[0] = a;
	st->reg[1] = d;
	return t;
}

static PC_CHECK(check_cmpxchg64,
	PC_FAIL(after->mem[0] != before->reg[2] || after->mem[1] != before->reg[3],
		"the 64-bit word does not hold the new value")
	PC_FAIL(after->reg[0] != before->reg[0] || after->reg[1] != before->reg[1],
		"a cmpxchg64 that must succeed reported failure"))

static const char *semantics_cmpxchg64(struct pc_probe_state *s)
{
	uint64_t *p = word64(s), i;
	const uint64_t step = 0x100000001ULL;	/* moves both halves */

	*p = 0;
	for (i = 0; i < 100; i++)
		if (pc_i386_cmpxchg64(p, i * step, (i + 1) * step) != i * step)
			return "cmpxchg64(v, old, new) did not return old";
	if (*p != 100 * step)
		return "100 successful cmpxchg64 did not leave 100 in both halves";
	if (pc_i386_cmpxchg64(p, 5, 7) != 100 * step || *p != 100 * step)
		return "a failing cmpxchg64 wrote memory or hid the value";
	return 0;
}

#endif
