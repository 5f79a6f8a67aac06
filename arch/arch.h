/* SPDX-License-Identifier: MIT */
/*
 * arch.h - the one interface every architecture backend implements.
 *
 * A backend is freestanding: inline asm and plain C, no libc, no allocation,
 * no I/O, so that the same object code can run inside primcost, inside the
 * ring-0 guest image and inside the freestanding probe runner.
 *
 * Method: each probe's run function times `iters` iterations of a loop whose
 * body is the primitive repeated PC_UNROLL_HI times, or PC_UNROLL_LO times.
 * The harness subtracts the two: loop control, timer reads and everything
 * else that is not the primitive cancels, and
 *     ticks per op = (T_hi - T_lo) / (iters * PC_UNROLL_DIFF).
 */
#ifndef PC_ARCH_H
#define PC_ARCH_H

#include <stdint.h>
#include "probes/probes.h"
#include "timer.h"	/* arch/<arch>/timer.h: static inline pc_timer_read() */

#define PC_UNROLL_LO 16
#define PC_UNROLL_HI 80
#define PC_UNROLL_DIFF (PC_UNROLL_HI - PC_UNROLL_LO)

/*
 * What a primitive works on: one cache line of memory and a few registers,
 * in machine words (32 bits on i386, 64 elsewhere).
 */
#define PC_STATE_WORDS (64 / sizeof(unsigned long))
struct pc_probe_state {
	unsigned long mem[PC_STATE_WORDS];	/* mem[0]: the word operated on */
	unsigned long reg[4];		/* register values: initial in, final out */
} __attribute__((aligned(64)));

/*
 * What the running system says about the CPU, filled in by the core (the
 * backend cannot ask: it has no libc). Opaque to the core: it passes the
 * values through, only the backend knows what the bits mean.
 */
struct pc_arch_env {
	unsigned long hwcap, hwcap2;	/* getauxval(AT_HWCAP), (AT_HWCAP2) */
};

struct pc_arch_probe {
	/* Time `iters` iterations of the loop unrolled PC_UNROLL_HI (hi != 0)
	 * or PC_UNROLL_LO times. Starts from *st, leaves the final state
	 * there; returns elapsed timer ticks. */
	uint64_t (*run)(struct pc_probe_state *st, uint64_t iters, int hi);
	/* Puts the initial state the run and the check expect. */
	void (*init)(struct pc_probe_state *st);
	/* Is `after` what `ops` operations must leave, starting at `before`?
	 * NULL when it is, else a description of what is wrong. */
	const char *(*check)(const struct pc_probe_state *before,
			     const struct pc_probe_state *after, uint64_t ops);
	/* Optional: exercises the primitive with changing operands (the
	 * timed loop may reuse one value). NULL result when right. */
	const char *(*semantics)(struct pc_probe_state *scratch);
	/* The exact instruction sequence one operation executes. */
	const char *sequence;
	/* Optional: NULL when this CPU can run the body, else why not (an
	 * instruction the CPU lacks would trap). */
	const char *(*unavailable)(const struct pc_arch_env *env);
	/* Optional: what runs instead when the body is unavailable, as the
	 * kernel falls back (arm64: LL/SC where LSE atomics are missing). */
	const struct pc_arch_probe *fallback;
	/* For a row with run == NULL: why this architecture has no such probe. */
	const char *unsupported;
};

/* A row of a backend's table: the fields every implemented row has (the
 * others stay zero). */
#define PC_ROW(run_, init_, check_, semantics_, sequence_)		\
	{ .run = (run_), .init = (init_), .check = (check_),		\
	  .semantics = (semantics_), .sequence = (sequence_) }
/* A row whose body the CPU may lack (unavailable_), and the row the kernel
 * falls back to then. */
#define PC_ROW_ALT(run_, init_, check_, semantics_, sequence_, unavailable_,	\
		   fallback_)						\
	{ .run = (run_), .init = (init_), .check = (check_),		\
	  .semantics = (semantics_), .sequence = (sequence_),		\
	  .unavailable = (unavailable_), .fallback = (fallback_) }

/* The rows of a family that are one row on a backend, each `row_`: the
 * six barriers; and where a backend lacks them for one reason (an
 * { .unsupported = ... } initializer), the load/store-exclusive forms and
 * ia64's fetchadd form of add_return. */
#define PC_ROWS_BARRIERS(row_)						\
	[PC_PROBE_mb] = row_, [PC_PROBE_rmb] = row_, [PC_PROBE_wmb] = row_, \
	[PC_PROBE_smp_mb] = row_, [PC_PROBE_smp_rmb] = row_,		\
	[PC_PROBE_smp_wmb] = row_
#define PC_ROWS_LLSC(row_)						\
	[PC_PROBE_cmpxchg_llsc] = row_,					\
	[PC_PROBE_cmpxchg_local_llsc] = row_,				\
	[PC_PROBE_atomic_add_return_llsc] = row_,			\
	[PC_PROBE_local_add_return_llsc] = row_,			\
	[PC_PROBE_xchg_llsc] = row_,					\
	[PC_PROBE_this_cpu_add_llsc] = row_,				\
	[PC_PROBE_this_cpu_cmpxchg_llsc] = row_,			\
	[PC_PROBE_this_cpu_cmpxchg_double_llsc] = row_,			\
	[PC_PROBE_cmpxchg128_llsc] = row_
#define PC_ROWS_FETCHADD(row_)						\
	[PC_PROBE_atomic_add_return_fetchadd] = row_,			\
	[PC_PROBE_local_add_return_fetchadd] = row_

/* The three flags rows, made of the backend's run_flags_save,
 * run_flags_restore, run_flags_save_restore and init_flags: check_save_
 * checks the value read, check_kept_ the two rows that write the flags
 * back; save_, restore_ and save_restore_ are their sequences. */
#define PC_ROWS_FLAGS(check_save_, check_kept_, save_, restore_,	\
		      save_restore_)					\
	[PC_PROBE_flags_save] = PC_ROW(run_flags_save, init_flags,	\
		check_save_, 0, save_),					\
	[PC_PROBE_flags_restore] = PC_ROW(run_flags_restore, init_flags, \
		check_kept_, 0, restore_),				\
	[PC_PROBE_flags_save_restore] = PC_ROW(run_flags_save_restore,	\
		init_flags, check_kept_, 0, save_restore_)

/* Each backend defines these. A row with run == NULL is unsupported. */
extern const struct pc_arch_probe pc_arch_probes[PC_PROBE_COUNT];
extern const char pc_arch_name[];		/* "x86_64", "i386", ... */
extern const char pc_arch_timer_name[];	/* "tsc", "cntvct_el0", ... */

/* The timer's frequency in Hz when the hardware states it, else 0 (the
 * harness then measures it against the OS clock). */
uint64_t pc_arch_timer_hz(void);

/* Names the instruction whose first bytes are code[0..n) (where a probe
 * trapped or was stopped), or NULL when the backend's table does not know
 * it. The harness prints the bytes either way. */
const char *pc_arch_insn_name(const unsigned char *code, unsigned n);

#endif
