/*
 * tui_energy.h - what a timed result spent, as the reading interface shows
 * it: energy per launch in mJ and average power in W in the tables and the
 * detail, and the time/energy Pareto front of a group of rows.
 *
 * One unit everywhere on screen: a reduction's launch spends from
 * microjoules to a few joules, and mJ keeps those readable as plain
 * numbers ("0.0412", "9.48", "1250").  A figure not measured is never 0:
 * its cell stays empty (the table draws "–") and its detail says "not
 * measured" (energy.h).  Which rows are on the front is objective.h's rule
 * (objective_pareto); this file only groups the rows and says so.
 */
#ifndef CONFORM_TUI_ENERGY_H
#define CONFORM_TUI_ENERGY_H

#include <stddef.h>

#include "common/energy.h"
#include "common/objective.h"
#include "db/db.h"
#include "tui/tui_table.h"

/* The column titles. */
#define TUI_ENERGY_TITLE "mJ"
#define TUI_POWER_TITLE "W"
#define TUI_PARETO_TITLE "P"

/* joules per launch in mJ as the interface writes them, three significant
 * figures or the whole number ("0.0412", "9.48", "1250"). */
char *tui_energy_mj(double joules, char *buf, size_t len);

/* e in a few words, "6.51 mJ per launch, 228 W" (the power when measured);
 * "" when its energy was not measured. */
char *tui_energy_text(const struct energy_stats *e, char *buf, size_t len);

/* The cells of e: energy per launch (mJ) in column mj, the counter's
 * average power (W) in column w; each left empty when not measured.  A
 * column < 0 is not set. */
void tui_energy_set(struct tui_table_row *row, int mj, int w, const struct energy_stats *e);

/* The Pareto mark of a row on the front (TUI_PARETO_TITLE in column col);
 * nothing for a row off it. */
void tui_energy_set_front(struct tui_table_row *row, int col, int on_front);

/* front[i] = 1 when row i is on the time/energy Pareto front of its group:
 * the rows j with group[j] == group[i] (group < 0: in none, never on a
 * front).  A group with fewer than two rows with energy has no front:
 * alone, a row is not "not beaten", only unmatched. */
void tui_energy_fronts(const struct objective_key *k, const long *group, size_t n, int *front);

/* The energy fields of a result's detail (tui_log_field): "energy" (per
 * launch, its uncertainty, the counter's window and the burst's launches),
 * "power" (by the counter and by the readings, the cross-check) and
 * "clocks" (SM, memory, the throttle reasons); each part not measured says
 * so.  A result with none of them gets the one line "energy: not
 * measured". */
struct tui_log;
void tui_energy_detail(struct tui_log *d, const struct energy_stats *e);

#endif
