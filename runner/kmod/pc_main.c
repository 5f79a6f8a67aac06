// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * primcost_ring0 - primcost's probe code in kernel context.
 *
 * A misc character device, /dev/primcost_ring0, with two ioctls:
 * PC_KMOD_IOC_EXEC executes a struct pc_ring0_cmd (runner/ring0/abi.h)
 * through pc_ring0_exec(), the same freestanding code the KVM micro-guest
 * runs, on the calling CPU (primcost pins itself first);
 * PC_KMOD_IOC_KERNEL times the running kernel's own primitives
 * (pc_kernel.c, pc_kernel.h) for the kernel group.
 *
 * The device is a privileged interface, and every field a caller sends is
 * hostile until checked:
 * - opening it and each ioctl need CAP_SYS_RAWIO, as the kernel's MSR
 *   driver asks: the node's mode is not the only gate;
 * - one ioctl at a time, the others waiting killably;
 * - the exec ioctl runs only the ring-0 rows and the two rows the
 *   validation gate times (pc_ring0_kernel_row()), each only where the CPU
 *   has what its body needs (the row's unavailable(), asked in ring 0);
 *   any other row, op or count is -EINVAL;
 * - a row's state is made by the row's own init in ring 0, never taken from
 *   the caller: nothing a caller sends reaches a register (the popf rows
 *   would load it into RFLAGS: DF, TF, AC, NT, IOPL);
 * - the full RFLAGS are saved before the probe code and put back after
 *   it, before anything else of the kernel's runs;
 * - a timed loop runs in windows of at most PC_RING0_WINDOW_ITERS
 *   iterations, preemption off within one, RFLAGS put back and a fatal
 *   signal heeded between two: interrupts are never off for longer than one
 *   window, and a long run ends when its caller is killed.
 *
 * Lockdep: the probe code turns interrupts off and on with raw cli, sti and
 * popf, as arch_local_irq_*() do. A window starts with the raw cli, which
 * lockdep does not see, so its view stays "interrupts on": true whenever
 * an interrupt can actually arrive (a timed loop runs with IF set, and the
 * probes' cli only keeps them out). It ends with RFLAGS put back with IF
 * still clear, then local_irq_enable(), which tells lockdep: its view is
 * right again even where a trap inside (the test entry's ud2, taken with
 * interrupts off) changed it.
 *
 * Test only: loaded with test_entries=1, the module also accepts entry
 * PC_KMOD_TEST_FAULT, a ud2 in ring 0 that the kernel's exception table
 * catches (see pc_test_fault). Without it, such entries are refused.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <asm/asm.h>
#include <asm/irqflags.h>
#include <asm/processor-flags.h>
#include <xen/xen.h>

#include "runner/ring0/abi.h"
#include "pc_kmod.h"
#include "pc_kernel.h"
#include "pc_kernel_mod.h"

/* kthread_complete_and_exit() (the kernel group's threads) is 5.17's. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 17, 0)
#error "primcost_ring0 needs Linux 5.17 or later"
#endif

static bool test_entries;
module_param(test_entries, bool, 0444);
MODULE_PARM_DESC(test_entries, "test only: accept the entry that faults in ring 0");

/* One ioctl at a time, whichever. */
static DEFINE_MUTEX(pc_ioctl_mutex);

/*
 * The test entry executes ud2, as the micro-guest's does, but under an
 * exception-table fixup: the kernel's #UD handler finds the entry, puts the
 * vector in %eax and resumes after the ud2, and the command reports a
 * failed self-check or run. It proves the way from a ring-0 fault to a
 * failed row; a fault in a probe body has no fixup and is a kernel oops.
 */
static void pc_test_fault(struct pc_ring0_cmd *c)
{
	int vector = -1;

	asm volatile("1: ud2\n"
		     "2:\n"
		     _ASM_EXTABLE_FAULT(1b, 2b)
		     : "+a" (vector) : : "memory");
	c->status = PC_RING0_CHECK_FAILED;
	c->ops = 0;
	snprintf(c->reason, sizeof(c->reason), "trap: vector %d in ring 0 (ud2 of "
		 "the test entry, caught by the module's exception table)", vector);
}

/* RFLAGS as pushf left them: DF, AC, TF, NT and IOPL too. */
static void pc_flags_put_back(unsigned long flags)
{
	asm volatile("push %0\n\tpopf" : : "g" (flags) : "memory", "cc");
}

/*
 * One window: c executed with preemption off and interrupts off around it
 * (the probe code turns them on and off inside), RFLAGS then put back as
 * they were, IF last and through lockdep, and kept in c->kernel_flags.
 * Returns the window's length in ns.
 */
static u64 pc_window(struct pc_ring0_cmd *c)
{
	unsigned long flags;
	u64 t0, t1;

	preempt_disable();
	flags = native_save_fl();
	raw_local_irq_disable();
	t0 = ktime_get_mono_fast_ns();
	if (c->probe == PC_KMOD_TEST_FAULT)
		pc_test_fault(c);
	else
		pc_ring0_exec(c, NULL, 0);
	t1 = ktime_get_mono_fast_ns();
	pc_flags_put_back(flags & ~X86_EFLAGS_IF);
	if (flags & X86_EFLAGS_IF)
		local_irq_enable();
	c->kernel_flags = native_save_fl();
	preempt_enable();
	return t1 - t0;
}

/* What the exec ioctl takes; anything else is the caller's error. */
static int pc_exec_valid(const struct pc_ring0_cmd *c)
{
	if (c->op != PC_RING0_OP_INIT && c->op != PC_RING0_OP_RUN &&
	    c->op != PC_RING0_OP_SELFCHECK)
		return 0;
	if (c->probe == PC_KMOD_TEST_FAULT)
		return test_entries;
	if (!pc_ring0_kernel_row(c->probe))
		return 0;
	return c->op != PC_RING0_OP_RUN ||
	       (c->iters >= 1 && c->iters <= PC_RING0_MAX_OPS / PC_UNROLL_HI);
}

/*
 * A timed loop: the row's state made by its init, then its iterations in
 * windows. The ticks of the windows add up; what each window adds (the
 * timer reads, entering the loop) is the same for the hi and the lo loop
 * of one sample, which have as many windows, and cancels.
 */
static long pc_exec_run(struct pc_ring0_cmd *c)
{
	uint64_t iters = c->iters, left = iters, ticks = 0;
	u64 ns, longest;
	uint32_t windows = 0;

	c->op = PC_RING0_OP_INIT;
	longest = pc_window(c);
	while (c->status == PC_RING0_OK && left) {
		c->op = PC_RING0_OP_RUN;
		c->iters = min_t(uint64_t, left, PC_RING0_WINDOW_ITERS);
		ns = pc_window(c);
		longest = max(longest, ns);
		ticks += c->ticks;
		left -= c->iters;
		windows++;
		if (!left)
			break;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	c->op = PC_RING0_OP_RUN;
	c->iters = iters;
	c->ticks = c->status == PC_RING0_OK ? ticks : 0;
	c->windows = windows;
	c->longest_window_ns = longest;
	return 0;
}

static long pc_exec_ioctl(void __user *arg)
{
	struct pc_ring0_cmd *c = kmalloc(sizeof(*c), GFP_KERNEL);
	long rc = 0;

	if (!c)
		return -ENOMEM;
	if (copy_from_user(c, arg, sizeof(*c))) {
		rc = -EFAULT;
		goto out;
	}
	if (!pc_exec_valid(c)) {
		rc = -EINVAL;
		goto out;
	}
	c->windows = 0;
	if (c->op == PC_RING0_OP_RUN) {
		rc = pc_exec_run(c);
	} else {
		c->longest_window_ns = pc_window(c);
		c->windows = 1;
	}
	if (!rc && copy_to_user(arg, c, sizeof(*c)))
		rc = -EFAULT;
out:
	kfree(c);
	return rc;
}

/* The kernel's own primitives (pc_kernel.c): one command. */
static long pc_kernel_ioctl(void __user *arg)
{
	struct pc_kernel_cmd *c = kmalloc(sizeof(*c), GFP_KERNEL);
	long rc;

	if (!c)
		return -ENOMEM;
	if (copy_from_user(c, arg, sizeof(*c)))
		rc = -EFAULT;
	else
		rc = pc_kernel_exec(c);
	if (!rc && copy_to_user(arg, c, sizeof(*c)))
		rc = -EFAULT;
	kfree(c);
	return rc;
}

static int pc_ring0_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	return nonseekable_open(inode, file);
}

static long pc_ring0_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long rc;

	/* The file may have been opened by another, or passed on. */
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	if (cmd != PC_KMOD_IOC_EXEC && cmd != PC_KMOD_IOC_KERNEL)
		return -ENOTTY;
	if (mutex_lock_killable(&pc_ioctl_mutex))
		return -EINTR;
	if (cmd == PC_KMOD_IOC_EXEC)
		rc = pc_exec_ioctl((void __user *)arg);
	else
		rc = pc_kernel_ioctl((void __user *)arg);
	mutex_unlock(&pc_ioctl_mutex);
	return rc;
}

static const struct file_operations pc_ring0_fops = {
	.owner = THIS_MODULE,
	.open = pc_ring0_open,
	.unlocked_ioctl = pc_ring0_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice pc_ring0_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = PC_KMOD_NAME,
	.fops = &pc_ring0_fops,
	.mode = 0600,
};

static int __init pc_ring0_init(void)
{
	int rc;

	/* A Xen PV guest's kernel runs outside ring 0: cli, sti and popf
	 * are not what they are on hardware, and the first would fault. */
	if (xen_pv_domain()) {
		pr_info("primcost_ring0: not loaded: a Xen PV guest's kernel does not "
			"run in ring 0\n");
		return -ENODEV;
	}
	rc = pc_kernel_init();
	if (rc)
		return rc;
	rc = misc_register(&pc_ring0_dev);
	if (rc)
		pc_kernel_exit();
	return rc;
}

static void __exit pc_ring0_exit(void)
{
	misc_deregister(&pc_ring0_dev);
	pc_kernel_exit();
}

module_init(pc_ring0_init);
module_exit(pc_ring0_exit);
MODULE_DESCRIPTION("primcost: probe code in ring 0 (cli, sti, pushf/popf timings) and the kernel's own primitives");
MODULE_LICENSE("Dual MIT/GPL");
