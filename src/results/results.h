/* SPDX-License-Identifier: MIT */
/*
 * results.h - the JSON result document (jansson): built in
 * results_build.c, validated in results_validate.c, read and written in
 * results_io.c.
 */
#ifndef PC_RESULTS_H
#define PC_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <stdio.h>
#include <jansson.h>

#include "config.h"
#include "core/stats.h"
#include "core/cpu.h"
#include "core/clock.h"
#include "core/measure.h"

/* Limits on what a reader accepts (documented in primcost(1)). */
#define PC_LIMIT_FILE_BYTES (64 << 20)
#define PC_LIMIT_CPUS 10000
#define PC_LIMIT_PROBES 1000
/* points of one probe: c2c's every pair of 256 CPUs (run --matrix) */
#define PC_LIMIT_POINTS 32768
#define PC_LIMIT_SAMPLES 1000000
#define PC_LIMIT_ABS_VALUE 1e12
#define PC_LIMIT_RUNS 10000		/* runs per CPU */
#define PC_LIMIT_DEPTH 16		/* nesting of arrays and objects */
#define PC_LIMIT_STRING 4096		/* bytes in one string or key */
#define PC_LIMIT_NAME 64		/* bytes in a probe name */
#define PC_LIMIT_KEY 191		/* bytes in a model key */

/* Figures carry 7 significant digits (pc_round7, primcost.h); a figure
 * as a JSON number so rounded. */
#define PC_REAL_DIGITS 7
json_t *pc_json_real7(double x);
/* A summary (min, q1, median, q3, max, mad) and an array of values, each
 * rounded as every figure is. */
json_t *pc_json_summary(const struct pc_summary *s);
json_t *pc_json_values(const double *v, size_t n);
/* The figures of an ok result into p: cycles source and calibration,
 * sample counts, linearity, ticks, cycles and ns summaries. */
void pc_json_figures(json_t *p, const struct pc_probe_result *r);
/* A result's reason and partial flag into p; true when its figures follow
 * (ok, or noisy: the last sampling's). */
bool pc_json_outcome(json_t *p, const struct pc_probe_result *r);
/* The samples a probe discarded, by cause (the "discarded" object). */
json_t *pc_json_discarded(const struct pc_probe_events *pe);

/* ---- results_build.c ---- */
json_t *pc_doc_new(void);
json_t *pc_json_cpu(const struct pc_cpu_info *ci, const struct pc_clock *clk,
		    double cycles_per_tick);
json_t *pc_json_probe(const struct pc_probe_result *r, const struct pc_clock *clk);
json_t *pc_json_probes(const struct pc_profile *prof, const struct pc_clock *clk);
/* Takes ownership of options. */
json_t *pc_json_run(const struct pc_cpu_info *ci, const struct pc_clock *clk,
		    const struct pc_profile *prof, json_t *options);
/* Adds the run's events (-e) and disturbance check to a run object. */
struct pc_events;
void pc_json_run_events(json_t *run, const struct pc_events *e);
/* The environment (core/environment.h) as a run records it and info
 * shows it: each fact {value, source[, note]} or {unknown}. */
struct pc_env;
json_t *pc_json_environment(const struct pc_env *env);
/* Takes ownership of cpu, run and probes. */
int pc_doc_add_run(json_t *doc, const char *key, json_t *cpu, json_t *run,
		   json_t *probes, char *err, size_t errlen);

/* ---- results_validate.c ---- */
int pc_doc_validate(json_t *doc, char *err, size_t errlen);
/* Shape limits every document must keep: nesting depth, string length, no
 * control characters in strings or keys (they would reach a terminal). */
int pc_json_check_limits(json_t *j, char *err, size_t errlen);
/* Is s a well-formed probe name / model key (letters, digits, _ . + -)? */
int pc_name_ok(const char *s, size_t maxlen);
int pc_validate_probe(json_t *p, const char *where, char *err, size_t errlen);
/* ---- results_io.c ---- */
/* Parses and validates a result held in memory; name is what errors call it. */
json_t *pc_doc_parse(const char *buf, size_t len, const char *name, char *err,
		     size_t errlen);
/* Reads and validates a result file; *missing set when it does not exist.
 * "-" reads standard input (errors call it PC_STDIN_NAME). */
#define PC_STDIN_NAME "standard input"
json_t *pc_doc_load(const char *path, int *missing, char *err, size_t errlen);
/* Reads and validates the result file open on fd (path names it in errors). */
json_t *pc_doc_load_fd(int fd, const char *path, char *err, size_t errlen);

/* ---- results_build.c: history ---- */
/* Is p a measured figure (status ok, or noisy: the last sampling's figure of
 * samples that stayed disturbed)? */
int pc_probe_measured(json_t *p);
/* What an entry is worth in the history: 2 a figure (ok), 1 a noisy figure,
 * 0 a row that was not measured (skipped, unsupported, failed). */
int pc_probe_rank(json_t *p);
/* Only measurements replace measurements: a current entry gives way to the
 * newest entry of a higher rank that a run's record holds. */
void pc_entry_promote_measured(json_t *entry);

/* x rounded to the 7 significant digits result files carry (a decimal
 * reader gives back the very double): results_build.c. */
double pc_round7(double x);

/* ---- history.c ---- */
/* Reads and validates an input argument: a file, a reference table, "-"
 * (standard input), each optionally followed by @N, @latest or
 * @YYYY-MM-DD to pick one run of every CPU (unless a file of the whole
 * name exists). path gets the name to show. */
json_t *pc_input_load(const char *arg, char *path, size_t pathlen,
			     char *err, size_t errlen);

/* Orders two run dates (UTC, "YYYY-MM-DDTHH:MM:SS[.fraction]Z"): negative,
 * zero or positive as a is older than, as old as, or newer than b. A date
 * without a fraction is at the start of its second. Two runs of one date are
 * told apart by their index in the runs array, the later one the newer. */
int pc_date_cmp(const char *a, const char *b);
/* Is s a run's date: RFC 3339 in UTC, "YYYY-MM-DDTHH:MM:SS[.fraction]Z",
 * a date that exists (no month 13, no February 30, no hour 24)? A published
 * figure's run (published) may give only "YYYY" or "YYYY-MM-DD", with a
 * note after a space: "2007 (the message carries no date)". */
bool pc_date_valid(const char *s, bool published);
/* Is sel a run selector: a run number, "latest" or a date YYYY-MM-DD? */
int pc_run_selector_ok(const char *sel);
/* Keeps, for every CPU, the run sel names alone (as run 0), its figures and
 * the rows it did not measure current: a file as if that run had been the
 * only one. A CPU without such a run is dropped; none left is an error. */
int pc_doc_pick_run(json_t *doc, const char *sel, char *err, size_t errlen);

/* What run k of a CPU entry holds: figures it measured, rows it did not
 * measure, and how many of either are current (each point of a probe
 * measured at points counts, as a figure or a row). */
struct pc_run_counts {
	size_t measured, unmeasured, current;
	size_t noisy, nonlinear;	/* of the measured */
};
void pc_run_counts(json_t *entry, size_t k, struct pc_run_counts *c);
/* The host's pace a run recorded (its "pace", in cycles a call: the median
 * paired with its samples, else the quicker of its start and its end); NAN
 * when it recorded none. */
double pc_run_pace(json_t *run);
/* Why run was marked unreliable (its "unreliable_reason", else "(no
 * reason)"); NULL when it was not. */
const char *pc_run_unreliable(json_t *run);
/* Judges run's pace against the best (lowest) of the runs entry already
 * holds (NULL: none): over PC_HOST_SLOWER above it, run gets
 * "host_slower" with both figures, else loses it. Whether it did. */
bool pc_run_judge_pace(json_t *run, json_t *entry);

/* ---- results_io.c: writing ---- */
/* The file a write to path lands in: path with its symbolic links followed
 * (the last one may point to a file not yet there). */
int pc_write_target(const char *path, char *out, size_t outlen, char *err,
		    size_t errlen);
/* Serializes writers of target: an exclusive lock on ".NAME.lock" beside
 * it, held until pc_doc_unlock. A wait over PC_LOCK_NOTICE_S is said once
 * on stderr (as cmd); stop, when given, is polled while waiting and a
 * nonzero answer gives up (-1, *stopped set). Returns the lock's fd. */
#define PC_LOCK_NOTICE_S 2.0
int pc_doc_lock(const char *target, const char *cmd, int (*stop)(void),
		int *stopped, char *err, size_t errlen);
void pc_doc_unlock(int fd);
/* Is fd (from pc_doc_lock) still the lock of target: does the lock file's
 * name still lead to the file fd locked? */
bool pc_doc_lock_held(int fd, const char *target);

/* ---- output_file.c: the one way a command writes a file ---- */
struct pc_out {
	FILE *f;		/* write here; stdout for "-" */
	char target[PATH_MAX];	/* the path with its symbolic links followed */
	char *tmp;		/* renamed over target by pc_out_commit; NULL in place */
	/* A read, change and write under the lock of pc_doc_lock: *lock_fd is
	 * checked before the rename; lost (its file removed), it is taken
	 * again, and the target must still be the file read (read_st, or none
	 * when !read_existed), else nothing is written. */
	int *lock_fd;
	const struct stat *read_st;
	bool read_existed;
};
/* Opens path for writing. "-" is standard output; a symbolic link is
 * followed; a device or a FIFO is written in place; a regular file (or a
 * new one) through an unpredictable temporary file beside it (O_EXCL) with
 * the old file's mode and owner, where the writer may keep them (else the
 * mode the umask gives a new file), renamed over it by pc_out_commit. An
 * existing file that is one of inputs[0..ninputs) (a name may end in @SEL)
 * is refused. -1 with err filled. */
int pc_out_open(struct pc_out *o, const char *path, const char *const *inputs,
		size_t ninputs, char *err, size_t errlen);
/* Whether target's name leaves room for its temporary file (NAME.tmp.XXXXXX
 * and .NAME.lock within NAME_MAX); -1 with err filled if not. */
int pc_out_name_fits(const char *target, char *err, size_t errlen);
/* Flushes, syncs and renames into place; -1 with the reason in err (the
 * temporary file removed); PC_OUT_LOCK_LOST when o->lock_fd is no longer
 * the lock of the target (its lock file removed meanwhile): nothing
 * written, the caller reads, changes and writes again under a new lock. */
#define PC_OUT_LOCK_LOST (-2)
/* PC_OUT_LOCK_LOST when the target was replaced while its lock was lost. */
int pc_out_commit(struct pc_out *o, char *err, size_t errlen);
/* Gives up: the temporary file removed, the target as it was. */
void pc_out_abort(struct pc_out *o);

int pc_doc_dump(json_t *doc, FILE *f);
/* Can path be created or replaced? */
int pc_check_writable(const char *path, char *err, size_t errlen);
/* Atomic write (temp file, fsync, rename); "-" writes to stdout. */
int pc_doc_write(json_t *doc, const char *path, char *err, size_t errlen);
/* pc_doc_write of a document read from path (read_st; NULL when there was
 * no file) under the lock *lock_fd: PC_OUT_LOCK_LOST, nothing written, when
 * another writer replaced path while the lock was lost (*lock_fd then the
 * lock taken again, to release). */
int pc_doc_write_locked(json_t *doc, const char *path, int *lock_fd,
			const struct stat *read_st, char *err, size_t errlen);

/* ---- output_file.c: a result file read, changed and written under its lock ---- */
struct pc_output {
	char target[PATH_MAX];	/* -o with its symbolic links followed */
	int lock_fd;		/* held while >= 0: pc_doc_unlock */
	struct stat read_st;	/* the file read, when read_existed */
	bool read_existed;
	int read_fd;		/* that file, open until the write: its inode
				 * number cannot name another file meanwhile */
};

/* Takes the lock of output (as cmd; stop and stopped as pc_doc_lock) and
 * reads it under the lock: the document, a new one when there is no file,
 * with out->lock_fd held. NULL with err, and no lock held, when it cannot
 * be locked or is not a result (that would be lost by a rewrite). */
json_t *pc_output_open(const char *output, const char *cmd, int (*stop)(void),
		       int *stopped, struct pc_output *out, char *err, size_t errlen);
/* After the write (or instead of it): the lock released, the file read closed. */
void pc_output_close(struct pc_output *out);

#endif
