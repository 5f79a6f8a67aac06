#!/bin/sh
# SPDX-License-Identifier: MIT
# readme-examples.sh [--guest DIR|here|none] [--keep ARGS]... [FILE...] -
# writes every
# example block of FILE again from a real run of this build (default:
# README.md and each page under docs/ that has one), so that no example
# shows what the program no longer prints. tests/readme.sh runs it and
# checks that the blocks' words and counts are still the build's.
#
# An example is a marker line and the fenced block after it:
#
#   <!-- example: primcost ARGS -->
#   ```
#   $ primcost ARGS
#   what primcost ARGS printed
#   ```
#
# The marker may name options in brackets before the colon, separated by
# "; ":
#   paragraphs N,M   only those paragraphs of the output (the parts
#                    between blank lines), a "..." line for each part left
#                    out; "last" is the last paragraph, however many come
#                    before it (a table that takes more pages on a wider
#                    figure)
#   fields A,B       only those fields of the output (a field's name
#                    starts its line, its text goes on in the lines
#                    indented under it: primcost info), "..." likewise
#   guest            the output of the step of scripts/qemu-kernel-init.sh
#                    whose command starts with "primcost ARGS": the
#                    program in Debian's own kernel under qemu, with the
#                    module (the kernel group, which few machines run)
#
# Each file's examples run in order, in a new empty directory of their
# own (a compare reads what the run before it saved), at COLUMNS=80, with
# standard input empty. A block shows the program's standard output, or
# its standard error where it failed and printed nothing else. A command
# that exits with 2 or more stops the script and no file is changed.
#
# --guest DIR   the sections of a `scripts/qemu-kernel.sh -o DIR` run
# --guest here  run the guest examples here, like the others; where this
#               machine refuses one (exit 2), its block is kept, and why
#               is said on standard error
# --guest none  keep the guest examples' blocks as they are
# Without --guest, scripts/qemu-kernel.sh runs once (about a minute under
# TCG); where it cannot run here (its exit 77), the blocks are kept.
# --keep ARGS   keep the blocks of the examples whose arguments begin with
#               ARGS, as they are (what this machine cannot run: threads
#               under qemu-user, a library it lacks); repeatable
#
# Environment: PRIMCOST, the program (default: primcost at the top of this
# tree; a command, split at spaces, such as an emulator and the program).
# Exit: 0 the files are written, 1 an example could not be made, 2 usage.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prog=${PRIMCOST:-$top/primcost}
guest=
keep=
usage="usage: $0 [--guest DIR|here|none] [--keep ARGS]... [FILE...]"
while [ $# -gt 0 ]; do
	case $1 in
	--guest) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; guest=$2; shift ;;
	--guest=*) guest=${1#--guest=} ;;
	--keep) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; keep="$keep$2
"; shift ;;
	-h|--help) echo "$usage"; exit 0 ;;
	--) shift; break ;;
	-*) echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
say() { echo "readme-examples: $*" >&2; }
die() { say "$*"; exit 1; }
case $guest in
""|here|none) ;;
*) [ -d "$guest" ] || die "--guest $guest: no such directory" ;;
esac
if [ $# -eq 0 ]; then
	cd "$top" || exit 1
	# shellcheck disable=SC2046
	set -- README.md $(grep -l '^<!-- example' docs/*.md docs/*/*.md 2>/dev/null)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-examples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export COLUMNS=80
PRIMCOST_REFERENCE_DIR=${PRIMCOST_REFERENCE_DIR:-$top/data/reference}
export PRIMCOST_REFERENCE_DIR

# The markers of a file, one a line: line number, "+" and the options
# (never an empty field, which read would merge), arguments.
markers() {
	awk '/^<!-- example[ (:]/ {
		s = $0; sub(/^<!-- example */, "", s); sub(/ *-->$/, "", s)
		opts = ""
		if (s ~ /^\(/) { opts = substr(s, 2, index(s, ")") - 2); s = substr(s, index(s, ")") + 1) }
		if (s !~ /^: primcost /) { printf "%s:%d: not a marker: %s\n", FILENAME, NR, $0 > "/dev/stderr"; exit 1 }
		printf "%d\t+%s\t%s\n", NR, opts, substr(s, 12)
	}' "$1"
}

# option NAME OPTIONS: the value of an option ("" when absent, "yes" for a
# bare word).
option() {
	printf '%s\n' "$2" | tr ';' '\n' | sed 's/^ *//; s/ *$//' | awk -v n="$1" '
		$0 == n { print "yes"; exit } index($0, n " ") == 1 { print substr($0, length(n) + 2); exit }'
}

# select_parts PARAGRAPHS FIELDS < output: the parts asked for, a "..."
# for each run of parts left out (a paragraph of its own between
# paragraphs, a line between fields).
select_parts() {
	awk -v paras="$1" -v fields="$2" '
		BEGIN {
			np = split(paras, p, ",")
			for (i = 1; i <= np; i++)
				if (p[i] == "last") want_last = 1; else want_p[p[i] + 0] = 1
			nf = split(fields, f, ","); for (i = 1; i <= nf; i++) { sub(/^ +/, "", f[i]); want_f[f[i]] = 1 }
			k = 1
		}
		np == 0 && nf == 0 { print; next }
		np > 0 {
			if ($0 == "") { if (text[k] != "") k++; next }
			text[k] = text[k] $0 "\n"; next
		}
		{
			if ($0 !~ /^ / && $0 != "") { name = substr($0, 1, 15); sub(/ +$/, "", name); on = (name in want_f) }
			if (on) { if (gap) print "..."; gap = 0; print } else gap = 1
		}
		END {
			if (nf > 0 && gap) print "..."
			if (np == 0) exit
			last = text[k] != "" ? k : k - 1
			if (want_last) want_p[last] = 1
			for (i = 1; i <= k; i++) {
				if (text[i] == "") continue
				if (want_p[i]) { if (out) print ""; printf "%s", text[i]; out = 1; gap = 0 }
				else if (!gap) { if (out) print ""; print "..."; out = 1; gap = 1 }
			}
		}'
}

# The step of the guest's init whose primcost command starts with ARGS.
guest_step() {
	awk -v args="$1" '$1 == "step" && $4 == "primcost" {
		cmd = $5; for (i = 6; i <= NF; i++) cmd = cmd " " $i
		if (index(cmd " ", args " ") == 1) { print $2; exit }
	}' "$top/scripts/qemu-kernel-init.sh"
}

# Boots the guest once, for the first guest example, unless told not to.
guest_dir() {
	if [ -z "$guest" ]; then
		case $prog in
		*" "*) guest=none; say "no guest: PRIMCOST is a command ($prog)" ;;
		*)
			say "booting Debian's kernel under qemu for the guest examples (scripts/qemu-kernel.sh)"
			PC_BUILDDIR=$(dirname "$prog") sh "$top/scripts/qemu-kernel.sh" -o "$tmp/guest" </dev/null >&2
			rc=$?
			if [ $rc -eq 0 ]; then guest=$tmp/guest
			elif [ $rc -eq 77 ]; then guest=none
			else die "scripts/qemu-kernel.sh failed (exit $rc)"; fi ;;
		esac
	fi
}

# run_example OUT ARGS: the program's output, in the current directory.
run_example() {
	out=$1
	shift
	# shellcheck disable=SC2086
	$prog "$@" </dev/null >"$out.1" 2>"$out.2"
	rc=$?
	if [ ! -s "$out.1" ] && [ $rc -ne 0 ]; then cp "$out.2" "$out.raw"; else cp "$out.1" "$out.raw"; fi
	return $rc
}

i=0
for f in "$@"; do
	i=$((i + 1))
	[ -f "$f" ] || die "$f: no such file"
	markers "$f" >"$tmp/markers.$i" || exit 1
	mkdir "$tmp/run.$i"
	n=0
	while IFS='	' read -r line opts args; do
		n=$((n + 1))
		opts=${opts#+}
		out=$tmp/ex.$i.$n
		where="$f:$line"
		kept=$(printf '%s' "$keep" | while IFS= read -r k; do
			case "$args " in "$k "*) echo "$k"; break ;; esac
		done)
		if [ -n "$kept" ]; then
			say "$where: kept (--keep $kept)"
			continue
		fi
		if [ "$(option guest "$opts")" = yes ] && [ "$guest" != here ]; then
			guest_dir
			if [ "$guest" = none ]; then
				say "$where: kept (no guest here: primcost $args)"
				continue
			fi
			step=$(guest_step "$args")
			[ -n "$step" ] || die "$where: no step of scripts/qemu-kernel-init.sh runs primcost $args"
			[ -f "$guest/$step.out" ] || die "$where: the guest did not run its step $step"
			rc=$(cat "$guest/$step.rc" 2>/dev/null || echo 2)
			[ "$rc" -le 1 ] || die "$where: primcost $args exited $rc in the guest"
			cp "$guest/$step.out" "$out.raw"
		else
			# shellcheck disable=SC2086
			(cd "$tmp/run.$i" && eval "set -- $args" && run_example "$out" "$@")
			rc=$?
			if [ $rc -ge 2 ] && [ "$(option guest "$opts")" = yes ]; then
				say "$where: kept (this machine refuses it: $(head -1 "$out.2"))"
				continue
			fi
			[ $rc -le 1 ] || die "$where: primcost $args exited $rc: $(head -3 "$out.2")"
		fi
		{
			echo "\$ primcost $args"
			select_parts "$(option paragraphs "$opts")" "$(option fields "$opts")" <"$out.raw"
		} >"$out"
	done <"$tmp/markers.$i"
done

# Every example was made: now the files, each block replaced by its new
# output (a block kept stays as it was).
i=0
for f in "$@"; do
	i=$((i + 1))
	awk -v pre="$tmp/ex.$i." -v file="$f" '
		/^<!-- example[ (:]/ { n++; print; mark = NR; next }
		mark && NR == mark + 1 {
			if ($0 != "```") { printf "%s:%d: an example marker must be followed by a ``` block\n", file, mark > "/dev/stderr"; exit 1 }
			new = pre n
			if ((getline l < new) > 0) {
				print "```"; print l
				while ((getline l < new) > 0) print l
				close(new); skip = 1
			} else print
			next
		}
		skip { if ($0 == "```") { print; skip = 0; mark = 0 } ; next }
		{ mark = 0; print }
		END { if (skip) { printf "%s: an example block does not end\n", file > "/dev/stderr"; exit 1 } }
	' "$f" >"$tmp/new.$i" || exit 1
	if cmp -s "$f" "$tmp/new.$i"; then
		say "$f: unchanged"
	else
		cat "$tmp/new.$i" >"$f" || exit 1
		n=$(grep -c '^<!-- example' "$f")
		say "$f: $n example$( [ "$n" -eq 1 ] || echo s) written"
	fi
done
