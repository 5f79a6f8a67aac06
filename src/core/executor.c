/* SPDX-License-Identifier: MIT */
/*
 * executor.c - the host's executor (executor.h). The PMU cycles and the
 * perf group are read right outside the timer reads of the body, around
 * every loop: whatever a read costs or leaves behind (it is a system call)
 * is then the same in both loops of a pair and cancels like the loop
 * overhead. Reading the group only around the pair, as before the engine,
 * put a system call before one loop and not the other: mb (mfence) read up
 * to 14 % high in some runs.
 */
#include <string.h>

#include "executor.h"

static void host_init(void *ctx, int probe, struct pc_probe_state *st)
{
	struct pc_host_loop *hl = ctx;

	if (hl->body.exec->init)
		hl->body.exec->init(hl->body.ctx, probe, st);
}

static uint64_t host_run(void *ctx, int probe, struct pc_probe_state *st,
			 uint64_t iters, int hi)
{
	struct pc_host_loop *hl = ctx;
	struct pc_loop_counts *lc = &hl->counts[hi ? 1 : 0];
	struct pc_counter_reading c0, c1;
	struct pc_group_reading g0, g1;
	uint64_t t;

	if (hl->ev)
		pc_events_read(hl->ev, &g0);
	if (hl->pmu)
		pc_clock_pmu_sample(hl->clk, &c0);
	t = hl->body.exec->run(hl->body.ctx, probe, st, iters, hi);
	lc->full = true;
	if (hl->pmu) {
		pc_clock_pmu_sample(hl->clk, &c1);
		hl->cycles[hi ? 1 : 0] = c1.value - c0.value;
		lc->full = pc_counter_full(&c0, &c1);
	}
	if (hl->ev) {
		pc_events_read(hl->ev, &g1);
		pc_events_loop(hl->ev, &g0, &g1, lc);
	}
	return t;
}

const struct pc_executor pc_host_executor = {
	.init = host_init,
	.run = host_run,
};

struct pc_body pc_body_direct(const struct pc_arch_probe *p)
{
	struct pc_body b = { &pc_direct_executor, (void *)p };

	return b;
}

void pc_host_loop_bind(struct pc_loop *l, struct pc_host_loop *hl, int probe,
		       struct pc_body body, const struct pc_clock *clk, bool pmu)
{
	memset(hl, 0, sizeof(*hl));
	hl->body = body;
	hl->clk = clk;
	hl->pmu = pmu && clk->pmu_fd >= 0;
	pc_loop_bind(l, &pc_host_executor, hl, probe);
}
