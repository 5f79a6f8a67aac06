/* SPDX-License-Identifier: MIT */
/* primcost run's option parsing, apart from any measurement; the option,
 * error and CSV functions the subcommands share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "core/select.h"
#include "tap.h"

#define ARGV(...) ((char *[]){ "run", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(char *)) - 1)

static int parse(int argc, char **argv, struct pc_run_options *o, char *err)
{
	return pc_run_options_parse(argc, argv, o, err, PC_ERRLEN);
}

/* pc_csv_field(s) as a string (static). */
static const char *csv(const char *s)
{
	static char buf[256];
	FILE *f;

	memset(buf, 0, sizeof(buf));	/* an empty field writes nothing */
	f = fmemopen(buf, sizeof(buf), "w");
	pc_csv_field(f, s);
	fclose(f);
	return buf;
}

static void shared_functions(void)
{
	static const char *const words[] = { "table", "csv", "json", NULL };
	char err[PC_ERRLEN], s[16];
	double d;
	long v;

	ok(strcmp(csv("plain"), "plain") == 0 && strcmp(csv(NULL), "") == 0,
	   "a plain CSV field is left as it is");
	ok(strcmp(csv("a,\"b\""), "\"a,\"\"b\"\"\"") == 0,
	   "a CSV field with a comma and a quote is quoted, its quote doubled: %s",
	   csv("a,\"b\""));
	ok(strcmp(csv("x\ny"), "x\\ny") == 0 && strcmp(csv(" x"), "\" x\"") == 0,
	   "a line break is escaped (\\n), an outer space quoted");
	ok(strcmp(csv("a\033[2J\xc2\x9b\xe2\x80\xae"), "a\\x1b[2J\\u009b\\u202e") == 0,
	   "C0, C1 and bidirectional controls in a CSV field are escaped: %s",
	   csv("a\033[2J\xc2\x9b\xe2\x80\xae"));
	strcpy(s, "a\nb\tc\x1b");
	pc_escape_controls(s, sizeof(s));
	ok(strcmp(s, "a\\nb\\tc\\x1b") == 0, "control characters become C escapes: %s", s);
	strcpy(s, "\n\n\n\n\n\n\n\n\n");
	pc_escape_controls(s, sizeof(s));
	ok(strlen(s) == 14 && strchr(s, '\n') == NULL,
	   "escapes that do not fit are cut whole: %s", s);
	ok(pc_opt_word("--format", "csv", words, err, sizeof(err)) == 1,
	   "a word is found by its index");
	ok(pc_opt_word("--format", "xml", words, err, sizeof(err)) < 0 &&
	   strcmp(err, "--format: want table, csv or json, got 'xml'") == 0,
	   "a word not in the list is refused, the list named: %s", err);
	ok(pc_opt_double("--t", "2.5", 0, 10, "0..10", &d, err, sizeof(err)) == 0 &&
	   d == 2.5, "a number in range is taken");
	ok(pc_opt_double("--t", "nan", 0, 10, "0..10", &d, err, sizeof(err)) < 0 &&
	   pc_opt_double("--t", "11", 0, 10, "0..10", &d, err, sizeof(err)) < 0 &&
	   pc_opt_double("--t", "1x", 0, 10, "0..10", &d, err, sizeof(err)) < 0 &&
	   pc_opt_double("--t", "", 0, 10, "0..10", &d, err, sizeof(err)) < 0 &&
	   strcmp(err, "--t: want 0..10, got ''") == 0,
	   "nan, out of range, trailing text and empty are refused: %s", err);
	ok(pc_opt_long("--n", "12", 9, 20, "9..20", &v, err, sizeof(err)) == 0 && v == 12 &&
	   pc_opt_long("--n", "8", 9, 20, "9..20", &v, err, sizeof(err)) < 0,
	   "an integer is taken in range only: %s", err);
	ok(isnan(pc_parse_double("1e400", 0, INFINITY)), "an overflowing number is refused");
}

/* The -p list walker every group shares. */
static void select_names(void)
{
	static const char *const names[] = { "lock.tas", "lock.ticket", NULL, "c2c.latency" };
	char err[PC_ERRLEN], glob[300];
	bool hit[4];

	ok(pc_select_names("lock.*,c2c.latency", names, 4, hit, "rows", err, sizeof(err)) == 3 &&
	   hit[0] && hit[1] && !hit[2] && hit[3], "globs and names mark their rows");
	ok(pc_select_names("*", names, 4, hit, "rows", err, sizeof(err)) == 3 && !hit[2],
	   "a NULL name (a hidden row) is never named");
	ok(pc_select_names(",lock.tas,,", names, 4, hit, "rows", err, sizeof(err)) == 1 &&
	   hit[0] && !hit[1] && !hit[3], "empty elements are passed over");
	ok(pc_select_names(",,", names, 4, hit, "rows", err, sizeof(err)) < 0 &&
	   strcmp(err, "no probe names in ',,' (see primcost list)") == 0,
	   "a list of no names is refused: %s", err);
	ok(pc_select_names("", names, 4, hit, "rows", err, sizeof(err)) < 0 &&
	   strstr(err, "no probe names"), "an empty list is refused: %s", err);
	ok(pc_select_names("lock.tas,lock.nope", names, 4, hit, "the rows", err,
			   sizeof(err)) < 0 &&
	   strcmp(err, "no probe matches 'lock.nope' (the rows)") == 0,
	   "a glob that names no row is refused, with the rows there are: %s", err);
	memset(glob, '*', sizeof(glob) - 1);
	glob[sizeof(glob) - 1] = 0;
	ok(pc_select_names(glob, names, 4, hit, "rows", err, sizeof(err)) < 0,
	   "a glob longer than any name is refused, not cut to one that matches");
}

int main(void)
{
	struct pc_run_options o;
	char err[PC_ERRLEN];
	char *none[] = { "run", NULL };
	int id, n;

	ok(parse(1, none, &o, err) == 0, "no options parse");
	for (n = 0, id = 0; id < PC_PROBE_COUNT; id++)
		n += o.selected[id];
	ok(n == PC_PROBE_COUNT, "the default selects every probe");
	ok(o.samples == 501 && o.sample_us == 20 && o.cpu == -1 &&
	   strcmp(o.output, "primcost.json") == 0 && o.format == PC_FORMAT_TABLE &&
	   o.pmu && !o.quiet && !o.keep_samples, "defaults as documented");

	{
		char *all[] = { "run", "--probes", "calib.*,cmpxchg", "--cpu", "1",
				"-n", "99", "--sample-us", "50", "-k", "-o", "out.json",
				"-f", "csv", "--no-pmu", "-q", NULL };

		ok(parse(ARGC(all), all, &o, err) == 0, "every option together parses");
	}
	ok(o.selected[PC_PROBE_calib_add_chain] && o.selected[PC_PROBE_calib_mul_chain] &&
	   o.selected[PC_PROBE_cmpxchg] && !o.selected[PC_PROBE_cmpxchg_local] &&
	   !o.selected[PC_PROBE_baseline], "a glob and a name select exactly their probes");
	ok(o.cpu == 1 && o.samples == 99 && o.sample_us == 50 && o.keep_samples &&
	   strcmp(o.output, "out.json") == 0 && o.format == PC_FORMAT_CSV && !o.pmu &&
	   o.quiet, "every option lands in its field");
	ok(parse(5, ARGV("-o", "-", "-f", "csv"), &o, err) < 0 && strstr(err, "-o -") &&
	   strstr(err, "csv"), "-f csv with -o - (JSON on stdout) is refused: %s", err);
	ok(parse(5, ARGV("-o", "-", "-f", "json"), &o, err) == 0,
	   "-f json with -o - is what -o - prints: accepted");

	ok(parse(2, ARGV("--help"), &o, err) == 1, "--help asks for help");
	ok(parse(3, ARGV("--probes", "nosuch*"), &o, err) < 0 &&
	   strstr(err, "nosuch*"), "an unmatched glob is an error naming it: %s", err);
	ok(parse(3, ARGV("--probes", "cmpxchg,nosuch"), &o, err) < 0,
	   "one unmatched element among matched ones is an error");
	ok(parse(3, ARGV("--samples", "3"), &o, err) < 0 && strstr(err, "--samples"),
	   "too few samples is refused: %s", err);
	ok(parse(3, ARGV("--samples", "12x"), &o, err) < 0, "a non-number is refused");
	ok(parse(3, ARGV("--cpu", "-1"), &o, err) < 0, "a negative CPU is refused");
	ok(parse(3, ARGV("--format", "xml"), &o, err) < 0 && strstr(err, "xml"),
	   "an unknown format is refused: %s", err);
	ok(parse(2, ARGV("--bogus"), &o, err) < 0 && strstr(err, "--bogus"),
	   "an unknown option is refused: %s", err);
	ok(parse(2, ARGV("--cpu"), &o, err) < 0 && strstr(err, "needs a value"),
	   "a missing value is refused: %s", err);
	ok(parse(2, ARGV("extra"), &o, err) < 0 && strstr(err, "extra"),
	   "a stray argument is refused: %s", err);
	ok(parse(3, ARGV("-o", ""), &o, err) < 0, "an empty output name is refused");

	/* Ring 0. */
	ok(parse(1, none, &o, err) == 0 && o.ring0.mode == PC_RING0_AUTO &&
	   o.ring0.timeout_s == PC_RING0_TIMEOUT_DEFAULT_S && !o.ring0.module_path,
	   "ring 0 defaults: --ring0 auto, a %g s time limit, the default module",
	   PC_RING0_TIMEOUT_DEFAULT_S);
	{
		char *r0[] = { "run", "--ring0", "kmod", "--ring0-timeout", "2.5",
			       "--ring0-module", "m.ko", NULL };

		ok(parse(ARGC(r0), r0, &o, err) == 0 && o.ring0.mode == PC_RING0_KMOD &&
		   o.ring0.timeout_s == 2.5 && strcmp(o.ring0.module_path, "m.ko") == 0,
		   "--ring0, --ring0-timeout and --ring0-module land in their fields");
	}
	ok(parse(3, ARGV("--ring0", "none"), &o, err) == 0 && o.ring0.mode == PC_RING0_NONE,
	   "--ring0 none parses");
	ok(parse(3, ARGV("--ring0", "xen"), &o, err) < 0 && strstr(err, "xen"),
	   "an unknown --ring0 mode is refused: %s", err);
	ok(parse(3, ARGV("--ring0-timeout", "0"), &o, err) < 0 &&
	   parse(3, ARGV("--ring0-timeout", "-1"), &o, err) < 0 &&
	   parse(3, ARGV("--ring0-timeout", "nan"), &o, err) < 0 &&
	   parse(3, ARGV("--ring0-timeout", "5s"), &o, err) < 0,
	   "a time limit that is not 0.01..3600 seconds is refused: %s", err);
	/* events (-e, --keep-disturbed, --verbose) */
	ok(parse(1, (char *[]){ "run", NULL }, &o, err) == 0 && o.events.n == 0 && o.reject_disturbed &&
	   !o.verbose, "by default: no events, disturbed samples rejected, no verbose table");
	ok(parse(5, ARGV("-e", "perf::task-clock,perf::page-faults", "--keep-disturbed",
			 "-v"), &o, err) == 0 && o.events.n == 2 &&
	   strcmp(o.events.ev[1].name, "perf::page-faults") == 0 &&
	   !o.reject_disturbed && o.verbose, "-e, --keep-disturbed and -v land in their fields");
	ok(parse(3, ARGV("--events", "nosuch"), &o, err) < 0 && strstr(err, "nosuch") &&
	   strstr(err, "libpfm4"), "an unknown event is refused with libpfm4's reason: %s", err);
	ok(parse(5, ARGV("-e", "cycles", "-e", "instructions"), &o, err) < 0,
	   "-e given twice is refused: %s", err);
	ok(parse(1, none, &o, err) == 0 && !o.keep_contended &&
	   parse(2, ARGV("--keep-contended"), &o, err) == 0 && o.keep_contended,
	   "contended samples are dropped by default; --keep-contended keeps them");
	/* Reliability options. */
	ok(parse(1, none, &o, err) == 0 && o.probe_timeout_s < 0 && !o.save_partial,
	   "by default: the computed probe time limit, no --save-partial");
	near(pc_run_probe_timeout(&o, 0), 10 + 40 * (501 + 500) * 20e-6, 1e-9,
	     "the default probe time limit is 10 s + 40 x (samples + 500) x sample-us");
	near(pc_run_probe_timeout(&o, 50e-6), 10 + 40 * (501 + 500) * 50e-6, 1e-9,
	     "a timer whose steps make a sample last 50 us lengthens the limit");
	ok(parse(4, ARGV("--probe-timeout", "2.5", "--save-partial"), &o, err) == 0 &&
	   o.probe_timeout_s == 2.5 && o.save_partial && pc_run_probe_timeout(&o, 1) == 2.5,
	   "--probe-timeout 2.5 --save-partial land in their fields");
	ok(parse(3, ARGV("--probe-timeout", "0"), &o, err) == 0 &&
	   pc_run_probe_timeout(&o, 1) == 0, "--probe-timeout 0 means no limit");
	ok(parse(3, ARGV("--probe-timeout", "-1"), &o, err) < 0 &&
	   strstr(err, "--probe-timeout"), "a negative time limit is refused: %s", err);
	ok(parse(3, ARGV("--probe-timeout", "0.001"), &o, err) < 0,
	   "a time limit below 10 ms is refused");
	ok(parse(3, ARGV("--probe-timeout", "nan"), &o, err) < 0, "nan is refused");
	ok(parse(3, ARGV("--probes", ","), &o, err) < 0 && strstr(err, "no probe names"),
	   "a probe list of commas only is refused: %s", err);
	ok(parse(3, ARGV("--format", "a\nb"), &o, err) < 0 && !strchr(err, '\n'),
	   "an option value with a newline gives a one-line error: %s", err);
	ok(parse(2, ARGV("-qz"), &o, err) < 0 && strstr(err, "'-z'"),
	   "an unknown short option in a cluster is named: %s", err);
	/* another architecture through its probe runner */
	ok(parse(9, ARGV("--arch", "ia64", "--emulator", "/x/bski", "--runner", "r",
			 "--system-runner", "s"), &o, err) == 0 && o.arch &&
	   strcmp(o.arch, "ia64") == 0 && strcmp(o.emulator, "/x/bski") == 0 &&
	   strcmp(o.runner, "r") == 0 && strcmp(o.system_runner, "s") == 0,
	   "--arch ia64 with --emulator, --runner and --system-runner");
	ok(parse(3, ARGV("--arch", (char *)pc_arch_name), &o, err) == 0 && !o.arch,
	   "--arch naming this machine's architecture is a native run");
	ok(parse(3, ARGV("--arch", "sparc"), &o, err) < 0 && strstr(err, "sparc"),
	   "an architecture without a runner is refused: %s", err);
	ok(parse(3, ARGV("--emulator", "/x/bski"), &o, err) < 0 && strstr(err, "--arch"),
	   "--emulator without --arch is refused: %s", err);
	ok(parse(7, ARGV("--arch", "ia64", "--runner-output", "f", "--emulator", "e"),
		 &o, err) < 0, "--runner-output with --emulator is refused: %s", err);
	ok(parse(3, ARGV("--arch", ""), &o, err) < 0, "an empty --arch is refused");
	shared_functions();
	select_names();
	return done_testing();
}
