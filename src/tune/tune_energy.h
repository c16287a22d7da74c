/*
 * tune_energy.h - what a configuration spent, as the tuner's tables and the
 * lookups (best, export) show it: the unit of a table's energy column and
 * the words for an objective's rule.  The machine-readable fields are
 * report/emit_energy.h's, the same in every command.
 *
 * Missing is never 0 (common/energy.h): a table shows "-" for a figure not
 * measured, and leaves its energy columns out when none of its rows has an
 * energy figure.
 */
#ifndef CONFORM_TUNE_ENERGY_H
#define CONFORM_TUNE_ENERGY_H

#include <stddef.h>

#include "common/objective.h"

/* A table's energy column: the unit its largest figure reads best in,
 * with 3 decimals ("mJ" for 0.004 J, "µJ" for 2e-5 J; "J" when there is
 * none). */
struct tune_energy_unit {
	const char *name;    /* "J", "mJ" or "µJ" */
	double per_joule;    /* 1, 1e3 or 1e6 */
};
void tune_energy_unit(double max_joules, struct tune_energy_unit *u);

/* The rule that makes a best, for legends: "the lowest upper end of the
 * energy's interval, ..." (time: "of the median's interval"). */
const char *tune_objective_rule(enum objective o);

#endif
