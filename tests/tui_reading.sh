#!/bin/sh
# tui_reading.sh - reading results at 80x24, on the database of every shape
# the interface must show (tests/tui_lib.sh, tui_fixture_shapes: the H100
# database migrated from an older schema, a conformance run over two GPUs,
# a user kernel's tune beside the copy and CUB, configurations that differ
# at their ends, results without intervals): the columns that say which row
# it is stay whole and on screen while the others scroll; a missing
# interval is "–", never [m, m] 0.0%; the user kernel's rows have % copy
# and x base; each result of the two-GPU run names its GPU; a copied tune
# line is one conform takes; and the mouse: a click on a tab, a heading, a
# row, a double click, the wheel, and --no-mouse.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/shapes.db"
tui_fixture_shapes "$db"
tui_session 80 24
t set-option -g set-clipboard on
launch "cd '$TMP' && '$CONFORM' tui --db shapes.db"
expect_screen "1 Catalog" "the interface at 80x24"
[ "$(mouse_on)" = 1 ] || fail "the interface asks the terminal for mouse events"
checks=$((checks + 1))
if [ -n "$utf8" ]; then miss="–"; up="▲"; else miss="-"; up="\\^"; fi

# --- The Catalog's two TIMEOUTs, names that differ at their ends -------------
keys / T I M E O U T Enter
expect_screen "n4099 +TIMEOUT" "a case's name cut in the middle keeps its end (n4099)"
expect_screen "n1000003 +TIMEOUT" "and the other's (n1000003): the two read apart"
keys Escape
# Run 9's two device.atomic rows share vec=4,grid=0: said once above them.
cfg1="block=512,items=2,evict_first=1"

# --- Results of run 9: timed, stored without intervals ----------------------
keys 4
expect_screen "^Run #9 " "Results opens on the newest run"
expect_screen "^Variant +n +Config +us +GB/s" "the key columns first: variant, n, configuration"
expect_screen "^every row: Config vec=4,grid=0, Type f32, Op sum, Status PASS$" "the items every configuration has said once"
expect_screen "^\\* device\\.atomic +2\\^24 +$cfg1 +25\\.40 +2642\\.1" "a configuration whole at 80 columns"
# Right until the spread: the keys stay, the interval is missing, not 0.0%.
rights=0
while [ "$rights" -lt 8 ] && ! t capture-pane -p -t tui | grep -q "Spread"; do
	keys Right
	rights=$((rights + 1))
	sleep 0.2
done
expect_screen "^Variant +n +Config +<.*Spread" "scrolled right: the key columns stay, < marks the scroll"
expect_screen "^\\* device\\.atomic +2\\^24 +$cfg1 .* $miss$" "no interval stored: the spread is $miss"
expect_not_screen "0\\.0%" "no interval shown as 0.0%"
keys j Enter
expect_screen "^interval: not stored" "the detail says the interval was not stored"
expect_screen "^timing: median 25\\.4 (µs|us)" "the detail's median in the table's unit"
keys Enter z
expect_screen "^Spread +$miss$" "z: the row in full says the spread is missing, as the table does"
keys z
i=0
while [ "$i" -lt "$rights" ]; do keys Left; i=$((i + 1)); done

# --- Run 8: configurations that differ only at their ends --------------------
keys '['
expect_screen "^Run #8 " "[ goes to run 8"
expect_screen "^every row: Config block=512,items=2,vec=4, " "what the configurations share said once"
expect_screen "^device\\.atomic +2\\^24 +grid=0,evict_first=0 " "what tells them apart: grid=0,evict_first=0"
expect_screen "^device\\.atomic +2\\^24 +grid=1,evict_first=1 " "and grid=1,evict_first=1"

# --- Run 7: a user kernel beside the copy and CUB of the same run ------------
keys '['
expect_screen "^Run #7 " "[ goes to run 7"
expect_screen "%copy +xbase" "% copy and x base for the kernel file's variant"
# The baseline is known from the kernels' catalog (device.cub is the
# device family's); a build without kernels knows the copy (the device's
# stored bandwidth) but not which variant is a baseline: x base is missing.
if "$CONFORM" run --variants 2>/dev/null | grep -q '^device\.cub '; then base="1\\.04"; else base="$miss"; fi
expect_screen "^\\* user\\.grid_sum +2\\^24 +block=256,items=4,waves=2 +sum +25\\.70 +2611\\.2 +86% +$base" \
	"the user kernel's % copy and x base, from the references of its run"
expect_screen "^device\\.copy +2\\^28 .* 100% +$miss" "the copy has no baseline: $miss"

# --- Run 6: a conformance run over two GPUs ---------------------------------
keys '['
expect_screen "^Run #6 .* 2 passed, 3 failed" "[ goes to the two-GPU run"
expect_screen "^Case +Device +Status" "a Device column beside the case when results name two GPUs"
expect_screen "^device\\.last_block\\.sum\\.bf16\\.n1000003 +H200 #3 +TIMEOUT " "a TIMEOUT on the second H200, its size whole"
expect_screen "^device\\.last_block\\.sum\\.bf16\\.n4099 +H200 #2 +TIMEOUT " "the other TIMEOUT on the first, told apart"
keys Right Right
expect_screen "^device\\.last_block\\.sum\\.bf16\\.n16777223 +H200 #2 +FAIL .*[a-z]" "scrolled right: case, device and status stay beside the message"
keys Left Left

# --- Best, and the command line Y copies -------------------------------------
keys b / g r i d _ s u m Enter
expect_screen "^Best configurations +2 matching" "the best view filtered to the kernel file's variant"
expect_screen "^user\\.grid_sum +2\\^24 +block=256,items=4,waves=2 .* 86%" "its best at 2^24 with % copy"
keys Y
expect_screen "copied: conform tune user\\.grid_sum --kernel " "Y copies a tune line with the kernel file"
clipboard_run
copied_resolves "the best view's tune line at 80x24"
checks=$((checks + 1))
case $copied in
"conform tune user.grid_sum --kernel "*"/examples/kernels/grid_sum.cu --n 2^24 --dtype f32 --op sum --fresh --db shapes.db") ;;
*) fail "the copied line: '$copied'" ;;
esac
keys Escape b

# --- The mouse ---------------------------------------------------------------
# A click on the tab "6 Runs" (row 0) shows the Runs pane.
tab=$(t capture-pane -p -t tui | head -n 1 | awk '{ print index($0, "6 Runs") - 1 }')
# On a screen too small, which shows no tab, the click does nothing.
tui_resize 70 20
expect_screen "terminal too small" "70x20 is too small"
click "$tab" 0
tui_resize 80 24
expect_screen "^Run #[0-9]+ " "a click on a screen too small shows no other pane"
click "$tab" 0
expect_screen "^Runs +9" "a click on a tab shows its pane"
# A click on the Id heading sorts by it; again, the other way.
t capture-pane -p -t tui >"$TMP/screen"
hy=$(grep -En "^Mark +Id " "$TMP/screen" | cut -d: -f1)
idx=$(sed -n "${hy}p" "$TMP/screen" | awk '{ print index($0, "Id") - 1 }')
click "$idx" $((hy - 1))
expect_screen "Id$up" "a click on a heading sorts by it"
expect_screen "^ +1 conformance nightly" "sorted by id: run 1 at the top"
# A click on a row puts the cursor there: z shows that row.
t capture-pane -p -t tui >"$TMP/screen"
y7=$(grep -En "^ +7 tune" "$TMP/screen" | cut -d: -f1)
click 10 $((y7 - 1))
keys z
expect_screen "^Kernel +$top_srcdir/examples/kernels/grid_sum\\.cu" "a click on a row moves the cursor there: run 7 in full"
expect_screen "^Command +tune --kernel " "the run's command line in full"
keys z
# The wheel moves the cursor three rows, up to the last: from run 7 to 9.
wheel down 10 $((y7 - 1))
keys z
expect_screen "^Id +9$" "the wheel moves the cursor"
keys z
# A double click on a row opens it as Enter: the comparison of run 5 with
# the bench before it on its GPU.
t capture-pane -p -t tui >"$TMP/screen"
y5=$(grep -En "^ +5 bench" "$TMP/screen" | cut -d: -f1)
click 10 $((y5 - 1)) 2
expect_screen "^base +run 2 \\(bench" "a double click on run 5 compares it with run 2"
keys Escape
keys q
expect_screen "^EXIT=0" "q quits"

# --- --no-mouse: the terminal keeps clicks and the wheel ---------------------
launch "cd '$TMP' && '$CONFORM' tui --db shapes.db --no-mouse"
expect_screen "1 Catalog" "the interface with --no-mouse"
checks=$((checks + 1))
[ "$(mouse_on)" = 0 ] || fail "--no-mouse: the interface asked for mouse events"
keys q
expect_screen "^EXIT=0" "q quits"
finish
