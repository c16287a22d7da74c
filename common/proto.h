/*
 * proto.h - the line protocol between conform and its workers.
 *
 * conform writes to the worker's stdin and reads its protocol fd (the
 * worker's original stdout; the worker moves everything else it or CUDA
 * might print to stderr).  Every message is one line of tab-separated fields:
 *
 *   worker -> conform  HELLO  index name uuid cc_major cc_minor sms memory driver runtime count
 *   worker -> conform  NODEV  reason
 *   conform -> worker  RUN    seq name variant dtype n cols seed params timing
 *   conform -> worker  BUILD  seq name variant dtype n cols seed params -
 *                      (answered by a DONE, as RUN is)
 *   worker -> conform  DONE   seq outcome fatal err_norm err_ratio kernel_ms samples median_ms
 *                             mean_ms stddev_ms min_ms noise ci_low_ms ci_high_ms spread
 *                             noise_met throttled timer bytes clock_start clock_end
 *                             result_spread joules watts watts_sampled energy_uncertainty
 *                             energy_window_s burst_s launches sm_mhz mem_mhz reasons
 *                             message
 *
 * Free text (names, reasons, messages) is made one-line before sending,
 * and what conform reads from a worker (HELLO, NODEV, DONE) comes out of
 * the parsers made printable (text_sanitize): no control byte a worker
 * sends reaches a terminal or the database.
 * BUILD asks the worker to make a case ready without running it (compile
 * a user's kernel: variant.h's build()), so that conform can give that step
 * a deadline of its own; its DONE has outcome correct when the case can
 * run, with a note ("cache hit", "compiled in 0.84 s"), else the outcome
 * and message the case ends with.  A compile-only worker
 * (conform-worker --compile-for SM) greets with NODEV and answers BUILD
 * alone, by compiling into the cache for the architecture it was given.  A line is at most
 * PROTO_LINE_MAX bytes, newline and terminator included; the parsers refuse
 * a longer one.
 * An empty params string travels as "-", and so does an untimed case's
 * timing (else "min_samples,max_samples,max_noise,max_time_s,hot,energy").
 * err_ratio is -1 when the result has none (case_result.tol_checked).
 * The timing fields are struct timing_stats' (timing.h), all 0 untimed;
 * noise_met is a flag (0 or 1), throttled a count and timer a word
 * (timing_timer_name: "cupti", "events", "host", "-" untimed).  The
 * energy fields are struct energy_stats' (energy.h), 0 when not measured;
 * reasons is NVML's bit mask in decimal, "-" when not read.
 */
#ifndef CONFORM_PROTO_H
#define CONFORM_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "common/case.h"
#include "common/gpu_info.h"

#define PROTO_LINE_MAX 4096

int proto_format_hello(char *buf, size_t len, const struct gpu_info *g);
int proto_format_nodev(char *buf, size_t len, const char *reason);
/* Parses HELLO or NODEV: returns 1 (GPU described in g), 0 (no GPU; reason
 * filled) or -1 (not a greeting). */
int proto_parse_hello(const char *line, struct gpu_info *g, char *reason, size_t len);

int proto_format_run(char *buf, size_t len, unsigned seq, const struct case_spec *c, uint64_t seed,
		     const struct timing_request *t);
int proto_format_build(char *buf, size_t len, unsigned seq, const struct case_spec *c, uint64_t seed);

enum proto_verb { PROTO_RUN, PROTO_BUILD };
/* Splits a RUN or BUILD line in place, saying which in *verb; the strings
 * of `a` point into `line`, and a->timing points to t when the case is
 * timed. */
int proto_parse_request(char *line, enum proto_verb *verb, unsigned *seq, struct case_args *a,
			struct timing_request *t);

int proto_format_done(char *buf, size_t len, unsigned seq, const struct case_result *r);
int proto_parse_done(const char *line, unsigned *seq, struct case_result *r);

#endif
