#!/bin/sh
# tui_plot.sh - the plot pane on the H100 tuning database (tui_lib.sh), at
# 80x24 and 200x50: one line per variant through its best configuration per
# size with the copy line, sizes on the x axis as 2^20 ... 2^30, the legend
# whole (wrapped at 80 columns), a for every evaluation, y for % of the copy
# bandwidth, a series hidden with ] and Space, the cursor's read-out (value,
# % copy and configuration at one size), w keeping softmax's rows of 128
# and of 1024 columns apart, and two variants checked in the catalog as the
# only two series.  Skipped (77) without tmux or sqlite3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/h100.db"
tui_fixture "$db"

# plot_checks COLS LINES: the whole tour at one terminal size.
plot_checks() {
	size="$1x$2"
	tui_session "$1" "$2"
	launch "'$CONFORM' tui --db '$db'"
	expect_screen "1 Catalog" "$size: the interface starts"
	keys 5
	# Nothing checked, the catalog's cursor on a family: every timed
	# variant, and the flat problems first (device.*: 4 sizes, 5 variants).
	expect_screen "GB/s against n, flat \\(n\\) +\\(w: shape 1 of 3\\)" "$size: the title names the shape"
	expect_screen "best configuration per size: 5 series, 20 points, 2 runs; every timed variant" \
		"$size: one point per variant and size"
	if [ "$1" -ge 120 ]; then
		expect_screen "^\\* device\\.atomic f32  \\+ device\\.coop f32  o device\\.cub f32  x device\\.last_block f32  # device\\.two_pass f32$" \
			"$size: the legend on one row"
	else
		expect_screen "^\\* device\\.atomic f32  \\+ device\\.coop f32  o device\\.cub f32 *$" "$size: the legend's first row"
		expect_screen "^x device\\.last_block f32  # device\\.two_pass f32 *$" "$size: the legend wraps whole names"
	fi
	expect_screen "^ +copy (│|\\|)+(─|-)" "$size: the copy line, labelled"
	expect_screen "^ +n +2\\^20 .*2\\^24 .*2\\^28 .*2\\^30$" "$size: log x axis labelled as sizes"
	# The top of the y axis: the first round value above the best (3146
	# GB/s, 103 % of the copy), finer with more rows.
	if [ "$2" -ge 40 ]; then top=3200 top_pct=105; else top=3500 top_pct=120; fi
	expect_screen "^ +$top (│|\\|)" "$size: the y axis ends just above the data and the copy line"
	# Lines: dots between the markers, not only the markers.
	expect_screen "(│|\\|)[^ ]*\\.\\.\\.\\.\\." "$size: the series drawn as lines"

	keys a
	expect_screen "all evaluations: 5 series, 872 points, 2 runs" "$size: a shows every evaluation"
	keys a
	expect_screen "best configuration per size: 5 series, 20 points" "$size: a again, the best lines"

	keys y
	expect_screen "% of copy bandwidth against n" "$size: y switches to % copy"
	expect_screen "^% copy" "$size: the y axis says % copy"
	expect_screen "^ +$top_pct (│|\\|)" "$size: the % axis just above the best"
	expect_screen "^ +80 (│|\\|)" "$size: labelled in %"
	keys y
	expect_screen "GB/s against n" "$size: y again, GB/s"

	# The read-out: the cursor starts at the smallest size; l moves it.
	expect_screen "^at n = 2\\^20 \\(size 1 of 4" "$size: the cursor at the first size"
	expect_screen "^>\\* device\\.atomic f32  1024\\.0 GB/s  34% copy  4\\.10 us  block=512,items=8,vec" \
		"$size: the read-out: GB/s, % copy, median, configuration"
	keys l
	expect_screen "^at n = 2\\^24 \\(size 2 of 4" "$size: l moves the cursor to the next size"
	expect_screen "^>\\* device\\.atomic f32  2822\\.5 GB/s  93% copy  23\\.78 us  block=1024,items=2,vec" \
		"$size: the read-out at 2^24"
	expect_screen "^ o device\\.cub f32  2759\\.5 GB/s  91% copy  24\\.32 us  \\(default\\)" \
		"$size: a variant without tunables says so"
	keys h
	expect_screen "^at n = 2\\^20 " "$size: h moves it back"

	# ] selects device.coop, Space hides it: off the plot and the read-out,
	# "-" in the legend; Space again shows it.
	keys ']'
	expect_screen "^>\\+ device\\.coop f32" "$size: ] selects the next series"
	keys Space
	expect_screen "(^| )- device\\.coop f32" "$size: Space hides the series: - in the legend"
	expect_screen "best configuration per size: 5 series, 16 points" "$size: its points are off the plot"
	expect_not_screen "^.\\+ device\\.coop" "$size: and off the read-out"
	keys Space
	expect_screen "best configuration per size: 5 series, 20 points" "$size: Space shows it again"

	# w: softmax's shapes one at a time, rows on the x axis.
	keys w
	expect_screen "GB/s against rows, rows(×|x)128 +\\(w: shape 2 of 3\\)" "$size: w shows rows of 128"
	expect_screen "softmax\\.cudnn bf16" "$size: the bf16 tune at 128 columns"
	expect_not_screen "softmax\\.[a-z_]+ f32" "$size: without the f32 tune at 1024 columns"
	expect_screen "^ +rows +2\\^14 .*2\\^20$" "$size: rows on the x axis"
	keys w
	expect_screen "GB/s against rows, rows(×|x)1024 +\\(w: shape 3 of 3\\)" "$size: w shows rows of 1024"
	expect_screen "^.\\* softmax\\.cudnn f32  1656\\.5 GB/s" "$size: the f32 tune at 1024 columns"
	expect_not_screen "softmax\\.[a-z_]+ bf16" "$size: without the bf16 tune"
	keys w
	expect_screen "GB/s against n, flat \\(n\\)" "$size: w comes back to the flat problems"
	keys q
	expect_screen "^EXIT=0" "$size: q exits 0"
	t kill-session -t tui
}

plot_checks 80 24
plot_checks 200 50

# Two variants checked in the catalog: the two series, and the header says
# where they come from.
tui_session 80 24
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "third start"
keys / d e v i c e . a t o m i c Enter a Escape / d e v i c e . c u b Enter a Escape
expect_screen "[0-9]+ checked" "device.atomic and device.cub checked"
keys 5
expect_screen "best configuration per size: 2 series, 8 points, 1 run; checked variants" \
	"only the checked variants"
expect_screen "^\\* device\\.atomic f32  \\+ device\\.cub f32 *$" "their legend"
keys q
expect_screen "^EXIT=0" "q exits 0 again"

finish
