#!/bin/sh
# SPDX-License-Identifier: MIT
# qemu-accel.sh KERNEL - the accelerator qemu-system-x86_64 boots KERNEL
# with here: "kvm" or "tcg" on standard output, why on standard error.
#
# A /dev/kvm that exists, and opens, need not work: under a software
# hypervisor (kvm_pvm) qemu aborts as it sets the vCPU's MSRs ("failed to
# set MSR 0x10a", exit 134). So KVM is tried with a short probe first: the
# kernel, with no root file system and panic=-1, must boot under -accel kvm
# far enough to panic (it then powers off: -no-reboot) within
# PC_QEMU_PROBE_S seconds (default 60). Anything else is TCG, and why.
#
# Seams, for tests/qemu_accel.sh: PC_QEMU_SYSTEM names the qemu binary
# (default qemu-system-x86_64), PC_QEMU_KVM_DEV the device that must be
# there (default /dev/kvm, the one qemu opens).
set -u
[ $# -eq 1 ] || { echo "usage: $0 KERNEL" >&2; exit 2; }
kernel=$1
qemu=${PC_QEMU_SYSTEM:-qemu-system-x86_64}
dev=${PC_QEMU_KVM_DEV:-/dev/kvm}
limit=${PC_QEMU_PROBE_S:-60}
tcg() { echo "qemu-accel: tcg: $*" >&2; echo tcg; exit 0; }

[ -e "$dev" ] || tcg "no $dev"
[ -r "$dev" ] && [ -w "$dev" ] || tcg "$dev is not readable and writable here"
log=$(mktemp "${TMPDIR:-/tmp}/qemu-accel.XXXXXX") || tcg "cannot make a temporary file"
trap 'rm -f "$log" "$log.err"' EXIT
timeout "$limit" "$qemu" -accel kvm -cpu host -smp 1 -m 256 -nographic -no-reboot \
	-serial stdio -monitor none -kernel "$kernel" \
	-append "console=ttyS0 panic=-1 loglevel=1" </dev/null >"$log" 2>"$log.err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'Kernel panic' "$log"; then
	echo "qemu-accel: kvm: $dev works (the probe booted the kernel to its panic)" >&2
	echo kvm
	exit 0
fi
# The last line qemu printed: its own reason (an assertion, an MSR).
last=$(tr -cd '\11\12\40-\176' <"$log.err" | grep -v '^$' | tail -1 | cut -c1-200)
case $rc in
0) tcg "KVM does not work here: the probe under -accel kvm ended without booting the kernel${last:+ ($last)}" ;;
124) tcg "KVM does not work here: the probe under -accel kvm did not boot the kernel within $limit s" ;;
*) tcg "KVM does not work here: qemu -accel kvm exited $rc${last:+: $last}" ;;
esac
