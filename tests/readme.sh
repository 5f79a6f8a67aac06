#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's and the docs' examples are what this build prints. Every
# example is made by scripts/readme-examples.sh from a real run; here the
# script makes them again, on copies of the pages, at 80 columns, and each
# block must keep its structure: its tables' headings, its row names, its
# fields, the counts that are facts of the build (the probes, points or
# rows a run names). Figures, and which rows this machine can measure,
# differ from the machine the pages were made on; the words may not. An
# error shown in the docs is run again and must fail with its words.
# The README is one screen (at most 8000 characters), starts with the two
# commands, and every page it or the docs link to exists.
. "${PC_SRCDIR}/tests/lib.sh"

export COLUMNS=80 PRIMCOST_REFERENCE_DIR="$PC_SRCDIR/data/reference"
cd "$PC_SRCDIR" || exit 2
pages="README.md $(grep -l '^<!-- example' docs/*.md docs/*/*.md 2>/dev/null | tr '\n' ' ')"
for p in $pages; do
	mkdir -p "$pc_tmp/pages/$(dirname "$p")" && cp "$p" "$pc_tmp/pages/$p"
done

# What this machine cannot run, kept as it is (--keep ARGS), and why.
set --
: >"$pc_tmp/kept"
keep() {	# keep ARGS WHY
	printf '%s\t%s\n' "$1" "$2" >>"$pc_tmp/kept"
}
if emulated; then
	keep 'run --locks' "threads do not start under qemu-user"
elif [ "$(nproc)" -lt 2 ]; then
	keep 'run --locks' "the example runs on CPUs 0 and 1; this machine has one"
fi
if ! ls /usr/lib/*-linux-gnu/libjemalloc.so.2 >/dev/null 2>&1; then
	keep 'run --allocator' "libjemalloc2 is not installed"
fi
while IFS='	' read -r args _; do
	set -- "$@" --keep "$args"
done <"$pc_tmp/kept"
# The kernel group's examples ran in Debian's kernel under qemu: here too
# where the kernel group runs, or from a scripts/qemu-kernel.sh -o DIR
# given as PC_README_GUEST_DIR; else their rows are checked against list.
$PRIMCOST list -f json >"$pc_tmp/list.json" 2>/dev/null
guest=$("$PYTHON3" - "$pc_tmp/list.json" "$pc_tmp/kept" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1])) if r["name"].startswith("kernel.")]
off = [r for r in rows if r["availability"] != "ok"]
if rows and not off:
    print("here")
else:
    print("none")
    with open(sys.argv[2], "a") as f:
        f.write("run --kernel\tthe kernel group does not run here (%s)\n" %
                (off[0].get("note") or off[0]["availability"] if off else "no kernel rows"))
PY
)
[ -n "${PC_README_GUEST_DIR:-}" ] && guest=$PC_README_GUEST_DIR
# shellcheck disable=SC2086
(cd "$pc_tmp/pages" && PRIMCOST="$PRIMCOST" sh "$PC_SRCDIR/scripts/readme-examples.sh" \
	--guest "$guest" "$@" $pages) >"$pc_tmp/made.out" 2>"$pc_tmp/made.err"
ok $? "scripts/readme-examples.sh makes the examples of $pages again$(grep -v ': kept\|: unchanged\|written$' "$pc_tmp/made.err" | head -3 | tr '\n' ' ')"

$PRIMCOST list --names >"$pc_tmp/names" 2>/dev/null
# shellcheck disable=SC2086
"$PYTHON3" - "$PC_SRCDIR" "$pc_tmp" $pages >"$pc_tmp/checks" <<'PY'
import os, re, shlex, shutil, subprocess, sys
sys.path.insert(0, os.environ["PC_SRCDIR"] + "/tests")
from pccheck import ok

src, tmp, made_pages = sys.argv[1], sys.argv[2], sys.argv[3:]
pages = ["README.md"] + sorted("docs/" + f for f in os.listdir(src + "/docs") if f.endswith(".md")) + \
    sorted("docs/design/" + f for f in os.listdir(src + "/docs/design") if f.endswith(".md"))
names = set(open(tmp + "/names").read().split())
kept_why = dict(l.rstrip("\n").split("\t", 1) for l in open(tmp + "/kept") if "\t" in l)
made_err = open(tmp + "/made.err").read()
MARK = re.compile(r"^<!-- example(?: \(([^)\n]*)\))?: primcost ([^\n]*) -->\n```\n(.*?)^```$",
                  re.M | re.S)
HEADS = ("probe ", "kernel row ", "threads ", "size ", "cpus ")

def skip(what, why):
    print("skip\t%s\t%s" % (what.replace("\n", " "), why))

def examples(path):
    text = open(path, encoding="utf-8").read()
    out = []
    for m in MARK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append((line, m.group(1) or "", m.group(2), m.group(3).splitlines()))
    return text, out

def folded(lines):
    """The names a line under a table lists (cannot measure / no figure)."""
    found, on = set(), False
    for l in lines:
        if re.match(r"^\d+ probes? this machine cannot measure|^no figure on any side", l):
            on = True
            l = l.split(":", 1)[1]
        elif on and not l.startswith(" "):
            on = False
        if on:
            found.update(w.strip(",") for w in l.split())
    return found

def structure(lines):
    """Headings (their words, in order, once each), the rows' names (the
    first word of each row of every table, and the names folded under
    one) and the counts of a summary line."""
    lines = [l for l in lines if l != "..."]
    heads, keys, counts = [], set(), []
    def words(l):
        for w in l.split():
            if w not in heads:
                heads.append(w)
    for i, l in enumerate(lines):
        if l.strip() and any((l.strip() + " ").startswith(h) for h in HEADS):
            above = lines[i - 1] if i else ""
            if above.startswith(" ") and above.strip() and not re.search(r"\d", above):
                words(above)
            words(l)
            for r in lines[i + 1:]:
                if not r.strip() or r.lstrip().startswith(("[", "^")):
                    break
                keys.add(r.split()[0])
        m = re.match(r"^(\d+ (?:probes?|points?|rows?)) in ", l)
        if m:
            counts.append(m.group(1))
    return heads, keys | folded(lines), counts

def fields(lines):
    return [l[:15].strip() for l in lines if l[:1] not in (" ", ".") and l.strip()]

kinds = set()
for page in pages:
    text, have = examples(os.path.join(src, page))
    made = examples(os.path.join(tmp, "pages", page))[1] if page in made_pages else []
    if have or made:
        ok(len(have) == len(made), "%s: %d examples, made again: %d" % (page, len(have), len(made)))
    for (line, opts, args, want), (_, _, _, got) in zip(have, made):
        where = "%s:%d: primcost %s" % (page, line, args)
        kinds.add(args.split()[0])
        ok(want[:1] == ["$ primcost " + args],
           "%s: the block starts with its command (%s)" % (where, (want or [""])[0]))
        ok(all(len(l) <= 80 for l in want), "%s: fits 80 columns" % where)
        kept = re.search(r"^readme-examples: %s:%d: kept \((.*)\)$" % (re.escape(page), line),
                         made_err, re.M)
        if kept:
            why = kept.group(1)
            if why.startswith("--keep "):
                why = kept_why.get(why[len("--keep "):], why)
            elif why.startswith("no guest here"):
                why = next((w for a, w in kept_why.items() if args.startswith(a)), why)
            probes = [k for k in structure(want)[1] if re.match(r"^[a-z][a-z0-9_.]*$", k)]
            ok(all(k in names for k in probes),
               "%s: its row names are rows of this build (%d; not: %s)" %
               (where, len(probes), [k for k in probes if k not in names]))
            skip("%s: its headings and counts are this build's" % where,
                 "this machine does not run it: " + why)
            continue
        if args.split()[0] == "info":
            arch = lambda ls: next((l.split()[2].split(".")[0] for l in ls
                                    if l.startswith("model key") and len(l.split()) > 2), "")
            if arch(want) != arch(got):
                skip("%s: its fields are this build's" % where, "the example is of %s, this "
                     "build is for %s, whose info has other fields" % (arch(want), arch(got) or "?"))
                continue
            ok(fields(want) and fields(want) == fields(got),
               "%s: its fields are this build's (%d; missing: %s)" %
               (where, len(fields(want)), [f for f in fields(want) if f not in fields(got)]))
            continue
        if len(want) == 1:
            ok(len(got) == 1, "%s: prints nothing, as the page shows" % where)
            continue
        wh, wk, wc = structure(want)
        gh, gk, gc = structure(got)
        ok(wh == gh, "%s: its headings are this build's (%s%s)" %
           (where, " ".join(wh), "" if wh == gh else "; the build's: " + " ".join(gh)))
        ok(wk == gk, "%s: its %d row names are this build's (only in the page: %s; only in "
           "the build's: %s)" % (where, len(wk), sorted(wk - gk), sorted(gk - wk)))
        ok(wc == gc, "%s: its counts are this build's (%s%s)" %
           (where, ", ".join(wc) or "none", "" if wc == gc else "; the build's: " + ", ".join(gc)))

    # A block of output that no marker makes is an error the page shows:
    # run again, it must fail with the page's words.
    marked = set(m.start(3) for m in MARK.finditer(text))
    for m in re.finditer(r"^```\n\$ (?:\./)?primcost ([^\n]*)\n(.*?)^```$", text, re.M | re.S):
        if m.start(0) + 4 in marked:
            continue
        args, want = m.group(1), m.group(2).splitlines()
        where = "%s: primcost %s" % (page, args)
        if not (want and want[0].startswith("primcost:")):
            ok(False, "%s: an example of output is made by scripts/readme-examples.sh "
               "(an example marker before it)" % where)
            continue
        # (a result beside it, as the page's reader has after a run)
        os.makedirs(tmp + "/errors", exist_ok=True)
        shutil.copy(src + "/tests/fixtures/result.json", tmp + "/errors/primcost.json")
        got = subprocess.run(shlex.split(os.environ["PRIMCOST"]) + shlex.split(args), cwd=tmp + "/errors",
                             capture_output=True, text=True, encoding="utf-8")
        err = (got.stderr.splitlines() or [""])[0]
        ok(got.returncode == 2 and err.split(" (")[0] == want[0].split(" (")[0],
           "%s: fails with the page's words (%s)" % (where, err[:120]))

ok(all(k in kinds for k in ("run", "info", "compare")),
   "examples of run, info and compare (%s)" % ", ".join(sorted(kinds)))

# The README: one screen, the two commands first, every page it names there.
readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
ok(len(readme.encode()) <= 8000, "README.md is one screen: %d of 8000 characters" %
   len(readme.encode()))
first = re.search(r"^(?:    \S.*\n)+", readme, re.M)
cmds = [l.split()[:2] for l in (first.group(0).splitlines() if first else [])]
ok(cmds[:2] == [["./bootstrap", "run"], ["./bootstrap", "check"]],
   "README.md starts with ./bootstrap run and ./bootstrap check (%s)" % cmds[:2])
ok("man -l man/primcost.1" in readme, "README.md says how to read the man pages in a build tree")
prose = re.sub(r"^```\n.*?^```$", "", readme, flags=re.M | re.S)
counted = re.findall(r"\b\d+ (?:probes|rows|points|tests|hostile)\b", prose)
ok(not counted, "README.md's prose counts nothing the build decides (%s)" % counted)
for page in pages:
    text = open(os.path.join(src, page), encoding="utf-8").read()
    links = set(re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text))
    broken = [l for l in links if not os.path.exists(os.path.join(src, os.path.dirname(page), l))]
    ok(not broken, "%s: the %d pages it links to exist (not: %s)" % (page, len(links), broken))
PY
import_checks "$pc_tmp/checks" "the pages' examples"
done_testing
