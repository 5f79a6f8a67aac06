#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots Debian's own kernel (linux-image-amd64, unpacked with dpkg-deb, not
# installed) under qemu-system-x86_64 with a small initramfs: busybox,
# primcost, tests/ring0_kmod and tests/ring0_guest with their shared
# libraries, and the kernel module built with kbuild against that kernel's
# headers. In the guest, over the serial console (ttyS0): insmod
# (test_entries=1), primcost info, primcost run --ring0 kmod (ring 0 refused:
# emulated), the same run with the test-only switch
# PRIMCOST_TEST_ACCEPT_EMULATED_RING0=1 (rows written), the kernel group
# (primcost run --kernel: the kernel's own primitives, the contended spin
# lock on the two vCPUs of -smp 2), tests/ring0_kmod
# (self-checks, a fault caught in ring 0), tests/kmod_hostile (the module
# against a hostile caller), rmmod, dmesg; then KVM's own
# modules from the same package and, where /dev/kvm appears (nested SVM in
# TCG), the micro-guest in it (its interrupt rows with the test-only switch,
# tests/ring0_guest); and power off. The host side cuts the log
# into its sections, merges the accepted rows and compares them with the
# Pentium 4 and Athlon 64 tables.
#
# usage: scripts/qemu-kernel.sh [--install] [-o DIR] [--cpu FEATURES]
#                               [--steps hostile]    (from a built tree)
#   --install  apt-get what is missing (as root): qemu-system-x86,
#              busybox-static, cpio, linux-headers-amd64; the kernel image is
#              downloaded (apt-get download) into the cache, never installed
#   -o DIR     where the serial log and the sections go (default: a new
#              temporary directory)
#   --cpu FEATURES  added to qemu's CPU model, e.g. -cx16: a CPU without
#              cmpxchg16b
#   --steps hostile  in the guest only the module against a hostile caller
#              (insmod, tests/kmod_hostile, rmmod, dmesg), not the whole run
# Environment: PC_QEMU_CACHE (downloads and unpacked kernels; default
# /var/cache/primcost/qemu-kernel), PC_QEMU_TIMEOUT (seconds for the whole
# boot, default 900), PC_QEMU_ACCEL (tcg or kvm; default: kvm where a short
# probe boots the kernel under it, else tcg: scripts/qemu-accel.sh, which
# says why), PC_BUILDDIR and PC_SRCDIR (default: this tree),
# PC_QEMU_KDIR (another kernel's build tree, such as a backports kernel's
# headers unpacked by hand: a directory named linux-headers-RELEASE, whose
# image linux-image-RELEASE_*.deb must then be in the cache).
# Exit: 0 the guest ran to its end, 1 it did not, 77 it cannot run here (why
# on stderr).
set -u
srcdir=${PC_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${PC_BUILDDIR:-$srcdir}
cache=${PC_QEMU_CACHE:-/var/cache/primcost/qemu-kernel}
limit=${PC_QEMU_TIMEOUT:-900}
install=0
out=
features=
steps=all
usage="usage: $0 [--install] [-o DIR] [--cpu FEATURES] [--steps hostile]"
while [ $# -gt 0 ]; do
	case $1 in
	--install) install=1 ;;
	-o) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; out=$2; shift ;;
	--cpu) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; features=,${2#,}; shift ;;
	--steps) [ "${2:-}" = hostile ] || { echo "$usage" >&2; exit 2; }; steps=$2; shift ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	shift
done
cannot() { echo "qemu-kernel: cannot run here: $*" >&2; exit 77; }
say() { echo "qemu-kernel: $*" >&2; }

[ "$(uname -m)" = x86_64 ] || cannot "the kernel module is x86-64 only"
[ -x "$builddir/primcost" ] || cannot "no $builddir/primcost (build first)"

# ---- packages ----------------------------------------------------------------
need=
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"
[ -x /bin/busybox ] && /bin/busybox --list 2>/dev/null | grep -qx insmod ||
	need="$need busybox-static"
command -v cpio >/dev/null 2>&1 || need="$need cpio"
ls -d /usr/src/linux-headers-*-amd64 >/dev/null 2>&1 || need="$need linux-headers-amd64"
if [ -n "$need" ]; then
	[ $install -eq 1 ] || cannot "missing:$need (--install installs them)"
	[ "$(id -u)" -eq 0 ] || cannot "missing:$need, and installing needs root"
	command -v apt-get >/dev/null 2>&1 || cannot "missing:$need, and no apt-get"
	say "installing$need"
	# shellcheck disable=SC2086
	env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 \
		install -y -qq --no-install-recommends $need >&2 ||
		cannot "apt-get install$need failed"
fi
# The kernel: the release linux-headers-amd64 points at (kbuild needs the
# headers of exactly that release), else the newest headers present.
if [ -n "${PC_QEMU_KDIR:-}" ]; then
	kdir=${PC_QEMU_KDIR%/}
	kver=${kdir##*/linux-headers-}
	[ "$kver" != "$kdir" ] || cannot "PC_QEMU_KDIR: $kdir is not named linux-headers-RELEASE"
else
	kver=$(dpkg-query -W -f '${Depends}' linux-headers-amd64 2>/dev/null |
		sed -n 's/.*linux-headers-\([^ ,]*-amd64\).*/\1/p')
	[ -n "$kver" ] || kver=$(ls -d /usr/src/linux-headers-*-amd64 |
		sed 's|.*/linux-headers-||' | sort -V | tail -1)
	kdir=/usr/src/linux-headers-$kver
fi
[ -f "$kdir/Makefile" ] || cannot "no headers in $kdir"
mkdir -p "$cache" 2>/dev/null || cannot "cannot create the cache $cache"
root=$cache/$kver
if [ ! -f "$root/boot/vmlinuz-$kver" ]; then
	deb=$(ls "$cache"/linux-image-"$kver"_*.deb 2>/dev/null | tail -1)
	if [ -z "$deb" ]; then
		[ $install -eq 1 ] || cannot "linux-image-$kver is not in $cache (--install downloads it)"
		say "downloading linux-image-$kver into $cache"
		(cd "$cache" && apt-get -o APT::Sandbox::User=root download "linux-image-$kver" >&2) ||
			cannot "apt-get download linux-image-$kver failed"
		deb=$(ls "$cache"/linux-image-"$kver"_*.deb | tail -1)
	fi
	rm -rf "$root" "$root.tmp" && dpkg-deb -x "$deb" "$root.tmp" && mv "$root.tmp" "$root" ||
		cannot "cannot unpack $deb"
fi

# ---- the module and the initramfs ------------------------------------------------
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/qemu-kernel.XXXXXX")
mkdir -p "$out" && work=$(mktemp -d "${TMPDIR:-/tmp}/qemu-kernel-work.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
for t in tests/ring0_kmod tests/ring0_guest tests/kmod_hostile; do
	[ -x "$builddir/$t" ] || (cd "$builddir" && make -s "$t" >&2) ||
		{ say "cannot build $t"; exit 1; }
done
ksrc=$work/src
"$srcdir/scripts/kmod-build.sh" "$srcdir" "$ksrc" "$kdir" "$out/kbuild.log" || {
	tail -20 "$out/kbuild.log" >&2
	say "the module does not build (see $out/kbuild.log)"
	exit 1
}
ird=$work/initramfs
mkdir -p "$ird/bin" "$ird/proc" "$ird/sys" "$ird/dev" "$ird/tmp" "$ird/kvm"
cp /bin/busybox "$ird/bin/busybox"
cp "$ksrc/runner/kmod/primcost_ring0.ko" "$ird/"
bins="$builddir/primcost $builddir/tests/ring0_kmod $builddir/tests/ring0_guest
$builddir/tests/kmod_hostile"
# shellcheck disable=SC2086
cp $bins "$ird/bin/"
# shellcheck disable=SC2086
for lib in $(ldd $bins |
	     awk '/=> \// { print $3 } /^\t\/.* \(0x/ { print $1 }' | sort -u); do
	mkdir -p "$ird$(dirname "$lib")" && cp -L "$lib" "$ird$lib"
done
for m in arch/x86/kvm/kvm.ko arch/x86/kvm/kvm-amd.ko arch/x86/kvm/kvm-intel.ko \
	 virt/lib/irqbypass.ko drivers/crypto/ccp/ccp.ko; do
	f=$(ls "$root/lib/modules/$kver/kernel/$m"* 2>/dev/null | head -1)
	case $f in
	*.xz) xz -dc "$f" >"$ird/kvm/$(basename "$m")" ;;
	*.ko) cp "$f" "$ird/kvm/" ;;
	esac
done
cp "$srcdir/scripts/qemu-kernel-init.sh" "$ird/init" && chmod 755 "$ird/init"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz" ||
	{ say "cannot build the initramfs"; exit 1; }
prep=$(( $(date +%s) - start ))

# ---- the boot ----------------------------------------------------------------------
# KVM where it boots the kernel, not merely where /dev/kvm opens.
accel=${PC_QEMU_ACCEL:-}
if [ -z "$accel" ]; then
	accel=$("$srcdir/scripts/qemu-accel.sh" "$root/boot/vmlinuz-$kver" 2>"$out/accel.why")
	say "$(cat "$out/accel.why")"
fi
cpu=max$features
[ "$accel" = kvm ] && cpu=host$features
# Under TCG one host thread runs both vCPUs in turn: with QEMU 7.2's thread
# per vCPU the guest sometimes froze on the int3 of a jump-label patch as
# KVM in it made its first vCPU (docs/design.md). A spinning vCPU still
# yields at once: pause ends its turn.
opts=
[ "$accel" = tcg ] && opts=,thread=single
say "booting $kver under qemu ($accel$opts, -cpu $cpu); serial log in $out/serial.log"
boot=$(date +%s)
timeout "$limit" qemu-system-x86_64 -accel "$accel$opts" -cpu "$cpu" -smp 2 -m 1024 \
	-nographic -no-reboot -serial stdio -monitor none \
	-kernel "$root/boot/vmlinuz-$kver" -initrd "$work/initramfs.gz" \
	-append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init pc_steps=$steps" \
	</dev/null >"$out/serial.log" 2>"$out/qemu.err"
qrc=$?
tr -d '\r' <"$out/serial.log" >"$out/serial.txt"
now=$(date +%s)
echo "prepare_s=$prep boot_s=$((now - boot)) qemu_rc=$qrc kernel=$kver cpu=$cpu accel=$accel" >"$out/times"

# ---- the log, cut into its sections ("@@ begin NAME" ... "@@ end NAME rc=N") -------
# (The firmware's escape sequences may precede the first marker on its line.)
awk -v dir="$out" '
	/@@ begin / { sub(/.*@@ begin /, ""); file = dir "/" $1 ".out"; printf "" > file; next }
	/^@@ end / { split($4, a, "="); print a[2] > (dir "/" $3 ".rc"); close(file); file = ""; next }
	file != "" { print >> file }
' "$out/serial.txt"
if [ -s "$out/accepted.out" ]; then
	"$builddir/primcost" merge -q -o "$out/merged.json" "$out/accepted.out" 2>"$out/merge.err"
	for ref in intel-pentium4 amd-athlon64-x2-3800; do
		"$builddir/primcost" compare --color never "$ref" "$out/merged.json" \
			>"$out/compare-$ref.txt" 2>&1
	done
fi
if [ -s "$out/kernel-json.out" ]; then
	"$builddir/primcost" compare --by allocator --color never amd-athlon64-x2-3800-kmalloc \
		"$out/kernel-json.out" >"$out/compare-kmalloc.txt" 2>&1
	"$builddir/primcost" compare --color never amd-athlon64-x2-3800 \
		"$out/kernel-json.out" >"$out/compare-kernel-irq.txt" 2>&1
fi
cat "$out/times" >&2
if ! grep -q '^@@ done' "$out/serial.txt"; then
	say "the guest did not reach its end (qemu exit $qrc; see $out/serial.txt)"
	exit 1
fi
say "done in $((now - start)) s; sections in $out"
