#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/compare.sh [RUNS] - time and peak memory of `primcost compare` on two
# fleet files of 100 CPUs x 30 probes, 1000 samples per probe, timed in the
# default table format:
#   summaries   the figures only ("samples": 1000), as `run` writes by default
#   raw         with every sample kept (raw.ticks and raw.cycles, 1000 each),
#               as `run --keep-samples` writes them: packed strings
#               (src/results/packed.h); one Mann-Whitney U test per probe and CPU
#   raw-arrays  the same samples as arrays of numbers, as primcost wrote them
#               before packing (such files are still read)
# CPUs are paired by model key (100 tables). Prints the median of RUNS runs
# (default 5) of wall time, CPU time (user + system) and peak RSS from
# /usr/bin/time -v, and the load average (on a shared machine the wall time
# includes waiting for a CPU). PRIMCOST names another binary to time (an
# older build, for a before and after); the files are made with ./primcost.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
pc=${PRIMCOST:-./primcost}
[ -x ./primcost ] || { echo "bench: build first (./bootstrap build)" >&2; exit 2; }
[ -x "$pc" ] || { echo "bench: $pc: not an executable" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" <<'PY'
import json, random, sys
out = sys.argv[1]
def fleet(seed, raw, shift):
    rnd = random.Random(seed)
    cpus = {}
    for c in range(100):
        probes = {}
        for p in range(30):
            base = 5 + 3 * p
            med = base * (shift if p % 7 == 0 else 1.0)
            samples = sorted(med * (1 + rnd.gauss(0, 0.01)) for _ in range(1000))
            q = lambda f: samples[int(f * 999)]
            summ = lambda k: {"min": round(samples[0] * k, 4), "q1": round(q(.25) * k, 4),
                              "median": round(q(.5) * k, 4), "q3": round(q(.75) * k, 4),
                              "max": round(samples[-1] * k, 4), "mad": round(med * 0.0067 * k, 4)}
            pr = {"status": "ok", "ring": 3, "group": "bench", "run": 0,
                  "cycles_source": "calibrated", "samples": 1000,
                  "ticks": summ(0.75), "cycles": summ(1), "ns": summ(0.3)}
            if raw:
                rnd.shuffle(samples)
                pr["raw"] = {"ticks": [round(v * 0.75, 4) for v in samples],
                             "cycles": [round(v, 4) for v in samples]}
            probes["probe%02d" % p] = pr
        cpus["x86_64.bench.%d-1-1.cpu-%03d" % (c, c)] = {
            "cpu": {"arch": "x86_64", "brand": "bench cpu %d" % c,
                    "timer": {"name": "tsc", "hz": 2.5e9}},
            "runs": [{"date": "2026-01-01T00:00:00Z", "cycles_source": "calibrated"}],
            "probes": probes}
    return {"schema": "primcost-result/1", "cpus": cpus}
for raw in (0, 1):
    name = "raw-arrays" if raw else "summaries"
    json.dump(fleet(1, raw, 1.0), open("%s/%s-a.json" % (out, name), "w"), separators=(",", ":"))
    json.dump(fleet(2, raw, 1.05), open("%s/%s-b.json" % (out, name), "w"), separators=(",", ":"))
PY

# The packed files, as primcost writes them: merge packs arrays it copies.
for side in a b; do
	./primcost merge -q -o "$tmp/raw-$side.json" "$tmp/raw-arrays-$side.json"
done

for kind in summaries raw raw-arrays; do
	a="$tmp/$kind-a.json"
	b="$tmp/$kind-b.json"
	size=$(( $(stat -c %s "$a") / 1024 ))
	i=0
	: >"$tmp/times"
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -v "$pc" compare "$a" "$b" \
			>/dev/null 2>"$tmp/time" || { cat "$tmp/time" >&2; exit 1; }
		wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time" |
			awk -F: '{ print ($1 * 60 + $2) * 1000 }')
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
		cpu=$(sed -n 's/.*\(User\|System\) time (seconds): //p' "$tmp/time" |
			awk '{ s += $1 } END { print s * 1000 }')
		echo "$wall $rss $cpu" >>"$tmp/times"
		i=$((i + 1))
	done
	"$pc" compare --format json "$a" "$b" >"$tmp/out.json"
	verdicts=$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdicts"]; print("%d slower, %d faster, %d same" % (v["slower"], v["faster"], v["same"]))' "$tmp/out.json")
	sort -n "$tmp/times" | awk -v k="$kind" -v s="$size" -v v="$verdicts" '
		{ w[NR] = $1; r[NR] = $2; c[NR] = $3 }
		END { m = int((NR + 1) / 2);
		      printf "%-10s 2 files x %6d KiB: wall %5.0f ms (min %5.0f, max %5.0f), cpu %5.0f ms, peak RSS %6.1f MiB; %s\n",
			k, s, w[m], w[1], w[NR], c[m], r[m] / 1024, v }'
done
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) CPUs"
