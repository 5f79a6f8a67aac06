/* SPDX-License-Identifier: MIT */
/*
 * contend_plan.c - the contended group's plan (contend.h): the rows a -p
 * list names, the thread counts, placements, CPU lists and data lines of
 * the options, and from them every point, its CPUs placed from hwloc's
 * topology (placement.c), before run pins its thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contend.h"
#include "core/select.h"

const char *const pc_placement_names[] = { "compact", "spread", "list", "pair" };

/* ---- selection and lists ------------------------------------------------------------ */

int pc_contend_select(const char *list, bool *kinds, char *err, size_t errlen)
{
	const char *names[32];
	unsigned k;

	for (k = 0; k < pc_contend_nkinds && k < 32; k++)
		names[k] = pc_contend_kinds[k].hidden ? NULL : pc_contend_kinds[k].name;
	return pc_select_names(list, names, k, kinds, "the contended group: lock.*, "
			       "contended.*, c2c.latency", err, errlen);
}

int pc_contend_list(const char *what, const char *list, int *out, unsigned max,
		    unsigned *n, char *err, size_t errlen)
{
	const char *p = list;
	char *end;

	for (*n = 0;;) {
		long a, b;

		errno = 0;
		a = b = strtol(p, &end, 10);
		if (end != p && *end == '-')
			b = strtol(end + 1, &end, 10);
		if (end == p || errno || a < 0 || b < a || b > 65535 || (*end && *end != ','))
			goto bad;
		for (; a <= b; a++) {
			if (*n == max) {
				snprintf(err, errlen, "%s: at most %u values", what, max);
				return -1;
			}
			out[(*n)++] = (int)a;
		}
		if (!*end)
			return 0;
		p = end + 1;
	}
bad:
	snprintf(err, errlen, "%s: want a list like 0,2-5, got '%s'", what, list);
	return -1;
}

/* ---- the plan -------------------------------------------------------------------------- */

static struct pc_contend_point *add_point(struct pc_contend_run *cr, size_t *cap,
					  const struct pc_contend_kind *k, unsigned n,
					  enum pc_placement how, const int *cpus)
{
	struct pc_contend_point *pt;

	if (cr->npoints == *cap) {
		size_t ncap = *cap ? 2 * *cap : 32;
		struct pc_contend_point *np = realloc(cr->points, ncap * sizeof(*np));

		if (!np)
			return NULL;
		cr->points = np;
		*cap = ncap;
	}
	pt = &cr->points[cr->npoints];
	memset(pt, 0, sizeof(*pt));
	pt->cpus = malloc(n * sizeof(int));
	if (!pt->cpus)
		return NULL;
	cr->npoints++;
	memcpy(pt->cpus, cpus, n * sizeof(int));
	pt->kind = k;
	pt->nthreads = n;
	pt->placement = how;
	pt->cls = pc_place_class(&cr->place, cpus, n);
	pt->nodes = pc_place_nodes(&cr->place, cpus, n);
	return pt;
}

/* The thread counts: --threads, or powers of two up to the CPUs (the
 * count of CPUs last when it is none), at most PC_CONTEND_MAX_COUNTS: the
 * first ones and the last. */
static int counts(const struct pc_contend_options *o, unsigned ncpus, int *c,
		  unsigned *n, char *err, size_t errlen)
{
	unsigned i, v;

	if (o->threads) {
		if (pc_contend_list("--threads", o->threads, c, 64, n, err, errlen) < 0)
			return -1;
		for (i = 0; i < *n; i++)
			if (c[i] < 1) {
				snprintf(err, errlen, "--threads: a thread count is 1 or more");
				return -1;
			}
		return 0;
	}
	for (*n = 0, v = 1; v <= ncpus; v *= 2)
		c[(*n)++] = (int)v;
	if ((unsigned)c[*n - 1] != ncpus)
		c[(*n)++] = (int)ncpus;
	if (*n > PC_CONTEND_MAX_COUNTS) {
		c[PC_CONTEND_MAX_COUNTS - 1] = c[*n - 1];
		*n = PC_CONTEND_MAX_COUNTS;
	}
	return 0;
}

/* --placement LIST into how[]; the CPUs of --cpus checked against the
 * allowed ones. */
static int placements(const struct pc_contend_options *o, const struct pc_place *pl,
		      enum pc_placement *how, unsigned *nhow, int *list, unsigned *nlist,
		      char *err, size_t errlen)
{
	const char *p = o->placement ? o->placement : "compact";
	unsigned i, k;

	*nlist = *nhow = 0;
	if (o->cpus) {
		if (o->placement) {
			snprintf(err, errlen, "--placement and --cpus: give one of them");
			return -1;
		}
		if (pc_contend_list("--cpus", o->cpus, list, PC_CONTEND_THREADS_MAX, nlist,
				    err, errlen) < 0)
			return -1;
		for (i = 0; i < *nlist; i++) {
			for (k = 0; k < i && list[k] != list[i]; k++)
				;
			if (k < i) {
				snprintf(err, errlen, "--cpus: CPU %d given twice (every "
					 "thread has a CPU of its own)", list[i]);
				return -1;
			}
			for (k = 0; k < pl->ncpus && pl->compact[k] != list[i]; k++)
				;
			if (k == pl->ncpus) {
				snprintf(err, errlen, "--cpus: CPU %d is not one this process "
					 "may run on", list[i]);
				return -1;
			}
		}
		how[(*nhow)++] = PC_PLACE_LIST;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 7 && strncmp(p, "compact", 7) == 0)
			how[(*nhow)++] = PC_PLACE_COMPACT;
		else if (len == 6 && strncmp(p, "spread", 6) == 0)
			how[(*nhow)++] = PC_PLACE_SPREAD;
		else {
			snprintf(err, errlen, "--placement: want compact or spread, got '%.*s'",
				 (int)len, p);
			return -1;
		}
		if (!p[len] || *nhow == 2)
			return 0;
		p += len + 1;
	}
}

/* c2c's pairs: every pair (--matrix), the first CPU with each other
 * (--cpus), or one pair per class. */
static int pairs_plan(const struct pc_contend_options *o, struct pc_contend_run *cr,
		      size_t *cap, const struct pc_contend_kind *k, const int *list,
		      unsigned nlist)
{
	const int *c = nlist ? list : cr->place.compact;
	unsigned n = nlist ? nlist : cr->place.ncpus, i, j;
	int pair[2], reps[8][2];

	if (o->matrix) {
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				pair[0] = c[i], pair[1] = c[j];
				if (!add_point(cr, cap, k, 2, PC_PLACE_PAIR, pair))
					return -1;
			}
		return 0;
	}
	if (nlist) {
		for (j = 1; j < n; j++) {
			pair[0] = c[0], pair[1] = c[j];
			if (!add_point(cr, cap, k, 2, PC_PLACE_PAIR, pair))
				return -1;
		}
		return 0;
	}
	n = pc_place_pairs(&cr->place, reps, 8);
	for (i = 0; i < n; i++)
		if (!add_point(cr, cap, k, 2, PC_PLACE_PAIR, reps[i]))
			return -1;
	return 0;
}

/* The data lines of the lock rows: --data-lines, or 0 and 1, each at most
 * PC_CONTEND_DATA_LINES_MAX. */
static int data_lines(const struct pc_contend_options *o, int *d, unsigned *n, char *err,
		      size_t errlen)
{
	unsigned i;

	if (pc_contend_list("--data-lines", o->data_lines ? o->data_lines :
			    PC_CONTEND_DATA_LINES, d, PC_CONTEND_DATA_LINES_MAX + 1, n, err,
			    errlen) < 0)
		return -1;
	for (i = 0; i < *n; i++)
		if (d[i] > PC_CONTEND_DATA_LINES_MAX) {
			snprintf(err, errlen, "--data-lines: at most %d lines of data, got %d",
				 PC_CONTEND_DATA_LINES_MAX, d[i]);
			return -1;
		}
	return 0;
}

/* The points of one row: each placement at each thread count, with data
 * lines lines of protected data (lock rows; 0 for the others). */
static int row_plan(struct pc_contend_run *cr, size_t *cap, const struct pc_contend_kind *k,
		    const enum pc_placement *how, unsigned nhow, const int *c, unsigned nc,
		    const int *list, unsigned nlist, unsigned lines, char *err,
		    size_t errlen)
{
	struct pc_contend_point *pt;
	int cpus[PC_CONTEND_THREADS_MAX];
	unsigned h, i;

	for (h = 0; h < nhow; h++)
		for (i = 0; i < nc; i++) {
			unsigned n = (unsigned)c[i];

			if (how[h] == PC_PLACE_LIST) {
				if (n > nlist) {
					snprintf(err, errlen, "--threads %u: --cpus gives %u "
						 "CPUs", n, nlist);
					return -1;
				}
				memcpy(cpus, list, n * sizeof(int));
			} else if (pc_place_pick(&cr->place, how[h], n, cpus, err, errlen) < 0) {
				return -1;
			}
			if (!(pt = add_point(cr, cap, k, n, how[h], cpus))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			pt->data_lines = lines;
		}
	return 0;
}

int pc_contend_plan(const void *opts, void *state, char *err, size_t errlen)
{
	const struct pc_contend_options *o = opts;
	struct pc_contend_run *cr = state;
	int list[PC_CONTEND_THREADS_MAX], c[64], d[PC_CONTEND_DATA_LINES_MAX + 1];
	enum pc_placement how[2];
	unsigned nlist, nhow, nc, nd, k, i;
	size_t cap = 0;

	memset(cr, 0, sizeof(*cr));
	cr->window_us = o->window_us ? o->window_us : PC_CONTEND_WINDOW_US;
	if (pc_place_open(&cr->place, o->topology, err, errlen) < 0 ||
	    placements(o, &cr->place, how, &nhow, list, &nlist, err, errlen) < 0 ||
	    counts(o, nlist ? nlist : cr->place.ncpus, c, &nc, err, errlen) < 0 ||
	    data_lines(o, d, &nd, err, errlen) < 0)
		goto fail;
	for (k = 0; k < pc_contend_nkinds; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];

		if (!o->kinds[k])
			continue;
		if (kind->cls == PC_KIND_C2C) {
			if (pairs_plan(o, cr, &cap, kind, list, nlist) < 0) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			continue;
		}
		for (i = 0; i < (kind->cls == PC_KIND_LOCK ? nd : 1); i++)
			if (row_plan(cr, &cap, kind, how, nhow, c, nc, list, nlist,
				     kind->cls == PC_KIND_LOCK ? (unsigned)d[i] : 0, err,
				     errlen) < 0)
				goto fail;
	}
	return 0;
fail:
	pc_contend_close(cr);
	return -1;
}

void pc_contend_close(void *state)
{
	struct pc_contend_run *cr = state;
	size_t i;

	for (i = 0; i < cr->npoints; i++) {
		free(cr->points[i].cpus);
		free(cr->points[i].v);
		free(cr->points[i].can_t);
	}
	free(cr->canary_limit);
	cr->canary_limit = NULL;
	free(cr->points);
	cr->points = NULL;
	cr->npoints = 0;
	pc_place_close(&cr->place);
}
