/*
 * test_user_build.c - one configuration of a user's kernel made into a
 * program: the prelude, the #line directives, the options, the cache key,
 * the cache directory and files, NVRTC's log made one line; then, where
 * NVRTC can be opened (it needs no GPU), real compiles: every dtype, the
 * cache hit of a second build, and a syntax error, a wrong signature and
 * a missing entry each said at the user's file and line.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CONFORM_CUDA_INCLUDE */
#endif

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/test.h"
#include "worker/kernel_file.h"
#include "worker/tunable.h"
#include "worker/user_build.h"

static struct kernel_file k; /* large: not on the stack */
static char err[4096];

static int parse(const char *origin, const char *text)
{
	return kernel_file_parse(&k, origin, text, strlen(text), NULL, err, sizeof err);
}

/* A kernel every dtype and operator compiles: one block combines n
 * elements with the prelude's helpers. */
static const char tiny[] =
	"/*\n"                                                                   /* 1 */
	" * One block reduces everything.\n"                                     /* 2 */
	" *\n"                                                                   /* 3 */
	" * @kind    reduce\n"                                                   /* 4 */
	" * @entry   tiny_sum\n"                                                 /* 5 */
	" * @dtypes  f32 f64 i32 bf16\n"                                         /* 6 */
	" * @ops     sum max min\n"                                              /* 7 */
	" * @tunable block 32..1024 pow2 default=256\n"                          /* 8 */
	" * @tunable items_per 1|2|4 default=2\n"                                /* 9 */
	" * @block   block\n"                                                    /* 10 */
	" * @grid    1\n"                                                        /* 11 */
	" */\n"                                                                  /* 12 */
	"extern \"C\" __global__ void tiny_sum(const T *in, T *out, long long n, void *scratch)\n"
	"{\n"
	"\t__shared__ T part[BLOCK];\n"
	"\tT acc = conform_identity<T>();\n"
	"\tfor (long long i = threadIdx.x; i < n; i += BLOCK * ITEMS_PER)\n"
	"\t\tfor (int j = 0; j < ITEMS_PER; j++)\n"
	"\t\t\tif (i + j * BLOCK < n)\n"
	"\t\t\t\tacc = conform_combine(acc, in[i + j * BLOCK]);\n"
	"\tpart[threadIdx.x] = acc;\n"
	"\t__syncthreads();\n"
	"\tif (threadIdx.x == 0) {\n"
	"\t\tT r = conform_identity<T>();\n"
	"\t\tfor (int i = 0; i < BLOCK; i++)\n"
	"\t\t\tr = conform_combine(r, part[i]);\n"
	"\t\tout[0] = r;\n"
	"\t}\n"
	"}\n";

static const int tiny_values[] = {256, 2};

static struct user_config config(enum dtype d, enum op o)
{
	return (struct user_config){.k = &k, .dtype = d, .op = o, .values = tiny_values, .sm = 90,
				    .include_dir = NULL};
}

static void test_source(void)
{
	static const struct {
		enum dtype d;
		const char *typedef_line;
	} types[] = {
		{DTYPE_F32, "typedef float T;\n"},
		{DTYPE_F64, "typedef double T;\n"},
		{DTYPE_I32, "typedef int T;\n"},
		{DTYPE_BF16, "typedef __nv_bfloat16 T;\n"},
	};
	char want[sizeof tiny + 128];

	CHECK_INT(parse("dir/tiny.cu", tiny), 0);
	CHECK_INT(k.entry_line, 5);
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		struct user_config c = config(types[i].d, OP_SUM);
		char *src = user_build_source(&c);
		CHECK(src != NULL);
		if (!src)
			continue;
		CHECK_CONTAINS(src, types[i].typedef_line);
		if (types[i].d == DTYPE_BF16) {
			CHECK_CONTAINS(src, "#include <cuda_bf16.h>\n");
			CHECK_CONTAINS(src, "conform_identity<__nv_bfloat16>()");
			/* The header comes before the type that needs it. */
			CHECK(strstr(src, "#include <cuda_bf16.h>") < strstr(src, "typedef __nv_bfloat16 T;"));
		} else {
			CHECK(strstr(src, "cuda_bf16.h") == NULL);
		}
		CHECK_CONTAINS(src, "#define CONFORM_OP 0\n");
		/* The user's file follows a #line naming it, byte for byte. */
		snprintf(want, sizeof want, "#line 1 \"dir/tiny.cu\"\n%s", tiny);
		CHECK_CONTAINS(src, want);
		/* The launch check, at the @entry line of the file (no @args:
		 * the kind's own parameters). */
		CHECK_CONTAINS(src, "\n#line 5 \"dir/tiny.cu\"\ntypedef conform_sig_<decltype(tiny_sum)> conform_entry_;");
		CHECK_CONTAINS(src, "\n#line 5 \"dir/tiny.cu\"\nstatic_assert(conform_entry_::count == 4,");
		CHECK_CONTAINS(src, "entry tiny_sum must be a __global__ void function of 4 parameters, "
				    "receiving in order: in out n scratch");
		CHECK_CONTAINS(src, "parameter 3 of tiny_sum receives n: it must be an integer type");
		CHECK_CONTAINS(src, "extern \"C\" __device__ const unsigned char conform_args_[16]");
		/* The source hash comes first (it is in the build key), then the
		 * prelude, named as such. */
		char head[160];
		snprintf(head, sizeof head, "// conform source %s\n#line 1 \"conform prelude\"\n", k.sha256);
		CHECK_INT(strncmp(src, head, strlen(head)), 0);
		free(src);
	}
	for (int o = 0; o < OP_COUNT; o++) {
		struct user_config c = config(DTYPE_F32, (enum op)o);
		char *src = user_build_source(&c);
		snprintf(want, sizeof want, "#define CONFORM_OP %d\n", o);
		CHECK_CONTAINS(src, want);
		CHECK_CONTAINS(src, "#define CONFORM_SUM 0\n#define CONFORM_MAX 1\n#define CONFORM_MIN 2\n");
		free(src);
	}
	kernel_file_free(&k);

	/* A path with a quote or a backslash stays one string literal. */
	CHECK_INT(parse("we\"ird\\dir/tiny.cu", tiny), 0);
	struct user_config c = config(DTYPE_F32, OP_SUM);
	char *src = user_build_source(&c);
	CHECK_CONTAINS(src, "#line 1 \"we\\\"ird\\\\dir/tiny.cu\"\n");
	free(src);
	kernel_file_free(&k);

	/* rows and softmax: the signature of rows x cols. */
	static const char rows[] = "/*\n * @kind rows\n * @entry r\n * @dtypes f32\n * @block 32\n"
				   " * @grid n\n */\n";
	CHECK_INT(parse("r.cu", rows), 0);
	c = config(DTYPE_F32, OP_MAX);
	src = user_build_source(&c);
	CHECK_CONTAINS(src, "\n#line 3 \"r.cu\"\ntypedef conform_sig_<decltype(r)> conform_entry_;");
	CHECK_CONTAINS(src, "entry r must be a __global__ void function of 5 parameters, receiving in order: "
			    "in out rows cols scratch");
	free(src);
	kernel_file_free(&k);

	/* @args and a template entry: the check sits at the @args line, the
	 * entry as written (its macros expanded by the compiler). */
	static const char seed[] = "/*\n * @kind reduce\n * @entry full<BLOCK, BLOCK * 2>\n * @dtypes f32\n"
				   " * @tunable block 32..1024 pow2 default=256\n * @block block\n * @grid 1\n"
				   " * @args out in n/2 scratch\n * @scratch 4 * n\n */\n";
	CHECK_INT(parse("s.cu", seed), 0);
	CHECK_STR(k.entry, "full<BLOCK, BLOCK * 2>");
	CHECK_STR(k.entry_name, "full");
	CHECK_INT(k.args_line, 8);
	c = config(DTYPE_F32, OP_SUM);
	src = user_build_source(&c);
	CHECK_CONTAINS(src, "\n#line 8 \"s.cu\"\ntypedef conform_sig_<decltype(full<BLOCK, BLOCK * 2>)> conform_entry_;");
	CHECK_CONTAINS(src, "receiving in order: out in n/2 scratch");
	CHECK_CONTAINS(src, "parameter 1 of full receives out: it must be a pointer to T (T *, not const)");
	free(src);
	kernel_file_free(&k);
}

static int has_opt(const char **opts, int n, const char *want)
{
	for (int i = 0; i < n; i++)
		if (strcmp(opts[i], want) == 0)
			return 1;
	return 0;
}

static void test_options(void)
{
	const char *opts[USER_BUILD_OPTS_MAX];
	char buf[1024];
	int n;

	CHECK_INT(parse("tiny.cu", tiny), 0);
	struct user_config c = config(DTYPE_F32, OP_SUM);
	n = user_build_options(&c, buf, sizeof buf, opts);
	CHECK_INT(n, 5);
	CHECK(has_opt(opts, n, "--gpu-architecture=sm_90"));
	CHECK(has_opt(opts, n, "-std=c++17"));
	CHECK(has_opt(opts, n, "-DBLOCK=256"));
	CHECK(has_opt(opts, n, "-DITEMS_PER=2")); /* the tunable's name upper-cased */
	CHECK(!has_opt(opts, n, "-Dblock=256"));
	c.include_dir = "/opt/cuda/include";
	c.sm = 100;
	n = user_build_options(&c, buf, sizeof buf, opts);
	CHECK_INT(n, 6);
	CHECK(has_opt(opts, n, "--include-path=/opt/cuda/include"));
	CHECK(has_opt(opts, n, "--gpu-architecture=sm_100"));
	c.include_dir = "";
	CHECK_INT(user_build_options(&c, buf, sizeof buf, opts), 5);
	/* A buffer too small is said, never overrun. */
	CHECK_INT(user_build_options(&c, buf, 40, opts), -1);
	kernel_file_free(&k);
}

static void test_key(void)
{
	const char *opts[] = {"--gpu-architecture=sm_90", "-std=c++17", "-DBLOCK=256"};
	const char *split_a[] = {"ab", "c"}, *split_b[] = {"a", "bc"};
	const struct nvrtc_header hs[] = {{"cmath", "#define A 1\n"}, {"cfloat", "#define B 2\n"}};
	const struct nvrtc_header edited[] = {{"cmath", "#define A 2\n"}, {"cfloat", "#define B 2\n"}};
	const struct nvrtc_header renamed[] = {{"math.h", "#define A 1\n"}, {"cfloat", "#define B 2\n"}};
	char a[65], b[65];

	user_build_key("int x;", hs, 2, opts, 3, 13, 0, a);
	CHECK_INT(strlen(a), 64);
	CHECK_INT(strspn(a, "0123456789abcdef"), 64);
	user_build_key("int x;", hs, 2, opts, 3, 13, 0, b);
	CHECK_STR(a, b);
	user_build_key("int y;", hs, 2, opts, 3, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	user_build_key("int x;", hs, 2, opts, 2, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	const char *other[] = {"--gpu-architecture=sm_90", "-std=c++17", "-DBLOCK=512"};
	user_build_key("int x;", hs, 2, other, 3, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	user_build_key("int x;", hs, 2, opts, 3, 13, 1, b);
	CHECK(strcmp(a, b) != 0);
	user_build_key("int x;", hs, 2, opts, 3, 12, 0, b);
	CHECK(strcmp(a, b) != 0);
	/* A conform whose headers differ compiles afresh: their text, their
	 * names and their number are in the key. */
	user_build_key("int x;", edited, 2, opts, 3, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	user_build_key("int x;", renamed, 2, opts, 3, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	user_build_key("int x;", hs, 1, opts, 3, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	user_build_key("int x;", NULL, 0, opts, 3, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	/* Parts do not run together: options, nor headers with options. */
	user_build_key("s", NULL, 0, split_a, 2, 13, 0, a);
	user_build_key("s", NULL, 0, split_b, 2, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
	const char *as_opts[] = {"cmath", "#define A 1\n"};
	user_build_key("s", hs, 1, NULL, 0, 13, 0, a);
	user_build_key("s", NULL, 0, as_opts, 2, 13, 0, b);
	CHECK(strcmp(a, b) != 0);
}

static void set_env(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

static void test_cache_dir(void)
{
	char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char dir[256];

	set_env("XDG_CACHE_HOME", "/x/cache");
	set_env("HOME", "/home/u");
	CHECK_INT(user_cache_dir(dir, sizeof dir), 0);
	CHECK_STR(dir, "/x/cache/conform");
	/* A relative XDG_CACHE_HOME is ignored, as the XDG rule says. */
	set_env("XDG_CACHE_HOME", "rel/cache");
	CHECK_INT(user_cache_dir(dir, sizeof dir), 0);
	CHECK_STR(dir, "/home/u/.cache/conform");
	set_env("XDG_CACHE_HOME", "");
	CHECK_INT(user_cache_dir(dir, sizeof dir), 0);
	CHECK_STR(dir, "/home/u/.cache/conform");
	set_env("XDG_CACHE_HOME", NULL);
	CHECK_INT(user_cache_dir(dir, sizeof dir), 0);
	CHECK_STR(dir, "/home/u/.cache/conform");
	set_env("HOME", NULL);
	CHECK_INT(user_cache_dir(dir, sizeof dir), -1);
	set_env("XDG_CACHE_HOME", "rel");
	CHECK_INT(user_cache_dir(dir, sizeof dir), -1);
	set_env("HOME", "");
	CHECK_INT(user_cache_dir(dir, sizeof dir), -1);
	set_env("XDG_CACHE_HOME", "/x");
	CHECK_INT(user_cache_dir(dir, sizeof dir), 0);
	CHECK_STR(dir, "/x/conform");
	/* A directory that does not fit. */
	CHECK_INT(user_cache_dir(dir, 8), -1);
	set_env("XDG_CACHE_HOME", xdg);
	set_env("HOME", home);
	free(xdg);
	free(home);
}

/* The directory NVRTC is given for CUDA's headers. */
static void test_include_dir(const char *tmp)
{
	char *env = getenv("CONFORM_CUDA_INCLUDE") ? strdup(getenv("CONFORM_CUDA_INCLUDE")) : NULL;
	struct nvrtc lib;
	char buf[1024], path[1200];

	memset(&lib, 0, sizeof lib);
	setenv("CONFORM_CUDA_INCLUDE", "/my/include", 1);
	user_build_include_dir(&lib, buf, sizeof buf);
	CHECK_STR(buf, "/my/include");
	unsetenv("CONFORM_CUDA_INCLUDE");
#ifndef CONFORM_CUDA_INCLUDE
	/* Without configure's: the include/ beside the library, when it
	 * holds cuda_bf16.h. */
	snprintf(lib.path, sizeof lib.path, "%s/cuda/lib64/libnvrtc.so.13", tmp);
	user_build_include_dir(&lib, buf, sizeof buf);
	CHECK_STR(buf, "");
	snprintf(path, sizeof path, "mkdir -p '%s/cuda/lib64' '%s/cuda/include' && : >'%s/cuda/include/cuda_bf16.h'",
		 tmp, tmp, tmp);
	CHECK_INT(system(path), 0);
	user_build_include_dir(&lib, buf, sizeof buf);
	snprintf(path, sizeof path, "%s/cuda/lib64/../include", tmp);
	CHECK_STR(buf, path);
	snprintf(lib.path, sizeof lib.path, "libnvrtc.so.13");
	user_build_include_dir(&lib, buf, sizeof buf);
	CHECK_STR(buf, "");
#else
	(void)tmp, (void)path;
#endif
	if (env)
		setenv("CONFORM_CUDA_INCLUDE", env, 1);
	free(env);
}

/* rm -rf of the test's temporary directory. */
static void remove_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

static void test_cache_files(const char *tmp)
{
	char dir[1024], path[1200];
	const char key[] = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	const char bytes[] = "\x7f" "ELF\0\1\2 not really a cubin";
	void *code = NULL;
	size_t code_len = 0;
	char msg[512] = "", entry[USER_ENTRY_MAX];
	struct stat st;

	snprintf(dir, sizeof dir, "%s/files/a/b/conform", tmp);
	CHECK_INT(user_cache_load(dir, key, &code, &code_len, entry, sizeof entry), -1);
	CHECK(code == NULL && code_len == 0);
	CHECK_INT(user_cache_store(dir, key, bytes, sizeof bytes, "k", "", msg, sizeof msg), 0);
	CHECK_STR(msg, "");
	CHECK_INT(stat(dir, &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
	CHECK_INT(stat(path, &st), 0);
	CHECK_INT(st.st_size, sizeof bytes);
	CHECK_INT(user_cache_load(dir, key, &code, &code_len, entry, sizeof entry), 0);
	CHECK_INT(code_len, sizeof bytes);
	CHECK(code && memcmp(code, bytes, sizeof bytes) == 0);
	CHECK_STR(entry, "k");
	free(code);
	/* Stored again: replaced whole, no temporary left. */
	CHECK_INT(user_cache_store(dir, key, "abc", 3, "k", "", msg, sizeof msg), 0);
	CHECK_INT(user_cache_load(dir, key, &code, &code_len, entry, sizeof entry), 0);
	CHECK_INT(code_len, 3);
	free(code);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 2", dir); /* KEY.cubin, KEY.entry */
	CHECK_INT(system(cmd), 0);
	/* Another key is absent. */
	CHECK_INT(user_cache_load(dir, "ffff", &code, &code_len, entry, sizeof entry), -1);
	/* An empty file is no code. */
	CHECK_INT(user_cache_store(dir, "empty", "", 0, "k", "", msg, sizeof msg), 0);
	CHECK_INT(user_cache_load(dir, "empty", &code, &code_len, entry, sizeof entry), -1);
	/* A cubin without its entry's name is no cache hit: the name is
	 * written first, so this is a cache some other hand changed. */
	snprintf(path, sizeof path, "%s/%s.entry", dir, key);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(user_cache_load(dir, key, &code, &code_len, entry, sizeof entry), -1);
	CHECK(code == NULL);
	/* The warnings beside the cubin, in a directory made for them. */
	snprintf(dir, sizeof dir, "%s/files/new/conform", tmp);
	CHECK_INT(user_cache_store(dir, key, "abc", 3, "k", "k.cu:3: warning", msg, sizeof msg), 0);
	snprintf(path, sizeof path, "%s/%s.log", dir, key);
	CHECK_INT(stat(path, &st), 0);
	CHECK_INT(st.st_size, strlen("k.cu:3: warning"));
	/* A directory that cannot be made is said. */
	snprintf(dir, sizeof dir, "%s/files/a/b/conform/%s.cubin/sub", tmp, key);
	CHECK_INT(user_cache_store(dir, key, "abc", 3, "k", "", msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "cannot create");
}

static void test_log(void)
{
	char out[512];

	user_build_log("f.cu(12): error: x\n  code\n  ^\n\n1 error detected in the compilation of \"f.cu\".\n",
		       out, sizeof out);
	CHECK_STR(out, "f.cu:12: error: x | code");
	user_build_log("a/b.cu(3): warning #177-D: variable \"v\" was declared but never referenced\n"
		       "  int v;\n      ^\n\nRemark: something\n",
		       out, sizeof out);
	CHECK_STR(out, "a/b.cu:3: warning #177-D: variable \"v\" was declared but never referenced | int v; | "
		       "Remark: something");
	user_build_log("x.cu(1): error: a\nx.cu(2): error: b\n\n2 errors detected in the compilation of \"x.cu\".\n",
		       out, sizeof out);
	CHECK_STR(out, "x.cu:1: error: a | x.cu:2: error: b");
	/* A path with a parenthesis of its own: the location is the last. */
	user_build_log("/x (copy)/k.cu(12): error: y\n", out, sizeof out);
	CHECK_STR(out, "/x (copy)/k.cu:12: error: y");
	user_build_log("p:5: catastrophic error: could not open source file \"cuda_bf16.h\"\n"
		       "  #include <cuda_bf16.h>\n                        ^\n\n"
		       "1 catastrophic error detected in the compilation of \"t.cu\".\nCompilation terminated.\n",
		       out, sizeof out);
	CHECK_STR(out, "p:5: catastrophic error: could not open source file \"cuda_bf16.h\" | #include <cuda_bf16.h>");
	/* Not a location: kept as it is. */
	user_build_log("f(x): error: y\nf(12) no colon\n", out, sizeof out);
	CHECK_STR(out, "f(x): error: y | f(12) no colon");
	user_build_log(NULL, out, sizeof out);
	CHECK_STR(out, "");
	user_build_log("", out, sizeof out);
	CHECK_STR(out, "");
	/* A long log is cut with "...", within the buffer. */
	char log[8192] = "";
	for (int i = 1; i <= 100; i++)
		snprintf(log + strlen(log), sizeof log - strlen(log),
			 "long.cu(%d): warning: something long enough to fill a line\n", i);
	char small[200];
	user_build_log(log, small, sizeof small);
	CHECK(strlen(small) < sizeof small);
	CHECK_INT(strncmp(small, "long.cu:1: warning: something long", 34), 0);
	CHECK(strlen(small) >= 3 && strcmp(small + strlen(small) - 3, "...") == 0);
	/* Control characters never reach the one line. */
	user_build_log("e.cu(1): error: \033[31mred\033[0m\n", out, sizeof out);
	CHECK(strchr(out, '\033') == NULL);
}

/* The compile checks, where NVRTC opens. */
static const char bad_syntax[] =
	"/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n * @block 32\n * @grid 1\n */\n"
	"extern \"C\" __global__ void k(const T *in, T *out, long long n, void *scratch)\n"   /* 8 */
	"{\n"                                                                                /* 9 */
	"\tout[0] = in[0] +;\n"                                                              /* 10 */
	"}\n";

static const char warns[] =
	"/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n * @block 32\n * @grid 1\n */\n"
	"extern \"C\" __global__ void k(const T *in, T *out, long long n, void *scratch)\n"   /* 8 */
	"{\n"                                                                                /* 9 */
	"\tint unused;\n"                                                                     /* 10 */
	"\tout[0] = in[0];\n"
	"}\n";

static const char bad_signature[] =
	"/*\n"
	" * @kind reduce\n"                                                                  /* 2 */
	" * @dtypes f32\n"                                                                   /* 3 */
	" * @entry k\n"                                                                      /* 4 */
	" * @block 32\n * @grid 1\n */\n"
	"extern \"C\" __global__ void k(const T *in, T *out, float n, void *scratch)\n"
	"{\n}\n";

/* Written for nvcc as a seed writes it: a C++ template entry, its own
 * parameter order and an int size; @args says what each receives. */
static const char as_written[] =
	"/*\n"
	" * @kind reduce\n"
	" * @dtypes f32\n"
	" * @entry sum_into<BLOCK, BLOCK * 4>\n"                                             /* 4 */
	" * @tunable block 32..1024 pow2 default=128\n"
	" * @args out in n scratch\n"                                                      /* 6 */
	" * @block block\n * @grid 1\n * @scratch 4 * n\n */\n"
	"template <int THREADS, int PER>\n"
	"__global__ void sum_into(float *__restrict__ out, const float *__restrict__ in, int n, void *w)\n"
	"{\n\tif (threadIdx.x == 0 && n > PER) out[0] = in[0];\n}\n";

/* The same with a parameter of the wrong kind: out declared const. */
static const char const_out[] =
	"/*\n * @kind reduce\n * @dtypes f32\n * @entry k\n * @block 32\n * @grid 1\n"
	" * @args in out n\n */\n"                                                         /* 7 */
	"__global__ void k(const float *in, const float *out, unsigned n)\n{\n}\n";

/* One parameter fewer than @args passes. */
static const char short_args[] =
	"/*\n * @kind rows\n * @dtypes f32\n * @entry k\n * @block 32\n * @grid 1\n"
	" * @args in out rows cols\n */\n"                                                 /* 7 */
	"__global__ void k(const float *in, float *out, int rows)\n{\n}\n";

static const char no_entry[] =
	"/*\n"
	" * @kind rows\n"
	" * @dtypes f32\n"
	" * @block 32\n"
	" * @entry missing_fn\n"                                                             /* 5 */
	" * @grid 1\n */\n"
	"extern \"C\" __global__ void other(const T *in, T *out, long long rows, long long cols, void *s)\n"
	"{\n}\n";

static int build(const struct nvrtc *lib, const char *origin, const char *text, enum dtype d,
		 const char *inc, struct user_built *b, char *msg, size_t len)
{
	static const int values[TUNABLES_MAX] = {256, 2};
	int rc;

	if (parse(origin, text) < 0) {
		fprintf(stderr, "%s\n", err);
		return -2;
	}
	struct user_config c = {.k = &k, .dtype = d, .op = OP_SUM, .values = values, .sm = 90,
				.include_dir = inc};
	rc = user_build(lib, &c, b, msg, len);
	kernel_file_free(&k);
	return rc;
}

static void test_compile(const char *tmp)
{
	struct nvrtc lib;
	char why[512], inc[1024], cache[600], msg[RESULT_MESSAGE_MAX];
	struct user_built b, again;

	if (nvrtc_open(&lib, why, sizeof why) < 0) {
		fprintf(stderr, "NVRTC not found: compile checks skipped\n  %s\n", why);
		return;
	}
	user_build_include_dir(&lib, inc, sizeof inc);
	fprintf(stderr, "NVRTC %d.%d from %s, headers from '%s'\n", lib.major, lib.minor, lib.path, inc);
	CHECK(lib.major >= 11);
	/* Known by its file, even when found by its soname, so that its
	 * headers are found beside it. */
	CHECK(lib.path[0] == '/');
	snprintf(cache, sizeof cache, "%s/xdg", tmp);
	setenv("XDG_CACHE_HOME", cache, 1);
	static const enum dtype dtypes[] = {DTYPE_F32, DTYPE_F64, DTYPE_I32, DTYPE_BF16};
	size_t built = 0;
	for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
		/* bf16 needs <cuda_bf16.h>: a runtime-only NVRTC has no headers. */
		if (dtypes[i] == DTYPE_BF16 && !inc[0]) {
			fprintf(stderr, "no CUDA headers beside NVRTC: the bf16 compile skipped\n");
			continue;
		}
		built++;
		int rc = build(&lib, "tiny.cu", tiny, dtypes[i], inc, &b, msg, sizeof msg);
		CHECK_INT(rc, 0);
		if (rc != 0) {
			fprintf(stderr, "  %s: %s\n", dtype_name(dtypes[i]), msg);
			continue;
		}
		CHECK_INT(b.cached, 0);
		CHECK(b.code_len > 0 && b.code != NULL);
		CHECK(b.seconds > 0);
		/* A cubin is an ELF file. */
		CHECK(b.code_len > 4 && memcmp(b.code, "\x7f" "ELF", 4) == 0);
		CHECK_INT(build(&lib, "tiny.cu", tiny, dtypes[i], inc, &again, msg, sizeof msg), 0);
		CHECK_INT(again.cached, 1);
		CHECK_STR(again.key, b.key);
		CHECK_INT(again.code_len, b.code_len);
		CHECK(again.code && memcmp(again.code, b.code, b.code_len) == 0);
		free(b.code);
		free(again.code);
	}
	char cubin[700];
	snprintf(cubin, sizeof cubin, "test $(ls '%s/conform' | grep -c '^[0-9a-f]*\\.cubin$') -eq %zu", cache,
		 built);
	CHECK_INT(system(cubin), 0);

	/* The warnings of the first compile into a cache directory that did
	 * not exist yet are said by it and by every cache hit after it. */
	char fresh[700], said[RESULT_MESSAGE_MAX];
	snprintf(fresh, sizeof fresh, "%s/fresh/xdg", tmp);
	setenv("XDG_CACHE_HOME", fresh, 1);
	CHECK_INT(build(&lib, "warns.cu", warns, DTYPE_F32, inc, &b, said, sizeof said), 0);
	CHECK_INT(b.cached, 0);
	CHECK_CONTAINS(said, "compiler says: warns.cu:10: warning");
	CHECK_INT(build(&lib, "warns.cu", warns, DTYPE_F32, inc, &again, msg, sizeof msg), 0);
	CHECK_INT(again.cached, 1);
	CHECK_STR(msg, said);
	free(b.code);
	free(again.code);
	setenv("XDG_CACHE_HOME", cache, 1);

	/* The errors, at the user's file and line. */
	CHECK_INT(build(&lib, "dir/syntax.cu", bad_syntax, DTYPE_F32, inc, &b, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "does not compile");
	CHECK_CONTAINS(msg, "dir/syntax.cu:10: error");
	CHECK(b.code == NULL);
	CHECK_INT(build(&lib, "sig.cu", bad_signature, DTYPE_F32, inc, &b, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "sig.cu:4: ");
	CHECK_CONTAINS(msg, "parameter 3 of k receives n: it must be an integer type");
	CHECK(strchr(msg, '?') == NULL); /* NVRTC's rendering of what it cannot print */
	CHECK_INT(build(&lib, "const.cu", const_out, DTYPE_F32, inc, &b, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "const.cu:7: ");
	CHECK_CONTAINS(msg, "parameter 2 of k receives out: it must be a pointer to T (T *, not const)");
	CHECK_INT(build(&lib, "short.cu", short_args, DTYPE_F32, inc, &b, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "short.cu:7: ");
	CHECK_CONTAINS(msg, "entry k must be a __global__ void function of 4 parameters, receiving in "
			    "order: in out rows cols");
	CHECK_INT(build(&lib, "none.cu", no_entry, DTYPE_F32, inc, &b, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "none.cu:5: ");
	CHECK_CONTAINS(msg, "missing_fn");
	/* Nothing is cached of a failed build. */
	CHECK_INT(system(cubin), 0);
	/* Compiled as written: the template instantiated with the tunables,
	 * its mangled name known, the parameters' codes in the cubin; a
	 * cache hit knows the same name. */
	CHECK_INT(build(&lib, "as_written.cu", as_written, DTYPE_F32, inc, &b, msg, sizeof msg), 0);
	CHECK_STR(b.entry, "_Z8sum_intoILi256ELi1024EEvPfPKfiPv");
	CHECK(b.code && memmem(b.code, b.code_len, "conform_args_", 13) != NULL);
	CHECK(b.code && memmem(b.code, b.code_len, b.entry, strlen(b.entry)) != NULL);
	CHECK_INT(build(&lib, "as_written.cu", as_written, DTYPE_F32, inc, &again, msg, sizeof msg), 0);
	CHECK_INT(again.cached, 1);
	CHECK_STR(again.entry, b.entry);
	free(b.code);
	free(again.code);
	/* NVRTC stays open, as in the worker: closing it would unmap the
	 * pool its C++ runtime allocates once, which LeakSanitizer then
	 * reports as a leak. */
}

/* Every example kernel file (examples/kernels/) compiles for every dtype
 * and operator it declares, at its default tunables: the files users copy
 * must build with the NVRTC and the prelude conform gives them. */
static void test_examples(const char *tmp)
{
	struct nvrtc lib;
	char why[512], inc[1024], cache[600], dir[4200];

	if (nvrtc_open(&lib, why, sizeof why) < 0) {
		fprintf(stderr, "NVRTC not found: the examples are not compiled\n");
		return;
	}
	user_build_include_dir(&lib, inc, sizeof inc);
	if (!inc[0]) {
		fprintf(stderr, "no CUDA headers beside NVRTC: the examples are not compiled\n");
		return;
	}
	snprintf(cache, sizeof cache, "%s/examples", tmp);
	setenv("XDG_CACHE_HOME", cache, 1);
	snprintf(dir, sizeof dir, "%s/examples/kernels", CONFORM_SRCDIR);
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	int files = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 4 || strcmp(e->d_name + l - 3, ".cu") != 0)
			continue;
		char path[4500], msg[RESULT_MESSAGE_MAX];
		struct kernel_file *kf = malloc(sizeof *kf);
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		CHECK(kf != NULL);
		if (!kf)
			break;
		CHECK_INT(kernel_file_load(kf, path, NULL, msg, sizeof msg), 0);
		files++;
		for (int t = 0; kf->source && t < DTYPE_COUNT; t++) {
			if (!(kf->variant.dtypes & DTYPE_BIT(t)))
				continue;
			for (int o = 0; o < OP_COUNT; o++) {
				if (kf->variant.ops ? !(kf->variant.ops & OP_BIT(o)) : o != 0)
					continue;
				const struct problem pb = {(enum dtype)t, 1000, kf->kind == KERNEL_REDUCE ? 0 : 100};
				int values[TUNABLES_MAX];
				struct user_built b;
				CHECK_INT(tunable_bind(&kf->variant.params, &pb, "", values, NULL, msg, sizeof msg), 0);
				const struct user_config c = {kf, (enum dtype)t, (enum op)o, values, 90, inc};
				int rc = user_build(&lib, &c, &b, msg, sizeof msg);
				CHECK_INT(rc, 0);
				if (rc != 0)
					fprintf(stderr, "  %s %s %s: %s\n", e->d_name, dtype_name((enum dtype)t),
						op_name((enum op)o), msg);
				free(b.code);
			}
		}
		kernel_file_free(kf);
		free(kf);
	}
	if (d)
		closedir(d);
	CHECK(files >= 8);
}

int main(void)
{
	char tmp[256];

	snprintf(tmp, sizeof tmp, "%s/conform-user-build.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_source();
	test_options();
	test_key();
	test_cache_dir();
	test_cache_files(tmp);
	test_log();
	test_include_dir(tmp);
	test_compile(tmp);
	test_examples(tmp);
	remove_tree(tmp);
	return TEST_END();
}
