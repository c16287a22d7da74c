/*
 * test_sanitizer_report.c - compute-sanitizer logs read into findings and
 * said in one line: the four tools' reports in each format the tool has
 * written, its failures, logs cut short, CRLF, NULs, lines of any length,
 * and random bytes.
 *
 * The logs live in $srcdir/tests/data/sanitizer (srcdir is set by
 * automake's test driver; "." when run by hand from the source tree); the
 * README there says which were recorded on a GPU and which were composed
 * from the documented formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"
#include "common/sanitizer_report.h"
#include "tests/test.h"

/* The log tests/data/sanitizer/name, read whole (malloc'd), or NULL after
 * a failed check. */
static char *fixture_read(const char *name, size_t *size)
{
	const char *srcdir = getenv("srcdir");
	char path[512], err[600];
	char *data = NULL;
	snprintf(path, sizeof path, "%s/tests/data/sanitizer/%s", srcdir && *srcdir ? srcdir : ".", name);
	int rc = file_read_bounded(path, 1 << 20, &data, size, err, sizeof err);
	CHECK_INT(rc, 0);
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	return rc == 0 ? data : NULL;
}

/* Parses the fixture name into *rep; returns what the parse returned. */
static int parse_fixture(const char *name, struct sanitizer_report *rep)
{
	size_t size = 0;
	char *data = fixture_read(name, &size);
	int rc = sanitizer_report_parse(data ? data : "", data ? size : 0, rep);
	free(data);
	return rc;
}

/* The one-line summary of rep, in a buffer large enough for any. */
static const char *summary(const struct sanitizer_report *rep, enum sanitizer_tool t)
{
	static char buf[1024];
	sanitizer_report_summary(rep, t, buf, sizeof buf);
	return buf;
}

static void test_tool_names(void)
{
	enum sanitizer_tool t = SANITIZER_NONE;
	CHECK_STR(sanitizer_tool_name(SANITIZER_RACECHECK), "racecheck");
	CHECK_STR(sanitizer_tool_name(SANITIZER_NONE), "none");
	CHECK_STR(sanitizer_tool_name((enum sanitizer_tool)99), "?");
	CHECK_INT(sanitizer_tool_parse("initcheck", &t), 0);
	CHECK_INT(t, SANITIZER_INITCHECK);
	CHECK_INT(sanitizer_tool_parse("synccheck", &t), 0);
	CHECK_INT(t, SANITIZER_SYNCCHECK);
	CHECK_INT(sanitizer_tool_parse("memchek", &t), -1);
	CHECK_INT(sanitizer_tool_parse("", &t), -1);
	CHECK_INT(t, SANITIZER_SYNCCHECK); /* left alone on failure */
}

/* Recorded on an H200 (compute-sanitizer 2025.3.1): the mutant that drops
 * the barrier between the warps' stores and warp 0's loads. */
static void test_racecheck_recorded(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("racecheck_missing_sync.txt", &rep), 0);
	CHECK_INT(rep.tool_failed, 0);
	CHECK_STR(rep.tool_error, "");
	CHECK_INT(rep.findings_total, 1);
	CHECK_INT(rep.warnings, 0);
	CHECK_INT(rep.nfindings, 1);
	const struct sanitizer_finding *f = &rep.f[0];
	CHECK_STR(f->kind, "Race reported between Read access and Write access");
	CHECK_STR(f->kernel, "missing_sync_race");
	CHECK_STR(f->source, "missing_sync_race.cu:62");
	CHECK_STR(f->where, "Read access at missing_sync_race.cu:62 and Write access at missing_sync_race.cu:78");
	CHECK_STR(f->thread, "");
	CHECK_STR(f->block, "");
	CHECK_INT(f->hazards, 8);
	CHECK_INT(f->warning, 0);
	CHECK_STR(summary(&rep, SANITIZER_RACECHECK),
		  "racecheck: Race reported between Read access and Write access in missing_sync_race: "
		  "Read access at missing_sync_race.cu:62 and Write access at missing_sync_race.cu:78, 8 hazards");
}

/* Recorded: a run with nothing to report, and one whose program never
 * called CUDA (the tool had nothing to check). */
static void test_clean_and_tool_failure(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("clean.txt", &rep), 0);
	CHECK_INT(rep.tool_failed, 0);
	CHECK_INT(rep.findings_total, 0);
	CHECK_INT(rep.nfindings, 0);
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK), "memcheck: no errors");
	CHECK_STR(summary(&rep, SANITIZER_NONE), "compute-sanitizer: no errors");

	CHECK_INT(parse_fixture("no_cuda_call.txt", &rep), -1);
	CHECK_INT(rep.tool_failed, 1);
	CHECK_STR(rep.tool_error, "Target application terminated before first instrumented API call");
	CHECK_INT(rep.findings_total, 0);
	CHECK_INT(rep.nfindings, 0);
	CHECK_STR(summary(&rep, SANITIZER_INITCHECK),
		  "initcheck: the tool failed: Target application terminated before first instrumented API call");
}

/* memcheck with line info: two threads' writes past a one-element output,
 * then the launch failure they caused, which counts but is no finding. */
static void test_memcheck_lineinfo(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("memcheck_writes_past_out.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 3);
	CHECK_INT(rep.nfindings, 2);
	const struct sanitizer_finding *f = &rep.f[0];
	CHECK_STR(f->kind, "Invalid __global__ write of size 4 bytes");
	CHECK_STR(f->kernel, "writes_past_out");
	CHECK_STR(f->source, "writes_past_out.cu:50");
	CHECK_STR(f->thread, "(0,0,0)");
	CHECK_STR(f->block, "(0,0,0)");
	CHECK_STR(f->where, "address 0x7f2a4c000204 is out of bounds, 0 bytes after the nearest allocation at "
			    "0x7f2a4c000200 of size 4 bytes");
	CHECK_INT(f->hazards, 0);
	CHECK_STR(rep.f[1].thread, "(1,0,0)");
	CHECK_STR(rep.f[1].where, "address 0x7f2a4c000208 is out of bounds, 4 bytes after the nearest allocation "
				  "at 0x7f2a4c000200 of size 4 bytes");
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK),
		  "memcheck: Invalid __global__ write of size 4 bytes in writes_past_out at thread (0,0,0) "
		  "block (0,0,0): address 0x7f2a4c000204 is out of bounds, 0 bytes after the nearest allocation "
		  "at 0x7f2a4c000200 of size 4 bytes (writes_past_out.cu:50); 2 more errors");

	/* Past --print-limit the tool says how many it did not print, in a
	 * second ERROR SUMMARY line that is no total of its own. */
	CHECK_INT(parse_fixture("memcheck_print_limit.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 33);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].source, "writes_past_out.cu:50");
	CHECK_CONTAINS(summary(&rep, SANITIZER_MEMCHECK), "(writes_past_out.cu:50); 32 more errors");
}

/* Without line info (no -lineinfo): no source, the kernel still named; the
 * newer "Access to" wording of the address. */
static void test_memcheck_no_lineinfo(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("memcheck_no_lineinfo.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 1);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].kernel, "writes_before_out");
	CHECK_STR(rep.f[0].source, "");
	CHECK_STR(rep.f[0].where, "access to 0x7f2a4c0001fc is out of bounds, 4 bytes before the nearest "
				  "allocation at 0x7f2a4c000200 of size 4 bytes");
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK),
		  "memcheck: Invalid __global__ write of size 4 bytes in writes_before_out at thread (0,0,0) "
		  "block (0,0,0): access to 0x7f2a4c0001fc is out of bounds, 4 bytes before the nearest "
		  "allocation at 0x7f2a4c000200 of size 4 bytes");
}

/* Demangled template names keep their template arguments, not their
 * parameters or return type; a shared-memory address is where. */
static void test_template_names(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("memcheck_template.txt", &rep), 0);
	CHECK_INT(rep.nfindings, 2);
	CHECK_STR(rep.f[0].kernel, "full_reduce_sum<256, 1024>");
	CHECK_STR(rep.f[0].source, "x.cu:55");
	CHECK_STR(rep.f[0].thread, "(255,0,0)");
	CHECK_STR(rep.f[0].block, "(1023,0,0)");
	CHECK_CONTAINS(rep.f[0].where, "of size 4,194,303 bytes");
	const struct sanitizer_finding *f = &rep.f[1];
	CHECK_STR(f->kind, "Invalid __shared__ write of size 4 bytes");
	CHECK_STR(f->where, "address 0x100 is out of bounds");
	CHECK_STR(f->source, "block_store.cuh:980");
	/* "(int)64" in the template arguments is not a parameter list. */
	CHECK(strncmp(f->kernel, "cub::CUB_200500_600_700_800_NS::BlockStore<float, (int)64, (int)1, ", 67) == 0);
	CHECK(strstr(f->kernel, "(T1") == NULL);
	CHECK_INT(strlen(f->kernel), sizeof f->kernel - 1); /* cut to fit */

	/* The return type in front goes too, however it is spelled. */
	CHECK_INT(parse_fixture("initcheck_uninit.txt", &rep), 0);
	CHECK_STR(rep.f[1].kernel, "cub::CUB_200500_600_700_800_NS::ThreadLoad<(cub::CUB_200500_600_700_800_NS::"
				   "CacheLoadModifier)2, const unsigned long long *>");
	CHECK_STR(rep.f[1].source, "thread_load.cuh:260"); /* not the Device Frame's */
}

/* Recorded on an H200 (compute-sanitizer 2025.3.1), in the "Access to ...
 * and is N bytes after" wording: sixteen threads of a one-element output
 * written past it.  The tool printed 16 of 38 and said so in a second ERROR
 * SUMMARY line, which is not counted again. */
static void test_h200_memcheck_writes_past_out(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("h200_memcheck_writes_past_out.txt", &rep), 0);
	CHECK_INT(rep.tool_failed, 0);
	CHECK_STR(rep.tool_error, "");
	CHECK_INT(rep.findings_total, 38);
	CHECK_INT(rep.warnings, 0);
	CHECK_INT(rep.nfindings, SANITIZER_FINDINGS_MAX);
	const struct sanitizer_finding *f = &rep.f[0];
	CHECK_STR(f->kind, "Invalid __global__ write of size 4 bytes");
	CHECK_STR(f->kernel, "writes_past_out");
	CHECK_STR(f->thread, "(0,0,0)");
	CHECK_STR(f->block, "(0,0,0)");
	CHECK_STR(f->where, "access to 0x7f5cdca00204 is out of bounds, 1 bytes after the nearest allocation at "
			    "0x7f5cdca00200 of size 4 bytes");
	CHECK_STR(f->source, "writes_past_out.cu:50");
	CHECK_INT(f->hazards, 0);
	CHECK_INT(f->warning, 0);
	/* The last one kept is the eighth thread, four bytes further each. */
	f = &rep.f[SANITIZER_FINDINGS_MAX - 1];
	CHECK_STR(f->thread, "(7,0,0)");
	CHECK_STR(f->block, "(0,0,0)");
	CHECK_STR(f->where, "access to 0x7f5cdca00220 is out of bounds, 29 bytes after the nearest allocation at "
			    "0x7f5cdca00200 of size 4 bytes");
	CHECK_STR(f->source, "writes_past_out.cu:50");
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK),
		  "memcheck: Invalid __global__ write of size 4 bytes in writes_past_out at thread (0,0,0) "
		  "block (0,0,0): access to 0x7f5cdca00204 is out of bounds, 1 bytes after the nearest "
		  "allocation at 0x7f5cdca00200 of size 4 bytes (writes_past_out.cu:50); 37 more errors");
}

/* Recorded on an H200: the cooperative full reduce, a template kernel,
 * writing one float per block past its 132-byte workspace (33 floats) from
 * block 33 on.  106 errors, 90 of them not printed. */
static void test_h200_memcheck_coop_workspace(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("h200_memcheck_coop_workspace.txt", &rep), 0);
	CHECK_INT(rep.tool_failed, 0);
	CHECK_STR(rep.tool_error, "");
	CHECK_INT(rep.findings_total, 106);
	CHECK_INT(rep.warnings, 0);
	CHECK_INT(rep.nfindings, SANITIZER_FINDINGS_MAX);
	const struct sanitizer_finding *f = &rep.f[0];
	CHECK_STR(f->kind, "Invalid __global__ write of size 4 bytes");
	/* The template arguments kept with their casts, the parameters and
	 * the return type gone. */
	CHECK_STR(f->kernel, "full_reduce_sum<(unsigned long)256, (unsigned long)1024>");
	CHECK_STR(f->thread, "(0,0,0)");
	CHECK_STR(f->block, "(33,0,0)");
	CHECK_STR(f->where, "access to 0x7f9000a06684 is out of bounds, 1 bytes after the nearest allocation at "
			    "0x7f9000a06600 of size 132 bytes");
	CHECK_STR(f->source, "full_reduce_sum.cu:166");
	CHECK_INT(f->hazards, 0);
	/* In the order the tool printed them, not by block. */
	CHECK_STR(rep.f[1].block, "(48,0,0)");
	CHECK_STR(rep.f[1].where, "access to 0x7f9000a066c0 is out of bounds, 61 bytes after the nearest "
				  "allocation at 0x7f9000a06600 of size 132 bytes");
	CHECK_STR(rep.f[SANITIZER_FINDINGS_MAX - 1].block, "(96,0,0)");
	CHECK_STR(rep.f[SANITIZER_FINDINGS_MAX - 1].kernel,
		  "full_reduce_sum<(unsigned long)256, (unsigned long)1024>");
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK),
		  "memcheck: Invalid __global__ write of size 4 bytes in full_reduce_sum<(unsigned long)256, "
		  "(unsigned long)1024> at thread (0,0,0) block (33,0,0): access to 0x7f9000a06684 is out of "
		  "bounds, 1 bytes after the nearest allocation at 0x7f9000a06600 of size 132 bytes "
		  "(full_reduce_sum.cu:166); 105 more errors");
}

/* Recorded on an H200: racecheck on a block reduce without its barrier,
 * the same race reported twice, each of 56 hazards: two findings, not
 * merged, and the RACECHECK SUMMARY's errors and warnings the total. */
static void test_h200_racecheck_missing_sync(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("h200_racecheck_missing_sync.txt", &rep), 0);
	CHECK_INT(rep.tool_failed, 0);
	CHECK_STR(rep.tool_error, "");
	CHECK_INT(rep.findings_total, 2);
	CHECK_INT(rep.warnings, 0);
	CHECK_INT(rep.nfindings, 2);
	for (int i = 0; i < 2; i++) {
		const struct sanitizer_finding *f = &rep.f[i];
		CHECK_STR(f->kind, "Race reported between Write access and Read access");
		CHECK_STR(f->kernel, "missing_sync");
		CHECK_STR(f->source, "missing_sync.cu:68");
		CHECK_STR(f->where, "Write access at missing_sync.cu:68 and Read access at missing_sync.cu:72");
		CHECK_STR(f->thread, "");
		CHECK_STR(f->block, "");
		CHECK_INT(f->hazards, 56);
		CHECK_INT(f->warning, 0);
	}
	CHECK_STR(summary(&rep, SANITIZER_RACECHECK),
		  "racecheck: Race reported between Write access and Read access in missing_sync: "
		  "Write access at missing_sync.cu:68 and Read access at missing_sync.cu:72, 56 hazards; "
		  "1 more error");
}

/* Recorded on an H200: initcheck finding nothing. */
static void test_h200_initcheck_clean(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("h200_initcheck_clean.txt", &rep), 0);
	CHECK_INT(rep.tool_failed, 0);
	CHECK_STR(rep.tool_error, "");
	CHECK_INT(rep.findings_total, 0);
	CHECK_INT(rep.warnings, 0);
	CHECK_INT(rep.nfindings, 0);
	CHECK_STR(rep.f[0].kind, "");
	CHECK_STR(summary(&rep, SANITIZER_INITCHECK), "initcheck: no errors");
}

/* The format before 2023: "at 0xc8 in file:line:function". */
static void test_old_format(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("memcheck_old_format.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 2);
	CHECK_INT(rep.nfindings, 2);
	CHECK_STR(rep.f[0].kind, "Invalid __global__ read of size 8 bytes");
	CHECK_STR(rep.f[0].kernel, "vector_projection<double>");
	CHECK_STR(rep.f[0].source, "my_helper.cuh:75");
	CHECK_STR(rep.f[0].thread, "(9,0,0)");
	CHECK_STR(rep.f[0].where, "address 0x000370e8 is out of bounds");
	CHECK_STR(rep.f[1].kernel, "cudf::_GLOBAL__N__56_tmpxft_000007d8_00000000_13_null_mask_compute_80_cpp1_ii_"
				   "049ed517::count_set_bits_kernel<int=256>");
	CHECK_STR(rep.f[1].source, "");

	CHECK_INT(parse_fixture("synccheck_invalid_args.txt", &rep), 0);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].kind, "Barrier error detected. Invalid arguments");
	CHECK_STR(rep.f[0].kernel, "__cuda_sm70_warpsync");
	CHECK_STR(rep.f[0].source, "");
	CHECK_STR(rep.f[0].thread, "(0,30,0)");
}

/* A race racecheck calls a warning, with two read sides; and the older
 * hazard report (--racecheck-report hazard) of a shared-memory race. */
static void test_racecheck_forms(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("racecheck_warning.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 1);
	CHECK_INT(rep.warnings, 1);
	CHECK_INT(rep.nfindings, 1);
	const struct sanitizer_finding *f = &rep.f[0];
	CHECK_STR(f->kind, "Race reported between Write access and Read access");
	CHECK_INT(f->warning, 1);
	CHECK_INT(f->hazards, 32);
	CHECK_STR(f->kernel, "block_tree_sum<float>");
	CHECK_STR(f->source, "tree.cu:31");
	CHECK_STR(f->where, "Write access at tree.cu:31 and Read access at tree.cu:36");
	CHECK_STR(summary(&rep, SANITIZER_RACECHECK),
		  "racecheck: Race reported between Write access and Read access (a warning) in "
		  "block_tree_sum<float>: Write access at tree.cu:31 and Read access at tree.cu:36, 32 hazards");

	CHECK_INT(parse_fixture("racecheck_hazard.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 1);
	CHECK_INT(rep.nfindings, 1);
	f = &rep.f[0];
	CHECK_STR(f->kind, "Potential WAW hazard");
	CHECK_INT(f->warning, 0);
	CHECK_STR(f->where, "__shared__ 0x0");
	CHECK_STR(f->block, "(0,0,0)");
	CHECK_STR(f->thread, "(31,0,0)");
	CHECK_STR(f->kernel, "missing_sync_sum");
	CHECK_STR(f->source, "missing_sync.cu:44");
}

static void test_synccheck_initcheck(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("synccheck_divergent.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 2);
	CHECK_INT(rep.nfindings, 2);
	CHECK_STR(rep.f[0].kind, "Barrier error detected. Divergent thread(s) in warp");
	CHECK_STR(rep.f[0].kernel, "subwarp_barrier");
	CHECK_STR(rep.f[0].source, "subwarp_barrier.cu:71");
	CHECK_STR(rep.f[0].thread, "(32,0,0)");
	CHECK_STR(rep.f[1].thread, "(33,0,0)");
	CHECK_STR(rep.f[0].where, "");
	CHECK_STR(summary(&rep, SANITIZER_SYNCCHECK),
		  "synccheck: Barrier error detected. Divergent thread(s) in warp in subwarp_barrier at thread "
		  "(32,0,0) block (0,0,0) (subwarp_barrier.cu:71); 1 more error");

	CHECK_INT(parse_fixture("initcheck_uninit.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 2);
	CHECK_STR(rep.f[0].kind, "Uninitialized __global__ memory read of size 4 bytes");
	CHECK_STR(rep.f[0].kernel, "atomic_uninit_out");
	CHECK_STR(rep.f[0].source, "atomic_uninit_out.cu:38");
	CHECK_STR(rep.f[0].block, "(3,0,0)");
	CHECK_STR(rep.f[0].where, "address 0x7fdff7200000");
}

/* A launch that failed before any kernel ran: the API error is all there
 * is, so it is the finding. */
static void test_program_hit_alone(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("program_hit_only.txt", &rep), 0);
	CHECK_INT(rep.findings_total, 1);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].kind, "Program hit cudaErrorInvalidConfiguration (error 9) due to \"invalid "
				 "configuration argument\" on CUDA API call to cudaLaunchKernel.");
	CHECK_STR(rep.f[0].kernel, "");
}

/* A log cut in the middle of its second report (the run killed): both
 * findings kept, the cut one as far as it went, and the tool failed. */
static void test_truncated(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("memcheck_truncated.txt", &rep), -1);
	CHECK_INT(rep.tool_failed, 1);
	CHECK_STR(rep.tool_error, "the log ends before compute-sanitizer's summary");
	CHECK_INT(rep.findings_total, 2);
	CHECK_INT(rep.nfindings, 2);
	CHECK_STR(rep.f[0].kind, "Invalid __shared__ write of size 4 bytes");
	CHECK_STR(rep.f[0].where, "address 0x180 is out of bounds");
	CHECK_STR(rep.f[0].block, "(2,0,0)");
	CHECK_STR(rep.f[1].thread, "(96,0,0)");
	CHECK_STR(rep.f[1].block, "");
	CHECK_STR(rep.f[1].source, "npot_block_tree.cu:40");
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK),
		  "memcheck: Invalid __shared__ write of size 4 bytes in npot_block_tree at thread (95,0,0) block "
		  "(2,0,0): address 0x180 is out of bounds (npot_block_tree.cu:40); 1 more error; the tool failed: "
		  "the log ends before compute-sanitizer's summary");
}

/* What is not a compute-sanitizer log, or says nothing. */
static void test_not_a_log(void)
{
	struct sanitizer_report rep;
	const char *other = "compute-sanitizer: command not found\n";
	CHECK_INT(sanitizer_report_parse(other, strlen(other), &rep), -1);
	CHECK_STR(rep.tool_error, "not a compute-sanitizer log: compute-sanitizer: command not found");
	CHECK_INT(sanitizer_report_parse("", 0, &rep), -1);
	CHECK_STR(rep.tool_error, "the log is empty");
	CHECK_INT(sanitizer_report_parse(NULL, 10, &rep), -1);
	CHECK_STR(rep.tool_error, "the log is empty");

	/* The tool's "Error:" about itself fails the check even beside a
	 * clean summary: what it checked is not the whole run. */
	const char *err = "========= COMPUTE-SANITIZER\n"
			  "========= Error: process didn't terminate successfully\n"
			  "========= ERROR SUMMARY: 0 errors\n";
	CHECK_INT(sanitizer_report_parse(err, strlen(err), &rep), -1);
	CHECK_INT(rep.findings_total, 0);
	CHECK_STR(rep.tool_error, "process didn't terminate successfully");
	CHECK_STR(summary(&rep, SANITIZER_MEMCHECK),
		  "memcheck: the tool failed: process didn't terminate successfully");

	/* A head this file does not list is a finding when its details
	 * place it, and only then. */
	const char *unknown = "========= COMPUTE-SANITIZER\n"
			      "========= Lane User Stack Overflow\n"
			      "=========     at deep_recursion+0x40 in deep.cu:9\n"
			      "=========     by thread (7,0,0) in block (1,0,0)\n"
			      "=========\n"
			      "========= Note: something the tool wanted said\n"
			      "=========     Saved host backtrace up to driver entry point at error\n"
			      "========= ERROR SUMMARY: 1 error\n";
	CHECK_INT(sanitizer_report_parse(unknown, strlen(unknown), &rep), 0);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].kind, "Lane User Stack Overflow");
	CHECK_STR(rep.f[0].kernel, "deep_recursion");
	CHECK_STR(rep.f[0].source, "deep.cu:9");
}

/* The recorded racecheck log with CRLF line ends, NULs and control bytes
 * in it, and a kernel name of 100 kB: the same findings, all printable. */
static void test_hostile_bytes(void)
{
	struct sanitizer_report plain, rep;
	size_t size = 0;
	char *data = fixture_read("racecheck_missing_sync.txt", &size);
	if (!data)
		return;
	sanitizer_report_parse(data, size, &plain);

	char *crlf = malloc(2 * size + 1);
	size_t n = 0;
	for (size_t i = 0; i < size; i++) {
		if (data[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = data[i];
	}
	CHECK_INT(sanitizer_report_parse(crlf, n, &rep), 0);
	CHECK_INT(memcmp(&rep, &plain, sizeof rep), 0);
	free(crlf);

	/* A NUL is a byte like any other: the text goes on after it. */
	const char nul[] = "========= COMPUTE-SANITIZER\n"
			   "========= Invalid __global__ write of size 4 bytes\n"
			   "=========     at k\0\x1b[2J+0x10 in a\x7f.cu:3\n"
			   "=========     by thread (1,0,0) in block (0,0,0)\n"
			   "========= ERROR SUMMARY: 1 error\n";
	CHECK_INT(sanitizer_report_parse(nul, sizeof nul - 1, &rep), 0);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].kernel, "k??[2J");
	CHECK_STR(rep.f[0].source, "a?.cu:3");
	CHECK_STR(rep.f[0].thread, "(1,0,0)");

	/* A line of 100 kB: its start and end are read, its middle not. */
	size_t big = 100000;
	char *huge = malloc(big + 512);
	n = (size_t)sprintf(huge, "========= COMPUTE-SANITIZER\n========= Invalid __global__ read of size 4 "
				  "bytes\n=========     at void huge_kernel<");
	for (size_t i = 0; i < big; i++)
		huge[n++] = i % 2 ? ',' : '1';
	n += (size_t)sprintf(huge + n, ">(float *, int)+0x70 in /tmp/huge.cu:12\n=========     by thread "
				       "(4,0,0) in block (5,0,0)\n========= ERROR SUMMARY: 1 error\n");
	CHECK_INT(sanitizer_report_parse(huge, n, &rep), 0);
	CHECK_INT(rep.nfindings, 1);
	CHECK_STR(rep.f[0].source, "huge.cu:12");
	CHECK_STR(rep.f[0].thread, "(4,0,0)");
	CHECK(strncmp(rep.f[0].kernel, "huge_kernel<1,1,1,", 18) == 0);
	CHECK(strchr(rep.f[0].kernel, '(') == NULL);
	free(huge);
	free(data);
}

/* Every string of rep terminated within its array and printable ASCII. */
static int report_is_clean(const struct sanitizer_report *rep)
{
	if (rep->nfindings < 0 || rep->nfindings > SANITIZER_FINDINGS_MAX || rep->findings_total < rep->nfindings)
		return 0;
	const char *fields[SANITIZER_FINDINGS_MAX * 6 + 1];
	size_t sizes[SANITIZER_FINDINGS_MAX * 6 + 1], k = 0;
	fields[k] = rep->tool_error, sizes[k++] = sizeof rep->tool_error;
	for (int i = 0; i < SANITIZER_FINDINGS_MAX; i++) {
		const struct sanitizer_finding *f = &rep->f[i];
		fields[k] = f->kind, sizes[k++] = sizeof f->kind;
		fields[k] = f->kernel, sizes[k++] = sizeof f->kernel;
		fields[k] = f->thread, sizes[k++] = sizeof f->thread;
		fields[k] = f->block, sizes[k++] = sizeof f->block;
		fields[k] = f->where, sizes[k++] = sizeof f->where;
		fields[k] = f->source, sizes[k++] = sizeof f->source;
	}
	for (size_t i = 0; i < k; i++) {
		size_t n = strnlen(fields[i], sizes[i]);
		if (n == sizes[i])
			return 0;
		for (size_t j = 0; j < n; j++)
			if (fields[i][j] < ' ' || fields[i][j] > '~')
				return 0;
	}
	return 1;
}

/* A small generator of its own, so the bytes are the same on every run. */
static unsigned next_random(unsigned long long *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(*state >> 33);
}

/* Random bytes, and the fixtures with bytes flipped, lines cut and the
 * prefix sprinkled in: never a crash, always a clean report and summary
 * (valgrind and ASan watch the reads). */
static void test_garbage(void)
{
	static const char *const names[] = {
		"racecheck_missing_sync.txt", "memcheck_writes_past_out.txt", "memcheck_template.txt",
		"racecheck_warning.txt", "racecheck_hazard.txt", "memcheck_old_format.txt",
	};
	unsigned long long state = 12345;
	struct sanitizer_report rep;
	char line[200];
	int clean = 1, found = 0;
	for (int round = 0; round < 3000; round++) {
		size_t size = 0, n;
		char *buf;
		if (round % 2 == 0) {
			n = next_random(&state) % 3000;
			buf = malloc(n + 1);
			for (size_t i = 0; i < n; i++) {
				unsigned r = next_random(&state);
				buf[i] = r % 7 == 0 ? '\n' : (char)(r >> 8);
				if (r % 13 == 0 && i + 10 < n) {
					memcpy(buf + i, r % 3 ? "=========" : "=========  ", r % 3 ? 9 : 11);
					i += 8;
				}
			}
		} else {
			buf = fixture_read(names[next_random(&state) % 6], &size);
			if (!buf)
				return;
			n = next_random(&state) % (size + 1);
			for (int k = 0; k < 8 && n > 0; k++)
				buf[next_random(&state) % n] = (char)next_random(&state);
		}
		sanitizer_report_parse(buf, n, &rep);
		clean &= report_is_clean(&rep);
		found += rep.nfindings;
		sanitizer_report_summary(&rep, (enum sanitizer_tool)(round % 7), line, sizeof line);
		clean &= strnlen(line, sizeof line) < sizeof line;
		free(buf);
	}
	CHECK(clean);
	CHECK(found > 1000); /* the mutated logs still reach the findings */
}

/* The summary never writes past its buffer, however small, and is always
 * terminated; cut, it is the start of the whole line. */
static void test_summary_bounds(void)
{
	struct sanitizer_report rep;
	CHECK_INT(parse_fixture("memcheck_writes_past_out.txt", &rep), 0);
	char whole[1024];
	sanitizer_report_summary(&rep, SANITIZER_MEMCHECK, whole, sizeof whole);
	CHECK(strlen(whole) > 100);
	for (size_t len = 0; len < 40; len++) {
		char buf[48];
		memset(buf, '#', sizeof buf);
		sanitizer_report_summary(&rep, SANITIZER_MEMCHECK, buf, len);
		for (size_t i = len; i < sizeof buf; i++)
			CHECK(buf[i] == '#');
		if (len > 0) {
			CHECK_INT(strlen(buf), len - 1);
			CHECK(strncmp(buf, whole, len - 1) == 0);
		}
	}
	char tiny[12];
	sanitizer_report_summary(&rep, SANITIZER_MEMCHECK, tiny, sizeof tiny);
	CHECK_STR(tiny, "memcheck: I");

	/* A report filled by hand, its strings unterminated and not
	 * printable: read within their arrays, said in printable ASCII. */
	memset(&rep, 'x', sizeof rep);
	rep.nfindings = 1;
	rep.findings_total = 1;
	rep.warnings = 0;
	rep.tool_failed = 0;
	rep.f[0].hazards = 0;
	rep.f[0].warning = 0;
	rep.f[0].kind[0] = '\x1b';
	sanitizer_report_summary(&rep, SANITIZER_MEMCHECK, whole, sizeof whole);
	CHECK(strncmp(whole, "memcheck: ?xxx", 14) == 0);
	CHECK(strlen(whole) < sizeof whole);
	for (const char *c = whole; *c; c++)
		if (*c < ' ' || *c > '~') {
			CHECK(!"summary holds a byte that is not printable ASCII");
			break;
		}
}

int main(void)
{
	test_tool_names();
	test_racecheck_recorded();
	test_clean_and_tool_failure();
	test_memcheck_lineinfo();
	test_memcheck_no_lineinfo();
	test_template_names();
	test_h200_memcheck_writes_past_out();
	test_h200_memcheck_coop_workspace();
	test_h200_racecheck_missing_sync();
	test_h200_initcheck_clean();
	test_old_format();
	test_racecheck_forms();
	test_synccheck_initcheck();
	test_program_hit_alone();
	test_truncated();
	test_not_a_log();
	test_hostile_bytes();
	test_garbage();
	test_summary_bounds();
	return TEST_END();
}
