#!/bin/sh
# SPDX-License-Identifier: MIT
# make install puts everything a distribution ships where it belongs: the
# program, the man pages, the data, the bash completion, the documents, and
# on x86-64 the kernel module's source with a dkms.conf, complete enough to
# build without the source tree.
. "${PC_SRCDIR}/tests/lib.sh"

dest="$pc_tmp/inst"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$PC_BUILDDIR" -s install \
	DESTDIR="$dest" >"$pc_tmp/make.log" 2>&1
rc=$?
ok $rc "make install DESTDIR=... succeeds$(test $rc -ne 0 && printf ' (%s)' "$(tail -2 "$pc_tmp/make.log" | tr '\n' ' ')")"
find "$dest" -type f | sed "s|^$dest||" | sort >"$pc_tmp/files"
has() {	# has DESCRIPTION PATTERN...: every pattern matches an installed file
	d=$1
	shift
	missing=
	for p in "$@"; do
		grep -Eq "$p" "$pc_tmp/files" || missing="$missing $p"
	done
	ok $(test -z "$missing"; echo $?) "installed: $d${missing:+ (missing:$missing)}"
}
has "the program" '/bin/primcost$'
has "every man page" '/man1/primcost\.1$' '/man1/primcost-run\.1$' '/man1/primcost-list\.1$' \
	'/man1/primcost-info\.1$' '/man1/primcost-compare\.1$' '/man1/primcost-merge\.1$'
has "the schema and the reference tables" '/share/primcost/schema\.json$' \
	'/share/primcost/reference/intel-itanium2-9050\.json$'
has "the bash completion where bash-completion looks" '/bash-completion/completions/primcost$'
has "README, NEWS and the design" '/doc/primcost/README\.md$' '/doc/primcost/NEWS$' \
	'/doc/primcost/design\.md$'
# every page of docs/, the design's pages beside the index that links them
pages=
for p in "$PC_SRCDIR"/docs/*.md "$PC_SRCDIR"/docs/design/*.md; do
	p=${p#"$PC_SRCDIR"/docs/}
	pages="$pages /doc/primcost/$(printf '%s' "$p" | sed 's/\./\\./g')\$"
done
# shellcheck disable=SC2086
has "every page of docs/, design/ under the design's index" $pages

if [ "$PC_ARCH" != x86_64 ]; then
	skip "the kernel module is x86-64 only" "the module's source and dkms.conf"
	done_testing
	exit 0
fi
has "the module's source and dkms.conf" '/src/primcost-[0-9.]+/dkms\.conf$' \
	'/src/primcost-[0-9.]+/runner/kmod/pc_main\.c$'
# (found through the installed dkms.conf: the prefix itself may contain a
# primcost-VERSION directory, as make distcheck's does)
conf=$(grep -E '/src/primcost-[0-9.]+/dkms\.conf$' "$pc_tmp/files" | head -1)
src=$dest$(dirname "$conf")
ok $(grep -q '^BUILT_MODULE_NAME\[0\]="primcost_ring0"$' "$src/dkms.conf" &&
	grep -q "^PACKAGE_VERSION=\"$(basename "$src" | sed 's/^primcost-//')\"$" "$src/dkms.conf"; echo $?) \
	"dkms.conf names the module and the installed version"
# Every file the module's sources include (quoted, or found in the -I
# directories of its Kbuild) is in the installed tree.
if command -v cc >/dev/null 2>&1; then
	k="$src/runner/kmod"
	bad=
	ls "$k"/*.c >/dev/null 2>&1 || bad=" $k/*.c"
	for c in "$k"/*.c; do
		deps=$(cc -MM -MG -nostdinc -D__KERNEL__ -I"$k/include" -I"$src" -I"$src/arch/x86_64" \
			"$c" 2>"$pc_tmp/cc.err" | sed 's/^[^:]*://; s/\\$//' | tr ' ' '\n' | grep -v '^$')
		for d in $deps; do
			case $d in
			linux/* | asm/*) ;;	# the kernel's
			/*) [ -f "$d" ] || bad="$bad $d" ;;
			*) bad="$bad $d" ;;
			esac
		done
	done
	ok $(test -z "$bad"; echo $?) "the module's source in the installed tree includes nothing from outside it${bad:+ (missing:$bad)}"
else
	skip "no C compiler (cc)" "the module's source in the installed tree includes nothing from outside it"
fi
done_testing
