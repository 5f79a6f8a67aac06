#!/bin/sh
# SPDX-License-Identifier: MIT
# Every user-facing error is one line on stderr ("primcost: CMD: ..."),
# names the option or the file at fault, and exits with the code that
# primcost(1) documents; the exit-code table lists every code primcost uses.
. "${PC_SRCDIR}/tests/lib.sh"

# err WANT-EXIT WORD DESCRIPTION ARGS...: one line, naming WORD.
err() {
	want=$1
	word=$2
	desc=$3
	shift 3
	pc "$@"
	ok $(test $pc_rc -eq "$want" && one_line_error && grep -qF -- "$word" "$pc_tmp/err"; echo $?) \
		"$desc: exit $pc_rc, one line naming '$word': $(head -c 200 "$pc_tmp/err" | tr '\n' '|')"
}

err 2 "'nosuch'" "unknown command" nosuch
err 2 "no command" "a command name with a newline" "$(printf 'a\nb')"
err 2 "nosuch" "help of an unknown command" help nosuch
err 2 "version" "version with an argument" version extra
err 2 "--probes" "run --probes without a value" run --probes
err 2 "','" "run --probes of commas only" run --probes ,
err 2 "--samples" "run --samples out of range" run --samples 3
err 2 "--sample-us" "run --sample-us 0" run --sample-us 0
err 2 "--probe-timeout" "run --probe-timeout that is not a number" run --probe-timeout soon
err 2 "--format" "run --format with a newline in it" run --format "$(printf 'a\nb')"
err 2 "--output" "run -o ''" run -o ''
err 2 "'-z'" "run -qz (unknown short option in a cluster)" run -qz
err 2 "--bogus" "run --bogus=1" run --bogus=1
err 2 "'extra'" "run with a stray argument" run extra
err 2 "nodir/x.json" "run -o into a missing directory" run -p baseline -n 9 -o "$pc_tmp/nodir/x.json"
err 2 "--cpu 4095" "run --cpu on a CPU that is not there" run -p baseline -n 9 --cpu 4095 -o "$pc_tmp/c.json"
printf 'not json\n' >"$pc_tmp/bad name.json"
err 2 "bad name.json" "run -o into a file that is not JSON" run -p baseline -n 9 -o "$pc_tmp/bad name.json"
err 2 "--format" "list --format xml" list --format xml
err 2 "'b'" "list with two patterns" list a b
err 2 "nosuch" "list with a pattern that matches nothing" list 'nosuch*'
err 2 "--cpu" "info --cpu that is not a number" info --cpu x
err 2 "--cpu 4095" "info --cpu on a CPU that is not there" info --cpu 4095
err 2 "--format" "info --format xml" info --format xml
err 2 "'bad\\nx'" "info --ring0 with a newline: the value shown escaped" info --ring0 "$(printf 'bad\nx')"
err 2 "--ring0" "info --ring0 with a newline names the option" info --ring0 "$(printf 'bad\nx')"
err 2 "'-Z'" "compare FILE -Zt 3 (unknown short option after a file)" compare a.json -Zt 3
err 2 "'-Z'" "merge -qZ (unknown short option in a cluster)" merge -qZ -o x.json a.json
err 2 "'-Z'" "list -vZ (unknown short option in a cluster)" list -vZ
err 2 "'-Z'" "info -Z" info -Z
err 2 "needs a value" "compare -t without a value" compare a.json -t
err 2 "--cpu" "run --cpu with a tab in it" run --cpu "$(printf '1\t2')"
pc run --cpu "$(printf '1\t2')"
ok $(grep -qF -- "'1\t2'" "$pc_tmp/err"; echo $?) "a tab in a value is shown as \\t"
err 2 "--threshold" "compare --threshold 5x" compare --threshold 5x a.json
err 2 "'-o'" "merge -o without a value" merge a.json -o

# The table of exit codes in primcost(1) and the codes primcost.h defines.
table=$(sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$PC_SRCDIR/man/primcost.1" |
	sed -n '/^\.TS/,/^\.TE/p')
for code in $(sed -n 's/^[[:space:]]*PC_EXIT_[A-Z_]* = \([0-9]*\),.*/\1/p' "$PC_SRCDIR/src/core/primcost.h"); do
	case $code in
	128) rows="129 130 143" ;;	# 128 + the signal number
	*) rows=$code ;;
	esac
	for r in $rows; do
		ok $(printf '%s\n' "$table" | grep -q "^$r	"; echo $?) \
			"exit code $r is in the table of primcost(1)"
	done
done
done_testing
