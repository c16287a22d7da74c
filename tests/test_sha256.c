/*
 * test_sha256.c - SHA-256 against the published vectors, across the block
 * and padding boundaries, and however the message is split into updates.
 *
 * The FIPS 180 vectors are the standard's own (FIPS 180-2, appendix B, and
 * the NIST example values); the boundary and split digests were worked out
 * once with an independent implementation (Python's hashlib, checked with
 * coreutils' sha256sum), never with the code under test.
 */
#include <stdint.h>
#include <string.h>

#include "common/sha256.h"
#include "tests/test.h"

/* The hex digest of len bytes at data, hashed in one update. */
static void hex_of(const void *data, size_t len, char hex[65])
{
	struct sha256 s;
	unsigned char d[32];
	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, d);
	sha256_hex(d, hex);
}

static void test_fips_vectors(void)
{
	char hex[65];

	hex_of("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of(NULL, 0, hex); /* no bytes need no buffer */
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");

	hex_of("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

	/* 448 bits: the length no longer fits the first block's padding. */
	const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	hex_of(m448, strlen(m448), hex);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

	/* 896 bits: two blocks of message before the padding. */
	const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	hex_of(m896, strlen(m896), hex);
	CHECK_STR(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* One million 'a', fed in chunks of uneven sizes that straddle the block
 * boundary in every way: shorter than a block, exactly one, just over,
 * several at once. */
static void test_million_a(void)
{
	static const size_t sizes[] = { 1, 63, 64, 65, 7, 127, 128, 129, 1000, 3, 55, 56, 9 };
	static unsigned char a[1000];
	struct sha256 s;
	unsigned char d[32];
	char hex[65];
	size_t left = 1000000;

	memset(a, 'a', sizeof a);
	sha256_init(&s);
	for (size_t i = 0; left > 0; i = (i + 1) % (sizeof sizes / sizeof sizes[0])) {
		size_t n = sizes[i] < left ? sizes[i] : left;
		sha256_update(&s, a, n);
		left -= n;
	}
	sha256_final(&s, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Messages of n 'a' around the padding's edges: 55 bytes is the longest
 * that leaves room for the 0x80 byte and the length in its block, 56..63
 * push the length into a block of its own, 64 and 65 start a second block
 * of message; 119 and 120 are the same edge one block later. */
static void test_padding_edges(void)
{
	static const struct { size_t n; const char *hex; } want[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	};
	unsigned char a[120];
	char hex[65];

	memset(a, 'a', sizeof a);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		hex_of(a, want[i].n, hex);
		CHECK_STR(hex, want[i].hex);
	}
}

/* The bytes 0..130 split into two updates at every offset, and fed one
 * byte at a time: the digest depends only on the bytes. */
static void test_splits(void)
{
	static const char *want = "3acc128faf01077789746edcfd1051d90bc1591342402d9b3cdd06d7315702a4";
	unsigned char m[131];
	struct sha256 s;
	unsigned char d[32];
	char hex[65];

	for (size_t i = 0; i < sizeof m; i++)
		m[i] = (unsigned char)i;
	hex_of(m, sizeof m, hex);
	CHECK_STR(hex, want);

	for (size_t cut = 0; cut < sizeof m; cut++) {
		sha256_init(&s);
		sha256_update(&s, m, cut);
		sha256_update(&s, m + cut, sizeof m - cut);
		sha256_final(&s, d);
		sha256_hex(d, hex);
		if (strcmp(hex, want) != 0)
			fprintf(stderr, "split at %zu:\n", cut);
		CHECK_STR(hex, want);
	}

	sha256_init(&s);
	for (size_t i = 0; i < sizeof m; i++)
		sha256_update(&s, m + i, 1);
	sha256_final(&s, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, want);
}

/* The hex form: every nibble value in both halves of a byte, lowercase,
 * up then down, terminated at 64. */
static void test_hex(void)
{
	unsigned char d[32];
	char hex[66];

	for (int i = 0; i < 32; i++)
		d[i] = (unsigned char)(i < 16 ? i * 0x11 : 0xff - (i - 16) * 0x11);
	memset(hex, 'X', sizeof hex);
	sha256_hex(d, hex);
	CHECK_STR(hex, "00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100");
	CHECK_INT(hex[65], 'X'); /* nothing written past the terminator */
}

int main(void)
{
	test_fips_vectors();
	test_million_a();
	test_padding_edges();
	test_splits();
	test_hex();
	return TEST_END();
}
