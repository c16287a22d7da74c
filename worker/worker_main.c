/*
 * worker_main.c - conform-worker: runs cases for conform, the only program
 * of the project that talks to CUDA.
 *
 *   conform-worker --catalog      print the variant catalog and exit
 *   conform-worker --device N     greet (HELLO/NODEV), then run RUN lines
 *                                 from stdin until end of input
 *
 * The protocol goes to a private duplicate of stdout; stdout itself is
 * pointed at stderr so that kernel printf or library chatter can never
 * corrupt a protocol line.  After a fatal (sticky) CUDA error the worker
 * reports the case and exits: its context is unusable.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto.h"
#include "text.h"
#include "variant.h"
#ifdef HAVE_CUDA
#include "gpu.h"
#endif

#define NO_KERNELS_REASON \
	"conform was built without CUDA (nvcc not found or --without-cuda): no kernels are built"

static void catalog_print(void)
{
	printf("build\t%s\t%s\n", catalog_has_kernels() ? "kernels" : "no-kernels", catalog_cuda_archs());
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct variant *v = catalog_at(i);
		char dtypes[64] = "";
		for (int d = 0; d < DTYPE_COUNT; d++) {
			if (!(v->dtypes & DTYPE_BIT(d)))
				continue;
			if (dtypes[0])
				strcat(dtypes, ",");
			strcat(dtypes, dtype_name((enum dtype)d));
		}
		char contract[2048], tunables[1024], space[1024];
		variant_contract(v, contract, sizeof contract);
		variant_tunables(v, tunables, sizeof tunables);
		variant_space(v, space, sizeof space);
		printf("variant\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", v->name, v->gpu, dtypes, v->summary,
		       contract, tunables[0] ? tunables : "-", space[0] ? space : "-");
	}
}

static int write_line(FILE *proto, const char *line)
{
	if (fputs(line, proto) == EOF || fflush(proto) == EOF)
		return -1;
	return 0;
}

/* Runs one case: contract check first, then the variant. */
static void run_case(const struct case_args *a, int has_gpu, const char *nodev,
		     struct case_result *r)
{
	const struct variant *v = catalog_find(a->variant);
	if (!v) {
		case_result_set(r, OUTCOME_INVALID, "unknown variant '%s'", a->variant);
		return;
	}
	if (v->gpu && !has_gpu) {
		case_result_set(r, OUTCOME_SKIPPED, "%s", nodev);
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

int main(int argc, char **argv)
{
	int device = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--catalog") == 0) {
			catalog_print();
			return 0;
		} else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
			device = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("conform-worker %s\n", PACKAGE_VERSION);
			return 0;
		} else {
			fprintf(stderr, "conform-worker: unknown argument '%s' (it is started by conform)\n", argv[i]);
			return 2;
		}
	}

	int proto_fd = dup(STDOUT_FILENO);
	FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : NULL;
	if (!proto || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		fprintf(stderr, "conform-worker: cannot set up the protocol stream\n");
		return 2;
	}

	char line[PROTO_LINE_MAX];
	char nodev[512];
	int has_gpu = 0;
#ifdef HAVE_CUDA
	struct gpu_info g;
	char err[512];
	if (gpu_describe(device, &g, err, sizeof err) == 0) {
		has_gpu = 1;
		proto_format_hello(line, sizeof line, &g);
	} else {
		text_copy(nodev, sizeof nodev, err);
		proto_format_nodev(line, sizeof line, nodev);
	}
#else
	(void)device;
	text_copy(nodev, sizeof nodev, NO_KERNELS_REASON);
	proto_format_nodev(line, sizeof line, nodev);
#endif
	if (write_line(proto, line) < 0)
		return 1;

	while (fgets(line, sizeof line, stdin)) {
		unsigned seq;
		struct case_args a;
		struct timing_request t;
		struct case_result r;
		memset(&r, 0, sizeof r);
		r.err_norm = -1;
		if (proto_parse_run(line, &seq, &a, &t) < 0) {
			fprintf(stderr, "conform-worker: malformed request\n");
			return 2;
		}
		run_case(&a, has_gpu, nodev, &r);
		char out[PROTO_LINE_MAX];
		if (proto_format_done(out, sizeof out, seq, &r) < 0 || write_line(proto, out) < 0)
			return 1;
		if (r.fatal)
			return 3;
	}
	return 0;
}
