/*
 * warp_reference.c - host references for the warp primitives (see
 * warp_reference.h for what each output holds).
 *
 * Every function walks the input warp by warp, the way the kernels see it:
 * 32 lanes, the last warp short when n is not a multiple of 32.  Floating
 * sums are taken in double with their sum |x| for the tolerance; integer
 * sums in uint32_t, wrapping exactly as the kernels' unsigned adds do.
 */
#include "kernels/warp/warp_reference.h"

#include <math.h>

#include "worker/check.h"
#include "worker/reference.h"
#include "worker/tolerance.h"

#define LANES 32

/* A 32-bit two's-complement value as a double. */
static double from_u32(uint32_t u)
{
	return u >= 0x80000000u ? (double)u - 0x1p32 : (double)u;
}

/* The mask of lanes 0..k-1. */
static uint32_t first_lanes(int k)
{
	return k >= LANES ? 0xFFFFFFFFu : (1u << k) - 1;
}

/* Lanes of the warp starting at base that hold an element. */
static int lanes_with_elements(size_t base, size_t n)
{
	return n - base < LANES ? (int)(n - base) : LANES;
}

/* A running sum of f32 or i32 terms and the tolerance it has earned. */
struct run_sum {
	double sum, abs_sum;
	uint32_t isum;
	size_t terms;
};

static void run_sum_add(struct run_sum *s, enum dtype d, const void *in, size_t i)
{
	if (d == DTYPE_F32) {
		const double x = reference_load(d, in, i);
		s->sum += x;
		s->abs_sum += fabs(x);
	} else {
		s->isum += (uint32_t)((const int32_t *)in)[i];
	}
	s->terms++;
}

static void run_sum_put(const struct run_sum *s, enum dtype d, double *ref, double *tol)
{
	if (d == DTYPE_F32) {
		*ref = s->sum;
		*tol = tolerance_sum(DTYPE_F32, DTYPE_F32, s->terms, s->abs_sum, s->sum);
	} else {
		*ref = from_u32(s->isum);
		*tol = 0.0;
	}
}

void warp_ref_scan(enum dtype d, const void *in, size_t n, size_t section, int exclusive,
		   double *ref, double *tol)
{
	struct run_sum s = {0};

	for (size_t i = 0; i < n; i++) {
		if (i % section == 0)
			s = (struct run_sum){0};
		if (exclusive)
			run_sum_put(&s, d, &ref[i], &tol[i]);
		run_sum_add(&s, d, in, i);
		if (!exclusive)
			run_sum_put(&s, d, &ref[i], &tol[i]);
	}
}

/* Marks lanes k.. of the warp at base as to be left unwritten. */
static void idle_lanes(size_t base, size_t n, int k, double *ref, double *tol)
{
	for (int lane = k; lane < lanes_with_elements(base, n); lane++) {
		ref[base + lane] = 0.0;
		tol[base + lane] = CHECK_UNWRITTEN;
	}
}

void warp_ref_vote(const int32_t *in, size_t n, int k, int above, enum warp_vote kind,
		   double *ref, double *tol)
{
	for (size_t base = 0; base < n; base += LANES) {
		const int valid = lanes_with_elements(base, n);
		uint32_t ballot = 0;
		double v = 0.0;

		for (int lane = 0; lane < k && lane < valid; lane++)
			if (in[base + lane] > above)
				ballot |= 1u << lane;
		switch (kind) {
		case VOTE_BALLOT: v = from_u32(ballot); break;
		case VOTE_POPC: v = __builtin_popcount(ballot); break;
		case VOTE_FFS: v = ballot ? __builtin_ctz(ballot) + 1 : 0; break;
		case VOTE_ANY: v = ballot != 0; break;
		default: v = ballot == first_lanes(k); break;
		}
		for (int lane = 0; lane < k && lane < valid; lane++) {
			ref[base + lane] = v;
			tol[base + lane] = 0.0;
		}
		idle_lanes(base, n, k, ref, tol);
	}
}

void warp_ref_match(const int32_t *in, size_t n, int k, unsigned keys, int all, double *ref,
		    double *tol)
{
	for (size_t base = 0; base < n; base += LANES) {
		const int valid = lanes_with_elements(base, n);
		unsigned key[LANES];
		int same = 1;

		for (int lane = 0; lane < k; lane++) {
			key[lane] = lane < valid ? warp_key(in[base + lane], keys) : WARP_KEY_NONE;
			same &= key[lane] == key[0];
		}
		for (int lane = 0; lane < k && lane < valid; lane++) {
			uint32_t peers = 0;

			for (int j = 0; j < k; j++)
				if (key[j] == key[lane])
					peers |= 1u << j;
			ref[base + lane] = from_u32(all ? (same ? first_lanes(k) : 0) : peers);
			tol[base + lane] = 0.0;
		}
		idle_lanes(base, n, k, ref, tol);
	}
}

void warp_ref_histogram(const int32_t *in, size_t n, unsigned bins, double *ref, double *tol)
{
	for (unsigned b = 0; b < bins; b++) {
		ref[b] = 0.0;
		tol[b] = 0.0;
	}
	for (size_t i = 0; i < n; i++)
		ref[warp_key(in[i], bins)] += 1.0;
}

void warp_ref_compact(enum dtype d, const void *in, size_t n, double threshold, double *ref,
		      double *tol)
{
	for (size_t base = 0, w = 0; base < n; base += LANES, w++) {
		const int valid = lanes_with_elements(base, n);
		int count = 0;

		for (int lane = 0; lane < valid; lane++) {
			const double x = reference_load(d, in, base + lane);
			if (x > threshold) {
				ref[base + count] = x;
				tol[base + count] = 0.0;
				count++;
			}
		}
		for (int slot = count; slot < valid; slot++) {
			ref[base + slot] = 0.0;
			tol[base + slot] = CHECK_UNWRITTEN;
		}
		ref[n + w] = count;
		tol[n + w] = 0.0;
	}
}

void warp_ref_segmented(enum op o, enum dtype d, const void *in, size_t n, int seg, double *ref,
			double *tol)
{
	for (size_t base = 0; base < n; base += LANES) {
		const int64_t warp = (int64_t)(base / LANES);
		const int valid = lanes_with_elements(base, n);
		int start = 0;

		while (start < valid) {
			int end = start + 1;
			struct run_sum s = {0};
			double best, b_tol = 0.0;

			while (end < LANES && !warp_head(warp, end, seg))
				end++;
			if (end > valid)
				end = valid;
			best = reference_load(d, in, base + start);
			for (int lane = start; lane < end; lane++) {
				const double x = reference_load(d, in, base + lane);
				run_sum_add(&s, d, in, base + lane);
				if (x > best)
					best = x;
			}
			if (o == OP_SUM)
				run_sum_put(&s, d, &best, &b_tol);
			for (int lane = start; lane < end; lane++) {
				ref[base + lane] = best;
				tol[base + lane] = b_tol;
			}
			start = end;
		}
	}
}

/* An argmax value: the element, or its level for i32. */
static double argmax_value(enum dtype d, const void *in, size_t i, int levels)
{
	return d == DTYPE_I32 ? warp_level(((const int32_t *)in)[i], levels) : reference_load(d, in, i);
}

void warp_ref_argmax(enum dtype d, const void *in, size_t n, int levels, double *ref,
		     double *tol)
{
	for (size_t base = 0; base < n; base += LANES) {
		const int valid = lanes_with_elements(base, n);
		double best = argmax_value(d, in, base, levels);
		int at = 0;

		/* Strictly greater: a tie keeps the lower lane. */
		for (int lane = 1; lane < valid; lane++) {
			const double x = argmax_value(d, in, base + lane, levels);
			if (x > best) {
				best = x;
				at = lane;
			}
		}
		for (int lane = 0; lane < valid; lane++) {
			ref[base + lane] = best;
			tol[base + lane] = 0.0;
			ref[n + base + lane] = at;
			tol[n + base + lane] = 0.0;
		}
	}
}
