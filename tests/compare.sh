#!/bin/sh
# compare.sh - conform compare on databases made here: conformance runs of
# the host-only harness whose expectation changes between runs, and bench
# runs whose timings are written with sqlite3 to hit each verdict: a
# configuration slower beyond the threshold and the noise, one slower
# within the noise, one within the threshold; shards of a tag compared as
# one run; every output form read back by a real parser; every exit code.
. "$(dirname "$0")/lib.sh"

command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: skipped"; exit 77; }

db="$TMP/c.db"
one_line_exit2 "no database" "$CONFORM" compare --db "$TMP/none.db"

# --- Status: an expectation changed between two conformance runs --------
suite() { printf 'case harness.wrong.i32 variant=harness.wrong dtype=i32 n=64 expect=%s\ncase harness.pass.i32 variant=harness.pass dtype=i32 n=64\n' "$1" >"$TMP/s.suite"; }
suite fail
expect_exit 0 "first run" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --db "$db"
one_line_exit2 "one run: no base" "$CONFORM" compare --db "$db"
expect_grep "$TMP/err" "no finished conformance run" "no base: why"
expect_exit 0 "second run, the same" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --db "$db"
expect_exit 0 "identical runs" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^status: 0 regressions, 0 fixed, 0 other changes, 0 new, 0 removed$" "identical: no change"
expect_grep "$TMP/out" "^result: 0 regressions, 0 slower configurations: exit 0$" "identical: exit 0 said"
suite pass
expect_exit 1 "third run, the expectation changed" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --db "$db"
expect_exit 1 "a case became a failure" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^  regression +harness\.wrong\.i32 +XFAIL -> FAIL +\(completed-wrong -> completed-wrong\)$" "the regression listed"
expect_exit 1 "named runs: 2 3" -- "$CONFORM" compare 2 3 --db "$db"
expect_exit 0 "named runs: 1 2" -- "$CONFORM" compare 1 2 --db "$db"
expect_exit 0 "reversed: fixed" -- "$CONFORM" compare 3 2 --db "$db"
expect_grep "$TMP/out" "^  fixed +harness\.wrong\.i32 +FAIL -> XFAIL" "the fix listed"
expect_exit 1 "last~1 last" -- "$CONFORM" compare last~1 last --db "$db"
# The failures of run 3 as a baseline: with it, that run's suite passes.
expect_exit 0 "write a baseline" -- "$CONFORM" compare 3 --write-baseline "$TMP/known.txt" --db "$db"
expect_grep "$TMP/out" "known.txt: 1 known failure of run 3$" "what was written"
expect_grep "$TMP/known.txt" "^harness\.wrong\.i32  FAIL \(completed-wrong\) in run 3, build " "the baseline's line"
expect_exit 0 "the run with the baseline" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --baseline "$TMP/known.txt" --db "$TMP/other.db"
# A database may hold failures under names no suite gives (empty, with a
# space or a glob character): those are left out with one line, the rest
# written ("Invalid argument" wrote nothing).
cp "$db" "$TMP/names.db"
sql "$TMP/names.db" "insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status,
	observed, duration_ms, created_at) select 3, x.name, 'k', 'k.v', '', 'f32', 1, 0, 'pass', 'FAIL', 'completed-wrong',
	1, 'x' from (select '' as name union all select 'a b' union all select 'c*d') x"
expect_exit 0 "a baseline with names no suite gives" -- "$CONFORM" compare 3 --write-baseline "$TMP/names.txt" --db "$TMP/names.db"
expect_eq "$(cat "$TMP/err")" "conform: --write-baseline: 3 failing results left out: their case name is not one a suite can give ('', ...)" "the names left out, one line"
expect_grep "$TMP/out" "names.txt: 1 known failure of run 3$" "the rest written"
expect_exit 0 "the run with that baseline" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --baseline "$TMP/names.txt" --db "$TMP/other.db"
one_line_exit2 "a baseline from two sides" "$CONFORM" compare 2 3 --write-baseline "$TMP/k2.txt" --db "$db"
one_line_exit2 "a baseline where no file can be" "$CONFORM" compare 3 --write-baseline "$TMP/no/such/dir/b.txt" --db "$db"
expect_exit 1 "the git revision of the build" -- "$CONFORM" compare 1 "$(sql "$db" "select git_revision from runs where id = 3")" --db "$db"

# A database is data: a case name and a tag holding escape sequences reach
# the terminal as '?', in every form compare prints for it.
cp "$db" "$TMP/esc.db"
sql "$TMP/esc.db" "update results set case_name = 'harness.wrong' || char(27) || '[31m.i32' where case_name = 'harness.wrong.i32'; update runs set tag = 'x' || char(27) || ']0;owned' || char(7) where id = 3"
expect_exit 1 "compare -v of escape sequences" -- "$CONFORM" compare -v 2 3 --db "$TMP/esc.db"
checks=$((checks + 1))
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/out" "$TMP/err" || LC_ALL=C grep -q "$(printf '\007')" "$TMP/out"; then
	fail "compare -v wrote a raw ESC or BEL"
fi
expect_grep "$TMP/out" "harness\.wrong\?\[31m\.i32" "the case name with its escape shown as ?"
expect_exit 1 "compare --markdown of escape sequences" -- "$CONFORM" compare --markdown -v 2 3 --db "$TMP/esc.db"
checks=$((checks + 1))
LC_ALL=C grep -q "$(printf '\033')" "$TMP/out" && fail "compare --markdown wrote a raw ESC"

# --- Timing: bench runs written here ---------------------------------------
# run ID KIND TAG: a finished run; result RUN PARAMS MEDIAN LOW HIGH.
run() { sql "$db" "insert into runs (id, started_at, state, kind, tag, git_revision) values ($1, '2026-01-01T00:00:$1Z', 'complete', '$2', nullif('$3', ''), 'abc1234')"; }
result() {
	sql "$db" "insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed, duration_ms, created_at, median_ms, samples, ci_low_ms, ci_high_ms, spread, noise_met, timer, op)
		values ($1, 'tune.device.v', 'device', 'device.v', '$2', 'f32', 1048576, 0, 'pass', 'PASS', 'completed-correct', 1.0, 'x', $3, 100, $4, $5, 0.01, 1, 'cupti', 'sum')"
}
run 11 bench ""
result 11 "b=1,op=sum" 1.00 0.99 1.01
result 11 "b=2,op=sum" 2.00 1.99 2.01
result 11 "b=3,op=sum" 3.00 2.90 3.10
result 11 "b=4,op=sum" 4.00 3.99 4.01
run 12 bench ""
result 12 "b=1,op=sum" 1.00 0.99 1.01
result 12 "b=2,op=sum" 2.30 2.29 2.31
result 12 "b=3,op=sum" 3.30 3.05 3.60
result 12 "b=4,op=sum" 4.12 4.11 4.13
expect_exit 1 "bench: one slower" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^base: run 11 \(bench, " "the kind of the newest run"
expect_grep "$TMP/out" "^timing: 4 configurations timed in both, threshold 5%: 1 slower, 0 faster, 3 same$" "verdict counts"
expect_grep "$TMP/out" "^  SLOWER  device\.v f32 sum n=2\^20 b=2$" "the slower configuration"
expect_grep "$TMP/out" "^          2000\.000 us \[1990\.000, 2010\.000\] -> 2300\.000 us \[2290\.000, 2310\.000\]: \+15\.0% \[\+13\.9%, \+16\.1%\]$" "by how much, with its interval"
expect_no_grep "$TMP/out" "b=3$" "slower within the noise: not listed"
expect_exit 0 "a higher threshold" -- "$CONFORM" compare --threshold 20% --db "$db"
expect_exit 1 "a lower one catches b=4 (+3 %, apart)" -- "$CONFORM" compare --threshold 2 --db "$db"
expect_grep "$TMP/out" "2 slower" "b=2 and b=4"
expect_exit 0 "conformance runs still pair by kind" -- "$CONFORM" compare 1 2 --db "$db"
one_line_exit2 "nothing in both" "$CONFORM" compare 2 11 --db "$db"
expect_grep "$TMP/err" "nothing to compare: no case or configuration is in both run 2 and run 11" "nothing in both: why"
# "Did sum at 2^20 get slower?" - one command, the exit code the answer.
expect_exit 1 "filtered: sum at 2^20" -- "$CONFORM" compare --n 2^20 --op sum --dtype f32 --filter 'device.*' --db "$db"
one_line_exit2 "filtered: another size" "$CONFORM" compare 11 12 --n 2^24 --db "$db"
expect_grep "$TMP/err" "nothing to compare: no case or configuration that the filters take is in both run 11 and run 12" "a filter that takes nothing is no pass"
one_line_exit2 "filtered: another variant" "$CONFORM" compare 11 12 --filter 'harness.*' --db "$db"

expect_exit 1 "markdown" -- "$CONFORM" compare --markdown --db "$db"
expect_grep "$TMP/out" "^## conform compare: regression$" "markdown heading"
expect_grep "$TMP/out" "^\| \*\*SLOWER\*\* \| \`device\.v f32 sum n=2\^20 b=2\` \| 2000\.000 \[1990\.000, 2010\.000\] \| 2300\.000 \[2290\.000, 2310\.000\] \| \+15\.0% \| \[\+13\.9%, \+16\.1%\] \|$" "markdown row"
expect_exit 1 "json and junit" -- "$CONFORM" compare --json --junit "$TMP/c.xml" --db "$db"
if command -v python3 >/dev/null 2>&1; then
	expect_eq "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
slow = [r for r in rows if r.get("verdict") == "SLOWER"]
s = rows[-1]["summary"]
print(len(slow), slow[0]["params"], round(slow[0]["ratio"], 3), s["slower"], s["same"], s["exit"])' "$TMP/out")" \
		"1 b=2,op=sum 1.15 1 3 1" "json lines parsed"
	expect_eq "$(python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
cases = t.findall(".//testcase")
print(t.get("failures"), len(cases), [c.get("name") for c in cases if c.find("failure") is not None])' "$TMP/c.xml")" \
		"1 4 ['device.v f32 sum n=2^20 b=2']" "junit parsed"
else
	echo "python3 not found: json and junit not parsed"
fi

# A run of another kind and build.
sql "$db" "insert into runs (id, started_at, state, kind, git_revision) values (13, '2026-01-01T00:00:13Z', 'complete', 'tune', 'v1.2-3-gdef5678-dirty')"
result 13 "b=1,op=sum" 1.00 0.99 1.01
expect_exit 0 "across kinds and builds" -- "$CONFORM" compare 11 13 --db "$db"
expect_grep "$TMP/out" "^WARNING: different kinds of run \(bench, tune\); different builds \(abc1234, v1\.2-3-gdef5678-dirty\)$" "said loudly"
expect_exit 0 "a full SHA, in capitals, finds a describe-style revision" -- "$CONFORM" compare 11 DEF5678AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA --db "$db"
expect_grep "$TMP/out" "^new:  run 13 " "the run built from it"
expect_exit 0 "the same run twice" -- "$CONFORM" compare 12 12 --db "$db"
expect_grep "$TMP/out" "^WARNING: the same run on both sides$" "the same run: said"

# --- Tags: the shards of two jobs, compared as one run each ----------------
run 21 bench base
result 21 "b=1,op=sum" 1.00 0.99 1.01
run 22 bench base
result 22 "b=2,op=sum" 2.00 1.99 2.01
run 23 bench cand
result 23 "b=2,op=sum" 1.50 1.49 1.51
run 24 bench cand
result 24 "b=1,op=sum" 1.00 0.99 1.01
expect_exit 0 "two tags" -- "$CONFORM" compare --tag base --tag cand --db "$db"
expect_grep "$TMP/out" "^base: tag base \(2 runs\) " "the base side: both shards"
expect_grep "$TMP/out" "^timing: 2 configurations timed in both, threshold 5%: 0 slower, 1 faster, 1 same$" "paired across shards"
expect_exit 1 "a tag against a run" -- "$CONFORM" compare --tag base 12 --db "$db"

# --- Usage ------------------------------------------------------------------
one_line_exit2 "bad threshold" "$CONFORM" compare --threshold 0 --db "$db"
one_line_exit2 "bad threshold text" "$CONFORM" compare --threshold 5x --db "$db"
one_line_exit2 "bad kind" "$CONFORM" compare --kind nightly --db "$db"
one_line_exit2 "three sides" "$CONFORM" compare --tag base 1 2 --db "$db"
one_line_exit2 "no such run" "$CONFORM" compare 1 999 --db "$db"
one_line_exit2 "not a reference" "$CONFORM" compare 1 zzz --db "$db"
one_line_exit2 "no such tag" "$CONFORM" compare --tag nope --tag cand --db "$db"
# Without --kind the new side's kind is not known yet: no word, and no
# gap where it would be.
one_line_exit2 "no such tag, no kind" "$CONFORM" compare --tag base --tag nope --db "$db"
expect_grep "$TMP/err" "^conform: --tag nope: no finished run has this tag$" "no such tag, no kind: the message"
one_line_exit2 "bad --n" "$CONFORM" compare --n 2^x --db "$db"
one_line_exit2 "markdown and json" "$CONFORM" compare --markdown --json --db "$db"
# The two sides are read in the order of the names as conform shows them
# (made printable), not of the bytes stored: a control byte sorts before
# '?' and its printable form after "a?a", and pairing by the stored order
# called "a?a" both new and removed.
db="$TMP/order.db"
expect_exit 0 "a run for the order" -- "$CONFORM" --filter 'harness.pass*' --seed 1 --db "$db"
expect_exit 0 "another" -- "$CONFORM" --filter 'harness.pass*' --seed 2 --db "$db"
sql "$db" "update results set case_name = 'a' || char(1) || 'b' where run_id = 1 and case_name = 'harness.pass.f32';
	update results set case_name = 'a?a' where case_name = 'harness.pass.f64';
	delete from results where run_id = 2 and case_name = 'harness.pass.f32'"
expect_exit 0 "compare of names a control byte orders apart" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^status: 0 regressions, 0 fixed, 0 other changes, 0 new, 1 removed$" "a?a paired, a\\\\x01b removed"

# --- docs/ci.md: the gate's workflow --------------------------------------
# In the GitHub workflow a step after the run that fails the job (a
# regression, a failed case) must still compare and upload: each step that
# runs conform compare, db info or uploads the database says !cancelled().
awk '/^## GitLab CI/ { exit }
	/^      - / { if (step != "") print step; step = "" }
	/^      - |^        / { step = step $0 " " }
	END { if (step != "") print step }' "$top_srcdir/docs/ci.md" |
	grep -E 'conform compare|conform db info|upload-artifact' >"$TMP/ci-steps"
expect_eq "$(wc -l <"$TMP/ci-steps")" 6 "docs/ci.md: the GitHub steps that compare, inspect and upload"
expect_no_grep "$TMP/ci-steps" '^ *- (run|uses):' "docs/ci.md: every such step has an if"
checks=$((checks + 1))
grep -v '!cancelled()' "$TMP/ci-steps" >"$TMP/ci-bad" && fail "docs/ci.md: steps that a failure skips: $(cat "$TMP/ci-bad")"
finish
