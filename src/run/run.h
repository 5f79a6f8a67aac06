/* SPDX-License-Identifier: MIT */
/*
 * run.h - a run from its options to its result (run.c), through the
 * measurement group chosen (group.h; groups.c registers them).
 */
#ifndef PC_RUN_H
#define PC_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/events.h"
#include "results/group.h"
#include "core/cpu.h"
#include "core/clock.h"
#include "core/measure.h"
#include "results/report.h"
#include "results/results.h"
#include "ring0/ring0.h"

/* The most groups besides the probe table. */
#define PC_GROUPS_MAX 8

/* A group's options in a run's, and what run makes of them. */
struct pc_group_choice {
	_Alignas(max_align_t) unsigned char opts[PC_GROUP_OPTIONS_MAX];
	bool on;			/* one of its options that choose it given */
	const char *alone;		/* one that only goes with it given, or NULL */
	int rows;			/* its rows selected, once chosen */
};

/* What `primcost run` was asked, as parsed; not changed once parsed. */
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
	struct pc_events events;	/* parsed from it (the run opens a copy) */
	bool reject_disturbed;		/* discard disturbed samples (default) */
	bool until_known;		/* --until-known: sequential stopping */
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
	/* The groups' own options, each taken by its group: group i of
	 * pc_groups in choice[i] (the probe table's are selected[]). */
	struct pc_group_choice choice[PC_GROUPS_MAX];
	bool samples_given;		/* -n given (a group's default is lower) */
	char **argv;			/* the run command's, to run it again */
	const struct pc_measurement_group *group;	/* the group measured */
};

/* The defaults: every probe, 501 samples of 20 us, primcost.json, ... */
void pc_run_defaults(struct pc_run_options *o);
/* An option the result records as given (-p, -e): refused (-1, err) now
 * if the file could not hold it, not after measuring. */
int pc_run_recordable(const char *opt, const char *arg, char *err, size_t errlen);
/* The time limit of one probe: the option, else 10 s plus 40 times what the
 * --samples and --sample-us settings ask for (plus 500 samples' worth for
 * sizing, warm-up and the linearity check). 0: no limit. */
double pc_run_probe_timeout(const struct pc_run_options *o, double sample_floor_s);

/* A run in progress: what it opened, what it measured. */
struct pc_run {
	const struct pc_run_options *o;
	struct pc_cpu_info ci;
	struct pc_clock clk;
	bool clk_open;			/* pc_clock_init done: to close */
	struct pc_events events;	/* o->events, opened */
	struct pc_profile prof;
	struct pc_ring0 *r0;
	void *group_state;		/* the group's own (its open and close) */
	json_t *extra;			/* what a probe runner adds to the run */
	struct pc_env *env;		/* the environment the figures were taken in */
	int cpu_no;
	int sig;			/* the signal that interrupted it; 0: none */
	/* the host's pace at the start and the end (core/pace.h); 0: not
	 * measured */
	double pace_ticks[2], pace_cycles[2];
};

/* ---- groups.c: the registry ---------------------------------------------------- */

/* The probe table as a group: its options are the probes selected. */
extern const struct pc_measurement_group pc_group_probes;
/* The options of group g in o. */
void *pc_group_options(const struct pc_run_options *o, const struct pc_measurement_group *g);
/* Option index of group g's list given (arg its value): taken by the
 * group, and the group marked chosen or the option kept to check; -1
 * with err. */
int pc_group_option(struct pc_run_options *o, const struct pc_measurement_group *g,
		    int index, const char *arg, char *err, size_t errlen);
/* After the options: which group is chosen, by its options or by -p of
 * its rows only (one at most, else -1, err saying which runs alone); an
 * option given without its group refused; the group chosen finished and
 * its rows selected; o->group set. */
int pc_groups_finish(struct pc_run_options *o, char *err, size_t errlen);

/* ---- remote.c: another architecture's probe runner -------------------------- */

/* Its section of run's help, and its options (each a path). */
extern const char pc_remote_help[];
extern const struct pc_group_option pc_remote_options[];
/* Takes option index of pc_remote_options; -1 with err. */
int pc_remote_option(struct pc_run_options *o, int index, const char *arg, char *err,
		     size_t errlen);
/* After the options: the runner's options that go together (--arch of
 * this machine's own architecture, alone, is the native run: o->arch
 * cleared); -1 with err. */
int pc_remote_check(struct pc_run_options *o, char *err, size_t errlen);
/* Measures r->o->arch through its probe runner: fills what a native run
 * would; -1 with err. */
int pc_remote_measure(struct pc_run *r, char *err, size_t errlen);

/* ---- run.c: the run's life ------------------------------------------------------ */

/* Refuses before measuring: a bad --status-fd, an unwritable destination,
 * an existing file that is not a valid result (a merge would lose it). The
 * file is read again when the run is filed: others may write it meanwhile.
 * -1 with err. */
int pc_run_preflight(const struct pc_run_options *o, char *err, size_t errlen);
/* Measures (natively, or through the probe runner of o->arch): -1 with err,
 * and what was opened closed again. */
int pc_run_measure(struct pc_run *r, const struct pc_run_options *o, char *err,
		   size_t errlen);
/* The one-run document of the run; NULL with err. */
json_t *pc_run_document(struct pc_run *r, char *err, size_t errlen);
/* Saves the run of run_doc: to standard output for -o -, else filed into
 * o->output under its lock (an interrupted run: only what it measured);
 * unless interrupted, an interruption while waiting for the lock gives up
 * (*stopped set). -1 with err. */
int pc_run_save(struct pc_run *r, json_t *run_doc, int *stopped, char *err,
		size_t errlen);
/* Probes an interrupted run measured, at least partly; and whether any
 * failed. */
size_t pc_run_measured(const struct pc_run *r);
bool pc_run_failed(const struct pc_run *r);
/* Whether the run measured nothing because every row it selected was
 * refused (skipped or unsupported here, none failed): why says so in one
 * line, the reason the rows give when they give one. */
bool pc_run_refused(const struct pc_run *r, char *why, size_t len);
/* Closes what the run opened. */
void pc_run_close(struct pc_run *r);

#endif
