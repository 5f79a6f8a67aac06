#!/bin/sh
# SPDX-License-Identifier: MIT
# The allocator group from the command line: every size and row present,
# costs finite and positive, the result valid, the table in the seed's
# shape (and markdown), report's rows per point, compare --by allocator
# within 80 columns, the usage errors.
. "${PC_SRCDIR}/tests/lib.sh"

# Unknown allocator: one line, exit 2, the known names.
pc run --allocator nonesuch -o "$pc_tmp/x.json"
ok $(test $pc_rc -eq 2 && test "$(wc -l <"$pc_tmp/err")" -eq 1 &&
	grep -q "unknown allocator 'nonesuch' (known: glibc, jemalloc, tcmalloc, mimalloc)" "$pc_tmp/err" &&
	test ! -e "$pc_tmp/x.json"; echo $?) \
	"an unknown allocator: one line, exit 2, nothing written: $(cat "$pc_tmp/err")"
pc run --touch -o "$pc_tmp/x.json"
ok $(test $pc_rc -eq 2 && grep -q "alloc" "$pc_tmp/err"; echo $?) \
	"--touch without the allocator group is a usage error: $(cat "$pc_tmp/err")"
pc compare --base glibc "$PC_SRCDIR/data/reference/amd-athlon64-x2-3800-kmalloc.json"
ok $(test $pc_rc -eq 2; echo $?) "compare --base needs --by allocator: $(cat "$pc_tmp/err")"

# glibc: every row at every size (above its reserve, a batch of 16 KiB
# blocks costs tens of cycles a call, not the kernel's brk and page faults).
pc run -n 9 --alloc -f csv -o "$pc_tmp/glibc.json"
ok $pc_rc "--alloc measures the three rows on glibc: $(head -c 300 "$pc_tmp/err")"
# A point is ok, or noisy where the host disturbed it (its samples spread,
# or ran while the host was slower): a figure either way.
ok $(test "$(grep -c ',alloc\.\(malloc\|free\|malloc_free\),glibc,[0-9]*,\(ok\|noisy\),[0-9.]*,' "$pc_tmp/out")" -eq 36 &&
	head -1 "$pc_tmp/out" | grep -q '^cpu,probe,allocator,size,status,cycles_median'; echo $?) \
	"-f csv: a line per point, with its allocator, size and median"
# -f markdown: rows = sizes, a malloc+free column per allocator, the JSON's medians.
pc run -n 9 -p alloc.malloc_free -f markdown -o "$pc_tmp/md.json"
ok $pc_rc "-f markdown$(head -c 300 "$pc_tmp/err")"
cp "$pc_tmp/out" "$pc_tmp/md"
# report -f text and the HTML page: a row per point, named by row,
# allocator and size, with the point's median.
pc report -f text -o - "$pc_tmp/glibc.json"
cp "$pc_tmp/out" "$pc_tmp/report.txt"
pc report -o "$pc_tmp/report.html" "$pc_tmp/glibc.json"
"$PYTHON3" - "$pc_tmp" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, re, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
tmp = sys.argv[1]
(e,) = json.load(open(tmp + "/md.json"))["cpus"].values()
# the medians' table: the first (the single calls' percentiles follow)
lines = [l for l in open(tmp + "/md").read().split("\nsingle calls:")[0].split("\n")
         if l.startswith("|")]
head = [c.strip() for c in lines[0].strip("|").split("|")] if lines else []
body = {l.strip("|").split("|")[0].strip(): [c.strip() for c in l.strip("|").split("|")]
        for l in lines[2:]}
ok(head == ["size", "glibc malloc", "glibc free", "glibc malloc+free"] and len(body) == 12,
   "-f markdown: rows = sizes, malloc, free and malloc+free columns (%s)" % head)
# a noisy point's median carries its mark
bad = [pt["size"] for pt in e["probes"]["alloc.malloc_free"]["points"]
       if body.get(str(pt["size"]), [""] * 4)[3] !=
       ("%.*f" % (1 if pt["cycles"]["median"] < 100 else 0, pt["cycles"]["median"]) +
        ("" if pt["status"] == "ok" else "*")
        if pt["status"] in ("ok", "noisy") else "-")]
ok(not bad, "-f markdown: every malloc+free cell is the point's median%s" % (bad and ": %s" % bad[:3] or ""))
(e,) = json.load(open(tmp + "/glibc.json"))["cpus"].values()
def fig(x):
    return "%.0f" % x if abs(x) >= 10000 else "%.1f" % x if abs(x) >= 1000 else "%.2f" % x
want = {"%s.%s.%d" % (n, pt["allocator"], pt["size"]): fig(pt["cycles"]["median"])
        for n, p in e["probes"].items() for pt in p["points"]}
got = {}
for l in open(tmp + "/report.txt"):
    f = l.split()
    if len(f) == 2 and f[0].startswith("alloc."):
        got[f[0]] = re.sub(r"\[\d+\]$", "", f[1])
ok(got == want, "report -f text: a row per point (%d), alloc.ROW.ALLOCATOR.SIZE, its median%s"
   % (len(want), "" if got == want else ": %s" % sorted(set(want.items()) ^ set(got.items()))[:3]))
html = open(tmp + "/report.html").read()
ok(set(re.findall(r'<td class="n" data-probe="([^"]+)">', html)) == set(want) and
   "<polyline" in html,
   "report (HTML): every point a figure of the table by size, the rows as lines over size")
PY
import_checks "$pc_tmp/checks" "the markdown and report checks"
# Without -n, the group takes its own default: 51 samples a point.
pc run -p alloc.free -q -o "$pc_tmp/default.json"
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c '
import json, sys
(e,) = json.load(open(sys.argv[1]))["cpus"].values()
(run,) = e["runs"]
sys.exit(run["options"]["samples"] != 51 or
         any(pt["samples"] > 51 for pt in e["probes"]["alloc.free"]["points"]))' \
	"$pc_tmp/default.json"; echo $?) "the group's default: 51 samples a point"
allocs=glibc
if [ -e /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 ] || [ -e /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 ] ||
	[ -e /usr/lib/i386-linux-gnu/libjemalloc.so.2 ]; then
	pc run -n 9 --allocator jemalloc -o "$pc_tmp/je.json"
	ok $pc_rc "--allocator jemalloc: every row at every size$(head -c 300 "$pc_tmp/err")"
	cp "$pc_tmp/out" "$pc_tmp/table"
	allocs="$allocs jemalloc"
else
	skip "libjemalloc2 is not installed" "--allocator jemalloc: every row at every size"
fi

emulated && PC_EMULATED=1 && export PC_EMULATED
"$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/data/schema.json" $allocs >"$pc_tmp/checks" 2>&1 <<'PY'
import json, math, sys
tmp, schema, allocs = sys.argv[1], sys.argv[2], sys.argv[3:]
import os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, schema_ok, validator
v = validator(schema)
sizes = [8 << i for i in range(12)]
files = {"glibc": (tmp + "/glibc.json", ["alloc.malloc", "alloc.free", "alloc.malloc_free"]),
         "jemalloc": (tmp + "/je.json", ["alloc.malloc", "alloc.free", "alloc.malloc_free"])}
for a in allocs:
    path, rows = files[a]
    d = json.load(open(path))
    (e,) = d["cpus"].values()
    got = {(n, pt["size"], pt["allocator"]): pt for n, p in e["probes"].items() for pt in p["points"]}
    ok(sorted(got) == sorted((n, s, a) for n in rows for s in sizes),
       "%s: every size 8..16384 of %s is a point" % (a, ", ".join(rows)))
    # Under an emulator the timer counts translated code: a cost can read
    # 0 or less there, so only its being a number is checked.
    emulated = os.environ.get("PC_EMULATED") == "1"
    # noisy only as the host disturbed it: the reason says so
    bad = [k for k, pt in got.items() if
           not (pt["status"] == "ok" or (pt["status"] == "noisy" and
                                        "disturbed: " in pt.get("reason", ""))) or
           not all(math.isfinite(pt[m]["median"]) and (emulated or pt[m]["median"] > 0)
                   for m in ("cycles", "ns", "ticks"))]
    noisy = sum(pt["status"] == "noisy" for pt in got.values())
    ok(not bad, "%s: every point ok (or noisy, disturbed: %d), its cycles, ns and ticks "
       "finite%s%s" % (a, noisy, "" if emulated else " and positive",
                       bad and ": %s" % [(k, got[k]["status"], got[k].get("reason", "")[:80])
                                         for k in bad[:3]] or ""))
    ok(all(p.get("group") == "alloc" and p.get("touch") is False for p in e["probes"].values()),
       "%s: the rows are the alloc group, memory untouched" % a)
    (run,) = e["runs"]
    names = [x["name"] for x in run["alloc"]["allocators"]]
    ok(names == [a] and run["alloc"]["allocators"][0]["version"] not in ("", "unknown"),
       "%s: the run records the allocator and its version (%s)" % (a, run["alloc"]["allocators"][0]["version"]))
    schema_ok(v, d, "%s: the result" % a)
PY
import_checks "$pc_tmp/checks" "the result checks"

case " $allocs " in
*" jemalloc "*)
	# the medians' table, before the single calls' percentiles
	sed '/^single calls:/,$d' "$pc_tmp/table" >"$pc_tmp/medians"
	ok $(test "$(grep -cE '^ +(8|16|32|64|128|256|512|1024|2048|4096|8192|16384) ' "$pc_tmp/medians")" -eq 12 &&
		grep -qE '^ +size +malloc +free +malloc\+free' "$pc_tmp/table"; echo $?) \
		"the table: a row per size, malloc, free and malloc+free columns"
	pc compare --by allocator "$pc_tmp/glibc.json" "$pc_tmp/je.json"
	w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$pc_tmp/out")
	ok $(test $pc_rc -eq 0 && test "$w" -le 80 && grep -q '^B = jemalloc against A = glibc' "$pc_tmp/out" &&
		test "$(grep -cE '^ *[0-9]+ ' "$pc_tmp/out")" -eq 12; echo $?) \
		"compare --by allocator: jemalloc against glibc, 12 sizes, $w columns"
	pc compare --by allocator --base slub-base "$PC_SRCDIR/data/reference/amd-athlon64-x2-3800-kmalloc.json" "$pc_tmp/je.json"
	ok $(test $pc_rc -eq 0 && grep -q '^B = jemalloc against A = slub-base' "$pc_tmp/out" &&
		grep -qE '^ +8 +74\.0 ' "$pc_tmp/out"; echo $?) \
		"compare --by allocator reads the kmalloc reference table next to a run (kmalloc(8) = 74)"
	;;
*)
	skip "libjemalloc2 is not installed" "the table and compare --by allocator" ;;
esac
pc compare --by allocator "$pc_tmp/glibc.json"
ok $(test $pc_rc -eq 2 && grep -q "two allocators" "$pc_tmp/err"; echo $?) \
	"compare --by allocator with one allocator: $(cat "$pc_tmp/err")"
done_testing
