/* SPDX-License-Identifier: MIT */
/*
 * ring0.c - ring-0 rows: which way in, the validation gate, and the body
 * that runs a probe's loops there for the engine.
 *
 * The way in is ring0_way.h's: on x86-64 (ring0_cmd.c) the KVM micro-guest
 * or the kernel module, each executing one command at a time; nothing
 * here knows the architecture. A ring-0 row is sized, warmed up, sampled
 * in rounds and calibrated by the engine exactly like a ring-3 row, only
 * its timed loops (and the add chain that calibrates them) run in ring 0.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ring0.h"
#include "ring0_way.h"
#include "core/cpu.h"
#include "core/util.h"
#include "results/results.h"

/* Test only: accept emulated ring 0, so that the path of rows that pass the
 * gate runs end to end in an emulator (primcost-run(1), TEST-ONLY). */
#define TEST_ACCEPT_EMULATED "PRIMCOST_TEST_ACCEPT_EMULATED_RING0"

/* In the order of enum pc_ring0_mode. */
static const char *const mode_names[] = { "auto", "kvm", "kmod", "none" };

int pc_ring0_mode_parse(const char *s, enum pc_ring0_mode *m)
{
	int i = pc_word_index(s, mode_names, 4);

	if (i < 0)
		return -1;
	*m = (enum pc_ring0_mode)i;
	return 0;
}

const char *pc_ring0_mode_name(enum pc_ring0_mode m)
{
	return (unsigned)m < 4 ? mode_names[m] : "?";
}

/* snprintf whose truncation is intended (reasons are one bounded line). */
static void setf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void setf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ---- which hypervisor serves /dev/kvm ------------------------------------------ */

const char *pc_ring0_hypervisor(char *detail, size_t len)
{
	static const struct { const char *module, *kind; } vendors[] = {
		{ "kvm_pvm", "pvm" },
		{ "kvm_intel", "kvm-intel" },
		{ "kvm_amd", "kvm-amd" },
	};
	const char *kind = NULL, *module = NULL, *access_text;
	char path[64];
	size_t i;
	bool dev = access("/dev/kvm", F_OK) == 0;

	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]) && !kind; i++) {
		snprintf(path, sizeof(path), "/sys/module/%s", vendors[i].module);
		if (access(path, F_OK) == 0) {
			kind = vendors[i].kind;
			module = vendors[i].module;
		}
	}
	if (!kind)
		kind = dev ? "kvm" : "none";
	if (!dev)
		access_text = "no /dev/kvm";
	else if (access("/dev/kvm", R_OK | W_OK) == 0)
		access_text = "/dev/kvm readable and writable";
	else
		access_text = "/dev/kvm not accessible (root or its group, usually kvm)";
	if (detail)
		setf(detail, len, "%s%s%s%s%s", module ? "module " : "",
		     module ? module : "", module && strcmp(module, "kvm_pvm") == 0 ?
		     ", a software hypervisor" : "", module ? "; " : "", access_text);
	return kind;
}

/* Whether the kernel's CPU flags say it runs under a hypervisor. */
static bool in_virtual_machine(const char *root)
{
	char path[256], line[4096];
	FILE *f;
	bool vm = false;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	if (!(f = fopen(path, "r")))
		return false;
	while (!vm && fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor"))
			vm = true;
	fclose(f);
	return vm;
}

static bool module_loaded(const char *root, const char *module)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/module/%s", root, module);
	return access(path, F_OK) == 0;
}

void pc_ring0_no_kvm_reason(const char *root, char *why, size_t len)
{
	static const char *const vendors[] = { "kvm_intel", "kvm_amd" };
	size_t i;

	if (module_loaded(root, "kvm_pvm")) {
		setf(why, len, "the kvm_pvm module (a software hypervisor) is present "
		     "but there is no /dev/kvm");
		return;
	}
	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (module_loaded(root, vendors[i])) {
			setf(why, len, "the %s module is present but there is no "
			     "/dev/kvm", vendors[i]);
			return;
		}
	if (module_loaded(root, "kvm"))
		setf(why, len, "no /dev/kvm: the kvm module has no vendor module "
		     "(kvm_intel, kvm_amd or kvm_pvm) under it");
	else if (in_virtual_machine(root))
		setf(why, len, "no /dev/kvm: no KVM module, in a virtual machine "
		     "(nested virtualization off, or a software hypervisor not loaded)");
	else
		setf(why, len, "no /dev/kvm: no KVM module loaded");
}

/* ---- the validation gate ---------------------------------------------------------- */

static const char *figure(char *buf, size_t len, double x)
{
	snprintf(buf, len, fabs(x) >= 100 ? "%.0f" : "%.2f", x);
	return buf;
}

bool pc_ring0_gate(const struct pc_ring0_evidence *e, const char *hypervisor,
		   char *why, size_t len)
{
	char a[32], c[32], h[32], under[48] = "";
	double add, cmpxchg, host_cmpxchg;
	bool add_ok, cmpxchg_ok;

	if (hypervisor && *hypervisor)
		snprintf(under, sizeof(under), " (%s)", hypervisor);
	if (!(e->host_add_ticks > 0) || !(e->ring0_add_ticks > 0) ||
	    !(e->host_cmpxchg_ticks > 0) || !(e->ring0_cmpxchg_ticks > 0) ||
	    !isfinite(e->host_add_ticks + e->ring0_add_ticks +
		      e->host_cmpxchg_ticks + e->ring0_cmpxchg_ticks)) {
		setf(why, len, "ring 0 cannot be validated%s: the add chain or cmpxchg "
		     "did not give a positive time", under);
		return false;
	}
	/* Cycles as the host's calibration counts them (its add is 1 cycle). */
	add = e->ring0_add_ticks / e->host_add_ticks;
	cmpxchg = e->ring0_cmpxchg_ticks / e->host_add_ticks;
	host_cmpxchg = e->host_cmpxchg_ticks / e->host_add_ticks;
	add_ok = fabs(add - 1.0) <= PC_RING0_GATE_ADD_TOLERANCE;
	cmpxchg_ok = fabs(e->ring0_cmpxchg_ticks / e->host_cmpxchg_ticks - 1.0) <=
		     PC_RING0_GATE_CMPXCHG_TOLERANCE;
	figure(a, sizeof(a), add);
	figure(c, sizeof(c), cmpxchg);
	figure(h, sizeof(h), host_cmpxchg);
	if (add_ok && cmpxchg_ok) {
		setf(why, len, "ring 0 validated%s: the ring-0 add chain reads %s "
		     "cycles per add (host: 1.00), ring-0 cmpxchg %s cycles (host "
		     "ring 3: %s)", under, a, c, h);
		return true;
	}
	setf(why, len, "%s%s: the ring-0 add chain reads %s cycles per add (host: "
	     "1.00), ring-0 cmpxchg %s cycles (host ring 3: %s)",
	     add >= PC_RING0_EMULATED_CYCLES ? "ring 0 is emulated" :
	     "ring-0 timing disagrees with the host", under, a, c, h);
	return false;
}

/* ---- the ring-0 object ---------------------------------------------------------------- */

struct pc_ring0 {
	enum pc_ring0_mode mode;
	struct pc_ring0_way *be;	/* the way in (ring0_way.h), or NULL */
	char why_none[384];
	char hypervisor[32];
	char hypervisor_detail[160];
	int last_vector;
	bool cannot;		/* the last self-check's failure was the machine's */
	/* the gate, measured once */
	bool gated, measured, trusted;
	bool test_accepted;	/* trusted only by TEST_ACCEPT_EMULATED */
	struct pc_ring0_evidence ev;
	char gate_reason[320];
	/* first failure of each entry's timed loops in this run, and whether
	 * it was the machine's */
	char run_error[PC_RING0_ENTRIES][200];
	bool run_cannot[PC_RING0_ENTRIES];
	struct pc_ring0_target target;	/* what measure.c calls (pc_ring0_target) */
};

const char *pc_ring0_backend_name(const struct pc_ring0 *r)
{
	return r && r->be ? pc_ring0_way_name(r->be) : NULL;
}

/* The backend's name for messages: never NULL. */
static const char *be_name(const struct pc_ring0 *r)
{
	const char *n = pc_ring0_backend_name(r);

	return n ? n : "none";
}

const char *pc_ring0_why_none(const struct pc_ring0 *r)
{
	return r ? r->why_none : "no ring-0 backend";
}

int pc_ring0_last_vector(const struct pc_ring0 *r)
{
	return r ? r->last_vector : -1;
}

bool pc_ring0_machine_cannot(const struct pc_ring0 *r)
{
	return r && r->cannot;
}

bool pc_ring0_trusted(const struct pc_ring0 *r)
{
	return r && r->trusted;
}

const char *pc_ring0_gate_reason(const struct pc_ring0 *r)
{
	return r ? r->gate_reason : "";
}

const struct pc_ring0_evidence *pc_ring0_evidence(const struct pc_ring0 *r)
{
	return r && r->measured ? &r->ev : NULL;
}

struct pc_ring0 *pc_ring0_open(const struct pc_ring0_options *o)
{
	struct pc_ring0 *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->mode = o->mode;
	r->last_vector = -1;
	snprintf(r->hypervisor, sizeof(r->hypervisor), "%s",
		 pc_ring0_hypervisor(r->hypervisor_detail, sizeof(r->hypervisor_detail)));
	if (o->mode == PC_RING0_NONE) {
		snprintf(r->why_none, sizeof(r->why_none), "not attempted (--ring0 none)");
		return r;
	}
	r->be = pc_ring0_way_open(o, r->why_none, sizeof(r->why_none));
	return r;
}

void pc_ring0_close(struct pc_ring0 *r)
{
	if (!r)
		return;
	pc_ring0_way_close(r->be);
	free(r);
}

/* Keeps a trap's vector for pc_ring0_last_vector(). */
static void note_vector(struct pc_ring0 *r, int vector)
{
	if (vector >= 0)
		r->last_vector = vector;
}

const char *pc_ring0_selfcheck(struct pc_ring0 *r, int id, char *buf, size_t len)
{
	enum pc_ring0_outcome o;
	int vector;

	if (r)
		r->cannot = false;
	if (id < 0 || id >= PC_RING0_ENTRIES) {
		setf(buf, len, "no entry %d in ring 0", id);
		return buf;
	}
	if (!r || !r->be) {
		if (r)
			r->cannot = true;
		setf(buf, len, "%s", pc_ring0_why_none(r));
		return buf;
	}
	o = pc_ring0_way_selfcheck(r->be, id, buf, len, &vector);
	note_vector(r, vector);
	r->cannot = o == PC_RING0_MACHINE_CANNOT;
	return o == PC_RING0_RAN ? NULL : buf;
}

/* Keeps the first failure of entry id's loops (and whose it was). */
static void run_failed(struct pc_ring0 *r, int id, enum pc_ring0_outcome o, int vector)
{
	note_vector(r, vector);
	r->run_cannot[id] = o == PC_RING0_MACHINE_CANNOT;
	if (!r->run_error[id][0])
		setf(r->run_error[id], sizeof(r->run_error[id]), "failed");
}

void pc_ring0_init_state(struct pc_ring0 *r, int id, struct pc_probe_state *st)
{
	enum pc_ring0_outcome o;
	int vector;

	if (!r || id < 0 || id >= PC_RING0_ENTRIES || r->run_error[id][0])
		return;
	o = pc_ring0_way_init(r->be, id, st, r->run_error[id], sizeof(r->run_error[id]),
			      &vector);
	if (o != PC_RING0_RAN)
		run_failed(r, id, o, vector);
}

uint64_t pc_ring0_run(struct pc_ring0 *r, int id, struct pc_probe_state *st,
		      uint64_t iters, int hi)
{
	enum pc_ring0_outcome o;
	uint64_t ticks = 0;
	int vector;

	if (!r || id < 0 || id >= PC_RING0_ENTRIES || r->run_error[id][0])
		return 0;
	o = pc_ring0_way_run(r->be, id, st, iters, hi, &ticks, r->run_error[id],
			     sizeof(r->run_error[id]), &vector);
	if (o != PC_RING0_RAN) {
		run_failed(r, id, o, vector);
		return 0;
	}
	return ticks;
}

static void body_init(void *ctx, int probe, struct pc_probe_state *st)
{
	pc_ring0_init_state(ctx, probe, st);
}

static uint64_t body_run(void *ctx, int probe, struct pc_probe_state *st,
			 uint64_t iters, int hi)
{
	return pc_ring0_run(ctx, probe, st, iters, hi);
}

static const struct pc_executor ring0_exec = { body_init, body_run };

struct pc_body pc_ring0_body(struct pc_ring0 *r)
{
	struct pc_body b = { &ring0_exec, r };

	return b;
}

/*
 * The gate's four figures, sampled in turn (host add chain, host cmpxchg,
 * ring-0 add chain, ring-0 cmpxchg, again and again) so that a change of
 * the core clock or a noisy neighbour touches all four alike; each figure
 * is the median of its samples. Each series is sized and warmed up by the
 * engine like any probe's.
 */
static int measure_gate(struct pc_ring0 *r, const struct pc_clock *clk, double sample_s)
{
	static const int ids[4] = { PC_RING0_GATE_ADD, PC_RING0_GATE_CMPXCHG,
				    PC_RING0_GATE_ADD, PC_RING0_GATE_CMPXCHG };
	double *x[4] = { &r->ev.host_add_ticks, &r->ev.host_cmpxchg_ticks,
			 &r->ev.ring0_add_ticks, &r->ev.ring0_cmpxchg_ticks };
	uint64_t target = (uint64_t)pc_sample_ticks(clk, sample_s);
	struct pc_host_loop hl[4];
	struct pc_loop l[4];
	double *v = calloc(4 * PC_RING0_GATE_SAMPLES, sizeof(*v));
	int k, i, rc = v ? 0 : -1;

	for (k = 0; rc == 0 && k < 4; k++) {
		const struct pc_arch_probe *p = pc_probe_impl((enum pc_probe_id)ids[k]);

		if (!p) {
			rc = -1;
			break;
		}
		pc_host_loop_bind(&l[k], &hl[k], ids[k],
				  k < 2 ? pc_body_direct(p) : pc_ring0_body(r), clk, false);
		pc_loop_init(&l[k]);
		if (!(l[k].iters = pc_loop_size(&l[k], target)))
			rc = -1;
		else
			pc_loop_warm_up(&l[k]);
	}
	for (i = 0; rc == 0 && i < PC_RING0_GATE_SAMPLES; i++)
		for (k = 0; k < 4; k++) {
			struct pc_pair pr;

			pc_loop_pair(&l[k], l[k].iters, &pr);
			v[k * PC_RING0_GATE_SAMPLES + i] = ((double)pr.hi - (double)pr.lo) /
						  (double)(l[k].iters * PC_UNROLL_DIFF);
		}
	for (k = 0; rc == 0 && k < 4; k++) {
		*x[k] = pc_median(v + k * PC_RING0_GATE_SAMPLES, PC_RING0_GATE_SAMPLES);
		if (!(*x[k] > 0))
			rc = -1;
	}
	free(v);
	return rc;
}

/*
 * Under an emulator (QEMU's TCG, named by its CPUID signature) ring 0 and
 * ring 3 are translated alike and the gate may well pass: its figures are
 * the translator's all the same, so ring 0 is refused. The test-only switch
 * accepts emulated ring 0 (by signature, or an add chain the gate reads as
 * emulated), and the verdict and every row's reason say so.
 */
static void emulated_verdict(struct pc_ring0 *r)
{
	const char *em = pc_hypervisor_emulator(), *sw = getenv(TEST_ACCEPT_EMULATED);
	char gate[sizeof(r->gate_reason)], tag[16] = "";
	bool slow = r->ev.ring0_add_ticks >= PC_RING0_EMULATED_CYCLES * r->ev.host_add_ticks;

	if (!em && !slow)
		return;
	if (em)
		snprintf(tag, sizeof(tag), " (%s)", em);
	snprintf(gate, sizeof(gate), "%s", r->gate_reason);
	if (sw && strcmp(sw, "1") == 0) {
		r->trusted = r->test_accepted = true;
		setf(r->gate_reason, sizeof(r->gate_reason), "ring 0 is emulated%s "
		     "and accepted for testing only (%s=1), figures unreliable; the "
		     "gate: %s", tag, TEST_ACCEPT_EMULATED, gate);
	} else if (em) {
		r->trusted = false;
		setf(r->gate_reason, sizeof(r->gate_reason), "ring 0 is emulated%s, "
		     "whatever the gate measures: %s", tag, gate);
	}
}

int pc_ring0_validate(struct pc_ring0 *r, const struct pc_clock *clk, double sample_s)
{
	static const int gate_probes[] = { PC_RING0_GATE_ADD, PC_RING0_GATE_CMPXCHG };
	const char *hv;
	char buf[256];
	size_t i;

	if (!r)
		return -1;
	if (r->gated)
		return r->measured ? 0 : -1;
	r->gated = true;
	if (!r->be) {
		setf(r->gate_reason, sizeof(r->gate_reason), "%s", r->why_none);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		if (pc_ring0_selfcheck(r, gate_probes[i], buf, sizeof(buf))) {
			setf(r->gate_reason, sizeof(r->gate_reason), "ring 0 cannot be "
			     "validated: %s: %s", pc_probe_rows[gate_probes[i]].name, buf);
			return -1;
		}
	}
	if (measure_gate(r, clk, sample_s) < 0) {
		for (i = 0; i < 2; i++) {
			if (r->run_error[gate_probes[i]][0]) {
				setf(r->gate_reason, sizeof(r->gate_reason), "ring 0 "
				     "cannot be validated: %s: %s",
				     pc_probe_rows[gate_probes[i]].name,
				     r->run_error[gate_probes[i]]);
				return -1;
			}
		}
		setf(r->gate_reason, sizeof(r->gate_reason), "ring 0 cannot be "
		     "validated: the gate's measurements failed");
		return -1;
	}
	r->measured = true;
	/* Through KVM the hypervisor decides how guest ring 0 runs: name it. */
	hv = strcmp(be_name(r), "kvm") == 0 ? r->hypervisor : NULL;
	r->trusted = pc_ring0_gate(&r->ev, hv, r->gate_reason, sizeof(r->gate_reason));
	emulated_verdict(r);
	return 0;
}

/* ---- hooks for measure.c ------------------------------------------------------------ */

bool pc_ring0_admit(struct pc_ring0 *r, struct pc_probe_result *res,
		    const struct pc_clock *clk, double sample_s)
{
	char buf[256];

	if (r->mode == PC_RING0_NONE) {
		res->status = PC_STATUS_SKIPPED;
		setf(res->reason, sizeof(res->reason), "needs ring 0 (this instruction "
		     "faults in user mode); not attempted (--ring0 none)");
		return false;
	}
	if (!r->be) {
		res->status = PC_STATUS_UNSUPPORTED;
		setf(res->reason, sizeof(res->reason), "needs ring 0, and no way in "
		     "works here: %s", r->why_none);
		return false;
	}
	if (pc_ring0_selfcheck(r, (int)res->id, buf, sizeof(buf))) {
		/* the machine's: a row it cannot run, not a failed one */
		res->status = r->cannot ? PC_STATUS_UNSUPPORTED : PC_STATUS_FAILED;
		setf(res->reason, sizeof(res->reason), "%s: %s",
		     be_name(r), buf);
		return false;
	}
	pc_ring0_validate(r, clk, sample_s);
	if (!r->trusted) {
		res->status = PC_STATUS_UNSUPPORTED;
		setf(res->reason, sizeof(res->reason), "%s; self-check passed in ring "
		     "0 (%s)", r->gate_reason, be_name(r));
		return false;
	}
	return true;
}

void pc_ring0_finish(struct pc_ring0 *r, struct pc_probe_result *res)
{
	const char *e = NULL;
	bool cannot = false;

	if (!r || (int)res->id >= PC_RING0_ENTRIES)
		return;
	if (r->run_error[res->id][0]) {
		e = r->run_error[res->id];
		cannot = r->run_cannot[res->id];
	} else if (r->run_error[PC_RING0_GATE_ADD][0]) {
		e = r->run_error[PC_RING0_GATE_ADD];
		cannot = r->run_cannot[PC_RING0_GATE_ADD];
	}
	if (!e && r->test_accepted && res->status == PC_STATUS_OK)
		setf(res->reason, sizeof(res->reason), "%s", r->gate_reason);
	if (!e)
		return;
	res->status = cannot ? PC_STATUS_UNSUPPORTED : PC_STATUS_FAILED;
	setf(res->reason, sizeof(res->reason), "in ring 0 (%s): %s",
	     be_name(r), e);
}

static bool exec_admit(void *ctx, struct pc_probe_result *res,
		       const struct pc_clock *clk, double sample_s)
{
	return pc_ring0_admit(ctx, res, clk, sample_s);
}

static struct pc_body exec_body(void *ctx)
{
	return pc_ring0_body(ctx);
}

static void exec_finish(void *ctx, struct pc_probe_result *res)
{
	pc_ring0_finish(ctx, res);
}

const struct pc_ring0_target *pc_ring0_target(struct pc_ring0 *r)
{
	r->target = (struct pc_ring0_target){ r, exec_admit, exec_body, exec_finish };
	return &r->target;
}

/* ---- JSON ---------------------------------------------------------------------------- */

/* 7 significant digits, like the rest of the result file. */
static json_t *real7(double x)
{
	return json_real(pc_round7(x));
}

json_t *pc_ring0_json(const struct pc_ring0 *r)
{
	json_t *o;

	if (!r)
		return NULL;
	o = json_pack("{s:s, s:s, s:s}", "mode", pc_ring0_mode_name(r->mode),
		      "hypervisor", r->hypervisor, "hypervisor_detail",
		      r->hypervisor_detail);
	if (!o)
		return NULL;
	json_object_set_new(o, "backend", r->be ? json_string(pc_ring0_backend_name(r)) :
			    json_null());
	if (!r->be)
		json_object_set_new(o, "why_unavailable", json_string(r->why_none));
	if (r->gated) {
		json_object_set_new(o, "trusted", json_boolean(r->trusted));
		json_object_set_new(o, "verdict", json_string(r->gate_reason));
		if (r->test_accepted)
			json_object_set_new(o, "test_accept_emulated", json_true());
	}
	if (r->measured) {
		const struct pc_ring0_evidence *e = &r->ev;

		json_object_set_new(o, "evidence", json_pack(
			"{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"host_add_chain_ticks", real7(e->host_add_ticks),
			"ring0_add_chain_ticks", real7(e->ring0_add_ticks),
			"host_cmpxchg_ticks", real7(e->host_cmpxchg_ticks),
			"ring0_cmpxchg_ticks", real7(e->ring0_cmpxchg_ticks),
			"ring0_add_chain_cycles", real7(e->ring0_add_ticks / e->host_add_ticks),
			"host_cmpxchg_cycles", real7(e->host_cmpxchg_ticks / e->host_add_ticks),
			"ring0_cmpxchg_cycles",
			real7(e->ring0_cmpxchg_ticks / e->host_add_ticks)));
	}
	return o;
}
