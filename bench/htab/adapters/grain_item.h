/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_item.h - the benchmark's grain_htab entry, its hash and equality,
 * shared by the adapters of each RCU flavour (grain_adapter.c,
 * grain_qsbr_adapter.c).
 */
#ifndef GRAIN_BENCH_HTAB_GRAIN_ITEM_H
#define GRAIN_BENCH_HTAB_GRAIN_ITEM_H

#include <grain/hash.h>
#include <grain/htab.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Key and value first: the chain walk reads node.hash and then the key,
 * so both sit in the item's first 64 bytes. */
struct grain_item {
	uint64_t key;
	uint64_t value;
	struct grain_hnode node;
};

static inline struct grain_item *item_of(struct grain_hnode *n)
{
	return grain_container_of(n, struct grain_item, node);
}

static inline const struct grain_item *citem_of(const struct grain_hnode *n)
{
	return (const struct grain_item
			*)(const void *)((const char *)n -
					 offsetof(struct grain_item, node));
}

static inline uint64_t item_hash(const void *key,
				 const struct grain_hash_key *secret, void *ctx)
{
	(void)secret;
	(void)ctx;
	return grain_hash_mix64(*(const uint64_t *)key);
}

static inline bool item_eq(const struct grain_hnode *node, const void *key,
			   void *ctx)
{
	(void)ctx;
	return citem_of(node)->key == *(const uint64_t *)key;
}

/* The benchmark's hash and equality as compile-time parameters: every
 * measured call is a _fast call, so both inline into the table's code. */
static const struct grain_htab_params item_params = { item_hash, item_eq };

#endif /* GRAIN_BENCH_HTAB_GRAIN_ITEM_H */
