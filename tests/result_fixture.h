/*
 * result_fixture.h - a case result as a check finds it, for the tests of
 * the checks (test_check.c) and of the result's message (test_case_result.c).
 */
#ifndef CONFORM_TESTS_RESULT_FIXTURE_H
#define CONFORM_TESTS_RESULT_FIXTURE_H

#include <string.h>

#include "common/case.h"

/* Blanks r as a check receives it: no verdict yet (OUTCOME_ERROR), no
 * error norm (-2), no message. */
static inline void fresh(struct case_result *r)
{
	memset(r, 0, sizeof *r);
	r->outcome = OUTCOME_ERROR;
	r->err_norm = -2;
}

#endif
