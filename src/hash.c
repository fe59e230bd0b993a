/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hash.c - SipHash-2-4 and random keys.
 *
 * SipHash: J.-P. Aumasson and D. J. Bernstein, "SipHash: a fast short-input
 * PRF" (INDOCRYPT 2012). Two compression rounds per 8-byte word, four
 * finalisation rounds; the last word carries the length in its top byte.
 */
#define _GNU_SOURCE /* getrandom() */
#include <grain/hash.h>

#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static inline uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t load_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

struct sip {
	uint64_t v0, v1, v2, v3;
};

static inline void sip_round(struct sip *s)
{
	s->v0 += s->v1;
	s->v1 = rotl(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl(s->v2, 32);
}

static inline void sip_word(struct sip *s, uint64_t m)
{
	s->v3 ^= m;
	sip_round(s);
	sip_round(s);
	s->v0 ^= m;
}

uint64_t grain_siphash(const void *data, size_t len,
		       const struct grain_hash_key *key)
{
	const unsigned char *p = data;

	if (key == NULL || (data == NULL && len != 0))
		return 0;
	struct sip s = {
		key->k0 ^ 0x736f6d6570736575ULL, /* "somepseu" */
		key->k1 ^ 0x646f72616e646f6dULL, /* "dorandom" */
		key->k0 ^ 0x6c7967656e657261ULL, /* "lygenera" */
		key->k1 ^ 0x7465646279746573ULL, /* "tedbytes" */
	};
	size_t words = len / 8;

	for (size_t i = 0; i < words; i++, p += 8)
		sip_word(&s, load_le64(p));
	uint64_t last = (uint64_t)(len & 0xff) << 56;
	for (size_t i = 0; i < (len & 7); i++)
		last |= (uint64_t)p[i] << (8 * i);
	sip_word(&s, last);
	s.v2 ^= 0xff;
	for (int i = 0; i < 4; i++)
		sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

int grain_hash_key_random(struct grain_hash_key *key)
{
	unsigned char buf[16];

	if (key == NULL)
		return -EINVAL;
	int saved = errno; /* no grain call sets errno */
	ssize_t got = getrandom(buf, sizeof(buf), 0);
	errno = saved;
	if (got == (ssize_t)sizeof(buf)) {
		key->k0 = load_le64(buf);
		key->k1 = load_le64(buf + 8);
		return 0;
	}
	/* No entropy (very early boot, seccomp): mix what differs per run. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	key->k0 = grain_hash_mix64((uint64_t)ts.tv_nsec ^ (uintptr_t)key);
	key->k1 = grain_hash_mix64((uint64_t)ts.tv_sec ^ (uintptr_t)&ts);
	return -EIO;
}
