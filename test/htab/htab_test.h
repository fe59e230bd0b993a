/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_test.h - what the grain_htab tests share: a test object that embeds
 * a node and a 64-bit key, three hash functions (keyed SipHash, identity
 * for tests that place keys in chosen stripes, constant for chain tests),
 * and a ledger that the unlinked/reclaim callbacks fill in.
 *
 * Objects of the single-threaded tests live in arrays owned by the test and
 * count their own reclaims; the stress tests allocate an object per insert
 * and free it in their own reclaim callback.
 */
#ifndef GRAIN_TEST_HTAB_H
#define GRAIN_TEST_HTAB_H

#include <grain/htab.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define REASONS 6u /* enum grain_htab_reason has six values */

struct obj {
	struct grain_hnode node;
	uint64_t key;
	uint64_t id;
	/* Written by the callbacks, which may run on liburcu's thread. */
	_Atomic(unsigned) reclaims;
	_Atomic(int) reclaim_why;
	_Atomic(unsigned) unlinks;
	_Atomic(int) unlink_why;
};

static inline struct obj *obj_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct obj, node);
}

/* Prepare @o as a free object holding @key (a node never inserted is all
 * zero bytes). */
static inline void obj_init(struct obj *o, uint64_t key)
{
	memset(o, 0, sizeof(*o));
	o->key = key;
	o->id = key;
	atomic_init(&o->reclaims, 0u);
	atomic_init(&o->reclaim_why, -1);
	atomic_init(&o->unlinks, 0u);
	atomic_init(&o->unlink_why, -1);
}

static inline bool node_is_zero(const struct grain_hnode *n)
{
	static const struct grain_hnode zero;

	return memcmp(n, &zero, sizeof(zero)) == 0;
}

/* Keys are uint64_t; the table sees a pointer to one. */
static inline uint64_t hash_sip(const void *key,
				const struct grain_hash_key *secret, void *ctx)
{
	(void)ctx;
	return grain_siphash(key, sizeof(uint64_t), secret);
}

/* The key is its own hash: stripe (high bits) and bucket (low bits) are
 * the test's choice. */
static inline uint64_t
hash_ident(const void *key, const struct grain_hash_key *secret, void *ctx)
{
	(void)secret;
	(void)ctx;
	return *(const uint64_t *)key;
}

/* Every key collides: one chain. */
static inline uint64_t
hash_const(const void *key, const struct grain_hash_key *secret, void *ctx)
{
	(void)key;
	(void)secret;
	(void)ctx;
	return 0x9e3779b97f4a7c15ULL;
}

static inline bool obj_eq(const struct grain_hnode *node, const void *key,
			  void *ctx)
{
	(void)ctx;
	return obj_of(node)->key == *(const uint64_t *)key;
}

/*
 * What the callbacks saw. The log of unlinked keys is kept only by the
 * single-threaded tests (log_unlinked); the counters are atomic because
 * reclaim may run on liburcu's call_rcu thread.
 */
#define LEDGER_LOG 4096u

struct ledger {
	_Atomic(unsigned long) reclaimed[REASONS];
	_Atomic(unsigned long) unlinked[REASONS];
	bool log_unlinked;
	unsigned nlog;
	uint64_t log[LEDGER_LOG];
	/* Called from ops.unlinked, after the counting, if set. */
	void (*on_unlinked)(struct ledger *l, struct grain_hnode *node,
			    enum grain_htab_reason why);
	struct grain_htab *h;
	void *user;
};

static inline void ledger_init(struct ledger *l)
{
	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < REASONS; i++) {
		atomic_init(&l->reclaimed[i], 0ul);
		atomic_init(&l->unlinked[i], 0ul);
	}
}

static inline void ledger_unlinked(struct grain_hnode *node,
				   enum grain_htab_reason why, void *ctx)
{
	struct ledger *l = ctx;
	struct obj *o = obj_of(node);

	atomic_fetch_add(&o->unlinks, 1u);
	atomic_store(&o->unlink_why, (int)why);
	if ((unsigned)why < REASONS)
		atomic_fetch_add(&l->unlinked[why], 1ul);
	if (l->log_unlinked && l->nlog < LEDGER_LOG)
		l->log[l->nlog++] = o->key;
	if (l->on_unlinked != NULL)
		l->on_unlinked(l, node, why);
}

static inline void ledger_reclaim(struct grain_hnode *node,
				  enum grain_htab_reason why, void *ctx)
{
	struct ledger *l = ctx;
	struct obj *o = obj_of(node);

	atomic_fetch_add(&o->reclaims, 1u);
	atomic_store(&o->reclaim_why, (int)why);
	if ((unsigned)why < REASONS)
		atomic_fetch_add(&l->reclaimed[why], 1ul);
}

/* A configuration with the ledger's callbacks and keyed SipHash. */
static inline struct grain_htab_config ledger_config(struct ledger *l,
						     unsigned flags)
{
	struct grain_htab_config c;

	memset(&c, 0, sizeof(c));
	c.ops.hash = hash_sip;
	c.ops.eq = obj_eq;
	c.ops.unlinked = ledger_unlinked;
	c.ops.reclaim = ledger_reclaim;
	c.ctx = l;
	c.flags = flags;
	return c;
}

/* RCU tables need registered threads and a barrier before counting
 * reclaims; NO_RCU tables reclaim at once. */
static inline bool is_rcu(unsigned flags)
{
	return (flags & GRAIN_HTAB_NO_RCU) == 0;
}

static inline void mode_enter(unsigned flags)
{
	if (is_rcu(flags))
		grain_rcu_register_thread();
}

static inline void mode_leave(unsigned flags)
{
	if (is_rcu(flags))
		grain_rcu_unregister_thread();
}

/* Every node retired so far reclaimed: partial reclaim batches sent, then
 * the grace periods waited for. */
static inline void mode_settle(struct grain_htab *h, unsigned flags)
{
	if (is_rcu(flags)) {
		grain_htab_reclaim_flush(h);
		grain_rcu_barrier();
	}
}

static inline struct grain_htab_stats stats_of(const struct grain_htab *h)
{
	struct grain_htab_stats st;

	grain_htab_get_stats(h, &st);
	return st;
}

#endif /* GRAIN_TEST_HTAB_H */
