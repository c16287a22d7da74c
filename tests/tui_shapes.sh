#!/bin/sh
# tui_shapes.sh - the database of every shape the reading interface must show
# (tests/tui_lib.sh, tui_fixture_shapes): built with this conform, the
# shapes are there as its comment says - the H100 database migrated to the
# current schema, a conformance run over two GPUs with a FAIL and TIMEOUTs
# named alike, a user kernel's tune beside the copy and the CUB baseline of
# the same run, long configurations that differ at their ends, results
# without intervals - and conform reads it without error (db info, history,
# best, compare).  The interface's assertions on it go here too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

db="$TMP/shapes.db"
tui_fixture_shapes "$db"
q() { sql "$db" "$1"; }

# --- Migrated: the schema of a database this conform makes ------------------
expect_exit 0 "db info on the shapes" -- "$CONFORM" db info --db "$db"
cp "$TMP/out" "$TMP/info"
expect_exit 0 "db info on a new database" -- "$CONFORM" db info --db "$TMP/new.db"
expect_eq "$(sed -n 's/.*: \(schema [0-9]*\),.*/\1/p' "$TMP/info")" \
	"$(sed -n 's/.*: \(schema [0-9]*\),.*/\1/p' "$TMP/out")" "the H100 database migrated to the current schema"
expect_grep "$TMP/info" "9 runs, [0-9]+ results, 3 devices" "the H100's runs and device and the shapes'"

# --- (a) A conformance run over two GPUs ------------------------------------
expect_eq "$(q "select count(*), count(distinct uuid) from devices where name = 'NVIDIA H200'")" "2|2" \
	"two GPUs of one name, told apart by uuid"
expect_eq "$(q "select kind, count(distinct r.device_id) from runs u join results r on r.run_id = u.id
	where u.id = 6")" "conformance|2" "run 6: a conformance run with results on two devices"
expect_eq "$(q "select count(*) from results f join results t on f.run_id = 6 and t.run_id = 6
	and f.status = 'FAIL' and t.status = 'TIMEOUT' and f.case_name != t.case_name
	and rtrim(f.case_name, '0123456789') = rtrim(t.case_name, '0123456789')")" 2 \
	"a FAIL and two TIMEOUTs whose names differ only in their size"
expect_eq "$(q "select count(distinct device_id) from results where run_id = 6 and status = 'TIMEOUT'")" 2 \
	"the TIMEOUTs on different devices"
expect_eq "$(q "select passed || ' ' || failed || ' ' || skipped from runs where id = 6")" "2 3 0" \
	"run 6's tallies are its results'"

# --- (b) A user kernel's tune beside its references -------------------------
kernel="$top_srcdir/examples/kernels/grid_sum.cu"
expect_exit 0 "the kernel file's variants" -- "$CONFORM" run --kernel "$kernel" --variants
expect_grep "$TMP/out" "^user\\.grid_sum " "conform names the kernel file's variant user.grid_sum"
expect_eq "$(q "select count(*) from runs where id = 7 and kind = 'tune'
	and command_line like 'tune --kernel %examples/kernels/grid_sum.cu %'")" 1 "run 7 tunes the kernel file"
expect_eq "$(q "select count(*), count(distinct source), min(length(source)) from results
	where run_id = 7 and variant = 'user.grid_sum'")" "6|1|64" "its configurations carry the file's SHA-256"
expect_eq "$(q "select count(*) from results where run_id = 7 and variant like 'device.%' and source is not null")" 0 \
	"the references carry none"
expect_eq "$(q "select count(distinct n) from results where run_id = 7 and variant = 'user.grid_sum' and n in
	(select n from results where run_id = 7 and variant = 'device.cub')")" 2 \
	"CUB measured in the same run at each of its sizes (x base)"
expect_eq "$(q "select count(*) from results where run_id = 7 and variant = 'device.copy' and gbps > 0")" 1 \
	"the copy measured in the same run"
expect_eq "$(q "select count(*) from device_bandwidth b, runs u where u.id = 7 and b.device_id = u.device_id
	and b.measured_at between u.started_at and u.ended_at
	and b.id = (select max(id) from device_bandwidth where device_id = u.device_id)")" 1 \
	"the device's newest copy bandwidth is that run's (% copy)"

# --- (c) Long configurations that differ at their ends ----------------------
expect_eq "$(q "select count(*) from results a join results b on a.run_id = 8 and b.run_id = 8
	and a.id < b.id and a.params != b.params and length(a.params) > 40
	and substr(a.params, 1, 28) = substr(b.params, 1, 28)")" 6 \
	"run 8: four configurations alike in their first 28 characters (80 columns showed block=512,items=2,vec=...)"

# --- (d) Timed results without intervals ------------------------------------
expect_eq "$(q "select count(*) from results where run_id = 9 and median_ms > 0 and ci_low_ms is null
	and ci_high_ms is null and spread is null")" 3 "run 9: timed, without intervals"

# --- conform reads it --------------------------------------------------------
expect_exit 0 "history of the user kernel" -- "$CONFORM" history user.grid_sum --db "$db"
expect_grep "$TMP/out" "user\\.grid_sum +block=256,items=4,waves=2 " "history: the user kernel's best"
expect_exit 0 "best of the user kernel" -- "$CONFORM" best user.grid_sum --n 2^28 --db "$db"
expect_grep "$TMP/out" "^NVIDIA H100 80GB HBM3 +user\\.grid_sum +2\\^28 +f32 +sum +block=256,items=4,waves=2 +358\\.10" \
	"best: the user kernel at 2^28"
expect_exit 0 "best at 2^24 over runs with and without intervals" -- "$CONFORM" best 'device.*' --n 2^24 --db "$db"
expect_exit 0 "compare the run without intervals with the one with" -- "$CONFORM" compare 9 8 --db "$db"
expect_grep "$TMP/out" "2 configurations timed in both" "compare: both runs' configurations"
expect_exit 1 "compare the run over two GPUs with the H100's conformance run" -- "$CONFORM" compare 1 6 --db "$db"
expect_grep "$TMP/out" "^status: 3 regressions" "compare: its FAIL and TIMEOUTs are regressions"
finish
