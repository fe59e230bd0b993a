/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_adapter.c - grain_htab in the benchmark's five configurations.
 *
 * Every configuration: uint64_t keys hashed by grain_hash_mix64 (the hash
 * of every table in this benchmark), BENCH_HTAB_BUCKETS bucket heads in
 * all (BENCH_HTAB_BUCKETS / stripes per stripe), automatic resizing on,
 * a charge of 1 per entry. Each entry is a malloc'd item holding the key,
 * the value and the grain_hnode; the table hands removed and evicted
 * nodes to ops.reclaim, which frees them: at once for the
 * GRAIN_HTAB_NO_RCU tables, after a grace period (liburcu call_rcu) for
 * the RCU table.
 *
 *   grain/1, /16, /256, /4096 (GRAIN_HTAB_NO_RCU): lookups are scoped,
 *   grain_htab_lock + grain_htab_find_locked + read the value +
 *   grain_htab_unlock; inserts grain_htab_insert, removes
 *   grain_htab_remove (one call each).
 *   grain-rcu/256 (RCU table, GRAIN_HTAB_BATCH_RECLAIM): lookups
 *   grain_htab_lookup_fast between liburcu-memb's inline read_lock and
 *   read_unlock, taking no lock; inserts and removes as above; removed
 *   nodes go to call_rcu 256 at a time (config.reclaim_batch).
 *
 * Churn: mem_high = mem_low = BENCH_HTAB_CHURN_LIMIT with policy EVICT,
 * so the unlock of every insert into the full table evicts the least
 * recently used entry (grain_htab_unlock runs the eviction).
 */
/* liburcu's read side inline (its static headers), as a daemon that
 * cares about lookup cost would use it. */
#define _LGPL_SOURCE
#include "grain_item.h"
#include "harness.h"

#include <grain/hash.h>
#include <grain/htab.h>

#include <errno.h>
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
	const struct bench_htab_impl_info *info = bench_htab_info(impl);
	struct grain_htab_config cfg;
	struct grain_htab *h;

	memset(&cfg, 0, sizeof(cfg));
	cfg.ops.hash = item_hash;
	cfg.ops.eq = item_eq;
	cfg.ops.reclaim = item_reclaim;
	cfg.stripes = info->stripes;
	/* A grain bucket holds GRAIN_HTAB_BUCKET_SLOTS entries in one cache
	 * line: half the chained tables' bucket count keeps the initial
	 * population at about two entries a bucket, below max_load (3), so
	 * no table resizes, while it is filled or during a run. */
	cfg.buckets = BENCH_HTAB_BUCKETS / 2u / info->stripes;
	/* RCU tables send removed nodes to call_rcu 256 at a time (a
	 * stripe holds up to 255 removed nodes back, about 13% of the
	 * population at 256 stripes), as a daemon with frequent removes
	 * would configure them: fewer grace periods, each of which is a
	 * membarrier call with the memb flavour (bench/NOTES.md). */
	cfg.flags = info->rcu_lookups ? GRAIN_HTAB_BATCH_RECLAIM
				      : GRAIN_HTAB_NO_RCU;
	cfg.rcu_flavor = flavor;
	cfg.reclaim_batch = 256;
	/* Every feature on: the LRU and the byte accounting always are; the
	 * mixed workloads also get a TTL (stamps are 0: nothing expires,
	 * but every insert checks its stripe's oldest entry) and a high
	 * watermark they never reach (every insert checks it). */
	cfg.policy = GRAIN_HTAB_EVICT;
	if (w == BENCH_HTAB_CHURN) {
		cfg.mem_high = BENCH_HTAB_CHURN_LIMIT;
		cfg.mem_low = BENCH_HTAB_CHURN_LIMIT;
	} else {
		cfg.mem_high = 2u * BENCH_HTAB_UNIVERSE;
		cfg.ttl = UINT64_MAX / 2;
	}
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

static struct grain_item *item_new(uint64_t key)
{
	struct grain_item *it = malloc(sizeof(*it));

	if (it != NULL) {
		it->key = key;
		it->value = bench_htab_value(key);
		memset(&it->node, 0, sizeof(it->node));
	}
	return it;
}

/* 1 inserted, 0 present, or -errno. */
static int insert_stamped(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct grain_item *it = item_new(key);

	if (it == NULL)
		return -ENOMEM;
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

int bench_htab_grain_populate(void *table, uint64_t key)
{
	int rc = insert_stamped(table, key, 0);
	return rc == 1 ? 0 : rc == 0 ? -EEXIST : rc;
}

int bench_htab_grain_remove(void *table, uint64_t key)
{
	int rc = grain_htab_remove_fast(table, &key, NULL, item_params);
	return rc == 0 ? 1 : rc == -ENOENT ? 0 : rc;
}

/* The fresh key must go in; its unlock did the eviction. */
int bench_htab_grain_churn(void *table, uint64_t key, uint64_t now)
{
	int rc = insert_stamped(table, key, now);
	return rc == 1 ? 0 : rc == 0 ? -EEXIST : rc;
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

uint64_t bench_htab_grain_count(void *table)
{
	struct grain_htab_stats st;

	grain_htab_stats(table, &st);
	return st.entries;
}

uint64_t bench_htab_grain_evictions(void *table)
{
	struct grain_htab_stats st;

	grain_htab_stats(table, &st);
	return st.evictions;
}

const char *bench_htab_grain_audit(void *table)
{
	struct grain_htab_stats st;

	grain_htab_stats(table, &st);
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

BENCH_THREAD_FN(grain_mixed_worker, bench_htab_mixed, grain_lookup_locked,
		bench_htab_grain_insert, bench_htab_grain_remove)
BENCH_THREAD_FN(grain_rcu_mixed_worker, bench_htab_mixed, grain_lookup_rcu,
		bench_htab_grain_insert, bench_htab_grain_remove)
BENCH_THREAD_FN(grain_churn_worker, bench_htab_churn, bench_htab_grain_churn)

const struct bench_htab_adapter bench_htab_adapter_grain = {
	.create = grain_create,
	.destroy = bench_htab_grain_destroy,
	.populate = bench_htab_grain_populate,
	.lookup = grain_lookup_locked,
	.count = bench_htab_grain_count,
	.evictions = bench_htab_grain_evictions,
	.audit = bench_htab_grain_audit,
	.worker = { [BENCH_HTAB_READ90] = grain_mixed_worker,
		    [BENCH_HTAB_MIX50] = grain_mixed_worker,
		    [BENCH_HTAB_CHURN] = grain_churn_worker },
	.rcu = false,
};

const struct bench_htab_adapter bench_htab_adapter_grain_rcu = {
	.create = grain_create,
	.destroy = bench_htab_grain_destroy,
	.populate = bench_htab_grain_populate,
	.lookup = grain_lookup_rcu,
	.count = bench_htab_grain_count,
	.evictions = bench_htab_grain_evictions,
	.audit = bench_htab_grain_audit,
	.worker = { [BENCH_HTAB_READ90] = grain_rcu_mixed_worker,
		    [BENCH_HTAB_MIX50] = grain_rcu_mixed_worker,
		    [BENCH_HTAB_CHURN] = grain_churn_worker },
	.rcu = true,
};
