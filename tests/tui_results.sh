#!/bin/sh
# tui_results.sh - the Results pane and its best view on the H100 tuning
# database (tests/data), driven in tmux at 80x24 and 200x50: timed tables
# with the problem in columns of its own (variant, n or rows×cols, type, op,
# configuration), constant columns folded into the heading line, the filter
# over every column (2^24, FAIL, evict_first=1, !negation), the sort arrow on
# every column and back to run order, the next-failure key, the row zoom, a
# FAIL's detail keeping its took/seed line, the conformance table's Message
# column, the best view's Enter (every configuration of the problem, ranked)
# and its copy keys; and the Run pane's own columns, Enter and ETA.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/h100.db"
tui_fixture "$db"
# A failure in the conformance run, with a message longer than any column.
long="the partial sums disagree with the reference: got 1.5e+07, want 1.6777216e+07 (relative L2 error 0.106, tolerance 1.2e-06) at element 0 of 1"
sql "$db" "insert into results(run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status,
	observed, message, duration_ms, created_at, seed)
	values (1, 'block.tree.sum.f32.n2p24', 'block', 'block.tree', 'block=256,op=sum', 'f32', 16777216, 0,
	'pass', 'FAIL', 'completed-wrong', '$long', 12.5, '2026-11-25T05:40:00Z', '20261125')"
# The references (CUB, cuDNN) are left out of the best view when this
# build's catalog knows them as references; a build without kernels does not.
if "$CONFORM" run --variants 2>/dev/null | grep -q '^device\.cub '; then
	refs="'device.cub', 'softmax.cudnn'"
	kernels=1
else
	refs="''"
	kernels=0
fi
best_all=$(sql "$db" "select count(*) from best_configs where op is not null and variant not in ($refs)")
best_2p24=$(sql "$db" "select count(*) from best_configs where op is not null and variant not in ($refs)
	and n = 16777216 and cols = 0")
tui_session 80 24
# OSC 52 from the interface lands in a tmux paste buffer.
t set-option -g set-clipboard on

launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "the interface on the H100 database"
keys 4
# --- Item 1: timed rows tell their problem apart ---------------------------
expect_screen "^Run #5 .* complete +436 passed" "Results opens on the newest run (the second bench)"
expect_screen "^Variant +n +Config +us +>$" "variant, n, config and median (us) at 80 columns"
expect_screen "every row: Type f32, Op sum, S" "the constant columns said once, on the heading line"
expect_screen "^device\\.atomic +2\\^20 +block=[0-9]+,items=[0-9]+,vec=[0-9],grid=0,evict_first=[01] +[0-9]+\\.[0-9]{2}" "a configuration in full, median in us"
# --- Item 2: the filter looks at every column -------------------------------
keys / 2 ^ 2 4 Enter
expect_screen "\\(109 of 436 shown\\)" "/2^24 keeps the 2^24 rows ($(sql "$db" "select count(*) from results where run_id = 5 and n = 16777216") in the database)"
expect_not_screen " 2\\^20 " "and no other size"
keys / C-u e v i c t _ f i r s t = 1 Space ! a t o m i c Enter
expect_screen "^device\\.(two_pass|coop|last_block|cub) .*evict_first=1" "several words must all match; !word must not"
expect_not_screen "^device\\.atomic " "!atomic leaves device.atomic out"
keys Escape
expect_screen "^device\\.atomic +2\\^20" "Esc clears the filter"
# --- Item 3: the sort arrow, and back to run order --------------------------
if [ -n "$utf8" ]; then up="▲"; down="▼"; else up="\\^"; down="v"; fi
keys ">" ">" ">"
expect_screen "Config$up" "the sort arrow on the Config column"
keys ">"
expect_screen "us$up" "the sort arrow on the median"
keys g
expect_screen "^device\\.atomic +2\\^20 .* 4\\.10" "sorted by median, the fastest first"
keys s
expect_screen "us$down" "s reverses"
keys o
expect_screen "in run order" "o: back to run order, and says so"
expect_not_screen "us($up|$down)" "no arrow in run order"
keys g
expect_screen "^device\\.cub +2\\^20 +\\(default\\)" "the first result first again"
# --- Item 4 (sizes): row problems as rows×cols -------------------------------
keys '['
expect_screen "^Run #4 " "[ goes to the older run"
expect_screen "^softmax\\.[a-z_]+ +2\\^12(×|x)1024 " "softmax sizes are rows x cols"
# --- Item 10: the conformance table has a Message column; n finds failures --
keys '[' '[' '['
expect_screen "^Run #1 .* complete" "back to the conformance run"
expect_screen "^Case +Status +Observed +ms +Message" "the conformance table's Message column"
keys n
expect_screen "^block\\.tree\\.sum\\.f32\\.n2p24 +FAIL +completed-wrong +12\\.5 +the par" "n jumps to the failure, its message in the table"
expect_screen "12\\.5 +the partial[a-z ]*(…|~)$" "a cut message ends with an ellipsis"
keys n
expect_screen "^block\\.tree\\.sum\\.f32\\.n2p24 +FAIL" "n wraps around to the only failure"
# --- Item 13: the FAIL detail keeps its took/seed line ----------------------
keys Enter
expect_screen "took: 12\\.5 ms; seed 20261125; recorded 2026-11-25T05:40:00Z" "the detail keeps took and seed at 80x24"
expect_screen "message: the partial sums disagree" "and the message"
keys Enter
keys / F A I L Enter
expect_screen "^block\\.tree\\.sum\\.f32\\.n2p24 +FAIL " "/FAIL finds the failure by its status"
expect_not_screen "^harness\\.hang +XFAIL" "and not the XFAILs (FAIL is a status word)"
keys z
expect_screen "row in full \\(z closes\\)" "z zooms on the row"
expect_screen "at element 0 of 1" "the zoom shows the message to its end"
keys z Escape
# --- Items 2 and 4 in the best view ------------------------------------------
keys b
expect_screen "^Best configurations +$best_all " "b: the best configurations ($best_all in the database)"
expect_screen "^softmax\\.three_pass +2\\^14(×|x)128 +bf16 " "softmax best rows name rows x cols"
keys / 2 ^ 2 4 Enter
expect_screen "^Best configurations +$best_2p24 matching" "/2^24 in the best view"
expect_screen "^device\\.last_block +2\\^24 +block=" "the variant column fits the longest name"
expect_not_screen "no timed results yet" "a filter is not 'no timed results'"
keys Enter
expect_screen "^device\\.atomic +2\\^24 f32 sum +on NVIDIA H100 80GB HBM3" "Enter: the problem's detail"
# The best by the rule of every "best": the lowest upper bound of the
# median's interval, then the lowest median.
want=$(sql "$db" "select params from results where variant = 'device.atomic' and n = 16777216 and status = 'PASS'
	order by coalesce(ci_high_ms, median_ms), median_ms, id limit 1" | sed 's/,op=sum$//')
expect_screen "^best: $want$" "the best configuration in full ($want)"
nconf=$(sql "$db" "select count(distinct params) from results where variant = 'device.atomic' and n = 16777216
	and status = 'PASS' and median_ms is not null")
expect_screen "; $nconf configurations, best first" "every configuration measured for the problem"
expect_screen "^ 1 $want +[0-9.]+ \\[[0-9.]+, [0-9.]+\\]" "ranked, with the median's interval"
expect_screen "^ 2 block=" "the runner-up listed"
keys y
expect_screen "copied: $want" "y copies the configuration"
checks=$((checks + 1))
[ "$(t show-buffer 2>/dev/null)" = "$want" ] || fail "the clipboard (OSC 52) holds '$(t show-buffer 2>/dev/null)', want '$want'"
keys Y
expect_screen "copied: conform tune device\\.atomic --n 2\\^24 --dtype f32 --op sum --fresh --db" "Y copies the tune command line"
checks=$((checks + 1))
t show-buffer 2>/dev/null | grep -q "^conform tune device.atomic --n 2^24 --dtype f32 --op sum --fresh --db $db$" ||
	fail "the clipboard holds '$(t show-buffer 2>/dev/null)'"
keys Escape
expect_screen "^Best configurations +$best_2p24 matching" "Esc goes back to the list"
keys Escape b q
expect_screen "^EXIT=0" "q leaves"

# --- 200x50: every column ---------------------------------------------------
tui_resize 200 50
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "the interface at 200x50"
keys 4
expect_screen "^Variant +n +Type +Op +Config +Status +us +GB/s +%copy +xbase +Noise +Spread +Message" "every timed column at 200 columns"
if [ "$kernels" = 1 ]; then
	expect_screen "^device\\.atomic +2\\^20 +f32 +sum +block=[0-9,a-z_=]+ +PASS +[0-9.]+ +[0-9.]+ +[0-9]+% +[0-9.]+ +[0-9.]+% +[0-9.]+%" "a row with % copy, x base, noise and spread"
else # without the kernels' catalog no family names a copy or a baseline
	expect_screen "^device\\.atomic +2\\^20 +f32 +sum +block=[0-9,a-z_=]+ +PASS +[0-9.]+ +[0-9.]+ +[0-9.]+% +[0-9.]+%" "a row with noise and spread"
fi
keys ">" ">" ">" ">" ">" ">"
expect_screen "Status$up" "the sort arrow on Status"
keys q
expect_screen "^EXIT=0" "q leaves at 200x50"

# --- The Run pane: its columns, Enter, the ETA while a hang is pending ------
tui_resize 80 24
launch "'$CONFORM' tui --db '$TMP/run.db' --hang-timeout 3 --seed 7"
expect_screen "1 Catalog" "the interface for a run"
keys / h a r n e s s Enter a Escape r
expect_screen "^> harness\\.hang +watchdog" "the run reaches the hang" 10
expect_screen "ETA [1-9][0-9]* s" "the ETA counts the pending hang's deadline" 1
expect_screen "^ *# +Status +Case +Wall s +Message" "the conformance run's columns: wall time"
expect_screen "Done: 8 passed" "the run ends" 10
keys k k k k Enter
expect_screen "row in full \\(z closes\\)" "Enter shows a run row in full"
keys Escape q
expect_screen "^EXIT=0" "q after the run"
finish
