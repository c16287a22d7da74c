/*
 * test_tune_print.c - the tuner's tables and rows with and without energy
 * figures: the energy columns (J per launch, W, the Pareto mark) and their
 * legend appear only when some row has an energy figure, and the table is
 * otherwise what it was; a missing figure is "-" in a table, null in JSON
 * and an empty CSV cell, never 0; bench ranks the variants' winners by
 * the objective and says which; the best's legend names the objective.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "tune/tune_print.h"

static struct tune_row row(const char *variant, const char *config, double median_ms, double joules)
{
	struct tune_row r;
	memset(&r, 0, sizeof r);
	snprintf(r.variant, sizeof r.variant, "%s", variant);
	snprintf(r.config, sizeof r.config, "%s", config);
	r.role = TUNE_TUNED;
	r.status = STATUS_PASS;
	r.outcome = OUTCOME_CORRECT;
	r.timing.samples = 20;
	r.timing.median_ms = median_ms;
	r.timing.ci_low_ms = median_ms * 0.999;
	r.timing.ci_high_ms = median_ms * 1.001;
	r.timing.noise_met = 1;
	r.timing.timer = TIMER_EVENTS;
	r.timing.energy.joules = joules;
	if (joules > 0) {
		r.timing.energy.watts = 300;
		r.timing.energy.window_s = 0.3;
		r.timing.energy.launches = 1000;
		r.timing.energy.uncertainty = 0.001;
	}
	return r;
}

/* What p prints of sw (bench: of sweeps[0..n)), into a string to free. */
static char *printed(struct tune_printer *p, const struct tune_sweep *sw, size_t n, int bench)
{
	char *buf = NULL;
	size_t len = 0;
	p->f = open_memstream(&buf, &len);
	p->header_done = 0;
	if (bench)
		tune_print_bench(p, sw, n);
	else
		tune_print_sweep(p, sw);
	fclose(p->f);
	return buf;
}

/* The line of s that holds needle, as a new string ("" when none). */
static char *line_with(const char *s, const char *needle)
{
	const char *at = strstr(s, needle);
	if (!at)
		return strdup("");
	while (at > s && at[-1] != '\n')
		at--;
	const char *end = strchr(at, '\n');
	return strndup(at, end ? (size_t)(end - at) : strlen(at));
}

int main(void)
{
	struct tune_options o = {.dtype = DTYPE_F32, .op = OP_SUM, .objective = OBJECTIVE_ENERGY};
	struct tune_printer p = {.format = EMIT_TABLE, .o = &o, .device = -1};

	/* device.a: a fast and costly, b slower and the most frugal (the
	 * best by energy), c no energy figure, d failed. */
	struct tune_row a[4] = {row("device.a", "b=2", 2.0, 1.5e-3), row("device.a", "b=1", 1.0, 4e-3),
				row("device.a", "b=3", 1.5, 0), row("device.a", "b=4", 0, 0)};
	a[0].best = 1;
	a[0].pareto = a[1].pareto = 1;
	a[3].status = STATUS_FAIL;
	a[3].outcome = OUTCOME_WRONG;
	a[3].timing.samples = 0;
	struct tune_sweep sw = {.n = 1 << 20, .rows = a, .count = 4};

	char *t = printed(&p, &sw, 1, 0);
	char *header = line_with(t, "median (µs)");
	CHECK_CONTAINS(header, "spread   mJ/launch       W  P  status");
	char *best = line_with(t, "b=2");
	CHECK_CONTAINS(best, "1.500   300.0  P  PASS");
	CHECK(best[0] == '*');
	free(best);
	best = line_with(t, "b=3 ");
	CHECK_CONTAINS(best, "-       -  -  PASS"); /* no energy figure: missing, not 0 */
	free(best);
	CHECK_CONTAINS(t, "  * best by energy: the lowest upper end of the energy's interval");
	CHECK_CONTAINS(t, "  P: on its variant's Pareto front of time and energy");
	free(header);
	free(t);

	/* No row with an energy figure: the table as it was, by time. */
	struct tune_row plain[2] = {row("device.a", "b=1", 1.0, 0), row("device.a", "b=2", 2.0, 0)};
	plain[0].best = 1;
	struct tune_sweep sp = {.n = 1 << 20, .rows = plain, .count = 2};
	o.objective = OBJECTIVE_TIME;
	t = printed(&p, &sp, 1, 0);
	header = line_with(t, "median (µs)");
	CHECK_CONTAINS(header, "median (µs)       GB/s   % copy  × base   noise   spread  status");
	CHECK(!strstr(t, "/launch") && !strstr(t, "Pareto") && !strstr(t, "best by"));
	free(header);
	free(t);

	/* Bench: each variant's winner, ranked by the objective.  device.b's
	 * best is faster than device.a's and spends more. */
	struct tune_row ab[3] = {row("device.a", "b=2", 2.0, 1.5e-3), row("device.b", "x=1", 1.2, 3e-3),
				 row("device.c", "y=1", 0.9, 0)};
	ab[0].best = ab[1].best = ab[2].best = 1;
	struct tune_sweep sb = {.n = 1 << 20, .rows = ab, .count = 3};
	t = printed(&p, &sb, 1, 1);
	CHECK_CONTAINS(t, "best configuration per variant and size");
	CHECK(strstr(t, "device.c") && strstr(t, "device.b") && strstr(t, "device.c") < strstr(t, "device.b") &&
	      strstr(t, "device.b") < strstr(t, "device.a"));
	free(t);
	o.objective = OBJECTIVE_ENERGY;
	t = printed(&p, &sb, 1, 1);
	CHECK_CONTAINS(t, "best configuration by energy per variant and size");
	CHECK_CONTAINS(t, "  best by energy: ");
	/* By energy: a, then b; c without an energy figure last. */
	CHECK(strstr(t, "device.a") && strstr(t, "device.b") && strstr(t, "device.c") &&
	      strstr(t, "device.a") < strstr(t, "device.b") && strstr(t, "device.b") < strstr(t, "device.c"));
	CHECK_CONTAINS(t, "mJ/launch");
	free(t);

	/* JSON and CSV: the energy fields appended, null / empty when
	 * missing, never 0. */
	p.format = EMIT_JSON;
	t = printed(&p, &sw, 1, 0);
	char *j = line_with(t, "\"config\":\"b=2\"");
	CHECK_CONTAINS(j, "\"device\":null,\"energy_j\":0.0015,\"power_w\":300,\"power_sampled_w\":null,"
			  "\"energy_uncertainty\":0.001,\"energy_window_s\":0.3,\"energy_launches\":1000,"
			  "\"sm_mhz\":null,\"mem_mhz\":null,\"throttle_reasons\":null,\"pareto\":true}");
	free(j);
	j = line_with(t, "\"config\":\"b=3\"");
	CHECK_CONTAINS(j, "\"energy_j\":null,\"power_w\":null,\"power_sampled_w\":null,"
			  "\"energy_uncertainty\":null,\"energy_window_s\":null,\"energy_launches\":null,"
			  "\"sm_mhz\":null,\"mem_mhz\":null,\"throttle_reasons\":null,\"pareto\":null}");
	free(j);
	free(t);
	p.format = EMIT_CSV;
	t = printed(&p, &sw, 1, 0);
	CHECK_CONTAINS(t, ",device,energy_j,power_w,power_sampled_w,energy_uncertainty,energy_window_s,"
			  "energy_launches,sm_mhz,mem_mhz,throttle_reasons,pareto\n");
	j = line_with(t, "b=3,");
	CHECK_CONTAINS(j, ",,,,,,,,,,,"); /* message, device and the 10 energy fields empty */
	free(j);
	free(t);
	return TEST_END();
}
