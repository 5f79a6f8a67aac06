#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/deb.sh - builds the Debian packages from debian/ in a clean copy of
# the source, runs lintian on them, installs them on this machine with
# dpkg -i, runs the installed primcost (run -p cmpxchg, list --reference,
# compare against an installed reference table, --ring0 kmod through
# modprobe) and prints what they print, then removes the packages again
# (dpkg -r) so that the machine is left as it was. Needs root.
#
#   bench/deb.sh [WORKDIR]      (default: a new directory under /tmp)
#
# The build runs the test suite (dh_auto_test) unless DEB_BUILD_OPTIONS has
# nocheck. Build dependencies are installed with apt-get when missing.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
work=${1:-$(mktemp -d /tmp/primcost-deb.XXXXXX)}
say() { printf 'deb.sh: %s\n' "$*"; }

[ "$(id -u)" -eq 0 ] || { say "needs root (dpkg -i, apt-get)"; exit 2; }
[ "$(dpkg --print-architecture)" = amd64 ] || say "note: not amd64: primcost-dkms has no module to build here"

# Build dependencies, and lintian.
deps="build-essential debhelper dh-dkms dkms pkgconf libjansson-dev
libcpuid-dev libpfm4-dev bash-completion groff-base python3 python3-jsonschema
valgrind lintian"
miss=
for p in $deps; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		miss="$miss $p"
done
if [ -n "$miss" ]; then
	say "installing:$miss"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $miss >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $miss >/dev/null; }
fi

# A clean copy of the source (what git tracks): dpkg-buildpackage builds in
# the tree it is given and cleans it.
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
src="$work/primcost-${version%-*}"
.ci/copy-source "$src"
say "building primcost $version in $src (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-})"
t0=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 || {
	tail -40 "$work/build.log"
	say "dpkg-buildpackage failed (log: $work/build.log)"
	exit 1
}
say "dpkg-buildpackage -us -uc -b: $(( $(date +%s) - t0 )) s"
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$work/build.log" | sed 's/^/deb.sh: make check: /' || true
ls -l "$work"/*.deb

changes=$(ls "$work"/primcost_*.changes)
say "lintian $(basename "$changes")"
lintian --info "$changes" >"$work/lintian.log" 2>&1 || true
cat "$work/lintian.log"
say "lintian: $(grep -c '^E:' "$work/lintian.log" || true) errors, $(grep -c '^W:' "$work/lintian.log" || true) warnings"

# Install, use, remove. Packages installed before are left alone.
for p in primcost primcost-dkms; do
	if dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		say "$p is already installed here: not touching it"; exit 2
	fi
done
cleanup() {
	say "dpkg -r primcost primcost-dkms"
	dpkg -r primcost primcost-dkms >/dev/null 2>&1 || true
	dpkg -s primcost >/dev/null 2>&1 && say "primcost is still installed!"
	[ -e /usr/src/primcost-${version%-*} ] && say "/usr/src/primcost-${version%-*} is still there!"
	return 0
}
trap cleanup EXIT
say "dpkg -i"
dpkg -i "$work"/primcost_*.deb "$work"/primcost-dkms_*.deb 2>&1 | sed 's/^/  /'
run() { say "\$ $*"; "$@" 2>&1 | sed 's/^/  /'; }
cd "$work"
run dpkg -L primcost-dkms
run sh -c 'command -v primcost'
run primcost --version
run primcost run -p cmpxchg -o /tmp/x.json
run primcost list --reference
run primcost compare /tmp/x.json intel-itanium2-9050
run sh -c 'bash -c ". /usr/share/bash-completion/bash_completion; _completion_loader primcost; complete -p primcost"'
run dkms status primcost
run primcost run -p local_irq_save --ring0 kmod -o - -q
run sh -c 'man -w primcost-list'
rm -f /tmp/x.json
cd "$top"
