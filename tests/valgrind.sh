#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind memcheck of the commands on the fixtures (tests/fixtures/): no
# invalid access, no use of uninitialised memory, no definite or indirect
# leak, on success and on the error paths.
. "${PC_SRCDIR}/tests/lib.sh"

bin="$PC_BUILDDIR/primcost"
fx="$PC_SRCDIR/tests/fixtures"
if ! valgrind_usable "$bin"; then
	skip "$vg_why" "valgrind memcheck of the commands"
	done_testing
	exit
fi

# vg WANT-EXIT DESCRIPTION ARGS...: memcheck clean and the expected exit.
vg() {
	want=$1
	desc=$2
	shift 2
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --log-file="$pc_tmp/vg" \
		"$bin" "$@" >"$pc_tmp/out" 2>"$pc_tmp/err"
	rc=$?
	ok $(test $rc -eq "$want" && test ! -s "$pc_tmp/vg"; echo $?) \
		"memcheck clean: primcost $desc (exit $rc, want $want)$(test -s "$pc_tmp/vg" && printf ': %s' "$(grep -m3 '==' "$pc_tmp/vg" | tr '\n' ' ')")"
}

cp "$fx/two-cpus.json" "$pc_tmp/two.json"
cp "$fx/invalid-figure.json" "$pc_tmp/invalid.json"
vg 0 "list" list
vg 0 "list -v --format json" list -v --format json
vg 2 "list nosuch* (error)" list 'nosuch*'
vg 0 "info --format json" info --format json
vg 0 "run, merging into a fixture with two CPUs" run -p 'baseline,cmpxchg,local_irq_save' -n 9 -o "$pc_tmp/two.json" -q
vg 0 "run -k -o - -f json" run -p 'calib.add_chain' -n 9 -k -o - -f json
vg 2 "run into a file that fails validation (refused)" run -p baseline -n 9 -o "$pc_tmp/invalid.json" -q
vg 2 "run --samples 3 (usage error)" run --samples 3
vg 2 "run --bogus (usage error)" run --bogus
vg 0 "help run" help run
vg 0 "compare two result files" compare "$fx/result.json" "$pc_tmp/two.json" --format json
vg 0 "compare against a reference table" compare "$fx/result.json" "$PC_SRCDIR/data/reference/intel-itanium2-9050.json"
vg 2 "compare a file that fails validation (refused)" compare "$fx/result.json" "$pc_tmp/invalid.json"
vg 0 "merge two files into a new one" merge "$fx/result.json" "$pc_tmp/two.json" -o "$pc_tmp/merged.json" -q
vg 2 "merge a file that fails validation (refused)" merge "$fx/result.json" "$pc_tmp/invalid.json" -o "$pc_tmp/m2.json" -q
vg 2 "merge without -o (usage error)" merge "$fx/result.json"
ok $(cmp -s "$pc_tmp/invalid.json" "$fx/invalid-figure.json"; echo $?) "the refused file is untouched"
done_testing
