/*
 * test_energy.c - energy per launch from a burst's readings (energy.h):
 * bursts recorded on an H200 (tests/data/energy-h200.trace) give the
 * figures an independent reading of the rule gives; made-up bursts pin
 * the rule's parts (the first tick inside is skipped, the window's ends
 * are the middles of their ticks, no window without three ticks, the
 * cross-check's mean, the clocks' median, the reasons' union); the
 * reasons' words round-trip.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/energy.h"
#include "tests/test.h"

/* What an independent script (a reading of energy.h's rule in
 * Python over the same trace) gives for each recorded burst; 0 watts:
 * no window (none of these). */
static const struct {
	double watts, joules, window_s, uncertainty;
} recorded[] = {
	{574.1570, 2.910687e-01, 0.2996, 0.01714},
	{140.2560, 1.712098e-03, 0.3003, 0.00922},
	{169.6644, 7.868064e-04, 0.3012, 0.01062},
	{211.9218, 1.007933e-03, 0.3023, 0.01121},
	{475.9351, 1.020522e-02, 0.2996, 0.01372},
	{478.4311, 1.003125e-02, 0.2991, 0.01157},
	{545.0628, 1.074856e-02, 0.2996, 0.01143},
	{614.8744, 1.464519e-01, 0.2949, 0.04498},
	{615.6119, 1.464498e-01, 0.2910, 0.04029},
	{681.5979, 1.655863e-01, 0.3015, 0.01165},
};

static void test_recorded(void)
{
	const char *srcdir = getenv("srcdir");
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/data/energy-h200.trace", srcdir && *srcdir ? srcdir : ".");
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	struct energy_poll *polls = NULL;
	size_t cap = 0, k = 0;
	struct energy_burst b;
	int rc;
	while ((rc = energy_trace_read(f, &polls, &cap, &b)) == 1) {
		struct energy_stats e;
		CHECK(k < sizeof recorded / sizeof recorded[0]);
		if (k >= sizeof recorded / sizeof recorded[0])
			break;
		int measured = energy_estimate(&b, &e);
		CHECK_INT(measured, recorded[k].watts > 0);
		CHECK_INT(energy_measured(&e), recorded[k].watts > 0);
		if (measured) {
			CHECK_NEAR(e.watts, recorded[k].watts, 1e-3);
			CHECK_NEAR(e.joules / recorded[k].joules, 1, 1e-5);
			CHECK_NEAR(e.window_s, recorded[k].window_s, 1e-4);
			CHECK_NEAR(e.uncertainty, recorded[k].uncertainty, 1e-5);
			/* energy per launch x launches = average power x burst time */
			CHECK_NEAR(e.joules * b.launches, e.watts * b.gpu_s, 1e-9 * e.watts);
			/* the readings agree with the counter roughly (they change
			 * about once a counter period) */
			CHECK(e.watts_sampled > 0.75 * e.watts && e.watts_sampled < 1.25 * e.watts);
		} else {
			CHECK(e.joules == 0 && e.watts == 0 && e.watts_sampled == 0 && e.window_s == 0);
		}
		/* Clocks and reasons come with every burst: the H200 ran at its
		 * boost clock, memory at 3201 MHz, with no reason. */
		CHECK_INT(e.sm_mhz, 1980);
		CHECK_INT(e.mem_mhz, 3201);
		CHECK_INT(e.reasons_known, 1);
		CHECK(e.reasons == 0);
		CHECK_INT(e.launches, b.launches);
		k++;
	}
	CHECK_INT(rc, 0);
	CHECK_INT(k, sizeof recorded / sizeof recorded[0]);
	free(polls);
	fclose(f);
}

/* A made-up burst: the counter ticks every 100 ms (at t = 0.1 k + 0.0371,
 * an arbitrary phase), read every 4 ms; 100 W before start_s = 1.0, 500 W
 * after.  The first tick after the start holds idle energy. */
#define POLLS 400
static size_t made_up(struct energy_poll *p, double end_s)
{
	size_t n = 0;
	for (double t = 0.9; t < end_s + 0.05 && n < POLLS; t += 0.004) {
		/* the counter's value: energy up to the last tick before t */
		double tick = floor((t - 0.0371) / 0.1) * 0.1 + 0.0371;
		double mj = tick <= 1.0 ? 100e3 * tick : 100e3 * 1.0 + 500e3 * (tick - 1.0);
		p[n] = (struct energy_poll){.t_s = t, .counter_mj = round(mj), .power_w = t < 1.0 ? 100 : 500,
					    .sm_mhz = 1980, .mem_mhz = 3201, .reasons_read = 1};
		n++;
	}
	return n;
}

static void test_made_up(void)
{
	struct energy_poll p[POLLS];
	struct energy_stats e;
	size_t n = made_up(p, 1.45);
	struct energy_burst b = {.polls = p, .n = n, .start_s = 1.0, .end_s = 1.45, .gpu_s = 0.45,
				 .launches = 900};

	/* ticks inside: 1.0371 (skipped: its period began before the start),
	 * 1.1371 ... 1.4371 */
	CHECK_INT(energy_ticks_inside(p, n, 1.0), 5);
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.watts, 500, 0.5);
	CHECK_NEAR(e.joules, 500 * 0.45 / 900, 0.5 * 0.45 / 900);
	CHECK_NEAR(e.window_s, 0.3, 0.004);
	/* each end known to half the 4 ms between readings, 150 000 mJ counted */
	CHECK_NEAR(e.uncertainty, 0.004 / e.window_s + 1 / 150e3, 1e-6);
	CHECK_NEAR(e.watts_sampled, 500, 1e-9);
	CHECK_INT(e.sm_mhz, 1980);

	/* Launches that ran 30 % of the burst (the host issued them slower
	 * than they ran): the idle 70 % joins the uncertainty.  Faster than the
	 * samples' median: back to back, nothing added. */
	double counter_only = e.uncertainty;
	CHECK_NEAR(e.busy, 0, 0); /* launch_s unknown */
	b.launch_s = 0.15e-3;     /* 900 x 0.15 ms = 0.135 s of 0.45 */
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.busy, 0.3, 1e-12);
	CHECK_NEAR(e.uncertainty, counter_only + 0.7, 1e-12);
	/* At or above ENERGY_BUSY the gaps are the GPU's own: the counter's
	 * uncertainty alone. */
	b.launch_s = 0.25e-3;     /* 0.225 s of 0.45: half */
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.busy, 0.5, 1e-12);
	CHECK_NEAR(e.uncertainty, counter_only, 1e-12);
	b.launch_s = 0.4e-3;
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.busy, 0.8, 1e-12);
	CHECK_NEAR(e.uncertainty, counter_only, 1e-12);
	CHECK_NEAR(e.watts, 500, 0.5); /* the figure itself as before */
	b.launch_s = 0.6e-3;
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.busy, 1, 0);
	CHECK_NEAR(e.uncertainty, counter_only, 1e-12);
	b.launch_s = 0;

	/* Two ticks inside: one period, but the first is skipped: none. */
	b.end_s = 1.15;
	b.n = made_up(p, 1.15);
	CHECK_INT(energy_estimate(&b, &e), 0);
	CHECK(!energy_measured(&e));
	CHECK_INT(e.mem_mhz, 3201); /* the clocks all the same */
	/* Three: one period, measured. */
	b.end_s = 1.25;
	b.n = made_up(p, 1.25);
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.window_s, 0.1, 0.004);
	CHECK_NEAR(e.watts, 500, 1);

	/* Readings that are not taken (a counter call that failed, no power
	 * reading) are passed over. */
	b.end_s = 1.45;
	b.n = made_up(p, 1.45);
	for (size_t i = 0; i < b.n; i += 3) {
		p[i].counter_mj = -1;
		p[i].power_w = -1;
	}
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.watts, 500, 5);
	CHECK_NEAR(e.watts_sampled, 500, 1e-9);
	/* A counter reading that is not a number is one not taken. */
	for (size_t i = 0; i < b.n; i += 3)
		p[i].counter_mj = NAN;
	CHECK_INT(energy_estimate(&b, &e), 1);
	CHECK_NEAR(e.watts, 500, 5);
	/* A counter that goes back inside the window (reset with the driver)
	 * gives no energy, though the last tick still lies above the second. */
	b.n = made_up(p, 1.45);
	for (size_t i = 0; i < b.n; i++)
		if (p[i].t_s > 1.25)
			p[i].counter_mj -= 100e3;
	CHECK_INT(energy_estimate(&b, &e), 0);
	CHECK(!energy_measured(&e));
	b.n = made_up(p, 1.45);
	/* No launch, no GPU time: nothing per launch. */
	b.launches = 0;
	CHECK_INT(energy_estimate(&b, &e), 0);
}

static void test_clocks_and_reasons(void)
{
	struct energy_poll p[5] = {
		{.t_s = 0.5, .counter_mj = -1, .sm_mhz = 100, .reasons_read = 1, .reasons = 0x1},
		{.t_s = 1.0, .counter_mj = -1, .sm_mhz = 1755, .mem_mhz = 2619, .reasons_read = 1, .reasons = 0x4},
		{.t_s = 1.1, .counter_mj = -1, .sm_mhz = 1980, .mem_mhz = 3201, .reasons_read = 0, .reasons = 0x8},
		{.t_s = 1.2, .counter_mj = -1, .sm_mhz = 1905, .mem_mhz = 3201, .reasons_read = 1, .reasons = 0x40},
		{.t_s = 2.0, .counter_mj = -1, .sm_mhz = 100, .reasons_read = 1, .reasons = 0x80},
	};
	struct energy_burst b = {.polls = p, .n = 5, .start_s = 1.0, .end_s = 1.2, .gpu_s = 0.2, .launches = 1};
	struct energy_stats e;
	CHECK_INT(energy_estimate(&b, &e), 0);
	CHECK_INT(e.sm_mhz, 1905); /* the median of the three inside */
	CHECK_INT(e.mem_mhz, 3201);
	CHECK_INT(e.reasons_known, 1);
	CHECK(e.reasons == (0x4 | 0x40)); /* outside, or not read: not seen */
	b.start_s = 1.05;
	b.end_s = 1.15;
	p[2].reasons_read = 0;
	CHECK_INT(energy_estimate(&b, &e), 0);
	CHECK_INT(e.reasons_known, 0);
	CHECK_INT(e.sm_mhz, 1980);
}

static void test_reason_words(void)
{
	char buf[200];
	unsigned long long v;
	CHECK_STR(energy_reasons_text(0, buf, sizeof buf), "none");
	CHECK_STR(energy_reasons_text(0x4 | 0x8, buf, sizeof buf), "sw_power_cap,hw_slowdown");
	CHECK_STR(energy_reasons_text(0x1 | 0x200, buf, sizeof buf), "gpu_idle,0x200");
	CHECK_INT(energy_reasons_parse("sw_power_cap,hw_slowdown", &v), 0);
	CHECK(v == (0x4 | 0x8));
	CHECK_INT(energy_reasons_parse("none", &v), 0);
	CHECK(v == 0);
	CHECK_INT(energy_reasons_parse("gpu_idle,0x200", &v), 0);
	CHECK(v == (0x1 | 0x200));
	const char *bad[] = {"", "sw_power", "sw_power_cap,", ",none", "0x3", "0x", "none,gpu_idle", "hot"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
		CHECK_INT(energy_reasons_parse(bad[k], &v), -1);
	/* Every mask names itself back. */
	for (unsigned long long m = 0; m < 0x400; m += 0x15) {
		CHECK_INT(energy_reasons_parse(energy_reasons_text(m, buf, sizeof buf), &v), 0);
		CHECK(v == m);
	}
	/* A buffer too small is cut at a whole word. */
	CHECK_STR(energy_reasons_text(0x4 | 0x8, buf, 16), "sw_power_cap");
}

static void test_trace_round_trip(void)
{
	struct energy_poll p[POLLS];
	size_t n = made_up(p, 1.45);
	p[3].reasons_read = 0;
	struct energy_burst b = {.polls = p, .n = n, .start_s = 1.0, .end_s = 1.45, .gpu_s = 0.45,
				 .launches = 900, .launch_s = 0.4e-3}, c;
	FILE *f = tmpfile();
	CHECK(f != NULL);
	if (!f)
		return;
	energy_trace_write(f, &b);
	energy_trace_write(f, &b);
	fputs("burst 1 2\n", f);
	rewind(f);
	struct energy_poll *q = NULL;
	size_t cap = 0;
	struct energy_stats e1, e2;
	CHECK_INT(energy_trace_read(f, &q, &cap, &c), 1);
	CHECK_INT(c.n, n);
	CHECK_INT(c.launches, 900);
	CHECK_NEAR(c.launch_s, 0.4e-3, 1e-15);
	CHECK_INT(c.polls[3].reasons_read, 0);
	CHECK_INT(energy_estimate(&b, &e1), 1);
	CHECK_INT(energy_estimate(&c, &e2), 1);
	CHECK_NEAR(e2.watts, e1.watts, 1e-3);
	CHECK_INT(energy_trace_read(f, &q, &cap, &c), 1);
	CHECK_INT(energy_trace_read(f, &q, &cap, &c), -1); /* a malformed block */
	free(q);
	fclose(f);
}

int main(void)
{
	test_recorded();
	test_made_up();
	test_clocks_and_reasons();
	test_reason_words();
	test_trace_round_trip();
	return TEST_END();
}
