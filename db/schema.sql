-- schema.sql - conform's results database, as numbered migrations.
--
-- The file is built into conform (src/db/schema_sql.c, made by db/embed.awk)
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
--   * statements only, no BEGIN/COMMIT (db_migrate.c owns the transaction,
--     and turns foreign keys off while migrating).
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
-- (Migration 4 rebuilds this table with a fourth state, 'aborted'.)
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

-- migration 3: autotuning: operator and device columns, copy bandwidth, best configurations

-- Two columns derived when a result is stored, so that tuning lookups (which
-- always ask for one operator on one device) are served by one index with
-- no join and no picking params apart.  params and runs.device_id stay the
-- truth; these copies are never set on their own.
ALTER TABLE results ADD COLUMN op TEXT;           -- sum, max or min, from params' op=; NULL when params name none
ALTER TABLE results ADD COLUMN device_id INTEGER; -- runs.device_id of the result's run; NULL for host-only runs
UPDATE results SET op = substr(',' || params || ',', instr(',' || params || ',', ',op=') + 4,
	instr(substr(',' || params || ',', instr(',' || params || ',', ',op=') + 4), ',') - 1)
	WHERE instr(',' || params || ',', ',op=') > 0;
UPDATE results SET device_id = (SELECT device_id FROM runs WHERE runs.id = results.run_id);

-- A device's copy bandwidth, the roofline the tuner compares kernels with
-- ("% of copy").  conform tune measures it once per device and copy kernel,
-- with a large copy (device.copy over 2^28 f32 on a GPU), and reuses it;
-- a later measurement adds a row and the newest row counts.  The result row
-- of that measurement is stored in results as well.
CREATE TABLE device_bandwidth (
	id              INTEGER PRIMARY KEY,  -- row id; the newest row of a device and variant counts
	device_id       INTEGER REFERENCES devices(id) ON DELETE CASCADE,
	                                      -- the GPU; NULL for the host (harness.copy without a GPU)
	variant         TEXT NOT NULL,        -- the copy kernel that measured it, "device.copy"
	bytes           REAL NOT NULL,        -- bytes one copy moves, read + written, bytes
	median_ms       REAL NOT NULL,        -- median time of one copy, ms
	gbps            REAL NOT NULL,        -- bytes / median_ms, 1e9 bytes per second
	measured_at     TEXT NOT NULL,        -- when it was measured, ISO-8601 UTC
	conform_version TEXT,                 -- conform's version string of the build that measured it
	git_revision    TEXT                  -- git revision of that build, NULL when unknown
);
CREATE INDEX device_bandwidth_device ON device_bandwidth(device_id, variant);

-- Tuning lookups: the timed results by group and speed (best_configs walks
-- it, see below; history), and one configuration's earlier measurement
-- (resuming a tune).
CREATE INDEX results_tuned ON results(variant, dtype, op, n, cols, device_id, median_ms)
	WHERE status = 'PASS' AND median_ms IS NOT NULL;
CREATE INDEX results_config ON results(variant, dtype, n, cols, params);

-- The fastest correct timed configuration per device, variant, element
-- type, operator and size (n, cols): one row per such group, the result
-- with the least median_ms (the first stored among equals).  Every run and
-- build counts; conform history shows how the best changed between them.
-- Untimed results (conformance runs) and anything but PASS never count.
--
-- Why a recursive walk and not GROUP BY with min(): a GROUP BY reads every
-- timed result, and conform best must answer in milliseconds on databases
-- of hundreds of thousands of them.  results_tuned holds the timed results
-- ordered by group and, within a group, by median_ms, so the first entry of
-- a group is its best.  The walk goes from one group's first entry to the
-- next group's with at most six index seeks (same variant ... device with a
-- larger device_id, else a larger cols, else a larger n, ..., else the next
-- variant), so it costs a few seeks per group, however many configurations
-- each group holds.  NULLs (op of a copy, device_id of a host-only run) sort
-- first and are stepped over with coalesce().
CREATE VIEW best_configs AS
WITH RECURSIVE walk(id) AS (
	SELECT (SELECT id FROM results WHERE status = 'PASS' AND median_ms IS NOT NULL
		ORDER BY variant, dtype, op, n, cols, device_id, median_ms LIMIT 1)
	UNION ALL
	SELECT (SELECT coalesce(
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op IS c.op AND x.n = c.n
			AND x.cols = c.cols AND x.device_id > coalesce(c.device_id, -1)
			ORDER BY x.device_id, x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op IS c.op AND x.n = c.n
			AND x.cols > c.cols
			ORDER BY x.cols, x.device_id, x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op IS c.op AND x.n > c.n
			ORDER BY x.n, x.cols, x.device_id, x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op > coalesce(c.op, '')
			ORDER BY x.op, x.n, x.cols, x.device_id, x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype > c.dtype
			ORDER BY x.dtype, x.op, x.n, x.cols, x.device_id, x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant > c.variant
			ORDER BY x.variant, x.dtype, x.op, x.n, x.cols, x.device_id, x.median_ms LIMIT 1))
		FROM results c WHERE c.id = walk.id)
	FROM walk WHERE walk.id IS NOT NULL
)
SELECT
	r.device_id     AS device_id,         -- devices.id; NULL for host-only runs
	r.variant       AS variant,           -- catalog variant, "device.two_pass"
	r.dtype         AS dtype,             -- element type
	r.op            AS op,                -- sum, max or min; NULL when params name none
	r.n             AS n,                 -- elements, or rows when cols > 0
	r.cols          AS cols,              -- elements per row; 0 for flat problems
	r.median_ms     AS median_ms,         -- median kernel time of the best configuration, ms
	r.params        AS params,            -- its parameters, "block=256,items=4,vec=4,op=sum"
	r.gbps          AS gbps,              -- its effective bandwidth, 1e9 bytes per second
	r.noise         AS noise,             -- its relative spread, stddev / mean
	r.id            AS result_id,         -- its results.id
	r.run_id        AS run_id,            -- the run that measured it
	r.created_at    AS measured_at        -- when, ISO-8601 UTC
FROM walk JOIN results r ON r.id = walk.id;

-- migration 4: aborted runs

-- A run that a write error stopped (a full disk, an I/O error, damage met
-- while writing) is 'aborted', with the reason; the results it committed
-- before it stopped are kept.  SQLite cannot change a CHECK constraint in
-- place, so runs is rebuilt as SQLite's ALTER TABLE documentation says: a
-- new table, the rows copied, the old table dropped, the new one renamed.
-- Foreign keys are off while migrating (db_migrate.c): dropping runs with
-- them on would delete every result through ON DELETE CASCADE.
CREATE TABLE runs_4 (
	id              INTEGER PRIMARY KEY,  -- row id, referenced by results.run_id
	started_at      TEXT NOT NULL,        -- when the run began, ISO-8601 UTC
	ended_at        TEXT,                 -- when it ended, ISO-8601 UTC; NULL while running or if killed
	state           TEXT NOT NULL DEFAULT 'running'
	                CHECK (state IN ('running', 'complete', 'interrupted', 'aborted')),
	                                      -- 'interrupted': stopped early (a signal) but recorded its end;
	                                      -- 'aborted': stopped by a write error, see reason
	host            TEXT,                 -- hostname of the machine that ran it
	conform_version TEXT,                 -- conform's version string, "0.3.1"
	git_revision    TEXT,                 -- git revision conform was built from, NULL when unknown
	command_line    TEXT,                 -- the command line, arguments joined by spaces
	seed            TEXT,                 -- the run seed, unsigned 64-bit decimal
	device_id       INTEGER REFERENCES devices(id) ON DELETE SET NULL,
	                                      -- the GPU the run used; NULL when none (host-only runs)
	passed          INTEGER,              -- results that conformed   } the summary line's tallies
	failed          INTEGER,              -- results that did not     } (migration 2); NULL while
	skipped         INTEGER,              -- results not run          } running, killed or aborted
	reason          TEXT                  -- why an aborted run stopped, one line in conform's words,
	                                      -- "recording result: the disk is full (at harness.pass.f32)";
	                                      -- NULL for every other state
);
INSERT INTO runs_4 (id, started_at, ended_at, state, host, conform_version, git_revision,
		    command_line, seed, device_id, passed, failed, skipped)
	SELECT id, started_at, ended_at, state, host, conform_version, git_revision,
	       command_line, seed, device_id, passed, failed, skipped FROM runs;
DROP TABLE runs;
ALTER TABLE runs_4 RENAME TO runs;

-- migration 5: the median's confidence interval, spread, noise_met and throttled

-- The robust timing figures (common/stats.c), filled for timed cases and
-- NULL otherwise, like the columns of migration 2; results stored before
-- this migration keep NULL.  noise stays, a second column: a few outliers
-- move stddev / mean far, the interval hardly at all.
ALTER TABLE results ADD COLUMN ci_low_ms REAL;    -- lower end of a distribution-free 95% confidence interval of the median, ms
ALTER TABLE results ADD COLUMN ci_high_ms REAL;   -- its upper end, ms (the tuner's tie-break: the lowest wins)
ALTER TABLE results ADD COLUMN spread REAL;       -- its relative half-width, (ci_high_ms - ci_low_ms) / (2 median_ms), a fraction; what --max-noise bounds
ALTER TABLE results ADD COLUMN noise_met INTEGER; -- 1: sampling stopped because spread reached --max-noise; 0: --max-time or --max-samples came first
ALTER TABLE results ADD COLUMN throttled INTEGER; -- samples dropped because the SM clock fell below a fraction of its starting clock

-- migration 6: what timed the samples

-- cupti: the GPU's start and end timestamps of the launch's kernels,
-- memsets and copies (CUPTI's activity records); events: the interval
-- between CUDA events around the launch, which also holds the grid's
-- launch and drain (the worker falls back to it where libcupti does not
-- load); host: the host's clock (host-only cases).  NULL for untimed
-- results.  Results stored before this migration were timed by events,
-- or by the host's clock for the harness family.
ALTER TABLE results ADD COLUMN timer TEXT;
UPDATE results SET timer = CASE WHEN kernel = 'harness' THEN 'host' ELSE 'events' END
	WHERE samples IS NOT NULL;

-- migration 7: what a run is, and its tag

-- kind: conformance (conform, conform run, the interface's Run), tune
-- (conform tune, the interface's tuning), bench (conform bench) or sweep
-- (the interface's sweep); compare and the views pair runs of one kind.
-- tag: --tag NAME ("baseline", a branch), NULL without one; the shards of
-- one CI job share a tag and compare as one run.  Runs stored before this
-- migration get their kind from their command line.
ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'conformance';
ALTER TABLE runs ADD COLUMN tag TEXT;
UPDATE runs SET kind = CASE
	WHEN command_line LIKE 'bench%' OR command_line LIKE 'conform bench%' THEN 'bench'
	WHEN command_line LIKE 'tune%' OR command_line LIKE 'conform tune%'
	     OR command_line LIKE 'conform tui: tune%' THEN 'tune'
	WHEN command_line LIKE 'conform tui: sweep%' THEN 'sweep'
	ELSE 'conformance' END;
CREATE INDEX runs_kind ON runs(kind, device_id, id);
CREATE INDEX runs_tag ON runs(tag, id);

-- migration 8: views for scripts

-- Four read-only views for the questions scripts ask most ("sqlite3
-- conform.db 'select * from status_changes'"); conform itself reads none
-- of them.  They use only what SQLite 3.22 knows (configure's minimum): no
-- window functions, no FULL JOIN, since a view SQLite cannot parse would
-- make every later open of the database fail.

-- Pairing a run's results with the previous run's by case name (status
-- changes) looks up one case in one run; results_run alone would read the
-- whole previous run for every case.
CREATE INDEX results_run_case ON results(run_id, case_name);
-- The newest result per device and case (latest_results) reads this in
-- order, with no sort and no table access; it also serves lookups of one
-- device's results.  Lookups of one case use results_case.
CREATE INDEX results_device_case ON results(device_id, case_name);

-- The newest result (the highest results.id) per device and case name,
-- of any kind of run: a tune or bench run's result of a case name is
-- newer than a conformance run's before it (kind says which it is; tune
-- and bench store one result per configuration under the case's name).
CREATE VIEW latest_results AS
SELECT
	m.device_id     AS device_id,         -- devices.id; NULL for host-only runs
	m.case_name     AS case_name,         -- dotted case name
	r.status        AS status,            -- PASS, FAIL, TIMEOUT, CRASH, ERROR, SKIP, XFAIL, XPASS
	r.observed      AS observed,          -- what happened, completed-correct ... invalid
	r.expect        AS expect,            -- what the suite expected, pass ... error
	r.message       AS message,           -- one-line explanation, '' when there is nothing to say
	r.variant       AS variant,           -- catalog variant, "warp.shfl_xor"
	r.params        AS params,            -- canonical parameters, '' for none
	r.dtype         AS dtype,             -- element type
	r.n             AS n,                 -- elements, or rows when cols > 0
	r.cols          AS cols,              -- elements per row; 0 for flat problems
	r.id            AS result_id,         -- its results.id
	r.run_id        AS run_id,            -- the run that recorded it
	r.created_at    AS created_at,        -- when it was recorded, ISO-8601 UTC
	u.kind          AS kind,              -- that run's kind: conformance, tune, bench, sweep
	u.tag           AS tag,               -- that run's --tag, NULL without one
	u.git_revision  AS git_revision       -- the build that ran it, NULL when unknown
FROM (SELECT device_id, case_name, max(id) AS id FROM results
	GROUP BY device_id, case_name) m
JOIN results r ON r.id = m.id
JOIN runs u ON u.id = r.run_id;

-- What changed between consecutive conformance runs on one device: each
-- complete or interrupted conformance run is paired with the next such run
-- (by runs.id) of the same device (NULL pairs with NULL: host-only runs),
-- and every case whose status differs between the two is a row; a case
-- that only one of them ran has NULL status and observed on the other
-- side.  Only conformance runs, so there is no kind column: tune, bench
-- and sweep runs store one result per configuration under a case name,
-- so their names repeat within a run and their statuses are evaluations,
-- not cases.  Running and aborted runs stopped partway, and would show
-- every case they did not reach as a change.  Runs sharing a tag (the
-- shards of one CI job) pair with each other here like any others.
CREATE VIEW status_changes AS
WITH done(id, device_id) AS (
	SELECT id, device_id FROM runs
	WHERE kind = 'conformance' AND state IN ('complete', 'interrupted')
), pairs(device_id, run_before, run_after) AS (
	SELECT a.device_id, a.id,
	       (SELECT min(b.id) FROM runs b WHERE b.kind = 'conformance' AND b.device_id IS a.device_id
		AND b.id > a.id AND b.state IN ('complete', 'interrupted'))
	FROM done a
)
SELECT
	p.device_id     AS device_id,         -- devices.id of both runs; NULL for host-only runs
	p.run_before    AS run_before,        -- the earlier run's id
	p.run_after     AS run_after,         -- the next one's
	y.case_name     AS case_name,         -- the case
	x.status        AS status_before,     -- its status in run_before; NULL when run_before has no result of it
	y.status        AS status_after,      -- its status in run_after
	x.observed      AS observed_before,   -- what happened in run_before; NULL with status_before
	y.observed      AS observed_after     -- what happened in run_after
FROM pairs p JOIN results y ON y.run_id = p.run_after
LEFT JOIN results x ON x.run_id = p.run_before AND x.case_name = y.case_name
WHERE x.status IS NOT y.status
UNION ALL
SELECT p.device_id, p.run_before, p.run_after, x.case_name, x.status, NULL, x.observed, NULL
FROM pairs p JOIN results x ON x.run_id = p.run_before
WHERE p.run_after IS NOT NULL
	AND NOT EXISTS (SELECT 1 FROM results y WHERE y.run_id = p.run_after AND y.case_name = x.case_name)
ORDER BY run_after, case_name;

-- Every timed result (samples IS NOT NULL: tune, bench, timed runs), in
-- the order they were recorded, with its run: the history of one
-- configuration's time across builds and tags.  Select a configuration by
-- variant, dtype, n, cols and params (results_config serves that) and
-- device_id.
CREATE VIEW config_timing AS
SELECT
	r.device_id     AS device_id,         -- devices.id; NULL for host-only runs
	r.variant       AS variant,           -- catalog variant, "device.two_pass"
	r.dtype         AS dtype,             -- element type
	r.op            AS op,                -- sum, max or min; NULL when params name none
	r.n             AS n,                 -- elements, or rows when cols > 0
	r.cols          AS cols,              -- elements per row; 0 for flat problems
	r.params        AS params,            -- the configuration, "block=256,items=4,vec=4,op=sum"
	r.id            AS result_id,         -- its results.id
	r.run_id        AS run_id,            -- the run that measured it
	u.started_at    AS started_at,        -- when that run began, ISO-8601 UTC
	u.kind          AS kind,              -- that run's kind: conformance, tune, bench, sweep
	u.tag           AS tag,               -- that run's --tag, NULL without one
	u.git_revision  AS git_revision,      -- the build that measured it, NULL when unknown
	r.median_ms     AS median_ms,         -- median kernel time, ms
	r.ci_low_ms     AS ci_low_ms,         -- lower end of the median's 95% confidence interval, ms
	r.ci_high_ms    AS ci_high_ms,        -- its upper end, ms (both NULL for results stored before migration 5)
	r.spread        AS spread,            -- the interval's relative half-width, a fraction
	r.noise_met     AS noise_met,         -- 1: sampling reached --max-noise; 0: a time or sample limit came first
	r.samples       AS samples,           -- timed launches
	r.timer         AS timer              -- what timed them: cupti, events or host
FROM results r JOIN runs u ON u.id = r.run_id
WHERE r.samples IS NOT NULL
ORDER BY r.id;

-- Cases whose status differs between conformance runs of one build on one
-- device: the same code on the same GPU judged twice, differently.  The
-- cause may be the kernel (a race), the harness, or the input: runs with
-- different seeds (runs.seed) draw different inputs.  Runs of an unknown
-- build (git_revision NULL) are left out; a "-dirty" revision names a
-- tree with uncommitted edits, which may differ from one run to the next.
-- statuses lists each status seen once, in status.h's order, so that the
-- output is the same whatever plan SQLite picks (group_concat's order
-- is not defined).
CREATE VIEW flaky_cases AS
SELECT
	u.device_id     AS device_id,         -- devices.id; NULL for host-only runs
	u.git_revision  AS git_revision,      -- the build
	r.case_name     AS case_name,         -- the case
	count(DISTINCT r.run_id) AS runs,     -- runs of that build on that device with a result of it
	substr(CASE WHEN max(r.status = 'PASS') THEN ',PASS' ELSE '' END
	    || CASE WHEN max(r.status = 'FAIL') THEN ',FAIL' ELSE '' END
	    || CASE WHEN max(r.status = 'TIMEOUT') THEN ',TIMEOUT' ELSE '' END
	    || CASE WHEN max(r.status = 'CRASH') THEN ',CRASH' ELSE '' END
	    || CASE WHEN max(r.status = 'ERROR') THEN ',ERROR' ELSE '' END
	    || CASE WHEN max(r.status = 'SKIP') THEN ',SKIP' ELSE '' END
	    || CASE WHEN max(r.status = 'XFAIL') THEN ',XFAIL' ELSE '' END
	    || CASE WHEN max(r.status = 'XPASS') THEN ',XPASS' ELSE '' END, 2)
	                AS statuses,          -- the statuses seen, "PASS,FAIL"
	min(r.run_id)   AS first_run,         -- the first of those runs
	max(r.run_id)   AS last_run           -- the last
FROM runs u JOIN results r ON r.run_id = u.id
WHERE u.kind = 'conformance' AND u.git_revision IS NOT NULL
GROUP BY u.device_id, u.git_revision, r.case_name
HAVING count(DISTINCT r.status) > 1;

-- migration 9: the source of a user's kernel

-- A kernel file (conform run/tune --kernel) is the variant user.NAME; the
-- SHA-256 of its bytes tells one edit of it from the next, so history
-- follows edits and a tune reuses a measurement only of the same source.
ALTER TABLE results ADD COLUMN source TEXT;       -- SHA-256 (hex) of the kernel file; NULL for built-in variants

-- migration 10: a run's identity across databases

-- uuid: 32 hex digits drawn when the run begins (randomblob), so that
-- conform db merge tells a run the output already holds from a new one,
-- whatever the row ids of the shards' databases.  Runs stored before this
-- migration are named by what they recorded (start, host, seed, row id):
-- the same name in every copy of one database file, so merging two copies
-- of it adds nothing.  db_merge.c copies every column of runs, results,
-- devices and device_bandwidth by name: a migration that adds a column to
-- one of them adds it there too (tests/merge.sh compares every column).
ALTER TABLE runs ADD COLUMN uuid TEXT;
UPDATE runs SET uuid = 'legacy-' || started_at || '-' || coalesce(host, '') || '-' ||
	coalesce(seed, '') || '-' || id;
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);

-- migration 11: a run's owner, and abandoned runs

-- A run records the process that writes it: pid on host, and pid_start,
-- what tells that process from a later one given the same pid (db_owner.c:
-- the machine's boot, the pid namespace and the process's start time).  A
-- run left 'running' by a process that no longer exists (kill -9, a lost
-- machine) is marked 'abandoned' by the next conform that opens the
-- database to record results on the same host: its results are kept, its
-- tallies stay NULL (it never said how it ended), ended_at is its last
-- result's time, and reason says who found it.  A run whose owner cannot be
-- judged from here (another host, another pid namespace, or recorded
-- before this migration) stays 'running'.  runs is rebuilt for the CHECK
-- constraint as in migration 4; the views keep reading it by name
-- (db_migrate.c renames with SQLite's legacy rule, so they are left as
-- they are), and its indexes are made again.
CREATE TABLE runs_11 (
	id              INTEGER PRIMARY KEY,  -- row id, referenced by results.run_id
	started_at      TEXT NOT NULL,        -- when the run began, ISO-8601 UTC
	ended_at        TEXT,                 -- when it ended, ISO-8601 UTC; NULL while running;
	                                      -- for 'abandoned', its last result's time (else started_at)
	state           TEXT NOT NULL DEFAULT 'running'
	                CHECK (state IN ('running', 'complete', 'interrupted', 'aborted', 'abandoned')),
	                                      -- 'interrupted': stopped early (a signal) but recorded its end;
	                                      -- 'aborted': stopped by a write error, see reason;
	                                      -- 'abandoned': its process ended without recording its end, see reason
	host            TEXT,                 -- hostname of the machine that ran it
	conform_version TEXT,                 -- conform's version string, "0.3.1"
	git_revision    TEXT,                 -- git revision conform was built from, NULL when unknown
	command_line    TEXT,                 -- the command line, arguments joined by spaces
	seed            TEXT,                 -- the run seed, unsigned 64-bit decimal
	device_id       INTEGER REFERENCES devices(id) ON DELETE SET NULL,
	                                      -- the GPU the run used; NULL when none (host-only runs)
	passed          INTEGER,              -- results that conformed   } the summary line's tallies
	failed          INTEGER,              -- results that did not     } (migration 2); NULL while
	skipped         INTEGER,              -- results not run          } running, killed, aborted or abandoned
	reason          TEXT,                 -- why an aborted or abandoned run stopped, one line in conform's
	                                      -- words; NULL for every other state
	kind            TEXT NOT NULL DEFAULT 'conformance',
	                                      -- conformance, tune, bench or sweep (migration 7)
	tag             TEXT,                 -- --tag NAME, NULL without one (migration 7)
	uuid            TEXT,                 -- the run's name across databases (migration 10)
	pid             INTEGER,              -- process id of the conform that recorded it, on host;
	                                      -- NULL for runs recorded before this migration
	pid_start       TEXT                  -- "BOOT-ID PID-NAMESPACE START-TICKS" of that process, from
	                                      -- /proc; NULL where the system does not say
);
INSERT INTO runs_11 (id, started_at, ended_at, state, host, conform_version, git_revision,
		     command_line, seed, device_id, passed, failed, skipped, reason, kind, tag, uuid)
	SELECT id, started_at, ended_at, state, host, conform_version, git_revision,
	       command_line, seed, device_id, passed, failed, skipped, reason, kind, tag, uuid FROM runs;
DROP TABLE runs;
ALTER TABLE runs_11 RENAME TO runs;
CREATE INDEX runs_kind ON runs(kind, device_id, id);
CREATE INDEX runs_tag ON runs(tag, id);
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);
-- The runs an open looks at for owners that are gone.
CREATE INDEX runs_state ON runs(state, host);

-- migration 12: the best configuration by the interval's upper bound

-- best_configs ranks by the rule every "best" in conform follows
-- (timing_rank_cmp, common/timing.h): the lowest upper end of the median's
-- 95 % confidence interval wins, then the lowest median; a result stored
-- before there were intervals (ci_high_ms NULL) counts as its median.  A
-- noisy result no longer wins on a median a hair below a steady one's.
-- The walk is migration 3's, over an index in that order, so a lookup
-- still costs a few seeks per group.
CREATE INDEX results_ranked ON results(variant, dtype, op, n, cols, device_id,
	coalesce(ci_high_ms, median_ms), median_ms) WHERE status = 'PASS' AND median_ms IS NOT NULL;
DROP VIEW best_configs;
CREATE VIEW best_configs AS
WITH RECURSIVE walk(id) AS (
	SELECT (SELECT id FROM results WHERE status = 'PASS' AND median_ms IS NOT NULL
		ORDER BY variant, dtype, op, n, cols, device_id, coalesce(ci_high_ms, median_ms), median_ms
		LIMIT 1)
	UNION ALL
	SELECT (SELECT coalesce(
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op IS c.op AND x.n = c.n
			AND x.cols = c.cols AND x.device_id > coalesce(c.device_id, -1)
			ORDER BY x.device_id, coalesce(x.ci_high_ms, x.median_ms), x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op IS c.op AND x.n = c.n
			AND x.cols > c.cols
			ORDER BY x.cols, x.device_id, coalesce(x.ci_high_ms, x.median_ms), x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op IS c.op AND x.n > c.n
			ORDER BY x.n, x.cols, x.device_id, coalesce(x.ci_high_ms, x.median_ms), x.median_ms
			LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype = c.dtype AND x.op > coalesce(c.op, '')
			ORDER BY x.op, x.n, x.cols, x.device_id, coalesce(x.ci_high_ms, x.median_ms),
				x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant = c.variant AND x.dtype > c.dtype
			ORDER BY x.dtype, x.op, x.n, x.cols, x.device_id, coalesce(x.ci_high_ms, x.median_ms),
				x.median_ms LIMIT 1),
		(SELECT x.id FROM results x WHERE x.status = 'PASS' AND x.median_ms IS NOT NULL
			AND x.variant > c.variant
			ORDER BY x.variant, x.dtype, x.op, x.n, x.cols, x.device_id,
				coalesce(x.ci_high_ms, x.median_ms), x.median_ms LIMIT 1))
		FROM results c WHERE c.id = walk.id)
	FROM walk WHERE walk.id IS NOT NULL
)
SELECT
	r.device_id     AS device_id,         -- devices.id; NULL for host-only runs
	r.variant       AS variant,           -- catalog variant, "device.two_pass"
	r.dtype         AS dtype,             -- element type
	r.op            AS op,                -- sum, max or min; NULL when params name none
	r.n             AS n,                 -- elements, or rows when cols > 0
	r.cols          AS cols,              -- elements per row; 0 for flat problems
	r.median_ms     AS median_ms,         -- median kernel time of the best configuration, ms
	r.params        AS params,            -- its parameters, "block=256,items=4,vec=4,op=sum"
	r.gbps          AS gbps,              -- its effective bandwidth, 1e9 bytes per second
	r.noise         AS noise,             -- its relative spread, stddev / mean
	r.id            AS result_id,         -- its results.id
	r.run_id        AS run_id,            -- the run that measured it
	r.created_at    AS measured_at        -- when, ISO-8601 UTC
FROM walk JOIN results r ON r.id = walk.id;

-- migration 13: what explains a failure

-- sanitizer: what compute-sanitizer said of a case run under it (conform
-- run --sanitize TOOL): "memcheck: 0 errors", or the tool's first report
-- (kind, kernel, thread and block, address, source line); NULL when the
-- case did not run under a tool.  A report makes the case's observed
-- 'sanitizer-finding' (status FAIL where it expected a pass).
-- shrunk: for a failing case, the smallest failing problem of the same
-- variant, dtype, operator and configuration that conform found (run
-- --shrink; by default with --kernel), one line: "smallest failing n = 97
-- (passes at n = 96); 14 probes"; NULL when not searched.
-- repro: the command line that runs that smallest case; NULL with shrunk.
-- pattern: a fact of the run's sizes for the case's variant, dtype,
-- operator and configuration: "fails only at sizes that are not a power
-- of two (...)"; NULL when no pattern splits its failing sizes from its
-- passing ones exactly.
ALTER TABLE results ADD COLUMN sanitizer TEXT;
ALTER TABLE results ADD COLUMN shrunk TEXT;
ALTER TABLE results ADD COLUMN repro TEXT;
ALTER TABLE results ADD COLUMN pattern TEXT;

-- migration 14: what a timed configuration spent

-- After a configuration's timed samples, a burst of back-to-back launches
-- is measured through NVML (common/energy.h): each column is NULL when it
-- could not be (no NVML, no total-energy counter, a burst that held no
-- whole counter period, an untimed result, or a result stored before this
-- migration), never 0.
-- energy_j: energy per launch, J: the counter's average power over a window
-- between two of its ticks inside the burst, times the GPU time of a
-- launch in the burst.
-- power_w: that average power, W.
-- power_sampled_w: the mean of NVML's power readings over the same window,
-- W: the cross-check of power_w.
-- energy_uncertainty: the relative half-width of energy_j that the timing
-- of the window's two ticks and the counter's 1 mJ unit allow, a fraction.
-- energy_window_s: the counter window, s.
-- energy_launches: the launches in the burst.
-- sm_mhz, mem_mhz: the median SM and memory clocks read during the burst,
-- MHz.  conform never sets clocks or power limits; it records them.
-- throttle_reasons: NVML's clock event reasons seen during the burst,
-- comma separated ("sw_power_cap,hw_slowdown"), 'none' when there were
-- none; a bit without a name is written in hex ("0x200").
ALTER TABLE results ADD COLUMN energy_j REAL;
ALTER TABLE results ADD COLUMN power_w REAL;
ALTER TABLE results ADD COLUMN power_sampled_w REAL;
ALTER TABLE results ADD COLUMN energy_uncertainty REAL;
ALTER TABLE results ADD COLUMN energy_window_s REAL;
ALTER TABLE results ADD COLUMN energy_launches INTEGER;
ALTER TABLE results ADD COLUMN sm_mhz INTEGER;
ALTER TABLE results ADD COLUMN mem_mhz INTEGER;
ALTER TABLE results ADD COLUMN throttle_reasons TEXT;

-- config_timing with the energy columns, for scripts that follow a
-- configuration's time and energy across builds.
DROP VIEW config_timing;
CREATE VIEW config_timing AS
SELECT
	r.device_id     AS device_id,         -- devices.id; NULL for host-only runs
	r.variant       AS variant,           -- catalog variant, "device.two_pass"
	r.dtype         AS dtype,             -- element type
	r.op            AS op,                -- sum, max or min; NULL when params name none
	r.n             AS n,                 -- elements, or rows when cols > 0
	r.cols          AS cols,              -- elements per row; 0 for flat problems
	r.params        AS params,            -- the configuration, "block=256,items=4,vec=4,op=sum"
	r.id            AS result_id,         -- its results.id
	r.run_id        AS run_id,            -- the run that measured it
	u.started_at    AS started_at,        -- when that run began, ISO-8601 UTC
	u.kind          AS kind,              -- that run's kind: conformance, tune, bench, sweep
	u.tag           AS tag,               -- that run's --tag, NULL without one
	u.git_revision  AS git_revision,      -- the build that measured it, NULL when unknown
	r.median_ms     AS median_ms,         -- median kernel time, ms
	r.ci_low_ms     AS ci_low_ms,         -- lower end of the median's 95% confidence interval, ms
	r.ci_high_ms    AS ci_high_ms,        -- its upper end, ms (both NULL for results stored before migration 5)
	r.spread        AS spread,            -- the interval's relative half-width, a fraction
	r.noise_met     AS noise_met,         -- 1: sampling reached --max-noise; 0: a time or sample limit came first
	r.samples       AS samples,           -- timed launches
	r.timer         AS timer,             -- what timed them: cupti, events or host
	r.energy_j      AS energy_j,          -- energy per launch, J; NULL when not measured (migration 14)
	r.power_w       AS power_w,           -- average power over the counter's window, W
	r.energy_uncertainty AS energy_uncertainty, -- energy_j's relative half-width
	r.sm_mhz        AS sm_mhz,            -- median SM clock during the burst, MHz
	r.mem_mhz       AS mem_mhz,           -- median memory clock, MHz
	r.throttle_reasons AS throttle_reasons -- clock event reasons seen, 'none' when none
FROM results r JOIN runs u ON u.id = r.run_id
WHERE r.samples IS NOT NULL
ORDER BY r.id;
