#!/bin/sh
# cli.sh - conform's command line: usage errors, bad input, the database
# refusing to be damaged, --list, --shard, --json and --junit.
. "$(dirname "$0")/lib.sh"

# Usage errors: one line on stderr, exit 2.
expect_exit 2 "no arguments" -- "$CONFORM"
expect_exit 2 "unknown flag" -- "$CONFORM" --bogus
expect_grep "$TMP/err" "unknown option '--bogus'" "unknown flag message"
expect_eq "$(wc -l <"$TMP/err")" 1 "unknown flag is one line"
expect_exit 2 "unknown command" -- "$CONFORM" frobnicate
expect_exit 2 "nothing selected" -- "$CONFORM" --seed 1
expect_grep "$TMP/err" "nothing selected" "nothing selected message"
expect_exit 2 "bad timeout" -- "$CONFORM" --all --timeout -3
expect_grep "$TMP/err" "^conform: --timeout: expected a number of seconds" "bad timeout message"
expect_exit 2 "bad hang timeout" -- "$CONFORM" --all --hang-timeout abc
expect_exit 2 "bad seed" -- "$CONFORM" --all --seed 12x
expect_exit 2 "bad shard" -- "$CONFORM" --all --shard 3/2
expect_exit 2 "missing value" -- "$CONFORM" --all --db
expect_grep "$TMP/err" "needs a value" "missing value message"
# Numbers go through the one strict parser: no overflow, sign, hex, space
# or exponent slips through as something else.
for bad in 1/4294967297 " 1/2" 1/+2 +1/2 0/2 1/ /2 1/0x2; do
	expect_exit 2 "shard '$bad'" -- "$CONFORM" --all --list --shard "$bad"
	expect_grep "$TMP/err" "^conform: --shard: expected I/N" "shard '$bad' message"
done
for bad in 0x10 " 5" +5 1e1 inf nan 5s 0 86401; do
	expect_exit 2 "timeout '$bad'" -- "$CONFORM" --all --list --timeout "$bad"
	expect_grep "$TMP/err" "^conform: --timeout: expected a number of seconds" "timeout '$bad' message"
done
for bad in 18446744073709551616 " 1" +1 0x1 -1; do
	expect_exit 2 "seed '$bad'" -- "$CONFORM" --all --list --seed "$bad"
done
expect_exit 0 "largest seed" -- "$CONFORM" --filter harness.pass.f32 --list --seed 18446744073709551615
# A size longer than any fixed buffer is read whole (it was cut to 1234).
zeros=$(printf '0%.0s' $(seq 600))
expect_exit 0 "long --n" -- "$CONFORM" tune harness.spin --n "${zeros}12345" --dtype f32 --budget 1 --min-samples 1 --max-time 0.01 --db "$TMP/long-n.db"
expect_eq "$(sql "$TMP/long-n.db" "select n from results where variant = 'harness.spin'")" 12345 "long --n tuned at its full value"
expect_exit 2 "stray argument" -- "$CONFORM" --all extra
expect_exit 0 "--help" -- "$CONFORM" --help
expect_exit 0 "run --help" -- "$CONFORM" run --help
expect_grep "$TMP/out" "--hang-timeout" "run --help lists options"
expect_exit 0 "--version" -- "$CONFORM" --version
expect_grep "$TMP/out" "^conform [0-9]" "--version output"
# The revision is the tree's as built, not as configured (revision.h is
# asked of git at every make).
if rev=$(cd "$top_srcdir" && git describe --always --dirty 2>/dev/null) && [ -z "${GIT_REVISION:-}" ]; then
	expect_eq "$(sed -n 's/^conform [^ ]* (\(.*\))$/\1/p' "$TMP/out")" "$rev" "--version names the revision built"
fi

# --list: one case per line, filters and shards.
expect_exit 0 "--list" -- "$CONFORM" --all --list
all=$(wc -l <"$TMP/out")
expect_no_grep "$TMP/out" " " "--list prints bare names"
[ "$all" -ge 60 ] || fail "--all lists $all cases, want at least 60"
expect_exit 0 "--list harness" -- "$CONFORM" --filter 'harness.*' --list
expect_eq "$(head -n 1 "$TMP/out")" "harness.pass.f32" "first harness case"
expect_exit 0 "--exclude" -- "$CONFORM" --filter 'harness.*' --exclude '*.crash' --list
expect_no_grep "$TMP/out" "harness.crash" "--exclude removes"
: >"$TMP/shards"
for i in 1 2 3; do
	"$CONFORM" --all --list --shard $i/3 >>"$TMP/shards" || fail "--shard $i/3"
done
expect_eq "$(sort "$TMP/shards" | uniq | wc -l)" "$all" "shards partition --all"
expect_eq "$(wc -l <"$TMP/shards")" "$all" "shards do not overlap"
"$CONFORM" --all --list --shard 2/3 >"$TMP/s1"; "$CONFORM" --all --list --shard 2/3 >"$TMP/s2"
cmp -s "$TMP/s1" "$TMP/s2" || fail "--shard is not deterministic"
expect_exit 2 "empty selection" -- "$CONFORM" --filter 'nothing.*' --seed 1
expect_grep "$TMP/err" "no case matches" "empty selection message"
expect_exit 2 "--list of an empty selection" -- "$CONFORM" --filter 'nothing.*' --list
expect_grep "$TMP/err" "no case matches" "--list of an empty selection says so"
expect_exit 0 "--list alone lists every case" -- "$CONFORM" --list
expect_eq "$(wc -l <"$TMP/out")" "$all" "--list alone is --all --list"
expect_exit 0 "db --help" -- "$CONFORM" db --help
expect_grep "$TMP/out" "^usage: conform db" "db --help prints its usage"
expect_exit 0 "--variants" -- "$CONFORM" --variants
expect_grep "$TMP/out" "^harness.hang" "--variants lists harness"

# Suite errors name file:line and exit 2 before anything runs.
printf 'case ok.one variant=harness.pass n=10\n\ncase bad.two variant=harness.pass n=10 expect=sometimes\n' >"$TMP/bad.suite"
expect_exit 2 "bad suite" -- "$CONFORM" --suite "$TMP/bad.suite" --all --db "$TMP/bad-suite.db"
expect_grep "$TMP/err" "bad.suite:3: .*expect" "suite error names file:line"
[ ! -e "$TMP/bad-suite.db" ] || fail "a bad suite created the database"
printf 'case x.y variant=harness.nope n=10\n' >"$TMP/unknown.suite"
expect_exit 2 "unknown variant" -- "$CONFORM" --suite "$TMP/unknown.suite" --all
expect_grep "$TMP/err" "unknown.suite:1: unknown variant 'harness.nope'" "unknown variant message"
expect_exit 2 "missing suite file" -- "$CONFORM" --suite "$TMP/none.suite" --all
expect_exit 2 "missing suites dir" -- "$CONFORM" --suites "$TMP/nodir" --all
# A path near PATH_MAX does not push the reason out of the message.
deep=$TMP$(awk 'BEGIN { for (i = 0; i < 15; i++) { printf "/"; for (j = 0; j < 250; j++) printf "d" } }')
expect_exit 2 "a missing suite file with a long path" -- "$CONFORM" --suite "$deep/x.suite" --all
expect_grep "$TMP/err" "/x\.suite: cannot read: No such file or directory$" "the reason after a long path"
expect_exit 2 "a missing suites dir with a long path" -- "$CONFORM" --suites "$deep" --all
expect_grep "$TMP/err" "No such file or directory$" "the reason after a long directory"

# tolerance=K: a wrong result within K times conform's tolerance passes,
# and says so on the console, in JUnit and in the database; beyond K, or
# with no ratio (an integer), it fails as before.  harness.wrong's f32 sum
# is off by 1, 179 times its tolerance with this seed.
tol_run() { # NAME DTYPE TOLERANCE
	printf 'case %s variant=harness.wrong dtype=%s n=1000 tolerance=%s\n' "$1" "$2" "$3" >"$TMP/tol.suite"
	"$CONFORM" --suite "$TMP/tol.suite" --all --seed 5 --db "$TMP/tol.db" --junit "$TMP/tol.xml" >"$TMP/out" 2>"$TMP/err"
}
tol_run t.f32 f32 200
expect_eq "$?" 0 "within tolerance=200: exit 0"
expect_grep "$TMP/out" "^PASS +t\.f32: beyond conform's tolerance, within this case's tolerance=200 \(max \|err\|/tol 179\): 1 of 1 outputs wrong" "the finding on the console"
expect_grep "$TMP/out" "^1 passed, 0 failed, 0 skipped$" "counted as passed"
expect_eq "$(sql "$TMP/tol.db" "select status, observed from results where case_name = 't.f32'")" "PASS|completed-correct" "stored as PASS"
expect_eq "$(sql "$TMP/tol.db" "select message like '%max |err|/tol 179%' from results where case_name = 't.f32'")" 1 "the observed error stored"
expect_grep "$TMP/tol.xml" "<system-out>beyond conform.*tolerance=200" "the finding in JUnit"
tol_run t.f32 f32 100
expect_eq "$?" 1 "beyond tolerance=100: exit 1"
expect_grep "$TMP/out" "^FAIL +t\.f32: 1 of 1 outputs wrong" "beyond K fails"
tol_run t.i32 i32 1000
expect_eq "$?" 1 "an integer never has a ratio: exit 1"
for bad in 1 0.5 1001 abc 2e1 -3; do
	printf 'case t.x variant=harness.wrong dtype=f32 n=10 tolerance=%s\n' "$bad" >"$TMP/tol.suite"
	expect_exit 2 "tolerance=$bad" -- "$CONFORM" --suite "$TMP/tol.suite" --all --list
	expect_grep "$TMP/err" "tol.suite:1: tolerance must be a factor above 1" "tolerance=$bad message"
done

# The database: bad paths and corrupt files are refused and left untouched.
expect_exit 2 "db is a directory" -- "$CONFORM" --filter harness.pass.i32 --db "$TMP"
expect_eq "$(wc -l <"$TMP/err")" 1 "db directory error is one line"
printf 'this is not a database, it is a text file\n%.0s' 1 2 3 4 5 >"$TMP/corrupt.db"
cp "$TMP/corrupt.db" "$TMP/corrupt.orig"
expect_exit 2 "corrupt db" -- "$CONFORM" --filter harness.pass.i32 --db "$TMP/corrupt.db"
expect_grep "$TMP/err" "not an SQLite database" "corrupt db message"
cmp -s "$TMP/corrupt.db" "$TMP/corrupt.orig" || fail "corrupt db was modified"
touch "$TMP/ro-parent" && expect_exit 2 "db under a file" -- "$CONFORM" --filter harness.pass.i32 --db "$TMP/ro-parent/x.db"

# Two outputs on one path: --junit over the database (or its journal, or a
# suite file) is refused before anything runs, and the database survives.
clash="$TMP/clash.db"
expect_exit 0 "seeding a database" -- "$CONFORM" --filter 'harness.pass*' --seed 1 --db "$clash"
cp "$clash" "$TMP/clash.orig"
expect_exit 2 "--junit is --db" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$clash"
expect_grep "$TMP/err" "^conform: --junit .* is the database" "--junit is --db message"
expect_exit 2 "--junit is --db by another name" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$TMP/../$(basename "$TMP")/clash.db"
ln -s "$clash" "$TMP/clash-link.db"
expect_exit 2 "--junit is a link to --db" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$TMP/clash-link.db"
expect_exit 2 "--junit is the journal" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$clash-wal"
expect_grep "$TMP/err" "is the database's journal" "--junit is the journal message"
cmp -s "$clash" "$TMP/clash.orig" || fail "the database was replaced"
expect_eq "$(sql "$clash" "select count(*) from results")" 3 "every stored result kept"
printf 'case j.one variant=harness.pass n=10\n' >"$TMP/j.suite"
cp "$TMP/j.suite" "$TMP/j.orig"
expect_exit 2 "--junit is a suite file" -- "$CONFORM" --suite "$TMP/j.suite" --all --db "$clash" --junit "$TMP/j.suite"
cmp -s "$TMP/j.suite" "$TMP/j.orig" || fail "the suite file was replaced"
# An unwritable report path is refused before the first case, not after.
expect_exit 2 "--junit in a missing directory" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$TMP/no/such/dir/x.xml"
expect_grep "$TMP/err" "^conform: cannot write the JUnit report: No such file" "--junit unwritable message"
expect_eq "$(sql "$clash" "select count(*) from runs")" 1 "no run was started for an unwritable --junit"
expect_exit 2 "--junit is a directory" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$TMP"
# Nor over anything that is not a regular file: a FIFO, a symbolic link
# (--junit /dev/stdout is one), each left as it was.
mkfifo "$TMP/junit.fifo"
expect_exit 2 "--junit is a FIFO" -- timeout 20 "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$TMP/junit.fifo"
expect_grep "$TMP/err" "FIFO, not a regular file" "--junit FIFO: says why"
echo keep >"$TMP/junit.victim"
ln -s "$TMP/junit.victim" "$TMP/junit.link"
expect_exit 2 "--junit is a symbolic link" -- "$CONFORM" --filter 'harness.pass*' --db "$clash" --junit "$TMP/junit.link"
checks=$((checks + 1))
[ -p "$TMP/junit.fifo" ] && [ -L "$TMP/junit.link" ] && [ "$(cat "$TMP/junit.victim")" = keep ] ||
	fail "--junit replaced a FIFO or a link, or wrote through it"
# What goes to standard output must arrive: a full disk, a closed stdout
# and a reader gone are one line and exit 2 (they were exit 0).
checks=$((checks + 1))
"$CONFORM" --all --list >/dev/full 2>"$TMP/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "^conform: writing standard output: " "$TMP/err" || fail "--list into /dev/full: exit $rc"
checks=$((checks + 1))
"$CONFORM" --variants >&- 2>"$TMP/err"; rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "--variants with stdout closed: exit $rc"
checks=$((checks + 1))
{ sleep 1; "$CONFORM" --variants 2>"$TMP/err"; echo $? >"$TMP/rc"; } | true
rc=$(cat "$TMP/rc")
[ "$rc" -eq 2 ] && grep -q "Broken pipe" "$TMP/err" || fail "--variants into a reader that left: exit $rc"
# With stdout closed, --junit's file does not take its descriptor: the
# report is XML alone.
checks=$((checks + 1))
"$CONFORM" --filter 'harness.pass*' --db "$TMP/closed.db" --junit "$TMP/closed.xml" >&- 2>/dev/null
head -c 5 "$TMP/closed.xml" | grep -q '^<?xml' || fail "--junit with stdout closed: not XML from its first byte"
expect_eq "$(ls "$TMP" | grep -c '\.xml\.\|clash\.db\.')" 0 "no temporary report left behind"

# A stop signal before conform's own handlers would be in place still
# means "interrupted" (130), not a death by signal (143): here conform is
# waiting for a worker that has not answered yet.
printf '#!/bin/sh\nsleep 5\n' >"$TMP/slow-worker"
chmod +x "$TMP/slow-worker"
CONFORM_WORKER="$TMP/slow-worker" "$CONFORM" --all --list >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
expect_eq "$?" 130 "SIGTERM while starting exits 130"

# A hang-up (a closed terminal, a dropped ssh) stops a run as Ctrl-C does:
# exit 130 and the run marked interrupted (it ended with 129 and the run
# left 'running').
printf 'case hup.hang variant=harness.hang dtype=f32 n=64 expect=hang\n' >"$TMP/hup.suite"
"$CONFORM" --suite "$TMP/hup.suite" --all --hang-timeout 20 --db "$TMP/hup.db" >/dev/null 2>&1 &
pid=$!
n=0
until [ "$("${SQLITE3:-sqlite3}" "$TMP/hup.db" "select count(*) from runs" 2>/dev/null)" = 1 ] || [ $n -ge 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -HUP "$pid"
wait "$pid"
expect_eq "$?" 130 "SIGHUP during a run exits 130"
expect_eq "$("${SQLITE3:-sqlite3}" "$TMP/hup.db" "select state from runs")" interrupted "SIGHUP: the run is interrupted"

# A run whose conform is killed outright (kill -9) cannot record its end;
# the next conform to open the database for results on this host marks it
# abandoned, with its results and a reason naming the pid.  A run whose
# owner is alive, on another host or in another pid namespace, stays
# running; so does one whose pid a later process holds (pid_start tells).
printf 'case a.pass variant=harness.pass dtype=f32 n=64\ncase b.hang variant=harness.hang dtype=f32 n=64 expect=hang\n' >"$TMP/kill.suite"
"$CONFORM" --suite "$TMP/kill.suite" --all --jobs 1 --hang-timeout 20 --db "$TMP/kill.db" >/dev/null 2>&1 &
pid=$!
n=0
until [ "$(sql "$TMP/kill.db" "select count(*) from results" 2>/dev/null)" = 1 ] || [ $n -ge 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
pkill -KILL -f "conform-worker.*$TMP" 2>/dev/null
expect_eq "$(sql "$TMP/kill.db" "select state || ' ' || pid from runs")" "running $pid" "kill -9: the run is left running, its pid recorded"
me=$(sql "$TMP/kill.db" "select pid_start from runs")
expect_eq "$(echo "$me" | wc -w)" 3 "pid_start: boot, pid namespace, start ticks"
sql "$TMP/kill.db" "insert into runs (started_at, state, host, pid, pid_start, uuid, kind) values
	('2026-01-01T00:00:00Z', 'running', (select host from runs where id = 1), $$, NULL, 'alive', 'tune'),
	('2026-01-01T00:00:00Z', 'running', 'another-host', $pid, NULL, 'elsewhere', 'tune'),
	('2026-01-01T00:00:00Z', 'running', (select host from runs where id = 1), $pid, '${me%% *} pid:[1] 1', 'other-ns', 'tune'),
	('2026-01-01T00:00:00Z', 'running', (select host from runs where id = 1), $$, '${me% *} 1', 'reused', 'tune')"
expect_exit 0 "an open for results after kill -9" -- "$CONFORM" --suite "$TMP/kill.suite" --filter 'a.*' --db "$TMP/kill.db"
expect_eq "$(sql "$TMP/kill.db" "select uuid || ' ' || state from runs where id > 1 and id < 6 order by id" | tr '\n' ' ')" \
	"alive running elsewhere running other-ns running reused abandoned " "only runs whose process is known gone are abandoned"
expect_eq "$(sql "$TMP/kill.db" "select state, ended_at = (select created_at from results where run_id = 1), passed is null from runs where id = 1")" "abandoned|1|1" \
	"kill -9: the run is abandoned, ended, with no tallies"
sql "$TMP/kill.db" "select reason from runs where id = 1" >"$TMP/reason"
expect_grep "$TMP/reason" "^its conform \\(pid $pid on .*\\) ended without recording its end" "the reason names the pid"
expect_exit 0 "compare takes the abandoned run as the base" -- "$CONFORM" compare --db "$TMP/kill.db"

# A run stores what it prints; --json and --junit agree with it.
db="$TMP/run.db"
expect_exit 0 "harness run" -- "$CONFORM" --filter 'harness.*' --seed 42 --hang-timeout 1 --db "$db" --junit "$TMP/junit.xml"
last=$(tail -n 1 "$TMP/out")
expect_eq "$last" "7 passed, 0 failed, 0 skipped" "summary line is last"
expect_eq "$(sql "$db" "select count(*) from results")" 7 "results stored"
expect_eq "$(sql "$db" "select status from results where case_name='harness.hang'")" XFAIL "hang stored as XFAIL"
expect_eq "$(sql "$db" "select observed from results where case_name='harness.crash'")" crashed "crash observed"
expect_eq "$(sql "$db" "select seed, state, passed from runs")" "42|complete|7" "run row"
expect_eq "$(sql "$db" "pragma journal_mode")" wal "WAL mode"
expect_grep "$TMP/junit.xml" '<testsuite name="harness" tests="7" failures="0" errors="0" skipped="0"' "junit suite"
expect_grep "$TMP/junit.xml" 'XFAIL: expected hang and observed hung' "junit xfail note"
expect_exit 0 "json run" -- "$CONFORM" --filter 'harness.pass.*' --seed 42 --json --db "$db"
expect_eq "$(grep -c '^{"case":' "$TMP/out")" 3 "json lines per result"
expect_grep "$TMP/out" '^\{"summary":\{"passed":3,"failed":0,"skipped":0' "json summary"
expect_eq "$(tail -n 1 "$TMP/err")" "3 passed, 0 failed, 0 skipped" "summary last on stderr with --json"
expect_exit 0 "db path" -- "$CONFORM" db path --db "$db"
expect_eq "$(cat "$TMP/out")" "$db" "db path"
CONFORM_DB="$TMP/env.db" "$CONFORM" db path >"$TMP/out"
expect_eq "$(cat "$TMP/out")" "$TMP/env.db" "CONFORM_DB"
# Without a GPU, --all says why GPU cases were skipped, still runs the
# harness cases, and exits 77.
"$CONFORM" --all --db "$TMP/all.db" --seed 3 --hang-timeout 0.5 >"$TMP/out" 2>"$TMP/err"
rc=$?
if ! gpu_present; then
	expect_eq "$rc" 77 "--all without a GPU exits 77"
	expect_grep "$TMP/out" "^no GPU: .*GPU cases are skipped" "--all says why"
	expect_eq "$(sql "$TMP/all.db" "select count(*) from results where status='SKIP' and message=''")" 0 "every SKIP has a reason"
	expect_eq "$(sql "$TMP/all.db" "select count(*) from results where case_name like 'harness.%' and status in ('PASS','XFAIL')")" 7 "harness cases ran"
	expect_eq "$(sql "$TMP/all.db" "select count(*) from results where status not in ('PASS','XFAIL','SKIP')")" 0 "nothing unexpected"
	"$CONFORM" --filter harness.pass.i32 --db "$TMP/all.db" >"$TMP/out" 2>&1
	expect_grep "$TMP/out" "GPU cases are skipped; 1 case, seed" "one case is 'case', not 'cases'"
else
	echo "a GPU is present: the no-GPU run of --all is not checked here"
fi
finish
