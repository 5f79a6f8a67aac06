/* SPDX-License-Identifier: MIT */
/* remote.c - the probe table of another architecture, measured by its
 * freestanding probe runner (runner_host.c): run's options for it, their
 * checks, and the run through it. */
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "run.h"
#include "remote/runner_host.h"

/* How long one execution of a probe runner may take (an emulator that
 * hangs must not hang primcost). */
#define PC_RUNNER_TIMEOUT_S 3600

const char pc_remote_help[] =
	"\n"
	"Another architecture, through its freestanding probe runner:\n"
	"      --arch ARCH       measure ARCH (ia64) with its probe runner\n"
	"      --emulator PATH   run the runner in this simulator (ia64: Ski's bski)\n"
	"      --runner PATH     user-mode runner (default build-ARCH/primcost-runner)\n"
	"      --system-runner PATH  system-mode image for the ring-0 rows (default:\n"
	"                        primcost-runner-system next to the runner)\n"
	"      --runner-output FILE  read what a runner wrote where it ran (a real\n"
	"                        Itanium) instead of running it\n"
	"      --system-runner-output FILE  the same for the system-mode image\n"
	"                        (with --runner-output)\n";

/* Each a path, kept in field of struct pc_run_options. */
#define REMOTE_FIELD(f) offsetof(struct pc_run_options, f)
static const size_t remote_fields[] = {
	REMOTE_FIELD(arch), REMOTE_FIELD(emulator), REMOTE_FIELD(runner),
	REMOTE_FIELD(system_runner), REMOTE_FIELD(runner_output),
	REMOTE_FIELD(system_runner_output),
};

const struct pc_group_option pc_remote_options[] = {
	{ "arch", true, false }, { "emulator", true, false }, { "runner", true, false },
	{ "system-runner", true, false }, { "runner-output", true, false },
	{ "system-runner-output", true, false }, { NULL, false, false },
};

int pc_remote_option(struct pc_run_options *o, int index, const char *arg, char *err,
		     size_t errlen)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", pc_remote_options[index].name);
	return pc_opt_nonempty(name, arg, (const char **)((char *)o + remote_fields[index]),
			       err, errlen);
}

int pc_remote_check(struct pc_run_options *o, char *err, size_t errlen)
{
	if (!o->arch && (o->emulator || o->runner || o->system_runner ||
			 o->runner_output || o->system_runner_output)) {
		snprintf(err, errlen, "--%s needs --arch", o->emulator ? "emulator" :
			 o->runner ? "runner" : o->system_runner ? "system-runner" :
			 o->runner_output ? "runner-output" : "system-runner-output");
		return -1;
	}
	if (o->system_runner_output && !o->runner_output) {
		snprintf(err, errlen, "--system-runner-output goes with "
			 "--runner-output (the user-mode output of the same runner)");
		return -1;
	}
	if (o->runner_output && (o->emulator || o->runner || o->system_runner)) {
		snprintf(err, errlen, "--runner-output reads a saved output: it "
			 "goes without --emulator, --runner and --system-runner");
		return -1;
	}
	if (o->arch && strcmp(o->arch, pc_arch_name) != 0 &&
	    !pc_runner_arch_find(o->arch)) {
		snprintf(err, errlen, "--arch: no probe runner for '%s' (this "
			 "build measures %s natively; runners: %s)", o->arch,
			 pc_arch_name, pc_runner_arch_list());
		return -1;
	}
	if (o->arch && strcmp(o->arch, pc_arch_name) == 0 && !o->runner &&
	    !o->emulator && !o->runner_output)
		o->arch = NULL;		/* this machine: the native run */
	return 0;
}

/* The runner bootstrap builds: build-ARCH/ next to the primcost program,
 * else in the current directory. */
static void default_runner(const char *arch, const char *file, char *out, size_t len)
{
	const struct pc_runner_arch *ra = pc_runner_arch_find(arch);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = 0;
		snprintf(out, len, "%s/%s/%s", dirname(exe), ra->build_dir, file);
		if (access(out, F_OK) == 0)
			return;
	}
	snprintf(out, len, "%s/%s", ra->build_dir, file);
}

int pc_remote_measure(struct pc_run *r, char *err, size_t errlen)
{
	const struct pc_run_options *o = r->o;
	struct pc_runner_request rq;
	char runner[PATH_MAX], system_runner[PATH_MAX];

	memset(&rq, 0, sizeof(rq));
	rq.arch = o->arch;
	rq.emulator = o->emulator;
	if (o->runner)
		snprintf(runner, sizeof(runner), "%s", o->runner);
	else
		default_runner(o->arch, "primcost-runner", runner, sizeof(runner));
	if (o->system_runner) {
		snprintf(system_runner, sizeof(system_runner), "%s", o->system_runner);
	} else {
		char copy[PATH_MAX];

		snprintf(copy, sizeof(copy), "%s", runner);
		snprintf(system_runner, sizeof(system_runner), "%s/primcost-runner-system",
			 dirname(copy));
	}
	rq.runner = runner;
	rq.system_runner = system_runner;
	rq.runner_output = o->runner_output;
	rq.system_runner_output = o->system_runner_output;
	rq.samples = o->samples;
	rq.sample_us = o->sample_us;
	rq.timeout_s = PC_RUNNER_TIMEOUT_S;
	rq.keep_samples = o->keep_samples;
	rq.progress = !o->quiet && isatty(STDERR_FILENO);
	rq.status_fd = o->status_fd;
	r->cpu_no = -1;
	return pc_runner_measure(&rq, o->selected, &r->ci, &r->clk, &r->prof, &r->extra,
				 err, errlen);
}
