/* SPDX-License-Identifier: MIT */
/*
 * checks.c - the ia64 probes' initial states and functional checks: plain C,
 * no instruction, so that they are the same code on the target and in the
 * host's unit tests (tests/unit_ia64_checks.c).
 *
 * State conventions, shared with probes.c:
 *   mem[0]  the word operated on (the per-CPU preempt count for preempt_*)
 *   mem[1]  thread_info.flags for preempt_*
 *   reg[0]  accumulator / expected value / saved flags
 *   reg[1]  operand (multiplier, new value, increment) / flags read back
 *   reg[2]  the flags (psr.um or psr) as they were at the start
 */
#include "arch/arch.h"
#include "arch/checks.h"
#include "checks.h"


/* The shared checks (arch/checks.h), under the names probes.c and the
 * host's unit tests use. */
const char *pc_ia64_check_unchanged(const struct pc_probe_state *before,
				    const struct pc_probe_state *after,
				    uint64_t ops)
{
	return check_unchanged(before, after, ops);
}

/* ---- calibration --------------------------------------------------------- */

const char *pc_ia64_check_add_chain(const struct pc_probe_state *before,
				    const struct pc_probe_state *after,
				    uint64_t ops)
{
	return check_add_chain(before, after, ops);
}

void pc_ia64_init_mul_chain(struct pc_probe_state *st)
{
	st->reg[0] = 1;
	st->reg[1] = 3;		/* multiplier: the product changes every step */
}


const char *pc_ia64_check_mul_chain(const struct pc_probe_state *before,
				    const struct pc_probe_state *after,
				    uint64_t ops)
{
	if (after->reg[0] != before->reg[0] * word_pow(before->reg[1], ops))
		return "product is not start * k^ops (mod 2^64)";
	return 0;
}

/* ---- timer ------------------------------------------------------------------ */

/* reg[0]: ar.itc before the loop, then the last value the loop read. */
const char *pc_ia64_check_get_cycles(const struct pc_probe_state *before,
				     const struct pc_probe_state *after,
				     uint64_t ops)
{
	(void)ops;
	if (after->reg[0] <= before->reg[0])
		return "ar.itc did not advance";
	return 0;
}

/* ---- cmpxchg: the timed loop swaps V for V, so it always succeeds --------- */

void pc_ia64_init_cmpxchg(struct pc_probe_state *st)
{
	st->mem[0] = 0x5a5aUL;
	st->reg[0] = 0x5a5aUL;	/* old (ar.ccv), then the value cmpxchg returned */
	st->reg[1] = 0x5a5aUL;	/* new */
}

const char *pc_ia64_check_cmpxchg(const struct pc_probe_state *before,
				  const struct pc_probe_state *after,
				  uint64_t ops)
{
	(void)ops;
	if (after->mem[0] != before->reg[1])
		return "memory does not hold the new value";
	if (after->reg[0] != before->reg[0])
		return "a cmpxchg that must succeed returned another value than ar.ccv";
	return 0;
}

/* ---- add_return: fetchadd8.rel [v],i then + i ------------------------------- */

void pc_ia64_init_add_return(struct pc_probe_state *st)
{
	st->mem[0] = 1000;
	st->reg[0] = 0;		/* last value returned */
	st->reg[1] = PC_IA64_ADD_INC;
}

const char *pc_ia64_check_add_return(const struct pc_probe_state *before,
				     const struct pc_probe_state *after,
				     uint64_t ops)
{
	if (after->mem[0] != before->mem[0] + (unsigned long)ops * before->reg[1])
		return "counter is not start + ops * i";
	if (after->reg[0] != after->mem[0])
		return "the last add_return did not return the new value";
	return 0;
}

/* ---- xchg8 -------------------------------------------------------------------- */

void pc_ia64_init_xchg(struct pc_probe_state *st)
{
	st->mem[0] = 0x1111;
	st->reg[0] = 0x2222;
}

const char *pc_ia64_check_xchg(const struct pc_probe_state *before,
			       const struct pc_probe_state *after, uint64_t ops)
{
	int odd = (int)(ops & 1);
	unsigned long want_mem = odd ? before->reg[0] : before->mem[0];
	unsigned long want_reg = odd ? before->mem[0] : before->reg[0];

	if (after->mem[0] != want_mem || after->reg[0] != want_reg)
		return "values are not swapped once per xchg8";
	return 0;
}

/* ---- psr.um: the user-visible part of the processor status register ---------- */

const char *pc_ia64_check_flags_save(const struct pc_probe_state *before,
				     const struct pc_probe_state *after,
				     uint64_t ops)
{
	(void)ops;
	if (after->reg[0] != before->reg[2])
		return "the value read is not psr.um";
	return 0;
}

const char *pc_ia64_check_flags_kept(const struct pc_probe_state *before,
				     const struct pc_probe_state *after,
				     uint64_t ops)
{
	(void)ops;
	if (after->reg[1] != before->reg[2])
		return "writing psr.um back changed it";
	return 0;
}

/* ---- preempt_disable(); preempt_enable() (asm-generic/preempt.h) -------------- */

void pc_ia64_init_preempt(struct pc_probe_state *st)
{
	st->mem[0] = 0;		/* preempt count: preemptible */
	st->mem[1] = 0;		/* thread flags: no reschedule pending */
	st->reg[0] = 0;		/* set when the reschedule branch is taken */
}

const char *pc_ia64_check_preempt(const struct pc_probe_state *before,
				  const struct pc_probe_state *after,
				  uint64_t ops)
{
	(void)ops;
	if (after->reg[0])
		return "preempt_enable() took the reschedule branch";
	if ((uint32_t)after->mem[0] != (uint32_t)before->mem[0])
		return "the preempt count did not return to its start value";
	if (after->mem[1] != before->mem[1])
		return "the thread flags changed";
	return 0;
}

/* ---- psr.i: ring 0 only ------------------------------------------------------- */

/* reg[1]: psr read back right after the loop. */
const char *pc_ia64_check_irq_off(const struct pc_probe_state *before,
				  const struct pc_probe_state *after,
				  uint64_t ops)
{
	(void)before;
	(void)ops;
	if (after->reg[1] & PC_IA64_PSR_I)
		return "interrupts are still enabled (psr.i set)";
	return 0;
}

const char *pc_ia64_check_irq_on(const struct pc_probe_state *before,
				 const struct pc_probe_state *after,
				 uint64_t ops)
{
	(void)before;
	(void)ops;
	if (!(after->reg[1] & PC_IA64_PSR_I))
		return "interrupts are not enabled (psr.i clear)";
	return 0;
}
