/* cmd_run.h - primcost run's options (parsed apart from the core, testable). */
#ifndef PC_CMD_RUN_H
#define PC_CMD_RUN_H

#include "primcost.h"
#include "report.h"

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
	/* Another architecture, through its probe runner (runner_host.c). */
	const char *arch;		/* NULL: this machine, natively */
	const char *emulator;		/* NULL: run the runner natively */
	const char *runner;		/* NULL: the one bootstrap built */
	const char *system_runner;	/* NULL: next to the runner */
	const char *runner_output;	/* a saved runner output to read instead */
};

/* 0: run; 1: --help asked; -1: error in err. */
int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen);

#endif
