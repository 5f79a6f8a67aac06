/* SPDX-License-Identifier: MIT */
/*
 * The kernel module, where it is loaded with test_entries=1 (the qemu
 * kernel test loads it so, in Debian's kernel under qemu): the self-check
 * of every row it runs (the ring-0 rows and the gate's) passes in ring 0,
 * the interrupt flag is left as each sequence promises, the test entry's
 * ud2 is caught in ring 0 and its row is failed with the vector, a ring-3
 * row is refused, and the module runs the next command after each.
 * Skips, with the reason, where the module is not loaded that way.
 */
#include <stdio.h>
#include <string.h>

#include "ring0/ring0.h"
#include "tap.h"
#include "ring0_checks.h"
#include "core/primcost.h"

#define TEST_ENTRIES "/sys/module/primcost_ring0/parameters/test_entries"

static int test_entries_on(void)
{
	FILE *f = fopen(TEST_ENTRIES, "r");
	int c = f ? fgetc(f) : EOF;

	if (f)
		fclose(f);
	return c == 'Y' || c == '1';
}

static void fault_contained(struct pc_ring0 *r)
{
	struct pc_probe_result res;
	struct pc_probe_state st;
	char buf[256];
	const char *why;

	why = pc_ring0_selfcheck(r, PC_RING0_TEST_UD2, buf, sizeof(buf));
	ok(why && strstr(why, "vector 6"), "a ud2 in ring 0 is caught and reported as "
	   "vector 6: %s", why ? why : "(passed?)");
	memset(&st, 0, sizeof(st));
	ok(pc_ring0_run(r, PC_RING0_TEST_UD2, &st, 1, 1) == 0,
	   "a faulting timed loop returns no time");
	memset(&res, 0, sizeof(res));
	res.id = (enum pc_probe_id)PC_RING0_TEST_UD2;
	res.status = PC_STATUS_OK;
	pc_ring0_finish(r, &res);
	ok(res.status == PC_STATUS_FAILED && strstr(res.reason, "vector 6"),
	   "... and its row is failed with the vector: %s", res.reason);
	ok(pc_ring0_selfcheck(r, PC_PROBE_local_irq_save, buf, sizeof(buf)) == NULL,
	   "the module runs the next command after the fault");
}

/* A row that is neither a ring-0 row nor the gate's is not the module's to
 * run: refused, and not the machine's verdict. */
static void ring3_refused(struct pc_ring0 *r)
{
	char buf[256];
	const char *why = pc_ring0_selfcheck(r, PC_PROBE_xchg, buf, sizeof(buf));

	ok(why && strstr(why, "Invalid argument") && !pc_ring0_machine_cannot(r),
	   "the module refuses a ring-3 row (xchg): %s", why ? why : "(ran?)");
	ok(pc_ring0_selfcheck(r, PC_PROBE_local_irq_save, buf, sizeof(buf)) == NULL,
	   "... and runs the next command");
}

int main(void)
{
	struct pc_ring0_options o = { PC_RING0_KMOD, 0, NULL };
	struct pc_ring0 *r;
	char err[PC_ERRLEN];

	pc_pin_cpu(-1, err, sizeof(err));
	r = pc_ring0_open(&o);
	if (!r || !pc_ring0_backend_name(r) || !test_entries_on()) {
		skip(!r ? "out of memory" : !pc_ring0_backend_name(r) ? pc_ring0_why_none(r) :
		     "the module is not loaded with test_entries=1",
		     "the kernel module answers");
		pc_ring0_close(r);
		return done_testing();
	}
	ok(strcmp(pc_ring0_backend_name(r), "kmod") == 0, "the kernel module answers");
	ring0_common_checks(r, true);
	fault_contained(r);
	ring3_refused(r);
	pc_ring0_close(r);
	return done_testing();
}
