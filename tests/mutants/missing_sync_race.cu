/*
 * Mutant: a missing __syncthreads() between the warps' stores to shared
 * memory and warp 0's reads, with the race made to go the wrong way every
 * time.
 *
 * One block of 256 threads.  The warp totals' slots are zeroed (with a
 * barrier), each thread sums a block-stride slice, each warp reduces its
 * lanes with shuffles and lane 0 stores the warp's total in its slot;
 * warp 0 then reads the slots and combines them, with no barrier between
 * the other warps' stores and its reads (examples/kernels/missing_sync.cu
 * has the same bug, declared undefined because there it may or may not
 * show).  Here the other warps lose the race deterministically: before
 * storing they wait until warp 0 has read, as a warp that is scheduled
 * late would, so warp 0 always reads 0 in every slot but its own and
 * out[0] is warp 0's total alone.  That is right while warps 1 .. 7 hold
 * nothing, n <= 32, and wrong from 33 on (an input with in[32] != 0
 * tells).  compute-sanitizer --tool racecheck reports the hazard at every
 * n.
 *
 * What conform should report: PASS at n = 1 .. 32, FAIL from 33 on (7/8
 * of the elements are missing; at 2^24 +- 1 random inputs may still hide
 * that in the sum's tolerance).
 *
 * @kind     reduce
 * @entry    missing_sync_race
 * @summary  mutant: no barrier between warp totals stored and warp 0's reads (warps made to lose the race)
 * @dtypes   f32
 * @ops      sum
 * @block    256
 * @grid     1
 *
 * mutant-bug: missing __syncthreads() between shared-memory stores and another warp's reads (race forced to lose)
 * mutant-wrong: n > 32
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#define BLOCK 256 /* @block */
#define WARPS (BLOCK / 32)

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  One block of 256 threads. */
extern "C" __global__ void __launch_bounds__(BLOCK)
missing_sync_race(const T *in, T *out, long long n, void *scratch)
{
	__shared__ T warp_total[WARPS];
	__shared__ volatile int warp0_has_read;
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	T acc = conform_identity<T>();

	if (threadIdx.x < WARPS)
		warp_total[threadIdx.x] = conform_identity<T>();
	if (threadIdx.x == 0)
		warp0_has_read = 0;
	__syncthreads();

	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = warp_combine(acc);
	if (warp != 0) {
		/* A late warp: it stores after warp 0 has read (the race lost). */
		while (!warp0_has_read)
			__nanosleep(200);
		__threadfence_block(); /* the store stays after the wait */
		if (lane == 0)
			warp_total[warp] = acc;
		return;
	}
	if (lane == 0)
		warp_total[0] = acc;
	__syncwarp();
	/* The bug: a __syncthreads() belongs here, before any warp reads the
	 * other warps' slots (and the late warps above could not wait). */
	T v = lane < WARPS ? warp_total[lane] : conform_identity<T>();
	v = warp_combine(v);
	__threadfence_block();
	if (lane == 0) {
		warp0_has_read = 1;
		out[0] = v;
	}
}
