/* SPDX-License-Identifier: MIT */
/*
 * The kernel module against a hostile caller, run as root in the qemu
 * guest (scripts/qemu-kernel-init.sh) with the module loaded: raw ioctls,
 * not primcost's, with every field wrong in turn. Wrong sizes and numbers,
 * pointers that do not point at a command, ops, rows out of range, the
 * ring-3 and cmpxchg16b rows, iteration counts up to 2^64-1, the kernel
 * group's entries, sizes, threads and windows out of range: each refused
 * with EINVAL, ENOTTY or EFAULT. States with DF, TF, AC, NT and IOPL set
 * sent to every row the module runs: none of it reaches RFLAGS (the flags
 * the loop reads back, and the kernel's after the command). The longest
 * count runs in windows. The kernel group's constant sizes, the 2007
 * pattern's batches (their count and size) and a contended window ended
 * by its timer. Two callers at once; a caller killed mid-run (or in its
 * batches) dies and the module answers the next. The device opened as an unprivileged
 * user, and used through a root's descriptor after dropping root: EPERM.
 * At the end, the kernel still copies forwards (a file written and read
 * back), and the module still answers. The kernel log and the unload are
 * checked by tests/qemu_kernel.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#if defined(__x86_64__)
#include "engine/method.h"
#include "probes/probes.h"
#include "runner/ring0/abi.h"
#include "runner/kmod/pc_kmod.h"
#include "runner/kmod/pc_kernel.h"

#define FLAGS_TF	0x0100UL
#define FLAGS_IF	0x0200UL
#define FLAGS_DF	0x0400UL
#define FLAGS_IOPL	0x3000UL
#define FLAGS_NT	0x4000UL
#define FLAGS_AC	0x40000UL
#define FLAGS_HOSTILE	(FLAGS_TF | FLAGS_DF | FLAGS_IOPL | FLAGS_NT | FLAGS_AC)
#define NOBODY		65534

static const char *flag_names(unsigned long f)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s%s%s%s%s", f & FLAGS_TF ? " TF" : "",
		 f & FLAGS_DF ? " DF" : "", f & FLAGS_IOPL ? " IOPL" : "",
		 f & FLAGS_NT ? " NT" : "", f & FLAGS_AC ? " AC" : "");
	return buf[0] ? buf : " none";
}

/* One ioctl: 0, or the errno it failed with. (Called before ok(), whose
 * arguments may be evaluated in any order.) */
static int call(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) < 0 ? errno : 0;
}

static int exec(int fd, struct pc_ring0_cmd *c)
{
	return call(fd, PC_KMOD_IOC_EXEC, c);
}

static int kernel_cmd(int fd, struct pc_kernel_cmd *c)
{
	return call(fd, PC_KMOD_IOC_KERNEL, c);
}

static void cmd(struct pc_ring0_cmd *c, uint32_t op, uint32_t probe, uint64_t iters)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->probe = probe;
	c->iters = iters;
	c->hi = 1;
}

/* A state made to do harm: every word has DF, TF, AC, NT and IOPL set
 * (and IF), as popf would load it into RFLAGS. */
static void hostile_state(struct pc_probe_state *st)
{
	unsigned i;

	for (i = 0; i < PC_STATE_WORDS; i++)
		st->mem[i] = FLAGS_HOSTILE | FLAGS_IF | 0x2;
	for (i = 0; i < 4; i++)
		st->reg[i] = FLAGS_HOSTILE | FLAGS_IF | 0x2;
}

/* The rows the module runs: the ring-0 rows and the gate's. */
static bool kernel_row(unsigned id)
{
	return pc_probe_rows[id].ring == 0 || id == PC_RING0_GATE_ADD ||
	       id == PC_RING0_GATE_CMPXCHG;
}

static void wrong_numbers(int fd)
{
	char small[16] = { 0 };
	struct pc_ring0_cmd c;
	int e;

	e = call(fd, _IOWR('p', 0x30, char[16]), small);
	ok(e == ENOTTY,
	   "exec's number with a 16-byte size: ENOTTY (%s)", strerror(e));
	e = call(fd, _IOWR('p', 0x31, char[16]), small);
	ok(e == ENOTTY,
	   "the kernel ioctl's number with a 16-byte size: ENOTTY (%s)", strerror(e));
	e = call(fd, _IO('p', 0x32), NULL);
	ok(e == ENOTTY,
	   "an ioctl the module does not have: ENOTTY (%s)", strerror(e));
	e = call(fd, PC_KMOD_IOC_EXEC, NULL);
	ok(e == EFAULT,
	   "exec with a NULL command: EFAULT (%s)", strerror(e));
	e = call(fd, PC_KMOD_IOC_KERNEL, (void *)8);
	ok(e == EFAULT,
	   "the kernel ioctl with a command at address 8: EFAULT (%s)", strerror(e));
	cmd(&c, 0, PC_PROBE_local_irq_save, 1);
	e = exec(fd, &c);
	ok(e == EINVAL, "op 0: EINVAL (%s)", strerror(e));
	cmd(&c, 0xffffffffu, PC_PROBE_local_irq_save, 1);
	e = exec(fd, &c);
	ok(e == EINVAL, "op 2^32-1: EINVAL (%s)", strerror(e));
}

/* A command that ends on a page not mapped: EFAULT, nothing written past. */
static void short_buffer(int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pc_ring0_cmd *c;
	int e;

	if (m == MAP_FAILED) {
		skip("cannot map two pages", "a command across an unmapped page: EFAULT");
		return;
	}
	munmap(m + page, (size_t)page);
	c = (struct pc_ring0_cmd *)(m + page - 64);
	/* its first 64 bytes mapped, the rest not */
	e = call(fd, PC_KMOD_IOC_EXEC, c);
	ok(e == EFAULT,
	   "a command cut short by an unmapped page: EFAULT (%s)", strerror(e));
	c = (struct pc_ring0_cmd *)m;
	cmd(c, PC_RING0_OP_SELFCHECK, PC_PROBE_local_irq_save, 1);
	mprotect(m, (size_t)page, PROT_READ);
	e = call(fd, PC_KMOD_IOC_EXEC, c);
	ok(e == EFAULT,
	   "a valid command in read-only memory: it runs, and the reply is EFAULT (%s)",
	   strerror(e));
	munmap(m, (size_t)page);
}

static void rows(int fd)
{
	static const uint32_t beyond[] = { PC_PROBE_COUNT + 1, PC_PROBE_COUNT + 1000,
					   0x7fffffffu, 0xffffffffu };
	struct pc_ring0_cmd c;
	unsigned id, refused = 0, ran = 0, bad = 0;
	char wrong[256] = "";
	size_t i;
	int e;

	for (i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++) {
		cmd(&c, PC_RING0_OP_SELFCHECK, beyond[i], 1);
		e = exec(fd, &c);
		ok(e == EINVAL, "row %u: EINVAL (%s)", beyond[i],
		   strerror(e));
	}
	/* every row, every op: the module's rows run, the others are refused */
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		uint32_t op;

		for (op = PC_RING0_OP_INIT; op <= PC_RING0_OP_SELFCHECK; op++) {
			cmd(&c, op, id, 3);
			hostile_state(&c.st);
			e = exec(fd, &c);
			if (kernel_row(id) ? e == 0 : e == EINVAL)
				kernel_row(id) ? ran++ : refused++;
			else if (!bad++)
				snprintf(wrong, sizeof(wrong), "row %s op %u: %s",
					 pc_probe_rows[id].name, op, e ? strerror(e) : "ran");
		}
	}
	ok(bad == 0 && ran > 0 && refused > 0, "each row and op: the ring-0 rows and "
	   "the gate's run (%u commands), the others are EINVAL (%u)%s%s", ran, refused,
	   bad ? "; wrong: " : "", wrong);
	cmd(&c, PC_RING0_OP_RUN, PC_PROBE_this_cpu_cmpxchg_double, 1);
	e = exec(fd, &c);
	ok(e == EINVAL,
	   "this_cpu_cmpxchg_double (cmpxchg16b, a ring-3 row): EINVAL (%s)", strerror(e));
	cmd(&c, PC_RING0_OP_SELFCHECK, PC_PROBE_cmpxchg128, 1);
	e = exec(fd, &c);
	ok(e == EINVAL,
	   "cmpxchg128 (lock cmpxchg16b, a ring-3 row): EINVAL (%s)", strerror(e));
	cmd(&c, PC_RING0_OP_RUN, PC_PROBE_flags_restore, 1);
	hostile_state(&c.st);
	e = exec(fd, &c);
	ok(e == EINVAL,
	   "flags_restore (push; popf of the state, a ring-3 row): EINVAL (%s)", strerror(e));
}

static void counts(int fd)
{
	static const uint64_t wrong[] = { 0, PC_RING0_MAX_OPS / PC_UNROLL_HI + 1,
					  1ULL << 40, 1ULL << 63, ~0ULL };
	uint64_t most = PC_RING0_MAX_OPS / PC_UNROLL_HI;
	struct pc_ring0_cmd c;
	size_t i;
	int e;

	for (i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		cmd(&c, PC_RING0_OP_RUN, PC_PROBE_local_irq_disable, wrong[i]);
		e = exec(fd, &c);
		ok(e == EINVAL, "a run of %llu iterations: EINVAL (%s)",
		   (unsigned long long)wrong[i], strerror(e));
	}
	cmd(&c, PC_RING0_OP_RUN, PC_PROBE_local_irq_disable, most);
	e = exec(fd, &c);
	ok(e == 0 && c.status == PC_RING0_OK &&
	   c.windows == (most + PC_RING0_WINDOW_ITERS - 1) / PC_RING0_WINDOW_ITERS &&
	   c.ticks > 0,
	   "the longest run (%llu iterations of cli) runs in %u windows of at most %d "
	   "iterations; the longest %.3f ms here", (unsigned long long)most, c.windows,
	   PC_RING0_WINDOW_ITERS, (double)c.longest_window_ns * 1e-6);
}

/* Every row the module runs, from a hostile state: nothing of it in RFLAGS. */
static void states(int fd)
{
	static const uint32_t ops[] = { PC_RING0_OP_INIT, PC_RING0_OP_RUN, PC_RING0_OP_SELFCHECK };
	unsigned long seen_loop = 0, seen_kernel = 0;
	struct pc_ring0_cmd c;
	unsigned id, n = 0;
	size_t k;
	int e;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		if (!kernel_row(id))
			continue;
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			cmd(&c, ops[k], id, 3);
			hostile_state(&c.st);
			if (exec(fd, &c))
				continue;
			n++;
			seen_kernel |= c.kernel_flags & FLAGS_HOSTILE;
			if (pc_probe_rows[id].ring == 0 && ops[k] == PC_RING0_OP_RUN)
				seen_loop |= c.st.reg[1] & FLAGS_HOSTILE;
		}
	}
	cmd(&c, PC_RING0_OP_RUN, PC_PROBE_local_irq_restore_popf, 5);
	hostile_state(&c.st);
	e = exec(fd, &c);
	ok(e == 0 && (c.st.reg[1] & FLAGS_HOSTILE) == 0 && (c.st.reg[1] & FLAGS_IF),
	   "local_irq_restore.popf from a state of DF, TF, AC, NT and IOPL: the loop's "
	   "popf loaded none of them (flags read back 0x%lx:%s)", c.st.reg[1],
	   flag_names(c.st.reg[1] & FLAGS_HOSTILE));
	ok(n > 0 && seen_loop == 0, "every ring-0 row's loop from such a state (%u commands): "
	   "no hostile flag read back in it:%s", n, flag_names(seen_loop));
	ok(n > 0 && seen_kernel == 0, "... and RFLAGS after each command, as the kernel "
	   "goes on with them, have none:%s", flag_names(seen_kernel));
}

/* MemAvailable of /proc/meminfo, in KiB; -1 when it cannot be read. */
static long long mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* The largest BATCH, 10000 objects of 16 KiB (160 MiB): it runs and frees
 * them all (the memory available after it is what it was before, within
 * a tenth), or it is refused for want of memory, with the reason; the
 * smallest size runs. */
static void kernel_batch(int fd)
{
	static const uint32_t sizes[] = { 8, PC_KERNEL_MAX_SIZE };
	struct pc_kernel_cmd c;
	long long before, after;
	size_t i;
	int e;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		before = mem_available_kb();
		memset(&c, 0, sizeof(c));
		c.op = PC_KERNEL_OP_BATCH;
		c.entry = PC_KE_kfree_batch10000;
		c.size = sizes[i];
		c.count = PC_KERNEL_BATCH_MAX;
		e = kernel_cmd(fd, &c);
		after = mem_available_kb();
		ok(e == 0 && ((c.status == PC_KERNEL_OK && c.nulls == 0 && c.ticks > 0 &&
			       c.ticks_free > 0 && after >= before - before / 10) ||
			      (c.status == PC_KERNEL_UNSUPPORTED && strstr(c.reason, "memory"))),
		   "a BATCH of %u kmalloc()s of %u bytes: %s (memory available %lld MiB "
		   "before, %lld after)", c.count, c.size, e ? strerror(e) :
		   c.status == PC_KERNEL_OK ? "ran, every object freed" : c.reason,
		   before / 1024, after / 1024);
	}
	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_SELFCHECK;
	c.entry = PC_KE_kmalloc_kfree_const;
	c.size = 4096;
	e = kernel_cmd(fd, &c);
	ok(e == 0 && c.status == PC_KERNEL_OK && c.kmalloc_max >= 4096 && c.page_shift >= 12,
	   "kmalloc_kfree.const of 4096 bytes passes its self-check; the largest kmalloc "
	   "cache is %u bytes, pages 2^%u", c.kmalloc_max, c.page_shift);
}

/* The remote pattern on CPUs 0 and 1, its largest command: every object
 * kfree()d on the far CPU; one CPU: refused. */
static void kernel_remote(int fd, long cpus)
{
	struct pc_kernel_cmd c;
	int e;

	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_REMOTE;
	c.entry = PC_KE_kfree_remote;
	c.size = PC_KERNEL_MAX_SIZE;
	c.count = PC_KERNEL_REMOTE_MAX;
	c.cpus[0] = 0;
	c.cpus[1] = 1;
	e = kernel_cmd(fd, &c);
	if (cpus < 2) {
		ok(e == EINVAL || (e == 0 && c.status == PC_KERNEL_UNSUPPORTED),
		   "one CPU: a REMOTE on CPUs 0 and 1 is refused (%s)", e ? strerror(e) : c.reason);
		return;
	}
	ok(e == 0 && c.status == PC_KERNEL_OK && c.nulls == 0 &&
	   c.ops == (uint64_t)PC_KERNEL_REMOTE_MAX * PC_KERNEL_REMOTE_OBJS && c.ticks > 0 &&
	   c.ticks_free > 0, "the largest REMOTE (%d batches of %d objects of %d bytes, CPU 0 "
	   "to 1): every object kfree()d on the far CPU (%llu) %s", PC_KERNEL_REMOTE_MAX,
	   PC_KERNEL_REMOTE_OBJS, PC_KERNEL_MAX_SIZE, (unsigned long long)c.ops,
	   e ? strerror(e) : c.reason);
}

/* A window of the contended lock ends by its own timer, on one CPU. */
static void kernel_window(int fd)
{
	struct pc_kernel_cmd c;
	int e;

	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_CONTEND;
	c.threads = 1;
	c.window_us = 100;
	e = kernel_cmd(fd, &c);
	ok(e == 0 && c.status == PC_KERNEL_OK && c.ops > 0 && c.ops % 16 == 0,
	   "a contended window of 100 us on one thread ends by its timer: %llu pairs (%s)",
	   (unsigned long long)c.ops, e ? strerror(e) : c.status ? c.reason : "ok");
}

static void kernel_group(int fd)
{
	struct { const char *what; uint32_t op, entry, size, threads, window; uint64_t iters;
		 uint32_t count; }
	wrong[] = {
		{ "op 0", 0, 0, 0, 0, 0, 1, 0 },
		{ "op 2^32-1", 0xffffffffu, 0, 0, 0, 0, 1, 0 },
		{ "entry past the last", PC_KERNEL_OP_RUN, PC_KE_COUNT, 0, 0, 0, 1, 0 },
		{ "entry 2^32-1", PC_KERNEL_OP_SELFCHECK, 0xffffffffu, 0, 0, 0, 1, 0 },
		{ "kmalloc of 0 bytes", PC_KERNEL_OP_RUN, PC_KE_kmalloc, 0, 0, 0, 1, 0 },
		{ "kmalloc of 16385 bytes", PC_KERNEL_OP_SELFCHECK, PC_KE_kmalloc,
		  PC_KERNEL_MAX_SIZE + 1, 0, 0, 1, 0 },
		{ "kmalloc_kfree of 2^32-1 bytes", PC_KERNEL_OP_RUN, PC_KE_kmalloc_kfree,
		  0xffffffffu, 0, 0, 1, 0 },
		{ "a run of 0 iterations", PC_KERNEL_OP_RUN, PC_KE_cmpxchg_local, 0, 0, 0, 0, 0 },
		{ "a run of 2^63 iterations", PC_KERNEL_OP_RUN, PC_KE_cmpxchg_local, 0, 0, 0,
		  1ULL << 63, 0 },
		{ "0 threads", PC_KERNEL_OP_CONTEND, 0, 0, 0, 100, 0, 0 },
		{ "65 threads", PC_KERNEL_OP_CONTEND, 0, 0, 65, 100, 0, 0 },
		{ "2^32-1 threads", PC_KERNEL_OP_CONTEND, 0, 0, 0xffffffffu, 100, 0, 0 },
		{ "a window of 0 us", PC_KERNEL_OP_CONTEND, 0, 0, 1, 0, 0, 0 },
		{ "a window of 10001 us", PC_KERNEL_OP_CONTEND, 0, 0, 1,
		  PC_KERNEL_MAX_WINDOW_US + 1, 0, 0 },
		/* the constant sizes are those the module was compiled with */
		{ "kmalloc.const of 0 bytes", PC_KERNEL_OP_RUN, PC_KE_kmalloc_const, 0, 0, 0, 1, 0 },
		{ "kmalloc.const of 24 bytes (no constant of its own)", PC_KERNEL_OP_RUN,
		  PC_KE_kmalloc_const, 24, 0, 0, 1, 0 },
		{ "kfree.const of 100 bytes", PC_KERNEL_OP_SELFCHECK, PC_KE_kfree_const, 100,
		  0, 0, 1, 0 },
		{ "kmalloc_kfree.const of 16385 bytes", PC_KERNEL_OP_RUN,
		  PC_KE_kmalloc_kfree_const, PC_KERNEL_MAX_SIZE + 1, 0, 0, 1, 0 },
		{ "kmalloc_kfree.const of 2^32-1 bytes", PC_KERNEL_OP_RUN,
		  PC_KE_kmalloc_kfree_const, 0xffffffffu, 0, 0, 1, 0 },
		/* the 2007 pattern: BATCH only, its count and size in range */
		{ "a RUN of kmalloc.batch10000", PC_KERNEL_OP_RUN, PC_KE_kmalloc_batch10000, 64,
		  0, 0, 1, 0 },
		{ "a RUN of kfree.batch10000", PC_KERNEL_OP_RUN, PC_KE_kfree_batch10000, 64, 0, 0,
		  1, 0 },
		{ "a BATCH of kmalloc (not the 2007 pattern's)", PC_KERNEL_OP_BATCH,
		  PC_KE_kmalloc, 64, 0, 0, 0, 100 },
		{ "a BATCH of entry 2^32-1", PC_KERNEL_OP_BATCH, 0xffffffffu, 64, 0, 0, 0, 100 },
		{ "a BATCH of 0 kmallocs", PC_KERNEL_OP_BATCH, PC_KE_kmalloc_batch10000, 64, 0,
		  0, 0, 0 },
		{ "a BATCH of 10001 kmallocs", PC_KERNEL_OP_BATCH, PC_KE_kmalloc_batch10000, 64,
		  0, 0, 0, PC_KERNEL_BATCH_MAX + 1 },
		{ "a BATCH of 2^32-1 kmallocs", PC_KERNEL_OP_BATCH, PC_KE_kfree_batch10000, 8, 0,
		  0, 0, 0xffffffffu },
		{ "a BATCH of 0 bytes", PC_KERNEL_OP_BATCH, PC_KE_kmalloc_batch10000, 0, 0, 0, 0,
		  100 },
		{ "a BATCH of 16385 bytes", PC_KERNEL_OP_BATCH, PC_KE_kmalloc_batch10000,
		  PC_KERNEL_MAX_SIZE + 1, 0, 0, 0, 100 },
		{ "a BATCH of 2^32-1 bytes", PC_KERNEL_OP_BATCH, PC_KE_kmalloc_batch10000,
		  0xffffffffu, 0, 0, 0, PC_KERNEL_BATCH_MAX },
		/* the remote pattern: REMOTE only, its size, batches and CPUs
		 * (the CPUs are set below) in range */
		{ "a RUN of kmalloc.remote", PC_KERNEL_OP_RUN, PC_KE_kmalloc_remote, 64, 0, 0,
		  1, 0 },
		{ "a REMOTE of kmalloc (not the remote pattern's)", PC_KERNEL_OP_REMOTE,
		  PC_KE_kmalloc, 64, 0, 0, 0, 1 },
		{ "a REMOTE of 0 batches", PC_KERNEL_OP_REMOTE, PC_KE_kmalloc_remote, 64, 0, 0,
		  0, 0 },
		{ "a REMOTE of 65 batches", PC_KERNEL_OP_REMOTE, PC_KE_kfree_remote, 64, 0, 0,
		  0, PC_KERNEL_REMOTE_MAX + 1 },
		{ "a REMOTE of 2^32-1 batches", PC_KERNEL_OP_REMOTE, PC_KE_kmalloc_remote, 64,
		  0, 0, 0, 0xffffffffu },
		{ "a REMOTE of 0 bytes", PC_KERNEL_OP_REMOTE, PC_KE_kmalloc_remote, 0, 0, 0, 0,
		  1 },
		{ "a REMOTE of 16385 bytes", PC_KERNEL_OP_REMOTE, PC_KE_kmalloc_remote,
		  PC_KERNEL_MAX_SIZE + 1, 0, 0, 0, 1 },
	};
	/* the CPUs of a REMOTE: the same twice, past the kernel's, 2^32-1 */
	static const uint32_t bad_cpus[][2] = { { 0, 0 }, { 0, 4096 }, { 4096, 0 },
						{ 0xffffffffu, 1 }, { 1, 0xffffffffu } };
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct pc_kernel_cmd c;
	size_t i;
	int e;

	for (i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.op = wrong[i].op;
		c.entry = wrong[i].entry;
		c.size = wrong[i].size;
		c.threads = wrong[i].threads;
		c.window_us = wrong[i].window;
		c.iters = wrong[i].iters;
		c.count = wrong[i].count;
		e = kernel_cmd(fd, &c);
		ok(e == EINVAL, "kernel group, %s: EINVAL (%s)",
		   wrong[i].what, strerror(e));
	}
	for (i = 0; i < sizeof(bad_cpus) / sizeof(bad_cpus[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.op = PC_KERNEL_OP_REMOTE;
		c.entry = PC_KE_kmalloc_remote;
		c.size = 64;
		c.count = 1;
		c.cpus[0] = bad_cpus[i][0];
		c.cpus[1] = bad_cpus[i][1];
		e = kernel_cmd(fd, &c);
		ok(e == EINVAL, "kernel group, a REMOTE on CPUs %u and %u: EINVAL (%s)",
		   bad_cpus[i][0], bad_cpus[i][1], strerror(e));
	}
	kernel_remote(fd, cpus);
	/* more threads than the kernel has CPUs */
	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_CONTEND;
	c.threads = cpus > 0 && cpus < 64 ? (uint32_t)cpus + 1 : 64;
	c.window_us = 100;
	e = kernel_cmd(fd, &c);
	ok(e == EINVAL || (e == 0 && c.status == PC_KERNEL_UNSUPPORTED),
	   "kernel group, %u threads on %ld CPUs: refused (%s%s%s)", c.threads, cpus,
	   e ? strerror(e) : "unsupported: ", e ? "" : c.reason, "");
	kernel_batch(fd);
	kernel_window(fd);
	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_SELFCHECK;
	c.entry = PC_KE_this_cpu_cmpxchg_double;
	e = kernel_cmd(fd, &c);
	ok(e == 0 && (c.status == PC_KERNEL_OK ||
	   c.status == PC_KERNEL_UNSUPPORTED),
	   "kernel.this_cpu_cmpxchg_double's self-check: runs where the CPU and kernel "
	   "can, else unsupported with the reason (%s)", c.status == PC_KERNEL_OK ? "passed" :
	   c.reason);
}

/* A caller killed in the middle of its runs dies; a second caller at the
 * same time is served in turn. */
static void killed_caller(int fd)
{
	struct pc_ring0_cmd c;
	int p[2], status = 0, e, served = 0, i;
	char b;
	pid_t pid;

	if (pipe(p) < 0 || (pid = fork()) < 0) {
		skip("cannot fork", "a caller killed mid-run dies");
		return;
	}
	if (pid == 0) {	/* the longest runs, forever, a byte after each */
		close(p[0]);
		for (;;) {
			cmd(&c, PC_RING0_OP_RUN, PC_PROBE_local_irq_save_restore_popf,
			    PC_RING0_MAX_OPS / PC_UNROLL_HI);
			if (exec(fd, &c) || write(p[1], "r", 1) != 1)
				_exit(1);
		}
	}
	close(p[1]);
	/* two at once: this caller's commands between the child's */
	for (i = 0; i < 3 && read(p[0], &b, 1) == 1; i++) {
		cmd(&c, PC_RING0_OP_SELFCHECK, PC_PROBE_local_irq_save, 1);
		served += exec(fd, &c) == 0 && c.status == PC_RING0_OK;
	}
	ok(i == 3 && served == 3, "two callers at once: each served in turn (%d of 3 "
	   "commands between the other's runs)", served);
	kill(pid, SIGKILL);
	ok(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGKILL, "a caller killed during its runs dies");
	close(p[0]);
	cmd(&c, PC_RING0_OP_SELFCHECK, PC_PROBE_local_irq_save, 1);
	e = exec(fd, &c);
	ok(e == 0 && c.status == PC_RING0_OK, "... and the module answers the next caller");
}

/* A caller killed in the middle of its largest batches (and, with two
 * CPUs, its remote commands, their threads on two CPUs) dies, and the
 * module answers the next. */
static void killed_in_batch(int fd)
{
	struct pc_kernel_cmd c;
	int p[2], status = 0, e;
	char b;
	pid_t pid;

	if (pipe(p) < 0 || (pid = fork()) < 0) {
		skip("cannot fork", "a caller killed in its batches dies");
		return;
	}
	if (pid == 0) {	/* the largest batches, forever, a byte after each */
		close(p[0]);
		for (;;) {
			memset(&c, 0, sizeof(c));
			c.op = PC_KERNEL_OP_BATCH;
			c.entry = PC_KE_kmalloc_batch10000;
			c.size = 4096;
			c.count = PC_KERNEL_BATCH_MAX;
			if (kernel_cmd(fd, &c) || write(p[1], "b", 1) != 1)
				_exit(1);
			if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
				continue;
			memset(&c, 0, sizeof(c));
			c.op = PC_KERNEL_OP_REMOTE;
			c.entry = PC_KE_kmalloc_remote;
			c.size = 4096;
			c.count = PC_KERNEL_REMOTE_MAX;
			c.cpus[1] = 1;
			if (kernel_cmd(fd, &c) || write(p[1], "r", 1) != 1)
				_exit(1);
		}
	}
	close(p[1]);
	/* a batch and a remote command done, the next under way */
	e = read(p[0], &b, 1) == 1 && read(p[0], &b, 1) == 1;
	kill(pid, SIGKILL);
	ok(e && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGKILL, "a caller killed during its batches of the 2007 "
	   "pattern and its remote commands dies");
	close(p[0]);
	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_SELFCHECK;
	c.entry = PC_KE_kmalloc_batch10000;
	c.size = 64;
	e = kernel_cmd(fd, &c);
	ok(e == 0 && c.status == PC_KERNEL_OK, "... and the module answers the next caller");
}

/* Drops root for good in a child, which runs what(), and reports. */
static int as_nobody(int (*what)(int), int fd)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
		    setresuid(NOBODY, NOBODY, NOBODY) < 0)
			_exit(100);
		_exit(what(fd));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* 0 when opening the device is refused with EPERM. */
static int open_refused(int fd)
{
	int f;

	(void)fd;
	f = open(PC_KMOD_DEVICE, O_RDWR);
	return f < 0 && errno == EPERM ? 0 : f < 0 ? 2 : 1;
}

/* 0 when root's descriptor, inherited, is refused with EPERM. */
static int ioctl_refused(int fd)
{
	struct pc_ring0_cmd c;

	cmd(&c, PC_RING0_OP_SELFCHECK, PC_PROBE_local_irq_save, 1);
	return exec(fd, &c) == EPERM ? 0 : 1;
}

static void unprivileged(int fd)
{
	struct stat st;
	int rc;

	if (stat(PC_KMOD_DEVICE, &st) < 0 || chmod(PC_KMOD_DEVICE, 0666) < 0) {
		skip(strerror(errno), "an unprivileged user is refused");
		return;
	}
	rc = as_nobody(open_refused, fd);
	ok(rc == 0, "the node opened up (0666): an unprivileged user's open is EPERM "
	   "(child exit %d)", rc);
	rc = as_nobody(ioctl_refused, fd);
	ok(rc == 0, "an ioctl on root's descriptor after dropping root: EPERM (child "
	   "exit %d)", rc);
	chmod(PC_KMOD_DEVICE, st.st_mode & 07777);
}

/* The kernel still copies forwards: a pattern written to a file and read
 * back (copy_from_user, copy_to_user: rep movs). */
static void copies_forward(void)
{
	enum { N = 1 << 16 };
	static unsigned char out[N], in[N];
	char path[] = "/tmp/primcost-hostile.XXXXXX";
	int f = mkstemp(path), i;

	for (i = 0; i < N; i++)
		out[i] = (unsigned char)(i * 7 + (i >> 8));
	ok(f >= 0 && write(f, out, N) == N && pread(f, in, N, 0) == N &&
	   memcmp(in, out, N) == 0, "the kernel still copies forwards: 64 KiB written to "
	   "a file and read back the same");
	if (f >= 0) {
		close(f);
		unlink(path);
	}
}

int main(void)
{
	struct pc_ring0_cmd c;
	int fd = open(PC_KMOD_DEVICE, O_RDWR | O_CLOEXEC), e;

	if (fd < 0) {
		skip(strerror(errno), "the module's device opens as root");
		return done_testing();
	}
	wrong_numbers(fd);
	short_buffer(fd);
	rows(fd);
	counts(fd);
	states(fd);
	kernel_group(fd);
	killed_caller(fd);
	killed_in_batch(fd);
	unprivileged(fd);
	copies_forward();
	cmd(&c, PC_RING0_OP_SELFCHECK, PC_PROBE_local_irq_save_restore, 1);
	e = exec(fd, &c);
	ok(e == 0 && c.status == PC_RING0_OK && !(c.kernel_flags & FLAGS_HOSTILE),
	   "after all of it the module still runs a self-check, RFLAGS clean");
	close(fd);
	return done_testing();
}
#else
TAP_SKIP_MAIN("the kernel module is x86-64 only", "the kernel module against a hostile caller")
#endif
