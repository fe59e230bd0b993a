/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * baselines_adapter.c - the two baseline tables of bench/htab/baselines.
 *
 * mutex: bench_mutex_table (chains + insertion-order LRU under one pthread
 * mutex). Churn: bench_mutex_table_insert_evict with the limit
 * BENCH_HTAB_CHURN_LIMIT, so the insert and the unlink of the oldest entry
 * are one critical section.
 *
 * striped: bench_striped_table with 256 spinlock stripes. It has no LRU,
 * so churn goes through the key FIFO of harness.h (one grain_spinlock):
 * insert the fresh key, push it, and remove the key the push popped.
 *
 * Both free a node at once when remove (or the eviction) hands it back:
 * nobody can reach it without the lock that was just released.
 */
#include "harness.h"

#include "../baselines/mutex_table.h"
#include "../baselines/striped_table.h"

#include <errno.h>
#include <stdlib.h>

/* --- mutex ------------------------------------------------------------- */

static int mutex_create(void **tablep, enum bench_htab_impl impl,
			enum bench_htab_workload w)
{
	struct bench_mutex_table *t;

	(void)impl;
	(void)w;
	int rc = bench_mutex_table_create(&t, BENCH_HTAB_BUCKETS);
	if (rc == 0)
		*tablep = t;
	return rc;
}

static void mutex_release(struct bench_mutex_table_node *n)
{
	free(n);
}

static void mutex_destroy(void *table)
{
	bench_mutex_table_destroy(table, mutex_release);
}

static struct bench_mutex_table_node *mutex_node(uint64_t key)
{
	struct bench_mutex_table_node *n = malloc(sizeof(*n));

	if (n != NULL) {
		n->key = key;
		n->value = bench_htab_value(key);
	}
	return n;
}

static uint64_t mutex_lookup(void *table, uint64_t key)
{
	uint64_t v;

	return bench_mutex_table_lookup(table, key, &v) ? v : 0;
}

static int mutex_insert(void *table, uint64_t key)
{
	struct bench_mutex_table_node *n = mutex_node(key);

	if (n == NULL)
		return -ENOMEM;
	if (bench_mutex_table_insert(table, n) == 0)
		return 1;
	free(n);
	return 0;
}

static int mutex_populate(void *table, uint64_t key)
{
	int rc = mutex_insert(table, key);
	return rc == 1 ? 0 : rc == 0 ? -EEXIST : rc;
}

static int mutex_remove(void *table, uint64_t key)
{
	struct bench_mutex_table_node *n = bench_mutex_table_remove(table, key);
	int removed = n != NULL;

	free(n);
	return removed;
}

static int mutex_churn(void *table, uint64_t key, uint64_t now)
{
	struct bench_mutex_table_node *n = mutex_node(key), *victim;

	(void)now;
	if (n == NULL)
		return -ENOMEM;
	if (bench_mutex_table_insert_evict(table, n, BENCH_HTAB_CHURN_LIMIT,
					   &victim) != 0) {
		free(n);
		return -EEXIST;
	}
	int evicted = victim != NULL;
	free(victim);
	return evicted;
}

static uint64_t mutex_count(void *table)
{
	return bench_mutex_table_count(table);
}

BENCH_THREAD_FN(mutex_mixed_worker, bench_htab_mixed, mutex_lookup,
		mutex_insert, mutex_remove)
BENCH_THREAD_FN(mutex_churn_worker, bench_htab_churn, mutex_churn)

const struct bench_htab_adapter bench_htab_adapter_mutex = {
	.create = mutex_create,
	.destroy = mutex_destroy,
	.populate = mutex_populate,
	.lookup = mutex_lookup,
	.count = mutex_count,
	.worker = { [BENCH_HTAB_READ90] = mutex_mixed_worker,
		    [BENCH_HTAB_MIX50] = mutex_mixed_worker,
		    [BENCH_HTAB_CHURN] = mutex_churn_worker },
};

/* --- striped ----------------------------------------------------------- */

#define STRIPED_STRIPES 256u

struct striped {
	struct bench_striped_table *t;
	struct bench_htab_fifo fifo; /* churn only */
	bool churn;
};

static void striped_release(struct bench_striped_table_node *n)
{
	free(n);
}

static void striped_destroy(void *table)
{
	struct striped *s = table;

	bench_striped_table_destroy(s->t, striped_release);
	if (s->churn)
		bench_htab_fifo_fini(&s->fifo);
	free(s);
}

static int striped_create(void **tablep, enum bench_htab_impl impl,
			  enum bench_htab_workload w)
{
	(void)impl;
	struct striped *s =
		aligned_alloc(GRAIN_CACHELINE, sizeof(struct striped));
	if (s == NULL)
		return -ENOMEM;
	s->churn = false;
	int rc = bench_striped_table_create(&s->t, STRIPED_STRIPES,
					    BENCH_HTAB_BUCKETS);
	if (rc != 0) {
		free(s);
		return rc;
	}
	if (w == BENCH_HTAB_CHURN) {
		rc = bench_htab_fifo_init(&s->fifo, BENCH_HTAB_CHURN_LIMIT);
		if (rc != 0) {
			bench_striped_table_destroy(s->t, striped_release);
			free(s);
			return rc;
		}
		s->churn = true;
	}
	*tablep = s;
	return 0;
}

static struct bench_striped_table_node *striped_node(uint64_t key)
{
	struct bench_striped_table_node *n = malloc(sizeof(*n));

	if (n != NULL) {
		n->key = key;
		n->value = bench_htab_value(key);
	}
	return n;
}

static uint64_t striped_lookup(void *table, uint64_t key)
{
	struct striped *s = table;
	uint64_t v;

	return bench_striped_table_lookup(s->t, key, &v) ? v : 0;
}

static int striped_insert(void *table, uint64_t key)
{
	struct striped *s = table;
	struct bench_striped_table_node *n = striped_node(key);

	if (n == NULL)
		return -ENOMEM;
	if (bench_striped_table_insert(s->t, n) == 0)
		return 1;
	free(n);
	return 0;
}

static int striped_remove(void *table, uint64_t key)
{
	struct striped *s = table;
	struct bench_striped_table_node *n =
		bench_striped_table_remove(s->t, key);
	int removed = n != NULL;

	free(n);
	return removed;
}

static int striped_populate(void *table, uint64_t key)
{
	struct striped *s = table;
	uint64_t victim;
	int rc = striped_insert(table, key);

	if (rc != 1)
		return rc == 0 ? -EEXIST : rc;
	if (s->churn && bench_htab_fifo_push(&s->fifo, key, &victim))
		return -EOVERFLOW; /* the population fits the limit */
	return 0;
}

static int striped_churn(void *table, uint64_t key, uint64_t now)
{
	struct striped *s = table;
	uint64_t victim;

	(void)now;
	int rc = striped_insert(table, key);
	if (rc != 1)
		return rc == 0 ? -EEXIST : rc;
	if (!bench_htab_fifo_push(&s->fifo, key, &victim))
		return 0;
	return striped_remove(table, victim) == 1 ? 1 : -ENOENT;
}

static uint64_t striped_count(void *table)
{
	struct striped *s = table;

	return bench_striped_table_count(s->t);
}

BENCH_THREAD_FN(striped_mixed_worker, bench_htab_mixed, striped_lookup,
		striped_insert, striped_remove)
BENCH_THREAD_FN(striped_churn_worker, bench_htab_churn, striped_churn)

const struct bench_htab_adapter bench_htab_adapter_striped = {
	.create = striped_create,
	.destroy = striped_destroy,
	.populate = striped_populate,
	.lookup = striped_lookup,
	.count = striped_count,
	.worker = { [BENCH_HTAB_READ90] = striped_mixed_worker,
		    [BENCH_HTAB_MIX50] = striped_mixed_worker,
		    [BENCH_HTAB_CHURN] = striped_churn_worker },
};
