#!/bin/sh
# perf_summary.sh - scripts/perf-summary, which makes PERFORMANCE.md's
# summary of the device-wide sums from a bench database, on the H100
# database of tests/data: one row per size the bench timed, ours by
# conform's rule for the best (the lowest upper end of the interval) beside
# CUB and the copy of the same run; bad input is one line and exit 2.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: skipped"; exit 77; }
S="$top_srcdir/scripts/perf-summary"
db="$TMP/h100.db"
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | sql "$db" || fail "loading the H100 database"

expect_exit 0 "the summary of the newest bench" -- python3 "$S" "$db"
expect_grep "$TMP/out" "^NVIDIA H100 80GB HBM3, 2026-11-25, build ecf0a02 \(run 5 of the database\)" "device, date, build and run"
expect_eq "$(grep -c '^| f32 sum | 2^' "$TMP/out")" 4 "a row per size"
# At 2^24 the steadier device.atomic (upper bound lowest) is ours; CUB from the same run.
expect_grep "$TMP/out" "^\| f32 sum \| 2\^24 \| device\.atomic 23\.84 µs, 92\.4 % of copy \| 24\.32 µs, 90\.6 % of copy \| 1\.020 \|$" "the 2^24 row"
expect_exit 0 "an older bench by its run id" -- python3 "$S" "$db" 2
expect_grep "$TMP/out" "\(run 2 of the database\)" "run 2 named"
expect_exit 2 "not a bench run" -- python3 "$S" "$db" 1
expect_exit 2 "no database" -- python3 "$S" "$TMP/none.db"
expect_exit 2 "no argument" -- python3 "$S"

# Softmax: every problem the tune runs timed, ours beside cuDNN and the
# copy, and the peers' times of the same problem from their JSON lines.
printf '%s\n' '{"what": "copy-ref", "gbs": 3000}' \
	'{"what": "problem", "rows": 16384, "cols": 128, "dtype": "bf16", "torch_us": 5.0, "copy_us": 3.1, "triton_us": 3.0}' \
	>"$TMP/peers.jsonl"
expect_exit 0 "the softmax table" -- python3 "$S" --softmax "$db" "$TMP/peers.jsonl"
expect_grep "$TMP/out" "^NVIDIA H100 80GB HBM3, 2026-11-25; tune runs 3, 4 of the database \(build ecf0a02\)" "softmax: device, date, runs"
expect_eq "$(grep -c '^| bf16 2^1[47] × 128 \|^| bf16 2^20 × 128 \|^| f32 2^12 × 1024 ' "$TMP/out")" 4 "softmax: a row per problem"
expect_grep "$TMP/out" "^\| bf16 2\^14 × 128 \| softmax\.online 6\.62 µs, 41\.6 % of copy \| 4\.83 µs \| 5\.00 µs \| 3\.00 µs \| 3\.10 µs \| 0\.729 \|$" \
	"softmax: ours, cuDNN and the peers of one problem"
expect_grep "$TMP/out" "^\| f32 2\^12 × 1024 \| .* \| - \| - \| - \| [0-9.]+ \|$" "softmax: no peers for a problem they did not time"
expect_exit 2 "softmax: no database" -- python3 "$S" --softmax
printf 'not json\n' >"$TMP/bad.jsonl"
expect_exit 2 "softmax: a peers file that is not JSON lines" -- python3 "$S" --softmax "$db" "$TMP/bad.jsonl"
expect_exit 0 "a database without softmax tunes" -- "$CONFORM" --filter harness.pass.i32 --db "$TMP/plain.db"
expect_exit 2 "softmax: no softmax tune in it" -- python3 "$S" --softmax "$TMP/plain.db"
finish
