/* SPDX-License-Identifier: MIT */
/* stats.c - robust statistics over samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "primcost.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double pc_quantile_sorted(const double *sorted, size_t n, double p)
{
	double pos, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	if (p <= 0)
		return sorted[0];
	if (p >= 1)
		return sorted[n - 1];
	/* Hyndman-Fan type 7 (R's default, numpy's "linear"). */
	pos = p * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double pc_median(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return pc_quantile_sorted(x, n, 0.5);
}

int pc_summarize(const double *x, size_t n, struct pc_summary *s)
{
	double *v, sum = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return -1;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	s->q1 = pc_quantile_sorted(v, n, 0.25);
	s->median = pc_quantile_sorted(v, n, 0.5);
	s->q3 = pc_quantile_sorted(v, n, 0.75);
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	/* Median absolute deviation, unscaled. */
	for (i = 0; i < n; i++)
		v[i] = fabs(x[i] - s->median);
	s->mad = pc_median(v, n);
	free(v);
	return 0;
}

struct pc_summary pc_summary_scale(const struct pc_summary *s, double k)
{
	struct pc_summary r = *s;

	r.min *= k;
	r.q1 *= k;
	r.median *= k;
	r.q3 *= k;
	r.max *= k;
	r.mad *= k;
	r.mean *= k;
	return r;
}

/* ---- Mann-Whitney U ----------------------------------------------------- */

struct ranked {
	double v;
	int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/*
 * Two-sided Mann-Whitney U test of x against y: ranks of the pooled
 * samples (ties get the mean of their ranks), U of x, then the normal
 * approximation with the tie-corrected variance and a continuity
 * correction of 1/2 (scipy.stats.mannwhitneyu(..., method="asymptotic")).
 */
int pc_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		    struct pc_mwu *r)
{
	struct ranked *all;
	size_t n = nx + ny, i, j;
	double rank_x = 0, ties = 0, mu, var, d;

	memset(r, 0, sizeof(*r));
	r->p = 1;
	if (nx == 0 || ny == 0)
		return -1;
	all = malloc(n * sizeof(*all));
	if (!all)
		return -1;
	for (i = 0; i < nx; i++)
		all[i] = (struct ranked){ x[i], 1 };
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){ y[i], 0 };
	qsort(all, n, sizeof(*all), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t, avg;
		size_t k;

		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		t = (double)(j - i);
		avg = ((double)i + 1 + (double)j) / 2;	/* ranks i+1 .. j */
		for (k = i; k < j; k++)
			if (all[k].from_x)
				rank_x += avg;
		ties += t * t * t - t;
	}
	free(all);
	r->u = rank_x - (double)nx * ((double)nx + 1) / 2;
	mu = (double)nx * (double)ny / 2;
	var = (double)nx * (double)ny / 12 *
	      (((double)n + 1) - ties / ((double)n * ((double)n - 1)));
	if (var <= 0) {		/* every value equal: no evidence at all */
		r->z = 0;
		r->p = 1;
		return 0;
	}
	d = r->u - mu;
	d = d > 0 ? fmax(d - 0.5, 0) : fmin(d + 0.5, 0);
	r->z = d / sqrt(var);
	r->p = erfc(fabs(r->z) / sqrt(2.0));
	if (r->p > 1)
		r->p = 1;
	return 0;
}
