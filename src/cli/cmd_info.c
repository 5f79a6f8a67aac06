/* SPDX-License-Identifier: MIT */
/* cmd_info.c - primcost info: what primcost detects about this machine. */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "core/environment.h"
#include "core/events.h"
#include "results/results.h"
#include "ring0/ring0.h"

static const char usage_text[] =
	"usage: primcost info [OPTIONS]\n"
	"\n"
	"Show the CPU's identity and model key, what besides the CPU moves the\n"
	"figures (microcode, firmware, the kernel's command line, mitigations,\n"
	"preemption model and configuration, the frequency driver, governor and\n"
	"boost, SMT, huge pages: each a value or unknown with the reason), the\n"
	"timer and its rate, where core cycles come from (PMU or calibration)\n"
	"and why, whether hardware events can be counted, whether disturbed\n"
	"samples can be detected, which hypervisor serves /dev/kvm, and whether\n"
	"ring-0 timings are trustworthy here.\n"
	"\n"
	"  -c, --cpu N           pin to CPU N for the calibration\n"
	"      --ring0 MODE      way into ring 0 to validate: auto, kvm, kmod or\n"
	"                        none (default auto)\n"
	"  -f, --format FMT      table (or text) or json (default table)\n"
	"  -h, --help            this help\n";

enum { OPT_RING0 = 256 };

static const struct option long_options[] = {
	{ "cpu", required_argument, NULL, 'c' },
	{ "ring0", required_argument, NULL, OPT_RING0 },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* ---- the model: everything info says, as one JSON object --------------------- */

struct info_sources {
	struct pc_cpu_info ci;
	struct pc_clock clk;
	double cpt;
	int cpu;
	struct pc_ring0 *r0;
	struct pc_events dist;
	bool hw_ok;
	char hw_why[256];
	char kvm_detail[160];
	const char *kvm_kind;
	struct pc_env *env;
};

static json_t *info_json(const struct info_sources *x)
{
	const struct pc_clock *clk = &x->clk;
	const struct pc_events *dist = &x->dist;
	json_t *out = json_pack("{s:s}", "schema", PC_INFO_SCHEMA),
	       *cpu = pc_json_cpu(&x->ci, clk, x->cpt);

	if (!out || !cpu || json_object_update(out, cpu) < 0) {
		json_decref(out);
		json_decref(cpu);
		return NULL;
	}
	json_decref(cpu);
	json_object_set_new(out, "model_key", json_string(x->ci.key));
	json_object_set_new(out, "kernel", json_string(x->ci.kernel));
	json_object_set_new(out, "environment", pc_json_environment(x->env));
	json_object_set_new(out, "pinned_cpu", json_integer(x->cpu));
	json_object_set_new(out, "cycles_source",
			    json_string(pc_cycles_source_name(clk->source)));
	json_object_set_new(out, "cycles_per_tick", json_real(x->cpt));
	json_object_set_new(out, "sample_min_us",
			    json_real(pc_sample_ticks(clk, 0) * 1e6 / clk->tick_hz));
	if (clk->source != PC_CYCLES_PMU) {
		json_object_set_new(out, "pmu_reason", json_string(clk->pmu_reason));
	} else {
		json_object_set_new(out, "pmu_read", json_string(clk->pmu_read_reason));
		json_object_set_new(out, "pmu_user_only", json_boolean(clk->pmu_user_only));
	}
	json_object_set_new(out, "hardware_events", x->hw_ok ?
			    json_pack("{s:b}", "available", 1) :
			    json_pack("{s:b, s:s}", "available", 0, "reason", x->hw_why));
	json_object_set_new(out, "disturbance", dist->reject ?
			    json_pack("{s:b, s:[s, s]}", "checked", 1, "counters",
				      dist->ev[dist->cs].name, dist->ev[dist->mig].name) :
			    json_pack("{s:b, s:s}", "checked", 0, "reason",
				      dist->reject_reason));
	json_object_set_new(out, "kvm", json_pack("{s:s, s:s}", "kind", x->kvm_kind,
						  "detail", x->kvm_detail));
	if (x->r0)
		json_object_set_new(out, "ring0", pc_ring0_json(x->r0));
	else
		json_object_set_new(out, "ring0", json_pack("{s:n, s:s}", "backend",
				    "why_unavailable", pc_ring0_why_none(NULL)));
	if (x->ci.emulated[0])
		json_object_set_new(out, "emulated", json_string(x->ci.emulated));
	return out;
}

/* ---- the text view, rendered from the model ----------------------------------- */

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static long long num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static double real(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* The text being made: lines of a 15-column label and its value, wrapped
 * to the terminal when done. */
static FILE *txt;

static void render_identity(json_t *o)
{
	json_t *v;

	fprintf(txt, "model key\t%s\n", str(o, "model_key"));
	fprintf(txt, "cpu\t%s (%s), family %lld model %lld stepping %lld\n",
	       str(o, "brand"), *str(o, "vendor") ? str(o, "vendor") : "vendor unknown",
	       num(o, "family"), num(o, "model"), num(o, "stepping"));
	if (*str(o, "uarch"))
		fprintf(txt, "uarch\t%s (%s)\n", str(o, "uarch"), str(o, "uarch_source"));
	else
		fprintf(txt, "uarch\tunknown (not in data/uarch.tsv)\n");
	if (*str(o, "codename"))
		fprintf(txt, "codename\t%s (libcpuid)\n", str(o, "codename"));
	if (*str(o, "codename_note"))
		fprintf(txt, "codename\t%s\n", str(o, "codename_note"));
	if (*str(o, "pmu"))
		fprintf(txt, "pmu model\t%s\n", str(o, "pmu"));
	else
		fprintf(txt, "pmu model\tnone: %s\n", *str(o, "pmu_note") ? str(o, "pmu_note") :
		       "libpfm4 detected no core PMU");
	if ((v = json_object_get(o, "midr")))
		fprintf(txt, "midr_el1\t%s (part 0x%03llx, r%lldp%lld)\n", json_string_value(v),
		       num(o, "family"), num(o, "model"), num(o, "stepping"));
}

static void render_topology(json_t *o)
{
	json_t *t = json_object_get(o, "topology"), *c, *caches = json_object_get(o, "caches_kb");
	size_t i;

	if (t && json_object_get(t, "cores"))
		fprintf(txt, "topology\t%lld package%s, %lld NUMA node%s, %lld cores, %lld "
		       "thread%s per core: %lld CPUs online (%s)\n", num(t, "packages"),
		       num(t, "packages") == 1 ? "" : "s", num(t, "numa_nodes"),
		       num(t, "numa_nodes") == 1 ? "" : "s", num(t, "cores"),
		       num(t, "threads_per_core"), num(t, "threads_per_core") == 1 ? "" : "s",
		       num(t, "threads"), str(t, "source"));
	else
		fprintf(txt, "topology\t%lld CPUs online (%s)\n", num(o, "threads"),
		       t ? str(t, "source") : "sysconf");
	if (t && *str(t, "allowed_cpus"))
		fprintf(txt, "may run on\tCPUs %s\n", str(t, "allowed_cpus"));
	fprintf(txt, "caches\tL1d %lld KiB, L1i %lld KiB, L2 %lld KiB, L3 %lld KiB (CPUID)\n",
	       num(caches, "l1d"), num(caches, "l1i"), num(caches, "l2"), num(caches, "l3"));
	if (*str(o, "caches_note"))
		fprintf(txt, "\t%s\n", str(o, "caches_note"));
	json_array_foreach(t ? json_object_get(t, "caches") : NULL, i, c)
		fprintf(txt, "%s\tL%lld%s %lld KiB, %lld of them, %lld CPU%s each: %s\n",
		       i ? "" : "cache sharing", num(c, "level"),
		       strcmp(str(c, "type"), "data") == 0 ? "d" :
		       strcmp(str(c, "type"), "instruction") == 0 ? "i" : "",
		       num(c, "size_kb"), num(c, "instances"), num(c, "cpus_each"),
		       num(c, "cpus_each") == 1 ? "" : "s", str(c, "sharing"));
}

static void render_virtualization(json_t *o)
{
	json_t *v = json_object_get(o, "virtualization");

	if (!json_is_true(json_object_get(o, "virtualized"))) {
		fprintf(txt, "virtualized\tno\n");
		return;
	}
	fprintf(txt, "virtualized\tyes");
	if (v && *str(v, "cpuid"))
		fprintf(txt, ": %s by CPUID (signature \"%s\")", str(v, "cpuid"),
		       str(v, "cpuid_signature"));
	if (v && *str(v, "kernel"))
		fprintf(txt, "%s%s by the kernel (%s)", *str(v, "cpuid") ? ", " : ": ",
		       str(v, "kernel"), str(v, "kernel_source"));
	if (!v || (!*str(v, "cpuid") && !*str(v, "kernel")))
		fprintf(txt, ", hypervisor %s", *str(o, "hypervisor") ? str(o, "hypervisor") :
		       "not named by CPUID or the kernel");
	fputc('\n', txt);
}

static void render_clock(json_t *o)
{
	json_t *timer = json_object_get(o, "timer"), *d;
	double hz = real(timer, "hz"), step = (double)num(timer, "resolution_ticks");

	fprintf(txt, "timer\t%s at %.3f MHz (%s)\n", str(timer, "name"), hz / 1e6,
	       json_is_true(json_object_get(timer, "measured")) ?
	       "measured against CLOCK_MONOTONIC_RAW" : "stated by the hardware");
	fprintf(txt, "timer step\t%.0f tick%s (%.1f ns); a sample lasts at least %.1f us\n",
	       step, step == 1 ? "" : "s", step * 1e9 / hz, real(o, "sample_min_us"));
	fprintf(txt, "core clock\tabout %.0f MHz (%.4f cycles per tick, CPU %lld)\n",
	       hz * real(o, "cycles_per_tick") / 1e6, real(o, "cycles_per_tick"),
	       num(o, "pinned_cpu"));
	if (strcmp(str(o, "cycles_source"), "pmu") == 0) {
		fprintf(txt, "cycles source\tpmu\n");
		fprintf(txt, "cycles read\t%s%s\n", str(o, "pmu_read"),
		       json_is_true(json_object_get(o, "pmu_user_only")) ? "; user mode "
		       "only (kernel-mode counting not permitted)" : "");
	} else {
		fprintf(txt, "cycles source\t%s: %s\n", str(o, "cycles_source"), str(o, "pmu_reason"));
	}
	d = json_object_get(o, "hardware_events");
	fprintf(txt, "hw events\t%s%s\n", json_is_true(json_object_get(d, "available")) ?
	       "can be counted (run -e)" : "not here: ", str(d, "reason"));
	d = json_object_get(o, "disturbance");
	if (json_is_true(json_object_get(d, "checked")))
		fprintf(txt, "disturbance\tdetected with %s and %s: samples that saw either "
		       "are discarded\n",
		       json_string_value(json_array_get(json_object_get(d, "counters"), 0)),
		       json_string_value(json_array_get(json_object_get(d, "counters"), 1)));
	else
		fprintf(txt, "disturbance\tnot detected: %s\n", str(d, "reason"));
}

/* A value as the text shows it: a word longer than PC_INFO_WORD_MAX (a
 * long command-line argument) cut short with "...", so that every line
 * fits the terminal; the JSON carries it whole. */
#define PC_INFO_WORD_MAX 60
static const char *shortened(const char *s, char *out, size_t len)
{
	size_t n = 0;

	while (*s && n + 1 < len) {
		size_t w = strcspn(s, " ");

		if (w > PC_INFO_WORD_MAX) {
			n += (size_t)snprintf(out + n, len - n, "%.*s...",
					      PC_INFO_WORD_MAX - 3, s);
			s += w;
		} else {
			n += (size_t)snprintf(out + n, len - n, "%.*s", (int)w, s);
			s += w;
		}
		if (n < len && *s == ' ')
			out[n++] = *s++;
		if (n >= len)
			n = len - 1;
	}
	out[n] = 0;
	return out;
}

/* One fact: its value, then where it was read and what qualifies it. */
static void render_env_value(const char *label, json_t *f)
{
	char v[PC_ENV_VALUE + 16];

	fprintf(txt, "%s\t%s (%s%s%s)\n", label, shortened(str(f, "value"), v, sizeof(v)),
		str(f, "source"), *str(f, "note") ? "; " : "", str(f, "note"));
}

/* A list: the kernel's options as NAME=VALUE words, where they were read
 * first; other lines one by one, those that share a value with two more
 * (the vulnerabilities that do not affect this CPU) together on one. */
static void render_env_lines(const char *label, json_t *f, bool kconfig)
{
	json_t *lines = json_object_get(f, "value"), *l, *m;
	const char *name, *other, *shared = NULL;
	size_t same;

	if (kconfig) {
		fprintf(txt, "%s\t%s:", label, str(f, "source"));
		json_object_foreach(lines, name, l)
			fprintf(txt, " %s=%s", name, json_string_value(l));
		fputc('\n', txt);
		return;
	}
	json_object_foreach(lines, name, l) {
		same = 0;
		json_object_foreach(lines, other, m)
			same += json_equal(l, m);
		if (same >= 3) {
			shared = json_string_value(l);
			continue;
		}
		fprintf(txt, "%s\t%s: %s\n", label, name, json_string_value(l));
		label = "";
	}
	if (!shared)
		return;
	fprintf(txt, "%s\t%s:", label, shared);
	json_object_foreach(lines, name, l)
		if (strcmp(json_string_value(l), shared) == 0)
			fprintf(txt, " %s", name);
	fputc('\n', txt);
}

/* What besides the CPU moves the figures: a line per fact, or why it is
 * unknown (every fact of pc_env_fields, in its order); a reason the facts
 * just before gave is not said again. */
static void render_environment(json_t *o)
{
	json_t *env = json_object_get(o, "environment"), *before = NULL;
	const char *said = "";
	int i;

	for (i = 0; i < PC_ENV_COUNT; i++) {
		const struct pc_env_field *fl = &pc_env_fields[i];
		json_t *f = json_object_get(env, fl->key);

		if (!json_object_get(f, "value") && before &&
		    strcmp(str(f, "unknown"), str(before, "unknown")) == 0)
			fprintf(txt, "%s\tunknown: as %s\n", fl->label, said);
		else if (!json_object_get(f, "value"))
			fprintf(txt, "%s\tunknown: %s\n", fl->label, str(f, "unknown"));
		else if (fl->lines)
			render_env_lines(fl->label, f, i == PC_ENV_KERNEL_CONFIG);
		else
			render_env_value(fl->label, f);
		if (json_object_get(f, "value") || !before ||
		    strcmp(str(f, "unknown"), str(before, "unknown")) != 0)
			said = fl->label;
		before = json_object_get(f, "value") ? NULL : f;
	}
}

static void render_lines(json_t *o);

/* The label column's width: the longest label and a space. */
#define INFO_LABEL 15

/* The lines ("label<TAB>value"; a line under another has no label) as a
 * table of the model: a row each, the value's words wrapped under it. */
static int info_table(struct pc_table *t, char *lines)
{
	static const struct pc_table_col cols[] = {
		{ .head = "field", .width = INFO_LABEL - 1, .flags = PC_COL_LEFT },
		{ .head = "value", .flags = PC_COL_LEFT | PC_COL_WRAP, .gap = " " },
	};
	char *line, *next, *tab;
	long r;

	if (pc_table_init(t, " ", cols, 2) < 0)
		return -1;
	t->no_head = true;
	t->none = "";
	for (line = lines; *line; line = next) {
		size_t n = strcspn(line, "\n");

		next = line + n + (line[n] == '\n');
		line[n] = 0;
		tab = strchr(line, '\t');
		if ((r = pc_table_row(t)) < 0 ||
		    (tab && tab > line && pc_table_text(t, (size_t)r, 0, "%.*s",
							(int)(tab - line), line) < 0) ||
		    pc_table_text(t, (size_t)r, 1, "%s", tab ? tab + 1 : line) < 0)
			return -1;
	}
	return 0;
}

/* The report as text: a table of labels and values, each value wrapped to
 * the width under it. */
static int render_text(json_t *o)
{
	struct pc_table t;
	char *buf = NULL;
	size_t len = 0;
	int rc = -1;

	txt = open_memstream(&buf, &len);
	if (!txt)
		return -1;
	render_lines(o);
	if (fclose(txt) == 0 && info_table(&t, buf) == 0) {
		pc_table_draw(stdout, &t, PC_FORMAT_TABLE);
		rc = 0;
	}
	pc_table_free(&t);
	free(buf);
	return rc;
}

static void render_lines(json_t *o)
{
	json_t *r0 = json_object_get(o, "ring0"), *kvm = json_object_get(o, "kvm");

	render_identity(o);
	render_topology(o);
	render_virtualization(o);
	if (*str(o, "emulated"))
		fprintf(txt, "emulated\tyes: %s (timings mean nothing)\n", str(o, "emulated"));
	fprintf(txt, "kernel\t%s\n", str(o, "kernel"));
	render_environment(o);
	render_clock(o);
	fprintf(txt, "kvm\t%s (%s)\n", str(kvm, "kind"), str(kvm, "detail"));
	if (!json_is_string(json_object_get(r0, "backend")))
		fprintf(txt, "ring 0\tunavailable: %s\n", str(r0, "why_unavailable"));
	else
		fprintf(txt, "ring 0\t%s via %s: %s\n",
		       json_is_true(json_object_get(r0, "trusted")) ? "trustworthy" :
		       "NOT trustworthy", str(r0, "backend"), str(r0, "verdict"));
}

/* ---- the subcommand ---------------------------------------------------------------- */

/* The environment of the CPU info runs on; PRIMCOST_TEST_ENVIRONMENT_ROOT
 * (tests only) reads its files under another root. -1 when memory runs out. */
static int read_environment(struct info_sources *x)
{
	const char *root = getenv("PRIMCOST_TEST_ENVIRONMENT_ROOT");
	struct pc_env_source src;

	pc_env_source_here(&src, x->cpu, x->ci.virtualized);
	if (root && *root)
		src.root = root;
	x->env = pc_env_read(&src);
	return x->env ? 0 : -1;
}

/* Detects, measures and looks at everything info reports; PC_EXIT_OK or
 * the exit status after a one-line error. */
static int info_gather(struct info_sources *x, const struct pc_ring0_options *r0opt)
{
	char err[PC_ERRLEN];

	if (pc_cpu_detect(&x->ci, err, sizeof(err)) < 0) {
		pc_error("info", "%s", err);
		return PC_EXIT_USAGE;
	}
	if (pc_pin_cpu(x->cpu, err, sizeof(err)) < 0) {
		if (x->cpu >= 0)
			pc_error("info", "--cpu %d: %s", x->cpu, err);
		else
			pc_error("info", "%s", err);
		return PC_EXIT_USAGE;
	}
	x->cpu = x->cpu >= 0 ? x->cpu : sched_getcpu();
	if (read_environment(x) < 0) {
		pc_error("info", "out of memory");
		return PC_EXIT_FAILURE;
	}
	if (pc_clock_init(&x->clk, true, err, sizeof(err)) < 0 ||
	    pc_calibrate(&x->clk, 201, 20e-6, &x->cpt, err, sizeof(err)) < 0) {
		pc_error("info", "%s", err);
		return PC_EXIT_USAGE;
	}
	/* Ring 0: which hypervisor serves /dev/kvm, and the validation gate. */
	x->kvm_kind = pc_ring0_hypervisor(x->kvm_detail, sizeof(x->kvm_detail));
	x->r0 = pc_ring0_open(r0opt);
	if (x->r0 && pc_ring0_backend_name(x->r0))
		pc_ring0_validate(x->r0, &x->clk, 20e-6);
	/* Events: can hardware ones count, can disturbances be seen? */
	x->hw_ok = pc_hardware_events_available(x->hw_why, sizeof(x->hw_why));
	pc_events_init(&x->dist);
	if (pc_events_open(&x->dist, true, err, sizeof(err)) < 0)
		snprintf(x->dist.reject_reason, sizeof(x->dist.reject_reason), "%.255s", err);
	return PC_EXIT_OK;
}

struct info_options {
	int cpu;			/* -1: the CPU info starts on */
	struct pc_ring0_options ring0;
	enum pc_format fmt;		/* table (its words), or json */
};

static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	struct info_options *o = ctx;

	switch (c) {
	case 'c':
		return pc_opt_cpu(arg, &o->cpu, err, errlen);
	case OPT_RING0:
		return pc_opt_ring0(arg, &o->ring0.mode, err, errlen);
	case 'f':
		return pc_opt_format(arg, PC_FMT(PC_FORMAT_TABLE) | PC_FMT(PC_FORMAT_JSON),
				     &o->fmt, err, errlen);
	}
	return PC_OPT_NOT_MINE;
}

/* 0: parsed; 1: --help; -1: refused, err says why. */
static int parse_options(int argc, char **argv, struct info_options *o, char *err,
			 size_t errlen)
{
	int rc;

	o->cpu = -1;
	o->ring0 = (struct pc_ring0_options){ PC_RING0_AUTO, PC_RING0_TIMEOUT_DEFAULT_S,
					       NULL };
	o->fmt = PC_FORMAT_TABLE;
	rc = pc_options_parse(argc, argv, ":c:f:h", long_options, take_option, o, err,
			      errlen);
	if (rc != 0)
		return rc;
	return pc_no_operand(argc, argv, err, errlen);
}

int cmd_info(int argc, char **argv)
{
	struct info_sources x;
	struct info_options o;
	char err[PC_ERRLEN];
	int rc;
	json_t *out;

	rc = pc_options_end(parse_options(argc, argv, &o, err, sizeof(err)), err,
			    sizeof(err));
	if (rc != 0)
		return pc_options_exit("info", rc, usage_text, err);
	memset(&x, 0, sizeof(x));
	x.cpu = o.cpu;
	rc = info_gather(&x, &o.ring0);
	if (rc != PC_EXIT_OK)
		return rc;
	out = info_json(&x);
	if (!out) {
		pc_error("info", "out of memory");
		rc = PC_EXIT_FAILURE;
	} else if (o.fmt == PC_FORMAT_JSON) {
		json_dumpf(out, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(7));
		putchar('\n');
	} else if (render_text(out) < 0) {
		pc_error("info", "out of memory");
		rc = PC_EXIT_FAILURE;
	}
	pc_ring0_close(x.r0);
	pc_env_free(x.env);
	pc_events_close(&x.dist);
	json_decref(out);
	pc_clock_close(&x.clk);
	return rc;
}
