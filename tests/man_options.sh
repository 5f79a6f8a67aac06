#!/bin/sh
# SPDX-License-Identifier: MIT
# Every option a command's --help shows is documented in its man page, and
# every probe row with its instruction sequence is in primcost(1).
. "${PC_SRCDIR}/tests/lib.sh"

for page in "$PC_SRCDIR"/man/primcost-*.1; do
	cmd=$(basename "$page" .1 | sed 's/^primcost-//')
	$PRIMCOST "$cmd" --help >"$pc_tmp/help" 2>/dev/null || continue
	opts=$(grep -oE -- '--[a-z][a-z0-9-]+' "$pc_tmp/help" | sort -u)
	missing=
	for o in $opts; do
		# man source escapes '-' as '\-'
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$page" || missing="$missing $o"
	done
	ok $(test -z "$missing"; echo $?) "every option of '$cmd --help' is in $(basename "$page")${missing:+ (missing:$missing)}"
done

$PRIMCOST list --format csv >"$pc_tmp/list" 2>/dev/null
missing=
while IFS=, read -r name group rest; do
	[ "$name" = probe ] && continue
	re=$(printf '%s' "$name" | sed 's/\./\\./g')
	# the rows measured at points are described in primcost-run(1), by group
	case $group in
	contended|alloc)
		grep -q "^\.BR\? $re\( \|\$\)" "$PC_SRCDIR/man/primcost-run.1" ||
			missing="$missing $name" ;;
	*)
		grep -q "^\.B $re\$" "$PC_SRCDIR/man/primcost.1" ||
			missing="$missing $name" ;;
	esac
done <"$pc_tmp/list"
ok $(test -z "$missing"; echo $?) "every probe has an entry in primcost(1), every row measured at points one in primcost-run(1)${missing:+ (missing:$missing)}"
done_testing
