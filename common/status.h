/*
 * status.h - conform's one status vocabulary.
 *
 * Every front end (console, JSON lines, JUnit, the database, the TUI) names
 * results with these words and nothing else.  A result's status is derived
 * from two things: what the case expected (enum expect, written in the suite
 * file) and what was observed when it ran (enum outcome, reported by the
 * worker or decided by the watchdog).  status_judge() is the only place that
 * combines them.
 */
#ifndef CONFORM_STATUS_H
#define CONFORM_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

enum status {
	STATUS_PASS,    /* completed and correct, as expected */
	STATUS_FAIL,    /* completed with a wrong result */
	STATUS_TIMEOUT, /* missed its deadline and was not expected to hang */
	STATUS_CRASH,   /* the worker process died while running it */
	STATUS_ERROR,   /* launch error, CUDA error or violated launch contract */
	STATUS_SKIP,    /* a requirement is not met; the message says which */
	STATUS_XFAIL,   /* the expected hang, launch error, CUDA error, crash or wrong result happened */
	STATUS_XPASS,   /* the expected hang, launch error or failure did not happen */
	STATUS_COUNT
};

/* What the suite file says should happen. */
enum expect {
	EXPECT_PASS,         /* completes with a correct result */
	EXPECT_FAIL,         /* completes with a wrong result (a known-bad form) */
	EXPECT_HANG,         /* never completes; the watchdog kills it */
	EXPECT_LAUNCH_ERROR, /* the launch itself is refused */
	EXPECT_UNDEFINED,    /* undefined behaviour: any observed behaviour conforms */
	EXPECT_CRASH,        /* the process dies (harness self-tests of isolation) */
	EXPECT_ERROR,        /* the kernel fails with a CUDA error (a trap, a bad address) */
	EXPECT_COUNT
};

/* What was observed when the case ran. */
enum outcome {
	OUTCOME_CORRECT,      /* completed-correct */
	OUTCOME_WRONG,        /* completed-wrong */
	OUTCOME_HUNG,         /* hung: the deadline expired */
	OUTCOME_LAUNCH_ERROR, /* launch-error: the launch was refused */
	OUTCOME_ERROR,        /* error: a CUDA error during or after the kernel */
	OUTCOME_CRASHED,      /* crashed: the worker died */
	OUTCOME_SKIPPED,      /* skipped: not run, a requirement is not met */
	OUTCOME_INVALID,      /* invalid: the case violates the variant's launch contract */
	OUTCOME_SANITIZER,    /* sanitizer-finding: run under compute-sanitizer
			       * (run --sanitize), the tool reported an error */
	OUTCOME_COUNT
};

/* The three counts of the summary line "N passed, N failed, N skipped". */
enum tally { TALLY_PASSED, TALLY_FAILED, TALLY_SKIPPED, TALLY_COUNT };

const char *status_name(enum status s);
int status_parse(const char *word, enum status *out);
enum tally status_tally(enum status s);
/* The tally of a case that expected to pass, for facts drawn across cases
 * (the sizes a variant fails at, the tunable values a tune fails at):
 * PASS passed; FAIL, TIMEOUT, CRASH and ERROR failed; SKIP is skipped,
 * and so are XFAIL and XPASS, which only a case expecting something else
 * gets: left out rather than counted on either side. */
enum tally status_tally_expecting_pass(enum status s);

const char *expect_name(enum expect e);
int expect_parse(const char *word, enum expect *out);

const char *outcome_name(enum outcome o);
int outcome_parse(const char *word, enum outcome *out);

/* The status of a case that expected `e` and showed `o`. */
enum status status_judge(enum expect e, enum outcome o);

#ifdef __cplusplus
}
#endif
#endif
