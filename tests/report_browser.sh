#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost report in a real browser (headless Chromium): the DOM it builds
# holds every probe and CPU of the input, the page logs nothing on the
# console, a screenshot is neither blank nor cut, and each SVG chart is
# well-formed XML (xmllint). Skips with the reason where Chromium or
# xmllint is not installed.
. "${PC_SRCDIR}/tests/lib.sh"

ref="$PC_SRCDIR/data/reference"
fix="$PC_SRCDIR/tests/fixtures/result.json"
export PRIMCOST_REFERENCE_DIR="$ref"
browser=$(command -v chromium || command -v chromium-browser || true)

$PRIMCOST report -o "$pc_tmp/r.html" "$fix" intel-itanium2-9050 intel-pentium4 \
	amd-athlon64-x2-3800 2>"$pc_tmp/err"
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
		"a console message would be seen" "the screenshot is neither blank nor cut"; do
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

chrome --dump-dom "file://$pc_tmp/r.html" >"$pc_tmp/dom" 2>"$pc_tmp/console"
rc=$?
missing=$("$PYTHON3" - "$pc_tmp/dom" "$fix" "$ref/intel-itanium2-9050.json" \
	"$ref/intel-pentium4.json" "$ref/amd-athlon64-x2-3800.json" <<'PY'
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
d = Dom()
d.feed(open(sys.argv[1]).read())
miss = []
for path in sys.argv[2:]:
    for key, e in json.load(open(path))["cpus"].items():
        miss += [] if key in d.cpus else [key]
        miss += [p for p in e["probes"] if p not in d.probes]
print(" ".join(miss) if d.cpus else "(empty DOM)")
PY
)
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
done_testing
