/* SPDX-License-Identifier: MIT */
/*
 * runner_host.h - running a freestanding probe runner (runner/runner.h) for
 * another architecture, natively or under an emulator, and turning its raw
 * output into the same profile a native run produces.
 */
#ifndef PC_RUNNER_HOST_H
#define PC_RUNNER_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "core/cpu.h"
#include "core/clock.h"
#include "core/measure.h"

/* What is known about a runner architecture: where bootstrap builds its
 * runner and how its emulator is invoked. */
struct pc_runner_arch {
	const char *arch;		/* pc_arch_name of that backend */
	const char *build_dir;		/* bootstrap's output, next to primcost */
	const char *emulator_name;	/* for messages */
	const char *emulator_args[4];	/* before the program, NULL-terminated */
	const char *simulator_vendor;	/* the CPU vendor its simulator reports */
};

const struct pc_runner_arch *pc_runner_arch_find(const char *arch);
/* The architectures that have a runner, comma-separated, for messages. */
const char *pc_runner_arch_list(void);

/* One probe as a runner reported it. */
struct pc_runner_probe {
	bool seen;			/* any line about it */
	bool has_status;		/* skipped, unsupported or failed */
	enum pc_status status;
	char reason[256];
	bool measured;			/* a "probe" line */
	uint64_t iters, cal_iters;
	size_t n, cap;			/* samples: lo, hi, cal_lo, cal_hi */
	uint64_t (*s)[4];
	size_t nlin, caplin;		/* linearity: D(N), D(2N) */
	double (*lin)[2];
};

/* The parsed output of one runner run. */
struct pc_runner_output {
	int format;
	char arch[16], mode[16], timer[32];
	unsigned unroll_lo, unroll_hi;
	char vendor[32];
	int family, model, revision, archrev;
	bool have_cpu;
	double clock_hz[8];		/* ticks per second, one per window */
	size_t nclock;
	uint64_t target_ticks;
	bool ended;			/* "pcr end" seen: the run completed */
	char last_other[256];		/* last line that was not a record */
	struct pc_runner_probe probes[PC_PROBE_COUNT];
};

/* Parses a runner's output (text need not end with a newline). Lines that
 * are not records are ignored (the emulator's own messages); a malformed
 * record is an error naming its line. 0 or -1 with err. */
int pc_runner_parse(const char *text, size_t len, struct pc_runner_output *out,
		    char *err, size_t errlen);
void pc_runner_output_free(struct pc_runner_output *out);

/*
 * Which probe a run that stopped before "pcr end" was running: among the
 * selected ones in table order, the first without any line while probes
 * were being prepared, else the one whose samples (then linearity pairs)
 * fall behind. -1 when the output does not tell.
 */
int pc_runner_culprit(const struct pc_runner_output *out, const bool *selected,
		      unsigned samples);

/* Options of one runner measurement. */
struct pc_runner_request {
	const char *arch;
	const char *emulator;		/* NULL: run the runner natively */
	const char *runner;		/* user-mode runner */
	const char *system_runner;	/* system-mode image, or NULL */
	const char *runner_output;	/* a saved runner output to read instead */
	const char *system_runner_output;	/* the same, of the system image */
	unsigned samples;
	unsigned sample_us;
	unsigned timeout_s;		/* per runner execution */
	bool keep_samples;		/* raw per-sample figures in the result */
	bool progress;
	int status_fd;			/* --status-fd: progress lines; -1: none */
};

/* Runs the runner (and the system image for selected ring-0 rows, under an
 * emulator) until every selected probe has an outcome, re-running after a
 * probe that killed the runner; fills the CPU identity, the clock and the
 * profile as a native run would, and extra facts for the run's JSON. */
int pc_runner_measure(const struct pc_runner_request *rq, const bool *selected,
		      struct pc_cpu_info *ci, struct pc_clock *clk,
		      struct pc_profile *prof, json_t **run_extra,
		      char *err, size_t errlen);

/* Turns parsed outputs into a profile: user holds the ring-3 rows, system
 * (may be NULL) the ring-0 rows. Also used by the tests. */
int pc_runner_profile(const struct pc_runner_output *user,
		      const struct pc_runner_output *system, const bool *selected,
		      const struct pc_clock *clk, bool emulated, bool keep_samples,
		      struct pc_profile *prof, char *err, size_t errlen);
/* The clock from the runner's windows: median ticks per second. */
int pc_runner_clock(const struct pc_runner_output *user,
		    const struct pc_runner_output *system, struct pc_clock *clk,
		    char *err, size_t errlen);
/* The CPU identity from the runner's cpuid lines. */
void pc_runner_cpu(const struct pc_runner_output *out, const char *emulator,
		   struct pc_cpu_info *ci);

#endif
