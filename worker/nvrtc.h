/*
 * nvrtc.h - NVRTC, CUDA's run-time compiler, opened at run time.
 *
 * The worker dlopen()s libnvrtc instead of linking it, as it does CUPTI
 * and cuDNN: a machine without it still runs every built-in case, and a
 * user's kernel is then SKIPPED with the reason.  Only the handful of C
 * functions a compile needs are looked up; their prototypes are NVRTC's
 * stable C ABI, declared here so that this file builds without CUDA's
 * headers (the tests compile through it wherever the library exists).
 *
 * Where it is looked for, in order: $CONFORM_NVRTC, the toolkit's library
 * that configure found (CONFORM_NVRTC_LIB), libnvrtc.so.13, libnvrtc.so.12.
 */
#ifndef CONFORM_NVRTC_H
#define CONFORM_NVRTC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _nvrtcProgram *nvrtc_program;

struct nvrtc {
	void *handle;
	char path[512];           /* the library that loaded: the file the loader took */
	int major, minor;         /* nvrtcVersion() */
	const char *(*get_error_string)(int result);
	int (*version)(int *major, int *minor);
	int (*create_program)(nvrtc_program *prog, const char *src, const char *name, int num_headers,
			      const char *const *headers, const char *const *include_names);
	int (*destroy_program)(nvrtc_program *prog);
	int (*compile_program)(nvrtc_program prog, int num_options, const char *const *options);
	int (*get_program_log_size)(nvrtc_program prog, size_t *size);
	int (*get_program_log)(nvrtc_program prog, char *log);
	int (*get_cubin_size)(nvrtc_program prog, size_t *size);
	int (*get_cubin)(nvrtc_program prog, char *cubin);
	int (*add_name_expression)(nvrtc_program prog, const char *name_expression);
	int (*get_lowered_name)(nvrtc_program prog, const char *name_expression, const char **lowered);
};

/* A header given to NVRTC in memory: `name` as the source includes it
 * (<name> or "name"), found before any --include-path. */
struct nvrtc_header {
	const char *name;
	const char *text;
};

/* Opens NVRTC.  Returns 0, or -1 with a message saying what was tried. */
int nvrtc_open(struct nvrtc *lib, char *err, size_t len);
void nvrtc_close(struct nvrtc *lib);

/* What one compile is given. */
struct nvrtc_job {
	const char *src;                     /* the program */
	const char *name;                    /* what NVRTC's messages call it */
	const struct nvrtc_header *headers;  /* found before any --include-path */
	int nheaders;
	const char *const *opts;
	int nopts;
	const char *entry;                   /* the kernel, as a name expression: "sum", "sum<256, 4>" */
};

/* Compiles job's program to a cubin, instantiating its entry and giving
 * the entry's name in the cubin in lowered[] (the mangled name of a C++
 * kernel).  Returns 0 with *code (malloc'd, *code_len bytes), or -1 with
 * err saying why in a line; either way *log is NVRTC's log (malloc'd,
 * possibly empty) or NULL when there was none to take. */
int nvrtc_compile(const struct nvrtc *lib, const struct nvrtc_job *job, char *lowered, size_t lowered_len,
		  void **code, size_t *code_len, char **log, char *err, size_t len);

#ifdef __cplusplus
}
#endif
#endif
