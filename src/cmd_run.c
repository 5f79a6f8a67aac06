/* SPDX-License-Identifier: MIT */
/* cmd_run.c - primcost run: measure, save, show. */
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	"      --ring0 MODE      how ring-0 rows run: auto, kvm, kmod or none (default auto)\n"
	"      --ring0-timeout S time limit of one ring-0 guest call, seconds (default 10)\n"
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
       OPT_SYSTEM_RUNNER_OUTPUT, OPT_ALLOC, OPT_ALLOCATOR, OPT_TOUCH };

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
	{ NULL, 0, NULL, 0 },
};

static int parse(int argc, char **argv, struct pc_run_options *o, char *err,
		 size_t errlen);

int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen)
{
	int rc = parse(argc, argv, o, err, errlen);

	if (rc < 0)
		pc_one_line(err);
	return rc;
}

double pc_run_probe_timeout(const struct pc_run_options *o)
{
	if (o->probe_timeout_s >= 0)
		return o->probe_timeout_s;
	return 10.0 + 40.0 * ((double)o->samples + 500.0) * (double)o->sample_us * 1e-6;
}

static int parse_alloc(int c, const char *arg, char **argv, struct pc_run_options *o,
		       char *err, size_t errlen)
{
	o->alloc.on |= c != OPT_TOUCH;
	o->alloc.argv = argv;
	if (c == OPT_TOUCH)
		o->alloc.touch = true;
	if (c != OPT_ALLOCATOR)
		return 0;
	if (o->alloc.allocators) {
		snprintf(err, errlen, "--allocator: give one list, comma-separated");
		return -1;
	}
	o->alloc.allocators = arg;
	return pc_allocator_list_check(arg, err, errlen);
}

/* The allocator group: -p of alloc rows only selects it too; it runs on
 * this machine alone, and 101 samples a point unless -n says otherwise. */
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
		o->samples = PC_SAMPLES_DEFAULT;
	return pc_alloc_select(given ? o->probes : "alloc.*", o->alloc.rows, err, errlen);
}

static int parse(int argc, char **argv, struct pc_run_options *o, char *err,
		 size_t errlen)
{
	char opt[64];
	int c;
	long v;
	double d;
	char *end;
	const char *format_given = NULL;

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
	optind = 0;	/* full reset: tests parse several argument vectors */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:c:n:ko:f:qhe:v", long_options, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->probes = optarg;
			break;
		case 'c':
			v = pc_parse_long(optarg, 0, 4095);
			if (v < 0) {
				snprintf(err, errlen, "--cpu: not a CPU number: '%s'", optarg);
				return -1;
			}
			o->cpu = (int)v;
			break;
		case 'n':
			v = pc_parse_long(optarg, 9, 1000000);
			if (v < 0) {
				snprintf(err, errlen, "--samples: want 9..1000000, got '%s'",
					 optarg);
				return -1;
			}
			o->samples = (unsigned)v;
			o->samples_given = true;
			break;
		case OPT_SAMPLE_US:
			v = pc_parse_long(optarg, 1, 1000000);
			if (v < 0) {
				snprintf(err, errlen, "--sample-us: want 1..1000000, got '%s'",
					 optarg);
				return -1;
			}
			o->sample_us = (unsigned)v;
			break;
		case 'k':
			o->keep_samples = true;
			break;
		case 'o':
			if (!*optarg) {
				snprintf(err, errlen, "--output: empty file name");
				return -1;
			}
			o->output = optarg;
			break;
		case 'f':
			if (pc_format_parse(optarg, &o->format) < 0) {
				snprintf(err, errlen, "--format: want table, json, csv or "
					 "markdown, got '%s'", optarg);
				return -1;
			}
			format_given = optarg;
			break;
		case OPT_NO_PMU:
			o->pmu = false;
			break;
		case OPT_RING0:
			if (pc_ring0_mode_parse(optarg, &o->ring0.mode) < 0) {
				snprintf(err, errlen, "--ring0: want auto, kvm, kmod or "
					 "none, got '%s'", optarg);
				return -1;
			}
			break;
		case OPT_RING0_TIMEOUT:
			d = strtod(optarg, &end);
			if (end == optarg || *end || !(d >= 0.01 && d <= 3600)) {
				snprintf(err, errlen, "--ring0-timeout: want seconds in "
					 "0.01..3600, got '%s'", optarg);
				return -1;
			}
			o->ring0.timeout_s = d;
			break;
		case OPT_RING0_MODULE:
			if (!*optarg) {
				snprintf(err, errlen, "--ring0-module: empty file name");
				return -1;
			}
			o->ring0.module_path = optarg;
			break;
		case 'e':
			if (o->events_list) {
				snprintf(err, errlen, "--events: give one list, "
					 "comma-separated");
				return -1;
			}
			o->events_list = optarg;
			break;
		case OPT_KEEP_CONTENDED:
			o->keep_contended = true;
			break;
		case OPT_KEEP_DISTURBED:
			o->reject_disturbed = false;
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_PROBE_TIMEOUT:
			d = pc_parse_double(optarg, 0, 1e6);
			if (isnan(d) || (d > 0 && d < 0.01)) {
				snprintf(err, errlen, "--probe-timeout: want 0 (no limit) or "
					 "0.01..1000000 seconds, got '%s'", optarg);
				return -1;
			}
			o->probe_timeout_s = d;
			break;
		case OPT_SAVE_PARTIAL:
			o->save_partial = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_STATUS_FD:
			v = pc_parse_long(optarg, 0, INT_MAX);
			if (v < 0) {
				snprintf(err, errlen, "--status-fd: want a file descriptor "
					 "number, got '%s'", optarg);
				return -1;
			}
			o->status_fd = (int)v;
			break;
		case OPT_ARCH:
		case OPT_EMULATOR:
		case OPT_RUNNER:
		case OPT_SYSTEM_RUNNER:
		case OPT_RUNNER_OUTPUT:
		case OPT_SYSTEM_RUNNER_OUTPUT:
			if (!*optarg) {
				snprintf(err, errlen, "%s: empty value", argv[optind - 1]);
				return -1;
			}
			if (c == OPT_ARCH)
				o->arch = optarg;
			else if (c == OPT_EMULATOR)
				o->emulator = optarg;
			else if (c == OPT_RUNNER)
				o->runner = optarg;
			else if (c == OPT_SYSTEM_RUNNER)
				o->system_runner = optarg;
			else if (c == OPT_RUNNER_OUTPUT)
				o->runner_output = optarg;
			else
				o->system_runner_output = optarg;
			break;
		case OPT_ALLOC:
		case OPT_ALLOCATOR:
		case OPT_TOUCH:
			if (parse_alloc(c, optarg, argv, o, err, errlen) < 0)
				return -1;
			break;
		case 'h':
			return 1;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value",
				 pc_bad_option(argv, c, opt, sizeof(opt)));
			return -1;
		default:
			snprintf(err, errlen, "unknown option '%s'",
				 pc_bad_option(argv, c, opt, sizeof(opt)));
			return -1;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	/* -o - puts the JSON result on standard output: a table there would
	 * make it unreadable, and dropping the -f asked for would be silent. */
	if (format_given && o->format != PC_FORMAT_JSON && strcmp(o->output, "-") == 0) {
		snprintf(err, errlen, "-f %s with -o -: standard output carries the JSON "
			 "result; give -o FILE for the %s", format_given,
			 o->format == PC_FORMAT_TABLE ? "table" : "report");
		return -1;
	}
	if (!o->arch && (o->emulator || o->runner || o->system_runner ||
			 o->runner_output || o->system_runner_output)) {
		snprintf(err, errlen, "--%s needs --arch", o->emulator ? "emulator" :
			 o->runner ? "runner" : o->system_runner ? "system-runner" :
			 o->runner_output ? "runner-output" : "system-runner-output");
		return -1;
	}
	if (o->system_runner_output && !o->runner_output) {
		snprintf(err, errlen, "--system-runner-output goes with --runner-output "
			 "(the user-mode output of the same runner)");
		return -1;
	}
	if (o->runner_output && (o->emulator || o->runner || o->system_runner)) {
		snprintf(err, errlen, "--runner-output reads a saved output: it goes "
			 "without --emulator, --runner and --system-runner");
		return -1;
	}
	if (o->arch && strcmp(o->arch, pc_arch_name) != 0 &&
	    !pc_runner_arch_find(o->arch)) {
		snprintf(err, errlen, "--arch: no probe runner for '%s' (this build "
			 "measures %s natively; runners: %s)", o->arch, pc_arch_name,
			 pc_runner_arch_list());
		return -1;
	}
	if (o->arch && strcmp(o->arch, pc_arch_name) == 0 && !o->runner &&
	    !o->emulator && !o->runner_output)
		o->arch = NULL;		/* this machine: the native run */
	if (finish_alloc(o, err, errlen) < 0)
		return -1;
	if (!o->alloc.on && pc_select_probes(o->probes, o->selected, err, errlen) < 0)
		return -1;
	if (o->events_list &&
	    pc_events_parse(o->events_list, &o->events, err, errlen) < 0)
		return -1;
	return 0;
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

static json_t *options_json(const struct pc_run_options *o, int cpu)
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
			 "probe_timeout_s", pc_run_probe_timeout(o));

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
	unsigned i, k;

	for (i = 0; i < e->n; i++) {
		if (e->ev[i].counted || done[i])
			continue;
		fprintf(stderr, "primcost: run: %s", e->ev[i].name);
		for (k = i + 1; k < e->n; k++) {
			if (!e->ev[k].counted && !done[k] &&
			    strcmp(e->ev[k].reason, e->ev[i].reason) == 0) {
				fprintf(stderr, ", %s", e->ev[k].name);
				done[k] = true;
			}
		}
		fprintf(stderr, ": not counted: %s\n", e->ev[i].reason);
	}
	if (reject && !e->reject)
		fprintf(stderr, "primcost: run: disturbed samples cannot be detected: "
			"%s\n", e->reject_reason);
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
	char target[PATH_MAX], why[PC_ERRLEN];
	json_t *doc = NULL;
	int fd, missing = 0, rc = -1;

	if (pc_write_target(output, target, sizeof(target), err, errlen) < 0) {
		json_decref(keep);
		return -1;
	}
	fd = pc_doc_lock(target, "run", may_stop ? pc_interrupted : NULL, stopped,
			 err, errlen);
	if (fd < 0) {
		json_decref(keep);
		return -1;
	}
	doc = pc_doc_load(target, &missing, why, sizeof(why));
	if (!doc && missing)
		doc = pc_doc_new();
	if (!doc) {
		json_decref(keep);
		snprintf(err, errlen, "%.400s (it changed while measuring; refusing to "
			 "replace it)", why);
	} else if (pc_doc_add_run(doc, key, json_deep_copy(json_object_get(entry, "cpu")),
				  json_deep_copy(json_array_get(json_object_get(entry,
								"runs"), 0)),
				  keep, err, errlen) == 0) {
		pc_doc_pack_raw(doc);	/* raw samples an older primcost wrote */
		if (pc_doc_write(doc, target, err, errlen) == 0)
			rc = 0;
	}
	json_decref(doc);
	pc_doc_unlock(fd);
	return rc;
}

/* Measures this machine: detect, pin, clock, events, ring 0, the profile.
 * On an error what it opened is closed again. */
static int run_native(struct pc_run_options *o, struct pc_cpu_info *ci,
		      struct pc_clock *clk, struct pc_profile *prof,
		      struct pc_ring0 **r0, int *cpu_no, struct pc_alloc_run *ar,
		      char *err, size_t errlen)
{
	struct pc_measure_config cfg;
	char why[256];

	if (o->alloc.on && pc_alloc_open(&o->alloc, ar, err, errlen) < 0)
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
	cfg.probe_timeout_s = pc_run_probe_timeout(o);
	cfg.keep_contended = o->keep_contended;
	if ((o->alloc.on ? pc_alloc_measure(&o->alloc, ar, &cfg, clk, prof, err, errlen) :
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

int cmd_run(int argc, char **argv)
{
	struct pc_run_options o;
	struct pc_cpu_info ci;
	struct pc_clock clk;
	struct pc_profile prof;
	struct pc_ring0 *r0 = NULL;
	struct pc_alloc_run ar = { .nalloc = 0 };
	json_t *file_doc = NULL, *run_doc = NULL, *cpu, *run, *probes, *run_extra = NULL;
	char err[PC_ERRLEN];
	int rc, cpu_no, missing = 0, to_stdout, sig;

	rc = pc_run_options_parse(argc, argv, &o, err, sizeof(err));
	if (rc > 0) {
		fputs(usage_text, stdout);
		return PC_EXIT_OK;
	}
	if (rc < 0) {
		pc_error("run", "%s", err);
		return PC_EXIT_USAGE;
	}
	to_stdout = strcmp(o.output, "-") == 0;
	if (status_fd_open(o.status_fd, err, sizeof(err)) < 0) {
		pc_error("run", "%s", err);
		return PC_EXIT_USAGE;
	}

	/* Refuse before measuring: an unwritable destination or an existing
	 * file that is not a valid result (it would be lost by a merge). */
	if (!to_stdout) {
		if (pc_check_writable(o.output, err, sizeof(err)) < 0) {
			pc_error("run", "%s", err);
			return PC_EXIT_USAGE;
		}
		file_doc = pc_doc_load(o.output, &missing, err, sizeof(err));
		if (!file_doc && !missing) {
			pc_error("run", "%s (refusing to replace it; move it away or "
				 "choose another -o)", err);
			return PC_EXIT_USAGE;
		}
		/* Read again when the run is filed: others may write it meanwhile. */
		json_decref(file_doc);
		file_doc = NULL;
	}

	/* From here on, SIGINT, SIGTERM and SIGHUP stop the run in an orderly
	 * way: the file is left as it was, or gets what was measured. */
	pc_interrupts_catch();
	if (o.arch) {
		cpu_no = -1;
		rc = run_remote(&o, &ci, &clk, &prof, &run_extra, err, sizeof(err));
	} else {
		rc = run_native(&o, &ci, &clk, &prof, &r0, &cpu_no, &ar, err, sizeof(err));
	}
	if (rc < 0) {
		pc_error("run", "%s", err);
		pc_interrupts_release();
		json_decref(file_doc);
		return PC_EXIT_USAGE;
	}
	/* Under an emulator every timing is the emulator's, whatever the
	 * calibration says. */
	if (ci.emulated[0]) {
		prof.unreliable = true;
		snprintf(prof.unreliable_reason, sizeof(prof.unreliable_reason),
			 "emulated: %s", ci.emulated);
	}

	/* Interrupted (during the run, or since): nothing is written unless
	 * --save-partial asks, and then only what was measured. */
	sig = prof.interrupted ? prof.interrupted : pc_interrupted();
	if (sig && (!o.save_partial || !count_measured(&prof))) {
		char left[PC_ERRLEN];

		if (to_stdout)
			snprintf(left, sizeof(left), "nothing written");
		else
			snprintf(left, sizeof(left), "%s left as it was", o.output);
		pc_error("run", "interrupted by %s%s; %s%s", pc_signal_name(sig),
			 o.save_partial ? " before any probe was measured" : "", left,
			 o.save_partial ? "" : " (--save-partial keeps what was measured)");
		rc = PC_EXIT_SIGNAL + sig;
		goto out;
	}

	cpu = pc_json_cpu(&ci, &clk, prof.cycles_per_tick);
	run = pc_json_run(&ci, &clk, &prof, options_json(&o, cpu_no));
	if (run && r0)
		json_object_set_new(run, "ring0", pc_ring0_json(r0));
	if (run && run_extra)
		json_object_update(run, run_extra);
	json_decref(run_extra);
	if (run)
		pc_json_run_events(run, &o.events);
	if (run && o.alloc.on)
		json_object_set_new(run, "alloc", pc_alloc_json_allocators(&ar, o.alloc.touch));
	probes = o.alloc.on ? pc_alloc_json_probes(&ar, &prof) : pc_json_probes(&prof, &clk);
	run_doc = pc_doc_new();
	if (!cpu || !run || !probes || !run_doc ||
	    pc_doc_add_run(run_doc, ci.key, cpu, run, probes, err, sizeof(err)) < 0) {
		pc_error("run", "cannot build the result: %s", err);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	rc = sig ? PC_EXIT_SIGNAL + sig : any_failed(&prof) ? PC_EXIT_FAILURE : PC_EXIT_OK;

	if (to_stdout) {
		if (pc_doc_write(run_doc, "-", err, sizeof(err)) < 0) {
			pc_error("run", "%s", err);
			rc = PC_EXIT_USAGE;
		}
		goto out;
	}
	{
		json_t *entry = json_object_get(json_object_get(run_doc, "cpus"), ci.key);
		json_t *keep = json_deep_copy(json_object_get(entry, "probes"));
		int stopped = 0;

		if (sig && !o.alloc.on)
			drop_unmeasured(keep, &prof);
		if (save_run(o.output, ci.key, entry, keep, !sig, &stopped, err,
			     sizeof(err)) < 0) {
			pc_error("run", "%s", err);
			rc = stopped ? PC_EXIT_SIGNAL + pc_interrupted() : PC_EXIT_USAGE;
			goto out;
		}
	}
	if (sig)
		pc_error("run", "interrupted by %s: %zu of %zu probes measured, saved "
			 "(marked partial) under \"%s\" in %s", pc_signal_name(sig),
			 count_measured(&prof), prof.nprobes, ci.key, o.output);
	if (!o.quiet) {
		if (o.alloc.on && o.format == PC_FORMAT_TABLE)
			pc_alloc_report(stdout, run_doc);
		else if (o.alloc.on && o.format != PC_FORMAT_JSON)
			pc_alloc_report_as(stdout, run_doc, o.format == PC_FORMAT_CSV);
		else
			pc_report_verbose(stdout, run_doc, o.format, o.verbose);
		if (o.format == PC_FORMAT_TABLE)
			printf("\n%zu %s in %.2f s; saved under \"%s\" in %s\n",
			       prof.nprobes, o.alloc.on ? "points" : "probes",
			       prof.wall_s, ci.key, o.output);
	}
out:
	pc_alloc_close(&ar);
	pc_ring0_close(r0);
	pc_interrupts_release();
	pc_profile_free(&prof);
	pc_events_close(&o.events);
	pc_clock_close(&clk);
	json_decref(run_doc);
	json_decref(file_doc);
	return rc;
}
