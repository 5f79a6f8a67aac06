/* primcost run's option parsing, apart from any measurement. */
#include <string.h>

#include "cmd_run.h"
#include "tap.h"

#define ARGV(...) ((char *[]){ "run", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(char *)) - 1)

static int parse(int argc, char **argv, struct pc_run_options *o, char *err)
{
	return pc_run_options_parse(argc, argv, o, err, PC_ERRLEN);
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
				"-n", "99", "--sample-us", "50", "-k", "-o", "-",
				"-f", "csv", "--no-pmu", "-q", NULL };

		ok(parse(ARGC(all), all, &o, err) == 0, "every option together parses");
	}
	ok(o.selected[PC_PROBE_calib_add_chain] && o.selected[PC_PROBE_calib_mul_chain] &&
	   o.selected[PC_PROBE_cmpxchg] && !o.selected[PC_PROBE_cmpxchg_local] &&
	   !o.selected[PC_PROBE_baseline], "a glob and a name select exactly their probes");
	ok(o.cpu == 1 && o.samples == 99 && o.sample_us == 50 && o.keep_samples &&
	   strcmp(o.output, "-") == 0 && o.format == PC_FORMAT_CSV && !o.pmu && o.quiet,
	   "every option lands in its field");

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
	return done_testing();
}
