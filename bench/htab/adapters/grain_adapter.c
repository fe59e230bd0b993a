/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_adapter.c - grain_htab with 1, 16, 256 and 4096 stripes and
 * locked lookups (GRAIN_HTAB_NO_RCU), the same with 256 stripes and the
 * CLOCK eviction order (GRAIN_HTAB_EVICT_CLOCK), and with 256 stripes and
 * RCU lookups (liburcu memb; grain_qsbr_adapter.c has the qsbr flavour).
 *
 * Every configuration: BENCH_HTAB_BUCKETS / 2 buckets in all, resizing
 * on, a charge of 1 per entry, each entry a malloc'd grain_item that the
 * table hands to ops.reclaim, which frees it: at once for the NO_RCU
 * tables, after a grace period (call_rcu, 256 nodes a batch) for the RCU
 * ones. Lookups are grain_htab_lock_fast + find_locked_fast + unlock, or
 * grain_htab_lookup_fast in liburcu's inline read-side section; inserts
 * and removes the one-call _fast forms; bursts (bulk workloads), in the
 * grain-rcu-bulk table, grain_htab_lookup_bulk_fast in one read-side
 * section. Churn: policy EVICT with mem_high = mem_low =
 * BENCH_HTAB_CHURN_LIMIT, so the unlock of every insert into the full
 * table evicts the least recently used entry.
 */
/* liburcu's read side inline (its static headers), as a daemon that
 * cares about lookup cost would use it. */
#define _LGPL_SOURCE
#include "grain_item.h"

#include <stdlib.h>
#include <string.h>
#include <urcu/urcu-memb.h>

static void item_reclaim(struct grain_hnode *node, enum grain_htab_reason why,
			 void *ctx)
{
	(void)why;
	(void)ctx;
	free(item_of(node));
}

int bench_htab_grain_create(void **tablep, enum bench_htab_impl impl,
			    enum bench_htab_workload w,
			    const struct rcu_flavor_struct *flavor)
{
	/* GRAIN_1 .. GRAIN_4096: 1, 16, 256, 4096 stripes; RCU, QSBR: 256. */
	bool rcu = impl == BENCH_HTAB_GRAIN_RCU ||
		   impl == BENCH_HTAB_GRAIN_QSBR ||
		   impl == BENCH_HTAB_GRAIN_RCU_BULK;
	bool clock = impl == BENCH_HTAB_GRAIN_CLOCK;
	unsigned stripes = rcu || clock ? 256u : 1u << (4u * (unsigned)impl);
	struct grain_htab_config cfg = {
		.ops = { .hash = item_hash,
			 .eq = item_eq,
			 .reclaim = item_reclaim },
		.stripes = stripes,
		/* A bucket holds GRAIN_HTAB_BUCKET_SLOTS entries in one
		 * cache line: half the chained tables' bucket count keeps
		 * the population at about two a bucket, below max_load (3),
		 * so no table resizes, filled or running. */
		.buckets = BENCH_HTAB_BUCKETS / 2u / stripes,
		/* RCU tables send removed nodes to call_rcu 256 at a time
		 * (a stripe holds up to 255 back, about 13% of the
		 * population at 256 stripes), as a daemon with frequent
		 * removes would: fewer grace periods, each a membarrier
		 * call with the memb flavour (doc/bench/htab-since-0.4.md). */
		.flags = (rcu ? GRAIN_HTAB_BATCH_RECLAIM : GRAIN_HTAB_NO_RCU) |
			 (clock ? GRAIN_HTAB_EVICT_CLOCK : 0u),
		.flavor = flavor,
		.reclaim_batch = 256,
		/* Every feature on: the LRU and the byte accounting always
		 * are; the mixed workloads also get a TTL (stamps are 0:
		 * nothing expires, but every insert checks its stripe's
		 * oldest entry) and a high watermark they never reach
		 * (every insert checks it). */
		.policy = GRAIN_HTAB_EVICT,
		.mem_high = w == BENCH_HTAB_CHURN ? BENCH_HTAB_CHURN_LIMIT
						  : 2u * BENCH_HTAB_UNIVERSE,
		.mem_low = w == BENCH_HTAB_CHURN ? BENCH_HTAB_CHURN_LIMIT : 0,
		.ttl = w == BENCH_HTAB_CHURN ? 0 : UINT64_MAX / 2,
	};
	struct grain_htab *h;
	int rc = grain_htab_create(&h, &cfg, NULL);

	if (rc == 0)
		*tablep = h;
	return rc;
}

static int grain_create(void **tablep, enum bench_htab_impl impl,
			enum bench_htab_workload w)
{
	return bench_htab_grain_create(tablep, impl, w, NULL);
}

void bench_htab_grain_destroy(void *table)
{
	grain_htab_destroy(table);
}

/* 1 inserted, 0 present, or -errno. */
static int insert_stamped(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct grain_item *it = malloc(sizeof(*it));

	if (it == NULL)
		return -ENOMEM;
	it->key = key;
	it->value = bench_htab_value(key);
	memset(&it->node, 0, sizeof(it->node));
	int rc = grain_htab_insert_fast(h, &it->node, &it->key, now, 1,
					item_params);
	if (rc == 0)
		return 1;
	free(it);
	return rc == -EEXIST ? 0 : rc;
}

int bench_htab_grain_insert(void *table, uint64_t key)
{
	return insert_stamped(table, key, 0);
}

int bench_htab_grain_remove(void *table, uint64_t key)
{
	int rc = grain_htab_remove_fast(table, &key, NULL, item_params);
	return rc == 0 ? 1 : rc == -ENOENT ? 0 : rc;
}

/* The fresh key must go in; its unlock did the eviction. */
int bench_htab_grain_churn(void *table, uint64_t key, uint64_t now)
{
	return bench_htab_fresh(insert_stamped(table, key, now));
}

static uint64_t grain_lookup_locked(void *table, uint64_t key)
{
	struct grain_htab_scope scope;

	grain_htab_lock_fast(table, &key, &scope, item_params);
	struct grain_hnode *n =
		grain_htab_find_locked_fast(&scope, &key, item_params);
	uint64_t v = n != NULL ? item_of(n)->value : 0;
	grain_htab_unlock(&scope);
	return v;
}

static uint64_t grain_lookup_rcu(void *table, uint64_t key)
{
	urcu_memb_read_lock();
	struct grain_hnode *n =
		grain_htab_lookup_fast(table, &key, item_params);
	uint64_t v = n != NULL ? item_of(n)->value : 0;
	urcu_memb_read_unlock();
	return v;
}

/* A burst in one read-side section: grain_htab_lookup_bulk_fast. */
static int grain_bulk_rcu(void *table, const uint64_t *keys, unsigned n,
			  uint64_t *values)
{
	const void *kp[GRAIN_HTAB_LOOKUP_BULK_MAX];
	struct grain_hnode *nodes[GRAIN_HTAB_LOOKUP_BULK_MAX];

	for (unsigned i = 0; i < n; i++)
		kp[i] = &keys[i];
	urcu_memb_read_lock();
	int rc = grain_htab_lookup_bulk_fast(table, kp, n, nodes, NULL,
					     item_params);
	for (unsigned i = 0; i < n; i++)
		values[i] = nodes[i] != NULL ? item_of(nodes[i])->value : 0;
	urcu_memb_read_unlock();
	return rc;
}

uint64_t bench_htab_grain_count(void *table)
{
	struct grain_htab_stats st;

	grain_htab_get_stats(table, &st);
	return st.entries;
}

uint64_t bench_htab_grain_evictions(void *table)
{
	struct grain_htab_stats st;

	grain_htab_get_stats(table, &st);
	return st.evictions;
}

const char *bench_htab_grain_audit(void *table)
{
	struct grain_htab_stats st;

	grain_htab_get_stats(table, &st);
	if (st.bytes != st.entries)
		return "bytes (a charge of 1 per entry) differ from entries";
	if (grain_htab_bytes_exact(table) != st.entries)
		return "grain_htab_bytes_exact differs from entries";
	if (st.refusals != 0 || st.chain_refusals != 0)
		return "an insert was refused";
	if (st.expirations != 0)
		return "entries expired without a ttl";
	return NULL;
}

#define GRAIN_COMMON                                                 \
	.create = grain_create, .destroy = bench_htab_grain_destroy, \
	.count = bench_htab_grain_count,                             \
	.evictions = bench_htab_grain_evictions,                     \
	.audit = bench_htab_grain_audit
BENCH_HTAB_ADAPTER(bench_htab_adapter_grain, grain_lookup_locked,
		   bench_htab_grain_insert, bench_htab_grain_remove,
		   bench_htab_grain_churn, GRAIN_COMMON)
BENCH_HTAB_ADAPTER(bench_htab_adapter_grain_rcu, grain_lookup_rcu,
		   bench_htab_grain_insert, bench_htab_grain_remove,
		   bench_htab_grain_churn, GRAIN_COMMON, .rcu = true)
BENCH_HTAB_BULK_THREAD(grain_rcu_bulk_thread, grain_lookup_rcu, grain_bulk_rcu)
BENCH_HTAB_ADAPTER(bench_htab_adapter_grain_rcu_bulk, grain_lookup_rcu,
		   bench_htab_grain_insert, bench_htab_grain_remove,
		   bench_htab_grain_churn, GRAIN_COMMON, .rcu = true,
		   .burst_bulk = grain_rcu_bulk_thread)
