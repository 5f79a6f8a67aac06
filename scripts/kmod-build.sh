#!/bin/sh
# SPDX-License-Identifier: MIT
# kmod-build.sh SRCDIR DEST KDIR LOG - builds the kernel module of SRCDIR
# in a copy of its tree at DEST (kmod-tree.sh: kbuild writes next to its
# sources) against the kernel build tree KDIR; kbuild's output in LOG.
# The exit status is make's.
#
# One kbuild at a time (a lock): two at once against one kernel tree (make
# -j check runs tests/kmod_build.sh and tests/qemu_kernel.sh side by side)
# were seen to race. kbuild also probes the compiler's options by test
# compiles (-mfentry, the retpoline flags), and on this project's busy
# build machine one of them now and then came out wrong for a whole build:
# "mcount" undefined at modpost, objtool's "indirect call found in
# RETPOLINE build". The cause was not found. A build that fails or warns is
# said on stderr and made once more from clean; LOG holds the last build.
set -u
src=$1
dest=$2
kdir=$3
log=$4
"$src/scripts/kmod-tree.sh" "$src" "$dest" || exit 1
kbuild() {	# A make of its own, not a sub-make of a caller's make.
	flock "${TMPDIR:-/tmp}/primcost-kbuild.lock" \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$dest/runner/kmod" \
		KDIR="$kdir" "$@" >"$log" 2>&1
}
kbuild
rc=$?
if [ $rc -ne 0 ] || grep -q 'warning:' "$log"; then
	echo "kmod-build: the first build (exit $rc) is made again from clean:" \
		"$(grep -E 'warning:|rror|undefined' "$log" | head -2 | tr '\n' ' ')" >&2
	kbuild clean
	kbuild
	rc=$?
fi
exit $rc
