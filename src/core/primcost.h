/* SPDX-License-Identifier: MIT */
/* primcost.h - the program's constants: result schema, exit status, error length. */
#ifndef PRIMCOST_H
#define PRIMCOST_H

#define PC_SCHEMA_NAME "primcost-result"
#define PC_SCHEMA_VERSION 1
/* primcost info --format json */
#define PC_INFO_SCHEMA "primcost-info/1"

/* Exit status, documented in primcost(1). */
enum {
	PC_EXIT_OK = 0,
	PC_EXIT_FAILURE = 1,	/* a probe failed, or compare found a regression */
	PC_EXIT_USAGE = 2,	/* bad option, bad input file, cannot write output */
	PC_EXIT_SIGNAL = 128,	/* + the signal number: interrupted (SIGINT: 130) */
};

#define PC_ERRLEN 512

#endif
