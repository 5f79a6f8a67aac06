/* SPDX-License-Identifier: MIT */
/* clock.h - the timer and the cycle counter (clock.c). */
#ifndef PC_CLOCK_H
#define PC_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pc_cycles_source {
	PC_CYCLES_CALIBRATED,	/* ticks scaled by the dependent add chain */
	PC_CYCLES_PMU,		/* the PMU's core-cycles counter */
};

struct pc_clock {
	const char *timer;		/* the arch timer's name */
	double tick_hz;			/* timer ticks per second */
	bool tick_hz_measured;		/* measured against CLOCK_MONOTONIC_RAW */
	uint64_t tick_step;		/* resolution: ticks per timer step */
	enum pc_cycles_source source;
	int pmu_fd;			/* perf event fd counting cycles, or -1 */
	char pmu_reason[256];		/* why the PMU is not the source */
	/* ---- how the PMU cycles are read (clock.c) ---- */
	void *pmu_page;			/* the event's perf mmap page, or NULL */
	bool pmu_rdpmc;			/* read in user mode through the page */
	bool pmu_user_only;		/* kernel-mode cycles not permitted */
	char pmu_read_reason[256];	/* how they are read, or why not rdpmc */
};

const char *pc_cycles_source_name(enum pc_cycles_source s);
/* Finds the timer's rate and whether the PMU can count core cycles. */
int pc_clock_init(struct pc_clock *c, bool want_pmu, char *err, size_t errlen);
void pc_clock_close(struct pc_clock *c);
/* Reads the PMU cycles counter (c->pmu_fd must be open). */
uint64_t pc_clock_pmu_read(const struct pc_clock *c);
/* The same with the times it was enabled and running (rdpmc through the
 * mmap page where allowed, else read()); r->ok false when it failed. */
struct pc_counter_reading;
void pc_clock_pmu_sample(const struct pc_clock *c, struct pc_counter_reading *r);
/* Makes fd (a perf event counting for this thread, read_format
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING) the cycles source: checks that it
 * counts and maps its page for rdpmc. -1 (fd closed) with c->pmu_reason. */
int pc_clock_pmu_attach(struct pc_clock *c, int fd);

#endif
