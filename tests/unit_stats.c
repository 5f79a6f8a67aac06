/* SPDX-License-Identifier: MIT */
/* Statistics on data whose answers are known. */
#include <stdlib.h>

#include "core/stats.h"
#include "core/measure.h"
#include "tap.h"

/*
 * Mann-Whitney U against values computed independently with
 * scipy.stats.mannwhitneyu(x, y, alternative="two-sided",
 * method="asymptotic", use_continuity=True) (scipy 1.10.1).
 */
/* U counted pair by pair (a tie counts 1/2) equals the rank sum's U, on
 * samples large enough for the sort's partitioning and full of ties. */
static void mann_whitney_large(void)
{
	static double x[1500], y[1200];
	double u = 0;
	struct pc_mwu r;
	size_t i, j;

	srand(11);
	for (i = 0; i < 1500; i++)
		x[i] = (double)(rand() % 200 - 100) / 4;	/* negatives, zeros, ties */
	for (j = 0; j < 1200; j++)
		y[j] = (double)(rand() % 210 - 100) / 4;
	for (i = 0; i < 1500; i++)
		for (j = 0; j < 1200; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	pc_mann_whitney(x, 1500, y, 1200, &r);
	near(r.u, u, 1e-6, "U of 1500 against 1200 samples full of ties equals U "
	     "counted pair by pair");
	for (i = 0; i < 1500; i++)
		x[i] = 3;	/* every value equal: the partition must still end */
	pc_mann_whitney(x, 1500, x, 1500, &r);
	ok(r.p == 1, "3000 equal values: p = 1");
}

static void mann_whitney(void)
{
	static const double a1[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const double b1[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18 };
	static const double a2[] = { 1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9, 10.1 };
	static const double b2[] = { 2.5, 3.5, 4.5, 5.5, 6.5, 12.0, 13.0, 14.0, 15.0 };
	static const double a3[] = { 3, 3, 3, 4, 4, 5, 5, 5, 6, 7 };	/* many ties */
	static const double b3[] = { 4, 5, 5, 6, 6, 6, 7, 7, 8, 8, 9 };
	static const double a4[] = { 19, 22, 16, 29, 24 };	/* textbook size */
	static const double b4[] = { 20, 11, 17, 12 };
	static const double same[] = { 7.5, 7.6, 7.4, 7.5, 7.7, 7.5, 7.3, 7.5, 7.6 };
	static const double flat[] = { 5, 5, 5, 5 };
	struct pc_mwu r;

	pc_mann_whitney(a1, 9, b1, 9, &r);
	near(r.u, 0, 0, "U of two disjoint sets is 0");
	near(r.p, 0.00041229480206169127, 1e-12, "p of two disjoint sets of 9 (scipy)");
	pc_mann_whitney(b1, 9, a1, 9, &r);
	near(r.u, 81, 0, "U swaps to nx*ny - U when the sides swap");
	near(r.p, 0.00041229480206169127, 1e-12, "... and p does not change");
	pc_mann_whitney(a2, 10, b2, 9, &r);
	near(r.u, 31.5, 1e-12, "U with one tie across the sides (scipy: 31.5)");
	near(r.p, 0.2882759056275823, 1e-12, "p with one tie (scipy)");
	pc_mann_whitney(a3, 10, b3, 11, &r);
	near(r.u, 18.5, 1e-12, "U with many ties (scipy: 18.5)");
	near(r.p, 0.010134844029328594, 1e-12, "p with tie-corrected variance (scipy)");
	pc_mann_whitney(a4, 5, b4, 4, &r);
	near(r.u, 17, 0, "U of a textbook example (scipy: 17)");
	near(r.p, 0.11134688653314041, 1e-12, "p of a textbook example (scipy)");
	pc_mann_whitney(same, 9, same, 9, &r);
	near(r.p, 1, 0, "identical samples: p = 1");
	pc_mann_whitney(flat, 3, flat, 4, &r);
	ok(r.p == 1 && r.u == 6, "all values equal: p = 1, U = nx*ny/2, no division by 0");
	ok(pc_mann_whitney(a1, 0, b1, 9, &r) < 0 && r.p == 1, "an empty side is refused");
	mann_whitney_large();
}

int main(void)
{
	double odd[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 };	/* 1..9 shuffled */
	double even[] = { 4, 1, 3, 2 };
	double one[] = { 42 };
	double spread[] = { 1, 1, 2, 2, 4, 6, 9 };	/* median 2, |x-2| = 1 1 0 0 2 4 7 */
	struct pc_summary s, k;

	ok(pc_summarize(odd, 9, &s) == 0, "summary of 1..9 computes");
	near(s.median, 5, 0, "median of 1..9 is 5");
	near(s.q1, 3, 0, "q1 of 1..9 is 3 (linear interpolation)");
	near(s.q3, 7, 0, "q3 of 1..9 is 7");
	near(s.min, 1, 0, "min of 1..9");
	near(s.max, 9, 0, "max of 1..9");
	near(s.mean, 5, 1e-12, "mean of 1..9");
	near(s.mad, 2, 0, "MAD of 1..9 is 2");
	ok(odd[0] == 9 && odd[8] == 5, "summarize leaves its input unsorted");

	pc_summarize(even, 4, &s);
	near(s.median, 2.5, 0, "median of 1..4 is 2.5");
	near(s.q1, 1.75, 1e-12, "q1 of 1..4 is 1.75 (type 7)");
	near(s.q3, 3.25, 1e-12, "q3 of 1..4 is 3.25 (type 7)");

	pc_summarize(one, 1, &s);
	ok(s.min == 42 && s.q1 == 42 && s.median == 42 && s.q3 == 42 && s.mad == 0,
	   "a single sample is every quantile, MAD 0");

	pc_summarize(spread, 7, &s);
	near(s.median, 2, 0, "median of a skewed set");
	near(s.mad, 1, 0, "MAD of a skewed set ignores the tail");

	k = pc_summary_scale(&s, 2.5);
	near(k.median, 5, 1e-12, "scaling multiplies the median");
	near(k.mad, 2.5, 1e-12, "scaling multiplies the MAD");

	ok(pc_summarize(odd, 0, &s) < 0, "an empty sample set is refused");

	{
		/* The contention filter keeps what is within the limit. */
		double can[] = { 1.00, 1.02, 1.35, 0.99, 1.10, 1.11, 1.60 };
		bool keep[7];
		size_t kept = pc_contention_keep(can, 7, 1.10, keep);

		ok(kept == 4 && keep[0] && keep[1] && !keep[2] && keep[3] && keep[4] &&
		   !keep[5] && !keep[6],
		   "the contention filter keeps samples at or under the limit (%zu kept)", kept);
		ok(pc_contention_keep(can, 7, 0.5, keep) == 0,
		   "a limit under every canary keeps nothing");
	}

	mann_whitney();
	return done_testing();
}
