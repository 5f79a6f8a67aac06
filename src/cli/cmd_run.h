/* SPDX-License-Identifier: MIT */
/* cmd_run.h - primcost run's options (parsed apart from the core, testable). */
#ifndef PC_CMD_RUN_H
#define PC_CMD_RUN_H

#include "alloc.h"
#include "contend.h"
#include "events.h"
#include "primcost.h"
#include "report.h"
#include "ring0.h"

struct pc_run_options {
	const char *probes;
	bool selected[PC_PROBE_COUNT];
	int cpu;			/* -1: the CPU we start on */
	unsigned samples;
	unsigned sample_us;
	bool keep_samples;
	const char *output;		/* "-" = stdout */
	enum pc_format format;
	bool pmu;
	bool quiet;
	int status_fd;			/* --status-fd: progress lines; -1: none */
	struct pc_ring0_options ring0;	/* --ring0, --ring0-timeout, --ring0-module */
	/* ---- events (events.c) ---- */
	const char *events_list;	/* -e LIST as given, or NULL */
	struct pc_events events;	/* parsed from it */
	bool reject_disturbed;		/* discard disturbed samples (default) */
	bool keep_contended;		/* keep samples the contention canary flags */
	bool verbose;
	double probe_timeout_s;		/* < 0: the default for these settings */
	bool save_partial;		/* on SIGINT/SIGTERM/SIGHUP, save what was measured */
	/* Another architecture, through its probe runner (runner_host.c). */
	const char *arch;		/* NULL: this machine, natively */
	const char *emulator;		/* NULL: run the runner natively */
	const char *runner;		/* NULL: the one bootstrap built */
	const char *system_runner;	/* NULL: next to the runner */
	const char *runner_output;	/* a saved runner output to read instead */
	const char *system_runner_output;	/* the same, of the system image */
	/* The allocator group (alloc.h): --alloc, --allocator, --touch. */
	struct pc_alloc_options alloc;
	/* The contended group (contend.h): --locks, --threads, --placement,
	 * --cpus, --matrix, --window-us. */
	struct pc_contend_options contend;
	bool samples_given;		/* -n given (the group's default is lower) */
};

/* The time limit of one probe: the option, else 10 s plus 40 times what the
 * --samples and --sample-us settings ask for (plus 500 samples' worth for
 * sizing, warm-up and the linearity check). 0: no limit. */
double pc_run_probe_timeout(const struct pc_run_options *o, double sample_floor_s);

/* 0: run; 1: --help asked; -1: error in err. */
int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen);

#endif
