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

/* Sorts doubles in place without a comparison callback: the U test sorts
 * thousands of samples per probe and side, and qsort's indirect call was
 * most of its time. Quicksort (median of three), insertion sort below 16. */
static void sort_doubles(double *v, size_t n)
{
	while (n > 16) {
		double a = v[0], b = v[n / 2], c = v[n - 1], pivot, t;
		size_t i = 0, j = n - 1;

		pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		/* recurse into the smaller part, loop on the larger */
		if (j + 1 < n - j - 1) {
			sort_doubles(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_doubles(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t k = i;

		for (; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
}

/*
 * Two-sided Mann-Whitney U test of x against y: ranks of the pooled
 * samples (ties get the mean of their ranks), U of x, then the normal
 * approximation with the tie-corrected variance and a continuity
 * correction of 1/2 (scipy.stats.mannwhitneyu(..., method="asymptotic")).
 * Each side is sorted on its own and the two merged: a run of equal values
 * takes ranks pos+1 .. pos+t, their mean for each.
 */
int pc_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		    struct pc_mwu *r)
{
	double *xs, *ys;
	size_t n = nx + ny, i = 0, j = 0, pos = 0;
	double rank_x = 0, ties = 0, mu, var, d;

	memset(r, 0, sizeof(*r));
	r->p = 1;
	if (nx == 0 || ny == 0)
		return -1;
	xs = malloc(n * sizeof(*xs));
	if (!xs)
		return -1;
	ys = xs + nx;
	memcpy(xs, x, nx * sizeof(*xs));
	memcpy(ys, y, ny * sizeof(*ys));
	sort_doubles(xs, nx);
	sort_doubles(ys, ny);
	while (i < nx || j < ny) {
		double v = i < nx && (j >= ny || xs[i] <= ys[j]) ? xs[i] : ys[j], t;
		size_t cx = 0, cy = 0;

		while (i < nx && xs[i] == v)
			i++, cx++;
		while (j < ny && ys[j] == v)
			j++, cy++;
		t = (double)(cx + cy);
		rank_x += (double)cx * ((double)pos + (t + 1) / 2);
		ties += t * t * t - t;
		pos += cx + cy;
	}
	free(xs);
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
