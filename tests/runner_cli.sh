#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost's side of the probe runner protocol, end to end through the CLI:
# `run --arch ia64` with a stand-in runner (tests/fixtures/fake-ia64-runner:
# documented records, made-up timings of known cost) and a stand-in bski.
# Proves the arithmetic (ticks, cycles, ns), the system image for the
# ring-0 rows, the re-run after a probe traps, saved output, and the errors.
. "${PC_SRCDIR}/tests/lib.sh"

if emulated; then
	# primcost spawns the runner; a child of a program under qemu-user spins
	# in the emulator's translator (seen with Debian 12's qemu-user 7.2).
	# The protocol is the same code natively, where this test runs.
	skip "primcost under an emulator ($TEST_EMULATOR) cannot spawn the runner reliably" \
		"the probe runner protocol through the CLI"
	done_testing
	exit
fi

fx="$PC_SRCDIR/tests/fixtures"
mkdir -p "$pc_tmp/b"
cp "$fx/fake-ia64-runner" "$pc_tmp/b/primcost-runner"
cp "$fx/fake-ia64-runner" "$pc_tmp/b/primcost-runner-system"
runner="$pc_tmp/b/primcost-runner"

# Prints "ok" lines of python checks of a result file as shell TAP points.
check_json() {	# check_json FILE PYTHON-EXPRESSION DESCRIPTION
	"$PYTHON3" -c '
import json, sys
sys.path.insert(0, sys.argv[3])
from pcraw import decode
d = json.load(open(sys.argv[1]))
(k, e), = d["cpus"].items()
p, run, cpu = e["probes"], e["runs"][-1], e["cpu"]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" "$PC_SRCDIR/tests" 2>"$pc_tmp/pyerr"
	ok $? "$3$(test -s "$pc_tmp/pyerr" && printf ' (%s)' "$(tail -1 "$pc_tmp/pyerr")")"
}

# 1. natively (as on a real Itanium): ring-3 rows measured, ring-0 skipped
pc run --arch ia64 --runner "$runner" -n 9 -o "$pc_tmp/native.json" -q
ok $(test $pc_rc -eq 0 && test -s "$pc_tmp/native.json"; echo $?) \
	"run --arch ia64 --runner FAKE exits 0 and writes the file$(test $pc_rc -ne 0 && printf ': %s' "$(head -1 "$pc_tmp/err")")"
check_json "$pc_tmp/native.json" \
	'abs(p["cmpxchg"]["ticks"]["median"] - 12) < 1e-9 and abs(p["cmpxchg"]["cycles"]["median"] - 12) < 1e-9 and abs(p["cmpxchg"]["ns"]["median"] - 30) < 1e-6' \
	"cmpxchg: 12 ticks, 12 cycles (paired add chain 1 tick/add), 30 ns at the measured 400 MHz"
check_json "$pc_tmp/native.json" \
	'p["baseline"]["cycles"]["median"] == 0 and p["baseline"]["linearity"] is None and abs(p["xchg"]["linearity"] - 2) < 1e-9' \
	"baseline reads 0 (linearity null); xchg doubles with the iterations"
check_json "$pc_tmp/native.json" \
	'cpu["arch"] == "ia64" and cpu["timer"] == {"name": "ar.itc", "hz": 4e8, "measured": True} and k == "ia64.intel.32-0-7.itanium-2-9000-9100" and abs(cpu["core_hz_estimate"] - 4e8) < 1' \
	"ia64 identity from cpuid, ar.itc and its measured rate, the model key"
check_json "$pc_tmp/native.json" \
	'all(p[n]["status"] == "skipped" and "--emulator" in p[n]["reason"] for n in p if n.startswith("local_irq_") and not n.endswith(".popf")) and p["local_irq_restore.popf"]["status"] == "unsupported" and p["sigprocmask"]["status"] == "unsupported"' \
	"without the simulator the ring-0 rows are skipped (why: --emulator), the popf form unsupported as the runner says; sigprocmask unsupported"
check_json "$pc_tmp/native.json" \
	'run["emulated"] is False and run["unreliable"] is False and run["cycles_source"] == "calibrated" and p["cmpxchg"]["samples"] == 9 and "raw" not in p["cmpxchg"]' \
	"not emulated, calibrated cycles, 9 samples, no raw samples without -k"
"$PYTHON3" "$PC_SRCDIR/tests/check_result.py" "$pc_tmp/native.json" \
	"$PC_SRCDIR/data/schema.json" "$PC_SRCDIR/probes/probes.def" --no-timing >"$pc_tmp/cr" 2>&1
grep -q '^not ok' "$pc_tmp/cr"
ok $((1 - $?)) "the result passes check_result.py (schema, every row, no failure)$(grep '^not ok' "$pc_tmp/cr" | head -1 | sed 's/^/: /')"

# 2. under the (stand-in) simulator: the system image runs the ring-0 rows
pc run --arch ia64 --emulator "$fx/fake-bski" --runner "$runner" -n 9 -k \
	-o "$pc_tmp/emu.json"
ok $(test $pc_rc -eq 0 && grep -q 'WARNING: figures unreliable: emulated' "$pc_tmp/out"; echo $?) \
	"under --emulator: exit 0, the table warns the figures are emulated$(test $pc_rc -ne 0 && printf ': %s' "$(head -1 "$pc_tmp/err")")"
check_json "$pc_tmp/emu.json" \
	'all(p[n]["status"] == "ok" and p[n]["cycles"]["median"] == 5 and p[n]["samples"] == 101 for n in p if n.startswith("local_irq_") and not n.endswith(".popf")) and p["local_irq_restore.popf"]["status"] == "unsupported"' \
	"the ring-0 rows come from the system-mode image (5 cycles, its 101 samples)"
check_json "$pc_tmp/emu.json" \
	'run["emulated"] is True and run["unreliable"] is True and run["runner_mode"] == "user+system" and cpu["virtualized"] is True and cpu["hypervisor"] == "fake-bski" and k.endswith(".ski-ia64-simulator") and len(decode(p["cmpxchg"]["raw"]["ticks"])) == 9' \
	"emulated and unreliable, filed under its own key (ski-ia64-simulator), -k keeps raw samples"

# 3. a probe that kills the runner is that probe's failure; the rest is re-run
FAKE_TRAP="xchg mb" pc run --arch ia64 --runner "$runner" -n 9 -o "$pc_tmp/trap.json" -q
ok $(test $pc_rc -eq 1; echo $?) "a trapping probe: exit 1 (a probe failed), got $pc_rc"
check_json "$pc_tmp/trap.json" \
	'all(p[n]["status"] == "failed" and "signal 4" in p[n]["reason"] for n in ("xchg", "mb")) and p["cmpxchg"]["status"] == "ok" and p["rmb"]["status"] == "ok"' \
	"two traps, two re-runs: xchg and mb failed (killed by signal 4); cmpxchg and rmb measured"

# 4. a saved output, as brought back from a real Itanium
"$runner" -n 9 baseline calib.add_chain cmpxchg local_irq_save >"$pc_tmp/saved.txt"
pc run --arch ia64 --runner-output "$pc_tmp/saved.txt" -p 'baseline,cmpxchg,local_irq_save' \
	-o "$pc_tmp/saved.json" -q
check_json "$pc_tmp/saved.json" \
	'p["cmpxchg"]["cycles"]["median"] == 12 and p["local_irq_save"]["status"] == "skipped" and run["runner"].endswith("saved.txt")' \
	"--runner-output reads a saved output (exit $pc_rc)"

# 5. errors: one line, exit 2, nothing written
for args in "--runner $pc_tmp/nosuch" "--runner /bin/true" \
	"--emulator $pc_tmp/nosuch --runner $runner" "--runner-output $pc_tmp/nosuch" \
	"--runner-output $pc_tmp/saved.txt --emulator $fx/fake-bski"; do
	# shellcheck disable=SC2086
	pc run --arch ia64 $args -o "$pc_tmp/bad.json" -q
	ok $(test $pc_rc -eq 2 && one_line_error && test ! -e "$pc_tmp/bad.json"; echo $?) \
		"run --arch ia64 $(echo "$args" | sed "s|$pc_tmp/||g; s|$fx/||g"): one-line error, exit 2, no file ($(head -1 "$pc_tmp/err" | cut -c1-90))"
done
printf 'pcr primcost-runner 1\npcr arch sparc\n' >"$pc_tmp/sparc.txt"
pc run --arch ia64 --runner-output "$pc_tmp/sparc.txt" -o "$pc_tmp/bad.json" -q
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "sparc" "$pc_tmp/err"; echo $?) \
	"a runner for another architecture is refused: $(head -1 "$pc_tmp/err")"
done_testing
