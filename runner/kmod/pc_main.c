// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * primcost_ring0 - primcost's probe code in kernel context.
 *
 * A misc character device, /dev/primcost_ring0, with one ioctl that
 * executes a struct pc_ring0_cmd (runner/ring0/abi.h) through
 * pc_ring0_exec(), the same freestanding code the KVM micro-guest runs, on
 * the calling CPU: primcost pins itself first, and preemption stays off for
 * the whole command so that it cannot migrate or be preempted mid-loop.
 * Interrupts are saved and restored around it: the probes turn them off and
 * on (cli, sti, popf), and each loop is bounded (PC_RING0_MAX_OPS) so that
 * no command holds the CPU with interrupts off for more than milliseconds.
 * The probes execute raw cli/sti/popf, as arch_local_irq_*() do, so the
 * irq-flags tracing of a lockdep kernel does not see the changes between
 * the save and the restore below.
 *
 * A second ioctl, PC_KMOD_IOC_KERNEL, times the running kernel's own
 * primitives (pc_kernel.c, pc_kernel.h) for the kernel group.
 *
 * Test only: loaded with test_entries=1, the module also accepts entry
 * PC_KMOD_TEST_FAULT, a ud2 in ring 0 that the kernel's exception table
 * catches (see pc_test_fault). Without it, such entries are refused.
 */
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/asm.h>

#include "runner/ring0/abi.h"
#include "pc_kmod.h"
#include "pc_kernel.h"
#include "pc_kernel_mod.h"

static bool test_entries;
module_param(test_entries, bool, 0444);
MODULE_PARM_DESC(test_entries, "test only: accept the entry that faults in ring 0");

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

/* The kernel's own primitives (pc_kernel.c): one command. */
static long pc_kernel_ioctl(unsigned long arg)
{
	struct pc_kernel_cmd *c = kmalloc(sizeof(*c), GFP_KERNEL);
	long rc = 0;

	if (!c)
		return -ENOMEM;
	if (copy_from_user(c, (void __user *)arg, sizeof(*c)))
		rc = -EFAULT;
	else
		pc_kernel_exec(c);
	if (!rc && copy_to_user((void __user *)arg, c, sizeof(*c)))
		rc = -EFAULT;
	kfree(c);
	return rc;
}

static long pc_ring0_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pc_ring0_cmd *c;
	unsigned long flags;
	long rc = 0;

	if (cmd == PC_KMOD_IOC_KERNEL)
		return pc_kernel_ioctl(arg);
	if (cmd != PC_KMOD_IOC_EXEC)
		return -ENOTTY;
	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	if (copy_from_user(c, (void __user *)arg, sizeof(*c))) {
		rc = -EFAULT;
		goto out;
	}
	/* Probe rows only: the guest's test entries (ud2, a spin) are not
	 * for a kernel, but for the one test entry the module catches. */
	if (c->probe >= PC_PROBE_COUNT &&
	    !(test_entries && c->probe == PC_KMOD_TEST_FAULT)) {
		rc = -EINVAL;
		goto out;
	}
	preempt_disable();
	local_irq_save(flags);
	if (c->probe == PC_KMOD_TEST_FAULT)
		pc_test_fault(c);
	else
		pc_ring0_exec(c, NULL, 0);
	local_irq_restore(flags);
	preempt_enable();
	if (copy_to_user((void __user *)arg, c, sizeof(*c)))
		rc = -EFAULT;
out:
	kfree(c);
	return rc;
}

static const struct file_operations pc_ring0_fops = {
	.owner = THIS_MODULE,
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
	int rc = pc_kernel_init();

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
