#!/bin/sh
# SPDX-License-Identifier: MIT
# ia64-toolchain.sh - build, or reuse, the C-only ia64-linux-gnu cross compiler
# that the ia64 probe runner is compiled with.
#
#   scripts/ia64-toolchain.sh [--prefix DIR] [--rebuild] [--prepare]
#
# --prepare does only what needs apt and the network (the build packages,
# a deb-src entry, the source package) and exits: a build started after it
# runs no apt-get, so it can run beside other work that does.
#
# Debian 12 ships binutils-ia64-linux-gnu but no ia64 gcc. This script builds a
# stage-1 (freestanding: no libc headers, static libgcc only) gcc from Debian's
# own gcc-12 source package, installs it under a cache directory and prints
# that directory on stdout. Later runs find the stamp file there and reuse it.
#
# Cache directory: --prefix, else $PRIMCOST_IA64_PREFIX, else
# /var/cache/primcost/ia64 as root, else $XDG_CACHE_HOME/primcost/ia64
# (default ~/.cache/primcost/ia64). The source package and the build tree go
# to DIR.src and DIR.build; the build tree is removed after a good install.
set -eu

TARGET=ia64-linux-gnu
GCC_PKG=${PRIMCOST_IA64_GCC_PACKAGE:-gcc-12}
# Only what the runner needs: the C compiler and libgcc.a.
CONFIG_FLAGS="--target=$TARGET --enable-languages=c --without-headers --with-newlib
--disable-shared --disable-threads --disable-multilib --disable-nls
--disable-bootstrap --disable-decimal-float --disable-libssp --disable-libgomp
--disable-libquadmath --disable-libatomic --disable-libitm --disable-libvtv
--disable-libsanitizer --disable-libstdcxx --disable-libcc1 --disable-lto
--disable-plugin --without-isl --without-zstd --enable-checking=release"
# The compiler itself is built for speed of building: a cold machine builds
# it inside CI's time. -O1 without debug information compiles cc1 in about
# half the time of the default -O2 -g; it is only a cross compiler of a few
# small files. libgcc, which the runner links, keeps -O2.
HOST_FLAGS="-O1 -g0"
TARGET_FLAGS="-O2 -g0"
BINUTILS="addr2line ar as ld ld.bfd nm objcopy objdump ranlib readelf size strings strip"
BUILD_DEPS="binutils-ia64-linux-gnu gcc g++ make dpkg-dev xz-utils patch
libgmp-dev libmpfr-dev libmpc-dev"

say() { printf 'ia64-toolchain: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

prefix=
rebuild=no
prepare=no
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift ;;
	--prefix=*) prefix=${1#--prefix=} ;;
	--rebuild) rebuild=yes ;;
	--prepare) prepare=yes ;;
	-h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (--prefix DIR, --rebuild, --prepare)" ;;
	esac
	shift
done
if [ -z "$prefix" ]; then
	if [ -n "${PRIMCOST_IA64_PREFIX:-}" ]; then
		prefix=$PRIMCOST_IA64_PREFIX
	elif [ "$(id -u)" -eq 0 ]; then
		prefix=/var/cache/primcost/ia64
	else
		prefix=${XDG_CACHE_HOME:-$HOME/.cache}/primcost/ia64
	fi
fi
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
stamp=$prefix/primcost-toolchain.stamp
cc=$prefix/bin/$TARGET-gcc

# The stamp records what was built; a toolchain is reused only when it
# matches and still compiles and assembles a bundle.
want_stamp() {
	printf 'package %s\ntarget %s\nconfigure %s\n' "$GCC_PKG" "$TARGET" \
		"$(echo $CONFIG_FLAGS) host $HOST_FLAGS target $TARGET_FLAGS"
}
toolchain_works() {
	[ -x "$cc" ] || return 1
	t=$(mktemp -d) || return 1
	printf 'long f(long *p, long v) { return __sync_val_compare_and_swap(p, 0, v); }\n' >"$t/t.c"
	"$cc" -O2 -Wa,--fatal-warnings -c "$t/t.c" -o "$t/t.o" 2>/dev/null
	r=$?
	rm -rf "$t"
	return $r
}
if [ $rebuild = no ] && [ -f "$stamp" ] &&
	[ "$(sed -n '1,3p' "$stamp")" = "$(want_stamp)" ] && toolchain_works; then
	say "reusing $prefix ($(sed -n 's/^version //p' "$stamp"), built $(sed -n 's/^built //p' "$stamp"))"
	echo "$prefix"
	exit 0
fi

sudo_cmd() {
	if [ "$(id -u)" -eq 0 ]; then "$@"
	elif command -v sudo >/dev/null 2>&1; then sudo "$@"
	else die "needs root for: $*"; fi
}

# ---- packages -------------------------------------------------------------------
command -v dpkg-query >/dev/null 2>&1 ||
	die "not a Debian system: this script builds from Debian's $GCC_PKG source package"
miss=
for p in $BUILD_DEPS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		miss="$miss $p"
done
apt_updated=no
apt_update() {
	for i in 1 2 3; do
		sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1 &&
			{ apt_updated=yes; return 0; }
		say "apt-get update failed (attempt $i), retrying"
		sleep 20
	done
	return 1
}
if [ -n "$miss" ]; then
	say "installing:$miss"
	apt_update || true
	# shellcheck disable=SC2086
	sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
		--no-install-recommends $miss >/dev/null || die "apt-get install failed for:$miss"
fi

# ---- the source package -----------------------------------------------------------
# apt-get source needs a deb-src entry; add one mirroring the configured deb
# entries (same archive, suites and components) when there is none.
has_deb_src() {
	grep -Eqs '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
}
if ! has_deb_src; then
	src_list=/etc/apt/sources.list.d/primcost-deb-src.sources
	say "no deb-src entry: adding $src_list (the configured archive's sources)"
	tmp=$(mktemp)
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# Each deb822 stanza whose Types include deb, with Types: deb-src.
		awk 'BEGIN { RS = ""; FS = "\n" }
		     /(^|\n)Types:[^\n]*(^|[ \t])deb([ \t]|$|\n)/ {
			out = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Types:/) out = out "Types: deb-src\n"
				else if ($i !~ /^#/) out = out $i "\n"
			}
			printf "%s\n", out
		     }' "$f" >>"$tmp"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}/Types: deb-src\nURIs: /p' "$f" |
			awk '/^URIs:/ { n = split($0, w, /[ \t]+/);
				uri = w[2]; i = 3;
				if (uri ~ /^\[/) { while (w[i-1] !~ /\]$/) i++; uri = w[i]; i++ }
				printf "URIs: %s\nSuites: %s\nComponents:", uri, w[i];
				for (j = i + 1; j <= n; j++) printf " %s", w[j];
				printf "\n\n"; next } { print }' >>"$tmp"
	done
	[ -s "$tmp" ] || { rm -f "$tmp"; die "no apt deb entries to mirror as deb-src; add a deb-src line for $GCC_PKG"; }
	sudo_cmd install -m 0644 "$tmp" "$src_list"
	rm -f "$tmp"
	apt_updated=no
fi
srcdir=$prefix.src
builddir=$prefix.build
mkdir -p "$srcdir"
cd "$srcdir"
newest_source() {
	apt-cache showsrc "$GCC_PKG" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1
}
# The package lists are read again only when they do not know the source
# package (a new deb-src entry) or --prepare asks for the newest.
version=
[ $prepare = yes ] || version=$(newest_source)
if [ -z "$version" ]; then
	[ $apt_updated = yes ] || apt_update || say "apt-get update failed; trying the cached lists"
	version=$(newest_source)
fi
[ -n "$version" ] || die "apt-cache showsrc $GCC_PKG found nothing (no deb-src entry for its archive?)"
dsc=${GCC_PKG}_$(echo "$version" | sed 's/^[0-9]*://').dsc
if [ ! -f "$dsc" ]; then
	say "downloading the $GCC_PKG $version source package"
	apt-get source -qq --download-only "$GCC_PKG=$version" >/dev/null ||
		die "apt-get source $GCC_PKG=$version failed"
fi
if [ $prepare = yes ]; then
	say "prepared: $srcdir/$dsc"
	exit 0
fi
pkgdir=$srcdir/$GCC_PKG-$version
rm -rf "$pkgdir"
dpkg-source -q --no-check -x "$dsc" "$pkgdir" >/dev/null ||
	die "dpkg-source -x $dsc failed"
# The package holds the upstream tarball (gcc-*-dfsg.tar.*) plus debian/;
# unpack all of it: Debian's patches touch gcc/testsuite and gcc/d too.
cd "$pkgdir"
tarball=$(ls gcc-*.tar.* 2>/dev/null | head -1)
[ -n "$tarball" ] || die "no upstream gcc tarball in $pkgdir"
say "unpacking $tarball"
# Only what a C compiler is built from: the test suites and the other
# languages' front ends and run-time libraries are most of the tarball
# (gcc/d stays: the target hooks are generated from its d-target.def too;
# gcc/testsuite/selftests too: cc1's self-tests read it).
tar -xf "$tarball" \
	--exclude='gcc-*/gcc/testsuite/[!s]*' --exclude='gcc-*/libstdc++-v3' \
	--exclude='gcc-*/libgo' --exclude='gcc-*/gcc/go' --exclude='gcc-*/libphobos' \
	--exclude='gcc-*/gcc/ada' --exclude='gcc-*/libada' \
	--exclude='gcc-*/gcc/fortran' --exclude='gcc-*/libgfortran' \
	--exclude='gcc-*/libsanitizer' --exclude='gcc-*/libgomp' --exclude='gcc-*/libobjc' \
	--exclude='gcc-*/gcc/objc' --exclude='gcc-*/gcc/objcp' --exclude='gcc-*/gcc/m2' \
	--exclude='gcc-*/gcc/jit'
upstream=$(ls -d gcc-*/ | head -1)
upstream=$pkgdir/${upstream%/}
# The dfsg tarball strips the GFDL documentation, which leaves
# gcc/doc/tm.texi.in empty; tm.texi is generated from it during the build.
# Debian's own gcc-gfdl-build.diff is what makes that build work.
patch -d "$upstream" -p2 -s <debian/patches/gcc-gfdl-build.diff ||
	die "debian/patches/gcc-gfdl-build.diff does not apply"

# ---- binutils -----------------------------------------------------------------------
# gcc looks for its assembler and linker in PREFIX/TARGET/bin; Debian's
# binutils-ia64-linux-gnu installs /usr/bin/ia64-linux-gnu-*.
mkdir -p "$prefix/bin" "$prefix/$TARGET/bin"
for t in $BINUTILS; do
	[ -x "/usr/bin/$TARGET-$t" ] || continue
	ln -sf "/usr/bin/$TARGET-$t" "$prefix/$TARGET/bin/$t"
	ln -sf "/usr/bin/$TARGET-$t" "$prefix/bin/$TARGET-$t"
done

# ---- configure, build, install --------------------------------------------------------
jobs=$(nproc 2>/dev/null || echo 2)
rm -rf "$builddir"
mkdir -p "$builddir"
cd "$builddir"
say "configure (log: $builddir/configure.log)"
# shellcheck disable=SC2086
CFLAGS=$HOST_FLAGS CXXFLAGS=$HOST_FLAGS CFLAGS_FOR_TARGET=$TARGET_FLAGS \
	"$upstream/configure" --prefix="$prefix" $CONFIG_FLAGS >configure.log 2>&1 ||
	{ tail -30 configure.log >&2; die "configure failed"; }
say "make all-gcc all-target-libgcc -j$jobs (log: $builddir/make.log)"
if ! make -j"$jobs" all-gcc all-target-libgcc >make.log 2>&1; then
	grep -E -B5 'error|Error' make.log | tail -40 >&2
	die "the build failed (full log: $builddir/make.log)"
fi
make install-gcc install-target-libgcc >install.log 2>&1 ||
	{ tail -30 install.log >&2; die "make install failed"; }
toolchain_works || die "the installed $cc cannot compile a test file"
{
	want_stamp
	printf 'version %s\nbuilt %s\n' "$version" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$stamp"
cd "$prefix"
rm -rf "$builddir" "$pkgdir"
say "installed $cc ($("$cc" -dumpversion))"
echo "$prefix"
