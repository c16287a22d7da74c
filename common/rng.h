/*
 * rng.h - seeded, reproducible random inputs.
 *
 * xoshiro256** seeded through splitmix64.  Every case draws from its own
 * stream, rng_case_seed(run seed, case name), so a case's inputs depend only
 * on the run's seed and its name, not on which other cases ran.
 */
#ifndef CONFORM_RNG_H
#define CONFORM_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rng { uint64_t s[4]; };

uint64_t rng_case_seed(uint64_t run_seed, const char *case_name);
void rng_init(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
double rng_uniform(struct rng *r, double lo, double hi); /* [lo, hi) */
int64_t rng_range(struct rng *r, int64_t lo, int64_t hi); /* [lo, hi] */

/*
 * Fills n elements of dtype with the standard conformance input: floats
 * uniform in [-1, 1) (negatives and cancellation, never all zero), integers
 * uniform in [-1000, 1000] with at least one non-zero, bf16 rounded from the
 * float draw.  u32 is uniform in [0, 2000].
 */
void rng_fill(struct rng *r, enum dtype d, void *buf, size_t n);

/*
 * The same input for problems too large for one stream: buf holds blocks
 * of RNG_BLOCK elements, block k drawn from its own stream seeded by (seed,
 * k), so element i depends on the seed and i alone and the blocks can be
 * drawn in any order, on any number of threads.  rng_fill_block draws
 * block k of n elements; once every block is drawn, rng_fill_nonzero
 * applies the rule that one element is non-zero (rng_fill applies it too).
 * A constant of the input's definition: changing it changes every large
 * input of every seed.
 */
#define RNG_BLOCK ((size_t)1 << 16)
void rng_fill_block(uint64_t seed, size_t k, enum dtype d, void *buf, size_t n);
/* Block k's stream, as rng_fill_block draws it: for inputs of another
 * shape drawn in blocks the same way (softmax_input.c's rows). */
void rng_init_block(struct rng *r, uint64_t seed, size_t k);
void rng_fill_nonzero(enum dtype d, void *buf, size_t n);

/*
 * Fills n floats with a mix that exercises ordering corner cases: -0.0, +0.0,
 * +-inf, denormals, the largest finite values and ordinary values (never NaN).
 */
void rng_fill_f32_specials(struct rng *r, float *buf, size_t n);

/* bf16 <-> float on the host (round to nearest even; bf16 as uint16_t bits). */
uint16_t bf16_from_float(float f);
float bf16_to_float(uint16_t h);

#ifdef __cplusplus
}
#endif
#endif
