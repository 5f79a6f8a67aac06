/* SPDX-License-Identifier: MIT */
/* cli_common.h - what the subcommands share (cli_common.c): option values
 * of their own types, the terminal's width (the other option functions
 * are declared in commands.h and options.h). */
#ifndef PC_CLI_COMMON_H
#define PC_CLI_COMMON_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "results/report.h"
#include "results/results.h"
#include "ring0/ring0.h"

/* --format FMT: one of the formats allowed (PC_FMT bits, table.h). */
int pc_opt_format(const char *arg, unsigned allowed, enum pc_format *format, char *err,
		  size_t errlen);
/* The formats of run's and compare's views. */
#define PC_FMTS_VIEWS (PC_FMT(PC_FORMAT_TABLE) | PC_FMT(PC_FORMAT_JSON) |	\
		       PC_FMT(PC_FORMAT_CSV) | PC_FMT(PC_FORMAT_MARKDOWN))
/* --ring0 MODE: auto, kvm, kmod or none (see commands.h for the others). */
int pc_opt_ring0(const char *arg, enum pc_ring0_mode *mode, char *err, size_t errlen);


#endif
