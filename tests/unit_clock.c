/* SPDX-License-Identifier: MIT */
/* Sample sizing against the timer's resolution (slow arm64 timers). */
#include <string.h>

#include "core/primcost.h"
#include "core/clock.h"
#include "core/measure.h"
#include "tap.h"

static struct pc_clock fake(double hz, uint64_t step)
{
	struct pc_clock c;

	memset(&c, 0, sizeof(c));
	c.tick_hz = hz;
	c.tick_step = step;
	c.pmu_fd = -1;
	return c;
}

/* Worst quantization error of one sample, relative to its difference: two
 * intervals each off by < 1 step; the loop stops growing at 0.9 of its
 * target and the difference is 64/80 of it. */
static double worst_error(const struct pc_clock *c, double ticks)
{
	return 2.0 * (double)c->tick_step / (0.9 * ticks * PC_UNROLL_DIFF / PC_UNROLL_HI);
}

int main(void)
{
	static const struct { const char *what; double hz; uint64_t step; } timers[] = {
		{ "TSC at 2.4 GHz", 2.4e9, 1 },
		{ "generic timer at 24 MHz (Apple M1, Ampere Altra)", 24e6, 1 },
		{ "generic timer at 62.5 MHz (qemu)", 62.5e6, 1 },
		{ "1 GHz counter stepping by 40 (25 MHz scaled)", 1e9, 40 },
	};
	struct pc_clock c;
	char err[PC_ERRLEN];
	unsigned i;

	for (i = 0; i < sizeof(timers) / sizeof(timers[0]); i++) {
		double t;

		c = fake(timers[i].hz, timers[i].step);
		t = pc_sample_ticks(&c, 20e-6);
		ok(worst_error(&c, t) < 0.005 && t >= 20e-6 * c.tick_hz,
		   "%s: a 20 us sample lasts %.0f ticks (%.1f us), resolution error "
		   "<= %.2f %%", timers[i].what, t, t / c.tick_hz * 1e6,
		   100 * worst_error(&c, t));
	}
	/* (within a part per million: i386 computes in x87 extended precision) */
	c = fake(2.4e9, 1);
	near(pc_sample_ticks(&c, 20e-6), 48000, 0.05,
	     "a fast timer keeps the requested length");
	c = fake(24e6, 1);
	near(pc_sample_ticks(&c, 100e-6), 2400, 0.005,
	     "a request longer than the floor is kept on a slow timer");

	if (pc_clock_init(&c, false, err, sizeof(err)) < 0) {
		ok(0, "clock init: %s", err);
		return done_testing();
	}
	ok(c.tick_step >= 1, "this machine's %s steps by %llu tick(s) at %.1f MHz",
	   c.timer, (unsigned long long)c.tick_step, c.tick_hz / 1e6);
	pc_clock_close(&c);
	return done_testing();
}
