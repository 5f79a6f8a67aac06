#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers.py SRCDIR - the layer rule of docs/design.md, as TAP points.

The source folders, lowest first (a folder may include its own files and
those of lower layers, never a higher one's):

  0 probes/       the probe table (probes.def), freestanding
  1 arch/         the instruction backends, freestanding
  2 engine/       the sampling method, freestanding
  3 runner/       the programs that embed the engine: the ia64 runner, the
                  KVM micro-guest, the kernel module
  4 src/core/     the hosted measuring core
  5 src/results/  result files, compare's model, the measurement-group
                  interface
  6 src/ring0/ src/remote/      the ways in
    src/NAME/ of each PC_GROUP(NAME) of src/results/groups.def: the groups
  7 src/run/      a run's life
  8 src/cli/      the subcommands

An include between folders names its folder ("core/stats.h"), except the
selected backend's own headers (timer.h, relax.h, lock.h, pmc.h, loop.h), found
through arch/ARCH on the include path as Linux's <asm/...> are.
"""
import os
import re
import sys

RANK = {
    "probes": 0, "arch": 1, "engine": 2, "runner": 3,
    "src/core": 4, "src/results": 5,
    "src/ring0": 6, "src/remote": 6,
    "src/run": 7, "src/cli": 8,
}
# The includes from a lower layer to a higher one that the design keeps,
# each with why: at most two. None today (measure.c reaches ring 0 through
# the pc_ring0_target interface of core/executor.h, which ring0.c fills).
ALLOWED_UP = set()
ARCH_SELECTED = {"timer.h", "relax.h", "lock.h", "pmc.h", "loop.h"}
GENERATED = {"config.h", "pc_paths.h"}

top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
n = 0
with open(os.path.join(top, "src/results/groups.def")) as fh:
    GROUPS = re.findall(r"^PC_GROUP\(([a-z][a-z0-9_]*)\)$", fh.read(), re.M)
for g in GROUPS:
    RANK["src/" + g] = 6


def ok(cond, what, lines=()):
    global n
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, what))
    for line in lines:
        print("# " + line)


def folder(rel):
    parts = rel.split("/")
    return "/".join(parts[:2]) if parts[0] == "src" else parts[0]


files = []
for base in ("probes", "arch", "engine", "runner", "src"):
    for d, dirs, names in os.walk(os.path.join(top, base)):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for name in names:
            if re.search(r"\.(c|h|S|def)$", name):
                files.append(os.path.relpath(os.path.join(d, name), top))
files.sort()

unknown = sorted({folder(f) for f in files} - set(RANK))
ok(not unknown, "every source folder has a layer", unknown)

edges = {}		# (from folder, to folder) -> [file -> include]
unqualified, unresolved, up, arch_out = [], [], [], []
inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
for f in files:
    if folder(f) not in RANK:
        continue
    with open(os.path.join(top, f), errors="replace") as fh:
        text = fh.read()
    for inc in inc_re.findall(text):
        here = os.path.normpath(os.path.join(os.path.dirname(f), inc))
        if inc in GENERATED:
            continue
        if os.path.exists(os.path.join(top, here)):
            target = here
        elif os.path.exists(os.path.join(top, inc)):
            target = os.path.normpath(inc)
        elif os.path.exists(os.path.join(top, "src", inc)):
            target = os.path.normpath(os.path.join("src", inc))
        elif inc in ARCH_SELECTED:
            target = "arch/" + inc
        else:
            unresolved.append("%s -> %s" % (f, inc))
            continue
        a, b = folder(f), folder(target)
        if a == b:
            continue
        if "/" not in inc and inc not in ARCH_SELECTED:
            unqualified.append("%s -> %s" % (f, inc))
        edges.setdefault((a, b), []).append("%s -> %s" % (f, inc))
        if b in RANK and RANK[b] > RANK[a] and (f, target) not in ALLOWED_UP:
            up.append("%s -> %s (%s above %s)" % (f, inc, b, a))
        if a == "arch" and b != "probes":
            arch_out.append("%s -> %s" % (f, inc))

ok(not unresolved, "every include names a file of the tree", unresolved)
ok(not unqualified, "an include from another folder names its folder",
   unqualified)

# Cycles between folders: a folder reached again from itself.
graph = {}
for a, b in edges:
    graph.setdefault(a, set()).add(b)
cycles = []
for start in sorted(graph):
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                cycles.append(" -> ".join(path + [start]))
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
ok(not cycles, "no include cycle between folders", sorted(set(cycles)))
ok(not up, "no include from a lower layer to a higher one but the %d kept"
   % len(ALLOWED_UP), up)
ok(len(ALLOWED_UP) <= 2, "at most 2 includes kept from a lower layer to a "
   "higher one (%d)" % len(ALLOWED_UP),
   ["%s -> %s" % e for e in sorted(ALLOWED_UP)])
kept_used = [e for e in ALLOWED_UP
             if not any(x.startswith(e[0] + " -> ") for x in
                        edges.get((folder(e[0]), folder(e[1])), []))]
ok(not kept_used, "each include kept is still there", ["%s -> %s" % e for e in kept_used])
low = [x for (a, b), v in edges.items() if b == "src/cli" for x in v]
ok(not low, "nothing below src/cli/ includes it", low)
ok(not arch_out, "arch/ includes only arch/ and the probe table", arch_out)

# A group is its folder and its line in groups.def: the registry names one
# at least, each a folder with a source file, and no folder but the groups'
# own includes a group's header (run, the subcommands and the results know
# them through the registry, results/group.h, only).
missing = [g for g in GROUPS
           if not any(f.startswith("src/%s/" % g) and f.endswith(".c") for f in files)]
ok(GROUPS and not missing, "groups.def names %d groups, each a folder of src/ with its "
   "sources" % len(GROUPS), missing)
gfolders = {"src/" + g for g in GROUPS}
outside = [x for (a, b), v in sorted(edges.items())
           if b in gfolders and a not in gfolders for x in v]
ok(not outside, "no folder but the groups' includes a group's header", outside)

print("1..%d" % n)
