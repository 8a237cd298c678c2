// SPDX-License-Identifier: MIT
/*
 * sim/util/sha256.c - SHA-256 as FIPS 180-4 defines it (sections 4.1.2, 4.2.2, 5.1.1, 5.3.3,
 * 6.2), so that a shard directory can name its scenario by a digest `sha256sum` reproduces.
 * Written for clarity over speed: a scenario is a few kilobytes.
 */
#include <stdint.h>
#include <string.h>

#include "sim/util/util.h"

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes (4.2.2). */
static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

/* n is 1..31 at every call, so neither shift is by 32 (undefined for a 32-bit operand). */
static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/*
 * One 64-byte block into the hash value @h (6.2.2): sig0/sig1 are FIPS's lower-case sigma
 * (the schedule), sum0/sum1 its upper-case Sigma (the rounds). Words are big-endian (3.1).
 */
static void compress(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		uint32_t sig0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t sig1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = sig1 + w[t - 7] + sig0 + w[t - 16];
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int t = 0; t < 64; t++) {
		uint32_t sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + sum1 + ch + k[t] + w[t];
		uint32_t sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = sum0 + maj;

		hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void util_sha256_init(struct util_sha256 *s)
{
	/* The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->bytes = 0;
	s->nbuf = 0;
}

/*
 * Invariant between calls: @s->nbuf < 64 bytes wait in @s->buf (a block is compressed as soon
 * as it is complete), and @s->bytes counts every byte given so far, for the length in the
 * padding. Whole blocks are compressed straight from @data when nothing is waiting.
 */
void util_sha256_update(struct util_sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!len) /* @data may then be NULL, which memcpy() may not be given even for 0 bytes */
		return;
	s->bytes += len;
	if (s->nbuf) {
		size_t n = 64 - s->nbuf < len ? 64 - s->nbuf : len;

		memcpy(s->buf + s->nbuf, p, n);
		s->nbuf += n, p += n, len -= n;
		if (s->nbuf < 64)
			return;
		compress(s->h, s->buf);
		s->nbuf = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(s->h, p);
	if (len)
		memcpy(s->buf, p, len);
	s->nbuf = len;
}

/*
 * Padding (5.1.1): a 1 bit (0x80), zeros up to 56 bytes mod 64, then the length in bits as a
 * 64-bit big-endian number. When 56..63 bytes wait, the 0x80 and length do not fit with them,
 * and the padding spills into a second block. @s must be initialised again before reuse.
 */
void util_sha256_final(struct util_sha256 *s, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	uint64_t bits = s->bytes * 8; /* FIPS limits messages to < 2^64 bits; wraps beyond. */

	s->buf[s->nbuf++] = 0x80;
	if (s->nbuf > 56) {
		memset(s->buf + s->nbuf, 0, 64 - s->nbuf);
		compress(s->h, s->buf);
		s->nbuf = 0;
	}
	memset(s->buf + s->nbuf, 0, 56 - s->nbuf);
	for (int i = 0; i < 8; i++)
		s->buf[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress(s->h, s->buf);
	for (int i = 0; i < 32; i++) {
		unsigned char byte = (unsigned char)(s->h[i / 4] >> (24 - 8 * (i % 4)));

		hex[2 * i] = digits[byte >> 4];
		hex[2 * i + 1] = digits[byte & 15];
	}
	hex[64] = '\0';
}
