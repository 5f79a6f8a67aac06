/* SPDX-License-Identifier: MIT */
/*
 * compare_analog.c - ring-0 rows paired with their ring-3 analogs where a
 * side could not run ring 0 (a virtual machine without nested
 * virtualization): the popf of a 2007 table against flags_restore here;
 * and a row against the kernel group's call of the kernel's own function
 * (cmpxchg_local against kernel.cmpxchg_local).
 * The pairs are probes/answers.def's PC_ANALOG rows; an analog is shown
 * apart from the table and marked, never given a verdict.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "compare.h"
#include "table.h"

static json_t *probe_of(const struct pc_cmp_side *s, const char *name)
{
	return json_object_get(json_object_get(s->entry, "probes"), name);
}

static int measured(json_t *p)
{
	const char *st = json_string_value(json_object_get(p, "status"));

	return st && strcmp(st, "ok") == 0;
}

/* The figure of p in metric, as compare's cells hold it. */
static void fill(struct pc_cmp_cell *c, json_t *p, enum pc_metric metric)
{
	json_t *m = json_object_get(p, pc_metric_name(metric));

	if (!pc_cmp_cell_start(c, p))
		return;
	if (!measured(p)) {
		c->state = PC_CELL_STATUS;
		return;
	}
	if (!m) {
		c->state = PC_CELL_NO_METRIC;
		return;
	}
	pc_cmp_cell_figures(c, p, m);
}

/* Does def apply: one side measured the row, another lacks it but has the
 * analog? */
static int applies(const struct pc_cmp_table *t, const struct pc_analog_def *def)
{
	size_t i;
	int own = 0, stand_in = 0;

	for (i = 0; i < t->nsides; i++) {
		if (measured(probe_of(&t->side[i], def->probe)))
			own = 1;
		else if (measured(probe_of(&t->side[i], def->analog)))
			stand_in = 1;
	}
	return own && stand_in;
}

static int add(struct pc_cmp_table *t, const struct pc_analog_def *def,
	       enum pc_metric metric)
{
	struct pc_cmp_analog *g = realloc(t->analog, (t->nanalogs + 1) * sizeof(*g)), *a;
	size_t i;

	if (!g)
		return -1;
	t->analog = g;
	a = &t->analog[t->nanalogs];
	memset(a, 0, sizeof(*a));
	a->probe = def->probe;
	a->analog = def->analog;
	a->how = def->how;
	a->cell = calloc(t->nsides, sizeof(*a->cell));
	a->is_analog = calloc(t->nsides, sizeof(*a->is_analog));
	t->nanalogs++;
	if (!a->cell || !a->is_analog)
		return -1;
	for (i = 0; i < t->nsides; i++) {
		json_t *p = probe_of(&t->side[i], def->probe);

		if (!measured(p) && measured(probe_of(&t->side[i], def->analog))) {
			p = probe_of(&t->side[i], def->analog);
			a->is_analog[i] = true;
		}
		fill(&a->cell[i], p, metric);
		if (i && a->cell[0].state == PC_CELL_OK && a->cell[i].state == PC_CELL_OK &&
		    fabs(a->cell[0].median) >= PC_COMPARE_FLOOR) {
			a->cell[i].ratio = a->cell[i].median / a->cell[0].median;
			a->cell[i].delta_pct = (a->cell[i].ratio - 1) * 100;
		}
	}
	return 0;
}

int pc_compare_analogs(struct pc_cmp_table *t, enum pc_metric metric)
{
	size_t d;

	for (d = 0; d < pc_analog_count; d++)
		if (applies(t, &pc_analog_defs[d]) && add(t, &pc_analog_defs[d], metric) < 0)
			return -1;
	return 0;
}

void pc_compare_analogs_free(struct pc_cmp_table *t)
{
	size_t i;

	for (i = 0; i < t->nanalogs; i++) {
		free(t->analog[i].cell);
		free(t->analog[i].is_analog);
	}
	free(t->analog);
	t->analog = NULL;
	t->nanalogs = 0;
}

/* "A 14.02 cycles (flags_restore, the analog)" or "B 112.00 cycles, 7.99x A" */
static void side_text(FILE *f, const struct pc_cmp_analog *a, size_t i,
		      enum pc_metric metric)
{
	const struct pc_cmp_cell *c = &a->cell[i];
	char l[PC_LABEL_LEN];

	fprintf(f, "%s%s ", i ? "; " : " ", pc_side_label(i, l));
	if (c->state != PC_CELL_OK) {
		fputs(c->state == PC_CELL_STATUS ? c->status : PC_NO_VALUE, f);
		return;
	}
	fprintf(f, "%.2f %s", c->median, pc_metric_name(metric));
	if (a->is_analog[i])
		fprintf(f, " (%s, the analog)", a->analog);
	if (i && !isnan(c->ratio))
		fprintf(f, ", %.2fx A", c->ratio);
}

void pc_compare_render_analogs(struct pc_view *v, const struct pc_compare *m,
			       const struct pc_cmp_table *t)
{
	bool markdown = v->fmt == PC_FORMAT_MARKDOWN;
	const char *pre = pc_view_quote(v);
	char *line = NULL, lead[16];
	size_t k, i, len = 0;
	FILE *g;

	if (!t->nanalogs)
		return;
	pc_view_printf(v, "\n");
	pc_view_wrap(v, markdown ? ">" : "", "analogs where a side lacks the row: ring 3 for "
		     "ring 0, primcost's copy for the kernel's own (an analog is not the same "
		     "probe: no verdict):", 0);
	for (k = 0; k < t->nanalogs; k++) {
		const struct pc_cmp_analog *a = &t->analog[k];

		g = open_memstream(&line, &len);
		if (!g)
			return;
		fprintf(g, "%s ~ %s (%s):", a->probe, a->analog, a->how);
		for (i = 0; i < t->nsides; i++)
			side_text(g, a, i, m->cfg.metric);
		if (fclose(g) == 0) {
			snprintf(lead, sizeof(lead), "%s%s", pre, markdown ? "-" : " ");
			pc_view_wrap(v, lead, line, 4);
		}
		free(line);
		line = NULL;
	}
}
