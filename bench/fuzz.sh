#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/fuzz.sh - run the libFuzzer targets (a benchmark of robustness, not
# a test of the suite).
#
#   bench/fuzz.sh [SECONDS] [TARGET...]
#
# Builds tests/fuzz/fuzz_TARGET with clang (libFuzzer, ASan, UBSan) in
# build-fuzz/, from a copy of the sources, then runs each target (default:
# reader and options) for SECONDS (default 60) from its seed corpus
# tests/fuzz/TARGET/ with its dictionary. Prints executions, coverage and
# crashes per target; crash inputs go to build-fuzz/artifacts/, and one
# build-fuzz/fuzz-TARGET.trs per target records PASS or FAIL for CI.
# Installs clang and libclang-rt-14-dev with apt-get when missing (as root).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-reader options}
out=$top/build-fuzz

say() { printf 'fuzz: %s\n' "$*" >&2; }

libfuzzer_works() {
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
		>"$out/probe.c"
	clang -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" >/dev/null 2>&1
}

mkdir -p "$out"
if ! command -v clang >/dev/null 2>&1 || ! libfuzzer_works; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing clang and libclang-rt-14-dev"
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			clang libclang-rt-14-dev >/dev/null
	fi
	libfuzzer_works || { say "clang with libFuzzer is needed (Debian: clang libclang-rt-14-dev)"; exit 2; }
fi

say "building the targets in build-fuzz/"
"$top/.ci/copy-source" "$out/src"
(
	cd "$out/src"
	sh scripts/groups.sh
	autoreconf -fi >/dev/null 2>&1
	./configure -q CC=clang --enable-fuzzing >/dev/null
	make -j"$(nproc 2>/dev/null || echo 2)" $(for t in $targets; do printf 'tests/fuzz/fuzz_%s ' "$t"; done) >/dev/null
)

rc=0
printf '%-10s %8s %12s %10s %8s %8s\n' target seconds executions "exec/s" coverage crashes
for t in $targets; do
	corpus=$out/corpus/$t
	mkdir -p "$corpus" "$out/artifacts"
	rm -f "$out/artifacts/$t-"*
	cp "$top/tests/fuzz/$t/"* "$corpus/" 2>/dev/null || true
	set +e
	"$out/src/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -max_len=65536 \
		-dict="$top/tests/fuzz/$t.dict" -artifact_prefix="$out/artifacts/$t-" \
		-print_final_stats=1 "$corpus" >"$out/fuzz-$t.log" 2>&1
	frc=$?
	set -e
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$t.log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$out/fuzz-$t.log" | tail -1 | sed 's/cov: //')
	crashes=$(ls "$out/artifacts" | grep -c "^$t-" || true)
	rate=$(( ${execs:-0} / (secs > 0 ? secs : 1) ))
	printf '%-10s %8s %12s %10s %8s %8s\n' "$t" "$secs" "${execs:-?}" "$rate" "${cov:-?}" "$crashes"
	if [ $frc -ne 0 ] || [ "$crashes" -ne 0 ]; then
		rc=1
		res=FAIL
		say "$t: exit $frc; see build-fuzz/fuzz-$t.log and build-fuzz/artifacts/"
	else
		res=PASS
	fi
	printf ':test-result: %s %s: %s executions in %s s, %s crashes\n:global-test-result: %s\n' \
		"$res" "$t" "${execs:-?}" "$secs" "$crashes" "$res" >"$out/fuzz-$t.trs"
done
exit $rc
