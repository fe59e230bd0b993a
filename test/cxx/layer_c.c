/* SPDX-License-Identifier: BSD-2-Clause */
/* layer_c.c - the C half of the C++ layer's test (layer.h). */
#include "layer.h"

#include <stdalign.h>
#include <stdbool.h>

size_t layer_c_facts(size_t *out, size_t n)
{
	const size_t facts[] = {
		offsetof(struct grain_htab, dir),
		offsetof(struct grain_htab, smask),
		offsetof(struct grain_htab, ops),
		offsetof(struct grain_htab, ctx),
		offsetof(struct grain_htab, secret),
		offsetof(struct grain_htab, flags),
		sizeof(struct grain_impl_htab_bucket),
		alignof(struct grain_impl_htab_bucket),
		offsetof(struct grain_impl_htab_bucket, sig1),
		offsetof(struct grain_impl_htab_bucket, meta),
		offsetof(struct grain_impl_htab_bucket, node),
		GRAIN_HTAB_BUCKET_SLOTS,
		GRAIN_IMPL_HTAB_NEXT_MASK,
		GRAIN_IMPL_HTAB_DIR_LOG,
		GRAIN_IMPL_HTAB_SSE2,
	};
	const size_t count = sizeof(facts) / sizeof(facts[0]);

	for (size_t i = 0; i < n && i < count; i++)
		out[i] = facts[i];
	return count;
}

uint64_t layer_c_hash(const void *key, const struct grain_hash_key *secret,
		      void *ctx)
{
	(void)ctx;
	return grain_hash_mix64(*(const uint64_t *)key ^ secret->k0);
}

static bool layer_c_eq(const struct grain_hnode *node, const void *key,
		       void *ctx)
{
	(void)ctx;
	return ((const struct layer_c_node *)(const void *)node)->key ==
	       *(const uint64_t *)key;
}

static const struct grain_htab_params layer_c_params = { layer_c_hash,
							 layer_c_eq };

__attribute__((noinline)) uint64_t
layer_measure_c(struct grain_htab *h, const uint64_t *keys, size_t n)
{
	uint64_t found = 0;

	for (size_t i = 0; i < n; i++)
		found += grain_htab_lookup_fast(h, &keys[i], layer_c_params) !=
			 NULL;
	return found;
}

struct grain_hnode *layer_c_lookup(struct grain_htab *h, uint64_t key)
{
	return grain_htab_lookup_fast(h, &key, layer_c_params);
}

struct grain_spinlock *layer_c_scope_lock(struct grain_htab_scope *s)
{
	return s->stripe != NULL ? &s->stripe->lock : NULL;
}
