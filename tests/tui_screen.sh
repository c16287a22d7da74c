#!/bin/sh
# tui_screen.sh - the interface's screen manager and its first two panes,
# driven in tmux at 80x24 (and 200x50 where width matters): notes read whole
# on the message line, an invalid size list given back to the prompt, the
# problem pane's count following the mode and matching what r runs, headings
# the cursor passes over, the help scrolling, q and c asking during a run,
# the catalog under a filter (folds, match counts, failures marked, cut
# names ending with an ellipsis), and harness.spin checked and swept from
# the shipped suites.  Skipped (77) when tmux or sqlite3 is missing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"
command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: not tested"; exit 77; }

fast="--min-samples 5 --max-time 0.01 --timeout 5"
tui_session 80 24

# --- Notes whole on the message line; an invalid size list kept -------------
printf 'case harness.spin.f32 variant=harness.spin dtype=f32 n=4096\n' >"$TMP/spin.suite"
db="$TMP/screen.db"
launch "'$CONFORM' tui --db '$db' --suite '$TMP/spin.suite' --budget 7 $fast"
expect_screen "1 Catalog" "start"
keys m
expect_screen "^ r now makes a sweep: every configuration of the checked variants, each size *$" "m's note whole at 80 columns"
keys / s p i n Enter a Escape 2
expect_screen "What r will run: a sweep" "the problem pane names the mode"
# Problem rows: 0 "Element type", 1-6 the types, 7 "Sizes (n)", 8-10 the
# size choices.  g goes to row 1, and eight j from there reach "a list" (row
# 10) when the heading is passed over.
keys g j j j j j j j j Enter a b c Enter
expect_screen "^ sizes: 'abc' is not a count; write counts such as 1000, 4096 or 2\\^20 *$" "the reason whole on the message line"
expect_screen "^Sizes: abc " "the prompt opens again with what was typed"
keys C-u 1 0 2 4 , 4 0 9 6 Enter
expect_screen "a list: 1024,4096" "the corrected list is taken"
expect_not_screen "Sizes: " "and the prompt is closed"

# --- The count follows the mode, and is what r runs -------------------------
expect_screen "1 checked -> 150 evaluations" "sweep: 75 configurations at two sizes"
expect_screen "1 variant x 2 sizes, f32" "sweep: variants and sizes"
keys m
expect_screen "1 checked -> 14 evaluations" "tune: the budget of 7 at two sizes"
expect_screen "budget 7 x 1 variant x 2 sizes" "tune: the budget's product"
keys m
expect_screen "1 checked -> 2 cases" "conformance: one case per size"
keys m
expect_screen "1 checked -> 150 evaluations" "sweep again"
keys r
expect_screen "Run #1 +sweep .* 150 evaluations" "the sweep's header says the pane's count" 5
expect_screen "Done: " "the sweep ends" 30
keys 2 m
expect_screen "1 checked -> 14 evaluations" "tune again"
keys r
expect_screen "Run #2 +tune .* 14 evaluations" "the tune's header says the pane's count" 5
expect_screen "Done: " "the tune ends" 30

# --- Headings are not cursor stops ------------------------------------------
# Six j from row 1 pass "Sizes (n)" to the sizes' first choice, "each case's
# own": the tune then makes 7 evaluations, at the suite's one size.
keys 2 g j j j j j j Space
expect_screen "1 checked -> 7 evaluations" "j passes over the heading"
# And k from there goes to the last type, not back to the heading.
keys k Space
expect_screen "\\(\\*\\) bf16" "k passes over the heading"
keys g j Space
expect_screen "\\(\\*\\) f32" "Space on the second row picks f32"
keys g Space
expect_screen "^  \\(\\*\\) each case's own +│ budget" "Home lands on the first choice, not the heading"

# --- The help scrolls at 80x24 ----------------------------------------------
keys 1 '?'
expect_screen "lines 1-20 of [0-9]+, more below" "the help says there is more"
expect_not_screen "cancels the run and +│" "the last line is below"
keys j
expect_screen "lines 2-21 of " "j scrolls a line"
keys End
expect_screen "cancels the run and +│" "End shows the last lines"
expect_screen "quits\\) +│" "down to the very last"
expect_not_screen "more below" "and nothing is below"
keys Escape
expect_not_screen "conform - keys" "Esc closes the help"
keys '?' q
expect_not_screen "conform - keys" "q closes the help"
expect_not_screen "EXIT=" "without quitting"
keys q
expect_screen "^EXIT=0" "q quits at once without a run"

# --- q and c ask during a run -----------------------------------------------
slow="$TMP/slow.db"
printf 'case harness.spin.f32 variant=harness.spin dtype=f32 n=2^24\n' >"$TMP/slow.suite"
launch "'$CONFORM' tui --db '$slow' --suite '$TMP/slow.suite' --min-samples 5 --max-time 0.5 --timeout 5"
expect_screen "1 Catalog" "slow start"
keys / s p i n Enter a Escape m r
expect_screen "running 0/77" "the slow sweep runs" 5
keys c
expect_screen "^ Cancel run #1\\? y/n" "c asks"
keys n
expect_not_screen "Cancel run" "n answers"
expect_not_screen "cancelled" "and the run goes on"
expect_screen "running [0-9]+/77" "still running"
keys c y
expect_screen "Cancelled: " "y cancels" 3
expect_eq "$(sql "$slow" "select state from runs where id = 1")" interrupted "the cancelled sweep is interrupted"
keys r
expect_screen "running 0/77" "a second sweep" 5
keys q
expect_screen "^ Quit and cancel run #2\\? y/n" "q asks"
keys x
expect_not_screen "EXIT=" "x keeps the interface"
expect_screen "running [0-9]+/77" "and the run"
keys q y
expect_screen "^EXIT=0" "q y quits" 5
expect_eq "$(sql "$slow" "select state from runs where id = 2")" interrupted "the run quit is interrupted"

# --- The catalog under a filter ---------------------------------------------
cat >"$TMP/cat.suite" <<'SUITE'
case harness.pass.{dtype} variant=harness.pass dtype=f32|f64|i32 n=1000
case harness.pass.with_a_name_much_too_long_for_the_tree variant=harness.pass dtype=f32 n=1000
case harness.wrong.i32 variant=harness.wrong dtype=i32 n=1000 expect=fail
SUITE
cdb="$TMP/cat.db"
"$CONFORM" --suite "$TMP/cat.suite" --filter harness.pass.i32 --db "$cdb" >/dev/null 2>&1 || fail "seeding the catalog database"
sql "$cdb" "update results set status = 'FAIL', observed = 'completed-wrong' where case_name = 'harness.pass.i32'"
launch "'$CONFORM' tui --db '$cdb' --suite '$TMP/cat.suite'"
expect_screen "1 Catalog" "catalog start"
keys j Enter
expect_screen "harness\\.pass\\.with[a-z_]*(…|~)[a-z_]*_for_the_tree │" "a cut name is cut in the middle, its start and end kept"
keys / i 3 2 Enter
expect_screen "harness +2 of 6 " "the family counts its matches"
expect_screen "harness\\.pass +1 of 4 " "the variant counts its matches"
expect_screen "harness\\.pass\\.i32 +FAIL " "the failed case is marked"
expect_screen "harness\\.wrong\\.i32 +fail " "the expected failure keeps its expectation"
# The cursor is on the first match; Left goes to its variant, Left folds it.
keys Left Left
expect_not_screen "harness\\.pass\\.i32" "Left folds a variant under the filter"
expect_screen "harness\\.wrong\\.i32" "the other variant stays open"
keys Left Left
expect_not_screen "harness\\.wrong\\.i32" "and the family folds"
keys Enter
expect_screen "harness\\.wrong\\.i32" "Enter opens the family again"
expect_not_screen "harness\\.pass\\.i32" "the variant stays folded"
keys Escape
expect_screen "harness\\.pass\\.i32 +FAIL " "without the filter the tree is as it was"
expect_screen "harness +6 " "and counts all cases"
tui_resize 200 50
expect_screen "harness\\.pass\\.with_a_name_much_too_long_for_the_tree " "at 200 columns the name is whole"
tui_resize 80 24
keys q
expect_screen "^EXIT=0" "catalog q"

# --- harness.spin from the shipped suites -----------------------------------
shipped="$TMP/shipped.db"
launch "'$CONFORM' tui --db '$shipped' $fast"
expect_screen "1 Catalog" "shipped start"
keys / s p i n Enter
expect_screen "harness\\.spin +1 of 1 " "harness.spin has a case"
expect_screen "[─-] +\\[ \\] harness\\.spin\\.f32\\.default" "its default case"
expect_screen "problem: f32, n = 1048576" "at 2^20"
keys Space Escape 2 g j j j j j j j j Enter 4 0 9 6 Enter m
expect_screen "1 checked -> 75 evaluations" "the pane counts its sweep"
keys r
expect_screen "Run #1 +sweep .* 75 evaluations" "it is swept" 5
expect_screen "Done: 73 passed, 0 failed, 4 skipped" "the sweep ends" 30
keys q
expect_screen "^EXIT=0" "shipped q"
expect_eq "$(sql "$shipped" "select count(*) > 70 from results where variant = 'harness.spin' and n = 4096")" 1 "its evaluations stored"
finish
