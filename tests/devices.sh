#!/bin/sh
# devices.sh - --devices LIST|all: a run's cases spread over several GPUs,
# and tune over several GPUs, one conform each.  CI has no GPU: the worker's
# CONFORM_TEST_DEVICES=2 makes it greet as one of two pretend devices, on
# which the host-side harness kernels run.
#   - run --devices all: the same statuses, in the same order, as on one
#     device; results stored with both devices, each tagged in the JSON
#     lines, the summary listing the devices, the JUnit report valid;
#   - hangs on two devices run out their deadlines side by side even with
#     one lane a device;
#   - tune --devices all: a run per device, each device's best, CSV's
#     header once with every row naming its device; Ctrl-C stops them all;
#   - a device that is not there, a malformed list, --device with
#     --devices: one line, exit 2.
. "$(dirname "$0")/lib.sh"
SQLITE3=${SQLITE3:-sqlite3}
PYTHON=${PYTHON:-python3}
cat >"$TMP/dev.suite" <<'SUITE'
case d.pass.{dtype}   variant=harness.pass  dtype=f32|f64|i32  n=100003
case d.hang1          variant=harness.hang  n=1 expect=hang
case d.wrong          variant=harness.wrong dtype=i32 n=1000 expect=fail
case d.hang2          variant=harness.hang  n=1 expect=hang
case d.crash          variant=harness.crash n=1 expect=crash
case d.hang3          variant=harness.hang  n=1 expect=hang
case d.hang4          variant=harness.hang  n=1 expect=hang
case d.after          variant=harness.pass  dtype=i32 n=4096
SUITE
export CONFORM_TEST_DEVICES=2

# spread NAME ARGS...: the run, its wall time in $TMP/wall.NAME, its
# console statuses and stored results.
spread() {
	name=$1; shift
	start=$(date +%s.%N)
	expect_exit 0 "run $name" -- "$CONFORM" --suite "$TMP/dev.suite" --all --jobs 1 --seed 5 \
		--hang-timeout 1 --db "$TMP/$name.db" -v --json --junit "$TMP/$name.xml" "$@"
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.2f\n", $2 - $1 }' >"$TMP/wall.$name"
	cp "$TMP/out" "$TMP/out.$name"
	cp "$TMP/err" "$TMP/err.$name"
	grep -E '^(PASS|XFAIL|FAIL|TIMEOUT|CRASH|ERROR|SKIP|XPASS) ' "$TMP/err" | cut -d' ' -f1-5 |
		sed 's/ *$//; s/ \[device [0-9]*\]$//' >"$TMP/console.$name"
	"$SQLITE3" "$TMP/$name.db" "SELECT case_name || ' ' || status || ' ' || seed FROM results ORDER BY id" >"$TMP/db.$name"
}
spread one --devices 0
spread two --devices all
for what in console db; do
	checks=$((checks + 1))
	cmp -s "$TMP/$what.one" "$TMP/$what.two" || { fail "$what: --devices all differs from --devices 0"; diff "$TMP/$what.one" "$TMP/$what.two" | head -n 6 >&2; }
done
expect_eq "$(wc -l <"$TMP/db.two" | tr -d ' ')" 10 "every case stored"
expect_grep "$TMP/err.two" "^10 cases over 2 devices, seed 5$" "the console names the spread"
expect_exit 0 "one case over two devices" -- "$CONFORM" --suite "$TMP/dev.suite" --filter d.after --devices all \
	--db "$TMP/one-case.db"
expect_grep "$TMP/out" "^1 case over 2 devices, seed" "one case is 'case', not 'cases'"
expect_grep "$TMP/err.two" "^device 1: conform test device 1 " "the console names device 1"
expect_grep "$TMP/err.two" "^PASS +d.after .*\[device [01]\]$" "a result line names its device"
expect_eq "$("$SQLITE3" "$TMP/two.db" "SELECT count(DISTINCT device_id) FROM results")" 2 "results stored with two devices"
expect_eq "$("$SQLITE3" "$TMP/two.db" "SELECT group_concat(name, ',') FROM (SELECT DISTINCT d.name FROM results r JOIN devices d ON d.id = r.device_id ORDER BY d.name)")" \
	"conform test device 0,conform test device 1" "the devices stored"
expect_eq "$("$SQLITE3" "$TMP/one.db" "SELECT count(DISTINCT device_id) FROM results")" 1 "--devices 0: one device"
expect_eq "$("$SQLITE3" "$TMP/two.db" "SELECT count(*) FROM runs")" 1 "one run"
# Four hangs of 1 s: one after another on one device's lane, two at a time
# on two devices.
checks=$((checks + 1))
awk -v a="$(cat "$TMP/wall.one")" -v b="$(cat "$TMP/wall.two")" 'BEGIN { exit !(a >= 4.0 && b <= 3.2) }' ||
	fail "hangs not spread: --devices 0 took $(cat "$TMP/wall.one") s, --devices all $(cat "$TMP/wall.two") s"

if "$PYTHON" -c 'import json' 2>/dev/null; then
	checks=$((checks + 1))
	"$PYTHON" - "$TMP/out.two" "$TMP/two.db" <<'PY' || fail "JSON lines of a run over two devices"
import json, sqlite3, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
results, summary = lines[:-1], lines[-1]["summary"]
assert {r["device"] for r in results} == {0, 1}, {r["device"] for r in results}
assert [d["index"] for d in summary["devices"]] == [0, 1], summary["devices"]
assert summary["devices"][1]["name"] == "conform test device 1"
# each line's device is the one its result was stored with
db = sqlite3.connect(sys.argv[2])
stored = dict(db.execute("SELECT r.case_name, d.name FROM results r JOIN devices d ON d.id = r.device_id"))
for r in results:
    assert stored[r["case"]] == "conform test device %d" % r["device"], (r["case"], stored[r["case"]])
PY
fi
if command -v "${XMLLINT:-xmllint}" >/dev/null 2>&1; then
	checks=$((checks + 1))
	"${XMLLINT:-xmllint}" --noout --schema "$top_srcdir/tests/data/junit-10.xsd" "$TMP/two.xml" 2>"$TMP/xsd" ||
		{ fail "JUnit of a run over two devices is not valid"; sed 's/^/  | /' "$TMP/xsd" >&2; }
	expect_grep "$TMP/two.xml" 'property name="devices" value="0: conform test device 0, 1: conform test device 1"' "JUnit names the devices"
fi

# The progress line (drawn on a terminal only: script(1) lends one) shows
# each device's case in flight and its watchdog.
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "\"$CONFORM\" --suite \"$TMP/dev.suite\" --all --jobs 1 --seed 5 --hang-timeout 1 --db \"$TMP/tty.db\" --devices all >/dev/null" \
		/dev/null >"$TMP/tty" 2>&1
	tr '\r' '\n' <"$TMP/tty" >"$TMP/tty.lines"
	expect_grep "$TMP/tty.lines" '\| 0: d\.hang[1-4] \([0-9.]+s\) \| 1: ' "progress: device 0's hang and its watchdog"
	expect_grep "$TMP/tty.lines" '\| 1: d\.hang[1-4] \([0-9.]+s\)' "progress: device 1's hang and its watchdog"
else
	echo "script(1) not found: the progress line is not tested"
fi

# tune over both devices: a run and a best configuration per device.
FAST="--min-samples 3 --max-noise 0.05 --max-time 0.01 --timeout 5 --strategy random --budget 4"
expect_exit 0 "tune --devices all" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST \
	--db "$TMP/t.db" --csv --devices all
expect_eq "$(grep -c '^n,dtype,' "$TMP/out")" 1 "CSV: one header"
# With --csv each tune's summary goes to stderr: passed on, line by line,
# each line prefixed with its device.
expect_grep "$TMP/err" "^\[device 0\] [0-9]+ passed, 0 failed" "device 0's summary, prefixed"
expect_grep "$TMP/err" "^\[device 1\] [0-9]+ passed, 0 failed" "device 1's summary, prefixed"
expect_no_grep "$TMP/err" "^[^[]" "every stderr line prefixed"
# device is the last column but the ten energy ones after it (a
# configuration's quoted commas come before it: count from the end).
expect_eq "$(awk -F, 'NR == 1 { print $(NF - 10) }' "$TMP/out")" device "CSV: the device column before the energy ones"
expect_eq "$(awk -F, 'NR > 1 { print $(NF - 10) }' "$TMP/out" | sort -u | tr '\n' ' ')" "0 1 " "CSV: rows of both devices"
expect_eq "$("$SQLITE3" "$TMP/t.db" "SELECT group_concat(x, ',') FROM (SELECT kind || ':' || d.name AS x FROM runs r JOIN devices d ON d.id = r.device_id ORDER BY d.name)")" \
	"tune:conform test device 0,tune:conform test device 1" "a tune run per device"
expect_grep "$("$SQLITE3" "$TMP/t.db" "SELECT command_line FROM runs WHERE id = 1" >"$TMP/cl"; echo "$TMP/cl")" \
	"--device [01]" "a device's run records --device"
expect_no_grep "$TMP/cl" "--devices" "a device's run does not record --devices"
expect_exit 0 "best per device" -- "$CONFORM" best harness.spin --n 2^16 --dtype f32 --db "$TMP/t.db" --csv
expect_eq "$(tail -n +2 "$TMP/out" | wc -l | tr -d ' ')" 2 "best: one row per device"
# Ctrl-C: both tunes stop, interrupted, and conform exits 130.
"$CONFORM" tune harness.spin --n 2^16 --dtype f32 --min-samples 1000 --max-time 2 --timeout 5 \
	--strategy exhaustive --db "$TMP/int.db" --devices all >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
# Once both have begun their runs (and measured a little), Ctrl-C.
for i in $(seq 50); do
	[ "$("$SQLITE3" "$TMP/int.db" "SELECT count(*) FROM results" 2>/dev/null)" -ge 4 ] 2>/dev/null &&
		[ "$("$SQLITE3" "$TMP/int.db" "SELECT count(DISTINCT run_id) FROM results" 2>/dev/null)" -eq 2 ] 2>/dev/null && break
	sleep 0.2
done
kill -INT "$pid"
wait "$pid"
expect_eq "$?" 130 "tune Ctrl-C: exit 130"
expect_eq "$("$SQLITE3" "$TMP/int.db" "SELECT group_concat(state, ',') FROM runs")" "interrupted,interrupted" "both tunes interrupted"

# --devices given again and again, as --devices=X: the last one counts,
# and each child's arguments hold every word (one became two).
expect_exit 0 "tune --devices= four times" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST \
	--db "$TMP/t4.db" --devices=0 --devices=1 --devices=0 --devices=0,1
expect_eq "$("$SQLITE3" "$TMP/t4.db" "SELECT count(*) FROM runs")" 2 "the last --devices= counts"

# The first device named is not there, a later one is: the first is the
# mistake (before, the run went on without a GPU).
one_line_exit2 "run: the first device not there" "$CONFORM" --suite "$TMP/dev.suite" --all --devices 2,0 --db "$TMP/x.db"
expect_grep "$TMP/err" "device 2" "names the first device"
# No GPU at all (no pretend devices): a list runs as its first device, the
# GPU cases skipped, as --device 0 would.
expect_exit 0 "run: --devices 0,1 without a GPU" -- env -u CONFORM_TEST_DEVICES "$CONFORM" --suite "$TMP/dev.suite" \
	--all --devices 0,1 --hang-timeout 1 --db "$TMP/nogpu.db"
expect_grep "$TMP/out" "^no GPU: " "without a GPU: said"

# Bad input: one line, exit 2.
one_line_exit2 "run: a device not there" "$CONFORM" --suite "$TMP/dev.suite" --all --devices 0,2 --db "$TMP/x.db"
expect_grep "$TMP/err" "device 2" "names the device"
one_line_exit2 "run: a device twice" "$CONFORM" --suite "$TMP/dev.suite" --all --devices 0,1,0 --db "$TMP/x.db"
one_line_exit2 "run: malformed" "$CONFORM" --suite "$TMP/dev.suite" --all --devices 0,,1 --db "$TMP/x.db"
one_line_exit2 "run: empty range" "$CONFORM" --suite "$TMP/dev.suite" --all --devices 1-0 --db "$TMP/x.db"
one_line_exit2 "run: --device too" "$CONFORM" --suite "$TMP/dev.suite" --all --device 1 --devices 0 --db "$TMP/x.db"
one_line_exit2 "tune: --device too" "$CONFORM" tune harness.spin --n 2^16 --dtype f32 --devices all --device 0 --db "$TMP/x.db"
one_line_exit2 "tune: malformed" "$CONFORM" tune harness.spin --n 2^16 --dtype f32 --devices x --db "$TMP/x.db"

finish
