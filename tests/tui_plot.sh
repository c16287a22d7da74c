#!/bin/sh
# tui_plot.sh - the plot pane on the H100 tuning database (tui_lib.sh), at
# 80x24 and 200x50: one line per variant through its best configuration per
# size with the copy line; each series a letter, its best point the
# capital, the series side by side at a size; even ticks on both axes (y:
# round values the same number of rows apart, x: 2^20 ... 2^30 the same
# number of columns apart); the read-out, which is the legend too, listing
# every series with its letter at the cursor's size (– where one has
# nothing there, "best" at its best); a for every evaluation, one strip per
# variant at each size; y for % of the copy bandwidth; a series hidden with
# ] and Space and still listed; w keeping softmax's rows of 128 and of 1024
# columns apart; two variants checked in the catalog as the only two
# series; eight series at 80x24, two to a row of the read-out, none left
# out, and a digit where sizes lie too close for them to stand side by
# side.  Skipped (77) without tmux or sqlite3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/h100.db"
tui_fixture "$db"

# even_ticks WHAT: the y axis's labels (the numbers on the rows with a
# tick) are 0 at the bottom and step by one value over the same number of
# rows, at least three of them; the x axis's labels (2^k under the axis)
# step by the same power over the same number of columns, at least three.
even_ticks() {
	checks=$((checks + 1))
	t capture-pane -p -t tui >"$TMP/screen"
	if ! awk '
		BEGIN { ny = 0; nx = 0 }
		/^ +[0-9.]+ (┤|\+)/ { v[ny] = $1; r[ny++] = NR }
		/^ +(n|rows) (└|\+)/ { lab = NR + 1 }
		NR == lab {
			s = $0; off = 0
			while (match(s, /2\^[0-9]+/)) {
				c[nx] = off + RSTART - 1 + int(RLENGTH / 2)
				e[nx++] = substr(s, RSTART + 2, RLENGTH - 2) + 0
				off += RSTART + RLENGTH - 1
				s = substr(s, RSTART + RLENGTH)
			}
		}
		END {
			if (ny < 3 || nx < 3 || v[ny - 1] != 0) exit 1
			for (k = 2; k < ny; k++)
				if (r[k] - r[k - 1] != r[1] - r[0] || v[k - 1] - v[k] != v[0] - v[1]) exit 1
			for (k = 2; k < nx; k++)
				if (c[k] - c[k - 1] != c[1] - c[0] || e[k] - e[k - 1] != e[1] - e[0]) exit 1
		}' "$TMP/screen"; then
		fail "$1: the axes' labels are not evenly spaced"
		sed 's/^/  | /' "$TMP/screen" >&2
	fi
}

# A row of the plot: a y label or none, then the axis.
plot_row='^ +[0-9.]* (┤|│|\||\+)'

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
	# The read-out is the legend: every series, its letter and name, and
	# its best configuration at the cursor's size (the first, 2^20).
	expect_screen "^at n = 2\\^20 \\(1 of 4, h/l\\)  capital: a series' best" "$size: the cursor at the first size"
	expect_screen "^>a device\\.atomic f32 +1024\\.0 GB/s +34%  4\\.10 (µs|us)  block=512,items=8" \
		"$size: series a, selected: GB/s, % copy, median, configuration"
	expect_screen "^ b device\\.coop f32 +873\\.8 GB/s +29%  4\\.80 (µs|us)  block=256" "$size: series b in the read-out"
	expect_screen "^ c device\\.cub f32 +929\\.6 GB/s +31%  4\\.51 (µs|us)  \\(default\\)" \
		"$size: series c, a variant without tunables says so"
	expect_screen "^ d device\\.last_block f32 +929\\.6 GB/s +31%" "$size: series d in the read-out"
	expect_screen "^ e device\\.two_pass f32 +897\\.9 GB/s +29%" "$size: series e in the read-out"
	# The five side by side at a size, each its own letter, not one mark.
	expect_screen "$plot_row.*abcde" "$size: the five series side by side at a size"
	expect_screen "^(GB/s|% copy) +(─|-)+ copy bandwidth, 3047 GB/s" "$size: the copy line, named"
	expect_screen "$plot_row(─|-)+" "$size: the copy line drawn"
	expect_screen "^ +n (└|\\+)" "$size: the x axis named n"
	expect_screen "^ +2\\^20 +2\\^21 +2\\^22 .*2\\^29 +2\\^30$" "$size: log x axis labelled as sizes"
	even_ticks "$size: GB/s"
	# The top label: the last round value under the top (3146 GB/s, 103 %
	# of the copy), finer with more rows.
	if [ "$2" -ge 40 ]; then top=3500 top_pct=120 mid_pct=20; else top=3000 top_pct=100 mid_pct=50; fi
	expect_screen "^ +$top (┤|\\+)" "$size: the y axis's top label just above the data"
	# Lines: dots between the markers, not only the markers.
	expect_screen "$plot_row.*[a-e]?\\.\\.\\.\\.\\." "$size: the series drawn as lines"

	# Each series' best point (the largest size here) is its capital,
	# and the read-out says best there.
	keys l l l
	expect_screen "^at n = 2\\^30 \\(4 of 4" "$size: l l l moves the cursor to the last size"
	expect_screen "$plot_row.*ABCDE" "$size: the best points in capitals"
	expect_screen "^>A device\\.atomic f32 +3145\\.8 GB/s best 103%" "$size: the read-out says best"
	expect_screen "^ C device\\.cub f32 +3106\\.0 GB/s best 102%" "$size: and for every series"
	keys h h h

	keys a
	expect_screen "all evaluations: 5 series, 872 points, 2 runs" "$size: a shows every evaluation"
	# A strip per variant at each size, side by side, not one column.
	expect_screen "$plot_row.*abcde" "$size: a: the strips side by side"
	expect_screen "$plot_row.*ab de" "$size: a: a strip spans rows"
	expect_screen "^>a device\\.atomic f32 +1024\\.0 GB/s +34%  4\\.10 (µs|us)  54 tried  block=" \
		"$size: a: the read-out counts the evaluations"
	expect_screen "^ c device\\.cub f32 +929\\.6 GB/s +31%  4\\.51 (µs|us)  2 tried  \\(default\\)" \
		"$size: a: every series counted"
	even_ticks "$size: a"
	keys a
	expect_screen "best configuration per size: 5 series, 20 points" "$size: a again, the best lines"

	keys y
	expect_screen "% of copy bandwidth against n" "$size: y switches to % copy"
	expect_screen "^% copy +(─|-)+ copy bandwidth, 100%" "$size: the y axis says % copy"
	expect_screen "^ +$top_pct (┤|\\+)" "$size: the % axis just above the best"
	expect_screen "^ +$mid_pct (┤|\\+)" "$size: labelled in round %"
	even_ticks "$size: % copy"
	keys y
	expect_screen "GB/s against n" "$size: y again, GB/s"

	keys l
	expect_screen "^at n = 2\\^24 \\(2 of 4" "$size: l moves the cursor to the next size"
	expect_screen "^>a device\\.atomic f32 +2822\\.5 GB/s +93%  23\\.78 (µs|us)  block=1024,items=2" \
		"$size: the read-out at 2^24"
	expect_screen "^ c device\\.cub f32 +2759\\.5 GB/s +91%  24\\.32 (µs|us)  \\(default\\)" \
		"$size: the read-out at 2^24, series c"
	keys h
	expect_screen "^at n = 2\\^20 " "$size: h moves it back"

	# ] selects device.coop, Space hides it: off the plot, still listed.
	keys ']'
	expect_screen "^>b device\\.coop f32 +873\\.8 GB/s" "$size: ] selects the next series"
	keys Space
	expect_screen "^>b device\\.coop f32 +hidden \\(Space shows it\\)" "$size: Space hides the series, still listed"
	expect_screen "best configuration per size: 5 series, 16 points" "$size: its points are off the plot"
	expect_screen "$plot_row.*acde" "$size: the others close up"
	expect_not_screen "$plot_row.*b" "$size: no b on the plot"
	keys Space
	expect_screen "best configuration per size: 5 series, 20 points" "$size: Space shows it again"

	# w: softmax's shapes one at a time, rows on the x axis.
	keys w
	expect_screen "GB/s against rows, rows(×|x)128 +\\(w: shape 2 of 3\\)" "$size: w shows rows of 128"
	expect_screen "^.a softmax\\.cudnn bf16 +1736\\.1 GB/s" "$size: the bf16 tune at 128 columns"
	expect_not_screen "softmax\\.[a-z_]+ f32" "$size: without the f32 tune at 1024 columns"
	expect_screen "^ +rows (└|\\+)" "$size: rows on the x axis"
	expect_screen "^ +2\\^14 +2\\^15 .*2\\^20$" "$size: rows labelled as sizes"
	even_ticks "$size: rows of 128"
	# Two of the four have no result at 2^20 rows: "–", still listed.
	keys l l
	expect_screen "^at rows = 2\\^20 \\(3 of 3" "$size: the cursor at 2^20 rows"
	expect_screen "^.b softmax\\.online bf16 +(–|-)$" "$size: a series without a result there: –"
	expect_screen "^ c softmax\\.registers bf16 +(–|-)$" "$size: another: –"
	expect_screen "^ d softmax\\.three_pass bf16 +980\\.8 GB/s" "$size: and the one with a result"
	keys w
	expect_screen "GB/s against rows, rows(×|x)1024 +\\(w: shape 3 of 3\\)" "$size: w shows rows of 1024"
	expect_screen "^.A softmax\\.cudnn f32 +1656\\.5 GB/s best" "$size: the f32 tune at 1024 columns"
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
expect_screen "^>a device\\.atomic f32 +1024\\.0 GB/s" "the first listed"
expect_screen "^ b device\\.cub f32 +929\\.6 GB/s" "the second listed"
keys q
expect_screen "^EXIT=0" "q exits 0 again"
t kill-session -t tui

# Nothing checked: the series are the variant under the catalog's cursor,
# which the mouse moves as the keys do.  A click on the family row: every
# timed variant; the wheel down from there, onto device.atomic's cases.
tui_session 80 24
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "start for the catalog's cursor"
keys / d e v i c e . a t o m i c Enter
keys 5
expect_screen "1 series, .*; device\\.atomic at the ca" "the variant under the catalog's cursor"
keys 1
expect_screen "^▾ \\[ \\] device |^v \\[ \\] device " "the family's row"
click 10 2
keys 5
expect_screen "; every timed variant" "a click on the family row: every timed variant"
keys 1
wheel down 10 2
keys 5
expect_screen "1 series, .*; device\\.atomic at the ca" "the wheel onto device.atomic's cases"
keys q
expect_screen "^EXIT=0" "q exits 0 after the mouse in the catalog"
t kill-session -t tui

# Eight series at 80x24: f64 copies of three variants at the two smaller
# sizes.  The read-out goes two to a row and lists all eight, "–" where an
# f64 series has no result.
"${SQLITE3:-sqlite3}" "$db" "INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols,
	expect, status, observed, message, err_norm, duration_ms, seed, created_at, median_ms, mean_ms,
	stddev_ms, min_ms, samples, noise, gbps, op, device_id, ci_low_ms, ci_high_ms, spread, noise_met,
	throttled, timer, source)
	SELECT run_id, case_name, kernel, variant, params, 'f64', n, cols, expect, status, observed, message,
	err_norm, duration_ms, seed, created_at, median_ms, mean_ms, stddev_ms, min_ms, samples, noise,
	gbps / 2, op, device_id, ci_low_ms, ci_high_ms, spread, noise_met, throttled, timer, source
	FROM results WHERE variant IN ('device.atomic', 'device.coop', 'device.cub') AND dtype = 'f32'
	AND n IN (1048576, 16777216) AND median_ms IS NOT NULL" || fail "adding f64 series"
tui_session 80 24
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "fourth start"
keys 5
expect_screen "best configuration per size: 8 series, 26 points" "eight series"
keys l l
expect_screen "^at n = 2\\^28 \\(3 of 4" "the cursor at 2^28"
for entry in "a device\\.atomic f32 +[0-9.]+ +[0-9]+%" "b device\\.coop f32 +[0-9.]+ +[0-9]+%" \
	"c device\\.cub f32 +[0-9.]+ +[0-9]+%" "d device\\.last_block f32 +[0-9.]+ +[0-9]+%" \
	"e device\\.two_pass f32 +[0-9.]+ +[0-9]+%" "f device\\.atomic f64 +(–|-)$" \
	"g device\\.coop f64 +(–|-) " "h device\\.cub f64 +(–|-)$"; do
	expect_screen "(^.| )$entry" "8 series: ${entry%% *} listed"
done
expect_screen "^.a device\\.atomic f32 .* b device\\.coop f32" "two to a row"
even_ticks "8 series"
keys q
expect_screen "^EXIT=0" "q exits 0 with eight series"
t kill-session -t tui

# And at 2^21 as well: the eight cannot stand side by side in the six
# columns between 2^20 and 2^21, so some share a column, and where two
# share a cell a digit says so (and the heading what a digit means).
"${SQLITE3:-sqlite3}" "$db" "INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols,
	expect, status, observed, message, err_norm, duration_ms, seed, created_at, median_ms, mean_ms,
	stddev_ms, min_ms, samples, noise, gbps, op, device_id, ci_low_ms, ci_high_ms, spread, noise_met,
	throttled, timer, source)
	SELECT run_id, case_name, kernel, variant, params, dtype, 2097152, cols, expect, status, observed,
	message, err_norm, duration_ms, seed, created_at, median_ms, mean_ms, stddev_ms, min_ms, samples,
	noise, gbps * 1.5, op, device_id, ci_low_ms, ci_high_ms, spread, noise_met, throttled, timer, source
	FROM results WHERE variant LIKE 'device.%' AND n = 1048576 AND median_ms IS NOT NULL" ||
	fail "adding 2^21"
tui_session 80 24
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "fifth start"
keys 5
expect_screen "best configuration per size: 8 series, 34 points" "eight series at five sizes"
expect_screen "^at n = 2\\^20 \\(1 of 5, h/l\\)  capital: a series' best  2-9: series in one cell" \
	"the heading says what a digit means"
expect_screen "$plot_row[^0-9]*[2-9]" "a digit where series share a cell"
keys q
expect_screen "^EXIT=0" "q exits 0 with shared cells"

# device.atomic measured on two H200s as well (one name, two devices): a
# series each, named apart ("... #2", "... #3", the end kept where the name
# is cut), each drawn in its own letter (the chart knows a series by its
# name: two of one name were one).
two="$TMP/two.db"
tui_fixture "$two"
"${SQLITE3:-sqlite3}" "$two" "INSERT INTO devices (id, name, uuid, cc_major, cc_minor, sm_count, memory_bytes,
	driver_version, runtime_version, first_seen) VALUES
	(2, 'NVIDIA H200 NVL 141GB HBM3e', 'GPU-h200-a', 9, 0, 132, 150000000000, 13000, 13000, '2026-11-26T00:00:00Z'),
	(3, 'NVIDIA H200 NVL 141GB HBM3e', 'GPU-h200-b', 9, 0, 132, 150000000000, 13000, 13000, '2026-11-26T00:00:00Z');
	INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed,
	message, duration_ms, seed, created_at, median_ms, samples, gbps, op, device_id)
	SELECT run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed, message,
	duration_ms, seed, created_at, median_ms * d.f, samples, gbps / d.f, op, d.id
	FROM results, (SELECT 2 AS id, 1.25 AS f UNION ALL SELECT 3, 1.5) d
	WHERE variant = 'device.atomic' AND median_ms IS NOT NULL" || fail "adding two H200s"
launch "'$CONFORM' tui --db '$two'"
expect_screen "1 Catalog" "start with two H200s"
keys / d e v i c e . a t o m i c Enter a Escape 5
expect_screen "best configuration per size: 3 series" "device.atomic on three devices: three series"
expect_screen "^ b device\\.atomic f32 @H.*HBM3e #2 " "the first H200 named by its id"
expect_screen "^ c device\\.atomic f32 @H.*HBM3e #3 " "the second H200 named apart"
checks=$((checks + 1))
grep -E "$plot_row" "$TMP/screen" | grep -q '[Cc]' || fail "the second H200's points drawn as its own letter, c"
keys q
expect_screen "^EXIT=0" "q exits 0 with two H200s"

finish
