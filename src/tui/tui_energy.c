/*
 * tui_energy.c - energy, power and the Pareto mark on screen (see
 * tui_energy.h).
 */
#include "tui/tui_energy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/text.h"
#include "tui/tui_log.h"

char *tui_energy_mj(double joules, char *buf, size_t len)
{
	double mj = joules * 1e3;
	if (mj >= 100)
		snprintf(buf, len, "%.0f", mj);
	else if (mj >= 10)
		snprintf(buf, len, "%.1f", mj);
	else if (mj >= 1)
		snprintf(buf, len, "%.2f", mj);
	else
		snprintf(buf, len, "%#.3g", mj);
	return buf;
}

char *tui_energy_text(const struct energy_stats *e, char *buf, size_t len)
{
	char mj[32];
	if (len)
		buf[0] = '\0';
	if (!energy_measured(e))
		return buf;
	snprintf(buf, len, "%s mJ per launch", tui_energy_mj(e->joules, mj, sizeof mj));
	if (e->watts > 0)
		text_appendf(buf, len, ", %.0f W", e->watts);
	return buf;
}

void tui_energy_set(struct tui_table_row *row, int mj, int w, const struct energy_stats *e)
{
	char buf[32];
	if (mj >= 0 && energy_measured(e))
		tui_table_set(row, mj, e->joules, 0, "%s", tui_energy_mj(e->joules, buf, sizeof buf));
	if (w >= 0 && e->watts > 0)
		tui_table_set(row, w, e->watts, 0, "%.0f", e->watts);
}

void tui_energy_set_front(struct tui_table_row *row, int col, int on_front)
{
	if (on_front)
		tui_table_set(row, col, NAN, A_BOLD, "%s", TUI_PARETO_TITLE);
}

void tui_energy_fronts(const struct objective_key *k, const long *group, size_t n, int *front)
{
	struct objective_key *sub = n ? malloc(n * sizeof *sub) : NULL;
	size_t *at = n ? malloc(n * sizeof *at) : NULL;
	int *on = n ? malloc(n * sizeof *on) : NULL;
	for (size_t i = 0; i < n; i++)
		front[i] = 0;
	if (!sub || !at || !on)
		goto out; /* out of memory: no marks, which is never a wrong one */
	for (size_t i = 0; i < n; i++) {
		size_t m = 0, measured = 0;
		int first = group[i] >= 0;
		/* Each group once, from its first row. */
		for (size_t j = 0; j < i && first; j++)
			first = group[j] != group[i];
		if (!first)
			continue;
		for (size_t j = i; j < n; j++)
			if (group[j] == group[i]) {
				sub[m] = k[j];
				measured += k[j].joules > 0;
				at[m++] = j;
			}
		if (measured < 2)
			continue;
		objective_pareto(sub, m, on);
		for (size_t j = 0; j < m; j++)
			front[at[j]] = on[j];
	}
out:
	free(sub);
	free(at);
	free(on);
}

void tui_energy_detail(struct tui_log *d, const struct energy_stats *e)
{
	char line[256] = "", buf[32];
	if (!energy_measured(e) && e->watts <= 0 && e->watts_sampled <= 0 && !e->sm_mhz && !e->mem_mhz &&
	    !e->reasons_known) {
		tui_log_field(d, "energy", "not measured");
		return;
	}
	if (energy_measured(e)) {
		text_appendf(line, sizeof line, "%s mJ per launch", tui_energy_mj(e->joules, buf, sizeof buf));
		if (e->uncertainty > 0)
			text_appendf(line, sizeof line, " %s %.1f%%", tui_term_glyphs()->plusminus,
				     100 * e->uncertainty);
		else
			text_appendf(line, sizeof line, " (uncertainty not measured)");
		/* The window and the burst it lay in: what the figure rests on. */
		if (e->window_s > 0)
			text_appendf(line, sizeof line, "; counter window %.3g s", e->window_s);
		else
			text_appendf(line, sizeof line, "; counter window not measured");
		if (e->launches > 0)
			text_appendf(line, sizeof line, ", burst of %ld launches", e->launches);
		else
			text_appendf(line, sizeof line, ", launches not measured");
	} else {
		text_appendf(line, sizeof line, "not measured");
	}
	tui_log_field(d, "energy", "%s", line);
	line[0] = '\0';
	/* The counter's average and the readings over the same window: two
	 * figures that should agree (energy.h's cross-check). */
	if (e->watts > 0)
		text_appendf(line, sizeof line, "%.1f W by the counter", e->watts);
	else
		text_appendf(line, sizeof line, "by the counter not measured");
	if (e->watts_sampled > 0)
		text_appendf(line, sizeof line, ", %.1f W by the readings", e->watts_sampled);
	else
		text_appendf(line, sizeof line, ", by the readings not measured");
	tui_log_field(d, "power", "%s", line);
	line[0] = '\0';
	if (e->sm_mhz > 0)
		text_appendf(line, sizeof line, "SM %d MHz", e->sm_mhz);
	else
		text_appendf(line, sizeof line, "SM not measured");
	if (e->mem_mhz > 0)
		text_appendf(line, sizeof line, ", memory %d MHz", e->mem_mhz);
	else
		text_appendf(line, sizeof line, ", memory not measured");
	char reasons[160];
	text_appendf(line, sizeof line, "; throttle reasons %s",
		     e->reasons_known ? energy_reasons_text(e->reasons, reasons, sizeof reasons)
				      : "not measured");
	tui_log_field(d, "clocks", "%s", line);
}
