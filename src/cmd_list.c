/* cmd_list.c - primcost list: the probe table and what this build runs. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "results.h"

static const char usage_text[] =
	"usage: primcost list [OPTIONS] [PATTERN]\n"
	"       primcost list --reference [OPTIONS] [PATTERN]\n"
	"\n"
	"List the probes (all, or those matching the shell glob PATTERN) with\n"
	"their group, ring, kernel API and whether this build can run them.\n"
	"\n"
	"  -v, --verbose         also show the instruction sequence each probe times\n"
	"  -r, --reference       list the published reference tables instead\n"
	"  -f, --format FMT      table, csv or json (default table)\n"
	"  -h, --help            this help\n";

static const struct option long_options[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "reference", no_argument, NULL, 'r' },
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

/* ---- the reference tables ---------------------------------------------------- */

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

/* The published tables installed with primcost (pc_reference_dir()),
 * each validated as it is read. */
static int list_reference(const char *pattern, int fmt, int verbose)
{
	const char *dir = pc_reference_dir();
	struct dirent **names;
	json_t *arr = fmt == 2 ? json_array() : NULL;
	int n, i, rc = PC_EXIT_OK;

	n = scandir(dir, &names, json_name, alphasort);
	if (n < 0) {
		fprintf(stderr, "primcost: list: reference tables: %s: %s\n", dir,
			strerror(errno));
		json_decref(arr);
		return PC_EXIT_USAGE;
	}
	if (fmt == 0)
		printf("%-32s %-12s %6s  %s\n", "reference", "date", "probes", "cpu");
	else if (fmt == 1)
		printf("reference,file,cpu,brand,date,probes,source\n");
	for (i = 0; i < n; i++) {
		char path[4096], err[PC_ERRLEN], name[256];
		const char *key;
		json_t *doc, *e;

		snprintf(name, sizeof(name), "%.*s", (int)strlen(names[i]->d_name) - 5,
			 names[i]->d_name);
		if (pattern && fnmatch(pattern, name, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		doc = pc_doc_load(path, NULL, err, sizeof(err));
		if (!doc) {
			fprintf(stderr, "primcost: list: %s\n", err);
			rc = PC_EXIT_USAGE;
			break;
		}
		json_object_foreach(json_object_get(doc, "cpus"), key, e) {
			json_t *runs = json_object_get(e, "runs");
			json_t *run = json_array_get(runs, 0);
			const char *brand = json_string_value(json_object_get(
				json_object_get(e, "cpu"), "brand"));
			const char *date = json_string_value(json_object_get(run, "date"));

			date = date ? date : "";
			const char *summary = json_string_value(json_object_get(
				json_object_get(run, "provenance"), "summary"));
			size_t np = json_object_size(json_object_get(e, "probes")), k;

			if (fmt == 0) {
				printf("%-32s %-12s %6zu  %s\n", name, date, np, brand ? brand : key);
				if (verbose)
					for (k = 0; k < json_array_size(runs); k++)
						printf("%32s %s\n", "", json_string_value(json_object_get(
							json_object_get(json_array_get(runs, k),
									"provenance"), "summary")));
			} else if (fmt == 1) {
				printf("%s,\"%s\",%s,\"%s\",%s,%zu,\"%s\"\n", name, path, key,
				       brand ? brand : "", date, np, summary ? summary : "");
			} else {
				json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s?, s:s, s:i, s:s?}",
					"reference", name, "file", path, "cpu", key, "brand", brand,
					"date", date, "probes", (json_int_t)np, "source", summary));
			}
		}
		json_decref(doc);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (arr) {
		if (rc == PC_EXIT_OK) {
			json_dumpf(arr, stdout, JSON_INDENT(1));
			putchar('\n');
		}
		json_decref(arr);
	}
	return rc;
}

int cmd_list(int argc, char **argv)
{
	const char *pattern = NULL;
	int c, id, verbose = 0, fmt = 0, reference = 0;	/* fmt: 0 table, 1 csv, 2 json */
	json_t *arr = NULL;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vrf:h", long_options, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'r':
			reference = 1;
			break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				fmt = 0;
			else if (strcmp(optarg, "csv") == 0)
				fmt = 1;
			else if (strcmp(optarg, "json") == 0)
				fmt = 2;
			else {
				fprintf(stderr, "primcost: list: --format: want table, "
					"csv or json, got '%s'\n", optarg);
				return PC_EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return PC_EXIT_OK;
		case ':':
			fprintf(stderr, "primcost: list: option '%s' needs a value\n",
				argv[optind - 1]);
			return PC_EXIT_USAGE;
		default:
			fprintf(stderr, "primcost: list: unknown option '%s'\n",
				argv[optind - 1]);
			return PC_EXIT_USAGE;
		}
	}
	if (optind < argc)
		pattern = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "primcost: list: unexpected argument '%s'\n", argv[optind]);
		return PC_EXIT_USAGE;
	}
	if (reference)
		return list_reference(pattern, fmt, verbose);
	if (pattern) {
		bool sel[PC_PROBE_COUNT];
		char err[PC_ERRLEN];

		if (pc_select_probes(pattern, sel, err, sizeof(err)) < 0) {
			fprintf(stderr, "primcost: list: %s\n", err);
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
