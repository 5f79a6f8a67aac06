/* SPDX-License-Identifier: MIT */
/* cmd_run.h - primcost run's options (parsed apart from the core, testable;
 * struct pc_run_options is run.h's). */
#ifndef PC_CMD_RUN_H
#define PC_CMD_RUN_H

#include "run/run.h"

/* 0: run; 1: --help asked; -1: error in err. */
int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen);

#endif
