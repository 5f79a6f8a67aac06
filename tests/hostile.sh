#!/bin/sh
# SPDX-License-Identifier: MIT
# The hostile corpus (tests/hostile/, plus larger cases made here): compare
# and merge must refuse each file with exit 2 and one line on stderr naming
# it, never crash, never hang, never write an output.
. "${PC_SRCDIR}/tests/lib.sh"

corpus="$PC_SRCDIR/tests/hostile"
good="$pc_tmp/good.json"
# A valid file to stand beside each hostile one (the corpus' own base).
"$PYTHON3" "$corpus/make-corpus.py" --good "$good"

pc compare "$good" "$good"
ok $(test $pc_rc -eq 0; echo $?) "the corpus' base file is valid (compare accepts it)"

# Larger cases, made here rather than committed.
big="$pc_tmp/big"
mkdir "$big"
"$PYTHON3" - "$good" "$big" <<'PY'
import json, sys
good = json.load(open(sys.argv[1]))
out = sys.argv[2]
d = json.loads(json.dumps(good))
d["cpus"]["x86_64.test.1-2-3.cpu-a"]["cpu"]["brand"] = "x" * (2 << 20)
json.dump(d, open(out + "/megabyte-string.json", "w"))
open(out + "/deep-100000.json", "w").write("[" * 100000 + "]" * 100000)
open(out + "/deep-objects.json", "w").write('{"a":' * 3000 + "1" + "}" * 3000)
d = json.loads(json.dumps(good))
p = d["cpus"]["x86_64.test.1-2-3.cpu-a"]["probes"]["cmpxchg"]
p["raw"]["cycles"] = [9] * 1000001
json.dump(d, open(out + "/too-many-samples.json", "w"))
# Packed raw samples (src/packed.h) that lie about themselves.
pad = "AgAC" * 20	# long enough to be read past the JSON lexer
for name, raw in [("packed-not-base64", "dz1:5:40:" + pad[:-4] + "A!A="),
                  ("packed-fewer-values", "dz1:5:99:" + pad),
                  ("packed-more-values", "dz1:5:7:" + pad),
                  ("packed-count-over-limit", "dz1:5:1000001:" + pad),
                  ("packed-value-over-limit", "dz1:-22:60:" + pad),
                  ("packed-scale-bogus", "dz1:99:60:" + pad),
                  ("packed-cut-varint", "dz1:5:1:" + "gICA" * 20),
                  ("packed-as-host", None)]:
    d = json.loads(json.dumps(good))
    e = d["cpus"]["x86_64.test.1-2-3.cpu-a"]
    if raw is None:	# a long packed-looking string where none belongs
        e["runs"][0]["host"] = "dz1:5:60:" + "AAAA" * 2000
    else:
        e["probes"]["cmpxchg"]["raw"]["cycles"] = raw
    json.dump(d, open(out + "/" + name + ".json", "w"))
d = json.loads(json.dumps(good))
e = d["cpus"].pop("x86_64.test.1-2-3.cpu-a")
for i in range(10001):
    d["cpus"]["x86_64.test.1-2-3.cpu-%d" % i] = e
json.dump(d, open(out + "/too-many-cpus.json", "w"))
PY
truncate -s 65M "$big/over-size-limit.json"
mkfifo "$big/fifo.json" 2>/dev/null
mkdir "$big/directory.json"

n=0
for f in "$corpus"/* "$big"/*; do
	case $f in *.py) continue ;; esac
	n=$((n + 1))
	name=$(basename "$f")
	for cmd in compare merge; do
		rm -f "$pc_tmp/merged.json"
		# the limit catches a hang, not slowness: a refusal of the largest
		# files took over 20 s on a loaded 2-CPU machine at low priority
		if [ $cmd = compare ]; then
			timeout 120 $PRIMCOST compare "$good" "$f" >"$pc_tmp/out" 2>"$pc_tmp/err"
		else
			timeout 120 $PRIMCOST merge -o "$pc_tmp/merged.json" "$good" "$f" \
				>"$pc_tmp/out" 2>"$pc_tmp/err"
		fi
		pc_rc=$?
		ok $(test $pc_rc -eq 2 && one_line_error && grep -qF "$name" "$pc_tmp/err" &&
			test ! -s "$pc_tmp/out" && test ! -e "$pc_tmp/merged.json"; echo $?) \
			"$cmd refuses $name: exit $pc_rc, $(head -c 160 "$pc_tmp/err" | head -1)"
	done
done
ok $(test $n -ge 30; echo $?) "the corpus holds at least 30 files ($n)"
ok $(test -z "$(ls "$pc_tmp" | grep 'merged.json.tmp')"; echo $?) "no temporary file is left behind"
done_testing
