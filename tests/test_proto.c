/*
 * test_proto.c - the worker protocol: every message survives a round trip,
 * free text cannot break a line, malformed lines are refused (a number only
 * as printf writes it), and control bytes from a worker come out as '?'.
 */
#include <stdlib.h>
#include <string.h>

#include "common/proto.h"
#include "tests/test.h"

/* A valid DONE line with field i (1..33) replaced by value: parsed. */
#define DONE_FIELDS 34
static int done_with(int i, const char *value)
{
	const char *f[DONE_FIELDS] = {"DONE", "4", "completed-correct", "0", "0.25", "1.93", "1.500000", "12",
			     "0.125", "0.13", "0.001", "0.12", "0.0077", "0.124", "0.126", "0.008", "1",
			     "2", "cupti", "4294967296", "1980", "1755", "-1",
			     "0.0421", "437.5", "440.1", "0.013", "0.301", "0.52", "5461", "1980", "3201", "4",
			     "msg"};
	char line[PROTO_LINE_MAX] = "";
	f[i] = value;
	for (int k = 0; k < DONE_FIELDS; k++) {
		strcat(line, f[k]);
		strcat(line, k < DONE_FIELDS - 1 ? "\t" : "\n");
	}
	unsigned seq;
	struct case_result r;
	return proto_parse_done(line, &seq, &r);
}

/* A number the other side's printf could have written, and junk. */
static void test_numbers(void)
{
	CHECK_INT(done_with(33, "msg"), 0);
	/* The energy figures: numbers printf wrote, none negative or not
	 * finite (0 is "not measured"); launches and clocks integers; the
	 * reasons a bit mask or "-". */
	for (int i = 23; i <= 28; i++) {
		CHECK_INT(done_with(i, "0"), 0);
		CHECK_INT(done_with(i, "-0.5"), -1);
		CHECK_INT(done_with(i, "inf"), -1);
		CHECK_INT(done_with(i, "nan"), -1);
		CHECK_INT(done_with(i, "-"), -1);
	}
	for (int i = 29; i <= 31; i++) {
		CHECK_INT(done_with(i, "0"), 0);
		CHECK_INT(done_with(i, "-1"), -1);
		CHECK_INT(done_with(i, "1.5"), -1);
	}
	CHECK_INT(done_with(32, "-"), 0);
	CHECK_INT(done_with(32, "0"), 0);
	CHECK_INT(done_with(32, "18446744073709551615"), 0);
	CHECK_INT(done_with(32, "-1"), -1);
	CHECK_INT(done_with(32, "0x4"), -1);
	/* Integers: seq, samples, throttled, clocks (fatal, noise_met below). */
	const char *bad_ints[] = {"", " 4", "4 ", "+4", "-1", "0x10", "4.0", "1e3", "4294967296",
				  "99999999999999999999", "٤"};
	for (size_t k = 0; k < sizeof bad_ints / sizeof *bad_ints; k++) {
		CHECK_INT(done_with(1, bad_ints[k]), -1);
		CHECK_INT(done_with(7, bad_ints[k]), -1);
		CHECK_INT(done_with(17, bad_ints[k]), -1);
		CHECK_INT(done_with(20, bad_ints[k]), -1);
	}
	CHECK_INT(done_with(1, "4294967295"), 0);
	CHECK_INT(done_with(3, "1"), 0);
	CHECK_INT(done_with(3, "2"), -1); /* fatal is a flag */
	CHECK_INT(done_with(16, "0"), 0);
	CHECK_INT(done_with(16, "2"), -1); /* so is noise_met */
	/* The timer is one of its names. */
	const char *timers[] = {"cupti", "events", "host", "-"};
	for (size_t k = 0; k < sizeof timers / sizeof *timers; k++)
		CHECK_INT(done_with(18, timers[k]), 0);
	const char *bad_timers[] = {"", "CUPTI", "0", "cupti ", "nvml"};
	for (size_t k = 0; k < sizeof bad_timers / sizeof *bad_timers; k++)
		CHECK_INT(done_with(18, bad_timers[k]), -1);
	CHECK_INT(done_with(7, "2147483648"), -1);
	/* Doubles: what %g and %f write, nothing more. */
	const char *good[] = {"0", "-0", "1", "-1", "0.5", "12.25", "1e+20", "1.5e-07", "-2.5e+300",
			      "nan", "-nan", "inf", "-inf", "4.9e-324", "1.000000"};
	for (size_t k = 0; k < sizeof good / sizeof *good; k++)
		CHECK_INT(done_with(4, good[k]), 0);
	const char *bad[] = {"", "-", " 1", "1 ", "+1", "0x10", "0x1p3", ".5", "5.", "1e5", "1e", "1e+",
			     "1.5e+7x", "infinity", "nan(1)", "NaN", "INF", "1e+999", "-1e+999", "1,5",
			     "--1"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		CHECK_INT(done_with(4, bad[k]), -1);
		CHECK_INT(done_with(5, bad[k]), -1);
		CHECK_INT(done_with(14, bad[k]), -1);
	}

	/* The RUN line's timing field, read by the worker, is as strict. */
	unsigned seq;
	struct case_args a;
	struct timing_request t;
	enum proto_verb verb;
	char ok[] = "RUN\t1\tx\tv\tf32\t1\t0\t1\t-\t10,500,0.005,1.5,1,1\n";
	CHECK_INT(proto_parse_request(ok, &verb, &seq, &a, &t), 0);
	CHECK_INT(verb, PROTO_RUN);
	const char *bad_timing[] = {" 10,500,0.005,1.5,1,1", "10,500,0.005,1.5,1,1,", "10,500,0.005,1.5,1",
				    "10,+500,0.005,1.5,1,1", "10,500,0x1,1.5,1,1", "10,500,0.005,1.5,2,1",
				    "10,5,0.005,1.5,1,1", "0,5,0.005,1.5,1,1", "10,500,0,1.5,1,1",
				    "10,500,0.005,1.5,1,-1", "10,500,0.005,1.5,1, 1"};
	for (size_t k = 0; k < sizeof bad_timing / sizeof *bad_timing; k++) {
		char line[256];
		snprintf(line, sizeof line, "RUN\t1\tx\tv\tf32\t1\t0\t1\t-\t%s\n", bad_timing[k]);
		CHECK_INT(proto_parse_request(line, &verb, &seq, &a, &t), -1);
	}
	char bad_seed[] = "RUN\t1\tx\tv\tf32\t1\t0\t18446744073709551616\t-\t-\n";
	CHECK_INT(proto_parse_request(bad_seed, &verb, &seq, &a, &t), -1);
	char bad_n[] = "RUN\t1\tx\tv\tf32\t-1\t0\t1\t-\t-\n";
	CHECK_INT(proto_parse_request(bad_n, &verb, &seq, &a, &t), -1);
}

int main(void)
{
	test_numbers();

	char line[PROTO_LINE_MAX];

	struct gpu_info g = {.index = 1, .cc_major = 9, .cc_minor = 0, .sm_count = 132,
			     .memory_bytes = 85029158912LL, .driver_version = 13000, .runtime_version = 13000};
	strcpy(g.name, "NVIDIA H100\t80GB");
	strcpy(g.uuid, "GPU-1234");
	CHECK_INT(proto_format_hello(line, sizeof line, &g), 0);
	struct gpu_info h;
	char reason[256];
	CHECK_INT(proto_parse_hello(line, &h, reason, sizeof reason), 1);
	CHECK_STR(h.name, "NVIDIA H100 80GB");
	CHECK_STR(h.uuid, "GPU-1234");
	CHECK_INT(h.sm_count, 132);
	CHECK_INT(h.memory_bytes, 85029158912LL);
	CHECK_INT(h.cc_major, 9);

	CHECK_INT(proto_format_nodev(line, sizeof line, "no CUDA device:\nnone"), 0);
	CHECK_INT(proto_parse_hello(line, &h, reason, sizeof reason), 0);
	CHECK_STR(reason, "no CUDA device: none");
	CHECK_INT(proto_parse_hello("HELLO\t1\tx\n", &h, reason, sizeof reason), -1);

	struct case_spec c;
	memset(&c, 0, sizeof c);
	strcpy(c.name, "block.tree.sum.f32.b256");
	strcpy(c.variant, "block.tree");
	c.dtype = DTYPE_I32;
	c.n = 100003;
	strcpy(c.params, "block=256,op=sum");
	CHECK_INT(proto_format_run(line, sizeof line, 7, &c, 18446744073709551615ull, NULL), 0);
	unsigned seq;
	struct case_args a;
	struct timing_request tr;
	enum proto_verb verb;
	CHECK_INT(proto_parse_request(line, &verb, &seq, &a, &tr), 0);
	CHECK_INT(verb, PROTO_RUN);
	CHECK(a.timing == NULL);
	CHECK_INT(seq, 7);
	CHECK_STR(a.name, "block.tree.sum.f32.b256");
	CHECK_STR(a.variant, "block.tree");
	CHECK_INT(a.dtype, DTYPE_I32);
	CHECK_INT(a.n, 100003);
	CHECK(a.seed == 18446744073709551615ull);
	CHECK_STR(a.params, "block=256,op=sum");

	c.params[0] = '\0'; /* empty params travel as "-" and come back empty */
	struct timing_request want = {.min_samples = 10, .max_samples = 500, .max_noise = 0.005,
				      .max_time_s = 1.5, .hot = 1, .energy = 1};
	CHECK_INT(proto_format_run(line, sizeof line, 8, &c, 1, &want), 0);
	CHECK_INT(proto_parse_request(line, &verb, &seq, &a, &tr), 0);
	CHECK_INT(verb, PROTO_RUN);
	CHECK_STR(a.params, "");
	CHECK(a.timing == &tr);
	CHECK_INT(tr.min_samples, 10);
	CHECK_INT(tr.max_samples, 500);
	CHECK_NEAR(tr.max_noise, 0.005, 1e-15);
	CHECK_NEAR(tr.max_time_s, 1.5, 1e-15);
	CHECK_INT(tr.hot, 1);
	CHECK_INT(tr.energy, 1);
	want.energy = 0;
	CHECK_INT(proto_format_run(line, sizeof line, 8, &c, 1, &want), 0);
	CHECK_INT(proto_parse_request(line, &verb, &seq, &a, &tr), 0);
	CHECK_INT(tr.energy, 0);
	/* BUILD carries the same case and seed, never timed, and is told
	 * apart from RUN by its verb alone. */
	CHECK_INT(proto_format_build(line, sizeof line, 9, &c, 3), 0);
	CHECK_INT(proto_parse_request(line, &verb, &seq, &a, &tr), 0);
	CHECK_INT(verb, PROTO_BUILD);
	CHECK_INT(seq, 9);
	CHECK(a.seed == 3 && a.timing == NULL);
	char bad[] = "RUN\t1\tx\tv\tf99\t1\t0\t1\t-\t-\n";
	CHECK_INT(proto_parse_request(bad, &verb, &seq, &a, &tr), -1);
	char bad_timing[] = "RUN\t1\tx\tv\tf32\t1\t0\t1\t-\t0,5,0.1,1,0,1\n";
	CHECK_INT(proto_parse_request(bad_timing, &verb, &seq, &a, &tr), -1);
	char no_energy_flag[] = "RUN\t1\tx\tv\tf32\t1\t0\t1\t-\t1,5,0.1,1,0\n";
	CHECK_INT(proto_parse_request(no_energy_flag, &verb, &seq, &a, &tr), -1);
	char energy_2[] = "RUN\t1\tx\tv\tf32\t1\t0\t1\t-\t1,5,0.1,1,0,2\n";
	CHECK_INT(proto_parse_request(energy_2, &verb, &seq, &a, &tr), -1);
	char short_line[] = "RUN\t1\tx\n";
	CHECK_INT(proto_parse_request(short_line, &verb, &seq, &a, &tr), -1);

	struct case_result r = {.outcome = OUTCOME_WRONG, .fatal = 1, .err_norm = 0.25, .kernel_ms = 1.5,
				.tol_checked = 1, .err_ratio = 1.93,
				.timing = {.samples = 12, .median_ms = 0.125, .mean_ms = 0.13, .stddev_ms = 0.001,
					   .min_ms = 0.12, .noise = 0.0077, .ci_low_ms = 0.124,
					   .ci_high_ms = 0.126, .spread = 0.008, .noise_met = 1, .throttled = 2,
					   .timer = TIMER_CUPTI, .bytes = 4294967296.0, .clock_start_mhz = 1980, .clock_end_mhz = 1755,
					   .result_spread = -1,
					   .energy = {.joules = 0.0421, .watts = 437.5, .watts_sampled = 440.1,
						      .uncertainty = 0.013, .window_s = 0.301, .burst_s = 0.52,
						      .launches = 5461, .sm_mhz = 1980, .mem_mhz = 3201,
						      .reasons_known = 1, .reasons = 4}}};
	strcpy(r.message, "2 of 8 wrong:\n[1] got 3\twant 4");
	CHECK_INT(proto_format_done(line, sizeof line, 9, &r), 0);
	CHECK(strchr(line, '\n') == line + strlen(line) - 1); /* one line */
	struct case_result q;
	CHECK_INT(proto_parse_done(line, &seq, &q), 0);
	CHECK_INT(seq, 9);
	CHECK_INT(q.outcome, OUTCOME_WRONG);
	CHECK_INT(q.fatal, 1);
	CHECK_NEAR(q.err_norm, 0.25, 1e-12);
	CHECK_INT(q.tol_checked, 1);
	CHECK_NEAR(q.err_ratio, 1.93, 1e-12);
	CHECK_STR(q.message, "2 of 8 wrong: [1] got 3 want 4");
	CHECK_INT(q.timing.samples, 12);
	CHECK_NEAR(q.timing.median_ms, 0.125, 1e-12);
	CHECK_NEAR(q.timing.noise, 0.0077, 1e-12);
	CHECK_NEAR(q.timing.ci_low_ms, 0.124, 1e-12);
	CHECK_NEAR(q.timing.ci_high_ms, 0.126, 1e-12);
	CHECK_NEAR(q.timing.spread, 0.008, 1e-12);
	CHECK_INT(q.timing.noise_met, 1);
	CHECK_INT(q.timing.throttled, 2);
	CHECK_INT(q.timing.timer, TIMER_CUPTI);
	CHECK_NEAR(q.timing.bytes, 4294967296.0, 0.5);
	CHECK_INT(q.timing.clock_end_mhz, 1755);
	CHECK_NEAR(q.timing.result_spread, -1, 0);
	CHECK_NEAR(q.timing.energy.joules, 0.0421, 1e-12);
	CHECK_NEAR(q.timing.energy.watts, 437.5, 1e-12);
	CHECK_NEAR(q.timing.energy.watts_sampled, 440.1, 1e-12);
	CHECK_NEAR(q.timing.energy.uncertainty, 0.013, 1e-12);
	CHECK_NEAR(q.timing.energy.window_s, 0.301, 1e-12);
	CHECK_NEAR(q.timing.energy.burst_s, 0.52, 1e-12);
	CHECK_INT(q.timing.energy.launches, 5461);
	CHECK_INT(q.timing.energy.sm_mhz, 1980);
	CHECK_INT(q.timing.energy.mem_mhz, 3201);
	CHECK_INT(q.timing.energy.reasons_known, 1);
	CHECK_INT(q.timing.energy.reasons, 4);
	/* A figure no measurement gives (a broken worker) reads as not
	 * measured, the rest of the result as sent: an energy per launch too
	 * large takes its uncertainty and window along. */
	r.timing.energy.joules = 1e300;
	r.timing.energy.watts_sampled = 0.5;
	r.timing.energy.sm_mhz = 200000;
	CHECK_INT(proto_format_done(line, sizeof line, 9, &r), 0);
	CHECK_INT(proto_parse_done(line, &seq, &q), 0);
	CHECK(!energy_measured(&q.timing.energy));
	CHECK(q.timing.energy.uncertainty == 0 && q.timing.energy.window_s == 0);
	CHECK(q.timing.energy.watts_sampled == 0 && q.timing.energy.sm_mhz == 0);
	CHECK_NEAR(q.timing.energy.watts, 437.5, 1e-12);
	CHECK_INT(q.timing.energy.mem_mhz, 3201);
	CHECK_NEAR(q.timing.median_ms, 0.125, 1e-12);
	CHECK_INT(q.outcome, OUTCOME_WRONG);
	r.timing.energy.joules = 1e-300;
	CHECK_INT(proto_format_done(line, sizeof line, 9, &r), 0);
	CHECK_INT(proto_parse_done(line, &seq, &q), 0);
	CHECK(!energy_measured(&q.timing.energy));
	CHECK_INT(proto_parse_done("DONE\t1\tbogus\t0\t0\t0\tx", &seq, &q), -1);
	CHECK_INT(proto_parse_done("DONE\t1\thung\t0\t0\t0", &seq, &q), -1);

	/* A variant's run() may report a skip itself (a toolkit feature it
	 * lacks): the outcome and the reason cross the pipe as they are. */
	struct case_result skip = {.outcome = OUTCOME_SKIPPED, .err_norm = -1};
	strcpy(skip.message, "cub::WarpReduceBatched: not in this toolkit (CUDA 13.0)");
	CHECK_INT(proto_format_done(line, sizeof line, 10, &skip), 0);
	CHECK_INT(proto_parse_done(line, &seq, &q), 0);
	/* Nothing measured crosses as nothing: no energy, reasons not read. */
	CHECK(!energy_measured(&q.timing.energy));
	CHECK_INT(q.timing.energy.reasons_known, 0);
	/* No ratio (tol_checked 0, whatever err_ratio holds) crosses as none. */
	CHECK_INT(q.tol_checked, 0);
	CHECK_NEAR(q.err_ratio, -1, 0);
	CHECK_INT(q.outcome, OUTCOME_SKIPPED);
	CHECK_STR(q.message, "cub::WarpReduceBatched: not in this toolkit (CUDA 13.0)");

	/* Control bytes from a worker come out of the parsers as '?'. */
	CHECK_INT(proto_parse_hello("NODEV\tno \x1b[31mdevice\x07\n", &h, reason, sizeof reason), 0);
	CHECK_STR(reason, "no ?[31mdevice?");
	CHECK_INT(proto_parse_hello("HELLO\t0\tH100\x1b[8m\tGPU-\x9b\t9\t0\t132\t1\t2\t3\n", &h, reason,
				    sizeof reason), 1);
	CHECK_STR(h.name, "H100?[8m");
	CHECK_STR(h.uuid, "GPU-?");
	CHECK_INT(proto_parse_done("DONE\t3\tcompleted-correct\t0\t0\t-1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t-\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t-\t"
				   "\x1b]0;title\x07ok \xc2\xb1 \xc2\x9b" "1m\n", &seq, &q), 0);
	CHECK_STR(q.message, "?]0;title?ok \xc2\xb1 ?1m");

	/* A line longer than the protocol allows is refused, not read cut
	 * short; a message longer than a result holds is cut, and made
	 * printable after the cut, which here splits a character. */
	char *long_line = malloc(PROTO_LINE_MAX + 64);
	strcpy(long_line, "DONE\t3\tcompleted-correct\t0\t0\t-1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t-\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t-\t");
	size_t at = strlen(long_line);
	memset(long_line + at, 'm', PROTO_LINE_MAX - at);
	strcpy(long_line + PROTO_LINE_MAX - 1, "\n");
	CHECK_INT(proto_parse_done(long_line, &seq, &q), -1);
	strcpy(long_line + at + RESULT_MESSAGE_MAX - 2, "\xc2\xb1\n");
	CHECK_INT(proto_parse_done(long_line, &seq, &q), 0);
	CHECK_INT(strlen(q.message), RESULT_MESSAGE_MAX - 1);
	CHECK_INT(q.message[RESULT_MESSAGE_MAX - 2], '?');
	free(long_line);

	/* A message too long for a line is refused, never truncated silently. */
	char tiny[32];
	CHECK_INT(proto_format_done(tiny, sizeof tiny, 9, &r), -1);
	return TEST_END();
}
