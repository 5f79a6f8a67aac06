/* SPDX-License-Identifier: MIT */
/*
 * vary_run - `primcost run` with a test-only body in one row whose own cost
 * varies, as smp_mb's does on some CPUs: a chain of dependent multiplies,
 * four per operation in one phase and five in the next, the phase changing
 * with the timer (every 2^19 ticks, slow in 5 of 8 phases). tests/vary.sh
 * checks that primcost says the probe varies and gives its two modes and
 * their shares, where it used to call the host disturbed.
 *
 * The body exists only in this program: primcost has no such row.
 *
 *   vary_run row          the row whose body varies
 *   vary_run run ARGS     primcost run ARGS with that body
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TEST_BODIES 1
#include "arch/x86/loop.h"
#include "test_bodies.h"

#define ROW PC_PROBE_smp_mb
#define MUL "imul %[k], %[r]\n\t"

/* Slow in 5 of every 8 phases of 2^19 timer ticks, in a scrambled order. */
static int slow_phase(void)
{
	static const unsigned char slow[8] = { 1, 0, 1, 1, 0, 1, 0, 1 };

	return slow[((pc_timer_read() >> 19) * 5) % 8];
}

static uint64_t run_vary(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long r = st->reg[0], k = st->reg[1];
	uint64_t t;

	if (slow_phase())
		PC_TIMED(t, iters, hi, "", MUL MUL MUL MUL MUL, "", (, [r] "+r"(r)),
			 ([k] "r"(k)));
	else
		PC_TIMED(t, iters, hi, "", MUL MUL MUL MUL, "", (, [r] "+r"(r)),
			 ([k] "r"(k)));
	st->reg[0] = r;
	return t;
}

static void init_vary(struct pc_probe_state *st)
{
	st->reg[0] = 1;
	st->reg[1] = 3;
}

const struct pc_arch_probe pc_test_bodies[PC_PROBE_COUNT] = {
	[ROW] = { .run = run_vary, .init = init_vary, .check = check_any,
		  .sequence = "imul x4 or x5, by phase [test-only body]" },
};
#endif

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "row") == 0) {
#ifdef HAVE_TEST_BODIES
		printf("%s\n", pc_probe_rows[ROW].name);
#endif
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "usage: vary_run row | vary_run run [ARGS]\n");
	return 2;
}
