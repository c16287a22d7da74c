/*
 * test_db_kind.c - the names of the kinds of run (db_kind.c).
 */
#include "db/db.h"
#include "tests/test.h"

/* The kinds' names, as runs.kind stores them and the command line takes them. */
static void test_kind_names(void)
{
	CHECK_STR(run_kind_name(RUN_CONFORMANCE), "conformance");
	enum run_kind k;
	CHECK_INT(run_kind_parse("sweep", &k), 0);
	CHECK_INT(k, RUN_SWEEP);
	CHECK_INT(run_kind_parse("Sweep", &k), -1);
}

int main(void)
{
	test_kind_names();
	return TEST_END();
}
