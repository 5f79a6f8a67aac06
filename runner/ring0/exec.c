/* SPDX-License-Identifier: MIT */
/*
 * exec.c - one ring-0 command on the shared probe bodies (arch/x86/probes.c).
 *
 * Linked into the KVM micro-guest and into the kernel module; never into
 * primcost itself, whose user-mode process would fault on cli/sti.
 * Freestanding: no libc, no globals but const tables.
 */
#include "abi.h"
#include "engine/engine.h"

static void set_if(int on)
{
	if (on)
		__asm__ volatile("sti" : : : "memory");
	else
		__asm__ volatile("cli" : : : "memory");
}

static void zero_state(struct pc_probe_state *st)
{
	unsigned int i;

	for (i = 0; i < PC_STATE_WORDS; i++)
		st->mem[i] = 0;
	for (i = 0; i < 4; i++)
		st->reg[i] = 0;
}

static void copy_reason(char *dst, unsigned long len, const char *src)
{
	unsigned long i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
}

/* Before each run of the self-check, IF as the pass wants it; after, off. */
static void if_around(void *ctx, int entering)
{
	set_if(entering ? *(const int *)ctx : 0);
}

/*
 * The engine's self-check (engine/selfcheck.c), in ring 0, run twice:
 * once entered with interrupts off and once with them on, so that each
 * IF check (what pushf reads back after the sequence) sees the sequence
 * change the flag rather than find it already as promised.
 */
static void selfcheck(const struct pc_arch_probe *p, struct pc_ring0_cmd *c)
{
	const char *why;
	uint64_t ops;
	int if_on;

	for (if_on = 0; if_on <= 1; if_on++) {
		why = pc_engine_selfcheck(p, if_around, &if_on, &ops);
		set_if(0);
		if (why) {
			c->status = PC_RING0_CHECK_FAILED;
			c->ops = ops;
			c->if_start = (uint32_t)if_on;
			copy_reason(c->reason, sizeof(c->reason), why);
			return;
		}
	}
}

int pc_ring0_kernel_row(uint32_t probe)
{
	static const unsigned char ring[PC_PROBE_COUNT] = {
#define PC_PROBE(id, name, group, ring_, syscalls, api, desc) [PC_PROBE_##id] = ring_,
#include "probes/probes.def"
#undef PC_PROBE
	};

	return probe < PC_PROBE_COUNT && (ring[probe] == 0 || probe == PC_RING0_GATE_ADD ||
					  probe == PC_RING0_GATE_CMPXCHG);
}

void pc_ring0_exec(struct pc_ring0_cmd *c, const struct pc_arch_probe *extra,
		   unsigned nextra)
{
	const struct pc_arch_probe *p = 0;
	struct pc_arch_env env = { 0, 0 };
	const char *why;

	c->status = PC_RING0_OK;
	c->reason[0] = 0;
	if (c->probe < PC_PROBE_COUNT)
		p = &pc_arch_probes[c->probe];
	else if (c->probe - PC_PROBE_COUNT < nextra)
		p = &extra[c->probe - PC_PROBE_COUNT];
	/* A body that needs what only a user process has (a TLS segment for
	 * the per-CPU %fs: forms) gives way to its fallback here, as in the
	 * freestanding runner: ring 0 has no process to ask. */
	while (p && p->unavailable && p->fallback)
		p = p->fallback;
	if (!p || !p->run) {
		c->status = PC_RING0_BAD_COMMAND;
		copy_reason(c->reason, sizeof(c->reason), "no such probe in ring 0");
		return;
	}
	/* What is left may still need an instruction the CPU lacks
	 * (cmpxchg16b): asked here, it would trap in ring 0 otherwise. */
	if (p->unavailable && (why = p->unavailable(&env))) {
		c->status = PC_RING0_UNAVAILABLE;
		copy_reason(c->reason, sizeof(c->reason), why);
		return;
	}
	switch (c->op) {
	case PC_RING0_OP_INIT:
		zero_state(&c->st);
		if (p->init)
			p->init(&c->st);
		break;
	case PC_RING0_OP_RUN:
		if (c->iters < 1 || c->iters > PC_RING0_MAX_OPS / PC_UNROLL_HI) {
			c->status = PC_RING0_BAD_COMMAND;
			copy_reason(c->reason, sizeof(c->reason),
				    "iteration count out of range");
			return;
		}
		/* Entered with interrupts on, as kernel code usually calls
		 * local_irq_save(): the single-operation interrupt rows then
		 * repeat one half (only their first cli changes IF), and the
		 * pairs (local_irq_disable_enable, both save_restore forms)
		 * change IF in every half. */
		set_if(1);
		c->ticks = p->run(&c->st, c->iters, c->hi != 0);
		set_if(0);
		break;
	case PC_RING0_OP_SELFCHECK:
		if (!p->check) {
			c->status = PC_RING0_BAD_COMMAND;
			copy_reason(c->reason, sizeof(c->reason), "probe has no check");
			return;
		}
		selfcheck(p, c);
		break;
	default:
		c->status = PC_RING0_BAD_COMMAND;
		copy_reason(c->reason, sizeof(c->reason), "unknown command");
		break;
	}
}
