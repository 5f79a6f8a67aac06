/* cmd_run.c - primcost run: measure, save, show. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run.h"
#include "commands.h"
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
	"  -o, --output FILE     result file (default primcost.json; - = stdout)\n"
	"  -f, --format FMT      table, json, csv or markdown (default table)\n"
	"      --no-pmu          scale ticks by calibration even if a PMU exists\n"
	"  -q, --quiet           no table, no progress\n"
	"  -h, --help            this help\n"
	"\n"
	"Another architecture, through its freestanding probe runner:\n"
	"      --arch ARCH       measure ARCH (ia64) with its probe runner\n"
	"      --emulator PATH   run the runner in this simulator (ia64: Ski's bski)\n"
	"      --runner PATH     user-mode runner (default build-ARCH/primcost-runner)\n"
	"      --system-runner PATH  system-mode image for the ring-0 rows (default:\n"
	"                        primcost-runner-system next to the runner)\n"
	"      --runner-output FILE  read what a runner wrote where it ran (a real\n"
	"                        Itanium) instead of running it\n";

enum { OPT_SAMPLE_US = 256, OPT_NO_PMU, OPT_ARCH, OPT_EMULATOR, OPT_RUNNER,
       OPT_SYSTEM_RUNNER, OPT_RUNNER_OUTPUT };

static const struct option long_options[] = {
	{ "probes", required_argument, NULL, 'p' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "samples", required_argument, NULL, 'n' },
	{ "sample-us", required_argument, NULL, OPT_SAMPLE_US },
	{ "keep-samples", no_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "no-pmu", no_argument, NULL, OPT_NO_PMU },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "arch", required_argument, NULL, OPT_ARCH },
	{ "emulator", required_argument, NULL, OPT_EMULATOR },
	{ "runner", required_argument, NULL, OPT_RUNNER },
	{ "system-runner", required_argument, NULL, OPT_SYSTEM_RUNNER },
	{ "runner-output", required_argument, NULL, OPT_RUNNER_OUTPUT },
	{ NULL, 0, NULL, 0 },
};

int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen)
{
	int c;
	long v;

	memset(o, 0, sizeof(*o));
	o->probes = "*";
	o->cpu = -1;
	o->samples = 501;
	o->sample_us = 20;
	o->output = "primcost.json";
	o->format = PC_FORMAT_TABLE;
	o->pmu = true;
	optind = 0;	/* full reset: tests parse several argument vectors */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:c:n:ko:f:qh", long_options, NULL)) != -1) {
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
			break;
		case OPT_NO_PMU:
			o->pmu = false;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			return 1;
		case OPT_ARCH:
		case OPT_EMULATOR:
		case OPT_RUNNER:
		case OPT_SYSTEM_RUNNER:
		case OPT_RUNNER_OUTPUT:
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
			else
				o->runner_output = optarg;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->arch && (o->emulator || o->runner || o->system_runner ||
			 o->runner_output)) {
		snprintf(err, errlen, "--%s needs --arch", o->emulator ? "emulator" :
			 o->runner ? "runner" : o->system_runner ? "system-runner" :
			 "runner-output");
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
	if (pc_select_probes(o->probes, o->selected, err, errlen) < 0)
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
	rq.samples = o->samples;
	rq.sample_us = o->sample_us;
	rq.timeout_s = PC_RUNNER_TIMEOUT_S;
	rq.keep_samples = o->keep_samples;
	rq.progress = !o->quiet && isatty(STDERR_FILENO);
	return pc_runner_measure(&rq, o->selected, ci, clk, prof, extra, err, errlen);
}

static json_t *options_json(const struct pc_run_options *o, int cpu)
{
	json_t *j = json_pack("{s:s, s:i, s:i, s:i, s:b, s:b}", "probes", o->probes,
			      "cpu", cpu, "samples", (int)o->samples, "sample_us",
			      (int)o->sample_us, "keep_samples", o->keep_samples,
			      "pmu", o->pmu);

	if (j && o->arch)
		json_object_set_new(j, "arch", json_string(o->arch));
	return j;
}

static int any_failed(const struct pc_profile *prof)
{
	size_t i;

	for (i = 0; i < prof->nprobes; i++)
		if (prof->probes[i].status == PC_STATUS_FAILED)
			return 1;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct pc_run_options o;
	struct pc_measure_config cfg;
	struct pc_cpu_info ci;
	struct pc_clock clk;
	struct pc_profile prof;
	json_t *file_doc = NULL, *run_doc = NULL, *cpu, *run, *probes, *run_extra = NULL;
	char err[PC_ERRLEN];
	int rc, cpu_no, missing = 0, to_stdout;

	rc = pc_run_options_parse(argc, argv, &o, err, sizeof(err));
	if (rc > 0) {
		fputs(usage_text, stdout);
		return PC_EXIT_OK;
	}
	if (rc < 0) {
		fprintf(stderr, "primcost: run: %s\n", err);
		return PC_EXIT_USAGE;
	}
	to_stdout = strcmp(o.output, "-") == 0;

	/* Refuse before measuring: an unwritable destination or an existing
	 * file that is not a valid result (it would be lost by a merge). */
	if (!to_stdout) {
		if (pc_check_writable(o.output, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			return PC_EXIT_USAGE;
		}
		file_doc = pc_doc_load(o.output, &missing, err, sizeof(err));
		if (!file_doc && !missing) {
			fprintf(stderr, "primcost: run: %s (refusing to replace it; "
				"move it away or choose another -o)\n", err);
			return PC_EXIT_USAGE;
		}
		if (!file_doc)
			file_doc = pc_doc_new();
	}

	if (o.arch) {
		cpu_no = -1;
		if (run_remote(&o, &ci, &clk, &prof, &run_extra, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			json_decref(file_doc);
			return PC_EXIT_USAGE;
		}
	} else {
		if (pc_cpu_detect(&ci, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			json_decref(file_doc);
			return PC_EXIT_USAGE;
		}
		cpu_no = pc_pin_cpu(o.cpu, err, sizeof(err));
		if (cpu_no < 0 || pc_clock_init(&clk, o.pmu, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			json_decref(file_doc);
			return PC_EXIT_USAGE;
		}

		memset(&cfg, 0, sizeof(cfg));
		cfg.samples = o.samples;
		cfg.sample_s = o.sample_us * 1e-6;
		cfg.keep_samples = o.keep_samples;
		cfg.progress = !o.quiet && isatty(STDERR_FILENO);
		cfg.cpu = cpu_no;
		if (pc_profile_run(o.selected, &cfg, &clk, &prof, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			pc_clock_close(&clk);
			json_decref(file_doc);
			return PC_EXIT_USAGE;
		}
	}

	cpu = pc_json_cpu(&ci, &clk, prof.cycles_per_tick);
	run = pc_json_run(&ci, &clk, &prof, options_json(&o, cpu_no));
	if (run && run_extra)
		json_object_update(run, run_extra);
	json_decref(run_extra);
	probes = pc_json_probes(&prof, &clk);
	run_doc = pc_doc_new();
	if (!cpu || !run || !probes || !run_doc ||
	    pc_doc_add_run(run_doc, ci.key, cpu, run, probes, err, sizeof(err)) < 0) {
		fprintf(stderr, "primcost: run: cannot build the result: %s\n", err);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	rc = any_failed(&prof) ? PC_EXIT_FAILURE : PC_EXIT_OK;

	if (to_stdout) {
		if (pc_doc_write(run_doc, "-", err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			rc = PC_EXIT_USAGE;
		}
		goto out;
	}
	{
		json_t *entry = json_object_get(json_object_get(run_doc, "cpus"), ci.key);

		if (pc_doc_add_run(file_doc, ci.key,
				   json_deep_copy(json_object_get(entry, "cpu")),
				   json_deep_copy(json_array_get(json_object_get(entry, "runs"), 0)),
				   json_deep_copy(json_object_get(entry, "probes")),
				   err, sizeof(err)) < 0 ||
		    pc_doc_write(file_doc, o.output, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: run: %s\n", err);
			rc = PC_EXIT_USAGE;
			goto out;
		}
	}
	if (!o.quiet) {
		pc_report(stdout, run_doc, o.format);
		if (o.format == PC_FORMAT_TABLE)
			printf("\n%zu probes in %.2f s; saved under \"%s\" in %s\n",
			       prof.nprobes, prof.wall_s, ci.key, o.output);
	}
out:
	pc_profile_free(&prof);
	pc_clock_close(&clk);
	json_decref(run_doc);
	json_decref(file_doc);
	return rc;
}
