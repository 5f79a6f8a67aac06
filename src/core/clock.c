/* SPDX-License-Identifier: MIT */
/*
 * clock.c - timer ticks, core cycles, nanoseconds.
 *
 * The timer (TSC, cntvct_el0, ar.itc) runs at its own rate, which is not the
 * core clock: the TSC ticks at a fixed rate while the core turbos; ar.itc
 * ran at a quarter of the core clock on Itanium 2. Ticks become ns through
 * the timer's rate, and core cycles either through the PMU's cycles counter
 * or through calibration against the dependent add chain (measure.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "config.h"
#include "events.h"
#include "stats.h"

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#if __has_include("pmc.h")
#include "pmc.h"	/* arch/<arch>/pmc.h: user-mode counter reads */
#endif

const char *pc_cycles_source_name(enum pc_cycles_source s)
{
	return s == PC_CYCLES_PMU ? "pmu" : "calibrated";
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Ticks per second against CLOCK_MONOTONIC_RAW, median of three 10 ms
 * windows; the reads at each end cost well under a microsecond. */
static double measure_tick_hz(void)
{
	double rates[3];
	int i;

	for (i = 0; i < 3; i++) {
		double t0 = now_s(), t1;
		uint64_t k0 = pc_timer_read(), k1;

		do
			t1 = now_s();
		while (t1 - t0 < 0.010);
		k1 = pc_timer_read();
		rates[i] = (double)(k1 - k0) / (t1 - t0);
	}
	return pc_median(rates, 3);
}

/*
 * The timer's resolution in ticks: the greatest common divisor of the
 * non-zero differences between back-to-back reads. A counter that steps by
 * one (the TSC; a 24-100 MHz arm64 generic timer) gives 1 however long a
 * read takes; a 1 GHz counter scaled from a 25 MHz clock steps by 40 and
 * gives 40. 0 when the timer does not move.
 */
static uint64_t measure_tick_step(void)
{
	uint64_t g = 0;
	int i, spins;

	for (i = 0; i < 200; i++) {
		uint64_t a = pc_timer_read(), b = a, d;

		for (spins = 0; b == a && spins < 1000000; spins++)
			b = pc_timer_read();
		d = b - a;
		while (d) {		/* g = gcd(g, d) */
			uint64_t r = g % d;

			g = d;
			d = r;
		}
	}
	return g;
}

#define PMU_READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static int open_cycles(struct perf_event_attr *attr)
{
	return (int)syscall(SYS_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Maps the event's first page; tells whether rdpmc may read it, and why
 * not. The page is filled once the event has been scheduled in. */
static void pmu_map(struct pc_clock *c)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *pg;

	pg = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, c->pmu_fd, 0);
	if (pg == MAP_FAILED) {
		snprintf(c->pmu_read_reason, sizeof(c->pmu_read_reason),
			 "read(2): the perf mmap page cannot be mapped (%s)",
			 strerror(errno));
		return;
	}
	c->pmu_page = pg;
#ifdef PC_ARCH_HAVE_USER_PMC
	{
		const volatile struct perf_event_mmap_page *p = pg;
		struct pc_pmc_reading r;
		FILE *f;
		int allowed = -1;

		if (pc_arch_pmc_page_read(p, &r) == 0) {
			c->pmu_rdpmc = true;
			snprintf(c->pmu_read_reason, sizeof(c->pmu_read_reason),
				 "rdpmc through the perf mmap page");
			return;
		}
		f = fopen("/sys/bus/event_source/devices/cpu/rdpmc", "r");
		if (f) {
			if (fscanf(f, "%d", &allowed) != 1)
				allowed = -1;
			fclose(f);
		}
		if (allowed == 0)
			snprintf(c->pmu_read_reason, sizeof(c->pmu_read_reason),
				 "read(2): user-mode rdpmc is off (as root: echo 1 > "
				 "/sys/bus/event_source/devices/cpu/rdpmc)");
		else
			snprintf(c->pmu_read_reason, sizeof(c->pmu_read_reason),
				 "read(2): the kernel does not offer rdpmc for this "
				 "event (cap_user_rdpmc is 0)");
	}
#else
	snprintf(c->pmu_read_reason, sizeof(c->pmu_read_reason),
		 "read(2): this architecture has no user-mode counter read here");
#endif
}

static int pmu_open(struct pc_clock *c)
{
	struct pc_perf_context ctx;
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int ret, fd, e;

	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		snprintf(c->pmu_reason, sizeof(c->pmu_reason),
			 "libpfm4 failed to initialise: %s", pfm_strerror(ret));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	/* User and kernel mode, like the timer: a probe that enters the
	 * kernel (sigprocmask) costs the cycles it spends there. */
	ret = pfm_get_os_event_encoding("cycles", PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(c->pmu_reason, sizeof(c->pmu_reason),
			 "libpfm4 cannot encode 'cycles' here: %s", pfm_strerror(ret));
		return -1;
	}
	attr.size = sizeof(attr);
	attr.exclude_hv = 1;
	attr.read_format = PMU_READ_FORMAT;
	fd = open_cycles(&attr);
	e = errno;
	if (fd < 0 && (e == EACCES || e == EPERM)) {
		attr.exclude_kernel = 1;
		fd = open_cycles(&attr);
		e = errno;
		c->pmu_user_only = fd >= 0;
	}
	if (fd < 0) {
		pc_perf_context(&ctx);
		pc_perf_explain(&ctx, e, true, !attr.exclude_kernel, c->pmu_reason,
				sizeof(c->pmu_reason));
		return -1;
	}
	return pc_clock_pmu_attach(c, fd);
}

int pc_clock_pmu_attach(struct pc_clock *c, int fd)
{
	struct pc_counter_reading r0, r1;
	volatile unsigned long spin;

	c->pmu_fd = fd;
	pc_clock_pmu_sample(c, &r0);
	for (spin = 0; spin < 100000; spin++)
		;
	pc_clock_pmu_sample(c, &r1);
	if (!r0.ok || !r1.ok || r1.value == r0.value) {
		snprintf(c->pmu_reason, sizeof(c->pmu_reason), "the cycles counter "
			 "opened but does not count%s", !r1.ok ? " (reads fail)" :
			 r1.running == r0.running ? " (never scheduled on the PMU)" : "");
		close(fd);
		c->pmu_fd = -1;
		return -1;
	}
	pmu_map(c);
	c->source = PC_CYCLES_PMU;
	return 0;
}

int pc_clock_init(struct pc_clock *c, bool want_pmu, char *err, size_t errlen)
{
	uint64_t hz = pc_arch_timer_hz();

	memset(c, 0, sizeof(*c));
	c->timer = pc_arch_timer_name;
	c->pmu_fd = -1;
	c->source = PC_CYCLES_CALIBRATED;
	if (hz) {
		c->tick_hz = (double)hz;
	} else {
		c->tick_hz = measure_tick_hz();
		c->tick_hz_measured = true;
	}
	if (!(c->tick_hz > 0)) {
		snprintf(err, errlen, "cannot determine the %s rate", c->timer);
		return -1;
	}
	c->tick_step = measure_tick_step();
	if (!c->tick_step) {
		snprintf(err, errlen, "the %s does not advance", c->timer);
		return -1;
	}
	if (want_pmu && pmu_open(c) == 0)
		c->source = PC_CYCLES_PMU;
	if (!want_pmu)
		snprintf(c->pmu_reason, sizeof(c->pmu_reason), "PMU not requested");
	return 0;
}

void pc_clock_close(struct pc_clock *c)
{
	if (c->pmu_page)
		munmap(c->pmu_page, (size_t)sysconf(_SC_PAGESIZE));
	c->pmu_page = NULL;
	c->pmu_rdpmc = false;
	if (c->pmu_fd >= 0)
		close(c->pmu_fd);
	c->pmu_fd = -1;
}

uint64_t pc_clock_pmu_read(const struct pc_clock *c)
{
	struct pc_counter_reading r;

	pc_clock_pmu_sample(c, &r);
	return r.ok ? r.value : 0;
}

void pc_clock_pmu_sample(const struct pc_clock *c, struct pc_counter_reading *r)
{
	uint64_t v[3];

	memset(r, 0, sizeof(*r));
#ifdef PC_ARCH_HAVE_USER_PMC
	if (c->pmu_rdpmc) {
		struct pc_pmc_reading p;

		/* The page's times are those of the last schedule-in: equal
		 * deltas before and after mean it stayed on its counter. */
		if (pc_arch_pmc_page_read(c->pmu_page, &p) == 0) {
			r->value = p.count;
			r->enabled = p.enabled;
			r->running = p.running;
			r->ok = true;
			return;
		}
		/* Not on a counter right now: not a sample to trust. */
		return;
	}
#endif
	if (read(c->pmu_fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return;
	r->value = v[0];
	r->enabled = v[1];
	r->running = v[2];
	r->ok = true;
}
