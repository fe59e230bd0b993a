/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * striped_table.c - the lock-striped baseline table.
 *
 * Design: one array of singly linked chains; stripe i's spinlock guards
 * every bucket b with b & (stripes - 1) == i, so a chain is always under
 * exactly one lock. The stripe also keeps its entry count, on the lock's
 * cache line (written only while the line is held anyway). Chains are
 * plain pointers: nobody reads them without the lock.
 */
#include "striped_table.h"

#include <grain/hash.h>
#include <grain/lock.h>

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

struct stripe {
	alignas(GRAIN_CACHELINE) struct grain_spinlock lock;
	_Atomic(size_t) count; /* written under the lock */
};

struct bench_striped_table {
	struct bench_striped_table_node **buckets;
	uint64_t mask;	      /* buckets - 1 */
	uint64_t stripe_mask; /* stripes - 1 */
	unsigned stripes;
	struct stripe *stripe;
};

static bool is_pow2(unsigned x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

int bench_striped_table_create(struct bench_striped_table **tablep,
			       unsigned stripes, unsigned buckets)
{
	if (tablep == NULL || !is_pow2(stripes) || !is_pow2(buckets) ||
	    buckets < stripes)
		return -EINVAL;
	struct bench_striped_table *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->buckets = calloc(buckets, sizeof(*t->buckets));
	t->stripe = aligned_alloc(GRAIN_CACHELINE,
				  (size_t)stripes * sizeof(struct stripe));
	if (t->buckets == NULL || t->stripe == NULL) {
		free(t->buckets);
		free(t->stripe);
		free(t);
		return -ENOMEM;
	}
	memset(t->stripe, 0, (size_t)stripes * sizeof(struct stripe));
	for (unsigned i = 0; i < stripes; i++) {
		grain_spin_init(&t->stripe[i].lock);
		atomic_init(&t->stripe[i].count, 0);
	}
	t->mask = buckets - 1;
	t->stripe_mask = stripes - 1;
	t->stripes = stripes;
	*tablep = t;
	return 0;
}

void bench_striped_table_destroy(
	struct bench_striped_table *t,
	void (*release)(struct bench_striped_table_node *))
{
	if (t == NULL)
		return;
	for (uint64_t b = 0; b <= t->mask; b++) {
		struct bench_striped_table_node *n = t->buckets[b];
		while (n != NULL) {
			struct bench_striped_table_node *next = n->next;
			if (release != NULL)
				release(n);
			n = next;
		}
	}
	free(t->buckets);
	free(t->stripe);
	free(t);
}

static void count_add(struct stripe *s, int d)
{
	atomic_store_explicit(&s->count,
			      atomic_load_explicit(&s->count,
						   memory_order_relaxed) +
				      (size_t)(ptrdiff_t)d,
			      memory_order_relaxed);
}

bool bench_striped_table_lookup(struct bench_striped_table *t, uint64_t key,
				uint64_t *value)
{
	uint64_t b = grain_hash_mix64(key) & t->mask;
	struct stripe *s = &t->stripe[b & t->stripe_mask];
	struct bench_striped_table_node *n;

	grain_spin_lock(&s->lock);
	for (n = t->buckets[b]; n != NULL; n = n->next)
		if (n->key == key)
			break;
	if (n != NULL)
		*value = n->value;
	grain_spin_unlock(&s->lock);
	return n != NULL;
}

int bench_striped_table_insert(struct bench_striped_table *t,
			       struct bench_striped_table_node *node)
{
	uint64_t b = grain_hash_mix64(node->key) & t->mask;
	struct stripe *s = &t->stripe[b & t->stripe_mask];
	struct bench_striped_table_node *n;
	int rc = -EEXIST;

	grain_spin_lock(&s->lock);
	for (n = t->buckets[b]; n != NULL; n = n->next)
		if (n->key == node->key)
			break;
	if (n == NULL) {
		node->next = t->buckets[b];
		t->buckets[b] = node;
		count_add(s, 1);
		rc = 0;
	}
	grain_spin_unlock(&s->lock);
	return rc;
}

struct bench_striped_table_node *
bench_striped_table_remove(struct bench_striped_table *t, uint64_t key)
{
	uint64_t b = grain_hash_mix64(key) & t->mask;
	struct stripe *s = &t->stripe[b & t->stripe_mask];
	struct bench_striped_table_node **pp, *n;

	grain_spin_lock(&s->lock);
	for (pp = &t->buckets[b]; (n = *pp) != NULL; pp = &n->next)
		if (n->key == key)
			break;
	if (n != NULL) {
		*pp = n->next;
		count_add(s, -1);
	}
	grain_spin_unlock(&s->lock);
	return n;
}

size_t bench_striped_table_count(struct bench_striped_table *t)
{
	size_t sum = 0;

	for (unsigned i = 0; i < t->stripes; i++)
		sum += atomic_load_explicit(&t->stripe[i].count,
					    memory_order_relaxed);
	return sum;
}
