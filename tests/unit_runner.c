/* SPDX-License-Identifier: MIT */
/*
 * The freestanding probe runner's driver (runner/runner.c) and primcost's
 * reading of it (src/remote/runner_parse.c), on the host: the driver runs here with
 * this machine's backend and a fake platform that captures its output, so
 * the text format is proven end to end without the cross toolchain or an
 * emulator. Also: a self-check that fails is reported as the probe's
 * failure, and a run that dies names the probe it was running.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner/runner.h"
#include "remote/runner_host.h"
#include "tap.h"
#include "core/primcost.h"

/* ---- the fake platform ------------------------------------------------------------ */

static char out[1 << 20];
static size_t outlen;

void pc_rt_write(const char *buf, unsigned long len)
{
	if (outlen + len < sizeof(out)) {
		memcpy(out + outlen, buf, len);
		outlen += len;
	}
}

int pc_rt_clock_us(uint64_t *us)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	*us = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
	return 0;
}

void pc_rt_describe_cpu(void)
{
	pc_runner_line("cpu", "vendor", "TestVendor", (char *)0);
	pc_runner_line("cpu", "family", "31", (char *)0);
	pc_runner_line("cpu", "model", "1", (char *)0);
}

int pc_rt_ring(void)
{
	return 3;
}

/* ---- a probe whose check always fails ------------------------------------------------ */

static const char *wrong_check(const struct pc_probe_state *before,
			       const struct pc_probe_state *after, uint64_t ops)
{
	(void)before;
	(void)after;
	(void)ops;
	return "deliberately wrong expected value";
}

static int count_lines(const char *prefix)
{
	const char *p = out;
	int n = 0;
	size_t l = strlen(prefix);

	while (p < out + outlen) {
		if (strncmp(p, prefix, l) == 0)
			n++;
		p = memchr(p, '\n', (size_t)(out + outlen - p));
		if (!p)
			break;
		p++;
	}
	return n;
}

/* The samples a profile keeps: those whose paired calibration read a time
 * (an interrupt in its short loop can make hi - lo zero or negative). */
static size_t readable_pairs(const struct pc_runner_probe *rp)
{
	size_t i, n = 0;

	for (i = 0; i < rp->n; i++)
		n += rp->s[i][3] > rp->s[i][2];
	return n;
}

/* The runner's own arguments. */
static void runner_arguments(int argc, char **args)
{
	struct pc_runner_config cfg;
	int id, rc;

	ok(pc_runner_parse_args(argc, args, 3, &cfg) == 0 && cfg.samples == 12 &&
	   cfg.sample_us == 5 && cfg.min_ticks == 500 && cfg.selected[PC_PROBE_cmpxchg] &&
	   !cfg.selected[PC_PROBE_mb], "runner arguments: numbers and exact names");
	{
		char *none[] = { "runner", NULL };

		pc_runner_parse_args(1, none, 0, &cfg);
		ok(cfg.selected[PC_PROBE_local_irq_save] && !cfg.selected[PC_PROBE_cmpxchg],
		   "no names in system mode: the ring-0 rows");
		pc_runner_parse_args(1, none, 3, &cfg);
		for (rc = 1, id = 0; id < PC_PROBE_COUNT; id++)
			rc &= cfg.selected[id];
		ok(rc, "no names in user mode: every row");
	}
	{
		char *bad[] = { "runner", "-n", "x", NULL };
		char *bad2[] = { "runner", "nosuch", NULL };

		outlen = 0;
		ok(pc_runner_parse_args(3, bad, 3, &cfg) < 0 && count_lines("pcr error") == 1,
		   "a bad number is refused with an error record");
		ok(pc_runner_parse_args(2, bad2, 3, &cfg) < 0 && count_lines("pcr error") == 2,
		   "an unknown probe is refused with an error record");
	}
}

/* A run cut short: the culprit is the probe it was running (sel: the
 * probes the run was asked for). */
static void cut_short(const bool *sel)
{
	struct pc_runner_output o;
	char err[PC_ERRLEN], *cut = memmem(out, outlen, "pcr s xchg ", 11);
	size_t keep = cut ? (size_t)(cut - out) : 0;

	ok(cut && pc_runner_parse(out, keep, &o, err, sizeof(err)) == 0 && !o.ended &&
	   pc_runner_culprit(&o, sel, 12) == PC_PROBE_xchg,
	   "output cut before xchg's first sample: xchg is the culprit");
	pc_runner_output_free(&o);
	cut = memmem(out, outlen, "pcr probe cmpxchg", 17);
	keep = cut ? (size_t)(cut - out) : 0;
	ok(cut && pc_runner_parse(out, keep, &o, err, sizeof(err)) == 0 &&
	   pc_runner_culprit(&o, sel, 12) == PC_PROBE_cmpxchg,
	   "output cut while cmpxchg was prepared: cmpxchg is the culprit");
	pc_runner_output_free(&o);
}

/* The self-check can fail, and a failure is the probe's status. */
static void failing_selfcheck(int argc, char **args)
{
	struct pc_runner_config cfg;
	struct pc_arch_probe table[PC_PROBE_COUNT];
	struct pc_runner_env env = { table, 3, "test", "tsc", pc_arch_env() };

	memcpy(table, pc_arch_probes, sizeof(table));
	/* The body this CPU runs for cmpxchg (arm64 without LSE: the
	 * LL/SC fallback), with its check replaced below. */
	table[PC_PROBE_cmpxchg] = *pc_probe_impl(PC_PROBE_cmpxchg);
	table[PC_PROBE_cmpxchg].unavailable = NULL;
	table[PC_PROBE_cmpxchg].fallback = NULL;
	ok(pc_runner_selfcheck(&table[PC_PROBE_cmpxchg]) == NULL,
	   "the real cmpxchg passes the runner's self-check");
	table[PC_PROBE_cmpxchg].check = wrong_check;
	ok(pc_runner_selfcheck(&table[PC_PROBE_cmpxchg]) != NULL,
	   "a check with a wrong expected value fails the self-check");
	outlen = 0;
	pc_runner_parse_args(argc, args, 3, &cfg);
	ok(pc_runner_run(&env, &cfg) == 1 &&
	   count_lines("pcr status cmpxchg failed self-check failed: deliberately") == 1 &&
	   count_lines("pcr s cmpxchg ") == 0 && count_lines("pcr s xchg ") == 12,
	   "the failing probe is reported failed and not timed; the others run");
}

/* ---- primcost's reading of malformed output ------------------------------------------ */

/* Malformed output is refused with the line that is wrong. */
static void malformed_output(void)
{
	struct pc_runner_output o;
	char err[PC_ERRLEN];

	static const char v2[] = "pcr primcost-runner 2\n";
	static const char unroll[] = "pcr primcost-runner 1\npcr unroll 8 40\n";
	static const char unknown[] = "noise from the emulator\npcr primcost-runner 1\n"
				      "pcr status nosuch skipped why\n";
	static const char early[] = "pcr primcost-runner 1\npcr probe cmpxchg 4 4\n"
				    "pcr s cmpxchg 1 2 x 4\n";
	static const char noise[] = "Ski banner\npcr primcost-runner 1\n"
				    "program exited with status 0\n";

	ok(pc_runner_parse(v2, sizeof(v2) - 1, &o, err, sizeof(err)) < 0 &&
	   strstr(err, "line 1"), "another format version is refused: %s", err);
	ok(pc_runner_parse(unroll, sizeof(unroll) - 1, &o, err, sizeof(err)) < 0 &&
	   strstr(err, "rebuild"), "another unroll count is refused: %s", err);
	ok(pc_runner_parse(unknown, sizeof(unknown) - 1, &o, err, sizeof(err)) < 0 &&
	   strstr(err, "line 3") && strstr(err, "nosuch"),
	   "an unknown probe is refused: %s", err);
	ok(pc_runner_parse(early, sizeof(early) - 1, &o, err, sizeof(err)) < 0 &&
	   strstr(err, "line 3"), "a non-number in a sample is refused: %s", err);
	ok(pc_runner_parse(noise, sizeof(noise) - 1, &o, err, sizeof(err)) == 0 &&
	   strcmp(o.last_other, "program exited with status 0") == 0,
	   "lines that are not records are ignored, the last one kept");
	pc_runner_output_free(&o);
}

/* Every record's own error, word for word, with its line number. */
static void every_record_error(void)
{
#define HDR "pcr primcost-runner 1\n"
	static const struct { const char *text, *error; } cases[] = {
		{ "pcr primcost-runner\n", "line 1: malformed format line" },
		{ "pcr primcost-runner one\n", "line 1: malformed format line" },
		{ "pcr arch ia64\n", "line 1: a record before the format line" },
		{ "pcr later record\n", "line 1: a record before the format line" },
		{ HDR "pcr arch\n", "line 2: 'arch' wants one word" },
		{ HDR "pcr mode user system\n", "line 2: 'mode' wants one word" },
		{ HDR "pcr timer\n", "line 2: 'timer' wants one word" },
		{ HDR "pcr unroll 16\n", "line 2: malformed unroll line" },
		{ HDR "pcr unroll 16 x\n", "line 2: malformed unroll line" },
		{ HDR "pcr cpu family\n", "line 2: malformed cpu line" },
		{ HDR "pcr cpu family x\n", "line 2: cpu family: not a number" },
		{ HDR "pcr cpu model 2147483648\n", "line 2: cpu model: not a number" },
		{ HDR "pcr clock 1 2 3\n", "line 2: malformed clock line" },
		{ HDR "pcr clock 1 2 3 -4\n", "line 2: malformed clock line" },
		{ HDR "pcr target\n", "line 2: malformed target line" },
		{ HDR "pcr end 0 0\n", "line 2: malformed end line" },
		{ HDR "pcr error -n: not a number\n",
		  "line 2: the runner refused its arguments: -n: not a number" },
		{ HDR "pcr status\n", "line 2: 'status' without a probe name" },
		{ HDR "pcr probe\n", "line 2: 'probe' without a probe name" },
		{ HDR "pcr s\n", "line 2: 's' without a probe name" },
		{ HDR "pcr lin\n", "line 2: 'lin' without a probe name" },
		{ HDR "pcr probe nosuch 4 4\n", "line 2: unknown probe 'nosuch' (a runner "
		  "built from another probe table?)" },
		{ HDR "pcr status cmpxchg\n", "line 2: status without a status" },
		{ HDR "pcr status cmpxchg fine\n", "line 2: unknown status 'fine'" },
		{ HDR "pcr probe cmpxchg 4\n", "line 2: malformed probe line" },
		{ HDR "pcr probe cmpxchg 0 4\n", "line 2: malformed probe line" },
		{ HDR "pcr lin cmpxchg 1 2\n",
		  "line 2: a sample of 'cmpxchg' before its probe line" },
		{ HDR "pcr probe cmpxchg 4 4\r\npcr s cmpxchg 1 2 3\r\n",
		  "line 3: malformed sample line" },
		{ HDR "pcr probe cmpxchg 4 4\npcr lin cmpxchg 1\n",
		  "line 3: malformed lin line" },
	};
	struct pc_runner_output o;
	char err[PC_ERRLEN], want[PC_ERRLEN];
	size_t i;
	int good = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want), "runner output line %s", cases[i].error + 5);
		err[0] = 0;
		if (pc_runner_parse(cases[i].text, strlen(cases[i].text), &o, err,
				    sizeof(err)) < 0 && strcmp(err, want) == 0)
			good++;
		else
			printf("# %s: got '%s', want '%s'\n", cases[i].text, err, want);
	}
	ok(good == (int)i, "%d of %zu malformed records refused with their own error", good, i);
	ok(pc_runner_parse(HDR "pcr later record\npcr cpu speed 9\n",
			   sizeof(HDR "pcr later record\npcr cpu speed 9\n") - 1, &o, err,
			   sizeof(err)) == 0 && o.have_cpu,
	   "a record of a later format and an unknown cpu fact are ignored");
	pc_runner_output_free(&o);
#undef HDR
}

int main(void)
{
	struct pc_runner_output o;
	char err[PC_ERRLEN];
	char *args[] = { "runner", "-n", "12", "-u", "5", "-t", "500", "baseline",
			 "calib.add_chain", "cmpxchg", "xchg", "local_irq_disable",
			 "sigprocmask", NULL };
	int argc = (int)(sizeof(args) / sizeof(args[0])) - 1, rc;
	bool sel[PC_PROBE_COUNT] = { false };

	runner_arguments(argc, args);

	/* the whole program, then primcost's reading of its output */
	outlen = 0;
	rc = pc_runner_main(argc, args);
	ok(rc == 0, "the runner exits 0 when no probe failed (got %d)", rc);
	ok(count_lines("pcr s cmpxchg ") == 12 && count_lines("pcr lin cmpxchg ") == 31,
	   "12 samples and 31 linearity pairs of cmpxchg");
	ok(count_lines("pcr clock ") == 3, "three clock windows");
	ok(pc_runner_parse(out, outlen, &o, err, sizeof(err)) == 0, "primcost parses it%s%s",
	   err[0] ? ": " : "", err);
	ok(o.ended && strcmp(o.arch, pc_arch_name) == 0 && strcmp(o.mode, "user") == 0 &&
	   strcmp(o.timer, pc_arch_timer_name) == 0 && o.family == 31 &&
	   strcmp(o.vendor, "TestVendor") == 0 && o.nclock == 3,
	   "header, CPU identity and clock read back");
	/* Skipped where this backend has a ring-0 body, else unsupported. */
	ok(o.probes[PC_PROBE_local_irq_disable].has_status &&
	   o.probes[PC_PROBE_local_irq_disable].status ==
	   (pc_arch_probes[PC_PROBE_local_irq_disable].run ? PC_STATUS_SKIPPED :
	    PC_STATUS_UNSUPPORTED),
	   "a ring-0 row is not run in user mode: %s",
	   o.probes[PC_PROBE_local_irq_disable].reason);
	ok(o.probes[PC_PROBE_sigprocmask].has_status &&
	   o.probes[PC_PROBE_sigprocmask].status == PC_STATUS_UNSUPPORTED,
	   "a libc probe is unsupported in the runner: %s",
	   o.probes[PC_PROBE_sigprocmask].reason);
	ok(o.probes[PC_PROBE_xchg].measured && o.probes[PC_PROBE_xchg].n == 12 &&
	   o.probes[PC_PROBE_xchg].nlin == 31, "xchg measured: 12 samples, 31 pairs");
	{
		struct pc_clock clk;
		struct pc_profile prof;
		size_t k;

		sel[PC_PROBE_baseline] = sel[PC_PROBE_calib_add_chain] = true;
		sel[PC_PROBE_cmpxchg] = sel[PC_PROBE_xchg] = true;
		sel[PC_PROBE_local_irq_disable] = sel[PC_PROBE_sigprocmask] = true;
		rc = pc_runner_clock(&o, NULL, &clk, err, sizeof(err));
		ok(rc == 0 && clk.tick_hz > 0 && clk.tick_hz_measured,
		   "timer rate from the clock windows: %.0f Hz", clk.tick_hz);
		ok(pc_runner_profile(&o, NULL, sel, &clk, false, false, &prof, err,
				     sizeof(err)) == 0 && prof.nprobes == 6,
		   "a profile of the six selected probes");
		for (k = 0; k < prof.nprobes; k++) {
			struct pc_probe_result *r = &prof.probes[k];

			if (r->id == PC_PROBE_calib_add_chain)
				ok((r->status == PC_STATUS_OK || r->status == PC_STATUS_NOISY) &&
				   r->samples <= readable_pairs(&o.probes[r->id]) &&
				   2 * r->samples >= readable_pairs(&o.probes[r->id]) &&
				   r->cycles.median > 0.5 && r->cycles.median < 2.0,
				   "calib.add_chain against its own paired calibration: "
				   "%.2f cycles (1 by construction, loosely; %s, %zu samples: "
				   "those whose calibration read a time, less the slow ones%s%s)",
				   r->cycles.median, pc_status_name(r->status), r->samples,
				   r->reason[0] ? ": " : "", r->reason);
			if (r->id == PC_PROBE_cmpxchg)
				ok((r->status == PC_STATUS_OK || r->status == PC_STATUS_NOISY) &&
				   r->ops_per_sample ==
				   r->iters * PC_UNROLL_DIFF && r->ticks.median > 0 &&
				   r->ns.median > 0, "cmpxchg: %.2f ticks, %.2f ns per op",
				   r->ticks.median, r->ns.median);
		}
		pc_profile_free(&prof);
	}
	pc_runner_output_free(&o);

	cut_short(sel);

	failing_selfcheck(argc, args);
	malformed_output();
	every_record_error();
	return done_testing();
}
