/*
 * test_tui_eta.c - the time left of a sweep (tui_eta.h): two sweeps
 * recorded on an H100 (tests/data/eta_h100_sweeps.h) replayed one
 * evaluation at a time as the interface hears them, each estimate held to
 * what was in fact left; and made-up progress for each rule: nothing done,
 * the evaluation in flight, a size below, between and above those
 * measured, a cost that falls.
 */
#include <stdlib.h>

#include "tests/data/eta_h100_sweeps.h"
#include "tests/test.h"
#include "tui/tui_eta.h"

/* The sweep's plan as the interface makes it: at every size the
 * configurations and up to two references (the copy and the baseline). */
static void plan(const struct eta_sweep *w, struct tui_eta_size s[4])
{
	for (int k = 0; k < 4; k++)
		s[k] = (struct tui_eta_size){.elements = eta_elements[k],
					     .planned = (double)(w->per_size[k] - w->references[k]) + 2};
}

/* Replays sweep w: before each evaluation ends, the estimate against the
 * seconds the rest of the sweep took.  Every estimate made is within
 * [0.75, 2.5] times the truth; from the third size's second configuration
 * on, one is made at every step. */
static void test_recorded(const struct eta_sweep *w)
{
	struct tui_eta_size s[4];
	double left = 0, opening = 0, opened = 0, worst_low = 1e9, worst_high = 0;
	size_t k = 0, at = 0, made = 0, missing_late = 0;
	plan(w, s);
	for (size_t i = 0; i < w->count; i++)
		left += w->ms[i] / 1e3;
	for (size_t i = 0; i < w->count; i++, at++) {
		if (at == w->per_size[k]) {
			k++;
			at = 0;
		}
		double est = tui_eta_left(s, 4, k, 0);
		if (est >= 0) {
			made++;
			worst_low = est / left < worst_low ? est / left : worst_low;
			worst_high = est / left > worst_high ? est / left : worst_high;
		} else if (k >= 2 && at >= w->references[k] + 2) {
			missing_late++;
		}
		double took = w->ms[i] / 1e3;
		if (at <= w->references[k]) {
			/* The references and the first configuration: the
			 * opening, told when the configuration ends. */
			opening += took;
			opened++;
			if (at == w->references[k]) {
				s[k].opened = opened;
				s[k].opening_s = opening;
				opening = opened = 0;
			}
		} else {
			s[k].done++;
			s[k].spent_s += took;
		}
		left -= took;
	}
	if (worst_low < 0.75 || worst_high > 2.5 || missing_late)
		fprintf(stderr, "%s: %zu estimates, %.2f to %.2f times the truth, %zu missing late\n",
			w->what, made, worst_low, worst_high, missing_late);
	CHECK(made > w->count / 3);
	CHECK(worst_low >= 0.75);
	CHECK(worst_high <= 2.5);
	CHECK_INT(missing_late, 0);
}

/* What the recorded sweeps are for: the elapsed time over the evaluations
 * done, times those left, promised under a third of the last size's time
 * at its start. */
static void test_recorded_plain_pace(const struct eta_sweep *w)
{
	size_t before = w->per_size[0] + w->per_size[1] + w->per_size[2];
	double elapsed = 0, left = 0;
	for (size_t i = 0; i < w->count; i++)
		*(i < before ? &elapsed : &left) += w->ms[i] / 1e3;
	double plain = elapsed / (double)before * (double)(w->count - before);
	CHECK(plain < left / 3);
}

static void test_nothing_done(void)
{
	struct tui_eta_size s[2] = {{.elements = 1024, .planned = 10}, {.elements = 4096, .planned = 10}};
	CHECK_NEAR(tui_eta_left(s, 2, 0, 0), -1, 0);
	/* The opening in flight is not over: still nothing to go by. */
	s[0].done = 0;
	CHECK_NEAR(tui_eta_left(s, 2, 0, 3.0), -1, 0);
	CHECK_NEAR(tui_eta_left(s, 0, 0, 0), -1, 0);
}

static void test_one_size(void)
{
	/* Opening: 2 evaluations in 1 s; then 10 at 0.1 s: 88 left. */
	struct tui_eta_size s = {.elements = 4096, .planned = 100, .opened = 2, .opening_s = 1,
				 .done = 10, .spent_s = 1};
	CHECK_NEAR(tui_eta_left(&s, 1, 0, 0), 8.8, 1e-9);
	/* The one in flight for 0.05 s has 0.05 s left; past its pace, at
	 * most its own time comes off. */
	CHECK_NEAR(tui_eta_left(&s, 1, 0, 0.05), 8.75, 1e-9);
	CHECK_NEAR(tui_eta_left(&s, 1, 0, 5), 8.7, 1e-9);
	/* Everything done: nothing left. */
	s.done = 98;
	CHECK_NEAR(tui_eta_left(&s, 1, 0, 1), 0, 1e-9);
}

static void test_sizes_to_come(void)
{
	/* 2^20 measured: opening 1 s, 0.1 s an evaluation, 100 planned. */
	struct tui_eta_size s[4] = {
		{.elements = 1 << 20, .planned = 100, .opened = 2, .opening_s = 1, .done = 98, .spent_s = 9.8},
		{.elements = 1 << 24, .planned = 100},
		{.elements = 1 << 22, .planned = 100},
		{.elements = 1 << 18, .planned = 100},
	};
	/* A larger size to come with one size measured: no estimate. */
	CHECK_NEAR(tui_eta_left(s, 4, 1, 0), -1, 0);
	/* A smaller one only: the smallest measured size's costs. */
	CHECK_NEAR(tui_eta_left(s, 4, 3, 0), 1 + 98 * 0.1, 1e-9);
	/* 2^24 measured too (opening 3 s, 0.4 s an evaluation): 2^22
	 * between them, interpolated by elements (a fifth of the way). */
	s[1].opened = 2;
	s[1].opening_s = 3;
	s[1].done = 98;
	s[1].spent_s = 98 * 0.4;
	double at22 = (1 + 0.2 * 2) + 98 * (0.1 + 0.2 * 0.3);
	CHECK_NEAR(tui_eta_left(s, 4, 2, 0), at22 + 1 + 98 * 0.1, 1e-9);
	/* Above both: on the line through them. */
	struct tui_eta_size above[3] = {s[0], s[1], {.elements = 1 << 26, .planned = 100}};
	double slope_open = 2.0 / (double)((1 << 24) - (1 << 20)), slope_pace = 0.3 / (double)((1 << 24) - (1 << 20));
	double grow = (double)((1 << 26) - (1 << 24));
	CHECK_NEAR(tui_eta_left(above, 3, 2, 0), 3 + slope_open * grow + 98 * (0.4 + slope_pace * grow), 1e-6);
	/* A cost that fell with the elements says nothing of a larger size. */
	above[1].spent_s = 98 * 0.05;
	CHECK_NEAR(tui_eta_left(above, 3, 2, 0), -1, 0);
}

int main(void)
{
	for (size_t i = 0; i < sizeof eta_sweeps / sizeof eta_sweeps[0]; i++) {
		test_recorded(&eta_sweeps[i]);
		test_recorded_plain_pace(&eta_sweeps[i]);
	}
	test_nothing_done();
	test_one_size();
	test_sizes_to_come();
	return TEST_END();
}
