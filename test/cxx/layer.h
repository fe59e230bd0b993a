/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * layer.h - what the C half of the C++ layer's test (layer_c.c) offers
 * its C++ half (layer.cc): C's view of the htab layout that
 * <grain/grain.hpp> reads, and the C _fast lookup that the typed table's
 * lookup is measured against.
 */
#ifndef GRAIN_TEST_CXX_LAYER_H
#define GRAIN_TEST_CXX_LAYER_H

#include <grain/grain.h>

#include <stddef.h>
#include <stdint.h>

/* The test's node, the same in both languages: C embeds the hnode first,
 * C++ derives from it (layer.cc checks that the key's offset agrees). */
struct layer_c_node {
	struct grain_hnode hn;
	uint64_t key;
};

#ifdef __cplusplus
extern "C" {
#endif

/* The facts C's compiler makes of impl/htab.h, in this order: offsets in
 * struct grain_htab of dir, smask, ops, ctx, secret, flags; the bucket's
 * size, alignment, offsets of sig1, meta and node; the slot count; the
 * next-index mask; the directory word's log mask; whether the search
 * compares signatures with SSE2. @return how many (out[0..n) filled). */
size_t layer_c_facts(size_t *out, size_t n);

/* The test table's hash and equality, as C callbacks (the C++ side has
 * its own, which must agree). */
uint64_t layer_c_hash(const void *key, const struct grain_hash_key *secret,
		      void *ctx);

/* grain_htab_lookup_fast() with the test's hash and equality, inlined:
 * how many of @p keys[0..n) are found. In a read-side section. */
uint64_t layer_measure_c(struct grain_htab *h, const uint64_t *keys, size_t n);

/* One grain_htab_lookup_fast(), for the differential checks. */
struct grain_hnode *layer_c_lookup(struct grain_htab *h, uint64_t key);

/* The stripe lock that scope @p s holds (or held), or NULL if empty. */
struct grain_spinlock *layer_c_scope_lock(struct grain_htab_scope *s);

#ifdef __cplusplus
}
#endif

#endif
