/*
 * test_compile_pool.c - configurations of a user's kernel compiled ahead
 * by the pool of compile-only workers (the real conform-worker
 * --compile-for, NVRTC where it opens; skipped where it does not): the
 * cache they fill holds the same files, byte for byte, as one compile
 * after another in this process through the same user_compile() a case's
 * worker calls; never more compiles at once than the cap, and more than
 * one when the cap allows; a compile error comes back as the BUILD's
 * answer, with the message the case's worker gives (FILE:LINE); a
 * configuration told of and not started is withdrawn by the case that
 * needs it, and is not compiled by the pool; a newer list replaces the
 * older's waiting ones.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file_read.h"
#include "common/text.h"
#include "session/compile_pool.h"
#include "tests/test.h"
#include "worker/kernel_file.h"
#include "worker/user_compile.h"

#define SM 90
#define CAP 3

/* Six programs: block x items_per. */
static const char pool_cu[] =
	"/*\n"
	" * @kind    reduce\n"
	" * @entry   pool_sum\n"
	" * @dtypes  f32 f64\n"
	" * @ops     sum max\n"
	" * @tunable block 32..1024 pow2 default=256\n"
	" * @tunable items_per 1|2|4 default=2\n"
	" * @block   block\n"
	" * @grid    1\n"
	" */\n"
	"extern \"C\" __global__ void pool_sum(const T *in, T *out, long long n, void *scratch)\n"
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

/* An error on line 10 of the file. */
static const char broken_cu[] =
	"/*\n"
	" * @kind    reduce\n"
	" * @entry   broken\n"
	" * @dtypes  f32\n"
	" * @block   32\n"
	" * @grid    1\n"
	" */\n"
	"extern \"C\" __global__ void broken(const T *in, T *out, long long n, void *scratch)\n"
	"{\n"
	"\tout[0] = in[0] +;\n"
	"}\n";

#define NCASES 7
static struct case_spec cases[NCASES];
static const struct case_spec *ptrs[NCASES];
static char tmp[256];

static void make_cases(void)
{
	static const char *const params[] = {
		"block=64,items_per=1,op=sum", "block=64,items_per=2,op=sum", "block=128,items_per=1,op=sum",
		"block=128,items_per=2,op=sum", "block=256,items_per=4,op=sum", "block=512,items_per=1,op=sum",
	};
	for (int i = 0; i < NCASES; i++) {
		struct case_spec *c = &cases[i];
		int broken = i == NCASES - 1;
		text_copy(c->variant, sizeof c->variant, broken ? "user.broken" : "user.pool");
		text_copy(c->params, sizeof c->params, broken ? "op=sum" : params[i]);
		snprintf(c->name, sizeof c->name, "%s.sum.f32.n4096", broken ? "user.broken" : "user.pool");
		c->dtype = DTYPE_F32;
		c->n = 4096;
		ptrs[i] = c;
	}
}

static void write_file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmp, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The compile-only workers alive now: this process's children that were
 * started with --compile-for. */
static int workers_alive(void)
{
	DIR *d = opendir("/proc");
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[300], buf[4096];
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t got = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[got] = '\0';
		/* "pid (comm) state ppid ...": comm may hold spaces. */
		const char *close = strrchr(buf, ')');
		int ppid = -1;
		if (!close || sscanf(close + 1, " %*c %d", &ppid) != 1 || ppid != getpid())
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		got = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		for (size_t i = 0; i + 1 < got; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[got] = '\0';
		n += strstr(buf, "--compile-for") != NULL;
	}
	if (d)
		closedir(d);
	return n;
}

/* Polls until every case sent has an answer; returns the most workers
 * seen alive at once. */
static int wait_done(struct compile_pool *p, size_t sent)
{
	int most = 0;
	double give_up = text_now() + 600;
	while (compile_pool_sent(p) < sent && text_now() < give_up) {
		compile_pool_poll(p, text_now() + 0.05);
		int alive = workers_alive();
		most = alive > most ? alive : most;
	}
	struct case_result r;
	for (int i = 0; i < NCASES; i++)
		while (compile_pool_claim(p, &cases[i], &r) == COMPILE_RUNNING && text_now() < give_up)
			compile_pool_poll(p, text_now() + 0.05);
	return most;
}

static struct compile_pool *pool_open(struct kernel_list *kl, const char *worker, int cap)
{
	struct compile_pool_config cfg = {
		.worker = {.path = worker, .kernels = kl, .start_timeout_s = 10},
		.sm = SM, .cap = cap, .timeout_s = 300,
	};
	struct compile_pool *p = compile_pool_new(&cfg);
	CHECK(p != NULL);
	return p;
}

/* The file names of dir, sorted, in buf; how many are cubins (beside
 * each, the cache may keep files of its own: its log, its entry). */
static int listing(const char *dir, char *buf, size_t len)
{
	char cmd[700];
	snprintf(cmd, sizeof cmd, "ls '%s'", dir);
	FILE *f = popen(cmd, "r");
	size_t got = f ? fread(buf, 1, len - 1, f) : 0;
	buf[got] = '\0';
	if (f)
		pclose(f);
	int n = 0;
	for (const char *s = buf; (s = strstr(s, ".cubin\n")); s++)
		n++;
	return n;
}

/* 1 when every file of a/ is in b/ with the same bytes (names listed). */
static int same_files(const char *a, const char *b, const char *names)
{
	char line[2048];
	for (const char *s = names; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		snprintf(line, sizeof line, "cmp -s '%s/%.*s' '%s/%.*s'", a, (int)n, s, b, (int)n, s);
		if (system(line) != 0) {
			fprintf(stderr, "differ: %.*s\n", (int)n, s);
			return 0;
		}
		s += n + (nl ? 1 : 0);
	}
	return 1;
}

int main(void)
{
	char worker[4096], why[512], path[600], dir[700];
	int rc = test_worker_path(worker, sizeof worker);
	if (rc)
		return rc;
	struct nvrtc lib;
	if (nvrtc_open(&lib, why, sizeof why) < 0) {
		fprintf(stderr, "NVRTC not found: skipped\n  %s\n", why);
		return 77;
	}
	snprintf(tmp, sizeof tmp, "%s/conform-pool-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	write_file("pool.cu", pool_cu);
	write_file("broken.cu", broken_cu);
	make_cases();
	struct kernel_list kl = {0};
	snprintf(path, sizeof path, "%s/pool.cu", tmp);
	CHECK_INT(kernel_list_add(&kl, path, why, sizeof why), 0);
	snprintf(path, sizeof path, "%s/broken.cu", tmp);
	CHECK_INT(kernel_list_add(&kl, path, why, sizeof why), 0);

	/* One after another, in this process. */
	static struct kernel_file kf[2];
	static struct user_compiler uc;
	char serial_error[RESULT_MESSAGE_MAX] = "";
	snprintf(dir, sizeof dir, "%s/serial", tmp);
	setenv("XDG_CACHE_HOME", dir, 1);
	for (int f = 0; f < 2; f++)
		if (kernel_file_load(&kf[f], kl.paths[f], NULL, why, sizeof why) < 0) {
			fprintf(stderr, "%s\n", why);
			return 1;
		}
	double t0 = text_now();
	for (int i = 0; i < NCASES; i++) {
		struct case_args a = {.name = cases[i].name, .variant = cases[i].variant, .dtype = cases[i].dtype,
				      .n = cases[i].n, .params = cases[i].params};
		struct case_result r;
		memset(&r, 0, sizeof r);
		user_compile_case(&uc, &kf[i == NCASES - 1].variant, &a, SM, &r);
		if (i == NCASES - 1) {
			CHECK_INT(r.outcome, OUTCOME_ERROR);
			text_copy(serial_error, sizeof serial_error, r.message);
		} else {
			CHECK_INT(r.outcome, OUTCOME_CORRECT);
			CHECK_CONTAINS(r.message, "compiled in");
		}
	}
	double serial_s = text_now() - t0;

	/* The same configurations in parallel, into a cache of their own. */
	snprintf(dir, sizeof dir, "%s/parallel", tmp);
	setenv("XDG_CACHE_HOME", dir, 1);
	struct compile_pool *p = pool_open(&kl, worker, CAP);
	if (!p)
		return TEST_END();
	t0 = text_now();
	compile_pool_ahead(p, ptrs, NCASES);
	int alive = wait_done(p, NCASES);
	double parallel_s = text_now() - t0;
	fprintf(stderr, "%d configurations: %.2f s one after another, %.2f s by %d workers\n", NCASES,
		serial_s, parallel_s, CAP);
	CHECK_INT((int)compile_pool_sent(p), NCASES);
	CHECK(compile_pool_peak(p) <= CAP);
	CHECK(compile_pool_peak(p) >= 2);
	CHECK(alive <= CAP);
	CHECK(alive >= 2);
	/* A compile error is the BUILD's answer, as the case's worker says it. */
	struct case_result r;
	CHECK_INT(compile_pool_claim(p, &cases[NCASES - 1], &r), COMPILE_FAILED);
	CHECK_INT(r.outcome, OUTCOME_ERROR);
	CHECK_STR(r.message, serial_error);
	CHECK_CONTAINS(r.message, "broken.cu:10: error");
	/* A compiled one is the case's worker's to load from the cache. */
	CHECK_INT(compile_pool_claim(p, &cases[0], &r), COMPILE_NONE);
	compile_pool_free(p);
	CHECK_INT(workers_alive(), 0);

	char serial[4096], parallel[4096], a[700], b[700];
	snprintf(a, sizeof a, "%s/serial/conform", tmp);
	snprintf(b, sizeof b, "%s/parallel/conform", tmp);
	int files = listing(a, serial, sizeof serial);
	CHECK_INT(files, NCASES - 1); /* a cubin each */
	CHECK_INT(listing(b, parallel, sizeof parallel), files);
	CHECK_STR(parallel, serial);
	CHECK(same_files(a, b, serial));

	/* Told of all with one slot, then of the last alone: the others that
	 * had not started are not compiled; a case withdraws the one it
	 * needs before it starts. */
	snprintf(dir, sizeof dir, "%s/replaced", tmp);
	setenv("XDG_CACHE_HOME", dir, 1);
	p = pool_open(&kl, worker, 1);
	if (!p)
		return TEST_END();
	double give_up = text_now() + 600;
	compile_pool_ahead(p, ptrs, 3);
	while (compile_pool_sent(p) < 1 && text_now() < give_up) /* the first starts: 1 and 2 wait */
		compile_pool_poll(p, text_now() + 0.05);
	CHECK_INT(compile_pool_claim(p, &cases[2], &r), COMPILE_NONE); /* withdrawn */
	compile_pool_ahead(p, ptrs + 4, 1);                           /* 1 is dropped for 4 */
	while (compile_pool_sent(p) < 2 && text_now() < give_up)
		compile_pool_poll(p, text_now() + 0.05);
	while (compile_pool_claim(p, &cases[4], &r) == COMPILE_RUNNING && text_now() < give_up)
		compile_pool_poll(p, text_now() + 0.05);
	compile_pool_poll(p, text_now() + 0.5); /* nothing more is sent */
	CHECK_INT((int)compile_pool_sent(p), 2);
	CHECK_INT(compile_pool_peak(p), 1);
	compile_pool_free(p);
	snprintf(a, sizeof a, "%s/replaced/conform", tmp);
	CHECK_INT(listing(a, serial, sizeof serial), 2);

	for (int f = 0; f < 2; f++)
		kernel_file_free(&kf[f]);
	kernel_list_free(&kl);
	snprintf(path, sizeof path, "rm -rf '%s'", tmp);
	CHECK_INT(system(path), 0);
	return TEST_END();
}
