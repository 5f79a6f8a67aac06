/* SPDX-License-Identifier: MIT */
/*
 * The disturbed-sample rules against real runs: tests/fixtures/noisy-host
 * holds one run of a quiet Zen 5 VM and three of the same VM while its host
 * was busy (their README says how they were taken). Their raw samples, in
 * the order taken, are judged again with the rules the run applies
 * (samples.c): nothing on the quiet host is noisy; on the busy one, every
 * inflated row (flags_*, mb) is noisy or within 3 % of the quiet figure.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/packed.h"
#include "core/samples.h"
#include "tap.h"

static json_t *probes_of(const char *dir, const char *name)
{
	char path[4096];
	json_error_t e;
	json_t *doc, *cpus, *cpu;
	const char *key;

	snprintf(path, sizeof(path), "%s/tests/fixtures/noisy-host/%s.json", dir, name);
	doc = json_load_file(path, 0, &e);
	if (!doc) {
		ok(0, "%s reads (%s)", path, e.text);
		return NULL;
	}
	cpus = json_object_get(doc, "cpus");
	json_object_foreach(cpus, key, cpu) {
		json_t *p = json_deep_copy(json_object_get(cpu, "probes"));

		json_decref(doc);
		return p;
	}
	json_decref(doc);
	return NULL;
}

/* The median of a probe's raw cycles, and whether the rules find it noisy. */
static int judge(json_t *p, const char *name, double *median, double *spread)
{
	json_t *raw = json_object_get(json_object_get(p, "raw"), "cycles");
	size_t n = 0;
	double *x = raw ? pc_samples_values(raw, &n) : NULL;
	int noisy;

	if (!x || n < PC_SAMPLES_MIN) {
		free(x);
		return -1;
	}
	noisy = pc_samples_noisy(x, n, pc_spread_limit(pc_probe_find(name)), spread);
	*median = pc_median(x, n);
	free(x);
	return noisy;
}

static int inflated_row(const char *name)
{
	return strncmp(name, "flags_", 6) == 0 || strcmp(name, "mb") == 0;
}

static void busy(json_t *quiet, const char *dir, const char *file)
{
	json_t *probes = probes_of(dir, file), *p;
	const char *name;
	unsigned noisy_n = 0, rows = 0;

	json_object_foreach(probes, name, p) {
		double med, qmed, spread, qspread, off;
		int v = judge(p, name, &med, &spread);

		if (v < 0 || judge(json_object_get(quiet, name), name, &qmed, &qspread) < 0)
			continue;
		off = fabs(med - qmed) / fmax(fabs(qmed), 0.01 / 0.03);
		noisy_n += v;
		rows++;
		printf("# %-8s %-22s median %9.3f (quiet %9.3f, %+6.1f %%) spread %5.1f %%%s\n",
		       file, name, med, qmed, 100 * (med / qmed - 1), 100 * spread,
		       v ? "  noisy" : "");
		if (inflated_row(name))
			ok(v || off <= 0.03, "%s %s: noisy, or within 3 %% of quiet "
			   "(%.3f against %.3f)", file, name, med, qmed);
	}
	ok(rows >= 15 && noisy_n > 0, "%s: %u rows judged, %u noisy", file, rows, noisy_n);
	json_decref(probes);
}

/* The slow-loop rule on synthetic loops: an interrupt in the lo loop would
 * make the difference negative; the sample is refused, by cause; a lasting
 * change of pace is refused only until the window has seen it. */
static void synthetic(void)
{
	struct pc_sample_set s;
	struct pc_sample x = { { 1200, 5000 }, { 500, 2500 }, { 0, 0 }, { 0, 0 } };
	const struct pc_sample slower = { { 1300, 6500 }, { 650, 3250 }, { 0, 0 }, { 0, 0 } };
	unsigned i, refused = 0;

	if (!ok(pc_sample_set_init(&s, 4, false) == 0, "a set of 4 samples"))
		return;
	s.iters = 10;
	s.cal_iters = 10;
	s.slack = 2;
	ok(pc_sample_set_put(&s, 0, &x, NULL) == PC_PUT_OK, "a first sample is kept");
	x.probe.lo = 1000;
	ok(pc_sample_set_put(&s, 1, &x, NULL) == PC_PUT_OK, "a faster one is kept");
	x.probe.lo = 6000;	/* an interrupt in the lo loop: hi - lo < 0 */
	ok(pc_sample_set_put(&s, 2, &x, NULL) == PC_PUT_SLOW && s.slow_probe == 1,
	   "a lo loop 6 times its floor is refused, counted as the probe's");
	x.probe.lo = 1000;
	x.cal.hi = 2800;	/* the calibration's hi loop 12 % slow */
	ok(pc_sample_set_put(&s, 2, &x, NULL) == PC_PUT_SLOW_CAL && s.slow_cal == 1,
	   "a calibration loop 12 %% above its floor is refused, counted as the calibration's");
	x.cal.hi = 2600;	/* 4 %: within the tolerance */
	ok(pc_sample_set_put(&s, 2, &x, NULL) == PC_PUT_OK && s.dt[2] > 0,
	   "4 %% above the floor is kept, and positive");
	for (i = 0; i < 3 * PC_FLOOR_WINDOW; i++)
		refused += pc_sample_set_put(&s, 3, &slower, NULL) != PC_PUT_OK;
	ok(refused > 0 && refused <= PC_FLOOR_WINDOW, "every loop 30 %% slower from "
	   "now on: %u samples refused, then the floor follows (window %u)", refused,
	   PC_FLOOR_WINDOW);
	pc_sample_set_free(&s);

	/* The first sample has no floor to be held to: the final pass. */
	if (!ok(pc_sample_set_init(&s, 4, false) == 0, "a second set"))
		return;
	s.iters = 10;
	s.cal_iters = 10;
	x = (struct pc_sample){ { 6000, 5000 }, { 500, 2500 }, { 0, 0 }, { 0, 0 } };
	ok(pc_sample_set_put(&s, 0, &x, NULL) == PC_PUT_OK && s.dt[0] < 0,
	   "a first sample with an interrupt in its lo loop is kept at first (%.0f)",
	   s.dt[0]);
	x.probe.lo = 1000;
	for (i = 1; i < 4; i++)
		pc_sample_set_put(&s, i, &x, NULL);
	s.n = 4;
	{
		bool keep[4];

		ok(pc_sample_set_final(&s, keep) == 1 && !keep[0] && keep[1] && keep[2] &&
		   keep[3], "the final pass drops it");
	}
	pc_sample_set_free(&s);
}

int main(void)
{
	synthetic();
	const char *dir = getenv("PC_SRCDIR") ? getenv("PC_SRCDIR") : ".";
	json_t *quiet = probes_of(dir, "quiet"), *p;
	const char *name;
	unsigned rows = 0, noisy_n = 0;

	if (!quiet)
		return done_testing();
	json_object_foreach(quiet, name, p) {
		double med, spread;
		int v = judge(p, name, &med, &spread);

		if (v < 0)
			continue;
		rows++;
		noisy_n += v;
		if (v)
			ok(0, "quiet %s is not noisy (spread %.2f %%)", name, 100 * spread);
	}
	ok(rows >= 15 && noisy_n == 0, "quiet host: %u rows judged, none noisy", rows);
	busy(quiet, dir, "noisy-1");
	busy(quiet, dir, "noisy-2");
	busy(quiet, dir, "noisy-3");
	json_decref(quiet);
	return done_testing();
}
