/*
 * test_nvrtc_headers.c - the headers conform gives NVRTC in memory
 * (worker/nvrtc_headers.c).  Each compiles on its own; and
 * tests/data/headers_all.cu, which includes every header docs/kernels.md's
 * "Headers" lists and uses every macro and std:: name it promises, must
 * compile through conform's build (the prelude, the options, the headers)
 * without a warning, as it is and with its #include lines in the reverse
 * order (cub, cooperative groups and libcu++ first, the shims after them),
 * and with nvcc where configure found one: a kernel nvcc compiles compiles
 * unchanged under conform.  So does tests/data/headers_implicit.cu, which
 * includes nothing and uses what nvcc's implicit includes give.
 *
 * Needs no GPU; skipped (77) where NVRTC or the toolkit's headers are not
 * found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"
#include "tests/test.h"
#include "worker/kernel_file.h"
#include "worker/nvrtc_headers.h"
#include "worker/user_build.h"

static struct kernel_file k; /* large: not on the stack */

/* text with its lines that begin with "#include" in the reverse order,
 * each where one of them stood; malloc'd. */
static char *includes_reversed(const char *text)
{
	size_t n = strlen(text), count = 0;
	const char *line[256];
	size_t len[256];
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (strncmp(p, "#include", 8) == 0 && count < 256) {
			line[count] = p;
			len[count++] = strcspn(p, "\n");
		}
	size_t o = 0, next = count;
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");
		if (strncmp(p, "#include", 8) == 0 && next > 0) {
			next--;
			memcpy(out + o, line[next], len[next]);
			o += len[next];
		} else {
			memcpy(out + o, p, l);
			o += l;
		}
		p += l;
		if (*p == '\n')
			out[o++] = *p++;
	}
	out[o] = '\0';
	return out;
}

/* Compiles text (called origin) through user_build: 0 when it compiled
 * without a word from the compiler. */
static int build(const struct nvrtc *lib, const char *inc, const char *origin, const char *text)
{
	char err[4096], msg[RESULT_MESSAGE_MAX];
	struct user_built b;

	if (kernel_file_parse(&k, origin, text, strlen(text), NULL, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	const struct user_config c = {.k = &k, .dtype = DTYPE_F32, .op = OP_SUM, .values = NULL, .sm = 90,
				      .include_dir = inc};
	int rc = user_build(lib, &c, &b, msg, sizeof msg);
	kernel_file_free(&k);
	if (rc != 0 || msg[0])
		fprintf(stderr, "%s: %s\n", origin, msg);
	free(b.code);
	return rc == 0 && !msg[0] ? 0 : -1;
}

/* Every entry's name is unique, and each text is a guarded header. */
static void test_table(void)
{
	CHECK(nvrtc_headers_count >= 17);
	for (int i = 0; i < nvrtc_headers_count; i++) {
		CHECK(nvrtc_headers[i].name[0] != '\0');
		CHECK(strstr(nvrtc_headers[i].text, "docs/kernels.md") != NULL);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(nvrtc_headers[i].name, nvrtc_headers[j].name) != 0);
	}
}

static void test_compile(const struct nvrtc *lib, const char *inc, const char *path)
{
	char why[256], *text;
	size_t size;

	CHECK_INT(file_read_bounded(path, 1 << 20, &text, &size, why, sizeof why), 0);
	if (!text)
		return;
	CHECK_INT(build(lib, inc, "headers_all.cu", text), 0);
	char *reversed = includes_reversed(text);
	CHECK(reversed != NULL && strcmp(reversed, text) != 0);
	CHECK_INT(build(lib, inc, "headers_all_reversed.cu", reversed), 0);
	free(reversed);
	free(text);
}

/* Each header on its own: none leans on another included before it. */
static void test_alone(const struct nvrtc *lib, const char *inc)
{
	for (int i = 0; i < nvrtc_headers_count; i++) {
		char text[1024], origin[128];
		snprintf(text, sizeof text,
			 "/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n * @block 32\n * @grid 1\n */\n"
			 "#include <%s>\n"
			 "extern \"C\" __global__ void k(const T *in, T *out, long long n, void *scratch)\n"
			 "{\n\tout[0] = in[0];\n}\n",
			 nvrtc_headers[i].name);
		snprintf(origin, sizeof origin, "alone_%d.cu", i);
		CHECK_INT(build(lib, inc, origin, text), 0);
	}
}

/* A kernel that includes nothing has what nvcc's implicit includes give. */
static void test_implicit(const struct nvrtc *lib, const char *inc, const char *path)
{
	char why[256], *text;
	size_t size;

	CHECK_INT(file_read_bounded(path, 1 << 20, &text, &size, why, sizeof why), 0);
	if (!text)
		return;
	CHECK_INT(build(lib, inc, "headers_implicit.cu", text), 0);
	free(text);
}

/* nvcc compiles the file at path, T given as conform's prelude gives it. */
static void test_nvcc(const char *tmp, const char *path)
{
	const char *nvcc = getenv("NVCC");
	char prelude[300], cmd[10000];

	if (!nvcc || !nvcc[0]) {
		fprintf(stderr, "no nvcc configured: the nvcc compile skipped\n");
		return;
	}
	snprintf(prelude, sizeof prelude, "%s/prelude.h", tmp);
	FILE *f = fopen(prelude, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("typedef float T;\n", f);
	fclose(f);
	/* std::max and std::numeric_limits are constexpr host functions of
	 * the host's library, callable in device code with this flag only;
	 * conform's are __host__ __device__. */
	snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -include '%s' -c '%s' -o '%s/h.o'",
		 nvcc, prelude, path, tmp);
	CHECK_INT(system(cmd), 0);
}

int main(void)
{
	struct nvrtc lib;
	char why[512], inc[1024], path[4200], tmp[256], cache[300];

	test_table();
	if (nvrtc_open(&lib, why, sizeof why) < 0) {
		fprintf(stderr, "NVRTC not found: skipped (%s)\n", why);
		return 77;
	}
	user_build_include_dir(&lib, inc, sizeof inc);
	if (!inc[0]) {
		fprintf(stderr, "no CUDA headers beside NVRTC: skipped\n");
		return 77;
	}
	snprintf(tmp, sizeof tmp, "%s/conform-nvrtc-headers.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(cache, sizeof cache, "%s/xdg", tmp);
	setenv("XDG_CACHE_HOME", cache, 1);
	snprintf(path, sizeof path, "%s/tests/data/headers_all.cu", CONFORM_SRCDIR);
	test_alone(&lib, inc);
	test_compile(&lib, inc, path);
	test_nvcc(tmp, path);
	snprintf(path, sizeof path, "%s/tests/data/headers_implicit.cu", CONFORM_SRCDIR);
	test_implicit(&lib, inc, path);
	test_nvcc(tmp, path);
	snprintf(path, sizeof path, "rm -rf '%s'", tmp);
	if (system(path) != 0)
		fprintf(stderr, "cannot remove %s\n", tmp);
	return TEST_END();
}
