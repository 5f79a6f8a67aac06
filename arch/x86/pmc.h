/* SPDX-License-Identifier: MIT */
/*
 * x86 user-mode counter reads: rdpmc, and the perf mmap-page protocol that
 * tells which hardware counter holds an event and what to add to it.
 *
 * Freestanding like the rest of arch/: the page layout comes from the
 * kernel's uapi header (types only), the counter read is one instruction.
 */
#ifndef PC_X86_PMC_H
#define PC_X86_PMC_H

#include <stdint.h>
#include <linux/perf_event.h>

/*
 * rdpmc is not ordered with the instructions around it: lfence before it
 * waits for the work being counted to complete, lfence after keeps later
 * work out, the same fencing as the timer read (timer.h).
 */
static inline uint64_t pc_x86_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdpmc\n\tlfence"
			 : "=a"(lo), "=d"(hi) : "c"(counter) : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* One consistent snapshot of an event through its mmap page. */
struct pc_pmc_reading {
	uint64_t count;		/* the event's value */
	uint64_t enabled;	/* time_enabled, time_running as of the last */
	uint64_t running;	/* time the kernel scheduled the event in */
	uint32_t retries;	/* snapshots the seqlock made us retake */
};

#define PC_PMC_MAX_RETRIES 1000

/*
 * The kernel's self-monitoring protocol (include/uapi/linux/perf_event.h):
 * take the page's seqlock count, read offset and index, add the hardware
 * counter index - 1 sign-extended from pmc_width bits, and start again if
 * the count moved (the kernel rewrote the page in between, on this CPU).
 * `rdpmc` is the counter read, a parameter so that the protocol can be
 * tested on a synthetic page; pass pc_x86_rdpmc.
 *
 * Returns 0 with *r filled, or -1 when the counter cannot be read from user
 * mode right now (rdpmc not offered, the event not on a counter, or the page
 * never held still): the caller then read()s the event.
 */
static inline int pc_perf_page_read(const volatile struct perf_event_mmap_page *pg,
				    uint64_t (*rdpmc)(uint32_t),
				    struct pc_pmc_reading *r)
{
	uint32_t seq, index, width, tries = 0;
	uint64_t count, enabled, running;
	int user_rdpmc;

	do {
		if (tries++ == PC_PMC_MAX_RETRIES)
			return -1;
		seq = pg->lock;
		__asm__ volatile("" ::: "memory");
		enabled = pg->time_enabled;
		running = pg->time_running;
		index = pg->index;
		count = (uint64_t)pg->offset;
		user_rdpmc = pg->cap_user_rdpmc;
		width = pg->pmc_width;
		if (user_rdpmc && index && width >= 1 && width <= 64) {
			uint64_t raw = rdpmc(index - 1);

			/* sign-extend the counter's width-bit value */
			if (width < 64)
				raw = (uint64_t)((int64_t)(raw << (64 - width)) >>
						 (64 - width));
			count += raw;
		}
		__asm__ volatile("" ::: "memory");
	} while (pg->lock != seq);
	if (!user_rdpmc || !index || width < 1 || width > 64)
		return -1;
	r->count = count;
	r->enabled = enabled;
	r->running = running;
	r->retries = tries - 1;
	return 0;
}

#endif
