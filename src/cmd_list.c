/* cmd_list.c - primcost list: the probe table and what this build runs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "results.h"

static const char usage_text[] =
	"usage: primcost list [OPTIONS] [PATTERN]\n"
	"\n"
	"List the probes (all, or those matching the shell glob PATTERN) with\n"
	"their group, ring, kernel API and whether this build can run them.\n"
	"\n"
	"  -v, --verbose         also show the instruction sequence each probe times\n"
	"  -f, --format FMT      table, csv or json (default table)\n"
	"  -h, --help            this help\n";

static const struct option long_options[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What `run` will do with the row on this build. */
static const char *availability(int id)
{
	if (!pc_probe_impl((enum pc_probe_id)id))
		return "unsupported";
	if (pc_probe_rows[id].ring == 0)
		return "needs-ring0";
	return "ok";
}

static const char *sequence(int id)
{
	const struct pc_arch_probe *p = pc_probe_impl((enum pc_probe_id)id);

	return p && p->sequence ? p->sequence : "";
}

int cmd_list(int argc, char **argv)
{
	const char *pattern = NULL;
	char opt[64];
	int c, id, verbose = 0, fmt = 0;	/* 0 table, 1 csv, 2 json */
	json_t *arr = NULL;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vf:h", long_options, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				fmt = 0;
			else if (strcmp(optarg, "csv") == 0)
				fmt = 1;
			else if (strcmp(optarg, "json") == 0)
				fmt = 2;
			else {
				pc_error("list", "--format: want table, "
					"csv or json, got '%s'", optarg);
				return PC_EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return PC_EXIT_OK;
		case ':':
			pc_error("list", "option '%s' needs a value",
				pc_bad_option(argv, c, opt, sizeof(opt)));
			return PC_EXIT_USAGE;
		default:
			pc_error("list", "unknown option '%s'",
				pc_bad_option(argv, c, opt, sizeof(opt)));
			return PC_EXIT_USAGE;
		}
	}
	if (optind < argc)
		pattern = argv[optind++];
	if (optind < argc) {
		pc_error("list", "unexpected argument '%s'", argv[optind]);
		return PC_EXIT_USAGE;
	}
	if (pattern) {
		bool sel[PC_PROBE_COUNT];
		char err[PC_ERRLEN];

		if (pc_select_probes(pattern, sel, err, sizeof(err)) < 0) {
			pc_error("list", "%s", err);
			return PC_EXIT_USAGE;
		}
	}

	if (fmt == 0)
		printf("%-24s %-12s %4s %-12s %s\n", "probe", "group", "ring",
		       pc_arch_name, "description");
	else if (fmt == 1)
		printf("probe,group,ring,kernel_api,%s,sequence,description\n",
		       pc_arch_name);
	else
		arr = json_array();
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		const struct pc_probe_row *r = &pc_probe_rows[id];
		bool sel[PC_PROBE_COUNT];
		char err[PC_ERRLEN];

		if (pattern && (pc_select_probes(pattern, sel, err, sizeof(err)) < 0 ||
				!sel[id]))
			continue;
		if (fmt == 0) {
			printf("%-24s %-12s %4d %-12s %s\n", r->name,
			       pc_group_name(r->group), r->ring, availability(id),
			       r->description);
			if (verbose)
				printf("%24s kernel API: %s\n%24s sequence:   %s\n", "",
				       r->kernel_api, "", sequence(id));
		} else if (fmt == 1) {
			printf("%s,%s,%d,\"%s\",%s,\"%s\",\"%s\"\n", r->name,
			       pc_group_name(r->group), r->ring, r->kernel_api,
			       availability(id), sequence(id), r->description);
		} else {
			json_array_append_new(arr, json_pack(
				"{s:s, s:s, s:i, s:s, s:s, s:s, s:s}", "name", r->name,
				"group", pc_group_name(r->group), "ring", r->ring,
				"kernel_api", r->kernel_api, "availability",
				availability(id), "sequence", sequence(id),
				"description", r->description));
		}
	}
	if (arr) {
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(arr);
	}
	return PC_EXIT_OK;
}
