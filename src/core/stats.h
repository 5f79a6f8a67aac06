/* SPDX-License-Identifier: MIT */
/* stats.h - summaries, quantiles, the Mann-Whitney test, sorting (stats.c). */
#ifndef PC_STATS_H
#define PC_STATS_H

#include <stddef.h>
#include <stdint.h>

struct pc_summary {
	double min, q1, median, q3, max, mad, mean;
	size_t n;
};

/* Summarises x[0..n) (n > 0) into *s; returns -1 when out of memory. */
int pc_summarize(const double *x, size_t n, struct pc_summary *s);
/* Quantile p (0..1) of sorted[0..n), linear between closest ranks. */
double pc_quantile_sorted(const double *sorted, size_t n, double p);
/* The same summary with every statistic multiplied by k (k > 0). */
struct pc_summary pc_summary_scale(const struct pc_summary *s, double k);
double pc_median(double *x, size_t n);	/* sorts x in place */

/* Mann-Whitney U test (two-sided, normal approximation, tie-corrected,
 * continuity-corrected). */
struct pc_mwu {
	double u;	/* U statistic of x */
	double z;
	double p;	/* two-sided p-value */
};
/* Returns -1 when a side is empty or memory runs out (r->p is then 1). */
int pc_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		    struct pc_mwu *r);
/* The same of x and y already in ascending order (pc_sort_doubles). */
int pc_mann_whitney_sorted(const double *xs, size_t nx, const double *ys, size_t ny,
			   struct pc_mwu *r);
/* Sort in place (radix: no comparison); -1 when memory runs out. Doubles
 * are ordered by sign and bits (-0 before +0); an array already in order
 * is only checked. */
int pc_sort_doubles(double *v, size_t n);
int pc_sort_i64(int64_t *v, size_t n);

#endif
