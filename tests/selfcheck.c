/* SPDX-License-Identifier: MIT */
/*
 * Every probe's functional self-check: after N operations the state is what
 * the primitive must leave. Ring-0 rows cannot run here (cli/sti fault in
 * user mode) and are skipped with that reason. Also proves the checks bite:
 * a wrong operation count or a tampered state must be caught.
 */
#include <string.h>

#include "core/measure.h"
#include "tap.h"

/* Runs probe id's loop iters times (hi: unrolled PC_UNROLL_HI times, else
 * PC_UNROLL_LO) from its initial state, kept in before, into st. NULL where
 * this architecture has no body, after skipping "ID check catches WHAT". */
static const struct pc_arch_probe *run_probe(int id, uint64_t iters, int hi,
					     const char *what,
					     struct pc_probe_state *before,
					     struct pc_probe_state *st)
{
	const struct pc_arch_probe *p = pc_probe_impl((enum pc_probe_id)id);

	if (!p) {
		skip("no implementation", "%s check catches %s", pc_probe_rows[id].name, what);
		return NULL;
	}
	memset(st, 0, sizeof(*st));
	if (p->init)
		p->init(st);
	*before = *st;
	p->run(st, iters, hi);
	return p;
}

int main(void)
{
	char why[256];
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		const struct pc_probe_row *row = &pc_probe_rows[id];
		const struct pc_arch_probe *p = pc_probe_impl((enum pc_probe_id)id);

		if (!p) {
			skip(pc_probe_note((enum pc_probe_id)id) ?
			     pc_probe_note((enum pc_probe_id)id) :
			     "no implementation on this architecture", "%s self-check",
			     row->name);
			continue;
		}
		if (row->ring == 0) {
			skip("needs ring 0; runs in the ring-0 backend", "%s self-check",
			     row->name);
			continue;
		}
		const char *r = pc_selfcheck(p, why, sizeof(why));

		ok(r == NULL, "%s self-check%s%s", row->name, r ? ": " : "", r ? r : "");
		if (pc_arch_probes[id].unavailable)	/* which form was checked */
			diag("%s ran %s%s%s", row->name, p->sequence,
			     pc_probe_note((enum pc_probe_id)id) ? ": " : "",
			     pc_probe_note((enum pc_probe_id)id) ?
			     pc_probe_note((enum pc_probe_id)id) : "");
	}

	/* A body this CPU may lack names the kernel's fallback: that one must
	 * be right too, whether or not this CPU ends up running it. */
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		const struct pc_arch_probe *p = &pc_arch_probes[id];

		if (!p->run || !p->unavailable)
			continue;
		/* Where the kernel has nothing to run instead (x86-64
		 * cmpxchg128() without CMPXCHG16B), the row is unsupported on
		 * such a CPU, with the reason. */
		if (!p->fallback) {
			ok(pc_probe_note((enum pc_probe_id)id) ||
			   pc_probe_impl((enum pc_probe_id)id) == p,
			   "%s: a body with no fallback runs, or says why not",
			   pc_probe_rows[id].name);
			continue;
		}
		const char *r = pc_selfcheck(p->fallback, why, sizeof(why));

		ok(r == NULL, "%s: the fallback (%s) passes its self-check%s%s",
		   pc_probe_rows[id].name, p->fallback->sequence, r ? ": " : "",
		   r ? r : "");
	}

	/* The checks must be able to fail. */
	static const int counted[] = { PC_PROBE_calib_add_chain, PC_PROBE_calib_mul_chain,
		PC_PROBE_atomic_add_return, PC_PROBE_local_add_return, PC_PROBE_xchg,
		PC_PROBE_sigprocmask, PC_PROBE_atomic_add_return_llsc,
		PC_PROBE_local_add_return_llsc, PC_PROBE_xchg_llsc,
		PC_PROBE_this_cpu_add, PC_PROBE_this_cpu_add_llsc };
	unsigned i;

	for (i = 0; i < sizeof(counted) / sizeof(counted[0]); i++) {
		struct pc_probe_state before, st;
		uint64_t ops = 3 * PC_UNROLL_LO;
		const struct pc_arch_probe *p = run_probe(counted[i], 3, 0, "a miscount",
							  &before, &st);

		if (!p)
			continue;
		ok(p->check(&before, &st, ops) == NULL &&
		   p->check(&before, &st, ops + 1) != NULL,
		   "%s check passes the true count and catches one operation too many",
		   pc_probe_rows[counted[i]].name);
	}

	static const int stateful[] = { PC_PROBE_baseline, PC_PROBE_cmpxchg,
		PC_PROBE_cmpxchg_local, PC_PROBE_mb, PC_PROBE_smp_mb,
		PC_PROBE_preempt_disable_enable, PC_PROBE_cmpxchg64,
		PC_PROBE_cmpxchg_llsc, PC_PROBE_cmpxchg_local_llsc,
		PC_PROBE_this_cpu_cmpxchg, PC_PROBE_this_cpu_cmpxchg_llsc,
		PC_PROBE_this_cpu_cmpxchg_double,
		PC_PROBE_this_cpu_cmpxchg_double_llsc, PC_PROBE_cmpxchg128,
		PC_PROBE_cmpxchg128_llsc };

	for (i = 0; i < sizeof(stateful) / sizeof(stateful[0]); i++) {
		struct pc_probe_state before, st;
		const struct pc_arch_probe *p = run_probe(stateful[i], 2, 1,
							  "a corrupted word", &before, &st);

		if (!p)
			continue;
		st.mem[0] ^= 0x10;
		ok(p->check(&before, &st, 2 * PC_UNROLL_HI) != NULL,
		   "%s check catches a corrupted memory word",
		   pc_probe_rows[stateful[i]].name);
	}
	return done_testing();
}
