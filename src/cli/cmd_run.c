/* SPDX-License-Identifier: MIT */
/* cmd_run.c - primcost run: measure, save, show. */
#include <getopt.h>
#include <stddef.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cmd_run.h"
#include "commands.h"
#include "core/contain.h"
#include "results/table.h"

/* The help: run's own options, each group's (group.h), the probe runner's. */
static const char usage_head[] =
	"usage: primcost run [OPTIONS]\n"
	"\n"
	"Measure the probes on this CPU; print a table and merge the results\n"
	"into a JSON file under this CPU's model key.\n"
	"\n"
	"  -p, --probes LIST     names and shell globs, comma-separated (default: all)\n"
	"  -c, --cpu N           pin to CPU N (default: the CPU primcost starts on)\n"
	"  -n, --samples N       differential samples per probe (default 501)\n"
	"      --until-known     stop each probe once its figure is known; -n is\n"
	"                        then the most it takes\n"
	"      --sample-us US    target length of one timed loop (default 20)\n"
	"  -k, --keep-samples    store every sample in the JSON (for compare)\n"
	"  -o, --output FILE     result file (default primcost.json; - = stdout, the\n"
	"                        JSON only); writers of one file take turns\n"
	"  -f, --format FMT      table, json, csv or markdown (default table)\n"
	"      --no-pmu          scale ticks by calibration even if a PMU exists\n"
	"      --ring0 MODE      ring-0 rows: auto, kvm, kmod or none (default auto)\n"
	"      --ring0-timeout S\n"
	"                        limit of one ring-0 guest call, seconds (default 10)\n"
	"      --ring0-module FILE  kernel module to load for kmod (default\n"
	"                        /lib/modules/RELEASE/extra/primcost_ring0.ko)\n"
	"  -e, --events LIST     also count these libpfm4 events per operation,\n"
	"                        comma-separated (see primcost list --events)\n"
	"      --keep-disturbed  keep samples that saw a context switch or migration\n"
	"      --keep-contended  keep samples taken while the core was shared\n"
	"  -v, --verbose         show discarded samples per probe in the table\n"
	"      --probe-timeout S\n"
	"                        seconds one probe may take; 0 = no limit\n"
	"                        (default 10 + 40 x (samples + 500) x sample-us)\n"
	"      --save-partial    on SIGINT, SIGTERM or SIGHUP, save what was measured\n"
	"                        (marked partial) instead of leaving the file as it was\n"
	"  -q, --quiet           no table, no progress\n"
	"      --status-fd FD    write progress lines to file descriptor FD\n"
	"  -h, --help            this help\n";

enum { OPT_SAMPLE_US = 256, OPT_NO_PMU, OPT_RING0, OPT_RING0_TIMEOUT,
       OPT_RING0_MODULE, OPT_KEEP_DISTURBED, OPT_PROBE_TIMEOUT, OPT_SAVE_PARTIAL,
       OPT_KEEP_CONTENDED, OPT_STATUS_FD, OPT_UNTIL_KNOWN, OPT_REMOTE = 960 };

/* A group's option i is given to getopt as OPT_GROUP + 64 x the group's
 * place in the registry + i. */
#define OPT_GROUP 1024
#define OPT_GROUP_MAX 64

static const struct option long_options[] = {
	{ "probes", required_argument, NULL, 'p' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "samples", required_argument, NULL, 'n' },
	{ "sample-us", required_argument, NULL, OPT_SAMPLE_US },
	{ "keep-samples", no_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "no-pmu", no_argument, NULL, OPT_NO_PMU },
	{ "ring0", required_argument, NULL, OPT_RING0 },
	{ "ring0-timeout", required_argument, NULL, OPT_RING0_TIMEOUT },
	{ "ring0-module", required_argument, NULL, OPT_RING0_MODULE },
	{ "events", required_argument, NULL, 'e' },
	{ "keep-disturbed", no_argument, NULL, OPT_KEEP_DISTURBED },
	{ "keep-contended", no_argument, NULL, OPT_KEEP_CONTENDED },
	{ "until-known", no_argument, NULL, OPT_UNTIL_KNOWN },
	{ "verbose", no_argument, NULL, 'v' },
	{ "probe-timeout", required_argument, NULL, OPT_PROBE_TIMEOUT },
	{ "save-partial", no_argument, NULL, OPT_SAVE_PARTIAL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "status-fd", required_argument, NULL, OPT_STATUS_FD },
	{ "help", no_argument, NULL, 'h' },
};

/* run's options and every group's, for getopt_long; and the help. */
static struct option all_options[PC_ARRAY_LEN(long_options) + (PC_GROUPS_MAX + 2) * OPT_GROUP_MAX];
static char usage_text[8192];

/* Appends a group's options to all_options[n..), as codes base + i. */
static size_t add_options(size_t n, const struct pc_group_option *list, int base)
{
	int i;

	for (i = 0; list && list[i].name; i++)
		all_options[n++] = (struct option){ list[i].name, list[i].has_arg ?
			required_argument : no_argument, NULL, base + i };
	return n;
}

static void gather(void)
{
	size_t n = PC_ARRAY_LEN(long_options), at, i;

	memcpy(all_options, long_options, sizeof(long_options));
	at = (size_t)snprintf(usage_text, sizeof(usage_text), "%s", usage_head);
	for (i = 0; pc_groups[i]; i++) {
		n = add_options(n, pc_groups[i]->options, OPT_GROUP + OPT_GROUP_MAX * (int)i);
		if (pc_groups[i]->help && at < sizeof(usage_text))
			at += (size_t)snprintf(usage_text + at, sizeof(usage_text) - at, "%s",
					       pc_groups[i]->help);
	}
	n = add_options(n, pc_remote_options, OPT_REMOTE);
	all_options[n] = (struct option){ NULL, 0, NULL, 0 };
	if (at < sizeof(usage_text))
		snprintf(usage_text + at, sizeof(usage_text) - at, "%s", pc_remote_help);
}

/* An option parse in progress: where values go, what -f said, the error. */
struct run_parse {
	struct pc_run_options *o;
	const char *format_given;
	char *err;
	size_t errlen;
};

#define RUN_FIELD(f) offsetof(struct pc_run_options, f)

/* The options that set a flag: which, and to what. */
static const struct {
	int opt;
	size_t field;
	bool value;
} run_flags[] = {
	{ 'k', RUN_FIELD(keep_samples), true },
	{ OPT_NO_PMU, RUN_FIELD(pmu), false },
	{ OPT_KEEP_CONTENDED, RUN_FIELD(keep_contended), true },
	{ OPT_UNTIL_KNOWN, RUN_FIELD(until_known), true },
	{ OPT_KEEP_DISTURBED, RUN_FIELD(reject_disturbed), false },
	{ 'v', RUN_FIELD(verbose), true },
	{ 'q', RUN_FIELD(quiet), true },
	{ OPT_SAVE_PARTIAL, RUN_FIELD(save_partial), true },
};

static int opt_flag(struct run_parse *p, int c, const char *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < PC_ARRAY_LEN(run_flags); i++) {
		if (run_flags[i].opt == c) {
			*(bool *)((char *)p->o + run_flags[i].field) = run_flags[i].value;
			return 0;
		}
	}
	return PC_OPT_NOT_MINE;
}

/* The options with a value: -p, -c, -n, --sample-us, -e, -o, -f,
 * --status-fd, --probe-timeout, the way into ring 0, the probe runner. */
static int opt_value(struct run_parse *p, int c, const char *arg)
{
	struct pc_run_options *o = p->o;
	long v;

	switch (c) {
	case 'p':
		if (pc_run_recordable("--probes", arg, p->err, p->errlen) < 0)
			return -1;
		o->probes = arg;
		return 0;
	case 'c':
		return pc_opt_cpu(arg, &o->cpu, p->err, p->errlen);
	case 'n':
	case OPT_SAMPLE_US:
		if (c == 'n' ? pc_opt_long("--samples", arg, PC_SAMPLES_MIN,
					   PC_SAMPLES_MAX, "9..1000000", &v, p->err,
					   p->errlen) < 0 :
		    pc_opt_long("--sample-us", arg, 1, 1000000, "1..1000000", &v,
				p->err, p->errlen) < 0)
			return -1;
		*(c == 'n' ? &o->samples : &o->sample_us) = (unsigned)v;
		o->samples_given |= c == 'n';
		return 0;
	case 'e':
		if (o->events_list) {
			snprintf(p->err, p->errlen, "--events: give one list, comma-separated");
			return -1;
		}
		if (pc_run_recordable("--events", arg, p->err, p->errlen) < 0)
			return -1;
		o->events_list = arg;
		return 0;
	case 'o':
		return pc_opt_nonempty("--output", arg, &o->output, p->err, p->errlen);
	case 'f':
		p->format_given = arg;
		return pc_opt_format(arg, PC_FMTS_VIEWS, &o->format, p->err, p->errlen);
	case OPT_STATUS_FD:
		if (pc_opt_long("--status-fd", arg, 0, INT_MAX, "a file descriptor "
				"number", &v, p->err, p->errlen) < 0)
			return -1;
		o->status_fd = (int)v;
		return 0;
	case OPT_PROBE_TIMEOUT:
		o->probe_timeout_s = pc_parse_double(arg, 0, 1e6);
		if (isnan(o->probe_timeout_s) ||
		    (o->probe_timeout_s > 0 && o->probe_timeout_s < 0.01)) {
			snprintf(p->err, p->errlen, "--probe-timeout: want 0 (no limit) or "
				 "0.01..1000000 seconds, got '%s'", arg);
			return -1;
		}
		return 0;
	case OPT_RING0:
		return pc_opt_ring0(arg, &o->ring0.mode, p->err, p->errlen);
	case OPT_RING0_TIMEOUT:
		return pc_opt_double("--ring0-timeout", arg, 0.01, 3600, "seconds in "
				     "0.01..3600", &o->ring0.timeout_s, p->err, p->errlen);
	case OPT_RING0_MODULE:
		return pc_opt_nonempty("--ring0-module", arg, &o->ring0.module_path,
				       p->err, p->errlen);
	}
	if (c >= OPT_REMOTE && c < OPT_GROUP)	/* the probe runner's (remote.c) */
		return pc_remote_option(o, c - OPT_REMOTE, arg, p->err, p->errlen);
	return PC_OPT_NOT_MINE;
}

/* The options that only make sense together. */
static int check_combinations(struct run_parse *p)
{
	struct pc_run_options *o = p->o;

	/* -o - puts the JSON result on standard output: a table there would
	 * make it unreadable, and dropping the -f asked for would be silent. */
	if (p->format_given && o->format != PC_FORMAT_JSON && strcmp(o->output, "-") == 0) {
		snprintf(p->err, p->errlen, "-f %s with -o -: standard output carries "
			 "the JSON result; give -o FILE for the %s", p->format_given,
			 o->format == PC_FORMAT_TABLE ? "table" : "report");
		return -1;
	}
	return pc_remote_check(o, p->err, p->errlen);
}

/* A group's option: given to its group, with the group's options. */
static int opt_group(struct run_parse *p, int c, const char *arg)
{
	if (c < OPT_GROUP)
		return PC_OPT_NOT_MINE;
	return pc_group_option(p->o, pc_groups[(c - OPT_GROUP) / OPT_GROUP_MAX],
			       (c - OPT_GROUP) % OPT_GROUP_MAX, arg, p->err, p->errlen);
}

/* Gives option c to the handler that takes it. */
static int take_option(int c, const char *arg, void *ctx, char *err, size_t errlen)
{
	static int (*const takers[])(struct run_parse *, int, const char *) = {
		opt_flag, opt_value, opt_group,
	};
	size_t t;
	int rc = PC_OPT_NOT_MINE;

	(void)err;	/* p has them */
	(void)errlen;
	for (t = 0; rc == PC_OPT_NOT_MINE && t < PC_ARRAY_LEN(takers); t++)
		rc = takers[t](ctx, c, arg);
	return rc;
}

static int parse(int argc, char **argv, struct run_parse *p)
{
	int rc;

	pc_run_defaults(p->o);
	p->o->argv = argv;	/* a group may run the command again */
	gather();
	rc = pc_options_parse(argc, argv, ":p:c:n:ko:f:qhe:v", all_options, take_option,
			      p, p->err, p->errlen);
	if (rc != 0)
		return rc;
	if (pc_no_operand(argc, argv, p->err, p->errlen) < 0)
		return -1;
	if (check_combinations(p) < 0 || pc_groups_finish(p->o, p->err, p->errlen) < 0)
		return -1;
	if (p->o->events_list &&
	    pc_events_parse(p->o->events_list, &p->o->events, p->err, p->errlen) < 0)
		return -1;
	return 0;
}

int pc_run_options_parse(int argc, char **argv, struct pc_run_options *o,
			 char *err, size_t errlen)
{
	struct run_parse p = { o, NULL, err, errlen };

	return pc_options_end(parse(argc, argv, &p), err, errlen);
}

/* Interrupted with nothing to save: says what was left; the exit status. */
static int not_saved(const struct pc_run_options *o, int sig)
{
	bool out = strcmp(o->output, "-") == 0;

	pc_error("run", "interrupted by %s%s; %s%s%s", pc_signal_name(sig),
		 o->save_partial ? " before any probe was measured" : "",
		 out ? "nothing written" : o->output, out ? "" : " left as it was",
		 o->save_partial ? "" : " (--save-partial keeps what was measured)");
	return PC_EXIT_SIGNAL + sig;
}

/* Shows the run: its group's view, or the probe table's (and any JSON);
 * whether its host was slower; where it was saved. */
static void show(const struct pc_run *r, json_t *run_doc)
{
	const struct pc_run_options *o = r->o;
	char line[2 * PC_ERRLEN], count[64];

	if (o->group->show && o->format != PC_FORMAT_JSON)
		pc_view_show(stdout, o->format, o->group->show, run_doc);
	else
		pc_report_verbose(stdout, run_doc, o->format, o->verbose);
	pc_report_host(stdout, run_doc, o->format);
	if (o->format != PC_FORMAT_TABLE)
		return;
	snprintf(line, sizeof(line), "%s in %.2f s; saved under \"%s\" in %s",
		 pc_count_of(count, sizeof(count), r->prof.nprobes, o->group->unit, NULL),
		 r->prof.wall_s, pc_shown(r->ci.key), pc_shown(o->output));
	putchar('\n');
	pc_text_wrap(stdout, "", line, 2, pc_table_fit());
}

/* Writes the run (to standard output, or filed into -o) and shows it; the
 * exit status, or -1 when written. */
static int file_result(struct pc_run *r, json_t *run_doc)
{
	char err[PC_ERRLEN];
	int stopped = 0;

	if (pc_run_save(r, run_doc, &stopped, err, sizeof(err)) < 0) {
		pc_error("run", "%s", err);
		return stopped ? PC_EXIT_SIGNAL + pc_interrupted() : PC_EXIT_USAGE;
	}
	if (strcmp(r->o->output, "-") == 0)
		return -1;
	if (r->sig)
		pc_error("run", "interrupted by %s: %zu of %zu probes measured, saved "
			 "(marked partial) under \"%s\" in %s", pc_signal_name(r->sig),
			 pc_run_measured(r), r->prof.nprobes, r->ci.key, r->o->output);
	if (!r->o->quiet)
		show(r, run_doc);
	return -1;
}

int cmd_run(int argc, char **argv)
{
	struct pc_run_options o;
	struct pc_run r = { 0 };
	char err[PC_ERRLEN];
	json_t *run_doc;
	int rc = pc_run_options_parse(argc, argv, &o, err, sizeof(err));

	if (rc != 0)
		return pc_options_exit("run", rc, usage_text, err);
	if (pc_run_preflight(&o, err, sizeof(err)) < 0) {
		pc_error("run", "%s", err);
		return PC_EXIT_USAGE;
	}
	/* From here on, SIGINT, SIGTERM and SIGHUP stop the run in an orderly
	 * way: the file is left as it was, or gets what was measured. */
	pc_interrupts_catch();
	if (pc_run_measure(&r, &o, err, sizeof(err)) < 0) {
		pc_error("run", "%s", err);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	/* Interrupted (during the run, or since): nothing is written unless
	 * --save-partial asks, and then only what was measured. */
	r.sig = r.prof.interrupted ? r.prof.interrupted : pc_interrupted();
	if (r.sig && (!o.save_partial || !pc_run_measured(&r))) {
		rc = not_saved(&o, r.sig);
	} else if (pc_run_refused(&r, err, sizeof(err))) {
		/* a run of no figure is no result: said, and nothing written */
		pc_error("run", "%s", err);
		rc = PC_EXIT_USAGE;
	} else if (!(run_doc = pc_run_document(&r, err, sizeof(err)))) {
		pc_error("run", "cannot build the result: %s", err);
		rc = PC_EXIT_USAGE;
	} else {
		rc = file_result(&r, run_doc);
		if (rc < 0 && !r.sig && pc_interrupted()) {
			/* after the measuring: it takes effect after the rename */
			r.sig = pc_interrupted();
			pc_error("run", "interrupted by %s after the run was saved in %s",
				 pc_signal_name(r.sig), o.output);
		}
		if (rc < 0)
			rc = r.sig ? PC_EXIT_SIGNAL + r.sig : pc_run_failed(&r) ?
			     PC_EXIT_FAILURE : PC_EXIT_OK;
		json_decref(run_doc);
	}
out:
	pc_run_close(&r);
	pc_interrupts_release();
	pc_events_close(&o.events);
	return rc;
}
