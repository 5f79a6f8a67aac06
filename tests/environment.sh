#!/bin/sh
# SPDX-License-Identifier: MIT
# The environment (microcode, firmware, the kernel's mitigations and
# settings): info shows every fact, or unknown with a reason, in 80
# columns, and carries it whole in its JSON, on this machine and on trees
# laid out as /proc and /sys are (PRIMCOST_TEST_ENVIRONMENT_ROOT); a run
# records it, valid against the schema; compare of two copies of a run
# whose microcode and mitigations were edited names the microcode in a
# note and does not judge sigprocmask. Nothing depends on this machine's
# own values.
. "${PC_SRCDIR}/tests/lib.sh"

# The facts, in info's order: JSON key, then the label of its text line.
facts='microcode:microcode
firmware_vendor:fw vendor
firmware_version:fw version
firmware_date:fw date
kernel_build:kernel build
cmdline:command line
vulnerabilities:mitigations
preemption:preemption
kernel_config:kernel config
cpufreq_driver:cpufreq driver
governor:governor
boost:boost
smt:smt
thp:huge pages
thp_defrag:thp defrag'

# check_info NAME: info's JSON ($pc_tmp/NAME.json) and text ($pc_tmp/NAME.txt,
# made with COLUMNS=80) as check lines: every fact a value and its source,
# or unknown with a reason; the text a line per fact, saying the value or
# "unknown:" and the start of the reason; no line over 80 columns.
check_info() {
	FACTS=$facts "$PYTHON3" - "$pc_tmp/$1.json" "$pc_tmp/$1.txt" "$1" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
j, txt, name = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), sys.argv[3]
facts = [line.split(":", 1) for line in os.environ["FACTS"].splitlines()]
env = j.get("environment", {})
ok(sorted(env) == sorted(k for k, _ in facts),
   "%s: info -f json has every fact (%d of %d)" % (name, len(env), len(facts)))
bad = [k for k, f in env.items()
       if not (("value" in f and f.get("source")) or f.get("unknown"))
       or ("value" in f and "unknown" in f)]
ok(not bad, "%s: each a value with its source, or unknown with a reason%s"
   % (name, bad and ": not " + ", ".join(bad) or ""))
lines = txt.splitlines()
labels = {label: i for i, l in enumerate(lines) for k, label in facts
          if l.startswith(label + " ") and l[15:16] != " " and l[:15].rstrip() == label}
missing, unsaid = [], []
for key, label in facts:
    if label not in labels:
        missing.append(label)
        continue
    # the fact's text: its line and those under it, wrapped lines joined
    i = labels[label]
    rest = lines[i][15:]
    while i + 1 < len(lines) and lines[i + 1].startswith(" " * 15):
        i += 1
        rest += " " + lines[i].strip()
    f = env.get(key, {})
    if "unknown" in f:
        # the whole reason, or "as LABEL" where the facts before gave it
        if rest != "unknown: " + " ".join(f["unknown"].split()) and \
           not rest.startswith("unknown: as "):
            unsaid.append(label)
    elif isinstance(f.get("value"), str):
        if f["value"] and not rest.startswith(f["value"].split()[0][:20]):
            unsaid.append(label)
ok(not missing, "%s: info's text has a line for every fact%s"
   % (name, missing and ": not " + ", ".join(missing) or ""))
ok(not unsaid, "%s: each line says the value, or unknown and the reason%s"
   % (name, unsaid and ": not " + ", ".join(unsaid) or ""))
longest = max(len(l) for l in lines)
ok(longest <= 80, "%s: COLUMNS=80 info fits (longest line %d)" % (name, longest))
PY
}

# info_as NAME [ROOT]: info's JSON and text, the environment read under ROOT.
info_as() {
	PRIMCOST_TEST_ENVIRONMENT_ROOT=${2:-} $PRIMCOST info -c "$cpu" -f json \
		>"$pc_tmp/$1.json" 2>"$pc_tmp/err" &&
	PRIMCOST_TEST_ENVIRONMENT_ROOT=${2:-} COLUMNS=80 $PRIMCOST info -c "$cpu" \
		>"$pc_tmp/$1.txt" 2>>"$pc_tmp/err"
	ok $? "info as $1: exit 0$(test -s "$pc_tmp/err" && printf ' (%s)' "$(head -1 "$pc_tmp/err")")"
}

# ---- this machine --------------------------------------------------------------
pc info -f json
cpu=$("$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["pinned_cpu"])' \
	<"$pc_tmp/out")
info_as here
check_info here >"$pc_tmp/checks" 2>&1
import_checks "$pc_tmp/checks" "the checks of info here"

# ---- a tree where every fact is known -----------------------------------------
root=$pc_tmp/root
c=$root/sys/devices/system/cpu
mkdir -p "$root/proc" "$root/boot" "$root/sys/class/dmi/id" "$c/cpu$cpu/microcode" \
	"$c/cpu$cpu/cpufreq" "$c/vulnerabilities" "$c/smt" "$c/intel_pstate" \
	"$root/sys/kernel/mm/transparent_hugepage" "$root/sys/kernel/debug/sched"
long=$("$PYTHON3" -c 'print("x" * 200)')
echo "BOOT_IMAGE=/vmlinuz root=UUID=$long ro quiet mitigations=auto" >"$root/proc/cmdline"
echo 0xa0011d5 >"$c/cpu$cpu/microcode/version"
echo "American Megatrends International, LLC." >"$root/sys/class/dmi/id/bios_vendor"
echo 1.2.3 >"$root/sys/class/dmi/id/bios_version"
echo 05/01/2024 >"$root/sys/class/dmi/id/bios_date"
echo "Mitigation: Retpolines; STIBP: disabled; RSB filling; PBRSB-eIBRS: Not affected; BHI: Not affected" \
	>"$c/vulnerabilities/spectre_v2"
for v in l1tf mds meltdown srbds; do echo "Not affected" >"$c/vulnerabilities/$v"; done
printf 'CONFIG_PARAVIRT=y\nCONFIG_HZ=250\n# CONFIG_KASAN is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n' \
	>"$root/boot/config-$(uname -r)"
echo "none voluntary (full) lazy" >"$root/sys/kernel/debug/sched/preempt"
echo amd-pstate-epp >"$c/cpu$cpu/cpufreq/scaling_driver"
echo powersave >"$c/cpu$cpu/cpufreq/scaling_governor"
echo balance_performance >"$c/cpu$cpu/cpufreq/energy_performance_preference"
echo 1 >"$c/cpu$cpu/cpufreq/boost"
echo on >"$c/smt/control"
echo 1 >"$c/smt/active"
echo "always [madvise] never" >"$root/sys/kernel/mm/transparent_hugepage/enabled"
echo "always defer defer+madvise [madvise] never" >"$root/sys/kernel/mm/transparent_hugepage/defrag"
info_as known "$root"
check_info known >"$pc_tmp/checks" 2>&1
import_checks "$pc_tmp/checks" "the checks of info on a known tree"
"$PYTHON3" - "$pc_tmp/known.json" "$pc_tmp/known.txt" "$long" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
env, txt, long = json.load(open(sys.argv[1]))["environment"], open(sys.argv[2]).read(), sys.argv[3]
unknown = [k for k, f in env.items() if "value" not in f]
ok(not unknown, "a tree with every file: every fact known%s" % (unknown and ": not " + ", ".join(unknown) or ""))
ok(env["microcode"]["value"] == "0xa0011d5" and env["preemption"]["value"] == "full"
   and env["preemption"]["source"] == "/sys/kernel/debug/sched/preempt"
   and env["boost"]["value"] == "on" and env["thp"]["value"] == "madvise"
   and env["kernel_config"]["value"]["CONFIG_KASAN"] == "n"
   and env["kernel_config"]["value"]["CONFIG_HZ"] == "250",
   "the values as the files give them (microcode, preemption from debugfs, boost, thp, config)")
ok(long in env["cmdline"]["value"] and long not in txt and "xxx..." in txt,
   "a 200-character command-line word: whole in the JSON, cut short with ... in the text")
ok("Not affected: l1tf mds meltdown srbds" in txt,
   "the vulnerabilities that share a line are said together")
PY
import_checks "$pc_tmp/checks" "the checks of the known tree's values"

# ---- a tree with nothing: every fact but uname's unknown, with a reason -----
mkdir "$pc_tmp/empty"
info_as empty "$pc_tmp/empty"
check_info empty >"$pc_tmp/checks" 2>&1
import_checks "$pc_tmp/checks" "the checks of info on an empty tree"
"$PYTHON3" - "$pc_tmp/empty.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
env = json.load(open(sys.argv[1]))["environment"]
known = sorted(k for k, f in env.items() if "value" in f)
ok(known == ["kernel_build", "preemption"] and "absent" in env["microcode"]["unknown"],
   "an empty tree: only uname's facts known, the others unknown as absent (%s)" % ", ".join(known))
PY
import_checks "$pc_tmp/checks" "the checks of the empty tree"

# ---- a run records it; compare names a changed microcode ----------------------
pc run -p baseline,cmpxchg,sigprocmask -n 21 -q -o "$pc_tmp/run.json"
ok $pc_rc "run -p baseline,cmpxchg,sigprocmask: exit 0$(test $pc_rc -ne 0 && printf ' (%s)' "$(tail -1 "$pc_tmp/err")")"
FACTS=$facts "$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/data/schema.json" >"$pc_tmp/checks" 2>&1 <<'PY'
import copy, json, os, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok, schema_ok, validator
tmp, schema = sys.argv[1], sys.argv[2]
d = json.load(open(tmp + "/run.json"))
(e,) = d["cpus"].values()
env = e["runs"][0].get("environment", {})
keys = [line.split(":", 1)[0] for line in os.environ["FACTS"].splitlines()]
ok(sorted(env) == sorted(keys), "the run's record holds the environment, every fact (%d)" % len(env))
v = validator(schema)
schema_ok(v, d, "the run")
# Two copies whose figures are the same; B's microcode and one mitigation
# line edited. The figures are taken as fit to judge (a noisy figure, or a
# run under an emulator, would be not comparable for its own reason).
for p in e["probes"].values():
    if p["status"] == "noisy":
        p["status"] = "ok"
        p.pop("reason", None)
e["runs"][0]["unreliable"] = False
e["runs"][0].pop("unreliable_reason", None)
a = copy.deepcopy(d)
(ea,) = a["cpus"].values()
ea["runs"][0]["environment"]["microcode"] = {"value": "0xa0011d5", "source": "/proc/cpuinfo"}
ea["runs"][0]["environment"]["vulnerabilities"] = {
    "value": {"spectre_v2": "Mitigation: Retpolines", "meltdown": "Not affected"},
    "source": "/sys/devices/system/cpu/vulnerabilities"}
json.dump(a, open(tmp + "/a.json", "w"))
json.dump(a, open(tmp + "/a2.json", "w"))
(eb,) = a["cpus"].values()
eb["runs"][0]["environment"]["microcode"]["value"] = "0xa0011d1"
eb["runs"][0]["environment"]["vulnerabilities"]["value"]["spectre_v2"] = "Mitigation: Enhanced / Automatic IBRS"
json.dump(a, open(tmp + "/b.json", "w"))
old = copy.deepcopy(d)
(eo,) = old["cpus"].values()
del eo["runs"][0]["environment"]
json.dump(old, open(tmp + "/old.json", "w"))
if v:
    errs = list(v.iter_errors(old)) + list(v.iter_errors(a))
    ok(not errs, "a run without an environment (an older file) and the edited one validate%s"
       % (errs and ": " + errs[0].message[:200] or ""))
PY
import_checks "$pc_tmp/checks" "the checks of the run's record"

# The text: notes and reasons may be wrapped, so read with their lines
# joined; the verdicts are read from the model (compare -f json).
joined() { tr '\n' ' ' <"$pc_tmp/out" | tr -s ' '; }
pc compare "$pc_tmp/a.json" "$pc_tmp/b.json"
ok $(test $pc_rc -eq 0 && joined | grep -qF "note: B's microcode 0xa0011d1 differs from A's 0xa0011d5: figures may move"; echo $?) \
	"compare: a note names the microcode that differs"
ok $(joined | grep -q "note: B.s mitigations differ from A.s: spectre_v2"; echo $?) \
	"compare: a note names the mitigation line that differs"
ok $(grep -q '^sigprocmask .* n/c' "$pc_tmp/out" &&
	joined | grep -qF "not comparable: B's microcode and mitigations differ from A's: what a system call costs moves with them"; echo $?) \
	"compare: sigprocmask is n/c, and the text says why ($(grep '^sigprocmask' "$pc_tmp/out" | tr -s ' '))"
# verdicts FILE...: "probe verdict" lines of the last compare -f json, and its notes
verdicts() {
	"$PYTHON3" -c 'import json, sys
(t,) = json.load(open(sys.argv[1]))["tables"]
for r in t["rows"]:
    print(r["probe"], r["cells"][1]["verdict"], r["cells"][1].get("why", ""))
for n in t["notes"]:
    print("note:", n)' "$pc_tmp/out"
}
pc compare -f json "$pc_tmp/a.json" "$pc_tmp/b.json"
verdicts >"$pc_tmp/v"
ok $(grep -q "^sigprocmask not comparable B's microcode and mitigations differ from A's: what a system call costs moves with them" "$pc_tmp/v"; echo $?) \
	"compare -f json: sigprocmask not comparable, the facts named ($(grep '^sigprocmask' "$pc_tmp/v"))"
ok $(grep -q '^cmpxchg same' "$pc_tmp/v"; echo $?) \
	"compare -f json: cmpxchg, which makes no system call, is judged ($(grep '^cmpxchg' "$pc_tmp/v"))"
ok $(grep -q "^note: B's microcode 0xa0011d1 differs from A's 0xa0011d5" "$pc_tmp/v"; echo $?) \
	"compare -f json: the note is in the model's notes"
pc compare -f json "$pc_tmp/a.json" "$pc_tmp/a2.json"
verdicts >"$pc_tmp/v"
ok $(test $pc_rc -eq 0 && ! grep -q 'differs from A' "$pc_tmp/v" &&
	grep -q '^sigprocmask same' "$pc_tmp/v"; echo $?) \
	"compare of the same environment: no note, sigprocmask judged"
pc compare -f json "$pc_tmp/old.json" "$pc_tmp/b.json"
verdicts >"$pc_tmp/v"
ok $(test $pc_rc -eq 0 && ! grep -q 'differs from A' "$pc_tmp/v" &&
	grep -q '^sigprocmask same' "$pc_tmp/v"; echo $?) \
	"compare with an older file that records no environment: no note, sigprocmask judged"
done_testing
