/*
 * user_build.c - compiling one configuration of a user's kernel (see
 * user_build.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CONFORM_CUDA_INCLUDE */
#endif

#include "worker/user_build.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_read.h"
#include "common/sha256.h"
#include "common/text.h"
#include "common/whole_file.h"
#include "worker/nvrtc_headers.h"

/* The element type's C++ name, and whether it needs <cuda_bf16.h>. */
static const char *type_name(enum dtype d)
{
	switch (d) {
	case DTYPE_F32: return "float";
	case DTYPE_F64: return "double";
	case DTYPE_I32: return "int";
	case DTYPE_BF16: return "__nv_bfloat16";
	default: return "void";
	}
}

/* Each operator's identity per type, as bit patterns so that no header is
 * needed for infinities. */
static const char prelude_identity[] =
	"template <class V> __device__ __forceinline__ V conform_identity();\n"
	"template <> __device__ __forceinline__ float conform_identity<float>()\n"
	"{ return CONFORM_OP == CONFORM_SUM ? 0.0f : __int_as_float(CONFORM_OP == CONFORM_MAX ? (int)0xff800000u : 0x7f800000); }\n"
	"template <> __device__ __forceinline__ double conform_identity<double>()\n"
	"{ return CONFORM_OP == CONFORM_SUM ? 0.0 : __longlong_as_double(CONFORM_OP == CONFORM_MAX ? (long long)0xfff0000000000000ull : 0x7ff0000000000000ll); }\n"
	"template <> __device__ __forceinline__ int conform_identity<int>()\n"
	"{ return CONFORM_OP == CONFORM_SUM ? 0 : CONFORM_OP == CONFORM_MAX ? (-2147483647 - 1) : 2147483647; }\n";

static const char prelude_identity_bf16[] =
	"template <> __device__ __forceinline__ __nv_bfloat16 conform_identity<__nv_bfloat16>()\n"
	"{ return __ushort_as_bfloat16(CONFORM_OP == CONFORM_SUM ? 0 : CONFORM_OP == CONFORM_MAX ? 0xff80 : 0x7f80); }\n";

static const char prelude_combine[] =
	"template <class V> __device__ __forceinline__ V conform_combine(V a, V b)\n"
	"{ return CONFORM_OP == CONFORM_SUM ? V(a + b) : CONFORM_OP == CONFORM_MAX ? (b > a ? b : a) : (b < a ? b : a); }\n";

/*
 * The launch check: C++ that reads the entry's type and holds each of its
 * parameters to what @args (or the kind's signature) passes it.  A buffer
 * is a pointer (out and scratch to non-const memory) to T, to a vector
 * of T (float4 for float) or to void; a value an integer type.  Each
 * parameter's code (conform_arg_) lands in the cubin as conform_args_,
 * from which the launch learns each integer's width and sign: the kernel's
 * own declaration decides how n is passed, not a rule of ours.  Its text
 * has no '@': outside C++'s basic character set, NVRTC prints it as '?'.
 */
static const char launch_check[] =
	"template <class A, class B> struct conform_same_ { enum { value = 0 }; };\n"
	"template <class A> struct conform_same_<A, A> { enum { value = 1 }; };\n"
	"template <class X> struct conform_elem_ { typedef X type; };\n"
	"template <> struct conform_elem_<float2> { typedef float type; };\n"
	"template <> struct conform_elem_<float4> { typedef float type; };\n"
	"template <> struct conform_elem_<double2> { typedef double type; };\n"
	"template <> struct conform_elem_<int2> { typedef int type; };\n"
	"template <> struct conform_elem_<int4> { typedef int type; };\n"
	"template <class X> struct conform_arg_ { enum { value = 0, pointer = 0 }; typedef void to; };\n"
	"template <class X> struct conform_arg_<X *> { enum { value = 1, pointer = 1 }; typedef X to; };\n"
	"template <class X> struct conform_arg_<const X *> { enum { value = 2, pointer = 1 }; typedef X to; };\n"
	"#define CONFORM_INT_(t, code) template <> struct conform_arg_<t> { enum { value = code, pointer = 0 }; typedef void to; };\n"
	"CONFORM_INT_(int, 0xc4) CONFORM_INT_(unsigned, 0x44) CONFORM_INT_(long, 0xc0 | sizeof(long))\n"
	"CONFORM_INT_(unsigned long, 0x40 | sizeof(long)) CONFORM_INT_(long long, 0xc8)\n"
	"CONFORM_INT_(unsigned long long, 0x48) CONFORM_INT_(short, 0xc2) CONFORM_INT_(unsigned short, 0x42)\n"
	"#undef CONFORM_INT_\n"
	"template <class X> struct conform_points_ { enum { value = conform_same_<typename conform_elem_<X>::type, T>::value ||\n"
	"                                                      conform_same_<X, void>::value }; };\n"
	"template <int I, class... P> struct conform_nth_ { typedef void type; };\n"
	"template <class H, class... P> struct conform_nth_<0, H, P...> { typedef H type; };\n"
	"template <int I, class H, class... P> struct conform_nth_<I, H, P...> { typedef typename conform_nth_<I - 1, P...>::type type; };\n"
	"template <class F> struct conform_sig_ { enum { count = -1 }; template <int I> struct at { typedef void type; }; };\n"
	"template <class... P> struct conform_sig_<void(P...)> {\n"
	"  enum { count = sizeof...(P) };\n"
	"  template <int I> struct at { typedef typename conform_nth_<I, P...>::type type; };\n"
	"};\n";

/* What each role asks of its parameter, as the static_assert's
 * condition over the parameter type P, and how the message says it. */
static const struct {
	const char *cond, *words;
} role_check[] = {
	[KARG_IN] = {"conform_arg_<P>::pointer && conform_points_<typename conform_arg_<P>::to>::value",
		     "a pointer to T (const T * or T *), to a vector of T or to void"},
	[KARG_OUT] = {"conform_arg_<P>::value == 1 && conform_points_<typename conform_arg_<P>::to>::value",
		      "a pointer to T (T *, not const), to a vector of T or to void"},
	[KARG_SCRATCH] = {"conform_arg_<P>::value == 1", "a pointer to memory it may write (void * or T *)"},
	[KARG_VALUE] = {"(conform_arg_<P>::value & 0x40) != 0",
			"an integer type (int, unsigned, long, long long, size_t ...)"},
};

/* The parameters @args passes, as the messages list them. */
static void args_words(const struct kernel_file *k, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < k->nargs && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", k->args[i].text);
}

static void launch_check_write(FILE *f, const struct kernel_file *k, const char *path)
{
	char words[512], at[8400];
	size_t i;

	args_words(k, words, sizeof words);
	/* Every assertion is preceded by the line it is to be reported at. */
	snprintf(at, sizeof at, "#line %d \"%s\"\n", k->args_line ? k->args_line : k->entry_line, path);
	fprintf(f, "\n#line 1 \"conform launch check\"\n%s", launch_check);
	for (i = 0; i < k->nargs; i++)
		fprintf(f, "template <class P> struct conform_check%zu_ { enum { value = %s }; };\n", i,
			role_check[k->args[i].role].cond);
	fprintf(f, "%stypedef conform_sig_<decltype(%s)> conform_entry_;\n", at, k->entry);
	fprintf(f, "%sstatic_assert(conform_entry_::count == %zu, \"entry %s must be a __global__ void "
		"function of %zu parameters, receiving in order: %s\");\n", at, k->nargs, k->entry_name,
		k->nargs, words);
	for (i = 0; i < k->nargs; i++)
		fprintf(f, "%sstatic_assert(conform_entry_::count != %zu || "
			"conform_check%zu_<conform_entry_::at<%zu>::type>::value, "
			"\"parameter %zu of %s receives %s: it must be %s\");\n",
			at, k->nargs, i, i, i + 1, k->entry_name, k->args[i].text, role_check[k->args[i].role].words);
	fprintf(f, "extern \"C\" __device__ const unsigned char conform_args_[%d] = {", KERNEL_ARGS_MAX);
	for (i = 0; i < k->nargs; i++)
		fprintf(f, "%s(unsigned char)conform_arg_<conform_entry_::at<%zu>::type>::value", i ? ", " : "", i);
	fprintf(f, "};\n");
}

/* path made safe inside a C string literal. */
static void quoted_path(const char *path, char *buf, size_t len)
{
	size_t o = 0;

	for (const char *p = path; *p && o + 3 < len; p++) {
		if (*p == '"' || *p == '\\')
			buf[o++] = '\\';
		buf[o++] = (unsigned char)*p < 0x20 ? '?' : *p;
	}
	buf[o] = '\0';
}

char *user_build_source(const struct user_config *c)
{
	const struct kernel_file *k = c->k;
	char path[8300];
	char *src = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&src, &size);

	if (!f)
		return NULL;
	quoted_path(k->path, path, sizeof path);
	/* The source hash covers the files it includes (kernel_file.c): here
	 * it makes an edit of one of them a new build. */
	fprintf(f, "// conform source %s\n#line 1 \"conform prelude\"\n", k->sha256);
	fprintf(f, "#include <conform/nvcc_implicit.h>\n"); /* nvrtc_headers.c */
	fprintf(f, "#define CONFORM_SUM 0\n#define CONFORM_MAX 1\n#define CONFORM_MIN 2\n");
	fprintf(f, "#define CONFORM_OP %d\n", c->op == OP_MAX ? 1 : c->op == OP_MIN ? 2 : 0);
	if (c->dtype == DTYPE_BF16)
		fprintf(f, "#include <cuda_bf16.h>\n");
	fprintf(f, "typedef %s T;\n%s", type_name(c->dtype), prelude_identity);
	if (c->dtype == DTYPE_BF16)
		fputs(prelude_identity_bf16, f);
	fputs(prelude_combine, f);
	fprintf(f, "#line 1 \"%s\"\n", path);
	fwrite(k->source, 1, k->source_len, f);
	/* The check sits at the @args line (else @entry's), where a mismatch
	 * is the user's to fix; an entry never defined fails there too. */
	launch_check_write(f, k, path);
	if (fclose(f) != 0) {
		free(src);
		return NULL;
	}
	return src;
}

int user_build_options(const struct user_config *c, char *buf, size_t len, const char **opts)
{
	const struct kernel_file *k = c->k;
	size_t used = 0;
	int n = 0;

#define ADD(...)                                                                    \
	do {                                                                        \
		int w_ = snprintf(buf + used, len - used, __VA_ARGS__);             \
		if (w_ < 0 || (size_t)w_ >= len - used)                             \
			return -1;                                                  \
		opts[n++] = buf + used;                                             \
		used += (size_t)w_ + 1;                                             \
	} while (0)
	ADD("--gpu-architecture=sm_%d", c->sm);
	ADD("-std=c++17");
	ADD("-lineinfo");
	if (c->include_dir && c->include_dir[0]) {
		struct stat st;
		char cccl[1100];
		ADD("--include-path=%s", c->include_dir);
		/* CUDA 13 keeps libcu++ (<cuda/std/...>, which cooperative
		 * groups include) under include/cccl. */
		snprintf(cccl, sizeof cccl, "%s/cccl", c->include_dir);
		if (stat(cccl, &st) == 0 && S_ISDIR(st.st_mode))
			ADD("--include-path=%s", cccl);
	}
	for (size_t i = 0; i < k->set.count; i++) {
		char macro[64];
		size_t j = 0;
		for (const char *p = k->tunables[i].name; *p && j + 1 < sizeof macro; p++)
			macro[j++] = (char)toupper((unsigned char)*p);
		macro[j] = '\0';
		ADD("-D%s=%d", macro, c->values[i]);
	}
#undef ADD
	return n;
}

void user_build_key(const char *src, const struct nvrtc_header *headers, int nheaders,
		    const char *const *opts, int nopts, int nvrtc_major, int nvrtc_minor, char key[65])
{
	struct sha256 h;
	unsigned char d[32];
	char version[32], count[32];

	sha256_init(&h);
	/* Each part ends with a NUL, which none holds, so no two different
	 * lists of parts run together into the same bytes; the headers' count
	 * keeps them apart from the options. */
	sha256_update(&h, src, strlen(src) + 1);
	snprintf(count, sizeof count, "headers %d", nheaders);
	sha256_update(&h, count, strlen(count) + 1);
	for (int i = 0; i < nheaders; i++) {
		sha256_update(&h, headers[i].name, strlen(headers[i].name) + 1);
		sha256_update(&h, headers[i].text, strlen(headers[i].text) + 1);
	}
	for (int i = 0; i < nopts; i++)
		sha256_update(&h, opts[i], strlen(opts[i]) + 1);
	snprintf(version, sizeof version, "nvrtc %d.%d", nvrtc_major, nvrtc_minor);
	sha256_update(&h, version, strlen(version) + 1);
	sha256_final(&h, d);
	sha256_hex(d, key);
}

int user_cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	/* The XDG rule: a relative XDG_CACHE_HOME is to be ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/conform", xdg);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.cache/conform", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* The most a cached cubin may be: far above any kernel's. */
#define CUBIN_MAX (64 << 20)

/* The kernel's name in the cubin, kept beside it (KEY.entry): a C++ or
 * template entry's is mangled, and only the compile that lowered it
 * knows it. */
#define ENTRY_FILE_MAX 4096

int user_cache_load(const char *dir, const char *key, void **code, size_t *code_len, char *entry,
		    size_t entry_len)
{
	char path[4200], why[256], *data, *name;
	size_t size, name_size;

	*code = NULL;
	*code_len = 0;
	snprintf(path, sizeof path, "%s/%s.entry", dir, key);
	if (file_read_bounded(path, ENTRY_FILE_MAX, &name, &name_size, why, sizeof why) < 0)
		return -1;
	int bad = name_size == 0 || name_size >= entry_len || strlen(name) != name_size;
	if (!bad)
		memcpy(entry, name, name_size + 1);
	free(name);
	if (bad)
		return -1;
	snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
	if (file_read_bounded(path, CUBIN_MAX, &data, &size, why, sizeof why) < 0)
		return -1;
	if (size == 0 || size > CUBIN_MAX) {
		free(data);
		return -1;
	}
	*code = data;
	*code_len = size;
	return 0;
}

/* mkdir -p for the cache directory (its parents may be new too). */
static int make_dirs(const char *dir)
{
	char buf[4096];

	text_copy(buf, sizeof buf, dir);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

void user_cache_drop(const char *key)
{
	char dir[4096], path[4200];

	if (user_cache_dir(dir, sizeof dir) < 0)
		return;
	snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
	unlink(path);
	snprintf(path, sizeof path, "%s/%s.log", dir, key);
	unlink(path);
	snprintf(path, sizeof path, "%s/%s.entry", dir, key);
	unlink(path);
}

/* The compiler's warnings are kept beside the cubin (KEY.log) so that a
 * cache hit says them too: a warning does not go away by being cached. */
static void warnings_store(const char *dir, const char *key, const char *text)
{
	char path[4200];
	struct whole_file w = {0};

	snprintf(path, sizeof path, "%s/%s.log", dir, key);
	if (!text[0] || whole_file_open(&w, path) < 0 || fputs(text, w.f) == EOF ||
	    whole_file_commit(&w) < 0)
		whole_file_abort(&w);
}

int user_cache_store(const char *dir, const char *key, const void *code, size_t code_len,
		     const char *entry, const char *warnings, char *err, size_t len)
{
	char path[4200];
	struct whole_file w = {0};

	/* The directory first, then the warnings and the entry's name, then
	 * the cubin: a reader that finds the cubin finds its log and name,
	 * on the first store into a new cache as on any other. */
	if (make_dirs(dir) < 0) {
		snprintf(err, len, "%s: cannot create: %s", dir, strerror(errno));
		return -1;
	}
	warnings_store(dir, key, warnings);
	snprintf(path, sizeof path, "%s/%s.entry", dir, key);
	if (whole_file_open(&w, path) < 0 || fputs(entry, w.f) == EOF || whole_file_commit(&w) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno ? errno : EIO));
		whole_file_abort(&w);
		return -1;
	}
	memset(&w, 0, sizeof w);
	snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
	/* Written whole under a temporary name and renamed: two workers, or
	 * two hosts sharing the cache, may store the same key at once. */
	if (whole_file_open(&w, path) < 0 || fwrite(code, 1, code_len, w.f) != code_len ||
	    whole_file_commit(&w) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno ? errno : EIO));
		whole_file_abort(&w);
		return -1;
	}
	return 0;
}

/* NVRTC's last lines: "2 errors detected in the compilation of ...",
 * "1 catastrophic error detected ...", "Compilation terminated." */
static int closing_line(const char *s, size_t n)
{
	static const char count[] = " detected in the compilation of ", end[] = "Compilation terminated.";

	return memmem(s, n, count, sizeof count - 1) != NULL ||
	       (n == sizeof end - 1 && memcmp(s, end, n) == 0);
}

void user_build_log(const char *log, char *out, size_t len)
{
	size_t o = 0;
	int cut = 0;

	out[0] = '\0';
	if (!log || len < 8)
		return;
	for (const char *p = log; *p && !cut;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		/* The last '(' of the line: a path may hold one of its own. */
		const char *open = NULL;
		for (const char *c = p; c < p + n; c++)
			if (*c == '(' && c + 1 < p + n && isdigit((unsigned char)c[1]))
				open = c;
		/* "FILE(12): ..." -> "FILE:12: ..." */
		size_t digits = 0;
		if (open)
			while (open + 1 + digits < p + n && isdigit((unsigned char)open[1 + digits]))
				digits++;
		int located = open && digits && open + 2 + digits < p + n && open[1 + digits] == ')' &&
			      open[2 + digits] == ':';
		/* Blank lines, the caret lines under a quoted source line, and the
		 * closing count say nothing a reader of one line needs. */
		const char *s = p;
		while (s < p + n && isspace((unsigned char)*s))
			s++;
		int keep_line = s < p + n && !(*s == '^' && s + 1 == p + n) && !closing_line(s, (size_t)(p + n - s));
		if (keep_line) {
			char line[1024];
			if (located)
				snprintf(line, sizeof line, "%.*s:%.*s:%.*s", (int)(open - p), p, (int)digits,
					 open + 1, (int)(p + n - (open + 3 + digits)), open + 3 + digits);
			else
				snprintf(line, sizeof line, "%.*s", (int)(p + n - s), s);
			size_t ll = strlen(line);
			const char *sep = o ? " | " : "";
			if (o + strlen(sep) + ll + 4 >= len) {
				cut = 1;
				break;
			}
			o += (size_t)snprintf(out + o, len - o, "%s%s", sep, line);
		}
		p += n + (nl ? 1 : 0);
	}
	if (cut && o + 4 < len)
		snprintf(out + o, len - o, "...");
	text_sanitize(out);
}

void user_build_include_dir(const struct nvrtc *lib, char *buf, size_t len)
{
	const char *env = getenv("CONFORM_CUDA_INCLUDE");
	struct stat st;

	buf[0] = '\0';
	if (env && *env) {
		text_copy(buf, len, env);
		return;
	}
#ifdef CONFORM_CUDA_INCLUDE
	if (stat(CONFORM_CUDA_INCLUDE "/cuda_bf16.h", &st) == 0) {
		text_copy(buf, len, CONFORM_CUDA_INCLUDE);
		return;
	}
#endif
	/* Beside the library: .../lib64/libnvrtc.so -> .../include. */
	const char *slash = strrchr(lib->path, '/');
	if (!slash)
		return;
	char dir[600];
	snprintf(dir, sizeof dir, "%.*s/../include", (int)(slash - lib->path), lib->path);
	char probe[700];
	snprintf(probe, sizeof probe, "%s/cuda_bf16.h", dir);
	if (stat(probe, &st) == 0)
		text_copy(buf, len, dir);
}

static void warnings_load(const char *dir, const char *key, char *text, size_t len)
{
	char path[4200], why[256], *data;
	size_t size;

	text[0] = '\0';
	snprintf(path, sizeof path, "%s/%s.log", dir, key);
	if (file_read_bounded(path, len - 1, &data, &size, why, sizeof why) == 0) {
		text_copy(text, len, data);
		free(data);
		text_sanitize(text);
	}
}

int user_build_key_of(const struct nvrtc *lib, const struct user_config *c, char key[65])
{
	char optbuf[USER_BUILD_OPTS_BYTES];
	const char *opts[USER_BUILD_OPTS_MAX];
	int nopts = user_build_options(c, optbuf, sizeof optbuf, opts);
	char *src = nopts < 0 ? NULL : user_build_source(c);

	if (!src)
		return -1;
	user_build_key(src, nvrtc_headers, nvrtc_headers_count, opts, nopts, lib->major, lib->minor, key);
	free(src);
	return 0;
}

int user_build(const struct nvrtc *lib, const struct user_config *c, struct user_built *b,
	       char *msg, size_t len)
{
	char optbuf[USER_BUILD_OPTS_BYTES], cache[4096], why[256];
	const char *opts[USER_BUILD_OPTS_MAX];
	char *src, *log = NULL;
	int nopts, have_cache;

	memset(b, 0, sizeof *b);
	msg[0] = '\0';
	if ((nopts = user_build_options(c, optbuf, sizeof optbuf, opts)) < 0) {
		snprintf(msg, len, "the compile options do not fit");
		return -1;
	}
	if (!(src = user_build_source(c))) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	user_build_key(src, nvrtc_headers, nvrtc_headers_count, opts, nopts, lib->major, lib->minor, b->key);
	have_cache = user_cache_dir(cache, sizeof cache) == 0;
	if (have_cache && user_cache_load(cache, b->key, &b->code, &b->code_len, b->entry, sizeof b->entry) == 0) {
		char text[RESULT_MESSAGE_MAX];
		b->cached = 1;
		free(src);
		warnings_load(cache, b->key, text, sizeof text);
		if (text[0])
			snprintf(msg, len, "compiler says: %s", text);
		return 0;
	}
	double t0 = text_now();
	const struct nvrtc_job job = {src, c->k->path, nvrtc_headers, nvrtc_headers_count, opts, nopts,
				      c->k->entry};
	int rc = nvrtc_compile(lib, &job, b->entry, sizeof b->entry, &b->code, &b->code_len, &log, why,
			       sizeof why);
	b->seconds = text_now() - t0;
	free(src);
	char text[RESULT_MESSAGE_MAX];
	user_build_log(log, text, sizeof text);
	free(log);
	if (rc < 0) {
		snprintf(msg, len, "does not compile (NVRTC %d.%d, %s): %s", lib->major, lib->minor, why,
			 text[0] ? text : "no log");
		return -1;
	}
	if (text[0])
		snprintf(msg, len, "compiler says: %s", text);
	if (have_cache &&
	    user_cache_store(cache, b->key, b->code, b->code_len, b->entry, text, why, sizeof why) < 0)
		fprintf(stderr, "conform-worker: cannot cache %s: %s\n", b->key, why);
	return 0;
}
