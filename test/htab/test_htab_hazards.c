/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_hazards.c - grain_htab's bounds where a caller's keys,
 * callbacks or threads push at them:
 *
 *   htab_chain.colliding_keys_stop_growing
 *                 keys that share their low 22 bits under the caller's
 *                 own hash fill one chain; refused inserts and removes in
 *                 turn must not make the stripe grow and shrink each
 *                 time: a few copies in all, then none.
 *   htab_evict.two_evictors_stop_at_mem_low
 *                 two threads in an exact-order eviction, each held in
 *                 ops.unlinked until the other is too, then both let go
 *                 while a scope holds the stripe: between them they must
 *                 not evict past mem_low by an entry each.
 *   htab_evict.nested_unlinked_depth
 *                 an ops.unlinked that inserts, so that every insert
 *                 evicts again: no callback may run inside another.
 *   htab_remove.removed_node_valid
 *                 grain_htab_remove()'s *removed is never a node already
 *                 handed to reclaim (NULL on a GRAIN_HTAB_NO_RCU table,
 *                 whose reclaim runs before the call returns).
 */
#include "htab_cases.h"
#include "../common/test_threads.h"

#include <pthread.h>
#include <stdlib.h>

/* ----------------------------------------------------------------------
 * Colliding keys and the chain rule
 */

/* 64 keys whose low 22 bits (the bucket at any size up to 2^22) are the
 * same, with the key as its own hash; bits 40.. tell them apart, and give
 * them signatures of their own. */
#define COLLIDE_LOW 0x2a5a5ull
#define COLLIDE_KEYS 64u
#define COLLIDE_CYCLES 500u

static uint64_t collide_key(uint64_t i)
{
	return i << 40 | COLLIDE_LOW;
}

TABLE_PARAMS(htab_chain, colliding_keys_stop_growing, modes);

ParameterizedTest(const unsigned *mode, htab_chain, colliding_keys_stop_growing,
		  .timeout = 60)
{
	static const struct grain_htab_config shape = {
		.ops.hash = hash_ident,
		.stripes = 1,
	};
	static struct ledger l;
	static struct obj o[COLLIDE_KEYS + COLLIDE_CYCLES], extra;
	const unsigned flags = *mode;
	/* An allocator that counts: budget counts down from here. */
	const int budget = 1 << 30;
	struct test_alloc_state as = { .budget = budget };
	const struct grain_alloc alloc = { test_alloc_fn, test_free_fn, &as };
	struct grain_htab *h = NULL;

	ledger_init(&l);
	struct grain_htab_config c = shaped_config(&l, flags, &shape);
	mode_enter(flags);
	cr_assert_eq(grain_htab_create(&h, &c, &alloc), 0);
	for (uint64_t i = 0; i < COLLIDE_KEYS; i++) {
		uint64_t k = collide_key(i);
		obj_init(&o[i], k);
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &k, i, 1), 0,
			     "key %llu", (unsigned long long)i);
	}
	uint64_t resizes = stats_of(h).resizes;
	int allocs = budget - atomic_load(&as.budget);
	uint64_t xk = collide_key(COLLIDE_KEYS);

	obj_init(&extra, xk);
	for (unsigned i = 0; i < COLLIDE_CYCLES; i++) {
		/* The 65th colliding key: its chain is full. */
		cr_assert_eq(grain_htab_insert(h, &extra.node, &xk, 100, 1),
			     -EMLINK, "cycle %u", i);
		/* A remove, and the key back in a fresh node (an RCU table
		 * keeps the old one until its grace period). */
		uint64_t k = collide_key(i % COLLIDE_KEYS);
		struct obj *n = &o[COLLIDE_KEYS + i];
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0, "cycle %u", i);
		obj_init(n, k);
		cr_assert_eq(grain_htab_insert(h, &n->node, &k, 100 + i, 1), 0,
			     "cycle %u", i);
	}
	uint64_t copies = stats_of(h).resizes - resizes;
	int more = budget - atomic_load(&as.budget) - allocs;
	/* From 32 buckets (the load rule's size for 64 entries) the chain
	 * rule doubles three times, to four buckets an entry, and stops. */
	cr_assert_leq(copies, 4u, "%llu stripe copies in %u cycles",
		      (unsigned long long)copies, COLLIDE_CYCLES);
	cr_assert_leq(more, 12, "%d allocations in %u cycles", more,
		      COLLIDE_CYCLES);
	cr_assert_eq(stats_of(h).chain_refusals, COLLIDE_CYCLES);
	cr_assert_eq(stats_of(h).entries, COLLIDE_KEYS);
	/* Removing most of the keys lets the stripe shrink again. */
	for (uint64_t i = 0; i < COLLIDE_KEYS - 4; i++) {
		uint64_t k = collide_key(i);
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	}
	settle_resizes(h, flags);
	cr_assert_eq(stats_of(h).buckets, 16u, "shrunk back to its start");
	grain_htab_destroy(h);
	mode_leave(flags);
	cr_assert_eq(atomic_load(&as.live), 0, "every allocation freed");
}

/* ----------------------------------------------------------------------
 * Two evictors in exact order, let go together
 */

enum { DUEL_CHARGE = 10, DUEL_FILL = 200, DUEL_MORE = 95 };

/* Each evictor's unlinked calls: the first 64 come from sampled steps,
 * then a batch of 32 from the exact order (htab_evict.c). */
#define DUEL_HOLD_AT 65u
#define DUEL_BATCH_END 96u

struct duel {
	struct grain_htab *h;
	struct obj fill[DUEL_FILL], more[DUEL_MORE], own[2];
	unsigned calls[2]; /* each written by its evictor only */
	_Atomic(int) held[2], go, back[2];
};

static _Thread_local int duel_role = -1;

static void duel_unlinked(struct ledger *l, struct grain_hnode *node,
			  enum grain_htab_reason why)
{
	struct duel *d = l->user;

	(void)node;
	(void)why;
	if (duel_role < 0)
		return;
	unsigned i = ++d->calls[duel_role];
	if (i == DUEL_HOLD_AT) {
		/* The first entry of an exact-order batch: wait here. */
		atomic_store(&d->held[duel_role], 1);
		while (!atomic_load(&d->go))
			sleep_ms(1);
	} else if (i == DUEL_BATCH_END) {
		/* The batch's last callback: next, the evictor reads what
		 * is left to evict and takes the stripe lock. */
		atomic_store(&d->back[duel_role], 1);
	}
}

struct duel_arg {
	struct duel *d;
	int role;
};

static void *duel_evictor(void *arg)
{
	struct duel_arg *a = arg;
	uint64_t k = 1000000u + (uint64_t)a->role;

	duel_role = a->role;
	obj_init(&a->d->own[a->role], k);
	/* Above mem_high: this insert's unlock evicts down to mem_low. */
	if (grain_htab_insert(a->d->h, &a->d->own[a->role].node, &k,
			      100000u + (uint64_t)a->role, DUEL_CHARGE) != 0)
		abort();
	return NULL;
}

static void wait_flag(_Atomic(int) *f)
{
	while (!atomic_load(f))
		sleep_ms(1);
}

Test(htab_evict, two_evictors_stop_at_mem_low, .timeout = 60)
{
	static struct ledger l;
	static struct duel d;
	struct duel_arg args[2] = { { &d, 0 }, { &d, 1 } };
	struct test_threads threads = { .n = 0 };

	ledger_init(&l);
	memset(&d, 0, sizeof(d));
	l.user = &d;
	l.on_unlinked = duel_unlinked;
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	c.stripes = 1; /* exact totals: no folding lag */
	c.mem_high = DUEL_FILL * DUEL_CHARGE;
	c.mem_low = 990;
	cr_assert_eq(grain_htab_create(&d.h, &c, NULL), 0);
	/* Full to mem_high, not above: nothing evicted yet. */
	for (uint64_t k = 0; k < DUEL_FILL; k++) {
		obj_init(&d.fill[k], k);
		cr_assert_eq(grain_htab_insert(d.h, &d.fill[k].node, &k, 1 + k,
					       DUEL_CHARGE),
			     0);
	}
	/* The first evictor: 64 sampled entries, then 32 in exact order,
	 * held at the first of those; 1050 bytes are left. */
	test_spawn(&threads, duel_evictor, &args[0]);
	wait_flag(&d.held[0]);
	cr_assert_eq(grain_htab_bytes_exact(d.h), 1050u);
	/* Back to mem_high, and the second evictor does the same. */
	for (uint64_t i = 0; i < DUEL_MORE; i++) {
		uint64_t k = 2000 + i;
		obj_init(&d.more[i], k);
		cr_assert_eq(grain_htab_insert(d.h, &d.more[i].node, &k,
					       1000 + i, DUEL_CHARGE),
			     0);
	}
	cr_assert_eq(grain_htab_bytes_exact(d.h), c.mem_high);
	test_spawn(&threads, duel_evictor, &args[1]);
	wait_flag(&d.held[1]);
	cr_assert_eq(grain_htab_bytes_exact(d.h), 1050u);
	/* Both let go while this scope holds the stripe: each finishes its
	 * batch's callbacks, reads what is left to evict (60 bytes) and
	 * waits for the lock. */
	struct grain_htab_scope s;
	uint64_t any = 0;
	grain_htab_lock(d.h, &any, &s);
	atomic_store(&d.go, 1);
	wait_flag(&d.back[0]);
	wait_flag(&d.back[1]);
	sleep_ms(50); /* a head start; the bound holds without it */
	grain_htab_unlock(&s);
	test_join_all(&threads);
	/* One stripe: no lag, and less than an entry per thread below
	 * mem_low (htab.h, "Bytes, watermarks"). */
	size_t left = grain_htab_bytes_exact(d.h);
	cr_assert_gt(left, c.mem_low - 2 * DUEL_CHARGE,
		     "%zu bytes left, mem_low %zu", left, c.mem_low);
	cr_assert_leq(left, c.mem_low);
	grain_htab_destroy(d.h);
}

/* ----------------------------------------------------------------------
 * An unlinked callback that inserts
 */

enum { NEST_INSERTS = 400 };

struct nest {
	struct grain_htab *h;
	struct obj pool[NEST_INSERTS];
	unsigned inserted, depth, max_depth, failed;
	uint64_t now;
};

/* Each callback inserts one more entry, which takes the table above
 * mem_high again: its unlock evicts, and that eviction's victims get
 * callbacks too. */
static void nest_unlinked(struct ledger *l, struct grain_hnode *node,
			  enum grain_htab_reason why)
{
	struct nest *n = l->user;

	(void)node;
	(void)why;
	if (++n->depth > n->max_depth)
		n->max_depth = n->depth;
	if (n->inserted < NEST_INSERTS) {
		unsigned i = n->inserted++;
		uint64_t k = 100000u + i;
		obj_init(&n->pool[i], k);
		if (grain_htab_insert(n->h, &n->pool[i].node, &k, n->now++,
				      100) != 0)
			n->failed++;
	}
	n->depth--;
}

TABLE_PARAMS(htab_evict, nested_unlinked_depth, modes);

ParameterizedTest(const unsigned *mode, htab_evict, nested_unlinked_depth,
		  .timeout = 60)
{
	static const struct grain_htab_config shape = {
		.stripes = 1,
		.mem_high = 500,
		.mem_low = 400,
	};
	static struct ledger l;
	static struct nest n;
	static struct obj o[6];
	const unsigned flags = *mode;
	struct grain_htab *h = open_table(&l, flags, &shape);

	memset(&n, 0, sizeof(n));
	n.h = h;
	n.now = 100;
	l.log_unlinked = false;
	l.user = &n;
	l.on_unlinked = nest_unlinked;
	/* The sixth entry evicts; from there the callbacks go on alone. */
	insert_keys(h, o, 6, 1, 1, 100);
	cr_assert_eq(n.inserted, (unsigned)NEST_INSERTS);
	cr_assert_eq(n.failed, 0u);
	/* Never one callback inside another (htab.h, "Node life cycle"). */
	cr_assert_eq(n.max_depth, 1u, "callbacks nested %u deep", n.max_depth);
	/* Every entry is linked or was evicted, once. */
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries + st.evictions, 6u + NEST_INSERTS);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EVICTED]),
		     (unsigned long)st.evictions);
	cr_assert_leq(grain_htab_bytes_exact(h), shape.mem_high);
	close_table(h, flags);
}

/* ----------------------------------------------------------------------
 * remove()'s *removed
 */

static void free_reclaim(struct grain_hnode *node, enum grain_htab_reason why,
			 void *ctx)
{
	(void)why;
	(void)ctx;
	free(obj_of(node));
}

TABLE_PARAMS(htab_remove, removed_node_valid, modes);
ParameterizedTest(const unsigned *mode, htab_remove, removed_node_valid)
{
	const unsigned flags = *mode;
	struct grain_htab_config c;

	memset(&c, 0, sizeof(c));
	c.ops.hash = hash_sip;
	c.ops.eq = obj_eq;
	c.ops.reclaim = free_reclaim;
	c.flags = flags;
	mode_enter(flags);
	struct grain_htab *h = make(&c);
	/* Twice: once on the direct path, once after a scope whose unlock
	 * has work (a shrink is due once the stripe grew). */
	for (unsigned round = 0; round < 2; round++) {
		uint64_t k = 7;
		struct obj *o = malloc(sizeof(*o));
		cr_assert_not_null(o);
		obj_init(o, k);
		cr_assert_eq(grain_htab_insert(h, &o->node, &k, 1, 1), 0);
		if (round == 1)
			cr_assert_eq(grain_htab_resize(h, 64), 0);
		struct grain_hnode *removed = &o->node;
		if (is_rcu(flags))
			grain_rcu_read_lock();
		cr_assert_eq(grain_htab_remove(h, &k, &removed), 0);
		if (removed != NULL) {
			/* Inside the read-side section: still readable. */
			cr_assert_eq(obj_of(removed)->key, k);
		}
		if (is_rcu(flags)) {
			cr_assert_eq(removed, &o->node);
			grain_rcu_read_unlock();
		} else {
			cr_assert_null(removed,
				       "a NO_RCU table hands back no node: its "
				       "reclaim has run");
		}
		mode_settle(h, flags);
	}
	grain_htab_destroy(h);
	mode_leave(flags);
}
