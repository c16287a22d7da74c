#!/bin/sh
# jobs.sh - run --jobs N: cases on N workers at once, reported in order.
# Four expected hangs and a crash among passing cases: the same statuses
# in the same order, to the console, the database and the summary, as with
# one worker, while the hangs run out their deadlines side by side; Ctrl-C
# stops a run of several lanes as one (exit 130, the results stored are the
# first cases' in order); bad values are one line and exit 2.
. "$(dirname "$0")/lib.sh"
SQLITE3=${SQLITE3:-sqlite3}
cat >"$TMP/lanes.suite" <<'SUITE'
case l.pass.{dtype}   variant=harness.pass  dtype=f32|f64|i32  n=100003
case l.hang1          variant=harness.hang  n=1 expect=hang
case l.hang2          variant=harness.hang  n=1 expect=hang
case l.wrong          variant=harness.wrong dtype=i32 n=1000 expect=fail
case l.hang3          variant=harness.hang  n=1 expect=hang
case l.crash          variant=harness.crash n=1 expect=crash
case l.hang4          variant=harness.hang  n=1 expect=hang
case l.after          variant=harness.pass  dtype=i32 n=4096
SUITE

# lanes N: the run with --jobs N; its wall time in $TMP/wall.N.
lanes() {
	start=$(date +%s.%N)
	expect_exit 0 "--jobs $1" -- "$CONFORM" --suite "$TMP/lanes.suite" --all --jobs "$1" --seed 3 \
		--hang-timeout 1 --db "$TMP/j$1.db" -v --json
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.2f\n", $2 - $1 }' >"$TMP/wall.$1"
	cp "$TMP/out" "$TMP/out.$1"
	grep -E '^(PASS|XFAIL|FAIL|TIMEOUT|CRASH|ERROR|SKIP|XPASS) ' "$TMP/err" | cut -d' ' -f1-5 | sed 's/ *$//' >"$TMP/console.$1"
	"$SQLITE3" "$TMP/j$1.db" "SELECT case_name || ' ' || status || ' ' || seed FROM results ORDER BY id" >"$TMP/db.$1"
}
lanes 1
lanes 4
for what in console db; do
	checks=$((checks + 1))
	cmp -s "$TMP/$what.1" "$TMP/$what.4" || { fail "$what: --jobs 4 differs from --jobs 1"; diff "$TMP/$what.1" "$TMP/$what.4" | head -n 6 >&2; }
done
expect_eq "$(wc -l <"$TMP/db.4" | tr -d ' ')" 10 "every case stored"
expect_eq "$(cut -d' ' -f1 "$TMP/db.4" | tr '\n' ' ')" \
	"l.pass.f32 l.pass.f64 l.pass.i32 l.hang1 l.hang2 l.wrong l.hang3 l.crash l.hang4 l.after " "in list order"
# A crash beside hangs is read when it ends, not when the hangs do: a lane
# polled without waiting still reads what its worker said (a zero wait once
# saw only a timeout, so the crash waited out its deadline as a TIMEOUT).
crash_ms=$("$SQLITE3" "$TMP/j4.db" "SELECT CAST(duration_ms AS INTEGER) FROM results WHERE case_name = 'l.crash'")
checks=$((checks + 1))
[ "${crash_ms:-9999}" -lt 500 ] || fail "l.crash beside the hangs took $crash_ms ms"
expect_eq "$(sed -n 's/.*"passed":\([0-9]*\),"failed":\([0-9]*\).*/\1 \2/p' "$TMP/out.4" | tail -n 1)" "10 0" "the summary's counts"
# Four hangs of 1 s: one after another with one lane, side by side with four.
checks=$((checks + 1))
awk -v a="$(cat "$TMP/wall.1")" -v b="$(cat "$TMP/wall.4")" 'BEGIN { exit !(a >= 4.0 && b <= 3.0) }' ||
	fail "hangs not side by side: --jobs 1 took $(cat "$TMP/wall.1") s, --jobs 4 $(cat "$TMP/wall.4") s"

# Hangs far apart in the list (more than a few dozen cases between them)
# still run out their deadlines together: the window is the run.  With a
# 64-case window each hang held the run up for its deadline in turn.
: >"$TMP/far.suite"
for h in 1 2 3 4; do
	echo "case far.hang$h variant=harness.hang n=1 expect=hang" >>"$TMP/far.suite"
	for k in $(seq 100); do
		echo "case far.pass$h.$k variant=harness.pass dtype=i32 n=64" >>"$TMP/far.suite"
	done
done
start=$(date +%s.%N)
expect_exit 0 "hangs far apart" -- "$CONFORM" --suite "$TMP/far.suite" --all --jobs 4 --seed 3 \
	--hang-timeout 1 --db "$TMP/far.db"
far=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.2f\n", $2 - $1 }')
checks=$((checks + 1))
awk -v t="$far" 'BEGIN { exit !(t <= 3.0) }' || fail "hangs far apart held the run up: $far s"

# A fresh worker's start does not hold the other lanes up, and a device
# runs up to eight cases that may hang at once whatever --jobs (above 1).
# Every worker here greets 0.5 s after it starts (CONFORM_TEST_START_S, as
# a GPU's CUDA start takes tenths of a second): eight hangs of 1 s and a
# crash among 60 passing cases, with --jobs 2, take two lanes' starts, one
# round of deadlines and a second start for the ninth (about 3 s).  With
# each start waited for in turn and two lanes for the hangs, 7.6 s.
: >"$TMP/slow.suite"
for h in 1 2 3 4 5 6 7 8; do
	echo "case slow.hang$h variant=harness.hang n=1 expect=hang" >>"$TMP/slow.suite"
done
echo "case slow.crash variant=harness.crash n=1 expect=crash" >>"$TMP/slow.suite"
for k in $(seq 60); do
	echo "case slow.pass$k variant=harness.pass dtype=i32 n=4096" >>"$TMP/slow.suite"
done
start=$(date +%s.%N)
expect_exit 0 "slow starts" -- env CONFORM_TEST_START_S=0.5 "$CONFORM" --suite "$TMP/slow.suite" --all --jobs 2 \
	--seed 3 --hang-timeout 1 --db "$TMP/slow.db"
slow=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.2f\n", $2 - $1 }')
expect_eq "$("$SQLITE3" "$TMP/slow.db" "SELECT status, count(*) FROM results GROUP BY status ORDER BY status" | tr '\n' ' ')" \
	"PASS|60 XFAIL|9 " "slow starts: the statuses"
checks=$((checks + 1))
awk -v t="$slow" 'BEGIN { exit !(t <= 5.0) }' || fail "slow starts held the run up: $slow s"

# A lane whose worker cannot start (the GPU out of memory for another
# context, say) retires and its case goes to another lane: every case
# still passes.  Through a worker that starts once (the first, the
# session's own; and the catalog query), then fails to.  Before, each case
# given to such a lane was an ERROR ("cannot start a worker").
cat >"$TMP/once.sh" <<EOF
#!/bin/sh
case " \$* " in *" --catalog "*) exec "$top_builddir/conform-worker" "\$@" ;; esac
mkdir "$TMP/once.lock" 2>/dev/null && exec "$top_builddir/conform-worker" "\$@"
exit 1
EOF
chmod +x "$TMP/once.sh"
: >"$TMP/once.suite"
for k in $(seq 30); do
	echo "case once.pass$k variant=harness.pass dtype=i32 n=4096" >>"$TMP/once.suite"
done
expect_exit 0 "lanes that cannot start" -- env CONFORM_WORKER="$TMP/once.sh" "$CONFORM" --suite "$TMP/once.suite" \
	--all --jobs 3 --seed 3 --db "$TMP/once.db"
expect_eq "$("$SQLITE3" "$TMP/once.db" "SELECT status, count(*) FROM results GROUP BY status")" "PASS|30" \
	"lanes that cannot start: every case on the lane that did"

# Ctrl-C in the middle: exit 130, the run interrupted, its stored results
# the first cases of the list, in order.
"$CONFORM" --suite "$TMP/lanes.suite" --all --jobs 4 --seed 3 --hang-timeout 5 --db "$TMP/int.db" \
	>"$TMP/int.out" 2>&1 &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
expect_eq "$?" 130 "Ctrl-C: exit 130"
expect_eq "$("$SQLITE3" "$TMP/int.db" "SELECT state FROM runs")" "interrupted" "the run is interrupted"
stored=$("$SQLITE3" "$TMP/int.db" "SELECT group_concat(case_name, ' ') FROM (SELECT case_name FROM results ORDER BY id)")
checks=$((checks + 1))
case "l.pass.f32 l.pass.f64 l.pass.i32 l.hang1 l.hang2 l.wrong l.hang3 l.crash l.hang4 l.after" in
"$stored"*) ;;
*) fail "stored after Ctrl-C: '$stored', not a prefix of the list" ;;
esac

one_line_exit2 "--jobs 0" "$CONFORM" --suite "$TMP/lanes.suite" --all --jobs 0 --db "$TMP/x.db"
one_line_exit2 "--jobs 17" "$CONFORM" --suite "$TMP/lanes.suite" --all --jobs 17 --db "$TMP/x.db"
one_line_exit2 "--jobs x" "$CONFORM" --suite "$TMP/lanes.suite" --all --jobs x --db "$TMP/x.db"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
