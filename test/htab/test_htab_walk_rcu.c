/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_walk_rcu.c - grain_htab_walk_rcu(), the lock-free walk: every
 * entry once on a quiet table; its errors and its stop value; and, with
 * writers inserting, removing and replacing and a resizer changing every
 * stripe's size all along, every walk visits each entry present
 * throughout exactly once, and each key replaced meanwhile exactly once
 * (as one of its nodes).
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "htab_cases.h"
#include "../common/test_threads.h"

#define QUIET_KEYS 1000u

struct tally {
	unsigned seen[QUIET_KEYS];
	unsigned calls;
	unsigned stop_at; /* 0: never */
};

static int count_fn(struct grain_hnode *n, void *ctx)
{
	struct tally *t = ctx;
	uint64_t k = obj_of(n)->key;

	t->calls++;
	if (k < QUIET_KEYS)
		t->seen[k]++;
	return t->stop_at != 0 && t->calls == t->stop_at ? 77 : 0;
}

Test(htab_walk_rcu, quiet)
{
	struct ledger l;
	static struct obj o[QUIET_KEYS];
	static struct tally t;
	struct grain_htab_config shape = { .stripes = 8, .buckets = 2 };
	struct grain_htab *h = open_table(&l, 0, &shape);

	grain_rcu_read_lock();
	memset(&t, 0, sizeof(t));
	cr_assert_eq(grain_htab_walk_rcu(h, count_fn, &t), 0);
	cr_assert_eq(t.calls, 0u, "an empty table");
	grain_rcu_read_unlock();

	insert_keys(h, o, QUIET_KEYS, 1, 0, 1); /* grows every stripe */
	grain_rcu_read_lock();
	memset(&t, 0, sizeof(t));
	cr_assert_eq(grain_htab_walk_rcu(h, count_fn, &t), 0);
	cr_assert_eq(t.calls, QUIET_KEYS);
	for (unsigned k = 0; k < QUIET_KEYS; k++)
		cr_assert_eq(t.seen[k], 1u, "key %u", k);
	/* A nonzero return stops it and comes back as it is. */
	memset(&t, 0, sizeof(t));
	t.stop_at = 10;
	cr_assert_eq(grain_htab_walk_rcu(h, count_fn, &t), 77);
	cr_assert_eq(t.calls, 10u);
	cr_assert_eq(grain_htab_walk_rcu(NULL, count_fn, &t), -EINVAL);
	cr_assert_eq(grain_htab_walk_rcu(h, NULL, &t), -EINVAL);
	grain_rcu_read_unlock();
	close_table(h, 0);

	/* A NO_RCU table has no lock-free reads. */
	h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	cr_assert_eq(grain_htab_walk_rcu(h, count_fn, &t), -EINVAL);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* The walk may remove what it visits (a scope inside the read side). */
static int remove_odd(struct grain_hnode *n, void *ctx)
{
	struct grain_htab *h = ctx;
	uint64_t k = obj_of(n)->key;

	if (k % 2 == 1 && grain_htab_remove(h, &k, NULL) != 0)
		return -1;
	return 0;
}

Test(htab_walk_rcu, remove_from_walk)
{
	struct ledger l;
	static struct obj o[QUIET_KEYS];
	struct grain_htab *h = open_table(&l, 0, NULL);

	insert_keys(h, o, QUIET_KEYS, 1, 0, 1);
	grain_rcu_read_lock();
	cr_assert_eq(grain_htab_walk_rcu(h, remove_odd, h), 0);
	grain_rcu_read_unlock();
	cr_assert_eq(stats_of(h).entries, QUIET_KEYS / 2);
	mode_settle(h, 0);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]),
		     (unsigned long)QUIET_KEYS / 2);
	close_table(h, 0);
}

/* ----------------------------------------------------------------------
 * Walks against writers and a resizer
 */

#define STABLE 512u   /* keys 0..: never touched */
#define REPLACED 128u /* keys STABLE..: replaced without pause */
#define CHURN 256u    /* keys above: inserted and removed */
#define WALKS 2000u   /* per walker */
#define KEY_SPACE (STABLE + REPLACED + CHURN)

struct walk_ctx {
	struct grain_htab *h;
	_Atomic(int) stop;
	_Atomic(unsigned long) allocated, reclaimed;
	_Atomic(unsigned long) bad, bad_writes; /* walks; writers, resizer */
	_Atomic(unsigned) walkers_left;
};

struct wobj {
	struct grain_hnode node;
	uint64_t key;
};

static struct wobj *wobj_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct wobj, node);
}

static bool wobj_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return wobj_of(n)->key == *(const uint64_t *)key;
}

static void wobj_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			 void *ctx)
{
	struct walk_ctx *c = ctx;

	(void)why;
	atomic_fetch_add(&c->reclaimed, 1ul);
	free(wobj_of(n));
}

static struct wobj *wobj_new(struct walk_ctx *c, uint64_t key)
{
	struct wobj *o = calloc(1, sizeof(*o));

	cr_assert_not_null(o);
	o->key = key;
	atomic_fetch_add(&c->allocated, 1ul);
	return o;
}

struct walk_count {
	unsigned seen[KEY_SPACE];
	unsigned foreign;
};

static int walk_count_fn(struct grain_hnode *n, void *ctx)
{
	struct walk_count *w = ctx;
	uint64_t k = wobj_of(n)->key;

	if (k < KEY_SPACE)
		w->seen[k]++;
	else
		w->foreign++;
	return 0;
}

static void *walker(void *arg)
{
	struct walk_ctx *c = arg;
	struct walk_count *w = malloc(sizeof(*w));
	unsigned long bad = 0;

	cr_assert_not_null(w);
	grain_rcu_register_thread();
	for (unsigned i = 0; i < WALKS; i++) {
		memset(w, 0, sizeof(*w));
		grain_rcu_read_lock();
		if (grain_htab_walk_rcu(c->h, walk_count_fn, w) != 0)
			bad++;
		grain_rcu_read_unlock();
		for (unsigned k = 0; k < STABLE + REPLACED; k++)
			bad += w->seen[k] != 1;
		bad += w->foreign;
	}
	grain_rcu_unregister_thread();
	free(w);
	atomic_fetch_add(&c->bad, bad);
	atomic_fetch_sub(&c->walkers_left, 1u);
	return NULL;
}

/* Replaces keys STABLE.. and inserts or removes keys above, until the
 * walkers are done. */
static void *writer(void *arg)
{
	struct walk_ctx *c = arg;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	grain_rcu_register_thread();
	while (atomic_load(&c->walkers_left) != 0) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t k = STABLE + x % (REPLACED + CHURN);
		struct wobj *o = wobj_new(c, k);
		if (k < STABLE + REPLACED) {
			struct grain_hnode *old = NULL;
			if (grain_htab_replace(c->h, &k, &o->node, 1, 1,
					       &old) != 0 ||
			    old == NULL)
				atomic_fetch_add(&c->bad_writes, 1ul);
		} else {
			int rc = grain_htab_insert(c->h, &o->node, &k, 1, 1);
			if (rc != 0) {
				free(o);
				atomic_fetch_sub(&c->allocated, 1ul);
			}
			/* Present: remove it instead. (A chain at max_chain
			 * refuses the insert: nothing to check then.) */
			if (rc == -EEXIST &&
			    grain_htab_remove(c->h, &k, NULL) != 0)
				atomic_fetch_add(&c->bad_writes, 1ul);
			else if (rc != 0 && rc != -EEXIST && rc != -EMLINK)
				atomic_fetch_add(&c->bad_writes, 1ul);
		}
	}
	grain_rcu_unregister_thread();
	return NULL;
}

static void *resizer(void *arg)
{
	struct walk_ctx *c = arg;
	unsigned i = 0;

	grain_rcu_register_thread();
	while (atomic_load(&c->walkers_left) != 0) {
		if (grain_htab_resize(c->h, i++ % 2 ? 128u : 16u) != 0)
			atomic_fetch_add(&c->bad_writes, 1ul);
		sched_yield();
	}
	grain_rcu_unregister_thread();
	return NULL;
}

Test(htab_walk_rcu, against_writers_and_resizes, .timeout = 300)
{
	static struct walk_ctx c;
	struct test_threads threads = { .n = 0 };

	memset(&c, 0, sizeof(c));
	struct grain_htab_config cfg = { 0 };
	cfg.ops.hash = hash_sip;
	cfg.ops.eq = wobj_eq;
	cfg.ops.reclaim = wobj_reclaim;
	cfg.ctx = &c;
	cfg.stripes = 4;
	cfg.buckets = 16;
	grain_rcu_register_thread();
	cr_assert_eq(grain_htab_create(&c.h, &cfg, NULL), 0);
	for (uint64_t k = 0; k < STABLE + REPLACED; k++) {
		struct wobj *o = wobj_new(&c, k);
		cr_assert_eq(grain_htab_insert(c.h, &o->node, &k, 1, 1), 0);
	}
	atomic_store(&c.walkers_left, 2u);
	for (unsigned i = 0; i < 2; i++)
		test_spawn(&threads, walker, &c);
	test_spawn(&threads, writer, &c);
	test_spawn(&threads, resizer, &c);
	test_join_all(&threads);
	cr_assert_eq(atomic_load(&c.bad_writes), 0ul,
		     "a replace found no entry, a remove or a resize failed");
	cr_assert_eq(atomic_load(&c.bad), 0ul,
		     "a walk missed or repeated an entry present throughout");
	cr_assert_gt(stats_of(c.h).resizes, 0u);
	/* Counts conserved: every node allocated is reclaimed once. */
	grain_htab_destroy(c.h);
	cr_assert_eq(atomic_load(&c.reclaimed), atomic_load(&c.allocated));
	grain_rcu_unregister_thread();
}
