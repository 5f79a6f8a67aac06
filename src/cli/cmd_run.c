/* SPDX-License-Identifier: MIT */
/* cmd_run.c - primcost run: measure, save, show. */
#include <fcntl.h>
#include <stddef.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cmd_run.h"
#include "commands.h"
#include "events.h"
#include "contain.h"
#include "packed.h"
#include "report.h"
#include "runner_host.h"

#include <libgen.h>
#include <limits.h>

/* How long one execution of a probe runner may take (an emulator that
 * hangs must not hang primcost). */
#define PC_RUNNER_TIMEOUT_S 3600

static const char usage_text[] =
	"usage: primcost run [OPTIONS]\n"
	"\n"
	"Measure the probes on this CPU; print a table and merge the results\n"
	"into a JSON file under this CPU's model key.\n"
	"\n"
	"  -p, --probes LIST     names and shell globs, comma-separated (default: all)\n"
	"  -c, --cpu N           pin to CPU N (default: the CPU primcost starts on)\n"
	"  -n, --samples N       differential samples per probe (default 501)\n"
	"      --sample-us US    target length of one timed loop (default 20)\n"
	"  -k, --keep-samples    store every sample in the JSON (for compare)\n"
	"  -o, --output FILE     result file (default primcost.json; - = stdout, the\n"
	"                        JSON only); writers of one file take turns\n"
	"  -f, --format FMT      table, json, csv or markdown (default table)\n"
	"      --no-pmu          scale ticks by calibration even if a PMU exists\n"
	"      --ring0 MODE      ring-0 rows: auto, kvm, kmod or none (default auto)\n"
	"      --ring0-timeout S limit of one ring-0 guest call, seconds (default 10)\n"
	"      --ring0-module FILE  kernel module to load for kmod (default\n"
	"                        /lib/modules/RELEASE/extra/primcost_ring0.ko)\n"
	"  -e, --events LIST     also count these libpfm4 events per operation,\n"
	"                        comma-separated (see primcost list --events)\n"
	"      --keep-disturbed  keep samples that saw a context switch or migration\n"
	"      --keep-contended  keep samples taken while the core was shared\n"
	"  -v, --verbose         show discarded samples per probe in the table\n"
	"      --probe-timeout S seconds one probe may take; 0 = no limit\n"
	"                        (default 10 + 40 x (samples + 500) x sample-us)\n"
	"      --save-partial    on SIGINT, SIGTERM or SIGHUP, save what was measured\n"
	"                        (marked partial) instead of leaving the file as it was\n"
	"  -q, --quiet           no table, no progress\n"
	"      --status-fd FD    write progress lines to file descriptor FD\n"
	"  -h, --help            this help\n"
	"\n"
	"Allocator fast paths (malloc, free, malloc+free by size, 8 .. 16384):\n"
	"      --alloc           measure the allocator group (also: -p 'alloc.*')\n"
	"      --allocator LIST  glibc, jemalloc, tcmalloc, mimalloc (default glibc;\n"
	"                        implies --alloc)\n"
	"      --touch           write the first byte of every block allocated\n"
	"\n"
	"Contended primitives (lock.*, contended.*, c2c.latency), in windows:\n"
	"      --locks           measure the contended group (also: -p 'lock.*' ...);\n"
	"                        -n is then windows per point (default 15)\n"
	"      --threads LIST    thread counts (default 1, 2, 4, ... up to the CPUs)\n"
	"      --placement LIST  compact, spread or both (default compact)\n"
	"      --cpus LIST       run the threads on these CPUs, in this order; c2c:\n"
	"                        the first CPU with each other one\n"
	"      --matrix          c2c between every pair of CPUs: the cost grows as\n"
	"                        CPUs squared (64 CPUs: 2016 pairs)\n"
	"      --window-us US    length of one window (default 1000)\n"
	"\n"
	"Another architecture, through its freestanding probe runner:\n"
	"      --arch ARCH       measure ARCH (ia64) with its probe runner\n"
	"      --emulator PATH   run the runner in this simulator (ia64: Ski's bski)\n"
	"      --runner PATH     user-mode runner (default build-ARCH/primcost-runner)\n"
	"      --system-runner PATH  system-mode image for the ring-0 rows (default:\n"
	"                        primcost-runner-system next to the runner)\n"
	"      --runner-output FILE  read what a runner wrote where it ran (a real\n"
	"                        Itanium) instead of running it\n"
	"      --system-runner-output FILE  the same for the system-mode image\n"
	"                        (with --runner-output)\n";

enum { OPT_SAMPLE_US = 256, OPT_NO_PMU, OPT_RING0, OPT_RING0_TIMEOUT,
       OPT_RING0_MODULE, OPT_KEEP_DISTURBED, OPT_PROBE_TIMEOUT, OPT_SAVE_PARTIAL,
       OPT_KEEP_CONTENDED, OPT_STATUS_FD,
       OPT_ARCH, OPT_EMULATOR, OPT_RUNNER, OPT_SYSTEM_RUNNER, OPT_RUNNER_OUTPUT,
       OPT_SYSTEM_RUNNER_OUTPUT, OPT_ALLOC, OPT_ALLOCATOR, OPT_TOUCH,
       OPT_LOCKS, OPT_THREADS, OPT_PLACEMENT, OPT_CPUS, OPT_MATRIX, OPT_WINDOW_US };

static const struct option long_options[] = {
	{ "probes", required_argument, NULL, 'p' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "samples", required_argument, NULL, 'n' },
	{ "sample-us", required_argument, NULL, OPT_SAMPLE_US },
	{ "keep-samples", no_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "no-pmu", no_argument, NULL, OPT_NO_PMU },
	{ "ring0", required_argument, NULL, OPT_RING0 },
	{ "ring0-timeout", required_argument, NULL, OPT_RING0_TIMEOUT },
	{ "ring0-module", required_argument, NULL, OPT_RING0_MODULE },
	{ "events", required_argument, NULL, 'e' },
	{ "keep-disturbed", no_argument, NULL, OPT_KEEP_DISTURBED },
	{ "keep-contended", no_argument, NULL, OPT_KEEP_CONTENDED },
	{ "verbose", no_argument, NULL, 'v' },
	{ "probe-timeout", required_argument, NULL, OPT_PROBE_TIMEOUT },
	{ "save-partial", no_argument, NULL, OPT_SAVE_PARTIAL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "status-fd", required_argument, NULL, OPT_STATUS_FD },
	{ "help", no_argument, NULL, 'h' },
	{ "arch", required_argument, NULL, OPT_ARCH },
	{ "emulator", required_argument, NULL, OPT_EMULATOR },
	{ "runner", required_argument, NULL, OPT_RUNNER },
	{ "system-runner", required_argument, NULL, OPT_SYSTEM_RUNNER },
	{ "runner-output", required_argument, NULL, OPT_RUNNER_OUTPUT },
	{ "system-runner-output", required_argument, NULL, OPT_SYSTEM_RUNNER_OUTPUT },
	{ "alloc", no_argument, NULL, OPT_ALLOC },
	{ "allocator", required_argument, NULL, OPT_ALLOCATOR },
	{ "touch", no_argument, NULL, OPT_TOUCH },
	{ "locks", no_argument, NULL, OPT_LOCKS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "matrix", no_argument, NULL, OPT_MATRIX },
	{ "window-us", required_argument, NULL, OPT_WINDOW_US },
	{ NULL, 0, NULL, 0 },
};

/* An option parse in progress: where values go, what -f said, the error. */
struct run_parse {
	struct pc_run_options *o;
	const char *format_given;
	char *err;
	size_t errlen;
};

#define RUN_FIELD(f) offsetof(struct pc_run_options, f)

/* The options of another architecture's probe runner: each a path. */
static const struct {
	int opt;
	const char *name;
	size_t field;
} runner_options[] = {
	{ OPT_ARCH, "--arch", RUN_FIELD(arch) },
	{ OPT_EMULATOR, "--emulator", RUN_FIELD(emulator) },
	{ OPT_RUNNER, "--runner", RUN_FIELD(runner) },
	{ OPT_SYSTEM_RUNNER, "--system-runner", RUN_FIELD(system_runner) },
	{ OPT_RUNNER_OUTPUT, "--runner-output", RUN_FIELD(runner_output) },
	{ OPT_SYSTEM_RUNNER_OUTPUT, "--system-runner-output",
	  RUN_FIELD(system_runner_output) },
};

/* The options that set a flag: which, and to what. */
static const struct {
	int opt;
	size_t field;
	bool value;
} run_flags[] = {
	{ 'k', RUN_FIELD(keep_samples), true },
	{ OPT_NO_PMU, RUN_FIELD(pmu), false },
	{ OPT_KEEP_CONTENDED, RUN_FIELD(keep_contended), true },
	{ OPT_KEEP_DISTURBED, RUN_FIELD(reject_disturbed), false },
	{ 'v', RUN_FIELD(verbose), true },
	{ 'q', RUN_FIELD(quiet), true },
	{ OPT_SAVE_PARTIAL, RUN_FIELD(save_partial), true },
};

static int opt_flag(struct run_parse *p, int c, const char *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < PC_ARRAY_LEN(run_flags); i++) {
		if (run_flags[i].opt == c) {
			*(bool *)((char *)p->o + run_flags[i].field) = run_flags[i].value;
			return 0;
		}
	}
	return PC_OPT_NOT_MINE;
}

static void run_defaults(struct pc_run_options *o)
{
	memset(o, 0, sizeof(*o));
	o->probes = "*";
	o->cpu = -1;
	o->samples = 501;
	o->sample_us = 20;
	o->output = "primcost.json";
	o->format = PC_FORMAT_TABLE;
	o->pmu = true;
	o->ring0.mode = PC_RING0_AUTO;
	o->ring0.timeout_s = PC_RING0_TIMEOUT_DEFAULT_S;
	o->reject_disturbed = true;
	pc_events_init(&o->events);
	o->probe_timeout_s = -1;
	o->status_fd = -1;
}

/* An option the result records as given: refused now if the file could
 * not hold it, not after measuring. */
static int recordable(const char *opt, const char *arg, char *err, size_t errlen)
{
	if (strlen(arg) <= PC_LIMIT_STRING)
		return 0;
	snprintf(err, errlen, "%s: a list of %zu bytes (the result records at most %d)",
		 opt, strlen(arg), PC_LIMIT_STRING);
	return -1;
}

/* The options with a value, but for ring 0 and the probe runner: -p, -c,
 * -n, --sample-us, -e, -o, -f, --status-fd, --probe-timeout. */
static int opt_value(struct run_parse *p, int c, const char *arg)
{
	struct pc_run_options *o = p->o;
	long v;

	switch (c) {
	case 'p':
		if (recordable("--probes", arg, p->err, p->errlen) < 0)
			return -1;
		o->probes = arg;
		return 0;
	case 'c':
		return pc_opt_cpu(arg, &o->cpu, p->err, p->errlen);
	case 'n':
	case OPT_SAMPLE_US:
		if (c == 'n' ? pc_opt_long("--samples", arg, PC_SAMPLES_MIN,
					   PC_SAMPLES_MAX, "9..1000000", &v, p->err,
					   p->errlen) < 0 :
		    pc_opt_long("--sample-us", arg, 1, 1000000, "1..1000000", &v,
				p->err, p->errlen) < 0)
			return -1;
		*(c == 'n' ? &o->samples : &o->sample_us) = (unsigned)v;
		o->samples_given |= c == 'n';
		return 0;
	case 'e':
		if (o->events_list) {
			snprintf(p->err, p->errlen, "--events: give one list, comma-separated");
			return -1;
		}
		if (recordable("--events", arg, p->err, p->errlen) < 0)
			return -1;
		o->events_list = arg;
		return 0;
	case 'o':
		return pc_opt_nonempty("--output", arg, &o->output, p->err, p->errlen);
	case 'f':
		p->format_given = arg;
		return pc_opt_format(arg, &o->format, p->err, p->errlen);
	case OPT_STATUS_FD:
		if (pc_opt_long("--status-fd", arg, 0, INT_MAX, "a file descriptor "
				"number", &v, p->err, p->errlen) < 0)
			return -1;
		o->status_fd = (int)v;
		return 0;
	case OPT_PROBE_TIMEOUT:
		o->probe_timeout_s = pc_parse_double(arg, 0, 1e6);
		if (isnan(o->probe_timeout_s) ||
		    (o->probe_timeout_s > 0 && o->probe_timeout_s < 0.01)) {
			snprintf(p->err, p->errlen, "--probe-timeout: want 0 (no limit) or "
				 "0.01..1000000 seconds, got '%s'", arg);
			return -1;
		}
		return 0;
	}
	return PC_OPT_NOT_MINE;
}

/* The way into ring 0, and the probe runner of another architecture. */
static int opt_ring0_runner(struct run_parse *p, int c, const char *arg)
{
	struct pc_run_options *o = p->o;
	size_t i;

	switch (c) {
	case OPT_RING0:
		return pc_opt_ring0(arg, &o->ring0.mode, p->err, p->errlen);
	case OPT_RING0_TIMEOUT:
		return pc_opt_double("--ring0-timeout", arg, 0.01, 3600, "seconds in "
				     "0.01..3600", &o->ring0.timeout_s, p->err, p->errlen);
	case OPT_RING0_MODULE:
		return pc_opt_nonempty("--ring0-module", arg, &o->ring0.module_path,
				       p->err, p->errlen);
	}
	for (i = 0; i < PC_ARRAY_LEN(runner_options); i++)
		if (runner_options[i].opt == c)
			return pc_opt_nonempty(runner_options[i].name, arg,
					       (const char **)((char *)o + runner_options[i].field),
					       p->err, p->errlen);
	return PC_OPT_NOT_MINE;
}

/* The options that only make sense together. */
static int check_combinations(struct run_parse *p)
{
	struct pc_run_options *o = p->o;

	/* -o - puts the JSON result on standard output: a table there would
	 * make it unreadable, and dropping the -f asked for would be silent. */
	if (p->format_given && o->format != PC_FORMAT_JSON && strcmp(o->output, "-") == 0) {
		snprintf(p->err, p->errlen, "-f %s with -o -: standard output carries "
			 "the JSON result; give -o FILE for the %s", p->format_given,
			 o->format == PC_FORMAT_TABLE ? "table" : "report");
		return -1;
	}
	if (!o->arch && (o->emulator || o->runner || o->system_runner ||
			 o->runner_output || o->system_runner_output)) {
		snprintf(p->err, p->errlen, "--%s needs --arch", o->emulator ? "emulator" :
			 o->runner ? "runner" : o->system_runner ? "system-runner" :
			 o->runner_output ? "runner-output" : "system-runner-output");
		return -1;
	}
	if (o->system_runner_output && !o->runner_output) {
		snprintf(p->err, p->errlen, "--system-runner-output goes with "
			 "--runner-output (the user-mode output of the same runner)");
		return -1;
	}
	if (o->runner_output && (o->emulator || o->runner || o->system_runner)) {
		snprintf(p->err, p->errlen, "--runner-output reads a saved output: it "
			 "goes without --emulator, --runner and --system-runner");
		return -1;
	}
	if (o->arch && strcmp(o->arch, pc_arch_name) != 0 &&
	    !pc_runner_arch_find(o->arch)) {
		snprintf(p->err, p->errlen, "--arch: no probe runner for '%s' (this "
			 "build measures %s natively; runners: %s)", o->arch,
			 pc_arch_name, pc_runner_arch_list());
		return -1;
	}
	if (o->arch && strcmp(o->arch, pc_arch_name) == 0 && !o->runner &&
	    !o->emulator && !o->runner_output)
		o->arch = NULL;		/* this machine: the native run */
	return 0;
}

/* The allocator group: --alloc, --allocator, --touch. */
static int opt_alloc(struct run_parse *p, int c, const char *arg)
{
	struct pc_alloc_options *a = &p->o->alloc;

	if (c != OPT_ALLOC && c != OPT_ALLOCATOR && c != OPT_TOUCH)
		return PC_OPT_NOT_MINE;
	a->on |= c != OPT_TOUCH;
	a->touch |= c == OPT_TOUCH;
	if (c != OPT_ALLOCATOR)
		return 0;
	if (a->allocators) {
		snprintf(p->err, p->errlen, "--allocator: give one list, comma-separated");
		return -1;
	}
	a->allocators = arg;
	return pc_allocator_list_check(arg, p->err, p->errlen);
}

/* The allocator group: -p of alloc rows only selects it too; it runs on
 * this machine alone, with its own default samples (alloc.h) unless -n
 * says otherwise. */
static int finish_alloc(struct pc_run_options *o, char *err, size_t errlen)
{
	bool given = strcmp(o->probes, "*") != 0;

	if (given && pc_alloc_list_only(o->probes))
		o->alloc.on = true;
	if (!o->alloc.on) {
		if (o->alloc.touch) {
			snprintf(err, errlen, "--touch goes with the allocator group "
				 "(--alloc, --allocator or -p 'alloc.*')");
			return -1;
		}
		return 0;
	}
	if (o->arch) {
		snprintf(err, errlen, "--arch: the allocator group runs on this machine "
			 "only");
		return -1;
	}
	if (o->events_list) {
		snprintf(err, errlen, "--events: not counted for the allocator group");
		return -1;
	}
	if (!o->samples_given)
		o->samples = PC_ALLOC_SAMPLES;
	return pc_alloc_select(given ? o->probes : "alloc.*", o->alloc.rows, err, errlen);
}

/* The contended group: --locks, --threads, --placement, --cpus, --matrix,
 * --window-us; each but --window-us selects the group. */
static int opt_contend(struct run_parse *p, int c, const char *arg)
{
	struct pc_contend_options *k = &p->o->contend;
	int v[PC_CONTEND_THREADS_MAX];
	unsigned n;
	long w;

	switch (c) {
	case OPT_LOCKS:
	case OPT_MATRIX:
		k->matrix |= c == OPT_MATRIX;
		k->on |= c == OPT_LOCKS;
		break;
	case OPT_THREADS:
		k->threads = arg;
		return pc_contend_list("--threads", arg, v, 64, &n, p->err, p->errlen);
	case OPT_PLACEMENT:
		k->placement = arg;
		break;
	case OPT_CPUS:
		k->cpus = arg;
		return pc_contend_list("--cpus", arg, v, PC_CONTEND_THREADS_MAX, &n, p->err,
				       p->errlen);
	case OPT_WINDOW_US:
		if (pc_opt_long("--window-us", arg, 100, 10000000, "100..10000000", &w,
				p->err, p->errlen) < 0)
			return -1;
		k->window_us = (unsigned)w;
		return 0;
	default:
		return PC_OPT_NOT_MINE;
	}
	return 0;
}

/* The contended group: selected by its options or by -p of its rows only;
 * on this machine alone, 15 windows a point unless -n. */
static int finish_contend(struct run_parse *p)
{
	struct pc_run_options *o = p->o;
	struct pc_contend_options *k = &o->contend;
	bool given = strcmp(o->probes, "*") != 0;

	k->on = k->matrix || k->threads || k->placement || k->cpus || k->on ||
		(given && pc_contend_list_only(o->probes));
	if (!k->on) {
		if (k->window_us) {
			snprintf(p->err, p->errlen, "--window-us goes with the contended "
				 "group (--locks or -p 'lock.*')");
			return -1;
		}
		return 0;
	}
	if (o->alloc.on || o->arch || o->events_list) {
		snprintf(p->err, p->errlen, "the contended group runs alone, on this "
			 "machine, without %s", o->alloc.on ? "the allocator group" :
			 o->arch ? "--arch" : "--events");
		return -1;
	}
	if (!o->samples_given)
		o->samples = PC_CONTEND_SAMPLES;
	return pc_contend_select(given ? o->probes : "lock.*,contended.*,c2c.*",
				 k->kinds, p->err, p->errlen);
}

/* Gives option c to the group that takes it. */
static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	static int (*const groups[])(struct run_parse *, int, const char *) = {
		opt_flag, opt_value, opt_ring0_runner, opt_alloc, opt_contend,
	};
	size_t g;
	int rc = PC_OPT_NOT_MINE;

	(void)err;	/* p has them */
	(void)errlen;
	for (g = 0; rc == PC_OPT_NOT_MINE && g < PC_ARRAY_LEN(groups); g++)
		rc = groups[g](ctx, c, arg);
	return rc;
}

static int parse(int argc, char **argv, struct run_parse *p)
{
	int rc;

	run_defaults(p->o);
	p->o->alloc.argv = argv;	/* to run again (alloc.h) */
	rc = pc_options_parse(argc, argv, ":p:c:n:ko:f:qhe:v", long_options, take_option,
			      p, p->err, p->errlen);
	if (rc != 0)
		return rc;
	if (pc_no_operand(argc, argv, p->err, p->errlen) < 0)
		return -1;
	if (check_combinations(p) < 0 || finish_alloc(p->o, p->err, p->errlen) < 0 ||
	    finish_contend(p) < 0 ||
	    (!p->o->alloc.on && !p->o->contend.on &&
	     pc_select_probes(p->o->probes, p->o->selected, p->err, p->errlen) < 0))
		return -1;
	if (p->o->events_list &&
	    pc_events_parse(p->o->events_list, &p->o->events, p->err, p->errlen) < 0)
		return -1;
	return 0;
}

int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen)
{
	struct run_parse p = { o, NULL, err, errlen };

	return pc_options_end(parse(argc, argv, &p), err, errlen);
}

double pc_run_probe_timeout(const struct pc_run_options *o, double sample_floor_s)
{
	double sample_s = (double)o->sample_us * 1e-6;

	if (o->probe_timeout_s >= 0)
		return o->probe_timeout_s;
	if (sample_floor_s > sample_s)	/* a coarse timer makes samples longer */
		sample_s = sample_floor_s;
	return 10.0 + 40.0 * ((double)o->samples + 500.0) * sample_s;
}

/* The shortest sample the timer allows (pc_sample_ticks), in seconds. */
static double sample_floor(const struct pc_run_options *o, const struct pc_clock *clk)
{
	return clk && clk->tick_hz > 0 ?
	       pc_sample_ticks(clk, (double)o->sample_us * 1e-6) / clk->tick_hz : 0;
}

/* The runner bootstrap builds: build-ARCH/ next to the primcost program,
 * else in the current directory. */
static void default_runner(const char *arch, const char *file, char *out, size_t len)
{
	const struct pc_runner_arch *ra = pc_runner_arch_find(arch);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = 0;
		snprintf(out, len, "%s/%s/%s", dirname(exe), ra->build_dir, file);
		if (access(out, F_OK) == 0)
			return;
	}
	snprintf(out, len, "%s/%s", ra->build_dir, file);
}

/* Measures through the probe runner: fills what a native run would. */
static int run_remote(const struct pc_run_options *o, struct pc_cpu_info *ci,
		      struct pc_clock *clk, struct pc_profile *prof, json_t **extra,
		      char *err, size_t errlen)
{
	struct pc_runner_request rq;
	char runner[PATH_MAX], system_runner[PATH_MAX];

	memset(&rq, 0, sizeof(rq));
	rq.arch = o->arch;
	rq.emulator = o->emulator;
	if (o->runner)
		snprintf(runner, sizeof(runner), "%s", o->runner);
	else
		default_runner(o->arch, "primcost-runner", runner, sizeof(runner));
	if (o->system_runner) {
		snprintf(system_runner, sizeof(system_runner), "%s", o->system_runner);
	} else {
		char copy[PATH_MAX];

		snprintf(copy, sizeof(copy), "%s", runner);
		snprintf(system_runner, sizeof(system_runner), "%s/primcost-runner-system",
			 dirname(copy));
	}
	rq.runner = runner;
	rq.system_runner = system_runner;
	rq.runner_output = o->runner_output;
	rq.system_runner_output = o->system_runner_output;
	rq.samples = o->samples;
	rq.sample_us = o->sample_us;
	rq.timeout_s = PC_RUNNER_TIMEOUT_S;
	rq.keep_samples = o->keep_samples;
	rq.progress = !o->quiet && isatty(STDERR_FILENO);
	rq.status_fd = o->status_fd;
	return pc_runner_measure(&rq, o->selected, ci, clk, prof, extra, err, errlen);
}

static json_t *options_json(const struct pc_run_options *o, int cpu,
			    const struct pc_clock *clk)
{
	json_t *j = json_pack("{s:s, s:i, s:i, s:i, s:b, s:b, s:s, s:f, s:s, s:b, s:b, s:f}",
			 "probes", o->probes, "cpu", cpu, "samples", (int)o->samples,
			 "sample_us", (int)o->sample_us, "keep_samples",
			 o->keep_samples, "pmu", o->pmu,
			 "ring0", pc_ring0_mode_name(o->ring0.mode),
			 "ring0_timeout_s", o->ring0.timeout_s, "events",
			 o->events_list ? o->events_list : "",
			 "reject_disturbed", o->reject_disturbed,
			 "keep_contended", o->keep_contended,
			 "probe_timeout_s", pc_run_probe_timeout(o, sample_floor(o, clk)));

	if (j && o->arch)
		json_object_set_new(j, "arch", json_string(o->arch));
	return j;
}

/* Is any selected row a ring-0 one? Only then is a way into ring 0 opened. */
static bool wants_ring0(const struct pc_run_options *o)
{
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++)
		if (o->selected[id] && pc_probe_rows[id].ring == 0)
			return true;
	return false;
}

/* One line per reason for the events that will not be counted, and for a
 * disturbance check that cannot run: the run goes on without them. */
static void warn_uncounted(const struct pc_events *e, bool reject)
{
	bool done[PC_EVENTS_MAX] = { false };
	char names[PC_ERRLEN];
	unsigned i, k;
	size_t at;

	for (i = 0; i < e->n; i++) {
		if (e->ev[i].counted || done[i])
			continue;
		at = (size_t)snprintf(names, sizeof(names), "%s", e->ev[i].name);
		for (k = i + 1; k < e->n; k++) {
			if (!e->ev[k].counted && !done[k] &&
			    strcmp(e->ev[k].reason, e->ev[i].reason) == 0) {
				if (at < sizeof(names))
					at += (size_t)snprintf(names + at, sizeof(names) - at,
							       ", %s", e->ev[k].name);
				done[k] = true;
			}
		}
		pc_error("run", "%s: not counted: %s", names, e->ev[i].reason);
	}
	if (reject && !e->reject)
		pc_error("run", "disturbed samples cannot be detected: %s",
			 e->reject_reason);
}

static int any_failed(const struct pc_profile *prof)
{
	size_t i;

	for (i = 0; i < prof->nprobes; i++)
		if (prof->probes[i].status == PC_STATUS_FAILED)
			return 1;
	return 0;
}

/* Probes an interrupted run measured, at least partly. */
static size_t count_measured(const struct pc_profile *prof)
{
	size_t i, n = 0;

	for (i = 0; i < prof->nprobes; i++)
		n += prof->probes[i].samples > 0;
	return n;
}

/* A partial run files only what it measured: a probe it never reached
 * must not replace an earlier figure of that probe. */
static void drop_unmeasured(json_t *probes, const struct pc_profile *prof)
{
	size_t i;

	for (i = 0; i < prof->nprobes; i++)
		if (prof->probes[i].partial && !prof->probes[i].samples)
			json_object_del(probes, pc_probe_rows[prof->probes[i].id].name);
}

/*
 * Files the run (entry of a one-run document; keep: the probes to file,
 * taken) into output. Writers of one file take turns: under the lock on the
 * file (its symbolic link's target) it is read again, since another primcost
 * may have written it while this one measured, and replaced with the run
 * added. With may_stop, an interruption while waiting for the lock gives up
 * (*stopped set) and leaves the file as it was.
 */
static int save_run(const char *output, const char *key, json_t *entry, json_t *keep,
		    bool may_stop, int *stopped, char *err, size_t errlen)
{
	struct pc_output dest;
	json_t *doc;
	int rc = PC_OUT_LOCK_LOST;

	/* a lock lost to its file's removal: read, add and write again */
	while (rc == PC_OUT_LOCK_LOST) {
		doc = pc_output_open(output, "run", may_stop ? pc_interrupted : NULL,
				     stopped, &dest, err, errlen);
		if (!doc)
			break;
		rc = pc_doc_add_run(doc, key, json_deep_copy(json_object_get(entry, "cpu")),
				    json_deep_copy(json_array_get(json_object_get(entry, "runs"), 0)),
				    json_deep_copy(keep), err, errlen);
		if (rc == 0) {
			pc_doc_pack_raw(doc);	/* raw samples an older primcost wrote */
			rc = pc_doc_write_locked(doc, dest.target, &dest.lock_fd,
						 dest.read_existed ? &dest.read_st : NULL,
						 err, errlen);
		}
		json_decref(doc);
		pc_output_close(&dest);
	}
	json_decref(keep);
	return rc < 0 ? -1 : 0;
}

/* Measures this machine: detect, pin, clock, events, ring 0, the profile.
 * On an error what it opened is closed again. */
static int run_native(struct pc_run_options *o, struct pc_cpu_info *ci,
		      struct pc_clock *clk, struct pc_profile *prof,
		      struct pc_ring0 **r0, int *cpu_no, struct pc_alloc_run *ar,
		      struct pc_contend_run *cr, char *err, size_t errlen)
{
	struct pc_measure_config cfg;
	char why[256];

	if (o->alloc.on && pc_alloc_open(&o->alloc, ar, err, errlen) < 0)
		return -1;
	/* The CPUs allowed are read before this thread is pinned. */
	if (o->contend.on && pc_contend_plan(&o->contend, cr, err, errlen) < 0)
		return -1;
	if (pc_cpu_detect(ci, err, errlen) < 0)
		return -1;
	*cpu_no = pc_pin_cpu(o->cpu, why, sizeof(why));
	if (*cpu_no < 0) {
		if (o->cpu >= 0)
			snprintf(err, errlen, "--cpu %d: %s", o->cpu, why);
		else
			snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (pc_clock_init(clk, o->pmu, err, errlen) < 0)
		return -1;
	if (pc_events_open(&o->events, o->reject_disturbed, err, errlen) < 0) {
		pc_clock_close(clk);
		return -1;
	}
	warn_uncounted(&o->events, o->reject_disturbed);

	memset(&cfg, 0, sizeof(cfg));
	cfg.samples = o->samples;
	cfg.sample_s = o->sample_us * 1e-6;
	cfg.keep_samples = o->keep_samples;
	cfg.progress = !o->quiet && isatty(STDERR_FILENO);
	cfg.status_fd = o->status_fd;
	cfg.cpu = *cpu_no;
	cfg.emulated = ci->emulated[0] != 0;
	if (wants_ring0(o)) {
		*r0 = pc_ring0_open(&o->ring0);
		if (!*r0) {
			snprintf(err, errlen, "out of memory");
			pc_events_close(&o->events);
			pc_clock_close(clk);
			return -1;
		}
		cfg.ring0 = *r0;
	}
	cfg.events = &o->events;
	cfg.probe_timeout_s = pc_run_probe_timeout(o, sample_floor(o, clk));
	cfg.keep_contended = o->keep_contended;
	if ((o->alloc.on ? pc_alloc_measure(&o->alloc, ar, &cfg, clk, prof, err, errlen) :
	     o->contend.on ? pc_contend_measure(cr, &cfg, clk, prof, err, errlen) :
	     pc_profile_run(o->selected, &cfg, clk, prof, err, errlen)) < 0) {
		pc_ring0_close(*r0);
		*r0 = NULL;
		pc_events_close(&o->events);
		pc_clock_close(clk);
		return -1;
	}
	return 0;
}

/* --status-fd must name a descriptor open for writing. A reader that goes
 * away must not kill the run: SIGPIPE is then ignored (writes fail). */
static int status_fd_open(int fd, char *err, size_t errlen)
{
	int fl;

	if (fd < 0)
		return 0;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		snprintf(err, errlen, "--status-fd %d: %s", fd, fl < 0 ?
			 "not an open file descriptor" : "not open for writing");
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* Refuses before measuring: a bad --status-fd, an unwritable destination,
 * an existing file that is not a valid result (a merge would lose it). The
 * file is read again when the run is filed: others may write it meanwhile.
 * 0, or -1 after the error said. */
static int run_preflight(const struct pc_run_options *o)
{
	char err[PC_ERRLEN];
	json_t *doc = NULL;
	int missing = 0;

	if (status_fd_open(o->status_fd, err, sizeof(err)) < 0)
		goto refused;
	if (strcmp(o->output, "-") == 0)
		return 0;
	if (pc_check_writable(o->output, err, sizeof(err)) < 0)
		goto refused;
	doc = pc_doc_load(o->output, &missing, err, sizeof(err));
	if (!doc && !missing) {
		pc_error("run", "%s (refusing to replace it; move it away or choose "
			 "another -o)", err);
		return -1;
	}
	json_decref(doc);
	return 0;
refused:
	pc_error("run", "%s", err);
	return -1;
}

/* A run from its options to its result. */
struct run_state {
	struct pc_run_options o;
	struct pc_cpu_info ci;
	struct pc_clock clk;
	struct pc_profile prof;
	struct pc_ring0 *r0;
	struct pc_alloc_run alloc;	/* the allocator group's allocators */
	struct pc_contend_run contend;	/* the contended group's points */
	json_t *extra;		/* what a probe runner adds to the run */
	int cpu_no;
	int sig;		/* the signal that interrupted it; 0: none */
};

/* Measures, natively or through the probe runner; -1 with err. */
static int measure(struct run_state *r, char *err, size_t errlen)
{
	int rc;

	if (r->o.arch) {
		r->cpu_no = -1;
		rc = run_remote(&r->o, &r->ci, &r->clk, &r->prof, &r->extra, err, errlen);
	} else {
		rc = run_native(&r->o, &r->ci, &r->clk, &r->prof, &r->r0, &r->cpu_no,
				&r->alloc, &r->contend, err, errlen);
	}
	if (rc < 0)
		return -1;
	/* Under an emulator every timing is the emulator's, whatever the
	 * calibration says. */
	if (r->ci.emulated[0]) {
		r->prof.unreliable = true;
		snprintf(r->prof.unreliable_reason, sizeof(r->prof.unreliable_reason),
			 "emulated: %s", r->ci.emulated);
	}
	return 0;
}

/* Interrupted with nothing to save: says what was left; the exit status. */
static int not_saved(const struct run_state *r)
{
	char left[PC_ERRLEN];

	if (strcmp(r->o.output, "-") == 0)
		snprintf(left, sizeof(left), "nothing written");
	else
		snprintf(left, sizeof(left), "%s left as it was", r->o.output);
	pc_error("run", "interrupted by %s%s; %s%s", pc_signal_name(r->sig),
		 r->o.save_partial ? " before any probe was measured" : "", left,
		 r->o.save_partial ? "" : " (--save-partial keeps what was measured)");
	return PC_EXIT_SIGNAL + r->sig;
}

/* The one-run document of this run; NULL after the error said. */
static json_t *build_doc(struct run_state *r)
{
	char err[PC_ERRLEN] = "out of memory";
	json_t *cpu, *run, *probes, *doc;

	cpu = pc_json_cpu(&r->ci, &r->clk, r->prof.cycles_per_tick);
	run = pc_json_run(&r->ci, &r->clk, &r->prof, options_json(&r->o, r->cpu_no, &r->clk));
	if (run && r->r0)
		json_object_set_new(run, "ring0", pc_ring0_json(r->r0));
	if (run && r->extra)
		json_object_update(run, r->extra);
	json_decref(r->extra);
	r->extra = NULL;
	if (run)
		pc_json_run_events(run, &r->o.events);
	if (run && r->o.alloc.on)
		json_object_set_new(run, "alloc", pc_alloc_json_allocators(&r->alloc,
								      r->o.alloc.touch));
	if (run && r->o.contend.on)
		json_object_set_new(run, "contend", pc_contend_json_run(&r->contend));
	probes = r->o.alloc.on ? pc_alloc_json_probes(&r->alloc, &r->prof) :
		 r->o.contend.on ? pc_contend_json_probes(&r->contend, &r->prof) :
		 pc_json_probes(&r->prof, &r->clk);
	doc = pc_doc_new();
	if (!cpu || !run || !probes || !doc ||
	    pc_doc_add_run(doc, r->ci.key, cpu, run, probes, err, sizeof(err)) < 0) {
		pc_error("run", "cannot build the result: %s", err);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* Writes the run (to standard output, or filed into -o) and shows it; the
 * exit status. */
static int file_result(struct run_state *r, json_t *run_doc)
{
	const struct pc_run_options *o = &r->o;
	char err[PC_ERRLEN];
	json_t *entry = json_object_get(json_object_get(run_doc, "cpus"), r->ci.key);
	json_t *keep;
	int stopped = 0;

	if (strcmp(o->output, "-") == 0) {
		if (pc_doc_write(run_doc, "-", err, sizeof(err)) < 0) {
			pc_error("run", "%s", err);
			return PC_EXIT_USAGE;
		}
		return -1;
	}
	keep = json_deep_copy(json_object_get(entry, "probes"));
	if (r->sig && !o->alloc.on && !o->contend.on)
		drop_unmeasured(keep, &r->prof);
	if (save_run(o->output, r->ci.key, entry, keep, !r->sig, &stopped, err,
		     sizeof(err)) < 0) {
		pc_error("run", "%s", err);
		return stopped ? PC_EXIT_SIGNAL + pc_interrupted() : PC_EXIT_USAGE;
	}
	if (r->sig)
		pc_error("run", "interrupted by %s: %zu of %zu probes measured, saved "
			 "(marked partial) under \"%s\" in %s", pc_signal_name(r->sig),
			 count_measured(&r->prof), r->prof.nprobes, r->ci.key, o->output);
	if (!o->quiet) {
		if (o->contend.on && o->format == PC_FORMAT_TABLE)
			pc_contend_report(stdout, run_doc);
		else if (o->alloc.on && o->format == PC_FORMAT_TABLE)
			pc_alloc_report(stdout, run_doc);
		else if (o->alloc.on && o->format != PC_FORMAT_JSON)
			pc_alloc_report_as(stdout, run_doc, o->format == PC_FORMAT_CSV);
		else if (o->contend.on && o->format != PC_FORMAT_JSON)
			pc_contend_report_as(stdout, run_doc, o->format == PC_FORMAT_CSV);
		else
			pc_report_verbose(stdout, run_doc, o->format, o->verbose);
		if (o->format == PC_FORMAT_TABLE)
			printf("\n%zu %s in %.2f s; saved under \"%s\" in %s\n",
			       r->prof.nprobes, o->alloc.on || o->contend.on ? "points" :
			       "probes",
			       r->prof.wall_s, pc_shown(r->ci.key), pc_shown(o->output));
	}
	return -1;
}

int cmd_run(int argc, char **argv)
{
	struct run_state r;
	char err[PC_ERRLEN];
	json_t *run_doc;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = pc_run_options_parse(argc, argv, &r.o, err, sizeof(err));
	if (rc != 0)
		return pc_options_exit("run", rc, usage_text, err);
	if (run_preflight(&r.o) < 0)
		return PC_EXIT_USAGE;
	/* From here on, SIGINT, SIGTERM and SIGHUP stop the run in an orderly
	 * way: the file is left as it was, or gets what was measured. */
	pc_interrupts_catch();
	if (measure(&r, err, sizeof(err)) < 0) {
		pc_error("run", "%s", err);
		pc_interrupts_release();
		return PC_EXIT_USAGE;
	}
	/* Interrupted (during the run, or since): nothing is written unless
	 * --save-partial asks, and then only what was measured. */
	r.sig = r.prof.interrupted ? r.prof.interrupted : pc_interrupted();
	if (r.sig && (!r.o.save_partial || !count_measured(&r.prof))) {
		rc = not_saved(&r);
	} else if (!(run_doc = build_doc(&r))) {
		rc = PC_EXIT_USAGE;
	} else {
		rc = file_result(&r, run_doc);
		if (rc < 0 && !r.sig && pc_interrupted()) {
			/* after the measuring: it takes effect after the rename */
			r.sig = pc_interrupted();
			pc_error("run", "interrupted by %s after the run was saved in %s",
				 pc_signal_name(r.sig), r.o.output);
		}
		if (rc < 0)
			rc = r.sig ? PC_EXIT_SIGNAL + r.sig : any_failed(&r.prof) ?
			     PC_EXIT_FAILURE : PC_EXIT_OK;
		json_decref(run_doc);
	}
	pc_alloc_close(&r.alloc);
	pc_contend_close(&r.contend);
	pc_ring0_close(r.r0);
	pc_interrupts_release();
	pc_profile_free(&r.prof);
	pc_events_close(&r.o.events);
	pc_clock_close(&r.clk);
	return rc;
}
