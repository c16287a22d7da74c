/*
 * db_merge.c - one database's runs into another (conform db merge): the
 * shards of a job, run on several machines or CI jobs, become one store
 * (see db.h).
 *
 * The input is attached to the output's connection and copied by SQL in
 * one transaction.  A run is known by its uuid (migration 10), so row ids,
 * which every shard numbers from 1, never decide anything: runs, results
 * and devices get the output's ids, through the temporary maps below.
 * Every column is named here: a migration that adds a column to runs,
 * results, devices or device_bandwidth adds it to these lists
 * (tests/merge.sh compares every column of every copied row).
 */
#include "db/db_internal.h"

#include <string.h>
#include <sys/stat.h>

/* The output's device for each input device: the one with its uuid, else
 * (no uuid on either) with its name, as db_device_upsert finds a device. */
static const char merge_devices_sql[] =
	"INSERT INTO main.devices (name, uuid, cc_major, cc_minor, sm_count, memory_bytes, "
	"driver_version, runtime_version, first_seen) "
	"SELECT s.name, s.uuid, s.cc_major, s.cc_minor, s.sm_count, s.memory_bytes, s.driver_version, "
	"s.runtime_version, s.first_seen FROM merge_src.devices s WHERE NOT EXISTS (SELECT 1 FROM "
	"main.devices d WHERE d.uuid = s.uuid OR (s.uuid IS NULL AND d.uuid IS NULL AND d.name = s.name)) "
	"ORDER BY s.id;"
	"CREATE TEMP TABLE merge_device_map AS SELECT s.id AS src, (SELECT d.id FROM main.devices d "
	"WHERE d.uuid = s.uuid OR (s.uuid IS NULL AND d.uuid IS NULL AND d.name = s.name) "
	"ORDER BY d.id LIMIT 1) AS dst FROM merge_src.devices s;";

/* An input run's name: its uuid, or for a run that has none (a database
 * edited by hand, or written by a tool of its own) the name migration 10
 * gives a run stored before uuids, from what it recorded, so that merging
 * it again finds it and its results follow it. */
#define MERGE_RUN_UUID \
	"coalesce(r.uuid, 'legacy-' || r.started_at || '-' || coalesce(r.host, '') || '-' || " \
	"coalesce(r.seed, '') || '-' || r.id)"

/* The runs the output lacks, then their new ids. */
static const char merge_runs_sql[] =
	"CREATE TEMP TABLE merge_new_runs AS SELECT r.id AS src FROM merge_src.runs r "
	"WHERE NOT EXISTS (SELECT 1 FROM main.runs m WHERE m.uuid = " MERGE_RUN_UUID ");"
	"INSERT INTO main.runs (started_at, ended_at, state, host, conform_version, git_revision, "
	"command_line, seed, device_id, passed, failed, skipped, reason, kind, tag, uuid, pid, pid_start) "
	"SELECT r.started_at, r.ended_at, r.state, r.host, r.conform_version, r.git_revision, "
	"r.command_line, r.seed, (SELECT dst FROM temp.merge_device_map WHERE src = r.device_id), "
	"r.passed, r.failed, r.skipped, r.reason, r.kind, r.tag, " MERGE_RUN_UUID ", r.pid, r.pid_start "
	"FROM merge_src.runs r "
	"WHERE r.id IN (SELECT src FROM temp.merge_new_runs) ORDER BY r.id;"
	"CREATE TEMP TABLE merge_run_map AS SELECT r.id AS src, m.id AS dst FROM merge_src.runs r "
	"JOIN main.runs m ON m.uuid = " MERGE_RUN_UUID " WHERE r.id IN (SELECT src FROM temp.merge_new_runs);";

/* The new runs' results, in the order they were recorded. */
static const char merge_results_sql[] =
	"INSERT INTO main.results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, "
	"status, observed, message, err_norm, duration_ms, seed, created_at, median_ms, mean_ms, "
	"stddev_ms, min_ms, samples, noise, gbps, op, device_id, ci_low_ms, ci_high_ms, spread, "
	"noise_met, throttled, timer, source, sanitizer, shrunk, repro, pattern, "
	"energy_j, power_w, power_sampled_w, energy_uncertainty, energy_window_s, energy_launches, "
	"sm_mhz, mem_mhz, throttle_reasons) "
	"SELECT m.dst, x.case_name, x.kernel, x.variant, x.params, x.dtype, x.n, x.cols, x.expect, "
	"x.status, x.observed, x.message, x.err_norm, x.duration_ms, x.seed, x.created_at, x.median_ms, "
	"x.mean_ms, x.stddev_ms, x.min_ms, x.samples, x.noise, x.gbps, x.op, "
	"(SELECT dst FROM temp.merge_device_map WHERE src = x.device_id), x.ci_low_ms, x.ci_high_ms, "
	"x.spread, x.noise_met, x.throttled, x.timer, x.source, x.sanitizer, x.shrunk, x.repro, x.pattern, "
	DB_ENERGY_COLUMNS("x") " "
	"FROM merge_src.results x JOIN temp.merge_run_map m ON m.src = x.run_id ORDER BY x.id;";

/* Copy-bandwidth measurements the output lacks (same device, copy kernel,
 * time and figure).  The newest row of a device counts (db_tuned.c): a
 * merged row keeps its measured_at, so an older measurement merged late
 * is newest only by id, which is the order db_tuned.c reads them in:
 * merge the newest shard last where it matters. */
static const char merge_bandwidth_sql[] =
	"INSERT INTO main.device_bandwidth (device_id, variant, bytes, median_ms, gbps, measured_at, "
	"conform_version, git_revision) "
	"SELECT (SELECT dst FROM temp.merge_device_map WHERE src = b.device_id), b.variant, b.bytes, "
	"b.median_ms, b.gbps, b.measured_at, b.conform_version, b.git_revision "
	"FROM merge_src.device_bandwidth b WHERE NOT EXISTS (SELECT 1 FROM main.device_bandwidth c "
	"WHERE c.device_id IS (SELECT dst FROM temp.merge_device_map WHERE src = b.device_id) "
	"AND c.variant = b.variant AND c.measured_at = b.measured_at AND c.median_ms = b.median_ms) "
	"ORDER BY b.id;";

static const char merge_cleanup_sql[] =
	"DROP TABLE IF EXISTS temp.merge_device_map; DROP TABLE IF EXISTS temp.merge_new_runs; "
	"DROP TABLE IF EXISTS temp.merge_run_map;";

static long long count_of(struct db *db, const char *sql)
{
	long long n = 0;
	int rc;
	return db_query_int(db, sql, &n, &rc) == 0 ? n : -1;
}

/* Rows of main's four tables, in the order of struct db_merge_counts. */
static void count_rows(struct db *db, long long n[4])
{
	n[0] = count_of(db, "SELECT count(*) FROM main.runs");
	n[1] = count_of(db, "SELECT count(*) FROM main.results");
	n[2] = count_of(db, "SELECT count(*) FROM main.devices");
	n[3] = count_of(db, "SELECT count(*) FROM main.device_bandwidth");
}

int db_merge(struct db *out, const char *in_path, struct db_merge_counts *c, char *err, size_t len)
{
	struct stat a, b;
	sqlite3_stmt *st;
	int rc;

	memset(c, 0, sizeof *c);
	if (stat(in_path, &a) == 0 && stat(out->path, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		db_seterr_at(err, len, in_path, "is the output database itself");
		return -1;
	}
	if ((rc = db_prepare(out, "ATTACH DATABASE ?1 AS merge_src", &st, err, len)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, in_path, -1, SQLITE_TRANSIENT);
	if ((rc = db_step_done(out, st, "attaching the input", err, len)) != 0)
		return rc;
	/* The four tables must be tables: a view in their place (a recursive
	 * one never ends) would be read by every statement below. */
	if (count_of(out, "SELECT count(*) FROM merge_src.sqlite_master WHERE type = 'table' AND name IN "
			  DB_CORE_TABLES) != 4) {
		db_seterr_at(err, len, in_path, "its runs, results, devices and device_bandwidth are not all "
			     "tables (a view in their place is not merged)");
		rc = -1;
		goto detach;
	}
	long long offered = count_of(out, "SELECT count(*) FROM merge_src.runs"), before[4], after[4];
	if ((rc = db_exec(out, "BEGIN IMMEDIATE", err, len)) != 0)
		goto detach;
	count_rows(out, before);
	if ((rc = db_exec_text(out, "merging devices", merge_devices_sql, strlen(merge_devices_sql), err,
			       len)) != 0 ||
	    (rc = db_exec_text(out, "merging runs", merge_runs_sql, strlen(merge_runs_sql), err, len)) != 0 ||
	    (rc = db_exec_text(out, "merging results", merge_results_sql, strlen(merge_results_sql), err,
			       len)) != 0 ||
	    (rc = db_exec_text(out, "merging copy bandwidths", merge_bandwidth_sql,
			       strlen(merge_bandwidth_sql), err, len)) != 0) {
		sqlite3_exec(out->h, "ROLLBACK", NULL, NULL, NULL);
		goto detach;
	}
	count_rows(out, after);
	if ((rc = db_exec(out, merge_cleanup_sql, err, len)) != 0 ||
	    (rc = db_exec(out, "COMMIT", err, len)) != 0) {
		sqlite3_exec(out->h, "ROLLBACK", NULL, NULL, NULL);
		goto detach;
	}
	c->runs = after[0] - before[0];
	c->results = after[1] - before[1];
	c->devices = after[2] - before[2];
	c->bandwidths = after[3] - before[3];
	c->runs_present = offered - c->runs;
detach:
	sqlite3_exec(out->h, merge_cleanup_sql, NULL, NULL, NULL);
	sqlite3_exec(out->h, "DETACH DATABASE merge_src", NULL, NULL, NULL);
	return rc;
}
