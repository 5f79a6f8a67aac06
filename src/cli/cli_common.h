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

/* --format FMT: table, json, csv or markdown (report.h). */
int pc_opt_format(const char *arg, enum pc_format *format, char *err, size_t errlen);
/* --ring0 MODE: auto, kvm, kmod or none (see commands.h for the others). */
int pc_opt_ring0(const char *arg, enum pc_ring0_mode *mode, char *err, size_t errlen);

/* The width text output must fit: $COLUMNS, else the terminal's, else 80. */
int pc_term_width(void);
/* Prints text, each line longer than width wrapped at spaces: its first
 * indent columns (a label) kept, the rest under column indent, or under a
 * shallower one (from the next line) where a word would not fit there. */
void pc_wrap_lines(FILE *f, const char *text, int indent, int width);

#endif
