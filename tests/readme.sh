#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's examples are what this build prints: each block that starts
# "$ primcost ..." (run, info, compare) is run again here, at 80 columns,
# and its table heading, its row names and its field names must be the
# tool's. The figures and which rows this machine can measure differ from
# the machine the README was made on; the words may not.
. "${PC_SRCDIR}/tests/lib.sh"

export COLUMNS=80 PRIMCOST_REFERENCE_DIR="$PC_SRCDIR/data/reference"
"$PYTHON3" - "$PC_SRCDIR/README.md" "$PRIMCOST" "$pc_tmp" >"$pc_tmp/checks" <<'PY'
import os, re, shlex, subprocess, sys

readme, primcost, tmp = sys.argv[1:4]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^```\n\$ (?:\./)?primcost ([^\n]*)\n(.*?)^```$", text, re.M | re.S)

def ok(cond, what):
    print("%d\t%s" % (0 if cond else 1, what.replace("\n", " ")))

def table(lines):
    """The heading (its words) and the first word of each row after it."""
    head = next((i for i, l in enumerate(lines) if l.startswith("probe ")), None)
    if head is None:
        return None, []
    rows = []
    for l in lines[head + 1:]:
        if not l.strip() or l.startswith("[") or l.startswith(" "):
            break
        rows.append(l.split()[0])
    return lines[head].split(), rows

def folded(lines):
    """The names a line under the table lists (cannot measure / no figure)."""
    names, on = set(), False
    for l in lines:
        if re.match(r"^\d+ probes? this machine cannot measure|^no figure on any side", l):
            on = True
            l = l.split(":", 1)[1]
        elif on and not l.startswith(" "):
            on = False
        if on:
            names.update(w.strip(",") for w in l.split())
    return names

kinds = {}
for args, want in blocks:
    argv = shlex.split(args)
    got = subprocess.run(shlex.split(primcost) + argv, cwd=tmp, capture_output=True,
                         text=True, encoding="utf-8")
    want, out = want.splitlines(), got.stdout.splitlines()
    if want and want[0].startswith("primcost:"):	# an error, its places aside
        err = (got.stderr.splitlines() or [""])[0]
        ok(got.returncode == 2 and err.split(" (")[0] == want[0].split(" (")[0],
           "README: primcost %s fails with the README's words (%s)" % (args, err[:120]))
        continue
    kinds[argv[0]] = True
    ok(got.returncode in (0, 1), "README: primcost %s runs here (exit %d%s)" %
       (args, got.returncode, got.stderr[:200]))
    if argv[0] == "info":
        arch = lambda ls: next((l.split()[2].split(".")[0] for l in ls
                                if l.startswith("model key") and len(l.split()) > 2), "")
        if arch(want) != arch(out):
            print("skip\tREADME: info's fields are this build's\tthe example is of %s, "
                  "this build is for %s, whose info has other fields" %
                  (arch(want), arch(out) or "?"))
            continue
        fields = [l[:15].strip() for l in want if l[:1] not in (" ", ".") and l.strip()]
        have = set(l[:15].strip() for l in out if l[:1] != " ")
        ok(fields and all(f in have for f in fields),
           "README: info's fields are this build's (%d; missing: %s)" %
           (len(fields), [f for f in fields if f not in have]))
        continue
    whead, wrows = table(want)
    ghead, grows = table(out)
    ok(whead and whead == ghead, "README: %s's heading is this build's (%s)" %
       (argv[0], " ".join(whead or [])))
    names = set(grows) | folded(out)
    ok(wrows and all(r in names for r in wrows),
       "README: %s's %d row names are this build's (missing: %s)" %
       (argv[0], len(wrows), [r for r in wrows if r not in names]))
    ok(all(len(l) <= 80 for l in want), "README: the %s example fits 80 columns" % argv[0])

ok(all(k in kinds for k in ("run", "info", "compare")),
   "README: examples of run, info and compare (%s)" % ", ".join(sorted(kinds)))
PY
import_checks "$pc_tmp/checks" "the README's examples"
done_testing
