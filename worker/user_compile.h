/*
 * user_compile.h - a configuration of a user's kernel compiled into the
 * cache: the part of a BUILD that needs no device.
 *
 * Two workers compile: the one that runs the case (user_kernel.cu, which
 * then loads the code on its GPU) and a compile-only worker
 * (conform-worker --compile-for SM), which conform starts several of to
 * fill the cache ahead of the cases (src/session/compile_pool.h).  Both go
 * through user_compile(), so a configuration compiled ahead has the key,
 * the cache files and the messages its own BUILD would have had.  A
 * compile-only worker never touches CUDA: it is told the architecture
 * instead of asking a device for it, and creates no context.
 */
#ifndef CONFORM_USER_COMPILE_H
#define CONFORM_USER_COMPILE_H

#include <stddef.h>

#include "common/case.h"
#include "worker/user_build.h"
#include "worker/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NVRTC and CUDA's headers for it, looked for once per process. */
struct user_compiler {
	int tried;
	struct nvrtc nvrtc;
	char why[512];           /* why NVRTC did not open */
	char include_dir[1024];
};

/* Opens NVRTC on first use.  Returns 0, or -1 with the reason. */
int user_compiler_open(struct user_compiler *uc, char *msg, size_t len);

/* Compiles c (or reads it from the cache) into b.  Returns 0 with r
 * CORRECT and its note ("compiled in 1.62 s (KEY)", "cache hit (KEY)",
 * then the compiler's warnings), or -1 with r SKIPPED (no NVRTC) or ERROR
 * (it does not compile: NVRTC's log with FILE:LINE). */
int user_compile(struct user_compiler *uc, const struct user_config *c, struct user_built *b,
		 struct case_result *r);

/* A compile-only worker's BUILD of a case of variant v: its
 * configuration for architecture sm (90 for sm_90) compiled into the
 * cache, nothing loaded.  r as user_compile's, or INVALID when v is not a
 * user's kernel or refuses the case's parameters (nothing is compiled
 * then). */
void user_compile_case(struct user_compiler *uc, const struct variant *v, const struct case_args *a,
		       int sm, struct case_result *r);

/* Says on stderr (passed through by conform -v) what a build of a's
 * configuration did: r's note, `how` after it ("" or " ahead of its case"). */
void user_compile_tell(const struct case_args *a, const struct case_result *r, const char *how);

#ifdef __cplusplus
}
#endif
#endif
