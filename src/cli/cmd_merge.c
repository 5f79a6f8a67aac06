/* SPDX-License-Identifier: MIT */
/* cmd_merge.c - primcost merge: many hosts' result files into one. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cmd_merge.h"
#include "commands.h"
#include "results/merge.h"
#include "results/packed.h"

static const char usage_text[] =
	"usage: primcost merge [OPTIONS] -o OUT FILE...\n"
	"\n"
	"Combine result files (one per host, say) into OUT, keyed by CPU model.\n"
	"Runs of the same model are all kept: the newest run's figures are\n"
	"current, the figures they replace stay in the history of their run.\n"
	"A figure never gives way to a row that was not measured (skipped,\n"
	"unsupported, failed). An existing OUT is merged into, never replaced by\n"
	"a partial result; writers of OUT take turns. FILE may be - (standard\n"
	"input) and may end in @N, @latest or @YYYY-MM-DD to take one run of\n"
	"every CPU (see primcost(1)).\n"
	"\n"
	"  -o, --output FILE     the merged file (required; - = stdout)\n"
	"  -q, --quiet           no summary line\n"
	"  -h, --help            this help\n";

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	struct pc_merge_options *o = ctx;

	if (c == 'o')
		return pc_opt_nonempty("--output", arg, &o->output, err, errlen);
	if (c != 'q')
		return PC_OPT_NOT_MINE;
	o->quiet = true;
	return 0;
}

static int parse_options(int argc, char **argv, struct pc_merge_options *o,
			   char *err, size_t errlen)
{
	int c;

	memset(o, 0, sizeof(*o));
	c = pc_options_parse(argc, argv, ":o:qh", long_options, take_option, o, err,
			     errlen);
	if (c != 0)
		return c;
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
	for (c = 1; c < argc - optind; c++)
		if (pc_stdin_twice((const char *const *)o->files, (size_t)c, o->files[c], err,
				   errlen))
			return -1;
	if (!o->output) {
		snprintf(err, errlen, "no output file: give -o OUT (- for stdout)");
		return -1;
	}
	if (!o->nfiles) {
		snprintf(err, errlen, "no input file (see primcost merge --help)");
		return -1;
	}
	if (o->nfiles > PC_MERGE_MAX_FILES) {
		snprintf(err, errlen, "at most %d input files", PC_MERGE_MAX_FILES);
		return -1;
	}
	return 0;
}

int pc_merge_options_parse(int argc, char **argv, struct pc_merge_options *o, char *err, size_t errlen)
{
	return pc_options_end(parse_options(argc, argv, o, err, errlen), err, errlen);
}

/* Reads every input and merges it into out: one bad file, and nothing is
 * written. */
static int merge_inputs(json_t *out, const struct pc_merge_options *o,
			struct pc_merge_stats *st)
{
	char err[PC_ERRLEN], why[PC_ERRLEN], path[4096];
	json_t *in;
	size_t i;
	int rc;

	for (i = 0; i < o->nfiles; i++) {
		in = pc_input_load(o->files[i], path, sizeof(path), err, sizeof(err));
		if (!in) {
			pc_error("merge", "%s", err);
			return -1;
		}
		rc = pc_doc_merge(out, in, st, why, sizeof(why));
		json_decref(in);
		if (rc < 0) {
			pc_error("merge", "%s: %s", o->files[i], why);
			return -1;
		}
	}
	return 0;
}

/* The result must be readable by primcost itself. */
static int merged_readable(json_t *out)
{
	char why[PC_ERRLEN];
	size_t bytes = json_dumpb(out, NULL, 0, JSON_INDENT(1) | JSON_REAL_PRECISION(7));

	if (pc_doc_validate(out, why, sizeof(why)) < 0 || bytes > PC_LIMIT_FILE_BYTES) {
		if (bytes > PC_LIMIT_FILE_BYTES)
			snprintf(why, sizeof(why), "%zu bytes (limit %d MiB)", bytes,
				 PC_LIMIT_FILE_BYTES >> 20);
		pc_error("merge", "the merged result would not be readable: %s", why);
		return 0;
	}
	return 1;
}

/* Loads OUT under its lock (held on return, out->lock_fd) or starts a new
 * document; NULL after an error said. */
static json_t *open_output(const char *output, struct pc_output *out)
{
	char err[PC_ERRLEN];
	json_t *doc;

	out->lock_fd = -1;
	out->read_fd = -1;
	if (strcmp(output, "-") == 0)
		return pc_doc_new();
	if (pc_check_writable(output, err, sizeof(err)) < 0 ||
	    !(doc = pc_output_open(output, "merge", NULL, NULL, out, err, sizeof(err)))) {
		pc_error("merge", "%s", err);
		return NULL;
	}
	return doc;
}

int cmd_merge(int argc, char **argv)
{
	struct pc_merge_options o;
	struct pc_merge_stats st;
	struct pc_output dest;
	char err[PC_ERRLEN];
	json_t *out;
	int rc;

	rc = pc_merge_options_parse(argc, argv, &o, err, sizeof(err));
	if (rc != 0)
		return pc_options_exit("merge", rc, usage_text, err);
again:
	out = open_output(o.output, &dest);
	if (!out)
		return PC_EXIT_USAGE;
	memset(&st, 0, sizeof(st));
	rc = PC_EXIT_USAGE;
	if (merge_inputs(out, &o, &st) < 0)
		goto out;
	pc_doc_pack_raw(out);	/* raw samples as arrays: packed when exact */
	if (!merged_readable(out))
		goto out;
	rc = dest.lock_fd < 0 ? pc_doc_write(out, "-", err, sizeof(err)) :
		pc_doc_write_locked(out, dest.target, &dest.lock_fd,
				    dest.read_existed ? &dest.read_st : NULL, err, sizeof(err));
	if (rc == PC_OUT_LOCK_LOST) {	/* its lock file removed: merge again */
		pc_output_close(&dest);
		json_decref(out);
		goto again;
	}
	if (rc < 0) {
		rc = PC_EXIT_USAGE;
		pc_error("merge", "%s", err);
		goto out;
	}
	rc = PC_EXIT_OK;
	if (!o.quiet && dest.lock_fd >= 0)
		printf("merged %zu file%s into %s: %zu CPU%s, %zu new, %zu run%s added, "
			"%zu already there\n", o.nfiles, o.nfiles == 1 ? "" : "s",
			pc_shown(o.output), json_object_size(json_object_get(out, "cpus")),
			json_object_size(json_object_get(out, "cpus")) == 1 ? "" : "s",
			st.cpus_added, st.runs_added, st.runs_added == 1 ? "" : "s",
			st.runs_duplicate);
out:
	pc_output_close(&dest);
	json_decref(out);
	return rc;
}
