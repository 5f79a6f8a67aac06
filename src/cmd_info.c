/* cmd_info.c - primcost info: what primcost detects about this machine. */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "results.h"

static const char usage_text[] =
	"usage: primcost info [OPTIONS]\n"
	"\n"
	"Show the CPU's identity and model key, the timer and its rate, where\n"
	"core cycles come from (PMU or calibration) and why.\n"
	"\n"
	"  -c, --cpu N           pin to CPU N for the calibration\n"
	"  -f, --format FMT      text or json (default text)\n"
	"  -h, --help            this help\n";

static const struct option long_options[] = {
	{ "cpu", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_info(int argc, char **argv)
{
	struct pc_cpu_info ci;
	struct pc_clock clk;
	char err[PC_ERRLEN];
	double cpt = 0;
	char opt[64];
	int c, cpu = -1, as_json = 0;
	long v;
	json_t *out;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:f:h", long_options, NULL)) != -1) {
		switch (c) {
		case 'c':
			v = pc_parse_long(optarg, 0, 4095);
			if (v < 0) {
				pc_error("info", "--cpu: not a CPU number: "
					"'%s'", optarg);
				return PC_EXIT_USAGE;
			}
			cpu = (int)v;
			break;
		case 'f':
			if (strcmp(optarg, "json") == 0)
				as_json = 1;
			else if (strcmp(optarg, "text") != 0) {
				pc_error("info", "--format: want text or "
					"json, got '%s'", optarg);
				return PC_EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return PC_EXIT_OK;
		case ':':
			pc_error("info", "option '%s' needs a value",
				pc_bad_option(argv, c, opt, sizeof(opt)));
			return PC_EXIT_USAGE;
		default:
			pc_error("info", "unknown option '%s'",
				pc_bad_option(argv, c, opt, sizeof(opt)));
			return PC_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		pc_error("info", "unexpected argument '%s'", argv[optind]);
		return PC_EXIT_USAGE;
	}
	if (pc_cpu_detect(&ci, err, sizeof(err)) < 0) {
		pc_error("info", "%s", err);
		return PC_EXIT_USAGE;
	}
	if (pc_pin_cpu(cpu, err, sizeof(err)) < 0) {
		if (cpu >= 0)
			pc_error("info", "--cpu %d: %s", cpu, err);
		else
			pc_error("info", "%s", err);
		return PC_EXIT_USAGE;
	}
	cpu = cpu >= 0 ? cpu : sched_getcpu();
	if (pc_clock_init(&clk, true, err, sizeof(err)) < 0 ||
	    pc_calibrate(&clk, 201, 20e-6, &cpt, err, sizeof(err)) < 0) {
		pc_error("info", "%s", err);
		return PC_EXIT_USAGE;
	}

	out = pc_json_cpu(&ci, &clk, cpt);
	json_object_set_new(out, "model_key", json_string(ci.key));
	json_object_set_new(out, "kernel", json_string(ci.kernel));
	json_object_set_new(out, "pinned_cpu", json_integer(cpu));
	json_object_set_new(out, "cycles_source",
			    json_string(pc_cycles_source_name(clk.source)));
	json_object_set_new(out, "cycles_per_tick", json_real(cpt));
	if (clk.source != PC_CYCLES_PMU)
		json_object_set_new(out, "pmu_reason", json_string(clk.pmu_reason));
	if (as_json) {
		json_dumpf(out, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(7));
		putchar('\n');
	} else {
		printf("model key      %s\n", ci.key);
		printf("cpu            %s (%s), family %d model %d stepping %d\n",
		       ci.brand, ci.vendor, ci.family, ci.model, ci.stepping);
		if (ci.codename[0])
			printf("codename       %s (libcpuid)\n", ci.codename);
		printf("pmu model      %s\n", ci.pmu[0] ? ci.pmu : "(none detected by libpfm4)");
		printf("cores/threads  %d/%d\n", ci.cores, ci.threads);
		printf("caches         L1d %d KiB, L1i %d KiB, L2 %d KiB, L3 %d KiB\n",
		       ci.l1d_kb, ci.l1i_kb, ci.l2_kb, ci.l3_kb);
		printf("virtualized    %s%s%s\n", ci.virtualized ? "yes" : "no",
		       ci.hypervisor[0] ? ", hypervisor " : "", ci.hypervisor);
		printf("kernel         %s\n", ci.kernel);
		printf("timer          %s at %.3f MHz (%s)\n", clk.timer, clk.tick_hz / 1e6,
		       clk.tick_hz_measured ? "measured against CLOCK_MONOTONIC_RAW" :
		       "stated by the hardware");
		printf("core clock     about %.0f MHz (%.4f cycles per tick, CPU %d)\n",
		       clk.tick_hz * cpt / 1e6, cpt, cpu);
		printf("cycles source  %s%s%s\n", pc_cycles_source_name(clk.source),
		       clk.source == PC_CYCLES_PMU ? "" : ": ",
		       clk.source == PC_CYCLES_PMU ? "" : clk.pmu_reason);
	}
	json_decref(out);
	pc_clock_close(&clk);
	return PC_EXIT_OK;
}
