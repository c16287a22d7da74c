/*
 * status.c - names and judgement for the status vocabulary (see status.h).
 *
 * The judgement table is deliberately explicit: reading one row tells what a
 * case with that expectation becomes for every observed behaviour.
 */
#include "common/status.h"

#include "common/text.h"

static const char *const status_names[STATUS_COUNT] = {
	"PASS", "FAIL", "TIMEOUT", "CRASH", "ERROR", "SKIP", "XFAIL", "XPASS",
};

static const char *const expect_names[EXPECT_COUNT] = {
	"pass", "fail", "hang", "launch-error", "undefined", "crash", "error",
};

static const char *const outcome_names[OUTCOME_COUNT] = {
	"completed-correct", "completed-wrong", "hung", "launch-error",
	"error", "crashed", "skipped", "invalid", "sanitizer-finding",
};

/* judge[expect][outcome].  A sanitizer's finding is a wrong behaviour
 * like a wrong result, except that it is the CUDA error a case expecting
 * one (a bad address) was written for. */
static const enum status judge[EXPECT_COUNT][OUTCOME_COUNT] = {
	/*                 correct       wrong         hung            launch-err    error         crashed       skipped      invalid       sanitizer */
	[EXPECT_PASS] =   {STATUS_PASS,  STATUS_FAIL,  STATUS_TIMEOUT, STATUS_ERROR, STATUS_ERROR, STATUS_CRASH, STATUS_SKIP, STATUS_ERROR, STATUS_FAIL},
	[EXPECT_FAIL] =   {STATUS_XPASS, STATUS_XFAIL, STATUS_TIMEOUT, STATUS_ERROR, STATUS_ERROR, STATUS_CRASH, STATUS_SKIP, STATUS_ERROR, STATUS_XFAIL},
	[EXPECT_HANG] =   {STATUS_XPASS, STATUS_XPASS, STATUS_XFAIL,   STATUS_ERROR, STATUS_ERROR, STATUS_CRASH, STATUS_SKIP, STATUS_ERROR, STATUS_XPASS},
	[EXPECT_LAUNCH_ERROR] =
	                  {STATUS_XPASS, STATUS_XPASS, STATUS_TIMEOUT, STATUS_XFAIL, STATUS_ERROR, STATUS_CRASH, STATUS_SKIP, STATUS_ERROR, STATUS_XPASS},
	/* Undefined behaviour conforms whatever it does, short of killing the
	 * worker or the case being malformed. */
	[EXPECT_UNDEFINED] =
	                  {STATUS_PASS,  STATUS_PASS,  STATUS_PASS,    STATUS_PASS,  STATUS_PASS,  STATUS_CRASH, STATUS_SKIP, STATUS_ERROR, STATUS_PASS},
	[EXPECT_CRASH] =  {STATUS_XPASS, STATUS_XPASS, STATUS_TIMEOUT, STATUS_ERROR, STATUS_ERROR, STATUS_XFAIL, STATUS_SKIP, STATUS_ERROR, STATUS_XPASS},
	[EXPECT_ERROR] =  {STATUS_XPASS, STATUS_XPASS, STATUS_TIMEOUT, STATUS_ERROR, STATUS_XFAIL, STATUS_CRASH, STATUS_SKIP, STATUS_ERROR, STATUS_XFAIL},
};

const char *status_name(enum status s)
{
	return (unsigned)s < STATUS_COUNT ? status_names[s] : "?";
}

int status_parse(const char *word, enum status *out)
{
	int i = text_index(status_names, STATUS_COUNT, word);
	if (i < 0)
		return -1;
	*out = (enum status)i;
	return 0;
}

enum tally status_tally(enum status s)
{
	switch (s) {
	case STATUS_PASS:
	case STATUS_XFAIL:
		return TALLY_PASSED;
	case STATUS_SKIP:
		return TALLY_SKIPPED;
	default:
		return TALLY_FAILED;
	}
}

enum tally status_tally_expecting_pass(enum status s)
{
	switch (s) {
	case STATUS_PASS:
		return TALLY_PASSED;
	case STATUS_FAIL:
	case STATUS_TIMEOUT:
	case STATUS_CRASH:
	case STATUS_ERROR:
		return TALLY_FAILED;
	default:
		return TALLY_SKIPPED;
	}
}

const char *expect_name(enum expect e)
{
	return (unsigned)e < EXPECT_COUNT ? expect_names[e] : "?";
}

int expect_parse(const char *word, enum expect *out)
{
	int i = text_index(expect_names, EXPECT_COUNT, word);
	if (i < 0)
		return -1;
	*out = (enum expect)i;
	return 0;
}

const char *outcome_name(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT ? outcome_names[o] : "?";
}

int outcome_parse(const char *word, enum outcome *out)
{
	int i = text_index(outcome_names, OUTCOME_COUNT, word);
	if (i < 0)
		return -1;
	*out = (enum outcome)i;
	return 0;
}

enum status status_judge(enum expect e, enum outcome o)
{
	if ((unsigned)e >= EXPECT_COUNT || (unsigned)o >= OUTCOME_COUNT)
		return STATUS_ERROR;
	return judge[e][o];
}
