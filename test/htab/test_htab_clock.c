/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_clock.c - grain_htab's CLOCK eviction order
 * (GRAIN_HTAB_EVICT_CLOCK): what htab.h section 3 guarantees of it.
 *
 * - order: within a stripe, an entry inserted or touched since the hand
 *   last passed it is not evicted before one that was not, and a touched
 *   entry is passed over once, not forever;
 * - no LRU writes: an insert or remove leaves every other node as it was;
 * - watermarks: the total stays within mem_high (and the lag), and every
 *   entry is present, evicted or expired exactly once;
 * - TTL: grain_htab_expire() finds every entry ttl old by its scan, and an
 *   eviction that meets a ttl old entry expires it whatever its mark;
 * - walk and destroy find every entry without an LRU list;
 * - a concurrent stress with counts conserved: every inserted entry is
 *   reclaimed exactly once, as removed, evicted, expired or destroyed.
 */
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "htab_test.h"

#define N 64u

static struct grain_htab_config clock_config(struct ledger *l, unsigned stripes,
					     size_t mem_high)
{
	struct grain_htab_config c;

	memset(&c, 0, sizeof(c));
	c.ops.hash = hash_sip;
	c.ops.eq = obj_eq;
	c.ops.unlinked = ledger_unlinked;
	c.ops.reclaim = ledger_reclaim;
	c.ctx = l;
	c.stripes = stripes;
	/* Room for every entry of the tests below: no resize reorders the
	 * slots under the hand. */
	c.buckets = 64;
	c.mem_high = mem_high;
	c.mem_low = mem_high; /* one eviction per insert past mem_high */
	c.flags = GRAIN_HTAB_NO_RCU | GRAIN_HTAB_EVICT_CLOCK;
	return c;
}

static void touch(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct grain_htab_scope s;

	grain_htab_lock(h, &key, &s);
	struct grain_hnode *n = grain_htab_find_locked(&s, &key);
	cr_assert_not_null(n, "key %llu present", (unsigned long long)key);
	cr_assert_eq(grain_htab_touch_locked(&s, n, now), 0);
	grain_htab_unlock(&s);
}

static bool present(struct grain_htab *h, uint64_t key)
{
	struct grain_htab_scope s;

	grain_htab_lock(h, &key, &s);
	bool p = grain_htab_find_locked(&s, &key) != NULL;
	grain_htab_unlock(&s);
	return p;
}

/* The guarantee: untouched entries go first, all of them, before any
 * entry touched since the hand passed; then the touched ones go too. */
Test(htab_clock, second_chance_order)
{
	static struct obj o[6 * N];
	struct ledger l;
	struct grain_htab *h;

	ledger_init(&l);
	l.log_unlinked = true;
	struct grain_htab_config c = clock_config(&l, 1, N);
	/* Keys are their own hashes: key k sits in bucket k % 64, the same
	 * slots every run. */
	c.ops.hash = hash_ident;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < 6 * N; i++)
		obj_init(&o[i], i);
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, 1, 1),
			     0);
	cr_assert_eq(l.nlog, 0u, "nothing evicted at mem_high");
	/* One more: the hand clears every mark in its first round (every
	 * entry was just inserted) and evicts one entry. Every mark is
	 * clear after it. */
	cr_assert_eq(grain_htab_insert(h, &o[N].node, &o[N].key, 2, 1), 0);
	cr_assert_eq(l.nlog, 1u);
	uint64_t first = l.log[0];
	cr_assert_lt(first, N + 1);
	/* Touch every even key that is left (the hand passed all of them
	 * since their insert): they must outlive every untouched one. */
	bool touched[N + 1] = { false };
	unsigned untouched = 0;
	for (uint64_t k = 0; k <= N; k++) {
		if (k == first)
			continue;
		if (k % 2 == 0) {
			touch(h, k, 3);
			touched[k] = true;
		} else {
			untouched++;
		}
	}
	/* Each new insert evicts one entry: the first `untouched` victims
	 * are exactly the untouched keys (new entries are marked too). */
	for (unsigned i = 0; i < untouched; i++) {
		struct obj *x = &o[N + 1 + i];
		cr_assert_eq(grain_htab_insert(h, &x->node, &x->key, 4, 1), 0);
		cr_assert_eq(l.nlog, 2u + i);
		uint64_t v = l.log[1 + i];
		cr_assert(v <= N && !touched[v] && v != first,
			  "victim %u is key %llu: touched or new", i,
			  (unsigned long long)v);
	}
	for (uint64_t k = 0; k <= N; k++)
		cr_assert_eq(present(h, k), touched[k], "key %llu",
			     (unsigned long long)k);
	/* Second chance, not immortality: the hand comes round again and
	 * takes the touched ones too. */
	unsigned base = N + 1 + untouched;
	for (unsigned i = 0; i < 3 * N; i++) {
		struct obj *x = &o[base + i];
		cr_assert_eq(grain_htab_insert(h, &x->node, &x->key, 5, 1), 0);
	}
	for (uint64_t k = 0; k <= N; k++)
		cr_assert_not(present(h, k), "key %llu outlived a revolution",
			      (unsigned long long)k);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EXPIRED]), 0ul);
	grain_htab_destroy(h);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_DESTROYED]),
		     (unsigned long)N);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_EVICTED]),
		     (unsigned long)(base + 3 * N - N));
}

/* An insert or a remove writes no other node: no LRU neighbours. */
Test(htab_clock, no_lru_writes)
{
	static struct obj o[3];
	struct ledger l;
	struct grain_htab *h;

	ledger_init(&l);
	struct grain_htab_config c = clock_config(&l, 1, 0);
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < 3; i++)
		obj_init(&o[i], i);
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &o[0].key, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(h, &o[1].node, &o[1].key, 1, 1), 0);
	struct grain_hnode before = o[1].node;
	cr_assert_eq(grain_htab_insert(h, &o[2].node, &o[2].key, 1, 1), 0);
	cr_assert_eq(grain_htab_remove(h, &o[0].key, NULL), 0);
	cr_assert_eq(grain_htab_remove(h, &o[2].key, NULL), 0);
	cr_assert_eq(memcmp(&before, &o[1].node, sizeof(before)), 0,
		     "a neighbour's insert or remove wrote the node");
	grain_htab_destroy(h);
}

/* Watermarks under CLOCK, many stripes: after every insert the exact
 * total is within mem_high plus the lag and one entry; every entry is
 * either present or evicted, once. */
Test(htab_clock, watermark)
{
	enum { STRIPES = 16, KEYS = 20000, CHARGE = 100 };
	struct obj *o = calloc(KEYS, sizeof(*o));
	struct ledger l;
	struct grain_htab *h;

	cr_assert_not_null(o);
	ledger_init(&l);
	struct grain_htab_config c =
		clock_config(&l, STRIPES, (size_t)1000 * CHARGE);
	c.mem_low = (size_t)750 * CHARGE;
	c.mem_batch = 4 * CHARGE;
	c.ops.hash = hash_sip;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	size_t bound = c.mem_high + (size_t)STRIPES * c.mem_batch + CHARGE;
	for (unsigned i = 0; i < KEYS; i++) {
		obj_init(&o[i], i);
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, i,
					       CHARGE),
			     0);
		size_t b = grain_htab_bytes_exact(h);
		cr_assert_leq(b, bound, "insert %u: %zu bytes", i, b);
	}
	unsigned linked = 0;
	for (unsigned i = 0; i < KEYS; i++) {
		bool p = present(h, i);
		unsigned u = atomic_load(&o[i].unlinks);
		cr_assert_eq(u, p ? 0u : 1u, "key %u: present %d, unlinked %u",
			     i, p, u);
		linked += p;
	}
	cr_assert_eq(grain_htab_bytes_exact(h), (size_t)linked * CHARGE);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EVICTED]),
		     (unsigned long)(KEYS - linked));
	grain_htab_destroy(h);
	for (unsigned i = 0; i < KEYS; i++)
		cr_assert_eq(atomic_load(&o[i].reclaims), 1u, "key %u", i);
	free(o);
}

/* TTL under CLOCK: expire() scans and takes exactly the entries ttl old
 * (a touch restarts an entry's TTL); inserts expire nothing; an eviction
 * that meets a ttl old entry expires it even though it is marked. */
Test(htab_clock, expire)
{
	static struct obj o[2 * N + 1];
	struct ledger l;
	struct grain_htab *h;

	ledger_init(&l);
	struct grain_htab_config c = clock_config(&l, 4, 0);
	c.ttl = 100;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < 2 * N + 1; i++)
		obj_init(&o[i], i);
	/* Keys 0..N-1 stamped i: at 150 those stamped up to 50 are due. */
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, i, 1),
			     0);
	touch(h, 3, 120); /* restarted: not due at 150 */
	cr_assert_eq(grain_htab_insert(h, &o[N].node, &o[N].key, 1000, 1), 0);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EXPIRED]), 0ul,
		     "an insert expired under CLOCK");
	cr_assert_eq(grain_htab_expire(h, 150), 50u);
	for (unsigned i = 0; i <= N; i++) {
		bool due = i <= 50 && i != 3;
		cr_assert_eq(present(h, i), !due, "key %u", i);
		if (due)
			cr_assert_eq(atomic_load(&o[i].unlink_why),
				     GRAIN_HTAB_EXPIRED, "key %u", i);
	}
	cr_assert_eq(grain_htab_expire(h, 150), 0u, "nothing due twice");
	grain_htab_destroy(h);

	/* An eviction that meets an entry ttl old expires it, marked or
	 * not: every entry here is marked (just inserted). */
	ledger_init(&l);
	c = clock_config(&l, 1, N);
	c.ttl = 100;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < N + 1; i++)
		obj_init(&o[i], i);
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, 0, 1),
			     0);
	cr_assert_eq(grain_htab_insert(h, &o[N].node, &o[N].key, 500, 1), 0);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EXPIRED]), 1ul);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EVICTED]), 0ul);
	grain_htab_destroy(h);
}

/* A replace puts the new node in the old one's slot, marked: it gets the
 * second chance an insert gets, and the old node goes as REPLACED. */
Test(htab_clock, replace_marks)
{
	static struct obj o[N + 2];
	struct ledger l;
	struct grain_htab *h;

	ledger_init(&l);
	l.log_unlinked = true;
	struct grain_htab_config c = clock_config(&l, 1, N);
	c.ops.hash = hash_ident;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < N + 2; i++)
		obj_init(&o[i], i);
	for (unsigned i = 0; i < N; i++)
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, 1, 1),
			     0);
	/* The first eviction clears every mark and takes key 0 (bucket 0
	 * comes first); then key 1 is replaced by a node of the same key. */
	cr_assert_eq(grain_htab_insert(h, &o[N].node, &o[N].key, 2, 1), 0);
	cr_assert_eq(l.nlog, 1u);
	cr_assert_eq(l.log[0], 0u);
	struct obj *r = &o[N + 1];
	r->key = 1;
	struct grain_hnode *old = NULL;
	cr_assert_eq(grain_htab_replace(h, &r->key, &r->node, 3, 1, &old), 0);
	cr_assert_eq(old, &o[1].node);
	/* The hand stands at bucket 0's second slot, key N (unmarked): the
	 * next eviction takes it; the one after passes the new node of key 1
	 * (marked by the replace) and takes key 2. The new keys go to bucket
	 * 63, behind the hand. */
	struct obj x[2];
	for (unsigned i = 0; i < 2; i++) {
		obj_init(&x[i], 127 + 64 * i);
		cr_assert_eq(grain_htab_insert(h, &x[i].node, &x[i].key, 4, 1),
			     0);
	}
	cr_assert_eq(l.nlog, 3u);
	cr_assert_eq(l.log[1], N, "victim %llu", (unsigned long long)l.log[1]);
	cr_assert_eq(l.log[2], 2u, "victim %llu", (unsigned long long)l.log[2]);
	cr_assert(present(h, 1));
	grain_htab_destroy(h);
	cr_assert_eq(atomic_load(&o[1].reclaim_why), GRAIN_HTAB_REPLACED);
	cr_assert_eq(atomic_load(&r->reclaim_why), GRAIN_HTAB_DESTROYED);
}

static int count_fn(struct grain_htab_scope *s, struct grain_hnode *n,
		    void *ctx)
{
	unsigned *seen = ctx;
	uint64_t k = obj_of(n)->key;

	seen[k]++;
	/* Remove every third key during the walk, touch the rest. */
	if (k % 3 == 0)
		return grain_htab_remove_locked(s, n);
	return grain_htab_touch_locked(s, n, 7);
}

/* Walk and destroy find every entry without an LRU list. */
Test(htab_clock, walk_and_destroy)
{
	static struct obj o[3 * N];
	static unsigned seen[3 * N];
	struct ledger l;
	struct grain_htab *h;

	ledger_init(&l);
	struct grain_htab_config c = clock_config(&l, 4, 0);
	c.buckets = 16; /* grows while the keys go in: slots move */
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < 3 * N; i++) {
		obj_init(&o[i], i);
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, 1, 1),
			     0);
	}
	cr_assert_eq(grain_htab_walk(h, count_fn, seen), 0);
	unsigned removed = 0;
	for (unsigned i = 0; i < 3 * N; i++) {
		cr_assert_eq(seen[i], 1u, "key %u visited %u times", i,
			     seen[i]);
		removed += i % 3 == 0;
	}
	grain_htab_destroy(h);
	for (unsigned i = 0; i < 3 * N; i++) {
		cr_assert_eq(atomic_load(&o[i].reclaims), 1u, "key %u", i);
		cr_assert_eq(atomic_load(&o[i].reclaim_why),
			     i % 3 == 0 ? GRAIN_HTAB_REMOVED
					: GRAIN_HTAB_DESTROYED,
			     "key %u", i);
	}
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]),
		     (unsigned long)removed);
}

/* ----------------------------------------------------------------------
 * Concurrent stress: threads insert, touch, charge and remove their own
 * keys while eviction (mem_high small) and expiry (ttl, and a thread
 * calling grain_htab_expire()) take entries; every node, a fresh one per
 * insert, must be reclaimed exactly once, and the books must balance:
 * inserted = removed + evicted + expired + destroyed.
 */

#define STRESS_THREADS 3u
#define STRESS_KEYS 512u

struct stress {
	struct grain_htab *h;
	unsigned ops;
	unsigned flags;
	_Atomic(uint64_t) clock;
	_Atomic(uint64_t) inserted, removed, unlinked;
	_Atomic(uint64_t) reclaimed[REASONS];
	_Atomic(unsigned) errors;
	_Atomic(bool) done;
};

struct snode {
	struct grain_hnode node;
	uint64_t key;
	_Atomic(unsigned) reclaims;
	_Atomic(unsigned) unlinks;
};

static struct snode *snode_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct snode, node);
}

static bool snode_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return snode_of(n)->key == *(const uint64_t *)key;
}

static void stress_unlinked(struct grain_hnode *n, enum grain_htab_reason why,
			    void *ctx)
{
	struct stress *st = ctx;
	struct snode *o = snode_of(n);

	if (why != GRAIN_HTAB_EVICTED && why != GRAIN_HTAB_EXPIRED)
		atomic_fetch_add(&st->errors, 1u);
	if (atomic_fetch_add(&o->unlinks, 1u) != 0)
		atomic_fetch_add(&st->errors, 1u);
	atomic_fetch_add(&st->unlinked, 1);
}

static void stress_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			   void *ctx)
{
	struct stress *st = ctx;
	struct snode *o = snode_of(n);

	if (atomic_fetch_add(&o->reclaims, 1u) != 0 ||
	    (unsigned)why >= REASONS) {
		atomic_fetch_add(&st->errors, 1u);
		return;
	}
	atomic_fetch_add(&st->reclaimed[why], 1);
	free(o);
}

struct stress_worker {
	struct stress *st;
	unsigned id;
	pthread_t thread;
};

static void *stress_main(void *arg)
{
	struct stress_worker *w = arg;
	struct stress *st = w->st;
	uint64_t rng = 0x9e3779b97f4a7c15ull * (w->id + 1);
	bool rcu = (st->flags & GRAIN_HTAB_NO_RCU) == 0;

	if (rcu)
		grain_rcu_register_thread();
	for (unsigned i = 0; i < st->ops; i++) {
		uint64_t key = (uint64_t)w->id << 32 |
			       (test_rand(&rng) % STRESS_KEYS);
		uint64_t now = atomic_fetch_add(&st->clock, 1);
		unsigned op = (unsigned)(test_rand(&rng) % 8);
		if (op < 4) {
			struct snode *o = calloc(1, sizeof(*o));
			if (o == NULL) {
				atomic_fetch_add(&st->errors, 1u);
				break;
			}
			o->key = key;
			int rc = grain_htab_insert(st->h, &o->node, &o->key,
						   now, 64 + (key & 63));
			if (rc == 0)
				atomic_fetch_add(&st->inserted, 1);
			else
				free(o); /* -EEXIST: never linked */
		} else if (op < 7) {
			if (grain_htab_remove(st->h, &key, NULL) == 0)
				atomic_fetch_add(&st->removed, 1);
		} else {
			struct grain_htab_scope s;
			grain_htab_lock(st->h, &key, &s);
			struct grain_hnode *n =
				grain_htab_find_locked(&s, &key);
			if (n != NULL &&
			    (grain_htab_touch_locked(&s, n, now) != 0 ||
			     grain_htab_charge_locked(&s, n, 8) != 0))
				atomic_fetch_add(&st->errors, 1u);
			grain_htab_unlock(&s);
		}
	}
	if (rcu)
		grain_rcu_unregister_thread();
	return NULL;
}

static void *expire_main(void *arg)
{
	struct stress *st = arg;
	bool rcu = (st->flags & GRAIN_HTAB_NO_RCU) == 0;

	if (rcu)
		grain_rcu_register_thread();
	while (!atomic_load(&st->done)) {
		(void)grain_htab_expire(st->h, atomic_load(&st->clock));
		sched_yield();
	}
	if (rcu)
		grain_rcu_unregister_thread();
	return NULL;
}

static void stress_run(unsigned stripes, unsigned flags)
{
	struct stress st;
	struct stress_worker w[STRESS_THREADS];
	pthread_t ex;
	struct grain_htab_config c;

	memset(&st, 0, sizeof(st));
	st.ops = TEST_SANITIZED ? 20000 : 100000;
	st.flags = flags;
	memset(&c, 0, sizeof(c));
	c.ops.hash = hash_sip;
	c.ops.eq = snode_eq;
	c.ops.unlinked = stress_unlinked;
	c.ops.reclaim = stress_reclaim;
	c.ctx = &st;
	c.stripes = stripes;
	c.mem_high = 300 * 96; /* well under the keys' total: evicts */
	c.mem_low = 200 * 96;
	c.ttl = 2000; /* clock ticks: every op ticks once */
	c.flags = flags | GRAIN_HTAB_EVICT_CLOCK;
	cr_assert_eq(grain_htab_create(&st.h, &c, NULL), 0);
	for (unsigned i = 0; i < STRESS_THREADS; i++) {
		w[i].st = &st;
		w[i].id = i;
		cr_assert_eq(pthread_create(&w[i].thread, NULL, stress_main,
					    &w[i]),
			     0);
	}
	cr_assert_eq(pthread_create(&ex, NULL, expire_main, &st), 0);
	for (unsigned i = 0; i < STRESS_THREADS; i++)
		pthread_join(w[i].thread, NULL);
	atomic_store(&st.done, true);
	pthread_join(ex, NULL);
	cr_assert_eq(atomic_load(&st.errors), 0u);
	if ((flags & GRAIN_HTAB_NO_RCU) == 0)
		grain_htab_reclaim_flush(st.h);
	grain_htab_destroy(st.h);
	cr_assert_eq(atomic_load(&st.errors), 0u, "a node reclaimed twice");
	uint64_t ins = atomic_load(&st.inserted);
	uint64_t rem = atomic_load(&st.reclaimed[GRAIN_HTAB_REMOVED]);
	uint64_t ev = atomic_load(&st.reclaimed[GRAIN_HTAB_EVICTED]);
	uint64_t ex_ = atomic_load(&st.reclaimed[GRAIN_HTAB_EXPIRED]);
	uint64_t de = atomic_load(&st.reclaimed[GRAIN_HTAB_DESTROYED]);
	cr_assert_eq(rem, atomic_load(&st.removed));
	cr_assert_eq(ev + ex_, atomic_load(&st.unlinked));
	cr_assert_eq(ins, rem + ev + ex_ + de,
		     "inserted %llu != removed %llu + evicted %llu + expired "
		     "%llu + destroyed %llu",
		     (unsigned long long)ins, (unsigned long long)rem,
		     (unsigned long long)ev, (unsigned long long)ex_,
		     (unsigned long long)de);
	cr_assert_gt(ev, 0u, "the stress evicted nothing");
	cr_assert_eq(atomic_load(&st.reclaimed[GRAIN_HTAB_REPLACED]) +
			     atomic_load(&st.reclaimed[GRAIN_HTAB_REFUSED]),
		     0u);
}

Test(htab_clock, stress_one_stripe, .timeout = 120)
{
	stress_run(1, GRAIN_HTAB_NO_RCU);
}

Test(htab_clock, stress_stripes, .timeout = 120)
{
	stress_run(16, GRAIN_HTAB_NO_RCU);
}

Test(htab_clock, stress_rcu, .timeout = 120)
{
	stress_run(16, GRAIN_HTAB_BATCH_RECLAIM);
}
