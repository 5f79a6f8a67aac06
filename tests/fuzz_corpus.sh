#!/bin/sh
# SPDX-License-Identifier: MIT
# Every input of the fuzz corpus (tests/fuzz/TARGET/) through its fuzz
# target, without libFuzzer: no crash, no broken property. bench/fuzz.sh
# runs the same targets under libFuzzer for as long as asked.
. "${PC_SRCDIR}/tests/lib.sh"

for target in reader options; do
	replay="$PC_BUILDDIR/tests/fuzz/replay_$target"
	n=0
	for f in "$PC_SRCDIR/tests/fuzz/$target"/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		${TEST_EMULATOR:+$TEST_EMULATOR} "$replay" "$f" >"$pc_tmp/out" 2>&1
		rc=$?
		why=
		[ $rc -eq 0 ] || why=" (exit $rc: $(head -c 200 "$pc_tmp/out" | tr '\n' ' '))"
		ok $rc "$target: $(basename "$f") replays without a crash or a broken property$why"
	done
	ok $(test $n -gt 0; echo $?) "$target: the corpus has $n inputs"
done
done_testing
