#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages format cleanly: groff reports no warning (-ww) for any page;
# every option of a command's --help starts its own tagged paragraph in the
# command's page (an option whose .TP is missing renders inside the one
# before it); each SYNOPSIS form is on its own line.
. "${PC_SRCDIR}/tests/lib.sh"

if ! command -v groff >/dev/null 2>&1; then
	skip "groff is not installed (Debian: groff-base)" "the man pages format without warnings"
	done_testing
	exit 0
fi
render() {	# render PAGE: plain text, 80 columns
	LC_ALL=C groff -man -t -Tascii -P-cbou -rLL=80n "$1" 2>/dev/null
}

for page in "$PC_SRCDIR"/man/*.1; do
	name=$(basename "$page")
	LC_ALL=C groff -ww -z -man -t "$page" >"$pc_tmp/warn" 2>&1
	ok $(test $? -eq 0 && test ! -s "$pc_tmp/warn"; echo $?) \
		"groff -ww: $name formats without a warning$(test -s "$pc_tmp/warn" && printf ' (%s)' "$(head -3 "$pc_tmp/warn" | tr '\n' ' ')")"
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 LC_ALL=C man --warnings -l "$page" 2>"$pc_tmp/warn" >/dev/null
		ok $(test ! -s "$pc_tmp/warn"; echo $?) \
			"man --warnings: $name$(test -s "$pc_tmp/warn" && printf ' (%s)' "$(head -3 "$pc_tmp/warn" | tr '\n' ' ')")"
	fi
	render "$page" | sed -n '/^SYNOPSIS/,/^[A-Z]/p' | grep -c 'primcost.*primcost' >"$pc_tmp/n"
	ok $(test "$(cat "$pc_tmp/n")" -eq 0; echo $?) "$name: each SYNOPSIS form on its own line"

	cmd=$(basename "$page" .1 | sed -n 's/^primcost-//p')
	[ -n "$cmd" ] || continue
	$PRIMCOST "$cmd" --help >"$pc_tmp/help" 2>/dev/null || continue
	# the tags of the tagged paragraphs: lines indented by exactly 7 columns
	render "$page" | grep -E '^ {7}-' >"$pc_tmp/tags"
	missing=
	for o in $(grep -oE -- '(^|[ ,])--[a-z][a-z0-9-]+' "$pc_tmp/help" | tr -d ' ,' | sort -u); do
		grep -qE -- "(^| )$o( |,|=|\$)" "$pc_tmp/tags" || missing="$missing $o"
	done
	ok $(test -z "$missing"; echo $?) \
		"$name: every option of '$cmd --help' starts a tagged paragraph${missing:+ (not:$missing)}"
done
done_testing
