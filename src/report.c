/*
 * report.c - human renderings of one CPU's entry in a result document:
 * an aligned table, markdown, CSV. They read the JSON model, so a stored
 * file renders exactly like a fresh run.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

int pc_format_parse(const char *s, enum pc_format *f)
{
	static const char *const names[] = { "table", "json", "csv", "markdown" };
	int i;

	for (i = 0; i < 4; i++) {
		if (strcmp(s, names[i]) == 0) {
			*f = (enum pc_format)i;
			return 0;
		}
	}
	return -1;
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

	fprintf(f, "%s%s: %s", prefix, key, str(cpu, "brand"));
	if (virt)
		fprintf(f, " (virtual machine%s%s)", *hv ? ", " : "", hv);
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
	if (run && json_is_true(json_object_get(run, "unreliable")))
		fprintf(f, "%sWARNING: figures unreliable: %s\n", prefix,
			str(run, "unreliable_reason"));
}

static void table(FILE *f, const char *key, json_t *entry)
{
	json_t *probes = json_object_get(entry, "probes"), *p;
	const char *name;

	header(f, key, entry, "");
	fprintf(f, "\n%-24s %4s %9s %7s %9s  %s\n", "probe", "ring", "cycles",
		"+-mad", "ns", "status");
	json_object_foreach(probes, name, p) {
		const char *status = str(p, "status");

		if (strcmp(status, "ok") == 0)
			fprintf(f, "%-24s %4d %9.2f %7.2f %9.2f  ok%s%s\n", name,
				(int)json_integer_value(json_object_get(p, "ring")),
				num(p, "cycles", "median"), num(p, "cycles", "mad"),
				num(p, "ns", "median"), *str(p, "reason") ? ": " : "",
				str(p, "reason"));
		else
			fprintf(f, "%-24s %4d %9s %7s %9s  %s: %s\n", name,
				(int)json_integer_value(json_object_get(p, "ring")),
				"-", "-", "-", status, str(p, "reason"));
	}
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv(FILE *f, const char *key, json_t *entry, int with_header)
{
	json_t *probes = json_object_get(entry, "probes"), *p;
	const char *name;

	if (with_header)
		fprintf(f, "cpu,probe,ring,status,cycles_median,cycles_q1,cycles_q3,"
			"cycles_mad,ns_median,ticks_median,samples,cycles_source,reason\n");
	json_object_foreach(probes, name, p) {
		csv_field(f, key);
		fprintf(f, ",%s,%d,%s,", name,
			(int)json_integer_value(json_object_get(p, "ring")),
			str(p, "status"));
		if (strcmp(str(p, "status"), "ok") == 0)
			fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%lld,%s,",
				num(p, "cycles", "median"), num(p, "cycles", "q1"),
				num(p, "cycles", "q3"), num(p, "cycles", "mad"),
				num(p, "ns", "median"), num(p, "ticks", "median"),
				(long long)json_integer_value(json_object_get(p, "samples")),
				str(p, "cycles_source"));
		else
			fprintf(f, ",,,,,,,,");
		csv_field(f, str(p, "reason"));
		fputc('\n', f);
	}
}

static void markdown(FILE *f, const char *key, json_t *entry)
{
	json_t *probes = json_object_get(entry, "probes"), *p;
	const char *name;

	header(f, key, entry, "> ");
	fprintf(f, "\n| probe | ring | cycles | ±MAD | ns | status |\n"
		"|---|---:|---:|---:|---:|---|\n");
	json_object_foreach(probes, name, p) {
		if (strcmp(str(p, "status"), "ok") == 0)
			fprintf(f, "| `%s` | %d | %.2f | %.2f | %.2f | ok%s%s |\n", name,
				(int)json_integer_value(json_object_get(p, "ring")),
				num(p, "cycles", "median"), num(p, "cycles", "mad"),
				num(p, "ns", "median"), *str(p, "reason") ? ": " : "",
				str(p, "reason"));
		else
			fprintf(f, "| `%s` | %d | — | — | — | %s: %s |\n", name,
				(int)json_integer_value(json_object_get(p, "ring")),
				str(p, "status"), str(p, "reason"));
	}
}

int pc_report(FILE *f, json_t *doc, enum pc_format fmt)
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
			table(f, key, entry);
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
