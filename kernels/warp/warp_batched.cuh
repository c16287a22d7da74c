/*
 * warp_batched.cuh - batched warp reduction: B independent batches reduced
 * at once within each logical warp of W lanes (W a power of two, 1..32),
 * every lane holding one item of every batch (x[b] is its item of batch b).
 *
 * The transpose-reduce: at each halving step a lane and its partner o lanes
 * away each keep half of the batches they still hold and send the other
 * half, so each lane adds its partner's half of its kept batches with one
 * shuffle per kept batch.  B batches over W lanes cost
 *   sum over the log2(W) steps of max(K/2, 1), K = B, B/2, B/4, ...
 * shuffles: W - 1 when B == W (31 for 32 x 32), against B * log2(W) for B
 * separate butterflies (160).
 *
 * Where the results land (as CUB's WarpReduceBatched defines it), with
 * R = max(B / W, 1) result slots per lane and j the lane in its logical
 * warp:
 *   striped  slot k of lane j holds batch j + k * W;
 *   blocked  slot k of lane j holds batch j * R + k.
 * When B <= W both mean lane j < B holds batch j.  Striped splits on the
 * low bits of the batch index first (offsets 1, 2, 4, ..., each step keeps
 * the even or odd positions), blocked on the high bits first (offsets W/2,
 * W/4, ..., each step keeps the lower or upper half); once a lane holds one
 * batch the remaining steps are a plain butterfly.
 */
#ifndef CONFORM_WARP_BATCHED_CUH
#define CONFORM_WARP_BATCHED_CUH

#include "kernels/collectives.cuh"

/* Deepest transpose: log2(32) steps. */
#define BATCHED_STEPS_MAX 5

/*
 * One step with partner lane ^ o: of the K values held, the lower lane
 * keeps positions lo, the upper lane positions hi (interleaved: even and
 * odd; else the lower and upper halves), and each sends the others.  The
 * kept sums are compacted into x[0 .. K/2); reading x[lo], x[hi] never
 * meets a slot already rewritten in this step (lo, hi >= i).
 */
template <class Op, int B, int K, bool Interleaved, class T>
static __device__ __forceinline__ void batched_step(T (&x)[B], int o, unsigned mask, bool upper)
{
	if constexpr (K == 1) {
		x[0] = Op::apply(x[0], __shfl_xor_sync(mask, x[0], o));
	} else {
#pragma unroll
		for (int i = 0; i < K / 2; i++) {
			const int lo = Interleaved ? 2 * i : i, hi = Interleaved ? 2 * i + 1 : K / 2 + i;
			const T keep = upper ? x[hi] : x[lo];
			const T send = upper ? x[lo] : x[hi];
			x[i] = Op::apply(keep, __shfl_xor_sync(mask, send, o));
		}
	}
}

/* Steps S, S + 1, ... while 2^S < width: striped uses offsets 1, 2, 4, ...,
 * blocked W/2, W/4, ...; either way step S halves B >> S values (K is a
 * compile-time count, so x stays in registers). */
template <class Op, int B, int S, bool Striped, class T>
static __device__ __forceinline__ void batched_steps(T (&x)[B], int width, unsigned mask, int lane)
{
	if constexpr (S < BATCHED_STEPS_MAX) {
		constexpr int K = (B >> S) > 0 ? (B >> S) : 1;
		if ((1 << S) < width) {
			const int o = Striped ? 1 << S : width >> (S + 1);
			batched_step<Op, B, K, Striped>(x, o, mask, (lane & o) != 0);
			batched_steps<Op, B, S + 1, Striped>(x, width, mask, lane);
		}
	}
}

/*
 * Reduces the B batches of each width-lane logical warp; afterwards slot k
 * (k < batched_slots(B, width)) of each lane holds the batch that
 * batched_slot_batch names.  mask names the lanes taking part: whole
 * logical warps, all running this call with the same B, width and blocked.
 * Requires: B and width powers of two, width <= 32; every lane in mask
 * converged here and non-exited.
 */
template <class Op, int B, class T>
static __device__ __forceinline__ void batched_reduce(T (&x)[B], int width, bool blocked, unsigned mask)
{
	const int lane = threadIdx.x % 32;

	if (blocked && B >= width)
		batched_steps<Op, B, 0, false>(x, width, mask, lane);
	else
		batched_steps<Op, B, 0, true>(x, width, mask, lane);
}

/* Result slots per lane. */
static __host__ __device__ __forceinline__ int batched_slots(int B, int width)
{
	return B >= width ? B / width : 1;
}

/* The batch in slot k of logical lane j, or -1 when that slot holds none
 * (lanes j >= B when B < width). */
static __host__ __device__ __forceinline__ int batched_slot_batch(int B, int width, bool blocked, int j, int k)
{
	if (B >= width)
		return blocked ? j * (B / width) + k : j + k * width;
	return k == 0 && j < B ? j : -1;
}

/*
 * The problem layout every batched kernel shares: logical warp g (global
 * thread / width) owns the B * width input elements from g * B * width on,
 * batch-major, so lane j's item of batch b is element (g * B + b) * width + j
 * and segment g * B + b of width elements is one (logical warp, batch)
 * pair: out[g * B + b] is its reduction.  Elements past n are the identity;
 * a segment starting past n has no output.
 */
template <class Op, int B, class T>
static __device__ __forceinline__ void batched_load(T (&x)[B], const T *in, int64_t n, int64_t g,
						    int j, int width)
{
#pragma unroll
	for (int b = 0; b < B; b++)
		x[b] = load_or_identity<Op>(in, (g * B + b) * width + j, n);
}

template <class T>
static __device__ __forceinline__ void batched_store(T *out, int64_t n, int64_t g, int b, int width,
						     int B, T v)
{
	const int64_t seg = g * B + b;

	if (seg * width < n)
		out[seg] = v;
}

/* Stores this lane's result slots after batched_reduce. */
template <int B, class T>
static __device__ __forceinline__ void batched_store_slots(const T (&x)[B], T *out, int64_t n,
							   int64_t g, int j, int width, bool blocked)
{
	const int slots = batched_slots(B, width);

#pragma unroll
	for (int k = 0; k < B; k++) {
		const int b = k < slots ? batched_slot_batch(B, width, blocked, j, k) : -1;
		if (b >= 0)
			batched_store(out, n, g, b, width, B, x[k]);
	}
}

#endif
