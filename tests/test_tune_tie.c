/*
 * test_tune_tie.c - a variant's best among configurations whose median
 * intervals overlap: overlapping ones are tied and the lowest upper bound
 * wins; ones apart from the fastest are not tied; a result without an
 * interval is its median alone.  By energy and edp the same with the
 * energy's interval (joules x (1 +- uncertainty)) and the product's: a row
 * without an energy figure never wins nor is tied, and with none anywhere
 * time decides.
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

/* A timed row with an energy figure (joules 0: none). */
static struct tune_row spent(const char *config, double median, double joules, double u)
{
	struct tune_row r = timed(config, median, median * 0.99, median * 1.01);
	r.timing.energy.joules = joules;
	r.timing.energy.uncertainty = u;
	return r;
}

static void test_energy(void)
{
	/* Fastest first: d has no energy figure, a is fast and costly, b
	 * the most frugal, c's interval overlaps b's. */
	struct tune_row rows[4] = {spent("d", 0.90, 0, 0), spent("a", 1.00, 4e-3, 0.02),
				   spent("b", 1.05, 2.5e-3, 0.02), spent("c", 1.10, 2.6e-3, 0.02)};
	tune_tie_pick(rows, 4, OBJECTIVE_ENERGY);
	CHECK_STR(rows[0].config, "b");
	CHECK_INT(rows[0].best, 1);
	CHECK_INT(rows[0].tied, 1);
	CHECK_STR(rows[1].config, "d");
	CHECK_INT(rows[1].best + rows[1].tied, 0);
	CHECK_STR(rows[2].config, "a");
	CHECK_INT(rows[2].tied, 0);
	CHECK_STR(rows[3].config, "c");
	CHECK_INT(rows[3].tied, 1);

	/* The fewest joules with a wide interval (w, also the faster) loses
	 * to a tighter one inside it, by the upper end; both tied. */
	struct tune_row wide[2] = {spent("w", 1.00, 2.0e-3, 0.30), spent("x", 1.20, 2.2e-3, 0.01)};
	tune_tie_pick(wide, 2, OBJECTIVE_ENERGY);
	CHECK_STR(wide[0].config, "x");
	CHECK_INT(wide[0].tied && wide[1].tied, 1);

	/* edp: a 1.0 ms x 4 mJ, b 2.0 ms x 1.5 mJ (the least), c 1.2 ms x
	 * 3.3 mJ; intervals apart, nothing tied. */
	struct tune_row edp[3] = {spent("a", 1.00, 4e-3, 0.001), spent("c", 1.20, 3.3e-3, 0.001),
				  spent("b", 2.00, 1.5e-3, 0.001)};
	tune_tie_pick(edp, 3, OBJECTIVE_EDP);
	CHECK_STR(edp[0].config, "b");
	CHECK_INT(edp[0].tied + edp[1].tied + edp[2].tied, 0);
	double lo, hi;
	CHECK_INT(tune_tie_objective_interval(OBJECTIVE_EDP, &edp[0], &lo, &hi), 0);
	CHECK_NEAR(lo, 1.5e-3 * 0.999 * 1.98e-3, 1e-12);
	CHECK_NEAR(hi, 1.5e-3 * 1.001 * 2.02e-3, 1e-12);
	CHECK_INT(tune_tie_objective_interval(OBJECTIVE_ENERGY, &rows[1], &lo, &hi), -1);

	/* No energy figure anywhere: time's rule and ties, as by time. */
	struct tune_row none[3] = {timed("a", 1.00, 0.90, 1.20), timed("b", 1.05, 1.00, 1.10),
				   timed("c", 1.50, 1.40, 1.60)};
	tune_tie_pick(none, 3, OBJECTIVE_ENERGY);
	CHECK_STR(none[0].config, "b");
	CHECK_INT(none[0].tied && none[1].tied, 1);
	CHECK_INT(none[2].tied, 0);
}

int main(void)
{
	/* a has the fastest median but the wider interval; b overlaps it with
	 * a lower upper bound and wins; c is apart from a, so not tied. */
	struct tune_row rows[3] = {timed("a", 1.00, 0.90, 1.20), timed("b", 1.05, 1.00, 1.10),
				   timed("c", 1.50, 1.40, 1.60)};
	tune_tie_pick(rows, 3, OBJECTIVE_TIME);
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
	tune_tie_pick(apart, 2, OBJECTIVE_TIME);
	CHECK_STR(apart[0].config, "a");
	CHECK_INT(apart[0].best, 1);
	CHECK_INT(apart[0].tied + apart[1].tied + apart[1].best, 0);

	/* Equal upper bounds: the lower median (the first) keeps it. */
	struct tune_row same[2] = {timed("a", 1.00, 0.95, 1.10), timed("b", 1.02, 0.97, 1.10)};
	tune_tie_pick(same, 2, OBJECTIVE_TIME);
	CHECK_STR(same[0].config, "a");
	CHECK_INT(same[0].tied && same[1].tied, 1);

	/* Stored before intervals (ci 0): the median alone, tied only with
	 * an interval that holds it. */
	struct tune_row old[3] = {timed("old", 1.00, 0, 0), timed("x", 1.01, 0.99, 1.03),
				  timed("y", 1.02, 1.01, 1.03)};
	tune_tie_pick(old, 3, OBJECTIVE_TIME);
	CHECK_STR(old[0].config, "old");
	CHECK_INT(old[0].tied, 1);
	CHECK_INT(old[1].tied, 1);
	CHECK_INT(old[2].tied, 0);

	/* No rows: nothing is read or marked (the rows past the count are
	 * left as they were). */
	struct tune_row none[1] = {timed("z", 1.00, 0.90, 1.10)};
	none[0].tied = 7;
	none[0].best = 7;
	tune_tie_pick(none, 0, OBJECTIVE_TIME);
	CHECK_INT(none[0].tied, 7);
	CHECK_INT(none[0].best, 7);

	/* Medians below 0 (a damaged database or worker line) have no figure
	 * to be the reference by: rows[0] is, and nothing outside the rows is
	 * read or marked (here the row before them). */
	struct tune_row below[3] = {timed("before", 1.00, 0.90, 1.10), timed("p", -2.0, 0, 0),
				    timed("q", -1.0, 0, 0)};
	tune_tie_pick(below + 1, 2, OBJECTIVE_TIME);
	CHECK_INT(below[0].tied + below[0].best, 0);
	CHECK_STR(below[1].config, "p");
	CHECK_INT(below[1].best, 1);
	test_energy();
	return TEST_END();
}
