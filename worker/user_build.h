/*
 * user_build.h - one configuration of a user's kernel, compiled: the
 * program NVRTC sees, its options, the cache key and the cache.
 *
 * A configuration is the kernel file, the dtype, the operator, the
 * tunables' values and the device's architecture; each is a program of
 * its own (tunables are macros, T a typedef).  The program is the
 * prelude (T, CONFORM_OP, conform_combine, conform_identity), a #line
 * back to the user's file, the file, and a signature check that fails to
 * compile, at the @entry line, when the entry's parameters are not the
 * kind's.
 *
 * Compiled code is cached under $XDG_CACHE_HOME/conform/ (else
 * ~/.cache/conform/), one file per SHA-256 of the program text, the
 * headers conform gives NVRTC, the options (the architecture among them)
 * and NVRTC's version: anything that could change the code changes the
 * name.  A file is written whole
 * (a temporary beside it, then rename), so a reader never sees half a
 * cubin; a cache that cannot be written only costs the next compile.
 */
#ifndef CONFORM_USER_BUILD_H
#define CONFORM_USER_BUILD_H

#include <stddef.h>

#include "common/dtype.h"
#include "worker/kernel_file.h"
#include "worker/nvrtc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define USER_BUILD_OPTS_MAX (TUNABLES_MAX + 8)
/* Bytes of the options' text: two include paths (the toolkit's and its
 * cccl/, each under 1100 bytes), the architecture and the dialect, and a
 * -DNAME=VALUE for each tunable. */
#define USER_BUILD_OPTS_BYTES (2 * (16 + 1100) + 64 + TUNABLES_MAX * (TUNABLE_NAME_MAX + 16))

struct user_config {
	const struct kernel_file *k;
	enum dtype dtype;
	enum op op;
	const int *values;       /* each tunable's value, in declaration order */
	int sm;                  /* the device's compute capability, 90 for sm_90 */
	const char *include_dir; /* CUDA's headers for NVRTC; NULL: none */
};

/* The program text for c, allocated; NULL when out of memory. */
char *user_build_source(const struct user_config *c);

/* The options for c into opts[] (pointing into buf).  Returns their
 * count, or -1 when buf is too small. */
int user_build_options(const struct user_config *c, char *buf, size_t len, const char **opts);

/* The cache key (64 hex digits) of a program, the headers it is given in
 * memory (nvrtc_headers.h), its options and NVRTC's version. */
void user_build_key(const char *src, const struct nvrtc_header *headers, int nheaders,
		    const char *const *opts, int nopts, int nvrtc_major, int nvrtc_minor, char key[65]);

/* The cache directory: $XDG_CACHE_HOME/conform, else $HOME/.cache/conform.
 * Returns 0, or -1 when neither variable is set (nothing is cached). */
int user_cache_dir(char *buf, size_t len);

/* The cached code of key and its entry's name in it: 0 with *code
 * (malloc'd) and entry[], or -1 when absent. */
int user_cache_load(const char *dir, const char *key, void **code, size_t *code_len, char *entry,
		    size_t entry_len);

/* Stores code under key with its entry's name and the compiler's warnings
 * ("" for none), creating the directory.  Returns 0, or -1 with a
 * message. */
int user_cache_store(const char *dir, const char *key, const void *code, size_t code_len,
		     const char *entry, const char *warnings, char *err, size_t len);

/* Removes key's cubin and log from the cache: a cached cubin the driver
 * refuses is not to be read again. */
void user_cache_drop(const char *key);

/* NVRTC's log made one line for a result's message: "FILE(12): error: x"
 * becomes "FILE:12: error: x", lines are joined with " | ", and what does
 * not fit is cut with "...". */
void user_build_log(const char *log, char *out, size_t len);

/* The directory NVRTC is given for CUDA's headers: $CONFORM_CUDA_INCLUDE,
 * else configure's, else the include/ beside NVRTC's library; "" when
 * none exists. */
void user_build_include_dir(const struct nvrtc *lib, char *buf, size_t len);

/* The cache key of c, without compiling or reading anything: 0, or -1
 * when out of memory. */
int user_build_key_of(const struct nvrtc *lib, const struct user_config *c, char key[65]);

/* The longest name of a kernel in a cubin: a template's mangled name
 * with its arguments. */
#define USER_ENTRY_MAX 1024

/* What a build did, for the BUILD reply and -v. */
struct user_built {
	void *code;              /* the cubin, malloc'd */
	size_t code_len;
	int cached;              /* 1: read from the cache */
	double seconds;          /* compile time (0 when cached) */
	char key[65];
	char entry[USER_ENTRY_MAX]; /* the entry's name in the cubin (mangled for C++) */
};

/* Compiles c (or reads it from the cache).  Returns 0 with b filled and
 * msg holding NVRTC's warnings ("" when none), or -1 with msg saying why
 * (the compile log with FILE:LINE). */
int user_build(const struct nvrtc *lib, const struct user_config *c, struct user_built *b,
	       char *msg, size_t len);

#ifdef __cplusplus
}
#endif
#endif
