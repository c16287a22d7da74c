/*
 * test_db_sink.c - the session's database sink (session/db_sink.c): a
 * result that cannot be stored for a reason waiting will not cure marks
 * the run aborted with the reason and keeps every result stored before.
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp),
 * removed at the end (tests/db_fixture.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db.h"
#include "db/db_internal.h" /* the connection itself, to cap its size */
#include "report/report.h"
#include "session/db_sink.h"
#include "tests/db_fixture.h"
#include "tests/test.h"

/* A result that cannot be stored for a reason waiting will not cure (here
 * the database at its size limit, SQLITE_FULL as from a full disk): the
 * database sink marks the run aborted with the reason, keeps every result
 * stored before, and fails with one line that says so. */
static void test_aborted(void)
{
	char path[PATH_MAX], buf[512];
	struct db *db = NULL;
	struct db_state st = {0};
	struct run_context rc = { .total = 1000, .seed = 5, .command_line = "conform --all",
				  .host = "test", .version = "0.0-test", .git_revision = "" };
	struct report_sink sink;
	static struct case_spec cases[1000];
	struct db_run_row row;
	int stored = 0, ret = 0;
	sqlite3 *h;

	path_in(path, sizeof path, "full.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	st.db = db;
	db_sink(&sink, &st);
	CHECK_INT(sink.begin(sink.ctx, &rc, err, sizeof err), 0);
	/* The limit is the connection's own: nothing else can set it. */
	{
		char sql[64];
		long long pages = 0;
		int qrc;
		CHECK_INT(db_query_int(db, "PRAGMA page_count", &pages, &qrc), 0);
		snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", pages + 3);
		CHECK_INT(sqlite3_exec(db->h, sql, NULL, NULL, NULL), SQLITE_OK);
	}
	for (int i = 0; i < 1000 && ret == 0; i++) {
		struct result r;
		char name[32];
		snprintf(name, sizeof name, "full.case%d", i);
		cases[i] = mkcase(name, "block.tree", DTYPE_F32, 10, 0, "", EXPECT_PASS);
		memset(&r, 0, sizeof r);
		r.c = &cases[i];
		r.status = STATUS_PASS;
		r.outcome = OUTCOME_CORRECT;
		r.err_norm = -1;
		memset(r.message, 'm', 900);
		ret = sink.result(sink.ctx, &r, (size_t)i, 1000, err, sizeof err);
		if (ret == 0)
			stored++;
	}
	CHECK_INT(ret, -1);
	CHECK(stored > 0);
	CHECK_CONTAINS(err, path);
	CHECK_CONTAINS(err, "recording result: the disk is full; run 1 is marked aborted, keeping the "
			    "results stored before full.case");
	CHECK(one_line(err));
	CHECK_INT(db_run_read(db, st.run_id, &row, err, sizeof err), 1);
	CHECK_STR(row.state, "aborted");
	snprintf(buf, sizeof buf, "recording result: the disk is full (at full.case%d)", stored);
	CHECK_STR(row.reason, buf);
	CHECK_INT(row.results, stored);
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results"), stored);
	CHECK_STR(raw_text(h, "SELECT state || ' ' || (ended_at IS NOT NULL) || ' ' || "
			      "coalesce(passed, '-') FROM runs", buf, sizeof buf), "aborted 1 -");
	sqlite3_close(h);
}

int main(void)
{
	if (db_fixture_begin("db-sink") != 0)
		return 1;
	test_aborted();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
