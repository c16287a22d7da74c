#!/bin/sh
# watchdog.sh - the runner's isolation, without a GPU: a hang is killed at
# its deadline and the run goes on, a crash is recorded and the next case
# runs in a new worker, Ctrl-C and kill -9 keep what was stored.
. "$(dirname "$0")/lib.sh"

# expect_no_worker_left WPIDS WHAT: none of the worker PIDs (conform's
# children, one per line: the shared worker and a case's own) is still a
# live process.  A zombie does not count: it is dead, waiting for init.
expect_no_worker_left() {
	checks=$((checks + 1))
	[ -n "$1" ] || { fail "$2: no worker was seen running"; return; }
	for w in $1; do
		st=$(ps -o stat= -p "$w" 2>/dev/null)
		case "$st" in
		"" | Z*) ;;
		*) fail "$2: worker $w left behind ($st)" ;;
		esac
	done
}

# A hang that was not expected is a TIMEOUT, within the deadline plus 1 s,
# and the case after it still runs.  A crash not expected is a CRASH.
cat >"$TMP/mixed.suite" <<'SUITE'
case t.hang    variant=harness.hang n=1 timeout=1
case t.after   variant=harness.pass n=100 dtype=i32
case t.crash   variant=harness.crash n=1
case t.after2  variant=harness.pass n=100 dtype=f64
case t.wrong   variant=harness.wrong n=100 dtype=i32
case t.big     variant=harness.pass n=2^25
SUITE
db="$TMP/mixed.db"
start=$(date +%s.%N)
expect_exit 1 "unexpected results" -- "$CONFORM" --suite "$TMP/mixed.suite" --all --db "$db" --seed 7
end=$(date +%s.%N)
expect_grep "$TMP/out" "^TIMEOUT t.hang: no result within 1.0 s" "unexpected hang is TIMEOUT"
# Under AddressSanitizer the worker reports the SEGV itself and exits 1.
expect_grep "$TMP/out" "^CRASH   t.crash: worker (killed by signal 11|exited with status 1)" "crash is CRASH"
expect_grep "$TMP/out" "^FAIL    t.wrong: 1 of 1 outputs wrong" "wrong result is FAIL"
expect_grep "$TMP/out" "^ERROR   t.big: launch contract violated" "contract violation is ERROR"
expect_eq "$(tail -n 1 "$TMP/out")" "2 passed, 4 failed, 0 skipped" "summary"
expect_eq "$(sql "$db" "select group_concat(case_name||'='||status, ' ') from (select * from results order by id)")" \
	"t.hang=TIMEOUT t.after=PASS t.crash=CRASH t.after2=PASS t.wrong=FAIL t.big=ERROR" "stored in order"
hang_ms=$(sql "$db" "select duration_ms from results where case_name='t.hang'")
awk -v ms="$hang_ms" 'BEGIN { exit !(ms >= 1000 && ms < 2000) }' || fail "hang took $hang_ms ms, want 1000..2000"
awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a < 10) }' || fail "mixed run took too long"

# Expected hangs end within --hang-timeout + 1 s each.
cat >"$TMP/hangs.suite" <<'SUITE'
case h.one   variant=harness.hang n=1 expect=hang
case h.two   variant=harness.hang n=1 expect=hang
case h.three variant=harness.hang n=1 expect=hang
case h.ok    variant=harness.pass n=10 dtype=i32
SUITE
db="$TMP/hangs.db"
expect_exit 0 "expected hangs" -- "$CONFORM" --suite "$TMP/hangs.suite" --all --db "$db" --hang-timeout 0.5
expect_eq "$(sql "$db" "select count(*) from results where status='XFAIL' and duration_ms < 1500")" 3 "each hang within deadline + 1 s"
expect_eq "$(sql "$db" "select status from results where case_name='h.ok'")" PASS "case after hangs runs"

# Ctrl-C: workers killed, results so far committed, the run marked interrupted.
db="$TMP/int.db"
"$CONFORM" --suite "$TMP/hangs.suite" --all --db "$db" --hang-timeout 5 >"$TMP/int.out" 2>&1 &
pid=$!
sleep 1
wpid=$(pgrep -P $pid)
kill -INT $pid
wait $pid
rc=$?
expect_eq "$rc" 130 "Ctrl-C exit code"
expect_eq "$(sql "$db" "select state from runs")" interrupted "run marked interrupted"
expect_eq "$(sql "$db" "select count(*) from results")" 0 "the case in flight is not recorded"
expect_no_worker_left "$wpid" "Ctrl-C"

# kill -9 of conform: what was committed stays; the worker dies with it.
cat >"$TMP/slow.suite" <<'SUITE'
case k.one  variant=harness.pass n=10 dtype=i32
case k.two  variant=harness.pass n=10 dtype=i32
case k.hang variant=harness.hang n=1 expect=hang
SUITE
db="$TMP/kill.db"
"$CONFORM" --suite "$TMP/slow.suite" --all --db "$db" --hang-timeout 30 >/dev/null 2>&1 &
pid=$!
sleep 1.5
wpid=$(pgrep -P $pid)
kill -9 $pid
wait $pid 2>/dev/null
sleep 0.3
expect_eq "$(sql "$db" "select count(*) from results")" 2 "results before kill -9 kept"
expect_eq "$(sql "$db" "pragma integrity_check")" ok "database intact after kill -9"
expect_no_worker_left "$wpid" "kill -9 of conform"
finish
