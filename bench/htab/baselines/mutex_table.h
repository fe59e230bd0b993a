/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file mutex_table.h
 * @brief Baseline: a chained hash table of uint64_t keys under one pthread
 *        mutex, with an insertion-order LRU list so that it can keep a
 *        bounded number of entries (evict the oldest on insert).
 *
 * The simplest correct concurrent table: every operation takes the one
 * mutex. It is the "global lock" that grain_htab's striping has to beat.
 * Nodes are the caller's (intrusive): the caller allocates a node, sets
 * key and value, inserts it, and gets it back from remove or from an
 * eviction to free it. The table never allocates a node and never frees
 * one, except through the callback of bench_mutex_table_destroy().
 *
 * Synchronization
 * | call                       | may run concurrently with        |
 * |----------------------------|----------------------------------|
 * | lookup, insert, remove,    | each other (one mutex)           |
 * |   insert_evict, count      |                                  |
 * | create, destroy            | nothing on the same table        |
 *
 * Ordering: the mutex orders everything; an insert happens-before every
 * lookup that finds its node. A node returned by remove or insert_evict
 * is no longer reachable by anyone: the caller may free it at once.
 *
 * Hash: grain_hash_mix64(key) & (buckets - 1). The bucket count is fixed
 * at creation (no resizing); every key value is legal.
 */
#ifndef GRAIN_BENCH_MUTEX_TABLE_H
#define GRAIN_BENCH_MUTEX_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One entry; embed it or use it as is. Fields other than key and value
 * are the table's while the node is linked. */
struct bench_mutex_table_node {
	struct bench_mutex_table_node *next;	 /* chain */
	struct bench_mutex_table_node *lru_prev; /* towards the oldest */
	struct bench_mutex_table_node *lru_next; /* towards the newest */
	uint64_t key;
	uint64_t value;
};

struct bench_mutex_table;

/**
 * bench_mutex_table_create - an empty table of @p buckets chains.
 * @param buckets a power of two >= 1.
 * @return 0, -EINVAL (bad size or NULL @p tablep) or -ENOMEM.
 */
int bench_mutex_table_create(struct bench_mutex_table **tablep,
			     unsigned buckets);

/** bench_mutex_table_destroy - hand every node still linked to @p release
 * (if not NULL), then free the table. NULL @p table is a no-op. */
void bench_mutex_table_destroy(struct bench_mutex_table *table,
			       void (*release)(struct bench_mutex_table_node *));

/** bench_mutex_table_lookup - copy the value of @p key to *@p value.
 * @return true if the key is present. */
bool bench_mutex_table_lookup(struct bench_mutex_table *table, uint64_t key,
			      uint64_t *value);

/** bench_mutex_table_insert - link @p node (its key and value set) as the
 * newest entry. @return 0, or -EEXIST if its key is present (then the
 * node stays the caller's). */
int bench_mutex_table_insert(struct bench_mutex_table *table,
			     struct bench_mutex_table_node *node);

/**
 * bench_mutex_table_insert_evict - as bench_mutex_table_insert(), then, in
 * the same critical section, if the table holds more than @p limit
 * entries, unlink the oldest one and return it in *@p evicted (else NULL).
 * @return 0 or -EEXIST (nothing changed, *@p evicted = NULL).
 */
int bench_mutex_table_insert_evict(struct bench_mutex_table *table,
				   struct bench_mutex_table_node *node,
				   size_t limit,
				   struct bench_mutex_table_node **evicted);

/** bench_mutex_table_remove - unlink the entry of @p key.
 * @return its node (the caller's again), or NULL if absent. */
struct bench_mutex_table_node *
bench_mutex_table_remove(struct bench_mutex_table *table, uint64_t key);

/** bench_mutex_table_count - entries linked now. */
size_t bench_mutex_table_count(struct bench_mutex_table *table);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_MUTEX_TABLE_H */
