/* SPDX-License-Identifier: MIT */
/*
 * main.c - the KVM micro-guest's driver: wait for a command in the mailbox,
 * execute it on the shared probe bodies, say so on the port, repeat.
 *
 * Compiled freestanding for ring 0 (no red zone: exceptions push on the
 * current stack; general registers only: nothing saves vector state).
 */
#include "runner/ring0/abi.h"

void pc_guest_main(void);

/* The compiler may emit calls to these for structure copies. */
void *memcpy(void *dst, const void *src, unsigned long n);
void *memset(void *dst, int c, unsigned long n);

void *memcpy(void *dst, const void *src, unsigned long n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, unsigned long n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

static void say(uint32_t what)
{
	/* "memory": the host reads and writes the mailbox during the exit. */
	__asm__ volatile("outl %0, %w1" : : "a"(what), "Nd"(PC_GUEST_PORT) : "memory");
}

/* ---- test entries: they exist only here, for the test suite ------------- */

/* An entry that runs `insn` once and returns 0 (if it returns). */
#define TEST_RUN(fn, insn)						\
static uint64_t fn(struct pc_probe_state *st, uint64_t iters, int hi)	\
{									\
	(void)st;							\
	(void)iters;							\
	(void)hi;							\
	__asm__ volatile(insn);						\
	return 0;							\
}

/* An invalid opcode: the host must report vector 6 and carry on. */
TEST_RUN(run_test_ud2, "ud2")
/* A guest that never answers, interrupts off: the host's time limit must
 * end it. */
TEST_RUN(run_test_spin, "cli\n1:\tjmp 1b")

static const char *check_nothing(const struct pc_probe_state *before,
				 const struct pc_probe_state *after, uint64_t ops)
{
	(void)before;
	(void)after;
	(void)ops;
	return 0;
}

/* Numbered from PC_PROBE_COUNT on; see src/ring0.h. */
static const struct pc_arch_probe test_probes[] = {
	{ .run = run_test_ud2, .check = check_nothing, .sequence = "ud2" },
	{ .run = run_test_spin, .check = check_nothing, .sequence = "cli; 1: jmp 1b" },
};

void pc_guest_main(void)
{
	struct pc_guest_mailbox *mb = (struct pc_guest_mailbox *)PC_GUEST_MAILBOX;

	say(PC_GUEST_READY);
	for (;;) {
		pc_ring0_exec(&mb->cmd, test_probes,
			      sizeof(test_probes) / sizeof(test_probes[0]));
		say(PC_GUEST_DONE);
	}
}
