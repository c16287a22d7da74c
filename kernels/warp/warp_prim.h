/*
 * warp_prim.h - what the warp-primitive kernels (warp_vote.cu, warp_match.cu,
 * warp_histogram.cu, warp_compact.cu, warp_segmented.cu, warp_argmax.cu)
 * and their host references (kernels/warp/warp_reference.c) must derive alike from
 * an input element or a lane: keys, bins, thresholds, segment heads.
 *
 * Plain C: nvcc compiles these as __host__ __device__ functions, the host
 * compiler as static inline ones, so the two sides share one definition and
 * cannot drift apart.  Lanes are numbered within a warp (0..31) and warps
 * globally (element i is lane i % 32 of warp i / 32), which matches the
 * hardware because every kernel here runs blocks of whole warps.
 */
#ifndef CONFORM_WARP_PRIM_H
#define CONFORM_WARP_PRIM_H

#include <stdint.h>

#ifdef __CUDACC__
#define WARP_PRIM_FN static inline __host__ __device__
#else
#define WARP_PRIM_FN static inline
#endif

/* The key of a lane that takes part but has no element (past n): no
 * warp_key() of a real element equals it, since keys are below `m`. */
#define WARP_KEY_NONE 0xFFFFFFFFu

/* What __match_all_sync's caller stores when the predicate disagrees with
 * the returned mask: neither 0 nor a mask of the first k lanes. */
#define WARP_MATCH_DISAGREE ((int32_t)0xDEAD0000u)

/* The vote a warp.vote case stores per lane. */
enum warp_vote { VOTE_BALLOT, VOTE_POPC, VOTE_FFS, VOTE_ANY, VOTE_ALL, VOTE_COUNT };

/* The match key or histogram bin of x among m (1 <= m): its 32 bits
 * modulo m, so negative inputs spread as well as positive ones. */
WARP_PRIM_FN unsigned warp_key(int32_t x, unsigned m)
{
	return (uint32_t)x % m;
}

/* Compaction's f32 threshold: `above` thousandths, rounded to float by the
 * same float division on both sides (the f32 input lies in [-1, 1)). */
WARP_PRIM_FN float warp_threshold_f32(int above)
{
	return (float)above / 1000.0f;
}

/* Argmax's value of an i32 element: x, or x % levels (truncating, so in
 * -(levels - 1)..levels - 1) when levels > 0, to force ties on purpose. */
WARP_PRIM_FN int32_t warp_level(int32_t x, int levels)
{
	return levels > 0 ? x % levels : x;
}

/*
 * 1 when lane `lane` of warp `warp` starts a segment.  Lane 0 always does
 * (segments never cross warps).  seg in 1..32: a head every seg lanes (the
 * last segment of a warp is short unless seg divides 32; seg = 1 makes every
 * lane a head, seg = 32 one segment per warp).  seg = 0: segment lengths
 * run (warp % 32) + 1, (warp % 32) + 2, ... modulo 32 (lengths 1..32), so
 * over 32 consecutive warps every length from 1 to 32 starts a warp, and
 * warp % 32 == 31 is one segment spanning the whole warp.
 */
WARP_PRIM_FN int warp_head(int64_t warp, int lane, int seg)
{
	int start = 0;

	if (seg > 0)
		return lane % seg == 0;
	for (int64_t j = 0; start < lane; j++)
		start += (int)((warp + j) % 32) + 1;
	return start == lane;
}

#endif
