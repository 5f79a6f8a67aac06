#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel group from the command line: where the module cannot load,
# run --kernel (and -p 'kernel.*') refuses in one line with ring 0's reason
# and writes nothing; list shows its rows in ring 0; and a real guest's
# result (tests/fixtures/kernel-tcg.json: Debian's kernel under qemu TCG,
# tests/qemu_kernel.sh) validates, merges, and compares: its kmalloc beside
# the 2007 SLUB table, flagged emulated, and its rows beside the 2007
# interrupt figures and primcost's own copies as analogs.
. "${PC_SRCDIR}/tests/lib.sh"
fixture=$PC_SRCDIR/tests/fixtures/kernel-tcg.json

# The product's verdict, not the device's presence (a module of another
# build, or a user the module refuses, has the device too): a run of one
# row that measures is a machine where the group works.
pc run -p kernel.cmpxchg_local -n 21 -q -o "$pc_tmp/one.json"
if [ $pc_rc -eq 0 ]; then
	skip "the kernel group works here: nothing is refused" "run --kernel refuses"
else
	for sel in "--kernel" "-p kernel.*"; do
		# shellcheck disable=SC2086
		pc run $sel -o "$pc_tmp/k.json"
		ok $(test $pc_rc -ne 0 && one_line_error &&
		     grep -q '^primcost: run: kernel group unsupported: ' "$pc_tmp/err" &&
		     test ! -e "$pc_tmp/k.json"; echo $?) \
			"run $sel: one line, non-zero exit, nothing written: $(cat "$pc_tmp/err")"
	done
	if [ "${PC_ARCH:-}" != x86_64 ]; then
		ok $(grep -q 'the kernel module is x86-64 only' "$pc_tmp/err"; echo $?) \
			"... with ring 0's reason: the module is x86-64 only"
	elif [ ! -e /proc/modules ]; then
		ok $(grep -q 'this kernel has no module support (no /proc/modules)' "$pc_tmp/err"
		     echo $?) "... with ring 0's reason: no module support"
	fi
fi
pc run --kernel --arch ia64 -o "$pc_tmp/k.json"
ok $(test $pc_rc -eq 2 && grep -q 'kernel group runs alone' "$pc_tmp/err"; echo $?) \
	"--kernel with --arch is a usage error: $(cat "$pc_tmp/err")"
pc run -p 'kernel.nope' -o "$pc_tmp/k.json"
ok $(test $pc_rc -eq 2; echo $?) "-p of no row is a usage error: $(cat "$pc_tmp/err")"

pc list 'kernel.*'
# A name wider than the column has a line of its own, its fields below it.
ok $(test "$(grep -c '^kernel\.[a-z_0-9.]*' "$pc_tmp/out")" -eq 28 &&
     test "$(grep -Ec '^(kernel\.[a-z_0-9.]*)? +kernel +0 ' "$pc_tmp/out")" -eq 28
     echo $?) "list: the 27 entries and the contended row, in ring 0"
# Where the rows cannot run, list -v and its JSON say why (the reason run gives).
pc list -v kernel.kmalloc
if grep -Eq ' unsupported( |$)' "$pc_tmp/out"; then
	ok $(grep -Eq '^ +note: +(this kernel has no module support|the primcost_ring0 module is x86-64 only)' \
	     "$pc_tmp/out"; echo $?) "list -v: an unsupported kernel row says why in its note"
	pc list --format json kernel.kmalloc
	ok $($PYTHON3 -c 'import json,sys; (r,) = json.load(open(sys.argv[1])); sys.exit(not r["note"])' \
	     "$pc_tmp/out"; echo $?) "list --format json: ... in the row's note"
else
	ok $(! grep -q ' note: ' "$pc_tmp/out"; echo $?) "list -v: a row this machine runs has no note"
fi

# The guest's result.
pc merge -q -o "$pc_tmp/m.json" "$fixture"
ok $pc_rc "the guest's result merges (validates): $(cat "$pc_tmp/err")"
$PYTHON3 - "$fixture" <<'PY' >"$pc_tmp/py.tap"
import json, sys
doc = json.load(open(sys.argv[1]))
(cpu,) = doc["cpus"].values()
run, probes = cpu["runs"][-1], cpu["probes"]
n = 0
def ok(c, what):
    global n
    n += 1
    print(("ok %d - %s" if c else "not ok %d - %s") % (n, what))
rows = [k for k in probes if k.startswith("kernel.")]
ok(len(rows) == 28, "28 kernel rows (17 entries, 10 kmalloc rows of points, the contended row): %d" % len(rows))
ok(run.get("unreliable") and "emulated" in run.get("unreliable_reason", "")
   or "TCG" in run.get("unreliable_reason", ""), "the run is marked emulated: %s"
   % run.get("unreliable_reason"))
k = run.get("kernel_config", {})
ok(k.get("preempt") and k.get("spinlock") and "lockdep" in k.get("config", {}),
   "the kernel's configuration recorded: %s, %s" % (k.get("preempt"), k.get("spinlock")))
pts = probes["kernel.kmalloc"]["points"]
ok(len(pts) == 12 and all(p["status"] == "ok" and p["cycles"]["median"] > 0 for p in pts),
   "kernel.kmalloc: 12 sizes measured")
b = probes["kernel.kmalloc.batch10000"]["points"]
ok(len(b) == 12 and all(p["status"] in ("ok", "noisy") and p["iters"] == 10000 for p in b)
   and [p["served_by"] for p in b if p["size"] == 16384] == ["page allocator, order 2"],
   "kernel.kmalloc.batch10000: 12 sizes, batches of 10000, 16384 bytes the page allocator's")
ok(all("init_on_alloc" in p.get("inflated_by", "") for p in pts)
   if "init_on_alloc" in k.get("inflating", []) else True,
   "init_on_alloc, on in Debian's kernel, is named beside every kmalloc figure")
c = probes.get("kernel.spin_lock_unlock.contended", {}).get("points", [])
ok([p["threads"] for p in c] == [1, 2] and all(p["status"] == "ok" for p in c),
   "the contended spin lock at 1 and 2 threads (the guest's 2 vCPUs)")
print("1..%d" % n)
PY
tap_import <"$pc_tmp/py.tap"

pc compare --by allocator --color never amd-athlon64-x2-3800-kmalloc "$fixture"
ok $(test $pc_rc -eq 0 && grep -q '^  kmalloc ' "$pc_tmp/out" &&
     grep -q 'slub-base' "$pc_tmp/out" && grep -q 'marked unreliable' "$pc_tmp/out" &&
     grep -q 'B = kmalloc against A = slub-base' "$pc_tmp/out"; echo $?) \
	"compare --by allocator: the kernel's kmalloc beside the 2007 SLUB table, flagged"
pc compare --color never amd-athlon64-x2-3800 "$fixture"
ok $(test $pc_rc -le 1 &&
     grep -q 'local_irq_save ~ kernel.local_irq_save_restore' "$pc_tmp/out" &&
     grep -q 'cmpxchg_local ~ kernel.cmpxchg_local' "$pc_tmp/out"; echo $?) \
	"compare with the 2007 irq table: the kernel's rows as analogs"
done_testing
