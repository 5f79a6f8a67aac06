/* SPDX-License-Identifier: MIT */
/* cmd_info.c - primcost info: what primcost detects about this machine. */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "events.h"
#include "results.h"
#include "ring0.h"

static const char usage_text[] =
	"usage: primcost info [OPTIONS]\n"
	"\n"
	"Show the CPU's identity and model key, the timer and its rate, where\n"
	"core cycles come from (PMU or calibration) and why, whether hardware\n"
	"events can be counted, whether disturbed samples can be detected,\n"
	"which hypervisor serves /dev/kvm, and whether ring-0 timings are\n"
	"trustworthy here.\n"
	"\n"
	"  -c, --cpu N           pin to CPU N for the calibration\n"
	"      --ring0 MODE      way into ring 0 to validate: auto, kvm, kmod or\n"
	"                        none (default auto)\n"
	"  -f, --format FMT      text or json (default text)\n"
	"  -h, --help            this help\n";

enum { OPT_RING0 = 256 };

static const struct option long_options[] = {
	{ "cpu", required_argument, NULL, 'c' },
	{ "ring0", required_argument, NULL, OPT_RING0 },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_info(int argc, char **argv)
{
	struct pc_cpu_info ci;
	struct pc_clock clk;
	struct pc_events dist;
	char err[PC_ERRLEN], hw_why[256];
	bool hw_ok;
	double cpt = 0;
	char opt[64];
	int c, cpu = -1, as_json = 0;
	long v;
	json_t *out;
	struct pc_ring0_options r0opt = { PC_RING0_AUTO, PC_RING0_TIMEOUT_DEFAULT_S, NULL };
	struct pc_ring0 *r0;
	char kvm_detail[160];
	const char *kvm_kind;

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
		case OPT_RING0:
			if (pc_ring0_mode_parse(optarg, &r0opt.mode) < 0) {
				fprintf(stderr, "primcost: info: --ring0: want auto, kvm, "
					"kmod or none, got '%s'\n", optarg);
				return PC_EXIT_USAGE;
			}
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

	/* Ring 0: which hypervisor serves /dev/kvm, and the validation gate. */
	kvm_kind = pc_ring0_hypervisor(kvm_detail, sizeof(kvm_detail));
	r0 = pc_ring0_open(&r0opt);
	if (r0 && pc_ring0_backend_name(r0))
		pc_ring0_validate(r0, &clk, 20e-6);
	/* Events: can hardware ones count, can disturbances be seen? */
	hw_ok = pc_hardware_events_available(hw_why, sizeof(hw_why));
	pc_events_init(&dist);
	if (pc_events_open(&dist, true, err, sizeof(err)) < 0)
		snprintf(dist.reject_reason, sizeof(dist.reject_reason), "%.255s", err);

	out = pc_json_cpu(&ci, &clk, cpt);
	json_object_set_new(out, "model_key", json_string(ci.key));
	json_object_set_new(out, "kernel", json_string(ci.kernel));
	json_object_set_new(out, "pinned_cpu", json_integer(cpu));
	json_object_set_new(out, "cycles_source",
			    json_string(pc_cycles_source_name(clk.source)));
	json_object_set_new(out, "cycles_per_tick", json_real(cpt));
	if (clk.source != PC_CYCLES_PMU)
		json_object_set_new(out, "pmu_reason", json_string(clk.pmu_reason));
	else
		json_object_set_new(out, "pmu_read", json_string(clk.pmu_read_reason));
	json_object_set_new(out, "hardware_events", hw_ok ?
			    json_pack("{s:b}", "available", 1) :
			    json_pack("{s:b, s:s}", "available", 0, "reason", hw_why));
	json_object_set_new(out, "disturbance", dist.reject ?
			    json_pack("{s:b, s:[s, s]}", "checked", 1, "counters",
				      dist.ev[dist.cs].name, dist.ev[dist.mig].name) :
			    json_pack("{s:b, s:s}", "checked", 0, "reason",
				      dist.reject_reason));
	if (r0)
		json_object_set_new(out, "ring0", pc_ring0_json(r0));
	if (ci.emulated[0])
		json_object_set_new(out, "emulated", json_string(ci.emulated));
	if (as_json) {
		json_dumpf(out, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(7));
		putchar('\n');
	} else {
		printf("model key      %s\n", ci.key);
		printf("cpu            %s (%s), family %d model %d stepping %d\n",
		       ci.brand, ci.vendor[0] ? ci.vendor : "vendor unknown",
		       ci.family, ci.model, ci.stepping);
		if (ci.codename[0])
			printf("codename       %s (libcpuid)\n", ci.codename);
		printf("pmu model      %s\n", ci.pmu[0] ? ci.pmu : "(none detected by libpfm4)");
		printf("cores/threads  %d/%d\n", ci.cores, ci.threads);
		printf("caches         L1d %d KiB, L1i %d KiB, L2 %d KiB, L3 %d KiB\n",
		       ci.l1d_kb, ci.l1i_kb, ci.l2_kb, ci.l3_kb);
		printf("virtualized    %s%s%s\n", ci.virtualized ? "yes" : "no",
		       ci.hypervisor[0] ? ", hypervisor " : "", ci.hypervisor);
		if (ci.midr)
			printf("midr_el1       0x%08lx (part 0x%03x, r%dp%d)\n", ci.midr,
			       (unsigned)ci.family, ci.model, ci.stepping);
		if (ci.emulated[0])
			printf("emulated       yes: %s (timings mean nothing)\n",
			       ci.emulated);
		printf("kernel         %s\n", ci.kernel);
		printf("timer          %s at %.3f MHz (%s)\n", clk.timer, clk.tick_hz / 1e6,
		       clk.tick_hz_measured ? "measured against CLOCK_MONOTONIC_RAW" :
		       "stated by the hardware");
		printf("timer step     %llu tick%s (%.1f ns); a sample lasts at least "
		       "%.1f us\n", (unsigned long long)clk.tick_step,
		       clk.tick_step == 1 ? "" : "s", clk.tick_step * 1e9 / clk.tick_hz,
		       pc_sample_ticks(&clk, 0) * 1e6 / clk.tick_hz);
		printf("core clock     about %.0f MHz (%.4f cycles per tick, CPU %d)\n",
		       clk.tick_hz * cpt / 1e6, cpt, cpu);
		printf("cycles source  %s%s%s\n", pc_cycles_source_name(clk.source),
		       clk.source == PC_CYCLES_PMU ? "" : ": ",
		       clk.source == PC_CYCLES_PMU ? "" : clk.pmu_reason);
		if (clk.source == PC_CYCLES_PMU)
			printf("cycles read    %s%s\n", clk.pmu_read_reason,
			       clk.pmu_user_only ? "; user mode only (kernel-mode "
			       "counting not permitted)" : "");
		printf("hw events      %s%s\n", hw_ok ? "can be counted (run -e)" :
		       "not here: ", hw_ok ? "" : hw_why);
		if (dist.reject)
			printf("disturbance    detected with %s and %s: samples that "
			       "saw either are discarded\n", dist.ev[dist.cs].name,
			       dist.ev[dist.mig].name);
		else
			printf("disturbance    not detected: %s\n", dist.reject_reason);
		printf("kvm            %s (%s)\n", kvm_kind, kvm_detail);
		if (!r0 || !pc_ring0_backend_name(r0))
			printf("ring 0         unavailable: %s\n", pc_ring0_why_none(r0));
		else
			printf("ring 0         %s via %s: %s\n",
			       pc_ring0_trusted(r0) ? "trustworthy" : "NOT trustworthy",
			       pc_ring0_backend_name(r0), pc_ring0_gate_reason(r0));
	}
	pc_ring0_close(r0);
	pc_events_close(&dist);
	json_decref(out);
	pc_clock_close(&clk);
	return PC_EXIT_OK;
}
