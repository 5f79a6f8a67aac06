/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the result reader and validator (pc_doc_parse, the code
 * behind every file primcost reads), and the merge `run` does into an
 * existing file. Properties, beyond not crashing:
 *   - a refusal is one line that names the input;
 *   - what primcost writes back of a document it accepted, it accepts again;
 *   - merging a run into an accepted document (a new CPU, and this CPU again
 *     so that figures move into the history, then a row not measured, which
 *     stays in its run's record) leaves it acceptable;
 *   - one run picked out of it (FILE@0, FILE@latest) is acceptable.
 * Built with libFuzzer (bench/fuzz.sh), or with tests/fuzz/replay.c to
 * replay the corpus in `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "core/primcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "input"

static void require(int cond, const char *what, const char *detail)
{
	if (!cond) {
		fprintf(stderr, "fuzz_reader: property broken: %s: %s\n", what, detail);
		abort();
	}
}

static json_t *a_run(const char *probe, int measured)
{
	json_t *probes = json_object();
	json_t *p = json_pack("{s:s, s:i, s:s, s:s, s:i, s:f}", "status", "ok",
			      "ring", 3, "group", "cmpxchg", "cycles_source",
			      "calibrated", "samples", 9, "cycles_per_tick", 1.25);
	static const char *const metrics[] = { "ticks", "cycles", "ns" };
	unsigned i;

	for (i = 0; i < 3; i++)
		json_object_set_new(p, metrics[i], json_pack(
			"{s:f, s:f, s:f, s:f, s:f, s:f}", "min", 1.0, "q1", 1.5,
			"median", 2.0, "q3", 2.5, "max", 3.0, "mad", 0.5));
	if (!measured)
		json_object_set_new(p, "status", json_string("unsupported"));
	json_object_set_new(probes, probe, p);
	return probes;
}

static void merge(json_t *doc, const char *key, const char *probe, int measured)
{
	char err[PC_ERRLEN];

	if (pc_doc_add_run(doc, key, json_pack("{s:s}", "arch", "x86_64"),
			   json_pack("{s:s}", "date", "2026-01-01T00:00:00Z"),
			   a_run(probe, measured), err, sizeof(err)) < 0)
		return;		/* a refusal (a limit) is fine; a broken file is not */
	require(pc_doc_validate(doc, err, sizeof(err)) == 0,
		"a merge into an accepted document is accepted", err);
}

/* One run of every CPU, as FILE@SEL reads it, is a valid document. */
static void pick(json_t *doc, const char *sel)
{
	char err[PC_ERRLEN];
	json_t *copy = json_deep_copy(doc);

	if (copy && pc_doc_pick_run(copy, sel, err, sizeof(err)) == 0)
		require(pc_doc_validate(copy, err, sizeof(err)) == 0,
			"one run picked out of an accepted document is accepted", err);
	json_decref(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PC_ERRLEN], *out = NULL;
	size_t outlen = 0;
	json_t *doc, *back, *entry;
	const char *key = NULL, *probe = "cmpxchg";
	FILE *f;

	err[0] = 0;
	doc = pc_doc_parse((const char *)data, size, NAME, err, sizeof(err));
	if (!doc) {
		require(err[0] && !strchr(err, '\n') && strncmp(err, NAME ": ", 7) == 0,
			"a refusal is one line naming the input", err);
		return 0;
	}

	f = open_memstream(&out, &outlen);
	require(f && pc_doc_dump(doc, f) == 0 && fclose(f) == 0, "dump", "failed");
	back = pc_doc_parse(out, outlen, NAME, err, sizeof(err));
	require(back != NULL, "what primcost writes of an accepted document is "
		"accepted", err);
	json_decref(back);
	free(out);

	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		const char *name;
		json_t *p;

		json_object_foreach(json_object_get(entry, "probes"), name, p) {
			probe = name;
			break;
		}
		break;
	}
	if (key) {
		char *k = strdup(key), *pr = strdup(probe);

		merge(doc, k, pr, 1);	/* this CPU again: figures move to history */
		merge(doc, k, pr, 0);	/* not measured: filed in its run */
		free(k);
		free(pr);
	}
	merge(doc, "x86_64.fuzz.1-2-3.new-cpu", "cmpxchg", 1);
	pick(doc, "0");
	pick(doc, "latest");
	json_decref(doc);
	return 0;
}
