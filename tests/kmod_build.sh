#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel module builds with kbuild against installed kernel headers
# (Debian: linux-headers-amd64; KDIR= overrides). A build test only: the
# headers need not match the running kernel, and nothing is loaded.
. "${PC_SRCDIR}/tests/lib.sh"

if [ "${PC_ARCH:-}" != x86_64 ]; then
	skip "the kernel module is x86-64 only" "the kernel module builds"
	done_testing
	exit
fi
kdir=${KDIR:-}
if [ -z "$kdir" ]; then
	for d in /lib/modules/"$(uname -r)"/build /usr/src/linux-headers-*-amd64; do
		[ -f "$d/Makefile" ] && kdir=$d
	done
fi
if [ -z "$kdir" ] || [ ! -f "$kdir/Makefile" ]; then
	skip "no kernel headers (apt-get install linux-headers-amd64)" "the kernel module builds"
	done_testing
	exit
fi

src=$pc_tmp/src
"$PC_SRCDIR/scripts/kmod-build.sh" "$PC_SRCDIR" "$src" "$kdir" "$pc_tmp/build.log" \
	2>"$pc_tmp/again"
rc=$?
[ -s "$pc_tmp/again" ] && diag "$(cat "$pc_tmp/again")"
ko=$src/runner/kmod/primcost_ring0.ko
ok $(test $rc -eq 0 && test -s "$ko"; echo $?) "the kernel module builds against $kdir"
[ $rc -eq 0 ] || sed 's/^/# /' "$pc_tmp/build.log" | tail -30
warnings=$(grep -c 'warning:' "$pc_tmp/build.log")
ok $(test "$warnings" -eq 0; echo $?) "... without compiler warnings ($warnings)"
[ "$warnings" -eq 0 ] || grep 'warning:' "$pc_tmp/build.log" | head -5 | sed 's/^/# /'
if [ -s "$ko" ]; then
	# The probe table and the ioctl made it in; no undefined non-kernel symbol.
	ok $(${NM:-nm} "$ko" | grep -q ' pc_arch_probes$' && ${NM:-nm} "$ko" | grep -q ' pc_ring0_exec$'; echo $?) \
		"... and holds the shared probe table and the ring-0 executor"
	undef=$(${NM:-nm} -u "$ko" | awk '{ print $2 }' | grep '^pc_' || true)
	ok $(test -z "$undef"; echo $?) "... with no unresolved primcost symbol${undef:+ ($undef)}"
fi
if [ -e /proc/modules ]; then
	diag "this kernel loads modules: primcost run --ring0 kmod --ring0-module $ko (as root) would use it"
else
	diag "this kernel has no module support: the module is build-tested only"
fi
done_testing
