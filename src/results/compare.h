/* SPDX-License-Identifier: MIT */
/*
 * compare.h - the comparison model: which CPUs are put side by side, and for
 * every probe each side's figure, its ratio to the first side, the
 * significance of the difference and the verdict. Built from loaded result
 * documents by pc_compare_build(); the renderers only read it.
 */
#ifndef PC_COMPARE_H
#define PC_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"
#include "results.h"

enum pc_metric { PC_METRIC_CYCLES, PC_METRIC_NS, PC_METRIC_TICKS };
/* What each row's figure is: its samples' median, or the p99 of its
 * single calls (allocator points: the median of its chunks' p99). */
enum pc_stat { PC_STAT_MEDIAN, PC_STAT_P99 };

/* Verdict of a side against the first side of its table. */
enum pc_verdict {
	PC_VERDICT_NONE,	/* first side, or a figure missing on either side */
	PC_VERDICT_SAME,
	PC_VERDICT_FASTER,
	PC_VERDICT_SLOWER,
	/* a figure on both sides, but one is not fit to judge: a noisy
	 * figure, an unreliable run, a published loop against our zero
	 * baseline, a row that a difference in the environment moves (the
	 * cell's why says which) */
	PC_VERDICT_NOT_COMPARABLE,
};

/* How the verdict was reached. */
enum pc_test {
	PC_TEST_NONE,		/* nothing to compare */
	PC_TEST_MWU,		/* Mann-Whitney U on the raw samples */
	PC_TEST_QUARTILES,	/* interquartile ranges must not overlap */
	PC_TEST_SINGLE,		/* a single figure (published): threshold only */
	PC_TEST_MODES,		/* a cost that varies: by its modes */
};

enum pc_cell_state {
	PC_CELL_ABSENT,		/* the probe is not in that side's file */
	PC_CELL_STATUS,		/* status is not ok: shown as the status */
	PC_CELL_NO_METRIC,	/* ok, but the file gives no figure in this unit */
	PC_CELL_OK,
};

/* Differences smaller than this, in the metric's unit, are below what the
 * method resolves (baseline reads 0.00 +- 0.05): never a verdict. */
#define PC_COMPARE_FLOOR 0.05
/* Fewest raw samples on each side for the U test. */
#define PC_COMPARE_MIN_RAW 9
/* A probe's threshold is at least this many times the largest spread it
 * shows on either side (docs/design.md, "Compare: what is a difference"):
 * a figure that moved by X within a run, or between a file's runs, can
 * move by X between runs; 1.5 from the noisy-host files, where a shared
 * core moved flags_save by 1.13 times its spread. */
#define PC_COMPARE_SPREAD_K 1.5
/* Two runs whose contention canaries' medians differ by more than this
 * ran on cores shared differently: noted. A quiet core reads its canary
 * to 0.3 %; on the development VM allocator code ran 1.6 to 1.85 times
 * slower in phases whose canary read 2 to 7 % slower. */
#define PC_COMPARE_CANARY 0.02
/* Most figures of one probe read from a file's history for its spread. */
#define PC_HISTORY_MAX 64
/* Fewest raw samples per round (PC_ROUNDS of them, engine/method.h) to
 * judge a spread from the raw samples when a file gives no round_spread. */
#define PC_COMPARE_MIN_PER_ROUND 5

/* Kinds of rows that a difference in the environment moves. */
#define PC_CMP_ENV_KINDS 2

struct pc_cmp_side {
	const char *file;
	const char *key;
	json_t *entry;		/* NULL: this file has no such CPU (paired mode) */
	const char *brand;
	const char *cycles_source;	/* of the newest run */
	const char *kernel;
	const char *version;
	const char *timer;
	double timer_hz;
	int virtualized;	/* -1 unknown */
	int unreliable;
	const char *unreliable_reason;
	const char *reference;	/* provenance summary of published figures */
	double canary;		/* contention canary's median cycles, or NAN */
	double pace;		/* the host's pace (pc_run_pace), or NAN */
	/* its run's host_slower: its pace and the best it was held to;
	 * slower_best 0 when it was not */
	double slower_pace, slower_best;
	/* Where the figures come from (the context above is the newest run's). */
	size_t runs_used;	/* distinct runs */
	size_t partial_figures;	/* figures from runs saved with --save-partial */
	const char *newest_date, *oldest_date;
	const char *interrupted_by;	/* of a partial run its figures come from */
	/* The newest run's environment (core/environment.h), or NULL for a
	 * file written before runs recorded it. */
	json_t *environment;
	/* Against the first side (other sides only): why the rows of each
	 * kind (PC_ENV_MOVES_SYSCALLS, PC_ENV_MOVES_TRANSFERS, in that order)
	 * are not judged, the environment's facts that move them differing;
	 * "" where none differs (compare_env.c). */
	char env_why[PC_CMP_ENV_KINDS][192];
};

struct pc_cmp_cell {
	enum pc_cell_state state;
	const char *status;
	const char *reason;
	double median, q1, q3, mad;
	long long samples;
	size_t nraw;		/* raw samples in the metric's unit */
	bool noisy;		/* status noisy: a figure, not fit to judge */
	bool nonlinear;		/* failed the linearity check */
	bool published;		/* cycles_source published (a reference table) */
	bool single;		/* one point (published, or one sample): no ± */
	bool spread_tried;	/* spread looked for in the raw samples */
	/* A point of the contended group: its transfer gauge, cycles per
	 * one-way transfer between its CPUs; 0 when it has none. */
	double transfer;
	/* (max - min) / median of the round medians, a fraction: the file's
	 * round_spread, else from the raw samples in the order taken; NAN
	 * when neither tells. */
	double spread;
	/* (max - min) / median of the figures of the probe in the runs the
	 * file keeps (ok ones, at least 2), a fraction; NAN otherwise. */
	double history_spread;
	/* Against the first side (other sides only). */
	double threshold_pct;	/* what |delta| had to reach here */
	double ratio;		/* NAN when the first median is ~0 */
	double delta_pct;
	double p;		/* NAN unless the U test ran */
	enum pc_test test;
	enum pc_verdict verdict;
	char why[640];		/* PC_VERDICT_NOT_COMPARABLE: why not */
};

struct pc_cmp_row {
	const char *probe;
	const char *group;
	struct pc_cmp_cell *cell;	/* one per side */
};

/* A ring-0 row that some side lacks, paired there with its ring-3 analog
 * (probes/answers.def): shown apart, marked, never a verdict. */
struct pc_cmp_analog {
	const char *probe, *analog, *how;
	struct pc_cmp_cell *cell;	/* per side: the row's own, else the analog's */
	bool *is_analog;		/* per side: cell is the analog's */
};

/* What a table's note says, so that a view can leave out what it shows
 * elsewhere or does not show. */
enum pc_note_kind {
	PC_NOTE_CONTEXT,	/* the runs' context: kernels, environment, a file
				 * of mixed or partial runs, an unreliable run */
	PC_NOTE_SIDE,		/* what the sides' own fields hold: a published
				 * table's source, where cycles come from, a
				 * virtual machine, a CPU a file lacks */
	PC_NOTE_JUDGING,	/* how the verdicts were reached: thresholds
				 * raised, nothing comparable */
};

struct pc_cmp_table {
	char *title;			/* "" in single-table mode, else the key */
	size_t nsides;
	struct pc_cmp_side *side;
	size_t nrows;
	struct pc_cmp_row *row;
	double *geomean;		/* per side: geometric mean of ratios */
	size_t *geomean_n;		/* probes in it */
	size_t *common;			/* per side: probes both it and A hold */
	size_t nnotes;
	char **note;			/* context differences worth a warning */
	enum pc_note_kind *note_kind;	/* per note */
	size_t nanalogs;
	struct pc_cmp_analog *analog;
};

struct pc_compare_config {
	enum pc_metric metric;
	enum pc_stat stat;		/* PC_STAT_P99: cycles only */
	double threshold_pct;		/* |delta| below it reads same */
	double alpha;			/* significance level of the U test */
	const char *const *cpu_globs;	/* NULL-terminated; NULL = every CPU */
	bool one_cpu_ok;		/* a table of one side (report) */
};

struct pc_compare {
	struct pc_compare_config cfg;
	bool paired;			/* several CPUs per file: paired by key */
	size_t ntables;
	struct pc_cmp_table *table;
	size_t slower, faster, same;	/* verdicts over all tables */
	size_t not_comparable;		/* figures on both sides, no verdict */
	size_t common;			/* probe pairs held on both sides */
};

struct pc_compare_input {
	const char *path;
	json_t *doc;			/* validated */
};

const char *pc_metric_name(enum pc_metric m);
int pc_metric_parse(const char *s, enum pc_metric *m);
const char *pc_verdict_name(enum pc_verdict v);
const char *pc_test_name(enum pc_test t);
/* "A", "B", ... "Z", then "#27", ... */
#define PC_LABEL_LEN 24
const char *pc_side_label(size_t i, char *buf);

/* The probes measured at points (points[]: the contended group, the
 * allocator group) of every CPU of doc become a row per point, in doc
 * itself, named by pc_point_row_name(): so rows pair by the points'
 * parameters. pc_compare_build() does it to its documents. -1 when
 * memory runs out. */
int pc_compare_expand_points(json_t *doc);
/* compare --stat p99: every row of doc (points expanded) that has single
 * calls (its "latency") gets their p99 as its figure, in cycles: the
 * median and quartiles of its chunks' p99, the chunks as its raw samples,
 * so that they are judged as medians are, and as its spread the chunks'
 * interquartile range or the timer's step where wider (a difference of
 * one step is no verdict); rows without are dropped. How
 * many rows it kept; -1 when memory runs out. */
long pc_compare_p99(json_t *doc);
const char *pc_stat_name(enum pc_stat s);
int pc_stat_parse(const char *s, enum pc_stat *st);
/* The row name of point pt (index i) of probe, whose "group" is group:
 * as the point's shape names it (group.h: alloc.malloc.glibc.64,
 * lock.ticket.compact.threads2, c2c.latency.cpus0,1, ...), else, for a
 * point of no shape or one that fails its shape's check,
 * PROBE.pointN. As snprintf. */
int pc_point_row_name(char *buf, size_t len, const char *probe, const char *group, json_t *pt,
		      size_t i);
/* Builds the model; the documents must outlive it, their points expanded
 * into rows (pc_compare_expand_points). -1 with err filled when
 * there is nothing to compare or memory runs out. */
int pc_compare_build(struct pc_compare *m, const struct pc_compare_input *in,
		     size_t nin, const struct pc_compare_config *cfg, char *err,
		     size_t errlen);
void pc_compare_free(struct pc_compare *m);

/* Empties c (its figures NaN) and takes p's status and reason; false, with
 * c absent, when there is no p. */
bool pc_cmp_cell_start(struct pc_cmp_cell *c, json_t *p);
/* A measured cell: state PC_CELL_OK and the figures of probe p's metric
 * object m (median, quartiles, MAD, samples), and what p says of them
 * (noisy, nonlinear, published, round_spread). */
void pc_cmp_cell_figures(struct pc_cmp_cell *c, json_t *p, json_t *m);

/* Adds text, copied, to t's notes; -1 when memory runs out. */
int pc_cmp_add_note(struct pc_cmp_table *t, const char *text);

/* The environments of side i and the first side (compare_env.c): which
 * kinds of rows their differences move, into the side's env_why (before
 * the rows are judged), and a note per fact that differs where both
 * recorded it. -1 when memory runs out. */
int pc_compare_env_marks(struct pc_cmp_table *t, size_t i);
int pc_compare_env_notes(struct pc_cmp_table *t, size_t i);
/* Why row is not judged between cells a (first side) and b (side sb): a
 * difference in the environment moves it; NULL when none does. */
const char *pc_compare_env_moved(const struct pc_cmp_row *row, const struct pc_cmp_cell *a,
				 const struct pc_cmp_cell *b, const struct pc_cmp_side *sb);

/* The analog rows of t (compare_analog.c); -1 when memory runs out. */
int pc_compare_analogs(struct pc_cmp_table *t, enum pc_metric metric);
void pc_compare_analogs_free(struct pc_cmp_table *t);

/* Renderers (compare_render.c). */
json_t *pc_compare_json(const struct pc_compare *m);
int pc_compare_render(FILE *f, const struct pc_compare *m, enum pc_format fmt,
		      bool color);
/* The analog rows of a table, the view's words (compare_analog.c). */
void pc_compare_render_analogs(struct pc_view *v, const struct pc_compare *m,
			       const struct pc_cmp_table *t);
/* The probe x CPU matrix of medians (compare_matrix.c): columns of every
 * table side by side, as wide as the text views fit (pc_table_fit), reasons
 * as numbered footnotes; in any format of a view. */
int pc_compare_matrix(struct pc_view *v, const struct pc_compare *m);
/* Reasons said once: distinct "status: reason" texts, numbered from 1. */
struct pc_footnotes {
	size_t n;
	char **text;
};
/* The number of that text (added when new); -1 when memory runs out. */
int pc_footnote(struct pc_footnotes *fn, const char *status, const char *reason);
/* The footnote a cell carries (its status and reason), 0 for none. */
int pc_cell_footnote(const struct pc_cmp_cell *c, struct pc_footnotes *fn);
void pc_footnotes_free(struct pc_footnotes *fn);
/* A figure with about four significant digits; -0.00 shows as 0.00. */
const char *pc_fmt_figure(double x, char *buf, size_t len);
/* Why compare --fail-on-regression fails though nothing was slower (nothing
 * was comparable), or NULL. */
const char *pc_compare_nothing_judged(const struct pc_compare *m, char *buf,
				      size_t len);

#endif
