#!/bin/sh
# db.sh - the database under bad conditions, from the command line: a
# damaged file, a path SQLite cannot take, a schema version no conform
# writes, a read-only file: each is one line on stderr and exit 2, and the
# file is left exactly as it was, with nothing new beside it.  And another
# process holding the lock longer than DB_BUSY_TIMEOUT_MS (5 s): the run
# waits it out, says so, and loses nothing.  And a write that fails for
# good: the run is marked aborted, keeping every result stored before.
. "$(dirname "$0")/lib.sh"

# expect_untouched FILE COPY WHAT: FILE is byte for byte COPY, with no
# -wal or -shm beside it.
expect_untouched() {
	checks=$((checks + 1))
	cmp -s "$1" "$2" || fail "$3: the database was written"
	for side in -wal -shm -journal; do
		[ ! -e "$1$side" ] || fail "$3: $side left beside the database"
	done
}

# damage FILE TABLE: overwrites 300 bytes, 1000 bytes before the end of
# the root page of TABLE, with 'A's: the rows there stop making sense
# while the page header still parses.
damage() {
	root=$(sql "$1" "select rootpage from sqlite_master where name = '$2'")
	page=$(sql "$1" "pragma page_size")
	printf '%300s' '' | tr ' ' A |
		dd of="$1" bs=1 seek=$((root * page - 1000)) conv=notrunc 2>/dev/null
}

# A damaged database is refused by a run and by db info, and not written.
db="$TMP/damaged.db"
expect_exit 0 "first run" -- "$CONFORM" --filter 'harness.pass.*' --seed 1 --db "$db"
expect_exit 0 "second run" -- "$CONFORM" --filter 'harness.pass.*' --seed 2 --db "$db"
damage "$db" results
[ "$(sql "$db" "pragma quick_check")" != ok ] || fail "the planted damage is not seen by quick_check"
cp "$db" "$TMP/damaged.orig"
# expect_damaged_refused WHAT -- command...: exit 2 with the one line that
# says the database is damaged and what to do, and the file not written.
expect_damaged_refused() {
	what=$2
	expect_exit "$@"
	expect_grep "$TMP/err" "^conform: $db: damaged database \(On tree page [0-9]+ .*\), left untouched: move it aside .*\.recover" "$what: message"
	expect_eq "$(wc -l <"$TMP/err")" 1 "$what: one line"
	expect_untouched "$db" "$TMP/damaged.orig" "$what"
}
expect_damaged_refused 2 "db info on a damaged database" -- "$CONFORM" db info --db "$db"
expect_damaged_refused 2 "a run on a damaged database" -- "$CONFORM" --filter 'harness.pass.*' --seed 3 --db "$db"

# A path SQLite cannot take is refused before its directories are made.
long="$TMP/long"
while [ ${#long} -lt 600 ]; do long="$long/dddddddddddddddddddddddddddddddddddddddd"; done
expect_exit 2 "--db path too long" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$long/x.db"
expect_grep "$TMP/err" "path too long for SQLite \([0-9]+ characters, at most [0-9]+\): choose a shorter --db$" "long path message"
expect_eq "$(wc -l <"$TMP/err")" 1 "long path message is one line"
[ ! -e "$TMP/long" ] || fail "the long path's directories were made"

# A schema version no conform writes.
db="$TMP/minus.db"
expect_exit 0 "run before the version is changed" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
sql "$db" "pragma user_version = -1"
cp "$db" "$TMP/minus.orig"
expect_exit 2 "user_version -1" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
expect_grep "$TMP/err" "^conform: $db: schema version -1, which no conform writes \(this build knows 1 to [0-9]+\), left untouched$" "user_version -1 message"
expect_untouched "$db" "$TMP/minus.orig" "user_version -1"

# A read-only database is refused without leaving -wal and -shm behind
# (they used to make the next run fail once the file was writable again).
# Root writes read-only files, so this needs another user.
if [ "$(id -u)" -ne 0 ]; then
	db="$TMP/ro.db"
	expect_exit 0 "run before chmod" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
	chmod 444 "$db"
	cp "$db" "$TMP/ro.orig"
	expect_exit 2 "read-only database" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
	expect_grep "$TMP/err" "^conform: $db: read-only \(Permission denied\), cannot record results$" "read-only message"
	expect_untouched "$db" "$TMP/ro.orig" "read-only database"
	chmod 644 "$db"
	expect_exit 0 "the run after chmod" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
	expect_eq "$(sql "$db" "select count(*) from results")" 2 "both runs' results"
else
	echo "running as root, which may write read-only files: read-only refusals not checked"
fi
# Another process takes the write lock once the run has begun and holds it
# for 8 s; the first case (an expected hang, 2 s) ends meanwhile.  Its
# result waits for the lock, saying so, and every result is stored.
cat >"$TMP/lock.suite" <<'SUITE'
case l.hang  variant=harness.hang n=1 expect=hang
case l.one   variant=harness.pass n=100 dtype=i32
case l.two   variant=harness.pass n=100 dtype=f64
SUITE
db="$TMP/locked.db"
expect_exit 0 "run before the lock" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
# run_locked RUNS HANG SECONDS NAME: starts the lock suite in the
# background (its output in $TMP/NAME.out and .err, its pid in run_pid)
# with the given --hang-timeout, and once the database holds RUNS runs,
# another process's write lock for SECONDS (its pid in lock_pid; it
# touches $TMP/locked once it holds the lock).
run_locked() {
	"$CONFORM" --suite "$TMP/lock.suite" --all --seed 2 --hang-timeout "$2" --db "$db" \
		>"$TMP/$4.out" 2>"$TMP/$4.err" &
	run_pid=$!
	n=0
	until [ "$(sql "$db" "select count(*) from runs")" = "$1" ] || [ $n -ge 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	{
		echo ".timeout 5000"
		echo "BEGIN IMMEDIATE;"
		echo "UPDATE runs SET host = host WHERE id = 1;"
		echo ".shell touch '$TMP/locked'"
		sleep "$3"
		echo "COMMIT;"
	} | sql "$db" &
	lock_pid=$!
}
run_locked 2 2 8 lock
wait "$run_pid"
rc=$?
wait "$lock_pid"
checks=$((checks + 1))
[ -e "$TMP/locked" ] || fail "the other process never held the lock"
expect_eq "$rc" 0 "a run that met a lock exits as usual"
expect_grep "$TMP/lock.err" "^conform: $db: database is locked by another process; waiting to record the result of l.hang \([0-9]+ s so far\)$" "waiting is told"
expect_eq "$(tail -n 1 "$TMP/lock.out")" "3 passed, 0 failed, 0 skipped" "every case ran"
expect_eq "$(sql "$db" "select group_concat(case_name, ' ') from (select case_name from results where run_id = 2 order by id)")" \
	"l.hang l.one l.two" "every result stored"
expect_eq "$(sql "$db" "select state from runs where id = 2")" complete "the run is complete"

# Ctrl-C while waiting for a lock held 13 s: the run stops as interrupted
# (130), says which result is not stored, and keeps what was.
run_locked 3 1 13 stop
n=0
until grep -q "waiting to record" "$TMP/stop.err" || [ $n -ge 150 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -INT "$run_pid"
wait "$run_pid"
rc=$?
wait "$lock_pid"
expect_eq "$rc" 130 "Ctrl-C while waiting for the lock exits 130"
expect_eq "$(sql "$db" "select count(*) from results where run_id <= 2")" 4 "earlier results kept"
# The lock outlives the wait in progress (5 s from the first "waiting"
# line), so the stop ends it: the result is said not stored, and is not.
expect_grep "$TMP/stop.err" "stopped while waiting to record the result of l.hang, which is not stored" "what was not stored is said"
expect_eq "$(sql "$db" "select count(*) from results where run_id = 3")" 0 "a result said not stored is not stored"
# (Its run row stays 'running': the lock that stopped the result stops
# that write too, and the user asked not to wait.)

# A write that fails for good, as on a full disk: here no file of the run
# may grow past 400 blocks (ulimit -f: 200 KB in POSIX shells, 400 KB in
# bash outside POSIX mode), which the WAL passes after 10 or 20 of these
# 100 results.  The run stops there with one line and exit 2, marked
# aborted with the reason, and keeps the results stored before.
i=0
while [ $i -lt 100 ]; do
	echo "case a.$i variant=harness.pass n=100 dtype=i32"
	i=$((i + 1))
done >"$TMP/many.suite"
db="$TMP/full.db"
expect_exit 0 "run before the limit" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
expect_exit 2 "a run whose writes fail" -- sh -c 'trap "" XFSZ; ulimit -f 400 && exec "$@"' sh \
	"$CONFORM" --suite "$TMP/many.suite" --all --seed 2 --db "$db"
expect_grep "$TMP/err" "^conform: $db: recording result: cannot write the database or its journal; run 2 is marked aborted, keeping the results stored before a\.[0-9]+$" "aborted message"
expect_eq "$(wc -l <"$TMP/err")" 1 "aborted message is one line"
last=$(sed -n 's/.*stored before a\.\([0-9]*\)$/\1/p' "$TMP/err")
expect_eq "$(sql "$db" "select state || '|' || reason from runs where id = 2")" \
	"aborted|recording result: cannot write the database or its journal (at a.$last)" "run marked aborted with the reason"
expect_eq "$(sql "$db" "select count(*) || ' ' || (select case_name from results where run_id = 2 order by id desc limit 1) from results where run_id = 2")" \
	"$last a.$((last - 1))" "the results before it are kept"
expect_exit 0 "the next run, without the limit" -- "$CONFORM" --filter harness.pass.i32 --seed 3 --db "$db"
expect_eq "$(sql "$db" "select group_concat(state, ' ') from (select state from runs order by id)")" \
	"complete aborted complete" "runs after the next"
# What a run is and its tag: stored with it, and what compare pairs runs by.
db="$TMP/kinds.db"
expect_exit 0 "a conformance run with a tag" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --tag ci/shard-1 --db "$db"
expect_exit 0 "a tune" -- "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --strategy random --budget 2 \
	--min-samples 5 --max-noise 0.02 --max-time 0.01 --db "$db"
expect_eq "$(sql "$db" "select group_concat(kind || ' ' || coalesce(tag, '-'), ', ') from (select * from runs order by id)")" \
	"conformance ci/shard-1, tune -" "kinds and tags stored"
# The database is named: run, tune and bench say where their results go
# under their opening line (a default path otherwise goes unsaid); run's
# last line stays the tally.
cat "$TMP/out" "$TMP/err" >"$TMP/both"
expect_grep "$TMP/both" "^results in $db$" "tune names the database"
expect_exit 0 "a run into the default database" -- "$CONFORM" --filter harness.pass.i32 --seed 1
cat "$TMP/out" "$TMP/err" >"$TMP/both"
expect_grep "$TMP/both" "^results in $CONFORM_DB$" "run names the default database"
expect_eq "$(tail -n 1 "$TMP/both")" "1 passed, 0 failed, 0 skipped" "run's last line is the tally"
# db info: the file's size and the runs of each kind.
expect_exit 0 "db info" -- "$CONFORM" db info --db "$db"
expect_grep "$TMP/out" "^size: $(wc -c <"$db" | tr -d ' ') bytes$" "db info: the file's size"
expect_grep "$TMP/out" "^runs: 1 conformance, 1 tune, 0 bench, 0 sweep$" "db info: runs by kind"
# db prune --keep N: the newest N runs of each kind stay, the older go with
# their results; a run still in progress stays whatever its age.
expect_exit 0 "a second conformance run" -- "$CONFORM" --filter 'harness.pass.*' --seed 2 --db "$db"
expect_exit 0 "a third conformance run" -- "$CONFORM" --filter harness.pass.i32 --seed 3 --db "$db"
expect_exit 0 "a second tune" -- "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --strategy random --budget 2 \
	--min-samples 5 --max-noise 0.02 --max-time 0.01 --fresh --db "$db"
sql "$db" "update runs set state = 'running', pid = NULL where id = 1"
gone_results=$(sql "$db" "select count(*) from results where run_id in (2, 3)")
kept_results=$(sql "$db" "select count(*) from results where run_id in (1, 4, 5)")
one_line_exit2 "db prune without --keep" "$CONFORM" db prune --db "$db"
expect_grep "$TMP/err" "--keep N" "db prune without --keep: what it needs"
one_line_exit2 "db prune --keep 0" "$CONFORM" db prune --keep 0 --db "$db"
one_line_exit2 "db prune --keep x" "$CONFORM" db prune --keep x --db "$db"
one_line_exit2 "db info --keep 1" "$CONFORM" db info --keep 1 --db "$db"
one_line_exit2 "db prune of no database" "$CONFORM" db prune --keep 1 --db "$TMP/none.db"
expect_eq "$(sql "$db" "select count(*) from runs")" 5 "refused prunes removed nothing"
expect_exit 0 "db prune --keep 1" -- "$CONFORM" db prune --keep 1 --db "$db"
expect_eq "$(cat "$TMP/out")" \
	"$db: removed 2 runs (1 conformance, 1 tune, 0 bench, 0 sweep) and $gone_results results; kept the newest 1 of each kind" \
	"db prune says what it removed"
expect_eq "$(sql "$db" "select group_concat(id || ' ' || kind, ', ') from (select * from runs order by id)")" \
	"1 conformance, 4 conformance, 5 tune" "the newest of each kind and the running run kept"
expect_eq "$(sql "$db" "select count(*) from results")" "$kept_results" "their results kept, the others deleted"
expect_exit 0 "db prune again" -- "$CONFORM" db prune --keep 1 --db "$db"
expect_grep "$TMP/out" "removed 0 runs .* and 0 results" "db prune again removes nothing"
one_line_exit2 "a tag with a space" "$CONFORM" --filter harness.pass.i32 --tag "a b" --db "$db"
expect_grep "$TMP/err" "--tag: expected a name of 1 to 63 letters" "the tag message"
# A read-only file system: the commands that only read (best, history,
# compare, export, db info) read the database as it is; a run is refused;
# a WAL still beside the file (results not folded in) or an older schema
# is refused with one line, not read without them.  Needs a mount of its
# own: an unprivileged user namespace (unshare -rm), else it is skipped.
ro="$TMP/ro"
mkdir -p "$ro/wal"
expect_exit 0 "a tune for the read-only file system" -- "$CONFORM" tune harness.spin --n 2^10 --dtype f32 \
	--strategy random --budget 2 --min-samples 5 --max-noise 0.02 --max-time 0.01 --db "$ro/x.db"
expect_exit 0 "a run for the read-only file system" -- "$CONFORM" --filter 'harness.pass*' --seed 1 --db "$ro/x.db"
expect_exit 0 "a second" -- "$CONFORM" --filter 'harness.pass*' --seed 2 --db "$ro/x.db"
python3 - "$ro/wal/x.db" <<'PY'
import shutil, sqlite3, sys, os
src = os.path.join(os.path.dirname(os.path.dirname(sys.argv[1])), "x.db")
shutil.copy(src, sys.argv[1])
c = sqlite3.connect(sys.argv[1])
c.execute("pragma wal_autocheckpoint = 0")
c.execute("update runs set tag = 'late'")
c.commit()
shutil.copy(sys.argv[1] + "-wal", sys.argv[1] + "-wal.keep")
os._exit(0)  # no close: the WAL stays
PY
mv "$ro/wal/x.db-wal.keep" "$ro/wal/x.db-wal"
rm -f "$ro/wal/x.db-shm"
cat >"$TMP/ro.sh" <<'SH'
ro=$1 conform=$2
mount --bind "$ro" "$ro" && mount -o remount,bind,ro "$ro" "$ro" || exit 99
for c in "best harness.spin --n 2^10" "history harness.spin" "compare" "export harness.spin --json" "db info"; do
	echo "== $c"
	$conform $c --db "$ro/x.db" 2>&1
	echo "rc=$?"
done
echo "== run"
$conform --filter 'harness.pass*' --db "$ro/x.db" 2>&1; echo "rc=$?"
echo "== wal"
$conform compare --db "$ro/wal/x.db" 2>&1; echo "rc=$?"
SH
if unshare -rm true 2>/dev/null; then
	unshare -rm sh "$TMP/ro.sh" "$ro" "$CONFORM" >"$TMP/ro.out" 2>&1
	expect_eq "$(grep -c '^rc=0$' "$TMP/ro.out")" 5 "read-only file system: best, history, compare, export, db info answer"
	sed '/^== run$/q' "$TMP/ro.out" >"$TMP/ro.lookups"
	expect_grep "$TMP/ro.lookups" "^host +harness\.spin +2\^10 " "best on a read-only file system"
	expect_grep "$TMP/ro.lookups" "^base: run 2 " "compare on a read-only file system"
	expect_grep "$TMP/ro.lookups" "\"variant\":\"harness\.spin\"" "export on a read-only file system"
	expect_grep "$TMP/ro.lookups" "x\.db: schema [0-9]+, 3 runs, [0-9]+ results" "db info on a read-only file system"
	expect_no_grep "$TMP/ro.lookups" "read-only|must write to it once" "no refusal of a lookup"
	expect_eq "$(sed -n '/^== run$/,/^rc=/p' "$TMP/ro.out" | tail -n 1)" "rc=2" "a run on a read-only file system is refused"
	expect_grep "$TMP/ro.out" "wal/x\.db: on a read-only file system, and conform must write to it once before it can read it \(results still in its -wal file\)" "a WAL left beside it is not skipped"
	expect_eq "$(ls "$ro" | tr '\n' ' ')" "wal x.db " "nothing left beside it"
else
	echo "no unprivileged mount namespace here: read-only file system not checked"
fi
# Every text read from a database reaches a terminal printable: a hostile
# database (a script's, a merged shard's) with ESC, newlines and a bad
# UTF-8 byte in its names prints no control byte in best, history or
# export, nor in the list of tuned variants.
db="$TMP/hostile.db"
expect_exit 0 "a tune for the hostile database" -- "$CONFORM" tune harness.spin --n 2^10 --dtype f32 \
	--strategy random --budget 2 --min-samples 5 --max-noise 0.02 --max-time 0.01 --db "$db"
sql "$db" "update runs set git_revision = 'abc' || char(27) || ']0;owned' || char(7);
	update results set measured_at = created_at where 0;
	update results set created_at = '2026' || char(10) || 'x' || char(27) || '[2J', params = params || char(13)"
for c in "best harness.spin --n 2^10" "history harness.spin" "export harness.spin --json" "best nothing.* --n 2^10"; do
	$CONFORM $c --db "$db" >"$TMP/hostile.out" 2>&1
	expect_eq "$(tr -d '\n' <"$TMP/hostile.out" | LC_ALL=C tr -d '\040-\176\200-\377' | wc -c)" 0 "$c: no control byte from the database"
	expect_grep "$TMP/hostile.out" "abc\?\]0;owned\?|2026\?x\?\[2J|tuned: .*harness\.spin" "$c: the hostile text shown sanitised"
done
# A view in the place of a table (a recursive one never ends) is refused at
# open by every command, not read: compare and db info spun at 100% CPU.
db="$TMP/view.db"
expect_exit 0 "a run for the view" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$db"
sql "$db" "pragma foreign_keys = off; drop table results; create view results as with recursive c(x) as
	(select 1 union all select x + 1 from c) select x as id, x as run_id, 'a' as case_name from c"
for c in "compare" "db info" "best harness.pass --n 100" "history harness.pass" "--filter harness.pass.i32"; do
	one_line_exit2 "a view for results: $c" timeout 20 $CONFORM $c --db "$db"
	expect_grep "$TMP/err" "view\.db: its runs, results, devices or device_bandwidth is not a table" "$c: the view named"
done
finish
