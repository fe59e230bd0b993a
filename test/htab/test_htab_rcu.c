/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_rcu.c - grain_htab's lock-free lookups and deferred reclaim,
 * one thread at a time: lookups inside read-side sections, reclaim only
 * after the readers, batched reclaim and grain_htab_reclaim_flush(), the
 * user's ops.defer, and destroy waiting for what is deferred.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>

#include "../common/test_util.h"
#include "htab_cases.h"
#include "../common/test_threads.h"

/* ----------------------------------------------------------------------
 * Lock-free lookup and RCU reclaim
 */

Test(htab_rcu, lookup)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, 0, NULL);
	static struct obj o[300];

	insert_keys(h, o, 300, 0, 1, 1);
	grain_rcu_read_lock();
	for (uint64_t k = 0; k < 600; k++) {
		struct grain_hnode *n = grain_htab_lookup(h, &k);
		cr_assert_eq(n, k < 300 ? &o[k].node : NULL, "key %llu",
			     (unsigned long long)k);
	}
	grain_rcu_read_unlock();
	for (uint64_t k = 0; k < 300; k += 2)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	grain_rcu_read_lock();
	grain_rcu_read_lock(); /* nests */
	for (uint64_t k = 0; k < 300; k++)
		cr_assert_eq(grain_htab_lookup(h, &k),
			     k % 2 ? &o[k].node : NULL);
	grain_rcu_read_unlock();
	grain_rcu_read_unlock();
	close_table(h, 0);

	/* A NO_RCU table has no lock-free lookup. */
	h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	uint64_t k = 1;
	obj_init(&o[1], k);
	cr_assert_eq(grain_htab_insert(h, &o[1].node, &k, 1, 1), 0);
	cr_assert_null(grain_htab_lookup(h, &k));
	cr_assert_eq(find(h, k), &o[1].node);
	grain_htab_destroy(h);
}

/* Lock-free lookups never wait for a writer (htab.h): with a scope holding
 * a stripe lock, they run and find every key, the one just linked in that
 * scope included, on this thread (a lookup that took the lock would never
 * return: the test's timeout fails it) and on another. */
struct held_lookup {
	struct grain_htab *h;
	struct obj *o;	   /* keys 0 .. n - 1 */
	struct obj *extra; /* key extra_key, linked in the held scope */
	uint64_t n, extra_key;
	unsigned found;
};

static void lookup_all(struct held_lookup *w)
{
	grain_rcu_read_lock();
	for (uint64_t k = 0; k < w->n; k++)
		w->found += grain_htab_lookup(w->h, &k) == &w->o[k].node;
	w->found += grain_htab_lookup(w->h, &w->extra_key) == &w->extra->node;
	grain_rcu_read_unlock();
}

static void *lookup_all_thread(void *arg)
{
	grain_rcu_register_thread();
	lookup_all(arg);
	grain_rcu_unregister_thread();
	return NULL;
}

Test(htab_rcu, lookup_while_locked, .timeout = 30)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, 0, NULL);
	static struct obj o[64];
	struct obj extra;
	struct grain_htab_scope s;
	struct held_lookup here = { h, o, &extra, 64, 1000, 0 }, there = here;
	struct test_threads threads = { .n = 0 };

	insert_keys(h, o, 64, 0, 1, 1);
	obj_init(&extra, here.extra_key);
	grain_htab_lock(h, &here.extra_key, &s);
	cr_assert_eq(grain_htab_insert_locked(&s, &extra.node, &here.extra_key,
					      1, 1),
		     0);
	lookup_all(&here);
	cr_assert_eq(here.found, 65u, "found %u of 65 with the lock held",
		     here.found);
	test_spawn(&threads, lookup_all_thread, &there);
	test_join_all(&threads);
	cr_assert_eq(there.found, 65u, "another thread found %u of 65",
		     there.found);
	grain_htab_unlock(&s);
	close_table(h, 0);
}

/* A resize copies and never moves (htab.h, "Layout"): a reader that
 * loaded a stripe's array before the resize replaced it finds in it every
 * key that was present then, removed since or not, and nothing inserted
 * since; the array stays readable until the reader's section ends. The
 * reader's side is taken apart here so that it holds the old arrays across
 * the resize and the writes after it, every time, not by luck. */
Test(htab_rcu, old_array_after_resize)
{
	enum { N = 200, STRIPES = 4 };
	struct ledger l;
	const struct grain_htab_config shape = { .stripes = STRIPES };
	struct grain_htab *h = open_table(&l, 0, &shape);
	static struct obj o[N], fresh[N];
	uintptr_t old[STRIPES];

	insert_keys(h, o, N, 0, 1, 1);
	grain_rcu_read_lock();
	for (unsigned i = 0; i < STRIPES; i++)
		old[i] = atomic_load_explicit(&h->dir[i], memory_order_acquire);
	cr_assert_eq(grain_htab_resize(h, 1024), 0);
	for (unsigned i = 0; i < STRIPES; i++)
		cr_assert_neq(atomic_load(&h->dir[i]), old[i],
			      "stripe %u has the same array after a resize", i);
	/* Writes after the resize go to the new arrays only. */
	for (uint64_t k = 0; k < N; k += 2)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	for (uint64_t k = N; k < 2 * N; k++) {
		obj_init(&fresh[k - N], k);
		cr_assert_eq(grain_htab_insert(h, &fresh[k - N].node, &k, 1, 1),
			     0);
	}
	for (uint64_t k = 0; k < 2 * N; k++) {
		uint64_t hash = grain_htab_hash(h, &k);
		uintptr_t w = old[grain_impl_htab_stripe_index(h, hash)];
		struct grain_hnode *n = grain_impl_htab_search(
			grain_impl_htab_dir_b0(w), grain_impl_htab_dir_mask(w),
			hash, &k, grain_impl_htab_ops(h), h->ctx);
		cr_assert_eq(n, k < N ? &o[k].node : NULL,
			     "key %llu in the array a reader held",
			     (unsigned long long)k);
		cr_assert_eq(grain_htab_lookup(h, &k),
			     k < N && k % 2 == 0 ? NULL
			     : k < N		 ? &o[k].node
						 : &fresh[k - N].node,
			     "key %llu in the current array",
			     (unsigned long long)k);
	}
	grain_rcu_read_unlock();
	close_table(h, 0);
}

Test(htab_rcu, reclaim_waits_for_readers)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, 0, NULL);
	struct obj a;
	uint64_t k = 5;
	struct grain_hnode *r = NULL;

	obj_init(&a, k);
	cr_assert_eq(grain_htab_insert(h, &a.node, &k, 1, 1), 0);
	grain_rcu_read_lock();
	struct grain_hnode *n = grain_htab_lookup(h, &k);
	cr_assert_eq(n, &a.node);
	cr_assert_eq(grain_htab_remove(h, &k, &r), 0);
	cr_assert_eq(r, &a.node);
	cr_assert_null(grain_htab_lookup(h, &k), "removed, yet found");
	/* A resize never waits for a grace period, so it may run here. */
	cr_assert_eq(grain_htab_resize(h, 64), 0,
		     "resize inside a read-side section");
	/* The grace period cannot end while this section lasts. */
	sleep_ms(50);
	cr_assert_eq(atomic_load(&a.reclaims), 0u,
		     "reclaimed under a reader's feet");
	cr_assert_eq(obj_of(n)->key, k);
	grain_rcu_read_unlock();
	grain_rcu_barrier();
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&a.reclaim_why), GRAIN_HTAB_REMOVED);
	cr_assert_eq(grain_htab_resize(h, 64), 0, "outside the section");
	close_table(h, 0);
	cr_assert_eq(atomic_load(&a.reclaims), 1u, "reclaimed twice");
}

/* GRAIN_HTAB_BATCH_RECLAIM: removed nodes wait in their stripe's batch
 * (one stripe here) until it is full or flushed, and a full batch still
 * waits for the readers that may hold its nodes. */
static unsigned reclaimed_of(struct obj *o, unsigned n)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += atomic_load(&o[i].reclaims);
	return sum;
}

/* One batch size per case: reclaim_batch in the configuration (0: the
 * default), and the size that comes to (more than the 5 the test leaves
 * batched). */
static const struct batch_case {
	const char *name;
	unsigned reclaim_batch, size;
} batch_cases[] = {
	{ .name = "the default batch", .size = 32 },
	{ .name = "a batch of 8", .reclaim_batch = 8, .size = 8 },
	{ .name = "a batch of 64", .reclaim_batch = 64, .size = 64 },
};

TABLE_PARAMS(htab_rcu, batched_reclaim, batch_cases);

ParameterizedTest(const struct batch_case *row, htab_rcu, batched_reclaim)
{
	static struct obj o[2 * 64 + 5];
	const char *name = row->name;
	const unsigned B = row->size, N = 2 * B + 5;
	cr_assert(B > 5 && N <= sizeof(o) / sizeof(o[0]), "%s", name);
	const struct grain_htab_config shape = {
		.stripes = 1,
		.reclaim_batch = row->reclaim_batch,
	};
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_BATCH_RECLAIM, &shape);

	insert_keys(h, o, N, 1, 0, 1);
	/* B - 1 removed: all wait for the batch to fill. */
	for (uint64_t k = 0; k < B - 1; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0, "%s", name);
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, N), 0u,
		     "%s: reclaimed before its batch left", name);
	/* A reader holds the next node; its removal fills the batch, which
	 * goes to RCU but cannot be reclaimed while the reader lasts. */
	uint64_t k = B - 1;
	grain_rcu_read_lock();
	struct grain_hnode *held = grain_htab_lookup(h, &k);
	cr_assert_eq(held, &o[B - 1].node, "%s", name);
	cr_assert_eq(grain_htab_remove(h, &k, NULL), 0, "%s", name);
	sleep_ms(50);
	cr_assert_eq(reclaimed_of(o, N), 0u,
		     "%s: reclaimed under a reader's feet", name);
	cr_assert_eq(obj_of(held)->key, B - 1, "%s", name);
	grain_rcu_read_unlock();
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, B), (unsigned)B,
		     "%s: a full batch is reclaimed", name);
	for (unsigned i = 0; i < B; i++)
		cr_assert_eq(atomic_load(&o[i].reclaim_why), GRAIN_HTAB_REMOVED,
			     "%s", name);
	/* Five more: only a flush sends them. The removed nodes' memory is
	 * reused only after its reclaim: re-inserting one before is refused. */
	for (k = B; k < B + 5; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0, "%s", name);
	k = B;
	cr_assert_eq(grain_htab_insert(h, &o[B].node, &k, 1, 1), -EINVAL,
		     "%s: a batched node re-inserted before its reclaim", name);
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, N), (unsigned)B, "%s", name);
	grain_htab_reclaim_flush(h);
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, N), (unsigned)B + 5u, "%s", name);
	cr_assert_eq(stats_of(h).entries, (uint64_t)(N - B - 5), "%s", name);
	/* Destroy sends what is still batched, then reclaims the rest:
	 * every node exactly once. */
	for (k = B + 5; k < B + 8; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0, "%s", name);
	grain_htab_destroy(h);
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(atomic_load(&o[i].reclaims), 1u, "%s: node %u",
			     name, i);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]),
		     (unsigned long)B + 8u, "%s", name);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_DESTROYED]),
		     (unsigned long)(N - B - 8), "%s", name);
	grain_htab_reclaim_flush(NULL); /* no-op */
	grain_rcu_unregister_thread();
}

/* One scope whose removes fill its stripe's batch and go past it: the
 * unlock hands all of them to RCU together, each reclaimed once. */
/* Each node of a stripe's reclaim batch names, in its prev, the node
 * GRAIN_IMPL_HTAB_AHEAD places down the list (NULL near the end), so that
 * the reclaim after the grace period can prefetch it: walk the batch
 * (white box: the stripe's ring) after each remove and check every link,
 * across the batch leaving and a new one starting. */
Test(htab_rcu, batch_lookahead)
{
	enum { B = 11, N = 2 * B + 3 };
	static struct obj o[N];
	static const struct grain_htab_config shape = { .stripes = 1,
							.reclaim_batch = B };
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_BATCH_RECLAIM, &shape);
	const struct grain_impl_htab_stripe *st = &h->stripes[0];
	const unsigned ahead = GRAIN_IMPL_HTAB_AHEAD;

	insert_keys(h, o, N, 1, 0, 1);
	for (uint64_t k = 0; k < N; k++) {
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		/* The batch holds the removes since the last full one,
		 * newest first. */
		unsigned held = (unsigned)((k + 1) % B);
		cr_assert_eq(st->nbatch, held, "after remove %u", (unsigned)k);
		const struct grain_hnode *walk[B];
		const struct grain_hnode *n =
			held ? st->ring[(held - 1) % ahead] : NULL;
		for (unsigned i = 0; i < held; i++, n = n->next) {
			cr_assert_eq(n, &o[k - i].node, "after remove %u, %u",
				     (unsigned)k, i);
			walk[i] = n;
		}
		cr_assert_null(n, "after remove %u: the batch ends",
			       (unsigned)k);
		for (unsigned i = 0; i < held; i++)
			cr_assert_eq(walk[i]->prev,
				     i + ahead < held ? walk[i + ahead] : NULL,
				     "after remove %u, node %u", (unsigned)k,
				     i);
	}
	close_table(h, GRAIN_HTAB_BATCH_RECLAIM);
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(atomic_load(&o[i].reclaims), 1u, "node %u", i);
}

Test(htab_rcu, batched_reclaim_one_scope)
{
	enum { B = 8, N = 12 };
	static struct obj o[N];
	static const struct grain_htab_config shape = { .stripes = 1,
							.reclaim_batch = B };
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_BATCH_RECLAIM, &shape);

	insert_keys(h, o, N, 1, 0, 1);
	struct grain_htab_scope s;
	uint64_t k = 0;
	grain_htab_lock(h, &k, &s);
	for (unsigned i = 0; i < B + 2; i++) /* the one stripe's nodes */
		cr_assert_eq(grain_htab_remove_locked(&s, &o[i].node), 0);
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, N), 0u, "reclaimed before the unlock");
	grain_htab_unlock(&s);
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, N), B + 2, "the whole batch went");
	close_table(h, GRAIN_HTAB_BATCH_RECLAIM);
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(atomic_load(&o[i].reclaims), 1u, "node %u", i);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]),
		     (unsigned long)B + 2u);
}

/* An RCU table whose retired nodes go to @defer; its ctx is @l, the first
 * member of the defer's own state. */
static struct grain_htab *
open_deferring(struct ledger *l,
	       void (*defer)(struct grain_hnode *node,
			     void (*done)(struct grain_hnode *node), void *ctx))
{
	ledger_init(l);
	struct grain_htab_config c = ledger_config(l, 0);
	c.ops.defer = defer;
	mode_enter(0);
	return make(&c);
}

/* ops.defer: the user's own grace-period machinery. The first two
 * deferrals wait for the test; anything after them is done at once (and
 * counted), so that a table waiting for one cannot hang the test. */
struct deferrals {
	struct ledger l; /* first: the table's ctx is also the ledger's */
	unsigned n, more;
	struct grain_hnode *node[2];
	void (*done[2])(struct grain_hnode *node);
	bool at_once;
};

static void defer_later(struct grain_hnode *node,
			void (*done)(struct grain_hnode *node), void *ctx)
{
	struct deferrals *d = ctx;

	if (d->at_once || d->n == 2) {
		d->more += !d->at_once;
		done(node);
		return;
	}
	d->node[d->n] = node;
	d->done[d->n++] = done;
}

Test(htab_rcu, user_defer, .timeout = 30)
{
	static struct deferrals d;
	struct grain_htab *h = open_deferring(&d.l, defer_later);
	struct obj o[4];

	insert_keys(h, o, 4, 1, 0, 1);
	for (uint64_t k = 0; k < 2; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	cr_assert_eq(d.n, 2u, "one deferral per retired node");
	cr_assert_eq(d.more, 0u);
	cr_assert(d.node[0] == &o[0].node || d.node[0] == &o[1].node);
	cr_assert_neq(d.node[0], d.node[1]);
	grain_rcu_barrier();
	cr_assert_eq(atomic_load(&o[0].reclaims) + atomic_load(&o[1].reclaims),
		     0u, "reclaimed before done()");
	d.done[0](d.node[0]);
	cr_assert_eq(atomic_load(&obj_of(d.node[0])->reclaims), 1u);
	cr_assert_eq(atomic_load(&obj_of(d.node[0])->reclaim_why),
		     GRAIN_HTAB_REMOVED);
	cr_assert_eq(atomic_load(&obj_of(d.node[1])->reclaims), 0u);
	d.done[1](d.node[1]);
	cr_assert_eq(atomic_load(&obj_of(d.node[1])->reclaims), 1u);
	/* Resizes back to back: each stripe's old bucket array is retired
	 * through ops.defer too (as an opaque node), so that a user-supplied
	 * grace period also covers readers of the old arrays. */
	cr_assert_eq(grain_htab_resize(h, 64), 0);
	cr_assert_eq(grain_htab_resize(h, 256), 0);
	cr_assert_eq(grain_htab_resize(h, 2), 0);
	cr_assert_eq(stats_of(h).buckets, 64u * 2u);
	cr_assert_eq(d.more, 3u * 64u,
		     "one deferral per retired bucket array, got %u", d.more);
	grain_rcu_read_lock();
	for (uint64_t k = 2; k < 4; k++)
		cr_assert_eq(grain_htab_lookup(h, &k), &o[k].node);
	grain_rcu_read_unlock();
	d.at_once = true;
	close_table(h, 0);
	for (unsigned k = 0; k < 4; k++)
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u, "key %u", k);
	cr_assert_eq(atomic_load(&o[3].reclaim_why), GRAIN_HTAB_DESTROYED);
}

/*
 * GRAIN_HTAB_BATCH_RECLAIM is for RCU tables without ops.defer (htab.h):
 * on a GRAIN_HTAB_NO_RCU table a removed node is reclaimed right after
 * the unlock, and with ops.defer each removed node goes to defer() at
 * once; neither waits for a batch or a flush.
 */
Test(htab_rcu, batch_flag_ignored, .timeout = 30)
{
	const unsigned no_rcu = GRAIN_HTAB_NO_RCU | GRAIN_HTAB_BATCH_RECLAIM;
	struct ledger l;
	struct grain_htab *h = open_table(&l, no_rcu, NULL);
	static struct obj o[4];
	struct grain_htab_scope s;

	insert_keys(h, o, 4, 1, 1, 1);
	for (uint64_t k = 0; k < 3; k++) {
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u,
			     "NO_RCU: key %llu waits in a batch",
			     (unsigned long long)k);
	}
	uint64_t k3 = 3;
	grain_htab_lock(h, &k3, &s);
	cr_assert_eq(grain_htab_remove_locked(&s, &o[3].node), 0);
	grain_htab_unlock(&s);
	cr_assert_eq(atomic_load(&o[3].reclaims), 1u);
	close_table(h, no_rcu);

	static struct deferrals d;
	memset(&d, 0, sizeof(d));
	ledger_init(&d.l);
	struct grain_htab_config c =
		ledger_config(&d.l, GRAIN_HTAB_BATCH_RECLAIM);
	c.ops.defer = defer_later;
	mode_enter(0);
	h = make(&c);
	insert_keys(h, o, 4, 1, 1, 1);
	for (uint64_t k = 0; k < 2; k++) {
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		cr_assert_eq(d.n, k + 1, "ops.defer: key %llu waits in a batch",
			     (unsigned long long)k);
		cr_assert_eq(d.node[k], &o[k].node);
	}
	for (unsigned i = 0; i < 2; i++) {
		d.done[i](d.node[i]);
		cr_assert_eq(atomic_load(&o[i].reclaims), 1u);
	}
	d.at_once = true;
	close_table(h, 0);
	for (unsigned k = 0; k < 4; k++)
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u, "key %u", k);
}

/*
 * With GRAIN_HTAB_BATCH_RECLAIM only removed nodes wait in a batch:
 * evicted and expired ones go to RCU from the unlock that retired them,
 * and a barrier, with no flush, reclaims them. One stripe, five entries
 * of 100 bytes make mem_high; a sixth evicts the three oldest; expire()
 * takes the other three. A removed node, for contrast, waits for the
 * flush.
 */
Test(htab_rcu, evicted_and_expired_not_batched, .timeout = 30)
{
	static const struct grain_htab_config shape = {
		.stripes = 1, .ttl = 10, .mem_high = 500, .mem_low = 300
	};
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_BATCH_RECLAIM, &shape);
	static struct obj o[7];

	insert_keys(h, o, 6, 1, 1, 100);
	cr_assert_eq(stats_of(h).evictions, 3u);
	grain_rcu_barrier();
	for (unsigned k = 0; k < 3; k++) {
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u,
			     "evicted key %u waits in a batch", k);
		cr_assert_eq(atomic_load(&o[k].reclaim_why),
			     GRAIN_HTAB_EVICTED);
	}
	cr_assert_eq(grain_htab_expire(h, 20), 3u);
	grain_rcu_barrier();
	for (unsigned k = 3; k < 6; k++) {
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u,
			     "expired key %u waits in a batch", k);
		cr_assert_eq(atomic_load(&o[k].reclaim_why),
			     GRAIN_HTAB_EXPIRED);
	}
	uint64_t k = 6;
	obj_init(&o[k], k);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 20, 1), 0);
	cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	grain_rcu_barrier();
	cr_assert_eq(atomic_load(&o[k].reclaims), 0u);
	grain_htab_reclaim_flush(h);
	grain_rcu_barrier();
	cr_assert_eq(atomic_load(&o[k].reclaims), 1u);
	close_table(h, GRAIN_HTAB_BATCH_RECLAIM);
}

/* grain_htab_reclaim_flush() never waits for a grace period, so it may
 * run inside a read-side section (a flush that waited would never return
 * there: the test's timeout fails it); what it sends still waits for that
 * section. */
Test(htab_rcu, flush_inside_read_section, .timeout = 30)
{
	static const struct grain_htab_config shape = { .stripes = 1 };
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_BATCH_RECLAIM, &shape);
	static struct obj o[3];

	insert_keys(h, o, 3, 1, 1, 1);
	grain_rcu_read_lock();
	uint64_t k0 = 0;
	struct grain_hnode *held = grain_htab_lookup(h, &k0);
	cr_assert_eq(held, &o[0].node);
	for (uint64_t k = 0; k < 3; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	grain_htab_reclaim_flush(h);
	sleep_ms(20);
	cr_assert_eq(reclaimed_of(o, 3), 0u, "reclaimed under a reader");
	cr_assert_eq(obj_of(held)->key, 0u);
	grain_rcu_read_unlock();
	grain_rcu_barrier();
	cr_assert_eq(reclaimed_of(o, 3), 3u, "the flush sent them");
	for (unsigned k = 0; k < 3; k++)
		cr_assert_eq(atomic_load(&o[k].reclaim_why),
			     GRAIN_HTAB_REMOVED);
	close_table(h, GRAIN_HTAB_BATCH_RECLAIM);
}

/*
 * ops.defer is called with no table lock held (htab.h): here it walks
 * the whole table, which takes every stripe lock in turn, before it calls
 * done(). Removal, eviction, expiry, and automatic and explicit resizes
 * all hand it nodes or bucket arrays; a defer called under a stripe lock
 * would wait for that lock forever (the test's timeout fails it).
 */
struct walking_defer {
	struct ledger l; /* first: the table's ctx is also the ledger's */
	struct grain_htab *h;
	unsigned calls, bad;
};

static int count_one(struct grain_htab_scope *s, struct grain_hnode *n,
		     void *ctx)
{
	(void)s;
	(void)n;
	(*(unsigned *)ctx)++;
	return 0;
}

static void defer_walk(struct grain_hnode *node,
		       void (*done)(struct grain_hnode *node), void *ctx)
{
	struct walking_defer *d = ctx;
	unsigned n = 0;

	d->calls++;
	if (d->h != NULL && grain_htab_walk(d->h, count_one, &n) != 0)
		d->bad++;
	done(node);
}

Test(htab_rcu, defer_runs_without_locks, .timeout = 30)
{
	static struct walking_defer d;
	static struct obj o[400];

	memset(&d, 0, sizeof(d));
	ledger_init(&d.l);
	struct grain_htab_config c = ledger_config(&d.l, 0);
	c.ops.defer = defer_walk;
	c.stripes = 4;
	c.ttl = 100000;
	c.mem_high = 400 * 10;
	c.mem_low = 300 * 10;
	mode_enter(0);
	struct grain_htab *h = make(&c);
	d.h = h;

	/* 400 entries in 4 stripes of 16 buckets: every stripe grows. */
	insert_keys(h, o, 400, 1, 1, 10);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_geq(st.resizes, 4u, "no automatic resize");
	cr_assert_eq(st.evictions, 0u);
	unsigned arrays = d.calls;
	cr_assert_geq(arrays, 4u, "old arrays not deferred");
	for (uint64_t k = 0; k < 400; k += 4)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	cr_assert_eq(grain_htab_resize(h, 1024), 0);
	/* 300 entries left, 3000 bytes: an insert past mem_high evicts the
	 * oldest down to mem_low; expire() then takes all that is left. */
	static struct obj big;
	uint64_t kb = 400;
	obj_init(&big, kb);
	cr_assert_eq(grain_htab_insert(h, &big.node, &kb, 401, 2000), 0);
	cr_assert_gt(stats_of(h).evictions, 0u);
	cr_assert_gt(grain_htab_expire(h, 100000 + 401), 0u);
	cr_assert_eq(stats_of(h).entries, 0u);
	st = stats_of(h);
	cr_assert_eq(d.bad, 0u);
	cr_assert_geq(d.calls,
		      arrays + 100u + 4u + st.evictions + st.expirations);
	d.h = NULL;
	close_table(h, 0);
	cr_assert_eq(atomic_load(&d.l.reclaimed[GRAIN_HTAB_REMOVED]), 100ul);
}

/* destroy waits for reclaims still pending in the user's defer(). */
struct late_done {
	struct ledger l; /* first: the table's ctx is also the ledger's */
	struct grain_hnode *node;
	void (*done)(struct grain_hnode *node);
	_Atomic(bool) done_called;
};

static void defer_keep(struct grain_hnode *node,
		       void (*done)(struct grain_hnode *node), void *ctx)
{
	struct late_done *d = ctx;

	if (d->node != NULL) {
		done(node); /* only the first one waits */
		return;
	}
	d->node = node;
	d->done = done;
}

static void *call_done_later(void *arg)
{
	struct late_done *d = arg;

	sleep_ms(100);
	atomic_store(&d->done_called, true);
	d->done(d->node);
	return NULL;
}

Test(htab_rcu, destroy_waits_for_user_defer, .timeout = 30)
{
	static struct late_done d;
	struct grain_htab *h = open_deferring(&d.l, defer_keep);
	static struct obj a, b;
	uint64_t ka = 1, kb = 2;
	struct test_threads threads = { .n = 0 };

	obj_init(&a, ka);
	obj_init(&b, kb);
	cr_assert_eq(grain_htab_insert(h, &a.node, &ka, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(h, &b.node, &kb, 1, 1), 0);
	cr_assert_eq(grain_htab_remove(h, &ka, NULL), 0);
	cr_assert_eq(d.node, &a.node);
	test_spawn(&threads, call_done_later, &d);
	grain_htab_destroy(h);
	cr_assert(atomic_load(&d.done_called),
		  "destroy returned with a reclaim pending in defer()");
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&a.reclaim_why), GRAIN_HTAB_REMOVED);
	cr_assert_eq(atomic_load(&b.reclaims), 1u);
	cr_assert_eq(atomic_load(&b.reclaim_why), GRAIN_HTAB_DESTROYED);
	test_join_all(&threads);
	mode_leave(0);
}
