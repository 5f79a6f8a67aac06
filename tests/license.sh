#!/bin/sh
# SPDX-License-Identifier: MIT
# The licence is shipped and every source file says which one applies:
# MIT, and MIT OR GPL-2.0-only (MODULE_LICENSE "Dual MIT/GPL") for the
# kernel module.
. "${PC_SRCDIR}/tests/lib.sh"

cd "$PC_SRCDIR" || exit 2
grep -q '^MIT License' LICENSE 2>/dev/null
ok $? "LICENSE is the MIT licence"

# Source files of every kind that can carry a comment (build outputs of an
# in-tree build are named apart: *.mod.c by kbuild, build-*/ for other
# configurations).
find src arch probes runner tests man bench scripts completion .ci debian contrib \
	\( -name '*.c' -o -name '*.h' -o -name '*.S' -o -name '*.def' \
	-o -name '*.ld' -o -name '*.lds' -o -name '*.sh' -o -name '*.py' \
	-o -name '*.1' -o -name 'Makefile' -o -name 'Kbuild' -o -name '*.yml' \
	-o -name '*.dict' -o -name '*.awk' -o -name '*.in' -o -name 'primcost' -o -name rules \) \
	! -name '*.mod.c' ! -path 'debian/*/*' -type f 2>/dev/null | sort >"$pc_tmp/files"
for f in Makefile.am configure.ac bootstrap; do echo "$f"; done >>"$pc_tmp/files"
n=$(wc -l <"$pc_tmp/files")
missing=
while IFS= read -r f; do
	head -3 "$f" | grep -q 'SPDX-License-Identifier: ' || missing="$missing $f"
done <"$pc_tmp/files"
ok $(test -z "$missing"; echo $?) "all $n source files carry an SPDX line${missing:+ (missing:$missing)}"

bad=
for f in runner/kmod/*.c runner/kmod/*.h runner/kmod/include/*.h \
	runner/kmod/Kbuild runner/kmod/Makefile; do
	head -1 "$f" | grep -q 'SPDX-License-Identifier: MIT OR GPL-2.0-only' || bad="$bad $f"
done
ok $(test -z "$bad"; echo $?) "the kernel module's files are MIT OR GPL-2.0-only${bad:+ (not:$bad)}"
grep -q '^MODULE_LICENSE("Dual MIT/GPL");' runner/kmod/pc_main.c
ok $? "the module declares MODULE_LICENSE(\"Dual MIT/GPL\")"
done_testing
