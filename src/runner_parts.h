/* SPDX-License-Identifier: MIT */
/*
 * runner_parts.h - what the files of the runner host share among
 * themselves (runner_host.h is their interface to the rest of primcost):
 * a small helper.
 */
#ifndef PC_RUNNER_PARTS_H
#define PC_RUNNER_PARTS_H

#include <stddef.h>
#include <stdio.h>

static inline void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

#endif
