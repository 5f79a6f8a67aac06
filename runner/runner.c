/* SPDX-License-Identifier: MIT */
/*
 * runner.c - the freestanding probe runner's driver: the engine
 * (engine/engine.h) over a direct executor, its sink writing every sample
 * raw (runner.h documents the format). No statistics here: primcost
 * computes them from the raw lines, with the same code as for a native run
 * (src/core/samples.c).
 *
 * No libc: the platform (runner/<arch>/) provides output, the clock and the
 * entry point.
 */
#include <stdarg.h>

#include "runner.h"

static const struct {
	const char *name;
	int ring;
} rows[PC_PROBE_COUNT] = {
#define PC_PROBE(id, name, group, ring, syscalls, api, desc) \
	[PC_PROBE_##id] = { name, ring },
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

	cfg->samples = PC_SAMPLES_DEFAULT;
	cfg->rounds = PC_ROUNDS;
	cfg->min_ticks = 2000;
	cfg->sample_us = 20;
	for (id = 0; id < PC_PROBE_COUNT; id++)
		cfg->selected[id] = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (str_eq(a, "-n") || str_eq(a, "-u") || str_eq(a, "-t")) {
			if (i + 1 >= argc || parse_u64(argv[i + 1], &v) < 0 ||
			    (str_eq(a, "-n") && (v < 1 || v > 1000000)) ||
			    (str_eq(a, "-t") && (v < 1 || v > PC_MAX_ITERS)) ||
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

/* ---- measuring ----------------------------------------------------------------------------- */

const char *pc_runner_selfcheck(const struct pc_arch_probe *p)
{
	uint64_t ops;

	return pc_engine_selfcheck(p, 0, 0, &ops);
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

/* One probe of the runner: the engine's job, and the row it is. */
struct job {
	struct pc_job ej;
	int id;
	unsigned *failed;
};

static const char *job_name(const struct pc_job *ej)
{
	return rows[((const struct job *)ej->host)->id].name;
}

static enum pc_sample_verdict sink_sample(void *ctx, struct pc_job *ej, unsigned slot,
					  const struct pc_sample *x)
{
	(void)ctx;
	(void)slot;
	line_nums("s", job_name(ej), 4, x->probe.lo, x->probe.hi, x->cal.lo, x->cal.hi);
	return PC_SAMPLE_KEEP;
}

static void line_i64(struct pc_line *l, int64_t v)
{
	pc_line_str(l, " ");
	if (v < 0) {
		pc_line_str(l, "-");
		v = -v;
	}
	pc_line_u64(l, (uint64_t)v);
}

static void sink_linearity(void *ctx, struct pc_job *ej, int64_t d_n, int64_t d_2n)
{
	struct pc_line l = { .len = 0 };

	(void)ctx;
	pc_line_str(&l, "pcr lin ");
	pc_line_str(&l, job_name(ej));
	line_i64(&l, d_n);
	line_i64(&l, d_2n);
	pc_line_end(&l);
}

static void sink_failed(void *ctx, struct pc_job *ej, const char *phase,
			const char *why, uint64_t ops)
{
	(void)ctx;
	(void)ops;
	(*((struct job *)ej->host)->failed)++;
	if (phase[0] == 's' && phase[1] == 'e')	/* "self-check" */
		pc_runner_line("status", job_name(ej), "failed", "self-check failed:",
			       why, (char *)0);
	else
		pc_runner_line("status", job_name(ej), "failed", why, (char *)0);
}

static void sink_prepared(void *ctx, struct pc_job *ej)
{
	(void)ctx;
	line_nums("probe", job_name(ej), 2, ej->probe.iters, ej->cal.iters);
}

/* The row's body on this CPU (its fallback where the CPU lacks it, or
 * always where the CPU's features are unknown), or why it is not run:
 * a status line is written and NULL returned. */
static const struct pc_arch_probe *admit(const struct pc_runner_env *env, int id)
{
	const struct pc_arch_probe *p = &env->probes[id];

	while (p->unavailable && p->fallback &&
	       (!env->arch_env || p->unavailable(env->arch_env)))
		p = p->fallback;
	if (!p->run && p->unsupported) {
		pc_runner_line("status", rows[id].name, "unsupported",
			       p->unsupported, (char *)0);
		return 0;
	}
	if (!p->run) {
		pc_runner_line("status", rows[id].name, "unsupported", "no",
			       env->arch, "implementation in the freestanding",
			       "runner (it has no libc)", (char *)0);
		return 0;
	}
	if (rows[id].ring < env->ring) {
		pc_runner_line("status", rows[id].name, "skipped",
			       "needs ring 0 (privileged instructions fault",
			       "in user mode): the system-mode runner image",
			       "runs it", (char *)0);
		return 0;
	}
	if (!env->probes[PC_PROBE_calib_add_chain].run) {
		pc_runner_line("status", rows[id].name, "unsupported", "no add",
			       "chain to calibrate with", (char *)0);
		return 0;
	}
	return p;
}

unsigned pc_runner_run(const struct pc_runner_env *env,
		       const struct pc_runner_config *cfg)
{
	const struct pc_engine_host host = {
		.sample = sink_sample, .linearity = sink_linearity,
		.failed = sink_failed, .prepared = sink_prepared,
	};
	const struct pc_engine_config ecfg = { cfg->samples, cfg->rounds, 0 };	/* a fixed count */
	struct job jobs[PC_PROBE_COUNT];
	struct pc_job *ej[PC_PROBE_COUNT];
	unsigned failed = 0, n = 0;
	uint64_t target;
	int id;

	target = choose_target(cfg);
	line_nums("target", 0, 1, target);
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		const struct pc_arch_probe *p;
		struct job *j = &jobs[n];

		if (!cfg->selected[id] || !(p = admit(env, id)))
			continue;
		pc_job_clear(&j->ej);
		j->ej.live = 1;
		j->ej.host = j;
		j->ej.check = p;
		j->ej.target_ticks = target;
		j->ej.cal_target_ticks = target / 2 ? target / 2 : 1;
		j->id = id;
		j->failed = &failed;
		pc_loop_bind(&j->ej.probe, &pc_direct_executor, (void *)p, id);
		pc_loop_bind(&j->ej.cal, &pc_direct_executor,
			     (void *)&env->probes[PC_PROBE_calib_add_chain],
			     PC_PROBE_calib_add_chain);
		ej[n++] = &j->ej;
	}
	pc_engine_run(ej, n, &ecfg, &host);
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
