/* SPDX-License-Identifier: MIT */
/*
 * selfcheck.c - the functional self-check of a probe body, the one
 * sequence every executor runs before timing it: in this process
 * (src/core/measure.c), in the freestanding runner, and in ring 0
 * (runner/ring0/exec.c, entered once with interrupts off and once on).
 * Freestanding, and free of floating point: the kernel module links it.
 */
#include "engine/engine.h"

/* Zeroes through a volatile pointer: no memset call in freestanding code. */
static void zero_state(struct pc_probe_state *st)
{
	volatile unsigned char *p = (volatile unsigned char *)st;
	unsigned long i;

	for (i = 0; i < sizeof(*st); i++)
		p[i] = 0;
}

static void copy_state(struct pc_probe_state *d, const struct pc_probe_state *s)
{
	unsigned int i;

	for (i = 0; i < PC_STATE_WORDS; i++)
		d->mem[i] = s->mem[i];
	for (i = 0; i < 4; i++)
		d->reg[i] = s->reg[i];
}

const char *pc_engine_selfcheck(const struct pc_arch_probe *p,
				void (*around)(void *ctx, int entering), void *ctx,
				uint64_t *ops)
{
	static const uint64_t iters_list[] = { 1, 3 };
	struct pc_probe_state before, st;
	const char *why;
	unsigned int i;
	int hi;

	for (hi = 0; hi <= 1; hi++) {
		for (i = 0; i < 2; i++) {
			*ops = iters_list[i] * (uint64_t)(hi ? PC_UNROLL_HI : PC_UNROLL_LO);
			zero_state(&st);
			if (around)
				around(ctx, 1);
			if (p->init)
				p->init(&st);
			copy_state(&before, &st);
			p->run(&st, iters_list[i], hi);
			if (around)
				around(ctx, 0);
			why = p->check(&before, &st, *ops);
			if (why)
				return why;
		}
	}
	*ops = 0;
	if (p->semantics) {
		zero_state(&st);
		return p->semantics(&st);
	}
	return 0;
}
