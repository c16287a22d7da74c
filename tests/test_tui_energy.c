/*
 * test_tui_energy.c - energy on screen (tui_energy.h) without a terminal:
 * the mJ figures, cells left empty (never 0) for what was not measured,
 * the Pareto mark grouped by problem (objective_pareto decides, tested in
 * test_objective; here: which rows it is asked about), and the detail's
 * lines, each part that was not measured saying so.
 */
#include <math.h>
#include <string.h>

#include "tests/test.h"
#include "tui/tui_energy.h"
#include "tui/tui_log.h"

static void test_mj(void)
{
	char buf[32];
	CHECK_STR(tui_energy_mj(0.00948, buf, sizeof buf), "9.48");
	CHECK_STR(tui_energy_mj(0.0123, buf, sizeof buf), "12.3");
	CHECK_STR(tui_energy_mj(1.25, buf, sizeof buf), "1250");
	CHECK_STR(tui_energy_mj(0.0000412, buf, sizeof buf), "0.0412");
	CHECK_STR(tui_energy_mj(0.0005, buf, sizeof buf), "0.500");
}

/* What was not measured leaves the cell empty: the table draws it as
 * missing, and a sparse column without any value is not there. */
static void test_cells(void)
{
	static const struct tui_table_col cols[3] = {
		{.title = "mJ", .numeric = 1, .sparse = 1},
		{.title = "W", .numeric = 1, .sparse = 1},
		{.title = "P", .sparse = 1},
	};
	struct tui_table t;
	tui_table_init(&t, cols, 3);
	struct tui_table_row *r = tui_table_add(&t);
	struct energy_stats e = {.joules = 0.00651, .watts = 228, .uncertainty = 0.01};
	tui_energy_set(r, 0, 1, &e);
	CHECK_STR(r->cell[0], "6.51");
	CHECK_NEAR(r->key[0], 0.00651, 1e-12);
	CHECK_STR(r->cell[1], "228");
	tui_energy_set_front(r, 2, 1);
	CHECK_STR(r->cell[2], TUI_PARETO_TITLE);
	r = tui_table_add(&t);
	struct energy_stats none = {0};
	tui_energy_set(r, 0, 1, &none);
	tui_energy_set_front(r, 2, 0);
	CHECK_STR(r->cell[0], "");
	CHECK(isnan(r->key[0]));
	CHECK_STR(r->cell[1], "");
	CHECK_STR(r->cell[2], "");
	/* Energy without the counter's power: the power cell alone empty. */
	r = tui_table_add(&t);
	struct energy_stats no_power = {.joules = 0.001};
	tui_energy_set(r, 0, 1, &no_power);
	CHECK_STR(r->cell[0], "1.00");
	CHECK_STR(r->cell[1], "");
	char text[64];
	CHECK_STR(tui_energy_text(&e, text, sizeof text), "6.51 mJ per launch, 228 W");
	CHECK_STR(tui_energy_text(&none, text, sizeof text), "");
	tui_table_free(&t);
}

/* Each group is its own front; a row in no group, or without energy, is
 * never on one; a group with one row with energy has none. */
static void test_fronts(void)
{
	const struct objective_key k[] = {
		/* group 0: a fast costly row, a slow frugal one, one beaten by
		 * the first on both, one without energy */
		{.median_ms = 0.0237, .joules = 0.0095},
		{.median_ms = 0.0285, .joules = 0.0065},
		{.median_ms = 0.0240, .joules = 0.0097},
		{.median_ms = 0.0200},
		/* group 4: its only row with energy is beaten in time by a row
		 * of group 0 - which is no rival of another group's */
		{.median_ms = 0.0300, .joules = 0.0200},
		{.median_ms = 0.0100},
		/* no group (a reference, a failure) */
		{.median_ms = 0.0100, .joules = 0.0010},
	};
	const long group[] = {0, 0, 0, 0, 4, 4, -1};
	int front[7];
	tui_energy_fronts(k, group, 7, front);
	CHECK_INT(front[0], 1);
	CHECK_INT(front[1], 1);
	CHECK_INT(front[2], 0);
	CHECK_INT(front[3], 0);
	CHECK_INT(front[4], 0);
	CHECK_INT(front[5], 0);
	CHECK_INT(front[6], 0);
	/* The groups need not be contiguous. */
	const long mixed[] = {0, 4, 0, 4, 4, 0, -1};
	const struct objective_key km[] = {k[0], k[4], k[1], {.median_ms = 0.0290, .joules = 0.0300},
					   k[5], k[2], k[6]};
	tui_energy_fronts(km, mixed, 7, front);
	CHECK_INT(front[0], 1);
	CHECK_INT(front[2], 1);
	CHECK_INT(front[5], 0);
	CHECK_INT(front[1], 1); /* 0.0300 ms, 20 mJ: more frugal than 30 mJ */
	CHECK_INT(front[3], 1); /* faster */
	CHECK_INT(front[4], 0);
	CHECK_INT(front[6], 0);
}

static const char *line(const struct tui_log *d, const char *label)
{
	size_t n = strlen(label);
	for (size_t i = 0; i < d->count; i++)
		if (strncmp(d->lines[i].text, label, n) == 0 && d->lines[i].text[n] == ':')
			return d->lines[i].text;
	return NULL;
}

static void test_detail(void)
{
	struct tui_log d;
	tui_log_init(&d, 0, 0);
	struct energy_stats e = {.joules = 0.00651, .watts = 228, .watts_sampled = 230,
				 .uncertainty = 0.012, .window_s = 0.3, .launches = 12000,
				 .sm_mhz = 1980, .mem_mhz = 2619, .reasons_known = 1, .reasons = 0x4 | 0x8};
	tui_energy_detail(&d, &e);
	CHECK_INT(d.count, 3);
	CHECK_CONTAINS(line(&d, "energy"), "6.51 mJ per launch");
	CHECK_CONTAINS(line(&d, "energy"), "1.2%");
	CHECK_CONTAINS(line(&d, "energy"), "counter window 0.3 s, burst of 12000 launches");
	CHECK_CONTAINS(line(&d, "power"), "228.0 W by the counter, 230.0 W by the readings");
	CHECK_CONTAINS(line(&d, "clocks"), "SM 1980 MHz, memory 2619 MHz");
	CHECK_CONTAINS(line(&d, "clocks"), "throttle reasons sw_power_cap,hw_slowdown");
	/* Reasons read and none seen: "none", not "not measured". */
	e.reasons = 0;
	tui_log_clear(&d);
	tui_energy_detail(&d, &e);
	CHECK_CONTAINS(line(&d, "clocks"), "throttle reasons none");
	/* Clocks and the readings without the counter: each missing part
	 * says so. */
	struct energy_stats part = {.watts_sampled = 301, .sm_mhz = 1755};
	tui_log_clear(&d);
	tui_energy_detail(&d, &part);
	CHECK_CONTAINS(line(&d, "energy"), "not measured");
	CHECK_CONTAINS(line(&d, "power"), "by the counter not measured, 301.0 W by the readings");
	CHECK_CONTAINS(line(&d, "clocks"), "SM 1755 MHz, memory not measured");
	CHECK_CONTAINS(line(&d, "clocks"), "throttle reasons not measured");
	/* Energy without its uncertainty, window or launches. */
	struct energy_stats bare = {.joules = 0.002};
	tui_log_clear(&d);
	tui_energy_detail(&d, &bare);
	CHECK_CONTAINS(line(&d, "energy"), "2.00 mJ per launch (uncertainty not measured)");
	CHECK_CONTAINS(line(&d, "energy"), "counter window not measured, launches not measured");
	/* Nothing at all (no NVML, a database from before): one line. */
	struct energy_stats none = {0};
	tui_log_clear(&d);
	tui_energy_detail(&d, &none);
	CHECK_INT(d.count, 1);
	CHECK_STR(line(&d, "energy"), "energy: not measured");
	tui_log_free(&d);
}

int main(void)
{
	test_mj();
	test_cells();
	test_fronts();
	test_detail();
	return TEST_END();
}
