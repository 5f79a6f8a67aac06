#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/physical.sh - whether every figure is physical, quiet and loaded
# (a benchmark, not a test).
#
#   bench/physical.sh [RUNS] [SMALL]
#
# 1. RUNS (default 20) default runs with -k: the wall time of each, and the
#    lowest per-operation sample (min) of every ok probe over all of them,
#    which must not be below -0.05 cycles.
# 2. 5 quiet runs, then 5 under bench/busy-host.sh (a CPU load and a
#    compile on both CPUs): per probe the median of the quiet medians, the
#    loaded medians' largest distance from it, and how many loaded runs
#    called it noisy; then `compare` of a loaded run against a quiet one and
#    of a quiet run against another, and the verdicts the first gives that
#    the second does not.
# 3. SMALL (default 200) runs of `run -p cmpxchg -n 9`: the figures outside
#    10 % of the quiet median, and whether their run said it was
#    unreliable.
# The load average is printed before each part: quiet means quiet.
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-20}
small=${2:-200}
say() { printf '%s\n' "$*"; }

say "== 1: $runs default runs with -k (load: $(cut -d' ' -f1-3 /proc/loadavg))"
i=1
while [ "$i" -le "$runs" ]; do
	timed_run "$tmp/wall-k$i" -q -k -o "$tmp/k$i.json"
	i=$((i + 1))
done
say "== 2: 5 quiet runs, 5 loaded (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
for i in 1 2 3 4 5; do
	$prog run -q -o "$tmp/quiet$i.json"
done
for i in 1 2 3 4 5; do
	bench/busy-host.sh $prog run -q -o "$tmp/busy$i.json" 2>>"$tmp/busy.log"
done
$prog compare "$tmp/quiet1.json" "$tmp/busy1.json" >"$tmp/cmp-busy.txt" || true
$prog compare "$tmp/quiet1.json" "$tmp/quiet2.json" >"$tmp/cmp-quiet.txt" || true
say "== 3: $small runs of run -p cmpxchg -n 9 (load: $(cut -d' ' -f1-3 /proc/loadavg))"
i=1
while [ "$i" -le "$small" ]; do
	$prog run -q -p cmpxchg -n 9 -o "$tmp/small$i.json"
	i=$((i + 1))
done

python3 - "$tmp" "$runs" "$small" <<'PY'
import json, statistics, sys
tmp, runs, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def probes(path):
    doc = json.load(open(path))
    cpu = next(iter(doc["cpus"].values()))
    return cpu["probes"], cpu["runs"][-1]

walls, lowest = [], {}
for i in range(1, runs + 1):
    t0, t1 = map(float, open("%s/wall-k%d" % (tmp, i)).read().split())
    walls.append(t1 - t0)
    for name, p in probes("%s/k%d.json" % (tmp, i))[0].items():
        if p.get("status") == "ok" and "cycles" in p:
            lowest[name] = min(lowest.get(name, 1e300), p["cycles"]["min"])
print("wall time: median %.2f s, max %.2f s" % (statistics.median(walls), max(walls)))
neg = {k: v for k, v in lowest.items() if v < -0.05}
print("ok probes' lowest sample over %d runs: %s" % (runs, ", ".join(
    "%s %.3f" % kv for kv in sorted(lowest.items(), key=lambda kv: kv[1])[:6])))
print("below -0.05 cycles: %s" % (", ".join(sorted(neg)) or "none"))

quiet = [probes("%s/quiet%d.json" % (tmp, i))[0] for i in range(1, 6)]
busy = [probes("%s/busy%d.json" % (tmp, i))[0] for i in range(1, 6)]
print("%-24s %10s %9s %9s %6s" % ("probe", "quiet", "quiet+-%", "loaded+-%", "noisy"))
bad = []
for name in quiet[0]:
    q = [p[name]["cycles"]["median"] for p in quiet if p[name].get("status") == "ok"]
    if len(q) < 3:
        continue
    qm = statistics.median(q)
    qs = max(abs(x - qm) for x in q) / abs(qm) * 100 if qm else 0
    ok = [p[name]["cycles"]["median"] for p in busy if p[name].get("status") == "ok"]
    noisy = sum(p[name].get("status") == "noisy" for p in busy)
    bs = max((abs(x - qm) for x in ok), default=0) / abs(qm) * 100 if qm else 0
    if qm and abs(qm) > 0.05 and bs > 3:
        bad.append(name)
    print("%-24s %10.3f %8.2f%% %8.2f%% %6d" % (name, qm, qs, bs, noisy))
print("loaded ok figures over 3 %% from the quiet median: %s" % (", ".join(bad) or "none"))
def verdicts(path):
    out = set()
    for line in open(path):
        f = line.split()
        if f and any(v in f for v in ("slower", "faster")):
            out.add(f[0])
    return out
vb, vq = verdicts(tmp + "/cmp-busy.txt"), verdicts(tmp + "/cmp-quiet.txt")
print("compare loaded vs quiet: verdicts on %s; quiet vs quiet: on %s; only loaded: %s" % (
    ", ".join(sorted(vb)) or "none", ", ".join(sorted(vq)) or "none",
    ", ".join(sorted(vb - vq)) or "none"))

ref = statistics.median(p["cmpxchg"]["cycles"]["median"] for p in quiet)
out, unrel = [], 0
for i in range(1, small + 1):
    p, run = probes("%s/small%d.json" % (tmp, i))
    c = p["cmpxchg"]
    if run.get("unreliable"):
        unrel += 1
    m = c.get("cycles", {}).get("median")
    if m is not None and abs(m / ref - 1) > 0.10:
        out.append((i, m, c.get("status"), bool(run.get("unreliable"))))
print("small runs: %d, unreliable %d, figures outside 10 %% of %.2f: %d %s" % (
    small, unrel, ref, len(out), out[:10]))
PY
