/* SPDX-License-Identifier: MIT */
/* test_bodies.h - what the test-only bodies of tests/trap_run.c and
 * tests/vary_run.c share. */
#ifndef PC_TEST_BODIES_H
#define PC_TEST_BODIES_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

/* A self-check that accepts any state: a test-only body has no semantics
 * to check, only a behaviour to show. */
static inline const char *check_any(const struct pc_probe_state *before,
				    const struct pc_probe_state *after, uint64_t ops)
{
	(void)before;
	(void)after;
	(void)ops;
	return NULL;
}

#endif
