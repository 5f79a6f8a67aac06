/* SPDX-License-Identifier: MIT */
/*
 * ring0.h - running probes in ring 0, and deciding whether to believe it.
 *
 * cli, sti and a popf that changes IF fault in user mode. Two ways in run
 * the same freestanding probe code there: a KVM micro-guest (ring0_kvm.c,
 * needs /dev/kvm) and a kernel module (ring0_kmod.c, needs root and a
 * module built for the running kernel). Either hands back raw timer ticks;
 * measure.c turns them into statistics exactly as for ring 3.
 *
 * Before any ring-0 figure is published, the validation gate compares the
 * ring-0 add chain and cmpxchg with the host's: a hypervisor that emulates
 * guest ring 0 fails it, and the rows say so with the measured evidence.
 */
#ifndef PC_RING0_H
#define PC_RING0_H

#include <jansson.h>

#include "core/executor.h"
#include "core/clock.h"
#include "core/measure.h"

enum pc_ring0_mode {
	PC_RING0_AUTO,		/* a loaded module, else KVM, else load the module */
	PC_RING0_KVM,
	PC_RING0_KMOD,
	PC_RING0_NONE,		/* ring-0 rows are skipped */
};

int pc_ring0_mode_parse(const char *s, enum pc_ring0_mode *m);
const char *pc_ring0_mode_name(enum pc_ring0_mode m);

#define PC_RING0_TIMEOUT_DEFAULT_S 10.0

struct pc_ring0_options {
	enum pc_ring0_mode mode;
	double timeout_s;		/* time limit of one guest command */
	const char *module_path;	/* kernel module to load; NULL: default */
};

/*
 * Entries of the micro-guest that exist only for the test suite; they are
 * numbered after the probe rows and are not probes: no listing, no run.
 */
#define PC_RING0_TEST_UD2	(PC_PROBE_COUNT + 0)	/* executes ud2 */
#define PC_RING0_TEST_SPIN	(PC_PROBE_COUNT + 1)	/* cli; spins forever */
#define PC_RING0_ENTRIES	(PC_PROBE_COUNT + 2)

/* What the gate compares: median timer ticks per operation. */
struct pc_ring0_evidence {
	double host_add_ticks;		/* dependent add, host ring 3 */
	double ring0_add_ticks;		/* dependent add, ring 0 */
	double host_cmpxchg_ticks;	/* lock cmpxchg, host ring 3 */
	double ring0_cmpxchg_ticks;	/* lock cmpxchg, ring 0 */
};

/* The gate's tolerances are in engine/method.h (PC_RING0_GATE_*). */

/*
 * The validation gate, a pure function: true when ring-0 timings can be
 * published. Otherwise why says so with the figures, naming hypervisor
 * (may be NULL) as the likely cause.
 */
bool pc_ring0_gate(const struct pc_ring0_evidence *e, const char *hypervisor,
		   char *why, size_t len);

struct pc_ring0;

/*
 * Opens the way into ring 0 that o asks for. Always returns an object
 * (NULL only when out of memory): when no way is available its backend is
 * NULL and pc_ring0_why_none() says why.
 */
struct pc_ring0 *pc_ring0_open(const struct pc_ring0_options *o);
void pc_ring0_close(struct pc_ring0 *r);

const char *pc_ring0_backend_name(const struct pc_ring0 *r);	/* "kvm", "kmod" or NULL */
const char *pc_ring0_why_none(const struct pc_ring0 *r);
/* "kvm-intel", "kvm-amd", "pvm", "kvm" (another vendor module) or "none";
 * detail (may be NULL) gets the module and /dev/kvm access. */
const char *pc_ring0_hypervisor(char *detail, size_t len);
/* Why there is no /dev/kvm: a kvm_pvm (software hypervisor) or vendor
 * module present without the device, kvm without a vendor module, no
 * module in a virtual machine, or no module at all. root prefixes /sys and
 * /proc ("" on the running system; a directory in tests). */
void pc_ring0_no_kvm_reason(const char *root, char *why, size_t len);

/* The functional self-check of entry id (a row or a test entry) in ring 0.
 * NULL when it passed, else why in buf (a trap names its vector). */
const char *pc_ring0_selfcheck(struct pc_ring0 *r, int id, char *buf, size_t len);
/* Whether the last self-check failed because of this machine, not the
 * row: the CPU lacks the instruction, the hypervisor cannot run it in
 * guest ring 0 (KVM's internal error), the way in does not work. Such a
 * row is unsupported here, not failed, and a test takes it as a skip. */
bool pc_ring0_machine_cannot(const struct pc_ring0 *r);
/* The exception vector of the last trap in ring 0, or -1. */
int pc_ring0_last_vector(const struct pc_ring0 *r);

/* Measures the gate's evidence once (sample_s: target loop length) and
 * applies the gate. 0 when it could be measured (trusted or not). */
int pc_ring0_validate(struct pc_ring0 *r, const struct pc_clock *clk, double sample_s);
bool pc_ring0_trusted(const struct pc_ring0 *r);
const char *pc_ring0_gate_reason(const struct pc_ring0 *r);
const struct pc_ring0_evidence *pc_ring0_evidence(const struct pc_ring0 *r);

/* ---- for measure.c: a probe sampled in ring 0 ------------------------------ */

/* Decides a ring-0 row before timing: no backend (skipped/unsupported),
 * self-check in ring 0 (failed), the gate (unsupported with the evidence).
 * True when the row is to be measured in ring 0. */
bool pc_ring0_admit(struct pc_ring0 *r, struct pc_probe_result *res,
		    const struct pc_clock *clk, double sample_s);
/* The probe's initial state, made in ring 0. */
void pc_ring0_init_state(struct pc_ring0 *r, int id, struct pc_probe_state *st);
/* One timed loop in ring 0: elapsed ticks, or 0 after a failure, which is
 * kept for pc_ring0_finish(). */
uint64_t pc_ring0_run(struct pc_ring0 *r, int id, struct pc_probe_state *st,
		      uint64_t iters, int hi);
/* The body that runs a probe's loops in ring 0, for the engine. */
struct pc_body pc_ring0_body(struct pc_ring0 *r);
/* Marks res failed when its ring-0 loops (or their calibration) failed,
 * or unsupported when that was the machine's doing. */
void pc_ring0_finish(struct pc_ring0 *r, struct pc_probe_result *res);
/* The three above as the interface measure.c runs ring-0 rows through. */
const struct pc_ring0_target *pc_ring0_target(struct pc_ring0 *r);

/* The run's "ring0" object: backend, hypervisor, gate verdict, evidence. */
json_t *pc_ring0_json(const struct pc_ring0 *r);

#endif
