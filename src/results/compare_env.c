/* SPDX-License-Identifier: MIT */
/*
 * compare_env.c - the environments of the runs compared (the run object's
 * "environment", core/environment.h). A fact that differs between a side
 * and the first, where both recorded it, is a note above the table ("B's
 * microcode 0xa0011d1 differs from A's 0xa0011d5: figures may move"); the
 * rows such a difference is known to move (pc_env_fields' moves: system
 * calls, line transfers between CPUs) are not comparable, with the reason,
 * rather than judged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "core/environment.h"

/* A command line longer than this is told by the words that differ. */
#define ENV_WHOLE_MAX 48
/* Most lines of a list, and words of a command line, a note names. */
#define ENV_NAMED_MAX 3

/* What the rows of each kind are, for a note and a cell's why. */
static const struct {
	unsigned kind;
	const char *rows, *cost;
} kinds[PC_CMP_ENV_KINDS] = {
	{ PC_ENV_MOVES_SYSCALLS, "rows that make system calls",
	  "what a system call costs" },
	{ PC_ENV_MOVES_TRANSFERS, "rows that move lines between CPUs",
	  "what a line's transfer between CPUs costs" },
};

static json_t *value_of(json_t *env, int id)
{
	return json_object_get(json_object_get(env, pc_env_fields[id].key), "value");
}

/* Do a and b, both recorded, differ? Lists are compared on the lines both
 * hold: a kernel that knows a vulnerability the other does not is the
 * kernel's difference, noted as such. */
static bool env_differs(json_t *a, json_t *b)
{
	const char *name;
	json_t *la;

	if (!a || !b)
		return false;
	if (!json_is_object(a) || !json_is_object(b))
		return !json_equal(a, b);
	json_object_foreach(a, name, la)
		if (json_object_get(b, name) && !json_equal(la, json_object_get(b, name)))
			return true;
	return false;
}

/* Does fact id differ between sides a and b? A kernel build is told only
 * where the kernels' releases agree (else "kernels differ" says it). */
static bool fact_differs(const struct pc_cmp_side *a, const struct pc_cmp_side *b,
			 int id)
{
	if (id == PC_ENV_KERNEL_BUILD && a->kernel && b->kernel &&
	    strcmp(a->kernel, b->kernel) != 0)
		return false;
	return env_differs(value_of(a->environment, id), value_of(b->environment, id));
}

/* The facts of kind k that differ between sides a and b: their nouns
 * ("microcode and mitigations") into f; how many, *plural set when the
 * nouns take "differ". */
static int kind_differs(FILE *f, const struct pc_cmp_side *a, const struct pc_cmp_side *b,
			size_t k, bool *plural)
{
	int id, n = 0, said = 0;

	for (id = 0; id < PC_ENV_COUNT; id++)
		n += (pc_env_fields[id].moves & kinds[k].kind) && fact_differs(a, b, id);
	for (id = 0; id < PC_ENV_COUNT; id++) {
		if (!(pc_env_fields[id].moves & kinds[k].kind) || !fact_differs(a, b, id))
			continue;
		fprintf(f, "%s%s", !said ? "" : said == n - 1 ? " and " : ", ",
			pc_env_fields[id].noun);
		*plural = n > 1 || pc_env_fields[id].plural;
		said++;
	}
	return n;
}

int pc_compare_env_marks(struct pc_cmp_table *t, size_t i)
{
	struct pc_cmp_side *b = &t->side[i];
	char lb[PC_LABEL_LEN];
	size_t k;

	pc_side_label(i, lb);
	for (k = 0; k < PC_CMP_ENV_KINDS; k++) {
		char *names = NULL;
		size_t len = 0;
		bool plural = false;
		FILE *f = open_memstream(&names, &len);
		int n;

		if (!f)
			return -1;
		n = kind_differs(f, &t->side[0], b, k, &plural);
		if (fclose(f) != 0) {
			free(names);
			return -1;
		}
		b->env_why[k][0] = 0;
		if (n)
			snprintf(b->env_why[k], sizeof(b->env_why[k]), "%s's %s differ%s "
				 "from A's: %s moves with %s", lb, names, plural ? "" : "s",
				 kinds[k].cost, plural ? "them" : "it");
		free(names);
	}
	return 0;
}

const char *pc_compare_env_moved(const struct pc_cmp_row *row, const struct pc_cmp_cell *a,
				 const struct pc_cmp_cell *b, const struct pc_cmp_side *sb)
{
	int id = pc_probe_find(row->probe);

	if (sb->env_why[0][0] && id >= 0 && pc_probe_rows[id].syscalls > 0)
		return sb->env_why[0];
	if (sb->env_why[1][0] && (a->transfer > 0 || b->transfer > 0))
		return sb->env_why[1];
	return NULL;
}

/* The lines of two lists that differ, at most ENV_NAMED_MAX of them. */
static void lines_told(FILE *f, json_t *a, json_t *b, const char *lb)
{
	const char *name;
	json_t *la, *lbv;
	size_t n = 0;

	json_object_foreach(b, name, lbv) {
		la = json_object_get(a, name);
		if (!la || json_equal(la, lbv))
			continue;
		if (n++ < ENV_NAMED_MAX)
			fprintf(f, "%s%s \"%s\" in %s, \"%s\" in A", n > 1 ? "; " : "", name,
				json_string_value(lbv), lb, json_string_value(la));
	}
	if (n > ENV_NAMED_MAX)
		fprintf(f, "; %zu more", n - ENV_NAMED_MAX);
}

/* The words of s not among the words of other, at most ENV_NAMED_MAX of
 * them after verb; how many there are. */
static size_t words_not_in(FILE *f, const char *s, const char *other, const char *verb)
{
	size_t n = 0, total = 0;

	while (*s) {
		size_t w = strcspn(s, " ");
		const char *o = other;
		bool found = false;

		while (*o && !found) {
			size_t wo = strcspn(o, " ");

			found = wo == w && strncmp(o, s, w) == 0;
			o += wo + (o[wo] == ' ');
		}
		if (!found && w && total++ < ENV_NAMED_MAX)
			fprintf(f, "%s%.*s", n++ ? " " : verb, (int)w, s);
		s += w + (s[w] == ' ');
	}
	if (total > ENV_NAMED_MAX)
		fprintf(f, " and %zu more", total - ENV_NAMED_MAX);
	return total;
}

/* The note of fact id, which differs between a and b (label lb). */
static void fact_told(FILE *f, int id, const struct pc_cmp_side *a,
		      const struct pc_cmp_side *b, const char *lb)
{
	const struct pc_env_field *fl = &pc_env_fields[id];
	json_t *va = value_of(a->environment, id), *vb = value_of(b->environment, id);
	const char *sa = json_string_value(va), *sb = json_string_value(vb);
	unsigned k;

	if (json_is_object(va) && json_is_object(vb)) {
		fprintf(f, "%s's %s differ%s from A's: ", lb, fl->noun, fl->plural ? "" : "s");
		lines_told(f, va, vb, lb);
	} else if (!sa || !sb) {	/* a list on one side, a value on the other */
		fprintf(f, "%s's %s differ%s from A's", lb, fl->noun, fl->plural ? "" : "s");
	} else if (strlen(sa) > ENV_WHOLE_MAX || strlen(sb) > ENV_WHOLE_MAX) {
		size_t added, lacked;

		fprintf(f, "%s's %s differs from A's:", lb, fl->noun);
		added = words_not_in(f, sb, sa, " it adds ");
		lacked = words_not_in(f, sa, sb, added ? "; it lacks " : " it lacks ");
		if (!added && !lacked)
			fprintf(f, " the same words in another order");
	} else {
		fprintf(f, "%s's %s %s differs from A's %s", lb, fl->noun, sb, sa);
	}
	fprintf(f, ": figures may move");
	for (k = 0; k < PC_CMP_ENV_KINDS; k++)
		if (fl->moves & kinds[k].kind)
			fprintf(f, "; %s are not judged", kinds[k].rows);
}

int pc_compare_env_notes(struct pc_cmp_table *t, size_t i)
{
	const struct pc_cmp_side *a = &t->side[0], *b = &t->side[i];
	char lb[PC_LABEL_LEN];
	int id, rc = 0;

	pc_side_label(i, lb);
	for (id = 0; id < PC_ENV_COUNT && rc == 0; id++) {
		char *note = NULL;
		size_t len = 0;
		FILE *f;

		if (!fact_differs(a, b, id))
			continue;
		f = open_memstream(&note, &len);
		if (!f)
			return -1;
		fact_told(f, id, a, b, lb);
		rc = fclose(f) == 0 ? pc_cmp_add_note(t, note) : -1;
		free(note);
	}
	return rc;
}
