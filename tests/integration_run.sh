#!/bin/sh
# The real default profile on this machine: every probe, the calibration
# bounds, the schema. Timing bounds are skipped under an emulator.
. "${PC_SRCDIR}/tests/lib.sh"

pc run -o "$pc_tmp/run.json" -q
if [ $pc_rc -ne 0 ]; then
	echo "not ok 1 - primcost run exits 0 (got $pc_rc: $(head -1 "$pc_tmp/err"))"
	echo "1..1"
	exit 1
fi
emu=
emulated && emu=--emulated
"$PYTHON3" "$PC_SRCDIR/tests/check_result.py" "$pc_tmp/run.json" \
	"$PC_SRCDIR/data/schema.json" "$PC_SRCDIR/probes/probes.def" $emu
