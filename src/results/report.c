/* SPDX-License-Identifier: MIT */
/*
 * report.c - human renderings of one CPU's entry in a result document:
 * an aligned table, markdown, CSV, each a table (table.h) drawn by its
 * renderer. They read the JSON model, so a stored file renders exactly
 * like a fresh run.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "report.h"
#include "table.h"
#include "core/util.h"

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

/* A line of the view's prose after prefix, its words wrapped to width (0:
 * not wrapped), the lines after the first indented by two. */
static void say(FILE *f, const char *prefix, int width, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(FILE *f, const char *prefix, int width, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	pc_text_wrap(f, prefix, s, pc_text_width(prefix) + 2, width);
	free(s);
}

static void header(FILE *f, const char *key, json_t *entry, const char *prefix,
		   int width)
{
	json_t *cpu = json_object_get(entry, "cpu"), *run = last_run(entry);
	json_t *timer = json_object_get(cpu, "timer");
	double core = json_number_value(json_object_get(cpu, "core_hz_estimate"));
	const char *src = run ? str(run, "cycles_source") : "";

	bool virt = json_is_true(json_object_get(cpu, "virtualized"));
	const char *hv = str(cpu, "hypervisor");
	json_t *witness = json_object_get(cpu, "virtualization");
	const char *kernel_hv = witness ? str(witness, "kernel") : "";
	const char *uarch = str(cpu, "uarch");

	say(f, prefix, width, "%s: %s%s%s%s%s%s%s%s%s", key, str(cpu, "brand"),
	    *uarch ? ", " : "", uarch, virt ? " (virtual machine" : "",
	    virt && *hv ? ", " : "", virt ? hv : "",
	    virt && *kernel_hv ? "; the kernel says " : "", virt ? kernel_hv : "",
	    virt ? ")" : "");
	if (timer)
		say(f, prefix, width, "timer %s at %.1f MHz; core clock about %.0f MHz; "
		    "cycles %s%s", str(timer, "name"),
		    json_number_value(json_object_get(timer, "hz")) / 1e6,
		    core / 1e6, src,
		    strcmp(src, "calibrated") == 0 ?
		    " (timer ticks scaled so that the dependent add chain is 1 cycle)" :
		    "");
	if (run && *str(run, "pmu_reason"))
		say(f, prefix, width, "PMU: %s", str(run, "pmu_reason"));
	if (run && *str(run, "pmu_read"))
		say(f, prefix, width, "PMU cycles read with %s%s", str(run, "pmu_read"),
		    json_is_true(json_object_get(run, "pmu_user_only")) ?
		    "; user mode only (kernel-mode counting not permitted)" : "");
	if (run && json_is_true(json_object_get(run, "unreliable")))
		say(f, prefix, width, "WARNING: figures unreliable: %s",
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

/* One probe's figure for an event in the CSV's folded field: per-op
 * median, "n/s" when the event does not count here, "-" when the probe has
 * none. */
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

/* A figure into a cell; one the file lacks leaves the cell "-", the word
 * for no value in every view. */
static int figure(struct pc_table *t, size_t r, size_t c, double v)
{
	if (!isnan(v))
		pc_table_at(t, r, c)->v = v;
	return 0;
}

/* A table row's cell for an event: the per-op median, "n/s" when the event
 * does not count here, none when the probe has no such event. */
static int event_figure(struct pc_table *t, size_t r, size_t c, json_t *p,
			const char *name)
{
	json_t *events = json_object_get(p, "events");
	json_t *e = json_object_get(events, name);

	if (!e)
		return 0;
	if (json_object_get(e, "status"))
		return pc_table_text(t, r, c, "n/s");
	return figure(t, r, c, num(events, name, "median"));
}

/* A table row's status: a word ("ok", "noisy", "unsupported", ...) with
 * its reason as the table's footnote, where there is one. A figure that
 * failed the linearity check is not plain ok: "nonlinear" (or "noisy,
 * nonlinear") takes the word's place, and the reason loses its own "not
 * linear: " lead; nor is one whose own cost varies: "varies", its modes in
 * the footnote. */

static int row_status(struct pc_table *t, size_t r, size_t c, json_t *p, bool ok)
{
	const char *reason = str(p, "reason");
	bool nonlinear = json_is_true(json_object_get(p, "nonlinear"));
	int rc;

	if (nonlinear && strncmp(reason, PC_NOT_LINEAR_LEAD, strlen(PC_NOT_LINEAR_LEAD)) == 0)
		reason += strlen(PC_NOT_LINEAR_LEAD);
	if (ok && nonlinear)
		rc = pc_table_text(t, r, c, "%s", pc_probe_rank(p) == 2 ?
				   "nonlinear" : "noisy, nonlinear");
	else if (json_is_true(json_object_get(p, "varies")) &&
		 strcmp(str(p, "status"), "ok") == 0)
		rc = pc_table_text(t, r, c, "varies");
	else
		rc = pc_table_text(t, r, c, "%s", str(p, "status"));
	if (rc == 0 && *reason &&
	    !(pc_table_at(t, r, c)->note = pc_table_note(t, reason)))
		return -1;
	return rc;
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
static void events_header(FILE *f, json_t *entry, const char *prefix, int width)
{
	json_t *run = last_run(entry), *evs = json_object_get(run, "events"), *e, *p;
	json_t *dist = json_object_get(run, "disturbance");
	json_t *c = json_object_get(run, "contention");
	const char *name;
	long dist_n = 0, mux_n = 0, short_n = 0, slow_n = 0, cal_n = 0;
	size_t i, counted = 0;
	char line[1024], more[160];

	line[0] = 0;
	json_array_foreach(evs, i, e)
		if (strcmp(str(e, "status"), "counted") == 0 && ++counted)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " %s", str(e, "name"));
	if (counted)
		say(f, prefix, width,
		    "events per operation (hi minus lo loop, like the ticks):%s", line);
	json_array_foreach(evs, i, e) {
		if (strcmp(str(e, "status"), "counted") != 0)
			say(f, prefix, width, "event %s not counted: %s", str(e, "name"),
			    str(e, "reason"));
		else if (*str(e, "note"))
			say(f, prefix, width, "event %s: %s", str(e, "name"),
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
	if (dist) {
		if (json_is_true(json_object_get(dist, "checked")))
			snprintf(line, sizeof(line), "disturbed samples: %ld discarded "
				 "and retaken (a context switch or CPU migration during "
				 "the sample)", dist_n);
		else
			snprintf(line, sizeof(line), "disturbed samples: not detected: %s",
				 str(dist, "reason"));
		more[0] = 0;
		if (mux_n)
			snprintf(more, sizeof(more), "; %ld more with counters not "
				 "running throughout", mux_n);
		if (short_n)
			snprintf(more + strlen(more), sizeof(more) - strlen(more),
				 "; %ld sample%s missing (retake budget spent)", short_n,
				 short_n == 1 ? "" : "s");
		say(f, prefix, width, "%s%s", line, more);
	}
	if (slow_n || cal_n)
		say(f, prefix, width, "slow loops: %ld sample%s retaken or dropped (a loop "
		    "of the probe's pair, %ld more of the calibration's, ran far above "
		    "its fastest: an interrupt or preemption inside it)", slow_n,
		    slow_n == 1 ? "" : "s", cal_n);
	if (c)
		say(f, prefix, width, "contended samples: %lld dropped (the core was "
		    "shared: the canary, 4 independent adds, ran over %.0f %% above its "
		    "best of %.2f cycles; median %.2f)",
		    (long long)json_integer_value(json_object_get(c, "samples_dropped")),
		    100 * json_number_value(json_object_get(c, "tolerance")),
		    json_number_value(json_object_get(c, "canary_cycles_best")),
		    json_number_value(json_object_get(c, "canary_cycles_median")));
}

/* ---- the probe table: text and markdown --------------------------------- */

enum { COL_PROBE, COL_RING, COL_CYCLES, COL_MAD, COL_NS, COL_EVENTS };

/* The event columns of an entry and their headings: a label for the text
 * view, the name in full as code for markdown. */
struct event_cols {
	size_t n;
	const char *name[REPORT_EVENTS_MAX];
	char label[REPORT_EVENTS_MAX][17];
	char *code[REPORT_EVENTS_MAX];
};

static void event_cols_free(struct event_cols *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++)
		free(ev->code[i]);
}

static int event_cols(struct event_cols *ev, json_t *entry)
{
	size_t n = event_columns(entry, ev->name);

	for (ev->n = 0; ev->n < n; ev->n++) {
		event_label(ev->name[ev->n], ev->label[ev->n], sizeof(ev->label[0]));
		if (asprintf(&ev->code[ev->n], "`%s`", ev->name[ev->n]) < 0)
			return -1;
	}
	return 0;
}

/* One probe's row: "-" for every figure when it failed; its discarded
 * samples when verbose. */
static int probe_row(struct pc_table *t, const char *name, json_t *p,
		     const struct event_cols *ev, bool verbose)
{
	bool ok = pc_probe_measured(p);	/* ok or noisy: a figure to show */
	long row = pc_table_row(t);
	size_t r = (size_t)row, c = COL_EVENTS, i;

	if (row < 0 || pc_table_text(t, r, COL_PROBE, "%s", name) < 0)
		return -1;
	pc_table_at(t, r, COL_RING)->v = probe_ring(p);
	if (ok && (figure(t, r, COL_CYCLES, num(p, "cycles", "median")) < 0 ||
		   figure(t, r, COL_MAD, num(p, "cycles", "mad")) < 0 ||
		   figure(t, r, COL_NS, num(p, "ns", "median")) < 0))
		return -1;
	for (i = 0; i < ev->n; i++, c++)
		if (ok && event_figure(t, r, c, p, ev->name[i]) < 0)
			return -1;
	if (verbose) {
		if (ok && json_object_get(p, "discarded"))
			pc_table_at(t, r, c)->v = (double)discarded(p);
		c++;
	}
	return row_status(t, r, c, p, ok);
}

/* Whether the text view folds a probe's row into the lines under the
 * table: one this machine cannot measure. */
static bool folded(json_t *p)
{
	return strcmp(str(p, "status"), "unsupported") == 0;
}

/* The probes of an entry as a table: probe, ring, cycles, MAD, ns, an
 * event's median per column, the discarded samples when verbose, the
 * status; the rows fold leaves out; -1 when out of memory. */
static int probe_table(struct pc_table *t, json_t *entry, const struct event_cols *ev,
		       bool verbose, bool fold)
{
	struct pc_table_col cols[COL_EVENTS + REPORT_EVENTS_MAX + 2] = {
		[COL_PROBE] = { .head = "probe",
				.flags = PC_COL_STUB | PC_COL_LEFT | PC_COL_CODE },
		[COL_RING] = { .head = "ring", .width = 4, .style = PC_CELL_FIXED },
		[COL_CYCLES] = { .head = "cycles", .width = 9, .style = PC_CELL_FIXED,
				 .digits = 2 },
		/* "±MAD" is 4 characters in 7 */
		[COL_MAD] = { .head = PC_MAD_LABEL, .width = 7, .style = PC_CELL_FIXED,
			      .digits = 2 },
		[COL_NS] = { .head = "ns", .width = 9, .style = PC_CELL_FIXED,
			     .digits = 2 },
	};
	json_t *p;
	const char *name;
	size_t n = COL_EVENTS, i;

	for (i = 0; i < ev->n; i++)
		cols[n++] = (struct pc_table_col){ .head = ev->label[i],
			.width = event_width(ev->name[i]),
			.style = PC_CELL_FIXED, .digits = 2,
			.wide_head = ev->code[i] };
	if (verbose)
		cols[n++] = (struct pc_table_col){ .head = "discarded", .width = 9,
						   .style = PC_CELL_FIXED };
	cols[n++] = (struct pc_table_col){ .head = "status", .flags = PC_COL_LEFT,
					   .gap = "  " };
	if (pc_table_init(t, " ", cols, n) < 0)
		return -1;
	json_object_foreach(json_object_get(entry, "probes"), name, p)
		if (!(fold && folded(p)) &&
		    probe_row(t, name, p, ev, verbose) < 0)
			return -1;
	t->cols[COL_PROBE].width = pc_table_widest(t, COL_PROBE);
	if (t->cols[COL_PROBE].width < (int)strlen("probe"))
		t->cols[COL_PROBE].width = (int)strlen("probe");
	return 0;
}

/* The folded probes whose reason is reason (all of them: NULL), as a
 * comma-separated list in a string to free; NULL when out of memory. */
static char *folded_names(json_t *entry, const char *reason, size_t *n)
{
	json_t *p;
	const char *name;
	char *names = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&names, &len);

	*n = 0;
	if (!m)
		return NULL;
	json_object_foreach(json_object_get(entry, "probes"), name, p)
		if (folded(p) && (!reason || strcmp(str(p, "reason"), reason) == 0))
			fprintf(m, "%s%s", (*n)++ ? ", " : "", name);
	if (fclose(m) != 0) {
		free(names);
		return NULL;
	}
	return names;
}

/* The lines under the text view's table that name the probes it folded:
 * one line, or verbose, one per reason with the reason. */
static void fold_lines(FILE *f, json_t *entry, bool verbose, int width)
{
	json_t *p, *q;
	const char *name, *other;
	size_t n, k;
	char *names = folded_names(entry, NULL, &n), *line;

	if (names && n)
		fputc('\n', f);
	if (names && n && !verbose)
		say(f, "", width, "%zu %s this machine cannot measure (-v says why): %s",
		    n, n == 1 ? "probe" : "probes", names);
	else if (names && n)
		say(f, "", width, "%zu %s this machine cannot measure, by reason:", n,
		    n == 1 ? "probe" : "probes");
	free(names);
	json_object_foreach(json_object_get(entry, "probes"), name, p) {
		bool first = true;

		if (!verbose || !folded(p))
			continue;
		json_object_foreach(json_object_get(entry, "probes"), other, q) {
			if (q == p)
				break;
			if (folded(q) && strcmp(str(q, "reason"), str(p, "reason")) == 0)
				first = false;
		}
		if (!first || !(names = folded_names(entry, str(p, "reason"), &k)))
			continue;
		if (asprintf(&line, "%s: %s", names, str(p, "reason")) >= 0) {
			pc_text_wrap(f, " ", line, 4, width);	/* at 2, then 4 */
			free(line);
		}
		free(names);
	}
}

/* The entry's table in the view's format, after a blank line; the text
 * view folds the rows it cannot measure into a line under it. */
static int draw_probes(struct pc_view *v, json_t *entry, bool verbose)
{
	bool text = v->fmt == PC_FORMAT_TABLE;
	struct event_cols ev;
	struct pc_table t = { 0 };
	int rc = event_cols(&ev, entry);

	if (rc == 0)
		rc = probe_table(&t, entry, &ev, verbose, text);
	if (rc == 0) {
		fputc('\n', v->f);
		pc_view_table(v, &t, NULL);
		if (text)
			fold_lines(v->f, entry, verbose, t.fit);
	}
	pc_table_free(&t);
	event_cols_free(&ev);
	return rc;
}

/* One CPU's view, text or markdown (its prose quoted): the header, the
 * events, the probes' table, the answers. */
static int view(struct pc_view *v, const char *key, json_t *entry, bool verbose)
{
	const char *quote = pc_view_quote(v);
	int width = v->fmt == PC_FORMAT_TABLE ? pc_table_fit() : 0;
	int rc;

	header(v->f, key, entry, quote, width);
	events_header(v->f, entry, quote, width);
	rc = draw_probes(v, entry, verbose && v->fmt == PC_FORMAT_TABLE);
	pc_answers_print(v->f, entry, quote, width);
	return rc;
}

/* ---- CSV: a line per probe ------------------------------------------------- */

enum {
	CSV_CPU, CSV_PROBE, CSV_RING, CSV_STATUS, CSV_CYCLES_MEDIAN, CSV_CYCLES_Q1,
	CSV_CYCLES_Q3, CSV_CYCLES_MAD, CSV_NS_MEDIAN, CSV_TICKS_MEDIAN, CSV_SAMPLES,
	CSV_CYCLES_SOURCE, CSV_REASON, CSV_DISCARDED, CSV_EVENTS, CSV_NONLINEAR,
	CSV_ROUND_SPREAD, CSV_COLS
};

static const struct pc_table_col csv_cols[CSV_COLS] = {
	[CSV_CPU] = { .head = "cpu" },
	[CSV_PROBE] = { .head = "probe" },
	[CSV_RING] = { .head = "ring", .style = PC_CELL_FIXED },
	[CSV_STATUS] = { .head = "status" },
	[CSV_CYCLES_MEDIAN] = { .head = "cycles_median", .style = PC_CELL_FIXED, .digits = 4 },
	[CSV_CYCLES_Q1] = { .head = "cycles_q1", .style = PC_CELL_FIXED, .digits = 4 },
	[CSV_CYCLES_Q3] = { .head = "cycles_q3", .style = PC_CELL_FIXED, .digits = 4 },
	[CSV_CYCLES_MAD] = { .head = "cycles_mad", .style = PC_CELL_FIXED, .digits = 4 },
	[CSV_NS_MEDIAN] = { .head = "ns_median", .style = PC_CELL_FIXED, .digits = 4 },
	[CSV_TICKS_MEDIAN] = { .head = "ticks_median", .style = PC_CELL_FIXED, .digits = 4 },
	[CSV_SAMPLES] = { .head = "samples", .style = PC_CELL_FIXED },
	[CSV_CYCLES_SOURCE] = { .head = "cycles_source" },
	[CSV_REASON] = { .head = "reason" },
	[CSV_DISCARDED] = { .head = "discarded", .style = PC_CELL_FIXED },
	[CSV_EVENTS] = { .head = "events" },
	[CSV_NONLINEAR] = { .head = "nonlinear" },
	[CSV_ROUND_SPREAD] = { .head = "round_spread", .style = PC_CELL_FIXED, .digits = 4 },
};

/* The events folded into one field: "name=median;name=n/s;..." */
static int csv_events(struct pc_table *t, size_t r, json_t *p)
{
	json_t *e;
	const char *name;
	char buf[1024], cell[64];
	size_t o = 0;

	buf[0] = 0;
	json_object_foreach(json_object_get(p, "events"), name, e) {
		event_cell(p, name, 4, cell, sizeof(cell));
		o += (size_t)snprintf(buf + o, o < sizeof(buf) ? sizeof(buf) - o : 0,
				      "%s%s=%s", o ? ";" : "", name, cell);
		if (o >= sizeof(buf))
			break;
	}
	return pc_table_text(t, r, CSV_EVENTS, "%s", buf);
}

/* The figures of a measured probe (ok, or noisy); a probe without them
 * leaves them "-", the one word for no value, as in every view. */
static int csv_figures(struct pc_table *t, size_t r, json_t *p)
{
	if (!pc_probe_measured(p))
		return 0;
	pc_table_at(t, r, CSV_SAMPLES)->v =
		(double)json_integer_value(json_object_get(p, "samples"));
	if (figure(t, r, CSV_CYCLES_MEDIAN, num(p, "cycles", "median")) < 0 ||
	    figure(t, r, CSV_CYCLES_Q1, num(p, "cycles", "q1")) < 0 ||
	    figure(t, r, CSV_CYCLES_Q3, num(p, "cycles", "q3")) < 0 ||
	    figure(t, r, CSV_CYCLES_MAD, num(p, "cycles", "mad")) < 0 ||
	    figure(t, r, CSV_NS_MEDIAN, num(p, "ns", "median")) < 0 ||
	    figure(t, r, CSV_TICKS_MEDIAN, num(p, "ticks", "median")) < 0)
		return -1;
	return pc_table_text(t, r, CSV_CYCLES_SOURCE, "%s", str(p, "cycles_source"));
}

static int csv_row(struct pc_table *t, const char *key, const char *name, json_t *p)
{
	json_t *spread = json_object_get(p, "round_spread");
	bool nonlinear = json_is_true(json_object_get(p, "nonlinear"));
	long row = pc_table_row(t);
	size_t r = (size_t)row;

	if (row < 0 || pc_table_text(t, r, CSV_CPU, "%s", key) < 0 ||
	    pc_table_text(t, r, CSV_PROBE, "%s", name) < 0 ||
	    pc_table_text(t, r, CSV_STATUS, "%s", str(p, "status")) < 0 ||
	    csv_figures(t, r, p) < 0 ||
	    pc_table_text(t, r, CSV_REASON, "%s", str(p, "reason")) < 0 ||
	    csv_events(t, r, p) < 0 ||
	    pc_table_text(t, r, CSV_NONLINEAR, "%s", nonlinear ? "yes" : "no") < 0)
		return -1;
	pc_table_at(t, r, CSV_RING)->v = probe_ring(p);
	if (json_object_get(p, "discarded"))
		pc_table_at(t, r, CSV_DISCARDED)->v = (double)discarded(p);
	if (json_is_number(spread))
		pc_table_at(t, r, CSV_ROUND_SPREAD)->v = json_number_value(spread);
	return 0;
}

static int csv(FILE *f, const char *key, json_t *entry, bool with_header)
{
	json_t *p;
	const char *name;
	struct pc_table t;
	int rc = pc_table_init(&t, NULL, csv_cols, CSV_COLS);

	json_object_foreach(json_object_get(entry, "probes"), name, p)
		if (rc == 0)
			rc = csv_row(&t, key, name, p);
	if (rc == 0)
		pc_table_draw_csv(f, &t, with_header);
	pc_table_free(&t);
	return rc;
}

int pc_report(FILE *f, json_t *doc, enum pc_format fmt)
{
	return pc_report_verbose(f, doc, fmt, false);
}

void pc_report_host(FILE *f, json_t *doc, enum pc_format fmt)
{
	json_t *entry, *runs, *h;
	const char *key, *date;
	double pace, best;

	if (fmt != PC_FORMAT_TABLE && fmt != PC_FORMAT_MARKDOWN)
		return;
	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		runs = json_object_get(entry, "runs");
		h = json_object_get(json_array_get(runs, json_array_size(runs) - 1),
				    "host_slower");
		pace = json_number_value(json_object_get(h, "pace_cycles"));
		best = json_number_value(json_object_get(h, "best_cycles"));
		date = str(h, "best_date");
		if (!json_is_object(h) || !(best > 0))
			continue;
		fputc('\n', f);
		say(f, "", fmt == PC_FORMAT_TABLE ? pc_table_fit() : 1 << 20,
		    "host slower: the pace read %.2f cycles a call, %.0f %% above the "
		    "best of the %lld earlier runs of this CPU in the file (%.2f, on "
		    "%.10s at %.5s UTC): the host was slower than it has been, and "
		    "figures may read high", pace, 100 * (pace / best - 1),
		    (long long)json_integer_value(json_object_get(h, "runs")), best,
		    date, strlen(date) > 11 ? date + 11 : "");
	}
}

int pc_report_verbose(FILE *f, json_t *doc, enum pc_format fmt, bool verbose)
{
	json_t *cpus = json_object_get(doc, "cpus"), *entry;
	const char *key;
	struct pc_view v;
	bool first = true;
	int rc = 0;

	if (fmt == PC_FORMAT_JSON)
		return pc_doc_dump(doc, f);
	pc_view_init(&v, f, fmt);
	json_object_foreach(cpus, key, entry) {
		if (!first && fmt != PC_FORMAT_CSV)
			fputc('\n', f);
		if ((fmt == PC_FORMAT_CSV ? csv(f, key, entry, first) :
		     view(&v, key, entry, verbose)) < 0)
			rc = -1;
		first = false;
	}
	if (pc_view_end(&v) < 0)
		rc = -1;
	return rc < 0 || ferror(f) ? -1 : 0;
}

const char *pc_entry_brand(json_t *entry, const char *key)
{
	const char *b = json_string_value(json_object_get(json_object_get(entry, "cpu"),
							  "brand"));

	return b && *b ? b : key;
}
