#!/bin/sh
# SPDX-License-Identifier: MIT
# The bash completion (completion/primcost): sourced into bash, with and
# without the bash-completion library, its function offers the commands,
# each command's options, probe names and globs after -p, event names after
# -e, reference tables for compare and option values.
. "${PC_SRCDIR}/tests/lib.sh"

if ! command -v bash >/dev/null 2>&1; then
	skip "bash is not installed" "the bash completion completes"
	done_testing
	exit 0
fi
# primcost on PATH as the completion calls it (through the emulator when
# the tests run under one)
mkdir -p "$pc_tmp/bin"
printf '#!/bin/sh\nexec %s "$@"\n' "$PRIMCOST" >"$pc_tmp/bin/primcost"
chmod +x "$pc_tmp/bin/primcost"

# complete LIB LINE: the candidates for LINE (the cursor at its end), one a
# line. LIB: "lib" loads bash-completion first, "none" does not. Words are
# split as readline splits them (COMP_WORDBREAKS: a run of "=" or ":" is a word).
complete_line() {
	PATH="$pc_tmp/bin:$PATH" LIB=$1 LINE=$2 SCRIPT="$PC_SRCDIR/completion/primcost" \
		bash --norc --noprofile -c '
		if [ "$LIB" = lib ]; then
			. /usr/share/bash-completion/bash_completion || exit 3
		fi
		. "$SCRIPT" || exit 3
		COMP_LINE=$LINE
		COMP_POINT=${#LINE}
		read -r -a COMP_WORDS <<<"$(printf "%s" "$LINE" | sed -E "s/([=:]+)/ \\1 /g")"
		case $LINE in *" ") COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_primcost primcost "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"'
}

has_all() {	# has_all FILE WORD...: every WORD is a line of FILE
	f=$1
	shift
	for w in "$@"; do grep -qxF -- "$w" "$f" || return 1; done
}

libs=none
if [ -f /usr/share/bash-completion/bash_completion ]; then
	libs="none lib"
else
	skip "bash-completion is not installed" "completion with the bash-completion library"
fi
for lib in $libs; do
	with="without bash-completion"
	[ "$lib" = lib ] && with="with bash-completion"
	complete_line $lib 'primcost run -p cmp' >"$pc_tmp/c"
	ok $(test $? -eq 0 && has_all "$pc_tmp/c" cmpxchg cmpxchg64 cmpxchg_local cmpxchg.llsc \
		'cmpxchg\*' && ! grep -q '^xchg' "$pc_tmp/c"; echo $?) \
		"$with: primcost run -p cmp<TAB> offers $(tr '\n' ' ' <"$pc_tmp/c")"
	complete_line $lib 'primcost run -p mb,smp_' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" mb,smp_mb mb,smp_rmb mb,smp_wmb; echo $?) \
		"$with: after a comma, the next probe of the list ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line $lib 'primcost ' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" run list info compare merge report help version; echo $?) \
		"$with: primcost <TAB> offers the commands"
	complete_line $lib 'primcost run --keep-' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" --keep-samples --keep-contended --keep-disturbed; echo $?) \
		"$with: run's options come from run --help ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line $lib 'primcost compare a.json intel-' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" intel-itanium2-9050 intel-pentium4; echo $?) \
		"$with: compare offers the reference tables ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line $lib 'primcost report --baseline intel-p' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" intel-pentium4; echo $?) \
		"$with: report --baseline offers the reference tables ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line $lib 'primcost report --format ' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" html text; echo $?) "$with: report --format values"
	complete_line $lib 'primcost list --format ' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" table csv json; echo $?) "$with: list --format values"
	complete_line $lib 'primcost run --allocator glibc,j' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" glibc,jemalloc; echo $?) \
		"$with: run --allocator values, after a comma ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line $lib 'primcost run --placement ' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" compact spread; echo $?) "$with: run --placement values"
	complete_line $lib 'primcost compare --by ' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" allocator lock; echo $?) "$with: compare --by values"
	complete_line $lib 'primcost compare --b' >"$pc_tmp/c"
	ok $(test "$(grep -cx -- --by "$pc_tmp/c")" -eq 1 && has_all "$pc_tmp/c" --base; echo $?) \
		"$with: compare's options offered once each ($(tr '\n' ' ' <"$pc_tmp/c"))"
done
# Only where the library is installed: it splits "=" and ":" words itself.
if [ "$libs" = "none lib" ]; then
	complete_line lib 'primcost run --probes=calib.' >"$pc_tmp/c"
	ok $(has_all "$pc_tmp/c" calib.add_chain calib.mul_chain 'calib.\*'; echo $?) \
		"with bash-completion: --probes=calib.<TAB> ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line lib 'primcost run -e perf::task' >"$pc_tmp/c"
	ok $(grep -qx -- 'TASK-CLOCK' "$pc_tmp/c"; echo $?) \
		"with bash-completion: -e perf::task<TAB> completes the event after the colons ($(tr '\n' ' ' <"$pc_tmp/c"))"
	complete_line lib 'primcost run -e perf::cpu-cyc' >"$pc_tmp/c"
	ok $(grep -qx -- 'CPU-CYCLES' "$pc_tmp/c"; echo $?) \
		"with bash-completion: -e takes any case and offers the name as list --events prints it ($(tr '\n' ' ' <"$pc_tmp/c"))"
else
	skip "bash-completion is not installed" "with bash-completion: --probes=calib.<TAB>"
	skip "bash-completion is not installed" "with bash-completion: -e perf::task<TAB>"
	skip "bash-completion is not installed" "with bash-completion: -e in any case"
fi

# Only what the binary takes: --arch offers what list --archs says this
# build measures, list --runs a file, and every -f the formats its command
# writes.
complete_line none 'primcost run --arch ' >"$pc_tmp/c"
$PRIMCOST list --archs >"$pc_tmp/archs"
ok $(test -s "$pc_tmp/c" && cmp -s "$pc_tmp/c" "$pc_tmp/archs"; echo $?) \
	"run --arch <TAB> offers the architectures this build measures ($(tr '\n' ' ' <"$pc_tmp/c"))"
mkdir -p "$pc_tmp/runs" && : >"$pc_tmp/runs/result.json"
(cd "$pc_tmp/runs" && complete_line none 'primcost list --runs ') >"$pc_tmp/c"
ok $(grep -qx 'result.json' "$pc_tmp/c" && ! grep -q '^baseline$' "$pc_tmp/c"; echo $?) \
	"list --runs <TAB> offers files, not probe names ($(tr '\n' ' ' <"$pc_tmp/c" | cut -c1-80))"
for cmd in run list info compare report; do
	complete_line none "primcost $cmd -f " >"$pc_tmp/c"
	bad=
	for f in $(cat "$pc_tmp/c"); do
		$PRIMCOST $cmd -f "$f" --help >/dev/null 2>&1 ||
			{ $PRIMCOST $cmd -f "$f" 2>&1 | grep -q -- '--format: want' && bad="$bad $f"; }
	done
	ok $(test -s "$pc_tmp/c" && test -z "$bad"; echo $?) \
		"$cmd -f <TAB> offers only formats $cmd writes ($(tr '\n' ' ' <"$pc_tmp/c")${bad:+; refused:$bad})"
done
done_testing
