/*
 * nvrtc_headers.h - the headers conform gives NVRTC in memory: the C and
 * C++ library headers a kernel written for nvcc includes, which NVRTC
 * does not have, and a <cub/cub.cuh> that NVRTC can compile.
 *
 * Each entry is a header's name as a kernel includes it ("cmath",
 * "cub/cub.cuh") and its text.  NVRTC looks a name up among these before
 * its --include-path, so an entry replaces the toolkit's file of that
 * name.  What each gives, and where it comes from, is docs/kernels.md's
 * "Headers".  The texts are part of every build's cache key
 * (user_build_key): a conform with other headers compiles afresh.
 */
#ifndef CONFORM_NVRTC_HEADERS_H
#define CONFORM_NVRTC_HEADERS_H

#include "worker/nvrtc.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct nvrtc_header nvrtc_headers[];
extern const int nvrtc_headers_count;

#ifdef __cplusplus
}
#endif
#endif
