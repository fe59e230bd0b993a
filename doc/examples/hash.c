/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hash.c - the EXAMPLE sections of hash.h's man pages (doc/manpages.py:
 * each page shows the shortest example below that uses its name, after
 * these #include lines).
 */
#include <grain/hash.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* example */
/* A keyed hash of a flow's 5-tuple, and an unkeyed mix of a counter. */
int example_hash(void)
{
	struct grain_hash_key key;
	/* A fixed key gives the same hashes in every run (for tests). */
	const struct grain_hash_key fixed = { .k0 = 1, .k1 = 2 };
	const char flow[] = "10.0.0.1:5000>10.0.0.2:53/udp";

	/* -EIO: the kernel gave too few random bytes; the key is then
	 * still unpredictable in practice. */
	if (grain_hash_key_random(&key) == -EINVAL)
		return -1;
	uint64_t h = grain_siphash(flow, strlen(flow), &key);
	uint64_t again = grain_siphash(flow, strlen(flow), &key);

	/* Not keyed: only for values an attacker cannot choose. */
	uint64_t m = grain_hash_mix64(12345);
	return h == again && m != 12345 &&
			       grain_siphash(flow, 3, &fixed) ==
				       grain_siphash("10.", 3, &fixed)
		       ? 0
		       : -1;
}
