/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file striped_table.h
 * @brief Baseline: a plain chained hash table of uint64_t keys with lock
 *        striping: one grain_spinlock per group of buckets, nothing else.
 *        No LRU, no byte accounting, no resizing, no lock-free readers.
 *
 * It is the cheapest striped design there is, and so the floor for what
 * grain_htab's extras (LRU, watermarks, stats, resizing, RCU-safe links)
 * may cost: grain_htab should not be slower.
 *
 * Nodes are the caller's (intrusive), as in mutex_table.h: the caller
 * allocates them and frees what remove returns.
 *
 * Synchronization
 * | call                       | may run concurrently with           |
 * |----------------------------|-------------------------------------|
 * | lookup, insert, remove     | each other; same stripe serializes  |
 * | count                      | everything (a sum of snapshots)     |
 * | create, destroy            | nothing on the same table           |
 *
 * Ordering: each operation holds its stripe's spinlock (acquire on lock,
 * release on unlock); an insert happens-before every lookup that finds
 * its node. A node returned by remove is unreachable: free it at once.
 *
 * Layout: bucket b = grain_hash_mix64(key) & (buckets - 1) is guarded by
 * stripe b & (stripes - 1). Each stripe (lock and entry count) has its own
 * cache line; the bucket heads are one shared array.
 */
#ifndef GRAIN_BENCH_STRIPED_TABLE_H
#define GRAIN_BENCH_STRIPED_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One entry. next is the table's while the node is linked. */
struct bench_striped_table_node {
	struct bench_striped_table_node *next;
	uint64_t key;
	uint64_t value;
};

struct bench_striped_table;

/**
 * bench_striped_table_create - an empty table.
 * @param stripes a power of two >= 1 (the benchmark uses 256).
 * @param buckets a power of two >= @p stripes.
 * @return 0, -EINVAL or -ENOMEM.
 */
int bench_striped_table_create(struct bench_striped_table **tablep,
			       unsigned stripes, unsigned buckets);

/** bench_striped_table_destroy - hand every node still linked to
 * @p release (if not NULL), then free the table. NULL: no-op. */
void bench_striped_table_destroy(
	struct bench_striped_table *table,
	void (*release)(struct bench_striped_table_node *));

/** Copy the value of @p key to *@p value. @return true if present. */
bool bench_striped_table_lookup(struct bench_striped_table *table, uint64_t key,
				uint64_t *value);

/** Link @p node. @return 0, or -EEXIST (the node stays the caller's). */
int bench_striped_table_insert(struct bench_striped_table *table,
			       struct bench_striped_table_node *node);

/** Unlink the entry of @p key. @return its node, or NULL if absent. */
struct bench_striped_table_node *
bench_striped_table_remove(struct bench_striped_table *table, uint64_t key);

/** Entries linked, summed over the stripes (exact when quiet). */
size_t bench_striped_table_count(struct bench_striped_table *table);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_STRIPED_TABLE_H */
