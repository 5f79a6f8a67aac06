#!/bin/sh
# SPDX-License-Identifier: MIT
# Every file a command writes goes one way: a regular file replaced
# atomically through an unpredictable temporary file, its mode and owner
# kept, links followed, devices and FIFOs written in place (report) or
# refused (run, merge), an input never overwritten; and a lost standard
# output is an error in every command.
. "${PC_SRCDIR}/tests/lib.sh"

fix="$PC_SRCDIR/tests/fixtures/result.json"
cd "$pc_tmp" || exit 1
cp "$fix" a.json

# 1. report -o: never over its own input, through a link to its target.
pc report -o a.json a.json
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'also the input' err &&
	cmp -s a.json "$fix"; echo $?) "report -o INPUT INPUT is refused, the input kept"
pc report -o a.json a.json@latest
ok $(test $pc_rc -eq 2 && cmp -s a.json "$fix"; echo $?) \
	"report -o INPUT INPUT@latest is refused too"
ln -s page.html l.html
pc report -o l.html a.json
ok $(test $pc_rc -eq 0 && test -L l.html && grep -q '<html' page.html; echo $?) \
	"report -o LINK writes the link's target and keeps the link"
ln -s a.json la.json
pc report -o la.json a.json
ok $(test $pc_rc -eq 2 && cmp -s a.json "$fix"; echo $?) \
	"report -o LINK-TO-INPUT is refused"
mkfifo fifo
(cat fifo >fifo.out) &
reader=$!
pc report -o fifo a.json
wait $reader
ok $(test $pc_rc -eq 0 && test -p fifo && grep -q '<html' fifo.out; echo $?) \
	"report -o FIFO writes into the FIFO, which stays a FIFO"
$PRIMCOST report -o /dev/stdout a.json 2>err | cat >piped.html
ok $(grep -q '</html>' piped.html && test ! -s err; echo $?) \
	"report -o /dev/stdout into a pipe writes the page into the pipe"
pc merge -o fifo a.json
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'not a regular file' err &&
	test -p fifo; echo $?) "merge -o FIFO is refused with its reason"

# 2. The temporary file is not a predictable name: a planted link is not
# followed.
echo victim >victim.txt
sh -c 'ln -s victim.txt out.html.tmp$$; ln -s victim.txt out.html.tmp.$$;
	exec $PRIMCOST report -o out.html a.json' >out 2>err
ok $(test $? -eq 0 && test "$(cat victim.txt)" = victim && grep -q '<html' out.html; echo $?) \
	"report's temporary file does not follow a planted link"
ok $(test -z "$(ls | grep 'out.html.tmp\.[A-Za-z0-9]\{6\}$')"; echo $?) \
	"no temporary file is left behind"

# 3. Mode, owner and the umask.
cp a.json m.json
chmod 640 m.json
pc merge -o m.json a.json
ok $(test $pc_rc -eq 0 && test "$(stat -c %a m.json)" = 640; echo $?) \
	"merge -o keeps the mode of the file it replaces (640)"
cp page.html p.html
chmod 600 p.html
pc report -o p.html a.json
ok $(test $pc_rc -eq 0 && test "$(stat -c %a p.html)" = 600; echo $?) \
	"report -o keeps the mode of the file it replaces (600)"
(umask 077 && $PRIMCOST merge -o new.json a.json >out 2>err)
ok $(test "$(stat -c %a new.json)" = 600; echo $?) "merge -o under umask 077 makes a 600 file"
(umask 027 && $PRIMCOST report -o new.html a.json >out 2>err)
ok $(test "$(stat -c %a new.html)" = 640; echo $?) "report -o under umask 027 makes a 640 file"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	cp a.json o.json
	chown nobody o.json
	chmod 640 o.json
	pc merge -o o.json a.json
	ok $(test $pc_rc -eq 0 && test "$(stat -c %U:%a o.json)" = nobody:640; echo $?) \
		"merge -o as root keeps the owner of the file it replaces"
else
	skip "not root, or no user nobody: the owner cannot be given away" \
		"merge -o as root keeps the owner of the file it replaces"
fi

# Devices, only in a private mount namespace with a /dev of its own.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c '
		mount -t tmpfs pc-dev /dev || exit 3
		mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 || exit 3
		$PRIMCOST report -o /dev/null "$1" >/dev/null 2>&1 || exit 4
		test -c /dev/null || exit 5
		$PRIMCOST report -o /dev/full "$1" 2>"$2/full.err" >/dev/null && exit 6
		test -c /dev/full || exit 7
		$PRIMCOST merge -o /dev/null "$1" >/dev/null 2>&1 && exit 8
		test -c /dev/null || exit 9
		exit 0' sh "$pc_tmp/a.json" "$pc_tmp"
	st=$?
	if [ $st -eq 3 ]; then
		for d in "report -o /dev/null leaves a device" "report -o /dev/full fails"; do
			skip "cannot mount a tmpfs on /dev in a private namespace" "$d"
		done
	else
		ok $(test $st -eq 0 -o $st -gt 5; echo $?) \
			"report -o /dev/null writes into the device, which stays a device ($st)"
		ok $(test $st -eq 0 && grep -q 'No space left' full.err; echo $?) \
			"report -o /dev/full fails with its reason; merge -o DEVICE is refused ($st)"
	fi
else
	for d in "report -o /dev/null leaves a device" "report -o /dev/full fails"; do
		skip "unshare -m is not possible here (not root, or no namespaces)" "$d"
	done
fi

# 4. Writers take turns even when the lock file is removed under them:
# 8 merges of a CPU each into one file, while its lock file is deleted
# over and over, keep all 8.
"$PYTHON3" - "$fix" lk <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(key, entry), = list(d["cpus"].items())[:1]
big = {"schema": d["schema"], "cpus": {}}
for i in range(300):	# a file that takes a while to write
    big["cpus"]["%s-base%d" % (key, i)] = entry
json.dump(big, open(sys.argv[2] + "-out.json", "w"))
for i in range(8):
    json.dump({"schema": d["schema"], "cpus": {"%s-w%d" % (key, i): entry}},
              open("%s-%d.json" % (sys.argv[2], i), "w"))
PY
# merge_one I: merges lk-I.json into $lk_out.
merge_one() { $PRIMCOST merge -q -o "$lk_out" "lk-$1.json" 2>"lk-$1.err"; }
# eight_writers OUT: 8 merges into OUT at once while a loop deletes OUT's
# lock file; sets failed (how many exited non-zero) and kept (how many of
# the 8 CPUs OUT holds).
eight_writers() {
	rm -f lk-stop
	(while [ ! -e lk-stop ]; do rm -f ".$1.lock"; done) &
	deleter=$!
	lk_out=$1
	all_at_once merge_one 0 1 2 3 4 5 6 7
	touch lk-stop
	wait $deleter
	kept=$("$PYTHON3" -c 'import json, sys; print(sum(k.split("-")[-1].startswith("w") for k in json.load(open(sys.argv[1]))["cpus"]))' "$1")
}
eight_writers lk-out.json
ok $(test $failed -eq 0 && test "$kept" -eq 8; echo $?) \
	"8 writers while the lock file is removed: all exit 0, all 8 kept ($kept kept, $failed failed)"
# The same into a file that does not exist yet: the first ones race to
# make it.
eight_writers lk-new.json
ok $(test $failed -eq 0 && test "$kept" -eq 8; echo $?) \
	"8 writers make a new file while its lock file is removed: all 8 kept ($kept kept, $failed failed)"

# term_while_writing PID GLOB: sends PID SIGTERM once a file matching GLOB
# (its temporary file, the sign that it writes) exists, polling rather than
# sleeping; sets seen (yes, or no when PID ended first) and st (its exit
# status).
term_while_writing() {
	seen=no
	while kill -0 "$1" 2>/dev/null; do
		if ls $2 >/dev/null 2>&1; then
			kill -s TERM "$1"
			seen=yes
			break
		fi
	done
	wait "$1"
	st=$?
}

# 8. A signal that comes while the result is written takes effect after
# the rename: the run is saved and run exits 128 + 15.
"$PYTHON3" - "$fix" sig.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(key, entry), = list(d["cpus"].items())[:1]
big = {"schema": d["schema"], "cpus": {}}
for i in range(4000):	# about 30 MB: the write takes a while
    big["cpus"]["%s-base%d" % (key, i)] = entry
json.dump(big, open(sys.argv[2], "w"))
PY
before=$(wc -c <sig.json)
$PRIMCOST run -q -p baseline -n 9 --ring0 none -o sig.json >sig.out 2>sig.err &
term_while_writing $! 'sig.json.tmp.*'
if [ $seen = yes ]; then
	ok $(test $st -eq 143 && test "$(wc -c <sig.json)" -gt "$before" &&
		grep -q 'interrupted by SIGTERM after the run was saved' sig.err &&
		test -z "$(ls | grep 'sig.json.tmp')"; echo $?) \
		"SIGTERM while run writes: the run saved, then exit 143 ($st)"
else
	skip "the write ended before its temporary file was seen" \
		"SIGTERM while run writes: the run saved, then exit 143"
fi

# A signal that ends report while its temporary file exists removes it:
# the old page kept whole, no temporary file left, the signal's exit.
cp page.html keep.html
cp page.html sigpage.html
$PRIMCOST report -o sigpage.html sig.json sig.json >/dev/null 2>&1 &
term_while_writing $! 'sigpage.html.tmp.*'
if [ $seen = yes ]; then
	ok $(test $st -eq 143 && cmp -s sigpage.html keep.html &&
		test -z "$(ls | grep 'sigpage.html.tmp')"; echo $?) \
		"SIGTERM while report works: the old page kept, no temporary file left, exit 143 ($st)"
else
	skip "the report ended before its temporary file was seen" \
		"SIGTERM while report works: the old page kept, no temporary file left"
fi

# 9. What can fail at writing is refused before measuring.
long=$(printf 'x%.0s' $(seq 1 246)).json
pc run -p baseline -o "$long"
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'file name too long' err &&
	! grep -q 'cycles' out; echo $?) "run -o NAME of 251 bytes is refused before measuring"
big=$(printf 'baseline,%.0s' $(seq 1 600))baseline
pc run -n 9 -p "$big" -o big.json
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'a list of 5408 bytes' err &&
	! grep -q 'cycles' out && test ! -e big.json; echo $?) \
	"run -p LIST of 5 KB (more than a result holds) is refused before measuring"
pc run -p baseline -o fifo
ok $(test $pc_rc -eq 2 && one_line_error && grep -q 'not a regular file' err &&
	! grep -q 'cycles' out; echo $?) "run -o FIFO is refused before measuring"

# 5. A lost standard output is an error in every command.
for c in "list" "list --runs $fix" "info" "help" "version" "--help" \
	"compare $fix $fix" "report -o - $fix" "merge -o - $fix"; do
	# shellcheck disable=SC2086
	$PRIMCOST $c >/dev/full 2>err
	st=$?
	ok $(test $st -eq 2 && one_line_error; echo $?) "$c into /dev/full: exit 2, one line"
	# shellcheck disable=SC2086
	$PRIMCOST $c >&- 2>err
	st=$?
	ok $(test $st -eq 2 && one_line_error; echo $?) "$c into a closed stdout: exit 2, one line"
done

done_testing
