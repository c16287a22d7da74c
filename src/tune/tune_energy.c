/*
 * tune_energy.c - energy figures as the tables show them (see
 * tune_energy.h).
 */
#include "tune/tune_energy.h"

void tune_energy_unit(double max_joules, struct tune_energy_unit *u)
{
	if (max_joules >= 1 || !(max_joules > 0))
		*u = (struct tune_energy_unit){"J", 1};
	else if (max_joules >= 1e-3)
		*u = (struct tune_energy_unit){"mJ", 1e3};
	else
		*u = (struct tune_energy_unit){"µJ", 1e6};
}

const char *tune_objective_rule(enum objective o)
{
	switch (o) {
	case OBJECTIVE_ENERGY:
		return "the lowest upper end of the energy's interval, J x (1 + uncertainty)";
	case OBJECTIVE_EDP:
		return "the lowest product of the upper ends of the energy's and the median's intervals";
	default:
		return "the lowest upper end of the median's interval";
	}
}
