#!/bin/sh
# SPDX-License-Identifier: MIT
# Every word a table prints as a heading, a status or a verdict is defined
# in primcost(1)'s GLOSSARY: the words of run's table, of compare's and of
# list's, taken from the tool's own output.
. "${PC_SRCDIR}/tests/lib.sh"

probes='baseline,calib.add_chain,cmpxchg64,local_irq_save,mb'
pc run -v -n 9 -p "$probes" -o "$pc_tmp/a.json"
ok $pc_rc "run -p $probes$(head -c 300 "$pc_tmp/err")"
cp "$pc_tmp/out" "$pc_tmp/run.txt"
pc run -n 9 -q -p "$probes" -o "$pc_tmp/b.json"
pc compare --color never "$pc_tmp/a.json" "$pc_tmp/b.json"
ok $(test $pc_rc -le 1; echo $?) "compare of two runs$(head -c 300 "$pc_tmp/err")"
cp "$pc_tmp/out" "$pc_tmp/compare.txt"
pc list
cp "$pc_tmp/out" "$pc_tmp/list.txt"

"$PYTHON3" - "$pc_tmp" "$PC_SRCDIR/man/primcost.1" >"$pc_tmp/checks" 2>&1 <<'PY'
import os, re, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok
t, man = sys.argv[1], open(sys.argv[2]).read()

# The glossary's terms: the words of each .TP entry's tag line, and those an
# entry sets in bold as it defines them (status: ok, noisy, ...).
gl = man.split(".SH GLOSSARY", 1)[1].split("\n.SH ", 1)[0]
terms = set()
tags = re.findall(r"^\.TP\n(.*)$", gl, re.M) + re.findall(r"^(\.BR? \S+)", gl, re.M)
for tag in tags:
    tag = re.sub(r'^\.(B|BR|BI|I|IR) ', "", tag).replace("\\(+-", "\u00b1")
    tag = tag.replace("\\(*D", "\u0394").replace("\\-", "-")
    for w in re.findall(r'"([^"]*)"|(\S+)', tag):
        w = (w[0] or w[1]).strip(", ")
        if w and w != ",":
            terms.add(w)
ok(len(terms) > 20, "the glossary has its terms (%d)" % len(terms))

def undefined(words):
    return sorted(w for w in set(words) if w not in terms)

run = open(t + "/run.txt").read().splitlines()
head = next(l for l in run if l.startswith("probe "))
rows = run[run.index(head) + 1:]
heads = head.split()
scol = head.index("status")
status = [re.sub(r"\[\d+\]$", "", l[scol:].split()[0]).rstrip(":,") for l in rows
          if len(l) > scol and l.split()[0] in
          ("baseline", "calib.add_chain", "cmpxchg64", "local_irq_save", "mb")]
ok(heads and status and not undefined(heads + status),
   "run: its headings and status words are defined (%s; undefined: %s)" %
   (" ".join(heads + sorted(set(status))), undefined(heads + status)))

cmp = open(t + "/compare.txt").read().splitlines()
head = next(l for l in cmp if l.startswith("probe "))
words = [w for w in head.split() if not re.fullmatch(r"[A-Z]", w)]
rows = cmp[cmp.index(head) + 1:]
verdicts = [re.sub(r"\[\d+\]$", "", l.split()[-1]) for l in rows if l.split() and l.split()[0] in
            ("baseline", "calib.add_chain", "cmpxchg64", "local_irq_save", "mb")]
words += verdicts + [l.split()[0] for l in rows if l.startswith("geomean")]
ok(verdicts and not undefined(words),
   "compare: its headings, verdicts and geomean are defined (%s; undefined: %s)" %
   (" ".join(sorted(set(words))), undefined(words)))

lst = open(t + "/list.txt").read().splitlines()
col = lst[0].index(lst[0].split()[3])
avail = set(l[col:col + 12].split()[0] for l in lst[1:]
            if len(l) > col and l[col] != " " and not l.startswith(" "))
ok(avail and not undefined(avail),
   "list: its availability words are defined (%s; undefined: %s)" %
   (" ".join(sorted(avail)), undefined(avail)))
PY
import_checks "$pc_tmp/checks" "the glossary checks"
done_testing
