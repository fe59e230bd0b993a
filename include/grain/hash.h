/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file hash.h
 * @brief Seeded hashes: SipHash-2-4 (a keyed PRF: hash flooding needs the
 *        key), a fast 64-bit mixer for trusted integer keys, and random
 *        key generation.
 *
 * Thread safety: every function is pure (reads its arguments only), except
 * grain_hash_key_random(), which reads the kernel's random source; all may
 * run concurrently from any thread. Compiles as C11 and as C++.
 */
#ifndef GRAIN_HASH_H
#define GRAIN_HASH_H

#include <grain/common.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A 128-bit SipHash key. Keep it secret from whoever chooses the keys. */
struct grain_hash_key {
	uint64_t k0, k1;
};
/** @var grain_hash_key::k0
 * The key's first 64 bits. */
/** @var grain_hash_key::k1
 * The key's last 64 bits. */

/**
 * grain_siphash - SipHash-2-4 of @p len bytes at @p data under @p key, as
 * specified by Aumasson and Bernstein (2012), with the reference test
 * vectors. @p data may be NULL if @p len is 0.
 * @return the hash; 0 if @p key is NULL, or @p data is NULL with @p len > 0
 *         (common.h, "Error convention": NULL). Any thread.
 */
GRAIN_API uint64_t grain_siphash(const void *data, size_t len,
				 const struct grain_hash_key *key);

/**
 * grain_hash_key_random - fill @p key from getrandom(2).
 * @return 0; -EINVAL if @p key is NULL (nothing written); -EIO if the
 *         kernel gave fewer bytes (the key is then derived from the clock
 *         and addresses: unpredictable to a remote sender in practice, but
 *         not cryptographically random). Any thread.
 */
GRAIN_API GRAIN_NODISCARD int grain_hash_key_random(struct grain_hash_key *key);

/**
 * grain_hash_mix64 - a bijective 64-bit finaliser (xor-shift-multiply):
 * fast, well mixed, NOT keyed. For keys an attacker cannot choose.
 * Inline in C and in C++ (libgrain exports a copy too).
 */
GRAIN_INLINE_ANY uint64_t grain_hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_HASH_H */
