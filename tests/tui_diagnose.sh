#!/bin/sh
# tui_diagnose.sh - failures that explain themselves, in the interface
# (driven in tmux at 120x40, host cases only, no GPU):
#  - the Results pane's detail of a failing case that "conform run --shrink
#    --sanitize memcheck" stored says what the sanitizer said, the pattern
#    of the failing sizes, the smallest failing size and the command that
#    reproduces it, each labelled; a passing case's detail has no empty
#    labels;
#  - S asks to run the case under the cursor again under memcheck, S again
#    offers racecheck, synccheck, initcheck and memcheck again, any other key
#    drops the question, and y runs that one case, with its run's seed,
#    under the tool CONFORM_SANITIZER names (a stand-in writing a recorded
#    memcheck report): a new run whose result is a sanitizer-finding.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"
command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: not tested"; exit 77; }
DATA="$top_srcdir/tests/data/sanitizer"
db="$TMP/d.db"

# Wrong when n is not a multiple of 4 (a pattern over these sizes), and a
# case that passes, which the recorded report will fail.
cat >"$TMP/d.suite" <<'EOF'
case harness.unal.{n} variant=harness.wrong_unaligned dtype=f64 n=1|4|31|32|33|64
case harness.ok variant=harness.pass dtype=f32 n=64
EOF
sanitizer_stand_in "$TMP/fake-sanitizer"
export CONFORM_SANITIZER="$TMP/fake-sanitizer" FAKE_ARGS="$TMP/args"
FAKE_LOG="$DATA/clean.txt" expect_exit 1 "a run with planted failures, shrunk, under the stand-in" -- \
	"$CONFORM" run --suite "$TMP/d.suite" --filter 'harness.*' --shrink --sanitize memcheck --seed 5 --db "$db"
expect_eq "$(sql "$db" "SELECT count(*) FROM results WHERE case_name = 'harness.unal.1' AND sanitizer IS NOT NULL
	AND shrunk IS NOT NULL AND repro IS NOT NULL AND pattern IS NOT NULL")" 1 \
	"the database holds a failure with all four"

tui_session 120 40
: >"$TMP/args"
# The shell in tmux has the environment of tmux's start: the stand-in's is
# given on the command line.
launch "CONFORM_SANITIZER='$TMP/fake-sanitizer' FAKE_ARGS='$TMP/args' FAKE_LOG='$DATA/memcheck_writes_past_out.txt'" \
	"'$CONFORM' tui --db '$db' --suite '$TMP/d.suite'"
expect_screen "1 Catalog" "the interface"
keys 4
expect_screen "^Run #1 +complete" "Results on the shrunk run"
expect_screen "S Sanitize" "the key bar names S"
# --- the detail -----------------------------------------------------------
keys Enter
expect_screen "^FAIL +harness\\.unal\\.1$" "the detail of the first failure"
expect_screen "^sanitizer: memcheck: no errors$" "what the sanitizer said"
expect_screen "^pattern: fails only at sizes that are not a multiple of 4 " "the pattern of the failing sizes"
expect_screen "^smallest failing: smallest failing size n = 1; 0 probes$" "the smallest failing size"
expect_screen "^reproduce: conform run --suite $TMP/d\\.suite --filter harness\\.unal\\.1 --n 1 --seed 5$" \
	"the command that reproduces it"
keys j
expect_screen "^PASS +harness\\.unal\\.4$" "the detail of a pass"
expect_not_screen "^(pattern|smallest failing|reproduce):" "no empty labels where nothing was stored"
keys Enter
# --- S: the case again under a sanitizer ----------------------------------
keys G S
expect_screen "Re-run harness\\.ok \\(seed 5\\) under memcheck\\? y/n  S: racecheck instead" \
	"S asks, memcheck first, with the run's seed"
keys S
expect_screen "under racecheck\\? y/n  S: synccheck instead" "S again: racecheck"
keys S S
expect_screen "under initcheck\\? y/n  S: memcheck instead" "then synccheck, initcheck"
keys Escape
expect_not_screen "Re-run" "any other key drops the question"
keys y
expect_not_screen "^Run #2" "and a y after it runs nothing"
# A key the screen takes before the pane (? opens the help) drops the
# question as well: no y after it runs what was no longer on screen.
keys S
expect_screen "under memcheck\\? y/n" "S asks again"
keys '?'
keys Escape
keys y
expect_not_screen "^Run #2" "? then Esc drops the question: y runs nothing"
keys S S S S S
expect_screen "under memcheck\\? y/n  S: racecheck instead" "round again to memcheck"
keys y
expect_screen "^Run #2 +conformance under memcheck +seed 5 +1 case" "y runs the one case under memcheck" 10
expect_screen "^Done: 0 passed, 1 failed" "the report fails it" 10
expect_eq "$(sql "$db" "SELECT count(*) || ' ' || group_concat(case_name || ' ' || observed) FROM results WHERE run_id = 2")" \
	"1 harness.ok sanitizer-finding" "the new run holds the case, a sanitizer finding"
expect_eq "$(sql "$db" "SELECT seed || ' ' || command_line FROM runs WHERE id = 2")" \
	"5 conform tui --seed 5 --sanitize memcheck: harness.ok" "with the run's seed, saying the tool"
expect_grep "$TMP/args" "^--tool memcheck --log-file .*conform-worker .*--exact-buffers$" \
	"the worker ran under the stand-in's memcheck"
keys 4
expect_screen "^Run #2 +complete +0 passed, 1 failed" "Results follows the new run"
keys Enter
expect_screen "^sanitizer: memcheck: Invalid __global__ write of size 4 bytes in writes_past_out" \
	"its detail says what memcheck found"
keys q
expect_screen "^EXIT=0" "q leaves"
finish
