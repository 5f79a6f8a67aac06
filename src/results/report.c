/* SPDX-License-Identifier: MIT */
/*
 * report.c - human renderings of one CPU's entry in a result document:
 * an aligned table, markdown, CSV. They read the JSON model, so a stored
 * file renders exactly like a fresh run.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "answers.h"
#include "report.h"
#include "core/util.h"

int pc_format_parse(const char *s, enum pc_format *f)
{
	static const char *const names[] = { "table", "json", "csv", "markdown" };
	int i = pc_word_index(s, names, 4);

	if (i < 0)
		return -1;
	*f = (enum pc_format)i;
	return 0;
}

/* o[a][b] as a number; magnitudes that print as "-0.00" show as 0 (the JSON
 * keeps the exact figure). */
static double num(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(json_object_get(o, a), b);
	double x = json_is_number(v) ? json_number_value(v) : NAN;

	return fabs(x) < 0.005 ? 0.0 : x;
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

/* The run that produced the current probes (the last one). */
static json_t *last_run(json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs");
	size_t n = json_array_size(runs);

	return n ? json_array_get(runs, n - 1) : NULL;
}

static void header(FILE *f, const char *key, json_t *entry, const char *prefix)
{
	json_t *cpu = json_object_get(entry, "cpu"), *run = last_run(entry);
	json_t *timer = json_object_get(cpu, "timer");
	double core = json_number_value(json_object_get(cpu, "core_hz_estimate"));
	const char *src = run ? str(run, "cycles_source") : "";

	bool virt = json_is_true(json_object_get(cpu, "virtualized"));
	const char *hv = str(cpu, "hypervisor");
	json_t *witness = json_object_get(cpu, "virtualization");
	const char *kernel_hv = witness ? str(witness, "kernel") : "";

	fprintf(f, "%s%s: %s", prefix, key, str(cpu, "brand"));
	if (*str(cpu, "uarch"))
		fprintf(f, ", %s", str(cpu, "uarch"));
	if (virt)
		fprintf(f, " (virtual machine%s%s%s%s)", *hv ? ", " : "", hv,
			*kernel_hv ? "; the kernel says " : "", kernel_hv);
	fputc('\n', f);
	if (timer)
		fprintf(f, "%stimer %s at %.1f MHz; core clock about %.0f MHz; "
			"cycles %s%s\n", prefix, str(timer, "name"),
			json_number_value(json_object_get(timer, "hz")) / 1e6,
			core / 1e6, src,
			strcmp(src, "calibrated") == 0 ?
			" (timer ticks scaled so that the dependent add chain is 1 cycle)" :
			"");
	if (run && *str(run, "pmu_reason"))
		fprintf(f, "%sPMU: %s\n", prefix, str(run, "pmu_reason"));
	if (run && *str(run, "pmu_read"))
		fprintf(f, "%sPMU cycles read with %s%s\n", prefix, str(run, "pmu_read"),
			json_is_true(json_object_get(run, "pmu_user_only")) ?
			"; user mode only (kernel-mode counting not permitted)" : "");
	if (run && json_is_true(json_object_get(run, "unreliable")))
		fprintf(f, "%sWARNING: figures unreliable: %s\n", prefix,
			str(run, "unreliable_reason"));
}

/* ---- events counted around each sample ---------------------------------- */

#define REPORT_EVENTS_MAX 32

/* The events the probes of an entry carry, in first-seen order. */
static size_t event_columns(json_t *entry, const char **names)
{
	json_t *probes = json_object_get(entry, "probes"), *p, *v;
	const char *pname, *ename;
	size_t n = 0, i;

	json_object_foreach(probes, pname, p) {
		json_object_foreach(json_object_get(p, "events"), ename, v) {
			for (i = 0; i < n && strcmp(names[i], ename) != 0; i++)
				;
			if (i == n && n < REPORT_EVENTS_MAX)
				names[n++] = ename;
		}
	}
	return n;
}

/* A column label: the name, or its part after "::", at most 16 wide. */
static void event_label(const char *name, char *buf, size_t len)
{
	const char *c = strstr(name, "::");

	if (strlen(name) > 16 && c)
		name = c + 2;
	snprintf(buf, len < 17 ? len : 17, "%s", name);
}

static int event_width(const char *name)
{
	char l[32];

	event_label(name, l, sizeof(l));
	return strlen(l) > 9 ? (int)strlen(l) : 9;
}

/* One probe's figure for an event: per-op median, "n/s" when the event
 * does not count here, "-" when the probe has none. */
static void event_cell(json_t *p, const char *name, int digits, char *buf, size_t len)
{
	json_t *e = json_object_get(json_object_get(p, "events"), name);

	if (!e)
		snprintf(buf, len, PC_NO_VALUE);
	else if (json_object_get(e, "status"))
		snprintf(buf, len, "n/s");
	else
		snprintf(buf, len, "%.*f", digits, num(json_object_get(p, "events"),
						       name, "median"));
}

/* A table row's cell for an event: "-" throughout when the probe failed. */
static void row_event_cell(json_t *p, bool ok, const char *name, char *buf,
			   size_t len)
{
	if (ok)
		event_cell(p, name, 2, buf, len);
	else
		snprintf(buf, len, PC_NO_VALUE);
}

/* A table row's cycles median, cycles MAD and ns median, "-" when the probe
 * failed. */
struct row_figures {
	char cycles[32], mad[32], ns[32];
};

static void row_figures(json_t *p, bool ok, struct row_figures *r)
{
	if (!ok) {
		snprintf(r->cycles, sizeof(r->cycles), PC_NO_VALUE);
		snprintf(r->mad, sizeof(r->mad), PC_NO_VALUE);
		snprintf(r->ns, sizeof(r->ns), PC_NO_VALUE);
		return;
	}
	snprintf(r->cycles, sizeof(r->cycles), "%.2f", num(p, "cycles", "median"));
	snprintf(r->mad, sizeof(r->mad), "%.2f", num(p, "cycles", "mad"));
	snprintf(r->ns, sizeof(r->ns), "%.2f", num(p, "ns", "median"));
}

/* A table row's status: "ok", with ": REASON" when there is one, or
 * "STATUS: REASON". A figure that failed the linearity check is not plain
 * ok: "nonlinear" (or "noisy, nonlinear") takes the word's place, and the
 * reason loses its own "not linear: " lead. */
#define NOT_LINEAR_LEAD "not linear: "	/* how samples.c words the reason */

static void put_row_status(FILE *f, json_t *p, bool ok)
{
	const char *reason = str(p, "reason");
	bool nonlinear = json_is_true(json_object_get(p, "nonlinear"));

	if (nonlinear && strncmp(reason, NOT_LINEAR_LEAD, strlen(NOT_LINEAR_LEAD)) == 0)
		reason += strlen(NOT_LINEAR_LEAD);
	if (ok && nonlinear)
		fprintf(f, "%s%s", pc_probe_rank(p) == 2 ? "nonlinear" : "noisy, nonlinear",
			*reason ? ": " : "");
	else
		fprintf(f, "%s%s", str(p, "status"), *reason || !ok ? ": " : "");
	fputs(reason, f);
}

static int probe_ring(json_t *p)
{
	return (int)json_integer_value(json_object_get(p, "ring"));
}

static long discarded(json_t *p)
{
	json_t *d = json_object_get(p, "discarded");

	return (long)(json_integer_value(json_object_get(d, "disturbed")) +
		      json_integer_value(json_object_get(d, "multiplexed")) +
		      json_integer_value(json_object_get(d, "contended")) +
		      json_integer_value(json_object_get(d, "slow")) +
		      json_integer_value(json_object_get(d, "slow_calibration")) +
		      json_integer_value(json_object_get(d, "slow_late")));
}

/* What the header says about events and discarded samples. */
static void events_header(FILE *f, json_t *entry, const char *prefix)
{
	json_t *run = last_run(entry), *evs = json_object_get(run, "events"), *e, *p;
	json_t *dist = json_object_get(run, "disturbance");
	const char *name;
	long dist_n = 0, mux_n = 0, short_n = 0, slow_n = 0, cal_n = 0;
	size_t i, counted = 0;

	json_array_foreach(evs, i, e)
		counted += strcmp(str(e, "status"), "counted") == 0;
	if (counted) {
		fprintf(f, "%sevents per operation (hi minus lo loop, like the ticks):",
			prefix);
		json_array_foreach(evs, i, e)
			if (strcmp(str(e, "status"), "counted") == 0)
				fprintf(f, " %s", str(e, "name"));
		fputc('\n', f);
	}
	json_array_foreach(evs, i, e) {
		if (strcmp(str(e, "status"), "counted") != 0)
			fprintf(f, "%sevent %s not counted: %s\n", prefix,
				str(e, "name"), str(e, "reason"));
		else if (*str(e, "note"))
			fprintf(f, "%sevent %s: %s\n", prefix, str(e, "name"),
				str(e, "note"));
	}
	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		json_t *d = json_object_get(p, "discarded");

		dist_n += (long)json_integer_value(json_object_get(d, "disturbed"));
		mux_n += (long)json_integer_value(json_object_get(d, "multiplexed"));
		short_n += (long)json_integer_value(json_object_get(d, "short_by"));
		slow_n += (long)json_integer_value(json_object_get(d, "slow"));
		cal_n += (long)json_integer_value(json_object_get(d, "slow_calibration"));
		slow_n += (long)json_integer_value(json_object_get(d, "slow_late"));
	}
	if (dist && json_is_true(json_object_get(dist, "checked")))
		fprintf(f, "%sdisturbed samples: %ld discarded and retaken (a context "
			"switch or CPU migration during the sample)", prefix, dist_n);
	else if (dist)
		fprintf(f, "%sdisturbed samples: not detected: %s", prefix,
			str(dist, "reason"));
	if (dist && mux_n)
		fprintf(f, "; %ld more with counters not running throughout", mux_n);
	if (dist && short_n)
		fprintf(f, "; %ld samples missing (retake budget spent)", short_n);
	if (dist)
		fputc('\n', f);
	if (slow_n || cal_n)
		fprintf(f, "%sslow loops: %ld samples retaken or dropped (a loop of the "
			"probe's pair, %ld more of the calibration's, ran far above its "
			"fastest: an interrupt or preemption inside it)\n", prefix,
			slow_n, cal_n);
	{
		json_t *c = json_object_get(run, "contention");

		if (c)
			fprintf(f, "%scontended samples: %lld dropped (the core was shared: "
				"the canary, 4 independent adds, ran over %.0f %% above its "
				"best of %.2f cycles; median %.2f)\n", prefix,
				(long long)json_integer_value(json_object_get(c, "samples_dropped")),
				100 * json_number_value(json_object_get(c, "tolerance")),
				json_number_value(json_object_get(c, "canary_cycles_best")),
				json_number_value(json_object_get(c, "canary_cycles_median")));
	}
}

/* One probe's row of the table (md false; with its discarded samples when
 * verbose) or of the Markdown table (md true). */
static void put_row(FILE *f, const char *name, json_t *p, const char *const *evn,
		    size_t nev, bool md, bool verbose)
{
	bool ok = pc_probe_measured(p);	/* ok or noisy: a figure to show */
	struct row_figures r;
	char cell[64];
	size_t i;

	row_figures(p, ok, &r);
	if (md)
		fprintf(f, "| `%s` | %d | %s | %s | %s |", name, probe_ring(p),
			r.cycles, r.mad, r.ns);
	else
		fprintf(f, "%-*s %4d %9s %7s %9s", pc_probe_name_width(), name,
			probe_ring(p),
			r.cycles, r.mad, r.ns);
	for (i = 0; i < nev; i++) {
		row_event_cell(p, ok, evn[i], cell, sizeof(cell));
		if (md)
			fprintf(f, " %s |", cell);
		else
			fprintf(f, " %*s", event_width(evn[i]), cell);
	}
	if (verbose) {
		if (ok && json_object_get(p, "discarded"))
			fprintf(f, " %9ld", discarded(p));
		else
			fprintf(f, " %9s", PC_NO_VALUE);
	}
	fputs(md ? " " : "  ", f);
	put_row_status(f, p, ok);
	fputs(md ? " |\n" : "\n", f);
}

static void table(FILE *f, const char *key, json_t *entry, bool verbose)
{
	json_t *probes = json_object_get(entry, "probes"), *p;
	const char *name, *evn[REPORT_EVENTS_MAX];
	size_t nev = event_columns(entry, evn), i;
	char cell[64];

	header(f, key, entry, "");
	events_header(f, entry, "");
	/* "±MAD" is 5 bytes in 4 columns: padded by hand */
	fprintf(f, "\n%-*s %4s %9s    %s %9s", pc_probe_name_width(), "probe", "ring",
		"cycles", PC_MAD_LABEL, "ns");
	for (i = 0; i < nev; i++) {
		event_label(evn[i], cell, sizeof(cell));
		fprintf(f, " %*s", event_width(evn[i]), cell);
	}
	if (verbose)
		fprintf(f, " %9s", "discarded");
	fprintf(f, "  %s\n", "status");
	json_object_foreach(probes, name, p)
		put_row(f, name, p, evn, nev, false, verbose);
	pc_answers_print(f, entry, "");
}

/* ,discarded,"name=median;name=n/s;..." */
static void csv_events(FILE *f, json_t *p)
{
	json_t *evs = json_object_get(p, "events"), *e;
	const char *name;
	char buf[1024], cell[64];
	size_t o = 0;

	if (json_object_get(p, "discarded"))
		fprintf(f, ",%ld,", discarded(p));
	else
		fprintf(f, ",%s,", PC_NO_VALUE);
	buf[0] = 0;
	json_object_foreach(evs, name, e) {
		event_cell(p, name, 4, cell, sizeof(cell));
		o += (size_t)snprintf(buf + o, o < sizeof(buf) ? sizeof(buf) - o : 0,
				      "%s%s=%s", o ? ";" : "", name, cell);
		if (o >= sizeof(buf))
			break;
	}
	pc_csv_field(f, buf);
}

static void csv(FILE *f, const char *key, json_t *entry, int with_header)
{
	json_t *probes = json_object_get(entry, "probes"), *p;
	const char *name;

	if (with_header)
		fprintf(f, "cpu,probe,ring,status,cycles_median,cycles_q1,cycles_q3,"
			"cycles_mad,ns_median,ticks_median,samples,cycles_source,reason,"
			"discarded,events,nonlinear,round_spread\n");
	json_object_foreach(probes, name, p) {
		pc_csv_field(f, key);
		fputc(',', f);
		pc_csv_field(f, name);
		fprintf(f, ",%d,%s,",
			probe_ring(p),
			str(p, "status"));
		if (pc_probe_measured(p))	/* ok, or noisy */
			fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%lld,%s,",
				num(p, "cycles", "median"), num(p, "cycles", "q1"),
				num(p, "cycles", "q3"), num(p, "cycles", "mad"),
				num(p, "ns", "median"), num(p, "ticks", "median"),
				(long long)json_integer_value(json_object_get(p, "samples")),
				str(p, "cycles_source"));
		else	/* no figures: the one word for no value, as in every view */
			fprintf(f, "%1$s,%1$s,%1$s,%1$s,%1$s,%1$s,%1$s,%1$s,", PC_NO_VALUE);
		pc_csv_field(f, str(p, "reason"));
		csv_events(f, p);
		fprintf(f, ",%s,", json_is_true(json_object_get(p, "nonlinear")) ? "yes" :
			"no");
		if (json_is_number(json_object_get(p, "round_spread")))
			fprintf(f, "%.4f\n", json_number_value(json_object_get(p,
								 "round_spread")));
		else
			fputs(PC_NO_VALUE "\n", f);
	}
}

static void markdown(FILE *f, const char *key, json_t *entry)
{
	json_t *probes = json_object_get(entry, "probes"), *p;
	const char *name, *evn[REPORT_EVENTS_MAX];
	size_t nev = event_columns(entry, evn), i;

	header(f, key, entry, "> ");
	events_header(f, entry, "> ");
	fprintf(f, "\n| probe | ring | cycles | %s | ns |", PC_MAD_LABEL);
	for (i = 0; i < nev; i++)
		fprintf(f, " `%s` |", evn[i]);
	fprintf(f, " status |\n|---|---:|---:|---:|---:|");
	for (i = 0; i < nev; i++)
		fprintf(f, "---:|");
	fprintf(f, "---|\n");
	json_object_foreach(probes, name, p)
		put_row(f, name, p, evn, nev, true, false);
	pc_answers_print(f, entry, "> ");
}

int pc_report(FILE *f, json_t *doc, enum pc_format fmt)
{
	return pc_report_verbose(f, doc, fmt, false);
}

int pc_report_verbose(FILE *f, json_t *doc, enum pc_format fmt, bool verbose)
{
	json_t *cpus = json_object_get(doc, "cpus"), *entry;
	const char *key;
	int first = 1;

	if (fmt == PC_FORMAT_JSON)
		return pc_doc_dump(doc, f);
	json_object_foreach(cpus, key, entry) {
		switch (fmt) {
		case PC_FORMAT_TABLE:
			if (!first)
				fputc('\n', f);
			table(f, key, entry, verbose);
			break;
		case PC_FORMAT_CSV:
			csv(f, key, entry, first);
			break;
		case PC_FORMAT_MARKDOWN:
			if (!first)
				fputc('\n', f);
			markdown(f, key, entry);
			break;
		case PC_FORMAT_JSON:
			break;
		}
		first = 0;
	}
	return ferror(f) ? -1 : 0;
}

const char *pc_entry_brand(json_t *entry, const char *key)
{
	const char *b = json_string_value(json_object_get(json_object_get(entry, "cpu"),
							  "brand"));

	return b && *b ? b : key;
}
