#!/bin/sh
# tui_catalog.sh - the Catalog pane on the H100 tuning database (tests/data)
# and the suites, driven in tmux: the / filter finds a case by every text its
# row shows or stands for (its expectation, its latest failing status, its
# type and parameters, its variant's and family's names), n and N step
# through the cases whose latest result failed, and at 200 columns the tree
# takes the width its rows need, the detail the rest.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/h100.db"
tui_fixture "$db"
# A later run where two suite cases failed: their marks, FAIL and TIMEOUT,
# are in the tree, not in their names.
sql "$db" "insert into runs(id, started_at, state, command_line, seed, passed, failed, skipped)
	values (6, '2026-11-26T10:00:00Z', 'complete', 'conform run', '1', 0, 2, 0)"
for c in "block.tree.sum.f32.b256 FAIL completed-wrong" "block.tree.max.f32.b512 TIMEOUT hung"; do
	set -- $c
	sql "$db" "insert into results(run_id, case_name, kernel, variant, params, dtype, n, cols, expect,
		status, observed, message, duration_ms, created_at, seed)
		values (6, '$1', 'block', 'block.tree', 'block=256,op=sum', 'f32', 100003, 0, 'pass', '$2', '$3',
		'planted', 5.0, '2026-11-26T10:00:01Z', '1')"
done

tui_session 80 24
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "the interface on the H100 database"

# --- The filter matches every text of a row ---------------------------------
keys / h a n g Enter
expect_screen "rows\\.seed_naive\\.uneven +hang" "/hang finds a case expected to hang, not named so"
expect_screen "seeds\\.subwarp_barrier\\.n33 +hang" "and a kernel file's case expected to hang"
expect_not_screen "block\\.tree\\.sum" "and no case that is not"
keys / C-u F A I L Enter
expect_screen "block\\.tree\\.sum\\.f32\\.b256 +FAIL" "/FAIL finds the case whose latest result failed"
expect_not_screen "block\\.tree\\.max\\.f32\\.b512" "and not the TIMEOUT"
keys / C-u T I M E O U T Enter
expect_screen "block\\.tree\\.max\\.f32\\.b512 +TIMEOUT" "/TIMEOUT finds the case that timed out"
keys / C-u l a u n c h - e r r o r Enter
# (Its name is cut at 80 columns; the detail beside it says it.)
expect_screen "\\[ \\] divergence\\.[^ ]*too_large +launch-error [│|]" "/launch-error finds the case expected to fail its launch"
expect_screen "[│|] divergence\\.coop_grid\\.too_large *$" "the cursor on it"
keys / C-u g r i d = t o o _ l a r g e Enter
expect_screen "\\[ \\] divergence\\.[^ ]*too_large +launch-error [│|]" "a case's parameters match"
expect_not_screen "divergence\\.coop_grid\\.fit" "and only its"
# A glob is matched against the whole text: [d]evice is the family's name.
keys / C-u '[' d ']' e v i c e Enter
expect_screen "device\\.atomic" "a glob matches a family's name"
keys BSpace
expect_screen "^▾ \\[ \\] harness|^v \\[ \\] harness" "Backspace clears the filter"

# --- n / N: the cases whose latest result failed -----------------------------
keys g n
expect_screen "[│|] block\\.tree\\.sum\\.f32\\.b256 *$" "n goes to the first failed case, unfolding its variant"
expect_screen "last: FAIL in run #6" "its detail says the failure"
keys n
expect_screen "[│|] block\\.tree\\.max\\.f32\\.b512 *$" "n again: the next one"
keys n
expect_screen "[│|] block\\.tree\\.sum\\.f32\\.b256 *$" "n wraps around"
keys N
expect_screen "[│|] block\\.tree\\.max\\.f32\\.b512 *$" "N goes back, wrapping"
keys / C-u h a n g Enter n
expect_screen "no failure among the cases shown" "n under a filter that shows no failure says so"
keys Escape q
expect_screen "^EXIT=0" "q leaves the interface"

# --- At 200 columns the tree takes what it needs -----------------------------
tui_resize 200 50
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "the interface at 200x50"
# The count right of its name, not 100 columns away (the tree took 58 %).
expect_screen "\\[ \\] harness {1,60}8 [│|]" "a family's count near its name"
expect_screen "\\[ \\] harness\\.pass {1,60}4 [│|]" "a variant's count near its name"
expect_screen "^Kernels and cases: 0 of [0-9]+ checked {1,40}[│|] Detail" "the detail starts where the tree ends"
# The longest case name and its mark still fit.
keys / d e v i c e . c u b _ s e g m e n t e d . s u m . b f 1 6 . r 1 0 0 1 . c 4 0 9 9 Enter
expect_screen "\\[ \\] device\\.cub_segmented\\.sum\\.bf16\\.r1001\\.c4099 +[│|]" "the longest case name in full"
keys Escape q
expect_screen "^EXIT=0" "q leaves at 200x50"
finish
