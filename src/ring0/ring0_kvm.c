/* SPDX-License-Identifier: MIT */
/*
 * ring0_kvm.c - the KVM micro-guest.
 *
 * One VM, one vCPU run by the calling (pinned) thread, 4 MiB of memory
 * identity-mapped with two 2 MiB pages, a GDT (code, data, TSS), a TSS whose
 * IST1 stack takes every exception, and a 256-gate IDT pointing at the
 * image's exception stubs. No interrupt controller is created, so nothing
 * is ever injected: cli and sti change IF and nothing else.
 *
 * The image (runner/guest/, embedded at build time) is the shared probe
 * code plus a driver loop. Protocol: the host writes a command into the
 * mailbox and resumes the vCPU; the guest executes it and writes
 * PC_GUEST_DONE to the port, or an exception stub writes PC_GUEST_TRAPPED
 * after filling the trap fields. Every resume runs under a time limit: a
 * timer signal to this thread sets kvm_run.immediate_exit and makes KVM_RUN
 * return, so a guest that never answers cannot hang primcost. After a trap,
 * a timeout or a failure of KVM's the vCPU is restarted at the entry point
 * before the next command.
 *
 * What fails is told apart: a trap, a halt or the time limit is the
 * command's (its row failed); KVM_RUN failing, an entry KVM cannot make or
 * KVM's internal error (a software hypervisor such as kvm_pvm cannot
 * emulate cmpxchg16b in guest ring 0) is the machine's, and the command's
 * row is one this machine cannot run. Every call of /dev/kvm goes through
 * pc_kvm_calls, which a test replaces with a /dev/kvm that fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ring0_backend.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif
#ifndef KVM_INTERNAL_ERROR_EMULATION
#define KVM_INTERNAL_ERROR_EMULATION 1
#endif

/* ---- the calls of /dev/kvm -------------------------------------------------- */

static int real_open(const char *path, int flags)
{
	return open(path, flags);
}

static int real_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static void *real_mmap_run(size_t len, int vcpu_fd)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu_fd, 0);
}

const struct pc_kvm_calls pc_kvm_real_calls = {
	real_open, real_ioctl, real_mmap_run, munmap, close,
};
const struct pc_kvm_calls *pc_kvm_calls = &pc_kvm_real_calls;

#define KVM_IOCTL(fd, req, arg) pc_kvm_calls->ioctl((fd), (req), (void *)(arg))

/* The guest image, embedded by src/guest_image.c. */
extern const unsigned char pc_guest_image[], pc_guest_image_end[];

#define PTE_P	0x001ULL
#define PTE_RW	0x002ULL
#define PTE_PS	0x080ULL	/* a 2 MiB page in a page directory */
#define GUEST_STACK_ROOM 0x10000	/* at least this much stack above the image */

struct kvm_guest {
	int kvm, vm, vcpu;
	struct kvm_run *run;
	size_t run_size;
	unsigned char *mem;
	struct pc_guest_header hdr;
	bool ready;			/* waiting for a command in the mailbox */
	double timeout_s;
	timer_t timer;
	bool have_timer;
	struct sigaction old_action;
	bool have_action;
};

/* ---- the time limit -------------------------------------------------------- */

static struct kvm_run *volatile watched_run;
static volatile sig_atomic_t timer_expired;

static void on_timer(int sig)
{
	(void)sig;
	timer_expired = 1;
	if (watched_run)
		watched_run->immediate_exit = 1;
}

static int timer_setup(struct kvm_guest *g, char *why, size_t len)
{
	struct sigaction sa;
	struct sigevent ev;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGRTMIN, &sa, &g->old_action) != 0) {
		snprintf(why, len, "cannot install the time limit's signal: %s",
			 strerror(errno));
		return -1;
	}
	g->have_action = true;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGRTMIN;
	ev.sigev_notify_thread_id = gettid();
	if (timer_create(CLOCK_MONOTONIC, &ev, &g->timer) != 0) {
		snprintf(why, len, "cannot create the time limit's timer: %s",
			 strerror(errno));
		return -1;
	}
	g->have_timer = true;
	return 0;
}

static void arm(struct kvm_guest *g, double s)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (s > 0) {
		its.it_value.tv_sec = (time_t)s;
		its.it_value.tv_nsec = (long)((s - floor(s)) * 1e9);
		if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
			its.it_value.tv_nsec = 1;
	}
	timer_settime(g->timer, 0, &its, NULL);
}

/* ---- the machine ------------------------------------------------------------ */

static void build_tables(struct kvm_guest *g)
{
	uint64_t *pml4 = (uint64_t *)(g->mem + PC_GUEST_PML4);
	uint64_t *pdpt = (uint64_t *)(g->mem + PC_GUEST_PDPT);
	uint64_t *pd = (uint64_t *)(g->mem + PC_GUEST_PD);
	uint64_t *gdt = (uint64_t *)(g->mem + PC_GUEST_GDT);
	uint64_t *idt = (uint64_t *)(g->mem + PC_GUEST_IDT);
	unsigned char *tss = g->mem + PC_GUEST_TSS;
	uint64_t tss_base = PC_GUEST_TSS, tss_limit = 103, ist1 = PC_GUEST_TRAP_STACK_TOP;
	uint64_t addr;
	unsigned v;

	pml4[0] = PC_GUEST_PDPT | PTE_P | PTE_RW;
	pdpt[0] = PC_GUEST_PD | PTE_P | PTE_RW;
	for (addr = 0; addr < PC_GUEST_MEM_BYTES; addr += 0x200000)
		pd[addr >> 21] = addr | PTE_P | PTE_RW | PTE_PS;

	gdt[0] = 0;
	gdt[PC_GUEST_SEL_CODE >> 3] = 0x00af9b000000ffffULL;	/* 64-bit code, DPL 0 */
	gdt[PC_GUEST_SEL_DATA >> 3] = 0x00cf93000000ffffULL;	/* data, DPL 0 */
	gdt[PC_GUEST_SEL_TSS >> 3] = (tss_limit & 0xffff) |
		((tss_base & 0xffffff) << 16) | (0x8bULL << 40) |	/* busy 64-bit TSS */
		(((tss_limit >> 16) & 0xf) << 48) | (((tss_base >> 24) & 0xff) << 56);
	gdt[(PC_GUEST_SEL_TSS >> 3) + 1] = tss_base >> 32;

	memset(tss, 0, 104);
	memcpy(tss + 0x24, &ist1, 8);		/* IST1 */
	tss[0x66] = 104;			/* I/O map base: no bitmap */

	for (v = 0; v < 256; v++) {
		uint64_t off = g->hdr.stubs + (uint64_t)v * PC_GUEST_STUB_BYTES;

		idt[2 * v] = (off & 0xffff) | ((uint64_t)PC_GUEST_SEL_CODE << 16) |
			     (1ULL << 32) |		/* IST1 */
			     (0x8eULL << 40) |		/* present 64-bit interrupt gate */
			     (((off >> 16) & 0xffff) << 48);
		idt[2 * v + 1] = off >> 32;
	}
}

static int set_cpu_state(struct kvm_guest *g, char *err, size_t len)
{
	struct kvm_segment code = { .base = 0, .limit = 0xffffffff,
		.selector = PC_GUEST_SEL_CODE, .type = 11, .present = 1, .dpl = 0,
		.db = 0, .s = 1, .l = 1, .g = 1 };
	struct kvm_segment data = { .base = 0, .limit = 0xffffffff,
		.selector = PC_GUEST_SEL_DATA, .type = 3, .present = 1, .dpl = 0,
		.db = 1, .s = 1, .l = 0, .g = 1 };
	struct kvm_segment tr = { .base = PC_GUEST_TSS, .limit = 103,
		.selector = PC_GUEST_SEL_TSS, .type = 11, .present = 1, .s = 0 };
	struct kvm_sregs sregs;
	struct kvm_regs regs;

	if (KVM_IOCTL(g->vcpu, KVM_GET_SREGS, &sregs) < 0) {
		snprintf(err, len, "KVM_GET_SREGS: %s", strerror(errno));
		return -1;
	}
	sregs.cs = code;
	sregs.ds = sregs.es = sregs.fs = sregs.gs = sregs.ss = data;
	sregs.tr = tr;
	sregs.ldt.unusable = 1;
	sregs.gdt.base = PC_GUEST_GDT;
	sregs.gdt.limit = 5 * 8 - 1;
	sregs.idt.base = PC_GUEST_IDT;
	sregs.idt.limit = 256 * 16 - 1;
	sregs.cr0 = 0x80050033;		/* PG AM WP NE ET MP PE */
	sregs.cr3 = PC_GUEST_PML4;
	sregs.cr4 = 0x20;		/* PAE */
	sregs.efer = 0x500;		/* LMA LME */
	if (KVM_IOCTL(g->vcpu, KVM_SET_SREGS, &sregs) < 0) {
		snprintf(err, len, "KVM_SET_SREGS (64-bit mode): %s", strerror(errno));
		return -1;
	}
	memset(&regs, 0, sizeof(regs));
	regs.rip = g->hdr.entry;
	regs.rsp = PC_GUEST_STACK_TOP;
	regs.rflags = 0x2;		/* IF clear */
	if (KVM_IOCTL(g->vcpu, KVM_SET_REGS, &regs) < 0) {
		snprintf(err, len, "KVM_SET_REGS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Gives the guest the host's CPUID as KVM supports it (best effort: the
 * probe code needs nothing that is missing from a bare vCPU). */
static void set_cpuid(struct kvm_guest *g)
{
	unsigned n = 256;
	struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + n * sizeof(c->entries[0]));

	if (!c)
		return;
	c->nent = n;
	if (KVM_IOCTL(g->kvm, KVM_GET_SUPPORTED_CPUID, c) == 0)
		(void)KVM_IOCTL(g->vcpu, KVM_SET_CPUID2, c);
	free(c);
}

/* ---- running ------------------------------------------------------------------ */

static const char *const vector_names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available",
	"#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved", "#MF x87 error", "#AC alignment check",
	"#MC machine check", "#XM SIMD error", "#VE virtualization",
	"#CP control protection", "reserved", "reserved", "reserved", "reserved",
	"reserved", "reserved", "#HV hypervisor injection", "#VC VMM communication",
	"#SX security", "reserved",
};

/* What KVM's internal error's suberror says it could not do. */
static const char *internal_error_name(uint32_t suberror)
{
	static const char *const names[] = {
		[1] = "emulation",
		[2] = "an exception while delivering another",
		[3] = "an event it could not deliver",
		[4] = "an exit it did not expect",
	};

	return suberror < sizeof(names) / sizeof(names[0]) && names[suberror] ?
	       names[suberror] : "unknown";
}

/* The instruction at the guest's rip (identity-mapped: its memory is ours),
 * named; NULL where it cannot be read or named. */
static const char *guest_insn(struct kvm_guest *g, uint64_t *rip)
{
	struct kvm_regs regs;

	if (KVM_IOCTL(g->vcpu, KVM_GET_REGS, &regs) < 0)
		return NULL;
	*rip = regs.rip;
	if (regs.rip >= PC_GUEST_MEM_BYTES - 16)
		return NULL;
	return pc_arch_insn_name(g->mem + regs.rip, 15);
}

/* KVM's internal error, in words: the instruction the hypervisor could not
 * run, where it can be read. */
static void describe_internal_error(struct kvm_guest *g, char *err, size_t len)
{
	uint32_t sub = g->run->internal.suberror;
	uint64_t rip = 0;
	const char *insn = guest_insn(g, &rip);
	char where[64] = "";

	if (rip)
		snprintf(where, sizeof(where), " at rip 0x%llx", (unsigned long long)rip);
	if (insn && sub == KVM_INTERNAL_ERROR_EMULATION)
		snprintf(err, len, "the hypervisor cannot run %s in guest ring 0: KVM "
			 "internal error, emulation (suberror 1)%s", insn, where);
	else
		snprintf(err, len, "the hypervisor stopped the guest: KVM internal error, "
			 "%s (suberror %u)%s%s%s", internal_error_name(sub), sub, where,
			 insn ? ", on " : "", insn ? insn : "");
}

/* What run_until_port returns besides a value written to the port. */
enum { RUN_FAULT = -1, RUN_CANNOT = -2 };

/* The exits that end a run: the guest's doing (RUN_FAULT) or KVM's
 * (RUN_CANNOT), err saying which. */
static int exit_reason(struct kvm_guest *g, char *err, size_t len)
{
	struct kvm_run *run = g->run;

	switch (run->exit_reason) {
	case KVM_EXIT_HLT:
		snprintf(err, len, "the guest halted");
		return RUN_FAULT;
	case KVM_EXIT_SHUTDOWN:
		snprintf(err, len, "the guest shut down (triple fault)");
		return RUN_FAULT;
	case KVM_EXIT_MMIO:
		snprintf(err, len, "the guest touched unbacked memory at 0x%llx",
			 (unsigned long long)run->mmio.phys_addr);
		return RUN_FAULT;
	case KVM_EXIT_FAIL_ENTRY:
		snprintf(err, len, "KVM cannot enter the guest (reason 0x%llx)",
			 (unsigned long long)run->fail_entry.hardware_entry_failure_reason);
		return RUN_CANNOT;
	case KVM_EXIT_INTERNAL_ERROR:
		describe_internal_error(g, err, len);
		return RUN_CANNOT;
	default:
		snprintf(err, len, "unexpected KVM exit %u", run->exit_reason);
		return RUN_CANNOT;
	}
}

/*
 * Resumes the vCPU until the guest writes the port; returns what it wrote,
 * or RUN_FAULT (time limit, halt, shutdown) or RUN_CANNOT (KVM_RUN fails,
 * KVM's internal error) with err.
 */
static int run_until_port(struct kvm_guest *g, char *err, size_t len)
{
	struct kvm_run *run = g->run;
	int what = RUN_FAULT;

	timer_expired = 0;
	run->immediate_exit = 0;
	watched_run = run;
	arm(g, g->timeout_s);
	for (;;) {
		if (KVM_IOCTL(g->vcpu, KVM_RUN, 0) < 0) {
			if (errno != EINTR && errno != EAGAIN) {
				snprintf(err, len, "KVM_RUN: %s", strerror(errno));
				what = RUN_CANNOT;
				break;
			}
			if (timer_expired) {
				snprintf(err, len, "timed out: the guest did not answer "
					 "within %g s (--ring0-timeout)", g->timeout_s);
				break;
			}
			continue;
		}
		if (run->exit_reason == KVM_EXIT_IO) {
			uint32_t v = 0;

			if (run->io.direction != KVM_EXIT_IO_OUT ||
			    run->io.port != PC_GUEST_PORT || run->io.size != 4) {
				snprintf(err, len, "the guest accessed I/O port 0x%x",
					 run->io.port);
				break;
			}
			memcpy(&v, (unsigned char *)run + run->io.data_offset, 4);
			what = (int)(v & 0x7fffffff);
			break;
		}
		if (run->exit_reason == KVM_EXIT_INTR) {
			if (timer_expired) {
				snprintf(err, len, "timed out: the guest did not answer "
					 "within %g s (--ring0-timeout)", g->timeout_s);
				break;
			}
			continue;
		}
		what = exit_reason(g, err, len);
		break;
	}
	arm(g, 0);	/* a signal already generated is handled by now */
	watched_run = NULL;
	run->immediate_exit = 0;
	timer_expired = 0;
	return what;
}

static void describe_trap(const struct pc_guest_mailbox *mb, char *err, size_t len)
{
	uint64_t v = mb->trap_vector;
	int n = snprintf(err, len, "trapped in ring 0: vector %llu (%s) at rip 0x%llx, "
			 "error code 0x%llx", (unsigned long long)v,
			 v < 32 ? vector_names[v] : "external", (unsigned long long)mb->trap_rip,
			 (unsigned long long)mb->trap_error);

	if (v == 14 && n > 0 && (size_t)n < len)
		snprintf(err + n, len - (size_t)n, ", address 0x%llx",
			 (unsigned long long)mb->trap_cr2);
}

/* (Re)starts the vCPU at the entry point and waits for PC_GUEST_READY:
 * 0, or RUN_FAULT or RUN_CANNOT with err. */
static int boot(struct kvm_guest *g, char *err, size_t len)
{
	struct pc_guest_mailbox *mb = (struct pc_guest_mailbox *)(g->mem + PC_GUEST_MAILBOX);
	char why[256];
	int what;

	g->ready = false;
	if (set_cpu_state(g, err, len) < 0)
		return RUN_CANNOT;
	memset(mb, 0, sizeof(*mb));
	what = run_until_port(g, why, sizeof(why));
	if (what == PC_GUEST_READY) {
		g->ready = true;
		return 0;
	}
	if (what == PC_GUEST_TRAPPED)
		describe_trap(mb, why, sizeof(why));
	else if (what >= 0)
		snprintf(why, sizeof(why), "it wrote %d before it was ready", what);
	snprintf(err, len, "the micro-guest does not start: %s", why);
	return what == RUN_CANNOT ? RUN_CANNOT : RUN_FAULT;
}

static int kvm_exec(void *impl, struct pc_ring0_cmd *c, int *vector, char *err,
		    size_t len)
{
	struct kvm_guest *g = impl;
	struct pc_guest_mailbox *mb = (struct pc_guest_mailbox *)(g->mem + PC_GUEST_MAILBOX);
	int what;

	*vector = -1;
	if (!g->ready && (what = boot(g, err, len)) < 0)
		return what == RUN_CANNOT ? PC_RING0_EXEC_CANNOT : PC_RING0_EXEC_FAULT;
	memcpy(&mb->cmd, c, sizeof(*c));
	g->ready = false;
	what = run_until_port(g, err, len);
	if (what == PC_GUEST_DONE) {
		memcpy(c, &mb->cmd, sizeof(*c));
		g->ready = true;
		return PC_RING0_EXEC_OK;
	}
	if (what == PC_GUEST_TRAPPED) {
		*vector = (int)mb->trap_vector;
		describe_trap(mb, err, len);
	} else if (what >= 0) {
		snprintf(err, len, "the guest wrote %d out of turn", what);
	}
	return what == RUN_CANNOT ? PC_RING0_EXEC_CANNOT : PC_RING0_EXEC_FAULT;
}

static void kvm_close(void *impl)
{
	struct kvm_guest *g = impl;

	if (!g)
		return;
	if (g->have_timer)
		timer_delete(g->timer);
	if (g->have_action)
		sigaction(SIGRTMIN, &g->old_action, NULL);
	if (g->run)
		pc_kvm_calls->munmap(g->run, g->run_size);
	if (g->vcpu >= 0)
		pc_kvm_calls->close(g->vcpu);
	if (g->mem)
		munmap(g->mem, PC_GUEST_MEM_BYTES);
	if (g->vm >= 0)
		pc_kvm_calls->close(g->vm);
	if (g->kvm >= 0)
		pc_kvm_calls->close(g->kvm);
	free(g);
}

static int check_image(struct pc_guest_header *h, char *why, size_t len)
{
	size_t size = (size_t)(pc_guest_image_end - pc_guest_image);

	if (size < sizeof(*h)) {
		snprintf(why, len, "the embedded guest image is empty");
		return -1;
	}
	memcpy(h, pc_guest_image, sizeof(*h));
	if (h->magic != PC_GUEST_MAGIC || h->abi_version != PC_GUEST_ABI_VERSION) {
		snprintf(why, len, "the embedded guest image has a wrong header");
		return -1;
	}
	if (h->entry < PC_GUEST_IMAGE || h->entry >= PC_GUEST_IMAGE + size ||
	    h->stubs < PC_GUEST_IMAGE ||
	    h->stubs + 256 * PC_GUEST_STUB_BYTES > PC_GUEST_IMAGE + size ||
	    h->end < PC_GUEST_IMAGE + size ||
	    h->end > PC_GUEST_STACK_TOP - GUEST_STACK_ROOM) {
		snprintf(why, len, "the embedded guest image does not fit its layout");
		return -1;
	}
	return 0;
}

void *pc_ring0_kvm_open(double timeout_s, char *why, size_t len)
{
	struct kvm_userspace_memory_region region;
	struct kvm_guest *g = calloc(1, sizeof(*g));
	char err[256];
	int n;

	if (!g) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	g->kvm = g->vm = g->vcpu = -1;
	g->timeout_s = timeout_s;
	if (check_image(&g->hdr, why, len) < 0)
		goto fail;
	g->kvm = pc_kvm_calls->open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (g->kvm < 0) {
		if (errno == ENOENT)
			pc_ring0_no_kvm_reason("", why, len);
		else if (errno == EACCES || errno == EPERM)
			snprintf(why, len, "/dev/kvm: %s (root or its group, usually "
				 "kvm, may open it)", strerror(errno));
		else
			snprintf(why, len, "/dev/kvm: %s", strerror(errno));
		goto fail;
	}
	n = KVM_IOCTL(g->kvm, KVM_GET_API_VERSION, 0);
	if (n != KVM_API_VERSION) {
		snprintf(why, len, "/dev/kvm speaks KVM API %d, not %d", n, KVM_API_VERSION);
		goto fail;
	}
	g->vm = KVM_IOCTL(g->kvm, KVM_CREATE_VM, 0);
	if (g->vm < 0) {
		snprintf(why, len, "KVM_CREATE_VM: %s", strerror(errno));
		goto fail;
	}
	g->mem = mmap(NULL, PC_GUEST_MEM_BYTES, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (g->mem == MAP_FAILED) {
		g->mem = NULL;
		snprintf(why, len, "cannot map guest memory: %s", strerror(errno));
		goto fail;
	}
	memset(&region, 0, sizeof(region));
	region.guest_phys_addr = 0;
	region.memory_size = PC_GUEST_MEM_BYTES;
	region.userspace_addr = (uint64_t)(uintptr_t)g->mem;
	if (KVM_IOCTL(g->vm, KVM_SET_USER_MEMORY_REGION, &region) < 0) {
		snprintf(why, len, "KVM_SET_USER_MEMORY_REGION: %s", strerror(errno));
		goto fail;
	}
	memcpy(g->mem + PC_GUEST_IMAGE, pc_guest_image,
	       (size_t)(pc_guest_image_end - pc_guest_image));
	build_tables(g);
	g->vcpu = KVM_IOCTL(g->vm, KVM_CREATE_VCPU, 0);
	if (g->vcpu < 0) {
		snprintf(why, len, "KVM_CREATE_VCPU: %s", strerror(errno));
		goto fail;
	}
	n = KVM_IOCTL(g->kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (n < (int)sizeof(struct kvm_run)) {
		snprintf(why, len, "KVM_GET_VCPU_MMAP_SIZE: %s", strerror(errno));
		goto fail;
	}
	g->run_size = (size_t)n;
	g->run = pc_kvm_calls->mmap_run(g->run_size, g->vcpu);
	if (g->run == MAP_FAILED) {
		g->run = NULL;
		snprintf(why, len, "cannot map the vCPU: %s", strerror(errno));
		goto fail;
	}
	set_cpuid(g);
	if (timer_setup(g, why, len) < 0)
		goto fail;
	if (boot(g, err, sizeof(err)) < 0) {
		snprintf(why, len, "%s", err);
		goto fail;
	}
	return g;
fail:
	kvm_close(g);
	return NULL;
}

const struct pc_ring0_backend pc_ring0_kvm_backend = {
	.name = "kvm",
	.exec = kvm_exec,
	.close = kvm_close,
};
