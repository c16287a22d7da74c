/*
 * tui_eta.c - the time left of a sweep or tune (see tui_eta.h).
 */
#include "tui/tui_eta.h"

/* One of a size's two costs, and whether a size has measured it. */
struct cost {
	int (*measured)(const struct tui_eta_size *s);
	double (*of)(const struct tui_eta_size *s);
};

static int opening_measured(const struct tui_eta_size *s)
{
	return s->opened > 0;
}

static double opening_cost(const struct tui_eta_size *s)
{
	return s->opening_s;
}

static int pace_measured(const struct tui_eta_size *s)
{
	return s->done > 0;
}

static double pace_cost(const struct tui_eta_size *s)
{
	return s->spent_s / s->done;
}

static const struct cost opening = {opening_measured, opening_cost};
static const struct cost pace = {pace_measured, pace_cost};

/* The cost c at size k: its own when measured, else told from the sizes
 * that measured it - between the nearest below and above by elements, at
 * the nearest above when none is below, and above every one on the line
 * through the two largest when it rises.  -1 when it cannot be told. */
static double cost_at(const struct tui_eta_size *s, size_t n, size_t k, const struct cost *c)
{
	if (c->measured(&s[k]))
		return c->of(&s[k]);
	const struct tui_eta_size *below = NULL, *above = NULL, *top = NULL, *second = NULL;
	double x = s[k].elements;
	for (size_t i = 0; i < n; i++) {
		const struct tui_eta_size *m = &s[i];
		if (!c->measured(m))
			continue;
		if (m->elements <= x && (!below || m->elements > below->elements))
			below = m;
		if (m->elements >= x && (!above || m->elements < above->elements))
			above = m;
		if (!top || m->elements > top->elements) {
			second = top;
			top = m;
		} else if (m->elements < top->elements && (!second || m->elements > second->elements)) {
			second = m;
		}
	}
	if (below && above) {
		if (above->elements == below->elements)
			return c->of(below);
		double t = (x - below->elements) / (above->elements - below->elements);
		return c->of(below) + t * (c->of(above) - c->of(below));
	}
	if (above)
		return c->of(above);
	if (!top || !second)
		return -1;
	double slope = (c->of(top) - c->of(second)) / (top->elements - second->elements);
	if (!(slope > 0))
		return -1;
	return c->of(top) + slope * (x - top->elements);
}

double tui_eta_left(const struct tui_eta_size *s, size_t n, size_t current, double in_flight_s)
{
	/* The fewest evaluations an opening took: the sizes after the first
	 * open with fewer (the copy is measured once). */
	double fewest = -1;
	for (size_t k = 0; k < n; k++)
		if (s[k].opened > 0 && (fewest < 0 || s[k].opened < fewest))
			fewest = s[k].opened;
	if (fewest < 0 || current >= n)
		return -1;
	double left = 0;
	for (size_t k = current; k < n; k++) {
		/* The evaluation in flight is part of the current size's
		 * opening, or of the rest: what it has run is not left. */
		double flight = k == current ? in_flight_s : 0, rest;
		if (s[k].opened > 0) {
			rest = s[k].planned - s[k].opened - s[k].done;
		} else {
			double o = cost_at(s, n, k, &opening);
			if (o < 0)
				return -1;
			left += o - (flight < o ? flight : o);
			flight = 0;
			rest = s[k].planned - fewest;
		}
		if (rest <= 0)
			continue;
		double p = cost_at(s, n, k, &pace);
		if (p < 0)
			return -1;
		left += rest * p - (flight < p ? flight : p);
	}
	return left > 0 ? left : 0;
}
