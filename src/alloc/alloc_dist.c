/* SPDX-License-Identifier: MIT */
/*
 * alloc_dist.c - each allocator point's single calls (alloc.h): the
 * calls timed one by one (alloc.c) made into a distribution, the timer's
 * own cost subtracted: its percentiles (p50, p90, p99, p99.9, max), the
 * p99 of each chunk of calls (what compare --stat p99 judges, as it
 * judges the medians of samples), and a histogram of log buckets, a point
 * of the result's "latency".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "core/stats.h"

/* The bucket of v cycles: 0 below one cycle, then PC_DIST_PER_OCTAVE a
 * power of two, the last open-ended. */
static unsigned bucket_of(double v)
{
	double b;

	if (!(v >= 1))
		return 0;
	b = 1 + floor(PC_DIST_PER_OCTAVE * log2(v));
	return b >= PC_DIST_BUCKETS - 1 ? PC_DIST_BUCKETS - 1 : (unsigned)b;
}

double pc_alloc_dist_bucket_lo(unsigned b)
{
	return b == 0 ? 0 : exp2((double)(b - 1) / PC_DIST_PER_OCTAVE);
}

/* The nearest-rank quantile of sorted[0 .. n): the smallest value with at
 * least per10k ten-thousandths of the calls at or below it (no value
 * between two calls). In integers: 0.9 * 16000 is 14400 in double but
 * above it in the x87's extended precision, whose ceil took the next call. */
static double rank(const double *sorted, size_t n, unsigned per10k)
{
	size_t k = (n * per10k + 9999) / 10000;

	return sorted[k ? k - 1 : 0];
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

void pc_alloc_timer_cost(const uint32_t *ticks, unsigned n, const uint32_t *calls,
			 unsigned ncalls, double cpt, struct pc_alloc_timer *t)
{
	double *v = malloc(n * sizeof(*v));
	uint32_t step = 0;
	unsigned i;

	/* the timer's step: what every interval read is a multiple of */
	for (i = 0; i < n && step != 1; i++)
		step = gcd(step, ticks[i]);
	for (i = 0; i < ncalls && step != 1; i++)
		step = gcd(step, calls[i]);

	t->ticks = t->resolution_cycles = NAN;
	if (!v || !n) {
		free(v);
		return;
	}
	for (i = 0; i < n; i++)
		v[i] = ticks[i];
	pc_sort_doubles(v, n);
	t->ticks = pc_quantile_sorted(v, n, 0.5);
	/* the timer's step, or its own jitter where that is wider */
	t->resolution_cycles = cpt * fmax(step ? step : 1, pc_quantile_sorted(v, n, 0.75) -
					  pc_quantile_sorted(v, n, 0.25));
	free(v);
}

int pc_alloc_dist_make(struct pc_alloc_dist *d, const uint32_t *ticks, unsigned n,
		       const struct pc_alloc_timer *timer, double cpt)
{
	double *v = malloc(n * sizeof(*v)), *c;
	unsigned i, k, per = n / PC_DIST_CHUNKS;

	memset(d, 0, sizeof(*d));
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		v[i] = fmax(0, ((double)ticks[i] - timer->ticks) * cpt);
		d->bucket[bucket_of(v[i])]++;
	}
	/* the p99 of each chunk of calls, in the order taken */
	for (k = 0; per && k < PC_DIST_CHUNKS; k++) {
		c = v + (size_t)k * per;
		pc_sort_doubles(c, per);
		d->chunk_p99[k] = rank(c, per, 9900);
	}
	pc_sort_doubles(v, n);
	d->calls = n;
	d->p50 = rank(v, n, 5000);
	d->p90 = rank(v, n, 9000);
	d->p99 = rank(v, n, 9900);
	d->p999 = rank(v, n, 9990);
	d->max = v[n - 1];
	d->timer_cycles = timer->ticks * cpt;
	d->resolution_cycles = timer->resolution_cycles;
	free(v);
	return 0;
}

/* A figure rounded to what it resolves: a tenth of a cycle under 100,
 * whole cycles above. */
static json_t *cycles(double v)
{
	return json_real(v < 100 ? round(v * 10) / 10 : round(v));
}

json_t *pc_alloc_dist_json(const struct pc_alloc_dist *d)
{
	json_t *o = json_object(), *chunks = json_array(), *buckets = json_array();
	unsigned i;

	if (!o || !chunks || !buckets) {
		json_decref(o);
		json_decref(chunks);
		json_decref(buckets);
		return NULL;
	}
	for (i = 0; i < PC_DIST_CHUNKS; i++)
		json_array_append_new(chunks, cycles(d->chunk_p99[i]));
	for (i = 0; i < PC_DIST_BUCKETS; i++)
		if (d->bucket[i])
			json_array_append_new(buckets, json_pack("[f, I]",
					      round(pc_alloc_dist_bucket_lo(i) * 1000) / 1000,
					      (json_int_t)d->bucket[i]));
	json_object_set_new(o, "calls", json_integer(d->calls));
	json_object_set_new(o, "timer_cycles", cycles(d->timer_cycles));
	json_object_set_new(o, "resolution_cycles", cycles(d->resolution_cycles));
	json_object_set_new(o, "p50", cycles(d->p50));
	json_object_set_new(o, "p90", cycles(d->p90));
	json_object_set_new(o, "p99", cycles(d->p99));
	json_object_set_new(o, "p99.9", cycles(d->p999));
	json_object_set_new(o, "max", cycles(d->max));
	json_object_set_new(o, "p99_chunks", chunks);
	json_object_set_new(o, "histogram", json_pack("{s:i, s:o}", "per_octave",
						      PC_DIST_PER_OCTAVE, "buckets", buckets));
	return o;
}
