#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost report in a real browser (headless Chromium): the DOM it builds
# holds every probe and CPU of the input, the page logs nothing on the
# console, a screenshot is neither blank nor cut, and each SVG chart is
# well-formed XML (xmllint); the page of a run of every group and every
# published table is at most 12,000 pixels tall at 1200 wide, its summary
# (the run's overview matrix, then the answers) above the first chart; it
# and a page of four allocators on two CPUs fit a window 1280 pixels wide,
# nothing cut off. Skips with the reason where Chromium or xmllint is not
# installed.
. "${PC_SRCDIR}/tests/lib.sh"

ref="$PC_SRCDIR/data/reference"
fix="$PC_SRCDIR/tests/fixtures/result.json"
export PRIMCOST_REFERENCE_DIR="$ref"
browser=$(command -v chromium || command -v chromium-browser || true)

# Westmere's contended lock: lines over threads.
$PRIMCOST report -o "$pc_tmp/r.html" "$fix" intel-itanium2-9050 intel-pentium4 \
	amd-athlon64-x2-3800 intel-xeon-westmere-ep 2>"$pc_tmp/err"
ok $? "the page is written"

if command -v xmllint >/dev/null 2>&1; then
	# Each <svg>...</svg> of the page, one file each (they span lines).
	awk -v dir="$pc_tmp" '/<svg /{ n++; f = dir "/chart" n ".svg" } f { print > f }
		/<\/svg>/{ close(f); f = "" }' "$pc_tmp/r.html"
	n=$(ls "$pc_tmp"/chart*.svg 2>/dev/null | wc -l)
	xmllint --noout "$pc_tmp"/chart*.svg 2>"$pc_tmp/xml.err"
	ok $(test $? -eq 0 && test "$n" -ge 5 && grep -q '<polyline' "$pc_tmp"/chart*.svg; echo $?) \
		"every SVG chart ($n, bars and lines) is well-formed XML$(head -1 "$pc_tmp/xml.err" | sed 's/^/: /')"
else
	skip "xmllint is not installed (Debian: libxml2-utils)" "every SVG chart is well-formed XML"
fi

if [ -z "$browser" ]; then
	why="Chromium is not installed (Debian: apt-get install chromium)"
	for d in "the DOM holds every CPU and probe" "no console message" \
		"a console message would be seen" "the screenshot is neither blank nor cut" \
		"a run of every group and every published table: the page is written" \
		"... at most 12000 pixels tall at 1200 wide" "... fits 1280 pixels" \
		"4 allocators on 2 CPUs fit 1280 pixels" \
		"... the run's overview matrix, then the answers, above the first chart" \
		"... its DOM holds every CPU and probe (points by their parameters)"; do
		skip "$why" "$d"
	done
	done_testing
	exit
fi

# One profile for this test; no sandbox when run as root (containers).
chrome() {
	timeout 120 "$browser" --headless --disable-gpu --no-first-run \
		--user-data-dir="$pc_tmp/profile" $( [ "$(id -u)" -eq 0 ] && echo --no-sandbox ) \
		--enable-logging=stderr --v=0 "$@"
}

# The CPUs and probes of the files $2... that the DOM in $1 lacks (a probe
# measured at points as its points' rows, named as pc_point_row_name names
# them); "(empty DOM)" when it has none.
dom_missing() {
	"$PYTHON3" - "$@" <<'PY'
import html.parser, json, sys
class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.cpus, self.probes = set(), set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-cpu" in a:
            self.cpus.add(a["data-cpu"])
        if "data-probe" in a:
            self.probes.add(a["data-probe"])
def rows(name, p):
    if not isinstance(p.get("points"), list):
        return [name]
    out = []
    for i, pt in enumerate(p["points"]):
        pl, cpus, th = pt.get("placement"), pt.get("cpus"), pt.get("threads")
        if pt.get("allocator") and isinstance(pt.get("size"), int):
            out.append("%s.%s.%d" % (name, pt["allocator"], pt["size"]))
        elif pl == "pair" and cpus:
            out.append("%s.cpus%s" % (name, cpus))
        elif pl and cpus and isinstance(th, int):
            out.append("%s.%s.threads%d" % (name, "cpus" + cpus if pl == "list" else pl, th))
        else:
            out.append("%s.point%d" % (name, i + 1))
    return out
d = Dom()
d.feed(open(sys.argv[1]).read())
miss = []
for path in sys.argv[2:]:
    for key, e in json.load(open(path))["cpus"].items():
        miss += [] if key in d.cpus else [key]
        for name, p in e["probes"].items():
            miss += [r for r in rows(name, p) if r not in d.probes]
print(" ".join(miss[:8]) + (" ..." if len(miss) > 8 else "") if d.cpus else "(empty DOM)")
PY
}

chrome --dump-dom "file://$pc_tmp/r.html" >"$pc_tmp/dom" 2>"$pc_tmp/console"
rc=$?
missing=$(dom_missing "$pc_tmp/dom" "$fix" "$ref/intel-itanium2-9050.json" \
	"$ref/intel-pentium4.json" "$ref/amd-athlon64-x2-3800.json" \
	"$ref/intel-xeon-westmere-ep.json")
ok $(test $rc -eq 0 && test -z "$missing"; echo $?) \
	"the DOM holds every CPU and probe of the input${missing:+ (missing: $missing)}"
ok $(! grep -q ':CONSOLE' "$pc_tmp/console"; echo $?) \
	"no console message$(grep -m1 ':CONSOLE' "$pc_tmp/console" | sed 's/^/: /')"
# The check above would see one: a page that logs an error.
printf '<!DOCTYPE html><title>t</title><script>console.error("seen")</script>\n' >"$pc_tmp/neg.html"
chrome --dump-dom "file://$pc_tmp/neg.html" >/dev/null 2>"$pc_tmp/console.neg"
ok $(grep -q ':CONSOLE.*"seen"' "$pc_tmp/console.neg"; echo $?) \
	"a console message would be seen (a page that logs one)"

# 1000 x 3000 pixels: the page is longer, so content reaches the bottom
# unless it was cut; a blank page has no ink; the bars of A are drawn in
# A's colour (#0072b2).
chrome --screenshot="$pc_tmp/shot.png" --window-size=1000,3000 --hide-scrollbars \
	"file://$pc_tmp/r.html" >/dev/null 2>&1
set -- $("$PYTHON3" "$PC_SRCDIR/tests/png_ink.py" "$pc_tmp/shot.png" 0072b2 2>/dev/null)
w=${1:-0} h=${2:-0} ink=${3:-0} last=${4:-0} a=${5:-0}
ok $(test "$w" -eq 1000 && test "$h" -eq 3000 && test "$ink" -ge $((w * h / 50)) &&
	test "$last" -ge $((h * 9 / 10)) && test "$a" -ge 2000; echo $?) \
	"the screenshot is neither blank nor cut: ${w}x${h}, $ink pixels not background (at least $((w * h / 50))), the last on row $last, $a in A's colour"

# The page a user makes first: a run of every group (the default probes,
# the contended group, an allocator) and every published table. Which
# probes a machine can measure changes the page a little, never its
# structure.
for g in probes locks alloc; do
	case $g in
	probes) opts= ;;
	locks)	# threads do not start under qemu-user
		emulated && continue
		opts="--locks --window-us 200" ;;
	alloc) opts="--allocator glibc" ;;
	esac
	# shellcheck disable=SC2086
	$PRIMCOST run -n 9 -q $opts -o "$pc_tmp/run-$g.json" >/dev/null 2>&1
done
$PRIMCOST merge -o "$pc_tmp/all.json" "$pc_tmp"/run-*.json >/dev/null 2>&1
$PRIMCOST report -o "$pc_tmp/all.html" "$pc_tmp/all.json" "$ref"/*.json 2>"$pc_tmp/err"
ok $(test $? -eq 0 && test -s "$pc_tmp/all.html"; echo $?) \
	"a run of every group and every published table ($(find "$ref" -name '*.json' | wc -l)): the page is written$(head -c 200 "$pc_tmp/err")"
# Its layout at 1200 pixels wide, read by a script in a copy of the page
# (the page itself has none): its height, and where the answers, the
# run's overview matrix and the first chart begin.
cp "$pc_tmp/all.html" "$pc_tmp/measure.html"
cat >>"$pc_tmp/measure.html" <<'JS'
<script>
function top_of(s) {
	var e = document.querySelector(s);
	return e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1;
}
document.body.setAttribute("data-layout", [document.documentElement.scrollHeight,
	top_of("#answers"), top_of("table.overview"), top_of("svg")].join(" "));
</script>
JS
chrome --window-size=1200,800 --dump-dom "file://$pc_tmp/measure.html" >"$pc_tmp/all.dom" 2>/dev/null
set -- $(sed -n 's/.*data-layout="\([0-9 -]*\)".*/\1/p' "$pc_tmp/all.dom")
height=${1:-0} answers=${2:--1} overview=${3:--1} chart=${4:--1}
ok $(test "$height" -gt 0 && test "$height" -le 12000; echo $?) \
	"... at most 12000 pixels tall at 1200 wide ($height)"
# In a window 1280 pixels wide (a laptop's): no sideways scroll of the
# page, and no table cut off (a wider one scrolls in its own box).
page_width() {	# page_width PAGE: "scrollWidth innerWidth cut" at 1280 wide
	cp "$1" "$pc_tmp/width.html"
	cat >>"$pc_tmp/width.html" <<'JS'
<script>
var cut = 0;
document.querySelectorAll("table, svg").forEach(function (e) {
	var box = e.closest("div.wide");
	if (e.getBoundingClientRect().right > (box ? e.getBoundingClientRect().right :
	    document.documentElement.clientWidth) + 1 ||
	    (box && box.scrollWidth > box.clientWidth + 1 &&
	     getComputedStyle(box).overflowX != "auto"))
		cut++;
});
document.body.setAttribute("data-width", [document.documentElement.scrollWidth,
	document.documentElement.clientWidth, cut].join(" "));
</script>
JS
	chrome --window-size=1280,900 --hide-scrollbars --dump-dom "file://$pc_tmp/width.html" 2>/dev/null |
		sed -n 's/.*data-width="\([0-9 ]*\)".*/\1/p'
}
set -- $(page_width "$pc_tmp/all.html")
ok $(test "${1:-9999}" -le "${2:-0}" && test "${3:-1}" -eq 0; echo $?) \
	"... fits 1280 pixels: $1 wide in a window of ${2:-?}, ${3:-?} tables or charts cut off"
# The widest figures a user's files give: this run's allocator points as
# four allocators', on two CPUs (24 lines over 12 sizes).
"$PYTHON3" - "$pc_tmp/run-alloc.json" "$pc_tmp/alloc4.json" <<'PY'
import os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import allocators_file
allocators_file(sys.argv[1], sys.argv[2], ("glibc", "jemalloc", "tcmalloc", "mimalloc"))
PY
$PRIMCOST report -o "$pc_tmp/alloc4.html" "$pc_tmp/alloc4.json" 2>"$pc_tmp/err"
set -- $(page_width "$pc_tmp/alloc4.html")
ok $(test "${1:-9999}" -le "${2:-0}" && test "${3:-1}" -eq 0; echo $?) \
	"4 allocators on 2 CPUs fit 1280 pixels: $1 wide in a window of ${2:-?}, ${3:-?} tables or charts cut off$(head -c 200 "$pc_tmp/err")"
ok $(test "$overview" -ge 0 && test "$answers" -gt "$overview" && test "$chart" -gt "$answers"; echo $?) \
	"... the run's overview matrix, then the answers, above the first chart (at $overview, $answers, $chart)"
missing=$(dom_missing "$pc_tmp/all.dom" "$pc_tmp/all.json" "$ref"/*.json)
ok $(test -z "$missing"; echo $?) \
	"... its DOM holds every CPU and probe (points by their parameters)${missing:+ (missing: $missing)}"
done_testing
