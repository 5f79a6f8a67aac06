#!/bin/sh
# SPDX-License-Identifier: MIT
# The published reference tables: valid, listed, installed, with their
# provenance and the clock semantics of their source.
. "${PC_SRCDIR}/tests/lib.sh"

ref="$PC_SRCDIR/data/reference"
n=0
for f in "$ref"/*.json; do
	n=$((n + 1))
	pc compare --format json "$f" "$f"
	ok $(test $pc_rc -eq 0 && grep -q '"slower": 0' "$pc_tmp/out" && grep -q '"faster": 0' "$pc_tmp/out"; echo $?) \
		"$(basename "$f") is read, validated and compares cleanly with itself"
done
ok $(test $n -ge 6; echo $?) "a table for every CPU of the published measurements ($n)"

PRIMCOST_REFERENCE_DIR="$ref" $PRIMCOST list --reference --format csv >"$pc_tmp/out" 2>"$pc_tmp/err"
ok $(test $? -eq 0 && test "$(tail -n +2 "$pc_tmp/out" | wc -l)" -eq $n; echo $?) \
	"list --reference lists every table"
PRIMCOST_REFERENCE_DIR="$ref" $PRIMCOST list --reference 'intel-itanium*' >"$pc_tmp/out" 2>"$pc_tmp/err"
ok $(test $? -eq 0 && grep -q 'Itanium' "$pc_tmp/out" && ! grep -q Athlon "$pc_tmp/out"; echo $?) \
	"list --reference PATTERN selects tables"
PRIMCOST_REFERENCE_DIR="$ref" $PRIMCOST compare "$ref/intel-pentium4.json" intel-itanium2-9050 >/dev/null 2>"$pc_tmp/err"
ok $? "compare accepts a reference table by its name"
PRIMCOST_REFERENCE_DIR="$pc_tmp/none" $PRIMCOST list --reference >/dev/null 2>"$pc_tmp/err"
ok $(test $? -eq 2 && test "$(wc -l <"$pc_tmp/err")" -eq 1; echo $?) \
	"list --reference without the tables: one-line error, exit 2"

# Found without PRIMCOST_REFERENCE_DIR: data/ next to the program in its
# build tree, the installed copy otherwise; every place named when neither.
env -u PRIMCOST_REFERENCE_DIR $PRIMCOST list --reference --format csv >"$pc_tmp/out" 2>"$pc_tmp/err"
ok $(test $? -eq 0 && test "$(tail -n +2 "$pc_tmp/out" | wc -l)" -eq $n; echo $?) \
	"list --reference from the build tree finds data/reference next to the program"
env -u PRIMCOST_REFERENCE_DIR $PRIMCOST compare "$ref/intel-pentium4.json" intel-itanium2-9050 >/dev/null 2>"$pc_tmp/err"
ok $? "compare finds a reference table by its name from the build tree"
mkdir -p "$pc_tmp/bin"
cp "$PC_BUILDDIR/primcost" "$pc_tmp/bin/primcost"
copy="$TEST_EMULATOR $pc_tmp/bin/primcost"
env -u PRIMCOST_REFERENCE_DIR $copy list --reference >/dev/null 2>"$pc_tmp/err"
rc=$?
ok $(test $rc -eq 2 && test "$(wc -l <"$pc_tmp/err")" -eq 1 &&
	grep -qF "looked in $pc_tmp/bin/data/reference (No such file or directory), /" "$pc_tmp/err"; echo $?) \
	"a program without data/ next to it names every place it looked: $(cat "$pc_tmp/err")"
mkdir -p "$pc_tmp/bin/data/reference"
cp "$ref/intel-pentium4.json" "$pc_tmp/bin/data/reference/"
env -u PRIMCOST_REFERENCE_DIR $copy list --reference --format csv >"$pc_tmp/out" 2>"$pc_tmp/err"
ok $(test $? -eq 0 && test "$(tail -n +2 "$pc_tmp/out" | wc -l)" -eq 1 &&
	grep -q '^intel-pentium4,' "$pc_tmp/out"; echo $?) \
	"the tables next to the program are the ones listed"
env -u PRIMCOST_REFERENCE_DIR $copy compare "$ref/intel-pentium4.json" intel-nonesuch >/dev/null 2>"$pc_tmp/err"
rc=$?
ok $(test $rc -eq 2 && test "$(wc -l <"$pc_tmp/err")" -eq 1 &&
	grep -qF "primcost: compare: intel-nonesuch: no such file, nor a reference table of that name (looked for intel-nonesuch.json in $pc_tmp/bin/data/reference, /" "$pc_tmp/err"; echo $?) \
	"compare NAME: says it looked for a reference table NAME, and where: $(cat "$pc_tmp/err")"
PRIMCOST_REFERENCE_DIR="$pc_tmp/none" $PRIMCOST merge -o - intel-nonesuch >/dev/null 2>"$pc_tmp/err"
ok $(test $? -eq 2 && grep -qF "in $pc_tmp/none (No such file or directory)" "$pc_tmp/err"; echo $?) \
	"merge NAME: the same, in \$PRIMCOST_REFERENCE_DIR alone when it is set"

# Checks of the figures, one "STATUS<tab>description" line each.
"$PYTHON3" - "$ref" "$PC_SRCDIR/data/schema.json" "$PC_SRCDIR/probes/probes.def" \
	>"$pc_tmp/checks" 2>&1 <<'PY'
import glob, json, re, sys
ref, schema_path, defs = sys.argv[1:4]
import os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, schema_ok, validator
v = validator(schema_path)
rows = set(re.findall(r'^PC_PROBE\(\w+, "([^"]+)"', open(defs).read(), re.M))
docs = {p.split("/")[-1]: json.load(open(p)) for p in sorted(glob.glob(ref + "/*.json"))}
for name, d in docs.items():
    schema_ok(v, d, name)
    for key, e in d["cpus"].items():
        for run in e["runs"]:
            prov = run.get("provenance", {})
            ok(run.get("cycles_source") == "published" and
               all(prov.get(k) for k in ("summary", "author", "date", "list", "subject", "what_was_timed", "clock")),
               "%s: every run states its source, author, date, list, what was timed and the clock" % name)
        figs = [q for p in e["probes"].values() for q in p.get("points", [p])]
        ok(all(p["cycles_source"] == "published" and p.get("published") for p in figs),
           "%s: every figure is marked published, with the figure as printed" % name)

def probes(fname):
    (e,) = docs[fname]["cpus"].values()
    return e["probes"]
it = probes("intel-itanium2-9050.json")
ok(all(abs(p["cycles"]["median"] - 4 * p["ticks"]["median"]) < 1e-4 * p["cycles"]["median"] + 1e-9 and
       abs(p["ns"]["median"] - 2.5 * p["ticks"]["median"]) < 1e-4 * p["ns"]["median"] + 1e-9 for p in it.values()),
   "Itanium 2: ar.itc ticks at 400 MHz on a 1.6 GHz core: cycles = 4 x ticks, ns = 2.5 x ticks")
ok(abs(it["local_irq_save"]["ticks"]["median"] - 59998 / 20000) < 1e-6 and it["local_irq_save"]["published"]["figure"] == 2,
   "Itanium 2: figures recomputed from the totals (59998 / 20000 = 2.9999, printed as 2)")
ok(it["local_irq_restore"]["published"]["label"].startswith("enabling interrupts (STI)"),
   "Itanium 2: the 'STI' loop is filed as local_irq_restore")
k8 = probes("amd-athlon64-x2-3800.json")
ok(k8["local_irq_restore.popf"]["cycles"]["median"] == 125 and k8["local_irq_save"]["cycles"]["median"] == 102 and
   k8["local_irq_restore.popf"]["ticks"]["median"] == 125 and "local_irq_restore" not in k8,
   "K8: 'STI' 125 is local_irq_restore.popf (push; popf in 2007), 'CLI' 102 local_irq_save, TSC ticks = core cycles")
p4 = probes("intel-pentium4.json")
ok(p4["local_irq_restore.popf"]["cycles"]["median"] == 112 and "local_irq_restore" not in p4 and
   p4["local_irq_restore.popf"]["group"] == "irq",
   "Pentium 4: 'STI' 112 is local_irq_restore.popf, not today's sti form")
km = probes("amd-athlon64-x2-3800-kmalloc.json")
def point(probe, allocator, size):
    return next(q for q in km[probe]["points"] if q["allocator"] == allocator and q["size"] == size)
ok(point("alloc.malloc", "slub-base", 8)["cycles"]["median"] == 74 and
   point("alloc.malloc", "slub-cmpxchg_local", 8)["cycles"]["median"] == 63 and
   sum(len(p["points"]) for p in km.values()) == 72 and
   not any(n.startswith(("kmalloc", "kfree")) for n in k8),
   "K8: the kmalloc/kfree table is filed once, as allocator points (slub-base 8 = 74, "
   "slub-cmpxchg_local 8 = 63, 72 points), not again as rows of the CPU's table")
amd = probes("amd-opteron-interlagos.json")
ok(abs(amd["spin_lock_unlock.qspinlock.nodes1.threads2"]["cycles"]["median"] - 620.18593) < 1e-3 and
   amd["spin_lock_unlock.ticket.nodes4.threads16"]["group"] == "spinlock_contended",
   "Interlagos: the contended spinlock table by lock, nodes and threads")
extra = sorted(set(amd) | set(k8) - rows)
ok(extra and not (set(amd) & rows), "reference-only probe names that are no rows of probes.def are accepted (%d)" % len(extra))
PY
import_checks "$pc_tmp/checks" "the figure checks"

# Installed with the program.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$PC_BUILDDIR" -s install-dist_referenceDATA \
	DESTDIR="$pc_tmp/inst" >"$pc_tmp/make.log" 2>&1
rc=$?
inst=$(find "$pc_tmp/inst" -type d -name reference 2>/dev/null | head -1)
ok $(test $rc -eq 0 && test -n "$inst" && test "$(ls "$inst" | wc -l)" -eq $n; echo $?) \
	"make install puts every table under \$(pkgdatadir)/reference${inst:+ (${inst#"$pc_tmp/inst"})}"
done_testing
