-- schema.sql - conform's results database, as numbered migrations.
--
-- The file is built into conform (src/schema_sql.c, made by db/embed.awk)
-- and split at the lines "-- migration N: title".  db_open() applies every
-- migration whose N is above the database's PRAGMA user_version, each in its
-- own transaction that also sets user_version to N and PRAGMA application_id
-- to 0x636f6e66 ("conf"), so an interrupted upgrade leaves the previous
-- version intact.  Text before the first migration line is never executed.
--
-- Rules for whoever adds a migration:
--   * append, never edit a migration that has been released: databases in
--     the field already ran it;
--   * number it one above the last; N must run 1, 2, 3, ... without gaps;
--   * document every new table and column here, with its unit;
--   * statements only, no BEGIN/COMMIT (db.c owns the transaction).
--
-- Conventions: times are ISO-8601 UTC text, "2025-01-31T14:05:09Z", second
-- resolution (they sort and compare as text).  Durations are milliseconds,
-- REAL.  Seeds are unsigned 64-bit integers that do not fit SQLite's signed
-- INTEGER, so they are stored as decimal TEXT.
-- Vocabularies (status, outcome, expectation words) are those of status.h.

-- migration 1: devices, runs and results

-- One row per GPU conform has run on, found again by uuid (else name).
CREATE TABLE devices (
	id              INTEGER PRIMARY KEY,  -- row id, referenced by runs.device_id
	name            TEXT NOT NULL,        -- marketing name, "NVIDIA H100 80GB HBM3"
	uuid            TEXT UNIQUE,          -- "GPU-xxxxxxxx-...", NULL when the driver gave none
	cc_major        INTEGER NOT NULL,     -- compute capability, major (9 for sm_90)
	cc_minor        INTEGER NOT NULL,     -- compute capability, minor (0 for sm_90)
	sm_count        INTEGER NOT NULL,     -- streaming multiprocessors
	memory_bytes    INTEGER NOT NULL,     -- global memory, bytes
	driver_version  INTEGER NOT NULL,     -- cudaDriverGetVersion when first seen, 1000*major + 10*minor (13000 = 13.0)
	runtime_version INTEGER NOT NULL,     -- cudaRuntimeGetVersion of the worker when first seen, same encoding
	first_seen      TEXT NOT NULL         -- when this row was inserted, ISO-8601 UTC
);

-- One row per invocation of conform that records results.  A run killed
-- outright (kill -9, power loss) stays 'running' with no ended_at.
CREATE TABLE runs (
	id              INTEGER PRIMARY KEY,  -- row id, referenced by results.run_id
	started_at      TEXT NOT NULL,        -- when the run began, ISO-8601 UTC
	ended_at        TEXT,                 -- when it ended, ISO-8601 UTC; NULL while running or if killed
	state           TEXT NOT NULL DEFAULT 'running'
	                CHECK (state IN ('running', 'complete', 'interrupted')),
	                                      -- 'interrupted': stopped early (a signal) but recorded its end
	host            TEXT,                 -- hostname of the machine that ran it
	conform_version TEXT,                 -- conform's version string, "0.3.1"
	git_revision    TEXT,                 -- git revision conform was built from, NULL when unknown
	command_line    TEXT,                 -- the command line, arguments joined by spaces
	seed            TEXT,                 -- the run seed, unsigned 64-bit decimal
	device_id       INTEGER REFERENCES devices(id) ON DELETE SET NULL
	                                      -- the GPU the run used; NULL when none (host-only runs)
);

-- One row per case run, committed as soon as the case is judged.
CREATE TABLE results (
	id              INTEGER PRIMARY KEY,  -- row id; increases in the order cases finished
	run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	                                      -- the run this result belongs to
	case_name       TEXT NOT NULL,        -- dotted case name, "warp.shfl_xor.sum.f32.w16"
	kernel          TEXT NOT NULL,        -- kernel family: variant up to the first '.', "warp"
	variant         TEXT NOT NULL,        -- catalog variant, "warp.shfl_xor"
	params          TEXT NOT NULL,        -- canonical parameters "block=256,op=sum", '' for none
	dtype           TEXT NOT NULL,        -- element type: f32, f64, i32, u32, bf16
	n               INTEGER NOT NULL,     -- elements, or rows when cols > 0
	cols            INTEGER NOT NULL,     -- elements per row; 0 for flat problems
	expect          TEXT NOT NULL,        -- expectation from the suite file: pass, fail, hang, launch-error, undefined, crash
	status          TEXT NOT NULL
	                CHECK (status IN ('PASS', 'FAIL', 'TIMEOUT', 'CRASH', 'ERROR', 'SKIP', 'XFAIL', 'XPASS')),
	                                      -- the judged status (status_judge of expect and observed)
	observed        TEXT NOT NULL,        -- what happened: completed-correct, completed-wrong, hung,
	                                      -- launch-error, error, crashed, skipped, invalid
	message         TEXT NOT NULL DEFAULT '',
	                                      -- one-line explanation, '' when there is nothing to say
	err_norm        REAL,                 -- relative L2 error against the reference (a fraction); NULL when not computed
	duration_ms     REAL NOT NULL,        -- wall time of the whole case (launch, checks, watchdog), ms
	seed            TEXT,                 -- the case's input seed, unsigned 64-bit decimal (rng_case_seed)
	created_at      TEXT NOT NULL         -- when the result was recorded, ISO-8601 UTC
);

-- migration 2: timing columns, run tallies and indexes

-- Kernel timing, filled for timed cases (the autotuner); NULL otherwise.
-- Statistics are over `samples` timed launches after warm-up.
ALTER TABLE results ADD COLUMN median_ms REAL;    -- median kernel time, ms
ALTER TABLE results ADD COLUMN mean_ms REAL;      -- mean kernel time, ms
ALTER TABLE results ADD COLUMN stddev_ms REAL;    -- sample standard deviation of kernel time, ms
ALTER TABLE results ADD COLUMN min_ms REAL;       -- fastest launch, ms
ALTER TABLE results ADD COLUMN samples INTEGER;   -- number of timed launches
ALTER TABLE results ADD COLUMN noise REAL;        -- relative spread, stddev_ms / mean_ms (a fraction, 0.02 = 2%)
ALTER TABLE results ADD COLUMN gbps REAL;         -- effective bandwidth: input bytes / median time, 1e9 bytes per second

-- The summary line's tallies ("N passed, N failed, N skipped"), written when
-- the run ends; NULL while running and for runs killed outright (count the
-- results instead).  passed counts PASS and XFAIL, skipped counts SKIP,
-- failed counts everything else.
ALTER TABLE runs ADD COLUMN passed INTEGER;       -- results that conformed
ALTER TABLE runs ADD COLUMN failed INTEGER;       -- results that did not
ALTER TABLE runs ADD COLUMN skipped INTEGER;      -- results not run

-- Lookups by run (reports), by case (history of one case) and by problem
-- (comparing variants of the same size and type).
CREATE INDEX results_run ON results(run_id);
CREATE INDEX results_case ON results(case_name);
CREATE INDEX results_problem ON results(variant, dtype, n);
