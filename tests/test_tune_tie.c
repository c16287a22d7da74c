/*
 * test_tune_tie.c - a variant's best among configurations whose median
 * intervals overlap: overlapping ones are tied and the lowest upper bound
 * wins; ones apart from the fastest are not tied; a result without an
 * interval is its median alone.
 */
#include <string.h>

#include "tests/test.h"
#include "tune/tune_tie.h"

static struct tune_row timed(const char *config, double median, double lo, double hi)
{
	struct tune_row r;
	memset(&r, 0, sizeof r);
	strcpy(r.variant, "device.v");
	strcpy(r.config, config);
	r.status = STATUS_PASS;
	r.timing.samples = 20;
	r.timing.median_ms = median;
	r.timing.ci_low_ms = lo;
	r.timing.ci_high_ms = hi;
	return r;
}

int main(void)
{
	/* a has the fastest median but the wider interval; b overlaps it with
	 * a lower upper bound and wins; c is apart from a, so not tied. */
	struct tune_row rows[3] = {timed("a", 1.00, 0.90, 1.20), timed("b", 1.05, 1.00, 1.10),
				   timed("c", 1.50, 1.40, 1.60)};
	tune_tie_pick(rows, 3);
	CHECK_STR(rows[0].config, "b");
	CHECK_INT(rows[0].best, 1);
	CHECK_INT(rows[0].tied, 1);
	CHECK_STR(rows[1].config, "a");
	CHECK_INT(rows[1].best, 0);
	CHECK_INT(rows[1].tied, 1);
	CHECK_STR(rows[2].config, "c");
	CHECK_INT(rows[2].tied, 0);

	/* Apart: the fastest median wins alone, nothing is tied. */
	struct tune_row apart[2] = {timed("a", 1.00, 0.98, 1.02), timed("b", 1.10, 1.05, 1.15)};
	tune_tie_pick(apart, 2);
	CHECK_STR(apart[0].config, "a");
	CHECK_INT(apart[0].best, 1);
	CHECK_INT(apart[0].tied + apart[1].tied + apart[1].best, 0);

	/* Equal upper bounds: the lower median (the first) keeps it. */
	struct tune_row same[2] = {timed("a", 1.00, 0.95, 1.10), timed("b", 1.02, 0.97, 1.10)};
	tune_tie_pick(same, 2);
	CHECK_STR(same[0].config, "a");
	CHECK_INT(same[0].tied && same[1].tied, 1);

	/* Stored before intervals (ci 0): the median alone, tied only with
	 * an interval that holds it. */
	struct tune_row old[3] = {timed("old", 1.00, 0, 0), timed("x", 1.01, 0.99, 1.03),
				  timed("y", 1.02, 1.01, 1.03)};
	tune_tie_pick(old, 3);
	CHECK_STR(old[0].config, "old");
	CHECK_INT(old[0].tied, 1);
	CHECK_INT(old[1].tied, 1);
	CHECK_INT(old[2].tied, 0);

	/* No rows: nothing is read or marked (the rows past the count are
	 * left as they were). */
	struct tune_row none[1] = {timed("z", 1.00, 0.90, 1.10)};
	none[0].tied = 7;
	none[0].best = 7;
	tune_tie_pick(none, 0);
	CHECK_INT(none[0].tied, 7);
	CHECK_INT(none[0].best, 7);
	return TEST_END();
}
