/*
 * test_status.c - the status vocabulary and its judgement table.
 */
#include "common/status.h"
#include "tests/test.h"

int main(void)
{
	/* Names round-trip, and are the words the DB's CHECK constraint lists. */
	const char *names[] = {"PASS", "FAIL", "TIMEOUT", "CRASH", "ERROR", "SKIP", "XFAIL", "XPASS"};
	for (int i = 0; i < STATUS_COUNT; i++) {
		enum status s;
		CHECK_STR(status_name((enum status)i), names[i]);
		CHECK_INT(status_parse(names[i], &s), 0);
		CHECK_INT(s, i);
	}
	enum status s;
	CHECK_INT(status_parse("pass", &s), -1);

	enum expect e;
	CHECK_INT(expect_parse("launch-error", &e), 0);
	CHECK_INT(e, EXPECT_LAUNCH_ERROR);
	CHECK_INT(expect_parse("hangs", &e), -1);
	enum outcome o;
	CHECK_INT(outcome_parse("completed-wrong", &o), 0);
	CHECK_INT(o, OUTCOME_WRONG);

	/* The rows the issue spells out. */
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_CORRECT), STATUS_PASS);
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_WRONG), STATUS_FAIL);
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_HUNG), STATUS_TIMEOUT);
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_CRASHED), STATUS_CRASH);
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_LAUNCH_ERROR), STATUS_ERROR);
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_INVALID), STATUS_ERROR);
	CHECK_INT(status_judge(EXPECT_PASS, OUTCOME_SKIPPED), STATUS_SKIP);
	CHECK_INT(status_judge(EXPECT_HANG, OUTCOME_HUNG), STATUS_XFAIL);
	CHECK_INT(status_judge(EXPECT_HANG, OUTCOME_CORRECT), STATUS_XPASS);
	CHECK_INT(status_judge(EXPECT_HANG, OUTCOME_CRASHED), STATUS_CRASH);
	CHECK_INT(status_judge(EXPECT_LAUNCH_ERROR, OUTCOME_LAUNCH_ERROR), STATUS_XFAIL);
	CHECK_INT(status_judge(EXPECT_LAUNCH_ERROR, OUTCOME_CORRECT), STATUS_XPASS);
	CHECK_INT(status_judge(EXPECT_LAUNCH_ERROR, OUTCOME_ERROR), STATUS_ERROR);
	CHECK_INT(status_judge(EXPECT_FAIL, OUTCOME_WRONG), STATUS_XFAIL);
	CHECK_INT(status_judge(EXPECT_FAIL, OUTCOME_CORRECT), STATUS_XPASS);
	CHECK_INT(status_judge(EXPECT_CRASH, OUTCOME_CRASHED), STATUS_XFAIL);
	CHECK_INT(status_judge(EXPECT_ERROR, OUTCOME_ERROR), STATUS_XFAIL);
	CHECK_INT(status_judge(EXPECT_ERROR, OUTCOME_CORRECT), STATUS_XPASS);
	CHECK_INT(status_judge(EXPECT_ERROR, OUTCOME_LAUNCH_ERROR), STATUS_ERROR);
	/* Undefined behaviour conforms whatever it does, but not a dead worker. */
	CHECK_INT(status_judge(EXPECT_UNDEFINED, OUTCOME_CORRECT), STATUS_PASS);
	CHECK_INT(status_judge(EXPECT_UNDEFINED, OUTCOME_WRONG), STATUS_PASS);
	CHECK_INT(status_judge(EXPECT_UNDEFINED, OUTCOME_HUNG), STATUS_PASS);
	CHECK_INT(status_judge(EXPECT_UNDEFINED, OUTCOME_ERROR), STATUS_PASS);
	CHECK_INT(status_judge(EXPECT_UNDEFINED, OUTCOME_CRASHED), STATUS_CRASH);
	/* Every judged status has a tally, and only PASS/XFAIL count as passed. */
	for (int x = 0; x < EXPECT_COUNT; x++)
		for (int y = 0; y < OUTCOME_COUNT; y++) {
			enum status j = status_judge((enum expect)x, (enum outcome)y);
			CHECK(j < STATUS_COUNT);
			CHECK((status_tally(j) == TALLY_PASSED) == (j == STATUS_PASS || j == STATUS_XFAIL));
		}
	CHECK_INT(status_tally(STATUS_SKIP), TALLY_SKIPPED);
	CHECK_INT(status_tally(STATUS_XPASS), TALLY_FAILED);
	/* A case that expected to pass counts across cases as the run's
	 * summary counts it; XFAIL and XPASS, which such a case never gets,
	 * are left out of either side. */
	for (int y = 0; y < OUTCOME_COUNT; y++) {
		enum status j = status_judge(EXPECT_PASS, (enum outcome)y);
		CHECK_INT(status_tally_expecting_pass(j), status_tally(j));
	}
	CHECK_INT(status_tally_expecting_pass(STATUS_TIMEOUT), TALLY_FAILED);
	CHECK_INT(status_tally_expecting_pass(STATUS_XFAIL), TALLY_SKIPPED);
	CHECK_INT(status_tally_expecting_pass(STATUS_XPASS), TALLY_SKIPPED);
	return TEST_END();
}
