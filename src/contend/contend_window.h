/* SPDX-License-Identifier: MIT */
/* contend_window.h - the contended group's windows (contend_window.c), as
 * its sampling (contend.c) runs them: within the group's folder only. */
#ifndef PC_CONTEND_WINDOW_H
#define PC_CONTEND_WINDOW_H

#include <stdatomic.h>
#include <stdint.h>

#include "contend.h"

/* A batch: a point's threads running nwin windows back to back. */
struct pc_contend_batch {
	const struct pc_contend_point *pt;
	struct pc_contend_shared *s;	/* the barrier's */
	struct pc_contend_shared **slot;	/* [nwin]: each window's lines */
	uint64_t window_ticks;
	unsigned nwin;
	uint64_t *acq, *ticks;		/* [nwin][nthreads] */
	long *switched;			/* [nwin][nthreads]: involuntary switches */
	double *can;			/* [nwin][nthreads]: canary ticks/op */
	double *cal;			/* [nwin][nthreads]: the add chain's
					 * ticks per add (per cycle) */
	uint64_t *gap;			/* [nwin][nthreads]: longest check gap */
	uint64_t *late;			/* [nwin][nthreads]: ticks past the window's
					 * start when it began, or past its end
					 * when it stopped, whichever is more */
	uint64_t *deadline;		/* [nwin]: the window's end */
	double *xfer;			/* [nwin]: the gauge's ticks per transfer */
	const struct pc_arch_probe *canary;	/* or NULL */
	const struct pc_arch_probe *chain;	/* the add chain, or NULL */
	const char **why;		/* [nwin]: the check's verdict */
	uint64_t *counter;		/* [nwin]: what the check read */
	unsigned w;			/* the leader's window number */
	atomic_int gate;		/* 1: all threads started; 2: give up */
	atomic_uint ready;		/* threads that tried to pin themselves */
	atomic_int unpinned;		/* one that could not, or -1 */
};

/* Runs b's windows: a thread per CPU of the point, pinned, all started or
 * none. -1 with err. */
int pc_contend_batch_run(struct pc_contend_batch *b, char *err, size_t errlen);

#endif
