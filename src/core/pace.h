/* SPDX-License-Identifier: MIT */
/*
 * pace.h - the host's pace: a gauge of the front end, timed at the start
 * and at the end of every run, that tells a slower host from a quick one
 * where the contention canary does not (docs/design.md, bench/canary-study.sh).
 */
#ifndef PC_PACE_H
#define PC_PACE_H

#include <stdbool.h>

#include "executor.h"

/* What the gauge times, as the run records it. */
#define PC_PACE_GAUGE "calls through 64 functions in turn"
#define PC_PACE_CALLS 64	/* a pass: the 64 calls once */

/* The median ticks and cycles (ticks over the paired add chain's ticks
 * per add) of one call over the gauge's batches, after a batch of each to
 * warm up; -1 when the timer did not move. */
int pc_pace(double *ticks, double *cycles);
/* The gauge as an engine body (an operation: one pass of the calls), paired
 * with every sample of a body that feels the host's pace (measure.c). */
struct pc_body pc_pace_body(void);

#endif
