#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line: help, version, errors and their exit codes, the
# result file's safety (atomic, merge keeps other CPUs, no clobbering).
. "${PC_SRCDIR}/tests/lib.sh"

pc --version
ok $(test $pc_rc -eq 0 && grep -q '^primcost [0-9]' "$pc_tmp/out"; echo $?) "--version prints the version"
pc --help
ok $(test $pc_rc -eq 0 && grep -q 'run' "$pc_tmp/out"; echo $?) "--help lists the commands"
pc
ok $(test $pc_rc -eq 2; echo $?) "no command: usage and exit 2"
pc nosuch
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "unknown command: one-line error, exit 2"
for c in run list info; do
	pc $c --help
	ok $(test $pc_rc -eq 0 && grep -q "usage: primcost $c" "$pc_tmp/out"; echo $?) "$c --help"
	pc help $c
	ok $(test $pc_rc -eq 0 && grep -q "usage: primcost $c" "$pc_tmp/out"; echo $?) "help $c"
done

pc run --probes 'nosuch*' -o "$pc_tmp/x.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q "nosuch\*" "$pc_tmp/err"; echo $?) \
	"run --probes 'nosuch*': one-line error naming the pattern, exit 2"
ok $(test ! -e "$pc_tmp/x.json"; echo $?) "... and no file is written"
pc run --samples 2
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "run --samples 2: one-line error, exit 2"
pc run --bogus
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "run --bogus: one-line error, exit 2"
pc list --format xml
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "list --format xml: one-line error, exit 2"

# list derives from the probe table: every row, once; then the rows of the
# groups measured at points (src/contend/locks.c, the allocator's five,
# the kernel group's).
pc list --format csv
ok $(test $pc_rc -eq 0 && test "$(tail -n +2 "$pc_tmp/out" | grep -cv ',contended,\|,alloc,\|,kernel,')" -eq \
	"$(grep -c '^PC_PROBE(' "$PC_SRCDIR/probes/probes.def")"; echo $?) \
	"list shows every row of probes.def"
want=$(sed -n 's/^\tLOCK(\([a-z_]*\),.*/lock.\1/p; s/^\t{ "\(contended\.[a-z_]*\|c2c\.[a-z]*\)",.*/\1/p' \
	"$PC_SRCDIR/src/contend/locks.c" | tr '\n' ' ')
got=$(grep ',contended,3,' "$pc_tmp/out" | cut -d, -f1 | tr '\n' ' ')
ok $(test -n "$want" && test "$want" = "$got"; echo $?) \
	"list shows the contended rows of src/contend/locks.c, lock.broken left out ($got)"
ok $(test "$(grep ',alloc,3,' "$pc_tmp/out" | cut -d, -f1 | tr '\n' ' ')" = \
	"alloc.malloc alloc.free alloc.malloc_free alloc.remote.malloc alloc.remote.free "; echo $?) \
	"list shows the allocator group's five rows"
ok $(grep -q '^lock\.ticket,contended,3,-,ok,,"ticket spinlock (fetch-add, FIFO)",".*time-bounded window.*",run --locks' \
	"$pc_tmp/out" && grep -q '^alloc\.malloc_free,alloc,3,-,ok,,.*,"pair: .*","run --alloc, or --allocator' \
	"$pc_tmp/out"; echo $?) "list --format csv: a point row's group, ring, what, method and what measures it"
ok $(grep -q '^local_irq_save,irq,0,' "$pc_tmp/out"; echo $?) \
	"list keeps the ring-0 rows (local_irq_save)"

# list --names: the rows' names, then globs that each select two or more.
tail -n +2 "$pc_tmp/out" | cut -d, -f1 >"$pc_tmp/rows"
pc list --names
grep -v '\*' "$pc_tmp/out" >"$pc_tmp/names"
ok $(test $pc_rc -eq 0 && cmp -s "$pc_tmp/rows" "$pc_tmp/names"; echo $?) \
	"list --names prints every probe name, in the table's order"
bad=
for g in $(grep '\*' "$pc_tmp/out"); do
	n=$($PRIMCOST list --format csv "$g" 2>/dev/null | tail -n +2 | wc -l)
	[ "$n" -ge 2 ] || bad="$bad $g($n)"
done
ok $(test -z "$bad" && grep -qx 'calib\.\*' "$pc_tmp/out" && grep -qx 'cmpxchg\*' "$pc_tmp/out" &&
	grep -qx '\*\.llsc' "$pc_tmp/out"; echo $?) \
	"list --names globs (calib.*, cmpxchg*, *.llsc) each select two or more probes${bad:+ (not:$bad)}"
pc list --names 'cmpxchg*'
ok $(test $pc_rc -eq 0 && grep -qx cmpxchg_local "$pc_tmp/out" && ! grep -q '^xchg' "$pc_tmp/out"; echo $?) \
	"list --names PATTERN keeps what matches"
pc list --names --events
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "list --names --events: one-line error, exit 2"
pc list -v 'lock.mcs'
ok $(test $pc_rc -eq 0 && test "$(grep -c '^lock\.' "$pc_tmp/out")" -eq 1 &&
	grep -q 'method: *threads pinned by placement' "$pc_tmp/out" &&
	grep -q 'measured: *run --locks' "$pc_tmp/out"; echo $?) \
	"list -v PATTERN: one contended row with its method and what measures it"
pc list --format json 'alloc.*,c2c.*'
ok $(test $pc_rc -eq 0 && python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
names = [r["name"] for r in rows]
assert names == ["alloc.malloc", "alloc.free", "alloc.malloc_free", "alloc.remote.malloc",
                 "alloc.remote.free", "c2c.latency"], names
assert all(r["ring"] == 3 and r["method"] and r["selected_by"] for r in rows)
assert rows[0]["method"].startswith("batch") and rows[2]["method"].startswith("pair")
' "$pc_tmp/out"; echo $?) "list --format json PATTERN: the allocator rows (the remote two too) and c2c, with their method"
pc list 'lock.nosuch'
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "list: a pattern matching no row: one-line error, exit 2"

# A run writes a valid file; a second CPU's entry survives a merge.
pc run --probes 'baseline,local_irq_disable' --ring0 none -n 21 -o "$pc_tmp/r.json" -q
ok $(test $pc_rc -eq 0 && test -s "$pc_tmp/r.json"; echo $?) "run -o FILE writes the file"
ok $(grep -q '"local_irq_disable"' "$pc_tmp/r.json" && grep -Eq '"(skipped|unsupported)"' "$pc_tmp/r.json"; echo $?) \
	"a ring-0 row is present in the JSON as skipped or unsupported"
"$PYTHON3" - "$pc_tmp/r.json" "$pc_tmp/two.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(key, entry), = d["cpus"].items()
other = json.loads(json.dumps(entry))
other["cpu"]["brand"] = "Other CPU"
d["cpus"]["x86_64.other.1-2-3.other-cpu"] = other
json.dump(d, open(sys.argv[2], "w"))
PY
pc run --probes baseline -n 21 -o "$pc_tmp/two.json" -q
ok $(test $pc_rc -eq 0 && grep -q '"x86_64.other.1-2-3.other-cpu"' "$pc_tmp/two.json"; echo $?) \
	"merging a run into a file keeps another CPU's entry"

# CSV fields holding a comma and a double quote are quoted (RFC 4180).
mkdir "$pc_tmp/refs"
"$PYTHON3" - "$pc_tmp/r.json" "$pc_tmp/refs/odd.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for entry in d["cpus"].values():
    entry["cpu"]["brand"] = 'Brand, "Quoted" CPU'
    entry["runs"][0]["host"] = 'host, "a"'
json.dump(d, open(sys.argv[2], "w"))
PY
csv_field() {	# FILE ROW COLUMN: one field as Python's csv module reads it
	"$PYTHON3" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), rows[int(sys.argv[2])][sys.argv[3]])' "$@"
}
PRIMCOST_REFERENCE_DIR="$pc_tmp/refs" $PRIMCOST list --reference --format csv \
	>"$pc_tmp/out" 2>"$pc_tmp/err"
ok $(test $? -eq 0 && test "$(csv_field "$pc_tmp/out" 0 brand)" = '1 Brand, "Quoted" CPU' &&
	test "$(csv_field "$pc_tmp/out" 0 probes)" = "1 2"; echo $?) \
	"list --reference --format csv quotes a brand with a comma and a quote ($(sed -n 2p "$pc_tmp/out"))"
pc list --runs --format csv "$pc_tmp/refs/odd.json"
ok $(test $pc_rc -eq 0 && test "$(csv_field "$pc_tmp/out" 0 host)" = '1 host, "a"'; echo $?) \
	"list --runs --format csv quotes a host with a comma and a quote"
cp "$pc_tmp/refs/odd.json" "$pc_tmp/a, \"b\".json"
pc compare --format csv "$pc_tmp/refs/odd.json" "$pc_tmp/a, \"b\".json"
ok $(test $pc_rc -eq 0 && test "$(csv_field "$pc_tmp/out" 1 file)" = "5 $pc_tmp/a, \"b\".json"; echo $?) \
	"compare --format csv quotes a file name with a comma and a quote"

# An existing file that is not a result is refused, not overwritten.
printf '{"not": "primcost"}\n' >"$pc_tmp/foreign.json"
cp "$pc_tmp/foreign.json" "$pc_tmp/foreign.orig"
pc run --probes baseline -n 21 -o "$pc_tmp/foreign.json" -q
ok $(test $pc_rc -eq 2 && one_line_error && cmp -s "$pc_tmp/foreign.json" "$pc_tmp/foreign.orig"; echo $?) \
	"a foreign JSON file at -o is refused and left untouched"

# A read-only output directory: clear error, existing file untouched.
mkdir "$pc_tmp/ro"
cp "$pc_tmp/r.json" "$pc_tmp/ro/primcost.json"
cp "$pc_tmp/r.json" "$pc_tmp/ro.orig"
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$pc_tmp/ro"
	pc run --probes baseline -n 21 -o "$pc_tmp/ro/primcost.json" -q
	ro_ok=1
elif unshare -m true 2>/dev/null; then
	# root ignores permission bits: use a read-only bind mount instead.
	unshare -m sh -c "mount --bind '$pc_tmp/ro' '$pc_tmp/ro' &&
		mount -o remount,bind,ro '$pc_tmp/ro' &&
		exec $PRIMCOST run --probes baseline -n 21 -o '$pc_tmp/ro/primcost.json' -q" \
		>"$pc_tmp/out" 2>"$pc_tmp/err"
	pc_rc=$?
	ro_ok=1
else
	ro_ok=0
fi
if [ $ro_ok -eq 1 ]; then
	ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'cannot write' "$pc_tmp/err"; echo $?) \
		"a read-only output directory: one-line error, exit 2 ($(cat "$pc_tmp/err"))"
	ok $(cmp -s "$pc_tmp/ro/primcost.json" "$pc_tmp/ro.orig"; echo $?) \
		"... and the existing file is untouched"
	ok $(test -z "$(ls "$pc_tmp/ro" | grep -v '^primcost.json$')"; echo $?) \
		"... and no temporary file is left behind"
else
	skip "root without mount namespaces cannot make a read-only directory" "read-only output directory"
fi

# -o - writes the JSON to stdout and nothing else.
pc run --probes baseline -n 21 -o -
ok $(test $pc_rc -eq 0 && "$PYTHON3" -c 'import json,sys; json.load(open(sys.argv[1]))' "$pc_tmp/out"; echo $?) \
	"run -o - prints valid JSON on stdout"

# Formats.
for f in csv markdown json; do
	pc run --probes baseline -n 21 -o "$pc_tmp/f.json" -f $f
	case $f in
	csv) check='grep -q "^cpu,probe," "$pc_tmp/out"' ;;
	markdown) check='grep -q "^| probe |" "$pc_tmp/out"' ;;
	json) check='"$PYTHON3" -c "import json,sys; json.load(open(sys.argv[1]))" "$pc_tmp/out"' ;;
	esac
	ok $(test $pc_rc -eq 0 && eval "$check"; echo $?) \
		"run --format $f$(test $pc_rc -ne 0 && printf ' (exit %s: %s)' $pc_rc "$(tail -1 "$pc_tmp/err")")"
done

pc info --format json
ok $(test $pc_rc -eq 0 && grep -q '"model_key"' "$pc_tmp/out"; echo $?) "info --format json shows the model key"
cp "$pc_tmp/out" "$pc_tmp/info.json"
online=$(getconf _NPROCESSORS_ONLN)
got=$("$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["schema"], d["threads"], d.get("topology", {}).get("threads"))' "$pc_tmp/info.json")
ok $(test "$got" = "primcost-info/1 $online $online"; echo $?) \
	"info --format json: schema primcost-info/1; threads and topology.threads are the $online online CPUs ($got)"
# The text is rendered from the same object: its key, uarch and CPU count.
want=$("$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["model_key"]); print(d.get("uarch") or "unknown"); print(d["threads"])' "$pc_tmp/info.json")
pc info
ok $(test $pc_rc -eq 0 &&
	test "$(sed -n 's/^model key  *//p' "$pc_tmp/out")" = "$(echo "$want" | sed -n 1p)" &&
	sed -n 's/^uarch  *//p' "$pc_tmp/out" | grep -qF "$(echo "$want" | sed -n 2p)" &&
	grep -q "^topology .* $(echo "$want" | sed -n 3p) CPUs online" "$pc_tmp/out"; echo $?) \
	"info's text says what its JSON says: model key, uarch, CPUs online"

# --status-fd: progress lines for scripts, in order, with -q too.
$PRIMCOST run -p 'baseline,cmpxchg' -n 21 -q --status-fd 3 -o "$pc_tmp/s.json" \
	3>"$pc_tmp/status" >"$pc_tmp/out" 2>"$pc_tmp/err"
pc_rc=$?
ok $(test $pc_rc -eq 0 &&
	test "$(sed -n 1p "$pc_tmp/status")" = "warm-up 1/2 baseline" &&
	test "$(sed -n 2p "$pc_tmp/status")" = "warm-up 2/2 cmpxchg" &&
	test "$(grep -c '^round [0-9]*/10 \(baseline\|cmpxchg\)$' "$pc_tmp/status")" -eq 20 &&
	test "$(tail -1 "$pc_tmp/status")" = measured; echo $?) \
	"run --status-fd 3: warm-up, 10 rounds of each probe, measured ($(wc -l <"$pc_tmp/status") lines)"
pc run -p baseline -n 21 --status-fd 987 -o "$pc_tmp/s.json"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'status-fd 987: not an open file descriptor' "$pc_tmp/err"; echo $?) \
	"run --status-fd on a closed descriptor: one-line error, exit 2"
pc run -p baseline -n 21 --status-fd x -o "$pc_tmp/s.json"
ok $(test $pc_rc -eq 2 && one_line_error; echo $?) "run --status-fd x: one-line error, exit 2"
# One word for no value in every view: no empty field in compare's CSV.
ref=$PC_SRCDIR/data/reference
pc compare --format csv "$ref/intel-pentium4.json" "$ref/amd-athlon64-x2-3800.json"
ok $(test $pc_rc -eq 0 && ! grep -qE ',,|,$|^,' "$pc_tmp/out" && grep -q ',-,' "$pc_tmp/out"; echo $?) \
	"compare --format csv: '-' for no value, no empty field ($(sed -n 2p "$pc_tmp/out" | cut -c1-60)...)"
pc compare --format markdown "$ref/intel-pentium4.json" "$ref/amd-athlon64-x2-3800.json"
ok $(test $pc_rc -eq 0 && grep -q '| - |' "$pc_tmp/out"; echo $?) \
	"compare --format markdown: the same '-' for no value"

# Text that fits an 80-column terminal ($COLUMNS, else the terminal's
# width, else 80), counted in characters (the table's "±" is one). A run's
# result (list --runs, compare) is made by one quick run of each group.
width() {
	python3 -c 'import sys; print(max((len(l.rstrip("\n")) for l in
		open(sys.argv[1], encoding="utf-8")), default=0))' "$1"
}
pc run -n 21 -o "$pc_tmp/w.json"
pc run -n 21 -q -o "$pc_tmp/w2.json"
# threads do not start under qemu-user: the contended group runs natively
locks=
emulated || locks=1
[ -z "$locks" ] || pc run --locks -n 9 --window-us 200 -q -o "$pc_tmp/l.json"
pc run --allocator glibc -n 9 -q -o "$pc_tmp/a.json"
# jemalloc's version is a long word: the run's lines wrap around it
allocs=glibc
pc run --allocator jemalloc -p alloc.free -n 9 -q -o -
[ "$pc_rc" -eq 2 ] || allocs=glibc,jemalloc
for cols in 80; do
	for c in "info" "help" "help run" "help compare" "help list" "list" "list -v" \
		"list --events" "list -v --events" "list --reference" "list -v --reference" \
		"list --runs $pc_tmp/w.json" \
		"run -n 21 -o $pc_tmp/w3.json" \
		"run --locks -n 9 --window-us 200 -o $pc_tmp/l3.json" \
		"run --allocator $allocs -n 9 -o $pc_tmp/a3.json" \
		"compare --color never $pc_tmp/w.json $pc_tmp/w2.json" \
		"compare --color never $ref/intel-pentium4.json $ref/amd-athlon64-x2-3800.json" \
		"compare --color never $ref/intel-pentium4.json $pc_tmp/w.json" \
		"compare --matrix $ref/intel-pentium4.json $ref/intel-core2-quad-q9450.json $pc_tmp/w.json" \
		"compare --by lock $pc_tmp/l.json $pc_tmp/l.json" \
		"compare --by allocator $pc_tmp/a.json $pc_tmp/a.json" \
		"report -f text -o - $ref/intel-pentium4.json $pc_tmp/w.json"; do
		case "$c" in
		*--locks*|*"by lock"*)
			if [ -z "$locks" ]; then
				skip "threads do not start under qemu-user" "COLUMNS=$cols: $(echo "$c" | sed "s|$pc_tmp/||g") fits"
				continue
			fi ;;
		esac
		# shellcheck disable=SC2086
		COLUMNS=$cols $PRIMCOST $c >"$pc_tmp/out" 2>"$pc_tmp/err"
		rc=$?
		longest=$(width "$pc_tmp/out")
		ok $(test $rc -le 1 && test -s "$pc_tmp/out" && test "$longest" -le $cols &&
			! grep -qi seed "$pc_tmp/out" "$pc_tmp/err"; echo $?) \
			"COLUMNS=$cols $(echo "$c" | sed "s|$pc_tmp/||g; s|$ref/||g"): fits (longest line $longest), no 'seed'"
	done
done
# Every help at 60 columns: prose wrapped, each option's words beside it
# or under it; at 80, as written.
for cols in 60 80; do
	for c in "" run list info compare merge report; do
		# shellcheck disable=SC2086
		COLUMNS=$cols $PRIMCOST help $c >"$pc_tmp/out" 2>"$pc_tmp/err"
		rc=$?
		longest=$(width "$pc_tmp/out")
		ok $(test $rc -eq 0 && test "$longest" -le $cols &&
		     grep -q -- '--help' "$pc_tmp/out"; echo $?) \
			"COLUMNS=$cols help $c: fits (longest line $longest), every option there"
	done
done
# No word of any other output or page calls a published table a seed.
$PRIMCOST report -o "$pc_tmp/r.html" "$pc_tmp/w.json" "$ref"/*.json 2>"$pc_tmp/err"
for f in "$pc_tmp/r.html" "$PC_SRCDIR"/man/*.1 "$PC_SRCDIR/README.md"; do
	ok $(! grep -qi seed "$f"; echo $?) "no 'seed' in $(basename "$f")$(grep -i -m1 seed "$f" | cut -c1-80)"
done
done_testing
