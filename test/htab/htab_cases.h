/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_cases.h - what the single-threaded grain_htab tests share
 * (test_htab_basic.c, test_htab_rcu.c, test_htab_bounds.c, test_htab_walk.c):
 * the modes a test runs in (TABLE_PARAMS(..., modes)), tables of cases,
 * scoped one-call helpers (find, touch, charge), tables opened with a ledger,
 * and the checks several files make. Criterion asserts: include it from test
 * files only.
 */
#ifndef GRAIN_TEST_HTAB_CASES_H
#define GRAIN_TEST_HTAB_CASES_H

#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <time.h>

#include "../common/test_table.h"
#include "../common/test_util.h"
#include "htab_test.h"

static const unsigned modes[] = { 0, GRAIN_HTAB_NO_RCU,
				  GRAIN_HTAB_BATCH_RECLAIM };

static inline struct grain_htab *make(const struct grain_htab_config *c)
{
	struct grain_htab *h = NULL;

	cr_assert_eq(grain_htab_create(&h, c, NULL), 0);
	cr_assert_not_null(h);
	return h;
}

/* Lock the stripe of @key into @s and find its entry (NULL: none). */
static inline struct grain_hnode *lock_find(struct grain_htab *h, uint64_t *key,
					    struct grain_htab_scope *s)
{
	grain_htab_lock(h, key, s);
	return grain_htab_find_locked(s, key);
}

/* A scoped find of @key: the way to look on a NO_RCU table. */
static inline struct grain_hnode *find(struct grain_htab *h, uint64_t key)
{
	struct grain_htab_scope s;
	struct grain_hnode *n = lock_find(h, &key, &s);

	grain_htab_unlock(&s);
	return n;
}

static inline int touch(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct grain_htab_scope s;
	struct grain_hnode *n = lock_find(h, &key, &s);
	int rc = n != NULL ? grain_htab_touch_locked(&s, n, now) : -ENOENT;

	grain_htab_unlock(&s);
	return rc;
}

/* Charge the entry of @key @delta bytes more, or -@delta fewer. */
static inline int charge(struct grain_htab *h, uint64_t key, long delta)
{
	struct grain_htab_scope s;
	struct grain_hnode *n = lock_find(h, &key, &s);
	int rc = -ENOENT;

	if (n != NULL && delta >= 0)
		rc = grain_htab_charge_locked(&s, n, (size_t)delta);
	else if (n != NULL)
		rc = grain_htab_uncharge_locked(&s, n, (size_t)-delta);
	grain_htab_unlock(&s);
	return rc;
}

/* Every call of scope @s that needs @node to be one of its entries fails
 * with @rc: remove, touch (at @now), charge and uncharge (@bytes). */
static inline void check_not_held(struct grain_htab_scope *s,
				  struct grain_hnode *node, uint64_t now,
				  size_t bytes, int rc, const char *what)
{
	cr_assert_eq(grain_htab_remove_locked(s, node), rc, "%s: remove", what);
	cr_assert_eq(grain_htab_touch_locked(s, node, now), rc, "%s: touch",
		     what);
	cr_assert_eq(grain_htab_charge_locked(s, node, bytes), rc, "%s: charge",
		     what);
	cr_assert_eq(grain_htab_uncharge_locked(s, node, bytes), rc,
		     "%s: uncharge", what);
}

/* Keys 0 .. n-1 are entries, o[key]: found by scoped finds and, on an
 * RCU table, by lock-free lookups too. */
static inline void check_found(struct grain_htab *h, struct obj *o, uint64_t n,
			       unsigned flags)
{
	for (uint64_t k = 0; k < n; k++)
		cr_assert_eq(find(h, k), &o[k].node, "key %llu",
			     (unsigned long long)k);
	if (!is_rcu(flags))
		return;
	grain_rcu_read_lock();
	for (uint64_t k = 0; k < n; k++)
		cr_assert_eq(grain_htab_lookup(h, &k), &o[k].node,
			     "key %llu: lookup", (unsigned long long)k);
	grain_rcu_read_unlock();
}

/* Run every resize that is due: old arrays retired (barrier), then
 * expire() performs what is due, until nothing changes. */
static inline void settle_resizes(struct grain_htab *h, unsigned flags)
{
	uint64_t buckets = 0;

	for (unsigned i = 0; i < 64; i++) {
		mode_settle(h, flags);
		(void)grain_htab_expire(h, 0);
		uint64_t b = stats_of(h).buckets;
		if (b == buckets)
			return;
		buckets = b;
	}
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * A test's configuration: the sizes, limits, policy, ttl and flags of
 * @shape (NULL: the defaults), its hash if it names one (keyed SipHash if
 * not), the ledger's callbacks, and the mode @flags.
 */
static inline struct grain_htab_config
shaped_config(struct ledger *l, unsigned flags,
	      const struct grain_htab_config *shape)
{
	struct grain_htab_config c = ledger_config(l, flags), s;

	if (shape == NULL)
		return c;
	s = *shape;
	if (s.ops.hash != NULL)
		c.ops.hash = s.ops.hash;
	s.ops = c.ops;
	s.ctx = l;
	s.flags |= flags;
	return s;
}

/* A new ledger, which logs the keys unlinked (the tests here run one
 * thread), and a table of @shape (NULL: the defaults) in mode @flags, with
 * this thread registered if the mode needs it. */
static inline struct grain_htab *
open_table(struct ledger *l, unsigned flags,
	   const struct grain_htab_config *shape)
{
	ledger_init(l);
	l->log_unlinked = true;
	struct grain_htab_config c = shaped_config(l, flags, shape);
	mode_enter(flags);
	return make(&c);
}

static inline void close_table(struct grain_htab *h, unsigned flags)
{
	grain_htab_destroy(h);
	mode_leave(flags);
}

/* Insert o[0] .. o[n - 1], each under its index as key, charged @charge
 * and stamped @now + @step * key. */
static inline void insert_keys(struct grain_htab *h, struct obj *o, uint64_t n,
			       uint64_t now, uint64_t step, size_t charge)
{
	for (uint64_t k = 0; k < n; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k,
					       now + step * k, charge),
			     0, "key %llu", (unsigned long long)k);
	}
}

/* The stripe of key @k (htab.h, "Layout": the top 16 bits of its hash). */
static inline uint64_t stripe_of_key(const struct grain_htab *h, uint64_t k,
				     unsigned stripes)
{
	return (grain_htab_hash(h, &k) >> 48) & (stripes - 1u);
}

#endif /* GRAIN_TEST_HTAB_CASES_H */
