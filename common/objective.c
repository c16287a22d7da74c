/*
 * objective.c - ranking by time, energy or energy-delay product, and the
 * Pareto front of time and energy (objective.h).
 */
#include <string.h>

#include "common/objective.h"
#include "common/timing.h"

static const char *const objective_names[] = {
	[OBJECTIVE_TIME] = "time",
	[OBJECTIVE_ENERGY] = "energy",
	[OBJECTIVE_EDP] = "edp",
};

const char *objective_name(enum objective o)
{
	return (unsigned)o < sizeof objective_names / sizeof objective_names[0] ? objective_names[o]
									  : "time";
}

int objective_parse(const char *word, enum objective *out)
{
	for (unsigned i = 0; i < sizeof objective_names / sizeof objective_names[0]; i++)
		if (strcmp(word, objective_names[i]) == 0) {
			*out = (enum objective)i;
			return 0;
		}
	return -1;
}

void objective_key_of(struct objective_key *k, double median_ms, double ci_high_ms,
		      const struct energy_stats *e)
{
	*k = (struct objective_key){
		.median_ms = median_ms,
		.ci_high_ms = ci_high_ms,
		.joules = energy_measured(e) ? e->joules : 0,
		.uncertainty = e->uncertainty,
	};
}

static int has_energy(const struct objective_key *k)
{
	return k->joules > 0; /* false for NAN too */
}

/* The upper end of the energy's interval. */
static double energy_bound(const struct objective_key *k)
{
	double u = k->uncertainty > 0 ? k->uncertainty : 0;
	return k->joules * (1 + u);
}

static double time_bound_ms(const struct objective_key *k)
{
	return timing_rank_bound(k->median_ms, k->ci_high_ms > 0 ? k->ci_high_ms : 0);
}

double objective_value(enum objective o, const struct objective_key *k)
{
	switch (o) {
	case OBJECTIVE_ENERGY:
		return has_energy(k) ? k->joules : -1;
	case OBJECTIVE_EDP:
		return has_energy(k) ? k->joules * k->median_ms * 1e-3 : -1;
	default:
		return k->median_ms;
	}
}

static int cmp_double(double a, double b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

int objective_rank_cmp(enum objective o, const struct objective_key *a,
		       const struct objective_key *b)
{
	int c;

	if (o != OBJECTIVE_TIME) {
		if (has_energy(a) != has_energy(b))
			return has_energy(a) ? -1 : 1;
		if (has_energy(a)) {
			if (o == OBJECTIVE_ENERGY)
				c = cmp_double(energy_bound(a), energy_bound(b));
			else
				c = cmp_double(energy_bound(a) * time_bound_ms(a),
					       energy_bound(b) * time_bound_ms(b));
			if (c)
				return c;
			if ((c = cmp_double(objective_value(o, a), objective_value(o, b))) != 0)
				return c;
		}
	}
	return timing_rank_cmp(a->median_ms, a->ci_high_ms > 0 ? a->ci_high_ms : 0, b->median_ms,
			       b->ci_high_ms > 0 ? b->ci_high_ms : 0);
}

void objective_pareto(const struct objective_key *k, size_t n, int *front)
{
	for (size_t i = 0; i < n; i++) {
		front[i] = has_energy(&k[i]) && k[i].median_ms > 0;
		for (size_t j = 0; j < n && front[i]; j++) {
			if (j == i || !has_energy(&k[j]) || !(k[j].median_ms > 0))
				continue;
			if (k[j].median_ms <= k[i].median_ms && k[j].joules <= k[i].joules &&
			    (k[j].median_ms < k[i].median_ms || k[j].joules < k[i].joules))
				front[i] = 0;
		}
	}
}
