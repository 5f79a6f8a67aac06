#!/bin/sh
# SPDX-License-Identifier: MIT
# The contended group from the command line: the usage errors, every row at
# 1 thread (and 2 where two CPUs are allowed) with its points valid, the
# lock rows at 0 and 1 data lines (--data-lines), the table in the seed's
# shape (rows = threads and data lines, columns = lock kinds), -f csv and
# -f markdown holding the JSON's figures, and compare --by lock against the
# seed's tables within 80 columns.
. "${PC_SRCDIR}/tests/lib.sh"

for args in "--threads 0" "--threads x" "--placement nowhere" "--window-us 500" \
	"--cpus 0,0" "--locks --alloc" "--cpus 0 --placement spread" "--data-lines 17" \
	"--data-lines -1" "--data-lines 1x"; do
	# shellcheck disable=SC2086
	pc run $args -o "$pc_tmp/x.json"
	ok $(test $pc_rc -eq 2 && one_line_error && test ! -e "$pc_tmp/x.json"; echo $?) \
		"run $args: one line, exit 2, nothing written: $(cat "$pc_tmp/err")"
done
pc run -p lock.nonesuch -o "$pc_tmp/x.json"
ok $(test $pc_rc -eq 2 && grep -q "no probe matches .lock.nonesuch. (the contended group" "$pc_tmp/err"; echo $?) \
	"-p of an unknown lock row: $(cat "$pc_tmp/err")"

if emulated; then
	# qemu-user 7.2 hangs in pthread_create (i386 and arm64 alike)
	skip "threads do not start under qemu-user" "run --locks and compare --by lock"
	done_testing
	exit 0
fi
threads=1
if [ "$(nproc)" -ge 2 ]; then threads=1,2; fi
pc run -n 9 --threads $threads --window-us 200 -p 'lock.*,contended.*' -o "$pc_tmp/r.json"
ok $pc_rc "run --threads $threads: every lock and atomic row$(head -c 300 "$pc_tmp/err")"
ok $(grep -qE '^threads placement data +tas +ttas +ticket +mcs$' "$pc_tmp/out" &&
	grep -qE '^threads placement data +qspinlock +pthread_spin +pthread_mutex$' "$pc_tmp/out" &&
	grep -qE '^ +1 compact +0 +[0-9.]+[ *] ' "$pc_tmp/out" &&
	grep -qE '^ +1 compact +1 +[0-9.]+[ *] ' "$pc_tmp/out" &&
	grep -qE '^threads placement +atomic_add_return' "$pc_tmp/out"; echo $?) \
	"the table: rows = threads and data lines (locks only), columns = lock kinds"
if [ "$threads" = 1,2 ]; then
	ok $(grep -qE '^[0-9]+ cycles, the median of 18 points \([0-9]+ to [0-9]+\)$' \
		"$pc_tmp/out"; echo $?) "the table: the transfer gauge of the 18 2-thread points"
fi

"$PYTHON3" - "$pc_tmp/r.json" "$PC_SRCDIR/data/schema.json" "$threads" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, math, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, schema_ok, validator
path, schema, threads = sys.argv[1], sys.argv[2], [int(t) for t in sys.argv[3].split(",")]
d = json.load(open(path))
(e,) = d["cpus"].values()
rows = ["lock." + k for k in ("tas", "ttas", "ticket", "mcs", "qspinlock", "pthread_spin",
                              "pthread_mutex")]
rows += ["contended." + k for k in ("atomic_add_return", "cmpxchg", "false_sharing", "private")]
ok(sorted(e["probes"]) == sorted(rows), "every lock and atomic row is a probe")
pts = [(n, pt) for n, p in e["probes"].items() for pt in p["points"]]
ok(sorted((n, pt["threads"], pt.get("data_lines")) for n, pt in pts) ==
   sorted((n, t, d) for n in rows for t in threads
          for d in ((0, 1) if n.startswith("lock.") else (None,))),
   "a point per row and thread count %s, and per data lines 0 and 1 of a lock" % threads)
bad = [(n, pt["threads"]) for n, pt in pts if pt["status"] not in ("ok", "noisy") or
       not all(math.isfinite(pt[m]["median"]) and pt[m]["median"] > 0
               for m in ("cycles", "ns", "ticks"))]
ok(not bad, "every point ok or noisy, its cycles, ns and ticks finite%s" % (bad and ": %s" % bad[:3] or ""))
ok(all(pt["placement"] == "compact" and len(pt["cpus"].split(",")) == pt["threads"] and
       pt["class"] and pt["nodes"] >= 1 and
       0 <= pt["fairness"]["cv"] and 0 < pt["fairness"]["max_share"] <= 1 for n, pt in pts),
   "every point: its CPUs, one a thread, class, nodes and fairness")
ok(all(pt["fairness"]["max_share"] == 1 for n, pt in pts if pt["threads"] == 1),
   "one thread takes the whole share")
ok(all(p["group"] == "contended" and p["unit"].startswith("per ") for p in e["probes"].values()),
   "the rows are the contended group, with their unit")
(run,) = e["runs"]
ok(run["contend"]["window_us"] == 200, "the run records its window")
schema_ok(validator(schema), d, "the result")
PY
import_checks "$pc_tmp/checks" "the result checks"

# -f csv: a line per point, its fields the JSON's; -f markdown: the seed's
# shape, every median of the JSON in its cell. Two placements, so that the
# rows and the pairing below must keep them apart.
pc run -n 9 --threads $threads --placement compact,spread --window-us 200 -f csv \
	-p 'lock.t*,contended.cmpxchg,c2c.latency' -o "$pc_tmp/p.json" \
	--status-fd 3 3>"$pc_tmp/status"
ok $pc_rc "run -f csv$(head -c 300 "$pc_tmp/err")"
cp "$pc_tmp/out" "$pc_tmp/p.csv"
# --status-fd: each point's rounds by row, threads and placement, then measured
"$PYTHON3" - "$pc_tmp" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
t = sys.argv[1]
lines = open(t + "/status").read().splitlines()
e = next(iter(json.load(open(t + "/p.json"))["cpus"].values()))
want = set("%s/%d/%s%s" % (n, pt["threads"], pt["placement"],
                          "/%d data lines" % pt["data_lines"] if "data_lines" in pt else "")
           for n, p in e["probes"].items() for pt in p["points"])
got = set(l.split(" ", 2)[2] for l in lines if l.startswith("round 1/5 "))
ok(got == want and lines[-1:] == ["measured"],
   "--status-fd: a 'round 1/5' line for each of the %d points, then 'measured'%s" %
   (len(want), "" if got == want else ": missing %s" % sorted(want - got)[:3]))
PY
import_checks "$pc_tmp/checks" "the status lines"
pc run -n 9 --threads $threads --window-us 200 -f markdown -p 'lock.*,contended.*,c2c.*' \
	-o "$pc_tmp/m.json"
ok $pc_rc "run -f markdown$(head -c 300 "$pc_tmp/err")"
cp "$pc_tmp/out" "$pc_tmp/m.md"
"$PYTHON3" - "$pc_tmp" "$threads" >"$pc_tmp/checks" 2>&1 <<'PY'
import csv, json, os, re, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
tmp, threads = sys.argv[1], [int(t) for t in sys.argv[2].split(",")]
(key, e), = json.load(open(tmp + "/p.json"))["cpus"].items()
rows = list(csv.DictReader(open(tmp + "/p.csv")))
head = ("cpu,probe,threads,placement,cpus,class,nodes,data_lines,status,cycles_median,cycles_q1,"
        "cycles_q3,ns_median,samples,fairness_cv,max_share,ops_per_s,"
        "transfer_cycles").split(",")
ok(list(rows[0].keys()) == head if rows else False, "-f csv: its header")
want = {(n, pt["threads"], pt["placement"], pt["cpus"], pt.get("data_lines")): pt
        for n, p in e["probes"].items() for pt in p["points"]}
got = {(r["probe"], int(r["threads"]), r["placement"], r["cpus"],
        int(r["data_lines"]) if r["data_lines"] else None): r for r in rows}
ok(sorted(got) == sorted(want) and len(rows) == len(want),
   "-f csv: a line per point of the JSON (%d), compact and spread apart" % len(want))
ok(any(k[2] == "spread" for k in got) and any(k[2] == "pair" for k in got) ==
   (2 in threads), "-f csv: spread points, and the c2c pair where two CPUs are allowed")
def same(a, b):
    return a == "" if b is None else abs(float(a) - b) <= 1e-6 * abs(b)
bad = [k for k, r in got.items() if k in want and not (
       r["cpu"] == key and r["class"] == want[k]["class"] and
       int(r["nodes"]) == want[k]["nodes"] and r["status"] == want[k]["status"] and
       same(r["cycles_median"], want[k]["cycles"]["median"]) and
       same(r["cycles_q1"], want[k]["cycles"]["q1"]) and
       same(r["cycles_q3"], want[k]["cycles"]["q3"]) and
       same(r["ns_median"], want[k]["ns"]["median"]) and
       int(r["samples"]) == want[k]["samples"] and
       same(r["fairness_cv"], want[k]["fairness"]["cv"]) and
       same(r["max_share"], want[k]["fairness"]["max_share"]) and
       same(r["ops_per_s"], want[k]["ops_per_s"]) and
       same(r["transfer_cycles"], want[k].get("transfer", {}).get("cycles")) and
       (r["transfer_cycles"] != "") == (k[1] > 1 and want[k]["status"] != "failed"))]
ok(not bad, "-f csv: every field equal to the JSON's%s" % (bad and ": %s" % bad[:2] or ""))

(e,) = json.load(open(tmp + "/m.json"))["cpus"].values()
md = open(tmp + "/m.md").read()
tables = re.findall(r"((?:^\|.*\|\n)+)", md, re.M)
ok(len(tables) == (3 if 2 in threads else 2), "-f markdown: locks, atomics%s" %
   (2 in threads and " and c2c" or ""))
def cells(t):
    lines = t.strip().split("\n")
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return head, [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]
def shown(v):
    return "%.*f" % (1 if v < 100 else 0, v)
bad = []
for t, prefix in zip(tables[:2], ("lock.", "contended.")):
    head, body = cells(t)
    stub = ["threads", "placement"] + (["data lines"] if prefix == "lock." else [])
    ok(head[:len(stub)] == stub, "-f markdown %s*: rows = %s" % (prefix, ", ".join(stub)))
    for n, p in e["probes"].items():
        if not n.startswith(prefix):
            continue
        for pt in p["points"]:
            r = [b for b in body if b[0] == str(pt["threads"]) and b[1] == pt["placement"]
                 and (prefix != "lock." or b[2] == str(pt["data_lines"]))]
            c = head.index(n[len(prefix):]) if n[len(prefix):] in head else -1
            v = r and c >= 0 and r[0][c].rstrip("*")
            if pt["status"] == "failed" or v != shown(pt["cycles"]["median"]):
                bad.append((n, pt["threads"], v))
ok(not bad, "-f markdown: every lock and atomic point's median in its cell%s" %
   (bad and ": %s" % bad[:3] or ""))
PY
import_checks "$pc_tmp/checks" "the csv and markdown checks"

# report: a row per point, named by its parameters, its median the JSON's;
# two files pair points by their parameters (m.json has compact only: its
# figures stand beside p.json's compact points, never its spread ones);
# the HTML has a figures table per group with every point.
pc report -f text -o - "$pc_tmp/p.json"
cp "$pc_tmp/out" "$pc_tmp/p.txt"
pc report -f text -o - "$pc_tmp/p.json" "$pc_tmp/m.json"
cp "$pc_tmp/out" "$pc_tmp/pm.txt"
pc report -o "$pc_tmp/p.html" "$pc_tmp/p.json"
ok $pc_rc "report -o p.html$(head -c 300 "$pc_tmp/err")"
"$PYTHON3" - "$pc_tmp" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, re, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
tmp = sys.argv[1]
def points(path):
    (e,) = json.load(open(path))["cpus"].values()
    out = {}
    for n, p in e["probes"].items():
        for pt in p["points"]:
            if pt["placement"] == "pair":
                out["%s.cpus%s" % (n, pt["cpus"])] = pt
            else:
                out["%s.%s%s.threads%d" % (n, pt["placement"],
                                           ".data%d" % pt["data_lines"]
                                           if pt.get("data_lines") else "",
                                           pt["threads"])] = pt
    return out
def fig(x):
    return "%.0f" % x if abs(x) >= 10000 else "%.1f" % x if abs(x) >= 1000 else "%.2f" % x
def rows(path):
    got, name = {}, None
    for line in open(path):
        m = re.match(r"^(\S+)((?:\s+\S+)*)$", line.rstrip("\n"))
        if not m or not re.match(r"^(lock|contended|c2c)\.", m.group(1)):
            continue
        cells = m.group(2).split()
        got[m.group(1)] = [re.sub(r"\[\d+\]$", "", c) for c in cells]
    return got
p, m = points(tmp + "/p.json"), points(tmp + "/m.json")
got = rows(tmp + "/p.txt")
ok(sorted(got) == sorted(p), "report -f text: a row per point, named by its parameters (%d)" % len(p))
bad = [k for k in p if k in got and got[k][:1] != [fig(p[k]["cycles"]["median"]) if
       p[k]["status"] != "failed" else "-"]]
ok(not bad, "report -f text: each row's median is the point's%s" % (bad and ": %s" % bad[:3] or ""))
got = rows(tmp + "/pm.txt")
bad = [k for k in got if len(got[k]) != 2 or
       (k in m) != (got[k][1] != "-") or (k in p) != (got[k][0] != "-") or
       (k in m and got[k][1] != fig(m[k]["cycles"]["median"]))]
ok(not bad and any(".spread." in k for k in got) and any(k in m and k in p for k in got),
   "report of two files: points paired by their parameters, a spread point unpaired "
   "with a compact one%s" % (bad and ": %s" % bad[:3] or ""))
html = open(tmp + "/p.html").read()
# a point is a row of the bars' table, or a figure of the lines' table
shown = set(re.findall(r'<(?:tr|td class="n") data-probe="([^"]+)">', html))
ok(shown == set(p), "report (HTML): the figures tables hold every point")
ok(re.search(r'<h3 id="g[0-9]+-contended">contended</h3>', html) and
   "no figure in this unit" not in html and "<p>No figure in " not in html,
   "report (HTML): the contended group has its section, and every point a figure")
PY
import_checks "$pc_tmp/checks" "the report checks"

# compare --by lock: compact and spread stay apart (on one node they take
# the same CPUs), the seed's figure beside each of them.
pc compare --by lock "$pc_tmp/p.json" amd-opteron-interlagos
"$PYTHON3" - "$pc_tmp/p.json" "$pc_tmp/out" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, re, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
text = open(sys.argv[2]).read()
# the page of the ticket columns
page = re.search(r"^threads nodes pl\. data +(.*A ticket.*)\n((?: .*\n)*)", text, re.M)
head = page.group(1).split()
cols = [" ".join(head[i:i + 2]) for i in range(0, len(head), 2)]
seed = {"1": "324", "2": "17141"}
bad, n = [], 0
for pt in e["probes"]["lock.ticket"]["points"]:
    m = re.search(r"^ +%d %d %s +%d +(.*)$" % (pt["threads"], pt["nodes"], pt["placement"],
                                               pt["data_lines"]), page.group(2), re.M)
    cells = m and m.group(1).split()
    v = pt["cycles"]["median"]
    want = "%.*f" % (1 if v < 100 else 0, v)
    n += 1
    if not cells or cells[cols.index("A ticket")].rstrip("*") != want or \
       cells[cols.index("B ticket")] != (seed[str(pt["threads"])] if pt["data_lines"] == 0
                                         else "-"):
        bad.append((pt["threads"], pt["placement"], pt["data_lines"], cells))
ok(n >= 4 and not bad, "compare --by lock: a row per threads, nodes, placement and data "
   "lines (%d), the 2014 ticket figure beside each at 0 data lines%s" %
   (n, bad and ": %s" % bad[:2] or ""))
PY
import_checks "$pc_tmp/checks" "the compare --by lock placement checks"

# list --runs counts each point as a figure, its noisy ones too.
pc list --runs --format csv "$pc_tmp/p.json"
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c '
import csv, json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
pts = [pt for p in e["probes"].values() for pt in p["points"]]
(r,) = csv.DictReader(open(sys.argv[2]))
want = (sum(pt["status"] in ("ok", "noisy") for pt in pts),
        sum(pt["status"] not in ("ok", "noisy") for pt in pts), len(pts),
        sum(pt["status"] == "noisy" for pt in pts))
got = (int(r["measured"]), int(r["not_measured"]), int(r["current"]), int(r["noisy"]))
sys.exit(got != want)' "$pc_tmp/p.json" "$pc_tmp/out"; echo $?) \
	"list --runs: each point a figure (measured, not measured, current, noisy)"

pc compare --by lock "$pc_tmp/r.json" amd-opteron-interlagos intel-xeon-westmere-ep
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$pc_tmp/out")
ok $(test $pc_rc -eq 0 && test "$w" -le 80 && grep -q '^  B = AMD Opteron (Interlagos)' "$pc_tmp/out" &&
	grep -qE '^ +2 1 compact +0 .* 17141 +5093( |$)' "$pc_tmp/out" &&
	grep -qE '^ +2 1 compact +0 .* 620 +1282( |$)' "$pc_tmp/out" &&
	grep -q '^method differences:' "$pc_tmp/out";
	echo $?) "compare --by lock: the run next to the 2014 Interlagos and Westmere tables, each lock's columns side by side, $w columns"
pc compare --by lock "$PC_SRCDIR/tests/fixtures/result.json"
ok $(test $pc_rc -eq 2 && grep -q "no lock rows" "$pc_tmp/err"; echo $?) \
	"compare --by lock without lock rows: $(cat "$pc_tmp/err")"
done_testing
