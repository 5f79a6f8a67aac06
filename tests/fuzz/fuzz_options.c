/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the subcommands' option parsers. The first byte picks a
 * parser from the table below, the rest is split at NUL bytes into the
 * argument vector. Properties, beyond not crashing: the parser returns 0,
 * 1 (help) or -1; a refusal is one line (no control characters); accepted
 * options are within their documented ranges.
 *
 * Adding a subcommand's parser: a check_CMD function that checks what it
 * accepted, PARSER(CMD) after it, one row in parsers[] (its name and
 * parse_CMD), and seeds in tests/fuzz/options/ starting with the row's
 * index as their first byte.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_compare.h"
#include "cli/cmd_merge.h"
#include "cli/cmd_run.h"
#include "core/primcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static void require(int cond, const char *parser, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_options: %s: property broken: %s\n", parser, what);
		abort();
	}
}

/* parse_CMD: CMD's option parser, and check_CMD on what it accepted. */
#define PARSER(cmd)							\
static int parse_##cmd(int argc, char **argv, char *err, size_t errlen)	\
{									\
	struct pc_##cmd##_options o;					\
	int rc = pc_##cmd##_options_parse(argc, argv, &o, err, errlen);	\
									\
	if (rc == 0)							\
		check_##cmd(&o);					\
	return rc;							\
}

/* What run accepted: some row selected, every number in its range. */
static void check_run(const struct pc_run_options *o)
{
	double limit = pc_run_probe_timeout(o, 0);
	int id, n = 0;
	size_t g;

	for (id = 0; id < PC_PROBE_COUNT; id++)
		n += o->selected[id];
	for (g = 0; pc_groups[g] && pc_groups[g] != o->group; g++)
		;
	if (o->group != &pc_group_probes)	/* the rows of the group chosen */
		n = o->choice[g].rows;
	require(o->group != NULL, "run", "accepted options choose no group");
	require(n > 0, "run", "accepted options select no probe");
	require(o->samples >= 9 && o->samples <= 1000000, "run", "--samples out of range");
	require(o->sample_us >= 1 && o->sample_us <= 1000000, "run", "--sample-us out of range");
	require(o->cpu >= -1 && o->cpu <= 4095, "run", "--cpu out of range");
	require(o->output && *o->output, "run", "empty output name accepted");
	require((unsigned)o->format <= PC_FORMAT_MARKDOWN, "run", "unknown format");
	require(isfinite(limit) && limit >= 0 && (limit == 0 || limit >= 0.01), "run",
		"probe time limit out of range");
}

PARSER(run)

static void check_compare(const struct pc_compare_options *o)
{
	size_t i;

	require(o->nfiles >= 1 && o->nfiles <= PC_COMPARE_MAX_FILES, "compare",
		"file count out of range");
	for (i = 0; i < o->nfiles; i++)
		require(o->files[i] != NULL, "compare", "a NULL file name");
	require(o->nglobs <= PC_COMPARE_MAX_GLOBS && o->globs[o->nglobs] == NULL,
		"compare", "--cpu globs not NULL-terminated");
	require(isfinite(o->threshold_pct) && o->threshold_pct >= 0 &&
		o->threshold_pct <= 1000, "compare", "--threshold out of range");
	require(o->alpha > 0 && o->alpha <= 0.5, "compare", "--alpha out of range");
	require((unsigned)o->format <= PC_FORMAT_MARKDOWN, "compare", "unknown format");
}

PARSER(compare)

static void check_merge(const struct pc_merge_options *o)
{
	size_t i;

	require(o->output && *o->output, "merge", "no output accepted");
	require(o->nfiles >= 1, "merge", "no input accepted");
	for (i = 0; i < o->nfiles; i++)
		require(o->files[i] != NULL, "merge", "a NULL input name");
}

PARSER(merge)

static const struct {
	const char *name;
	int (*parse)(int argc, char **argv, char *err, size_t errlen);
} parsers[] = {
	{ "run", parse_run },
	{ "compare", parse_compare },
	{ "merge", parse_merge },
};
#define NPARSERS (sizeof(parsers) / sizeof(parsers[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2], *buf, err[PC_ERRLEN], *p;
	unsigned which;
	int argc = 1, rc;
	size_t i;

	if (size < 1)
		return 0;
	which = data[0] % NPARSERS;
	buf = malloc(size);		/* the arguments, NUL-terminated */
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	argv[0] = (char *)parsers[which].name;
	for (p = buf, i = 0; i < size - 1 && argc <= MAX_ARGS; argc++) {
		argv[argc] = p + i;
		i += strlen(p + i) + 1;
	}
	if (size == 1)
		argc = 1;
	argv[argc] = NULL;

	err[0] = 0;
	rc = parsers[which].parse(argc, argv, err, sizeof(err));
	require(rc == 0 || rc == 1 || rc == -1, parsers[which].name, "odd return value");
	if (rc < 0) {
		require(err[0] != 0, parsers[which].name, "a refusal without a message");
		for (p = err; *p; p++)
			require((unsigned char)*p >= 0x20 && *p != 0x7f,
				parsers[which].name, "a refusal that is not one line");
	}
	free(buf);
	return 0;
}
