/*
 * emit_energy.h - what a timed result spent (common/energy.h) as fields of
 * a record (emit.h), named as the database's columns are: energy_j,
 * power_w, power_sampled_w, energy_uncertainty, energy_window_s,
 * energy_launches, sm_mhz, mem_mhz, throttle_reasons.
 *
 * Missing is never 0: a figure that was not measured is a null field (null
 * in JSON, an empty cell in CSV), as it is NULL in the database.
 */
#ifndef CONFORM_EMIT_ENERGY_H
#define CONFORM_EMIT_ENERGY_H

#include <stddef.h>

#include "common/energy.h"
#include "report/emit.h"

#define EMIT_ENERGY_FIELDS 9
/* The text throttle_reasons needs (energy_reasons_text: every named reason). */
#define EMIT_ENERGY_TEXT 200

/* Fills f[0 .. EMIT_ENERGY_FIELDS - 1] from e; the reasons' text is
 * written into text (EMIT_ENERGY_TEXT bytes), which must outlive the
 * fields.  Returns EMIT_ENERGY_FIELDS. */
size_t emit_energy_fields(const struct energy_stats *e, struct emit_field *f, char *text, size_t len);

#endif
