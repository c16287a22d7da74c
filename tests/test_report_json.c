/*
 * test_report_json.c - run --json's result lines: a timed result carries
 * what it spent under the database's column names, each figure null where
 * it was not measured (never 0); a result that was not timed has none of
 * them.  Lines are read back by python3's json where there is one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/emit_energy.h"
#include "report/report.h"
#include "tests/test.h"

static const struct case_spec spec = {
	.name = "device.v.sum.f32", .variant = "device.v", .dtype = DTYPE_F32, .n = 1024, .params = "op=sum",
};

/* The line json_sink writes for r, malloc'd. */
static char *line_of(const struct result *r)
{
	char *buf = NULL, err[64];
	size_t len;
	struct json_state st = {0};
	struct report_sink sink;
	st.out = open_memstream(&buf, &len);
	if (!st.out)
		return NULL;
	json_sink(&sink, &st);
	sink.result(sink.ctx, r, 0, 1, err, sizeof err);
	fclose(st.out);
	return buf;
}

static struct result timed_result(void)
{
	struct result r;
	memset(&r, 0, sizeof r);
	r.c = &spec;
	r.seed = 7;
	r.status = STATUS_PASS;
	r.outcome = OUTCOME_CORRECT;
	r.err_norm = -1;
	r.timing.samples = 100;
	r.timing.median_ms = 0.01;
	return r;
}

/* 1 when python3's json reads line as one object whose members are the
 * keys given (a NULL-ended list) with the types named ("float", "int",
 * "str", "NoneType") and nothing else of energy; 1 as well when there is
 * no python3 to ask (the exact strings below still hold). */
static int parses(const char *line, const char *types)
{
	static int have = -1;
	char cmd[1024];
	if (have < 0)
		have = system("command -v python3 >/dev/null 2>&1") == 0;
	if (!have)
		return 1;
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import json, sys\n"
		 "r = json.loads(sys.stdin.read())\n"
		 "keys = (\"energy_j\", \"power_w\", \"power_sampled_w\", \"energy_uncertainty\", "
		 "\"energy_window_s\", \"energy_launches\", \"sm_mhz\", \"mem_mhz\", \"throttle_reasons\")\n"
		 "got = \" \".join(type(r[k]).__name__ for k in keys if k in r)\n"
		 "sys.exit(0 if got == sys.argv[1] else 1)' '%s'",
		 types);
	FILE *p = popen(cmd, "w");
	if (!p)
		return 0;
	fputs(line, p);
	return pclose(p) == 0;
}

/* The members from "energy_j" on: what this change adds. */
static const char *energy_part(const char *line)
{
	const char *p = line ? strstr(line, ",\"energy_j\"") : NULL;
	return p ? p : "(none)";
}

static void test_measured(void)
{
	struct result r = timed_result();
	r.timing.energy = (struct energy_stats){
		.joules = 1.25e-3, .watts = 480.5, .watts_sampled = 470.25, .uncertainty = 0.0125,
		.window_s = 0.3, .burst_s = 0.5, .launches = 40000, .sm_mhz = 1980, .mem_mhz = 3201,
		.reasons_known = 1, .reasons = 0x4 | 0x8,
	};
	char *line = line_of(&r);
	CHECK(parses(line, "float float float float float int int int str"));
	CHECK_STR(energy_part(line), ",\"energy_j\":0.00125,\"power_w\":480.5,\"power_sampled_w\":470.25,"
				     "\"energy_uncertainty\":0.0125,\"energy_window_s\":0.3,\"energy_launches\":40000,"
				     "\"sm_mhz\":1980,\"mem_mhz\":3201,\"throttle_reasons\":\"sw_power_cap,hw_slowdown\"}\n");
	free(line);
	/* NVML said no reason: "none", a fact, not a missing one. */
	r.timing.energy.reasons = 0;
	line = line_of(&r);
	CHECK_CONTAINS(line, ",\"throttle_reasons\":\"none\"}");
	free(line);
}

static void test_missing(void)
{
	/* Timed, but nothing measured (no NVML): every member null. */
	struct result r = timed_result();
	char *line = line_of(&r);
	CHECK(parses(line, "NoneType NoneType NoneType NoneType NoneType NoneType NoneType NoneType NoneType"));
	CHECK_STR(energy_part(line), ",\"energy_j\":null,\"power_w\":null,\"power_sampled_w\":null,"
				     "\"energy_uncertainty\":null,\"energy_window_s\":null,\"energy_launches\":null,"
				     "\"sm_mhz\":null,\"mem_mhz\":null,\"throttle_reasons\":null}\n");
	free(line);
	/* Clocks read but no counter window: the energy figures null, the
	 * clocks said. */
	r.timing.energy = (struct energy_stats){.sm_mhz = 1755, .mem_mhz = 3201, .launches = 900};
	line = line_of(&r);
	CHECK_STR(energy_part(line), ",\"energy_j\":null,\"power_w\":null,\"power_sampled_w\":null,"
				     "\"energy_uncertainty\":null,\"energy_window_s\":null,\"energy_launches\":900,"
				     "\"sm_mhz\":1755,\"mem_mhz\":3201,\"throttle_reasons\":null}\n");
	free(line);
	/* Energy without the power readings' cross-check. */
	r.timing.energy = (struct energy_stats){.joules = 2e-3, .watts = 400, .uncertainty = 0.02, .window_s = 0.2,
						.launches = 100};
	line = line_of(&r);
	CHECK_CONTAINS(line, ",\"energy_j\":0.002,\"power_w\":400,\"power_sampled_w\":null,");
	CHECK_CONTAINS(line, ",\"sm_mhz\":null,\"mem_mhz\":null,\"throttle_reasons\":null}");
	free(line);
	/* Energy whose uncertainty and window were not measured (a row
	 * written by hand, or by a build before them): null, never 0. */
	r.timing.energy = (struct energy_stats){.joules = 2e-3, .watts = 400};
	line = line_of(&r);
	CHECK_CONTAINS(line, ",\"energy_uncertainty\":null,\"energy_window_s\":null,");
	free(line);
}

static void test_untimed(void)
{
	/* A conformance result: none of the members, as before. */
	struct result r = timed_result();
	r.timing.samples = 0;
	r.timing.energy.joules = 1e-3; /* not a timed result's: not said */
	char *line = line_of(&r);
	CHECK(parses(line, ""));
	CHECK_STR(energy_part(line), "(none)");
	CHECK_CONTAINS(line, ",\"device\":\"host\"}\n");
	free(line);
}

int main(void)
{
	test_measured();
	test_missing();
	test_untimed();
	return TEST_END();
}
