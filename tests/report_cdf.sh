#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost report draws each allocator point's single calls as their
# cumulative distribution: a chart per size (and panel) with a line per
# series and CPU, each line's figures (data-cdf) rising from 0 to 1 in
# order, the test allocator's slow mode (every 10th malloc spinning 20 us)
# holding a tenth of the calls there as in the result's histogram, p50 and
# p99 marked, a caption that says cycles, the timer's cost and the
# resolution; the points' percentiles in tables and in the text view
# (readable at 60 columns); nothing of it for files without single calls.
# Checked on the page's markup, never its pixels.
. "${PC_SRCDIR}/tests/lib.sh"
lib=$PC_BUILDDIR/tests/libpctestalloc.so
ref="$PC_SRCDIR/data/reference"
export PRIMCOST_REFERENCE_DIR="$ref"

PRIMCOST_TEST_ALLOCATOR=$lib PRIMCOST_TEST_ALLOCATOR_EVERY=10 PRIMCOST_TEST_ALLOCATOR_SLOW_US=20 \
	pc run --allocator test -p alloc.malloc_free -n 9 -q -o "$pc_tmp/k10.json"
ok $(test $pc_rc -le 1 && test -s "$pc_tmp/k10.json"; echo $?) \
	"run --allocator test, every 10th malloc slow$(head -c 300 "$pc_tmp/err")"

# The run's points as 3 and as 5 allocators', on two CPUs (the same
# figures): 6 lines a size fit one chart, 10 make a chart per series; and
# the run without its single calls.
"$PYTHON3" - "$pc_tmp" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import allocators_file
t = sys.argv[1]
allocators_file(t + "/k10.json", t + "/three.json", ("test", "glibc", "jemalloc"))
allocators_file(t + "/k10.json", t + "/five.json", ("test", "a", "b", "c", "d"))
d = json.load(open(t + "/k10.json"))
for e in d["cpus"].values():
    for p in e["probes"].values():
        for pt in p.get("points", []):
            pt.pop("latency", None)
json.dump(d, open(t + "/none.json", "w"))
PY
for f in k10 three five none; do
	pc report -o "$pc_tmp/$f.html" "$pc_tmp/$f.json"
	ok $(test $pc_rc -eq 0 && test -s "$pc_tmp/$f.html"; echo $?) \
		"report of $f.json$(head -c 200 "$pc_tmp/err")"
done

"$PYTHON3" - "$pc_tmp" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, re, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
t = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"
COLOURS = ("#0072b2", "#e69f00")

def points(name):
    """The file's points with single calls: {(cpu key, row name): point}."""
    d = json.load(open("%s/%s.json" % (t, name)))
    out = {}
    for key, e in d["cpus"].items():
        for probe, p in e["probes"].items():
            for pt in p.get("points", []):
                if pt.get("latency"):
                    out[(key, "%s.%s.%d" % (probe, pt["allocator"], pt["size"]))] = pt
    return out

def charts(name):
    """The page's charts of single calls, parsed, and the page."""
    page = open("%s/%s.html" % (t, name)).read()
    svgs = re.findall(r'<svg [^>]*class="calls".*?</svg>', page, re.S)
    return [ET.fromstring(s) for s in svgs], page

def cdf(line):
    return [tuple(map(float, p.split(","))) for p in line.get("data-cdf").split()]

def at(c, x):
    """The fraction of calls at most x cycles (the buckets ending by x)."""
    return max([f for cx, f in c if cx <= x] or [0])

# One chart a size and panel, the right lines in it.
for name, per_size, lines in (("k10", 1, 1), ("three", 1, 6), ("five", 5, 2)):
    pts = points(name)
    svgs, page = charts(name)
    sizes = sorted({pt["size"] for pt in pts.values()})
    bad = []
    for size in sizes:
        mine = [s for s in svgs if float(s.get("data-x")) == size]
        drawn = sorted((l.get("data-cpu"), l.get("data-probe")) for s in mine
                       for l in s.iter(NS + "polyline"))
        want = sorted(k for k, pt in pts.items() if pt["size"] == size)
        if len(mine) != per_size or drawn != want or \
                any(len(list(s.iter(NS + "polyline"))) != lines for s in mine):
            bad.append("size %d: %d charts, %d lines" % (size, len(mine), len(drawn)))
    ok(len(sizes) >= 6 and len(svgs) == per_size * len(sizes) and not bad,
       "%s: a chart a size%s, each with %d line%s, one per series and CPU with single "
       "calls (%d sizes, %d charts)%s" % (name, " and series" if per_size > 1 else "",
       lines, "s" if lines > 1 else "", len(sizes), len(svgs),
       ": " + "; ".join(bad[:3]) if bad else ""))

# Six lines in a chart: each CPU's colour, each allocator's dash pattern
# the same on both CPUs and its own.
svgs, page = charts("three")
bad, dash = [], {}
for s in svgs:
    for l in s.iter(NS + "polyline"):
        cpu = 1 if l.get("data-cpu").endswith("-2") else 0
        alloc = l.get("data-probe").split(".")[2]
        if l.get("stroke") != COLOURS[cpu]:
            bad.append("%s colour %s" % (l.get("data-line"), l.get("stroke")))
        dash.setdefault(alloc, set()).add(l.get("stroke-dasharray"))
ok(not bad and all(len(v) == 1 for v in dash.values()) and
   len({min(v) for v in dash.values()}) == 3,
   "three: A's lines in A's colour, B's in B's, each allocator a dash pattern of its "
   "own (%s)%s" % (", ".join("%s '%s'" % (a, min(v)) for a, v in sorted(dash.items())),
                   ": " + "; ".join(bad[:3]) if bad else ""))
key = re.findall(r'<svg [^>]*class="key".*?</svg>', page, re.S)
ok(len(key) == 1 and all(">%s %s</text>" % (c, a) in key[0] for c in "AB"
                         for a in ("test", "glibc", "jemalloc")),
   "three: one key above the charts names the 6 lines (A test ... B jemalloc)")

# Every line rises from 0 to 1 in order, in its figures and on the page.
bad, n = [], 0
for name in ("k10", "three", "five"):
    for s in charts(name)[0]:
        w, h = (float(v) for v in s.get("viewBox").split()[2:])
        for l in s.iter(NS + "polyline"):
            n += 1
            c = cdf(l)
            px = [tuple(map(float, p.split(","))) for p in l.get("points").split()]
            if not (c and c[0][1] == 0 and c[-1][1] == 1 and
                    all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(c, c[1:])) and
                    all(0 <= f <= 1 for x, f in c)):
                bad.append("%s %s: figures" % (name, l.get("data-probe")))
            if not (len(px) == len(c) and
                    all(a[0] <= b[0] and a[1] >= b[1] for a, b in zip(px, px[1:])) and
                    all(0 <= x <= w and 0 <= y <= h for x, y in px)):
                bad.append("%s %s: points" % (name, l.get("data-probe")))
ok(n and not bad, "every line (%d) starts at 0, ends at 1 and never falls, its points "
   "inside its chart%s" % (n, ": " + "; ".join(bad[:3]) if bad else ""))

# The slow mode: a tenth of the calls between the spin and 4 times it, on
# the page as in the result's histogram.
doc = json.load(open(t + "/k10.json"))
run = next(iter(doc["cpus"].values()))["runs"][-1]
pts = points("k10")
if run.get("unreliable"):
    print("skip\tk10: the slow mode's mass on the page\tthe run is marked unreliable "
          "(%s): its single calls are not the CPU's" % run.get("unreliable_reason"))
else:
    bad, masses = [], []
    for s in charts("k10")[0]:
        for l in s.iter(NS + "polyline"):
            pt = pts[(l.get("data-cpu"), l.get("data-probe"))]
            spin = 20 * 1000 * pt["cycles"]["median"] / pt["ns"]["median"]
            c = cdf(l)
            mass = at(c, 4 * spin) - at(c, 0.9 * spin)
            lat = pt["latency"]
            step = 2 ** (1.0 / lat["histogram"]["per_octave"])
            fileside = sum(k for lo, k in lat["histogram"]["buckets"]
                           if 0.9 * spin < (lo * step if lo else 1) <= 4 * spin) / lat["calls"]
            masses.append(mass)
            if not (0.095 <= mass <= 0.108 and abs(mass - fileside) < 2e-3):
                bad.append("%d: %.4f (the file's %.4f)" % (pt["size"], mass, fileside))
    ok(len(masses) >= 6 and not bad, "k10: each line holds the slow mode's tenth of the "
       "calls, as its histogram does (%d lines, %.4f to %.4f)%s" % (len(masses),
       min(masses or [0]), max(masses or [0]), ": " + "; ".join(bad[:4]) if bad else ""))

# p50 and p99: a dashed line each, named, and each line's marked at its own.
def fig(v):
    return "%.*f" % (1 if v < 100 else 0, v)
svgs, page = charts("k10")
bad = []
for s in svgs:
    words = [x.text for x in s.iter(NS + "text")]
    if words.count("p50") != 1 or words.count("p99") != 1:
        bad.append("%s: the dashed lines' names" % s.get("data-x"))
    tips = [x.text for x in s.iter(NS + "title")]
    for l in s.iter(NS + "polyline"):
        lat = pts[(l.get("data-cpu"), l.get("data-probe"))]["latency"]
        for q in ("p50", "p99"):
            want = "%s %s: %s %s cycles" % (l.get("data-line"), l.get("data-probe"), q,
                                            fig(lat[q]))
            if want not in tips:
                bad.append(want)
ok(svgs and not bad, "k10: every chart names its p50 and p99 lines, every line's "
   "p50 and p99 are marked at the file's figures%s" % (": " + "; ".join(bad[:3]) if bad else ""))

# The x axis: powers of ten, ascending; the caption says what is drawn.
ticks = [[x.text for x in s.iter(NS + "text") if x.get("text-anchor") == "middle"
          and re.fullmatch(r"[0-9]+[kM]?", x.text or "")] for s in svgs]
val = lambda w: float(w[:-1]) * {"k": 1e3, "M": 1e6}[w[-1]] if w[-1] in "kM" else float(w)
ok(all(len(k) >= 2 and all(val(b) == 10 * val(a) for a, b in zip(k, k[1:])) for k in ticks)
   and len({tuple(k) for k in ticks}) == 1,
   "k10: every chart's x axis the same powers of ten (%s)" % " ".join(ticks[0] if ticks else []))
cap = re.findall(r"<figcaption>alloc: single calls[^<]*</figcaption>", page)
res = max(pt["latency"]["resolution_cycles"] for pt in pts.values())
timer = max(pt["latency"]["timer_cycles"] for pt in pts.values())
ok(len(cap) == 1 and "cycles, on a logarithmic scale" in cap[0] and
   "timer's own cost subtracted (%s cycles)" % fig(timer) in cap[0] and
   "resolves %s cycles" % fig(res) in cap[0] and "%d charts on the same axes" % len(svgs) in cap[0],
   "k10: the caption names the fraction of calls, cycles on a log scale, the timer's cost "
   "(%s) and the resolution (%s)" % (fig(timer), fig(res)))

# The percentiles in tables, a cell per point and percentile.
tabs = re.findall(r'<table class="calls">.*?</table>', page, re.S)
cells = sum(len(re.findall(r'data-probe="alloc\.malloc_free\.test\.\d+"', x)) for x in tabs)
ok(len(tabs) == 1 and cells == len(pts) and
   all(">%s</td>" % fig(pt["latency"]["p99.9"]) in tabs[0] for pt in pts.values()),
   "k10: a table of the points' p50, p90, p99 and p99.9 by size (%d points)" % cells)

# Without single calls, none of it.
bad = []
for name in ("none",):
    page = open("%s/%s.html" % (t, name)).read()
    if 'class="calls"' in page or "-calls\"" in page or "single calls" in page:
        bad.append(name)
ok(not bad and "alloc.malloc_free" in page,
   "the run without single calls: its lines of medians, no distribution")
PY
import_checks "$pc_tmp/checks" "the distributions' checks"

# Published allocator points and probes measured once: no section.
pc report -o "$pc_tmp/ref.html" amd-athlon64-x2-3800-kmalloc "$PC_SRCDIR/tests/fixtures/result.json"
ok $(test $pc_rc -eq 0 && ! grep -q 'class="calls"\|single calls' "$pc_tmp/ref.html"; echo $?) \
	"the 2007 kmalloc table and a run of probes: no distribution of single calls"

# The text view: the percentiles a row per point and a group per CPU,
# within 60 columns (a name too long for the room beside a group on a line
# of its own, its figures under it).
COLUMNS=60 pc report -f text -o - "$pc_tmp/three.json"
text=$("$PYTHON3" - "$pc_tmp/out" "$pc_tmp/three.json" <<'PY'
import json, re, sys
out = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))
fig = lambda v: "%.*f" % (1 if v < 100 else 0, v)
want = {}
for e in d["cpus"].values():
    for probe, p in e["probes"].items():
        for pt in p.get("points", []):
            if pt.get("latency"):
                name = "%s.%s.%d" % (probe, pt["allocator"], pt["size"])
                want.setdefault(name, []).append([fig(pt["latency"][k])
                                                  for k in ("p50", "p90", "p99", "p99.9")])
at = [i for i, l in enumerate(out) if l.startswith("single calls: cycles per call at p50, "
                                                      "p90, p99 and p99.9")]
bad, rows, name, alone = [], 0, None, 0
for l in out[at[0] if at else len(out):]:
    m = re.fullmatch(r"(\S*) +([0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+)", l)
    if re.fullmatch(r"alloc\.\S+", l):
        name, alone = l, alone + 1
    elif m:
        name = m.group(1) or name
        rows += 1
        if list(m.groups()[1:]) not in want.get(name, []):
            bad.append(name)
wide = [l for l in out if len(l) > 60]
n = sum(len(v) for v in want.values())
print("ok" if at and rows == n and alone and not bad and not wide else "not ok",
      "%d of %d rows, %d names alone, %d wider than 60%s" % (rows, n, alone, len(wide),
      ", wrong: " + " ".join(bad[:3]) if bad else ""))
PY
)
ok $(test $pc_rc -eq 0 && test "${text%% *}" = ok; echo $?) \
	"report -f text at 60 columns: each point's p50, p90, p99 and p99.9 on each CPU, as in the file (${text#* })"
COLUMNS=60 pc report -f text -o - "$pc_tmp/none.json"
ok $(test $pc_rc -eq 0 && ! grep -q 'single calls' "$pc_tmp/out"; echo $?) \
	"report -f text without single calls: the matrix alone"

if command -v xmllint >/dev/null 2>&1; then
	awk -v dir="$pc_tmp" '/<svg /{ n++; f = dir "/c" n ".svg" } f { print > f }
		/<\/svg>/{ close(f); f = "" }' "$pc_tmp/three.html"
	xmllint --noout "$pc_tmp"/c*.svg 2>"$pc_tmp/xml.err"
	ok $? "every SVG of the page of three allocators is well-formed XML$(head -1 \
		"$pc_tmp/xml.err" | sed 's/^/: /')"
else
	skip "xmllint is not installed (Debian: libxml2-utils)" "every SVG is well-formed XML"
fi
done_testing
