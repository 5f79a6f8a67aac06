/* SPDX-License-Identifier: MIT */
/*
 * events.h - events counted around every sample: libpfm4 turns a name into
 * a perf_event_attr, perf_event_open(2) counts the events as one group, and
 * the harness differences them like the ticks (hi loop minus lo loop).
 *
 * Two more counters ride in the same group by default: context switches
 * and CPU migrations. A sample that saw either was disturbed and is
 * discarded (and retaken, within a budget). A sample during which the group
 * was not on the PMU the whole time (multiplexed, not scheduled) is
 * discarded too: its counts are estimates, not counts.
 */
#ifndef PC_EVENTS_H
#define PC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "engine/engine.h"

#define PC_EVENTS_MAX 16		/* events one -e list may name */
#define PC_GROUP_MAX (PC_EVENTS_MAX + 2)	/* + the two disturbance counters */

struct pc_event {
	char name[128];			/* as the user wrote it */
	char encoding[256];		/* libpfm4's fully qualified name */
	struct perf_event_attr attr;
	int open_flags;			/* perf_event_open flags libpfm4 asks for */
	bool hardware;			/* counted by the PMU, not by the kernel */
	bool user_only;			/* kernel-mode counting was refused */
	bool counted;			/* open and in the group */
	int fd;				/* -1 unless open */
	uint64_t id;			/* perf's id, matched in group reads */
	char reason[256];		/* why it is not counted */
};

struct pc_events {
	struct pc_event ev[PC_GROUP_MAX];
	unsigned n;			/* the user's events: ev[0..n) */
	unsigned nall;			/* plus disturbance counters: ev[n..nall) */
	int leader;			/* group leader fd, -1 when nothing is open */
	unsigned nopen;			/* group members */
	bool reject;			/* discard disturbed samples */
	int cs, mig;			/* ev[] index of the disturbance counters */
	char reject_reason[256];	/* why disturbances are not counted */
};

/* One read of a counter (or of a group: enabled/running of the leader). */
struct pc_counter_reading {
	uint64_t value, enabled, running;
	bool ok;
};

/* One read of the group, values by ev[] index. */
struct pc_group_reading {
	uint64_t enabled, running;
	uint64_t value[PC_GROUP_MAX];
	bool ok;
};

/* What the counters saw during one timed loop. */
struct pc_loop_counts {
	uint64_t value[PC_GROUP_MAX];	/* by ev[] index */
	bool full;			/* every counter ran throughout the loop */
};

/* ---- naming and opening ------------------------------------------------- */

/* No events, nothing open. */
void pc_events_init(struct pc_events *e);

/* Encodes a comma-separated list with libpfm4 into e (which it resets).
 * An unknown event, an uncore event, a duplicate or too many: -1 and err
 * names the event and libpfm4's reason. Opens nothing. */
int pc_events_parse(const char *list, struct pc_events *e, char *err, size_t errlen);

/*
 * Opens the parsed events as one group, plus the disturbance counters when
 * reject is set. An event the kernel will not count here (no PMU, not
 * permitted) is left out with its reason in ev[i].reason: that is no error.
 * -1 with err only when the group that did open cannot be counted at once.
 */
int pc_events_open(struct pc_events *e, bool reject, char *err, size_t errlen);
void pc_events_close(struct pc_events *e);
/* True when there is a group to read. */
static inline bool pc_events_active(const struct pc_events *e)
{
	return e && e->leader >= 0;
}

/* Reads the group (one read(2)). */
void pc_events_read(const struct pc_events *e, struct pc_group_reading *r);

/*
 * Parses a group read buffer (PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING | ID: nr, enabled, running, then nr {value, id}) of
 * nbytes into r, placing each value by its id. -1 when the layout is not
 * that of the group.
 */
int pc_group_parse(const struct pc_events *e, const uint64_t *buf, size_t nbytes,
		   struct pc_group_reading *r);

/* ---- judging samples ----------------------------------------------------- */

/* Did a counter run for the whole interval between two readings? */
static inline bool pc_counter_full(const struct pc_counter_reading *a,
				   const struct pc_counter_reading *b)
{
	return a->ok && b->ok &&
	       b->enabled - a->enabled == b->running - a->running;
}

/* The counts of one loop between two group readings; out->full is ANDed
 * (the caller starts it true and may fold in other counters). */
void pc_events_loop(const struct pc_events *e, const struct pc_group_reading *r0,
		    const struct pc_group_reading *r1, struct pc_loop_counts *out);

/* The verdict on a sample made of nloops loops. */
enum pc_sample_verdict pc_events_verdict(const struct pc_events *e,
				  const struct pc_loop_counts *loops, unsigned nloops);

/* Does an event have figures here? A hardware counter that read 0 in every
 * loop (any_nonzero false) is not counting: unsupported, never 0.00. */
static inline bool pc_event_has_figures(const struct pc_event *ev, bool any_nonzero)
{
	return ev->counted && (!ev->hardware || any_nonzero);
}

/* ---- explaining ---------------------------------------------------------- */

struct pc_perf_context {
	int paranoid;			/* /proc/sys/kernel/perf_event_paranoid */
	bool root;
	bool virtual_machine;
};

/* This machine's context (reads /proc and /sys). */
void pc_perf_context(struct pc_perf_context *c);
/* Why perf_event_open failed with err for such an event, and the fix. */
void pc_perf_explain(const struct pc_perf_context *c, int err, bool hardware,
		     bool kernel, char *buf, size_t len);

/* Whether hardware events can count here; the reason and fix when not. */
bool pc_hardware_events_available(char *why, size_t len);

/* ---- listing ------------------------------------------------------------- */

struct pc_event_info {
	char name[160];			/* pmu::EVENT */
	const char *pmu_desc;
	const char *desc;
	const char *equiv;		/* another name for the same event, or NULL */
	bool hardware;
	bool counts;			/* the kernel accepts it here */
	char why[256];			/* why it does not, else "" */
	int idx;			/* libpfm4's event index */
	int nattrs;
};

/* Attribute a (0..nattrs) of event idx: a unit mask or a modifier. */
struct pc_event_attr {
	const char *name, *desc;
	bool umask;			/* a unit mask (else a modifier: u, k, c, ...) */
	bool dfl;			/* the default unit mask */
};
int pc_event_attr_get(int idx, int a, struct pc_event_attr *out);

/* Calls fn for every event of every PMU libpfm4 finds on this machine,
 * whose name matches the shell glob pattern (case-insensitive; NULL: all).
 * Returns the number of matches, -1 with err when libpfm4 fails. */
int pc_events_list(const char *pattern, void (*fn)(const struct pc_event_info *, void *),
		   void *ctx, char *err, size_t errlen);

#endif
