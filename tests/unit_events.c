/* SPDX-License-Identifier: MIT */
/*
 * Events without hardware: libpfm4 encodings and their errors, the group
 * read layout, the perf mmap-page seqlock on a synthetic page, the verdict
 * on synthetic samples and the retake budget, the explanations, the JSON of
 * events, and (where the kernel allows) a real group of software events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/events.h"
#include "core/primcost.h"
#include "results/report.h"
#include "results/results.h"
#include "tap.h"

#include <perfmon/pfmlib_perf_event.h>
#if __has_include("pmc.h")
#include "pmc.h"
#define HAVE_PMC_PAGE 1
#endif

static int contains(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

/* ---- parsing -------------------------------------------------------------- */

static void test_parse(void)
{
	struct pc_events e;
	char err[PC_ERRLEN];
	int i, rc;

	rc = pc_events_parse("perf::task-clock,perf::page-faults", &e, err, sizeof(err));
	ok(rc == 0 && e.n == 2, "two software events parse (%s)", rc ? err : "ok");
	ok(strcmp(e.ev[0].name, "perf::task-clock") == 0 &&
	   strcmp(e.ev[1].name, "perf::page-faults") == 0,
	   "the events keep the names the user wrote, in order");
	ok(e.ev[0].attr.type == PERF_TYPE_SOFTWARE &&
	   e.ev[0].attr.config == PERF_COUNT_SW_TASK_CLOCK && !e.ev[0].hardware,
	   "perf::task-clock encodes as the software task clock");
	ok(contains(e.ev[0].encoding, "PERF_COUNT_SW_TASK_CLOCK"),
	   "the encoding is libpfm4's fully qualified name (%s)", e.ev[0].encoding);
	ok(!e.ev[0].attr.exclude_kernel && !e.ev[0].attr.exclude_user,
	   "by default an event counts user and kernel mode, like the timer");

	rc = pc_events_parse("instructions", &e, err, sizeof(err));
	ok(rc == 0 && e.ev[0].hardware && e.ev[0].attr.type == PERF_TYPE_HARDWARE &&
	   e.ev[0].attr.config == PERF_COUNT_HW_INSTRUCTIONS,
	   "'instructions' is a hardware event, encoded by libpfm4 even without a PMU");
	rc = pc_events_parse("instructions:u", &e, err, sizeof(err));
	ok(rc == 0 && e.ev[0].attr.exclude_kernel && !e.ev[0].attr.exclude_user,
	   "a ':u' modifier limits the event to user mode");

	rc = pc_events_parse("nosuch", &e, err, sizeof(err));
	ok(rc < 0 && contains(err, "'nosuch'") &&
	   contains(err, pfm_strerror(PFM_ERR_NOTFOUND)),
	   "an unknown event is an error naming it and libpfm4's reason (%s)", err);
	rc = pc_events_parse("perf::task-clock,,perf::page-faults", &e, err, sizeof(err));
	ok(rc < 0 && contains(err, "empty"), "an empty name in the list is an error (%s)", err);
	rc = pc_events_parse("", &e, err, sizeof(err));
	ok(rc < 0, "an empty list is an error (%s)", err);
	rc = pc_events_parse("perf::task-clock,perf::task-clock", &e, err, sizeof(err));
	ok(rc < 0 && contains(err, "twice"), "an event named twice is an error (%s)", err);
	{
		char list[4096] = "";
		static const char *const names[] = {
			"perf::task-clock", "perf::page-faults", "perf::cpu-clock",
			"perf::context-switches", "perf::cpu-migrations",
			"perf::minor-faults", "perf::major-faults", "instructions",
			"cycles", "branches", "branch-misses", "cache-misses",
			"cache-references", "perf::bus-cycles", "perf::ref-cycles",
			"perf::stalled-cycles-frontend", "perf::stalled-cycles-backend",
		};

		for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? "," : "", names[i]);
		rc = pc_events_parse(list, &e, err, sizeof(err));
		ok(rc < 0 && contains(err, "more than"),
		   "more than %d events is an error (%s)", PC_EVENTS_MAX, err);
	}
	/* An uncore (socket-wide) event cannot count one thread: libpfm4 may
	 * refuse to encode it for perf_events, or we refuse it. */
	rc = pc_events_parse("amd64_fam19h_zen3_l3::UNC_L3_MISSES", &e, err, sizeof(err));
	ok(rc < 0 && contains(err, "UNC_L3_MISSES") &&
	   (contains(err, "uncore") || contains(err, pfm_strerror(PFM_ERR_NOTSUPP)) ||
	    contains(err, pfm_strerror(PFM_ERR_NOTFOUND))),
	   "an uncore event is refused with the reason (%s)", err);
}

/* ---- the group read layout -------------------------------------------------- */

static void three_events(struct pc_events *e)
{
	pc_events_init(e);
	e->n = e->nall = 3;
	e->nopen = 3;
	e->leader = 99;
	e->ev[0].counted = e->ev[1].counted = e->ev[2].counted = true;
	e->ev[0].id = 11;
	e->ev[1].id = 22;
	e->ev[2].id = 33;
}

static void test_group_layout(void)
{
	struct pc_events e;
	struct pc_group_reading r;
	uint64_t buf[9] = { 3, 1000, 990, 5, 22, 7, 11, 9, 33 };
	uint64_t bad[9];

	three_events(&e);
	ok(pc_group_parse(&e, buf, sizeof(buf), &r) == 0 && r.ok,
	   "a group read of nr, enabled, running, {value, id} x nr parses");
	ok(r.value[0] == 7 && r.value[1] == 5 && r.value[2] == 9,
	   "values land on their events by id, whatever the order");
	ok(r.enabled == 1000 && r.running == 990, "enabled and running are read");
	memcpy(bad, buf, sizeof(buf));
	bad[0] = 2;
	ok(pc_group_parse(&e, bad, sizeof(bad), &r) < 0 && !r.ok,
	   "a member count other than the group's is refused");
	ok(pc_group_parse(&e, buf, sizeof(buf) - 8, &r) < 0,
	   "a read of the wrong length is refused");
	ok(pc_group_parse(&e, buf, 16, &r) < 0, "a truncated header is refused");
	memcpy(bad, buf, sizeof(buf));
	bad[6] = 44;
	ok(pc_group_parse(&e, bad, sizeof(bad), &r) < 0,
	   "an id that is not the group's is refused");
}

/* ---- the perf mmap page ------------------------------------------------------ */

#ifdef HAVE_PMC_PAGE
static struct perf_event_mmap_page page __attribute__((aligned(4096)));
static uint64_t fake_value;
static uint32_t fake_counter;
static int fake_calls, fake_bumps;

/* rdpmc stand-in; fake_bumps times it rewrites the page as the kernel would
 * in an interrupt between the reader's seqlock reads. */
static uint64_t fake_rdpmc(uint32_t counter)
{
	fake_calls++;
	fake_counter = counter;
	if (fake_bumps) {
		fake_bumps--;
		page.lock += 2;
		page.offset = 2000000;
	}
	return fake_value;
}

static void page_reset(void)
{
	memset(&page, 0, sizeof(page));
	page.lock = 4;
	page.index = 3;
	page.offset = 1000000;
	page.cap_user_rdpmc = 1;
	page.pmc_width = 48;
	page.time_enabled = 5000;
	page.time_running = 5000;
	fake_calls = fake_bumps = 0;
	fake_counter = 0xffff;
}

static void test_mmap_page(void)
{
	struct pc_pmc_reading r;
	int rc;

	page_reset();
	fake_value = 12345;
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc == 0 && r.count == 1000000 + 12345,
	   "count = offset + counter (got %llu)", (unsigned long long)r.count);
	ok(fake_counter == 2, "the counter read is index - 1 (%u)", fake_counter);
	ok(r.enabled == 5000 && r.running == 5000 && r.retries == 0,
	   "times come from the page; no retry when it holds still");

	page_reset();
	fake_value = (1ULL << 48) - 256;	/* -256 in 48 bits */
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc == 0 && r.count == 1000000 - 256,
	   "the counter is sign-extended from pmc_width bits (got %llu)",
	   (unsigned long long)r.count);

	page_reset();
	page.pmc_width = 64;
	fake_value = 1ULL << 63;
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc == 0 && r.count == 1000000 + (1ULL << 63), "a 64-bit wide counter is used as is");

	page_reset();
	fake_value = 10;
	fake_bumps = 1;
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc == 0 && r.count == 2000000 + 10 && fake_calls == 2 && r.retries == 1,
	   "a page rewritten mid-read is read again, and the new offset used "
	   "(count %llu, %d reads)", (unsigned long long)r.count, fake_calls);

	page_reset();
	fake_bumps = 1 << 30;
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc < 0 && fake_calls == PC_PMC_MAX_RETRIES,
	   "a page that never holds still gives up after %d tries", PC_PMC_MAX_RETRIES);

	page_reset();
	page.index = 0;
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc < 0 && fake_calls == 0,
	   "index 0 (not on a counter now): no rdpmc, the caller read()s");

	page_reset();
	page.cap_user_rdpmc = 0;
	rc = pc_perf_page_read(&page, fake_rdpmc, &r);
	ok(rc < 0 && fake_calls == 0, "cap_user_rdpmc 0: no rdpmc, the caller read()s");
}
#endif

/* ---- verdicts and the retake budget ------------------------------------------ */

static struct pc_events dist;	/* two disturbance counters, no user events */

static void dist_events(void)
{
	pc_events_init(&dist);
	dist.nall = 2;
	dist.cs = 0;
	dist.mig = 1;
	dist.reject = true;
}

static void test_verdict(void)
{
	struct pc_loop_counts l[4];
	struct pc_group_reading r0, r1;

	dist_events();
	memset(l, 0, sizeof(l));
	l[0].full = l[1].full = l[2].full = l[3].full = true;
	ok(pc_events_verdict(&dist, l, 4) == PC_SAMPLE_KEEP, "a quiet sample is kept");
	l[2].value[0] = 1;
	ok(pc_events_verdict(&dist, l, 4) == PC_SAMPLE_DISTURBED,
	   "a context switch in any loop (here the calibration's) disturbs the sample");
	l[2].value[0] = 0;
	l[1].value[1] = 1;
	ok(pc_events_verdict(&dist, l, 4) == PC_SAMPLE_DISTURBED,
	   "a CPU migration disturbs the sample");
	l[0].full = false;
	ok(pc_events_verdict(&dist, l, 4) == PC_SAMPLE_MULTIPLEXED,
	   "a loop whose counters did not run throughout makes it multiplexed");
	l[0].full = true;
	dist.reject = false;
	ok(pc_events_verdict(&dist, l, 4) == PC_SAMPLE_KEEP,
	   "with the check off (--keep-disturbed) a migration is kept");
	ok(pc_events_verdict(NULL, l, 2) == PC_SAMPLE_KEEP,
	   "with no events at all, a full sample is kept");
	l[1].full = false;
	ok(pc_events_verdict(NULL, l, 2) == PC_SAMPLE_MULTIPLEXED,
	   "with no events, a multiplexed PMU cycles counter still rejects");
	dist.reject = true;

	/* enabled vs running between two reads */
	memset(&r0, 0, sizeof(r0));
	memset(&r1, 0, sizeof(r1));
	r0.ok = r1.ok = true;
	r0.enabled = r0.running = 100;
	r1.enabled = r1.running = 250;
	r0.value[0] = 3;
	r1.value[0] = 4;
	l[0].full = true;
	pc_events_loop(&dist, &r0, &r1, &l[0]);
	ok(l[0].full && l[0].value[0] == 1, "equal enabled and running deltas: full, counts differenced");
	r1.running = 200;
	l[0].full = true;
	pc_events_loop(&dist, &r0, &r1, &l[0]);
	ok(!l[0].full, "time_enabled != time_running over the loop: not full");
	r1.running = 250;
	r1.ok = false;
	l[0].full = true;
	pc_events_loop(&dist, &r0, &r1, &l[0]);
	ok(!l[0].full, "a failed read: not full");
	{
		struct pc_counter_reading a = { 10, 100, 100, true }, b = { 20, 300, 300, true };

		ok(pc_counter_full(&a, &b), "the PMU cycles counter: equal deltas, full");
		b.running = 299;
		ok(!pc_counter_full(&a, &b), "the PMU cycles counter: multiplexed, not full");
	}
}

/* ---- explanations ------------------------------------------------------------ */

static void test_explain(void)
{
	struct pc_perf_context c = { 3, false, false };
	char b[512];

	pc_perf_explain(&c, EACCES, true, false, b, sizeof(b));
	ok(contains(b, "perf_event_paranoid is 3") &&
	   contains(b, "kernel.perf_event_paranoid=2"),
	   "EACCES as a user: names perf_event_paranoid and the fix (%s)", b);
	pc_perf_explain(&c, EACCES, true, true, b, sizeof(b));
	ok(contains(b, "kernel.perf_event_paranoid=1"),
	   "counting the kernel needs paranoid 1 (%s)", b);
	c.root = true;
	pc_perf_explain(&c, EPERM, true, true, b, sizeof(b));
	ok(contains(b, "even as root"), "EPERM as root: not the sysctl (%s)", b);
	c.root = false;
	c.virtual_machine = true;
	pc_perf_explain(&c, ENOENT, true, false, b, sizeof(b));
	ok(contains(b, "virtual machine") && contains(b, "pmu=on"),
	   "ENOENT in a VM: no virtual PMU, and how to give it one (%s)", b);
	c.virtual_machine = false;
	pc_perf_explain(&c, ENOENT, true, false, b, sizeof(b));
	ok(contains(b, "no hardware PMU") && !contains(b, "virtual machine"),
	   "ENOENT on bare metal: no PMU driver (%s)", b);
	pc_perf_explain(&c, ENOENT, false, false, b, sizeof(b));
	ok(contains(b, "does not offer"), "ENOENT for a software event (%s)", b);
	pc_perf_explain(&c, EBUSY, true, false, b, sizeof(b));
	ok(contains(b, "nmi_watchdog"), "EBUSY: the NMI watchdog may hold a counter (%s)", b);
}

/* ---- the JSON and the table ---------------------------------------------- */

static void test_json(void)
{
	double v[5] = { 0.31, 0.30, 0.31, 0.32, 0.31 }, z[5] = { 0 };
	struct pc_events e;
	struct pc_probe_result r;
	struct pc_summary per_op[3];
	bool counted[3];
	struct pc_clock clk;
	char err[PC_ERRLEN];
	json_t *p, *bad;

	memset(&clk, 0, sizeof(clk));
	clk.pmu_fd = -1;
	pc_events_init(&e);
	e.n = e.nall = 3;
	snprintf(e.ev[0].name, sizeof(e.ev[0].name), "perf::task-clock");
	e.ev[0].counted = true;
	snprintf(e.ev[1].name, sizeof(e.ev[1].name), "instructions");
	e.ev[1].hardware = true;
	snprintf(e.ev[1].reason, sizeof(e.ev[1].reason), "no hardware PMU");
	snprintf(e.ev[2].name, sizeof(e.ev[2].name), "branch-misses");
	e.ev[2].hardware = true;
	e.ev[2].counted = true;

	ok(pc_event_has_figures(&e.ev[0], false),
	   "a software event that read 0 has figures (0 is a count)");
	ok(!pc_event_has_figures(&e.ev[2], false),
	   "a hardware counter that read 0 in every loop has none (not supported)");
	ok(pc_event_has_figures(&e.ev[2], true), "a hardware counter that counted has figures");
	ok(!pc_event_has_figures(&e.ev[1], true), "an event that did not open has none");

	memset(&r, 0, sizeof(r));
	r.id = PC_PROBE_calib_add_chain;
	r.status = PC_STATUS_OK;
	r.samples = 5;
	r.iters = 10;
	r.ops_per_sample = 640;
	r.cycles_per_tick = 1.25;
	pc_summarize(v, 5, &r.ticks);
	r.cycles = r.ns = r.ticks;
	pc_summarize(v, 5, &per_op[0]);
	pc_summarize(z, 5, &per_op[1]);
	pc_summarize(z, 5, &per_op[2]);
	counted[0] = true;
	counted[1] = false;
	counted[2] = pc_event_has_figures(&e.ev[2], false);
	r.events.def = &e;
	r.events.per_op = per_op;
	r.events.counted = counted;
	r.events.checked = true;
	r.events.disturbed = 4;
	r.events.multiplexed = 1;
	p = pc_json_probe(&r, &clk);
	ok(json_is_real(json_object_get(json_object_get(json_object_get(p, "events"),
			"perf::task-clock"), "median")),
	   "a counted event has per-op figures under events.NAME");
	ok(strcmp(json_string_value(json_object_get(json_object_get(json_object_get(p,
			"events"), "instructions"), "reason")), "no hardware PMU") == 0,
	   "an event that did not open is unsupported with its reason");
	ok(json_object_get(json_object_get(json_object_get(p, "events"), "branch-misses"),
			   "median") == NULL &&
	   json_is_string(json_object_get(json_object_get(json_object_get(p, "events"),
			  "branch-misses"), "reason")),
	   "an all-zero hardware counter is unsupported, not 0.00");
	ok(json_integer_value(json_object_get(json_object_get(p, "discarded"), "disturbed")) == 4 &&
	   json_integer_value(json_object_get(json_object_get(p, "discarded"), "multiplexed")) == 1,
	   "discarded samples are in the JSON by cause");
	err[0] = 0;
	ok(pc_validate_probe(p, "p", err, sizeof(err)) == 0,
	   "the probe with events validates%s%s", *err ? ": " : "", err);
	bad = json_deep_copy(p);
	json_object_set_new(json_object_get(bad, "events"), "x", json_pack("{s:s}", "status", "ok"));
	ok(pc_validate_probe(bad, "p", err, sizeof(err)) < 0,
	   "an event entry that is neither figures nor unsupported is refused (%s)", err);
	json_decref(bad);
	bad = json_deep_copy(p);
	json_object_set_new(json_object_get(bad, "discarded"), "disturbed", json_integer(-1));
	ok(pc_validate_probe(bad, "p", err, sizeof(err)) < 0,
	   "a negative discard count is refused (%s)", err);
	json_decref(bad);

	/* The table shows the event column and n/s, never 0.00, for them. */
	{
		struct pc_cpu_info ci;
		struct pc_profile prof;
		json_t *doc = pc_doc_new(), *run;
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		memset(&ci, 0, sizeof(ci));
		memset(&prof, 0, sizeof(prof));
		snprintf(ci.arch, sizeof(ci.arch), "x86_64");
		clk.timer = "tsc";
		clk.tick_hz = 2.5e9;
		run = pc_json_run(&ci, &clk, &prof, json_object());
		pc_json_run_events(run, &e);
		pc_doc_add_run(doc, "k", pc_json_cpu(&ci, &clk, 1.3), run,
			       json_pack("{s:O}", "calib.add_chain", p), err, sizeof(err));
		err[0] = 0;
		ok(pc_doc_validate(doc, err, sizeof(err)) == 0,
		   "the document validates%s%s", *err ? ": " : "", err);
		pc_report_verbose(f, doc, PC_FORMAT_TABLE, true);
		fclose(f);
		ok(contains(text, "perf::task-clock") && contains(text, "instructions") &&
		   contains(text, "n/s"), "the table has event columns, n/s where unsupported");
		ok(contains(text, "event instructions not counted: no hardware PMU"),
		   "the table's header says why an event is not counted");
		ok(contains(text, "discarded") && contains(text, "        5  ok"),
		   "the verbose table shows the samples discarded per probe");
		diag("%s", text);
		free(text);
		json_decref(doc);
	}
	json_decref(p);
}

/* ---- a real group here ---------------------------------------------------- */

/* Spins for ms of this thread's CPU time: the task clock counts only the
 * time the thread runs, which on a busy machine is less than wall time. */
static void spin_ms(double ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6 < ms);
}

static void test_real_group(void)
{
	struct pc_events e;
	struct pc_group_reading r0, r1;
	struct pc_loop_counts l;
	char err[PC_ERRLEN], hw_why[256];
	int attempt;
	bool hw;

	if (pc_events_parse("perf::task-clock,instructions", &e, err, sizeof(err)) < 0 ||
	    pc_events_open(&e, true, err, sizeof(err)) < 0) {
		ok(0, "software events open here (%s)", err);
		return;
	}
	if (!e.ev[0].counted) {
		skip(e.ev[0].reason, "a software group counts here");
		pc_events_close(&e);
		return;
	}
	/* The best of three: on a loaded virtual machine the thread's CPU
	 * clock and the task clock can part by the time the host stole. */
	for (attempt = 0; attempt < 3; attempt++) {
		pc_events_read(&e, &r0);
		spin_ms(2);
		pc_events_read(&e, &r1);
		memset(&l, 0, sizeof(l));
		l.full = true;
		pc_events_loop(&e, &r0, &r1, &l);
		if (l.value[0] > 1900000 && l.value[0] < 20000000)
			break;
	}
	ok(r0.ok && r1.ok && l.full, "the group reads, and ran throughout");
	ok(l.value[0] > 1900000 && l.value[0] < 20000000,
	   "perf::task-clock counts the 2 ms of CPU time spun, in ns (%llu; "
	   "attempt %d of 3)", (unsigned long long)l.value[0], attempt + (attempt < 3));
	hw = pc_hardware_events_available(hw_why, sizeof(hw_why));
	if (hw)
		ok(e.ev[1].counted, "with a PMU, 'instructions' joins the group");
	else
		ok(!e.ev[1].counted && strcmp(e.ev[1].reason, hw_why) == 0,
		   "without a PMU, 'instructions' is left out with the reason (%s)",
		   e.ev[1].reason);
	if (e.reject)
		ok(e.ev[e.cs].counted && e.ev[e.mig].counted && !e.ev[e.cs].attr.exclude_kernel,
		   "context switches and migrations are counted in kernel mode too");
	else
		skip(e.reject_reason, "the disturbance counters open");
	pc_events_close(&e);
	ok(e.leader < 0 && e.ev[0].fd < 0, "closing releases every fd");
}

/*
 * The PMU-cycles path of the harness, driven by a stand-in: the task clock
 * (a software counter, so it opens without a PMU) attached as the "cycles"
 * counter. It counts ns, so the probes' cycles must equal their ns; and
 * everything a real PMU cycles counter goes through runs: the read() with
 * enabled/running, the multiplexing check, the rdpmc decision,
 * cycles_source pmu.
 */
static void test_pmu_path(void)
{
	struct perf_event_attr a;
	struct pc_clock clk;
	struct pc_counter_reading r0, r1;
	struct pc_measure_config cfg;
	struct pc_profile prof;
	bool sel[PC_PROBE_COUNT] = { false };
	char err[PC_ERRLEN];
	size_t i;
	int fd;

	if (getenv("TEST_EMULATOR") && *getenv("TEST_EMULATOR")) {
		skip("timings mean nothing under an emulator", "the PMU-cycles path with a stand-in counter");
		return;
	}
	if (pc_clock_init(&clk, false, err, sizeof(err)) < 0) {
		ok(0, "the clock initialises (%s)", err);
		return;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		a.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		skip(strerror(errno), "the PMU-cycles path with a stand-in counter");
		return;
	}
	ok(pc_clock_pmu_attach(&clk, fd) == 0 && clk.source == PC_CYCLES_PMU,
	   "a counting perf event attaches as the cycles source");
	ok(!clk.pmu_rdpmc && contains(clk.pmu_read_reason, "read(2)"),
	   "a software counter has no rdpmc: read(2), and why (%s)", clk.pmu_read_reason);
	pc_clock_pmu_sample(&clk, &r0);
	spin_ms(1);
	pc_clock_pmu_sample(&clk, &r1);
	ok(r0.ok && r1.ok && r1.value > r0.value && pc_counter_full(&r0, &r1),
	   "the counter reads with its times, and ran throughout");

	memset(&cfg, 0, sizeof(cfg));
	cfg.samples = 51;
	cfg.sample_s = 20e-6;
	cfg.cpu = -1;
	sel[PC_PROBE_calib_mul_chain] = sel[PC_PROBE_cmpxchg] = true;
	if (pc_profile_run(sel, &cfg, &clk, &prof, err, sizeof(err)) < 0) {
		ok(0, "a profile runs on the stand-in cycles (%s)", err);
		pc_clock_close(&clk);
		return;
	}
	for (i = 0; i < prof.nprobes; i++) {
		const struct pc_probe_result *r = &prof.probes[i];
		double ratio = r->cycles.median / r->ns.median;

		/* noisy has its figures too: a loaded host spreads cmpxchg's
		 * samples, which is not what this checks */
		ok((r->status == PC_STATUS_OK || r->status == PC_STATUS_NOISY) &&
		   r->cycles_source == PC_CYCLES_PMU && fabs(ratio - 1) < 0.10,
		   "%s: cycles from the stand-in counter (ns) match ns within 10 %% "
		   "(%.3f vs %.3f; %s)", pc_probe_rows[r->id].name, r->cycles.median,
		   r->ns.median, pc_status_name(r->status));
	}
	pc_profile_free(&prof);
	pc_clock_close(&clk);
	ok(clk.pmu_fd < 0 && !clk.pmu_page, "closing the clock releases the counter");
}

int main(void)
{
	test_parse();
	test_group_layout();
#ifdef HAVE_PMC_PAGE
	test_mmap_page();
#else
	skip("no user-mode counter read on this architecture", "the perf mmap-page seqlock");
#endif
	test_verdict();
	test_explain();
	test_json();
	test_real_group();
	test_pmu_path();
	return done_testing();
}
