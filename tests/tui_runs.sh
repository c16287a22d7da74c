#!/bin/sh
# tui_runs.sh - the runs pane (6) on the H100 tuning database, at 80x24 and
# 200x50: every run listed with its kind, tag and tallies; the two benches
# (runs 2 and 5) marked with Space and compared, one configuration of run 5
# made slower and one faster with sqlite3, the pane's counts read against
# "conform compare 2 5"'s; u hiding the unchanged items, the count of those
# listed staying on screen, Esc back to the list, x swapping the sides, the
# / filter; then a new conformance run whose one result turns a PASS into a
# FAIL, shown as a REGRESSION; then a run of two kernel files (its Kernel
# column and whole command line), n / N over the runs with failures, and a
# run whose case changed only its observed behaviour: its Observed column,
# its detail on Enter in conform compare's words, n / N over the notable
# items.  Skipped (77) without tmux or sqlite3.
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
# Every item is a case and configuration of either run; every one in both
# is timed, so u (changes only) leaves all but the SAME.
total=$(sq "SELECT count(*) FROM (SELECT DISTINCT case_name, params FROM results WHERE run_id IN (2, 5))")
listed=$((total - $(sed -n 's/^timing: .* \([0-9]*\) same$/\1/p' "$TMP/out")))

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
	expect_screen "^SLOWER .* \\+100\\.0%( |$)" "$1: the change of median"
	expect_screen "^new +device\\." "$1: configurations of run 5 only"
	expect_screen "$total of $total listed$" "$1: how many items are listed"
	keys G
	expect_screen "^SAME +device\\." "$1: the unchanged configurations last"
	keys u
	expect_not_screen "^SAME " "$1: u hides the unchanged"
	expect_screen "^removed +device\\." "$1: and keeps the changes"
	expect_screen "$listed of $total listed, changes only$" "$1: the count after u"
	keys u G
	expect_screen "^SAME +device\\." "$1: u again lists them"
	keys Escape
	expect_screen "^Runs +5 +base: run 2 +new: run 5" "$1: Esc back to the list, marks kept"
	keys / t u n e Enter
	expect_not_screen "bench-a" "$1: the filter hides the benches"
	expect_screen "^ +4 tune " "$1: and keeps the tunes"
	# The comparison has a filter of its own: the list's words name runs.
	keys Enter
	expect_screen "^base +run 2 " "$1: Enter on the filtered list compares the marked runs"
	expect_screen " $total of $total listed$" "$1: the list's filter (tune) is not the comparison's"
	keys / d e v i c e . c u b Enter
	expect_screen " [1-9][0-9]* of $total listed$" "$1: a filter of the comparison's own"
	keys Escape
	expect_screen " $total of $total listed$" "$1: Esc clears the comparison's filter"
	keys Escape
	expect_screen "^ +4 tune " "$1: Esc back to the list, its filter kept"
	expect_not_screen "bench-a" "$1: the list still without the benches"
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
expect_screen "Device +Command" "200x50: the command line last"
expect_screen "^ +5 bench .* H100 80GB HBM3 +bench --strategy anneal --budget 27 --fresh --db" "200x50: run 5's command line"
keys Space j j j Space x
expect_screen "^Runs +5 +base: run 5 +new: run 2" "200x50: x swaps the marked sides"
keys Enter
expect_screen "^base +run 5 .* on H100 80GB HBM3" "200x50: the swapped sides compared, the device shown"
expect_screen "Change +Type +Base us +New us +Interval \\(95%\\) +Status" "200x50: every column of the items"
expect_screen "^every row: Configuration grid=0" "200x50: what every configuration has said once"
expect_screen "^FASTER +device\\.[a-z_]+ +2\\^[0-9]+ +$(re "$slow_cfg" | sed 's/,grid=0//') +-50\\.0% +f32 +[0-9.]+ +[0-9.]+ +\\[-50\\.[0-9]%, -50\\.0%\\] +PASS" "200x50: the configuration but its common item, medians, the interval and status"
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
expect_screen "^REGRESSION +$(re "$case1") +[0-9]+ +PASS -> FAIL" "the PASS turned FAIL is a REGRESSION, listed first"
keys '?'
expect_screen "changes only: hide the SAME" "the help names u"
expect_screen " x +swap the base and the new side" "the help names x"
expect_screen " n / N +the next / previous run with failures" "the help names n and N"
keys Escape q
expect_screen "EXIT=0" "q quits"
keys "clear" Enter

# Run 7: run 1 again by another build, where one PASS became a FAIL, a SKIP
# a PASS, and the undefined case divergence.shfl_mismatch, still a PASS,
# now computed a wrong sum (an observed change, no change of status).
# Run 8: two kernel files of the user's, one given as --kernel=FILE; run 9
# one more, named past the 256th byte of a long command line.
flip=divergence.shfl_mismatch
sq "INSERT INTO runs (id, started_at, state, git_revision, command_line, device_id, passed, failed, skipped, kind, tag)
	SELECT 7, '2026-11-27T09:00:00Z', 'complete', 'fedcba9', './conform --all --seed 7', device_id, 1217, 1, 1, kind, 'flip'
	FROM runs WHERE id = 1;
    INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed, message, duration_ms, created_at)
	SELECT 7, case_name, kernel, variant, params, dtype, n, cols, expect,
		CASE case_name WHEN '$case1' THEN 'FAIL' WHEN 'divergence.redux_f32_max' THEN 'PASS' ELSE status END,
		CASE case_name WHEN '$case1' THEN 'completed-wrong' WHEN 'divergence.redux_f32_max' THEN 'completed-correct'
			WHEN '$flip' THEN 'completed-wrong' ELSE observed END,
		CASE case_name WHEN '$flip' THEN 'lanes 5 and 9 disagree' ELSE message END,
		duration_ms, '2026-11-27T09:00:01Z'
	FROM results WHERE run_id = 1;
    INSERT INTO runs (id, started_at, state, git_revision, command_line, device_id, passed, failed, skipped, kind)
	SELECT 8, '2026-11-28T10:00:00Z', 'complete', 'fedcba9',
		'./conform run --kernel kernels/my_sum.cu --kernel=kernels/my_max.cu --n 2^20 --db /root/out/h100.db --tag mine',
		device_id, 4, 0, 0, kind FROM runs WHERE id = 1"
long="./conform run --kernel kernels/early.cu --n 2^10,2^11,2^12,2^13,2^14,2^15,2^16,2^17,2^18,2^19,2^20,2^21,2^22,2^23,2^24,2^25,2^26,2^27,2^28,2^29,2^30 --dtype f32,f64,i32,u32,bf16"
long="$long --timeout 30 --hang-timeout 5 --db /root/out/user-kernels/h100-user-kernels.db --tag long --kernel=kernels/late.cu"
sq "INSERT INTO runs (id, started_at, state, git_revision, command_line, device_id, passed, failed, skipped, kind)
	SELECT 9, '2026-11-28T11:00:00Z', 'complete', 'fedcba9', '$long', device_id, 2, 0, 0, kind FROM runs WHERE id = 1"
checks=$((checks + 1))
[ "${#long}" -gt 256 ] || fail "run 9's command line is only ${#long} bytes"
checks=$((checks + 1))
[ "$(sq "SELECT observed FROM results WHERE run_id = 1 AND case_name = '$flip'")" = completed-correct ] ||
	fail "$flip is no longer completed-correct in run 1"
expect_exit 1 "conform compare 1 7: a regression and two other changes" -- "$CONFORM" compare 1 7 --db "$db"
expect_grep "$TMP/out" "^status: 1 regression, 0 fixed, 2 other changes, 0 new, 0 removed$" "the CLI's counts of 1 and 7"
flip_line=$(sed -n "s/^  observed  *$flip  *//p" "$TMP/out")
expect_grep "$TMP/out" "^  observed  *$flip  *PASS -> PASS  \\(completed-correct -> completed-wrong\\)$" "the CLI says what the observed change was"

launch "'$CONFORM' tui --db '$db'"
keys 6
expect_screen "^ +9 conformance +kernels/early\\.cu kernels/late\\.cu +2 +0( |$)" "run 9's kernel files, the second past byte 256"
keys j
expect_screen "^ +8 conformance +kernels/my_sum\\.cu kernels/my_max\\.cu +4 +0( |$)" "run 8's kernel files, --kernel and --kernel="
expect_screen "^ +7 conformance +flip +1217 +1( |$)" "a built-in run has no kernel file"
# z on run 8 (j): the kernel files and the whole command line.
keys z
expect_screen "^Kernel +kernels/my_sum\\.cu kernels/my_max\\.cu$" "z: run 8's kernel files"
expect_screen "^Command +\\./conform run --kernel kernels/my_sum\\.cu --kernel=kernels/my_max\\.cu" "z: run 8's command line"
expect_screen "--tag mine$" "z: the command line to its end"
# n / N: the runs with failures, 7 and 6, under the cursor (z shows it).
keys n
expect_screen "^Id +7$" "n: the next run with failures"
keys n
expect_screen "^Id +6$" "n: the one after"
keys n
expect_screen "^Id +7$" "n wraps around to the first run with failures"
keys g N
expect_screen "^Id +6$" "N from the top: the last run with failures"
keys z g j j

# Runs 1 and 7 marked: the notable items first, n / N over them.
keys Space G Space
expect_screen "^Runs +9 +base: run 1 +new: run 7" "Space marks 7 and 1, the older the base"
keys Enter
expect_screen "^base +run 1 \\(conformance" "run 1 the base"
expect_screen "^new +run 7 \\(conformance" "run 7 the new side"
expect_screen "1222 of 1222 listed$" "every case listed, and the count"
expect_screen "^REGRESSION +$(re "$case1") +[0-9]+ +PASS -> FAIL" "the regression first"
expect_screen "^status +divergence\\.redux_f32_max +[0-9]+ +SKIP -> PASS" "then the change of status"
expect_screen "^observed +$flip +[0-9]+ +PASS( |$)" "then the observed change"
keys z
expect_screen "^Case +$(re "$case1")$" "the cursor on the regression"
keys n
expect_screen "^Case +divergence\\.redux_f32_max$" "n: the change of status"
keys n
expect_screen "^Case +$flip$" "n: the observed change"
expect_screen "^Observed +completed-correct -> completed-wrong$" "z: the Observed column, base -> new"
keys n
expect_screen "^Case +$(re "$case1")$" "n wraps around to the regression"
keys N
expect_screen "^Case +$flip$" "N: back over the unchanged to the observed change"
keys z Enter
expect_screen "^observed +$flip$" "Enter: the item's detail"
expect_screen "^change: observed +$(re "$flip_line")$" "the change in conform compare's words"
expect_screen "^base: run 1: PASS, observed completed-correct; not timed$" "the base side"
expect_screen "^new: run 7: PASS, observed completed-wrong; not timed$" "the new side"
expect_screen "^new message: lanes 5 and 9 disagree$" "the new side's message"
keys Enter
expect_not_screen "^new message:" "Enter closes the detail"
keys Enter Escape
expect_not_screen "^new message:" "Esc closes the detail"
expect_screen "^observed +$flip +[0-9]+ +PASS( |$)" "and stays in the comparison"
keys Escape
expect_screen "^Runs +9 +base: run 1 +new: run 7" "Esc again: back to the list"
keys q
expect_screen "EXIT=0" "q quits"

# A median stored wrong (1e200 ms, 200 digits in us): an item's detail
# cuts it at the line's end, and the interface goes on (the detail wrote
# past its line's buffer: an ASan build stops there).
sq "UPDATE results SET median_ms = 1e200 WHERE run_id IN (2, 5) AND variant = 'device.cub'"
launch "'$CONFORM' tui --db '$db'"
keys 6 Escape g j j j j z
expect_screen "^Id +5$" "the cursor on run 5"
keys z Enter
expect_screen "^base +run 2 \\(bench" "run 5 against the bench before it"
keys / d e v i c e . c u b Enter Enter
expect_screen "^base: run 2: PASS, observed completed-correct; median" "the detail's base side"
expect_screen "^  9{15}" "the median as it is stored, cut at the line's end"
keys Escape Escape Escape q
expect_screen "EXIT=0" "q quits after the detail of a median stored wrong"

finish
