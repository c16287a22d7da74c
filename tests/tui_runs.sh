#!/bin/sh
# tui_runs.sh - the runs pane (6) on the H100 tuning database, at 80x24 and
# 200x50: every run listed with its kind, tag and tallies; the two benches
# (runs 2 and 5) marked and compared, one configuration of run 5 made slower
# and one faster with sqlite3, the pane's counts read against "conform
# compare 2 5"'s; u hiding the unchanged items, Esc back to the list, the /
# filter; then a new conformance run whose one result turns a PASS into a
# FAIL, shown as a REGRESSION.  Skipped (77) without tmux or sqlite3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/runs.db"
tui_fixture "$db"
sq() { "${SQLITE3:-sqlite3}" "$db" "$@"; }

# Two configurations timed in both benches (run 5's newest of each): the
# first made twice as slow, the second twice as fast, intervals included.
pair=$(sq "SELECT max(b.id) FROM results b WHERE b.run_id = 5 AND b.status = 'PASS' AND b.samples > 0
	AND EXISTS (SELECT 1 FROM results a WHERE a.run_id = 2 AND a.case_name = b.case_name
		AND a.params = b.params AND a.status = 'PASS' AND a.samples > 0)
	AND b.params LIKE 'block=%' GROUP BY b.case_name, b.params ORDER BY 1 LIMIT 2")
slow=$(echo "$pair" | sed -n 1p)
fast=$(echo "$pair" | sed -n 2p)
checks=$((checks + 1))
[ -n "$slow" ] && [ -n "$fast" ] || { fail "no configuration timed in both benches"; finish; }
sq "UPDATE results SET median_ms = median_ms * 2, ci_low_ms = ci_low_ms * 2, ci_high_ms = ci_high_ms * 2 WHERE id = $slow;
    UPDATE results SET median_ms = median_ms / 2, ci_low_ms = ci_low_ms / 2, ci_high_ms = ci_high_ms / 2 WHERE id = $fast"
slow_cfg=$(sq "SELECT replace(params, ',op=sum', '') FROM results WHERE id = $slow")
fast_cfg=$(sq "SELECT replace(params, ',op=sum', '') FROM results WHERE id = $fast")

# What the command line says of the same two runs: the pane must agree.
expect_exit 1 "conform compare 2 5: one slower" -- "$CONFORM" compare 2 5 --db "$db"
re() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'; }
status_line=$(re "$(sed -n 's/^status: //p' "$TMP/out")")
timing_line=$(re "$(sed -n 's/^timing: //p' "$TMP/out")")
expect_grep "$TMP/out" "^timing: 296 configurations .* 1 slower, 1 faster, 294 same$" "the CLI's timing counts"

# The pane at one size: the list, the comparison of 2 and 5, u, Esc.
runs_checks() {
	launch "'$CONFORM' tui --db '$db'"
	expect_screen "5 Plot +6 Runs +0 checked *$" "$1: the Runs tab, the status whole beside it"
	keys 6
	expect_screen "^Runs +5" "$1: five runs listed"
	expect_screen "^ +5 bench +bench-b +436 +0 +0 " "$1: run 5, bench, tag and tallies"
	expect_screen "^ +1 conformance +nightly +1219 +0 +3 " "$1: run 1, the --all run"
	expect_screen "^ +3 tune +69 +0 +0 .*interrupted" "$1: run 3, the interrupted tune"
	# Newest first: run 5 on the first row, run 1 on the last.
	checks=$((checks + 1))
	[ "$(grep -E '^ +[0-9] ' "$TMP/screen" | awk '{print $1}' | tr -d '\n')" = 54321 ] ||
		fail "$1: runs not newest first"
	# Run 5 is under the cursor: Space marks it, j j j to run 2, Space.
	keys Space j j j Space
	expect_screen "base: run 2 +new: run 5" "$1: Space marks two, the older the base"
	expect_screen "^base +2 bench" "$1: the base marked in the list"
	keys Enter
	expect_screen "^base +run 2 \\(bench, 2026-11-25T05:41:19Z, build ecf0a02, tag bench-a\\)" "$1: the base side"
	expect_screen "^new +run 5 \\(bench, 2026-11-25T05:45:10Z, build ecf0a02, tag bench-b\\)" "$1: the new side"
	expect_screen "^$status_line" "$1: the status counts as conform compare prints them"
	expect_screen "^$timing_line" "$1: the timing counts as conform compare prints them"
	expect_screen "^SLOWER +device\\.[a-z_]+ +2\\^[0-9]+ +$(re "$slow_cfg" | cut -c1-12)" "$1: the slower configuration first"
	expect_screen "^FASTER +device\\.[a-z_]+ +2\\^[0-9]+ +$(re "$fast_cfg" | cut -c1-12)" "$1: then the faster one"
	expect_screen "^SLOWER .* \\+100\\.0% \\[" "$1: the change and its interval"
	expect_screen "^new +device\\." "$1: configurations of run 5 only"
	keys G
	expect_screen "^SAME +device\\." "$1: the unchanged configurations last"
	keys u
	expect_not_screen "^SAME " "$1: u hides the unchanged"
	expect_screen "^removed +device\\." "$1: and keeps the changes"
	keys u G
	expect_screen "^SAME +device\\." "$1: u again lists them"
	keys Escape
	expect_screen "^Runs +5 +base: run 2 +new: run 5" "$1: Esc back to the list, marks kept"
	keys / t u n e Enter
	expect_not_screen "bench-a" "$1: the filter hides the benches"
	expect_screen "^ +4 tune " "$1: and keeps the tunes"
	keys Escape q
	expect_screen "EXIT=0" "$1: q quits"
	keys "clear" Enter
}

tui_session 80 24
runs_checks 80x24
tui_resize 200 50
runs_checks 200x50
# Every column at 200: the list's build and device, the items' medians.
launch "'$CONFORM' tui --db '$db'"
keys 6
expect_screen "Date +State +Build +Device" "200x50: every column of the list"
expect_screen "complete +ecf0a02 +H100 80GB HBM3" "200x50: the build and the short device"
keys b j j j n Enter
expect_screen "^base +run 5 .* on H100 80GB HBM3" "200x50: b and n pick the sides, the device shown"
expect_screen "Change \\[interval\\] +Type +Base us +New us +Status" "200x50: every column of the items"
expect_screen "^FASTER +device\\.[a-z_]+ +2\\^[0-9]+ +$(re "$slow_cfg") +-50\\.0% \\[.*\\] +f32 +[0-9.]+ +[0-9.]+ PASS" "200x50: the whole configuration, medians and status"
keys Escape q
expect_screen "EXIT=0" "200x50: q quits"
keys "clear" Enter

# A new conformance run whose one result turns one of run 1's PASSes into
# a FAIL: Enter on it compares it with the run before it, run 1.
case1=$(sq "SELECT case_name FROM results WHERE run_id = 1 AND status = 'PASS' ORDER BY id LIMIT 1")
sq "INSERT INTO runs (id, started_at, state, git_revision, command_line, device_id, passed, failed, skipped, kind, tag)
	SELECT 6, '2026-11-26T08:00:00Z', 'complete', 'fedcba9', 'conform --all', device_id, 0, 1, 0, kind, 'broken' FROM runs WHERE id = 1;
    INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed, message, duration_ms, created_at)
	SELECT 6, case_name, kernel, variant, params, dtype, n, cols, expect, 'FAIL', 'completed-wrong', 'off by one', duration_ms, '2026-11-26T08:00:01Z'
	FROM results WHERE run_id = 1 AND case_name = '$case1'"
expect_exit 1 "conform compare 1 6: a regression" -- "$CONFORM" compare 1 6 --db "$db"
status_line=$(re "$(sed -n 's/^status: //p' "$TMP/out")")
expect_grep "$TMP/out" "^status: 1 regression, " "the CLI sees the regression"
tui_resize 80 24
launch "'$CONFORM' tui --db '$db'"
keys 6
expect_screen "^ +6 conformance +broken +0 +1 +0 " "the new run listed first"
keys Enter
expect_screen "^base +run 1 \\(conformance" "Enter alone: the run before of its kind is the base"
expect_screen "^new +run 6 \\(conformance" "the new run is the new side"
expect_screen "^$status_line" "the status counts as conform compare prints them"
expect_screen "^REGRESSION +$(re "$case1") +PASS -> FAIL" "the PASS turned FAIL is a REGRESSION, listed first"
keys '?'
expect_screen "changes only: hide the SAME" "the help names u"
keys x q
expect_screen "EXIT=0" "q quits"

finish
