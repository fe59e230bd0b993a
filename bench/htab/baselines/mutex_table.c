/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mutex_table.c - the one-mutex baseline table.
 *
 * Design: an array of singly linked chains (new nodes go to the front of
 * their chain) and one doubly linked list of every node in insertion
 * order (head: the oldest), all plain memory guarded by one
 * PTHREAD_MUTEX_DEFAULT mutex. Removal walks the chain to unlink, so a
 * chain needs only one link per node.
 */
#include "mutex_table.h"

#include <grain/hash.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct bench_mutex_table {
	pthread_mutex_t lock;
	struct bench_mutex_table_node **buckets;
	uint64_t mask;
	size_t count;
	struct bench_mutex_table_node *oldest, *newest;
};

int bench_mutex_table_create(struct bench_mutex_table **tablep,
			     unsigned buckets)
{
	if (tablep == NULL || buckets == 0 || (buckets & (buckets - 1)) != 0)
		return -EINVAL;
	struct bench_mutex_table *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->buckets = calloc(buckets, sizeof(*t->buckets));
	if (t->buckets == NULL || pthread_mutex_init(&t->lock, NULL) != 0) {
		free(t->buckets);
		free(t);
		return -ENOMEM;
	}
	t->mask = buckets - 1;
	*tablep = t;
	return 0;
}

void bench_mutex_table_destroy(struct bench_mutex_table *t,
			       void (*release)(struct bench_mutex_table_node *))
{
	if (t == NULL)
		return;
	struct bench_mutex_table_node *n = t->oldest;
	while (n != NULL) {
		struct bench_mutex_table_node *next = n->lru_next;
		if (release != NULL)
			release(n);
		n = next;
	}
	pthread_mutex_destroy(&t->lock);
	free(t->buckets);
	free(t);
}

static struct bench_mutex_table_node **chain_of(struct bench_mutex_table *t,
						uint64_t key)
{
	return &t->buckets[grain_hash_mix64(key) & t->mask];
}

/* The link that points at the node of @key, or at the chain's NULL end. */
static struct bench_mutex_table_node **find_link(struct bench_mutex_table *t,
						 uint64_t key)
{
	struct bench_mutex_table_node **pp = chain_of(t, key);

	while (*pp != NULL && (*pp)->key != key)
		pp = &(*pp)->next;
	return pp;
}

static void lru_unlink(struct bench_mutex_table *t,
		       struct bench_mutex_table_node *n)
{
	if (n->lru_prev != NULL)
		n->lru_prev->lru_next = n->lru_next;
	else
		t->oldest = n->lru_next;
	if (n->lru_next != NULL)
		n->lru_next->lru_prev = n->lru_prev;
	else
		t->newest = n->lru_prev;
}

/* Under the lock. */
static int insert_locked(struct bench_mutex_table *t,
			 struct bench_mutex_table_node *node)
{
	struct bench_mutex_table_node **pp = find_link(t, node->key);

	if (*pp != NULL)
		return -EEXIST;
	struct bench_mutex_table_node **head = chain_of(t, node->key);
	node->next = *head;
	*head = node;
	node->lru_next = NULL;
	node->lru_prev = t->newest;
	if (t->newest != NULL)
		t->newest->lru_next = node;
	else
		t->oldest = node;
	t->newest = node;
	t->count++;
	return 0;
}

/* Under the lock: unlink @n, whose chain link is *pp. */
static void unlink_locked(struct bench_mutex_table *t,
			  struct bench_mutex_table_node **pp,
			  struct bench_mutex_table_node *n)
{
	*pp = n->next;
	lru_unlink(t, n);
	t->count--;
}

bool bench_mutex_table_lookup(struct bench_mutex_table *t, uint64_t key,
			      uint64_t *value)
{
	pthread_mutex_lock(&t->lock);
	struct bench_mutex_table_node *n = *find_link(t, key);
	if (n != NULL)
		*value = n->value;
	pthread_mutex_unlock(&t->lock);
	return n != NULL;
}

int bench_mutex_table_insert(struct bench_mutex_table *t,
			     struct bench_mutex_table_node *node)
{
	pthread_mutex_lock(&t->lock);
	int rc = insert_locked(t, node);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

int bench_mutex_table_insert_evict(struct bench_mutex_table *t,
				   struct bench_mutex_table_node *node,
				   size_t limit,
				   struct bench_mutex_table_node **evicted)
{
	struct bench_mutex_table_node *victim = NULL;

	pthread_mutex_lock(&t->lock);
	int rc = insert_locked(t, node);
	if (rc == 0 && t->count > limit) {
		victim = t->oldest;
		unlink_locked(t, find_link(t, victim->key), victim);
	}
	pthread_mutex_unlock(&t->lock);
	*evicted = victim;
	return rc;
}

struct bench_mutex_table_node *
bench_mutex_table_remove(struct bench_mutex_table *t, uint64_t key)
{
	pthread_mutex_lock(&t->lock);
	struct bench_mutex_table_node **pp = find_link(t, key);
	struct bench_mutex_table_node *n = *pp;
	if (n != NULL)
		unlink_locked(t, pp, n);
	pthread_mutex_unlock(&t->lock);
	return n;
}

size_t bench_mutex_table_count(struct bench_mutex_table *t)
{
	pthread_mutex_lock(&t->lock);
	size_t n = t->count;
	pthread_mutex_unlock(&t->lock);
	return n;
}
