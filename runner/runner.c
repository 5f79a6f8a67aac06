/* SPDX-License-Identifier: MIT */
/*
 * runner.c - the freestanding probe runner's driver: self-checks, sizing,
 * warm-up, differential samples with a paired add-chain calibration, a
 * linearity check, all written raw (runner.h documents the format).
 * No statistics here: primcost computes them from the raw lines, with the
 * same code as for a native run.
 *
 * No libc: the platform (runner/<arch>/) provides output, the clock and the
 * entry point.
 */
#include <stdarg.h>

#include "runner.h"

#define WARMUP_PAIRS 30
#define MAX_ITERS (1ULL << 32)

static const struct {
	const char *name;
	int ring;
} rows[PC_PROBE_COUNT] = {
#define PC_PROBE(id, name, group, ring, api, desc) [PC_PROBE_##id] = { name, ring },
#include "probes/probes.def"
#undef PC_PROBE
};

/* ---- small freestanding helpers ------------------------------------------------- */

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static void zero_state(struct pc_probe_state *s)
{
	volatile unsigned char *p = (volatile unsigned char *)s;
	unsigned long i;

	for (i = 0; i < sizeof(*s); i++)
		p[i] = 0;
}

static void copy_state(struct pc_probe_state *d, const struct pc_probe_state *s)
{
	unsigned int i;

	for (i = 0; i < PC_STATE_WORDS; i++)
		d->mem[i] = s->mem[i];
	for (i = 0; i < 4; i++)
		d->reg[i] = s->reg[i];
}

uint64_t pc_udiv64(uint64_t n, uint64_t d)
{
	uint64_t q = 0, r = 0;
	int i;

	if (!d)
		return 0;
	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ULL << i;
		}
	}
	return q;
}

/* Parses a whole decimal number; -1 when it is not one. */
static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (~0ULL - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

/* ---- output ---------------------------------------------------------------------------- */

void pc_line_str(struct pc_line *l, const char *s)
{
	while (*s && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

void pc_line_u64(struct pc_line *l, uint64_t v)
{
	char d[24];
	int n = 0;

	/* Division by a constant: a multiply-high, no runtime library call. */
	do {
		d[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	while (n && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = d[--n];
}

void pc_line_end(struct pc_line *l)
{
	l->buf[l->len++] = '\n';
	pc_rt_write(l->buf, l->len);
	l->len = 0;
}

void pc_runner_line(const char *first, ...)
{
	struct pc_line l = { .len = 0 };
	const char *w;
	va_list ap;

	pc_line_str(&l, "pcr");
	va_start(ap, first);
	for (w = first; w; w = va_arg(ap, const char *)) {
		pc_line_str(&l, " ");
		pc_line_str(&l, w);
	}
	va_end(ap);
	pc_line_end(&l);
}

/* "pcr WORD NAME N1 N2 ..." with n numbers. */
static void line_nums(const char *word, const char *name, int n, ...)
{
	struct pc_line l = { .len = 0 };
	va_list ap;

	pc_line_str(&l, "pcr ");
	pc_line_str(&l, word);
	if (name) {
		pc_line_str(&l, " ");
		pc_line_str(&l, name);
	}
	va_start(ap, n);
	while (n-- > 0) {
		pc_line_str(&l, " ");
		pc_line_u64(&l, va_arg(ap, uint64_t));
	}
	va_end(ap);
	pc_line_end(&l);
}

/* ---- arguments -------------------------------------------------------------------------- */

int pc_runner_parse_args(int argc, char **argv, int ring,
			 struct pc_runner_config *cfg)
{
	int i, id, named = 0;
	uint64_t v;

	cfg->samples = 101;
	cfg->rounds = 10;
	cfg->min_ticks = 2000;
	cfg->sample_us = 20;
	for (id = 0; id < PC_PROBE_COUNT; id++)
		cfg->selected[id] = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (str_eq(a, "-n") || str_eq(a, "-u") || str_eq(a, "-t")) {
			if (i + 1 >= argc || parse_u64(argv[i + 1], &v) < 0 ||
			    (str_eq(a, "-n") && (v < 1 || v > 1000000)) ||
			    (str_eq(a, "-t") && (v < 1 || v > MAX_ITERS)) ||
			    (str_eq(a, "-u") && v > 1000000)) {
				pc_runner_line("error", a, "wants a number in range", (char *)0);
				return -1;
			}
			if (str_eq(a, "-n"))
				cfg->samples = (unsigned)v;
			else if (str_eq(a, "-u"))
				cfg->sample_us = v;
			else
				cfg->min_ticks = v;
			i++;
			continue;
		}
		for (id = 0; id < PC_PROBE_COUNT; id++)
			if (str_eq(a, rows[id].name))
				break;
		if (id == PC_PROBE_COUNT) {
			pc_runner_line("error", "no such probe:", a, (char *)0);
			return -1;
		}
		cfg->selected[id] = 1;
		named = 1;
	}
	/* No names: what this mode is for. User mode runs the ring-3 rows and
	 * reports the ring-0 ones skipped; system mode runs the ring-0 rows. */
	if (!named)
		for (id = 0; id < PC_PROBE_COUNT; id++)
			cfg->selected[id] = ring == 0 ? rows[id].ring == 0 : 1;
	if (cfg->rounds > cfg->samples)
		cfg->rounds = cfg->samples;
	return 0;
}

/* ---- self-check -------------------------------------------------------------------------- */

/* The same sequence as the core's pc_selfcheck() (src/measure.c): 1 and 3
 * iterations of both loop lengths, each checked, then the semantics. */
const char *pc_runner_selfcheck(const struct pc_arch_probe *p)
{
	static const uint64_t iters_list[] = { 1, 3 };
	struct pc_probe_state before, st;
	const char *why;
	unsigned i;
	int hi;

	for (hi = 0; hi <= 1; hi++) {
		for (i = 0; i < 2; i++) {
			uint64_t ops = iters_list[i] *
				       (uint64_t)(hi ? PC_UNROLL_HI : PC_UNROLL_LO);

			zero_state(&st);
			if (p->init)
				p->init(&st);
			copy_state(&before, &st);
			p->run(&st, iters_list[i], hi);
			why = p->check(&before, &st, ops);
			if (why)
				return why;
		}
	}
	if (p->semantics) {
		zero_state(&st);
		why = p->semantics(&st);
		if (why)
			return why;
	}
	return 0;
}

/* ---- measuring ----------------------------------------------------------------------------- */

struct job {
	const struct pc_arch_probe *p;
	struct pc_probe_state st, cal_st;
	uint64_t iters, cal_iters;
	unsigned flip;
	int active;
};

/* One differential pair: the LO and HI loops, in alternating order. */
static void pair(const struct pc_arch_probe *p, struct pc_probe_state *st,
		 uint64_t iters, unsigned *flip, uint64_t *lo, uint64_t *hi)
{
	if ((*flip)++ & 1) {
		*hi = p->run(st, iters, 1);
		*lo = p->run(st, iters, 0);
	} else {
		*lo = p->run(st, iters, 0);
		*hi = p->run(st, iters, 1);
	}
}

/* Smallest power-of-two iteration count whose HI loop lasts target ticks;
 * 0 when the timer has not moved after 65536 iterations (a timer that does
 * not count would otherwise size the loop for hours). */
static uint64_t size_loop(const struct pc_arch_probe *p, struct pc_probe_state *st,
			  uint64_t target)
{
	uint64_t iters = 1;

	while (iters < MAX_ITERS) {
		uint64_t a = p->run(st, iters, 1), b = p->run(st, iters, 1);

		if ((a < b ? a : b) >= target)
			break;
		if (iters >= (1 << 16) && !a && !b)
			return 0;
		iters <<= 1;
	}
	return iters;
}

/* Ticks a timed loop should last: sample_us by the clock, at least
 * min_ticks. Writes the clock windows it measured. */
static uint64_t choose_target(const struct pc_runner_config *cfg)
{
	uint64_t best = 0;
	int w;

	for (w = 0; w < 3; w++) {
		uint64_t us0, us1, t0, t1;

		if (pc_rt_clock_us(&us0) < 0)
			return cfg->min_ticks;
		t0 = pc_timer_read();
		do {
			if (pc_rt_clock_us(&us1) < 0)
				return cfg->min_ticks;
		} while (us1 - us0 < 10000);
		t1 = pc_timer_read();
		line_nums("clock", 0, 4, us0, t0, us1, t1);
		/* ticks in sample_us, from this window; keep the largest */
		if (us1 > us0) {
			uint64_t t = pc_udiv64((t1 - t0) * cfg->sample_us, us1 - us0);

			if (t > best)
				best = t;
		}
	}
	return best > cfg->min_ticks ? best : cfg->min_ticks;
}

unsigned pc_runner_run(const struct pc_runner_env *env,
		       const struct pc_runner_config *cfg)
{
	const struct pc_arch_probe *cal = &env->probes[PC_PROBE_calib_add_chain];
	struct job jobs[PC_PROBE_COUNT];
	uint64_t target, cal_target;
	unsigned failed = 0, round, n;
	int id;

	target = choose_target(cfg);
	cal_target = target / 2 ? target / 2 : 1;
	line_nums("target", 0, 1, target);

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		struct job *j = &jobs[id];
		const char *why;

		j->active = 0;
		if (!cfg->selected[id])
			continue;
		j->p = &env->probes[id];
		/* A body this CPU may lack gives way to the kernel's fallback;
		 * without the CPU's features to go by, always. */
		while (j->p->unavailable && j->p->fallback &&
		       (!env->arch_env || j->p->unavailable(env->arch_env)))
			j->p = j->p->fallback;
		if (!j->p->run && j->p->unsupported) {
			pc_runner_line("status", rows[id].name, "unsupported",
				       j->p->unsupported, (char *)0);
			continue;
		}
		if (!j->p->run) {
			pc_runner_line("status", rows[id].name, "unsupported", "no",
				       env->arch, "implementation in the freestanding",
				       "runner (it has no libc)", (char *)0);
			continue;
		}
		if (rows[id].ring < env->ring) {
			pc_runner_line("status", rows[id].name, "skipped",
				       "needs ring 0 (privileged instructions fault",
				       "in user mode): the system-mode runner image",
				       "runs it", (char *)0);
			continue;
		}
		why = pc_runner_selfcheck(j->p);
		if (why) {
			pc_runner_line("status", rows[id].name, "failed",
				       "self-check failed:", why, (char *)0);
			failed++;
			continue;
		}
		if (!cal->run) {
			pc_runner_line("status", rows[id].name, "unsupported", "no add",
				       "chain to calibrate with", (char *)0);
			continue;
		}
		zero_state(&j->st);
		if (j->p->init)
			j->p->init(&j->st);
		zero_state(&j->cal_st);
		j->flip = 0;
		j->iters = size_loop(j->p, &j->st, target);
		j->cal_iters = size_loop(cal, &j->cal_st, cal_target);
		if (!j->iters || !j->cal_iters) {
			pc_runner_line("status", rows[id].name, "failed", "the timer",
				       env->timer, "did not advance over 65536 loop",
				       "iterations", (char *)0);
			failed++;
			continue;
		}
		for (n = 0; n < WARMUP_PAIRS; n++) {
			uint64_t lo, hi;

			pair(j->p, &j->st, j->iters, &j->flip, &lo, &hi);
		}
		j->active = 1;
		line_nums("probe", rows[id].name, 2, j->iters, j->cal_iters);
	}

	/* Rounds: each takes its share of every probe's samples, so that a
	 * disturbance touches a little of every probe rather than all of one. */
	for (round = 0; round < cfg->rounds; round++) {
		unsigned share = (unsigned)(pc_udiv64((uint64_t)cfg->samples * (round + 1),
						      cfg->rounds) -
					    pc_udiv64((uint64_t)cfg->samples * round,
						      cfg->rounds));

		for (id = 0; id < PC_PROBE_COUNT; id++) {
			struct job *j = &jobs[id];

			if (!j->active)
				continue;
			for (n = 0; n < share; n++) {
				uint64_t lo, hi, clo, chi;
				unsigned cflip = j->flip;

				pair(j->p, &j->st, j->iters, &j->flip, &lo, &hi);
				pair(cal, &j->cal_st, j->cal_iters, &cflip, &clo, &chi);
				line_nums("s", rows[id].name, 4, lo, hi, clo, chi);
			}
		}
	}
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		struct job *j = &jobs[id];

		if (!j->active)
			continue;
		for (n = 0; n < PC_RUNNER_LINEARITY_PAIRS; n++) {
			uint64_t lo, hi, lo2, hi2;

			pair(j->p, &j->st, j->iters, &j->flip, &lo, &hi);
			pair(j->p, &j->st, 2 * j->iters, &j->flip, &lo2, &hi2);
			line_nums("lin", rows[id].name, 2, hi - lo, hi2 - lo2);
		}
	}
	return failed;
}

int pc_runner_main(int argc, char **argv)
{
	struct pc_runner_env env = {
		.probes = pc_arch_probes,
		.ring = pc_rt_ring(),
		.arch = pc_arch_name,
		.timer = pc_arch_timer_name,
	};
	struct pc_runner_config cfg;
	unsigned failed;

	pc_runner_line("primcost-runner", "1", (char *)0);
	pc_runner_line("arch", env.arch, (char *)0);
	pc_runner_line("mode", env.ring == 0 ? "system" : "user", (char *)0);
	pc_runner_line("timer", env.timer, (char *)0);
	line_nums("unroll", 0, 2, (uint64_t)PC_UNROLL_LO, (uint64_t)PC_UNROLL_HI);
	pc_rt_describe_cpu();
	if (pc_runner_parse_args(argc, argv, env.ring, &cfg) < 0)
		return 2;
	failed = pc_runner_run(&env, &cfg);
	line_nums("end", 0, 1, (uint64_t)failed);
	return failed ? 1 : 0;
}
