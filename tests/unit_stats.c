/* Statistics on data whose answers are known. */
#include <stdlib.h>

#include "primcost.h"
#include "tap.h"

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
	return done_testing();
}
