#!/bin/sh
# SPDX-License-Identifier: MIT
# Ring 0 from the command line: the --ring0 options and their errors, the
# rows' status and reasons for each mode, a run of nothing but refused rows
# (one line, exit 2, nothing saved), the validation gate's verdict on this
# machine (a software hypervisor must be rejected with the evidence), and
# what `info` says about it.
. "${PC_SRCDIR}/tests/lib.sh"

irq='local_irq_*'
nirq=$(grep -c '^PC_PROBE(local_irq_' "$PC_SRCDIR/probes/probes.def")

# Prints "name status reason" per local_irq_* row, and the run's ring0 object.
rows() {
	"$PYTHON3" - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(entry,) = d["cpus"].values()
for k, v in sorted(entry["probes"].items()):
    if k.startswith("local_irq_"):
        print("%s %s %s" % (k, v["status"], v.get("reason", "")))
print("ring0 " + json.dumps(entry["runs"][-1].get("ring0")))
PY
}

bad_run() {	# bad_run DESCRIPTION ARGS...: a usage error, no file
	d=$1
	shift
	pc run "$@" --probes baseline -o "$pc_tmp/bad.json"
	ok $(test $pc_rc -eq 2 && one_line_error && test ! -e "$pc_tmp/bad.json"; echo $?) \
		"run $d: one-line error, exit 2, no file ($(cat "$pc_tmp/err"))"
}
bad_run "--ring0 xen" --ring0 xen
bad_run "--ring0-timeout 0" --ring0-timeout 0
bad_run "--ring0-timeout 1x" --ring0-timeout 1x
bad_run "--ring0-timeout 9999" --ring0-timeout 9999
bad_run "--ring0-module ''" --ring0-module ""
pc info --ring0 xen
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "info --ring0 xen: one-line error, exit 2"

# --ring0 none: skipped, saying so (beside a row measured, so that the
# run is saved).
pc run --ring0 none --probes "$irq,baseline" -n 21 -o "$pc_tmp/none.json" -q
rows "$pc_tmp/none.json" >"$pc_tmp/none.rows"
if [ "$PC_ARCH" = x86_64 ] || [ "$PC_ARCH" = i386 ]; then
	ok $(test $pc_rc -eq 0 && test "$(grep -c '^local_irq_[a-z_.]* skipped .*--ring0 none' "$pc_tmp/none.rows")" -eq "$nirq"; echo $?) \
		"--ring0 none: all $nirq local_irq_* rows skipped, saying why"
else
	# No body for them here at all: unsupported, with the backend's reason.
	ok $(test $pc_rc -eq 0 && test "$(grep -c '^local_irq_[a-z_.]* \(skipped\|unsupported\) ' "$pc_tmp/none.rows")" -eq "$nirq"; echo $?) \
		"--ring0 none on $PC_ARCH: all $nirq local_irq_* rows skipped or unsupported, saying why"
fi

# Nothing but refused rows: nothing measured, so one line, exit 2, no file
# and no table. (A warning of the run's may come before it, as one line of
# its own: qemu-user counts no events.)
nothing() {	# nothing DESCRIPTION WORDS ARGS...: the run refuses, saying WORDS
	d=$1 words=$2
	shift 2
	pc run --probes "$irq" -n 21 -o "$pc_tmp/nothing.json" "$@"
	ok $(test $pc_rc -eq 2 && ! grep -qv '^primcost: run: ' "$pc_tmp/err" &&
	     test ! -e "$pc_tmp/nothing.json" && test ! -s "$pc_tmp/out" &&
	     test "$(grep -c 'nothing measured' "$pc_tmp/err")" -eq 1 &&
	     tail -1 "$pc_tmp/err" | grep -q "nothing measured, nothing saved: all $nirq selected rows are .*$words"
	     echo $?) "$d: one line saying why, exit 2, no file, no table ($(tail -1 "$pc_tmp/err"))"
}
if [ "$PC_ARCH" = x86_64 ] || [ "$PC_ARCH" = i386 ]; then
	nothing "run --ring0 none -p '$irq'" "skipped here: .*--ring0 none" --ring0 none
else
	nothing "run --ring0 none -p '$irq' on $PC_ARCH" "unsupported here" --ring0 none
fi
# Where this machine's ring 0 is refused (the product's verdict: info),
# run --ring0 kvm of the interrupt rows alone measures nothing either.
trusted=$($PRIMCOST info --ring0 kvm --format json 2>/dev/null | "$PYTHON3" -c \
	'import json,sys; print(json.load(sys.stdin).get("ring0", {}).get("trusted", False))')
if [ "$trusted" = True ]; then
	skip "ring 0 through KVM is trusted here: the rows are measured" \
		"run --ring0 kvm -p '$irq' where ring 0 is refused"
else
	nothing "run --ring0 kvm -p '$irq' where ring 0 is refused" "unsupported here" --ring0 kvm
fi

# --ring0 kmod where the kernel cannot load modules: unsupported, saying so.
if [ "$PC_ARCH" != x86_64 ]; then
	skip "the ring-0 backends are x86-64 only (this build: $PC_ARCH)" \
		"--ring0 kmod without module support"
elif [ ! -e /proc/modules ]; then
	pc run --ring0 kmod --probes "$irq,baseline" -n 21 -o "$pc_tmp/kmod.json" -q
	rows "$pc_tmp/kmod.json" >"$pc_tmp/kmod.rows"
	ok $(test $pc_rc -eq 0 && test "$(grep -c ' unsupported .*kmod: this kernel has no module support' "$pc_tmp/kmod.rows")" -eq "$nirq"; echo $?) \
		"--ring0 kmod without module support: rows unsupported, saying the module cannot be loaded here"
else
	skip "this kernel supports modules" "--ring0 kmod without module support"
fi

# The default (auto) on this machine, and the gate's verdict.
hv=$($PRIMCOST info --format json 2>/dev/null | "$PYTHON3" -c \
	'import json,sys; print(json.load(sys.stdin).get("ring0", {}).get("hypervisor", "?"))')
diag "KVM here: $hv"
pc run --probes "$irq,cmpxchg" -n 51 --ring0-timeout 5 -o "$pc_tmp/auto.json" -q
rows "$pc_tmp/auto.json" >"$pc_tmp/auto.rows"
ok $(test $pc_rc -eq 0; echo $?) "run with the default --ring0 auto exits 0 ($(head -1 "$pc_tmp/err"))"
sed 's/^/# /' "$pc_tmp/auto.rows" | cut -c1-230
if [ "$PC_ARCH" != x86_64 ]; then
	ok $(test "$(grep -c '^local_irq_[a-z_.]* unsupported ' "$pc_tmp/auto.rows")" -eq "$nirq"; echo $?) \
		"$PC_ARCH: all $nirq local_irq_* rows unsupported, with the reason"
	skip "the ring-0 backends are x86-64 only (this build: $PC_ARCH)" \
		"the gate's verdict on this machine"
elif [ "$hv" = pvm ] && grep -q '^ring0 .*"backend": "kvm"' "$pc_tmp/auto.rows"; then
	# (the product's verdict: the micro-guest came up, so the gate ran)
	ok $(test "$(grep -c '^local_irq_[a-z_.]* unsupported ring 0 is emulated (pvm): the ring-0 add chain reads [0-9]* cycles per add' "$pc_tmp/auto.rows")" -eq "$nirq"; echo $?) \
		"pvm: all $nirq local_irq_* rows unsupported, naming the software hypervisor and the add-chain figure"
	ok $(test "$(grep -c 'self-check passed in ring 0 (kvm)' "$pc_tmp/auto.rows")" -eq "$nirq"; echo $?) \
		"pvm: ... and each says its IF self-check passed in the guest"
	"$PYTHON3" - "$pc_tmp/auto.json" >"$pc_tmp/gate" <<'PY'
import json, sys
(entry,) = json.load(open(sys.argv[1]))["cpus"].values()
r = entry["runs"][-1]["ring0"]
ev = r["evidence"]
ok = (r["backend"] == "kvm" and r["trusted"] is False and ev["ring0_add_chain_cycles"] > 10
      and ev["ring0_add_chain_ticks"] > ev["host_add_chain_ticks"] * 10)
print("ok" if ok else "bad", json.dumps(ev))
PY
	ok $(grep -q '^ok' "$pc_tmp/gate"; echo $?) "pvm: the run records the gate's evidence, not trusted ($(cut -c1-160 "$pc_tmp/gate"))"
elif [ "$hv" = kvm-intel ] || [ "$hv" = kvm-amd ]; then
	ok $(! grep -q '^local_irq_[a-z_.]* failed' "$pc_tmp/auto.rows"; echo $?) \
		"$hv: no local_irq_* row failed"
	skip "not a software hypervisor" "the gate rejects emulated ring 0"
else
	skip "no way into ring 0 here, or one the gate did not measure ($hv): $(grep -m1 '^local_irq_' "$pc_tmp/auto.rows" | cut -c1-160)" \
		"the gate's verdict on this machine"
fi

# info names the KVM provider and says whether ring 0 is trustworthy.
pc info
ok $(test $pc_rc -eq 0 && grep -q "^kvm  *$hv " "$pc_tmp/out" && grep -q '^ring 0  ' "$pc_tmp/out"; echo $?) \
	"info reports the hypervisor ($hv) and the ring-0 verdict: $(grep '^ring 0' "$pc_tmp/out" | cut -c1-120)"
pc info --ring0 none
ok $(test $pc_rc -eq 0 && grep -q '^ring 0  *unavailable: not attempted' "$pc_tmp/out"; echo $?) \
	"info --ring0 none does not try ring 0"
done_testing
