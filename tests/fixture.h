/* SPDX-License-Identifier: MIT */
/* fixture.h - the hwloc XML exports under tests/fixtures/topology, for the
 * C tests that load them. */
#ifndef PC_TEST_FIXTURE_H
#define PC_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "tap.h"

/* The path of topology fixture name: under $PC_SRCDIR, as make check sets
 * it, else under the current directory. */
static inline const char *topology_fixture(char *path, size_t len, const char *name)
{
	const char *src = getenv("PC_SRCDIR");

	snprintf(path, len, "%s/tests/fixtures/topology/%s", src ? src : ".", name);
	return path;
}

/* A loader's result rc for fixture name: 0, or -1 after a failed point
 * saying "verb name: err". */
static inline int fixture_loaded(int rc, const char *verb, const char *name, const char *err)
{
	if (rc < 0) {
		ok(0, "%s %s: %s", verb, name, err);
		return -1;
	}
	return 0;
}

#endif
