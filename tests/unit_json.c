/* SPDX-License-Identifier: MIT */
/* The result document: round trip, validation, merge semantics. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/packed.h"
#include "results/report.h"
#include "results/results.h"
#include "tap.h"
#include "core/primcost.h"

static void fake_probe(struct pc_probe_result *r, enum pc_probe_id id, double med,
		       double *raw, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->ring = pc_probe_rows[id].ring;
	r->status = PC_STATUS_OK;
	r->samples = n;
	r->iters = 10;
	r->ops_per_sample = 640;
	r->linearity = 2.01;
	r->cycles_per_tick = 1.25;
	r->cycles_source = PC_CYCLES_CALIBRATED;
	pc_summarize(raw, n, &r->ticks);
	r->ticks.median = med;
	r->cycles = pc_summary_scale(&r->ticks, 1.25);
	r->ns = pc_summary_scale(&r->ticks, 0.4);
	r->raw_ticks = raw;
}

/* doc["k1"]["k2"]... (a numeric string indexes an array); NULL-terminated. */
static json_t *at(json_t *j, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, j);
	while (j && (k = va_arg(ap, const char *)))
		j = json_is_array(j) ? json_array_get(j, (size_t)atoi(k)) :
				       json_object_get(j, k);
	va_end(ap);
	return j;
}

#define A "x86_64.test.1-2-3.cpu-a"

static json_t *doc_for(const char *key, struct pc_profile *prof, const char *host)
{
	struct pc_cpu_info ci;
	struct pc_clock clk;
	json_t *doc = pc_doc_new();
	char err[PC_ERRLEN];

	memset(&ci, 0, sizeof(ci));
	memset(&clk, 0, sizeof(clk));
	snprintf(ci.arch, sizeof(ci.arch), "x86_64");
	snprintf(ci.host, sizeof(ci.host), "%s", host);
	clk.timer = "tsc";
	clk.tick_hz = 2.5e9;
	clk.pmu_fd = -1;
	pc_doc_add_run(doc, key, pc_json_cpu(&ci, &clk, 1.25),
		       pc_json_run(&ci, &clk, prof, json_object()),
		       pc_json_probes(prof, &clk), err, sizeof(err));
	return doc;
}

/* The validator checks nonlinear and round_spread, and a noisy figure
 * like an ok one. */
static void quality_checks(json_t *doc)
{
	char err[PC_ERRLEN];
	json_t *bad = json_deep_copy(doc), *x = at(bad, "cpus", A, "probes", "xchg", NULL);

	json_object_set_new(x, "nonlinear", json_string("yes"));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "xchg.nonlinear"),
	   "a nonlinear that is not true is refused: %s", err);
	json_object_set_new(x, "nonlinear", json_false());
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "nonlinear"),
	   "nonlinear false is refused (absent when linear): %s", err);
	json_object_del(x, "nonlinear");
	json_object_set_new(x, "round_spread", json_real(-0.5));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "round_spread"),
	   "a negative round_spread is refused: %s", err);
	json_object_set_new(x, "round_spread", json_string("wide"));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "round_spread"),
	   "a round_spread that is not a number is refused: %s", err);
	json_object_set_new(x, "round_spread", json_real(0));
	json_object_del(x, "cycles");
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "xchg.cycles"),
	   "a noisy figure must carry its summaries as an ok one: %s", err);
	json_decref(bad);
}

/* run's views of a document (report.c): what fmt renders of doc. */
static char *view(json_t *doc, enum pc_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f) {
		pc_report(f, doc, fmt);
		fclose(f);
	}
	return buf;
}

/* The table, markdown and CSV after run show a noisy and a nonlinear row. */
static void views(json_t *doc)
{
	char *t = view(doc, PC_FORMAT_TABLE), *md = view(doc, PC_FORMAT_MARKDOWN);
	char *csv = view(doc, PC_FORMAT_CSV);

	ok(t && strstr(t, "noisy, nonlinear[2]") &&
	   strstr(t, "\n[2] still disturbed after 3 rounds") && strstr(t, "9.38"),
	   "table: the noisy, nonlinear row shows its figure, and why as its footnote");
	ok(md && strstr(md, "| noisy, nonlinear[2]") &&
	   strstr(md, "- [2] still disturbed after 3 rounds"),
	   "markdown: the same status and footnote");
	ok(csv && strstr(csv, ",discarded,events,nonlinear,round_spread\n") &&
	   strstr(csv, ",xchg,3,noisy,9.3750,") && strstr(csv, ",yes,0.1250\n") &&
	   strstr(csv, ",no,-\n"),
	   "CSV: status noisy with figures, the nonlinear and round_spread columns");
	free(t);
	free(md);
	free(csv);
}

/* The xchg entry of doc with the status st and the cycles median med. */
static json_t *xchg_as(json_t *doc, const char *st, double med)
{
	json_t *p = json_deep_copy(at(doc, "cpus", A, "probes", "xchg", NULL));

	json_object_set_new(p, "status", json_string(st));
	json_object_set_new(json_object_get(p, "cycles"), "median", json_real(med));
	json_object_del(p, "run");
	return p;
}

/* Adds a run at date holding xchg as p to doc's CPU A. */
static void add_xchg(json_t *doc, const char *date, json_t *p)
{
	char err[PC_ERRLEN];

	pc_doc_add_run(doc, A, json_deep_copy(at(doc, "cpus", A, "cpu", NULL)),
		       json_pack("{s:s}", "date", date), json_pack("{s:o}", "xchg", p),
		       err, sizeof(err));
}

/* Only measurements replace measurements: ok over noisy over unmeasured. */
static void history_ranks(json_t *doc)
{
	json_t *d = json_deep_copy(doc), *cur;

	add_xchg(d, "2026-01-02T00:00:00Z", xchg_as(doc, "ok", 10));
	add_xchg(d, "2026-01-03T00:00:00Z", xchg_as(doc, "noisy", 11));
	cur = at(d, "cpus", A, "probes", "xchg", NULL);
	ok(strcmp(json_string_value(json_object_get(cur, "status")), "ok") == 0 &&
	   json_number_value(at(cur, "cycles", "median", NULL)) == 10 &&
	   strcmp(json_string_value(at(d, "cpus", A, "runs", "2", "probes", "xchg",
				       "status", NULL)), "noisy") == 0,
	   "a newer noisy figure does not replace an ok one: it is kept in its run");
	add_xchg(d, "2026-01-04T00:00:00Z", json_pack("{s:s, s:s}", "status", "failed",
						      "reason", "timed out"));
	ok(json_number_value(at(d, "cpus", A, "probes", "xchg", "cycles", "median",
				NULL)) == 10, "nor does a failed row");
	json_decref(d);
	d = json_deep_copy(doc);	/* xchg is noisy there */
	add_xchg(d, "2026-01-02T00:00:00Z", json_pack("{s:s}", "status", "skipped"));
	ok(strcmp(json_string_value(at(d, "cpus", A, "probes", "xchg", "status", NULL)),
		  "noisy") == 0, "a skipped row does not replace a noisy figure");
	add_xchg(d, "2026-01-03T00:00:00Z", xchg_as(doc, "ok", 12));
	ok(strcmp(json_string_value(at(d, "cpus", A, "probes", "xchg", "status", NULL)),
		  "ok") == 0 &&
	   strcmp(json_string_value(at(d, "cpus", A, "runs", "0", "probes", "xchg",
				       "status", NULL)), "noisy") == 0,
	   "an ok figure replaces a noisy one, which moves to its run's record");
	/* a file that broke the rule heals: noisy current, ok in a record */
	json_object_set_new(at(d, "cpus", A, "probes", NULL), "xchg",
			    json_pack("{s:s, s:i}", "status", "skipped", "run", 2));
	json_object_set_new(at(d, "cpus", A, "runs", "0", "probes", NULL), "xchg",
			    xchg_as(doc, "noisy", 13));
	json_object_set_new(at(d, "cpus", A, "runs", "1", "probes", NULL), "xchg",
			    xchg_as(doc, "ok", 12));
	pc_entry_promote_measured(at(d, "cpus", A, NULL));
	ok(json_number_value(at(d, "cpus", A, "probes", "xchg", "cycles", "median",
				NULL)) == 12 &&
	   json_integer_value(at(d, "cpus", A, "probes", "xchg", "run", NULL)) == 1,
	   "promotion brings back the best rank (ok) over a newer noisy record");
	json_decref(d);
}

/* A probe of n pair points (c2c.latency of run --matrix), every one
 * unsupported: no figures to check. */
static json_t *pair_points(size_t n)
{
	json_t *pts = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(pts, json_pack("{s:i, s:s, s:s, s:s, s:s}", "threads", 2,
						     "placement", "pair", "cpus", "0,1",
						     "class", "l3", "status", "unsupported"));
	return json_pack("{s:s, s:s, s:o}", "status", "ok", "group", "contended", "points", pts);
}

/* Every pair of 64 CPUs (2016) is read back; more points than every pair
 * of 256 CPUs is refused. */
static void many_points(void)
{
	char err[PC_ERRLEN] = "";
	json_t *p = pair_points(2016);

	ok(pc_validate_probe(p, "c2c.latency", err, sizeof(err)) == 0,
	   "a --matrix run on 64 CPUs, 2016 pairs, validates (%s)", err);
	json_decref(p);
	p = pair_points(PC_LIMIT_POINTS + 1);
	ok(pc_validate_probe(p, "c2c.latency", err, sizeof(err)) < 0 &&
	   strstr(err, "at most 32768 points"), "%d points are refused: %s",
	   PC_LIMIT_POINTS + 1, err);
	json_decref(p);
}

int main(void)
{
	double raw[9] = { 7.5, 7.6, 7.4, 7.5, 7.7, 7.5, 7.3, 7.5, 7.6 };
	struct pc_probe_result res[3];
	struct pc_profile prof;
	char err[PC_ERRLEN] = "", path[] = "/tmp/pc-unit-json-XXXXXX";
	json_t *doc, *back, *other, *entry;
	int fd, missing;

	memset(&prof, 0, sizeof(prof));
	fake_probe(&res[0], PC_PROBE_cmpxchg, 7.5, raw, 9);
	memset(&res[1], 0, sizeof(res[1]));
	res[1].id = PC_PROBE_local_irq_disable;
	res[1].status = PC_STATUS_SKIPPED;
	snprintf(res[1].reason, sizeof(res[1].reason), "needs ring 0");
	/* a figure the engine could not clean (noisy), and not linear */
	fake_probe(&res[2], PC_PROBE_xchg, 7.5, raw, 9);
	res[2].status = PC_STATUS_NOISY;
	res[2].nonlinear = true;
	res[2].round_spread = 0.125;
	snprintf(res[2].reason, sizeof(res[2].reason), "still disturbed after 3 rounds");
	res[0].round_spread = NAN;
	prof.probes = res;
	prof.nprobes = 3;
	prof.cycles_per_tick = 1.25;

	many_points();
	doc = doc_for("x86_64.test.1-2-3.cpu-a", &prof, "host-a");
	ok(pc_doc_validate(doc, err, sizeof(err)) == 0, "a built document validates (%s)",
	   err);

	fd = mkstemp(path);
	close(fd);
	ok(pc_doc_write(doc, path, err, sizeof(err)) == 0, "atomic write succeeds");
	back = pc_doc_load(path, &missing, err, sizeof(err));
	ok(back != NULL, "the written file loads and validates");
	ok(back && json_equal(doc, back), "JSON round trip gives back an equal document");
	ok(pc_samples_count(at(back, "cpus", A, "probes", "cmpxchg", "raw", "ticks", NULL)) == 9,
	   "raw samples survive the round trip (packed: packed.h)");
	ok(strcmp(json_string_value(at(back, "cpus", A, "probes", "xchg", "status", NULL)),
		  "noisy") == 0 &&
	   json_number_value(at(back, "cpus", A, "probes", "xchg", "cycles", "median",
				NULL)) > 0 &&
	   json_is_true(at(back, "cpus", A, "probes", "xchg", "nonlinear", NULL)) &&
	   json_number_value(at(back, "cpus", A, "probes", "xchg", "round_spread",
				NULL)) == 0.125,
	   "a noisy, nonlinear probe keeps its figures, flag and round_spread");
	ok(!at(back, "cpus", A, "probes", "cmpxchg", "nonlinear", NULL) &&
	   !at(back, "cpus", A, "probes", "cmpxchg", "round_spread", NULL),
	   "a linear probe without rounds has neither member");
	quality_checks(doc);
	history_ranks(doc);
	views(doc);

	/* Merging a second CPU keeps the first. */
	other = doc_for("x86_64.test.9-9-9.cpu-b", &prof, "host-b");
	entry = json_object_get(json_object_get(other, "cpus"), "x86_64.test.9-9-9.cpu-b");
	ok(pc_doc_add_run(back, "x86_64.test.9-9-9.cpu-b",
			  json_deep_copy(json_object_get(entry, "cpu")),
			  json_deep_copy(json_array_get(json_object_get(entry, "runs"), 0)),
			  json_deep_copy(json_object_get(entry, "probes")), err,
			  sizeof(err)) == 0, "a second CPU merges");
	ok(json_object_size(json_object_get(back, "cpus")) == 2 &&
	   at(back, "cpus", A, NULL),
	   "merging another CPU keeps the first CPU's entry");

	/* A second run of the same CPU: newest current, old kept in history. */
	res[0].ticks.median = 7.55;
	json_t *again = doc_for("x86_64.test.1-2-3.cpu-a", &prof, "host-c");

	entry = json_object_get(json_object_get(again, "cpus"), "x86_64.test.1-2-3.cpu-a");
	pc_doc_add_run(back, "x86_64.test.1-2-3.cpu-a",
		       json_deep_copy(json_object_get(entry, "cpu")),
		       json_deep_copy(json_array_get(json_object_get(entry, "runs"), 0)),
		       json_deep_copy(json_object_get(entry, "probes")), err, sizeof(err));
	entry = json_object_get(json_object_get(back, "cpus"), "x86_64.test.1-2-3.cpu-a");
	ok(json_array_size(json_object_get(entry, "runs")) == 2,
	   "the same CPU again appends a run");
	ok(json_number_value(at(entry, "probes", "cmpxchg", "ticks", "median", NULL)) == 7.55 &&
	   json_integer_value(at(entry, "probes", "cmpxchg", "run", NULL)) == 1,
	   "the newest figure is current and points at run 1");
	ok(json_number_value(at(entry, "runs", "0", "probes", "cmpxchg", "ticks", "median",
				NULL)) == 7.5,
	   "the replaced figure is kept under runs[0].probes");
	ok(pc_doc_validate(back, err, sizeof(err)) == 0, "the merged document validates (%s)",
	   err);

	/* Validation refuses what it must. */
	json_t *bad = json_deep_copy(doc);

	json_object_set_new(bad, "schema", json_string("primcost-result/99"));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "version"),
	   "a future schema version is refused: %s", err);
	json_object_del(bad, "schema");
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "no \"schema\""),
	   "a document without schema is refused: %s", err);
	json_decref(bad);
	bad = json_deep_copy(doc);
	json_object_set_new(at(bad, "cpus", A, "probes", "cmpxchg", "cycles", NULL),
			    "median", json_string("fast"));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "cycles.median"),
	   "a mistyped figure is refused, naming where: %s", err);
	json_decref(bad);
	bad = json_deep_copy(doc);
	json_object_set_new(at(bad, "cpus", A, "probes", "cmpxchg", NULL), "status",
			    json_string("great"));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "unknown status"),
	   "an unknown status is refused: %s", err);
	json_decref(bad);

	ok(pc_doc_load("/nonexistent/primcost.json", &missing, err, sizeof(err)) == NULL &&
	   missing, "a missing file is reported as missing");

	/* Reliability: partial runs, and merges that would pass the limits. */
	bad = json_deep_copy(doc);
	json_object_set_new(at(bad, "cpus", A, "probes", "cmpxchg", NULL), "partial",
			    json_string("yes"));
	ok(pc_doc_validate(bad, err, sizeof(err)) < 0 && strstr(err, "partial"),
	   "a partial flag that is not a boolean is refused: %s", err);
	json_object_set_new(at(bad, "cpus", A, "probes", "cmpxchg", NULL), "partial",
			    json_true());
	json_object_set_new(at(bad, "cpus", A, "runs", "0", NULL), "partial", json_true());
	json_object_set_new(at(bad, "cpus", A, "runs", "0", NULL), "interrupted_by",
			    json_string("SIGINT"));
	ok(pc_doc_validate(bad, err, sizeof(err)) == 0,
	   "a partial run and a partial probe validate (%s)", err);
	json_decref(bad);
	{
		json_t *full = json_deep_copy(doc), *probes = at(full, "cpus", A, "probes", NULL);
		char name[32];
		int i;

		for (i = json_object_size(probes); i < PC_LIMIT_PROBES; i++) {
			snprintf(name, sizeof(name), "p%d", i);
			json_object_set_new(probes, name, json_pack("{s:s}", "status",
								    "skipped"));
		}
		ok(pc_doc_validate(full, err, sizeof(err)) == 0,
		   "a CPU with %d probes validates", PC_LIMIT_PROBES);
		ok(pc_doc_add_run(full, A, json_pack("{s:s}", "arch", "x86_64"),
				  json_pack("{s:s}", "date", "2026-01-01T00:00:00Z"),
				  json_pack("{s:{s:s}}", "one-too-many", "status", "skipped"),
				  err, sizeof(err)) < 0 && strstr(err, "limit"),
		   "a merge past the probe limit is refused before writing: %s", err);
		ok(pc_doc_validate(full, err, sizeof(err)) == 0,
		   "... and leaves the document valid");
		json_decref(full);
	}
	{
		const char text[] = "{\"schema\": \"primcost-result/1\", \"cpus\": {\"a\\nb\": 1}}";

		ok(pc_doc_parse(text, strlen(text), "mem", err, sizeof(err)) == NULL &&
		   strncmp(err, "mem: ", 5) == 0 && !strchr(err, '\n'),
		   "a key with a newline gives a one-line error naming the input: %s", err);
	}

	unlink(path);
	json_decref(again);
	json_decref(other);
	json_decref(back);
	json_decref(doc);
	return done_testing();
}
