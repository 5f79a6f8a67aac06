#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""disturbed.py RESULT.json...: did these runs record a host too disturbed
to measure?

Prints the reason and exits 0 when every file's last run says so in its own
records; exits 1 (printing what it saw) otherwise. A timing test that failed
all its attempts skips only on exit 0: the reason comes from what the run
measured about the host, never from the test's own disappointment.

A run records a disturbed host when
  - it marked itself unreliable (an implausible calibration, an emulator);
  - its contention canary ran slow for most of its samples (the canary's
    median above its best by more than the tolerance);
  - a probe was contended throughout (its reason says so: too many samples
    flagged to drop them);
  - it dropped a quarter or more of all its samples as contended, or had to
    retake half or more as disturbed (context switches, migrations).
"""
import json
import sys


def why_disturbed(path):
    d = json.load(open(path))
    (key, entry), = d["cpus"].items()
    run = entry["runs"][-1]
    if run.get("unreliable"):
        return "the run marked itself unreliable: %s" % run.get("unreliable_reason", "")
    con = run.get("contention") or {}
    best, med = con.get("canary_cycles_best"), con.get("canary_cycles_median")
    tol = con.get("tolerance", 0.1)
    if best and med and med > best * (1 + tol):
        return ("the core was shared for most of the run (canary median %.3f cycles, "
                "best %.3f)" % (med, best))
    run_no = len(entry["runs"]) - 1
    mine = [p for p in entry["probes"].values() if p.get("run", run_no) == run_no]
    throughout = [n for n, p in entry["probes"].items()
                  if p in mine and "contended: the core was shared" in p.get("reason", "")]
    if throughout:
        return "contended throughout: %s" % ", ".join(sorted(throughout))
    kept = sum(p.get("samples", 0) for p in mine)
    dropped = sum((p.get("discarded") or {}).get("contended", 0) for p in mine)
    retaken = sum((p.get("discarded") or {}).get("disturbed", 0) for p in mine)
    if kept and dropped >= (kept + dropped) / 4:
        return "%d of %d samples dropped as contended" % (dropped, kept + dropped)
    if kept and retaken >= kept / 2:
        return "%d samples retaken as disturbed for %d kept" % (retaken, kept)
    return None


def main():
    reasons = []
    for path in sys.argv[1:]:
        why = why_disturbed(path)
        if not why:
            print("not recorded as disturbed: %s" % path)
            return 1
        reasons.append(why)
    print("; ".join(reasons))
    return 0


if __name__ == "__main__":
    sys.exit(main())
