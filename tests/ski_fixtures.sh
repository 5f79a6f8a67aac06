#!/bin/sh
# SPDX-License-Identifier: MIT
# Real ia64 runner output from the Ski simulator (tests/fixtures/ia64-ski/,
# the user-mode runner and the system-mode image under `bski -noconsole`),
# read back with --runner-output and --system-runner-output: the runner
# reports Ski's CPU vendor, so the run is emulated and unreliable however its
# output arrived; the ring-0 rows are measured in the system image, the popf
# row is x86's. No Ski is needed: this runs in every leg.
. "${PC_SRCDIR}/tests/lib.sh"

fx=$PC_SRCDIR/tests/fixtures/ia64-ski
json() {	# json FILE EXPR: the Python expression over the CPU entry e and its last run r
	"$PYTHON3" -c "import json,sys; d=json.load(open(sys.argv[1])); (k,e),=d['cpus'].items(); r=e['runs'][-1]; print($2)" "$1"
}

pc run --arch ia64 --runner-output "$fx/runner-user.txt" \
	--system-runner-output "$fx/runner-system.txt" -o "$pc_tmp/ski.json"
ok $(test $pc_rc -eq 0 && grep -q 'WARNING: figures unreliable: emulated' "$pc_tmp/out"; echo $?) \
	"saved Ski output (user + system): exit 0, the table warns the figures are emulated$(test $pc_rc -ne 0 && printf ': %s' "$(head -1 "$pc_tmp/err")")"
ok $(json "$pc_tmp/ski.json" 'r["emulated"] is True and r["unreliable"] is True and r.get("simulator_vendor") == "HP_Ski_Simulator"' |
	grep -qx True; echo $?) \
	"the run is emulated and unreliable, from the vendor the runner reported ($(json "$pc_tmp/ski.json" 'r.get("simulator_vendor")'))"
ok $(json "$pc_tmp/ski.json" 'k.endswith(".ski-ia64-simulator") and e["cpu"]["arch"] == "ia64" and e["cpu"]["virtualized"] is True' |
	grep -qx True; echo $?) \
	"filed apart from real Itanium 2s: $(json "$pc_tmp/ski.json" 'k')"
ok $(json "$pc_tmp/ski.json" 'r["runner_mode"] == "user+system" and r["system_runner"].endswith("runner-system.txt")' |
	grep -qx True; echo $?) "the run records both saved outputs (runner_mode user+system)"
"$PYTHON3" "$PC_SRCDIR/tests/check_result.py" "$pc_tmp/ski.json" \
	"$PC_SRCDIR/data/schema.json" "$PC_SRCDIR/probes/probes.def" --emulated >"$pc_tmp/cr" 2>&1
tap_import <"$pc_tmp/cr"

# The user-mode output alone: ring-0 rows skipped, saying how to give them.
pc run --arch ia64 --runner-output "$fx/runner-user.txt" -o "$pc_tmp/user.json" -q
ok $(test $pc_rc -eq 0 && json "$pc_tmp/user.json" '
r["emulated"] is True and r["unreliable"] is True and all(
    p["status"] == "skipped" and "--system-runner-output" in p["reason"]
    for n, p in e["probes"].items() if n.startswith("local_irq_") and not n.endswith(".popf"))' |
	grep -qx True; echo $?) \
	"the user-mode output alone: emulated, unreliable, ring-0 rows skipped naming --system-runner-output"

# The same output with a real CPU's vendor is not taken for a simulator.
sed 's/^pcr cpu vendor .*/pcr cpu vendor GenuineIntel/' "$fx/runner-user.txt" >"$pc_tmp/intel.txt"
pc run --arch ia64 --runner-output "$pc_tmp/intel.txt" -o "$pc_tmp/intel.json" -q
ok $(test $pc_rc -eq 0 && json "$pc_tmp/intel.json" 'r["emulated"] is False and "simulator_vendor" not in r and not k.endswith("simulator")' |
	grep -qx True; echo $?) \
	"with the vendor GenuineIntel the same output is not marked emulated ($(json "$pc_tmp/intel.json" 'k'))"

# Misuse: one-line errors, exit 2, no file.
pc run --arch ia64 --runner-output "$fx/runner-system.txt" -o "$pc_tmp/swapped.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "'system' mode" "$pc_tmp/err" &&
	test ! -e "$pc_tmp/swapped.json"; echo $?) \
	"a system-mode output given as --runner-output: one-line error, exit 2 ($(cat "$pc_tmp/err"))"
pc run --arch ia64 --system-runner-output "$fx/runner-system.txt" -o "$pc_tmp/alone.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q -- '--runner-output' "$pc_tmp/err"; echo $?) \
	"--system-runner-output without --runner-output: one-line error, exit 2"
pc run --arch ia64 --runner-output "$fx/runner-user.txt" \
	--system-runner-output "$pc_tmp/nosuch.txt" -o "$pc_tmp/missing.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'nosuch.txt' "$pc_tmp/err"; echo $?) \
	"a missing --system-runner-output: one-line error naming it, exit 2"
done_testing
