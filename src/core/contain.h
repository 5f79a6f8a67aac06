/* SPDX-License-Identifier: MIT */
/*
 * contain.h - running probe code so that a trap, a hang or an interruption
 * ends that piece of work, not primcost.
 */
#ifndef PC_CONTAIN_H
#define PC_CONTAIN_H

#include <stddef.h>
#include <stdint.h>

enum pc_contain_result {
	PC_CONTAIN_DONE = 0,		/* the work returned */
	PC_CONTAIN_TRAP,		/* SIGILL, SIGSEGV, SIGBUS or SIGFPE in it */
	PC_CONTAIN_TIMEOUT,		/* still running when its time ran out */
	PC_CONTAIN_INTERRUPTED,		/* SIGINT, SIGTERM or SIGHUP asked to stop */
};

/* What stopped the work, as the signal handler saw it. */
struct pc_trap {
	int signo;
	int code;			/* si_code */
	uintptr_t pc;			/* the instruction it stopped at */
	uintptr_t addr;			/* the faulting address (SIGSEGV, SIGBUS) */
	unsigned char bytes[16];	/* the code at pc, as far as readable */
	unsigned nbytes;
};

/* Installs the trap handlers (on an alternate signal stack) and the timer
 * that bounds a piece of work. Between init and fini, a fault outside
 * pc_contain_call still ends the program, through the handler that was
 * there before. */
int pc_contain_init(char *err, size_t errlen);
void pc_contain_fini(void);

/*
 * Runs fn(arg). A trap inside it, running past limit_s seconds (0: no
 * limit) or an interruption caught by pc_interrupts_catch() ends it at
 * once: the stack is unwound to here and *t says what happened. fn must
 * not allocate, take a lock or write to a stream (it may be abandoned
 * anywhere); nor may work be nested. Costs no system call unless limit_s > 0 (two: arm and
 * disarm the timer), and nothing inside fn.
 */
enum pc_contain_result pc_contain_call(void (*fn)(void *), void *arg, double limit_s,
				       struct pc_trap *t);

/* "SIGILL (illegal operand) at primcost+0x1b2c: ud2 (...) [0f 0b ...]" */
void pc_trap_describe(const struct pc_trap *t, char *buf, size_t len);

/*
 * SIGINT, SIGTERM and SIGHUP: the first one only asks the run to stop (and
 * ends the contained work in progress); the handler that was there before
 * comes back, so a second one acts as it would have. pc_interrupted() says
 * which signal asked, 0 if none.
 */
void pc_interrupts_catch(void);
void pc_interrupts_release(void);
int pc_interrupted(void);

/* "SIGINT", "SIGSEGV", ... */
const char *pc_signal_name(int signo);

#endif
