/* SPDX-License-Identifier: MIT */
/*
 * contain.c - probe code runs contained: a trap, a hang or an interruption
 * fails (or stops) that probe and the run goes on.
 *
 * Mechanism: sigsetjmp before the work, a handler on an alternate signal
 * stack that records the signal and the instruction and siglongjmps back.
 * Everything costly happens once per run (sigaction, sigaltstack,
 * timer_create); per piece of work there is a sigsetjmp that saves no mask
 * (no system call) and, when a time limit is asked, one timer_settime to arm
 * and one to disarm, all outside the timed loops. Nothing runs inside a
 * timed loop that would not run without containment: the handlers run only
 * when a signal comes, and then the sample is lost anyway.
 *
 * Forking a child per probe was the alternative: it isolates more (a probe
 * that scribbles over memory), but the child starts on copy-on-write pages
 * and a cold TLB, its page faults land in the first samples, a round-robin
 * over probes (measure.c) would need a process switch per share of samples,
 * and results must come back through a pipe. Probes write only their own
 * state block, so catching the signal is enough.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "arch/arch.h"
#include "contain.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define ALT_STACK_BYTES (256 * 1024)

static const int trap_signals[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE };
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NTRAP (sizeof(trap_signals) / sizeof(trap_signals[0]))
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static sigjmp_buf jump;
static volatile sig_atomic_t armed;		/* inside pc_contain_call's fn */
static volatile sig_atomic_t stop_signal;	/* first SIGINT/SIGTERM/SIGHUP */
static struct pc_trap *volatile current;
static uintptr_t page_size;

static struct sigaction old_trap[NTRAP], old_alarm, old_stop[NSTOP];
static stack_t old_stack;
static void *alt_stack;
static timer_t timer;
static int initialised, catching;

/* ---- the handlers --------------------------------------------------------- */

static uintptr_t context_pc(const void *ucv)
{
	const ucontext_t *uc = ucv;

#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#elif defined(__ia64__)
	return (uintptr_t)uc->uc_mcontext.sc_ip;
#else
	(void)uc;
	return 0;
#endif
}

/* Async-signal-safe: plain stores and byte copies. */
static void record(int sig, const siginfo_t *si, const void *ucv)
{
	struct pc_trap *t = current;
	uintptr_t left;
	unsigned i;

	t->signo = sig;
	t->code = si->si_code;
	t->pc = context_pc(ucv);
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE)
		t->addr = (uintptr_t)si->si_addr;
	t->nbytes = 0;
	/* The instruction was fetched, so its page is readable, unless the
	 * fault was the fetch itself (a jump to a bad address). */
	if (!t->pc || ((sig == SIGSEGV || sig == SIGBUS) && t->addr == t->pc))
		return;
	left = page_size - (t->pc & (page_size - 1));
	for (i = 0; i < sizeof(t->bytes) && i < left; i++)
		t->bytes[i] = ((const volatile unsigned char *)t->pc)[i];
	t->nbytes = i;
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	unsigned i;

	/* Not in probe code, or sent by kill(): not a probe's trap. Hand it to
	 * whoever handled it before (the default action, or a sanitizer's
	 * report); a fault then happens again on return. */
	if (!armed || si->si_code <= 0) {
		for (i = 0; i < NTRAP; i++)
			if (trap_signals[i] == sig)
				sigaction(sig, &old_trap[i], NULL);
		if (si->si_code <= 0)
			raise(sig);
		return;
	}
	record(sig, si, ucv);
	armed = 0;
	siglongjmp(jump, PC_CONTAIN_TRAP);
}

static void on_alarm(int sig, siginfo_t *si, void *ucv)
{
	if (!armed || si->si_code != SI_TIMER)
		return;		/* late: the work already returned */
	record(sig, si, ucv);
	armed = 0;
	siglongjmp(jump, PC_CONTAIN_TIMEOUT);
}

static void on_stop(int sig, siginfo_t *si, void *ucv)
{
	unsigned i;

	if (!stop_signal)
		stop_signal = sig;
	for (i = 0; i < NSTOP; i++)	/* a second one acts as without us */
		sigaction(stop_signals[i], &old_stop[i], NULL);
	if (!armed)
		return;
	record(sig, si, ucv);
	armed = 0;
	siglongjmp(jump, PC_CONTAIN_INTERRUPTED);
}

/* ---- set-up ------------------------------------------------------------------ */

int pc_contain_init(char *err, size_t errlen)
{
	struct sigaction sa;
	struct sigevent sev;
	stack_t ss;
	unsigned i;

	if (initialised)
		return 0;
	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	alt_stack = mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (alt_stack == MAP_FAILED) {
		snprintf(err, errlen, "cannot map a signal stack: %s", strerror(errno));
		return -1;
	}
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGALRM;
	sev.sigev_notify_thread_id = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) != 0) {
		snprintf(err, errlen, "cannot create the probe timer: %s", strerror(errno));
		munmap(alt_stack, ALT_STACK_BYTES);
		return -1;
	}
	ss.ss_sp = alt_stack;
	ss.ss_size = ALT_STACK_BYTES;
	ss.ss_flags = 0;
	sigaltstack(&ss, &old_stack);

	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_trap;
	for (i = 0; i < NTRAP; i++)
		sigaction(trap_signals[i], &sa, &old_trap[i]);
	sa.sa_sigaction = on_alarm;
	sigaction(SIGALRM, &sa, &old_alarm);
	initialised = 1;
	return 0;
}

void pc_contain_fini(void)
{
	unsigned i;

	if (!initialised)
		return;
	timer_delete(timer);
	for (i = 0; i < NTRAP; i++)
		sigaction(trap_signals[i], &old_trap[i], NULL);
	sigaction(SIGALRM, &old_alarm, NULL);
	sigaltstack(&old_stack, NULL);
	munmap(alt_stack, ALT_STACK_BYTES);
	initialised = 0;
}

void pc_interrupts_catch(void)
{
	struct sigaction sa;
	unsigned i;

	if (catching)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_stop;
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, &old_stop[i]);
	catching = 1;
}

void pc_interrupts_release(void)
{
	unsigned i;

	if (!catching)
		return;
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &old_stop[i], NULL);
	catching = 0;
}

int pc_interrupted(void)
{
	return stop_signal;
}

/* ---- running contained work ------------------------------------------------- */

static void timer_set(double s)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (s > 0) {
		if (s > 1e9)
			s = 1e9;
		its.it_value.tv_sec = (time_t)s;
		its.it_value.tv_nsec = (long)((s - (double)its.it_value.tv_sec) * 1e9);
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;
	}
	timer_settime(timer, 0, &its, NULL);
}

enum pc_contain_result pc_contain_call(void (*fn)(void *), void *arg, double limit_s,
				       struct pc_trap *t)
{
	volatile int timed;
	sigset_t ours;
	unsigned i;
	int why;

	memset(t, 0, sizeof(*t));
	if (stop_signal) {
		t->signo = stop_signal;
		return PC_CONTAIN_INTERRUPTED;
	}
	if (!initialised) {	/* no handlers: run it plainly */
		fn(arg);
		return PC_CONTAIN_DONE;
	}
	current = t;
	timed = limit_s > 0;
	why = sigsetjmp(jump, 0);
	if (why) {
		/* Back from a handler: its signal is still blocked (no mask was
		 * saved, to keep sigsetjmp free of system calls). */
		if (timed)
			timer_set(0);
		sigemptyset(&ours);
		for (i = 0; i < NTRAP; i++)
			sigaddset(&ours, trap_signals[i]);
		for (i = 0; i < NSTOP; i++)
			sigaddset(&ours, stop_signals[i]);
		sigaddset(&ours, SIGALRM);
		sigprocmask(SIG_UNBLOCK, &ours, NULL);
		return (enum pc_contain_result)why;
	}
	armed = 1;
	if (timed)
		timer_set(limit_s);
	fn(arg);
	armed = 0;
	if (timed)
		timer_set(0);
	return PC_CONTAIN_DONE;
}

/* ---- describing what happened -------------------------------------------- */

const char *pc_signal_name(int signo)
{
	switch (signo) {
	case SIGILL: return "SIGILL";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGALRM: return "SIGALRM";
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	}
	return "a signal";
}

static const char *code_text(const struct pc_trap *t, char *buf, size_t len)
{
	void *a = (void *)t->addr;

	switch (t->signo) {
	case SIGILL:
		switch (t->code) {
		case ILL_ILLOPC: return "illegal opcode";
		case ILL_ILLOPN: return "illegal operand";
		case ILL_ILLADR: return "illegal addressing mode";
		case ILL_ILLTRP: return "illegal trap";
		case ILL_PRVOPC: return "privileged opcode";
		case ILL_PRVREG: return "privileged register";
		case ILL_COPROC: return "coprocessor error";
		case ILL_BADSTK: return "internal stack error";
		}
		break;
	case SIGSEGV:
		switch (t->code) {
		case SEGV_MAPERR:
			snprintf(buf, len, "nothing mapped at address %p", a);
			return buf;
		case SEGV_ACCERR:
			snprintf(buf, len, "no permission for address %p", a);
			return buf;
		case SI_KERNEL:
			return "general protection fault: a privileged instruction, "
			       "or a non-canonical address";
		}
		break;
	case SIGBUS:
		switch (t->code) {
		case BUS_ADRALN:
			snprintf(buf, len, "misaligned address %p", a);
			return buf;
		case BUS_ADRERR:
			snprintf(buf, len, "no memory behind address %p (past the end "
				 "of a mapped file?)", a);
			return buf;
		case BUS_OBJERR:
			snprintf(buf, len, "hardware error at address %p", a);
			return buf;
		}
		break;
	case SIGFPE:
		switch (t->code) {
		case FPE_INTDIV: return "integer divide by zero";
		case FPE_INTOVF: return "integer overflow";
		case FPE_FLTDIV: return "floating-point divide by zero";
		case FPE_FLTOVF: return "floating-point overflow";
		case FPE_FLTUND: return "floating-point underflow";
		case FPE_FLTRES: return "floating-point inexact result";
		case FPE_FLTINV: return "invalid floating-point operation";
		case FPE_FLTSUB: return "subscript out of range";
		}
		break;
	}
	snprintf(buf, len, "code %d", t->code);
	return buf;
}

/* "primcost+0x1b2c", or the bare address when no object is known. */
static void where(uintptr_t pc, char *buf, size_t len)
{
	Dl_info info;
	const char *base;

	if (pc && dladdr((void *)pc, &info) && info.dli_fname && info.dli_fbase) {
		base = strrchr(info.dli_fname, '/');
		base = base ? base + 1 : info.dli_fname;
		if (info.dli_sname && info.dli_saddr)
			snprintf(buf, len, "%s+0x%lx in %s", info.dli_sname,
				 (unsigned long)(pc - (uintptr_t)info.dli_saddr), base);
		else
			snprintf(buf, len, "%s+0x%lx", *base ? base : "?",
				 (unsigned long)(pc - (uintptr_t)info.dli_fbase));
	} else {
		snprintf(buf, len, "%p", (void *)pc);
	}
}

void pc_trap_describe(const struct pc_trap *t, char *buf, size_t len)
{
	char what[128], at[192], hex[3 * 8 + 8];
	const char *insn = NULL;
	size_t off = 0;
	unsigned i;

	where(t->pc, at, sizeof(at));
	hex[0] = 0;
	for (i = 0; i < t->nbytes && i < 8; i++)
		off += (size_t)snprintf(hex + off, sizeof(hex) - off, "%s%02x",
					i ? " " : "", t->bytes[i]);
	if (t->nbytes)
		insn = pc_arch_insn_name(t->bytes, t->nbytes);
	if (t->signo == SIGALRM || t->signo == SIGINT || t->signo == SIGTERM ||
	    t->signo == SIGHUP)
		snprintf(buf, len, "stopped at %s: %s [%s]", at,
			 insn ? insn : "an instruction", t->nbytes ? hex : "unreadable");
	else
		snprintf(buf, len, "%s (%s) at %s: %s [%s]", pc_signal_name(t->signo),
			 code_text(t, what, sizeof(what)), at,
			 insn ? insn : t->nbytes ? "an instruction primcost cannot name" :
			 "no code there", t->nbytes ? hex : "unreadable");
}
