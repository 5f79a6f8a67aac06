/* SPDX-License-Identifier: MIT */
/*
 * runner_host.c - measuring another architecture through its freestanding
 * probe runner (runner/runner.h documents the runner and its output): run
 * it natively or under an emulator, read its raw timings, and turn them
 * into the same profile, CPU identity and clock a native run produces, so
 * that the table, the JSON and the statistics are the core's own.
 * runner_parse.c reads the output, runner_proc.c runs the runner.
 *
 * A runner that dies (a probe trapped) is run again without that probe:
 * the trap is that probe's failure, not the run's.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "runner_host.h"
#include "runner_parts.h"
#include "core/samples.h"

static const struct pc_runner_arch runner_arches[] = {
	/* Ski: without -noconsole, output goes to a console window instead
	 * of standard output. */
	{ "ia64", "build-ia64", "Ski", { "-noconsole", NULL }, "HP_Ski_Simulator" },
};

#define NARCHES (sizeof(runner_arches) / sizeof(runner_arches[0]))

const struct pc_runner_arch *pc_runner_arch_find(const char *arch)
{
	size_t i;

	for (i = 0; i < NARCHES; i++)
		if (strcmp(runner_arches[i].arch, arch) == 0)
			return &runner_arches[i];
	return NULL;
}

const char *pc_runner_arch_list(void)
{
	static char list[128];
	size_t i, o = 0;

	for (i = 0; i < NARCHES && o < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "",
				      runner_arches[i].arch);
	return list;
}

/* ---- running until every probe has an outcome ----------------------------------------- */

/* Moves probe id's data from src into dst. */
static void take_probe(struct pc_runner_output *dst, struct pc_runner_output *src, int id)
{
	free(dst->probes[id].s);
	free(dst->probes[id].lin);
	dst->probes[id] = src->probes[id];
	memset(&src->probes[id], 0, sizeof(src->probes[id]));
}

static void fail_probe(struct pc_runner_output *dst, int id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail_probe(struct pc_runner_output *dst, int id, const char *fmt, ...)
{
	struct pc_runner_probe *p = &dst->probes[id];
	va_list ap;

	free(p->s);
	free(p->lin);
	memset(p, 0, sizeof(*p));
	p->seen = p->has_status = true;
	p->status = PC_STATUS_FAILED;
	va_start(ap, fmt);
	vsnprintf(p->reason, sizeof(p->reason), fmt, ap);
	va_end(ap);
}

/* The header facts of the first good output. */
static void take_header(struct pc_runner_output *dst, const struct pc_runner_output *src)
{
	size_t i;

	if (dst->format)
		return;
	dst->format = src->format;
	memcpy(dst->arch, src->arch, sizeof(dst->arch));
	memcpy(dst->mode, src->mode, sizeof(dst->mode));
	memcpy(dst->timer, src->timer, sizeof(dst->timer));
	memcpy(dst->vendor, src->vendor, sizeof(dst->vendor));
	dst->unroll_lo = src->unroll_lo;
	dst->unroll_hi = src->unroll_hi;
	dst->family = src->family;
	dst->model = src->model;
	dst->revision = src->revision;
	dst->archrev = src->archrev;
	dst->have_cpu = src->have_cpu;
	dst->target_ticks = src->target_ticks;
	for (i = 0; i < src->nclock; i++)
		dst->clock_hz[i] = src->clock_hz[i];
	dst->nclock = src->nclock;
}

/* The command line of one runner execution. */
struct cmdline {
	char *argv[16 + PC_PROBE_COUNT];
	char samples[32], sample_us[32];
};

/* The emulator and its options, the program, and for a program that takes
 * arguments "-n N -u US" and the names of the probes still pending. */
static void build_cmdline(const struct pc_runner_request *rq, const char *program,
			  bool pass_args, const bool *pending, struct cmdline *cl)
{
	const struct pc_runner_arch *ra = pc_runner_arch_find(rq->arch);
	int argc = 0, id, i;

	if (rq->emulator) {
		cl->argv[argc++] = (char *)rq->emulator;
		for (i = 0; ra->emulator_args[i]; i++)
			cl->argv[argc++] = (char *)ra->emulator_args[i];
	}
	cl->argv[argc++] = (char *)program;
	if (pass_args) {
		snprintf(cl->samples, sizeof(cl->samples), "%u", rq->samples);
		snprintf(cl->sample_us, sizeof(cl->sample_us), "%u", rq->sample_us);
		cl->argv[argc++] = "-n";
		cl->argv[argc++] = cl->samples;
		cl->argv[argc++] = "-u";
		cl->argv[argc++] = cl->sample_us;
		for (id = 0; id < PC_PROBE_COUNT; id++)
			if (pending[id])
				cl->argv[argc++] = (char *)pc_probe_rows[id].name;
	}
	cl->argv[argc] = NULL;
}

/*
 * One execution of program (or, with saved, the output saved where the
 * runner ran: a real Itanium), parsed into *out; why says how it ended,
 * for the failures of a run that stopped early.
 */
static int run_once(const struct pc_runner_request *rq, const char *program,
		    const char *saved, bool pass_args, const bool *pending,
		    struct pc_runner_output *out, char *why, size_t whylen,
		    char *err, size_t errlen)
{
	struct pc_runner_exec r;
	struct cmdline cl;
	int id, npending = 0;

	if (saved) {
		memset(&r, 0, sizeof(r));
		if (pc_runner_load(saved, &r.text, &r.len, err, errlen) < 0)
			return -1;
		snprintf(why, whylen, "stopped (its saved output ends early)");
	} else {
		for (id = 0; id < PC_PROBE_COUNT; id++)
			npending += pending[id];
		build_cmdline(rq, program, pass_args, pending, &cl);
		pc_status_line(rq->status_fd, "runner %d %s", npending, program);
		if (rq->progress)
			fprintf(stderr, "primcost: run: %s%s%s (%d probes)\n",
				rq->emulator ? rq->emulator : "",
				rq->emulator ? " " : "", program, npending);
		/* The emulator is found in PATH; the runner is a path. */
		if (pc_runner_exec(cl.argv, rq->emulator != NULL, rq->timeout_s, &r,
				   err, errlen) < 0)
			return -1;
		pc_runner_exit_text(&r, rq->timeout_s, why, whylen);
	}
	if (pc_runner_parse(r.text, r.len, out, err, errlen) < 0) {
		free(r.text);
		return -1;
	}
	free(r.text);
	return 0;
}

/* An output without records, or of another architecture, is an error. */
static int check_output(const struct pc_runner_request *rq, const char *name,
			const struct pc_runner_output *out, const char *why,
			char *err, size_t errlen)
{
	if (!out->format) {
		snprintf(err, errlen, "%s wrote no runner output and %s%s%s", name,
			 why, out->last_other[0] ? "; last output: " : "",
			 out->last_other);
		return -1;
	}
	if (strcmp(out->arch, rq->arch) != 0) {
		snprintf(err, errlen, "%s is a runner for '%s', not '%s'", name,
			 out->arch, rq->arch);
		return -1;
	}
	return 0;
}

/* After a run that died where running again cannot help: every pending
 * probe fails, the culprit (or all, when none is known) as the one the
 * runner was running. */
static void fail_pending(struct pc_runner_output *merged, const struct pc_runner_output *out,
			 bool *pending, int culprit, const char *why)
{
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		if (!pending[id])
			continue;
		if (id == culprit || culprit < 0)
			fail_probe(merged, id, "the runner %s while running it%s%.120s", why,
				   out->last_other[0] ? "; last output: " : "",
				   out->last_other);
		else
			fail_probe(merged, id, "not measured: the runner %s while running %s",
				   why, culprit >= 0 ? pc_probe_rows[culprit].name : "?");
		pending[id] = false;
	}
}

/*
 * Files the outcomes of one run in *merged: statuses always, measurements
 * when the run completed (after a trap the others run again). True when
 * nothing is left to run: the run completed, or it died and running again
 * without the culprit (rerun) is not possible.
 */
static bool take_outcomes(struct pc_runner_output *merged, struct pc_runner_output *out,
			  bool *pending, int culprit, bool rerun, const char *why)
{
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		if (!pending[id])
			continue;
		if (out->probes[id].has_status || (out->ended && out->probes[id].measured)) {
			take_probe(merged, out, id);
			pending[id] = false;
		}
	}
	if (out->ended) {
		for (id = 0; id < PC_PROBE_COUNT; id++)
			if (pending[id]) {
				fail_probe(merged, id, "the runner did not report it");
				pending[id] = false;
			}
		return true;
	}
	if (culprit < 0 || !pending[culprit] || !rerun) {
		fail_pending(merged, out, pending, culprit, why);
		return true;
	}
	fail_probe(merged, culprit, "the runner %s while running it (a trap "
		   "in the probe?)%s%.120s", why,
		   out->last_other[0] ? "; last output: " : "", out->last_other);
	pending[culprit] = false;
	return false;
}

/*
 * Runs one runner program until each probe in want[] has an outcome in
 * *merged. pass_args: the program takes "-n/-u/names" (the system image
 * takes no arguments and runs every ring-0 row). A saved output stands
 * for one run that cannot be repeated.
 */
static int run_until_done(const struct pc_runner_request *rq, const char *program,
			  const char *saved, bool pass_args, const bool *want,
			  struct pc_runner_output *merged, char *err, size_t errlen)
{
	const char *name = saved ? saved : program;
	bool pending[PC_PROBE_COUNT];
	int id, tries;

	pass_args = pass_args && !saved;
	memcpy(pending, want, sizeof(pending));
	for (tries = 0; tries <= PC_PROBE_COUNT; tries++) {
		struct pc_runner_output out;
		char why[160];
		bool done;
		int culprit;

		for (id = 0; id < PC_PROBE_COUNT && !pending[id]; id++)
			;
		if (id == PC_PROBE_COUNT)
			return 0;
		if (run_once(rq, program, saved, pass_args, pending, &out, why, sizeof(why),
			     err, errlen) < 0)
			return -1;
		if (check_output(rq, name, &out, why, err, errlen) < 0) {
			pc_runner_output_free(&out);
			return -1;
		}
		take_header(merged, &out);
		culprit = out.ended ? -1 :
			  pc_runner_culprit(&out, pending, pass_args ? rq->samples : 0);
		done = take_outcomes(merged, &out, pending, culprit, pass_args, why);
		pc_runner_output_free(&out);
		if (done)
			return 0;
	}
	return 0;
}

/* ---- turning raw timings into a profile ------------------------------------------------ */

int pc_runner_clock(const struct pc_runner_output *user,
		    const struct pc_runner_output *system, struct pc_clock *clk,
		    char *err, size_t errlen)
{
	const struct pc_runner_output *o = user && user->nclock ? user :
					   system && system->nclock ? system : NULL;
	double rates[8];
	size_t i;

	/* The name outlives the outputs: one measurement per process. */
	static char timer[sizeof(user->timer)];

	memset(clk, 0, sizeof(*clk));
	clk->pmu_fd = -1;
	clk->source = PC_CYCLES_CALIBRATED;
	copy_str(timer, sizeof(timer), user && user->timer[0] ? user->timer :
		 system && system->timer[0] ? system->timer : "?");
	clk->timer = timer;
	snprintf(clk->pmu_reason, sizeof(clk->pmu_reason), "the freestanding runner "
		 "reads no PMU: cycles are calibrated with the add chain");
	if (!o) {
		snprintf(err, errlen, "the runner measured no clock window: cannot "
			 "tell the %s rate", clk->timer);
		return -1;
	}
	for (i = 0; i < o->nclock; i++)
		rates[i] = o->clock_hz[i];
	clk->tick_hz = pc_median(rates, o->nclock);
	clk->tick_hz_measured = true;
	if (!(clk->tick_hz > 0)) {
		snprintf(err, errlen, "cannot determine the %s rate", clk->timer);
		return -1;
	}
	return 0;
}

static const char *family_name(int family)
{
	switch (family) {
	case 0x07: return "Itanium";
	case 0x1f: return "Itanium 2";
	case 0x20: return "Itanium 2 9000/9100";
	case 0x21: return "Itanium 9300";
	case 0x22: return "Itanium 9500";
	default: return NULL;
	}
}

void pc_runner_cpu(const struct pc_runner_output *out, const char *emulator,
		   struct pc_cpu_info *ci)
{
	const char *fam = family_name(out->family);
	struct utsname u;

	memset(ci, 0, sizeof(*ci));
	copy_str(ci->arch, sizeof(ci->arch), out->arch);
	copy_str(ci->vendor, sizeof(ci->vendor), out->vendor[0] ? out->vendor : "unknown");
	ci->family = out->family;
	ci->model = out->model;
	ci->stepping = out->revision;
	/* An emulated CPU is filed apart from the silicon it imitates. */
	if (emulator) {
		char *copy = strdup(emulator);

		snprintf(ci->brand, sizeof(ci->brand), "%s %s simulator",
			 pc_runner_arch_find(out->arch) ?
			 pc_runner_arch_find(out->arch)->emulator_name : "emulated",
			 out->arch);
		ci->virtualized = true;
		copy_str(ci->hypervisor, sizeof(ci->hypervisor),
			 copy ? basename(copy) : "emulator");
		free(copy);
	} else if (fam) {
		copy_str(ci->brand, sizeof(ci->brand), fam);
	} else {
		snprintf(ci->brand, sizeof(ci->brand), "%s family %d", out->arch,
			 out->family);
	}
	if (uname(&u) == 0) {
		snprintf(ci->kernel, sizeof(ci->kernel), "%s %s", u.sysname, u.release);
		copy_str(ci->host, sizeof(ci->host), u.nodename);
	}
	pc_cpu_make_key(ci);
	if (!emulator)
		pc_cpu_name_uarch(ci);
}

/* The runner keeps every sample: its loops are judged here as a native
 * run judges them (samples.c), but a slow one cannot be retaken, only
 * dropped; then the spread is judged. */
static void judge_runner_samples(struct pc_sample_set *set, bool *keep,
				 struct pc_probe_result *r)
{
	unsigned nslow, i;
	double spread;
	bool *late = malloc((set->n ? set->n : 1) * sizeof(*late));

	/* the first samples, judged before the window held a floor */
	if (late && pc_sample_set_final(set, late))
		for (i = 0; i < set->n; i++) {
			set->slow_late += keep[i] && !late[i];
			keep[i] = keep[i] && late[i];
		}
	free(late);
	for (i = 0, nslow = 0; i < set->n; i++)
		nslow += !keep[i];
	r->events.slow = set->slow_probe;
	r->events.slow_cal = set->slow_cal;
	r->events.slow_late = set->slow_late;
	if (2 * nslow > set->n) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "disturbed: %u of %u samples "
			 "had a loop over %.0f %% above its floor", nslow, set->n,
			 PC_SLOW_LOOP_TOLERANCE * 100);
		return;
	}
	if (nslow)
		pc_sample_set_keep(set, keep);
	if (pc_samples_noisy(set->dc, set->n, pc_spread_limit((int)r->id), &spread)) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "disturbed: the samples spread "
			 "by %.1f %% (median absolute deviation)", spread * 100);
	}
}

/* A measured probe's samples, through the host's finishing (samples.c).
 * A simulator's timer counts simulated time in irregular steps (Ski's loops
 * of 2000 ticks vary by half): its samples are not judged, the run is
 * unreliable as a whole. */
static int profile_probe(const struct pc_runner_probe *rp, const struct pc_clock *clk,
			 bool keep_samples, bool emulated, struct pc_probe_result *r)
{
	struct pc_sample_set set;
	bool *keep = calloc(rp->n ? rp->n : 1, sizeof(*keep));
	size_t i;
	int rc;

	if (!keep || pc_sample_set_init(&set, (unsigned)rp->n, false) < 0) {
		free(keep);
		return -1;
	}
	set.iters = rp->iters;
	set.cal_iters = rp->cal_iters;
	set.slack = 2 * (clk->tick_step ? clk->tick_step : 1);
	for (i = 0; i < rp->n; i++) {
		struct pc_sample x = { { rp->s[i][0], rp->s[i][1] },
				       { rp->s[i][2], rp->s[i][3] }, { 0, 0 }, { 0, 0 } };
		enum pc_put v = pc_sample_set_put(&set, set.n, &x, NULL);

		/* a calibration pair that read nothing scales nothing */
		if (v != PC_PUT_UNUSABLE)
			keep[set.n++] = v == PC_PUT_OK;
	}
	for (i = 0; i < rp->nlin; i++)
		pc_sample_set_lin(&set, (int64_t)rp->lin[i][0], (int64_t)rp->lin[i][1]);
	rc = 0;
	if (!set.n) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "no usable sample (the "
			 "calibration loop read no ticks)");
	} else {
		r->status = PC_STATUS_OK;
		if (!emulated)
			judge_runner_samples(&set, keep, r);
		rc = pc_sample_set_finish(&set, r, clk, keep_samples);
	}
	pc_sample_set_free(&set);
	free(keep);
	return rc;
}

int pc_runner_profile(const struct pc_runner_output *user,
		      const struct pc_runner_output *system, const bool *selected,
		      const struct pc_clock *clk, bool emulated, bool keep_samples,
		      struct pc_profile *prof, char *err, size_t errlen)
{
	size_t k;

	if (pc_profile_alloc(prof, selected, PC_CYCLES_CALIBRATED) < 0)
		goto oom;
	for (k = 0; k < prof->nprobes; k++) {
		struct pc_probe_result *r = &prof->probes[k];
		const struct pc_runner_output *o;
		const struct pc_runner_probe *rp;
		int id = (int)r->id;

		o = r->ring == 0 && system ? system : user;
		rp = o ? &o->probes[id] : NULL;
		if (!rp || (!rp->has_status && !rp->measured)) {
			r->status = PC_STATUS_FAILED;
			snprintf(r->reason, sizeof(r->reason), "the runner did not report it");
		} else if (rp->has_status) {
			r->status = rp->status;
			copy_str(r->reason, sizeof(r->reason), rp->reason);
		} else if (profile_probe(rp, clk, keep_samples, emulated, r) < 0) {
			goto oom;
		}
	}
	pc_profile_judge(prof, clk, emulated ? "emulated: the runner ran in a "
			 "simulator, whose timer counts simulated time; the figures "
			 "prove the sequences run, not what they cost on any CPU" : NULL);
	return 0;
oom:
	pc_profile_free(prof);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* ---- the whole measurement ---------------------------------------------------------------- */

static bool is_file(const char *path)
{
	struct stat sb;

	return path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* What simulated the runner: the --emulator given, or, whichever way the
 * output arrived (a saved output too), a simulator's own CPU vendor string
 * (Ski reports HP_Ski_Simulator). NULL: it ran on a real CPU. */
static const char *simulated_by(const struct pc_runner_request *rq,
				const struct pc_runner_output *user)
{
	const struct pc_runner_arch *ra = pc_runner_arch_find(rq->arch);

	if (rq->emulator)
		return rq->emulator;
	if (ra && ra->simulator_vendor && strcmp(user->vendor, ra->simulator_vendor) == 0)
		return ra->simulator_vendor;
	return NULL;
}

/* A saved output given must be a regular file. */
static int check_saved(const char *option, const char *path, char *err, size_t errlen)
{
	if (!path || is_file(path))
		return 0;
	snprintf(err, errlen, "%s: %s: %s", option, path,
		 access(path, F_OK) ? strerror(errno) : "not a regular file");
	return -1;
}

/* What can be checked before anything runs. */
static int check_request(const struct pc_runner_request *rq, char *err, size_t errlen)
{
	if (!pc_runner_arch_find(rq->arch)) {
		snprintf(err, errlen, "--arch: no runner for '%s' (%s)", rq->arch,
			 pc_runner_arch_list());
		return -1;
	}
	if (check_saved("--runner-output", rq->runner_output, err, errlen) < 0 ||
	    check_saved("--system-runner-output", rq->system_runner_output, err,
			errlen) < 0)
		return -1;
	if (!rq->runner_output && !is_file(rq->runner)) {
		snprintf(err, errlen, "%s: no runner there (./bootstrap build --arch %s "
			 "builds it, or give --runner)", rq->runner, rq->arch);
		return -1;
	}
	/* A name without a slash is looked up in PATH when it is run. */
	if (rq->emulator && strchr(rq->emulator, '/') && access(rq->emulator, X_OK) != 0) {
		snprintf(err, errlen, "--emulator: %s: %s", rq->emulator, strerror(errno));
		return -1;
	}
	return 0;
}

/* The user-mode runner, for want[]: its header, clock and ring-3 rows. */
static int run_user(const struct pc_runner_request *rq, const bool *want,
		    struct pc_runner_output *user, char *err, size_t errlen)
{
	/* Every run needs the add chain for its calibration: the runner
	 * measures it for the pairing anyway; ask for nothing more. */
	if (run_until_done(rq, rq->runner, rq->runner_output, true, want, user,
			   err, errlen) < 0)
		return -1;
	if (!user->format) {
		/* Only ring-0 rows selected: still the header and the clock. */
		bool none[PC_PROBE_COUNT] = { false };

		none[PC_PROBE_baseline] = true;
		if (run_until_done(rq, rq->runner, rq->runner_output, true, none, user,
				   err, errlen) < 0)
			return -1;
	}
	if (strcmp(user->mode, "user") != 0) {
		snprintf(err, errlen, "%s: the runner ran in '%s' mode, not user mode%s",
			 rq->runner_output ? rq->runner_output : rq->runner, user->mode,
			 rq->runner_output ? " (a system-mode output goes with "
			 "--system-runner-output)" : "");
		return -1;
	}
	return 0;
}

/* Why the system image cannot run the ring-0 rows here; false when it can. */
static bool system_unavailable(const struct pc_runner_request *rq, char *why, size_t len)
{
	if (rq->system_runner_output)
		return false;
	if (rq->runner_output)
		snprintf(why, len, "needs ring 0: a saved user-mode runner output does "
			 "not run it (a saved system-mode output goes with "
			 "--system-runner-output)");
	else if (!rq->emulator)
		snprintf(why, len, "needs ring 0: the system-mode runner image runs "
			 "only under the simulator (--emulator)");
	else if (!is_file(rq->system_runner))
		snprintf(why, len, "needs ring 0: no system-mode runner image at %s "
			 "(./bootstrap build --arch %s builds it, or give "
			 "--system-runner)",
			 rq->system_runner ? rq->system_runner : "(none)", rq->arch);
	else
		return false;
	return true;
}

/* The ring-0 rows without the system image: skipped with why, or
 * unsupported where the user-mode runner says so. */
static void skip_ring0_rows(struct pc_runner_output *system,
			    const struct pc_runner_output *user, const bool *want,
			    const char *why)
{
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++)
		if (want[id]) {
			struct pc_runner_probe *p = &system->probes[id];
			const struct pc_runner_probe *u = &user->probes[id];
			bool none = u->has_status && u->status == PC_STATUS_UNSUPPORTED;

			p->seen = p->has_status = true;
			p->status = none ? u->status : PC_STATUS_SKIPPED;
			copy_str(p->reason, sizeof(p->reason), none ? u->reason : why);
		}
}

/* The system-mode image, for the ring-0 rows in want[]; *ran: it ran. */
static int run_system(const struct pc_runner_request *rq, const bool *want,
		      const struct pc_runner_output *user, struct pc_runner_output *system,
		      bool *ran, char *err, size_t errlen)
{
	char why[256];

	*ran = false;
	if (system_unavailable(rq, why, sizeof(why))) {
		skip_ring0_rows(system, user, want, why);
		return 0;
	}
	if (run_until_done(rq, rq->system_runner, rq->system_runner_output, false, want,
			   system, err, errlen) < 0)
		return -1;
	*ran = true;
	if (strcmp(system->mode, "system") != 0) {
		snprintf(err, errlen, "%s did not run in system mode (it says "
			 "'%s'): is it the system-mode image?",
			 rq->system_runner_output ? rq->system_runner_output :
			 rq->system_runner, system->mode);
		return -1;
	}
	return 0;
}

/* The run's facts for its JSON: which runner, how, under what. */
static json_t *run_facts(const struct pc_runner_request *rq,
			 const struct pc_runner_output *user, bool sys_ran,
			 const char *simulator)
{
	json_t *x = json_pack("{s:s, s:s, s:b}", "runner",
			      rq->runner_output ? rq->runner_output : rq->runner,
			      "runner_mode", sys_ran ? "user+system" : "user",
			      "emulated", simulator != NULL);

	if (x && rq->emulator)
		json_object_set_new(x, "emulator", json_string(rq->emulator));
	if (x && !rq->emulator && simulator)
		json_object_set_new(x, "simulator_vendor", json_string(simulator));
	if (x && sys_ran)
		json_object_set_new(x, "system_runner",
				    json_string(rq->system_runner_output ?
						rq->system_runner_output :
						rq->system_runner));
	if (x && user->target_ticks)
		json_object_set_new(x, "runner_target_ticks",
				    json_integer((json_int_t)user->target_ticks));
	return x;
}

int pc_runner_measure(const struct pc_runner_request *rq, const bool *selected,
		      struct pc_cpu_info *ci, struct pc_clock *clk,
		      struct pc_profile *prof, json_t **run_extra,
		      char *err, size_t errlen)
{
	struct pc_runner_output user, system;
	bool want_user[PC_PROBE_COUNT], want_sys[PC_PROBE_COUNT], any_sys = false;
	bool sys_ran = false;
	const char *simulator;
	int id, rc = -1;
	double t0 = mono_s();

	memset(&user, 0, sizeof(user));
	memset(&system, 0, sizeof(system));
	*run_extra = NULL;
	if (check_request(rq, err, errlen) < 0)
		return -1;
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		/* The user-mode runner reports the ring-0 rows too: skipped
		 * (needs ring 0), or unsupported on its architecture. */
		want_user[id] = selected[id];
		want_sys[id] = selected[id] && pc_probe_rows[id].ring == 0;
		any_sys |= want_sys[id];
	}
	if (run_user(rq, want_user, &user, err, errlen) < 0)
		goto out;
	if (any_sys && run_system(rq, want_sys, &user, &system, &sys_ran, err, errlen) < 0)
		goto out;
	if (pc_runner_clock(&user, sys_ran ? &system : NULL, clk, err, errlen) < 0)
		goto out;
	simulator = simulated_by(rq, &user);
	pc_runner_cpu(&user, simulator, ci);
	if (pc_runner_profile(&user, &system, selected, clk, simulator != NULL,
			      rq->keep_samples, prof, err, errlen) < 0)
		goto out;
	prof->wall_s = mono_s() - t0;
	*run_extra = run_facts(rq, &user, sys_ran, simulator);
	rc = 0;
out:
	pc_runner_output_free(&user);
	pc_runner_output_free(&system);
	return rc;
}
