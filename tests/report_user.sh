#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost report serves the user's own files: with them, the page leads
# with their overview (and the verdicts of a comparison), the answers to
# the published questions after it, then the published tables beside
# them; without them, the answers first as before; a table wider than the page
# scrolls in its own box, and the allocator's lines are tables of whole
# panels that fit; twelve CPUs each have a
# colour and a marker shape of their own; a core-to-core matrix is a heat
# map; the answers use every CPU that measured both probes, the user's run
# --locks included. Checked on
# the page's markup, never its pixels; tests/fixtures/locks-matrix.json is
# a real run --locks --threads 1,2 --matrix of lock.ticket, lock.qspinlock
# and c2c.latency on a VM of 2 CPUs (its kernel command line shortened).
. "${PC_SRCDIR}/tests/lib.sh"

ref="$PC_SRCDIR/data/reference"
fix="$PC_SRCDIR/tests/fixtures/result.json"
locks="$PC_SRCDIR/tests/fixtures/locks-matrix.json"
export PRIMCOST_REFERENCE_DIR="$ref"
key=$("$PYTHON3" -c 'import json, sys; print(next(iter(json.load(open(sys.argv[1]))["cpus"])))' "$locks")

# ---- the order: the user's files first ---------------------------------------
pc report -o "$pc_tmp/mine.html" "$fix" "$locks" intel-itanium2-9050 amd-opteron-interlagos
order=$("$PYTHON3" - "$pc_tmp/mine.html" "$fix" "$locks" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
mine = [next(iter(json.load(open(p))["cpus"])) for p in sys.argv[2:]]
summary = page.split('id="summary"', 1)[1].split("</section>", 1)[0]
bad = []
heads = re.findall(r'<h3 id="([a-z-]+)"', summary)
if heads != ["overview", "answers", "published"]:
    bad.append("sections %s" % heads)
first = summary.split('id="answers"', 1)[0]
keys = re.findall(r'<tr data-cpu="([^"]*)">', first)
cols = re.findall(r"<th>([A-Z])</th>", "".join(re.findall(r'<table class="overview">.*?</tr>', first, re.S)))
if keys != mine or sorted(set(cols)) != ["A"]:
    bad.append("the lead's CPUs %s, matrix columns %s" % (keys, cols))
last = summary.split('id="published"', 1)[1]
if re.findall(r'<tr data-cpu="([^"]*)">', last.split("</table>", 1)[0]) == [] or \
        any(k in last.split("</table>", 1)[0] for k in mine):
    bad.append("the published tables' key")
if page.find("<svg ") < page.find('id="published"'):
    bad.append("a chart before the summary's end")
print("; ".join(bad) if bad else "ok")
PY
)
ok $(test $pc_rc -eq 0 && test "$order" = ok; echo $?) \
	"the user's two files lead (their key, their matrix), the answers follow, then the published tables ($order)"
# A comparison: B's cmpxchg twice A's, its verdict said before the matrix.
"$PYTHON3" - "$fix" "$pc_tmp/slower.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    for u in ("cycles", "ticks", "ns"):
        for k in e["probes"]["cmpxchg"][u]:
            e["probes"]["cmpxchg"][u][k] *= 2
    e["probes"]["cmpxchg"].pop("raw", None)
json.dump(d, open(sys.argv[2], "w"))
PY
pc report -o "$pc_tmp/cmp.html" "$fix" "$pc_tmp/slower.json"
v=$(grep -o '<p class="verdicts">[^<]*' "$pc_tmp/cmp.html")
at_v=$(grep -n 'class="verdicts"' "$pc_tmp/cmp.html" | cut -d: -f1)
at_m=$(grep -n '<table class="overview"' "$pc_tmp/cmp.html" | head -1 | cut -d: -f1)
at_a=$(grep -n 'id="answers"' "$pc_tmp/cmp.html" | cut -d: -f1)
ok $(test $pc_rc -eq 0 && test "${at_v:-0}" -gt 0 && test "$at_v" -lt "${at_m:-0}" &&
	test "$at_m" -lt "${at_a:-0}" && echo "$v" | grep -q '^<p class="verdicts">B against A: 1 slower (cmpxchg' &&
	grep -q 'class="verdicts">B against A: [^<]*<a href="#comparison">' "$pc_tmp/cmp.html"; echo $?) \
	"a comparison of two files: B's verdicts against A lead, before the matrix and the answers (${v#*>})"
# Published tables only: the answers first, as before.
pc report -o "$pc_tmp/pub.html" intel-itanium2-9050 intel-pentium4
at_a=$(grep -n 'id="answers"' "$pc_tmp/pub.html" | cut -d: -f1)
at_o=$(grep -n 'id="overview"' "$pc_tmp/pub.html" | cut -d: -f1)
ok $(test $pc_rc -eq 0 && test "${at_a:-0}" -gt 0 && test "$at_a" -lt "${at_o:-0}" &&
	! grep -q 'id="published"' "$pc_tmp/pub.html"; echo $?) \
	"published tables only: the answers lead, then the overview of every CPU"

# ---- the answers: every CPU that measured both probes ----------------------
pc report -o "$pc_tmp/locks.html" "$locks" amd-opteron-interlagos intel-xeon-westmere-ep
answers=$("$PYTHON3" - "$pc_tmp/locks.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
dl = page.split('id="answers"', 1)[1].split("</dl>", 1)[0]
q = dl.split("the queued lock against the ticket lock", 1)
print(" ".join(re.findall(r'<dd data-cpu="([^"]*)"', q[1].split("<dt>", 1)[0])) if len(q) == 2 else "")
PY
)
n=$(echo "$answers" | wc -w)
ok $(test $pc_rc -eq 0 && test "$n" -eq 3 && echo "$answers" | grep -qF "$key" &&
	grep -q 'lock.qspinlock.compact.threads2 is [0-9.]* times [a-z]* than lock.ticket.compact.threads2 here' "$pc_tmp/locks.html" &&
	! grep -q 'Not answered here[^<]*queued lock' "$pc_tmp/locks.html"; echo $?) \
	"queued vs ticket lock: the user's run --locks answers it beside the two 2014 tables ($n CPUs: $answers)"

# ---- the page's width --------------------------------------------------------
# Four allocators on two CPUs (the 2007 kmalloc table's points under four
# allocators' names): 24 lines over 12 sizes, a table of 24 columns
# before, wider than the page.
"$PYTHON3" - "$ref/amd-athlon64-x2-3800-kmalloc.json" "$pc_tmp/alloc4.json" <<'PY'
import os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import allocators_file
allocators_file(sys.argv[1], sys.argv[2], ("glibc", "jemalloc", "tcmalloc", "mimalloc"),
                "slub-base", 0.1)
PY
pc report -o "$pc_tmp/alloc4.html" "$pc_tmp/alloc4.json"
wide=$("$PYTHON3" - "$pc_tmp/alloc4.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
bad = []
tables = page.count("<table")
boxed = len(re.findall(r'<div class="wide">\n<table', page))
if boxed != tables:
    bad.append("%d of %d tables in a box of their own" % (boxed, tables))
lines = [t for t in re.findall(r'<table class="figures">.*?</table>', page, re.S)
         if "alloc.malloc" in t]
cols = [len(re.findall(r"<th>", t.split("</tr>", 2)[1])) for t in lines]
cells = sum(len(re.findall(r'data-probe="alloc\.', t)) for t in lines)
if not cols or max(cols) > 7 or cells != 2 * 3 * 4 * 12:
    bad.append("tables of lines with %s columns, %d figures" % (cols, cells))
svg = [int(w) for w in re.findall(r'<svg [^>]*width="(\d+)"', page)]
if max(svg) > 1120:
    bad.append("a chart %d pixels wide" % max(svg))
print("; ".join(bad) if bad else "ok: %d tables of %s columns" % (len(cols), cols))
PY
)
ok $(test $pc_rc -eq 0 && test "${wide%%:*}" = ok; echo $?) \
	"4 allocators on 2 CPUs: every table in a box of its own, the lines' figures in tables of whole panels of at most 6 lines, no chart wider than the page ($wide)"

# ---- c2c's pairs: a heat map -----------------------------------------------
# The fixture's pair (0,1) as four CPUs' six pairs, dearer across the two
# halves, on two machines.
"$PYTHON3" - "$locks" "$pc_tmp/matrix.json" <<'PY'
import copy, json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import scale, two_cpus
d = json.load(open(sys.argv[1]))
key, e = next(iter(d["cpus"].items()))
c2c = e["probes"]["c2c.latency"]
pt0, c2c["points"] = c2c["points"][0], []
for a in range(4):
    for b in range(a + 1, 4):
        pt = copy.deepcopy(pt0)
        pt["cpus"] = "%d,%d" % (a, b)
        scale(pt, 1 + a + b)
        c2c["points"].append(pt)
two_cpus(d, key, e, sys.argv[2])
PY
pc report -o "$pc_tmp/matrix.html" "$pc_tmp/matrix.json"
heat=$("$PYTHON3" - "$pc_tmp/matrix.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
bad = []
svgs = re.findall(r"<svg .*?</svg>", page, re.S)
maps = [s for s in svgs if 'class="heatmap"' in s]
if len(maps) != 2 or len({re.search(r'data-cpu="([^"]*)"', m).group(1) for m in maps}) != 2:
    bad.append("%d maps" % len(maps))
def lum(h):
    return sum(w * int(h[i:i + 2], 16) for w, i in ((0.2126, 1), (0.7152, 3), (0.0722, 5)))
for m in maps:
    cells = re.findall(r'<rect [^>]*fill="(#[0-9a-f]{6})" data-probe="c2c\.latency\.cpus(\d),(\d)">'
                       r'<title>[^<]*: ([0-9.]+) cycles', m)
    pairs = {(int(a), int(b)) for _, a, b, _ in cells}
    if len(cells) != 12 or len(pairs) != 6:
        bad.append("%d cells of %d pairs (want both orders of 6)" % (len(cells), len(pairs)))
        continue
    cheap, dear = min(cells, key=lambda c: float(c[3])), max(cells, key=lambda c: float(c[3]))
    if not lum(dear[0]) < lum(cheap[0]):
        bad.append("the dearest pair not darker")
    if len(re.findall(r'<text [^>]*class="cell[^"]*">\d+</text>', m)) != 12:
        bad.append("not every figure in its cell")
    scale = m.split('<g class="scale">', 1)[-1].split("</g>", 1)[0]
    if scale.count("<rect ") != 9 or "cycles per one-way transfer of a line" not in scale:
        bad.append("no scale of 9 steps with its unit")
    for n in range(4):
        if not re.search(r'text-anchor="middle">%d</text>' % n, m):
            bad.append("CPU %d not named" % n)
if any("c2c.latency" in s for s in svgs if s not in maps):
    bad.append("a chart other than the maps draws c2c")
if len(re.findall(r'<tr data-probe="c2c\.latency\.cpus\d,\d">', page)) != 6:
    bad.append("the table has not the 6 pairs")
ov = "".join(re.findall(r'<table class="overview">.*?</table>', page, re.S))
if "c2c.latency" in ov:
    bad.append("pairs in the overview matrix")
print("; ".join(bad) if bad else "ok")
PY
)
ok $(test $pc_rc -eq 0 && test "$heat" = ok; echo $?) \
	"c2c's pairs: a heat map CPU x CPU per machine, figures in the cells, a scale with its unit, dearer darker; in the table, no bar, not in the overview ($heat)"
# The fixture's one pair: the scale from half its figure, not from the
# figure itself to itself.
pc report -o "$pc_tmp/one.html" "$locks"
ends=$("$PYTHON3" - "$pc_tmp/one.html" "$locks" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
e = next(iter(json.load(open(sys.argv[2]))["cpus"].values()))
fig = e["probes"]["c2c.latency"]["points"][0]["cycles"]["median"]
scale = page.split('<g class="scale">', 1)[1].split("</g>", 1)[0]
ends = [float(v) for v in re.findall(r'text-anchor="(?:start|end)">([0-9.]+)<', scale)]
print("ok" if len(ends) == 2 and abs(ends[0] - fig / 2) < 0.01 * fig and
      abs(ends[1] - fig) < 0.01 * fig else "%s for %s" % (ends, fig))
PY
)
ok $(test $pc_rc -eq 0 && test "$ends" = ok; echo $?) \
	"a heat map's scale spans a factor of two at least: one pair's map from half its figure ($ends)"
if command -v xmllint >/dev/null 2>&1; then
	awk -v dir="$pc_tmp" '/<svg .*class="heatmap"/{ n++; f = dir "/heat" n ".svg" } f { print > f }
		/<\/svg>/{ close(f); f = "" }' "$pc_tmp/matrix.html"
	xmllint --noout "$pc_tmp"/heat*.svg 2>"$pc_tmp/xml.err"
	ok $(test $? -eq 0 && test "$(ls "$pc_tmp"/heat*.svg | wc -l)" -eq 2; echo $?) \
		"the heat maps are well-formed XML$(head -1 "$pc_tmp/xml.err" | sed 's/^/: /')"
else
	skip "xmllint is not installed (Debian: libxml2-utils)" "the heat maps are well-formed XML"
fi

# ---- twelve CPUs, twelve styles ------------------------------------------
# Twelve copies of Westmere's lock table (lines over threads, markers at
# each point): each CPU's colour and marker shape, in the key and in the
# charts, differ from every other's.
"$PYTHON3" - "$ref/intel-xeon-westmere-ep.json" "$pc_tmp/twelve.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
key, e = next(iter(d["cpus"].items()))
d["cpus"] = {}
for i in range(12):
    c = copy.deepcopy(e)
    c["cpu"]["brand"] = "CPU %d" % i
    d["cpus"]["%s-%02d" % (key, i)] = c
json.dump(d, open(sys.argv[2], "w"))
PY
pc report -o "$pc_tmp/twelve.html" "$pc_tmp/twelve.json"
styles=$("$PYTHON3" - "$pc_tmp/twelve.html" <<'PY'
import itertools, math, re, sys
page = open(sys.argv[1]).read()
bad = []
# the key: a glyph and its colour before each CPU's letter
key = re.findall(r'<span class="g" style="color:(#[0-9a-f]{6})">(&#[0-9]+;)</span> ([A-L])<',
                 page.split('<table class="key">', 1)[1].split("</table>", 1)[0])
if len(key) != 12 or len({c for c, _, _ in key}) != 12 or len({g for _, g, _ in key}) != 12:
    bad.append("key: %d CPUs, %d colours, %d glyphs" % (len(key), len({c for c, _, _ in key}),
                                                        len({g for _, g, _ in key})))
# the charts: each CPU's markers, by their shape (the element, its fill
# or outline, the path's commands and their signs) and colour, the same
# for one CPU wherever drawn and different from every other CPU's
marks = {}
for el, attrs, tip in re.findall(r'<(circle|path) ([^>]*)><title>([A-L]) [^<]*</title>', page):
    cmds = re.sub(r"[0-9. ]", "", re.search(r'd="([^"]*)"', attrs).group(1)) if el == "path" else ""
    fill = re.search(r'fill="([^"]*)"', attrs).group(1)
    colour = re.search(r'(?:stroke|fill)="(#(?!fff)[0-9a-f]{6})"', attrs).group(1)
    marks.setdefault(tip, set()).add((el, cmds, "open" if fill in ("#fff", "none") else "filled",
                                      colour))
if len(marks) != 12 or any(len(v) != 1 for v in marks.values()):
    bad.append("markers: %d CPUs, styles %s" % (len(marks), [len(v) for v in marks.values()]))
shapes = {next(iter(v))[:3] for v in marks.values()}
if len(shapes) != 12:
    bad.append("%d marker shapes" % len(shapes))
# the colours far apart: CIE76 Delta E at least 20 between any two
def lab(h):
    lin = [(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
           for c in (int(h[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    x, y, z = (sum(m * v for m, v in zip(row, lin)) for row in
               ((0.4124 / 0.95047, 0.3576 / 0.95047, 0.1805 / 0.95047),
                (0.2126, 0.7152, 0.0722), (0.0193 / 1.08883, 0.1192 / 1.08883, 0.9505 / 1.08883)))
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
close = min(math.dist(lab(a), lab(b)) for a, b in itertools.combinations({c for c, _, _ in key}, 2))
if close < 20:
    bad.append("two colours only %.1f apart" % close)
print("; ".join(bad) if bad else "ok %.0f" % close)
PY
)
ok $(test $pc_rc -eq 0 && test "${styles%% *}" = ok; echo $?) \
	"12 CPUs: 12 colours and 12 marker shapes, in the key and every chart, any two colours at least Delta E 20 apart ($styles)"
done_testing
