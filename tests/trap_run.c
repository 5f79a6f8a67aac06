/* SPDX-License-Identifier: MIT */
/*
 * trap_run - `primcost run` with test-only bodies in some rows: bodies that
 * trap (ud2, cli in user mode, a load from an unmapped or unbacked address,
 * a division by zero) or hang, so that tests/traps.sh can check that each is
 * contained: that probe fails with the signal and the instruction named, and
 * every other probe is measured as usual.
 *
 * The bodies exist only in this program: primcost has no such rows, and
 * `primcost list` and `primcost run` never show them.
 *
 *   trap_run map          the overridden rows: "NAME SIGNAL INSTRUCTION"
 *   trap_run run ARGS     primcost run ARGS with the test bodies
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/commands.h"

/* Where the run's progress lines can be read, -1 before it starts. */
static int status_rd = -1;

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TEST_BODIES 1
#include "arch/x86/loop.h"
#include "test_bodies.h"

/* The self-check runs 1 and 3 iterations: a body that traps only beyond
 * that passes it and traps in a timed loop of the measurement. */
#define SELFCHECK_ITERS 3
/* The late body traps once this round of its sampling has begun: past the
 * sizing and warm-up, whose number of calls depends on the timings. It
 * learns the round from the run's progress lines (--status-fd), which the
 * engine writes before each probe's share of a round. */
#define LATE_ROUND 4
#define STR(x) #x
#define XSTR(x) STR(x)

static uint64_t run_empty(uint64_t iters, int hi)
{
	uint64_t t;

	PC_TIMED(t, iters, hi, "", "", "", (), ());
	return t;
}

/* Always: in the self-check. */
PC_RUN_NO_OPERAND(run_ud2, "ud2")

/* A body that only the measurement's timed loops run: the self-check's
 * short loops (SELFCHECK_ITERS or fewer) run an empty one and pass. */
#define RUN_PAST_SELFCHECK(fn, body)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	uint64_t t;							\
									\
	(void)st;							\
	if (iters <= SELFCHECK_ITERS)					\
		return run_empty(iters, hi);				\
	PC_TIMED(t, iters, hi, "", body, "", (), ());			\
	return t;							\
}

RUN_PAST_SELFCHECK(run_cli, "cli")

static void init_bad_address(struct pc_probe_state *st)
{
	st->reg[1] = 0x10;	/* nothing is mapped at page 0 */
}

/* A load from the address in reg[1]. */
static uint64_t run_load(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long v = 0;
	uint64_t t;

	if (iters <= SELFCHECK_ITERS)
		return run_empty(iters, hi);
	PC_TIMED(t, iters, hi, "", "mov (%[p]), %[v]", "", (, [v] "=&r"(v)),
		 ([p] "r"(st->reg[1])));
	st->reg[2] = v;
	return t;
}

static void init_div_zero(struct pc_probe_state *st)
{
	st->reg[1] = 0;		/* the divisor */
}

static uint64_t run_div(struct pc_probe_state *st, uint64_t iters, int hi)
{
	unsigned long a = 1, d = 0;
	uint64_t t;

	if (iters <= SELFCHECK_ITERS)
		return run_empty(iters, hi);
	PC_TIMED(t, iters, hi, "", "xor %%edx, %%edx\n\tdivl %k[z]", "",
		 (, "+a"(a), "+d"(d)), ([z] "r"(st->reg[1])));
	return t;
}

/* A page of a file that has no byte behind it: loads from it are SIGBUS. */
static void init_unbacked(struct pc_probe_state *st)
{
	static void *page;

	if (!page) {
		int fd = memfd_create("primcost-trap-test", 0);

		page = fd < 0 ? MAP_FAILED :
		       mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (fd >= 0)
			close(fd);
		if (page == MAP_FAILED)
			page = (void *)0x10;	/* falls back to a SIGSEGV */
	}
	st->reg[1] = (unsigned long)page;
}

/* Has a progress line said that the late body's LATE_ROUND has begun?
 * Reads what the run wrote so far; each line came in one write. */
static int late_round_begun(void)
{
	static char buf[1024];
	static size_t have;
	static int begun;
	const char *name = pc_probe_rows[PC_PROBE_smp_rmb].name;
	ssize_t n;

	while (!begun && status_rd >= 0 &&
	       (n = read(status_rd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		char *line = buf, *nl;
		unsigned k;
		char who[64];

		have += (size_t)n;
		buf[have] = 0;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			if (sscanf(line, "round %u/%*u %63s", &k, who) == 2 &&
			    k >= LATE_ROUND && strcmp(who, name) == 0)
				begun = 1;
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* no line is that long: drop it */
	}
	return begun;
}

static uint64_t run_late_ud2(struct pc_probe_state *st, uint64_t iters, int hi)
{
	uint64_t t;

	(void)st;
	if (!late_round_begun())
		return run_empty(iters, hi);
	PC_TIMED(t, iters, hi, "", "ud2", "", (), ());
	return t;
}

RUN_PAST_SELFCHECK(run_hang, "2: jmp 2b")

#define BODY(run_, init_, seq) \
	{ .run = run_, .init = init_, .check = check_any, .sequence = seq " [test-only body]" }

const struct pc_arch_probe pc_test_bodies[PC_PROBE_COUNT] = {
	[PC_PROBE_get_cycles] = BODY(run_ud2, NULL, "ud2"),
	[PC_PROBE_cmpxchg_local] = BODY(run_cli, NULL, "cli"),
	[PC_PROBE_local_add_return] = BODY(run_load, init_bad_address, "mov (0x10), %r"),
	[PC_PROBE_mb] = BODY(run_div, init_div_zero, "xor %edx, %edx; divl %zero"),
	[PC_PROBE_wmb] = BODY(run_load, init_unbacked, "mov (unbacked page), %r"),
	[PC_PROBE_smp_rmb] = BODY(run_late_ud2, NULL,
				  "ud2 from its round " XSTR(LATE_ROUND) " on"),
	[PC_PROBE_flags_save] = BODY(run_hang, NULL, "2: jmp 2b"),
};

/* What each must end as: the signal and a word of the instruction's name
 * (SIGALRM: stopped by the time limit). */
static const struct {
	int id;
	const char *signal, *insn;
} expected[] = {
	{ PC_PROBE_get_cycles, "SIGILL", "ud2" },
	{ PC_PROBE_cmpxchg_local, "SIGSEGV", "cli" },
	{ PC_PROBE_local_add_return, "SIGSEGV", "load" },
	{ PC_PROBE_mb, "SIGFPE", "div" },
	{ PC_PROBE_wmb, "SIGBUS", "load" },
	{ PC_PROBE_smp_rmb, "SIGILL", "ud2" },
	{ PC_PROBE_flags_save, "SIGALRM", "itself" },
};
#define NEXPECTED (sizeof(expected) / sizeof(expected[0]))
#endif

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "map") == 0) {
#ifdef HAVE_TEST_BODIES
		unsigned i;

		for (i = 0; i < NEXPECTED; i++)
			printf("%s %s %s\n", pc_probe_rows[expected[i].id].name,
			       expected[i].signal, expected[i].insn);
#endif
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "run") == 0) {
		char **args = calloc((size_t)argc + 2, sizeof(*args)), fd[16];
		int p[2], rc;

		/* the run's progress lines come to the late body */
		if (!args || pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0) {
			perror("trap_run");
			return 2;
		}
		status_rd = p[0];
		snprintf(fd, sizeof(fd), "%d", p[1]);
		memcpy(args, argv + 1, (size_t)(argc - 1) * sizeof(*args));
		args[argc - 1] = "--status-fd";
		args[argc] = fd;
		rc = cmd_run(argc + 1, args);
		free(args);
		return rc;
	}
	fprintf(stderr, "usage: trap_run map | trap_run run [ARGS]\n");
	return 2;
}
