// SPDX-License-Identifier: MIT
/*
 * Unit tests of util_sha256_*() (sim/util/util.h): the published FIPS 180-2 example vectors
 * and NIST CAVP short messages, then the same digest however the input is cut into update()
 * calls, across every padding boundary (55, 56, 63, 64 bytes and the block after).
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/util/util.h"

/* The digest of @len bytes at @data fed in pieces of @piece bytes (the last one shorter). */
static void digest_pieces(const void *data, size_t len, size_t piece, char hex[65])
{
	struct util_sha256 s;
	const unsigned char *p = data;

	util_sha256_init(&s);
	for (size_t off = 0; off < len; off += piece)
		util_sha256_update(&s, p + off, len - off < piece ? len - off : piece);
	util_sha256_final(&s, hex);
}

static void digest(const void *data, size_t len, char hex[65])
{
	struct util_sha256 s;

	util_sha256_init(&s);
	util_sha256_update(&s, data, len);
	util_sha256_final(&s, hex);
}

/* A fixed pattern with every byte value, those >= 0x80 included (a sign-extension bug). */
static void pattern(unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 131 + 7);
}

static const struct {
	const char *msg;
	size_t len;
	const char *md;
} vectors[] = {
	/* FIPS 180-2 appendix B and its 896-bit example (two blocks of message). */
	{ "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlm"
	  "nopqrsmnopqrstnopqrstu",
	  112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	/* NIST CAVP SHA256ShortMsg, Len = 8 and 16: bytes >= 0x80. */
	{ "\xd3", 1, "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1" },
	{ "\x11\xaf", 2, "5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98" },
};

Test(sha256, published_vectors)
{
	char hex[65];

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		cr_assert_eq(strlen(vectors[i].msg), vectors[i].len);
		digest(vectors[i].msg, vectors[i].len, hex);
		cr_expect_str_eq(hex, vectors[i].md, "vector %zu (%zu bytes)", i, vectors[i].len);
	}
}

/* The 448-bit vector is 56 bytes: its 0x80 and length spill into a second block. */
Test(sha256, published_vectors_in_every_piece_size)
{
	char hex[65];

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		for (size_t piece = 1; piece <= 130; piece++) {
			digest_pieces(vectors[i].msg, vectors[i].len, piece, hex);
			cr_assert_str_eq(hex, vectors[i].md, "vector %zu in pieces of %zu", i,
					 piece);
		}
}

/* FIPS 180-2 B.3: 1,000,000 'a', whole, byte by byte, and around the block size. */
Test(sha256, million_a)
{
	static const size_t pieces[] = { 1000000, 1, 55, 56, 63, 64, 65, 1000, 4096 };
	const char *md = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	char *a = malloc(1000000);
	char hex[65];

	cr_assert_not_null(a);
	memset(a, 'a', 1000000);
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		digest_pieces(a, 1000000, pieces[i], hex);
		cr_expect_str_eq(hex, md, "in pieces of %zu", pieces[i]);
	}
	free(a);
}

/*
 * Lengths 0..200 of the pattern (every count of waiting bytes at final(), up to three blocks
 * and a bit): each digest is the same in every piece size 1..130, and no two lengths share
 * one (the length is in the padding, and a dropped tail byte would collide).
 */
Test(sha256, pattern_lengths_agree_in_every_piece_size)
{
	static char whole[201][65];
	unsigned char buf[200];
	char hex[65];

	pattern(buf, sizeof(buf));
	for (size_t len = 0; len <= 200; len++) {
		digest(buf, len, whole[len]);
		for (size_t piece = 1; piece <= 130; piece++) {
			digest_pieces(buf, len, piece, hex);
			cr_assert_str_eq(hex, whole[len], "%zu bytes in pieces of %zu", len, piece);
		}
		for (size_t shorter = 0; shorter < len; shorter++)
			cr_assert_str_neq(whole[len], whole[shorter], "%zu and %zu bytes", len,
					  shorter);
	}
}

/* The hash value @s->h in final()'s form: eight big-endian words in lowercase hex. */
static void hash_value_hex(const struct util_sha256 *s, char hex[65])
{
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08" PRIx32, s->h[i]);
}

/*
 * final()'s padding against FIPS 180-4 5.1.1 written out here: the message, 0x80, the fewest
 * zero bytes that make the length 56 mod 64, then the length in bits as 8 big-endian bytes.
 * That is whole blocks, so after update() alone the hash value is the digest. Chunking cannot
 * catch a padding rule that is wrong the same way for every chunking (a second block at 55
 * bytes rather than 56, say), and no published vector above is 55 bytes mod 64.
 */
Test(sha256, final_pads_as_fips_5_1_1)
{
	unsigned char buf[200], padded[200 + 1 + 63 + 8];
	struct util_sha256 s;
	char want[65], got[65];

	pattern(buf, sizeof(buf));
	for (size_t len = 0; len <= 200; len++) {
		uint64_t bits = (uint64_t)len * 8;
		size_t n = len;

		memcpy(padded, buf, len);
		padded[n++] = 0x80;
		while (n % 64 != 56)
			padded[n++] = 0;
		for (int i = 0; i < 8; i++)
			padded[n++] = (unsigned char)(bits >> (56 - 8 * i));
		util_sha256_init(&s);
		util_sha256_update(&s, padded, n);
		cr_assert_eq(s.nbuf, 0, "%zu bytes padded to %zu, whole blocks", len, n);
		hash_value_hex(&s, got);
		digest(buf, len, want);
		cr_assert_str_eq(want, got, "%zu bytes", len);
	}
}

/*
 * The length field holds all 64 bits (5.1.1), which a message past 512 MiB needs: pretend
 * 2^40 bytes came first (final() reads only h, buf, nbuf and bytes) and compare with the
 * padding written out for that length.
 */
Test(sha256, final_pads_with_a_64_bit_length)
{
	unsigned char padded[64] = "abc";
	uint64_t bits = (((uint64_t)1 << 40) + 3) * 8;
	struct util_sha256 s;
	char want[65], got[65];

	padded[3] = 0x80;
	for (int i = 0; i < 8; i++)
		padded[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	util_sha256_init(&s);
	util_sha256_update(&s, padded, 64);
	hash_value_hex(&s, want);

	util_sha256_init(&s);
	util_sha256_update(&s, "abc", 3);
	s.bytes += (uint64_t)1 << 40;
	util_sha256_final(&s, got);
	cr_assert_str_eq(got, want);
}

/* Uneven pieces, empty ones (with a NULL pointer) among them, give the one-call digest. */
Test(sha256, uneven_and_empty_pieces)
{
	static const size_t cuts[] = { 0, 1, 0, 54, 1, 8, 0, 63, 64, 1 };
	unsigned char buf[200];
	struct util_sha256 s;
	char hex[65], want[65];
	size_t off = 0;

	pattern(buf, sizeof(buf));
	digest(buf, sizeof(buf), want);
	util_sha256_init(&s);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		if (cuts[i])
			util_sha256_update(&s, buf + off, cuts[i]);
		else
			util_sha256_update(&s, NULL, 0);
		off += cuts[i];
	}
	util_sha256_update(&s, buf + off, sizeof(buf) - off);
	util_sha256_final(&s, hex);
	cr_assert_str_eq(hex, want);
}

/* final() writes 64 lowercase hex digits and a NUL, and not one byte more. */
Test(sha256, final_writes_exactly_65_bytes)
{
	struct util_sha256 s;
	char out[80];

	memset(out, '#', sizeof(out));
	util_sha256_init(&s);
	util_sha256_update(&s, "abc", 3);
	util_sha256_final(&s, out);
	for (int i = 0; i < 64; i++)
		cr_assert(strchr("0123456789abcdef", out[i]) && out[i], "digit %d is '%c'", i, out[i]);
	cr_assert_eq(out[64], '\0');
	for (size_t i = 65; i < sizeof(out); i++)
		cr_assert_eq(out[i], '#', "byte %zu written", i);
}

/* init() again makes a used state as good as new. */
Test(sha256, init_resets)
{
	struct util_sha256 s;
	char hex[65];

	util_sha256_init(&s);
	util_sha256_update(&s, "an earlier message, in the buffer at final()", 44);
	util_sha256_final(&s, hex);
	util_sha256_init(&s);
	util_sha256_update(&s, "abc", 3);
	util_sha256_final(&s, hex);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
