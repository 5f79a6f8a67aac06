/* SPDX-License-Identifier: MIT */
/*
 * events.c - counting events around every sample (see events.h).
 *
 * Models: llvm-exegesis's PerfHelper (libpfm4 encodes, perf_event_open
 * counts in a group, a multiplexed count is refused) and perf stat's
 * explanations of why an event cannot be counted.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "events.h"	/* <linux/perf_event.h> before libpfm4's copy */

#include <perfmon/pfmlib_perf_event.h>

#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

/* The counters that tell a disturbed sample. */
static const char *const disturbance_events[] = {
	"perf::context-switches", "perf::cpu-migrations",
};

static int pfm_ready(char *err, size_t errlen)
{
	int ret = pfm_initialize();

	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm4 failed to initialise: %s", pfm_strerror(ret));
		return -1;
	}
	return 0;
}

static bool attr_is_hardware(const struct perf_event_attr *a)
{
	return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT &&
	       a->type != PERF_TYPE_BREAKPOINT;
}

/* libpfm4's encoding of name at privilege levels plm; *idx its event. */
static int encode(const char *name, int plm, struct pc_event *ev, int *idx)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int ret;

	memset(&ev->attr, 0, sizeof(ev->attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS)
		return ret;
	snprintf(ev->encoding, sizeof(ev->encoding), "%s", fstr ? fstr : name);
	free(fstr);
	ev->attr.size = sizeof(ev->attr);
	ev->open_flags = arg.flags;
	ev->hardware = attr_is_hardware(&ev->attr);
	if (idx)
		*idx = arg.idx;
	return PFM_SUCCESS;
}

static bool uncore(int idx, char *pmu, size_t len)
{
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS)
		return false;
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS)
		return false;
	snprintf(pmu, len, "%s", pi.name);
	return pi.type == PFM_PMU_TYPE_UNCORE;
}

void pc_events_init(struct pc_events *e)
{
	unsigned i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < PC_GROUP_MAX; i++)
		e->ev[i].fd = -1;
	e->leader = -1;
	e->cs = e->mig = -1;
}

int pc_events_parse(const char *list, struct pc_events *e, char *err, size_t errlen)
{
	char *copy, *p, *tok;
	int rc = 0;

	pc_events_init(e);
	if (!list || !*list) {
		snprintf(err, errlen, "--events: empty event list");
		return -1;
	}
	if (pfm_ready(err, errlen) < 0)
		return -1;
	copy = strdup(list);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* strsep, not strtok: "a,,b" has an empty name and is refused */
	for (p = copy; rc == 0 && (tok = strsep(&p, ",")) != NULL;) {
		struct pc_event *ev = &e->ev[e->n];
		char pmu[64];
		unsigned i;
		int ret, idx = -1;

		if (!*tok) {
			snprintf(err, errlen, "--events: empty event name in '%s'", list);
			rc = -1;
			break;
		}
		if (strlen(tok) >= sizeof(ev->name)) {
			snprintf(err, errlen, "--events: event name too long: '%.40s...'", tok);
			rc = -1;
			break;
		}
		for (i = 0; i < e->n; i++) {
			if (strcmp(e->ev[i].name, tok) == 0) {
				snprintf(err, errlen, "--events: '%s' named twice", tok);
				rc = -1;
			}
		}
		if (rc)
			break;
		if (e->n == PC_EVENTS_MAX) {
			snprintf(err, errlen, "--events: more than %d events",
				 PC_EVENTS_MAX);
			rc = -1;
			break;
		}
		ret = encode(tok, PFM_PLM0 | PFM_PLM3, ev, &idx);
		if (ret != PFM_SUCCESS) {
			snprintf(err, errlen, "--events: '%s': libpfm4: %s%s", tok,
				 pfm_strerror(ret), ret == PFM_ERR_NOTFOUND ?
				 " (see primcost list --events)" : "");
			rc = -1;
			break;
		}
		if (uncore(idx, pmu, sizeof(pmu))) {
			snprintf(err, errlen, "--events: '%s' is an event of the uncore "
				 "PMU %s, which counts for a whole socket, not for "
				 "this thread", tok, pmu);
			rc = -1;
			break;
		}
		snprintf(ev->name, sizeof(ev->name), "%s", tok);
		e->n++;
	}
	free(copy);
	e->nall = e->n;
	return rc;
}

/* ---- explaining ---------------------------------------------------------- */

static int read_int_file(const char *path, int dflt)
{
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static bool cpuinfo_has_hypervisor_flag(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0)
			found = strstr(line, " hypervisor") != NULL;
	fclose(f);
	return found;
}

void pc_perf_context(struct pc_perf_context *c)
{
	c->paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid", INT_MIN);
	c->root = geteuid() == 0;
	c->virtual_machine = cpuinfo_has_hypervisor_flag() ||
			     access("/sys/hypervisor/type", F_OK) == 0;
}

void pc_perf_explain(const struct pc_perf_context *c, int err, bool hardware,
		     bool kernel, char *buf, size_t len)
{
	const char *what = strerror(err);

	switch (err) {
	case EACCES:
	case EPERM:
		if (c->root)
			snprintf(buf, len, "perf_event_open: %s, even as root (a "
				 "container's seccomp policy or kernel lockdown?)", what);
		else if (c->paranoid != INT_MIN)
			snprintf(buf, len, "perf_event_open: %s: perf_event_paranoid "
				 "is %d (as root: sysctl kernel.perf_event_paranoid=%d, "
				 "or give primcost CAP_PERFMON)", what, c->paranoid,
				 kernel ? 1 : 2);
		else
			snprintf(buf, len, "perf_event_open: %s (not permitted "
				 "for this user: run as root or with CAP_PERFMON)", what);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (hardware && c->virtual_machine)
			snprintf(buf, len, "no hardware PMU: this virtual machine has "
				 "none (perf_event_open: %s); give it a virtual PMU "
				 "(QEMU/KVM: -cpu host,pmu=on; libvirt: <pmu state='on'/>) "
				 "or measure on bare metal", what);
		else if (hardware)
			snprintf(buf, len, "no hardware PMU: the kernel drives none on "
				 "this CPU, or not this event (perf_event_open: %s; see "
				 "dmesg | grep -i 'performance events')", what);
		else
			snprintf(buf, len, "this kernel does not offer the event "
				 "(perf_event_open: %s)", what);
		break;
	case EBUSY:
		snprintf(buf, len, "the counters are taken (perf_event_open: %s): "
			 "another profiler, or the NMI watchdog (sysctl "
			 "kernel.nmi_watchdog=0)", what);
		break;
	case EINVAL:
		snprintf(buf, len, "the kernel refuses this encoding%s "
			 "(perf_event_open: %s)", hardware ? ", or cannot count it "
			 "in one group with the events before it (too few counters)" :
			 "", what);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len, "perf_event_open: %s (raise ulimit -n)", what);
		break;
	default:
		snprintf(buf, len, "perf_event_open: %s", what);
		break;
	}
}

static int perf_open(struct perf_event_attr *attr, int group, int flags)
{
	return (int)syscall(SYS_perf_event_open, attr, 0, -1, group,
			    (unsigned long)flags | PERF_FLAG_FD_CLOEXEC);
}

bool pc_hardware_events_available(char *why, size_t len)
{
	struct pc_perf_context ctx;
	struct pc_event ev;
	char err[256];
	int fd, e;

	memset(&ev, 0, sizeof(ev));
	if (pfm_ready(err, sizeof(err)) < 0) {
		snprintf(why, len, "%s", err);
		return false;
	}
	if (encode("instructions", PFM_PLM3, &ev, NULL) != PFM_SUCCESS) {
		snprintf(why, len, "libpfm4 knows no 'instructions' event here");
		return false;
	}
	fd = perf_open(&ev.attr, -1, ev.open_flags);
	if (fd >= 0) {
		close(fd);
		why[0] = 0;
		return true;
	}
	e = errno;
	pc_perf_context(&ctx);
	pc_perf_explain(&ctx, e, true, false, why, len);
	return false;
}

/* ---- opening ------------------------------------------------------------- */

static void open_one(struct pc_events *e, unsigned i, bool allow_user_only,
		     const struct pc_perf_context *ctx)
{
	struct pc_event *ev = &e->ev[i];
	int fd, err;

	ev->attr.read_format = READ_FORMAT;
	ev->attr.disabled = 0;
	ev->attr.inherit = 0;
	fd = perf_open(&ev->attr, e->leader, ev->open_flags);
	err = errno;
	if (fd < 0 && (err == EACCES || err == EPERM) && allow_user_only &&
	    !ev->attr.exclude_kernel) {
		/* Kernel-mode counting refused: user mode is still worth having. */
		ev->attr.exclude_kernel = 1;
		ev->attr.exclude_hv = 1;
		fd = perf_open(&ev->attr, e->leader, ev->open_flags);
		err = errno;
		if (fd >= 0) {
			ev->user_only = true;
			snprintf(ev->reason, sizeof(ev->reason), "user mode only: "
				 "kernel-mode counting is not permitted "
				 "(perf_event_paranoid %d)", ctx->paranoid);
		}
	}
	if (fd < 0) {
		pc_perf_explain(ctx, err, ev->hardware, !ev->attr.exclude_kernel,
				ev->reason, sizeof(ev->reason));
		return;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->id) != 0) {
		snprintf(ev->reason, sizeof(ev->reason), "PERF_EVENT_IOC_ID: %s",
			 strerror(errno));
		close(fd);
		return;
	}
	ev->fd = fd;
	ev->counted = true;
	if (e->leader < 0)
		e->leader = fd;
	e->nopen++;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int pc_events_open(struct pc_events *e, bool reject, char *err, size_t errlen)
{
	struct pc_perf_context ctx;
	unsigned i, k;
	int pass;

	pc_perf_context(&ctx);
	e->nall = e->n;
	e->reject = false;
	e->cs = e->mig = -1;
	e->reject_reason[0] = 0;
	if (reject) {
		for (k = 0; k < 2; k++) {
			struct pc_event *ev = &e->ev[e->nall];

			memset(ev, 0, sizeof(*ev));
			ev->fd = -1;
			snprintf(ev->name, sizeof(ev->name), "%s", disturbance_events[k]);
			if (pfm_ready(err, errlen) < 0 ||
			    encode(ev->name, PFM_PLM0 | PFM_PLM3, ev, NULL) != PFM_SUCCESS) {
				snprintf(e->reject_reason, sizeof(e->reject_reason),
					 "libpfm4 cannot encode %s", ev->name);
				break;
			}
			*(k ? &e->mig : &e->cs) = (int)e->nall++;
		}
	} else {
		snprintf(e->reject_reason, sizeof(e->reject_reason),
			 "not asked for (--keep-disturbed)");
	}

	/* Hardware events first: a hardware leader takes software members. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < e->n; i++)
			if (e->ev[i].hardware == (pass == 0))
				open_one(e, i, true, &ctx);
	/* The disturbance counters must see the kernel: that is where a
	 * context switch happens. */
	for (i = e->n; i < e->nall; i++)
		open_one(e, i, false, &ctx);
	if (e->cs >= 0 && e->mig >= 0 && e->ev[e->cs].counted && e->ev[e->mig].counted)
		e->reject = true;
	else if (reject && !e->reject_reason[0])
		snprintf(e->reject_reason, sizeof(e->reject_reason), "%s: %s",
			 e->ev[e->cs >= 0 && !e->ev[e->cs].counted ? e->cs : e->mig].name,
			 e->ev[e->cs >= 0 && !e->ev[e->cs].counted ? e->cs : e->mig].reason);

	/* Can the group that opened be counted all at once? */
	if (e->leader >= 0) {
		struct pc_group_reading r0, r1;
		double share = 0;
		int t;

		for (t = 0; t < 3; t++) {
			double t0 = now_s();

			pc_events_read(e, &r0);
			while (now_s() - t0 < 200e-6)
				;
			pc_events_read(e, &r1);
			if (!r0.ok || !r1.ok) {
				snprintf(err, errlen, "cannot read the event group: %s",
					 strerror(errno));
				pc_events_close(e);
				return -1;
			}
			if (r1.enabled - r0.enabled == r1.running - r0.running)
				break;
			share = r1.enabled > r0.enabled ?
				(double)(r1.running - r0.running) /
				(double)(r1.enabled - r0.enabled) : 0;
		}
		if (t == 3) {
			snprintf(err, errlen, "--events: these %u events cannot be "
				 "counted at once here (the group was on the PMU %.0f %% "
				 "of the time): name fewer hardware events",
				 e->nopen, share * 100);
			pc_events_close(e);
			return -1;
		}
	}
	return 0;
}

void pc_events_close(struct pc_events *e)
{
	unsigned i;

	/* members first, the leader last */
	for (i = 0; i < e->nall; i++)
		if (e->ev[i].fd >= 0 && e->ev[i].fd != e->leader)
			close(e->ev[i].fd);
	if (e->leader >= 0)
		close(e->leader);
	for (i = 0; i < e->nall; i++) {
		e->ev[i].fd = -1;
		e->ev[i].counted = false;
	}
	e->leader = -1;
	e->nopen = 0;
	e->reject = false;
}

/* ---- reading and judging ------------------------------------------------- */

int pc_group_parse(const struct pc_events *e, const uint64_t *buf, size_t nbytes,
		   struct pc_group_reading *r)
{
	uint64_t nr;
	unsigned k, i;

	memset(r, 0, sizeof(*r));
	if (nbytes < 3 * sizeof(uint64_t))
		return -1;
	nr = buf[0];
	if (nr != e->nopen || nbytes != (3 + 2 * nr) * sizeof(uint64_t))
		return -1;
	r->enabled = buf[1];
	r->running = buf[2];
	for (k = 0; k < nr; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];

		for (i = 0; i < e->nall; i++)
			if (e->ev[i].counted && e->ev[i].id == id)
				break;
		if (i == e->nall)
			return -1;
		r->value[i] = value;
	}
	r->ok = true;
	return 0;
}

void pc_events_read(const struct pc_events *e, struct pc_group_reading *r)
{
	uint64_t buf[3 + 2 * PC_GROUP_MAX];
	ssize_t got = read(e->leader, buf, sizeof(buf));

	if (got <= 0 || pc_group_parse(e, buf, (size_t)got, r) < 0) {
		memset(r, 0, sizeof(*r));
		r->ok = false;
	}
}

void pc_events_loop(const struct pc_events *e, const struct pc_group_reading *r0,
		    const struct pc_group_reading *r1, struct pc_loop_counts *out)
{
	unsigned i;

	if (!r0->ok || !r1->ok ||
	    r1->enabled - r0->enabled != r1->running - r0->running)
		out->full = false;
	for (i = 0; i < e->nall; i++)
		out->value[i] = r1->value[i] - r0->value[i];
}

enum pc_sample_verdict pc_events_verdict(const struct pc_events *e,
				  const struct pc_loop_counts *loops, unsigned nloops)
{
	unsigned k;

	for (k = 0; k < nloops; k++)
		if (!loops[k].full)
			return PC_SAMPLE_MULTIPLEXED;
	if (e && e->reject)
		for (k = 0; k < nloops; k++)
			if (loops[k].value[e->cs] || loops[k].value[e->mig])
				return PC_SAMPLE_DISTURBED;
	return PC_SAMPLE_KEEP;
}

/* ---- listing ------------------------------------------------------------- */

static bool matches(const char *pattern, const char *full, const char *name)
{
	return !pattern || fnmatch(pattern, full, FNM_CASEFOLD) == 0 ||
	       fnmatch(pattern, name, FNM_CASEFOLD) == 0;
}

/* Would the kernel count it for this thread? */
static void try_event(struct pc_event_info *info, const struct pc_perf_context *ctx)
{
	struct pc_event ev;
	int ret, fd, e;

	memset(&ev, 0, sizeof(ev));
	ret = encode(info->name, PFM_PLM3, &ev, NULL);
	if (ret != PFM_SUCCESS) {
		snprintf(info->why, sizeof(info->why), "libpfm4: %s%s", pfm_strerror(ret),
			 ret == PFM_ERR_UMASK ? " (name one: primcost list --events "
			 "--verbose)" : "");
		return;
	}
	if (ev.attr.type < PERF_TYPE_MAX)
		info->hardware = ev.hardware;
	fd = perf_open(&ev.attr, -1, ev.open_flags);
	if (fd >= 0) {
		close(fd);
		info->counts = true;
		return;
	}
	e = errno;
	pc_perf_explain(ctx, e, ev.hardware, false, info->why, sizeof(info->why));
}

int pc_events_list(const char *pattern, void (*fn)(const struct pc_event_info *, void *),
		   void *ctx, char *err, size_t errlen)
{
	struct pc_perf_context pctx;
	int pmu, n = 0;

	if (pfm_ready(err, errlen) < 0)
		return -1;
	pc_perf_context(&pctx);
	pfm_for_all_pmus(pmu) {
		pfm_pmu_info_t pi;
		int idx;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(pmu, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		for (idx = pi.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			struct pc_event_info info;
			pfm_event_info_t ei;

			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS)
				continue;
			memset(&info, 0, sizeof(info));
			snprintf(info.name, sizeof(info.name), "%s::%s", pi.name, ei.name);
			if (!matches(pattern, info.name, ei.name))
				continue;
			info.pmu_desc = pi.desc;
			info.desc = ei.desc ? ei.desc : "";
			info.equiv = ei.equiv;
			info.idx = idx;
			info.nattrs = ei.nattrs;
			/* a core PMU's events are the hardware's; the generic
			 * perf PMU's depend on the encoding (try_event) */
			info.hardware = pi.type != PFM_PMU_TYPE_OS_GENERIC;
			if (pi.type == PFM_PMU_TYPE_UNCORE)
				snprintf(info.why, sizeof(info.why), "uncore: counts a "
					 "whole socket, not one thread");
			else
				try_event(&info, &pctx);
			fn(&info, ctx);
			n++;
		}
	}
	return n;
}

int pc_event_attr_get(int idx, int a, struct pc_event_attr *out)
{
	pfm_event_attr_info_t ai;

	memset(&ai, 0, sizeof(ai));
	ai.size = sizeof(ai);
	if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT, &ai) != PFM_SUCCESS)
		return -1;
	out->name = ai.name ? ai.name : "";
	out->desc = ai.desc ? ai.desc : "";
	out->umask = ai.type == PFM_ATTR_UMASK;
	out->dfl = ai.is_dfl;
	return 0;
}
