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
