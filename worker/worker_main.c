/*
 * worker_main.c - conform-worker: runs cases for conform, the only program
 * of the project that talks to CUDA.
 *
 *   conform-worker --catalog      print the variant catalog and exit
 *   conform-worker --device N     greet (HELLO/NODEV), then run RUN (and
 *                                 BUILD) lines from stdin until end of input
 *   conform-worker --compile-for SM
 *                                 a compile-only worker: greet NODEV, then
 *                                 answer BUILD lines by compiling the user
 *                                 kernel's configuration for sm_SM into the
 *                                 cache (user_compile.h); it never touches
 *                                 CUDA, so it needs no GPU and makes no
 *                                 context (conform's compile pool runs several)
 *   --exact-buffers               device buffers without guard zones, for
 *                                 compute-sanitizer's memcheck (gpu.h)
 *   --kernel FILE (either mode, repeatable) adds a user's kernel file to the
 *   catalog as user.NAME (kernel_file.h); a file that cannot be read is an
 *   "error" record of the catalog (exit 2), so conform says why in one line.
 *
 * The protocol goes to a private duplicate of stdout; stdout itself is
 * pointed at stderr so that kernel printf or library chatter can never
 * corrupt a protocol line (conform shows the worker's stderr with -v, and
 * sends it to /dev/null otherwise).  After a fatal (sticky) CUDA error the worker
 * reports the case and exits: its context is unusable.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/catalog_wire.h"
#include "common/num.h"
#include "common/proto.h"
#include "common/text.h"
#include "worker/kernel_file.h"
#include "worker/user_compile.h"
#include "worker/variant.h"
#ifdef HAVE_CUDA
#include "worker/gpu.h"
#endif

#define NO_KERNELS_REASON \
	"conform was built without CUDA (nvcc not found or --without-cuda): no kernels are built"

/* "f32,i32": the names of a DTYPE_BIT() set.  Returns -1 if they do not
 * fit. */
static int dtype_list(unsigned set, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int d = 0; d < DTYPE_COUNT; d++) {
		if (!(set & DTYPE_BIT(d)))
			continue;
		int k = snprintf(buf + n, len - n, "%s%s", n ? "," : "", dtype_name((enum dtype)d));
		if (k < 0 || (size_t)k >= len - n)
			return -1;
		n += (size_t)k;
	}
	return 0;
}

/* One derived text of v (variant_contract, _tunables, _space), allocated
 * as long as it needs: a kernel file's twelve tunables may each take a
 * directive's worth.  NULL when out of memory or when it passes what a
 * catalog line can carry. */
static char *derived_text(int (*derive)(const struct variant *, char *, size_t),
			  const struct variant *v)
{
	for (size_t len = 1024; len <= CATALOG_WIRE_LINE_MAX; len *= 2) {
		char *buf = malloc(len);
		if (!buf || derive(v, buf, len) == 0)
			return buf;
		free(buf);
	}
	return NULL;
}

/* Writes one formatted catalog line (or says why there is none). */
static int catalog_emit(FILE *out, char *line, const char *what, const char *err)
{
	if (!line) {
		fprintf(stderr, "conform-worker: catalog: %s: %s\n", what, err);
		return -1;
	}
	int rc = fputs(line, out) == EOF ? -1 : 0;
	free(line);
	return rc;
}

/* Prints the catalog in the format of catalog_wire.h.  A variant the
 * format cannot carry whole fails the listing rather than being cut. */
static int catalog_print(FILE *out)
{
	char err[256];
	struct catalog_build b = {.has_kernels = catalog_has_kernels(), .archs = catalog_cuda_archs()};
	if (catalog_emit(out, catalog_wire_format_build(&b, err, sizeof err), "build", err) < 0)
		return -1;
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct variant *v = catalog_at(i);
		char dtypes[64];
		if (dtype_list(v->dtypes, dtypes, sizeof dtypes) < 0) {
			fprintf(stderr, "conform-worker: catalog: %s: too many dtypes\n", v->name);
			return -1;
		}
		char *contract = derived_text(variant_contract, v);
		char *tunables = derived_text(variant_tunables, v);
		char *space = derived_text(variant_space, v);
		if (!contract || !tunables || !space) {
			fprintf(stderr, "conform-worker: catalog: %s: a derived text is longer than a "
				"catalog line\n", v->name);
			free(contract);
			free(tunables);
			free(space);
			return -1;
		}
		struct catalog_entry e = {.name = v->name, .gpu = v->gpu, .dtypes = dtypes,
					  .summary = v->summary, .contract = contract,
					  .tunables = tunables, .space = space};
		const struct kernel_file *k = kernel_file_of(v);
		char timeout[32] = "";
		if (k) {
			e.kind = kernel_kind_name(k->kind);
			e.source = k->sha256;
			e.path = k->path;
			e.expect = k->expect;
			e.requires = k->requires;
			if (k->timeout_s > 0)
				snprintf(timeout, sizeof timeout, "%.9g", k->timeout_s);
			e.timeout = timeout;
			if (k->kind != KERNEL_REDUCE)
				e.huge_cols = variant_huge_cols(v);
		}
		if (v->refs) {
			e.copy = v->refs->copy;
			e.copy_n = v->refs->copy_n;
			e.baseline = v->refs->baseline;
			e.baseline_rows = v->refs->baseline_rows;
		}
		int rc = catalog_emit(out, catalog_wire_format_variant(&e, err, sizeof err), v->name, err);
		free(contract);
		free(tunables);
		free(space);
		if (rc < 0)
			return -1;
	}
	return fflush(out) == EOF ? -1 : 0;
}

static int write_line(FILE *proto, const char *line)
{
	if (fputs(line, proto) == EOF || fflush(proto) == EOF)
		return -1;
	return 0;
}

/* Runs one case (or, for BUILD, makes it ready): contract check first,
 * then the variant. */
static void run_case(enum proto_verb verb, const struct case_args *a, int has_gpu, const char *nodev,
		     struct case_result *r)
{
	const struct variant *v = catalog_find(a->variant);
	if (!v) {
		case_result_set(r, OUTCOME_INVALID, "unknown variant '%s'", a->variant);
		return;
	}
	const struct kernel_file *k = kernel_file_of(v);
	if (k && k->changed[0]) {
		case_result_set(r, OUTCOME_ERROR, "%s", k->changed);
		return;
	}
	if ((v->gpu && !has_gpu) || !v->run) {
		case_result_set(r, OUTCOME_SKIPPED, "%s", has_gpu ? "no kernels are built" : nodev);
		return;
	}
	if (verb == PROTO_BUILD) {
		if (v->build)
			v->build(a, r);
		else
			case_result_set(r, OUTCOME_CORRECT, "nothing to build");
		return;
	}
	if (!(v->dtypes & DTYPE_BIT(a->dtype))) {
		case_result_set(r, OUTCOME_INVALID, "%s does not support dtype %s", v->name,
				dtype_name(a->dtype));
		return;
	}
	char msg[RESULT_MESSAGE_MAX];
	if (v->check(a, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "launch contract violated: %s", msg);
		return;
	}
	double t0 = text_now();
	v->run(a, r);
	r->kernel_ms = (text_now() - t0) * 1e3;
}

/* A compile-only worker's answer to a request: a BUILD compiles into the
 * cache, nothing runs.  uc keeps NVRTC open for the worker's life. */
static void compile_case(struct user_compiler *uc, enum proto_verb verb, const struct case_args *a,
			 int sm, struct case_result *r)
{
	const struct variant *v = catalog_find(a->variant);

	if (!v) {
		case_result_set(r, OUTCOME_INVALID, "unknown variant '%s'", a->variant);
		return;
	}
	if (verb != PROTO_BUILD) {
		case_result_set(r, OUTCOME_INVALID, "a compile-only worker runs no case");
		return;
	}
	user_compile_case(uc, v, a, sm, r);
	/* -v says what each compile did, as the case's own worker does; a
	 * refusal or an error is the case's to say. */
	if (r->outcome == OUTCOME_CORRECT)
		user_compile_tell(a, r, " (ahead of its case)");
}

/* Reads a --kernel file and adds its variant.  `source` is the SHA-256
 * conform's catalog read (NULL: none given); a file that differs now is
 * still listed, but its cases are refused (run_case).  Returns 0, or -1
 * with a message.  The kernel_file lives as long as the process. */
static int add_kernel(const char *path, const char *source, char *err, size_t len)
{
	struct kernel_file *k = malloc(sizeof *k);
#ifdef HAVE_CUDA
	const struct kernel_ops *ops = &user_kernel_ops;
#else
	const struct kernel_ops *ops = NULL; /* listed, then SKIPPED: no kernels */
#endif
	if (!k) {
		snprintf(err, len, "%s: out of memory", path);
		return -1;
	}
	if (kernel_file_load(k, path, ops, err, len) < 0) {
		free(k);
		return -1;
	}
	if (source && strcmp(source, k->sha256) != 0)
		snprintf(k->changed, sizeof k->changed, "%s changed since this run read it (SHA-256 %.12s "
			 "then, %.12s now): its cases would run another source", path, source, k->sha256);
	if (catalog_add(&k->variant) < 0) {
		/* catalog_count() holds the built-in variants too: ask for the
		 * name instead. */
		const struct kernel_file *other = kernel_file_of(catalog_find(k->name));
		if (other)
			snprintf(err, len, "%s: %s is already taken by another kernel file, %.1024s (give one an @name)",
				 path, k->name, other->path);
		else
			snprintf(err, len, "%s: %s is one kernel file too many (at most %d)", path, k->name,
				 CATALOG_ADDED_MAX);
		kernel_file_free(k);
		free(k);
		return -1;
	}
	return 0;
}

/*
 * CONFORM_TEST_DEVICES=N, on a machine without a GPU: the worker greets as
 * device `device` of N pretend devices ("conform test device D", a uuid of
 * its own), or, past the N-th, says there is no such device; a GPU
 * variant is still refused here (the worker has no GPU), the host-side
 * harness kernels run.  So the tests can spread a run over several
 * devices where CI has none.  CONFORM_TEST_SM=90 gives them that
 * architecture (else none, 0), so that conform compiles the kernel files'
 * configurations for it ahead of their cases (compile_pool.h), which the
 * workers then skip.  Returns 0 (line replaced or left), or -1 after a
 * message when N or the architecture is malformed.
 */
static int pretend_device(int device, char *line, size_t len)
{
	const char *env = getenv("CONFORM_TEST_DEVICES");
	long long n;
	if (!env || !*env)
		return 0;
	if (num_parse_int(env, 1, 64, &n) < 0) {
		fprintf(stderr, "conform-worker: CONFORM_TEST_DEVICES='%s': expected 1 to 64\n", env);
		return -1;
	}
	if (device >= n) {
		char why[128];
		snprintf(why, sizeof why, "CONFORM_TEST_DEVICES: device %d of %lld pretend devices", device, n);
		proto_format_nodev(line, len, why);
		return 0;
	}
	struct gpu_info g;
	memset(&g, 0, sizeof g);
	g.index = device;
	g.count = (int)n;
	snprintf(g.name, sizeof g.name, "conform test device %d", device);
	snprintf(g.uuid, sizeof g.uuid, "GPU-00000000-0000-0000-0000-%012d", device);
	g.memory_bytes = 1LL << 30;
	const char *sm = getenv("CONFORM_TEST_SM");
	long long cc;
	if (sm && *sm) {
		if (num_parse_int(sm, 10, 10000, &cc) < 0) {
			fprintf(stderr, "conform-worker: CONFORM_TEST_SM='%s': expected an architecture (90)\n", sm);
			return -1;
		}
		g.cc_major = (int)(cc / 10);
		g.cc_minor = (int)(cc % 10);
	}
	return proto_format_hello(line, len, &g) < 0 ? -1 : 0;
}

/*
 * CONFORM_TEST_START_S=SECONDS, on a machine without a GPU: the worker
 * greets that long after it starts, as a GPU's CUDA start makes it (a few
 * tenths of a second), so that the tests see what conform does meanwhile.
 * Returns 0, or -1 after a message when SECONDS is malformed.
 */
static int slow_start(void)
{
	const char *env = getenv("CONFORM_TEST_START_S");
	double s;
	if (!env || !*env)
		return 0;
	if (num_parse_decimal(env, &s) < 0 || !(s >= 0 && s <= 60)) {
		fprintf(stderr, "conform-worker: CONFORM_TEST_START_S='%s': expected 0 to 60 seconds\n", env);
		return -1;
	}
	usleep((useconds_t)(s * 1e6));
	return 0;
}

int main(int argc, char **argv)
{
	int device = 0, catalog = 0, compile_sm = 0;
	struct user_compiler compiler; /* a compile-only worker's NVRTC */
	memset(&compiler, 0, sizeof compiler);
	char err[2048];
	for (int i = 1; i < argc; i++)
		catalog |= strcmp(argv[i], "--catalog") == 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--catalog") == 0) {
			continue;
		} else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) {
			const char *path = argv[++i], *source = NULL;
			if (i + 2 < argc && strcmp(argv[i + 1], "--source") == 0) {
				source = argv[i + 2];
				i += 2;
			}
			if (add_kernel(path, source, err, sizeof err) == 0)
				continue;
			if (!catalog) {
				fprintf(stderr, "conform-worker: %s\n", err);
				return 2;
			}
			/* conform reads why from the catalog itself. */
			char *line = catalog_wire_format_error(err);
			if (line)
				fputs(line, stdout);
			free(line);
			return 2;
		} else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
			long long d;
			if (num_parse_int(argv[++i], 0, INT_MAX, &d) < 0) {
				fprintf(stderr, "conform-worker: --device '%s': not a device ordinal\n", argv[i]);
				return 2;
			}
			device = (int)d;
		} else if (strcmp(argv[i], "--compile-for") == 0 && i + 1 < argc) {
			long long sm;
			if (num_parse_int(argv[++i], 10, 10000, &sm) < 0) {
				fprintf(stderr, "conform-worker: --compile-for '%s': not an architecture (90 for sm_90)\n",
					argv[i]);
				return 2;
			}
			compile_sm = (int)sm;
		} else if (strcmp(argv[i], "--exact-buffers") == 0) {
			/* Under compute-sanitizer's memcheck (conform run
			 * --sanitize memcheck): see audit.cuh. */
#ifdef HAVE_CUDA
			gpu_exact_buffers();
#endif
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("conform-worker %s\n", PACKAGE_VERSION);
			return 0;
		} else {
			fprintf(stderr, "conform-worker: unknown argument '%s' (it is started by conform)\n", argv[i]);
			return 2;
		}
	}
	if (catalog)
		return catalog_print(stdout) < 0 ? 1 : 0;

	int proto_fd = dup(STDOUT_FILENO);
	FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : NULL;
	if (!proto || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		fprintf(stderr, "conform-worker: cannot set up the protocol stream\n");
		return 2;
	}
	/* A kernel's printf reaches stdout when the CUDA runtime
	 * synchronises; line by line, so that a worker the watchdog kills
	 * later has already written what the earlier launches printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	char line[PROTO_LINE_MAX];
	char nodev[512];
	int has_gpu = 0;
	if (compile_sm) {
		/* No device is asked anything: the architecture is given. */
		snprintf(nodev, sizeof nodev, "a compile-only worker (sm_%d)", compile_sm);
		proto_format_nodev(line, sizeof line, nodev);
	} else {
#ifdef HAVE_CUDA
		struct gpu_info g;
		if (gpu_describe(device, &g, err, sizeof err) == 0) {
			has_gpu = 1;
			proto_format_hello(line, sizeof line, &g);
		} else {
			text_copy(nodev, sizeof nodev, err);
			proto_format_nodev(line, sizeof line, nodev);
		}
#else
		text_copy(nodev, sizeof nodev, NO_KERNELS_REASON);
		proto_format_nodev(line, sizeof line, nodev);
#endif
		if (!has_gpu && pretend_device(device, line, sizeof line) < 0)
			return 2;
		if (!has_gpu && slow_start() < 0)
			return 2;
	}
	if (write_line(proto, line) < 0)
		return 1;

	while (fgets(line, sizeof line, stdin)) {
		unsigned seq;
		struct case_args a;
		struct timing_request t;
		struct case_result r;
		memset(&r, 0, sizeof r);
		r.err_norm = -1;
		enum proto_verb verb;
		if (proto_parse_request(line, &verb, &seq, &a, &t) < 0) {
			fprintf(stderr, "conform-worker: malformed request\n");
			return 2;
		}
		/* CONFORM_TEST_SLOW=VARIANT times that variant's launches
		 * twice over: a deliberate regression, to try a gate with. */
		const char *slow = getenv("CONFORM_TEST_SLOW");
		t.slowdown = slow && strcmp(slow, a.variant) == 0 ? 2 : 1;
		/* CONFORM_ENERGY_TRACE=FILE appends every energy burst's NVML
		 * readings to FILE (energy.h's trace), the raw data behind a figure. */
		t.energy_trace = getenv("CONFORM_ENERGY_TRACE");
		if (compile_sm)
			compile_case(&compiler, verb, &a, compile_sm, &r);
		else
			run_case(verb, &a, has_gpu, nodev, &r);
		/* What the case printed comes before conform hears it ended
		 * (-v shows both on one stream), a last unfinished line too. */
		fflush(stdout);
		char out[PROTO_LINE_MAX];
		if (proto_format_done(out, sizeof out, seq, &r) < 0 || write_line(proto, out) < 0)
			return 1;
		if (r.fatal)
			return 3;
	}
	return 0;
}
