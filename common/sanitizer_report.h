/*
 * sanitizer_report.h - what NVIDIA compute-sanitizer said about a run, read
 * from the text it writes with --log-file: the problems it found (memcheck,
 * racecheck, synccheck, initcheck), how many it counted, and whether the
 * tool itself failed, so that a case's message can say it in one line.
 *
 * The parser reads the tool's human-readable log (every line of which starts
 * "========= "), not its XML: the log is what a user reads beside conform's
 * verdict, and both name the same thing.  It keeps these invariants:
 *  - Any bytes are accepted: NULs, control bytes, CRLF, lines of any length,
 *    a log cut short.  Every string in a report is terminated and holds
 *    printable ASCII only (other bytes became '?'); nothing is allocated.
 *  - The tool's own count (ERROR SUMMARY, RACECHECK SUMMARY) is the total
 *    when the log has one; a log without one is a failed or cut-short run
 *    (tool_failed), though the findings read before the end are kept.
 *  - "Program hit cudaError... on CUDA API call to X" is the consequence of
 *    a finding, not one of its own: it counts toward the total, as it does in
 *    the tool's ERROR SUMMARY, but becomes a finding only when nothing else
 *    was found.  Backtraces (Host Frame, Device Frame) are skipped.
 */
#ifndef CONFORM_SANITIZER_REPORT_H
#define CONFORM_SANITIZER_REPORT_H

#include <stddef.h>

/* The findings kept whole; the others are only counted. */
#define SANITIZER_FINDINGS_MAX 8

enum sanitizer_tool {
	SANITIZER_NONE,
	SANITIZER_MEMCHECK,
	SANITIZER_RACECHECK,
	SANITIZER_SYNCCHECK,
	SANITIZER_INITCHECK,
};
#define SANITIZER_TOOL_COUNT 5

/* The tool's name as --tool spells it ("memcheck"; "none" for
 * SANITIZER_NONE), or "?" for a value out of range. */
const char *sanitizer_tool_name(enum sanitizer_tool t);

/* The tool that word names ("none" included): 0, or -1 when it names none. */
int sanitizer_tool_parse(const char *word, enum sanitizer_tool *out);

/* One problem the tool reported.  A string the report did not give is "". */
struct sanitizer_finding {
	/* What went wrong, as the tool's first line says it, without its
	 * "Error: "/"Warning: ": "Invalid __global__ write of size 4 bytes",
	 * "Race reported between Read access and Write access", "Barrier error
	 * detected. Divergent thread(s) in warp", "Uninitialized __global__
	 * memory read of size 4 bytes", "Potential WAW hazard". */
	char kind[160];
	/* The function the report names: the kernel, or the device function
	 * it called, without its parameter list and return type
	 * ("full_reduce_sum<256, 1024>", "cub::...::ThreadLoad<...>"). */
	char kernel[128];
	char thread[48];        /* "(32,0,0)" */
	char block[48];         /* "(0,0,0)" */
	/* Where in memory, or the other side of a race: "address 0x7f2a4c000204
	 * is out of bounds, 1 bytes after the nearest allocation at
	 * 0x7f2a4c000200 of size 4 bytes", "address 0x100 is out of bounds",
	 * "Read access at missing_sync_race.cu:62 and Write access at
	 * missing_sync_race.cu:78", "__shared__ 0xf4". */
	char where[200];
	char source[128];       /* "writes_past_out.cu:41" when it has line info */
	int hazards;            /* racecheck's "[8 hazards]", summed over its lines */
	int warning;            /* 1 when the tool called it a warning, not an error */
};

struct sanitizer_report {
	/* Problems reported in all: the tool's summary lines (errors and
	 * warnings) when the log has them, else those read, "Program hit"
	 * lines included.  Never fewer than nfindings. */
	int findings_total;
	int warnings;           /* of those, the ones racecheck called warnings */
	int nfindings;          /* kept in f, at most SANITIZER_FINDINGS_MAX */
	struct sanitizer_finding f[SANITIZER_FINDINGS_MAX];
	/* The run under the tool did not finish as a check: the log is empty
	 * or is not compute-sanitizer's, the tool said "Error: ..." of itself
	 * ("Target application terminated before first instrumented API
	 * call"), or the log ends before its summary.  The findings read
	 * before that are still in f. */
	int tool_failed;
	char tool_error[256];   /* why, when tool_failed */
};

/* Reads len bytes of a compute-sanitizer log into *rep (all of it set).
 * Returns 0, or -1 when rep->tool_failed. */
int sanitizer_report_parse(const char *text, size_t len, struct sanitizer_report *rep);

/* One line for a case's message, in out (len bytes, always terminated when
 * len > 0, cut to fit, printable ASCII):
 *   "memcheck: Invalid __global__ write of size 4 bytes in writes_past_out
 *    at thread (0,0,0) block (0,0,0): address 0x... is 1 bytes after the
 *    nearest allocation at 0x... of size 4 bytes (writes_past_out.cu:41);
 *    1 more error"
 * the first finding, how many more, and the tool's failure if it failed;
 * "memcheck: no errors" for a clean log.  t names the tool in front
 * ("compute-sanitizer" for SANITIZER_NONE). */
void sanitizer_report_summary(const struct sanitizer_report *rep, enum sanitizer_tool t, char *out,
			      size_t len);

#endif
