#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Helpers for the compare/merge shell tests.

  check_compare.py scale IN OUT PROBE FACTOR   multiply PROBE's figures by FACTOR
  check_compare.py clean IN OUT PROBE...        take PROBEs' figures as clean: status
                                               ok, no reason, round_spread 0
  check_compare.py verdicts FILE               print "slower faster same
                                               not_comparable" of a
                                               `compare --format json` output
  check_compare.py judged FILE                 the probes a side's geomean must
                                               hold: verdict given, both above
                                               the floor (first table, side B)
  check_compare.py cell FILE PROBE SIDE FIELD  print a cell's FIELD (first table)
  check_compare.py rekey IN OUT KEY HOST DATE  rename the CPU of a one-CPU file
  check_compare.py largest FILE                "PROBE +X.X %": the largest move
                                               among the probes with a verdict
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcraw  # noqa: E402

cmd = sys.argv[1]
if cmd == "scale":
    src, dst, probe, k = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
    d = json.load(open(src))
    for entry in d["cpus"].values():
        p = entry["probes"][probe]
        for unit in ("ticks", "cycles", "ns"):
            p[unit] = {s: v * k for s, v in p[unit].items()}
        for unit in p.get("raw", {}):
            p["raw"][unit] = pcraw.encode([v * k for v in pcraw.decode(p["raw"][unit])])
    json.dump(d, open(dst, "w"))
elif cmd == "clean":
    src, dst, probes = sys.argv[2], sys.argv[3], sys.argv[4:]
    d = json.load(open(src))
    for entry in d["cpus"].values():
        for probe in probes:
            p = entry["probes"][probe]
            p["status"] = "ok"
            p.pop("reason", None)
            p["round_spread"] = 0.0
        for run in entry.get("runs", []):
            # an emulator's run (the cross legs) is unreliable as a whole
            run["unreliable"] = False
            run.pop("unreliable_reason", None)
    json.dump(d, open(dst, "w"))
elif cmd == "verdicts":
    v = json.load(open(sys.argv[2]))["verdicts"]
    print(v["slower"], v["faster"], v["same"], v["not_comparable"])
elif cmd == "judged":
    m = json.load(open(sys.argv[2]))
    print(sum(1 for r in m["tables"][0]["rows"]
              if r["cells"][1].get("verdict") in ("slower", "faster", "same")
              and r["cells"][0]["median"] >= m["floor"]
              and r["cells"][1]["median"] >= m["floor"]))
elif cmd == "cell":
    m = json.load(open(sys.argv[2]))
    rows = m["tables"][0]["rows"]
    row = [r for r in rows if r["probe"] == sys.argv[3]][0]
    print(row["cells"][int(sys.argv[4])].get(sys.argv[5]))
elif cmd == "rekey":
    src, dst, key, host, date = sys.argv[2:7]
    d = json.load(open(src))
    (old, entry), = d["cpus"].items()
    for run in entry["runs"]:
        run["host"] = host
        run["date"] = date
    d["cpus"] = {key: entry}
    json.dump(d, open(dst, "w"))
elif cmd == "largest":
    m = json.load(open(sys.argv[2]))
    moves = [(abs(r["cells"][1].get("delta_pct") or 0), r["probe"], r["cells"][1].get("delta_pct"))
             for r in m["tables"][0]["rows"]
             if len(r["cells"]) > 1 and r["cells"][1].get("verdict") in ("slower", "faster")]
    print("%s %+.1f %%" % max(moves)[1:] if moves else "none")
else:
    sys.exit("unknown command " + cmd)
