/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rte_hash_adapter.c - anchor: DPDK's rte_hash (cuckoo hashing, buckets
 * of 8 16-bit signatures and key indexes), created with
 * RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF: lookups take no lock and may
 * run beside a writer. Keys are the uint64_t keys hashed by
 * grain_hash_mix64 (its low 32 bits: rte_hash takes a 32-bit hash), the
 * data the address of a malloc'd node (key, value), as the other tables'.
 *
 * rte_hash's add is an upsert and its writers are not safe against each
 * other without RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD, which only makes
 * the add itself atomic; an insert that must not replace (and a remove
 * that must free the node it removed) is a lookup and then an add or a
 * delete. So writers take one grain_spinlock around both, as the ck_ht
 * anchor's writers take their mutex, and readers none. With the lock-free
 * flag a delete does not free the key's slot: the slot and the node go
 * back after an RCU grace period of liburcu's memb flavour (call_rcu; the
 * slot under the writer lock, as rte_hash_free_key_with_position is not
 * thread-safe), so lookups run in memb read-side sections, as
 * grain-rcu's and cds_lfht's do. lookup: rte_hash_lookup_data; bulk:
 * rte_hash_lookup_bulk_data in one read-side section. Churn goes through
 * the key FIFO.
 *
 * rte_hash allocates through DPDK's EAL (rte_zmalloc, rte_ring,
 * memzones): the first create starts the EAL, once per process, without
 * hugepages or PCI (-m 1024 --no-huge --no-pci --no-shconf), first in a
 * trial child process (an EAL that cannot start may abort), then here,
 * with the calling thread's CPU affinity restored after it. Compiled
 * with the flags of pkg-config libdpdk; linked with librte_hash,
 * librte_ring and librte_eal.
 */
#define _GNU_SOURCE /* pthread_getaffinity_np, CPU_ISSET */
/* liburcu-memb's read side inline, as grain_adapter.c has it. */
#define _LGPL_SOURCE
#include "harness.h"

#include <grain/hash.h>

#include "common/dpdk_eal.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash.h>

#include <urcu/urcu-memb.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Slots: twice the universe, so that neither the population, nor the
 * churn's limit with the slots waiting for a grace period, comes near
 * what cuckoo hashing fills. */
#define RTE_ENTRIES (2u * BENCH_HTAB_UNIVERSE)

struct rte_item {
	uint64_t key;
	uint64_t value;
	struct rcu_head rcu;
	struct rte_table *t;
	int32_t pos; /* the key's slot, freed with the node */
};

struct rte_table {
	struct rte_hash *h;
	struct grain_spinlock writer;
};

static bool eal_started;

static uint32_t rte_key_hash(const void *key, uint32_t len, uint32_t init)
{
	(void)len;
	(void)init;
	return (uint32_t)grain_hash_mix64(*(const uint64_t *)key);
}

static int eal_init(void)
{
	return bench_eal_init("grain_bench_htab", "1024");
}

static int eal_start(void)
{
	if (eal_started)
		return 0;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(eal_init() == 0 ? 0 : 1);
	int st = 0;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		fprintf(stderr, "rte_hash: DPDK's EAL did not start in a "
				"trial process\n");
		return -ENODEV;
	}
	if (eal_init() != 0) {
		fprintf(stderr, "rte_hash: rte_eal_init: %s\n",
			rte_strerror(rte_errno));
		return -ENODEV;
	}
	eal_started = true;
	return 0;
}

static int rte_create(void **tablep, enum bench_htab_impl impl,
		      enum bench_htab_workload w)
{
	static unsigned seq;
	char name[32];
	(void)impl;
	(void)w;

	int rc = eal_start();
	if (rc != 0)
		return rc;
	struct rte_table *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "grain_bench_%u", seq++);
	struct rte_hash_parameters p = {
		.name = name,
		.entries = RTE_ENTRIES,
		.key_len = sizeof(uint64_t),
		.hash_func = rte_key_hash,
		.socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	t->h = rte_hash_create(&p);
	if (t->h == NULL) {
		rc = rte_errno != 0 ? -rte_errno : -ENOMEM;
		free(t);
		return rc;
	}
	grain_spin_init(&t->writer);
	*tablep = t;
	return 0;
}

/* After a grace period: the node, and its slot under the writer lock. */
static void rte_free_rcu(struct rcu_head *head)
{
	struct rte_item *it = grain_container_of(head, struct rte_item, rcu);
	struct rte_table *t = it->t;

	grain_spin_lock(&t->writer);
	(void)rte_hash_free_key_with_position(t->h, it->pos);
	grain_spin_unlock(&t->writer);
	free(it);
}

/* By main, registered, with every worker joined: wait for the slots and
 * nodes in flight, free every node still in the table, then the table. */
static void rte_destroy(void *table)
{
	struct rte_table *t = table;
	const void *key;
	void *data;
	uint32_t next = 0;

	urcu_memb_barrier();
	while (rte_hash_iterate(t->h, &key, &data, &next) >= 0)
		free(data);
	rte_hash_free(t->h);
	free(t);
}

static uint64_t rte_lookup(void *table, uint64_t key)
{
	struct rte_table *t = table;
	void *data;
	uint64_t v = 0;

	urcu_memb_read_lock();
	if (rte_hash_lookup_data(t->h, &key, &data) >= 0)
		v = ((const struct rte_item *)data)->value;
	urcu_memb_read_unlock();
	return v;
}

static int rte_bulk(void *table, const uint64_t *keys, unsigned n,
		    uint64_t *values)
{
	struct rte_table *t = table;
	const void *kp[RTE_HASH_LOOKUP_BULK_MAX];
	void *data[RTE_HASH_LOOKUP_BULK_MAX];
	uint64_t hits = 0;

	for (unsigned i = 0; i < n; i++)
		kp[i] = &keys[i];
	urcu_memb_read_lock();
	int rc = rte_hash_lookup_bulk_data(t->h, kp, n, &hits, data);
	for (unsigned i = 0; i < n; i++)
		values[i] = (hits >> i) & 1u
				    ? ((const struct rte_item *)data[i])->value
				    : 0;
	urcu_memb_read_unlock();
	return rc;
}

static int rte_insert(void *table, uint64_t key)
{
	struct rte_table *t = table;
	struct rte_item *it = malloc(sizeof(*it));
	void *data;

	if (it == NULL)
		return -ENOMEM;
	it->key = key;
	it->value = bench_htab_value(key);
	it->t = t;
	grain_spin_lock(&t->writer);
	bool present = rte_hash_lookup_data(t->h, &key, &data) >= 0;
	int rc = present ? 0 : rte_hash_add_key_data(t->h, &it->key, it);
	grain_spin_unlock(&t->writer);
	if (!present && rc == 0)
		return 1;
	free(it);
	return rc < 0 ? rc : 0;
}

static int rte_remove(void *table, uint64_t key)
{
	struct rte_table *t = table;
	void *data;
	int removed = 0;

	grain_spin_lock(&t->writer);
	if (rte_hash_lookup_data(t->h, &key, &data) >= 0) {
		int32_t pos = rte_hash_del_key(t->h, &key);
		if (pos >= 0) {
			struct rte_item *it = data;
			it->pos = pos;
			removed = 1;
			urcu_memb_call_rcu(&it->rcu, rte_free_rcu);
		} else {
			removed = pos;
		}
	}
	grain_spin_unlock(&t->writer);
	return removed;
}

static int rte_churn(void *table, uint64_t key, uint64_t now)
{
	(void)now;
	return bench_htab_fifo_churn(table, key, rte_insert, rte_remove);
}

/* Slots wait for a grace period before rte_hash_count stops counting
 * them: wait for those in flight first (a quiet table, main thread). */
static uint64_t rte_count(void *table)
{
	struct rte_table *t = table;

	urcu_memb_barrier();
	int32_t n = rte_hash_count(t->h);
	return n < 0 ? 0 : (uint64_t)n;
}

BENCH_HTAB_BULK_THREAD(rte_bulk_thread, rte_lookup, rte_bulk)
BENCH_HTAB_ADAPTER(bench_htab_adapter_rte, rte_lookup, rte_insert, rte_remove,
		   rte_churn, .create = rte_create, .destroy = rte_destroy,
		   .count = rte_count, .rcu = true, .fifo = true,
		   .burst_bulk = rte_bulk_thread)
