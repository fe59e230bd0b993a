/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lfht_adapter.c - anchor: liburcu's resizable lock-free hash table,
 * cds_lfht (split-ordered lists; Shalev and Shavit, with RCU), on the memb
 * flavour grain_htab uses. cds_lfht's calls go through the shared library;
 * the memb read side is inline (_LGPL_SOURCE), as grain-rcu's is, so that
 * both RCU tables' lookups pay the same read-side section. Created with
 * CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING and BENCH_HTAB_BUCKETS
 * buckets, also its minimum, like the other chained tables.
 *
 * lookup: cds_lfht_lookup in a read-side section, the value read inside;
 * insert: cds_lfht_add_unique (a node that lost was never visible: freed
 * at once); remove: cds_lfht_lookup + cds_lfht_del, the node freed by
 * call_rcu after a grace period. Churn goes through the key FIFO.
 */
/* liburcu-memb's read side inline, as grain_adapter.c has it. */
#define _LGPL_SOURCE
#include "harness.h"

#include <grain/hash.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include <stdlib.h>

struct lfht_item {
	struct cds_lfht_node node;
	uint64_t key;
	uint64_t value;
	struct rcu_head rcu;
};

static int lfht_match(struct cds_lfht_node *node, const void *key)
{
	return grain_container_of(node, struct lfht_item, node)->key ==
	       *(const uint64_t *)key;
}

static void lfht_free_rcu(struct rcu_head *head)
{
	free(grain_container_of(head, struct lfht_item, rcu));
}

static int lfht_create(void **tablep, enum bench_htab_impl impl,
		       enum bench_htab_workload w)
{
	(void)impl;
	(void)w;
	*tablep =
		cds_lfht_new_flavor(BENCH_HTAB_BUCKETS, BENCH_HTAB_BUCKETS, 0,
				    CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				    &urcu_memb_flavor, NULL);
	return *tablep != NULL ? 0 : -ENOMEM;
}

/* By main, registered, with every worker joined: unlink everything and
 * free it after a grace period, with the nodes removed during the run,
 * before the next run starts. */
static void lfht_destroy(void *table)
{
	struct cds_lfht_iter iter;
	struct lfht_item *it;

	urcu_memb_read_lock();
	cds_lfht_for_each_entry(table, &iter, it, node)
	{
		if (cds_lfht_del(table, &it->node) == 0)
			urcu_memb_call_rcu(&it->rcu, lfht_free_rcu);
	}
	urcu_memb_read_unlock();
	cds_lfht_destroy(table, NULL);
	urcu_memb_barrier();
}

static uint64_t lfht_lookup(void *table, uint64_t key)
{
	struct cds_lfht_iter iter;
	uint64_t v = 0;

	urcu_memb_read_lock();
	cds_lfht_lookup(table, (unsigned long)grain_hash_mix64(key), lfht_match,
			&key, &iter);
	struct cds_lfht_node *n = cds_lfht_iter_get_node(&iter);
	if (n != NULL)
		v = grain_container_of(n, struct lfht_item, node)->value;
	urcu_memb_read_unlock();
	return v;
}

static int lfht_insert(void *table, uint64_t key)
{
	struct lfht_item *it = malloc(sizeof(*it));

	if (it == NULL)
		return -ENOMEM;
	cds_lfht_node_init(&it->node);
	it->key = key;
	it->value = bench_htab_value(key);
	urcu_memb_read_lock();
	struct cds_lfht_node *got =
		cds_lfht_add_unique(table, (unsigned long)grain_hash_mix64(key),
				    lfht_match, &it->key, &it->node);
	urcu_memb_read_unlock();
	if (got == &it->node)
		return 1;
	free(it);
	return 0;
}

static int lfht_remove(void *table, uint64_t key)
{
	struct cds_lfht_iter iter;
	int removed = 0;

	urcu_memb_read_lock();
	cds_lfht_lookup(table, (unsigned long)grain_hash_mix64(key), lfht_match,
			&key, &iter);
	struct cds_lfht_node *n = cds_lfht_iter_get_node(&iter);
	if (n != NULL && cds_lfht_del(table, n) == 0) {
		urcu_memb_call_rcu(
			&grain_container_of(n, struct lfht_item, node)->rcu,
			lfht_free_rcu);
		removed = 1;
	}
	urcu_memb_read_unlock();
	return removed;
}

static int lfht_churn(void *table, uint64_t key, uint64_t now)
{
	(void)now;
	return bench_htab_fifo_churn(table, key, lfht_insert, lfht_remove);
}

static uint64_t lfht_count(void *table)
{
	long before, after;
	unsigned long count;

	urcu_memb_read_lock();
	cds_lfht_count_nodes(table, &before, &count, &after);
	urcu_memb_read_unlock();
	return count;
}

BENCH_HTAB_ADAPTER(bench_htab_adapter_lfht, lfht_lookup, lfht_insert,
		   lfht_remove, lfht_churn, .create = lfht_create,
		   .destroy = lfht_destroy, .count = lfht_count, .rcu = true,
		   .fifo = true)
