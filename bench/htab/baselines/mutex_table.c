/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mutex_table.c - baseline "mutex": the simplest correct concurrent
 * table, the global lock that grain_htab's striping has to beat.
 *
 * BENCH_HTAB_BUCKETS singly linked chains (grain_hash_mix64(key) & mask;
 * new nodes at the front) and one doubly linked list of every node in
 * insertion order (the LRU: oldest first), all plain memory under one
 * PTHREAD_MUTEX_DEFAULT mutex. Each entry is a malloc'd node; one that
 * remove or an eviction unlinks is unreachable once the mutex is
 * released, so it is freed at once. Churn: the insert and the unlink of
 * the oldest entry past BENCH_HTAB_CHURN_LIMIT are one critical section.
 */
#include "../adapters/harness.h"

#include <grain/hash.h>

#include <pthread.h>
#include <stdlib.h>

struct node {
	struct node *next;		  /* chain */
	struct node *lru_prev, *lru_next; /* towards the oldest, newest */
	uint64_t key;
	uint64_t value;
};

struct table {
	pthread_mutex_t lock;
	struct node **buckets;
	uint64_t mask; /* BENCH_HTAB_BUCKETS - 1 */
	uint64_t count;
	struct node *oldest, *newest;
};

static int mutex_create(void **tablep, enum bench_htab_impl impl,
			enum bench_htab_workload w)
{
	struct table *t = calloc(1, sizeof(*t));

	(void)impl;
	(void)w;
	if (t == NULL)
		return -ENOMEM;
	t->buckets = calloc(BENCH_HTAB_BUCKETS, sizeof(*t->buckets));
	if (t->buckets == NULL || pthread_mutex_init(&t->lock, NULL) != 0) {
		free(t->buckets);
		free(t);
		return -ENOMEM;
	}
	t->mask = BENCH_HTAB_BUCKETS - 1;
	*tablep = t;
	return 0;
}

static void mutex_destroy(void *table)
{
	struct table *t = table;

	for (struct node *n = t->oldest, *next; n != NULL; n = next) {
		next = n->lru_next;
		free(n);
	}
	pthread_mutex_destroy(&t->lock);
	free(t->buckets);
	free(t);
}

static struct node **chain_of(struct table *t, uint64_t key)
{
	return &t->buckets[grain_hash_mix64(key) & t->mask];
}

/* The link that points at the node of @key, or at its chain's NULL end. */
static struct node **find_link(struct table *t, uint64_t key)
{
	struct node **pp = chain_of(t, key);

	while (*pp != NULL && (*pp)->key != key)
		pp = &(*pp)->next;
	return pp;
}

/* Under the lock: link @n at the front of its chain and as the newest
 * entry, unless its key is there. */
static int insert_locked(struct table *t, struct node *n)
{
	if (*find_link(t, n->key) != NULL)
		return 0;
	struct node **head = chain_of(t, n->key);
	n->next = *head;
	*head = n;
	n->lru_next = NULL;
	n->lru_prev = t->newest;
	if (t->newest != NULL)
		t->newest->lru_next = n;
	else
		t->oldest = n;
	t->newest = n;
	t->count++;
	return 1;
}

/* Under the lock: unlink @n, whose chain link is *pp. */
static void unlink_locked(struct table *t, struct node **pp, struct node *n)
{
	*pp = n->next;
	if (n->lru_prev != NULL)
		n->lru_prev->lru_next = n->lru_next;
	else
		t->oldest = n->lru_next;
	if (n->lru_next != NULL)
		n->lru_next->lru_prev = n->lru_prev;
	else
		t->newest = n->lru_prev;
	t->count--;
}

static struct node *node_new(uint64_t key)
{
	struct node *n = malloc(sizeof(*n));

	if (n != NULL) {
		n->key = key;
		n->value = bench_htab_value(key);
	}
	return n;
}

uint64_t bench_htab_mutex_lookup(void *table, uint64_t key)
{
	struct table *t = table;

	pthread_mutex_lock(&t->lock);
	struct node *n = *find_link(t, key);
	uint64_t v = n != NULL ? n->value : 0;
	pthread_mutex_unlock(&t->lock);
	return v;
}

int bench_htab_mutex_insert(void *table, uint64_t key)
{
	struct table *t = table;
	struct node *n = node_new(key);

	if (n == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&t->lock);
	int rc = insert_locked(t, n);
	pthread_mutex_unlock(&t->lock);
	if (rc == 0)
		free(n);
	return rc;
}

int bench_htab_mutex_remove(void *table, uint64_t key)
{
	struct table *t = table;

	pthread_mutex_lock(&t->lock);
	struct node **pp = find_link(t, key), *n = *pp;
	if (n != NULL)
		unlink_locked(t, pp, n);
	pthread_mutex_unlock(&t->lock);
	free(n);
	return n != NULL;
}

int bench_htab_mutex_churn(void *table, uint64_t key, uint64_t now)
{
	struct table *t = table;
	struct node *n = node_new(key), *victim = NULL;

	(void)now;
	if (n == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&t->lock);
	int rc = insert_locked(t, n);
	if (rc == 1 && t->count > BENCH_HTAB_CHURN_LIMIT) {
		victim = t->oldest;
		unlink_locked(t, find_link(t, victim->key), victim);
	}
	pthread_mutex_unlock(&t->lock);
	if (rc == 0)
		free(n);
	free(victim);
	return rc == 0 ? -EEXIST : victim != NULL;
}

static uint64_t mutex_count(void *table)
{
	return ((struct table *)table)->count;
}

BENCH_HTAB_ADAPTER(bench_htab_adapter_mutex, bench_htab_mutex_lookup,
		   bench_htab_mutex_insert, bench_htab_mutex_remove,
		   bench_htab_mutex_churn, .create = mutex_create,
		   .destroy = mutex_destroy, .count = mutex_count)
