#!/bin/sh
# SPDX-License-Identifier: MIT
# kmod-tree.sh SRCDIR DEST - copies what the kernel module's kbuild needs
# (runner/kmod and everything it includes) into DEST, writable:
# kbuild writes next to its sources. The module then builds with
#   make -C DEST/runner/kmod KDIR=/path/to/kernel/build
# Keep in step with nobase_dist_kmodsrc_DATA in Makefile.am (the DKMS tree).
set -eu
src=$1
dest=$2
mkdir -p "$dest/arch/x86_64" "$dest/probes" "$dest/engine" "$dest/runner"
cp -R "$src/arch/x86" "$dest/arch/"
cp "$src/arch/arch.h" "$src/arch/checks.h" "$src/arch/loop.h" "$dest/arch/"
cp -R "$src/runner/ring0" "$src/runner/kmod" "$dest/runner/"
cp "$src/arch/x86_64/timer.h" "$dest/arch/x86_64/"
mkdir -p "$dest/arch/i386"
cp "$src/arch/i386/cmpxchg64.h" "$dest/arch/i386/"
cp "$src/probes/probes.h" "$src/probes/probes.def" "$dest/probes/"
cp "$src/engine/engine.h" "$src/engine/method.h" "$src/engine/selfcheck.c" \
	"$dest/engine/"
chmod -R u+w "$dest"
