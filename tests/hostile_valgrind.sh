#!/bin/sh
# SPDX-License-Identifier: MIT
# The hostile corpus under valgrind: refusing a file must not read
# uninitialised or freed memory, nor leak. Skipped, with the reason, where
# valgrind is absent or the build already uses the sanitizers.
. "${PC_SRCDIR}/tests/lib.sh"

corpus="$PC_SRCDIR/tests/hostile"
if ! valgrind_usable "$PC_BUILDDIR/primcost"; then
	skip "$vg_why" "hostile corpus under valgrind"
	done_testing
	exit
fi
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
good="$pc_tmp/good.json"
"$PYTHON3" "$corpus/make-corpus.py" --good "$good"

# A clean run first: valgrind itself works and the happy path is clean.
$vg $PRIMCOST compare --format json "$good" "$good" >/dev/null 2>"$pc_tmp/err"
ok $? "valgrind: compare of two valid files is clean"
$vg $PRIMCOST merge -q -o "$pc_tmp/m.json" "$good" "$good" >/dev/null 2>"$pc_tmp/err"
ok $? "valgrind: merge of two valid files is clean"

for f in "$corpus"/*; do
	case $f in *.py) continue ;; esac
	name=$(basename "$f")
	timeout 120 $vg $PRIMCOST compare "$good" "$f" >/dev/null 2>"$pc_tmp/err"
	rc=$?
	ok $(test $rc -eq 2; echo $?) "valgrind: compare refuses $name cleanly (exit $rc)"
	timeout 120 $vg $PRIMCOST merge -o "$pc_tmp/m2.json" "$good" "$f" >/dev/null 2>"$pc_tmp/err"
	rc=$?
	ok $(test $rc -eq 2; echo $?) "valgrind: merge refuses $name cleanly (exit $rc)"
done
done_testing
