/*
 * sha256.h - SHA-256 (FIPS 180-4), for cache keys and source hashes.
 *
 * A key that says "this input, exactly" must not collide by accident the way
 * a table's hash may, and it must read the same on every machine and in
 * every build, so it is SHA-256 and not something of our own.  It is
 * written out here rather than taken from OpenSSL or libgcrypt so that
 * neither program gains a library to find at configure time for a hundred
 * lines of arithmetic; speed does not matter at the sizes hashed (source
 * files and the text of keys).
 *
 * Usage: sha256_init, sha256_update as many times as the data comes in
 * pieces (the digest depends only on the bytes, never on how they were
 * split), then sha256_final once.
 */
#ifndef CONFORM_SHA256_H
#define CONFORM_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHA256_DIGEST_LEN 32
#define SHA256_HEX_LEN 64 /* without the terminator */

/* The running state: h the chaining value, bytes the message length so
 * far, buf[0..used) the bytes of a block not yet complete (used < 64
 * between calls). */
struct sha256 {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char buf[64];
	size_t used;
};

void sha256_init(struct sha256 *s);

/* Adds len bytes at data to the message (data may be NULL when len is 0). */
void sha256_update(struct sha256 *s, const void *data, size_t len);

/* Pads the message and writes its digest to out.  The state is spent:
 * sha256_init again before hashing another message. */
void sha256_final(struct sha256 *s, unsigned char out[32]);

/* The digest as 64 lowercase hex characters and a NUL, the form stored and
 * compared as text. */
void sha256_hex(const unsigned char digest[32], char out[65]);

#ifdef __cplusplus
}
#endif
#endif
