#!/bin/sh
# tui.sh - the interactive interface, driven for real in a detached tmux
# session (80x24): catalog navigation, help, the / filter, checking and
# running the harness cases (the watchdog countdown is on screen during the
# hang and the interface still answers keys), the results table, cancelling a
# run, a database pre-filled with timed results in the results and plot
# panes, colours and NO_COLOR, Unicode and ASCII drawing, resizing below
# 80x24 and back, and q restoring the terminal.  Without a terminal, plain
# "conform" is still a usage error.  Skipped (77) when tmux is missing.
. "$(dirname "$0")/lib.sh"

# Without a terminal: "conform" alone is the usage error it always was, and
# "conform tui" says it needs a terminal.
expect_exit 2 "no arguments, no terminal" -- sh -c '"$0" </dev/null' "$CONFORM"
expect_grep "$TMP/err" "^usage: conform" "no arguments prints usage"
expect_exit 2 "tui without a terminal" -- sh -c '"$0" tui </dev/null' "$CONFORM"
expect_grep "$TMP/err" "needs a terminal" "tui says it needs a terminal"
expect_exit 2 "tui bad option" -- "$CONFORM" tui --hang-timeout zero
expect_exit 0 "tui --help" -- "$CONFORM" tui --help
expect_grep "$TMP/out" "--hang-timeout" "tui --help lists options"

. "$(dirname "$0")/tui_lib.sh"

db="$TMP/tui.db"
tui_session 80 24

# --- The catalog: tree, detail, help, filter ------------------------------
launch "'$CONFORM' tui --db '$db' --hang-timeout 3 --seed 7"
expect_screen "1 Catalog +2 Problem +3 Run +4 Results +5 Plot" "tab bar"
expect_screen "harness +8" "harness family with its case count (harness.spin's default case too)"
expect_screen "r Run +Tab Pane +\? Help +q Quit" "key bar names the keys"
if [ -n "$utf8" ]; then
	expect_screen "├─" "Unicode tree lines in a UTF-8 locale"
fi
t capture-pane -e -p -t tui >"$TMP/ansi"
expect_grep "$TMP/ansi" "$(printf '\033')\\[4[0-7]m" "colours on a colour terminal"
keys j Enter
expect_screen "harness\\.pass\\.f64" "Enter opens a variant"
expect_screen "contract: Requires: 1 <= n" "the variant's launch contract in the detail"
keys j
expect_screen "problem: f32, n = 100003" "a case's problem in the detail"
expect_screen "never run" "a case never run says so"
keys '?'
expect_screen "Everywhere" "? opens the help"
keys x
expect_not_screen "Everywhere" "any key closes the help"
keys / h a n g
expect_screen "Filter: hang" "/ opens the filter prompt"
expect_not_screen "harness\\.pass\\.f64" "the filter hides what does not match"
keys Enter
expect_screen "harness\\.hang +hang" "the filter keeps matching cases"
keys Escape
expect_screen "harness\\.pass\\.f64" "Esc clears the filter"
# Check every harness case: filter, then a (all shown).
keys / h a r n e s s Enter a
expect_screen "8 checked" "a checks the shown cases"
keys Escape
expect_screen "Kernels and cases: 8 of" "checks survive clearing the filter"

# --- Runs: the countdown during the hang, keys during it, results ---------
keys 5
expect_screen "no timed results yet" "the plot with no timed results"
keys r
expect_screen "^> harness\\.hang +watchdog: [0-9.]+ s left of 3\\.0 s" "watchdog countdown during the hang"
# The main loop steps the run between keys: the countdown moves on its own,
# and a key is answered while the case hangs.
left1=$(sed -n 's/^> harness\.hang *watchdog: \([0-9.]*\) s left.*/\1/p' "$TMP/screen")
sleep 0.5
expect_screen "^> harness\\.hang +watchdog: " "still hanging"
left2=$(sed -n 's/^> harness\.hang *watchdog: \([0-9.]*\) s left.*/\1/p' "$TMP/screen")
checks=$((checks + 1))
[ -n "$left1" ] && [ -n "$left2" ] && [ "$left1" != "$left2" ] || fail "the countdown did not move ($left1, $left2)"
keys '?'
expect_screen "conform - keys" "? answers during the hang" 1
keys x
expect_not_screen "conform - keys" "and any key closes it"
# The interface still answers during the hang: Tab goes to Results, which
# already shows this run as running.
keys Tab
expect_screen "Run #1 .* running" "results pane during the hang" 2
expect_screen "running [0-9]/8" "tab bar shows the run in progress" 2
keys BTab
expect_screen "Done: 8 passed, 0 failed, 0 skipped" "run summary" 10
expect_screen " XFAIL +harness\\.hang +3\\.0" "the hang is XFAIL in the run pane"
keys 4
expect_screen "Run #1 .* complete +8 passed, 0 failed, 0 skipped" "results header"
expect_screen "harness\\.hang +XFAIL +hung" "results table: hang XFAIL, observed hung"
expect_screen "harness\\.crash +XFAIL +crashed" "results table: crash XFAIL"
expect_screen "Case +Status +Observed +ms" "results columns"
keys G Enter
expect_screen "message: " "Enter shows the detail"
keys Enter
expect_eq "$(sql "$db" "select count(*) from results where run_id = 1")" 8 "results stored"
expect_eq "$(sql "$db" "select status || ' ' || observed from results where case_name = 'harness.hang'")" "XFAIL hung" "hang stored as XFAIL"
expect_eq "$(sql "$db" "select state, passed, failed, skipped, seed from runs where id = 1")" "complete|8|0|0|7" "run stored"
expect_eq "$(sql "$db" "select command_line like 'conform tui --seed 7:%harness.hang%' from runs where id = 1")" 1 "run's command line"
# Sorting: < > pick the column, s reverses.
keys ">" ">" s
expect_screen "Status▼|Status v" "sorted by status, descending"

# --- Cancelling a run -------------------------------------------------------
keys r
expect_screen "^> harness\\.hang +watchdog" "second run reaches the hang" 10
keys c
expect_screen "Cancel run #2\\? y/n" "c asks before cancelling"
keys y
expect_screen "cancelled" "c y cancels the run" 3
expect_eq "$(sql "$db" "select state from runs where id = 2")" interrupted "cancelled run stored as interrupted"
expect_eq "$(sql "$db" "select count(*) from results where run_id = 2 and case_name = 'harness.hang'")" 0 "the cancelled case left no result"

# A question about a run that ends before the answer gives way to a note
# (it had stayed, asking to cancel a run that was over).
keys r
expect_screen "^> harness\\.hang +watchdog" "third run reaches the hang" 10
keys q
expect_screen "Quit and cancel run #3\\? y/n" "q during a run asks first"
expect_screen "run #3 ended before the answer" "the run ends while the question is open" 10
expect_not_screen "Quit and cancel" "and the question is gone"
expect_eq "$(sql "$db" "select state from runs where id = 3")" complete "the unanswered question left the run alone"

# --- Resizing ---------------------------------------------------------------
t resize-window -t tui -x 60 -y 20
expect_screen "terminal too small: 80x24 needed \\(now 60x20\\)" "too small below 80x24"
t resize-window -t tui -x 80 -y 24
expect_screen "1 Catalog +2 Problem" "back at 80x24 the panes return"

# --- q restores the terminal ------------------------------------------------
keys q
expect_screen "^EXIT=0" "q exits 0"
expect_screen "^TTY-RESTORED" "terminal settings restored"
keys "echo prompt-ok" Enter
expect_screen "^prompt-ok" "the shell is usable after q"

# "conform" alone on a terminal is the interface.
launch "CONFORM_DB='$TMP/alone.db' '$CONFORM'"
expect_screen "1 Catalog" "conform alone on a terminal opens the interface"
keys q
expect_screen "^EXIT=0" "and q leaves it with 0"

# --- A database with timed results, ASCII drawing, NO_COLOR -----------------
timed="$TMP/timed.db"
"$CONFORM" --filter harness.pass.i32 --seed 1 --db "$timed" >/dev/null 2>&1 || fail "seeding the timed database"
if command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1; then
	for run in 2 3; do
		sql "$timed" "insert into runs(started_at, state, command_line, seed, passed, failed, skipped)
			values ('2025-01-0${run}T10:00:00Z', 'complete', 'conform tune', '1', 6, 0, 0)"
		for k in 10 14 18 22 26 30; do
			sql "$timed" "insert into results(run_id, case_name, kernel, variant, params, dtype, n, cols,
				expect, status, observed, duration_ms, created_at, median_ms, samples, noise, gbps,
				ci_low_ms, ci_high_ms, spread, noise_met, throttled, timer, op)
				values ($run, 'block.tree.f32.n$k', 'block', 'block.tree', 'block=256', 'f32', $((1 << k)), 0,
				'pass', 'PASS', 'completed-correct', 5.0, '2025-01-01T10:00:00Z', 0.5, 20, 0.01, $((k * 100 + run)),
				0.498, 0.502, 0.004, 1, 0, 'cupti', 'sum'),
				($run, 'block.shfl.f32.n$k', 'block', 'block.shfl', 'block=256', 'f32', $((1 << k)), 0,
				'pass', 'PASS', 'completed-correct', 5.0, '2025-01-01T10:00:00Z', 0.7, 20, 0.02, $((k * 80 + run)),
				0.68, 0.72, 0.0286, 0, 2, 'events', 'sum')"
		done
	done
	# Without the word tui: "conform --db FILE" on a terminal is the
	# interface on that database (the results below come from it).
	launch "NO_COLOR=1 LC_ALL=C '$CONFORM' --db '$timed'"
	expect_screen "1 Catalog" "second start, conform --db on a terminal"
	expect_screen "^\\|-> \\[ \\] harness\\.pass" "ASCII tree lines in the C locale"
	t capture-pane -e -p -t tui >"$TMP/ansi"
	expect_no_grep "$TMP/ansi" "$(printf '\033')\\[4[0-7]m" "NO_COLOR: no background colours"
	keys 4
	expect_screen "Run #3 .* complete" "results pane shows the newest run"
	expect_screen "Variant +n +Config +us +GB/s +%copy +xbase +Noise +Spread" "timing columns when timed"
expect_screen "no GPU; every row: Type f32, Status PASS$" "constant columns folded into the heading line"
	# No copy or baseline was measured: % copy and x base are missing (-), not 0.
	expect_screen "block\\.tree +2\\^30 +block=256 +500\\.00 +3003\\.0 +- +- +1\\.0% +0\\.4%" "a timed row in us, missing references, its noise and spread"
	expect_screen "block\\.shfl +2\\^30 +block=256 +700\\.00 +2403\\.0 +- +- +2\\.0% +2\\.9%~" "the noise target missed: ~"
	keys Down Enter
	expect_screen "timing: median 700 us, 803\\.0 GB/s, 20 samples, timed by events" "detail: the timer, in the table's unit"
	expect_screen "median in \\[680, 720\\] us \\(95 %\\), spread 2\\.86%, noise target NOT" "detail: the interval and the flag"
	expect_screen "reached; stddev/mean 2\\.0%; 2 throttled samples dropped" "detail: the second column and the dropped samples"
	keys Enter
	keys '['
	expect_screen "Run #2 " "[ steps to the older run"
	keys 5
	expect_screen "best configuration per size: 2 series, 12 points, 1 run;" "plot: the best of each size (equal medians: the first stored)"
	expect_screen "^.a block\\.shfl f32 " "plot read-out: the first series, its letter"
	expect_screen "^ b block\\.tree f32 " "plot read-out: the second"
	expect_screen "^ +2\\^10 .* 2\\^30$" "plot x axis from 2^10 to 2^30"
	keys a
	expect_screen "all evaluations: 2 series, 24 points, 2 runs" "plot: a counts every timed result"
	cp "$TMP/screen" "$TMP/plot"
	keys q
	expect_screen "^EXIT=0" "q exits 0 again"
else
	echo "sqlite3 not found: the timed results are not checked"
fi
# --- A sweep of harness.spin from the interface -----------------------------
# The fast sampling of tune.sh; the sweep is tune.c's, stored where conform
# history and conform best find it.
sweep="$TMP/sweep.db"
printf 'case harness.spin.f32 variant=harness.spin dtype=f32 n=4096\n' >"$TMP/spin.suite"
launch "'$CONFORM' tui --db '$sweep' --suite '$TMP/spin.suite' --min-samples 5 --max-time 0.01 --timeout 5"
expect_screen "1 Catalog" "third start"
keys / s p i n Enter a Escape
expect_screen "1 checked" "the spin case checked"
expect_screen "r Run +Tab" "r runs for conformance at first"
keys m
expect_screen "r now makes a sweep" "m says what r now makes, on the key bar's line"
keys C-l
expect_screen "r Sweep +Tab" "m picks the sweep mode (the key bar, back at the next key)"
keys r
expect_screen "Run #1 +sweep .* 75 evaluations" "the sweep's run header" 5
expect_screen "Done: 73 passed, 0 failed, 4 skipped" "the sweep ends" 20
cp "$TMP/screen" "$TMP/sweep-run"
keys 4
# The configuration is a key column: drawn with variant and n, first.
expect_screen "Variant +n +Config +Op +Status +us +GB/s" "timing columns of the sweep"
expect_screen "^harness\\.spin +2\\^12 +block=[0-9]+,items=[0-9]+,vec=[0-9] +sum +PASS +[0-9.]+ +[0-9.]+" "a configuration: variant, n, config, op, median, GB/s"
keys j j z
expect_screen "^%copy +[0-9]+%" "z shows the row in full: % copy"
expect_screen "^xbase +[0-9.]+" "and x baseline"
keys z
cp "$TMP/screen" "$TMP/sweep-results"
keys b
expect_screen "Best configurations" "b shows the best configurations"
expect_screen "^harness\\.spin +2\\^12 +block=[0-9]+,items=[0-9]+,vec=[0-9] +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+%" "the best view lists the sweep's best"
expect_screen "every row: Type f32, Op sum, Device host" "the best view's constant columns"
cp "$TMP/screen" "$TMP/sweep-best"
keys q
expect_screen "^EXIT=0" "q exits 0 after the sweep"
expect_exit 0 "history after the sweep" -- "$CONFORM" history harness.spin --db "$sweep"
expect_grep "$TMP/out" "harness\\.spin" "conform history sees the sweep"
expect_exit 0 "best after the sweep" -- "$CONFORM" best harness.spin --n 4096 --db "$sweep"
expect_grep "$TMP/out" "harness\\.spin .*block=[0-9]+,items=[0-9]+,vec=[0-9]" "conform best sees the sweep"
# A sweep is stepped from the main loop too: c cancels it while an
# evaluation runs (2^24 spin steps take seconds), and the run is stored as
# interrupted.
slow="$TMP/slow.db"
printf 'case harness.spin.f32 variant=harness.spin dtype=f32 n=2^24\n' >"$TMP/slow.suite"
launch "'$CONFORM' tui --db '$slow' --suite '$TMP/slow.suite' --min-samples 5 --max-time 0.5 --timeout 5"
expect_screen "1 Catalog" "fourth start"
keys / s p i n Enter a Escape m r
expect_screen "running 0/77" "the slow sweep runs" 5
keys c y
expect_screen "Cancelled: " "c y cancels the sweep" 3
expect_eq "$(sql "$slow" "select state from runs where id = 1")" interrupted "cancelled sweep stored as interrupted"
keys q
expect_screen "^EXIT=0" "q exits 0 after the cancelled sweep"
# A kernel file of the user's (--kernel) is listed in the catalog as
# user.NAME, with the tunables it declares.
mkdir -p "$TMP/uk"
cat >"$TMP/uk/my_sum.cu" <<'CU'
/*
 * @kind    reduce
 * @entry   my_sum
 * @dtypes  f32
 * @tunable block 32..1024 pow2 default=128 space=64,128
 * @block   block
 * @grid    1
 */
extern "C" __global__ void my_sum(const T *in, T *out, long long n, void *scratch) {}
CU
launch "'$CONFORM' tui --db '$TMP/uk.db' --suite '$TMP/slow.suite' --kernel '$TMP/uk/my_sum.cu'"
expect_screen "1 Catalog" "the interface with --kernel"
keys / m y _ s u m Enter
expect_screen "user\\.my_sum +12 " "the kernel file's variant in the catalog, with its ladder"
expect_screen "user\\.my_sum\\.sum\\.f32\\.n33 " "the ladder's cases listed"
keys Up
expect_screen "block=32\\.\\.1024" "its tunables shown"
keys Escape q
expect_screen "^EXIT=0" "q exits 0 after --kernel"
# A conformance run over two (pretend) devices: a line per GPU, each with
# its case in flight and its watchdog.
cat >"$TMP/dev.suite" <<'SUITE'
case d.pass.{dtype} variant=harness.pass dtype=f32|f64|i32 n=1000
case d.hang1        variant=harness.hang n=1 expect=hang
case d.hang2        variant=harness.hang n=1 expect=hang
case d.spin         variant=harness.spin dtype=f32 n=2^24
SUITE
launch "CONFORM_TEST_DEVICES=2 '$CONFORM' tui --db '$TMP/dev.db' --suite '$TMP/dev.suite' --devices all --hang-timeout 3 --seed 7"
expect_screen "1 Catalog" "the interface with --devices"
keys / h a n g Enter a
expect_screen "2 checked" "the two hangs checked"
keys r
expect_screen "^> \\[0\\] d\\.hang[12] +watchdog: [0-9.]+ s left of 3\\.0 s" "device 0's hang and its watchdog"
expect_screen "^> \\[1\\] d\\.hang[12] +watchdog: [0-9.]+ s left of 3\\.0 s" "device 1's hang and its watchdog"
expect_screen "device 1: conform test device 1" "the log names device 1"
expect_screen "Done: " "the run over two devices ends" 10
expect_eq "$(sql "$TMP/dev.db" "select count(distinct device_id) from results")" 2 "results stored with both devices"
# A sweep after it is a run of its own: its evaluation in flight, not the
# last run's devices (their lines stayed, idle).
keys 1 / h a n g Enter a Escape / s p i n Enter a m r
expect_screen "^> harness\\.spin +watchdog: " "the sweep after the run over two devices shows its evaluation" 10
expect_not_screen "^  \\[[01]\\] " "and no line of the last run's devices"
# An evaluation's deadline is --timeout (10 s) and 40 ns an element (tune.c):
# the countdown is out of 10.7 s at 2^24 (it said "10.6 s left of 10.0 s").
expect_screen "^> harness\\.spin +watchdog: [0-9.]+ s left of 10\\.7 s" "the sweep's countdown is out of its evaluation's deadline"
keys c y
expect_screen "Cancelled: " "the sweep cancelled" 5
keys q
expect_screen "^EXIT=0" "q exits 0 after a run over two devices"
[ -n "${TUI_SCREENS:-}" ] && cp "$TMP/sweep-run" "$TMP/sweep-results" "$TMP/sweep-best" "$TUI_SCREENS/"
finish
