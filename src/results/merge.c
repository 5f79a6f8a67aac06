/* SPDX-License-Identifier: MIT */
/* merge.c - combining result documents (see merge.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "packed.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* Two runs are the same run when they are equal but for the figures they
 * hold in history. */
static int same_run(json_t *a, json_t *b)
{
	json_t *x = json_copy(a), *y = json_copy(b);
	int eq;

	json_object_del(x, "probes");
	json_object_del(y, "probes");
	eq = x && y && json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return eq;
}

/* Equal figures, whatever run index they carry and whether their raw
 * samples are packed (packed.h) or arrays of numbers. */
static int same_figure(json_t *a, json_t *b)
{
	json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
	int eq;

	json_object_del(x, "run");
	json_object_del(y, "run");
	pc_probe_pack_raw(x);
	pc_probe_pack_raw(y);
	eq = x && y && json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return eq;
}

static const char *run_date(json_t *runs, size_t k)
{
	const char *d = json_string_value(json_object_get(json_array_get(runs, k), "date"));

	return d ? d : "";
}

static const char *newest_date(json_t *runs)
{
	const char *best = "";
	size_t k;

	for (k = 0; k < json_array_size(runs); k++)
		if (pc_date_cmp(run_date(runs, k), best) > 0)
			best = run_date(runs, k);
	return best;
}

/* The run a current figure belongs to: its "run", else the last run. */
static size_t run_of(json_t *p, size_t nruns)
{
	json_t *r = json_object_get(p, "run");

	return r ? (size_t)json_integer_value(r) : nruns - 1;
}

/* Files figure p (no "run" member) as replaced in run k of runs. */
static int to_history(json_t *runs, size_t k, const char *name, json_t *p,
		      const char *key, char *err, size_t errlen)
{
	json_t *run = json_array_get(runs, k), *hist = json_object_get(run, "probes");
	json_t *have;

	if (!hist) {
		hist = json_object();
		json_object_set_new(run, "probes", hist);
	}
	have = json_object_get(hist, name);
	if (have) {
		if (same_figure(have, p))
			return 0;
		FAIL("cpus.%s.runs[%zu]: two different figures of %s from the same run",
		     key, k, name);
	}
	p = json_deep_copy(p);
	json_object_del(p, "run");
	json_object_set_new(hist, name, p);
	return 0;
fail:
	return -1;
}

/*
 * Which of two current entries of a probe stays current: the higher rank
 * (pc_probe_rank: a figure over a noisy figure over a row that was not
 * measured), else the newer run's (on a tie, the incoming one).
 */
static int out_wins(json_t *c, json_t *p, const char *date_c, const char *date_p)
{
	if (pc_probe_rank(c) != pc_probe_rank(p))
		return pc_probe_rank(c) > pc_probe_rank(p);
	return pc_date_cmp(date_p, date_c) < 0;
}

static int merge_entry(json_t *eout, json_t *ein, const char *key,
		       struct pc_merge_stats *st, char *err, size_t errlen)
{
	json_t *rout = json_object_get(eout, "runs"), *rin = json_object_get(ein, "runs");
	json_t *cur = json_object_get(eout, "probes"), *run, *p;
	size_t nin = json_array_size(rin), nold = json_array_size(rout), j, k;
	size_t *map = calloc(nin ? nin : 1, sizeof(*map));
	const char *name;
	int newer_cpu;

	if (!map)
		FAIL("out of memory");
	if (!nin && json_object_size(json_object_get(ein, "probes")))
		FAIL("cpus.%s: figures without a run", key);
	newer_cpu = pc_date_cmp(newest_date(rin), newest_date(rout)) > 0;
	json_array_foreach(rin, j, run) {
		for (k = 0; k < json_array_size(rout); k++)
			if (same_run(json_array_get(rout, k), run))
				break;
		if (k < json_array_size(rout)) {
			st->runs_duplicate++;
		} else {
			json_t *copy = json_deep_copy(run);

			json_object_del(copy, "probes");
			json_array_append_new(rout, copy);
			st->runs_added++;
		}
		map[j] = k;
	}
	if (json_array_size(rout) > PC_LIMIT_RUNS)
		FAIL("cpus.%s: more than %d runs", key, PC_LIMIT_RUNS);
	/* Replaced figures of the incoming runs stay replaced. */
	json_array_foreach(rin, j, run) {
		json_object_foreach(json_object_get(run, "probes"), name, p) {
			json_t *c = json_object_get(cur, name);

			if (c && run_of(c, nold ? nold : 1) == map[j] && !same_figure(c, p))
				FAIL("cpus.%s: two different figures of %s from the same run",
				     key, name);
			if (c && run_of(c, nold ? nold : 1) == map[j])
				continue;
			if (to_history(rout, map[j], name, p, key, err, errlen) < 0)
				goto fail;
			st->probes_history++;
		}
	}
	/* Current figures: the newer run's wins, the other goes to history. */
	json_object_foreach(json_object_get(ein, "probes"), name, p) {
		size_t kin = map[run_of(p, nin)];
		json_t *c = json_object_get(cur, name), *mine;
		json_t *hist = json_object_get(json_array_get(rout, kin), "probes");

		if (c) {
			size_t kc = run_of(c, nold ? nold : 1);

			if (kc == kin) {
				if (!same_figure(c, p))
					FAIL("cpus.%s: two different figures of %s from "
					     "the same run", key, name);
				continue;
			}
			if (out_wins(c, p, run_date(rout, kc), run_date(rout, kin))) {
				/* the output's figure stays current: the incoming
				 * one is filed in its run's record */
				if (to_history(rout, kin, name, p, key, err, errlen) < 0)
					goto fail;
				st->probes_history++;
				continue;
			}
			if (to_history(rout, kc, name, c, key, err, errlen) < 0)
				goto fail;
			st->probes_history++;
		}
		/* A figure that becomes current leaves its run's history. */
		if (json_object_get(hist, name)) {
			if (!same_figure(json_object_get(hist, name), p))
				FAIL("cpus.%s: two different figures of %s from the same run",
				     key, name);
			json_object_del(hist, name);
		}
		mine = json_deep_copy(p);
		json_object_set_new(mine, "run", json_integer((json_int_t)kin));
		json_object_set_new(cur, name, mine);
		st->probes_current++;
	}
	if (json_object_size(cur) > PC_LIMIT_PROBES)
		FAIL("cpus.%s: more than %d probes", key, PC_LIMIT_PROBES);
	if (newer_cpu)
		json_object_set_new(eout, "cpu", json_deep_copy(json_object_get(ein, "cpu")));
	pc_entry_promote_measured(eout);
	free(map);
	return 0;
fail:
	free(map);
	return -1;
}

int pc_doc_merge(json_t *out, json_t *in, struct pc_merge_stats *st, char *err,
		 size_t errlen)
{
	json_t *cout = json_object_get(out, "cpus"), *ein;
	const char *key;

	json_object_foreach(json_object_get(in, "cpus"), key, ein) {
		json_t *eout = json_object_get(cout, key);

		if (!eout) {
			if (json_object_size(cout) >= PC_LIMIT_CPUS) {
				snprintf(err, errlen, "more than %d CPUs", PC_LIMIT_CPUS);
				return -1;
			}
			json_object_set_new(cout, key, json_deep_copy(ein));
			pc_entry_promote_measured(json_object_get(cout, key));
			st->cpus_added++;
			st->runs_added += json_array_size(json_object_get(ein, "runs"));
			st->probes_current += json_object_size(json_object_get(ein, "probes"));
			continue;
		}
		if (merge_entry(eout, ein, key, st, err, errlen) < 0)
			return -1;
	}
	return 0;
}
