#!/bin/sh
# SPDX-License-Identifier: MIT
# groups.sh [SRCDIR] - what the measurement groups of src/results/groups.def
# make, so that a group is its folder and its line there:
#
#   src/groups.am     every group folder's sources, in the library
#                     (Makefile.am includes it)
#   data/schema.json  data/schema.json.in with the shapes and keys of the
#                     groups' points, from each folder's points.schema
#
# A points.schema holds lines in the schema's own style: '#' comments,
# 'shape { "required": [...] }' for a shape of its points, and
# 'key "name": { ... }' for a key of them. A shape two groups share is
# written once; a key two groups both describe must read the same.
#
# bootstrap runs it before autoreconf, make when groups.def, this script or
# the template change, and debian/rules before dh_autoreconf. Needs only
# sh, sed and awk.
set -eu
cd "${1:-$(dirname "$0")/..}"
export LC_ALL=C

die() { printf 'groups.sh: %s\n' "$*" >&2; exit 2; }

def=src/results/groups.def
groups=$(sed -n 's/^PC_GROUP(\([a-z][a-z0-9_]*\))$/\1/p' "$def")
[ -n "$groups" ] || die "$def: no line PC_GROUP(NAME)"
bad=$(grep '^PC_GROUP' "$def" | grep -v '^PC_GROUP([a-z][a-z0-9_]*)$' || true)
[ -z "$bad" ] || die "$def: not a line PC_GROUP(NAME): $bad"
for g in $groups; do
	[ -d "src/$g" ] || die "$def: PC_GROUP($g) has no folder src/$g"
	ls "src/$g"/*.c >/dev/null 2>&1 || die "src/$g: no source file"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	echo "# src/groups.am - made by scripts/groups.sh from $def:"
	echo "# each group's folder, whole, in the library. Not edited by hand."
	schemas= deps=
	for g in $groups; do
		printf '\nlibprimcost_a_SOURCES +='
		for f in "src/$g"/*.h "src/$g"/*.c; do
			[ -f "$f" ] && printf ' \\\n\t%s' "$f"
		done
		printf '\n'
		[ -f "src/$g/points.schema" ] || continue
		schemas="$schemas src/$g/points.schema"
		deps="$deps \$(srcdir)/src/$g/points.schema"
	done
	printf '\nGROUP_SCHEMAS =%s\nGROUP_SCHEMA_DEPS =%s\nEXTRA_DIST += $(GROUP_SCHEMAS)\n' \
		"$schemas" "$deps"
} >"$tmp/groups.am"

files=
for g in $groups; do
	[ ! -f "src/$g/points.schema" ] || files="$files src/$g/points.schema"
done
# shellcheck disable=SC2086
awk -v files="$files" '
function fail(msg) { print "groups.sh: " msg > "/dev/stderr"; failed = 1; exit 2 }
FNR == 1 { nfile++ }
nfile <= nfrag {
	if ($0 ~ /^[ \t]*(#|$)/)
		next
	if ($1 == "shape") {
		s = substr($0, index($0, "shape") + 6)
		if (!(s in seen_shape)) { seen_shape[s] = 1; shapes = shapes (nshapes++ ? ", " : "") s }
		next
	}
	if ($1 == "key") {
		k = $2
		v = substr($0, index($0, "key") + 4)
		if (k in key) {
			if (key[k] != v)
				fail(FILENAME ": " k " is described otherwise by another group")
			next
		}
		key[k] = v
		order[nkeys++] = k
		next
	}
	fail(FILENAME ":" FNR ": not a shape, a key or a comment")
}
{
	if (index($0, "@POINT_SHAPES@")) {
		sub(/@POINT_SHAPES@/, shapes)
		print
	} else if (index($0, "@POINT_KEYS@")) {
		indent = $0
		sub(/@POINT_KEYS@.*/, "", indent)
		for (i = 0; i < nkeys; i++)
			print indent key[order[i]] (i < nkeys - 1 ? "," : "")
	} else
		print
}
BEGIN { nfrag = split(files, f, " ") }
END { if (!failed && !nshapes) fail("no group declares a shape of its points") }
' $files data/schema.json.in >"$tmp/schema.json" || exit 2

mv "$tmp/groups.am" src/groups.am
mv "$tmp/schema.json" data/schema.json
