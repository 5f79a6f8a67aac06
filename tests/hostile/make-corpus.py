#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the hostile corpus: files that `primcost compare` and `primcost merge`
must refuse with exit 2 and one line on stderr. Run from this directory; the
files are committed, so this script only documents and regenerates them
(`--good FILE` writes the valid document they are made from).
Larger cases (megabyte strings, 100000-deep nesting, files over the size
limit, FIFOs) are made at test time by tests/hostile.sh."""
import base64
import copy
import json
import sys

GOOD = {
    "schema": "primcost-result/1",
    "cpus": {
        "x86_64.test.1-2-3.cpu-a": {
            "cpu": {"arch": "x86_64", "vendor": "GenuineIntel", "brand": "Test CPU",
                    "family": 1, "model": 2, "stepping": 3, "virtualized": False,
                    "timer": {"name": "tsc", "hz": 2.5e9, "measured": True}},
            "runs": [{"date": "2026-01-01T00:00:00Z", "host": "h", "kernel": "Linux 6.1",
                      "primcost_version": "0.1.0", "cycles_source": "calibrated",
                      "options": {}}],
            "probes": {
                "cmpxchg": {"status": "ok", "ring": 3, "group": "cmpxchg", "run": 0,
                            "cycles_source": "calibrated", "samples": 9,
                            "ticks": {"min": 7, "q1": 7, "median": 7, "q3": 7, "max": 7, "mad": 0},
                            "cycles": {"min": 9, "q1": 9, "median": 9, "q3": 9, "max": 9, "mad": 0},
                            "ns": {"min": 2.8, "q1": 2.8, "median": 2.8, "q3": 2.8, "max": 2.8, "mad": 0},
                            "raw": {"ticks": [7] * 9, "cycles": [9] * 9}}}}}}
KEY = "x86_64.test.1-2-3.cpu-a"


def text(name, s):
    with open(name, "w", encoding="utf-8", newline="") as f:
        f.write(s)


def raw(name, b):
    with open(name, "wb") as f:
        f.write(b)


def mutate(name, fn):
    d = copy.deepcopy(GOOD)
    fn(d)
    text(name, json.dumps(d, indent=1))


def probe(d):
    return d["cpus"][KEY]["probes"]["cmpxchg"]


if sys.argv[1:2] == ["--good"]:	# the valid base document, for the tests
    with open(sys.argv[2], "w") as f:
        json.dump(GOOD, f, indent=1)
    sys.exit(0)

good = json.dumps(GOOD, indent=1)
text("empty.json", "")
text("whitespace.json", "  \n\t\n")
text("truncated.json", good[: len(good) // 2])
text("truncated-in-string.json", good[: good.index("Test CPU") + 4])
text("not-json.txt", "primcost results: cmpxchg 9 cycles\n")
raw("binary.bin", bytes((i * 37 + 11) % 256 for i in range(4096)))
raw("raw-nul-byte.json", good.replace("Test CPU", "Test\0CPU").encode())
text("escaped-nul.json", good.replace("Test CPU", "Test\\u0000CPU"))
raw("non-utf8.json", good.encode().replace(b"Test CPU", b"Test \xe9 CPU"))
raw("overlong-utf8.json", good.encode().replace(b"Test CPU", b"Test \xc0\xaf CPU"))
raw("utf16.json", good.encode("utf-16"))
raw("utf8-bom.json", b"\xef\xbb\xbf" + good.encode())
text("array-top.json", "[]\n")
text("string-top.json", '"primcost-result/1"\n')
text("no-schema.json", '{"cpus": {}}\n')
text("wrong-schema.json", '{"schema": "other-tool/1", "cpus": {}}\n')
text("future-version.json", '{"schema": "primcost-result/2", "cpus": {}}\n')
text("schema-number.json", '{"schema": 1, "cpus": {}}\n')
text("cpus-array.json", '{"schema": "primcost-result/1", "cpus": []}\n')
text("duplicate-keys.json", '{"schema": "primcost-result/1", "schema": "primcost-result/1", "cpus": {}}\n')
text("duplicate-probe.json", good.replace('"cmpxchg": {', '"cmpxchg": {"status": "ok"}, "cmpxchg": {', 1))
text("nan.json", good.replace('"median": 9,', '"median": NaN,'))
text("infinity.json", good.replace('"median": 9,', '"median": Infinity,'))
text("huge-real.json", good.replace('"median": 9,', '"median": 1e400,'))
text("huge-integer.json", good.replace('"samples": 9', '"samples": 99999999999999999999999999'))
mutate("absurd-median.json", lambda d: probe(d)["cycles"].update(median=1e300, q3=1e300, max=1e300))
mutate("negative-mad.json", lambda d: probe(d)["cycles"].update(mad=-1))
mutate("quartiles-disordered.json", lambda d: probe(d)["cycles"].update(q1=10))
mutate("median-string.json", lambda d: probe(d)["cycles"].update(median="fast"))
mutate("summary-missing.json", lambda d: probe(d).pop("ns"))
mutate("status-unknown.json", lambda d: probe(d).update(status="great"))
mutate("samples-zero.json", lambda d: probe(d).update(samples=0))
mutate("samples-float.json", lambda d: probe(d).update(samples=9.5))
mutate("run-out-of-range.json", lambda d: probe(d).update(run=7))
mutate("cycles-source-bogus.json", lambda d: probe(d).update(cycles_source="guessed"))
mutate("raw-with-string.json", lambda d: probe(d)["raw"]["cycles"].__setitem__(3, "9"))
mutate("raw-with-null.json", lambda d: probe(d)["raw"]["ticks"].__setitem__(0, None))
mutate("raw-not-array.json", lambda d: probe(d)["raw"].update(cycles={"0": 9}))


def packed(k, ints):
    """dz1:K:N:BASE64, as primcost packs raw samples (value = n / 10^K)."""
    out, prev = bytearray(), 0
    for n in ints:
        d = n - prev
        z = (d << 1) ^ (d >> 63)
        z &= (1 << 64) - 1
        while z >= 0x80:
            out.append((z & 0x7f) | 0x80)
            z >>= 7
        out.append(z)
        prev = n
    return "dz1:%d:%d:%s" % (k, len(ints), base64.b64encode(bytes(out)).decode())


mutate("raw-count-mismatch.json", lambda d: probe(d)["raw"].update(cycles=[9] * 10))
mutate("raw-out-of-summary.json", lambda d: probe(d)["raw"].update(ticks=[7] * 8 + [70]))
mutate("packed-count-mismatch.json", lambda d: probe(d)["raw"].update(cycles=packed(0, [9] * 1000)))
mutate("packed-zeros.json", lambda d: probe(d)["raw"].update(cycles=packed(0, [0] * 9)))
mutate("packed-k-negative.json", lambda d: probe(d)["raw"].update(cycles=packed(-5, [9] * 9)))
mutate("probe-not-object.json", lambda d: d["cpus"][KEY]["probes"].update(cmpxchg=[9]))
mutate("probe-name-escape.json", lambda d: d["cpus"][KEY]["probes"].update({"\u001b[2J\u001b[31mcmpxchg": probe(d)}))
mutate("probe-name-path.json", lambda d: d["cpus"][KEY]["probes"].update({"../../etc/passwd": probe(d)}))
mutate("brand-escape.json", lambda d: d["cpus"][KEY]["cpu"].update(brand="\u001b]0;owned\u0007Test"))
mutate("model-key-empty.json", lambda d: d["cpus"].update({"": d["cpus"][KEY]}))
mutate("model-key-long.json", lambda d: d["cpus"].update({"x" * 300: d["cpus"][KEY]}))
mutate("cpu-missing.json", lambda d: d["cpus"][KEY].pop("cpu"))
mutate("runs-not-array.json", lambda d: d["cpus"][KEY].update(runs={"0": {}}))
mutate("run-without-date.json", lambda d: d["cpus"][KEY]["runs"][0].pop("date"))
for name, date in (("date-impossible", "9999-99-99T99:99:99Z"), ("date-words", "not a date"),
                   ("date-month-13", "2026-13-01T00:00:00Z"), ("date-feb-30", "2026-02-30T00:00:00Z"),
                   ("date-hour-24", "2026-12-04T24:00:00Z"), ("date-no-zone", "2026-12-04T18:59:01"),
                   ("date-only", "2026-12-04")):
    mutate(name + ".json", lambda d, date=date: d["cpus"][KEY]["runs"][0].update(date=date))
mutate("timer-hz-zero.json", lambda d: d["cpus"][KEY]["cpu"]["timer"].update(hz=0))
mutate("family-string.json", lambda d: d["cpus"][KEY]["cpu"].update(family="six"))
mutate("virtualized-string.json", lambda d: d["cpus"][KEY]["cpu"].update(virtualized="no"))
mutate("current-and-replaced.json", lambda d: d["cpus"][KEY]["runs"][0].update(
    probes={"cmpxchg": {k: v for k, v in probe(d).items() if k != "run"}}))
mutate("deep-options.json", lambda d: d["cpus"][KEY]["runs"][0].update(
    options=json.loads("[" * 20 + "]" * 20)))
mutate("environment-not-object.json", lambda d: d["cpus"][KEY]["runs"][0].update(
    environment="microcode 0xa0011d5"))
mutate("environment-value-and-unknown.json", lambda d: d["cpus"][KEY]["runs"][0].update(
    environment={"microcode": {"value": "0xa0011d5", "source": "/proc/cpuinfo",
                               "unknown": "absent"}}))
mutate("environment-line-number.json", lambda d: d["cpus"][KEY]["runs"][0].update(
    environment={"vulnerabilities": {"value": {"meltdown": 1}, "source": "sysfs"}}))
text("deep-nesting.json", "[" * 5000 + "]" * 5000)
text("trailing-garbage.json", good + " extra\n")
text("two-documents.json", good + good)
text("comment.json", "// primcost\n" + good)
text("single-quotes.json", good.replace('"schema"', "'schema'"))
