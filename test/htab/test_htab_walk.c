/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_walk.c - grain_htab_walk(), one thread at a time: every entry
 * once in LRU order, what the callback may do (remove, touch, charge),
 * stopping, NULL arguments, and evictions at the stripe's unlock. The
 * concurrent walk is in test_htab_stress.c.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/test_util.h"
#include "htab_cases.h"

/* ----------------------------------------------------------------------
 * grain_htab_walk
 */

#define WALK_KEYS 600u

/* What a walk saw: each key's visits, and the order (stripe, stamp). */
struct walk_log {
	struct grain_htab *h;
	unsigned stripes;
	unsigned visits[WALK_KEYS];
	unsigned n;
	uint64_t last_stripe, last_stamp;
	bool ordered;	     /* stripes ascending, stamps within a stripe */
	unsigned stop_after; /* return 42 at this visit (0: never) */
	int act;	     /* what the callback does: WALK_* */
	bool probe;	     /* also call what takes no lock (htab.h) */
	bool rcu;	     /* with a lock-free lookup of the node's key */
	int errors;	     /* calls made in the callback that failed */
};

enum { WALK_LOOK, WALK_ACT };

static int walk_note(struct grain_htab_scope *s, struct grain_hnode *n,
		     void *ctx)
{
	struct walk_log *w = ctx;
	struct obj *o = obj_of(n);
	uint64_t stripe = stripe_of_key(w->h, o->key, w->stripes);

	if (o->key < WALK_KEYS)
		w->visits[o->key]++;
	if (w->n > 0 &&
	    (stripe < w->last_stripe ||
	     (stripe == w->last_stripe && n->stamp <= w->last_stamp)))
		w->ordered = false;
	w->last_stripe = stripe;
	w->last_stamp = n->stamp;
	w->n++;
	if (w->probe) {
		/* Calls that take no lock, from inside the walk. */
		struct grain_htab_stats st;
		grain_htab_get_stats(w->h, &st);
		w->errors += st.entries == 0;
		w->errors += grain_htab_bytes_exact(w->h) == 0;
		if (w->rcu) {
			grain_rcu_read_lock();
			w->errors += grain_htab_lookup(w->h, &o->key) != n;
			grain_rcu_read_unlock();
		}
	}
	if (w->act == WALK_ACT) {
		/* Every third key removed, every third touched (it moves to
		 * the tail: the walk must not come back to it), every third
		 * charged 10 bytes more. */
		int rc =
			o->key % 3 == 0 ? grain_htab_remove_locked(s, n)
			: o->key % 3 == 1
				? grain_htab_touch_locked(s, n, 100000 + o->key)
				: grain_htab_charge_locked(s, n, 10);
		w->errors += rc != 0;
	}
	return w->stop_after != 0 && w->n == w->stop_after ? 42 : 0;
}

static void walk_log_init(struct walk_log *w, struct grain_htab *h,
			  unsigned stripes, int act)
{
	memset(w, 0, sizeof(*w));
	w->h = h;
	w->stripes = stripes;
	w->ordered = true;
	w->act = act;
}

/*
 * Every entry once, stripe by stripe, oldest first: keys inserted with
 * rising stamps, a fifth of them touched later (so LRU order is not
 * insertion order), on tables of 1, 16 and 64 stripes. The callback also
 * calls what takes no lock (stats, bytes, a lock-free lookup of its own
 * node on an RCU table), which htab.h allows inside a walk.
 */
TABLE_PARAMS(htab_walk, every_entry_once_oldest_first, modes);
ParameterizedTest(const unsigned *mode, htab_walk,
		  every_entry_once_oldest_first)
{
	static const unsigned stripes[] = { 1, 16, 64 };
	static struct obj o[WALK_KEYS];

	for (unsigned i = 0; i < 3; i++) {
		const struct grain_htab_config shape = { .stripes =
								 stripes[i] };
		struct ledger l;
		struct grain_htab *h = open_table(&l, *mode, &shape);
		struct walk_log w;

		insert_keys(h, o, WALK_KEYS, 1, 1, 8);
		for (uint64_t k = 0; k < WALK_KEYS; k += 5)
			cr_assert_eq(touch(h, k, 10000 + k), 0);
		walk_log_init(&w, h, stripes[i], WALK_LOOK);
		w.probe = true;
		w.rcu = is_rcu(*mode);
		cr_assert_eq(grain_htab_walk(h, walk_note, &w), 0);
		cr_assert_eq(w.n, WALK_KEYS, "%u stripes", stripes[i]);
		cr_assert_eq(w.errors, 0, "%u stripes: lock-free calls inside",
			     stripes[i]);
		for (unsigned k = 0; k < WALK_KEYS; k++)
			cr_assert_eq(w.visits[k], 1u, "%u stripes: key %u",
				     stripes[i], k);
		cr_assert(w.ordered,
			  "%u stripes: stripe by stripe, oldest "
			  "first",
			  stripes[i]);
		cr_assert_eq(stats_of(h).entries, WALK_KEYS, "nothing changed");
		close_table(h, *mode);
	}
}

/*
 * The callback's remove, touch and charge: each visited entry is visited
 * once (a touched one is not met again at the tail), the removed ones
 * are gone and reclaimed once, the bytes add up, and a second walk sees
 * the touched entries after the others of their stripe.
 */
TABLE_PARAMS(htab_walk, remove_touch_charge_in_the_callback, modes);
ParameterizedTest(const unsigned *mode, htab_walk,
		  remove_touch_charge_in_the_callback)
{
	static const struct grain_htab_config shape = { .stripes = 16 };
	static struct obj o[WALK_KEYS];
	struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	struct walk_log w;
	unsigned removed = 0, charged = 0;

	insert_keys(h, o, WALK_KEYS, 1, 1, 8);
	walk_log_init(&w, h, 16, WALK_ACT);
	cr_assert_eq(grain_htab_walk(h, walk_note, &w), 0);
	cr_assert_eq(w.errors, 0);
	cr_assert_eq(w.n, WALK_KEYS);
	for (unsigned k = 0; k < WALK_KEYS; k++) {
		cr_assert_eq(w.visits[k], 1u, "key %u", k);
		removed += k % 3 == 0;
		charged += k % 3 == 2;
	}
	mode_settle(h, *mode);
	for (uint64_t k = 0; k < WALK_KEYS; k++) {
		cr_assert_eq(find(h, k), k % 3 == 0 ? NULL : &o[k].node,
			     "key %llu", (unsigned long long)k);
		cr_assert_eq(atomic_load(&o[k].reclaims), k % 3 == 0 ? 1u : 0u,
			     "key %llu", (unsigned long long)k);
	}
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]), removed);
	cr_assert_eq(stats_of(h).entries, WALK_KEYS - removed);
	cr_assert_eq(grain_htab_bytes_exact(h),
		     8u * (WALK_KEYS - removed) + 10u * charged);

	/* Again, only looking: the touched keys (stamps from 100000) come
	 * after the charged ones (their insert stamps) in every stripe. */
	walk_log_init(&w, h, 16, WALK_LOOK);
	cr_assert_eq(grain_htab_walk(h, walk_note, &w), 0);
	cr_assert_eq(w.n, WALK_KEYS - removed);
	cr_assert(w.ordered);
	for (unsigned k = 0; k < WALK_KEYS; k++)
		cr_assert_eq(w.visits[k], k % 3 == 0 ? 0u : 1u, "key %u", k);
	close_table(h, *mode);
}

/* A nonzero return stops the walk and comes back as it is; an empty
 * table walks to 0 with no call; NULL table or callback: -EINVAL. */
Test(htab_walk, stop_empty_and_null)
{
	static struct obj o[WALK_KEYS];
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	struct walk_log w;

	walk_log_init(&w, h, 64, WALK_LOOK);
	cr_assert_eq(grain_htab_walk(h, walk_note, &w), 0);
	cr_assert_eq(w.n, 0u, "an empty table: no call");
	insert_keys(h, o, 100, 1, 1, 8);
	walk_log_init(&w, h, 64, WALK_LOOK);
	w.stop_after = 5;
	cr_assert_eq(grain_htab_walk(h, walk_note, &w), 42);
	cr_assert_eq(w.n, 5u, "no call after the one that stopped it");
	cr_assert_eq(grain_htab_walk(NULL, walk_note, &w), -EINVAL);
	cr_assert_eq(grain_htab_walk(h, NULL, &w), -EINVAL);
	cr_assert_eq(w.n, 5u);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* Visit as walk_note() does, and charge the entry 50 bytes more. */
static int charge_50(struct grain_htab_scope *s, struct grain_hnode *n,
		     void *ctx)
{
	struct walk_log *w = ctx;

	w->errors += grain_htab_charge_locked(s, n, 50) != 0;
	return walk_note(s, n, ctx);
}

/*
 * Charges made in the callback evict at the stripe's unlock, oldest
 * first, down to mem_low, after every entry of the stripe was visited:
 * one stripe, 100 entries of 100 bytes, mem_high 12000; the walk adds 50
 * bytes to each (15000 in all) and the unlock evicts down to mem_low
 * 9000.
 */
Test(htab_walk, charges_evict_at_unlock)
{
	static const struct grain_htab_config shape = { .stripes = 1,
							.mem_high = 12000,
							.mem_low = 9000 };
	static struct obj o[100];
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	struct walk_log w;

	insert_keys(h, o, 100, 1, 1, 100);
	walk_log_init(&w, h, 1, WALK_LOOK);
	cr_assert_eq(grain_htab_walk(h, charge_50, &w), 0);
	cr_assert_eq(w.n, 100u, "every entry visited before the eviction");
	cr_assert_eq(w.errors, 0);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.evictions, 40u, "150-byte entries, 15000 -> 9000");
	cr_assert_eq(grain_htab_bytes_exact(h), 9000u);
	cr_assert_eq(l.nlog, 40u);
	for (unsigned i = 0; i < 40; i++)
		cr_assert_eq(l.log[i], i, "oldest first");
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* On the walk's first entry of stripe 0, charge it 200 bytes more. */
static int charge_first(struct grain_htab_scope *s, struct grain_hnode *n,
			void *ctx)
{
	struct walk_log *w = ctx;

	if (w->n == 0)
		w->errors += grain_htab_charge_locked(s, n, 200) != 0;
	return walk_note(s, n, ctx);
}

/*
 * What a stripe's unlock evicts is gone before the walk reaches the next
 * stripe: two stripes (identity hash: bit 48 picks the stripe), stripe 1
 * holding the five oldest entries, stripe 0 five newer ones, 100 bytes
 * each, mem_high 1000 in all. The walk charges stripe 0's first entry
 * 200 bytes; that stripe's unlock evicts down to mem_low 600: stripe 1's
 * five, then stripe 0's oldest (now 300 bytes). The walk then finds
 * stripe 1 empty.
 */
Test(htab_walk, evicted_at_unlock_not_visited)
{
	static const struct grain_htab_config shape = { .ops.hash = hash_ident,
							.stripes = 2,
							.mem_high = 1000,
							.mem_low = 600 };
	static struct obj o[10];
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	struct walk_log w;

	/* Entries 0..4 in stripe 1, stamped 1..5; 5..9 (keys 5..9) in
	 * stripe 0, stamped 10..14. */
	for (uint64_t i = 0; i < 10; i++) {
		uint64_t k = i < 5 ? (uint64_t)1 << 48 | i : i;
		obj_init(&o[i], k);
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &k,
					       i < 5 ? 1 + i : 5 + i, 100),
			     0);
	}
	cr_assert_eq(l.nlog, 0u);
	walk_log_init(&w, h, 2, WALK_LOOK);
	cr_assert_eq(grain_htab_walk(h, charge_first, &w), 0);
	cr_assert_eq(w.errors, 0);
	cr_assert_eq(w.n, 5u, "visited %u entries", w.n);
	for (unsigned i = 5; i < 10; i++)
		cr_assert_eq(w.visits[i], 1u, "key %u of stripe 0", i);
	cr_assert_eq(l.nlog, 6u);
	for (unsigned i = 0; i < 6; i++)
		cr_assert_eq(atomic_load(&o[i].unlink_why), GRAIN_HTAB_EVICTED,
			     "entry %u", i);
	cr_assert_eq(stats_of(h).entries, 4u);
	cr_assert_eq(grain_htab_bytes_exact(h), 400u);
	close_table(h, GRAIN_HTAB_NO_RCU);
}
