#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost report read as text: every probe and CPU of the input is on the
# page, self-contained (no script, nothing fetched), reasons said once as
# numbered notes; -o - and the errors; compare --matrix at 80 columns.
. "${PC_SRCDIR}/tests/lib.sh"

ref="$PC_SRCDIR/data/reference"
fix="$PC_SRCDIR/tests/fixtures/result.json"
export PRIMCOST_REFERENCE_DIR="$ref"

pc report -o "$pc_tmp/r.html" "$fix" intel-itanium2-9050 intel-pentium4
ok $(test $pc_rc -eq 0 && test -s "$pc_tmp/r.html" && test ! -s "$pc_tmp/out"; echo $?) \
	"report -o FILE writes the page and nothing on standard output"
missing=$("$PYTHON3" - "$pc_tmp/r.html" "$fix" "$ref/intel-itanium2-9050.json" \
	"$ref/intel-pentium4.json" <<'PY'
import html, json, sys
page = open(sys.argv[1]).read()
miss = []
for path in sys.argv[2:]:
    for key, e in json.load(open(path))["cpus"].items():
        if 'data-cpu="%s"' % html.escape(key) not in page:
            miss.append(key)
        miss += [p for p in e["probes"] if 'data-probe="%s"' % html.escape(p) not in page]
print(" ".join(miss))
PY
)
ok $(test -z "$missing"; echo $?) "every CPU and probe of the three inputs is on the page${missing:+ (missing: $missing)}"
ok $(! grep -qiE '<script|<link|<img|<iframe|<object|src=|href="[a-z]+:|url\(|@import' "$pc_tmp/r.html"; echo $?) \
	"self-contained: no script, no link, nothing fetched"
n_svg=$(grep -c '<svg ' "$pc_tmp/r.html")
n_title=$(grep -c '<svg .*aria-labelledby' "$pc_tmp/r.html")
ok $(test "$n_svg" -ge 5 && test "$n_title" -eq "$n_svg" && grep -q '<desc id=' "$pc_tmp/r.html"; echo $?) \
	"a chart per probe group ($n_svg), each with a title and a description"
# A group whose figures span decades: a second calibration probe 500 times
# the add chain.
"$PYTHON3" - "$fix" >"$pc_tmp/decades.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    p = copy.deepcopy(e["probes"]["calib.add_chain"])
    for unit in ("cycles", "ns", "ticks"):
        for k in p.get(unit, {}):
            p[unit][k] *= 500
    p.pop("raw", None)
    e["probes"]["calib.mul_chain"] = p
    z = copy.deepcopy(p)
    for unit in ("cycles", "ns", "ticks"):
        for k in z.get(unit, {}):
            if k != "samples":
                z[unit][k] = 0
    e["probes"]["calib.zero"] = z
json.dump(d, sys.stdout)
PY
$PRIMCOST report -o "$pc_tmp/d.html" "$pc_tmp/decades.json" 2>/dev/null
ok $(grep -q 'calibration: cycles per operation (logarithmic scale)' "$pc_tmp/d.html" &&
	grep -q 'irq: cycles per operation (linear scale)' "$pc_tmp/r.html"; echo $?) \
	"log scale where a group spans decades, linear elsewhere, and the page says which"
ok $(! grep -q '<rect [^>]*><title>A calib.zero' "$pc_tmp/d.html" &&
	grep -q '<rect [^>]*><title>A calib.mul_chain' "$pc_tmp/d.html" &&
	grep -q '>0.00</text>' "$pc_tmp/d.html"; echo $?) \
	"a log scale draws no bar for 0: the figure is written instead"
$PRIMCOST report -o "$pc_tmp/w.html" intel-xeon-westmere-ep 2>/dev/null
ok $(grep -q 'spinlock_contended: cycles per operation over threads (logarithmic scale)' "$pc_tmp/w.html" &&
	test "$(grep -c '<polyline' "$pc_tmp/w.html")" -eq 4; echo $?) \
	"contention points are lines over threads, one per lock and node count"
reason="needs ring 0"
n_reason=$(grep -o "$reason" "$pc_tmp/r.html" | wc -l)
ok $(test "$n_reason" -le 1 && grep -q '<li id="note-1">' "$pc_tmp/r.html"; echo $?) \
	"a reason is said once, as a numbered note ($n_reason times)"
ok $(grep -q 'local_irq_save_restore here: 12.00 vs 21.45 cycles' "$pc_tmp/r.html"; echo $?) \
	"the answers: Itanium 2's cmpxchg_local against local_irq_save_restore"
ok $(! grep -q 'id="comparison"' "$pc_tmp/r.html"; echo $?) "three files: no comparison view"
order=$("$PYTHON3" - "$pc_tmp/r.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
marks = ['id="summary"', '<table class="overview"', 'id="answers"', 'id="published"', "<svg ",
         'id="notes"']
at = [page.find(m) for m in marks]
print("ok" if -1 not in at and at == sorted(at) and "<svg " not in page[at[5]:] and
      "<p>Note: " not in page else " ".join(map(str, at)))
PY
)
ok $(test "$order" = ok; echo $?) \
	"the summary (the run's overview matrix, the answers, the published tables) first, then the charts, the notes last${order#ok}"
ok $(grep -q '<title>B local_irq_save: ' "$pc_tmp/r.html" &&
	! grep -q '<title>A local_irq_save: ' "$pc_tmp/r.html"; echo $?) \
	"a chart draws only the CPUs with a figure: no bar for the fixture's skipped local_irq_save"
# Ticks: each axis's labels differ (decimals from the step).
dup=$("$PYTHON3" - "$pc_tmp/r.html" "$pc_tmp/d.html" <<'PY'
import re, sys
bad = []
for path in sys.argv[1:]:
    for svg in re.findall(r"<svg .*?</svg>", open(path).read(), re.S):
        ticks = re.findall(r'text-anchor="(?:middle|end)">([0-9][0-9.]*[kM]?)</text>', svg)
        if len(ticks) != len(set(ticks)):
            bad.append(" ".join(ticks))
print("; ".join(bad))
PY
)
ok $(test -z "$dup"; echo $?) "every axis's ticks differ${dup:+: $dup}"

pc report --baseline intel-pentium4 -o - amd-athlon64-x2-3800
ok $(test $pc_rc -eq 0 && grep -q 'id="comparison"' "$pc_tmp/out" &&
	grep -qE 'class="slower">&#9650; slower' "$pc_tmp/out"; echo $?) \
	"--baseline, -o -: the comparison view on standard output, verdicts as words with a sign"
ok $(grep -q 'local_irq_restore.popf' "$pc_tmp/out" && ! grep -q 'data-probe="local_irq_restore"' "$pc_tmp/out"; echo $?) \
	"the 2007 x86 'STI' loops are the popf row, not today's sti form"

pc report "$fix"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'no output' "$pc_tmp/err"; echo $?) \
	"no -o: one-line error, exit 2"
pc report -o "$pc_tmp/none/r.html" "$fix"
ok $(test $pc_rc -eq 2 && one_line_error && test ! -e "$pc_tmp/none"; echo $?) \
	"an output that cannot be written: one-line error, exit 2: $(cat "$pc_tmp/err")"
pc report -o "$pc_tmp/x.html" "$pc_tmp/nonesuch.json"
ok $(test $pc_rc -eq 2 && one_line_error && test ! -e "$pc_tmp/x.html"; echo $?) \
	"a missing input: one-line error, no page"

# The matrix: four CPUs in 80 columns, more wrapped into blocks.
$PRIMCOST merge -o "$pc_tmp/fleet4.json" intel-itanium2-9050 intel-pentium4 \
	amd-athlon64-x2-3800 intel-xeon-westmere-ep >/dev/null 2>&1
pc compare --matrix "$pc_tmp/fleet4.json"
widest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$pc_tmp/out")
ok $(test $pc_rc -eq 0 && test "$widest" -le 80 && grep -q '^probe  *A  *B  *C  *D$' "$pc_tmp/out"; echo $?) \
	"compare --matrix: 4 CPUs in one block, $widest columns"
ok $(grep -q 'spin_lock_unlock.qspinlock.nodes2.threads8 ' "$pc_tmp/out" &&
	grep -qE '^local_irq_restore.popf +- +112.00 +125.00 +-$' "$pc_tmp/out"; echo $?) \
	"the matrix holds the medians: popf 112 (Pentium 4) and 125 (Athlon 64)"
$PRIMCOST merge -o "$pc_tmp/fleet6.json" "$pc_tmp/fleet4.json" amd-opteron-interlagos \
	intel-core2-quad-q9450 >/dev/null 2>&1
pc report --format text -o - "$pc_tmp/fleet6.json"
widest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$pc_tmp/out")
ok $(test $pc_rc -eq 0 && test "$widest" -le 80 && test "$(grep -c '^probe ' "$pc_tmp/out")" -eq 2 &&
	grep -q '^probe  *E  *F$' "$pc_tmp/out" && grep -q '^\[1\] ' "$pc_tmp/out"; echo $?) \
	"6 CPUs wrap into two blocks ($widest columns), reasons as numbered footnotes"
# Noisy and nonlinear figures in words, a published point without +-, and
# why a row is not comparable (a noisy side, a published loop).
"$PYTHON3" - "$fix" "$pc_tmp/flagged.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    p = e["probes"]["cmpxchg"]
    p["status"], p["reason"] = "noisy", "still disturbed after resampling"
    e["probes"]["xchg"]["nonlinear"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
pc report -o - --baseline "$fix" "$pc_tmp/flagged.json" intel-itanium2-9050
ok $(test $pc_rc -eq 0 && grep -q ' (noisy)' "$pc_tmp/out" && grep -q ' (not linear)' "$pc_tmp/out" &&
	grep -q 'not comparable: B is noisy: still disturbed after resampling' "$pc_tmp/out" &&
	grep -q "not comparable: C's baseline is a published loop" "$pc_tmp/out" &&
	grep -q '>12.02<' "$pc_tmp/out" && ! grep -q '12.02 &#177;' "$pc_tmp/out"; echo $?) \
	"report: noisy and not linear in words, not comparable with why, a published point without ±"
# Two files of the same CPU: each column named by its file; a row with
# nothing in a block is left out of it.
ref=$PC_SRCDIR/data/reference
pc compare --matrix "$ref/amd-athlon64-x2-3800.json" "$ref/amd-athlon64-x2-3800-kmalloc.json" \
	"$ref/intel-pentium4.json"
ok $(test $pc_rc -eq 0 && grep -q '^A = amd-athlon64-x2-3800.json:' "$pc_tmp/out" &&
	grep -q '^B = amd-athlon64-x2-3800-kmalloc.json:' "$pc_tmp/out" &&
	grep -q '^alloc.malloc.slub-base.8 ' "$pc_tmp/out" &&
	! grep -qE '^[a-z][^ ]*( +-)+$' "$pc_tmp/out" && ! grep -q '^kmalloc' "$pc_tmp/out"; echo $?) \
	"compare --matrix: columns named by their files, no row of '-' only, the kmalloc table once"
# Two figures not linear by different factors: one note, the factors a
# range; the published tables named by their source, never "seed".
"$PYTHON3" - "$fix" "$pc_tmp/nonlinear.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["cpus"].values():
    for name, f in (("cmpxchg", "2.30"), ("xchg", "2.50")):
        e["probes"][name]["nonlinear"] = True
        e["probes"][name]["reason"] = ("not linear: doubling the iterations scaled "
                                       "the difference by %s, not 2" % f)
json.dump(d, open(sys.argv[2], "w"))
PY
pc report -o - "$pc_tmp/nonlinear.json" intel-pentium4
ok $(test $pc_rc -eq 0 && test "$(grep -c '<li id="note-[0-9]*">nonlinear' "$pc_tmp/out")" -eq 1 &&
	grep -q 'scaled the difference by 2.30 to 2.50, not 2</li>' "$pc_tmp/out" &&
	grep -q 'published table: Mathieu Desnoyers, linux-kernel 2007' "$pc_tmp/out"; echo $?) \
	"one note for two figures not linear by different factors; a published table named by its source"
# A group with no figure in the unit: a line, no empty chart.
pc report -o - intel-core2-quad-q9450
ok $(test $pc_rc -eq 0 && ! grep -q '<svg ' "$pc_tmp/out" &&
	grep -q '<p>No figure in cycles: <span data-probe="hackbench.stack_tracer.preempt_disable">' "$pc_tmp/out" &&
	grep -q 'in ns only (--metric ns)' "$pc_tmp/out"; echo $?) \
	"hackbench's ns per run: no empty chart, a line that says where its figures are"
# The 2007 allocator table: lines over size, a panel per pattern, each
# figure of the table naming its point.
pc report -o - amd-athlon64-x2-3800-kmalloc
ok $(test $pc_rc -eq 0 && test "$(grep -c '<polyline' "$pc_tmp/out")" -eq 6 &&
	grep -q 'alloc: cycles per operation over size (linear scale), 3 panels' "$pc_tmp/out" &&
	grep -q '<td class="n" data-probe="alloc.malloc.slub-base.8">74.00</td>' "$pc_tmp/out" &&
	! grep -q '<rect ' "$pc_tmp/out"; echo $?) \
	"allocator points: lines over size (6, in 3 panels), not bars; the table names each point"
# Eight CPUs' lines: a colour and a marker each, a line's style never
# repeated in a panel; labels only for the CPUs with a figure.
"$PYTHON3" - "$ref/intel-xeon-westmere-ep.json" "$ref/intel-pentium4.json" \
	"$pc_tmp/nine.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
key, e = next(iter(d["cpus"].items()))
d["cpus"] = {}
for i in range(8):
    c = copy.deepcopy(e)
    c["brand"] = "CPU %d" % i
    d["cpus"]["%s-%d" % (key, i)] = c
d["cpus"].update(json.load(open(sys.argv[2]))["cpus"])
json.dump(d, open(sys.argv[3], "w"))
PY
pc report -o "$pc_tmp/eight.html" "$pc_tmp/nine.json"
styles=$("$PYTHON3" - "$pc_tmp/eight.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
svgs = [s for s in re.findall(r"<svg .*?</svg>", page, re.S) if "<polyline" in s]
colours, bad = set(), []
for s in svgs:
    lines = re.findall(r'<polyline fill="none" stroke="([^"]*)" [^>]*stroke-dasharray="([^"]*)"', s)
    colours |= {c for c, _ in lines}
    if len(lines) != len(set(lines)):
        bad.append("a style repeated")
    labels = re.findall(r'<text x="[0-9.]+" y="[0-9.]+">([A-Z#][0-9]*)(?: [^<]*)?</text>', s)
    # the Pentium 4 (I, after the eight) has no lock figure: never labelled
    if any(l == "I" for l in labels):
        bad.append("a label for a CPU without a figure")
print("%d %s" % (len(colours), ", ".join(bad)))
PY
)
ok $(test $pc_rc -eq 0 && test "$styles" = "8 "; echo $?) \
	"lines of 8 CPUs and more: 8 colours, no style repeated in a panel, no label for a CPU without a figure ($styles)"
pc compare --matrix "$fix" "$pc_tmp/flagged.json"
ok $(test $pc_rc -eq 0 && grep -q '^ *\[[0-9]*\] noisy: still disturbed after resampling' "$pc_tmp/out" &&
	grep -q '^ *\[[0-9]*\] nonlinear' "$pc_tmp/out"; echo $?) \
	"compare --matrix: noisy and nonlinear figures are footnoted"
done_testing
