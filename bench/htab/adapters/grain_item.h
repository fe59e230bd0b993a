/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_item.h - the benchmark's grain_htab entry, its hash and equality,
 * and the calls of grain_adapter.c that grain_qsbr_adapter.c shares
 * (liburcu's flavours need a translation unit each).
 */
#ifndef GRAIN_BENCH_HTAB_GRAIN_ITEM_H
#define GRAIN_BENCH_HTAB_GRAIN_ITEM_H

#include "harness.h"

#include <grain/hash.h>
#include <grain/htab.h>

#include <stddef.h>

/* Key and value first: the chain walk reads node.hash and then the key,
 * so both sit in the item's first 64 bytes. */
struct grain_item {
	uint64_t key;
	uint64_t value;
	struct grain_hnode node;
};

/* Also of a const node: the lookups hand back what they found. */
static inline struct grain_item *item_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct grain_item, node);
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
	return item_of(node)->key == *(const uint64_t *)key;
}

/* The benchmark's hash and equality as compile-time parameters: every
 * measured call is a _fast call, so both inline into the table's code. */
static const struct grain_htab_params item_params = { item_hash, item_eq };

struct rcu_flavor_struct;
int bench_htab_grain_create(void **tablep, enum bench_htab_impl impl,
			    enum bench_htab_workload w,
			    const struct rcu_flavor_struct *flavor);
void bench_htab_grain_destroy(void *table);
int bench_htab_grain_insert(void *table, uint64_t key);
int bench_htab_grain_remove(void *table, uint64_t key);
int bench_htab_grain_churn(void *table, uint64_t key, uint64_t now);
uint64_t bench_htab_grain_count(void *table);
uint64_t bench_htab_grain_evictions(void *table);
const char *bench_htab_grain_audit(void *table);

#endif /* GRAIN_BENCH_HTAB_GRAIN_ITEM_H */
