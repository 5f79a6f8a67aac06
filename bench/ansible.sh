#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/ansible.sh - the fleet recipe (contrib/ansible/primcost-fleet.yml)
# run against this machine as its only host (ansible-playbook -c local -i
# localhost,) with the primcost of this build tree, twice: the first run
# makes the merged file, the second merges into it (the CPU's second run is
# appended to its history). Checks the merged file and prints it. Installs
# Debian's ansible-core (the engine of the ansible package; the playbook
# uses only ansible.builtin modules) when ansible-playbook is missing.
#
#   bench/ansible.sh [PRIMCOST-RUN-OPTIONS]   (default: -p cmpxchg -n 21)
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
say() { printf 'ansible.sh: %s\n' "$*"; }
[ -x ./primcost ] || { say "build first: ./bootstrap build"; exit 2; }
if ! command -v ansible-playbook >/dev/null 2>&1; then
	say "installing ansible-core"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends ansible-core >/dev/null
fi
args=${*:-"-p cmpxchg -n 21"}
work=$(mktemp -d /tmp/primcost-ansible.XXXXXX)
trap 'rm -rf "$work"' EXIT
for i in 1 2; do
	t0=$(date +%s)
	ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$work/tmp" \
	ansible-playbook -c local -i localhost, contrib/ansible/primcost-fleet.yml \
		-e "primcost=$top/primcost" -e "primcost_args='$args'" \
		-e "results=$work/results" -e "out=$work/fleet.json" >"$work/play.log" 2>&1 || {
		cat "$work/play.log"
		say "ansible-playbook failed"
		exit 1
	}
	say "playbook run $i: $(( $(date +%s) - t0 )) s"
	sed -n '/^PLAY RECAP/,$p' "$work/play.log" | sed 's/^/  /'
done
ls "$work/results"
python3 - "$work/fleet.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cpus = doc["cpus"]
assert doc["schema"].startswith("primcost-result/"), doc["schema"]
assert len(cpus) == 1, list(cpus)
key, cpu = next(iter(cpus.items()))
runs = cpu["runs"]
assert len(runs) == 2, len(runs)
assert "cmpxchg" in cpu["probes"], list(cpu["probes"])
print("ansible.sh: fleet.json: %d CPU (%s), %d runs, probes: %s" %
      (len(cpus), key, len(runs), ", ".join(sorted(cpu["probes"]))))
PY
./primcost compare "$work/fleet.json" intel-itanium2-9050 | head -8
