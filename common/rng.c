/*
 * rng.c - xoshiro256** streams and the standard conformance inputs.
 *
 * Everything here is a pure function of the seed: no global state, no
 * platform randomness, and no use of libm rounding modes, so the same seed
 * gives the same bytes on every host.  Draws go through exact integer-to-float
 * constructions (k / 2^24, k / 2^53) rather than scaled doubles, so f32 inputs
 * are exactly uniform on a grid in [-1, 1) and never round up to 1.
 */
#include "common/rng.h"

#include <float.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_case_seed(uint64_t run_seed, const char *case_name)
{
	uint64_t h = 0xCBF29CE484222325ULL; /* FNV-1a offset basis */

	for (const unsigned char *p = (const unsigned char *)case_name; *p; p++) {
		h ^= *p;
		h *= 0x100000001B3ULL;
	}
	/* FNV alone spreads short names poorly; splitmix finishes the mix. */
	uint64_t x = run_seed ^ h;
	return splitmix64(&x);
}

void rng_init(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;

	/* Consecutive splitmix outputs are distinct, so the state is never all
	 * zero, the one state xoshiro cannot leave. */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double rng_uniform(struct rng *r, double lo, double hi)
{
	double u = (double)(rng_next(r) >> 11) * 0x1p-53;
	double x = lo + (hi - lo) * u;

	/* lo + (hi - lo) * u can round up to hi for some ranges. */
	return x < hi ? x : lo;
}

int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return lo;
	uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
	if (span == 0) /* the full 64-bit range */
		return (int64_t)rng_next(r);
	/* Reject the low 2^64 mod span values so every residue is equally likely. */
	uint64_t threshold = -span % span;
	uint64_t x;
	do
		x = rng_next(r);
	while (x < threshold);
	return (int64_t)((uint64_t)lo + x % span);
}

/* Uniform on the grid k / 2^23 - 1, k in [0, 2^24): exact in float. */
static float draw_f32(struct rng *r)
{
	return (float)((int32_t)(rng_next(r) >> 40) - (1 << 23)) * 0x1p-23f;
}

/* Uniform on the grid k / 2^52 - 1, k in [0, 2^53): exact in double. */
static double draw_f64(struct rng *r)
{
	return (double)((int64_t)(rng_next(r) >> 11) - (1LL << 52)) * 0x1p-52;
}

/* n draws of dtype d, without the rule that one of them is non-zero. */
static void fill_draws(struct rng *r, enum dtype d, void *buf, size_t n)
{
	switch (d) {
	case DTYPE_F32: {
		float *p = buf;
		for (size_t i = 0; i < n; i++)
			p[i] = draw_f32(r);
		break;
	}
	case DTYPE_F64: {
		double *p = buf;
		for (size_t i = 0; i < n; i++)
			p[i] = draw_f64(r);
		break;
	}
	case DTYPE_BF16: {
		uint16_t *p = buf;
		for (size_t i = 0; i < n; i++)
			p[i] = bf16_from_float(draw_f32(r));
		break;
	}
	case DTYPE_I32: {
		int32_t *p = buf;
		for (size_t i = 0; i < n; i++)
			p[i] = (int32_t)rng_range(r, -1000, 1000);
		break;
	}
	case DTYPE_U32: {
		uint32_t *p = buf;
		for (size_t i = 0; i < n; i++)
			p[i] = (uint32_t)rng_range(r, 0, 2000);
		break;
	}
	default:
		break;
	}
}

/* Element i of buf is non-zero (bf16: either zero). */
static int nonzero(enum dtype d, const void *buf, size_t i)
{
	switch (d) {
	case DTYPE_F32: return ((const float *)buf)[i] != 0.0f;
	case DTYPE_F64: return ((const double *)buf)[i] != 0.0;
	case DTYPE_BF16: return (((const uint16_t *)buf)[i] & 0x7FFF) != 0;
	case DTYPE_I32: return ((const int32_t *)buf)[i] != 0;
	case DTYPE_U32: return ((const uint32_t *)buf)[i] != 0;
	default: return 1;
	}
}

void rng_fill_nonzero(enum dtype d, void *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (nonzero(d, buf, i))
			return;
	if (n == 0)
		return;
	switch (d) {
	case DTYPE_F32: ((float *)buf)[0] = 1.0f; break;
	case DTYPE_F64: ((double *)buf)[0] = 1.0; break;
	case DTYPE_BF16: ((uint16_t *)buf)[0] = bf16_from_float(1.0f); break;
	case DTYPE_I32: ((int32_t *)buf)[0] = 1; break;
	case DTYPE_U32: ((uint32_t *)buf)[0] = 1; break;
	default: break;
	}
}

void rng_fill(struct rng *r, enum dtype d, void *buf, size_t n)
{
	fill_draws(r, d, buf, n);
	rng_fill_nonzero(d, buf, n);
}

void rng_init_block(struct rng *r, uint64_t seed, size_t k)
{
	uint64_t x = seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(k + 1));

	/* The seed mixed with k, through splitmix (whose outputs for
	 * distinct inputs are distinct), so blocks do not share draws
	 * however close their seeds. */
	rng_init(r, splitmix64(&x));
}

void rng_fill_block(uint64_t seed, size_t k, enum dtype d, void *buf, size_t n)
{
	const size_t lo = k * RNG_BLOCK, hi = lo + RNG_BLOCK < n ? lo + RNG_BLOCK : n;
	struct rng g;

	if (lo >= n)
		return;
	rng_init_block(&g, seed, k);
	fill_draws(&g, d, (char *)buf + lo * dtype_size(d), hi - lo);
}

static float float_from_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

enum special {
	SP_NEG_ZERO, SP_POS_ZERO, SP_POS_INF, SP_NEG_INF, SP_POS_DENORM,
	SP_NEG_DENORM, SP_MAX, SP_NEG_MAX, SP_COUNT
};

static float special_value(struct rng *r, int kind)
{
	switch (kind) {
	case SP_NEG_ZERO: return -0.0f;
	case SP_POS_ZERO: return 0.0f;
	case SP_POS_INF: return float_from_bits(0x7F800000u);
	case SP_NEG_INF: return float_from_bits(0xFF800000u);
	case SP_POS_DENORM: return float_from_bits((uint32_t)rng_range(r, 1, 0x7FFFFF));
	case SP_NEG_DENORM: return float_from_bits(0x80000000u | (uint32_t)rng_range(r, 1, 0x7FFFFF));
	case SP_MAX: return FLT_MAX;
	case SP_NEG_MAX: return -FLT_MAX;
	default: return draw_f32(r);
	}
}

void rng_fill_f32_specials(struct rng *r, float *buf, size_t n)
{
	/* Every special once (as far as n allows), the rest drawn with ordinary
	 * values as likely as all specials together, then shuffled so the
	 * specials' positions vary with the seed. */
	for (size_t i = 0; i < n; i++) {
		int kind = i < SP_COUNT ? (int)i : (int)rng_range(r, 0, 2 * SP_COUNT - 1);
		buf[i] = special_value(r, kind);
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_range(r, 0, (int64_t)i - 1);
		float t = buf[i - 1];
		buf[i - 1] = buf[j];
		buf[j] = t;
	}
}

uint16_t bf16_from_float(float f)
{
	uint32_t u = float_bits(f);

	/* Keep NaN a NaN: rounding could carry a payload into infinity, and
	 * truncation could drop every mantissa bit. */
	if ((u & 0x7FFFFFFFu) > 0x7F800000u)
		return (uint16_t)((u >> 16) | 0x0040);
	/* Round to nearest, ties to even; overflow rounds to infinity. */
	u += 0x7FFFu + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float bf16_to_float(uint16_t h)
{
	return float_from_bits((uint32_t)h << 16);
}
