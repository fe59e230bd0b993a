/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lfht_adapter.c - anchor: liburcu's resizable lock-free hash table,
 * cds_lfht (split-ordered lists; Shalev and Shavit, with RCU), on the
 * memb flavour (the one grain_htab uses), through the shared libraries
 * (no _LGPL_SOURCE): every call is a call into liburcu.
 *
 * Created with CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING and
 * BENCH_HTAB_BUCKETS buckets, which is also its minimum, like the other
 * chained tables. Hash: grain_hash_mix64(key).
 *   lookup: cds_lfht_lookup inside urcu_memb_read_lock/unlock, value read
 *           inside the section;
 *   insert: cds_lfht_add_unique (a node that lost is freed at once: it was
 *           never visible);
 *   remove: cds_lfht_lookup + cds_lfht_del; the node is freed by
 *           urcu_memb_call_rcu after a grace period.
 * Churn: no LRU, so the key FIFO of harness.h (one grain_spinlock) names
 * the oldest key, which the inserting thread then removes as above.
 */
#include "harness.h"

#include <grain/hash.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include <errno.h>
#include <stdlib.h>

struct lfht_item {
	struct cds_lfht_node node;
	uint64_t key;
	uint64_t value;
	struct rcu_head rcu;
};

struct lfht {
	struct cds_lfht *ht;
	struct bench_htab_fifo fifo; /* churn only */
	bool churn;
};

static int lfht_match(struct cds_lfht_node *node, const void *key)
{
	return grain_container_of(node, struct lfht_item, node)->key ==
	       *(const uint64_t *)key;
}

static unsigned long lfht_hash(uint64_t key)
{
	return (unsigned long)grain_hash_mix64(key);
}

static void lfht_free_rcu(struct rcu_head *head)
{
	free(grain_container_of(head, struct lfht_item, rcu));
}

static int lfht_create(void **tablep, enum bench_htab_impl impl,
		       enum bench_htab_workload w)
{
	(void)impl;
	struct lfht *t = aligned_alloc(GRAIN_CACHELINE, sizeof(struct lfht));
	if (t == NULL)
		return -ENOMEM;
	t->churn = false;
	t->ht = cds_lfht_new_flavor(BENCH_HTAB_BUCKETS, BENCH_HTAB_BUCKETS, 0,
				    CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				    &urcu_memb_flavor, NULL);
	if (t->ht == NULL) {
		free(t);
		return -ENOMEM;
	}
	if (w == BENCH_HTAB_CHURN) {
		if (bench_htab_fifo_init(&t->fifo, BENCH_HTAB_CHURN_LIMIT) !=
		    0) {
			cds_lfht_destroy(t->ht, NULL);
			free(t);
			return -ENOMEM;
		}
		t->churn = true;
	}
	*tablep = t;
	return 0;
}

/* Main, registered, outside any read-side section, with every worker
 * joined: unlink everything, wait for one grace period, free. */
static void lfht_destroy(void *table)
{
	struct lfht *t = table;
	struct cds_lfht_iter iter;
	struct lfht_item *it;
	size_t n = 0, cap = BENCH_HTAB_UNIVERSE;
	struct lfht_item **dead = malloc(cap * sizeof(*dead));

	urcu_memb_read_lock();
	cds_lfht_for_each_entry(t->ht, &iter, it, node)
	{
		if (cds_lfht_del(t->ht, &it->node) != 0)
			continue;
		if (dead != NULL && n < cap)
			dead[n++] = it;
		else
			urcu_memb_call_rcu(&it->rcu, lfht_free_rcu);
	}
	urcu_memb_read_unlock();
	cds_lfht_destroy(t->ht, NULL);
	urcu_memb_synchronize_rcu();
	for (size_t i = 0; i < n; i++)
		free(dead[i]);
	free(dead);
	/* Nodes removed during the run: free them now, not in the next. */
	urcu_memb_barrier();
	if (t->churn)
		bench_htab_fifo_fini(&t->fifo);
	free(t);
}

static uint64_t lfht_lookup(void *table, uint64_t key)
{
	struct lfht *t = table;
	struct cds_lfht_iter iter;
	uint64_t v = 0;

	urcu_memb_read_lock();
	cds_lfht_lookup(t->ht, lfht_hash(key), lfht_match, &key, &iter);
	struct cds_lfht_node *n = cds_lfht_iter_get_node(&iter);
	if (n != NULL)
		v = grain_container_of(n, struct lfht_item, node)->value;
	urcu_memb_read_unlock();
	return v;
}

static int lfht_insert(void *table, uint64_t key)
{
	struct lfht *t = table;
	struct lfht_item *it = malloc(sizeof(*it));

	if (it == NULL)
		return -ENOMEM;
	cds_lfht_node_init(&it->node);
	it->key = key;
	it->value = bench_htab_value(key);
	urcu_memb_read_lock();
	struct cds_lfht_node *got = cds_lfht_add_unique(
		t->ht, lfht_hash(key), lfht_match, &it->key, &it->node);
	urcu_memb_read_unlock();
	if (got == &it->node)
		return 1;
	free(it);
	return 0;
}

static int lfht_remove(void *table, uint64_t key)
{
	struct lfht *t = table;
	struct cds_lfht_iter iter;
	int removed = 0;

	urcu_memb_read_lock();
	cds_lfht_lookup(t->ht, lfht_hash(key), lfht_match, &key, &iter);
	struct cds_lfht_node *n = cds_lfht_iter_get_node(&iter);
	if (n != NULL && cds_lfht_del(t->ht, n) == 0) {
		struct lfht_item *it =
			grain_container_of(n, struct lfht_item, node);
		urcu_memb_call_rcu(&it->rcu, lfht_free_rcu);
		removed = 1;
	}
	urcu_memb_read_unlock();
	return removed;
}

static int lfht_populate(void *table, uint64_t key)
{
	struct lfht *t = table;
	uint64_t victim;
	int rc = lfht_insert(table, key);

	if (rc != 1)
		return rc == 0 ? -EEXIST : rc;
	if (t->churn && bench_htab_fifo_push(&t->fifo, key, &victim))
		return -EOVERFLOW;
	return 0;
}

static int lfht_churn(void *table, uint64_t key, uint64_t now)
{
	struct lfht *t = table;
	uint64_t victim;

	(void)now;
	int rc = lfht_insert(table, key);
	if (rc != 1)
		return rc == 0 ? -EEXIST : rc;
	if (!bench_htab_fifo_push(&t->fifo, key, &victim))
		return 0;
	return lfht_remove(table, victim) == 1 ? 1 : -ENOENT;
}

static uint64_t lfht_count(void *table)
{
	struct lfht *t = table;
	long before, after;
	unsigned long count;

	urcu_memb_read_lock();
	cds_lfht_count_nodes(t->ht, &before, &count, &after);
	urcu_memb_read_unlock();
	return count;
}

BENCH_THREAD_FN(lfht_mixed_worker, bench_htab_mixed, lfht_lookup, lfht_insert,
		lfht_remove)
BENCH_THREAD_FN(lfht_churn_worker, bench_htab_churn, lfht_churn)

const struct bench_htab_adapter bench_htab_adapter_lfht = {
	.create = lfht_create,
	.destroy = lfht_destroy,
	.populate = lfht_populate,
	.lookup = lfht_lookup,
	.count = lfht_count,
	.worker = { [BENCH_HTAB_READ90] = lfht_mixed_worker,
		    [BENCH_HTAB_MIX50] = lfht_mixed_worker,
		    [BENCH_HTAB_CHURN] = lfht_churn_worker },
	.rcu = true,
};
