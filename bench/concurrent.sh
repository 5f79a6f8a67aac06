#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/concurrent.sh [WRITERS] [REPEATS] - writers of one result file take
# turns: WRITERS (default 8) `primcost run -p cmpxchg,mb -n 21 -o FILE` are
# started together against a file that already holds one run, REPEATS times
# (default 20), each time with a fresh file. After each repetition the file
# must hold 1 + WRITERS runs, and every run its cmpxchg and mb (current or in
# the run's record). Prints runs and probes lost per repetition and in all;
# exits 1 on any loss.
set -eu
cd "$(dirname "$0")/.."
writers=${1:-8}
repeats=${2:-20}
[ -x ./primcost ] || { echo "bench: build first (./bootstrap build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

./primcost run -q -p cmpxchg,mb -n 21 -o "$tmp/seed.json"
lost_total=0
waited=0
start=$(date +%s)
r=1
while [ "$r" -le "$repeats" ]; do
	cp "$tmp/seed.json" "$tmp/par.json"
	pids=
	i=1
	while [ "$i" -le "$writers" ]; do
		./primcost run -q -p cmpxchg,mb -n 21 -o "$tmp/par.json" \
			2>"$tmp/err.$i" &
		pids="$pids $!"
		i=$((i + 1))
	done
	failed=0
	for p in $pids; do
		wait "$p" || failed=$((failed + 1))
	done
	waited=$((waited + $(cat "$tmp"/err.* | grep -c "waiting for another" || true)))
	lost=$(python3 - "$tmp/par.json" "$writers" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = d["cpus"].values()
want = 1 + int(sys.argv[2])
have = {k: set(r.get("probes", {})) for k, r in enumerate(e["runs"])}
for name, p in e["probes"].items():
    have[p["run"]].add(name)
runs_lost = want - len(e["runs"])
probes_lost = 2 * want - sum(len(v & {"cmpxchg", "mb"}) for v in have.values())
print(runs_lost, probes_lost)
PY
)
	set -- $lost
	printf 'repetition %2d: %d writers, %d failed, runs in file %d, runs lost %d, probes lost %d\n' \
		"$r" "$writers" "$failed" $((1 + writers - $1)) "$1" "$2"
	lost_total=$((lost_total + $1 + $2 + failed))
	r=$((r + 1))
done
echo "total: $repeats x $writers concurrent runs, $((repeats * writers)) runs;" \
	"losses (runs + probes + failed writers): $lost_total;" \
	"long waits said: $waited; $(( $(date +%s) - start )) s"
[ "$lost_total" -eq 0 ]
