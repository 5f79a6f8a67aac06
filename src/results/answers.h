/* SPDX-License-Identifier: MIT */
/*
 * answers.h - the published tables' questions answered from a result: for each pair of
 * probes/answers.def, how many times one probe is cheaper than the other,
 * and the ring-3 analog of a ring-0 row (probes/answers.def).
 */
#ifndef PC_ANSWERS_H
#define PC_ANSWERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

struct pc_answer_def {
	const char *a, *b;
	const char *source;	/* "Desnoyers, linux-kernel 2007" */
	const char *question;	/* "local_t against atomic_t" */
};

struct pc_analog_def {
	const char *probe, *analog;
	const char *how;
};

extern const struct pc_answer_def pc_answer_defs[];
extern const size_t pc_answer_count;
extern const struct pc_analog_def pc_analog_defs[];
extern const size_t pc_analog_count;

/* One answer for one CPU: both medians in cycles (ns where the file has no
 * cycles). */
struct pc_answer {
	const struct pc_answer_def *def;
	double a, b;		/* medians */
	const char *unit;	/* "cycles" or "ns" */
	double ratio;		/* b / a: above 1, a is the cheaper */
};

/* The answers one CPU entry of a result file gives (at most
 * pc_answer_count, one a question: from the first of its rows that the
 * entry measured both probes of); 0 when its run is marked unreliable. */
size_t pc_answers(json_t *entry, struct pc_answer *out);
/* Whether row d of pc_answer_defs is the first that asks its question
 * (the rows after it name the same measurement otherwise). */
bool pc_answer_first(size_t d);
/* Whether a answers the question of row d. */
bool pc_answer_of(const struct pc_answer *a, size_t d);
/* "cmpxchg_local is 3.2 times cheaper than local_irq_save_restore here:
 * 9.10 vs 29.40 cycles" (no newline). */
void pc_answer_line(const struct pc_answer *a, char *buf, size_t len);
/* The "answers" section of the run table: a heading and one line each
 * (wrapped to width; 0: not wrapped), or nothing when no pair was
 * measured. */
void pc_answers_print(FILE *f, json_t *entry, const char *prefix, int width);

/* The median in unit (cycles, ns, ticks) of probe in entry when it is
 * measured (status ok); NAN otherwise. probe may name a point of a probe
 * measured at points, as compare names its row (pc_point_row_name), in an
 * entry as run writes it or as compare expands it. */
double pc_probe_median(json_t *entry, const char *probe, const char *unit);

#endif
