#!/bin/sh
# merge.sh - conform db merge: two shards of one --all, merged, hold the
# statuses of the unsharded run, and a second merge adds nothing; every
# column of every copied run, result, device and copy bandwidth arrives as
# it was, with results still naming their device where the output numbers
# devices otherwise; bad inputs (missing, not conform's, another schema
# version, the output itself) are one line and exit 2 and add nothing.
# Runs without a GPU: the cases a host can run pass, the rest are SKIPs,
# and both are statuses to merge.
. "$(dirname "$0")/lib.sh"
SQLITE3=${SQLITE3:-sqlite3}

# Column lists of a table, ids left out (they are the output's own).
columns() {
	"$SQLITE3" "$TMP/full.db" "SELECT group_concat(name, ', ') FROM pragma_table_info('$1') \
		WHERE name NOT IN ('id', 'run_id', 'device_id')"
}

# Two shards of one job (one tag, one seed) and the same run unsharded.
for shard in 1 2; do
	"$CONFORM" --all --shard "$shard/2" --seed 7 --tag job-1 --db "$TMP/s$shard.db" >/dev/null 2>&1
done
"$CONFORM" --all --seed 7 --db "$TMP/full.db" >/dev/null 2>&1
statuses() { "$SQLITE3" "$1" "SELECT case_name || ' ' || status FROM results ORDER BY case_name"; }
statuses "$TMP/full.db" >"$TMP/full.txt"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/full.txt")" -gt 100 ] || fail "the unsharded run stored $(wc -l <"$TMP/full.txt") results"

expect_exit 0 "merge two shards" -- "$CONFORM" db merge "$TMP/merged.db" "$TMP/s1.db" "$TMP/s2.db"
expect_grep "$TMP/out" "s1.db: 1 run, [0-9]+ results, 0 devices, 0 copy bandwidths added; 0 runs already there" "what the first shard added"
statuses "$TMP/merged.db" >"$TMP/merged.txt"
checks=$((checks + 1))
cmp -s "$TMP/full.txt" "$TMP/merged.txt" || { fail "merged statuses differ from the unsharded run's"; diff "$TMP/full.txt" "$TMP/merged.txt" | head -n 10 >&2; }
expect_eq "$("$SQLITE3" "$TMP/merged.db" "SELECT count(*) || ' ' || count(DISTINCT uuid) || ' ' || group_concat(DISTINCT tag) FROM runs")" \
	"2 2 job-1" "two runs of one tag"

# A second merge of the same files adds nothing.
before=$("$SQLITE3" "$TMP/merged.db" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM results)")
expect_exit 0 "merge the shards again" -- "$CONFORM" db merge "$TMP/merged.db" "$TMP/s1.db" "$TMP/s2.db"
expect_grep "$TMP/out" "s2.db: 0 runs, 0 results, 0 devices, 0 copy bandwidths added; 1 run already there" "nothing added"
expect_eq "$("$SQLITE3" "$TMP/merged.db" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM results)")" \
	"$before" "counts after the second merge"

# A run without a uuid (an input edited by hand) arrives with its results,
# and only once however often it is merged.
cp "$TMP/s1.db" "$TMP/nouuid.db"
"$SQLITE3" "$TMP/nouuid.db" "UPDATE runs SET uuid = NULL"
nresults=$("$SQLITE3" "$TMP/nouuid.db" "SELECT count(*) FROM results")
expect_exit 0 "merge a run without a uuid" -- "$CONFORM" db merge "$TMP/nouuid-out.db" "$TMP/nouuid.db"
expect_exit 0 "merge it again" -- "$CONFORM" db merge "$TMP/nouuid-out.db" "$TMP/nouuid.db"
expect_grep "$TMP/out" "0 runs, 0 results, 0 devices, 0 copy bandwidths added; 1 run already there" "the second merge adds nothing"
expect_eq "$("$SQLITE3" "$TMP/nouuid-out.db" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM results)")" \
	"1 $nresults" "one run with all its results"

# An input whose runs is a view (a recursive one never ends): refused in one
# line, not read.
cp "$TMP/s1.db" "$TMP/view.db"
"$SQLITE3" "$TMP/view.db" "DROP INDEX runs_kind; DROP INDEX runs_tag; DROP INDEX runs_uuid; ALTER TABLE runs RENAME TO runs_old;
	CREATE VIEW runs AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS id, 'x' AS started_at,
	NULL AS ended_at, 'complete' AS state, NULL AS host, NULL AS conform_version, NULL AS git_revision, NULL AS command_line,
	NULL AS seed, NULL AS device_id, NULL AS passed, NULL AS failed, NULL AS skipped, NULL AS reason, 'conformance' AS kind,
	NULL AS tag, 'u' || n AS uuid FROM r;"
one_line_exit2 "an input whose runs is a recursive view" timeout 20 "$CONFORM" db merge "$TMP/view-out.db" "$TMP/view.db"
expect_grep "$TMP/err" "view.db: its runs, results, devices or device_bandwidth is not a table" "the view: why"

# Every column of the copied runs and results, as it was (uuid included).
for t in runs results; do
	cols=$(columns "$t")
	checks=$((checks + 1))
	left=$("$SQLITE3" "$TMP/merged.db" "ATTACH '$TMP/s1.db' AS a; ATTACH '$TMP/s2.db' AS b;
		SELECT count(*) FROM (SELECT $cols FROM a.$t UNION ALL SELECT $cols FROM b.$t
		EXCEPT SELECT $cols FROM main.$t)")
	[ "$left" = 0 ] || fail "$left rows of $t not copied column for column"
done

# Devices and copy bandwidths, from the H100 tuning database, into an
# output that already numbers another GPU first: results keep naming the
# H100, and every column of its devices and bandwidth rows arrives.
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | "$SQLITE3" "$TMP/h100.db"
"$CONFORM" db info --db "$TMP/h100.db" >/dev/null 2>&1 # brings it to this schema, as any open does
"$CONFORM" db info --db "$TMP/fleet.db" >/dev/null 2>&1
"$SQLITE3" "$TMP/fleet.db" "INSERT INTO devices (name, uuid, cc_major, cc_minor, sm_count, memory_bytes,
	driver_version, runtime_version, first_seen) VALUES ('Other GPU', 'GPU-other', 8, 0, 108,
	42949672960, 12040, 12040, '2026-01-01T00:00:00Z')"
expect_exit 0 "merge a tuning database" -- "$CONFORM" db merge "$TMP/fleet.db" "$TMP/h100.db"
expect_grep "$TMP/out" "h100.db: [0-9]+ runs, [0-9]+ results, 1 device, [1-9][0-9]* copy bandwidths? added" "devices and bandwidths added"
for t in runs results devices device_bandwidth; do
	cols=$(columns "$t")
	checks=$((checks + 1))
	left=$("$SQLITE3" "$TMP/fleet.db" "ATTACH '$TMP/h100.db' AS h;
		SELECT count(*) FROM (SELECT $cols FROM h.$t EXCEPT SELECT $cols FROM main.$t)")
	[ "$left" = 0 ] || fail "$left rows of $t not copied column for column"
done
named() {
	"$SQLITE3" "$1" "SELECT r.case_name || ' ' || r.params || ' ' || coalesce(d.name, '-') || ' ' ||
		coalesce(u.name, '-') FROM results r LEFT JOIN devices d ON d.id = r.device_id
		LEFT JOIN runs x ON x.id = r.run_id LEFT JOIN devices u ON u.id = x.device_id
		ORDER BY r.created_at, r.case_name, r.params"
}
named "$TMP/h100.db" >"$TMP/h100.txt"
named "$TMP/fleet.db" >"$TMP/fleet.txt"
checks=$((checks + 1))
cmp -s "$TMP/h100.txt" "$TMP/fleet.txt" || { fail "results or runs name other devices after the merge"; diff "$TMP/h100.txt" "$TMP/fleet.txt" | head -n 6 >&2; }
expect_eq "$("$CONFORM" best device.atomic --n 2^24 --dtype f32 --db "$TMP/fleet.db" | tail -n 1 | cut -c1-21)" \
	"NVIDIA H100 80GB HBM3" "best reads the merged results"

# Two copies of one database written before runs had a uuid, each
# upgraded on its own: their runs get the same names, so the second copy
# adds nothing.
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | "$SQLITE3" "$TMP/copy.db"
"$CONFORM" db info --db "$TMP/copy.db" >/dev/null 2>&1
expect_exit 0 "merge a second copy of an upgraded database" -- "$CONFORM" db merge "$TMP/fleet.db" "$TMP/copy.db"
expect_grep "$TMP/out" "copy.db: 0 runs, 0 results, 0 devices, 0 copy bandwidths added; [1-9][0-9]* runs? already there" "a copy adds nothing"

# Bad inputs: one line, exit 2, and the output as it was.
count() { "$SQLITE3" "$TMP/merged.db" "SELECT count(*) FROM results"; }
held=$(count)
one_line_exit2 "no output" "$CONFORM" db merge
one_line_exit2 "no input" "$CONFORM" db merge "$TMP/merged.db"
one_line_exit2 "--db with merge" "$CONFORM" db merge "$TMP/merged.db" "$TMP/s1.db" --db "$TMP/x.db"
one_line_exit2 "a missing input" "$CONFORM" db merge "$TMP/merged.db" "$TMP/s1.db" "$TMP/none.db"
printf 'not a database\n' >"$TMP/text.db"
one_line_exit2 "a file that is not a database" "$CONFORM" db merge "$TMP/merged.db" "$TMP/text.db"
"$SQLITE3" "$TMP/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
one_line_exit2 "another program's database" "$CONFORM" db merge "$TMP/merged.db" "$TMP/other.db"
expect_grep "$TMP/err" "another program" "another program's: said"
cp "$TMP/s1.db" "$TMP/old.db"
"$SQLITE3" "$TMP/old.db" "PRAGMA user_version = 9"
one_line_exit2 "an input of an older schema" "$CONFORM" db merge "$TMP/merged.db" "$TMP/old.db"
expect_grep "$TMP/err" "schema 9, this build merges schema [0-9]+: upgrade it first" "older: said"
checks=$((checks + 1))
[ "$("$SQLITE3" "$TMP/old.db" "PRAGMA user_version")" = 9 ] || fail "merge upgraded its input"
"$SQLITE3" "$TMP/old.db" "PRAGMA user_version = 99"
one_line_exit2 "an input of a newer conform" "$CONFORM" db merge "$TMP/merged.db" "$TMP/old.db"
one_line_exit2 "the output as its own input" "$CONFORM" db merge "$TMP/merged.db" "$TMP/merged.db"
expect_eq "$(count)" "$held" "refused merges added nothing"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
