/*
 * emit_energy.c - an energy_stats as record fields (emit_energy.h).  The
 * rule for what is missing is the database's (db_energy_bind): the energy
 * figures with joules (energy_measured), each where it is above 0, the
 * reasons where NVML said them.
 */
#include "report/emit_energy.h"

/* A figure, or null where it is 0 (not measured). */
static struct emit_field figure(const char *name, double v, int measured)
{
	return measured ? EMIT_REAL(name, v) : EMIT_NULL(name);
}

size_t emit_energy_fields(const struct energy_stats *e, struct emit_field *f, char *text, size_t len)
{
	int measured = energy_measured(e);
	f[0] = figure("energy_j", e->joules, measured);
	f[1] = figure("power_w", e->watts, e->watts > 0);
	f[2] = figure("power_sampled_w", e->watts_sampled, e->watts_sampled > 0);
	f[3] = figure("energy_uncertainty", e->uncertainty, measured && e->uncertainty > 0);
	f[4] = figure("energy_window_s", e->window_s, measured && e->window_s > 0);
	f[5] = e->launches > 0 ? EMIT_INT("energy_launches", e->launches) : EMIT_NULL("energy_launches");
	f[6] = e->sm_mhz > 0 ? EMIT_INT("sm_mhz", e->sm_mhz) : EMIT_NULL("sm_mhz");
	f[7] = e->mem_mhz > 0 ? EMIT_INT("mem_mhz", e->mem_mhz) : EMIT_NULL("mem_mhz");
	f[8] = e->reasons_known ? EMIT_STR("throttle_reasons", energy_reasons_text(e->reasons, text, len))
				: EMIT_NULL("throttle_reasons");
	return EMIT_ENERGY_FIELDS;
}
