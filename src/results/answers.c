/* SPDX-License-Identifier: MIT */
/* answers.c - the published tables' questions answered (answers.h). */
#include <math.h>
#include <string.h>

#include "answers.h"
#include "compare.h"
#include "table.h"

const struct pc_answer_def pc_answer_defs[] = {
#define PC_ANSWER(a, b, source, question) { a, b, source, question },
#define PC_ANALOG(probe, analog, how)
#include "probes/answers.def"
#undef PC_ANSWER
#undef PC_ANALOG
};
const size_t pc_answer_count = sizeof(pc_answer_defs) / sizeof(pc_answer_defs[0]);

const struct pc_analog_def pc_analog_defs[] = {
#define PC_ANSWER(a, b, source, question)
#define PC_ANALOG(probe, analog, how) { probe, analog, how },
#include "probes/answers.def"
#undef PC_ANSWER
#undef PC_ANALOG
};
const size_t pc_analog_count = sizeof(pc_analog_defs) / sizeof(pc_analog_defs[0]);

/* Figures below this (cycles or ns) are within the method's resolution: a
 * ratio to them would mean nothing (as compare's floor). */
#define ANSWER_FLOOR 0.05

/* The probe of entry named name, or the point that a probe measured at
 * points keeps under that name (lock.ticket.compact.threads2 in
 * lock.ticket's points). */
static json_t *probe_named(json_t *entry, const char *name)
{
	json_t *probes = json_object_get(entry, "probes"), *p, *pt;
	const char *key, *group;
	char row[512];
	size_t len, i;

	if ((p = json_object_get(probes, name)))
		return p;
	json_object_foreach(probes, key, p) {
		len = strlen(key);
		if (strncmp(name, key, len) != 0 || name[len] != '.')
			continue;
		group = json_string_value(json_object_get(p, "group"));
		json_array_foreach(json_object_get(p, "points"), i, pt)
			if (pc_point_row_name(row, sizeof(row), key, group, pt, i) > 0 &&
			    strcmp(row, name) == 0)
				return pt;
	}
	return NULL;
}

double pc_probe_median(json_t *entry, const char *probe, const char *unit)
{
	json_t *p = probe_named(entry, probe);
	json_t *m = json_object_get(json_object_get(p, unit), "median");

	if (!p || strcmp(json_string_value(json_object_get(p, "status")) ?
			 json_string_value(json_object_get(p, "status")) : "", "ok") != 0)
		return NAN;
	return json_is_number(m) ? json_number_value(m) : NAN;
}

static int run_unreliable(json_t *entry)
{
	json_t *runs = json_object_get(entry, "runs");
	size_t n = json_array_size(runs);

	return n && json_is_true(json_object_get(json_array_get(runs, n - 1),
						 "unreliable"));
}

bool pc_answer_of(const struct pc_answer *a, size_t d)
{
	return strcmp(a->def->question, pc_answer_defs[d].question) == 0 &&
	       strcmp(a->def->source, pc_answer_defs[d].source) == 0;
}

bool pc_answer_first(size_t d)
{
	size_t k;

	for (k = 0; k < d; k++)
		if (strcmp(pc_answer_defs[k].question, pc_answer_defs[d].question) == 0 &&
		    strcmp(pc_answer_defs[k].source, pc_answer_defs[d].source) == 0)
			return false;
	return true;
}

/* Whether out's first n answers hold one to row d's question. */
static bool answered(const struct pc_answer *out, size_t n, size_t d)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (pc_answer_of(&out[k], d))
			return true;
	return false;
}

size_t pc_answers(json_t *entry, struct pc_answer *out)
{
	static const char *const units[] = { "cycles", "ns" };
	size_t i, u, n = 0;

	if (run_unreliable(entry))
		return 0;
	for (i = 0; i < pc_answer_count; i++) {
		for (u = 0; u < 2 && !answered(out, n, i); u++) {
			double a = pc_probe_median(entry, pc_answer_defs[i].a, units[u]);
			double b = pc_probe_median(entry, pc_answer_defs[i].b, units[u]);

			if (!(a >= ANSWER_FLOOR && b >= ANSWER_FLOOR))
				continue;
			out[n].def = &pc_answer_defs[i];
			out[n].a = a;
			out[n].b = b;
			out[n].unit = units[u];
			out[n].ratio = b / a;
			n++;
			break;
		}
	}
	return n;
}

/* Ratios within this factor of 1 read "about the same": one decimal would
 * print "1.0 times cheaper". */
#define ANSWER_SAME 1.05

void pc_answer_line(const struct pc_answer *a, char *buf, size_t len)
{
	double r = a->ratio >= 1 ? a->ratio : 1 / a->ratio;

	if (r < ANSWER_SAME) {
		snprintf(buf, len, "%s costs about the same as %s here (%.2f times): "
			 "%.2f vs %.2f %s", a->def->a, a->def->b, a->ratio, a->a, a->b,
			 a->unit);
		return;
	}
	snprintf(buf, len, "%s is %.1f times %s than %s here: %.2f vs %.2f %s",
		 a->def->a, r, a->ratio >= 1 ? "cheaper" : "dearer", a->def->b,
		 a->a, a->b, a->unit);
}

void pc_answers_print(FILE *f, json_t *entry, const char *prefix, int width)
{
	struct pc_answer ans[sizeof(pc_answer_defs) / sizeof(pc_answer_defs[0])];
	size_t n = pc_answers(entry, ans), i;
	char line[512], lead[16];

	if (!n)
		return;
	fprintf(f, "\n%sanswers (the questions of the published tables, from the figures above):\n",
		prefix);
	for (i = 0; i < n; i++) {
		pc_answer_line(&ans[i], line, sizeof(line));
		snprintf(lead, sizeof(lead), "%s ", prefix);
		pc_text_wrap(f, lead, line, (int)strlen(prefix) + 4, width);
	}
}
