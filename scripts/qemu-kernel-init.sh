#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of scripts/qemu-kernel.sh's initramfs: each step's output between
# "@@ begin NAME" and "@@ end NAME rc=N" on the serial console, "@@ done"
# at the end, then power off. pc_steps=hostile on the kernel's command line:
# only the module against a hostile caller, and the kernel's log after.
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
probes='local_irq_*,cmpxchg*,calib.*'

# Output through a file: no progress line (stderr is no terminal then), and
# no console message of the kernel's in the middle of it.
step() {	# step NAME LIMIT-S COMMAND...
	name=$1 limit=$2
	shift 2
	# Where the guest was, should it stop (the output comes at the end).
	echo "@@ start $name at $(cut -d' ' -f1 /proc/uptime) s"
	timeout "$limit" "$@" >/tmp/step.out 2>&1
	rc=$?
	echo "@@ begin $name"
	cat /tmp/step.out
	echo "@@ end $name rc=$rc"
}

# After the module is unloaded: it is gone, the kernel's taint and log.
unloaded() {
	step rmmod 30 rmmod primcost_ring0
	step after 5 sh -c 'ls /dev/primcost_ring0 2>&1; grep -c primcost_ring0 /proc/modules;
		echo "tainted $(cat /proc/sys/kernel/tainted)"'
	step dmesg 5 dmesg
}

step kernel 5 sh -c 'uname -r; echo "tainted $(cat /proc/sys/kernel/tainted)";
	grep -m1 "^flags" /proc/cpuinfo'
step insmod 30 insmod /primcost_ring0.ko test_entries=1
step device 5 sh -c 'ls -l /dev/primcost_ring0; grep primcost_ring0 /proc/modules;
	echo "tainted $(cat /proc/sys/kernel/tainted)"'
if grep -q 'pc_steps=hostile' /proc/cmdline; then
	step hostile 300 kmod_hostile
	unloaded
	echo "@@ done"
	poweroff -f
fi
step info 60 primcost info
# Refused: ring 0 is emulated (TCG), whatever the gate measures.
step run 600 primcost run --ring0 kmod -p "$probes" -o -
# Accepted for the test only: the rows are written.
step run-accepted 600 env PRIMCOST_TEST_ACCEPT_EMULATED_RING0=1 \
	primcost run --ring0 kmod -p "$probes" -o /tmp/accepted.json
step accepted 5 cat /tmp/accepted.json
# The kernel group: the running kernel's own primitives, in the module.
step kernel-run 900 primcost run --kernel -o /tmp/kernel.json
step kernel-json 5 cat /tmp/kernel.json
step ring0_kmod 300 ring0_kmod
step hostile 300 kmod_hostile
unloaded
# Nested: KVM's own modules from the same package; a /dev/kvm inside?
step kvm 60 sh -c 'grep -o -w -m1 -e svm -e vmx /proc/cpuinfo || echo "no svm or vmx flag";
	insmod /kvm/irqbypass.ko; insmod /kvm/kvm.ko && insmod /kvm/ccp.ko &&
	{ insmod /kvm/kvm-amd.ko || insmod /kvm/kvm-intel.ko; }; ls -l /dev/kvm'
if [ -e /dev/kvm ]; then
	step kvm-run 300 primcost run --ring0 kvm -p 'local_irq_save,cmpxchg' -o -
	# The micro-guest's interrupt rows, accepted for testing only.
	step kvm-accepted 300 env PRIMCOST_TEST_ACCEPT_EMULATED_RING0=1 \
		primcost run --ring0 kvm -p 'local_irq_*,calib.add_chain' -o /tmp/kvm.json
	step kvm-rows 5 cat /tmp/kvm.json
	step kvm-guest 300 ring0_guest
	step kvm-dmesg 5 sh -c 'dmesg | grep -i -e kvm -e svm -e vmx'
fi
echo "@@ done"
poweroff -f
