/*
 * tui_result_detail.h - the detail of one stored result (the Results
 * pane's Enter): its problem and device, what it took, what was expected
 * and observed, its timing in the table's unit (µs) with the median's
 * interval or the word that none was stored, what it spent (energy per
 * launch and its uncertainty, power by the counter and by the readings,
 * clocks, throttle reasons; tui_energy_detail), and what its verdict rests
 * on, each stored part under its own label (docs/verdicts.md): the exact
 * probe, the guard zones, the input and scratch audits, a cause the
 * checks named, the wrong outputs, and what the run's diagnosis stored
 * (compute-sanitizer's report, the pattern of the failing sizes, the
 * smallest failing size and the command that runs it).
 */
#ifndef CONFORM_TUI_RESULT_DETAIL_H
#define CONFORM_TUI_RESULT_DETAIL_H

#include "db/db.h"
#include "tui/tui_log.h"

/* Fills d (cleared first) with the detail of r. */
void tui_result_detail(struct tui_log *d, const struct db_result_row *r);

#endif
