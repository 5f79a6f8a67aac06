/* SPDX-License-Identifier: MIT */
/* packed raw samples: lossless round trips, refusals of malformed strings,
 * and reading them past the JSON lexer without changing the document. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/packed.h"
#include "core/primcost.h"
#include "core/stats.h"
#include "results/results.h"
#include "tap.h"

/* v rounded to 7 significant digits, as the figures are. */
static double seven(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.7g", v);
	return strtod(buf, NULL);
}

static int round_trip(const double *v, size_t n)
{
	char *s = pc_pack_doubles(v, n), err[256];
	double *back = NULL;
	size_t m = 0, i;
	int same;

	if (!s)
		return 0;
	same = pc_unpack_doubles(s, strlen(s), 1000000, 1e12, &back, &m, err,
				 sizeof(err)) == 0 && m == n;
	for (i = 0; same && i < n; i++)
		same = memcmp(&back[i], &v[i], sizeof(double)) == 0;
	free(back);
	free(s);
	return same;
}

static int refused(const char *s)
{
	char err[256];
	double *v = NULL;
	size_t n;
	int rc = pc_unpack_doubles(s, strlen(s), 100, 1e12, &v, &n, err, sizeof(err));

	free(v);
	return rc < 0 && err[0];
}

/* Says the first of the 1000 slots where sorted is not plain to the bit
 * (side and j name the case), so that a failure shows where. */
static void first_difference(const char *side, size_t j, const double *plain,
			     const double *sorted)
{
	size_t i;

	for (i = 0; plain && sorted && i < 1000; i++)
		if (memcmp(&plain[i], &sorted[i], sizeof(double))) {
			diag("%sj %zu: slot %zu: %.17g against %.17g", side, j, i, plain[i],
			     sorted[i]);
			break;
		}
}

int main(void)
{
	double v[1000], mixed[] = { 0, -0.01, 20.01234, 9.123456, 1234.567, 0.001234567,
				    -5e-4, 76.14 }, wide[] = { 1234567, 5e-7 };
	char *s;
	size_t i;

	srand(7);
	for (i = 0; i < 1000; i++)
		v[i] = seven(20 * (1 + ((double)rand() / RAND_MAX - 0.5) * 0.02));
	ok(round_trip(v, 1000), "1000 samples of 7 digits come back bit for bit");
	ok(round_trip(mixed, sizeof(mixed) / sizeof(mixed[0])),
	   "zero, negatives, magnitudes 1e-4..1e3 together come back bit for bit");
	s = pc_pack_doubles(wide, 2);
	ok(s == NULL, "magnitudes too far apart for one scale (1e6 and 5e-7) are not "
	   "packed (the array stays)");
	free(s);
	ok(round_trip(v, 0), "an empty array packs and comes back empty");
	v[3] = 1.0 / 3.0;
	s = pc_pack_doubles(v, 10);
	ok(s == NULL, "a value with more digits than the scale keeps is not packed "
	   "(the array stays)");
	free(s);
	v[3] = NAN;
	s = pc_pack_doubles(v, 10);
	ok(s == NULL, "a non-finite value is not packed");
	free(s);
	v[3] = 20;
	s = pc_pack_doubles(v, 10);
	ok(s && strncmp(s, "dz1:", 4) == 0 && pc_packed_count(s) == 10,
	   "the header says the count: %s", s ? s : "(null)");
	free(s);

	ok(refused("dz1:5:3:"), "fewer values than announced is refused");
	ok(refused("dz1:5:0:AA=="), "bytes after the values are refused");
	ok(refused("dz1:5:1:A!=="), "a character outside base64 is refused");
	ok(refused("dz1:5:1:AAA"), "a base64 length that is not a multiple of 4 is refused");
	ok(refused("dz1:99:1:AA=="), "a scale beyond 10^22 is refused");
	ok(refused("dz1:5:101:"), "more samples than the limit is refused");
	ok(refused("dz1:-22:1:Ag=="), "a value beyond the absolute limit is refused");
	ok(refused("dz1:5:x:AA=="), "a count that is not a number is refused");

	{
		/* A document with packed samples, a packed-looking key, an escaped
		 * string and a forged placeholder: parsed past the lexer, it must
		 * equal the document jansson alone reads. */
		char text[8192], err[PC_ERRLEN], *a;
		json_t *direct, *fast;
		json_error_t je;

		for (i = 0; i < 100; i++)
			v[i] = seven(10 + (double)i / 7);
		a = pc_pack_doubles(v, 100);
		snprintf(text, sizeof(text),
			 "{\"schema\": \"primcost-result/1\", \"cpus\": {\"x86_64.t.1-2-3.c\": "
			 "{\"cpu\": {\"arch\": \"x86_64\", \"brand\": \"dz1#0000000000000000#0\"},"
			 " \"runs\": [{\"date\": \"2026-01-01T00:00:00Z\", \"host\": \"a\\\"b\"}],"
			 " \"probes\": {\"cmpxchg\": {\"status\": \"ok\", \"cycles_source\": "
			 "\"calibrated\", \"samples\": 100, \"run\": 0,"
			 " \"ticks\": {\"min\":10,\"q1\":10,\"median\":10,\"q3\":10,\"max\":%.17g,\"mad\":0},"
			 " \"cycles\": {\"min\":10,\"q1\":10,\"median\":10,\"q3\":10,\"max\":%.17g,\"mad\":0},"
			 " \"ns\": {\"min\":1,\"q1\":1,\"median\":1,\"q3\":1,\"max\":1,\"mad\":0},"
			 " \"raw\": {\"ticks\": \"%s\", \"cycles\": \"%s\"}}}}}}", v[99], v[99],
			 a, a);
		direct = json_loads(text, 0, &je);
		fast = pc_doc_parse(text, strlen(text), "t", err, sizeof(err));
		ok(direct && fast && json_equal(direct, fast),
		   "parsed past the lexer, the document is the one jansson reads%s%s",
		   fast ? "" : ": ", fast ? "" : err);
		json_decref(direct);
		json_decref(fast);
		free(a);
	}
	{
		/* Sorted samples for the U test: decoded once, the integers
		 * sorted, then divided; the values and the test must be the very
		 * ones of decoding, scaling and sorting the doubles. */
		double w[1000], *plain, *sorted;
		struct pc_mwu r1, r2;
		size_t n1, n2, j;
		json_t *js, *ja;
		int same = 1;

		for (i = 0; i < 1000; i++)
			w[i] = seven((i % 3 ? 20 : -0.5) * (1 + ((double)rand() / RAND_MAX -
								0.5) * 0.02));
		w[10] = w[11] = w[12] = 0;		/* ties, and zero */
		s = pc_pack_doubles(w, 1000);
		if (!s)
			diag("the samples did not pack");
		js = json_string(s);
		ja = json_array();
		for (i = 0; i < 1000; i++)
			json_array_append_new(ja, json_real(w[i]));
		for (j = 0; j < 2; j++) {
			/* volatile: a double, not the x87's 80 bits (i386) */
			volatile double scale = j ? 1e9 / 2.1e9 : 1;

			plain = pc_samples_values(js, &n1);
			for (i = 0; plain && i < n1; i++)
				plain[i] *= scale;
			pc_sort_doubles(plain, n1);
			sorted = pc_samples_sorted(js, scale, &n2);
			if (!sorted || n1 != 1000 || n2 != 1000)
				diag("j %zu: %s, %zu and %zu values", j, sorted ? "sorted" : "not sorted", n1, n2);
			same = same && s && plain && sorted && n1 == 1000 && n2 == 1000 &&
			       memcmp(plain, sorted, 1000 * sizeof(double)) == 0;
			first_difference("", j, plain, sorted);
			free(sorted);
			sorted = pc_samples_sorted(ja, scale, &n2);
			same = same && sorted && n2 == 1000 &&
			       memcmp(plain, sorted, 1000 * sizeof(double)) == 0;
			first_difference("ja ", j, plain, sorted);
			free(sorted);
			free(plain);
		}
		ok(same, "packed samples sorted as integers equal the doubles sorted, "
		   "scaled or not, and as arrays of numbers");
		pc_mann_whitney(w, 1000, v, 1000, &r1);
		plain = malloc(2000 * sizeof(double));
		memcpy(plain, w, 1000 * sizeof(double));
		memcpy(plain + 1000, v, 1000 * sizeof(double));
		pc_sort_doubles(plain, 1000);
		pc_sort_doubles(plain + 1000, 1000);
		pc_mann_whitney_sorted(plain, 1000, plain + 1000, 1000, &r2);
		ok(memcmp(&r1, &r2, sizeof(r1)) == 0,
		   "the U test of sorted sides is the U test, bit for bit");
		free(plain);
		json_decref(js);
		json_decref(ja);
		free(s);
	}
	{
		int64_t x[] = { 5, -3, INT64_MAX, 0, INT64_MIN, 5, 70000, -70000 };
		int64_t y[] = { INT64_MIN, -70000, -3, 0, 5, 5, 70000, INT64_MAX };

		pc_sort_i64(x, 8);
		ok(memcmp(x, y, sizeof(x)) == 0, "integers sort across the whole range");
	}
	return done_testing();
}
