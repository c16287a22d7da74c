#!/bin/sh
# baseline.sh - run --baseline FILE: the failures of listed cases are known
# (exit 0, said on the console, <skipped> in JUnit, the observed status and
# a note in the database), unlisted ones fail the run as before, a listed
# case that passes is to be removed, and a bad file is one line, exit 2,
# before anything runs.  Host-only harness cases: no GPU needed.
. "$(dirname "$0")/lib.sh"

# b.wrong expects a correct result from a variant that is always off by one:
# a FAIL on every machine.
cat >"$TMP/b.suite" <<'EOF'
case b.wrong  variant=harness.wrong dtype=i32 n=1000
case b.pass   variant=harness.pass  dtype=i32 n=1000
case b.wrong2 variant=harness.wrong dtype=i32 n=100
EOF
run_b() { # DB BASELINE [options...]: the b.wrong and b.pass cases
	db=$1 bl=$2; shift 2
	expect_exit "$want" "$what" -- "$CONFORM" --suite "$TMP/b.suite" --filter 'b.wrong' --filter 'b.pass' \
		--seed 1 --db "$db" --baseline "$bl" "$@"
}

# A listed failure: known, and the run conforms.
printf '# this device\n\nb.wrong   off by one on this toolkit (bug 42)\n' >"$TMP/known.bl"
want=0 what="a listed failure" run_b "$TMP/known.db" "$TMP/known.bl" --junit "$TMP/known.xml"
expect_grep "$TMP/out" '^FAIL +b\.wrong \(known: off by one on this toolkit \(bug 42\)\): 1 of 1 outputs wrong' "known on the case's line"
expect_eq "$(tail -n 1 "$TMP/out")" "1 passed, 1 failed (1 known), 0 skipped" "known in the summary line"
expect_grep "$TMP/out" '^PASS 1, FAIL 1 in' "the observed statuses counted"
expect_no_grep "$TMP/err" "." "nothing on stderr"
expect_grep "$TMP/known.xml" '<testsuites name="conform" tests="2" failures="0" errors="0" ' "JUnit: not a failure"
expect_grep "$TMP/known.xml" '<testsuite name="b" tests="2" failures="0" errors="0" skipped="1"' "JUnit counts it skipped"
expect_grep "$TMP/known.xml" '<skipped type="FAIL" message="known failure \(baseline\): off by one on this toolkit \(bug 42\); 1 of 1 outputs wrong' "JUnit: skipped with the reason"
expect_no_grep "$TMP/known.xml" "<failure" "no JUnit failure"
expect_eq "$(sql "$TMP/known.db" "select status from results where case_name = 'b.wrong'")" FAIL "stored with the observed status"
expect_eq "$(sql "$TMP/known.db" "select message like 'known failure (baseline): off by one on this toolkit (bug 42); 1 of 1 outputs wrong%' from results where case_name = 'b.wrong'")" 1 "the note stored in the message"
expect_eq "$(sql "$TMP/known.db" "select failed from runs")" 1 "the run's tallies count observed statuses"

# The same as JSON lines, and by a glob.
printf 'b.wr*  off by one everywhere\n' >"$TMP/glob.bl"
want=0 what="a glob" run_b "$TMP/glob.db" "$TMP/glob.bl" --json
expect_grep "$TMP/out" '"case":"b\.wrong".*"status":"FAIL".*"message":"known failure \(baseline\): off by one everywhere; ' "JSON: the note in the message"
expect_grep "$TMP/out" '^\{"summary":\{"passed":1,"failed":1,"skipped":0,"known":1,"fixed":0,' "JSON: known in the summary"
expect_eq "$(tail -n 1 "$TMP/err")" "1 passed, 1 failed (1 known), 0 skipped" "the summary on stderr with --json"

# An unlisted failure fails the run as before, beside a known one; an entry
# no selected case matches is a warning.
printf 'b.wrong  known\nb.gone   removed from the suites\n' >"$TMP/some.bl"
expect_exit 1 "an unlisted failure" -- "$CONFORM" --suite "$TMP/b.suite" --all --seed 1 \
	--db "$TMP/some.db" --baseline "$TMP/some.bl"
expect_grep "$TMP/out" '^FAIL +b\.wrong2: 1 of 1 outputs wrong' "the unlisted failure, not known"
expect_grep "$TMP/out" '^FAIL +b\.wrong \(known: known\)' "the listed one, known"
expect_eq "$(tail -n 1 "$TMP/out")" "1 passed, 2 failed (1 known), 0 skipped" "the summary"
expect_eq "$(cat "$TMP/err")" "conform: warning: $TMP/some.bl:2: 'b.gone' matches no selected case" "the warning, one line"
printf 'b.other  not this one\n' >"$TMP/other.bl"
want=1 what="a baseline without the failing case" run_b "$TMP/other.db" "$TMP/other.bl"
expect_grep "$TMP/out" '^FAIL +b\.wrong: 1 of 1' "an ordinary FAIL"
expect_eq "$(tail -n 1 "$TMP/out")" "1 passed, 1 failed, 0 skipped" "an ordinary summary"
expect_eq "$(sql "$TMP/other.db" "select count(*) from results where message like 'known failure%'")" 0 "no note stored"

# A listed case that passes: fixed, to be removed; not a failure.
printf 'harness.pass.f32  wrong sums on driver 550\n' >"$TMP/fixed.bl"
expect_exit 0 "a listed case that passes" -- "$CONFORM" --filter 'harness.pass.*' --seed 1 \
	--db "$TMP/fixed.db" --baseline "$TMP/fixed.bl" --junit "$TMP/fixed.xml"
expect_grep "$TMP/out" '^PASS +harness\.pass\.f32 \(fixed, remove it from the baseline: wrong sums on driver 550\)$' "fixed on the case's line"
expect_eq "$(tail -n 1 "$TMP/out")" "3 passed, 0 failed, 0 skipped; 1 fixed, remove it from the baseline" "fixed in the summary"
expect_grep "$TMP/fixed.xml" '<system-out>fixed, remove it from the baseline: listed as known to fail \(wrong sums on driver 550\)' "fixed in JUnit"
expect_eq "$(sql "$TMP/fixed.db" "select status || '|' || message from results where case_name = 'harness.pass.f32'")" "PASS|" "a pass stored as it was"

# Entries of a shard's other cases: ten warnings said, then a count.
: >"$TMP/many.bl"
for i in $(seq 1 15); do echo "gone.$i  removed" >>"$TMP/many.bl"; done
expect_exit 0 "fifteen unmatched entries" -- "$CONFORM" --filter harness.pass.i32 --seed 1 \
	--db "$TMP/many.db" --baseline "$TMP/many.bl"
expect_eq "$(wc -l <"$TMP/err")" 11 "ten warnings and a count"
expect_eq "$(tail -n 1 "$TMP/err")" "conform: warning: $TMP/many.bl: 5 more entries match no selected case" "the count"

# Bad files: one line "conform: FILE:LINE: ...", exit 2, before anything
# runs (no database is even created).
refused() { # FILE REGEX DESCRIPTION
	one_line_exit2 "$3" "$CONFORM" --suite "$TMP/b.suite" --all --db "$TMP/refused.db" --baseline "$1"
	expect_grep "$TMP/err" "^conform: $2" "$3: the message"
	[ ! -e "$TMP/refused.db" ] || fail "$3: a database was created"
	checks=$((checks + 1))
}
refused "$TMP/none.bl" "$TMP/none\.bl: cannot read: No such file or directory$" "a missing file"
refused "$TMP" "$TMP: cannot read: it is a directory$" "a directory"
printf 'b.wrong  fine\nb.pass\n' >"$TMP/noreason.bl"
refused "$TMP/noreason.bl" "$TMP/noreason\.bl:2: 'b\.pass' has no reason \(expected 'CASE_NAME_OR_GLOB REASON\.\.\.'\)$" "a line without a reason"
printf 'b.wrong  fine\nb.pass  \033[2Jcleared\n' >"$TMP/esc.bl"
refused "$TMP/esc.bl" "$TMP/esc\.bl:2: control character 0x1b at column 9 \(a baseline file is printable text\)$" "a control character"
expect_no_grep "$TMP/err" "$(printf '\033')" "the ESC is not echoed"
printf 'b.wrong  fine\nb/pass  bad name\n' >"$TMP/name.bl"
refused "$TMP/name.bl" "$TMP/name\.bl:2: bad character '/' at column 2 in 'b/pass'" "a bad name"
printf 'b.wrong  one\nb.pass  two\nb.wrong  three\n' >"$TMP/twice.bl"
refused "$TMP/twice.bl" "$TMP/twice\.bl:3: 'b\.wrong' is listed twice \(first at line 1\)$" "a name listed twice"
# 62 bytes a line: byte 1048577 is on line 1048576 / 62 + 1.
yes 'b.wrong  a reason that is long enough to fill a megabyte soon' | head -c 1100000 >"$TMP/big.bl"
refused "$TMP/big.bl" "$TMP/big\.bl:16913: the file goes past 1048576 bytes here \(the most a baseline file may hold\)$" "a file over 1 MiB"
refused /dev/zero "/dev/zero: cannot read: it is a device, not a regular file" "/dev/zero"
mkfifo "$TMP/fifo.bl"
expect_exit 2 "a FIFO as --baseline" -- timeout 20 "$CONFORM" --filter 'harness.pass*' --baseline "$TMP/fifo.bl" --db "$TMP/fifo.db"
expect_grep "$TMP/err" "fifo.bl: cannot read: it is a FIFO, not a regular file" "a FIFO as --baseline: why"
seq 1 65537 | sed 's/^/c/; s/$/ r/' >"$TMP/entries.bl"
refused "$TMP/entries.bl" "$TMP/entries\.bl:65537: more than 65536 entries \(the most a baseline may hold\)$" "65537 entries"

# The JUnit report would overwrite the baseline at the end of the run.
one_line_exit2 "--junit is the baseline" "$CONFORM" --suite "$TMP/b.suite" --all --db "$TMP/refused.db" \
	--baseline "$TMP/known.bl" --junit "$TMP/known.bl"
expect_grep "$TMP/err" "^conform: --junit .*known\.bl is the --baseline file" "--junit is the baseline: the message"
expect_grep "$TMP/known.bl" "^b\.wrong +off by one" "the baseline kept"

finish
