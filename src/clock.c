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

#include "config.h"
#include "primcost.h"

#ifdef HAVE_LIBPFM
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <sys/syscall.h>
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

#ifdef HAVE_LIBPFM
static int pmu_open(struct pc_clock *c)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	uint64_t v0, v1;
	volatile unsigned long spin;
	int ret, fd;

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
	ret = pfm_get_os_event_encoding("cycles", PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(c->pmu_reason, sizeof(c->pmu_reason),
			 "libpfm4 cannot encode 'cycles' here: %s", pfm_strerror(ret));
		return -1;
	}
	attr.size = sizeof(attr);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			snprintf(c->pmu_reason, sizeof(c->pmu_reason),
				 "perf_event_open(cycles): %s (lower "
				 "/proc/sys/kernel/perf_event_paranoid or run as root)",
				 strerror(e));
		else
			snprintf(c->pmu_reason, sizeof(c->pmu_reason),
				 "no PMU cycles counter: perf_event_open(cycles): %s%s",
				 strerror(e), e == ENOENT || e == EOPNOTSUPP ?
				 " (typical of a virtual machine without a virtual PMU)" : "");
		return -1;
	}
	c->pmu_fd = fd;
	v0 = pc_clock_pmu_read(c);
	for (spin = 0; spin < 100000; spin++)
		;
	v1 = pc_clock_pmu_read(c);
	if (v1 == v0) {
		snprintf(c->pmu_reason, sizeof(c->pmu_reason),
			 "the cycles counter opened but does not count");
		close(fd);
		c->pmu_fd = -1;
		return -1;
	}
	return 0;
}
#endif

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
#ifdef HAVE_LIBPFM
	if (want_pmu && pmu_open(c) == 0)
		c->source = PC_CYCLES_PMU;
#else
	snprintf(c->pmu_reason, sizeof(c->pmu_reason), "built without libpfm4");
#endif
	if (!want_pmu)
		snprintf(c->pmu_reason, sizeof(c->pmu_reason), "PMU not requested");
	return 0;
}

void pc_clock_close(struct pc_clock *c)
{
	if (c->pmu_fd >= 0)
		close(c->pmu_fd);
	c->pmu_fd = -1;
}

uint64_t pc_clock_pmu_read(const struct pc_clock *c)
{
	uint64_t v = 0;

	if (read(c->pmu_fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}
