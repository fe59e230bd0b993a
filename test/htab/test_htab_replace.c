/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_replace.c - grain_htab_replace() and grain_htab_replace_locked(),
 * one node in another's place for lock-free readers, and the node reads
 * grain_htab_node_stamp() and grain_htab_node_charge().
 *
 * The torture cases are rcutorture's "a reader never sees NULL" check, on
 * every liburcu flavour that test_htab_flavors covers: readers look up a
 * fixed set of keys in a loop with that flavour's own read side, while
 * writers replace those keys without pause and a resizer changes the
 * arrays' size; every lookup must find its key, as a consistent version
 * of it, and every replaced node is reclaimed exactly once, with reason
 * REPLACED. With GRAIN_TEST_REPLACE_CONTROL=1 in the environment the
 * writers remove the entry and insert the new node in one scope instead:
 * the negative control, which the check fails (lookups find no entry).
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "flavors/flavor.h"
#include "htab_cases.h"
#include "../common/test_threads.h"

/* ----------------------------------------------------------------------
 * One thread: what a replace does to the table and to the old node
 */

/* replace_locked: the new node in the old one's place, the old retired
 * as REPLACED (reclaimed once, no unlinked call), the bytes moved by the
 * difference, the entry count kept, the new node at the most recently
 * used end with its own stamp. */
TABLE_PARAMS(htab_replace, locked, modes);
ParameterizedTest(const unsigned *mode, htab_replace, locked)
{
	struct ledger l;
	static struct obj o[4];
	struct grain_htab_config shape = { .stripes = 1 };
	struct grain_htab *h = open_table(&l, *mode, &shape);

	for (uint64_t k = 0; k < 3; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 10 + k, 10),
			     0);
	}
	obj_init(&o[3], 0); /* the new version of key 0 */
	uint64_t k = 0;
	struct grain_htab_scope s;
	struct grain_hnode *old = lock_find(h, &k, &s);
	cr_assert_eq(old, &o[0].node);
	cr_assert_eq(grain_htab_replace_locked(&s, old, &o[3].node, 50, 25), 0);
	cr_assert_eq(grain_htab_find_locked(&s, &k), &o[3].node);
	grain_htab_unlock(&s);

	cr_assert_eq(find(h, 0), &o[3].node);
	cr_assert_eq(grain_htab_node_stamp(&o[3].node), 50u);
	cr_assert_eq(grain_htab_node_charge(&o[3].node), 25u);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 3u);
	cr_assert_eq(st.bytes, 45u);
	cr_assert_eq(st.inserts, 3u, "a replace is not an insert");
	cr_assert_eq(grain_htab_bytes_exact(h), 45u);

	/* LRU: key 0's new node is now the most recent: key 1 goes first. */
	mode_settle(h, *mode);
	cr_assert_eq(atomic_load(&o[0].reclaims), 1u);
	cr_assert_eq(atomic_load(&o[0].reclaim_why), (int)GRAIN_HTAB_REPLACED);
	cr_assert_eq(atomic_load(&o[0].unlinks), 0u);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REPLACED]), 1ul);
	cr_assert_eq(o[0].node.state, 0u, "a reclaimed node is free");
	cr_assert_eq(atomic_load(&o[3].reclaims), 0u);
	/* The old node can go back in once reclaimed. */
	k = 7;
	o[0].key = 7;
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &k, 60, 1), 0);
	close_table(h, *mode);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_DESTROYED]), 4ul);
}

/* The LRU order after a replace: the walk visits the oldest first. */
static int walk_log(struct grain_htab_scope *s, struct grain_hnode *n,
		    void *ctx)
{
	uint64_t **p = ctx;

	(void)s;
	*(*p)++ = obj_of(n)->key;
	return 0;
}

Test(htab_replace, lru_position)
{
	struct ledger l;
	static struct obj o[4];
	struct grain_htab_config shape = { .stripes = 1 };
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);

	for (uint64_t k = 0; k < 3; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 1), 0);
	}
	obj_init(&o[3], 0);
	uint64_t k = 0;
	struct grain_hnode *old = NULL;
	cr_assert_eq(grain_htab_replace(h, &k, &o[3].node, 2, 1, &old), 0);
	cr_assert_eq(old, &o[0].node);
	uint64_t seen[3], *p = seen;
	cr_assert_eq(grain_htab_walk(h, walk_log, &p), 0);
	cr_assert_eq(p - seen, 3);
	cr_assert_eq(seen[0], 1u);
	cr_assert_eq(seen[1], 2u);
	cr_assert_eq(seen[2], 0u);
	/* NO_RCU: the old node was handed back at the unlock. */
	cr_assert_eq(atomic_load(&o[0].reclaims), 1u);
	cr_assert_eq(atomic_load(&o[0].reclaim_why), (int)GRAIN_HTAB_REPLACED);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* The one-call form inserts when the key is absent (*old NULL) and
 * replaces when it is present (*old the node replaced). */
TABLE_PARAMS(htab_replace, one_call, modes);
ParameterizedTest(const unsigned *mode, htab_replace, one_call)
{
	struct ledger l;
	static struct obj o[3];
	struct grain_htab *h = open_table(&l, *mode, NULL);
	uint64_t k = 5;
	struct grain_hnode *old = &o[2].node;

	for (unsigned i = 0; i < 3; i++)
		obj_init(&o[i], k);
	cr_assert_eq(grain_htab_replace(h, &k, &o[0].node, 1, 3, &old), 0);
	cr_assert_null(old, "inserted: no old node");
	cr_assert_eq(find(h, k), &o[0].node);
	cr_assert_eq(grain_htab_replace(h, &k, &o[1].node, 2, 4, &old), 0);
	cr_assert_eq(old, &o[0].node);
	cr_assert_eq(find(h, k), &o[1].node);
	cr_assert_eq(grain_htab_replace(h, &k, &o[2].node, 3, 5, NULL), 0);
	cr_assert_eq(find(h, k), &o[2].node);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 1u);
	cr_assert_eq(st.inserts, 1u);
	cr_assert_eq(grain_htab_bytes_exact(h), 5u);
	mode_settle(h, *mode);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REPLACED]), 2ul);
	cr_assert_eq(atomic_load(&o[0].reclaims), 1u);
	cr_assert_eq(atomic_load(&o[1].reclaims), 1u);
	cr_assert_eq(atomic_load(&o[2].reclaims), 0u);
	close_table(h, *mode);
	cr_assert_eq(atomic_load(&o[2].reclaims), 1u);
	cr_assert_eq(atomic_load(&o[2].reclaim_why), (int)GRAIN_HTAB_DESTROYED);
}

/* The _fast form with a constant parameter struct does the same. */
static const struct grain_htab_params sip_params = { hash_sip, obj_eq };

Test(htab_replace, fast)
{
	struct ledger l;
	static struct obj o[2];
	struct grain_htab *h = open_table(&l, 0, NULL);
	uint64_t k = 9;
	struct grain_hnode *old = &o[1].node;

	obj_init(&o[0], k);
	obj_init(&o[1], k);
	cr_assert_eq(grain_htab_replace_fast(h, &k, &o[0].node, 1, 1, &old,
					     sip_params),
		     0);
	cr_assert_null(old);
	cr_assert_eq(grain_htab_replace_fast(h, &k, &o[1].node, 2, 2, &old,
					     sip_params),
		     0);
	cr_assert_eq(old, &o[0].node);
	grain_rcu_read_lock();
	cr_assert_eq(grain_htab_lookup_fast(h, &k, sip_params), &o[1].node);
	grain_rcu_read_unlock();
	cr_assert_eq(grain_htab_replace_fast(NULL, &k, &o[0].node, 1, 1, &old,
					     sip_params),
		     -EINVAL);
	cr_assert_null(old);
	mode_settle(h, 0);
	cr_assert_eq(atomic_load(&o[0].reclaim_why), (int)GRAIN_HTAB_REPLACED);
	close_table(h, 0);
}

/* Every error of both forms, with nothing changed. */
Test(htab_replace, errors)
{
	struct ledger l;
	static struct obj o[6];
	/* One secret for both tables: a node of the other table hashes to
	 * the stripe of its key here too. */
	static const struct grain_hash_key secret = { 1, 2 };
	struct grain_htab_config shape = { .stripes = 4, .secret = &secret };
	struct grain_htab *h = open_table(&l, 0, &shape);
	struct grain_htab *h2 = NULL;
	struct grain_htab_config c2 = ledger_config(&l, 0);
	uint64_t k = 1, k2 = 0;
	struct grain_htab_scope s;
	struct grain_hnode *old;

	c2.stripes = 4;
	c2.secret = &secret;
	cr_assert_eq(grain_htab_create(&h2, &c2, NULL), 0);
	/* key k and a key k2 of another stripe */
	while (stripe_of_key(h, k2, 4) == stripe_of_key(h, k, 4))
		k2++;
	obj_init(&o[0], k);
	obj_init(&o[1], k2);
	obj_init(&o[2], k);
	obj_init(&o[3], k);
	obj_init(&o[4], k);
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &k, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(h, &o[1].node, &k2, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(h2, &o[4].node, &k, 1, 1), 0);

	/* NULL, one at a time. */
	cr_assert_eq(grain_htab_replace_locked(NULL, &o[0].node, &o[2].node, 1,
					       1),
		     -EINVAL);
	grain_htab_lock(h, &k, &s);
	cr_assert_eq(grain_htab_replace_locked(&s, NULL, &o[2].node, 1, 1),
		     -EINVAL);
	cr_assert_eq(grain_htab_replace_locked(&s, &o[0].node, NULL, 1, 1),
		     -EINVAL);
	/* The new node linked (in this table, or the old node itself). */
	cr_assert_eq(grain_htab_replace_locked(&s, &o[0].node, &o[1].node, 1,
					       1),
		     -EINVAL);
	cr_assert_eq(grain_htab_replace_locked(&s, &o[0].node, &o[0].node, 1,
					       1),
		     -EINVAL);
#if SIZE_MAX > UINT32_MAX
	cr_assert_eq(grain_htab_replace_locked(&s, &o[0].node, &o[2].node, 1,
					       (size_t)UINT32_MAX + 1),
		     -EINVAL);
#endif
	/* The old node of another stripe; not linked; of another table. */
	cr_assert_eq(grain_htab_replace_locked(&s, &o[1].node, &o[2].node, 1,
					       1),
		     -EINVAL);
	cr_assert_eq(grain_htab_replace_locked(&s, &o[3].node, &o[2].node, 1,
					       1),
		     -ENOENT);
	cr_assert_eq(grain_htab_replace_locked(&s, &o[4].node, &o[2].node, 1,
					       1),
		     -ENOENT);
	grain_htab_unlock(&s);
	/* An empty scope. */
	grain_htab_lock(NULL, &k, &s);
	cr_assert_eq(grain_htab_replace_locked(&s, &o[0].node, &o[2].node, 1,
					       1),
		     -EINVAL);
	grain_htab_unlock(&s);

	/* The one-call form. */
	old = &o[5].node;
	cr_assert_eq(grain_htab_replace(NULL, &k, &o[2].node, 1, 1, &old),
		     -EINVAL);
	cr_assert_null(old);
	old = &o[5].node;
	cr_assert_eq(grain_htab_replace(h, NULL, &o[2].node, 1, 1, &old),
		     -EINVAL);
	cr_assert_null(old);
	cr_assert_eq(grain_htab_replace(h, &k, NULL, 1, 1, &old), -EINVAL);
	cr_assert_eq(grain_htab_replace(h, &k, &o[1].node, 1, 1, &old), -EINVAL,
		     "a linked node");
	cr_assert_eq(grain_htab_replace(h, &k2, &o[2].node, 1, 1, &old),
		     -EINVAL, "a node that does not hold the key");
#if SIZE_MAX > UINT32_MAX
	cr_assert_eq(grain_htab_replace(h, &k, &o[2].node, 1,
					(size_t)UINT32_MAX + 1, &old),
		     -EINVAL);
#endif
	cr_assert_null(old);
	cr_assert_eq(grain_htab_replace(h, &k, &o[2].node, 1, 1, NULL), 0);

	/* Nothing changed by the errors: the one replace above only. */
	cr_assert_eq(find(h, k), &o[2].node);
	cr_assert_eq(find(h, k2), &o[1].node);
	cr_assert_eq(o[3].node.state, 0u);
	mode_settle(h, 0);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REPLACED]), 1ul);
	cr_assert_eq(atomic_load(&o[0].reclaims), 1u);
	grain_htab_destroy(h2);
	close_table(h, 0);
}

/* Policy REFUSE never refuses a replace (the entry is not new), even
 * above mem_high; policy EVICT evicts down to mem_low at the unlock when
 * a replace grows the total past mem_high. */
Test(htab_replace, watermarks)
{
	struct ledger l;
	static struct obj o[8];
	struct grain_htab_config shape = { .stripes = 1,
					   .mem_high = 100,
					   .mem_low = 60,
					   .mem_batch = 1,
					   .policy = GRAIN_HTAB_REFUSE };
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);

	insert_keys(h, o, 5, 1, 1, 20); /* 100 bytes */
	uint64_t k = 5;
	obj_init(&o[5], k);
	obj_init(&o[6], 0);
	cr_assert_eq(grain_htab_replace(h, &k, &o[5].node, 9, 20, NULL),
		     0); /* 120 > 100: the next new entry is refused */
	k = 6;
	obj_init(&o[7], k);
	cr_assert_eq(grain_htab_insert(h, &o[7].node, &k, 9, 1), -ENOSPC);
	k = 0;
	cr_assert_eq(grain_htab_replace(h, &k, &o[6].node, 9, 30, NULL), 0,
		     "a present key is replaced above mem_high");
	cr_assert_eq(grain_htab_bytes_exact(h), 130u);
	close_table(h, GRAIN_HTAB_NO_RCU);

	shape.policy = GRAIN_HTAB_EVICT;
	h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	insert_keys(h, o, 5, 1, 1, 20); /* 100 bytes, keys 0..4 */
	k = 4;
	obj_init(&o[5], k);
	cr_assert_eq(grain_htab_replace(h, &k, &o[5].node, 9, 40, NULL), 0);
	/* 120 bytes: the oldest (keys 0, 1, 2) go, down to 60. */
	cr_assert_leq(grain_htab_bytes_exact(h), 60u);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EVICTED]), 3ul);
	cr_assert_eq(find(h, 4), &o[5].node, "the new node was not evicted");
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* The one-call form expires first, as an insert: an entry ttl old is
 * expired and the new node inserted (*old NULL). */
Test(htab_replace, ttl)
{
	struct ledger l;
	static struct obj o[2];
	struct grain_htab_config shape = { .stripes = 1, .ttl = 10 };
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	uint64_t k = 3;
	struct grain_hnode *old = NULL;

	obj_init(&o[0], k);
	obj_init(&o[1], k);
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &k, 1, 1), 0);
	cr_assert_eq(grain_htab_replace(h, &k, &o[1].node, 100, 1, &old), 0);
	cr_assert_null(old);
	cr_assert_eq(atomic_load(&o[0].unlink_why), (int)GRAIN_HTAB_EXPIRED);
	cr_assert_eq(atomic_load(&o[0].reclaim_why), (int)GRAIN_HTAB_EXPIRED);
	cr_assert_eq(find(h, k), &o[1].node);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* The window a scope leaves lock-free readers, and replace closing it,
 * seen deterministically from the writer's own thread (a lookup takes no
 * lock, so it may run inside the scope): after remove_locked and before
 * insert_locked the key is absent; across replace_locked it never is. */
Test(htab_replace, window)
{
	struct ledger l;
	static struct obj o[3];
	struct grain_htab *h = open_table(&l, 0, NULL);
	uint64_t k = 11;
	struct grain_htab_scope s;

	for (unsigned i = 0; i < 3; i++)
		obj_init(&o[i], k);
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &k, 1, 1), 0);

	grain_rcu_read_lock();
	struct grain_hnode *n = lock_find(h, &k, &s);
	cr_assert_eq(grain_htab_remove_locked(&s, n), 0);
	cr_assert_null(grain_htab_lookup(h, &k),
		       "remove then insert: a reader finds no entry between");
	cr_assert_eq(grain_htab_insert_locked(&s, &o[1].node, &k, 2, 1), 0);
	cr_assert_eq(grain_htab_lookup(h, &k), &o[1].node);
	grain_htab_unlock(&s);

	n = lock_find(h, &k, &s);
	cr_assert_eq(grain_htab_lookup(h, &k), &o[1].node);
	cr_assert_eq(grain_htab_replace_locked(&s, n, &o[2].node, 3, 1), 0);
	cr_assert_eq(grain_htab_lookup(h, &k), &o[2].node);
	grain_htab_unlock(&s);
	grain_rcu_read_unlock();
	close_table(h, 0);
}

/* ----------------------------------------------------------------------
 * The node reads
 */

Test(htab_replace, node_reads)
{
	struct ledger l;
	static struct obj o[2];
	struct grain_htab *h = open_table(&l, 0, NULL);
	uint64_t k = 4;
	struct grain_htab_scope s;

	cr_assert_eq(grain_htab_node_stamp(NULL), 0u);
	cr_assert_eq(grain_htab_node_charge(NULL), 0u);
	obj_init(&o[0], k);
	obj_init(&o[1], k);
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &k, 123, 456), 0);
	grain_rcu_read_lock();
	struct grain_hnode *n = grain_htab_lookup(h, &k);
	cr_assert_eq(grain_htab_node_stamp(n), 123u);
	cr_assert_eq(grain_htab_node_charge(n), 456u);
	grain_rcu_read_unlock();

	cr_assert_eq(touch(h, k, 200), 0);
	cr_assert_eq(grain_htab_node_stamp(&o[0].node), 200u);
	cr_assert_eq(charge(h, k, 44), 0);
	cr_assert_eq(grain_htab_node_charge(&o[0].node), 500u);
	cr_assert_eq(charge(h, k, -400), 0);
	cr_assert_eq(grain_htab_node_charge(&o[0].node), 100u);
	cr_assert_eq(grain_htab_node_stamp(&o[0].node), 200u);

	n = lock_find(h, &k, &s);
	cr_assert_eq(grain_htab_replace_locked(&s, n, &o[1].node, 300, 7), 0);
	cr_assert_eq(grain_htab_node_stamp(&o[1].node), 300u);
	cr_assert_eq(grain_htab_node_charge(&o[1].node), 7u);
	grain_htab_unlock(&s);
	/* A retired node keeps its charge. */
	cr_assert_eq(grain_htab_node_charge(&o[0].node), 100u);
	close_table(h, 0);
}

/* Readers read the stamps and charges of the nodes they look up while a
 * writer touches and charges them: a reader sees a stamp that was set,
 * never older than one it saw before (coherence), and a charge that was
 * set; under ThreadSanitizer the reads race with nothing. */
#define READ_KEYS 32u
#define READ_ROUNDS 2000u
#define BASE_CHARGE 100u

struct read_ctx {
	struct grain_htab *h;
	_Atomic(int) stop;
	_Atomic(unsigned long) bad, lookups;
};

static void *node_reader(void *arg)
{
	struct read_ctx *c = arg;
	uint64_t last[READ_KEYS] = { 0 };
	unsigned long bad = 0, lookups = 0;

	grain_rcu_register_thread();
	while (!atomic_load(&c->stop)) {
		grain_rcu_read_lock();
		for (uint64_t k = 0; k < READ_KEYS; k++) {
			struct grain_hnode *n = grain_htab_lookup(c->h, &k);
			lookups++;
			if (n == NULL) {
				bad++;
				continue;
			}
			uint64_t st = grain_htab_node_stamp(n);
			size_t ch = grain_htab_node_charge(n);
			if (st < last[k] || st > READ_ROUNDS ||
			    (ch != BASE_CHARGE && ch != BASE_CHARGE + 1))
				bad++;
			last[k] = st;
		}
		grain_rcu_read_unlock();
	}
	grain_rcu_unregister_thread();
	atomic_fetch_add(&c->bad, bad);
	atomic_fetch_add(&c->lookups, lookups);
	return NULL;
}

Test(htab_replace, node_reads_concurrent, .timeout = 120)
{
	struct ledger l;
	static struct obj o[READ_KEYS];
	struct grain_htab *h = open_table(&l, 0, NULL);
	static struct read_ctx c;
	struct test_threads threads = { .n = 0 };

	insert_keys(h, o, READ_KEYS, 0, 0, BASE_CHARGE);
	memset(&c, 0, sizeof(c));
	c.h = h;
	for (unsigned i = 0; i < 2; i++)
		test_spawn(&threads, node_reader, &c);
	for (uint64_t r = 1; r <= READ_ROUNDS; r++) {
		for (uint64_t k = 0; k < READ_KEYS; k++) {
			struct grain_htab_scope s;
			struct grain_hnode *n = lock_find(h, &k, &s);
			cr_assert_eq(grain_htab_touch_locked(&s, n, r), 0);
			cr_assert_eq(grain_htab_charge_locked(&s, n, 1), 0);
			cr_assert_eq(grain_htab_uncharge_locked(&s, n, 1), 0);
			grain_htab_unlock(&s);
		}
	}
	atomic_store(&c.stop, 1);
	test_join_all(&threads);
	cr_assert_gt(atomic_load(&c.lookups), 0ul);
	cr_assert_eq(atomic_load(&c.bad), 0ul);
	for (uint64_t k = 0; k < READ_KEYS; k++)
		cr_assert_eq(grain_htab_node_stamp(&o[k].node), READ_ROUNDS);
	close_table(h, 0);
}

/* ----------------------------------------------------------------------
 * Torture: readers never see NULL while writers replace
 */

#define T_KEYS 64u
#define T_WRITERS 2u
#define T_READERS 2u
#define T_PER_WRITER 20000u
#define T_CHECK 4u

/* A version of a key: the reader checks that its words agree. */
struct vobj {
	struct grain_hnode node;
	uint64_t key;
	uint64_t version;
	uint64_t check[T_CHECK];
	_Atomic(unsigned) reclaims;
	_Atomic(int) why;
};

static struct vobj *vobj_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct vobj, node);
}

static uint64_t check_word(uint64_t key, uint64_t version, unsigned i)
{
	return grain_hash_mix64(key * 0x9e3779b97f4a7c15ull ^ version ^
				(uint64_t)i << 56);
}

static bool vobj_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return vobj_of(n)->key == *(const uint64_t *)key;
}

struct torture {
	const struct test_flavor *f;
	struct grain_htab *h;
	struct vobj *pool;
	bool control;
	_Atomic(int) stop;
	_Atomic(unsigned) writers_left;
	_Atomic(unsigned long) reclaimed[REASONS];
	_Atomic(unsigned long) lookups, misses, torn, replaced;
	_Atomic(unsigned long) resize_errors;
};

static void vobj_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			 void *ctx)
{
	struct torture *t = ctx;
	struct vobj *o = vobj_of(n);

	atomic_fetch_add(&o->reclaims, 1u);
	atomic_store(&o->why, (int)why);
	if ((unsigned)why < REASONS)
		atomic_fetch_add(&t->reclaimed[why], 1ul);
}

static void vobj_fill(struct vobj *o, uint64_t key, uint64_t version)
{
	memset(o, 0, sizeof(*o));
	o->key = key;
	o->version = version;
	for (unsigned i = 0; i < T_CHECK; i++)
		o->check[i] = check_word(key, version, i);
	atomic_init(&o->reclaims, 0u);
	atomic_init(&o->why, -1);
}

static void *torture_reader(void *arg)
{
	struct torture *t = arg;
	const struct test_flavor *f = t->f;
	unsigned long lookups = 0, misses = 0, torn = 0;

	f->register_thread();
	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		f->read_lock();
		for (uint64_t k = 0; k < T_KEYS; k++) {
			struct grain_hnode *n = grain_htab_lookup(t->h, &k);
			lookups++;
			if (n == NULL) {
				misses++;
				continue;
			}
			const struct vobj *o = vobj_of(n);
			bool ok = o->key == k;
			for (unsigned i = 0; i < T_CHECK; i++)
				ok = ok && o->check[i] ==
						   check_word(k, o->version, i);
			if (!ok)
				torn++;
		}
		f->read_unlock();
		f->quiescent();
	}
	f->unregister_thread();
	atomic_fetch_add(&t->lookups, lookups);
	atomic_fetch_add(&t->misses, misses);
	atomic_fetch_add(&t->torn, torn);
	return NULL;
}

struct writer_arg {
	struct torture *t;
	unsigned id;
};

/* Replace key @k by @o: the one-call form (even writers) or a scope with
 * replace_locked (odd); the negative control removes and inserts in one
 * scope. @return whether an old node went. */
static bool torture_replace(struct torture *t, unsigned id, uint64_t k,
			    struct vobj *o)
{
	struct grain_htab_scope s;
	struct grain_hnode *old = NULL;
	int rc;

	if (!t->control && id % 2 == 0) {
		rc = grain_htab_replace(t->h, &k, &o->node, o->version, 64,
					&old);
		return rc == 0 && old != NULL;
	}
	grain_htab_lock(t->h, &k, &s);
	old = grain_htab_find_locked(&s, &k);
	if (old == NULL) {
		grain_htab_unlock(&s);
		return false;
	}
	if (t->control) {
		rc = grain_htab_remove_locked(&s, old);
		if (rc == 0)
			rc = grain_htab_insert_locked(&s, &o->node, &k,
						      o->version, 64);
	} else {
		rc = grain_htab_replace_locked(&s, old, &o->node, o->version,
					       64);
	}
	grain_htab_unlock(&s);
	return rc == 0;
}

static void *torture_writer(void *arg)
{
	struct writer_arg *w = arg;
	struct torture *t = w->t;
	const struct test_flavor *f = t->f;
	uint64_t x = 0x2545f4914f6cdd1dull * (w->id + 1);
	unsigned long ok = 0;

	f->register_thread();
	for (unsigned j = 0; j < T_PER_WRITER; j++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t k = x % T_KEYS;
		struct vobj *o = &t->pool[T_KEYS + w->id * T_PER_WRITER + j];
		vobj_fill(o, k, (uint64_t)w->id << 32 | j);
		if (torture_replace(t, w->id, k, o))
			ok++;
		f->quiescent();
	}
	f->unregister_thread();
	atomic_fetch_add(&t->replaced, ok);
	atomic_fetch_sub(&t->writers_left, 1u);
	return NULL;
}

/* Resizes every stripe back and forth while the writers run: lookups
 * that hold an old array must still find every key. */
static void *torture_resizer(void *arg)
{
	struct torture *t = arg;
	const struct test_flavor *f = t->f;
	unsigned i = 0;

	f->register_thread();
	while (atomic_load(&t->writers_left) != 0) {
		if (grain_htab_resize(t->h, i++ % 2 ? 64u : 2u) != 0)
			atomic_fetch_add(&t->resize_errors, 1ul);
		f->quiescent();
		f->offline();
		sleep_ms(1);
		f->online();
	}
	f->unregister_thread();
	return NULL;
}

struct torture_case {
	unsigned flavor; /* index into torture_flavors */
	unsigned flags;
};

static const struct test_flavor *const torture_flavors[] = {
	&test_flavor_memb,
	&test_flavor_qsbr,
	&test_flavor_bp,
	&test_flavor_grain,
};

static const struct torture_case torture_cases[] = {
	{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 3, GRAIN_HTAB_BATCH_RECLAIM },
};

TABLE_PARAMS(htab_replace, torture, torture_cases);

ParameterizedTest(const struct torture_case *tc, htab_replace, torture,
		  .timeout = 300)
{
	static struct torture t;
	const struct test_flavor *f = torture_flavors[tc->flavor];
	const size_t npool = T_KEYS + (size_t)T_WRITERS * T_PER_WRITER;
	struct test_threads readers = { .n = 0 }, writers = { .n = 0 };
	struct writer_arg wa[T_WRITERS];
	const char *control = getenv("GRAIN_TEST_REPLACE_CONTROL");

	memset(&t, 0, sizeof(t));
	t.f = f;
	t.control = control != NULL && control[0] == '1';
	t.pool = calloc(npool, sizeof(*t.pool));
	cr_assert_not_null(t.pool);
	struct grain_htab_config c = { 0 };
	c.ops.hash = hash_sip;
	c.ops.eq = vobj_eq;
	c.ops.reclaim = vobj_reclaim;
	c.ctx = &t;
	c.stripes = 4;
	c.buckets = 2;
	c.flags = tc->flags;
	c.flavor = f->flavor;
	f->register_thread();
	cr_assert_eq(grain_htab_create(&t.h, &c, NULL), 0);
	for (uint64_t k = 0; k < T_KEYS; k++) {
		vobj_fill(&t.pool[k], k, 0);
		cr_assert_eq(grain_htab_insert(t.h, &t.pool[k].node, &k, 0, 64),
			     0);
	}
	atomic_store(&t.writers_left, T_WRITERS);
	for (unsigned i = 0; i < T_READERS; i++)
		test_spawn(&readers, torture_reader, &t);
	for (unsigned i = 0; i < T_WRITERS; i++) {
		wa[i] = (struct writer_arg){ &t, i };
		test_spawn(&writers, torture_writer, &wa[i]);
	}
	bool resize = f == &test_flavor_grain || !GRAIN_TSAN;
	if (resize)
		test_spawn(&writers, torture_resizer, &t);
	f->offline(); /* qsbr: a waiting thread must not hold up grace periods */
	test_join_all(&writers);
	atomic_store(&t.stop, 1);
	test_join_all(&readers);
	f->online();

	unsigned long lookups = atomic_load(&t.lookups);
	unsigned long misses = atomic_load(&t.misses);
	cr_assert_gt(lookups, 0ul);
	cr_assert_eq(misses, 0ul,
		     "%s%s: %lu of %lu lookups found no entry while the key "
		     "was replaced",
		     f->name, t.control ? " (remove+insert)" : "", misses,
		     lookups);
	cr_assert_eq(atomic_load(&t.torn), 0ul, "%s: inconsistent versions",
		     f->name);
	cr_assert_eq(atomic_load(&t.resize_errors), 0ul);
	unsigned long replaced = atomic_load(&t.replaced);
	cr_assert_eq(replaced, (unsigned long)T_WRITERS * T_PER_WRITER,
		     "every key stays present: every replace finds its old "
		     "node");

	/* Every replaced node reclaimed once, reason REPLACED; the nodes
	 * still linked (one a key) not at all. */
	grain_htab_reclaim_flush(t.h);
	f->offline();
	f->barrier();
	f->online();
	enum grain_htab_reason why = t.control ? GRAIN_HTAB_REMOVED
					       : GRAIN_HTAB_REPLACED;
	cr_assert_eq(atomic_load(&t.reclaimed[why]), replaced);
	unsigned long linked = 0;
	for (size_t i = 0; i < npool; i++) {
		struct vobj *o = &t.pool[i];
		struct grain_htab_scope s;
		grain_htab_lock(t.h, &o->key, &s);
		bool in = grain_htab_find_locked(&s, &o->key) == &o->node;
		grain_htab_unlock(&s);
		linked += in;
		cr_assert_eq(atomic_load(&o->reclaims), in ? 0u : 1u,
			     "node %zu", i);
		if (!in)
			cr_assert_eq(atomic_load(&o->why), (int)why);
	}
	cr_assert_eq(linked, (unsigned long)T_KEYS);
	cr_assert_eq(replaced + T_KEYS, npool, "counts conserved");
	f->offline();
	grain_htab_destroy(t.h);
	f->online();
	cr_assert_eq(atomic_load(&t.reclaimed[GRAIN_HTAB_DESTROYED]),
		     (unsigned long)T_KEYS);
	f->unregister_thread();
	free(t.pool);
}
