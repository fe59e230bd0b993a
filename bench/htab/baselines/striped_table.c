/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * striped_table.c - baseline "striped": the cheapest striped design, and
 * so the floor for what grain_htab's extras (LRU, watermarks, statistics,
 * resizing, RCU-safe links) may cost. Chains only: no LRU, no byte
 * accounting, no resizing, no lock-free readers.
 *
 * BENCH_HTAB_BUCKETS singly linked chains (bucket b = grain_hash_mix64(key)
 * & mask, new nodes at the front), bucket b guarded by the grain_spinlock
 * of stripe b & 255, so that a chain is always under exactly one lock.
 * Each stripe keeps its entry count beside its lock, on its own cache line
 * (written only while the line is held anyway). Each entry is a malloc'd
 * node, freed at once by remove: nobody reads a chain without its lock.
 * Churn goes through the key FIFO (harness.h).
 */
#include "../adapters/harness.h"

#include <grain/hash.h>

#include <stdlib.h>
#include <string.h>

#define STRIPES 256u

struct node {
	struct node *next;
	uint64_t key;
	uint64_t value;
};

struct stripe {
	alignas(GRAIN_CACHELINE) struct grain_spinlock lock;
	_Atomic(uint64_t) count; /* written under the lock */
};

struct table {
	struct node **buckets;
	uint64_t mask;	      /* BENCH_HTAB_BUCKETS - 1 */
	uint64_t stripe_mask; /* STRIPES - 1 */
	struct stripe *stripe;
};

static int striped_create(void **tablep, enum bench_htab_impl impl,
			  enum bench_htab_workload w)
{
	struct table *t = malloc(sizeof(*t));

	(void)impl;
	(void)w;
	if (t == NULL)
		return -ENOMEM;
	t->buckets = calloc(BENCH_HTAB_BUCKETS, sizeof(*t->buckets));
	t->stripe =
		aligned_alloc(GRAIN_CACHELINE, STRIPES * sizeof(struct stripe));
	if (t->buckets == NULL || t->stripe == NULL) {
		free(t->buckets);
		free(t->stripe);
		free(t);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < STRIPES; i++) {
		grain_spin_init(&t->stripe[i].lock);
		atomic_init(&t->stripe[i].count, 0);
	}
	t->mask = BENCH_HTAB_BUCKETS - 1;
	t->stripe_mask = STRIPES - 1;
	*tablep = t;
	return 0;
}

static void striped_destroy(void *table)
{
	struct table *t = table;

	for (uint64_t b = 0; b < BENCH_HTAB_BUCKETS; b++)
		for (struct node *n = t->buckets[b], *next; n != NULL;
		     n = next) {
			next = n->next;
			free(n);
		}
	free(t->buckets);
	free(t->stripe);
	free(t);
}

/* The bucket of @key, and its stripe in *sp. */
static uint64_t bucket_of(struct table *t, uint64_t key, struct stripe **sp)
{
	uint64_t b = grain_hash_mix64(key) & t->mask;

	*sp = &t->stripe[b & t->stripe_mask];
	return b;
}

/* The link that points at @key's node in bucket @b, or at its NULL end. */
static struct node **find_link(struct table *t, uint64_t b, uint64_t key)
{
	struct node **pp = &t->buckets[b];

	while (*pp != NULL && (*pp)->key != key)
		pp = &(*pp)->next;
	return pp;
}

/* Under the stripe's lock. */
static void count_add(struct stripe *s, uint64_t d)
{
	atomic_store_explicit(
		&s->count,
		atomic_load_explicit(&s->count, memory_order_relaxed) + d,
		memory_order_relaxed);
}

uint64_t bench_htab_striped_lookup(void *table, uint64_t key)
{
	struct stripe *s;
	uint64_t b = bucket_of(table, key, &s);

	grain_spin_lock(&s->lock);
	struct node *n = *find_link(table, b, key);
	uint64_t v = n != NULL ? n->value : 0;
	grain_spin_unlock(&s->lock);
	return v;
}

int bench_htab_striped_insert(void *table, uint64_t key)
{
	struct table *t = table;
	struct node *n = malloc(sizeof(*n));
	struct stripe *s;
	uint64_t b = bucket_of(t, key, &s);

	if (n == NULL)
		return -ENOMEM;
	n->key = key;
	n->value = bench_htab_value(key);
	grain_spin_lock(&s->lock);
	bool present = *find_link(t, b, key) != NULL;
	if (!present) {
		n->next = t->buckets[b];
		t->buckets[b] = n;
		count_add(s, 1);
	}
	grain_spin_unlock(&s->lock);
	if (present)
		free(n);
	return !present;
}

int bench_htab_striped_remove(void *table, uint64_t key)
{
	struct stripe *s;
	uint64_t b = bucket_of(table, key, &s);

	grain_spin_lock(&s->lock);
	struct node **pp = find_link(table, b, key), *n = *pp;
	if (n != NULL) {
		*pp = n->next;
		count_add(s, (uint64_t)-1);
	}
	grain_spin_unlock(&s->lock);
	free(n);
	return n != NULL;
}

static int striped_churn(void *table, uint64_t key, uint64_t now)
{
	(void)now;
	return bench_htab_fifo_churn(table, key, bench_htab_striped_insert,
				     bench_htab_striped_remove);
}

static uint64_t striped_count(void *table)
{
	struct table *t = table;
	uint64_t sum = 0;

	for (unsigned i = 0; i < STRIPES; i++)
		sum += atomic_load_explicit(&t->stripe[i].count,
					    memory_order_relaxed);
	return sum;
}

BENCH_HTAB_ADAPTER(bench_htab_adapter_striped, bench_htab_striped_lookup,
		   bench_htab_striped_insert, bench_htab_striped_remove,
		   striped_churn, .create = striped_create,
		   .destroy = striped_destroy, .count = striped_count,
		   .fifo = true)
