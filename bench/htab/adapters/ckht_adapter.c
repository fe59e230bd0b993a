/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ckht_adapter.c - anchor: ConcurrencyKit's ck_ht, where it fits. ck_ht is
 * single-writer, many-reader (the _spmc calls): readers never lock, and
 * writers must be serialized by the user, here by one pthread mutex
 * around every insert, remove and churn step.
 *
 * Mode CK_HT_MODE_DIRECT (the key and a word of value in the slot) with
 * CK_HT_WORKLOAD_DELETE (per-slot probe bounds, for tables that delete a
 * lot); hash grain_hash_mix64(key), passed to every call. It grows past a
 * load of 1/2, so it starts with CKHT_SLOTS = 2^21 slots (about 1/4).
 *
 * Each slot's value is the address of a malloc'd item, as every table
 * here allocates a node per entry. A removed item is freed at once, under
 * the writer mutex: with lock-free readers and no safe memory
 * reclamation, readers must not follow the pointer, so a lookup derives
 * the value from the key ck_ht returns from the slot. A real user storing
 * pointers would add ck_epoch or RCU.
 *
 * Churn: the key FIFO's _locked form under the writer mutex, so that the
 * insert, the push and the removal of the popped key are one critical
 * section.
 */
#include "harness.h"

#include <grain/hash.h>

#include <ck_ht.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CKHT_SLOTS (1u << 21)

struct ckht_item {
	uint64_t key;
	uint64_t value;
};

struct ckht {
	ck_ht_t ht;
	alignas(GRAIN_CACHELINE) pthread_mutex_t wlock;
};

/* Slot arrays a grow retired (defer): readers may still be on them, so
 * they are freed with the table. A grow doubles the table: no 64-bit
 * size has room for more of them than this (none is expected here). */
static void *retired[64];
static unsigned nretired;

static void *ckht_malloc(size_t size)
{
	return malloc(size);
}

static void ckht_free(void *p, size_t size, bool defer)
{
	(void)size;
	if (!defer) {
		free(p);
		return;
	}
	if (nretired == sizeof(retired) / sizeof(retired[0])) {
		fprintf(stderr,
			"ck_ht: more retired arrays than grows can make\n");
		abort();
	}
	retired[nretired++] = p; /* under the writer mutex */
}

/* ck_ht calls malloc and free only. */
static struct ck_malloc ckht_allocator = { .malloc = ckht_malloc,
					   .free = ckht_free };

static ck_ht_hash_t ckht_hash(uint64_t key)
{
	return (ck_ht_hash_t){ .value = grain_hash_mix64(key) };
}

static int ckht_create(void **tablep, enum bench_htab_impl impl,
		       enum bench_htab_workload w)
{
	struct ckht *t = aligned_alloc(GRAIN_CACHELINE, sizeof(struct ckht));

	(void)impl;
	(void)w;
	if (t == NULL)
		return -ENOMEM;
	if (pthread_mutex_init(&t->wlock, NULL) != 0 ||
	    !ck_ht_init(&t->ht, CK_HT_MODE_DIRECT | CK_HT_WORKLOAD_DELETE, NULL,
			&ckht_allocator, CKHT_SLOTS, 0)) {
		free(t);
		return -ENOMEM;
	}
	*tablep = t;
	return 0;
}

static void ckht_destroy(void *table)
{
	struct ckht *t = table;
	ck_ht_iterator_t it = CK_HT_ITERATOR_INITIALIZER;
	ck_ht_entry_t *e;

	while (ck_ht_next(&t->ht, &it, &e))
		free((void *)ck_ht_entry_value_direct(e));
	ck_ht_destroy(&t->ht);
	while (nretired > 0)
		free(retired[--nretired]);
	pthread_mutex_destroy(&t->wlock);
	free(t);
}

static uint64_t ckht_lookup(void *table, uint64_t key)
{
	struct ckht *t = table;
	ck_ht_entry_t e;

	ck_ht_entry_key_set_direct(&e, (uintptr_t)key);
	if (!ck_ht_get_spmc(&t->ht, ckht_hash(key), &e))
		return 0;
	/* The item may be freed already: use the slot's key only. */
	return bench_htab_value((uint64_t)ck_ht_entry_key_direct(&e));
}

/* Under wlock: link @it, whose key is absent. */
static bool put_locked(struct ckht *t, struct ckht_item *it, ck_ht_hash_t h)
{
	ck_ht_entry_t e;

	ck_ht_entry_set_direct(&e, h, (uintptr_t)it->key, (uintptr_t)it);
	return ck_ht_put_spmc(&t->ht, h, &e);
}

/* Under wlock: unlink @key; its item, or NULL. */
static struct ckht_item *remove_locked(struct ckht *t, uint64_t key)
{
	ck_ht_entry_t e;

	ck_ht_entry_key_set_direct(&e, (uintptr_t)key);
	if (!ck_ht_remove_spmc(&t->ht, ckht_hash(key), &e))
		return NULL;
	return (struct ckht_item *)ck_ht_entry_value_direct(&e);
}

static struct ckht_item *ckht_item(uint64_t key)
{
	struct ckht_item *it = malloc(sizeof(*it));

	if (it != NULL) {
		it->key = key;
		it->value = bench_htab_value(key);
	}
	return it;
}

/* get_spmc, then put_spmc only if the key is absent: put_spmc reuses the
 * first tombstone on the probe path even when the key is present further
 * on, which would link it twice. */
static int ckht_insert(void *table, uint64_t key)
{
	struct ckht *t = table;
	struct ckht_item *it = ckht_item(key);
	ck_ht_hash_t h = ckht_hash(key);
	ck_ht_entry_t e;
	int rc;

	if (it == NULL)
		return -ENOMEM;
	ck_ht_entry_key_set_direct(&e, (uintptr_t)key);
	pthread_mutex_lock(&t->wlock);
	if (ck_ht_get_spmc(&t->ht, h, &e))
		rc = 0;
	else
		rc = put_locked(t, it, h) ? 1 : -ENOMEM;
	pthread_mutex_unlock(&t->wlock);
	if (rc != 1)
		free(it);
	return rc;
}

static int ckht_remove(void *table, uint64_t key)
{
	struct ckht *t = table;

	pthread_mutex_lock(&t->wlock);
	struct ckht_item *it = remove_locked(t, key);
	pthread_mutex_unlock(&t->wlock);
	free(it);
	return it != NULL;
}

static int ckht_churn(void *table, uint64_t key, uint64_t now)
{
	struct ckht *t = table;
	struct ckht_item *it = ckht_item(key), *old = NULL;
	uint64_t victim;
	int rc = 0;

	(void)now;
	if (it == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&t->wlock);
	if (!put_locked(t, it, ckht_hash(key))) {
		rc = -ENOMEM;
	} else if (bench_htab_fifo_push_locked(&bench_htab_keys, key,
					       &victim)) {
		old = remove_locked(t, victim);
		rc = old != NULL ? 1 : -ENOENT;
	}
	pthread_mutex_unlock(&t->wlock);
	if (rc == -ENOMEM)
		free(it);
	free(old);
	return rc;
}

static uint64_t ckht_count(void *table)
{
	return ck_ht_count(&((struct ckht *)table)->ht);
}

BENCH_HTAB_ADAPTER(bench_htab_adapter_ckht, ckht_lookup, ckht_insert,
		   ckht_remove, ckht_churn, .create = ckht_create,
		   .destroy = ckht_destroy, .count = ckht_count, .fifo = true)
