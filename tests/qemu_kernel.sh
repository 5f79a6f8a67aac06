#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel module in a real Linux kernel: scripts/qemu-kernel.sh boots
# Debian's kernel under qemu with the module, primcost and tests/ring0_kmod
# in an initramfs, and this checks its serial log: the module loads and
# unloads, taints the kernel only as an out-of-tree unsigned module does, the
# kernel logs no warning or oops; every ring-0 self-check passes and a fault
# in ring 0 fails its row with the kernel alive; under TCG the run is marked
# emulated and ring 0 refused whatever the gate measures, and with the
# test-only switch the rows are written, merged and compared against the
# Pentium 4 and Athlon 64 tables; the kernel group (run --kernel) runs
# every kernel.* row with its self-check passed, flagged emulated (the
# 2007 pattern's batches, the constant sizes, the page allocator's sizes
# named, the kernel's settings recorded, the remote rows on the guest's
# two CPUs, every object kfree()d on the far one), the contended spin lock on the
# guest's 2 vCPUs, compared with the 2007 kmalloc and irq tables; tests/kmod_hostile, the module against a hostile
# caller, passes; rmmod is clean and dmesg has no warning, oops or lockdep
# report after it. Then a second guest whose CPU lacks cmpxchg16b (qemu's
# -cx16) runs the hostile caller alone, with the same checks. Runs where
# qemu-system-x86, busybox-static, cpio, linux-headers-amd64 and the cached
# kernel image are present; with PC_QEMU_KERNEL=1 (as root) it installs and
# downloads them first.
. "${PC_SRCDIR}/tests/lib.sh"

if [ "${PC_ARCH:-}" != x86_64 ]; then
	skip "the kernel module is x86-64 only" "Debian's kernel boots with the module"
	done_testing
	exit
fi
install=
[ "${PC_QEMU_KERNEL:-}" = 1 ] && install=--install
out=$pc_tmp/out
PC_SRCDIR=$PC_SRCDIR PC_BUILDDIR=$PC_BUILDDIR \
	"$PC_SRCDIR/scripts/qemu-kernel.sh" $install -o "$out" 2>"$pc_tmp/script.err"
rc=$?
if [ $rc -eq 77 ]; then
	why=$(sed -n 's/^qemu-kernel: cannot run here: //p' "$pc_tmp/script.err" | tail -1)
	skip "${why:-cannot run here}${install:- (PC_QEMU_KERNEL=1 installs, as root)}" \
		"Debian's kernel boots with the module"
	done_testing
	exit
fi
ok $rc "Debian's kernel boots under qemu and the guest runs to its end"
sed 's/^/# /' "$out/times" 2>/dev/null
if [ $rc -ne 0 ]; then
	tail -20 "$pc_tmp/script.err" | sed 's/^/# /'
	echo "# the guest's last steps and console lines:"
	# (Printable characters only, and awk ends the last line, which the
	# console may have left open.)
	{ grep '^@@' "$out/serial.txt" | tail -3; tail -15 "$out/serial.txt"; } 2>/dev/null |
		tr -cd '\11\12\40-\176' | awk '{ print "#   " $0 }'
	done_testing
	exit
fi
section_rc() { cat "${2:-$out}/$1.rc" 2>/dev/null || echo missing; }
taint() { sed -n 's/^tainted //p' "${2:-$out}/$1.out"; }
# O (4096): out of tree; E (8192): unsigned. Nothing else.
only_oe() { [ -n "$1" ] && [ $(($1 & ~(4096 | 8192))) -eq 0 ]; }

ok $(test "$(taint kernel)" = 0; echo $?) "the kernel is untainted before insmod ($(taint kernel))"
ok $(test "$(section_rc insmod)" = 0 && grep -q '^primcost_ring0 .*Live' "$out/device.out"
     echo $?) "insmod primcost_ring0.ko test_entries=1 loads the module"
ok $(only_oe "$(taint device)"; echo $?) "... which taints the kernel only as out-of-tree and unsigned ($(taint device))"

accel=$(sed -n 's/.* accel=//p' "$out/times")
if [ "$accel" = tcg ]; then
	ok $(grep -q '^emulated *yes: QEMU TCG, from the CPUID hypervisor signature TCGTCGTCGTCG' \
	     "$out/info.out"; echo $?) "primcost info says the CPU is emulated (TCG)"
	ok $(grep -q '^ring 0 *NOT trustworthy via kmod: ring 0 is emulated (TCG)' "$out/info.out"
	     echo $?) "... and that ring 0 through the module is not trustworthy"
fi
$PYTHON3 - "$out" "$accel" "$PC_SRCDIR/data/schema.json" <<'EOF' >"$pc_tmp/py.tap" 2>&1
import json, sys
out, accel = sys.argv[1], sys.argv[2]
n = 0
def ok(cond, what):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
def load(name):
    with open("%s/%s.out" % (out, name)) as f:
        doc = json.load(f)
    (cpu,) = doc["cpus"].values()
    return cpu["runs"][-1], cpu["probes"]
irq = ["local_irq_disable", "local_irq_enable", "local_irq_save",
       "local_irq_restore", "local_irq_save_restore", "local_irq_restore.popf",
       "local_irq_disable_enable", "local_irq_save_restore.popf"]
if accel == "tcg":
    run, probes = load("run")
    r0 = run.get("ring0", {})
    ok(run.get("unreliable") and "TCG" in run.get("unreliable_reason", ""),
       "the run is marked unreliable: " + run.get("unreliable_reason", "(not)"))
    ok(r0.get("backend") == "kmod" and r0.get("trusted") is False and
       r0.get("verdict", "").startswith("ring 0 is emulated (TCG)"),
       "ring 0 through the module is refused as emulated: " + r0.get("verdict", "(none)"))
    ok(all(probes[p]["status"] == "unsupported" for p in irq),
       "... and the local_irq rows are unsupported")
run, probes = load("accepted")
r0 = run.get("ring0", {})
ok(r0.get("test_accept_emulated") is True and r0.get("trusted") is True,
   "the test-only switch is recorded in the result: " + r0.get("verdict", "(none)"))
ok(all(probes[p]["status"] == "ok" and
       "PRIMCOST_TEST_ACCEPT_EMULATED_RING0=1" in probes[p].get("reason", "") and
       probes[p]["cycles"]["median"] > 0 for p in irq),
   "... the local_irq rows are measured, ok, and say why in their reason")
# The repeated halves and the pairs of real transitions, side by side (TCG
# cycles where accel is tcg: what the emulator spends, no CPU's cost), from
# the module and, where nested KVM came up, from the micro-guest.
def side_by_side(name, where):
    try:
        probes = load(name)[1]
    except (OSError, ValueError, KeyError):
        return
    def med(n):  # the median, or the status that withholds it
        p = probes.get(n, {})
        return p["cycles"]["median"] if p.get("status") == "ok" else p.get("status", "absent")
    def fmt(v):
        return "%.2f" % v if isinstance(v, float) else v
    for halves, pair in ((("local_irq_disable", "local_irq_enable"), "local_irq_disable_enable"),
                         (("local_irq_save", "local_irq_restore"), "local_irq_save_restore"),
                         (("local_irq_save", "local_irq_restore.popf"), "local_irq_save_restore.popf")):
        a, b = med(halves[0]), med(halves[1])
        both = a + b if isinstance(a, float) and isinstance(b, float) else "-"
        print("%s: repeated halves %s = %s + %s = %s; real transitions %s = %s (%s cycles)"
              % (where, " + ".join(halves), fmt(a), fmt(b), fmt(both), pair,
                 fmt(med(pair)), accel))
side_by_side("accepted", "module")
side_by_side("kvm-rows", "micro-guest in nested KVM")
try:
    import jsonschema
    with open(sys.argv[3]) as f:
        schema = json.load(f)
    with open(out + "/accepted.out") as f:
        errors = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(json.load(f))]
    ok(not errors, "the accepted result validates against data/schema.json " + "; ".join(errors[:3]))
except ImportError:
    n += 1
    print("ok %d - the accepted result validates against data/schema.json # SKIP "
          "python3-jsonschema is not installed" % n)
print("1..%d" % n)
EOF
tap_import <"$pc_tmp/py.tap"
grep -v '^\(ok\|not ok\|1\.\.\)' "$pc_tmp/py.tap" | sed 's/^/# /'

# The kernel group: the running kernel's own primitives, in the module.
ok $(test "$(section_rc kernel-run)" = 0; echo $?) \
	"primcost run --kernel runs in the guest: $(head -c 300 "$out/kernel-run.out")"
sed 's/^/# /' "$out/kernel-run.out"
$PYTHON3 - "$out/kernel-json.out" "$accel" <<'EOF2' >"$pc_tmp/kernel.tap" 2>&1
import json, sys
n = 0
def ok(cond, what):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
try:
    doc = json.load(open(sys.argv[1]))
    (cpu,) = doc["cpus"].values()
    run, probes = cpu["runs"][-1], cpu["probes"]
except (OSError, ValueError, KeyError) as e:
    ok(False, "the kernel group's result reads back: %s" % e)
    print("1..%d" % n)
    sys.exit()
rows = {k: v for k, v in probes.items() if k.startswith("kernel.")}
ok(len(rows) == 28, "28 kernel rows filed: %d" % len(rows))
# every row runs and passes its self-check: ok, or unsupported where this
# kernel cannot give it to a module (this_cpu_cmpxchg_double before 6.5,
# with that reason)
release = run.get("kernel_config", {}).get("release", "")
before65 = tuple(int(x) for x in release.split("-")[0].split(".")[:2]) < (6, 5)
bad = []
for name, p in rows.items():
    for q in p.get("points", [p]):
        if (q["status"] == "unsupported" and name == "kernel.this_cpu_cmpxchg_double"
                and before65 and "before 6.5" in q.get("reason", "")):
            continue
        if q["status"] not in ("ok", "noisy") or not q["cycles"]["median"] > 0:
            bad.append("%s: %s %s" % (name, q["status"], q.get("reason", "")))
ok(not bad, "every kernel row ran and passed its self-check in the kernel "
   + "; ".join(bad[:3]))
c = [p["threads"] for p in rows["kernel.spin_lock_unlock.contended"]["points"]]
ok(c == [1, 2], "the contended spin lock ran on 1 and 2 vCPUs: %s" % c)
if sys.argv[2] == "tcg":
    ok(run.get("unreliable") and "TCG" in run.get("unreliable_reason", ""),
       "the rows are flagged emulated: %s" % run.get("unreliable_reason"))
k = run.get("kernel_config", {})
ok(k.get("release") and k.get("preempt") != "unknown" and k.get("spinlock") ==
   ("rt_mutex (raw: queued, paravirt)" if k.get("preempt") == "rt" else "queued, paravirt"),
   "the kernel's configuration is recorded: %s, preemption %s, spin lock %s"
   % (k.get("release"), k.get("preempt"), k.get("spinlock")))
want = ["preempt_lazy", "preempt_rcu", "debug_atomic_sleep", "kfence", "kfence_on",
        "slab_freelist_hardened", "random_kmalloc_caches", "mem_alloc_profiling",
        "mem_alloc_profiling_on", "init_on_alloc", "init_on_free"]
cfg = k.get("config", {})
ok(all(isinstance(cfg.get(w), bool) for w in want),
   "... with what moves the allocator's and the locks' figures: "
   + ", ".join("%s %s" % (w, cfg.get(w)) for w in want))
mc = k.get("module_cache", {})
ok(mc.get("merged") is False and k.get("kmalloc_max_cache_size", 0) > 0,
   "the module's cache is not merged (%s); kmalloc's largest cache %s bytes"
   % (mc, k.get("kmalloc_max_cache_size")))
# the 2007 pattern, the constant sizes and the page allocator's label
def pts(name):
    return {p["size"]: p for p in rows.get(name, {}).get("points", [])}
for name in ("kernel.kmalloc.batch10000", "kernel.kfree.batch10000",
             "kernel.kmalloc.const", "kernel.kfree.const", "kernel.kmalloc_kfree.const"):
    p = pts(name)
    ok(sorted(p) == [8 << i for i in range(12)] and
       all(q["status"] in ("ok", "noisy") and q["cycles"]["median"] > 0 for q in p.values()),
       "%s: 12 sizes measured" % name)
b = pts("kernel.kmalloc.batch10000")
ok(all(q.get("samples", 0) >= 1 and q.get("iters") == 10000 for q in b.values()),
   "kernel.kmalloc.batch10000: batches of 10000, a sample each (%s samples at 8 bytes)"
   % b.get(8, {}).get("samples"))
rem = rows.get("kernel.kmalloc.remote", {}).get("points", []) + \
    rows.get("kernel.kfree.remote", {}).get("points", [])
ok(len(rem) == 24 and all(q["status"] in ("ok", "noisy") and q["cpus"] == "0,1" and
                          q["objects"] > 0 and q["freed_far"] == q["objects"] for q in rem),
   "the remote rows: 12 sizes each on CPUs 0 and 1, every object kfree()d on the far CPU "
   "(%s objects a point)" % (rem[0].get("objects") if rem else "-"))
big = [s for s in b if s > k.get("kmalloc_max_cache_size", 1 << 30)]
ok(big and all(b[s].get("served_by", "").startswith("page allocator, order ") for s in big)
   and all(b[s].get("served_by") == "slab cache" for s in b if s not in big),
   "the sizes above the largest kmalloc cache say the page allocator serves them: %s"
   % ", ".join("%d %s" % (s, b[s].get("served_by")) for s in big))
inflating = k.get("inflating", [])
pts = rows["kernel.kmalloc"]["points"]
ok("init_on_alloc" not in inflating or
   all("init_on_alloc" in p.get("inflated_by", "") for p in pts) and
   "inflated_by" not in rows["kernel.cmpxchg_local"],
   "an inflating option (%s) is named beside the figures it touches, not others"
   % ", ".join(inflating))
print("1..%d" % n)
EOF2
tap_import <"$pc_tmp/kernel.tap"
grep -v '^\(ok\|not ok\|1\.\.\)' "$pc_tmp/kernel.tap" | sed 's/^/# /'
ok $(grep -q 'B = kmalloc against A = slub-base' "$out/compare-kmalloc.txt" &&
     grep -q 'marked unreliable' "$out/compare-kmalloc.txt" &&
     tr '\n' ' ' <"$out/compare-kmalloc.txt" | tr -s ' ' |
     grep -q 'repeated allocations then frees (10000 of each, the mean)'; echo $?) \
	"compare --by allocator: the kernel's 2007 pattern against the 2007 SLUB table, in its words, flagged"
ok $(grep -q 'cmpxchg_local ~ kernel.cmpxchg_local' "$out/compare-kernel-irq.txt" &&
     grep -q 'local_irq_save ~ kernel.local_irq_save_restore' "$out/compare-kernel-irq.txt"
     echo $?) "compare: the kernel's rows beside the 2007 irq and cmpxchg_local figures"

ok $(test "$(section_rc ring0_kmod)" = 0; echo $?) "tests/ring0_kmod passes in the guest"
tap_import <"$out/ring0_kmod.out"
ok $(test "$(section_rc hostile)" = 0; echo $?) "tests/kmod_hostile passes in the guest"
tap_import <"$out/hostile.out"

# unloaded DIR WHAT: rmmod, the taint after it, and the kernel's log.
unloaded() {
	ok $(test "$(section_rc rmmod "$1")" = 0 && grep -q 'No such file' "$1/after.out" &&
	     grep -qx 0 "$1/after.out"; echo $?) "$2rmmod unloads the module and its device"
	ok $(only_oe "$(taint after "$1")"; echo $?) \
		"$2the kernel's taint after rmmod is still only O and E ($(taint after "$1"))"
	bad='WARNING:|Oops|BUG:|Call Trace|general protection|invalid opcode|RIP:|soft lockup|hung task'
	bad="$bad|Tainted: .*[^OE ]|lockdep|DEBUG_LOCKS_WARN_ON|inconsistent lock state|possible .*locking"
	ok $(! grep -Eq "$bad" "$1/dmesg.out"; echo $?) \
		"$2dmesg has no warning, oops, trace or lockdep report"
	grep -E "$bad" "$1/dmesg.out" | head -5 | sed 's/^/# /'
}
unloaded "$out" ""
kconfig=$(ls /var/cache/primcost/qemu-kernel/*/boot/config-* 2>/dev/null | tail -1)
diag "lockdep in this kernel: $(grep -h '^CONFIG_PROVE_LOCKING=y' "$kconfig" 2>/dev/null ||
	echo 'no (CONFIG_PROVE_LOCKING is not set: a lockdep report cannot appear)')"

for ref in intel-pentium4 amd-athlon64-x2-3800; do
	ok $(grep -Eq '^local_irq_save +[0-9.]+ .* [0-9.]+ ' "$out/compare-$ref.txt" &&
	     grep -Eq '^local_irq_restore\.popf +[0-9.]+ .* [0-9.]+ ' "$out/compare-$ref.txt" &&
	     grep -q 'marked unreliable' "$out/compare-$ref.txt"; echo $?) \
		"the accepted rows compare against $ref (flagged unreliable)"
done

# A second guest, whose CPU lacks cmpxchg16b: the hostile caller alone.
out2=$pc_tmp/nocx16
PC_SRCDIR=$PC_SRCDIR PC_BUILDDIR=$PC_BUILDDIR \
	"$PC_SRCDIR/scripts/qemu-kernel.sh" -o "$out2" --cpu -cx16 --steps hostile \
	2>"$pc_tmp/script2.err"
rc2=$?
ok $rc2 "a guest whose CPU lacks cmpxchg16b (qemu's -cx16) runs to its end"
sed 's/^/# /' "$out2/times" 2>/dev/null
if [ $rc2 -eq 0 ]; then
	ok $(grep -q '^flags' "$out2/kernel.out" && ! grep -qw cx16 "$out2/kernel.out"; echo $?) \
		"... and its CPU has no cx16 flag"
	ok $(test "$(section_rc insmod "$out2")" = 0; echo $?) "no cmpxchg16b: the module loads"
	ok $(test "$(section_rc hostile "$out2")" = 0; echo $?) \
		"no cmpxchg16b: tests/kmod_hostile passes"
	sed 's/^\(\(not \)\{0,1\}ok [0-9]* - \)/\1no cmpxchg16b: /' "$out2/hostile.out" \
		>"$pc_tmp/hostile2.tap"
	tap_import <"$pc_tmp/hostile2.tap"
	unloaded "$out2" "no cmpxchg16b: "
else
	tail -20 "$pc_tmp/script2.err" | sed 's/^/# /'
fi

# Nested KVM (TCG's SVM) is reported, not required.
diag "nested KVM in the guest: $(tr '\n' ' ' <"$out/kvm.out" | cut -c1-300)"
if [ -s "$out/kvm-guest.out" ]; then
	diag "tests/ring0_guest in the nested guest: $(grep -c '^ok' "$out/kvm-guest.out") ok," \
		"$(grep -c '^not ok' "$out/kvm-guest.out") not ok, exit $(section_rc kvm-guest)"
	grep '^not ok' "$out/kvm-guest.out" | head -5 | sed 's/^/# /'
fi
done_testing
