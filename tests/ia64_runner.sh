#!/bin/sh
# SPDX-License-Identifier: MIT
# The cross-built ia64 probe runner (./bootstrap build --arch ia64): both
# images are ia64 executables of the right kind, they contain the
# instruction sequences the man page promises, and, where the Ski simulator
# is installed (bski on PATH, or $BSKI), every probe's self-check passes
# under it and primcost turns the runner's output into a valid result.
. "${PC_SRCDIR}/tests/lib.sh"

dir=
for d in "${PC_BUILDDIR}/build-ia64" "${PC_SRCDIR}/build-ia64"; do
	[ -f "$d/primcost-runner" ] && { dir=$d; break; }
done
objdump=$(command -v ia64-linux-gnu-objdump || true)
readelf=$(command -v ia64-linux-gnu-readelf || command -v readelf || true)

if [ -z "$dir" ] || [ -z "$objdump" ]; then
	why="the ia64 runner is not built (./bootstrap build --arch ia64 builds it)"
	[ -n "$dir" ] && why="ia64-linux-gnu-objdump is missing (binutils-ia64-linux-gnu)"
	for t in "user-mode runner is a static ia64 executable" \
		"system-mode image is an ia64 executable at physical 0x100000" \
		"arch/ia64 objects are freestanding" \
		"runner holds the ia64 sequences" "system image holds rsm/ssm psr.i and mov psr" \
		"atomic_add_return times the 4-byte ld4.acq + cmpxchg4.acq loop" \
		"local_add_return times the 8-byte ld8.acq + cmpxchg8.acq loop" \
		"the fetchadd rows time fetchadd4.rel and fetchadd8.rel" \
		"preempt_disable_enable: ld4.acq/st4.rel, ld8.acq, bit 1" \
		"local_irq_disable repeats rsm psr.i only" \
		"local_irq_disable_enable alternates rsm and ssm psr.i" \
		"self-checks pass under Ski"; do
		skip "$why" "$t"
	done
	done_testing
	exit
fi
user=$dir/primcost-runner
system=$dir/primcost-runner-system

h=$($readelf -h "$user" 2>/dev/null)
l=$($readelf -l "$user" 2>/dev/null)
ok $(echo "$h" | grep -q 'IA-64' && echo "$h" | grep -q 'EXEC' &&
	! echo "$l" | grep -q 'INTERP'; echo $?) \
	"user-mode runner is a static ia64 executable ($(wc -c <"$user") bytes)"
h=$($readelf -h "$system" 2>/dev/null)
entry=$(echo "$h" | sed -n 's/.*Entry point address: *//p')
ok $(echo "$h" | grep -q 'IA-64' && [ "$entry" = 0x100000 ]; echo $?) \
	"system-mode image is an ia64 executable at physical 0x100000 (entry $entry)"

# The backend as built for the runner is freestanding too (the host's
# arch_freestanding.sh checks the host backend): no outside symbol (not even
# a memset the compiler might call), no writable data, small data included.
nm=$(command -v ia64-linux-gnu-nm || true)
$nm --defined-only "$dir"/arch/ia64/*.o 2>/dev/null | awk 'NF == 3 { print $3 }' |
	sort -u >"$pc_tmp/defined"
undef=$($nm -u "$dir"/arch/ia64/*.o 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u |
	comm -23 - "$pc_tmp/defined")
defined=$($objdump -t "$dir"/arch/ia64/*.o 2>/dev/null |
	awk '$4 ~ /^\.s?(data|bss)($|\.)/ && $4 !~ /rel\.ro/ && $NF !~ /^\./ { print $NF }' |
	sort -u)
ok $(test -n "$nm" && test -z "$undef$defined"; echo $?) \
	"arch/ia64 objects are freestanding${undef:+ (outside symbols: $(echo $undef))}${defined:+ (writable globals: $(echo $defined))}"

# Every sequence of the man page's ia64 column, as the disassembler prints it.
$objdump -d "$user" >"$pc_tmp/user.dis" 2>/dev/null
$objdump -d "$system" >"$pc_tmp/system.dis" 2>/dev/null
missing=
for re in 'mov(\.m)? ar\.ccv=r' 'cmpxchg8\.acq r[0-9]+=\[r[0-9]+\],r[0-9]+,ar\.ccv' \
	'fetchadd4\.rel r[0-9]+=\[r[0-9]+\],1' 'fetchadd8\.rel r[0-9]+=\[r[0-9]+\],1' \
	'xchg8 r[0-9]+=\[r[0-9]+\],r[0-9]+' \
	'[[:space:]]mf([[:space:];]|$)' 'mov(\.m)? r[0-9]+=ar\.itc' 'xmpy\.l f6=f6,f7' \
	'mov r[0-9]+=psr\.um' 'mov psr\.um=r[0-9]+' 'break\.i 0x100000'; do
	grep -Eq "$re" "$pc_tmp/user.dis" || missing="$missing '$re'"
done
ok $(test -z "$missing"; echo $?) \
	"runner holds the ia64 sequences (cmpxchg8.acq, fetchadd8.rel, xchg8, mf, mov ar.itc, ...)${missing:+; missing:$missing}"
# The timed bodies of the rows whose form depends on the kernel era, each
# in its own function: fn NAME prints that function's disassembly.
fn() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' "$pc_tmp/user.dis"
}
fn run_add_return4 >"$pc_tmp/loop4.dis"
ok $(grep -Eq 'ld4\.acq r[0-9]+=\[r[0-9]+\]' "$pc_tmp/loop4.dis" &&
	grep -Eq 'addp4 r[0-9]+=r[0-9]+,r0' "$pc_tmp/loop4.dis" &&
	grep -Eq 'cmpxchg4\.acq r[0-9]+=\[r[0-9]+\],r[0-9]+,ar\.ccv' "$pc_tmp/loop4.dis" &&
	grep -Eq 'cmp4\.(ne p7,p0|eq p0,p7)=r[0-9]+,r[0-9]+' "$pc_tmp/loop4.dis" &&
	! grep -Eq 'fetchadd|ld8\.acq|cmpxchg8' "$pc_tmp/loop4.dis"; echo $?) \
	"atomic_add_return times the 4-byte ld4.acq + cmpxchg4.acq loop (atomic_t), old zero-extended by addp4, no fetchadd"
fn run_add_return8 >"$pc_tmp/loop8.dis"
ok $(grep -Eq 'ld8\.acq r[0-9]+=\[r[0-9]+\]' "$pc_tmp/loop8.dis" &&
	grep -Eq 'cmpxchg8\.acq r[0-9]+=\[r[0-9]+\],r[0-9]+,ar\.ccv' "$pc_tmp/loop8.dis" &&
	grep -Eq 'cmp\.(ne p7,p0|eq p0,p7)=r[0-9]+,r[0-9]+' "$pc_tmp/loop8.dis" &&
	! grep -Eq 'fetchadd|ld4\.acq|cmpxchg4' "$pc_tmp/loop8.dis"; echo $?) \
	"local_add_return times the 8-byte ld8.acq + cmpxchg8.acq loop (atomic_long_t), no fetchadd"
fn run_fetchadd4 >"$pc_tmp/fa4.dis"
fn run_fetchadd8 >"$pc_tmp/fa8.dis"
ok $(grep -Eq 'fetchadd4\.rel r[0-9]+=\[r[0-9]+\],1' "$pc_tmp/fa4.dis" &&
	grep -Eq 'fetchadd8\.rel r[0-9]+=\[r[0-9]+\],1' "$pc_tmp/fa8.dis" &&
	! grep -Eq 'cmpxchg|fetchadd8' "$pc_tmp/fa4.dis" &&
	! grep -Eq 'cmpxchg|fetchadd4' "$pc_tmp/fa8.dis"; echo $?) \
	"the fetchadd rows time fetchadd4.rel (atomic_add_return.fetchadd) and fetchadd8.rel (local_add_return.fetchadd), no cmpxchg"
fn run_preempt >"$pc_tmp/preempt.dis"
ok $(grep -q 'ld4\.acq' "$pc_tmp/preempt.dis" && grep -q 'st4\.rel' "$pc_tmp/preempt.dis" &&
	grep -Eq 'ld8\.acq r[0-9]+=\[r[0-9]+\]' "$pc_tmp/preempt.dis" &&
	! grep -Eq '[[:space:]](ld4|st4)[[:space:]]' "$pc_tmp/preempt.dis" &&
	grep -Eq 'tbit\.(nz p6,p0|z p0,p6)=r[0-9]+,1(;;)?$' "$pc_tmp/preempt.dis" &&
	! grep -Eq 'tbit.*=r[0-9]+,[02-9]' "$pc_tmp/preempt.dis"; echo $?) \
	"preempt_disable_enable: ld4.acq/st4.rel on the count, ld8.acq of the flags, bit 1 (TIF_NEED_RESCHED) only"
missing=
for re in 'rsm 0x4000' 'ssm 0x4000' 'mov r[0-9]+=psr[;[:space:]]*$' 'srlz\.d' \
	'break\.i 0x80001'; do
	grep -Eq "$re" "$pc_tmp/system.dis" || missing="$missing '$re'"
done
ok $(test -z "$missing"; echo $?) \
	"system image holds rsm/ssm psr.i, mov r=psr and the SSC break${missing:+; missing:$missing}"

# The interrupt rows in the system image: unpredicated psr.i instructions
# in order (the read-back after the loop is predicated). The repeated half
# is rsm alone, 96 times (PC_UNROLL_LO + PC_UNROLL_HI); the pair of real
# transitions alternates rsm and ssm; srlz.d, 96 times each.
psr_i() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit }
		on { n = split($0, c, "\t"); i = c[n]; sub(/^\[[A-Z]+\][ ]*/, "", i)
		     sub(/^[ ]+/, "", i); if (i ~ /^\(p/) next
		     split(i, w, /[ ;]+/)
		     if (w[1] == "rsm" || w[1] == "ssm" || w[1] == "srlz.d") printf "%s ", w[1] }' \
		"$pc_tmp/system.dis"
}
got=$(psr_i run_irq_disable)
ok $(test "$got" = "$(printf 'rsm %.0s' $(seq 96))"; echo $?) \
	"local_irq_disable repeats rsm psr.i only ($(echo "$got" | wc -w) psr.i instructions)"
got=$(psr_i run_irq_disable_enable)
ok $(test "$got" = "$(printf 'rsm ssm srlz.d %.0s' $(seq 96))"; echo $?) \
	"local_irq_disable_enable alternates rsm and ssm psr.i, srlz.d after each ssm ($(echo "$got" | wc -w) psr.i instructions)"

bski=${BSKI:-$(command -v bski || true)}
if [ -z "$bski" ]; then
	skip "bski is not on PATH: the Ski simulator is not packaged; install it (or set BSKI) to run the runner" \
		"self-checks pass under Ski"
	done_testing
	exit
fi
pc run --arch ia64 --emulator "$bski" --runner "$user" --system-runner "$system" \
	-n 21 -o "$pc_tmp/ia64.json" -q
failed=$("$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
(k, e), = d["cpus"].items()
print(" ".join("%s(%s)" % (n, p.get("reason", "")) for n, p in e["probes"].items()
               if p["status"] == "failed"))' "$pc_tmp/ia64.json" 2>/dev/null)
ok $(test $pc_rc -eq 0 && test -s "$pc_tmp/ia64.json" && test -z "$failed"; echo $?) \
	"self-checks pass under Ski: primcost run --arch ia64 --emulator $bski exits 0${failed:+; failed: $failed}$(test $pc_rc -ne 0 && printf '; %s' "$(head -1 "$pc_tmp/err")")"
if [ -s "$pc_tmp/ia64.json" ]; then
	"$PYTHON3" - "$pc_tmp/ia64.json" >"$pc_tmp/py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(k, e), = d["cpus"].items()
p, run = e["probes"], e["runs"][-1]
def ok(c, m):
    print(("ok" if c else "not ok") + " 0 - " + m)
ok(e["cpu"]["arch"] == "ia64" and e["cpu"]["timer"]["name"] == "ar.itc",
   "the result is filed as ia64 with ar.itc as its timer (%s)" % k)
ok(run.get("emulated") is True and run.get("unreliable") is True,
   "the run is marked emulated and unreliable as a cost")
irq = [n for n in p if n.startswith("local_irq_") and not n.endswith(".popf")]
ok(irq and all(p[n]["status"] == "ok" for n in irq),
   "the ring-0 rows ran in the system-mode image: " +
   ", ".join("%s=%s" % (n, p[n]["status"]) for n in sorted(irq)))
ok(p["local_irq_restore.popf"]["status"] == "unsupported",
   "local_irq_restore.popf is unsupported on ia64 (%s)" % p["local_irq_restore.popf"].get("reason"))
PY
	tap_import <"$pc_tmp/py"
	"$PYTHON3" "$PC_SRCDIR/tests/check_result.py" "$pc_tmp/ia64.json" \
		"$PC_SRCDIR/data/schema.json" "$PC_SRCDIR/probes/probes.def" --emulated \
		>"$pc_tmp/cr" 2>&1
	tap_import <"$pc_tmp/cr"
fi
done_testing
