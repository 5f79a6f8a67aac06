/* SPDX-License-Identifier: MIT */
/* merge: every run kept, the newest figure current, the replaced one in
 * the history of its run, duplicates recognised, conflicts refused. */
#include <string.h>

#include "results/merge.h"
#include "tap.h"
#include "core/primcost.h"

#define K "x86_64.test.1-2-3.cpu-a"

static json_t *fig(double median)
{
	json_t *s = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "min", median, "q1", median,
			      "median", median, "q3", median, "max", median, "mad", 0.0);

	return json_pack("{s:s, s:i, s:s, s:i, s:O, s:O, s:o, s:i}", "status", "ok", "ring", 3,
			 "cycles_source", "calibrated", "samples", 9, "ticks", s, "cycles", s,
			 "ns", s, "run", 0);
}

/* One CPU, one run on `date` by `host`, cmpxchg (and xchg if > 0). */
static json_t *doc(const char *key, const char *date, const char *host, const char *brand,
		   double cmpxchg, double xchg)
{
	json_t *d = json_pack("{s:s, s:{s:{s:{s:s, s:s}, s:[{s:s, s:s}], s:{s:o}}}}",
			      "schema", "primcost-result/1", "cpus", key, "cpu", "arch",
			      "x86_64", "brand", brand, "runs", "date", date, "host", host,
			      "probes", "cmpxchg", fig(cmpxchg));

	if (xchg > 0)
		json_object_set_new(json_object_get(json_object_get(json_object_get(d, "cpus"),
								    key), "probes"), "xchg", fig(xchg));
	return d;
}

static double median_of(json_t *p)
{
	return json_number_value(json_object_get(json_object_get(p, "cycles"), "median"));
}

/* A new document with first merged into it, st counting from zero. */
static json_t *merged_from(json_t *first, struct pc_merge_stats *st, char *err,
			   size_t errlen)
{
	json_t *out = pc_doc_new();

	memset(st, 0, sizeof(*st));
	pc_doc_merge(out, first, st, err, errlen);
	return out;
}

int main(void)
{
	json_t *x = doc(K, "2026-01-01T00:00:00Z", "host-x", "old brand", 9, 0);
	json_t *y = doc(K, "2026-02-01T00:00:00Z", "host-y", "new brand", 10, 7);
	json_t *z = doc("x86_64.test.4-5-6.cpu-b", "2026-01-15T00:00:00Z", "host-z", "b", 5, 0);
	struct pc_merge_stats st;
	char err[PC_ERRLEN] = "";
	json_t *out, *e, *runs;
	int order;

	/* Run dates: to the second as older files wrote them, or with a
	 * fraction; the same second without a fraction is its start. */
	ok(pc_date_cmp("2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z") < 0 &&
	   pc_date_cmp("2026-01-01T00:00:01.5Z", "2026-01-01T00:00:01.25Z") > 0 &&
	   pc_date_cmp("2026-01-01T00:00:01Z", "2026-01-01T00:00:01.000Z") == 0 &&
	   pc_date_cmp("2026-01-01T00:00:01Z", "2026-01-01T00:00:01.001Z") < 0 &&
	   pc_date_cmp("2026-01-01T00:00:01.999Z", "2026-01-01T00:00:02Z") < 0 &&
	   pc_date_cmp("2026-01-01T00:00:01.100Z", "2026-01-01T00:00:01.1Z") == 0,
	   "run dates order to the second and by their fractions");

	for (order = 0; order < 2; order++) {
		out = pc_doc_new();
		memset(&st, 0, sizeof(st));
		ok(pc_doc_merge(out, order ? y : x, &st, err, sizeof(err)) == 0 &&
		   pc_doc_merge(out, order ? x : y, &st, err, sizeof(err)) == 0 &&
		   pc_doc_merge(out, z, &st, err, sizeof(err)) == 0,
		   "%s: three files merge (%s)", order ? "newest first" : "oldest first", err);
		e = json_object_get(json_object_get(out, "cpus"), K);
		runs = json_object_get(e, "runs");
		ok(json_array_size(runs) == 2, "both runs of the same model are kept");
		ok(median_of(json_object_get(json_object_get(e, "probes"), "cmpxchg")) == 10 &&
		   strcmp(json_string_value(json_object_get(json_array_get(runs,
			(size_t)json_integer_value(json_object_get(json_object_get(
			json_object_get(e, "probes"), "cmpxchg"), "run"))), "host")), "host-y") == 0,
		   "the newest run's figure is current and points at its run");
		{
			size_t k, found = 0;

			for (k = 0; k < 2; k++) {
				json_t *h = json_object_get(json_object_get(json_array_get(runs, k),
								"probes"), "cmpxchg");

				if (h && median_of(h) == 9 && !json_object_get(h, "run") &&
				    strcmp(json_string_value(json_object_get(json_array_get(runs, k),
						"host")), "host-x") == 0)
					found++;
			}
			ok(found == 1, "the replaced figure is in the history of the run that "
			   "measured it");
		}
		ok(median_of(json_object_get(json_object_get(e, "probes"), "xchg")) == 7,
		   "a probe only the newer run measured is current");
		ok(strcmp(json_string_value(json_object_get(json_object_get(e, "cpu"), "brand")),
			  "new brand") == 0, "the cpu description follows the newest run");
		ok(json_object_size(json_object_get(out, "cpus")) == 2 && st.cpus_added == 2,
		   "another model is added whole");
		ok(pc_doc_validate(out, err, sizeof(err)) == 0, "the merged document validates (%s)",
		   err);

		/* Merging what is already there adds nothing. */
		memset(&st, 0, sizeof(st));
		{
			json_t *again = json_deep_copy(out);

			ok(pc_doc_merge(out, x, &st, err, sizeof(err)) == 0 &&
			   pc_doc_merge(out, again, &st, err, sizeof(err)) == 0 &&
			   st.runs_added == 0 && st.runs_duplicate == 4 && json_equal(out, again),
			   "merging the same runs again changes nothing (%zu added, %zu duplicate)",
			   st.runs_added, st.runs_duplicate);
			json_decref(again);
		}
		json_decref(out);
	}

	/* The same run with different figures is a conflict, not a silent pick. */
	{
		json_t *x2 = doc(K, "2026-01-01T00:00:00Z", "host-x", "old brand", 9.5, 0);

		out = merged_from(x, &st, err, sizeof(err));
		ok(pc_doc_merge(out, x2, &st, err, sizeof(err)) < 0 && strstr(err, "cmpxchg"),
		   "two different figures from the same run are refused: %s", err);
		json_decref(out);
		json_decref(x2);
	}
	/* Two runs on the same date: the later file wins, both kept. */
	{
		json_t *w = doc(K, "2026-01-01T00:00:00Z", "host-w", "old brand", 11, 0);

		out = merged_from(x, &st, err, sizeof(err));
		pc_doc_merge(out, w, &st, err, sizeof(err));
		e = json_object_get(json_object_get(out, "cpus"), K);
		ok(json_array_size(json_object_get(e, "runs")) == 2 &&
		   median_of(json_object_get(json_object_get(e, "probes"), "cmpxchg")) == 11,
		   "same date: both runs kept, the later file's figure current");
		json_decref(out);
		json_decref(w);
	}
	/* A newer noisy figure gives way to an older ok one, whichever file
	 * comes first; the noisy one is kept in its run. */
	for (order = 0; order < 2; order++) {
		json_t *n = doc(K, "2026-03-01T00:00:00Z", "host-n", "old brand", 12, 0);
		json_t *p;

		json_object_set_new(json_object_get(json_object_get(json_object_get(
			json_object_get(n, "cpus"), K), "probes"), "cmpxchg"), "status",
			json_string("noisy"));
		out = merged_from(order ? n : x, &st, err, sizeof(err));
		pc_doc_merge(out, order ? x : n, &st, err, sizeof(err));
		e = json_object_get(json_object_get(out, "cpus"), K);
		p = json_object_get(json_object_get(e, "probes"), "cmpxchg");
		ok(median_of(p) == 9 && strcmp(json_string_value(json_object_get(p, "status")),
					       "ok") == 0 &&
		   json_array_size(json_object_get(e, "runs")) == 2 &&
		   pc_doc_validate(out, err, sizeof(err)) == 0,
		   "merge, %s first: an older ok figure stays over a newer noisy one",
		   order ? "noisy" : "ok");
		json_decref(out);
		json_decref(n);
	}
	json_decref(x);
	json_decref(y);
	json_decref(z);
	return done_testing();
}
