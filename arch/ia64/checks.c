/* SPDX-License-Identifier: MIT */
/*
 * checks.c - the ia64 probes' own initial states and functional checks:
 * plain C, no instruction, so that they are the same code on the target and
 * in the host's unit tests (tests/unit_ia64_checks.c). The rows whose
 * result is the same on every machine (baseline, chains, cmpxchg,
 * add_return, xchg, the timer read) use arch/checks.h, as the other
 * backends do.
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

/* ---- psr.um: the user-visible part of the processor status register ---------- */

PC_CHECK(pc_ia64_check_flags_save,
	PC_FAIL(after->reg[0] != before->reg[2],
		"the value read is not psr.um"))
PC_CHECK(pc_ia64_check_flags_kept,
	PC_FAIL(after->reg[1] != before->reg[2],
		"writing psr.um back changed it"))

/* ---- preempt_disable(); preempt_enable() (asm-generic/preempt.h) -------------- */

/* Not arch/checks.h's: the generic count is a 32-bit word (ld4/st4), and
 * the reschedule test reads thread_info.flags, which must not change. */
void pc_ia64_init_preempt(struct pc_probe_state *st)
{
	st->mem[0] = 0;		/* preempt count: preemptible */
	st->mem[1] = 0;		/* thread flags: no reschedule pending */
	st->reg[0] = 0;		/* set when the reschedule branch is taken */
}

PC_CHECK(pc_ia64_check_preempt,
	PC_FAIL(after->reg[0], "preempt_enable() took the reschedule branch")
	PC_FAIL((uint32_t)after->mem[0] != (uint32_t)before->mem[0],
		"the preempt count did not return to its start value")
	PC_FAIL(after->mem[1] != before->mem[1], "the thread flags changed"))

/* ---- psr.i: ring 0 only ------------------------------------------------------- */

/* reg[1]: psr read back right after the loop. */
PC_CHECK(pc_ia64_check_irq_off,
	PC_FAIL(after->reg[1] & PC_IA64_PSR_I,
		"interrupts are still enabled (psr.i set)"))
PC_CHECK(pc_ia64_check_irq_on,
	PC_FAIL(!(after->reg[1] & PC_IA64_PSR_I),
		"interrupts are not enabled (psr.i clear)"))
