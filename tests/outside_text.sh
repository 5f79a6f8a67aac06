#!/bin/sh
# SPDX-License-Identifier: MIT
# Strings from outside (file names, JSON strings) reach a terminal or a CSV
# with their C0, C1 and bidirectional controls escaped; colour only on a
# terminal that shows it.
. "${PC_SRCDIR}/tests/lib.sh"

fix="$PC_SRCDIR/tests/fixtures/result.json"
esc=$(printf '\033')
raw() {	# raw FILE: true when FILE holds ESC, a raw C1 CSI or U+202E
	LC_ALL=C grep -q "$esc" "$1" || LC_ALL=C grep -q "$(printf '\302\233')" "$1" ||
		LC_ALL=C grep -q "$(printf '\342\200\256')" "$1"
}

# A file name with ESC in it.
bad="$pc_tmp/a$(printf '\033')[31mred.json"
cp "$fix" "$bad"
pc compare "$bad" "$fix"
ok $(test $pc_rc -le 1 && ! raw "$pc_tmp/out" && grep -qF 'a\x1b[31mred.json' "$pc_tmp/out"; echo $?) \
	"compare's table shows ESC in a file name as \\x1b"
pc compare -f csv "$bad" "$fix"
ok $(test $pc_rc -le 1 && ! raw "$pc_tmp/out" && grep -qF 'a\x1b[31mred.json' "$pc_tmp/out"; echo $?) \
	"compare's CSV shows ESC in a file name as \\x1b"
pc merge -o "$pc_tmp/m$(printf '\033')x.json" "$fix"
ok $(test $pc_rc -eq 0 && ! raw "$pc_tmp/out" && grep -qF 'm\x1bx.json' "$pc_tmp/out"; echo $?) \
	"merge's summary shows ESC in the output's name as \\x1b"
pc compare "$pc_tmp/nothere$(printf '\033')x.json" "$fix"
ok $(test $pc_rc -eq 2 && one_line_error && ! raw "$pc_tmp/err" && grep -qF 'nothere\x1bx.json' "$pc_tmp/err"; echo $?) \
	"an error line shows ESC as \\x1b, as primcost(1) says"

# C1 and bidirectional controls in brand and host.
"$PYTHON3" - "$fix" "$pc_tmp/c1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    e["cpu"]["brand"] = "AMD \u009b31m EPYC \u202eevil"
    for r in e["runs"]:
        r["host"] = "h\u009b2J\u202ex"
json.dump(d, open(sys.argv[2], "w"), ensure_ascii=False)
PY
pc compare "$pc_tmp/c1.json" "$fix"
ok $(test $pc_rc -le 1 && ! raw "$pc_tmp/out" &&
	tr -s ' \n' ' ' <"$pc_tmp/out" | grep -qF 'AMD \u009b31m EPYC \u202eevil'; echo $?) \
	"compare shows C1 and U+202E in a brand escaped"
pc list --runs "$pc_tmp/c1.json"
ok $(test $pc_rc -eq 0 && ! raw "$pc_tmp/out" && grep -qF 'h\u009b2J\u202ex' "$pc_tmp/out" &&
	grep -qF '\u202eevil' "$pc_tmp/out"; echo $?) \
	"list --runs shows C1 and U+202E in host and brand escaped"
pc list --runs -f csv "$pc_tmp/c1.json"
ok $(test $pc_rc -eq 0 && ! raw "$pc_tmp/out"; echo $?) \
	"list --runs -f csv shows them escaped"

# Colour: on a terminal only, never for TERM=dumb or NO_COLOR.
cc() { "$PYTHON3" "$PC_SRCDIR/tests/check_compare.py" "$@"; }
cc clean "$fix" "$pc_tmp/a.json" cmpxchg xchg
cc scale "$pc_tmp/a.json" "$pc_tmp/slow.json" cmpxchg 1.2
if command -v script >/dev/null 2>&1 &&
	script -qec true /dev/null >/dev/null 2>&1; then
	on_tty() {	# on_tty ENV...: compare's table on a terminal, in tty.out
		env "$@" script -qec "$PRIMCOST compare $pc_tmp/a.json $pc_tmp/slow.json" \
			/dev/null >"$pc_tmp/tty.out" 2>&1 </dev/null
	}
	coloured() { LC_ALL=C grep -q "$esc\[1;3[12]m" "$pc_tmp/tty.out"; }
	on_tty TERM=xterm NO_COLOR=
	ok $(coloured; echo $?) "a terminal gets colour (TERM=xterm)"
	on_tty TERM=dumb NO_COLOR=
	ok $(! coloured; echo $?) "TERM=dumb gets no colour"
	on_tty TERM=xterm NO_COLOR=1
	ok $(! coloured; echo $?) "NO_COLOR=1 gets no colour"
else
	for d in "a terminal gets colour" "TERM=dumb gets no colour" "NO_COLOR gets no colour"; do
		skip "script(1) cannot make a terminal here" "$d"
	done
fi

done_testing
