/*
 * softmax_input.c - the rows of the softmax cases (see softmax_input.h).
 *
 * A pure function of the seed, like rng.c's large inputs: the rows are
 * drawn in blocks of about RNG_BLOCK elements (one row at least), block k
 * from its own stream (rng_init_block) filling its rows in order, so the
 * blocks are drawn on every processor (par.h) - one stream took a single
 * thread tens of seconds for the 2^31 elements of the ladder's largest
 * shape - and row r depends on the seed, cols and r alone.
 */
#include "kernels/softmax/softmax_input.h"

#include <math.h>

#include "common/rng.h"
#include "worker/par.h"

/* Strictly inside (-32000, 32000) in both types: the largest bf16 below
 * 32000 is 31872. */
#define FULL_RANGE 32000.0
#define FULL_RANGE_INSIDE 31872.0f
#define DOMINANCE 30.0

enum row_kind { ROW_FULL_RANGE, ROW_EQUAL, ROW_DOMINANT, ROW_NEG_INF, ROW_RANDOM };
#define ROW_CYCLE 8

/* v rounded to d, then pulled inside the full range if rounding reached it. */
static float round_to(enum dtype d, double v)
{
	float f = d == DTYPE_BF16 ? bf16_to_float(bf16_from_float((float)v)) : (float)v;

	if (fabsf(f) >= (float)FULL_RANGE)
		f = copysignf(FULL_RANGE_INSIDE, f);
	return f;
}

static void store(enum dtype d, void *buf, size_t i, float f)
{
	if (d == DTYPE_BF16)
		((uint16_t *)buf)[i] = bf16_from_float(f);
	else
		((float *)buf)[i] = f;
}

static void fill_row(struct rng *g, enum row_kind kind, enum dtype d, void *buf, size_t base,
		     size_t cols)
{
	const size_t pick = (size_t)rng_range(g, 0, (int64_t)cols - 1);
	const float equal = round_to(d, rng_uniform(g, -FULL_RANGE, FULL_RANGE));

	for (size_t i = 0; i < cols; i++) {
		float f;

		switch (kind) {
		case ROW_FULL_RANGE: f = round_to(d, rng_uniform(g, -FULL_RANGE, FULL_RANGE)); break;
		case ROW_EQUAL: f = equal; break;
		case ROW_DOMINANT: f = round_to(d, i == pick ? DOMINANCE : rng_uniform(g, -1.0, 1.0)); break;
		case ROW_NEG_INF:
			f = i != pick && rng_range(g, 0, 1) ? -INFINITY : round_to(d, rng_uniform(g, -8.0, 8.0));
			break;
		default: f = round_to(d, rng_uniform(g, -8.0, 8.0)); break;
		}
		store(d, buf, base + i, f);
	}
}

struct fill_job {
	uint64_t seed;
	enum dtype d;
	void *buf;
	size_t rows, cols, rows_per_block;
	int finite_only;
};

/* Block k's rows, from block k's stream. */
static void fill_block(void *ctx, size_t k)
{
	const struct fill_job *j = ctx;
	size_t lo, hi;
	struct rng g;

	par_chunk_range(k, j->rows_per_block, j->rows, &lo, &hi);
	rng_init_block(&g, j->seed, k);
	for (size_t r = lo; r < hi; r++) {
		const size_t c = r % ROW_CYCLE;
		enum row_kind kind = c < ROW_RANDOM ? (enum row_kind)c : ROW_RANDOM;

		if (kind == ROW_NEG_INF && j->finite_only)
			kind = ROW_RANDOM;
		fill_row(&g, kind, j->d, j->buf, r * j->cols, j->cols);
	}
}

void softmax_input_fill(uint64_t seed, enum dtype d, void *buf, size_t rows, size_t cols,
			int finite_only)
{
	struct fill_job j = {seed, d, buf, rows, cols, cols >= RNG_BLOCK ? 1 : RNG_BLOCK / cols,
			     finite_only};

	par_for(par_chunks(rows, j.rows_per_block), fill_block, &j);
}
