/* SPDX-License-Identifier: MIT */
/*
 * The contended group: the fairness statistic on made-up counts; the CPUs
 * compact and spread choose on the hwloc XML exports of a 2-socket 4-node
 * server and an SMT laptop, and what those CPUs share; a lock that is not
 * one caught by the mutual-exclusion check, and every real lock and atomic
 * passing it, under contention; the points[] of a run through a result
 * file and back.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contend/contend.h"
#include "fixture.h"
#include "results/results.h"
#include "tap.h"
#include "timer.h"
#include "core/primcost.h"

/* The transfer gauge's judgment: steady windows, and windows at two
 * distances (the figures seen when a host moved the vCPUs: 230 and 820). */
static void check_moved(void)
{
	double x[40], q1, med, q3;
	unsigned i;
	bool m;

	for (i = 0; i < 40; i++)
		x[i] = 760 + (double)(i * 7 % 23) * 4;	/* 760 .. 848 */
	m = pc_contend_moved(x, 40, &q1, &med, &q3);
	ok(!m && med >= 760 && med <= 848, "steady gauge (760 to 848): not moved, "
	   "median %.0f", med);
	for (i = 0; i < 40; i++)
		x[i] = i % 3 ? 820 + i : 230 + i;
	m = pc_contend_moved(x, 40, &q1, &med, &q3);
	ok(m && q1 < 300 && q3 > 800, "a third of the windows at 230, the rest at 820: "
	   "moved (%.0f to %.0f)", q1, q3);
	for (i = 0; i < 40; i++)
		x[i] = i % 8 ? 820 : 230;
	m = pc_contend_moved(x, 40, &q1, &med, &q3);
	ok(!m && med == 820, "an eighth at 230: the quartiles both at 820, not moved");
	m = pc_contend_moved(x, 0, &q1, &med, &q3);
	ok(!m && med == 0, "no window: no gauge");
}

static void check_fairness(void)
{
	static const struct { uint64_t ops[4]; unsigned n; double cv, share; } c[] = {
		{ { 100, 100 }, 2, 0, 0.5 },
		{ { 300, 100 }, 2, 0.5, 0.75 },		/* mean 200, sd 100 */
		{ { 10, 0, 0, 0 }, 4, 1.7320508, 1 },	/* sd sqrt(18.75) */
		{ { 5, 5, 5, 5 }, 4, 0, 0.25 },
		{ { 42 }, 1, 0, 1 },
		{ { 0, 0 }, 2, 0, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double cv, share;

		pc_fairness(c[i].ops, c[i].n, &cv, &share);
		ok(fabs(cv - c[i].cv) < 1e-6 && fabs(share - c[i].share) < 1e-9,
		   "fairness of %llu,%llu,%llu,%llu (%u threads): cv %.7g share %.7g",
		   (unsigned long long)c[i].ops[0], (unsigned long long)c[i].ops[1],
		   (unsigned long long)c[i].ops[2], (unsigned long long)c[i].ops[3],
		   c[i].n, cv, share);
	}
}

static void list(char *buf, size_t len, const int *cpus, unsigned n)
{
	size_t at = 0;
	unsigned i;

	buf[0] = 0;
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "", cpus[i]);
}

static int open_fixture(struct pc_place *p, const char *name)
{
	char path[1024], err[PC_ERRLEN];
	int rc = pc_place_open(p, topology_fixture(path, sizeof(path), name), err, sizeof(err));

	return fixture_loaded(rc, "reads", name, err);
}

/* The placement's first n CPUs are want, and they share cls. */
static void pick(const struct pc_place *p, const char *what, enum pc_placement how,
		 unsigned n, const char *want, const char *cls)
{
	int cpus[PC_CONTEND_THREADS_MAX];
	char got[1024], err[PC_ERRLEN];

	if (pc_place_pick(p, how, n, cpus, err, sizeof(err)) < 0) {
		ok(0, "%s %s %u: %s", what, pc_placement_names[how], n, err);
		return;
	}
	list(got, sizeof(got), cpus, n);
	ok(strcmp(got, want) == 0 && strcmp(pc_place_class(p, cpus, n), cls) == 0,
	   "%s %s %u threads: %s (%s)", what, pc_placement_names[how], n, got,
	   pc_place_class(p, cpus, n));
}

/* What a placement should choose: the CPUs it takes, in order, and at each
 * count tried, what its first n[k] CPUs share. */
struct choices {
	enum pc_placement how;
	int order[16];
	unsigned n[5];		/* 0 after the last count */
	const char *cls[5];
};

/* A pick per count of each of c[0..nc), wanting the first n of its order. */
static void picks(const struct pc_place *p, const char *what, const struct choices *c,
		  size_t nc)
{
	char want[1024];
	size_t i, k;

	for (i = 0; i < nc; i++)
		for (k = 0; k < sizeof(c[i].n) / sizeof(c[i].n[0]) && c[i].n[k]; k++) {
			list(want, sizeof(want), c[i].order, c[i].n[k]);
			pick(p, what, c[i].how, c[i].n[k], want, c[i].cls[k]);
		}
}

#define NCHOICES(c) (sizeof(c) / sizeof((c)[0]))

static void check_placement(void)
{
	static const struct choices server[] = {
		{ PC_PLACE_COMPACT, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
		  { 1, 2, 4, 8, 16 }, { "single", "smt", "l3", "l3", "l3" } },
		{ PC_PLACE_SPREAD, { 0, 32, 16, 48, 2, 34, 18, 50, 4, 36, 20, 52, 6, 38, 22, 54 },
		  { 1, 2, 4, 8, 16 }, { "single", "machine", "machine", "machine", "machine" } },
	}, first_package[] = {
		{ PC_PLACE_SPREAD, { 0, 16, 2, 18 }, { 4 }, { "package" } },
		{ PC_PLACE_COMPACT, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
		  { 16 }, { "l3" } },
	}, laptop[] = {
		{ PC_PLACE_COMPACT, { 0, 4, 1, 5, 2, 6, 3, 7 }, { 1, 2, 4, 8 },
		  { "single", "smt", "l3", "l3" } },
		{ PC_PLACE_SPREAD, { 0, 1, 2, 3, 4, 5, 6, 7 }, { 2, 4, 8 }, { "l3", "l3", "l3" } },
	};
	struct pc_place p;
	int pairs[8][2], cpus[16];
	char err[PC_ERRLEN];

	if (open_fixture(&p, "server-2s-4numa-all.xml") == 0) {
		ok(p.ncpus == 64, "server: 64 CPUs allowed (%u)", p.ncpus);
		picks(&p, "server", server, NCHOICES(server));
		cpus[0] = 0, cpus[1] = 16;
		ok(pc_place_nodes(&p, cpus, 2) == 2 && strcmp(pc_place_class(&p, cpus, 2),
							      "package") == 0,
		   "server: CPUs 0 and 16 span 2 nodes of one package");
		ok(pc_place_pairs(&p, pairs, 8) == 4 && pairs[0][1] == 1 && pairs[1][1] == 2 &&
		   pairs[2][1] == 16 && pairs[3][1] == 32,
		   "server: c2c pairs, one a class: 0 with 1 (smt), 2 (l3), 16 (package), "
		   "32 (machine)");
		pc_place_close(&p);
	}
	if (open_fixture(&p, "server-2s-4numa.xml") == 0) {
		ok(p.ncpus == 32, "server, first package allowed: 32 CPUs (%u)", p.ncpus);
		picks(&p, "server, first package", first_package, NCHOICES(first_package));
		ok(pc_place_pick(&p, PC_PLACE_COMPACT, 64, cpus, err, sizeof(err)) < 0,
		   "server, first package: 64 threads refused: %s", err);
		pc_place_close(&p);
	}
	if (open_fixture(&p, "laptop-smt.xml") == 0) {
		ok(p.ncpus == 8, "laptop: 8 CPUs (%u)", p.ncpus);
		picks(&p, "laptop", laptop, NCHOICES(laptop));
		ok(pc_place_pick(&p, PC_PLACE_SPREAD, 16, cpus, err, sizeof(err)) < 0 &&
		   strstr(err, "8 CPUs"), "laptop: 16 threads refused: %s", err);
		ok(pc_place_pairs(&p, pairs, 8) == 2 && pairs[0][1] == 4 && pairs[1][1] == 1,
		   "laptop: c2c pairs 0-4 (smt) and 0-1 (l3)");
		pc_place_close(&p);
	}
}

static int kind_index(const char *name)
{
	unsigned k;

	for (k = 0; k < pc_contend_nkinds; k++)
		if (strcmp(pc_contend_kinds[k].name, name) == 0)
			return (int)k;
	return -1;
}

/* Plans and measures o with windows windows a point; -1 after saying why. */
static int measure(const struct pc_contend_options *o, unsigned windows,
		   const struct pc_clock *clk, struct pc_contend_run *cr,
		   struct pc_profile *prof)
{
	struct pc_measure_config cfg;
	char err[PC_ERRLEN];

	memset(&cfg, 0, sizeof(cfg));
	cfg.samples = windows;
	cfg.sample_s = 20e-6;
	if (pc_contend_plan(o, cr, err, sizeof(err)) < 0) {
		ok(0, "plans the points: %s", err);
		return -1;
	}
	if (pc_contend_measure(NULL, cr, &cfg, clk, prof, err, sizeof(err)) < 0) {
		ok(0, "measures the points: %s", err);
		pc_contend_close(cr);
		return -1;
	}
	return 0;
}

static void check_broken(const struct pc_clock *clk)
{
	struct pc_contend_options o;
	struct pc_contend_run cr;
	struct pc_profile prof;

	memset(&o, 0, sizeof(o));
	o.kinds[kind_index("lock.broken")] = true;
	o.threads = "2";
	o.window_us = 10000;
	if (measure(&o, 15, clk, &cr, &prof) < 0)
		return;
	ok(prof.nprobes == 2 && prof.probes[0].status == PC_STATUS_FAILED &&
	   strstr(prof.probes[0].reason, "mutual exclusion broken") &&
	   prof.probes[1].status == PC_STATUS_FAILED &&
	   strstr(prof.probes[1].reason, "mutual exclusion broken"),
	   "a lock that is not one fails the mutual-exclusion check, at 0 and 1 data "
	   "lines: %s", prof.nprobes ? prof.probes[0].reason : "no point");
	pc_profile_free(&prof);
	pc_contend_close(&cr);
}

/* Every row at 1 and 2 threads passes its check; the points go through a
 * result file and come back equal. */
static void check_rows(const struct pc_clock *clk)
{
	struct pc_contend_options o;
	struct pc_contend_run cr;
	struct pc_profile prof;
	struct pc_cpu_info ci;
	char err[PC_ERRLEN] = "", path[1024];
	json_t *doc, *back, *pt;
	size_t i;
	int fd, missing, failed = 0;

	memset(&o, 0, sizeof(o));
	if (pc_contend_select("lock.*,contended.*,c2c.*", o.kinds, err, sizeof(err)) < 0 ||
	    o.kinds[kind_index("lock.broken")]) {
		ok(0, "selects the rows but the broken lock: %s", err);
		return;
	}
	o.threads = "1,2";
	o.cpus = "0,1";
	if (measure(&o, 6, clk, &cr, &prof) < 0)
		return;
	for (i = 0; i < prof.nprobes; i++)
		if (prof.probes[i].status == PC_STATUS_FAILED) {
			diag("%s %u threads: %s", cr.points[i].kind->name,
			     cr.points[i].nthreads, prof.probes[i].reason);
			failed++;
		}
	ok(prof.nprobes == 37 && !failed, "%zu points, every row at 1 and 2 threads "
	   "(the locks at 0 and 1 data lines) and c2c; none fails its check (%d did)",
	   prof.nprobes, failed);

	memset(&ci, 0, sizeof(ci));
	snprintf(ci.arch, sizeof(ci.arch), "x86_64");
	doc = pc_doc_new();
	pc_doc_add_run(doc, "x86_64.test.1-2-3.cpu-a", pc_json_cpu(&ci, clk, 1.0),
		       pc_json_run(&ci, clk, &prof, json_object()),
		       pc_contend_json_probes(&cr, &prof, NULL), err, sizeof(err));
	ok(pc_doc_validate(doc, err, sizeof(err)) == 0, "the points validate (%s)", err);
	snprintf(path, sizeof(path), "%s/pc-unit-contend-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : P_tmpdir);
	fd = mkstemp(path);
	close(fd);
	ok(pc_doc_write(doc, path, err, sizeof(err)) == 0, "written (%s)", err);
	back = pc_doc_load(path, &missing, err, sizeof(err));
	ok(back && json_equal(doc, back), "points[] round trip: an equal document (%s)",
	   back ? "read" : err);
	pt = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(
		json_object_get(back, "cpus"), "x86_64.test.1-2-3.cpu-a"), "probes"),
		"lock.ticket"), "points"), 3);
	ok(json_integer_value(json_object_get(pt, "data_lines")) == 1 &&
	   !json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(
		json_object_get(json_object_get(back, "cpus"), "x86_64.test.1-2-3.cpu-a"),
		"probes"), "contended.cmpxchg"), "points"), 0), "data_lines"),
	   "a lock's points carry their data lines, an atomic's none");
	pt = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(
		json_object_get(back, "cpus"), "x86_64.test.1-2-3.cpu-a"), "probes"),
		"lock.ticket"), "points"), 1);
	ok(json_integer_value(json_object_get(pt, "threads")) == 2 &&
	   strcmp(json_string_value(json_object_get(pt, "cpus")) ? : "", "0,1") == 0 &&
	   strcmp(json_string_value(json_object_get(pt, "placement")) ? : "", "list") == 0 &&
	   json_is_string(json_object_get(pt, "class")) &&
	   json_is_number(json_object_get(json_object_get(pt, "fairness"), "cv")) &&
	   json_is_number(json_object_get(json_object_get(pt, "cycles"), "median")),
	   "lock.ticket's 2-thread point: threads, cpus, placement, class, fairness, "
	   "cycles");
	ok(json_number_value(json_object_get(json_object_get(pt, "transfer"), "cycles")) > 0 &&
	   !json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(
		json_object_get(json_object_get(back, "cpus"), "x86_64.test.1-2-3.cpu-a"),
		"probes"), "lock.ticket"), "points"), 0), "transfer"),
	   "the 2-thread point has its line transfer, the 1-thread point none");
	unlink(path);
	json_decref(doc);
	json_decref(back);
	pc_profile_free(&prof);
	pc_contend_close(&cr);
}


/* The counter is in the lock's 64-byte line (a hand-off moves no other
 * line at 0 data lines); each data line is a line of its own, apart from
 * the lock's and the others'. */
static void check_layout(void)
{
	size_t lock = offsetof(struct pc_contend_shared, lock) / 64, i, j;
	size_t line[PC_CONTEND_DATA_LINES_MAX];
	bool apart = true;

	ok(offsetof(struct pc_contend_shared, counter) / 64 == lock &&
	   (offsetof(struct pc_contend_shared, counter) + 7) / 64 == lock,
	   "the counter is in the lock's 64-byte line");
	for (i = 0; i < PC_CONTEND_DATA_LINES_MAX; i++) {
		line[i] = (offsetof(struct pc_contend_shared, data) +
			   i * sizeof(struct pc_data_line)) / PC_LINE;
		apart &= line[i] != offsetof(struct pc_contend_shared, lock) / PC_LINE &&
			 line[i] != offsetof(struct pc_contend_shared, word) / PC_LINE &&
			 sizeof(struct pc_data_line) == PC_LINE;
		for (j = 0; j < i; j++)
			apart &= line[j] != line[i];
	}
	ok(apart, "each of the %d data lines on a %d-byte line of its own",
	   PC_CONTEND_DATA_LINES_MAX, PC_LINE);
}

/* The check reads the counter and each data line: one that lost an
 * increment fails the window. */
static void check_data_check(void)
{
	const struct pc_contend_kind *k = pc_contend_kind_find("lock.ticket");
	struct pc_contend_shared *s = aligned_alloc(PC_LINE, sizeof(*s));
	const char *why_ok, *why_data, *why_counter;

	if (!k || !s) {
		ok(0, "lock.ticket and its lines");
		free(s);
		return;
	}
	memset(s, 0, sizeof(*s));
	s->data_lines = 3;
	s->counter = s->data[0].v = s->data[1].v = s->data[2].v = 1000;
	s->data[3].v = 7;		/* beyond data_lines: not the check's */
	why_ok = k->check(s, 2, 1000);
	s->data[2].v = 999;
	why_data = k->check(s, 2, 1000);
	s->data[2].v = 1000;
	s->counter = 999;
	why_counter = k->check(s, 2, 1000);
	ok(!why_ok && why_data && strstr(why_data, "data line") && why_counter &&
	   strstr(why_counter, "counter"), "the check: every data line and the counter "
	   "hold the acquisitions (%s; %s)", why_data ? why_data : "passed",
	   why_counter ? why_counter : "passed");
	free(s);
}

/* --data-lines: a lock row's points at each count, the other rows' once;
 * beyond the most, a usage error. */
static void check_data_plan(void)
{
	struct pc_contend_options o;
	struct pc_contend_run cr;
	char err[PC_ERRLEN] = "";
	unsigned lock0 = 0, lock2 = 0, other = 0;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.kinds[kind_index("lock.mcs")] = o.kinds[kind_index("contended.private")] = true;
	o.threads = "1";
	o.data_lines = "0,2";
	if (pc_contend_plan(&o, &cr, err, sizeof(err)) < 0) {
		ok(0, "plans --data-lines 0,2: %s", err);
		return;
	}
	for (i = 0; i < cr.npoints; i++) {
		const struct pc_contend_point *pt = &cr.points[i];

		if (pt->kind->cls != PC_KIND_LOCK)
			other += pt->data_lines == 0;
		else
			lock0 += pt->data_lines == 0, lock2 += pt->data_lines == 2;
	}
	ok(cr.npoints == 3 && lock0 == 1 && lock2 == 1 && other == 1,
	   "--data-lines 0,2: lock.mcs at 0 and 2 data lines, contended.private once "
	   "(%zu points)", cr.npoints);
	pc_contend_close(&cr);
	o.data_lines = "1,17";
	ok(pc_contend_plan(&o, &cr, err, sizeof(err)) < 0 && strstr(err, "--data-lines"),
	   "--data-lines 17: refused (%s)", err);
}

/* ---- every lock kind, more threads than CPUs: the queue paths ------------------ */

struct stress {
	const struct pc_contend_kind *k;
	struct pc_contend_shared *s;
	unsigned idx;
};

static void *stress_thread(void *arg)
{
	struct stress *st = arg;

	st->k->loop(st->s, &st->s->threads[st->idx]);
	return NULL;
}

/* STRESS_THREADS unpinned threads, some switched out while they hold or
 * wait: the MCS and queued locks' queues, the qspinlock's pending bit. */
#define STRESS_THREADS 5

static void check_stress(const struct pc_clock *clk)
{
	struct pc_contend_shared *s = aligned_alloc(PC_LINE, sizeof(*s));
	struct pc_contend_thread *th = aligned_alloc(PC_LINE, STRESS_THREADS * sizeof(*th));
	struct stress st[STRESS_THREADS];
	pthread_t tid[STRESS_THREADS];
	unsigned k, i;

	for (k = 0; s && th && k < pc_contend_nkinds; k++) {
		const struct pc_contend_kind *kind = &pc_contend_kinds[k];
		uint64_t total = 0, least = UINT64_MAX;
		const char *why;

		if (kind->hidden || kind->cls != PC_KIND_LOCK)
			continue;
		memset(s, 0, sizeof(*s));
		memset(th, 0, STRESS_THREADS * sizeof(*th));
		s->threads = th;
		s->data_lines = 2;
		kind->init(s);
		s->deadline = pc_timer_read() + (uint64_t)(0.05 * clk->tick_hz);
		for (i = 0; i < STRESS_THREADS; i++) {
			th[i].idx = i;
			st[i] = (struct stress){ kind, s, i };
			pthread_create(&tid[i], NULL, stress_thread, &st[i]);
		}
		for (i = 0; i < STRESS_THREADS; i++) {
			pthread_join(tid[i], NULL);
			total += th[i].acq;
			least = th[i].acq < least ? th[i].acq : least;
		}
		why = kind->check(s, STRESS_THREADS, total);
		kind->fini(s);
		ok(!why && least > 0, "%s, %d threads on %ld CPUs for 50 ms: %llu "
		   "acquisitions, the counter and 2 data lines agree (%s)", kind->name, STRESS_THREADS,
		   sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)total,
		   why ? why : "yes");
	}
	free(th);
	free(s);
}

/* The table view of a made-up document: rows = threads, columns = lock
 * kinds; the c2c pairs of four CPUs as a heat map. */
static void check_views(void)
{
	static const char doc_text[] =
		"{\"schema\": \"primcost-result/1\", \"cpus\": {\"k\": {"
		"\"cpu\": {\"brand\": \"Test CPU\"}, \"runs\": [], \"probes\": {"
		"\"lock.ticket\": {\"status\": \"ok\", \"points\": ["
		"{\"threads\": 1, \"placement\": \"compact\", \"cpus\": \"0\", \"class\": \"single\", "
		"\"data_lines\": 0, \"status\": \"ok\", \"cycles\": {\"median\": 20.5}},"
		"{\"threads\": 2, \"placement\": \"compact\", \"cpus\": \"0,1\", \"class\": \"smt\", "
		"\"data_lines\": 0, \"status\": \"noisy\", \"cycles\": {\"median\": 1500}},"
		"{\"threads\": 2, \"placement\": \"compact\", \"cpus\": \"0,1\", \"class\": \"smt\", "
		"\"data_lines\": 1, \"status\": \"ok\", \"cycles\": {\"median\": 2900}}]},"
		"\"lock.mcs\": {\"status\": \"ok\", \"points\": ["
		"{\"threads\": 2, \"placement\": \"compact\", \"cpus\": \"0,1\", \"class\": \"smt\", "
		"\"data_lines\": 0, \"status\": \"failed\"}]},"
		"\"c2c.latency\": {\"status\": \"ok\", \"points\": ["
		"%s]}}}}}";
	static const int pairs[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 },
					  { 2, 3 } };
	char pts[2048] = "", text[8192], *out = NULL;
	size_t at = 0, len = 0;
	json_t *doc;
	FILE *f;
	int i;

	for (i = 0; i < 6; i++)
		at += (size_t)snprintf(pts + at, sizeof(pts) - at, "%s{\"threads\": 2, "
				       "\"placement\": \"pair\", \"cpus\": \"%d,%d\", "
				       "\"class\": \"l3\", \"status\": \"ok\", \"cycles\": "
				       "{\"median\": %d}, \"ns\": {\"median\": %d}}", i ? "," : "",
				       pairs[i][0], pairs[i][1], 100 * (i + 1), 30 * (i + 1));
	snprintf(text, sizeof(text), doc_text, pts);
	doc = json_loads(text, 0, NULL);
	f = open_memstream(&out, &len);
	if (!doc || !f) {
		ok(0, "the made-up document parses");
		return;
	}
	pc_view_show(f, PC_FORMAT_TABLE, pc_contend_show, doc);
	fclose(f);
	ok(strstr(out, "threads placement data      ticket         mcs") &&
	   strstr(out, "      1 compact      0       20.5           -\n") &&
	   strstr(out, "      2 compact      0       1500*     FAILED\n") &&
	   strstr(out, "      2 compact      1       2900           -\n"),
	   "the table: a row per thread count and data lines, a column per lock "
	   "kind, noisy marked, failed said");
	ok(strstr(out, "heat map, one-way cycles: ' ' 100 .. '@' 600") &&
	   strstr(out, "  0 \\ :=") && strstr(out, "  3 =#@\\"),
	   "c2c of 4 CPUs: a heat map, darker when dearer");
	if (tap_failed)
		diag("%s", out);
	free(out);
	json_decref(doc);
}

int main(void)
{
	struct pc_clock clk;
	char err[PC_ERRLEN];
	cpu_set_t set;

	check_fairness();
	check_moved();
	check_placement();
	check_layout();
	check_data_check();
	check_data_plan();
	check_views();
	if (getenv("TEST_EMULATOR") && *getenv("TEST_EMULATOR")) {
		/* qemu-user 7.2 hangs in pthread_create (i386 and arm64 alike) */
		skip("threads do not start under qemu-user", "contention");
		return done_testing();
	}
	if (sched_getaffinity(0, sizeof(set), &set) < 0 || !CPU_ISSET(0, &set) ||
	    !CPU_ISSET(1, &set)) {
		skip("this process may not run on CPUs 0 and 1", "contention");
		return done_testing();
	}
	if (pc_clock_init(&clk, false, err, sizeof(err)) < 0) {
		ok(0, "the clock: %s", err);
		return done_testing();
	}
	check_broken(&clk);
	check_stress(&clk);
	check_rows(&clk);
	pc_clock_close(&clk);
	return done_testing();
}
