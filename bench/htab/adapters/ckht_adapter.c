/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ckht_adapter.c - anchor: ConcurrencyKit's ck_ht, where it fits.
 *
 * ck_ht is single-writer, many-reader (the _spmc calls): readers never
 * lock, and writers must be serialized by the user. Here every insert,
 * remove and churn step takes one pthread mutex; lookups take nothing.
 * Mode CK_HT_MODE_DIRECT (the key and a word of value live in the slot)
 * with CK_HT_WORKLOAD_DELETE (per-slot probe bounds, for tables that
 * delete a lot). Hash: grain_hash_mix64(key), passed to every call.
 *
 * Capacity: ck_ht grows past a load of 1/2, so it starts with
 * CKHT_SLOTS = 2^21 slots (load about 1/4) and never grows in a run. Had
 * it grown, the old slot array would be kept until the table is
 * destroyed (readers may still be on it).
 *
 * Entries: the slot's value is the address of a malloc'd item (key,
 * value), as every table here allocates a node per entry. A removed item
 * is freed at once, under the writer mutex: with lock-free readers and
 * no safe memory reclamation, readers must not follow the pointer, so a
 * lookup checks the key ck_ht returns from the slot and derives the value
 * from it. A real user storing pointers would add ck_epoch or RCU.
 *
 * Insert is ck_ht_get_spmc, then ck_ht_put_spmc only if the key is
 * absent: put_spmc reuses the first tombstone on the probe path even
 * when the key is present further on, which would link it twice.
 *
 * Churn: the key FIFO of harness.h, used under the writer mutex; the
 * insert, the push and the removal of the popped key are one critical
 * section.
 */
#include "harness.h"

#include <grain/hash.h>

#include <ck_ht.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#define CKHT_SLOTS (1u << 21)

struct ckht_item {
	uint64_t key;
	uint64_t value;
};

struct ckht {
	ck_ht_t ht;
	alignas(GRAIN_CACHELINE) pthread_mutex_t wlock;
	struct bench_htab_fifo fifo; /* churn only */
	bool churn;
};

/* Slot arrays ck_ht retired with defer = true (a grow): readers may
 * still be on them, so they live until the table is destroyed. */
struct retired {
	struct retired *next;
	void *mem;
};

static pthread_mutex_t retired_lock = PTHREAD_MUTEX_INITIALIZER;
static struct retired *retired_list;

static void *ckht_malloc(size_t size)
{
	return malloc(size);
}

static void *ckht_realloc(void *p, size_t old, size_t size, bool defer)
{
	(void)old;
	(void)defer;
	return realloc(p, size);
}

static void ckht_free(void *p, size_t size, bool defer)
{
	(void)size;
	if (!defer) {
		free(p);
		return;
	}
	struct retired *r = malloc(sizeof(*r));
	if (r == NULL)
		return; /* leak rather than free under a reader */
	r->mem = p;
	pthread_mutex_lock(&retired_lock);
	r->next = retired_list;
	retired_list = r;
	pthread_mutex_unlock(&retired_lock);
}

/* No thread uses any ck_ht now. */
static void free_retired(void)
{
	pthread_mutex_lock(&retired_lock);
	struct retired *r = retired_list;
	retired_list = NULL;
	pthread_mutex_unlock(&retired_lock);
	while (r != NULL) {
		struct retired *next = r->next;
		free(r->mem);
		free(r);
		r = next;
	}
}

static struct ck_malloc ckht_allocator = {
	.malloc = ckht_malloc,
	.realloc = ckht_realloc,
	.free = ckht_free,
};

static ck_ht_hash_t ckht_hash(uint64_t key)
{
	ck_ht_hash_t h;

	h.value = grain_hash_mix64(key);
	return h;
}

static int ckht_create(void **tablep, enum bench_htab_impl impl,
		       enum bench_htab_workload w)
{
	(void)impl;
	struct ckht *t = aligned_alloc(GRAIN_CACHELINE, sizeof(struct ckht));
	if (t == NULL)
		return -ENOMEM;
	free_retired();
	t->churn = false;
	if (pthread_mutex_init(&t->wlock, NULL) != 0) {
		free(t);
		return -ENOMEM;
	}
	if (!ck_ht_init(&t->ht, CK_HT_MODE_DIRECT | CK_HT_WORKLOAD_DELETE, NULL,
			&ckht_allocator, CKHT_SLOTS, 0)) {
		pthread_mutex_destroy(&t->wlock);
		free(t);
		return -ENOMEM;
	}
	if (w == BENCH_HTAB_CHURN) {
		if (bench_htab_fifo_init(&t->fifo, BENCH_HTAB_CHURN_LIMIT) !=
		    0) {
			ck_ht_destroy(&t->ht);
			pthread_mutex_destroy(&t->wlock);
			free(t);
			return -ENOMEM;
		}
		t->churn = true;
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
	free_retired();
	pthread_mutex_destroy(&t->wlock);
	if (t->churn)
		bench_htab_fifo_fini(&t->fifo);
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
	int removed = it != NULL;
	free(it);
	return removed;
}

static int ckht_populate(void *table, uint64_t key)
{
	struct ckht *t = table;
	uint64_t victim;
	int rc = ckht_insert(table, key);

	if (rc != 1)
		return rc == 0 ? -EEXIST : rc;
	if (t->churn && bench_htab_fifo_push_locked(&t->fifo, key, &victim))
		return -EOVERFLOW;
	return 0;
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
	} else if (bench_htab_fifo_push_locked(&t->fifo, key, &victim)) {
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
	struct ckht *t = table;

	return ck_ht_count(&t->ht);
}

BENCH_THREAD_FN(ckht_mixed_worker, bench_htab_mixed, ckht_lookup, ckht_insert,
		ckht_remove)
BENCH_THREAD_FN(ckht_churn_worker, bench_htab_churn, ckht_churn)

const struct bench_htab_adapter bench_htab_adapter_ckht = {
	.create = ckht_create,
	.destroy = ckht_destroy,
	.populate = ckht_populate,
	.lookup = ckht_lookup,
	.count = ckht_count,
	.worker = { [BENCH_HTAB_READ90] = ckht_mixed_worker,
		    [BENCH_HTAB_MIX50] = ckht_mixed_worker,
		    [BENCH_HTAB_CHURN] = ckht_churn_worker },
};
