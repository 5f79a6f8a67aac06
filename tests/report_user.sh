#!/bin/sh
# SPDX-License-Identifier: MIT
# primcost report serves the user's own files: the answers use every CPU
# that measured both probes, the user's run --locks included. Checked on
# the page's markup, never its pixels; tests/fixtures/locks-matrix.json is
# a real run --locks --threads 1,2 --matrix of lock.ticket, lock.qspinlock
# and c2c.latency on a VM of 2 CPUs (its kernel command line shortened).
. "${PC_SRCDIR}/tests/lib.sh"

ref="$PC_SRCDIR/data/reference"
fix="$PC_SRCDIR/tests/fixtures/result.json"
locks="$PC_SRCDIR/tests/fixtures/locks-matrix.json"
export PRIMCOST_REFERENCE_DIR="$ref"
key=$("$PYTHON3" -c 'import json, sys; print(next(iter(json.load(open(sys.argv[1]))["cpus"])))' "$locks")

# ---- the answers: every CPU that measured both probes ----------------------
pc report -o "$pc_tmp/locks.html" "$locks" amd-opteron-interlagos intel-xeon-westmere-ep
answers=$("$PYTHON3" - "$pc_tmp/locks.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
dl = page.split('id="answers"', 1)[1].split("</dl>", 1)[0]
q = dl.split("the queued lock against the ticket lock", 1)
print(" ".join(re.findall(r'<dd data-cpu="([^"]*)"', q[1].split("<dt>", 1)[0])) if len(q) == 2 else "")
PY
)
n=$(echo "$answers" | wc -w)
ok $(test $pc_rc -eq 0 && test "$n" -eq 3 && echo "$answers" | grep -qF "$key" &&
	grep -q 'lock.qspinlock.compact.threads2 is [0-9.]* times [a-z]* than lock.ticket.compact.threads2 here' "$pc_tmp/locks.html" &&
	! grep -q 'Not answered here[^<]*queued lock' "$pc_tmp/locks.html"; echo $?) \
	"queued vs ticket lock: the user's run --locks answers it beside the two 2014 tables ($n CPUs: $answers)"
done_testing
