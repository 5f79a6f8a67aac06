/* SPDX-License-Identifier: MIT */
/* cmd_merge.c - primcost merge: many hosts' result files into one. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd_merge.h"
#include "commands.h"
#include "merge.h"

static const char usage_text[] =
	"usage: primcost merge [OPTIONS] -o OUT FILE...\n"
	"\n"
	"Combine result files (one per host, say) into OUT, keyed by CPU model.\n"
	"Runs of the same model are all kept: the newest run's figures are\n"
	"current, the figures they replace stay in the history of their run.\n"
	"An existing OUT is merged into, never replaced by a partial result.\n"
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

static int parse_options(int argc, char **argv, struct pc_merge_options *o,
			   char *err, size_t errlen)
{
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qh", long_options, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg) {
				snprintf(err, errlen, "--output: empty file name");
				return -1;
			}
			o->output = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			return 1;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
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

/* Errors quote what the user typed: keep them one printable line. */
int pc_merge_options_parse(int argc, char **argv, struct pc_merge_options *o, char *err, size_t errlen)
{
	int rc = parse_options(argc, argv, o, err, errlen);

	if (rc < 0)
		pc_one_line(err);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	struct pc_merge_options o;
	struct pc_merge_stats st;
	char err[PC_ERRLEN], why[PC_ERRLEN];
	json_t *out = NULL, *in;
	int rc, missing = 0, to_stdout;
	size_t i, bytes;

	rc = pc_merge_options_parse(argc, argv, &o, err, sizeof(err));
	if (rc > 0) {
		fputs(usage_text, stdout);
		return PC_EXIT_OK;
	}
	if (rc < 0) {
		fprintf(stderr, "primcost: merge: %s\n", err);
		return PC_EXIT_USAGE;
	}
	to_stdout = strcmp(o.output, "-") == 0;
	if (!to_stdout) {
		if (pc_check_writable(o.output, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: merge: %s\n", err);
			return PC_EXIT_USAGE;
		}
		out = pc_doc_load(o.output, &missing, err, sizeof(err));
		if (!out && !missing) {
			fprintf(stderr, "primcost: merge: %s (refusing to replace it; "
				"move it away or choose another -o)\n", err);
			return PC_EXIT_USAGE;
		}
	}
	if (!out)
		out = pc_doc_new();
	memset(&st, 0, sizeof(st));
	/* Every input is read and merged before anything is written: one bad
	 * file and OUT is left as it was. */
	for (i = 0; i < o.nfiles; i++) {
		char buf[4096];
		const char *path = pc_input_path(o.files[i], buf, sizeof(buf), err,
						 sizeof(err));

		in = path ? pc_doc_load(path, NULL, err, sizeof(err)) : NULL;
		if (!in) {
			fprintf(stderr, "primcost: merge: %s\n", err);
			json_decref(out);
			return PC_EXIT_USAGE;
		}
		rc = pc_doc_merge(out, in, &st, why, sizeof(why));
		json_decref(in);
		if (rc < 0) {
			fprintf(stderr, "primcost: merge: %s: %s\n", o.files[i], why);
			json_decref(out);
			return PC_EXIT_USAGE;
		}
	}
	/* The result must be readable by primcost itself. */
	bytes = json_dumpb(out, NULL, 0, JSON_INDENT(1) | JSON_REAL_PRECISION(7));
	if (pc_doc_validate(out, why, sizeof(why)) < 0 || bytes > PC_LIMIT_FILE_BYTES) {
		if (bytes > PC_LIMIT_FILE_BYTES)
			snprintf(why, sizeof(why), "%zu bytes (limit %d MiB)", bytes,
				 PC_LIMIT_FILE_BYTES >> 20);
		fprintf(stderr, "primcost: merge: the merged result would not be "
			"readable: %s\n", why);
		json_decref(out);
		return PC_EXIT_USAGE;
	}
	if (pc_doc_write(out, o.output, err, sizeof(err)) < 0) {
		fprintf(stderr, "primcost: merge: %s\n", err);
		json_decref(out);
		return PC_EXIT_USAGE;
	}
	if (!o.quiet && !to_stdout)
		printf("merged %zu file%s into %s: %zu CPUs, %zu new, %zu runs added, "
			"%zu already there\n", o.nfiles, o.nfiles == 1 ? "" : "s",
			o.output,
			json_object_size(json_object_get(out, "cpus")), st.cpus_added,
			st.runs_added, st.runs_duplicate);
	json_decref(out);
	return PC_EXIT_OK;
}
