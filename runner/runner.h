/* SPDX-License-Identifier: MIT */
/*
 * runner.h - the freestanding probe runner: the architecture backend
 * (arch/<arch>/) plus a driver that runs its probes and self-checks and
 * writes raw timings as text, for emulators and machines where the full
 * primcost cannot be built (ia64 under the Ski simulator). primcost
 * (src/remote/runner_parse.c) reads that text and src/core/samples.c does the statistics.
 *
 * The driver (runner.c) is plain C without libc. A platform (runner/<arch>/)
 * provides the entry point and the few services below.
 *
 * OUTPUT FORMAT, version 1. One record per line; every record starts with
 * "pcr " so that anything else an emulator prints is ignored. Numbers are
 * unsigned decimal, but for the signed differences of "lin". In order:
 *
 *   pcr primcost-runner 1             format version
 *   pcr arch ARCH                     backend name (pc_arch_name)
 *   pcr mode user|system              user mode (ring 3) or system mode (ring 0)
 *   pcr timer NAME                    the timer (pc_arch_timer_name)
 *   pcr unroll LO HI                  PC_UNROLL_LO, PC_UNROLL_HI
 *   pcr cpu KEY VALUE...              platform's CPU identity, any number
 *   pcr clock US0 T0 US1 T1           a window of the platform clock (µs) against
 *                                     timer ticks; three of them, or none
 *   pcr target TICKS                  ticks one timed hi loop is sized to
 *   pcr status NAME STATUS REASON...  skipped, unsupported or failed, with why
 *   pcr probe NAME ITERS CAL_ITERS    NAME is measured: loop iterations of
 *                                     its samples and of the add-chain
 *                                     calibration paired with each
 *   pcr s NAME LO HI CAL_LO CAL_HI    one sample: ticks of the LO and HI
 *                                     loops, then of the calibration's; the
 *                                     samples come in rounds, each a share
 *                                     of every measured probe's in table
 *                                     order
 *   pcr lin NAME D_N D_2N             one linearity pair: HI - LO ticks at
 *                                     ITERS and at 2 * ITERS iterations
 *                                     (signed: "-" before a negative one)
 *                                     (PC_RUNNER_LINEARITY_PAIRS per probe,
 *                                     one probe after the other)
 *   pcr end FAILED                    the run is complete; FAILED probes failed
 *
 * A run that stops before "pcr end" died: the probe whose "probe" line has
 * fewer samples than asked for (or, before that, the first selected probe
 * without a line) is the one that trapped.
 */
#ifndef PC_RUNNER_H
#define PC_RUNNER_H

#include <stdint.h>
#include "arch/arch.h"
#include "engine/engine.h"

#define PC_RUNNER_FORMAT 1
/* Linearity pairs the runner takes of every measured probe. */
#define PC_RUNNER_LINEARITY_PAIRS PC_LINEARITY_PAIRS

/* ---- provided by the platform ---------------------------------------------- */

/* Writes all of buf to standard output (or the simulator's console). */
void pc_rt_write(const char *buf, unsigned long len);
/* Microseconds of real time from the OS or simulator clock; -1 if none. */
int pc_rt_clock_us(uint64_t *us);
/* Emits "pcr cpu KEY VALUE" lines through pc_runner_line(). */
void pc_rt_describe_cpu(void);
/* 3 when the runner runs in user mode, 0 in system mode. */
int pc_rt_ring(void);

/* ---- provided by the driver ---------------------------------------------------- */

struct pc_runner_config {
	unsigned samples;	/* differential samples per probe */
	unsigned rounds;	/* rounds the samples are spread over */
	uint64_t min_ticks;	/* a timed hi loop lasts at least this */
	uint64_t sample_us;	/* ... and about this long by the clock */
	int selected[PC_PROBE_COUNT];
};

/* The probe table the driver runs: pc_arch_probes normally, a test table in
 * the host's unit tests. */
struct pc_runner_env {
	const struct pc_arch_probe *probes;	/* PC_PROBE_COUNT rows */
	int ring;				/* pc_rt_ring() */
	const char *arch, *timer;
	/* What the CPU can run (arch.h), or NULL where the runner cannot
	 * read it (no libc, no auxiliary vector): then a body the CPU may
	 * lack gives way to the fallback the kernel would use. */
	const struct pc_arch_env *arch_env;
};

/* Parses "-n N -u US -t TICKS NAME..." (no names: every row this mode can
 * run). 0 when good, else -1 with a "pcr error" line written. */
int pc_runner_parse_args(int argc, char **argv, int ring,
			 struct pc_runner_config *cfg);
/* Runs the selected probes; returns how many failed. */
unsigned pc_runner_run(const struct pc_runner_env *env,
		       const struct pc_runner_config *cfg);
/* Self-check of one probe: NULL when good, else the reason. */
const char *pc_runner_selfcheck(const struct pc_arch_probe *p);
/* The whole program: parse, describe, run; the exit status. */
int pc_runner_main(int argc, char **argv);

/* Output helpers: a line is built from pieces, then written at once. */
struct pc_line {
	char buf[256];
	unsigned len;
};
void pc_line_str(struct pc_line *l, const char *s);
void pc_line_u64(struct pc_line *l, uint64_t v);
void pc_line_end(struct pc_line *l);	/* appends '\n' and writes it */
/* Writes "pcr " + the words given (NULL-terminated) as one line. */
void pc_runner_line(const char *first, ...);

#endif
