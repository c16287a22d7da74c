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
expect_screen "^Variant +n +Config +us +GB/s +>$" "variant, n, config, median (us) and GB/s at 80 columns"
expect_screen "^every row: Config grid=0, Type f32, Op sum, Status PASS$" "the constant columns and the configurations' common item said once, above the table"
expect_screen "^device\\.atomic +2\\^20 +block=[0-9]+,items=[0-9]+,vec=[0-9],evict_first=[01] +[0-9]+\\.[0-9]{2}" "a configuration in full but its common item, median in us"
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
expect_screen "12\\.5 +the par[a-z ]*(…|~)$" "a cut message ends with an ellipsis"
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
expect_screen "^softmax\\.three_pass +2\\^14(×|x)128 +rpb=" "softmax best rows name rows x cols"
keys '['
expect_screen "^Best configurations +$best_all " "[ does not leave the best view"
# At 80 columns the keys leave little room: the first column after them is
# drawn all the same, so that Right reaches the median.
keys Right
expect_screen "^Variant +n +Config +<.* us" "Right in the best view at 80 columns reaches the median"
keys Left
expect_not_screen "\\[ \\] Run" "the best view's key bar offers no [ ] (they step through runs, which it is not)"
# Scrolled to the last column, then filtered to rows of one type: the type
# folds, and the scroll comes back to the columns there are.
keys Right Right Right Right Right Right Right Right Right
keys / 2 ^ 2 4 Enter
expect_screen "^Best configurations +$best_2p24 matching" "/2^24 in the best view"
expect_screen "^Variant +n +Config +< +[A-Za-z]" "a column after the keys drawn when the filter folded one the scroll had passed"
keys Left Left Left Left Left Left Left Left Left
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
# A filter typed in the detail is the detail's: the list keeps its own,
# and the next detail opens with every configuration.
keys / z z z Enter
expect_screen "no configuration matches the filter" "a filter in the detail that matches none says so"
keys Escape
expect_screen "^Best configurations +$best_2p24 matching" "Esc goes back to the list"
keys Enter
expect_screen "^ 1 $want +[0-9.]+ \\[" "the detail opened again lists its configurations"
keys /
expect_screen "^Filter: *Enter: keep" "the detail's filter starts empty"
keys Escape Escape
expect_screen "^Best configurations +$best_2p24 matching" "Esc goes back to the list"
keys /
expect_screen "^Filter: 2\\^24 " "back in the list, its filter is the one to edit"
keys Escape
keys Escape b q
expect_screen "^EXIT=0" "q leaves"

# --- 200x50: every column ---------------------------------------------------
tui_resize 200 50
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "the interface at 200x50"
keys 4
expect_screen "^Variant +n +Config +Type +Op +Status +us +GB/s +%copy +xbase +Noise +Spread +Message" "every timed column at 200 columns, the keys (variant, n, configuration) first"
if [ -n "$utf8" ]; then missing="–"; else missing="-"; fi
if [ "$kernels" = 1 ]; then
	expect_screen "^device\\.atomic +2\\^20 +block=[0-9,a-z_=]+ +f32 +sum +PASS +[0-9.]+ +[0-9.]+ +[0-9]+% +[0-9.]+ +[0-9.]+% +[0-9.]+%" "a row with % copy, x base, noise and spread"
else # without the kernels' catalog no family names a baseline; the one
	# copy the device measured is its copy (tune_refs.h), as in the Plot
	expect_screen "^device\\.atomic +2\\^20 +block=[0-9,a-z_=]+ +f32 +sum +PASS +[0-9.]+ +[0-9.]+ +[0-9]+% +$missing +[0-9.]+% +[0-9.]+%" "a row with % copy, x base missing, noise and spread"
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
keys Escape
# A filter that hides every row says so, and Esc clears it.
keys / z z z Enter
expect_screen "no result matches the filter" "the Run pane's filter hiding every row says so"
keys Escape
expect_screen "harness\\.hang" "Esc clears the Run pane's filter"
keys q
expect_screen "^EXIT=0" "q after the run"

# --- Every row complete: devices, user kernels, missing values, copies ------
# On the H100 database, three runs more, as conform stores them:
#  6: a tune of a kernel file (--kernel pow2_tree.cu, the variant
#     user.pow2_tree) on an H200, beside its family's baseline at 2^10 and
#     the device's copy bandwidth: % copy and x base as for any variant,
#     though this interface is not given the file; at 2^9 no baseline was
#     measured (x base missing, never 0), and the median's interval was not
#     stored (a result of a build before intervals: missing, not 0.0%);
#  7: a conformance run of that file, one failing case;
#  8: "conform run --devices 0,1" over two H200s: each result on its own
#     device, failures whose probe and guard findings the detail labels.
# The family's references are the ones this build's catalog names (the
# copy and CUB, or the harness's stand-ins without kernels).
ext="$TMP/ext.db"
tui_fixture "$ext"
cp "$top_srcdir/examples/kernels/pow2_tree.cu" "$TMP/pow2_tree.cu"
if [ "$kernels" = 1 ]; then base=device.cub; copy=device.copy; else base=harness.baseline; copy=harness.copy; fi
probe="exact probe (ones at [0, 128)): sum of 128 ones returned 127: 1 element not counted; elements [127, 128) were never added; 1 of 1 outputs wrong: [0] got 127 want 128 (exact); rel-L2 7.8e-03"
guard="wrote past the end of out: offset 4 of a 4-byte buffer (128 guard bytes changed)"
sql "$ext" "insert into devices(id, name, uuid, cc_major, cc_minor, sm_count, memory_bytes, driver_version,
		runtime_version, first_seen)
	values (2, 'NVIDIA H200', 'GPU-h200-a', 9, 0, 132, 150000000000, 13000, 13000, '2026-11-26T00:00:00Z'),
	       (3, 'NVIDIA H200', 'GPU-h200-b', 9, 0, 132, 150000000000, 13000, 13000, '2026-11-26T00:00:00Z');
	insert into device_bandwidth(device_id, variant, bytes, median_ms, gbps, measured_at)
	values (2, '$copy', 2147483648.0, 0.5368709, 4000.0, '2026-11-26T00:00:01Z');
	insert into runs(id, started_at, ended_at, state, host, command_line, seed, device_id, passed, failed,
		skipped, kind)
	values (6, '2026-11-26T00:00:00Z', '2026-11-26T00:01:00Z', 'complete', 'vm',
		'tune --kernel pow2_tree.cu --n 512,1024 --dtype f32 --db ext.db', '1', 2, 3, 0, 0, 'tune'),
	       (7, '2026-11-26T00:02:00Z', '2026-11-26T00:03:00Z', 'complete', 'vm',
		'run --kernel pow2_tree.cu --seed 5 --db ext.db', '5', 2, 0, 1, 0, 'conformance'),
	       (8, '2026-11-26T00:04:00Z', '2026-11-26T00:05:00Z', 'complete', 'vm',
		'run --filter block.tree.sum.f32.b* --devices 0,1 --seed 77 --db ext.db', '77', 2, 2, 2, 0,
		'conformance');
	insert into results(run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed,
		message, duration_ms, created_at, seed, median_ms, samples, noise, gbps, ci_low_ms, ci_high_ms,
		spread, noise_met, throttled, timer, op, device_id, source)
	values (6, 'user.pow2_tree.sum.f32.n1024', 'user', 'user.pow2_tree', 'op=sum', 'f32', 1024, 0, 'pass',
		'PASS', 'completed-correct', '', 50.0, '2026-11-26T00:00:10Z', '11', 0.004, 100, 0.05, 1000.0,
		0.00398, 0.00402, 0.005, 1, 0, 'cupti', 'sum', 2, 'abc123'),
	       (6, '$base.sum.f32.n1024', 'x', '$base', 'op=sum', 'f32', 1024, 0, 'pass', 'PASS',
		'completed-correct', '', 50.0, '2026-11-26T00:00:20Z', '12', 0.008, 100, 0.05, 500.0,
		0.00798, 0.00802, 0.0025, 1, 0, 'cupti', 'sum', 2, NULL),
	       (6, 'user.pow2_tree.sum.f32.n512', 'user', 'user.pow2_tree', 'op=sum', 'f32', 512, 0, 'pass',
		'PASS', 'completed-correct', '', 50.0, '2026-11-26T00:00:30Z', '13', 0.002, 100, 0.05, 2000.0,
		NULL, NULL, NULL, NULL, NULL, 'events', 'sum', 2, 'abc123'),
	       (7, 'user.pow2_tree.sum.f32.n31', 'user', 'user.pow2_tree', 'op=sum', 'f32', 31, 0, 'pass',
		'FAIL', 'completed-wrong', '1 of 1 outputs wrong: [0] got 16 want 31 (exact)', 9.0,
		'2026-11-26T00:02:10Z', '21', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'sum', 2,
		'abc123'),
	       (8, 'block.tree.sum.f32.b32', 'block', 'block.tree', 'block=32,op=sum', 'f32', 32, 0, 'pass', 'PASS',
		'completed-correct', '', 3.0, '2026-11-26T00:04:10Z', '31', NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, 'sum', 2, NULL),
	       (8, 'block.tree.sum.f32.b64', 'block', 'block.tree', 'block=64,op=sum', 'f32', 64, 0, 'pass', 'PASS',
		'completed-correct', '', 3.0, '2026-11-26T00:04:11Z', '32', NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, 'sum', 3, NULL),
	       (8, 'block.tree.sum.f32.b128', 'block', 'block.tree', 'block=128,op=sum', 'f32', 128, 0, 'pass',
		'FAIL', 'completed-wrong', '$probe', 3.0, '2026-11-26T00:04:12Z', '33', NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL, 'sum', 3, NULL),
	       (8, 'block.tree.sum.f32.b256', 'block', 'block.tree', 'block=256,op=sum', 'f32', 256, 0, 'pass',
		'FAIL', 'completed-wrong', '$guard', 3.0, '2026-11-26T00:04:13Z', '34', NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL, 'sum', 2, NULL)"

# copied_run ARGS...: the command the "copied: ..." note on the screen
# shows, which must be what the clipboard holds, run (tui_lib.sh,
# clipboard_run).
copied_run() {
	cmd=$(sed -n 's/^ *copied: conform //p' "$TMP/screen" | sed 's/ *$//')
	checks=$((checks + 1))
	[ "conform $cmd" = "$(t show-buffer 2>/dev/null)" ] ||
		fail "the note shows 'conform $cmd', the clipboard holds '$(t show-buffer 2>/dev/null)'"
	clipboard_run "$@"
}

tui_resize 80 24
launch "cd '$TMP' && '$CONFORM' tui --db ext.db"
expect_screen "1 Catalog" "the interface on runs over two GPUs and of a kernel file"
keys 4
expect_screen "^Run #8 " "Results on the run over two GPUs"
expect_screen "^2026-11-26 00:04 +2 devices" "the heading line says the results are on two devices"
expect_screen "^Case +Device +Status +Observed +ms +Message" "a Device column when the results name two devices"
expect_screen "^block\\.tree\\.sum\\.f32\\.b32 +H200 #2 +PASS " "each result's own device, short (H200), told apart by its id"
expect_screen "^block\\.tree\\.sum\\.f32\\.b64 +H200 #3 +PASS " "the other GPU"
expect_not_screen "NVIDIA H200" "no vendor's word in the column"
keys j j z
expect_screen "^Device +H200 #3$" "z shows the row's device"
expect_screen "^Message +exact probe \\(ones at \\[0, 128\\)\\): sum of 128 ones" "and its message in full"
keys z Enter
expect_screen "^device: NVIDIA H200 \\(device #3\\)$" "the detail names the device in full"
expect_screen "^probe: exact probe \\(ones at \\[0, 128\\)\\): sum of 128 ones returned 127: 1 element" "the exact probe's finding, labelled"
expect_screen "^outputs: 1 of 1 outputs wrong: \\[0\\] got 127 want 128 \\(exact\\); rel-L2" "the comparison, labelled"
expect_not_screen "^message: exact probe" "the message is not shown twice"
keys Enter j Enter
expect_screen "^guard: wrote past the end of out: offset 4 of a 4-byte buffer" "a guard zone's finding, labelled"
keys Enter
# The kernel file's conformance run: its case needs the file.
keys '['
expect_screen "^Run #7 " "the run of the kernel file"
expect_screen "^2026-11-26 00:02 +NVIDIA H200$" "one device: named on the heading line, no column"
expect_not_screen "^Case +Device" "no Device column for one device"
keys Enter
expect_screen "^outputs: 1 of 1 outputs wrong: \\[0\\] got 16 want 31" "a comparison alone is labelled too"
keys Enter
keys q
expect_screen "^EXIT=0" "q leaves"

# The tune of the kernel file, at 200 columns: every column.
tui_resize 200 50
launch "cd '$TMP' && '$CONFORM' tui --db ext.db"
expect_screen "1 Catalog" "the interface at 200x50"
keys 4
expect_screen "^Run #8 " "Results on the run over two GPUs, at 200 columns"
# Y on a conformance row: conform run selects that case, with the run's seed.
keys g j j Y
expect_screen "^ ?copied: conform run " "Y copies the command that runs the case again"
copied_run --list
checks=$((checks + 1))
[ "$(cat "$TMP/out")" = "block.tree.sum.f32.b128" ] ||
	{ fail "the copied command does not select the case (conform run ... --list):"; sed 's/^/  | /' "$TMP/out" "$TMP/err" >&2; }
expect_grep "$TMP/screen" "^ ?copied: conform run .*--filter block\\.tree\\.sum\\.f32\\.b128 --seed 77 --db ext\\.db" "with the run's seed and database"
keys '[' Y
expect_screen "^ ?copied: conform run --kernel pow2_tree\\.cu --filter user\\.pow2_tree\\.sum\\.f32\\.n31 --seed 5 --db ext\\.db" "the case of a kernel file: with --kernel FILE from its run's command line"
copied_run --list
checks=$((checks + 1))
[ "$(cat "$TMP/out")" = "user.pow2_tree.sum.f32.n31" ] ||
	{ fail "the copied command does not select the kernel file's case:"; sed 's/^/  | /' "$TMP/out" "$TMP/err" >&2; }
keys '['
expect_screen "^Run #6 " "the tune of the kernel file"
expect_screen "^user\\.pow2_tree +2\\^10 +\\(default\\) +f32 +sum +PASS +4\\.00 +1000\\.0 +25% +2\\.00 +5\\.0% +0\\.5%" "a user kernel's % copy and x base, from the references measured for it"
expect_screen "^user\\.pow2_tree +512 +\\(default\\) +f32 +sum +PASS +2\\.00 +2000\\.0 +50% +$missing +5\\.0% +$missing( |$)" "no baseline at 2^9 and no interval stored: missing, not 0"
expect_not_screen "0\\.0%" "no invented zero"
keys g Enter
expect_screen "^timing: median 4 (µs|us), 1000\\.0 GB/s, 100 samples, timed by cupti$" "the detail's median in the table's unit"
expect_screen "^interval: median in \\[3\\.98, 4\\.02\\] (µs|us) \\(95 %\\), spread 0\\.50%, noise target met; stddev/mean 5\\.0%$" "its interval in the same unit"
keys Enter j j Enter
expect_screen "^interval: not stored \\(measured before conform kept the median's interval\\); stddev/mean 5\\.0%$" "a result with no interval stored says so"
expect_not_screen "\\[2, 2\\]" "no interval made of the median"
keys Enter g y
expect_screen "^ ?copied: \\(default\\)" "y copies a timed row's configuration"
keys Y
expect_screen "^ ?copied: conform tune user\\.pow2_tree --kernel pow2_tree\\.cu --n 2\\^10 --dtype f32 --op sum --fresh --db ext\\.db" "Y: the tune line of a user kernel names its file"
copied_run
copied_resolves "the Results' tune line"
# The best view: the same references, the same missing values.
keys b / p o w 2 Enter
expect_screen "^user\\.pow2_tree +512 +\\(default\\) +f32 +sum +2\\.00 +2000\\.0 +$missing +50% +$missing +H200$" "best: % copy of a user kernel, x base and spread missing, the device short"
expect_screen "^user\\.pow2_tree +2\\^10 +\\(default\\) +f32 +sum +4\\.00 +1000\\.0 +2\\.00 +25% +0\\.5% +H200$" "best: x base of a user kernel"
keys Y
expect_screen "^ ?copied: conform tune user\\.pow2_tree --kernel pow2_tree\\.cu --n 512 --dtype f32 --op sum --fresh --db ext\\.db" "best's Y names the kernel file too"
copied_run
copied_resolves "the best view's tune line"
keys Enter
expect_screen "^best: \\(default\\)$" "the configurations of user.pow2_tree at 512"
expect_screen "^ 1 \\(default\\) +2\\.00 +$missing +$missing " "no interval stored: the interval column says missing"
keys Escape Escape b q
expect_screen "^EXIT=0" "q leaves the user kernel's run"
finish
