/* SPDX-License-Identifier: MIT */
/*
 * history.c - the runs a result file keeps, addressed from the command
 * line: FILE@N, FILE@latest, FILE@YYYY-MM-DD name one run of every CPU
 * (primcost(1), RESULT FILES), and "-" reads standard input.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "core/primcost.h"
#include "core/util.h"

/* The run a current entry belongs to: its "run", else the last run. */
static size_t run_of(json_t *p, size_t nruns)
{
	json_t *r = json_object_get(p, "run");

	return json_is_integer(r) ? (size_t)json_integer_value(r) : nruns - 1;
}

static const char *date_of(json_t *run)
{
	const char *d = json_string_value(json_object_get(run, "date"));

	return d ? d : "";
}

/* How far the whole seconds of date d reach ("YYYY-MM-DDTHH:MM:SS"). */
#define PC_DATE_SECONDS 19

/* n decimal digits at s, their value in *v. */
static bool digits(const char *s, int n, int *v)
{
	int i;

	for (*v = 0, i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* The end of a published run's date: nothing more, or a note after a space. */
static bool date_ends(const char *s, bool published)
{
	return published && (s[0] == 0 || s[0] == ' ');
}

bool pc_date_valid(const char *s, bool published)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec;

	if (!digits(s, 4, &y))
		return false;
	if (date_ends(s + 4, published))
		return true;
	if (s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' || !digits(s + 8, 2, &d) ||
	    mo < 1 || mo > 12 || d < 1 ||
	    d > mdays[mo - 1] + (mo == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	if (date_ends(s + 10, published))
		return true;
	if (s[10] != 'T' || !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &mi) ||
	    s[16] != ':' || !digits(s + 17, 2, &sec) || h > 23 || mi > 59 || sec > 60)
		return false;	/* 60: a leap second */
	s += PC_DATE_SECONDS;
	if (*s == '.') {
		if (!isdigit((unsigned char)*++s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return s[0] == 'Z' && s[1] == 0;
}

int pc_date_cmp(const char *a, const char *b)
{
	int c = strncmp(a, b, PC_DATE_SECONDS);

	if (c || strlen(a) < PC_DATE_SECONDS || strlen(b) < PC_DATE_SECONDS)
		return c;
	a += PC_DATE_SECONDS;
	b += PC_DATE_SECONDS;
	a += *a == '.';
	b += *b == '.';
	/* The fractions digit by digit, a missing digit read as 0. */
	while (isdigit((unsigned char)*a) || isdigit((unsigned char)*b)) {
		int da = isdigit((unsigned char)*a) ? *a++ : '0';
		int db = isdigit((unsigned char)*b) ? *b++ : '0';

		if (da != db)
			return da - db;
	}
	return 0;
}

static int is_date(const char *s)
{
	static const char shape[] = "dddd-dd-dd";
	size_t i;

	for (i = 0; shape[i]; i++)
		if (!s[i] || (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != '-'))
			return 0;
	return s[i] == 0;
}

int pc_run_selector_ok(const char *sel)
{
	size_t i, n = strlen(sel);

	if (strcmp(sel, "latest") == 0 || is_date(sel))
		return 1;
	if (!n || n > 9)
		return 0;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)sel[i]))
			return 0;
	return 1;
}

/* The run of runs that sel names, or (size_t)-1 when this CPU has none. */
static size_t pick(json_t *runs, const char *sel)
{
	size_t n = json_array_size(runs), k, best = (size_t)-1;
	int latest = strcmp(sel, "latest") == 0, date = is_date(sel);

	if (!latest && !date) {
		k = (size_t)strtoul(sel, NULL, 10);
		return k < n ? k : (size_t)-1;
	}
	for (k = 0; k < n; k++) {
		const char *d = date_of(json_array_get(runs, k));

		if (date && strncmp(d, sel, 10) != 0)
			continue;
		if (best == (size_t)-1 || pc_date_cmp(d, date_of(json_array_get(runs, best))) >= 0)
			best = k;
	}
	return best;
}

/* Makes the entry hold run k alone, as run 0: its figures and the rows it
 * did not measure are the current ones. */
static int view_of_run(json_t *entry, size_t k)
{
	json_t *runs = json_object_get(entry, "runs"), *run = json_array_get(runs, k);
	json_t *probes = json_object(), *alone = json_array(), *p, *copy;
	const char *name;

	if (!probes || !alone)
		goto fail;
	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		if (run_of(p, json_array_size(runs)) != k)
			continue;
		if (!(copy = json_deep_copy(p)))
			goto fail;
		json_object_set_new(copy, "run", json_integer(0));
		json_object_set_new(probes, name, copy);
	}
	json_object_foreach(json_object_get(run, "probes"), name, p) {
		if (!(copy = json_deep_copy(p)))
			goto fail;
		json_object_set_new(copy, "run", json_integer(0));
		json_object_set_new(probes, name, copy);
	}
	json_object_del(run, "probes");
	json_array_append(alone, run);
	json_object_set_new(entry, "runs", alone);
	json_object_set_new(entry, "probes", probes);
	return 0;
fail:
	json_decref(probes);
	json_decref(alone);
	return -1;
}

int pc_doc_pick_run(json_t *doc, const char *sel, char *err, size_t errlen)
{
	json_t *cpus = json_object_get(doc, "cpus"), *entry;
	const char *key;
	void *it;
	size_t kept = 0, most = 0;

	if (!pc_run_selector_ok(sel)) {
		snprintf(err, errlen, "@%.40s: not a run (want a run number, latest "
			 "or a date YYYY-MM-DD)", sel);
		return -1;
	}
	json_object_foreach_safe(cpus, it, key, entry) {
		json_t *runs = json_object_get(entry, "runs");
		size_t k = pick(runs, sel);

		if (json_array_size(runs) > most)
			most = json_array_size(runs);
		if (k == (size_t)-1) {
			json_object_del(cpus, key);
			continue;
		}
		if (view_of_run(entry, k) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		kept++;
	}
	if (kept)
		return 0;
	if (is_date(sel))
		snprintf(err, errlen, "@%s: no run on that day", sel);
	else if (most)
		snprintf(err, errlen, "@%s: no such run (runs 0..%zu)", sel, most - 1);
	else
		snprintf(err, errlen, "@%s: the file holds no run", sel);
	return -1;
}

/* FILE@SEL, when no file of the whole name exists: *sel points past the
 * '@' and file gets the part before it. 0 when arg is a file name. */
static int split_selector(const char *arg, char *file, size_t len, const char **sel)
{
	const char *at = strrchr(arg, '@'), *p;
	char buf[4096], err[PC_ERRLEN];

	if (!at || at == arg || !pc_run_selector_ok(at + 1))
		return 0;
	p = strcmp(arg, "-") != 0 ? pc_input_path(arg, buf, sizeof(buf), err,
						 sizeof(err)) : NULL;
	if (p && access(p, F_OK) == 0)
		return 0;	/* a file really named so */
	if ((size_t)(at - arg) >= len)
		return 0;
	memcpy(file, arg, (size_t)(at - arg));
	file[at - arg] = 0;
	*sel = at + 1;
	return 1;
}

json_t *pc_input_load(const char *arg, char *path, size_t pathlen, char *err,
		      size_t errlen)
{
	char file[4096], why[PC_ERRLEN];
	const char *sel = NULL, *p;
	json_t *doc;

	if (!split_selector(arg, file, sizeof(file), &sel))
		snprintf(file, sizeof(file), "%s", arg);
	p = strcmp(file, "-") == 0 ? "-" : pc_input_path(file, path, pathlen, err,
							   errlen);
	if (!p)
		return NULL;
	if (p != path)
		snprintf(path, pathlen, "%s", p);
	doc = pc_doc_load(path, NULL, err, errlen);
	if (doc && sel && pc_doc_pick_run(doc, sel, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%.400s%s", strcmp(path, "-") == 0 ?
			 PC_STDIN_NAME : path, why);
		json_decref(doc);
		return NULL;
	}
	if (sel) {
		size_t n = strlen(path);

		snprintf(path + n, pathlen - n, "@%s", sel);
	}
	return doc;
}

/* Counts figure p (a probe's, or a point's) into c. */
static void count_figure(json_t *p, struct pc_run_counts *c)
{
	if (!pc_probe_measured(p)) {
		c->unmeasured++;
		return;
	}
	c->measured++;
	c->noisy += pc_probe_rank(p) == 1;
	c->nonlinear += json_is_true(json_object_get(p, "nonlinear"));
}

/* Counts entry p of a run's figures into c: a probe measured at points
 * (points[]: the contended and allocator groups) counts each point, as
 * each is a figure. Returns how many figures. */
static size_t count_entry(json_t *p, struct pc_run_counts *c)
{
	json_t *points = json_object_get(p, "points"), *pt;
	size_t i;

	if (!json_is_array(points)) {
		count_figure(p, c);
		return 1;
	}
	json_array_foreach(points, i, pt)
		count_figure(pt, c);
	return json_array_size(points);
}

void pc_run_counts(json_t *entry, size_t k, struct pc_run_counts *c)
{
	json_t *runs = json_object_get(entry, "runs"), *p;
	const char *name;

	memset(c, 0, sizeof(*c));
	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		if (run_of(p, json_array_size(runs)) != k)
			continue;
		c->current += count_entry(p, c);
	}
	json_object_foreach(json_object_get(json_array_get(runs, k), "probes"), name, p)
		count_entry(p, c);
}

/* ---- the host's pace over the runs of a CPU ---- */

const char *pc_run_unreliable(json_t *run)
{
	const char *why = json_string_value(json_object_get(run, "unreliable_reason"));

	if (!json_is_true(json_object_get(run, "unreliable")))
		return NULL;
	return why ? why : "(no reason)";
}

double pc_run_pace(json_t *run)
{
	json_t *pace = json_object_get(run, "pace");
	double a = json_number_value(json_object_get(pace, "cycles_start")),
	       b = json_number_value(json_object_get(pace, "cycles_end")),
	       m = json_number_value(json_object_get(pace, "cycles_median"));

	if (json_is_number(json_object_get(pace, "cycles_median")) && m > 0)
		return m;
	if (!json_is_number(json_object_get(pace, "cycles_start")) ||
	    !json_is_number(json_object_get(pace, "cycles_end")) || !(a > 0) || !(b > 0))
		return NAN;
	return a < b ? a : b;
}

/*
 * The best is the quickest pace of the runs that measured this machine
 * (not an emulator's, not through a probe runner). A run's pace is the
 * median of the gauge paired with its samples where it was (the
 * allocator group), else the quicker of its start and end: a slow phase
 * of a second at one end is not a slow run.
 */
bool pc_run_judge_pace(json_t *run, json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs"), *r, *best_run = NULL;
	double pace = pc_run_pace(run), best = NAN;
	size_t k, n = 0;

	json_object_del(run, "host_slower");
	json_array_foreach(runs, k, r) {
		double p = pc_run_pace(r);

		if (isnan(p) || json_is_true(json_object_get(r, "unreliable")))
			continue;
		n++;
		if (isnan(best) || p < best) {
			best = p;
			best_run = r;
		}
	}
	if (isnan(pace) || !n || !(pace > best * (1 + PC_HOST_SLOWER)))
		return false;
	json_object_set_new(run, "host_slower", json_pack(
		"{s:o, s:o, s:s, s:I, s:o}", "pace_cycles", json_real(pc_round7(pace)),
		"best_cycles", json_real(pc_round7(best)),
		"best_date", json_string_value(json_object_get(best_run, "date")) ?
			     json_string_value(json_object_get(best_run, "date")) : "",
		"runs", (json_int_t)n, "tolerance", json_real(PC_HOST_SLOWER)));
	return true;
}
