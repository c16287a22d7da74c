/*
 * sha256.c - SHA-256 as FIPS 180-4 specifies it (see sha256.h for why it
 * is here).
 *
 * Words are read and written big-endian with shifts, never through a
 * uint32_t pointer into the caller's bytes: the result is the same on any
 * host byte order and no input needs to be aligned.
 */
#include "common/sha256.h"

#include <string.h>

/* FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* One 64-byte block into the chaining value (FIPS 180-4, 6.2.2). */
static void sha256_block(uint32_t state[8], const unsigned char *block)
{
	uint32_t w[64];
	for (int t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ w[t - 15] >> 3;
		uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ w[t - 2] >> 10;
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}

	/* a..h as the standard names them, so the rounds read against it. */
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	for (int t = 0; t < 64; t++) {
		uint32_t s1 = ror(e, 6) ^ ror(e, 11) ^ ror(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = h + s1 + ch + sha256_k[t] + w[t];
		uint32_t s0 = ror(a, 2) ^ ror(a, 13) ^ ror(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + maj;
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

void sha256_init(struct sha256 *s)
{
	/* FIPS 180-4, 5.3.3: the first 32 bits of the fractional parts of the
	 * square roots of the first 8 primes. */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, h0, sizeof h0);
	s->bytes = 0;
	s->used = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* Nothing to add; also keeps a NULL data away from memcpy. */
	if (len == 0)
		return;
	s->bytes += len;
	/* Complete a block left part-filled by the previous call first. */
	if (s->used > 0) {
		size_t take = sizeof s->buf - s->used;
		if (take > len)
			take = len;
		memcpy(s->buf + s->used, p, take);
		s->used += take;
		p += take;
		len -= take;
		if (s->used < sizeof s->buf)
			return;
		sha256_block(s->h, s->buf);
		s->used = 0;
	}
	/* Whole blocks straight from the caller's bytes, without a copy. */
	for (; len >= sizeof s->buf; p += sizeof s->buf, len -= sizeof s->buf)
		sha256_block(s->h, p);
	if (len > 0) {
		memcpy(s->buf, p, len);
		s->used = len;
	}
}

void sha256_final(struct sha256 *s, unsigned char out[32])
{
	/* The length in bits, taken before the padding is counted; a message
	 * of 2^61 bytes or more would wrap, which nothing here comes near. */
	uint64_t bits = s->bytes * 8;

	/* A 1 bit, zeros up to 56 bytes into a block, then the 64-bit
	 * length.  When fewer than 9 bytes are left after the message (used
	 * 56..63) the padding spills into a block of its own. */
	s->buf[s->used++] = 0x80;
	if (s->used > 56) {
		memset(s->buf + s->used, 0, sizeof s->buf - s->used);
		sha256_block(s->h, s->buf);
		s->used = 0;
	}
	memset(s->buf + s->used, 0, 56 - s->used);
	store_be32(s->buf + 56, (uint32_t)(bits >> 32));
	store_be32(s->buf + 60, (uint32_t)bits);
	sha256_block(s->h, s->buf);

	for (int i = 0; i < 8; i++)
		store_be32(out + 4 * i, s->h[i]);
}

void sha256_hex(const unsigned char digest[32], char out[65])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < SHA256_DIGEST_LEN; i++) {
		out[2 * i] = digits[digest[i] >> 4];
		out[2 * i + 1] = digits[digest[i] & 0x0f];
	}
	out[SHA256_HEX_LEN] = '\0';
}
