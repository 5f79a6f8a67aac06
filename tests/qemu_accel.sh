#!/bin/sh
# SPDX-License-Identifier: MIT
# How scripts/qemu-kernel.sh chooses qemu's accelerator
# (scripts/qemu-accel.sh), on every machine, through its seams: a stand-in
# qemu-system-x86_64 and a stand-in /dev/kvm. No /dev/kvm: TCG. A /dev/kvm
# whose KVM aborts qemu as a software hypervisor does (exit 134, "failed
# to set MSR 0x10a"): TCG, with qemu's own words. A KVM under which the
# probe ends without booting the kernel, or never ends: TCG. A KVM that
# boots the probe kernel to its panic: KVM, the probe asked for -accel kvm.
. "${PC_SRCDIR}/tests/lib.sh"

accel=$PC_SRCDIR/scripts/qemu-accel.sh
fake=$pc_tmp/qemu-system-x86_64
dev=$pc_tmp/kvm
: >"$dev"
: >"$pc_tmp/vmlinuz"

# The stand-in qemu: what $FAKE_QEMU says, its arguments kept.
cat >"$fake" <<'EOF'
#!/bin/sh
echo "$*" >"$FAKE_QEMU_ARGS"
case $FAKE_QEMU in
pvm)	echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
	echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3043: kvm_buf_set_msrs: Assertion \`ret == cpu->kvm_msr_buf->nmsrs' failed." >&2
	exit 134 ;;
silent)	exit 0 ;;
hang)	exec sleep 1000 ;;
works)	echo "[    0.91] Kernel panic - not syncing: VFS: Unable to mount root fs"
	exit 0 ;;
esac
EOF
chmod +x "$fake"

probe() {	# probe KIND DEVICE: the accelerator in $pc_tmp/out, why in err
	FAKE_QEMU=$1 FAKE_QEMU_ARGS=$pc_tmp/args PC_QEMU_SYSTEM=$fake PC_QEMU_KVM_DEV=$2 \
		PC_QEMU_PROBE_S=2 "$accel" "$pc_tmp/vmlinuz" >"$pc_tmp/out" 2>"$pc_tmp/err"
	pc_rc=$?
	diag "$1: $(cat "$pc_tmp/out") ($(cat "$pc_tmp/err"))"
}

rm -f "$pc_tmp/args"
probe works "$pc_tmp/no-such-kvm"
ok $(test $pc_rc -eq 0 && test "$(cat "$pc_tmp/out")" = tcg && grep -q 'tcg: no .*no-such-kvm' "$pc_tmp/err" &&
     test ! -e "$pc_tmp/args"; echo $?) "no /dev/kvm: TCG, saying so, and qemu is not tried"

probe pvm "$dev"
ok $(test $pc_rc -eq 0 && test "$(cat "$pc_tmp/out")" = tcg &&
     grep -q 'tcg: KVM does not work here: qemu -accel kvm exited 134: .*kvm_buf_set_msrs' "$pc_tmp/err"
     echo $?) "a /dev/kvm whose KVM aborts qemu (a software hypervisor's MSRs): TCG, with qemu's words"
ok $(grep -q -- '-accel kvm' "$pc_tmp/args" && grep -q -- "-kernel $pc_tmp/vmlinuz" "$pc_tmp/args"
     echo $?) "... after a probe that asked for -accel kvm and the kernel"

probe silent "$dev"
ok $(test "$(cat "$pc_tmp/out")" = tcg && grep -q 'ended without booting the kernel' "$pc_tmp/err"
     echo $?) "a probe that ends without booting the kernel: TCG"

probe hang "$dev"
ok $(test "$(cat "$pc_tmp/out")" = tcg && grep -q 'did not boot the kernel within 2 s' "$pc_tmp/err"
     echo $?) "a probe that never ends: TCG after its time limit"

probe works "$dev"
ok $(test $pc_rc -eq 0 && test "$(cat "$pc_tmp/out")" = kvm && grep -q 'kvm: .* works' "$pc_tmp/err"
     echo $?) "a KVM that boots the probe kernel to its panic: KVM"

# The real machine: what the script chooses here, with the real qemu.
if command -v qemu-system-x86_64 >/dev/null 2>&1 && [ "$(uname -m)" = x86_64 ]; then
	k=$(ls /var/cache/primcost/qemu-kernel/*/boot/vmlinuz-* 2>/dev/null | tail -1)
	if [ -n "$k" ]; then
		"$accel" "$k" >"$pc_tmp/out" 2>"$pc_tmp/err"
		ok $(grep -qx 'kvm\|tcg' "$pc_tmp/out"; echo $?) \
			"this machine: $(cat "$pc_tmp/out") ($(cat "$pc_tmp/err"))"
	else
		skip "no kernel image unpacked in /var/cache/primcost/qemu-kernel" \
			"this machine's accelerator, with the real qemu"
	fi
else
	skip "no qemu-system-x86_64 here" "this machine's accelerator, with the real qemu"
fi
done_testing
