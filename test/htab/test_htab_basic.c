/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_basic.c - grain_htab and grain/hash.h, one thread at a time:
 * SipHash reference vectors and table secrets, configuration checking,
 * every call's results and error codes, scopes, node life cycle and
 * reclaim reasons, RCU lookups and deferred reclaim, explicit and
 * automatic resizing, exact LRU eviction and the byte watermarks (EVICT
 * and REFUSE), TTL expiry on a fake clock, the chain limit, statistics
 * and allocation failure.
 *
 * Most tests run on an RCU table and on a GRAIN_HTAB_NO_RCU one. Tests
 * that need nodes of two stripes use the identity hash, with which keys
 * 0x1 and ~0x1 differ in every high bit and so cannot share a stripe.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "../common/test_util.h"
#include "htab_test.h"

static const unsigned modes[] = { 0, GRAIN_HTAB_NO_RCU,
				  GRAIN_HTAB_BATCH_RECLAIM };

/* The cases of a test run once per row of @table, an array of @type: its
 * parameter points to the row. */
#define TABLE_PARAMETERS(suite, name, type, table)                      \
	ParameterizedTestParameters(suite, name)                        \
	{                                                               \
		return cr_make_param_array(type, (void *)(table),       \
					   sizeof(table) /              \
						   sizeof((table)[0])); \
	}                                                               \
	_Static_assert(1, "")

/* The cases of a test run once per mode: its parameter is a mode. */
#define MODE_PARAMETERS(suite, name) \
	TABLE_PARAMETERS(suite, name, unsigned, modes)

/* A test run once per mode, whose parameter @mode points to the mode. */
#define MODE_TEST(suite, name)        \
	MODE_PARAMETERS(suite, name); \
	ParameterizedTest(unsigned *mode, suite, name)

static struct grain_htab *make(const struct grain_htab_config *c)
{
	struct grain_htab *h = NULL;

	cr_assert_eq(grain_htab_create(&h, c, NULL), 0);
	cr_assert_not_null(h);
	return h;
}

/* Lock the stripe of @key into @s and find its entry (NULL: none). */
static struct grain_hnode *lock_find(struct grain_htab *h, uint64_t *key,
				     struct grain_htab_scope *s)
{
	grain_htab_lock(h, key, s);
	return grain_htab_find_locked(s, key);
}

/* A scoped find of @key: the way to look on a NO_RCU table. */
static struct grain_hnode *find(struct grain_htab *h, uint64_t key)
{
	struct grain_htab_scope s;
	struct grain_hnode *n = lock_find(h, &key, &s);

	grain_htab_unlock(&s);
	return n;
}

static int touch(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct grain_htab_scope s;
	struct grain_hnode *n = lock_find(h, &key, &s);
	int rc = n != NULL ? grain_htab_touch_locked(&s, n, now) : -ENOENT;

	grain_htab_unlock(&s);
	return rc;
}

/* Charge the entry of @key @delta bytes more, or -@delta fewer. */
static int charge(struct grain_htab *h, uint64_t key, long delta)
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
static void check_not_held(struct grain_htab_scope *s, struct grain_hnode *node,
			   uint64_t now, size_t bytes, int rc, const char *what)
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
static void check_found(struct grain_htab *h, struct obj *o, uint64_t n,
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
static void settle_resizes(struct grain_htab *h, unsigned flags)
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * A test's configuration: the sizes, limits, policy, ttl and flags of
 * @shape (NULL: the defaults), its hash if it names one (keyed SipHash if
 * not), the ledger's callbacks, and the mode @flags.
 */
static struct grain_htab_config
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
static struct grain_htab *open_table(struct ledger *l, unsigned flags,
				     const struct grain_htab_config *shape)
{
	ledger_init(l);
	l->log_unlinked = true;
	struct grain_htab_config c = shaped_config(l, flags, shape);
	mode_enter(flags);
	return make(&c);
}

static void close_table(struct grain_htab *h, unsigned flags)
{
	grain_htab_destroy(h);
	mode_leave(flags);
}

/* Insert o[0] .. o[n - 1], each under its index as key, charged @charge
 * and stamped @now + @step * key. */
static void insert_keys(struct grain_htab *h, struct obj *o, uint64_t n,
			uint64_t now, uint64_t step, size_t charge)
{
	for (uint64_t k = 0; k < n; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k,
					       now + step * k, charge),
			     0, "key %llu", (unsigned long long)k);
	}
}

/* ----------------------------------------------------------------------
 * grain/hash.h
 */

Test(htab_hash, siphash_reference_vectors)
{
	static const struct {
		size_t len;
		uint64_t want;
	} v[] = {
		{ 0, 0x726fdb47dd0e0e31ULL },  { 1, 0x74f839c593dc67fdULL },
		{ 2, 0x0d6c8009d9a94f5aULL },  { 3, 0x85676696d7fb7e2dULL },
		{ 15, 0xa129ca6149be45e5ULL }, { 63, 0x958a324ceb064572ULL },
	};
	const struct grain_hash_key key = { 0x0706050403020100ULL,
					    0x0f0e0d0c0b0a0908ULL };
	unsigned char msg[64], shifted[65];

	for (unsigned i = 0; i < 64; i++) {
		msg[i] = (unsigned char)i;
		shifted[i + 1] = (unsigned char)i;
	}
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		cr_assert_eq(grain_siphash(msg, v[i].len, &key), v[i].want,
			     "length %zu", v[i].len);
		cr_assert_eq(grain_siphash(shifted + 1, v[i].len, &key),
			     v[i].want, "length %zu, unaligned", v[i].len);
	}
	cr_assert_eq(grain_siphash(NULL, 0, &key), v[0].want);

	/* The key matters, and so does every message byte. */
	const struct grain_hash_key other = { key.k0 ^ 1, key.k1 };
	cr_assert_neq(grain_siphash(msg, 15, &other), v[4].want);
	msg[14] ^= 0x80;
	cr_assert_neq(grain_siphash(msg, 15, &key), v[4].want);
}

Test(htab_hash, random_keys_differ)
{
	struct grain_hash_key a = { 0, 0 }, b = { 0, 0 };
	int ra = grain_hash_key_random(&a);
	int rb = grain_hash_key_random(&b);

	cr_assert(ra == 0 || ra == -EIO, "rc %d", ra);
	cr_assert(rb == 0 || rb == -EIO, "rc %d", rb);
	cr_assert(a.k0 != b.k0 || a.k1 != b.k1, "two calls, one key");
	cr_assert(a.k0 != 0 || a.k1 != 0);
}

Test(htab_hash, mix64_is_a_bijection_sample)
{
	/* Distinct inputs, distinct outputs; neighbours far apart. */
	uint64_t prev = grain_hash_mix64(1);

	for (uint64_t x = 2; x < 1000; x++) {
		uint64_t y = grain_hash_mix64(x);
		cr_assert_neq(y, prev);
		cr_assert_geq(__builtin_popcountll(y ^ prev), 8, "x %llu",
			      (unsigned long long)x);
		prev = y;
	}
}

struct secret_probe {
	struct grain_hash_key want;
	_Atomic(unsigned) calls, wrong;
};

static uint64_t hash_probe(const void *key, const struct grain_hash_key *secret,
			   void *ctx)
{
	struct secret_probe *p = ctx;

	atomic_fetch_add(&p->calls, 1u);
	if (secret == NULL || secret->k0 != p->want.k0 ||
	    secret->k1 != p->want.k1)
		atomic_fetch_add(&p->wrong, 1u);
	return grain_siphash(key, sizeof(uint64_t), secret);
}

Test(htab_hash, table_secret)
{
	struct grain_htab_config c = { .ops = { .hash = hash_sip,
						.eq = obj_eq },
				       .flags = GRAIN_HTAB_NO_RCU };
	struct grain_htab *t1 = make(&c), *t2 = make(&c);
	unsigned differ = 0;

	/* No secret: a random key per table. */
	for (uint64_t k = 0; k < 16; k++) {
		uint64_t a = grain_htab_hash(t1, &k);
		cr_assert_eq(grain_htab_hash(t1, &k), a, "deterministic");
		differ += a != grain_htab_hash(t2, &k);
	}
	cr_assert_eq(differ, 16u,
		     "two tables without a secret share a hash key");
	grain_htab_destroy(t1);
	grain_htab_destroy(t2);

	/* An explicit secret reaches ops.hash, and the table's hash is the
	 * user's. */
	static struct secret_probe probe;
	probe.want = (struct grain_hash_key){ 0x0123456789abcdefULL,
					      0xfedcba9876543210ULL };
	c.ops.hash = hash_probe;
	c.ctx = &probe;
	c.secret = &probe.want;
	t1 = make(&c);
	t2 = make(&c);
	for (uint64_t k = 0; k < 16; k++) {
		uint64_t want = grain_siphash(&k, sizeof(k), &probe.want);
		cr_assert_eq(grain_htab_hash(t1, &k), want);
		cr_assert_eq(grain_htab_hash(t2, &k), want);
	}
	struct obj o;
	uint64_t k = 77;
	obj_init(&o, k);
	cr_assert_eq(grain_htab_insert(t1, &o.node, &k, 1, 1), 0);
	cr_assert_eq(find(t1, k), &o.node);
	cr_assert_gt(atomic_load(&probe.calls), 32u);
	cr_assert_eq(atomic_load(&probe.wrong), 0u,
		     "ops.hash got another secret than the configured one");
	grain_htab_destroy(t1);
	grain_htab_destroy(t2);
}

/* ----------------------------------------------------------------------
 * Configuration and lifecycle
 */

/* The NULL rule (grain/common.h): every call checks its pointers, the
 * inline fast paths too, and a NULL never crashes: int calls return
 * -EINVAL, queries read an empty table, void calls do nothing. A scope
 * taken on NULL is empty: its calls fail and its unlock does nothing. */
static const struct grain_htab_params null_params = { hash_sip, obj_eq };

/* Scopes on NULL, generic and specialised, one way per case: empty. */
struct null_scope {
	const char *name;
	bool no_table; /* NULL for the table, else for the key */
	bool fast;     /* grain_htab_lock_fast() */
};

static const struct null_scope null_scopes[] = {
	{ .name = "grain_htab_lock(NULL, key)", .no_table = true },
	{ .name = "grain_htab_lock(h, NULL)" },
	{ .name = "grain_htab_lock_fast(NULL, key)",
	  .no_table = true,
	  .fast = true },
	{ .name = "grain_htab_lock_fast(h, NULL)", .fast = true },
};

TABLE_PARAMETERS(htab_api, null_scope, struct null_scope, null_scopes);

ParameterizedTest(const struct null_scope *row, htab_api, null_scope)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	struct obj o;
	uint64_t k = 7;
	struct grain_hnode *found;
	struct grain_htab_scope s;
	struct grain_htab *table = row->no_table ? NULL : h;
	const uint64_t *key = row->no_table ? &k : NULL;

	obj_init(&o, k);
	memset(&s, 0x5a, sizeof(s));
	if (row->fast)
		grain_htab_lock_fast(table, key, &s, null_params);
	else
		grain_htab_lock(table, key, &s);
	cr_assert_null(grain_htab_find_locked(&s, &k), "%s", row->name);
	cr_assert_null(grain_htab_find_locked_fast(&s, &k, null_params), "%s",
		       row->name);
	cr_assert_eq(grain_htab_insert_locked(&s, &o.node, &k, 1, 1), -EINVAL,
		     "%s", row->name);
	found = &o.node;
	cr_assert_eq(grain_htab_find_or_insert_locked(&s, &k, &o.node, 1, 1,
						      &found),
		     -EINVAL, "%s", row->name);
	cr_assert_null(found, "%s", row->name);
	check_not_held(&s, &o.node, 1, 1, -EINVAL, row->name);
	grain_htab_unlock(&s);

	/* Nothing was linked, and the table still works. */
	cr_assert_eq(stats_of(h).entries, 0u, "%s", row->name);
	cr_assert_null(find(h, k), "%s", row->name);
	cr_assert_eq(grain_htab_insert(h, &o.node, &k, 1, 1), 0, "%s",
		     row->name);
	cr_assert_eq(find(h, k), &o.node, "%s", row->name);
	grain_htab_destroy(h);
	cr_assert_eq(atomic_load(&o.reclaims), 1u, "%s", row->name);
}

Test(htab_api, null_arguments)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	struct obj o;
	uint64_t k = 7;
	struct grain_hnode *found = &o.node;
	struct grain_htab_scope s;

	obj_init(&o, k);
	cr_assert_eq(grain_htab_insert(NULL, &o.node, &k, 1, 1), -EINVAL);
	cr_assert_eq(grain_htab_insert(h, NULL, &k, 1, 1), -EINVAL);
	cr_assert_eq(grain_htab_insert(h, &o.node, NULL, 1, 1), -EINVAL);
	cr_assert_eq(grain_htab_insert_fast(h, &o.node, NULL, 1, 1,
					    null_params),
		     -EINVAL);
	cr_assert_eq(grain_htab_find_or_insert(h, NULL, &o.node, 1, 1, &found),
		     -EINVAL);
	cr_assert_null(found, "*found is NULL on error");
	cr_assert_eq(grain_htab_find_or_insert(h, &k, &o.node, 1, 1, NULL),
		     -EINVAL);
	cr_assert_eq(grain_htab_remove(NULL, &k, NULL), -EINVAL);
	cr_assert_eq(grain_htab_remove(h, NULL, NULL), -EINVAL);
	cr_assert_eq(grain_htab_remove_fast(h, NULL, NULL, null_params),
		     -EINVAL);
	cr_assert_null(grain_htab_lookup(NULL, &k));
	cr_assert_null(grain_htab_lookup(h, NULL));
	cr_assert_null(grain_htab_lookup_fast(h, NULL, null_params));
	cr_assert_eq(grain_htab_hash(NULL, &k), 0u);
	cr_assert_eq(grain_htab_hash(h, NULL), 0u);
	cr_assert_eq(grain_htab_bytes(NULL), 0u);
	cr_assert_eq(grain_htab_bytes_exact(NULL), 0u);
	cr_assert_eq(grain_htab_expire(NULL, 1), 0u);
	cr_assert_eq(grain_htab_resize(NULL, 16), -EINVAL);
	struct grain_htab_stats st;
	memset(&st, 0xff, sizeof(st));
	grain_htab_stats(NULL, &st);
	cr_assert_eq(st.entries, 0u, "NULL reads as an empty table");
	cr_assert_eq(st.lookups, 0u);
	grain_htab_stats(h, NULL);
	grain_htab_reclaim_flush(NULL);
	grain_htab_unlock(NULL);
	grain_htab_destroy(NULL);

	grain_htab_lock(h, &k, NULL); /* nothing to fill: does nothing */
	cr_assert_null(grain_htab_find_locked(NULL, &k));
	cr_assert_eq(grain_htab_insert_locked(NULL, &o.node, &k, 1, 1),
		     -EINVAL);
	cr_assert_eq(grain_htab_remove_locked(NULL, &o.node), -EINVAL);

	/* A held scope checks its key and node too; the table is unchanged
	 * by every call above, and still works. */
	grain_htab_lock(h, &k, &s);
	cr_assert_null(grain_htab_find_locked(&s, NULL));
	cr_assert_eq(grain_htab_insert_locked(&s, &o.node, NULL, 1, 1),
		     -EINVAL);
	cr_assert_eq(grain_htab_insert_locked(&s, NULL, &k, 1, 1), -EINVAL);
	cr_assert_eq(grain_htab_remove_locked(&s, NULL), -EINVAL);
	cr_assert_eq(grain_htab_insert_locked(&s, &o.node, &k, 1, 1), 0);
	grain_htab_unlock(&s);
	st = stats_of(h);
	cr_assert_eq(st.entries, 1u);
	cr_assert_eq(grain_htab_bytes_exact(h), 1u);
	cr_assert_eq(find(h, k), &o.node);
	grain_htab_destroy(h);
	cr_assert_eq(atomic_load(&o.reclaims), 1u);
}

/*
 * Configurations, each set over ledger_config()'s good one: a bad field
 * per case, -EINVAL with *htabp untouched; then the defaults and the
 * limits, each an empty table of the buckets it asks for.
 */
struct config_case {
	const char *name;
	struct grain_htab_config config;
	bool no_hash, no_eq;
	bool no_callbacks; /* ops.hash and ops.eq only, no ctx */
	int rc;
	uint64_t buckets;
};

/* The limits: @n stripes of one bucket, with mem_low = mem_high. */
#define LIMITS(n)                                                         \
	{                                                                 \
		.flags = GRAIN_HTAB_NO_RCU, .stripes = (n), .buckets = 1, \
		.mem_high = 100, .mem_low = 100                           \
	}

static const struct config_case config_cases[] = {
	{ .name = "ops.hash = NULL", .no_hash = true, .rc = -EINVAL },
	{ .name = "ops.eq = NULL", .no_eq = true, .rc = -EINVAL },
	{ .name = "stripes = 3", .config.stripes = 3, .rc = -EINVAL },
	{ .name = "stripes = 96", .config.stripes = 96, .rc = -EINVAL },
	{ .name = "stripes = 65537", .config.stripes = 65537, .rc = -EINVAL },
	{ .name = "stripes = 131072", .config.stripes = 131072, .rc = -EINVAL },
	{ .name = "buckets = 3", .config.buckets = 3, .rc = -EINVAL },
	{ .name = "buckets = 24", .config.buckets = 24, .rc = -EINVAL },
	{ .name = "flags = 0x4u", .config.flags = 0x4u, .rc = -EINVAL },
	{ .name = "flags = 0x80000000u",
	  .config.flags = 0x80000000u,
	  .rc = -EINVAL },
	{ .name = "policy = 2",
	  .config.policy = (enum grain_htab_policy)2,
	  .rc = -EINVAL },
	{ .name = "mem_low > mem_high",
	  .config = { .mem_high = 100, .mem_low = 200 },
	  .rc = -EINVAL },
	{ .name = "reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX + 1",
	  .config = { .flags = GRAIN_HTAB_BATCH_RECLAIM,
		      .reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX + 1 },
	  .rc = -EINVAL },
	{ .name = "defaults: 64 stripes of 16 buckets",
	  .no_callbacks = true,
	  .buckets = 64u * 16u },
	{ .name = "one stripe of one bucket, mem_low = mem_high",
	  .config = LIMITS(1),
	  .buckets = 1 },
	{ .name = "65536 stripes of one bucket, mem_low = mem_high",
	  .config = LIMITS(65536),
	  .buckets = 65536 },
	{ .name = "reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX",
	  .config = { .flags = GRAIN_HTAB_BATCH_RECLAIM,
		      .reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX },
	  .buckets = 64u * 16u },
};

#undef LIMITS

TABLE_PARAMETERS(htab_create, configurations, struct config_case, config_cases);

/* A new table of case @row: empty, of the buckets the row asks for. */
static void check_empty(const struct config_case *row, struct grain_htab *h)
{
	cr_assert_not_null(h, "%s", row->name);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.buckets, row->buckets, "%s", row->name);
	cr_assert_eq(st.entries, 0u, "%s", row->name);
	cr_assert_eq(st.bytes, 0u, "%s", row->name);
	cr_assert_eq(st.inserts + st.lookups + st.hits + st.evictions +
			     st.expirations + st.refusals + st.chain_refusals +
			     st.resizes,
		     0u, "%s", row->name);
	cr_assert_eq(grain_htab_bytes(h), 0u, "%s", row->name);
	cr_assert_eq(grain_htab_bytes_exact(h), 0u, "%s", row->name);
}

ParameterizedTest(const struct config_case *row, htab_create, configurations)
{
	struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c = shaped_config(&l, 0, &row->config);
	struct grain_htab *h = (struct grain_htab *)(uintptr_t)8;

	if (row->no_hash)
		c.ops.hash = NULL;
	if (row->no_eq)
		c.ops.eq = NULL;
	if (row->no_callbacks) {
		c.ops.unlinked = NULL;
		c.ops.reclaim = NULL;
		c.ctx = NULL;
	}
	mode_enter(c.flags);
	cr_assert_eq(grain_htab_create(&h, &c, NULL), row->rc, "%s", row->name);
	if (row->rc != 0) {
		cr_assert_eq((uintptr_t)h, 8u, "%s: *htabp touched", row->name);
	} else {
		check_empty(row, h);
		grain_htab_destroy(h);
	}
	mode_leave(c.flags);
}

Test(htab_create, null_arguments)
{
	struct ledger l;
	ledger_init(&l);
	const struct grain_htab_config good = ledger_config(&l, 0);
	struct grain_htab *h = (struct grain_htab *)(uintptr_t)8;

	cr_assert_eq(grain_htab_create(NULL, &good, NULL), -EINVAL);
	cr_assert_eq(grain_htab_create(&h, NULL, NULL), -EINVAL);
	cr_assert_eq((uintptr_t)h, 8u);
	grain_htab_destroy(NULL);
}

MODE_TEST(htab_create, allocation_failure)
{
	struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, *mode);
	struct test_alloc_state st = { .budget = 0 };
	struct grain_alloc a = { test_alloc_fn, test_free_fn, &st };
	struct grain_htab *h = (struct grain_htab *)(uintptr_t)8;
	int budget = 0, rc;

	c.stripes = 8;
	mode_enter(*mode);
	/* Fail the first allocation, then the second, ...: every failure
	 * is -ENOMEM with nothing left allocated. */
	for (;; budget++) {
		cr_assert_lt(budget, 10000, "create never succeeds");
		st.budget = budget;
		st.failures = 0;
		rc = grain_htab_create(&h, &c, &a);
		if (rc == 0)
			break;
		cr_assert_eq(rc, -ENOMEM, "budget %d", budget);
		cr_assert_eq((uintptr_t)h, 8u, "*htabp touched on error");
		cr_assert_eq(st.live, 0, "budget %d: leak", budget);
		cr_assert_eq(st.live_bytes, 0u);
		cr_assert_eq(st.failures, 1u,
			     "budget %d: kept allocating after "
			     "a failure",
			     budget);
	}
	cr_assert_gt(budget, 0, "create allocated nothing");
	cr_assert_gt(st.live, 0);
	struct obj o;
	uint64_t k = 5;
	obj_init(&o, k);
	st.budget = -1;
	cr_assert_eq(grain_htab_insert(h, &o.node, &k, 1, 1), 0);
	grain_htab_destroy(h);
	cr_assert_eq(st.live, 0, "destroy returns everything to the hooks");
	cr_assert_eq(st.live_bytes, 0u);
	cr_assert_eq(atomic_load(&o.reclaims), 1u);
	mode_leave(*mode);
}

/* ----------------------------------------------------------------------
 * Calls and error codes
 */

MODE_TEST(htab_basic, insert_find_remove)
{
	/* One stripe: c3 (never inserted) is of the scope's stripe. */
	static const struct grain_htab_config shape = { .stripes = 1 };
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	struct obj a, b, a2, c3;
	uint64_t ka = 1, kb = 2, kc = 3;
	struct grain_htab_scope s;
	struct grain_hnode *r = NULL;

	obj_init(&a, ka);
	obj_init(&b, kb);
	obj_init(&a2, ka);
	obj_init(&c3, kc);

	grain_htab_lock(h, &ka, &s);
	cr_assert_null(grain_htab_find_locked(&s, &ka));
	cr_assert_eq(grain_htab_insert_locked(&s, &a.node, &ka, 10, 100), 0);
	cr_assert_eq(grain_htab_find_locked(&s, &ka), &a.node,
		     "visible inside the scope that inserted it");
	cr_assert_eq(grain_htab_insert_locked(&s, &a2.node, &ka, 11, 5),
		     -EEXIST);
	grain_htab_unlock(&s);
	grain_htab_lock(h, &kb, &s);
	cr_assert_eq(grain_htab_insert_locked(&s, &b.node, &kb, 12, 20), 0);
	cr_assert_eq(grain_htab_find_locked(&s, &kb), &b.node);
	grain_htab_unlock(&s);
	grain_htab_lock(h, &kc, &s);
	cr_assert_eq(grain_htab_insert_locked(&s, &a.node, &kc, 13, 1), -EINVAL,
		     "node already linked (under another key)");
	cr_assert_eq(grain_htab_insert_locked(&s, NULL, &kc, 13, 1), -EINVAL);
	cr_assert_null(grain_htab_find_locked(&s, &kc));
	grain_htab_unlock(&s);

	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 2u);
	cr_assert_eq(st.bytes, 120u);
	cr_assert_eq(grain_htab_bytes_exact(h), 120u);
	cr_assert_eq(find(h, ka), &a.node);
	cr_assert_eq(find(h, kb), &b.node);

	/* One-call forms. */
	cr_assert_eq(grain_htab_insert(h, &a2.node, &ka, 14, 5), -EEXIST);
	cr_assert_eq(grain_htab_insert(h, NULL, &kc, 14, 5), -EINVAL);
	cr_assert_eq(grain_htab_remove(h, &kc, &r), -ENOENT);
	cr_assert_eq(grain_htab_remove(h, &ka, &r), 0);
	cr_assert_eq(r, &a.node, "*removed is the entry");
	cr_assert_eq(grain_htab_remove(h, &ka, NULL), -ENOENT);
	cr_assert_null(find(h, ka));
	cr_assert_eq(find(h, kb), &b.node);
	st = stats_of(h);
	cr_assert_eq(st.entries, 1u);
	cr_assert_eq(st.bytes, 20u);

	/* remove_locked retires; the node is then no entry of the table. */
	grain_htab_lock(h, &kb, &s);
	struct grain_hnode *n = grain_htab_find_locked(&s, &kb);
	cr_assert_eq(n, &b.node);
	cr_assert_eq(grain_htab_remove_locked(&s, n), 0);
	cr_assert_null(grain_htab_find_locked(&s, &kb));
	check_not_held(&s, n, 20, 1, -ENOENT, "a node removed");
	cr_assert_eq(grain_htab_remove_locked(&s, NULL), -EINVAL);
	check_not_held(&s, &c3.node, 20, 1, -ENOENT, "a node never inserted");
	grain_htab_unlock(&s);
	st = stats_of(h);
	cr_assert_eq(st.entries, 0u);
	cr_assert_eq(st.bytes, 0u);
	cr_assert_eq(grain_htab_bytes_exact(h), 0u);

	mode_settle(h, flags);
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&a.reclaim_why), GRAIN_HTAB_REMOVED);
	cr_assert_eq(atomic_load(&b.reclaims), 1u);
	cr_assert_eq(atomic_load(&b.reclaim_why), GRAIN_HTAB_REMOVED);
	cr_assert_eq(atomic_load(&a2.reclaims), 0u, "never linked");
	cr_assert_eq(atomic_load(&a.unlinks) + atomic_load(&b.unlinks), 0u,
		     "ops.unlinked is for EVICTED and EXPIRED only");

	/* Reclaimed memory may be reused. */
	obj_init(&a, ka);
	cr_assert_eq(grain_htab_insert(h, &a.node, &ka, 30, 3), 0);
	cr_assert_eq(find(h, ka), &a.node);
	close_table(h, flags);
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&a.reclaim_why), GRAIN_HTAB_DESTROYED);
}

MODE_TEST(htab_basic, find_or_insert)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, NULL);
	struct obj a, a2, b;
	uint64_t ka = 10, kb = 11;
	struct grain_hnode *found = NULL;
	struct grain_htab_scope s;

	obj_init(&a, ka);
	obj_init(&a2, ka);
	obj_init(&b, kb);
	cr_assert_eq(grain_htab_find_or_insert(h, &ka, &a.node, 1, 7, &found),
		     0);
	cr_assert_eq(found, &a.node);
	found = NULL;
	cr_assert_eq(grain_htab_find_or_insert(h, &ka, &a2.node, 2, 9, &found),
		     -EEXIST);
	cr_assert_eq(found, &a.node, "*found is the existing entry");
	cr_assert(node_is_zero(&a2.node), "the spare node was touched");

	grain_htab_lock(h, &ka, &s);
	found = NULL;
	cr_assert_eq(grain_htab_find_or_insert_locked(&s, &ka, &a2.node, 3, 9,
						      &found),
		     -EEXIST);
	cr_assert_eq(found, &a.node);
	cr_assert(node_is_zero(&a2.node));
	grain_htab_unlock(&s);
	grain_htab_lock(h, &kb, &s);
	cr_assert_eq(grain_htab_find_or_insert_locked(&s, &kb, &b.node, 3, 5,
						      &found),
		     0);
	cr_assert_eq(found, &b.node);
	cr_assert_eq(grain_htab_find_locked(&s, &kb), &b.node);
	found = NULL;
	cr_assert_eq(grain_htab_find_or_insert_locked(&s, &kb, &a2.node, 3, 5,
						      &found),
		     -EEXIST, "inserted earlier in the same scope");
	cr_assert_eq(found, &b.node);
	grain_htab_unlock(&s);

	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 2u);
	cr_assert_eq(st.bytes, 12u, "the refused charge is not counted");
	cr_assert_eq(st.inserts, 2u);
	close_table(h, *mode);
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&b.reclaims), 1u);
	cr_assert_eq(atomic_load(&a2.reclaims), 0u);
}

MODE_TEST(htab_basic, other_stripe)
{
	static const struct grain_htab_config shape = {
		.ops.hash = hash_ident,
		.stripes = 2,
	};
	struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	uint64_t lo = 0x1, hi = ~(uint64_t)0x1;
	struct obj a, b;
	struct grain_htab_scope s;

	obj_init(&a, lo);
	obj_init(&b, hi);
	cr_assert_eq(grain_htab_insert(h, &a.node, &lo, 1, 10), 0);
	cr_assert_eq(grain_htab_insert(h, &b.node, &hi, 2, 20), 0);

	grain_htab_lock(h, &lo, &s);
	cr_assert_eq(grain_htab_find_locked(&s, &lo), &a.node);
	check_not_held(&s, &b.node, 3, 5, -EINVAL, "a node of another stripe");
	grain_htab_unlock(&s);
	cr_assert_eq(find(h, hi), &b.node);
	cr_assert_eq(grain_htab_bytes_exact(h), 30u);
	cr_assert_eq(stats_of(h).entries, 2u);
	close_table(h, *mode);
}

MODE_TEST(htab_basic, other_table)
{
	static const struct grain_htab_config shape = { .stripes = 1 };
	struct ledger l;
	struct grain_htab *ha = open_table(&l, *mode, &shape);
	struct grain_htab_config c = shaped_config(&l, *mode, &shape);
	struct grain_htab *hb = make(&c);
	uint64_t k = 42, k2 = 43;
	struct obj a;
	struct grain_htab_scope s;

	obj_init(&a, k);
	cr_assert_eq(grain_htab_insert(ha, &a.node, &k, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(hb, &a.node, &k2, 1, 1), -EINVAL,
		     "node linked in another table");
	grain_htab_lock(hb, &k, &s);
	cr_assert_null(grain_htab_find_locked(&s, &k));
	check_not_held(&s, &a.node, 2, 2, -ENOENT, "a node of another table");
	grain_htab_unlock(&s);
	cr_assert_eq(find(ha, k), &a.node);
	cr_assert_eq(stats_of(hb).entries, 0u);
	cr_assert_eq(grain_htab_bytes_exact(ha), 1u);
	grain_htab_destroy(hb);
	cr_assert_eq(atomic_load(&a.reclaims), 0u);
	close_table(ha, *mode);
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
}

/* The exact byte total of @h is @want, and the folded one is less than
 * @lag away from it (after key @k). */
static void check_bytes(struct grain_htab *h, size_t want, size_t lag,
			uint64_t k)
{
	size_t exact = grain_htab_bytes_exact(h), folded = grain_htab_bytes(h);

	cr_assert_eq(exact, want, "k %llu", (unsigned long long)k);
	cr_assert_lt(exact > folded ? exact - folded : folded - exact, lag,
		     "k %llu: exact %zu folded %zu", (unsigned long long)k,
		     exact, folded);
}

MODE_TEST(htab_basic, charges)
{
	static const struct grain_htab_config shape = { .stripes = 4,
							.mem_batch = 1000 };
	struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[100];
	uint64_t k = 0;

	obj_init(&o[0], k);
	cr_assert_eq(grain_htab_insert(h, &o[0].node, &k, 1, 100), 0);
	cr_assert_eq(charge(h, k, 50), 0);
	cr_assert_eq(charge(h, k, -30), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), 120u);
	cr_assert_eq(charge(h, k, -121), -EINVAL, "more than the charge");
	cr_assert_eq(grain_htab_bytes_exact(h), 120u, "nothing changed");
	cr_assert_eq(charge(h, k, -120), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), 0u);
	cr_assert_eq(charge(h, k, 7), 0);
	cr_assert_eq(stats_of(h).bytes, 7u);

	/* The folded total stays within stripes * mem_batch of the exact
	 * one, also across many batches. */
	for (k = 1; k < 100; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 777), 0);
		check_bytes(h, 7 + 777 * k, 4u * 1000u, k);
	}
	for (k = 0; k < 100; k++) {
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		check_bytes(h, 777 * (99 - k), 4u * 1000u, k);
	}
	cr_assert_eq(stats_of(h).bytes, 0u);
	close_table(h, *mode);
}

/*
 * htab.h, section 3: a charge well under half a stripe's batch stays in
 * the stripe's remainder (no shared write), and one of half a batch or
 * more folds into the shared total at once. 64 stripes with mem_high 4
 * MiB give the default batch of 1 KiB: 100-byte entries inserted and
 * removed across the stripes never reach the total; a 600-byte one does.
 */
Test(htab_basic, fold_by_charge)
{
	static const struct grain_htab_config shape = { .stripes = 64,
							.mem_high = 4u << 20,
							.mem_low = 3u << 20 };
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	static struct obj o[257];

	for (uint64_t k = 0; k < 256; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 100), 0);
		cr_assert_eq(grain_htab_bytes_exact(h), 100u);
		cr_assert_eq(grain_htab_bytes(h), 0u, "k %llu: folded",
			     (unsigned long long)k);
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		cr_assert_eq(grain_htab_bytes(h), 0u, "k %llu: folded",
			     (unsigned long long)k);
	}
	uint64_t k = 256;
	obj_init(&o[k], k);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 600), 0);
	cr_assert_eq(grain_htab_bytes(h), 600u, "folded at once");
	cr_assert_eq(grain_htab_bytes_exact(h), 600u);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

MODE_TEST(htab_basic, destroy_reclaims_everything)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, NULL);
	static struct obj o[200];

	insert_keys(h, o, 200, 0, 1, 1);
	for (uint64_t k = 0; k < 200; k += 3)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	/* No barrier: destroy waits for the removals' reclaims too. */
	grain_htab_destroy(h);
	for (unsigned k = 0; k < 200; k++) {
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u, "key %u", k);
		cr_assert_eq(atomic_load(&o[k].reclaim_why),
			     k % 3 == 0 ? GRAIN_HTAB_REMOVED
					: GRAIN_HTAB_DESTROYED,
			     "key %u", k);
	}
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]), 67u);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_DESTROYED]), 133u);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_DESTROYED]), 0u,
		     "ops.unlinked is not called at destroy");
	mode_leave(*mode);
}

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

TABLE_PARAMETERS(htab_rcu, batched_reclaim, struct batch_case, batch_cases);

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
	pthread_t t;

	obj_init(&a, ka);
	obj_init(&b, kb);
	cr_assert_eq(grain_htab_insert(h, &a.node, &ka, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(h, &b.node, &kb, 1, 1), 0);
	cr_assert_eq(grain_htab_remove(h, &ka, NULL), 0);
	cr_assert_eq(d.node, &a.node);
	cr_assert_eq(pthread_create(&t, NULL, call_done_later, &d), 0);
	grain_htab_destroy(h);
	cr_assert(atomic_load(&d.done_called),
		  "destroy returned with a reclaim pending in defer()");
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&a.reclaim_why), GRAIN_HTAB_REMOVED);
	cr_assert_eq(atomic_load(&b.reclaims), 1u);
	cr_assert_eq(atomic_load(&b.reclaim_why), GRAIN_HTAB_DESTROYED);
	pthread_join(t, NULL);
	mode_leave(0);
}

/* ----------------------------------------------------------------------
 * Resizing
 */

MODE_TEST(htab_resize, explicit_sizes)
{
	static const struct grain_htab_config shape = { .stripes = 4 };
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	static struct obj o[200];
	static const unsigned bad[] = { 0, 3, 48, 1u << 25 };
	static const unsigned sizes[] = { 64, 1024, 2, 1, 16, 4096, 32 };

	insert_keys(h, o, 200, 0, 1, 1);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(grain_htab_resize(h, bad[i]), -EINVAL, "size %u",
			     bad[i]);
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* Lookups since the last resize may have resized
		 * automatically (unlock performs a due resize). */
		struct grain_htab_stats before = stats_of(h);
		cr_assert_eq(grain_htab_resize(h, sizes[i]), 0);
		struct grain_htab_stats st = stats_of(h);
		cr_assert_eq(st.buckets, 4u * sizes[i], "size %u", sizes[i]);
		if (before.buckets != st.buckets)
			cr_assert_gt(st.resizes, before.resizes, "size %u",
				     sizes[i]);
		cr_assert_eq(st.entries, 200u);
		if (is_rcu(flags)) {
			grain_rcu_read_lock();
			for (uint64_t k = 0; k < 200; k++)
				cr_assert_eq(grain_htab_lookup(h, &k),
					     &o[k].node);
			grain_rcu_read_unlock();
		}
		for (uint64_t k = 0; k < 200; k++)
			cr_assert_eq(find(h, k), &o[k].node, "size %u",
				     sizes[i]);
	}
	cr_assert_eq(grain_htab_resize(h, stats_of(h).buckets / 4), 0,
		     "resizing to the current size");
	close_table(h, flags);
	for (unsigned k = 0; k < 200; k++)
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u);
}

MODE_PARAMETERS(htab_resize, automatic);

ParameterizedTest(unsigned *mode, htab_resize, automatic, .timeout = 60)
{
	static const struct grain_htab_config shape = { .stripes = 1 };
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	enum { N = 2000 };
	static struct obj o[N];

	for (uint64_t k = 0; k < N; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1), 0,
			     "key %llu", (unsigned long long)k);
		/* Every due grow runs at once (none waits for a grace
		 * period): never more than max_load (3) entries a bucket. */
		struct grain_htab_stats st = stats_of(h);
		cr_assert_leq(st.entries, 3 * st.buckets,
			      "%llu entries in %llu buckets: no grow",
			      (unsigned long long)st.entries,
			      (unsigned long long)st.buckets);
	}
	settle_resizes(h, flags);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_leq(st.entries, 2 * st.buckets, "%llu entries, %llu buckets",
		      (unsigned long long)st.entries,
		      (unsigned long long)st.buckets);
	cr_assert_geq(st.buckets, 1024u);
	cr_assert_geq(st.resizes, 6u, "16 -> 1024 is six doublings");
	cr_assert_leq(st.longest_chain, 64u);
	check_found(h, o, N, flags);
	for (uint64_t k = 0; k < N; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	cr_assert_eq(grain_htab_expire(h, 0), 0u, "ttl 0: nothing expires");
	settle_resizes(h, flags);
	st = stats_of(h);
	cr_assert_eq(st.entries, 0u);
	cr_assert_eq(st.buckets, 16u,
		     "an empty stripe shrinks back to its initial size");
	close_table(h, flags);
}

MODE_TEST(htab_resize, allocation_failure)
{
	static const struct grain_htab_config shape = { .stripes = 4 };
	const unsigned flags = *mode;
	struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c = shaped_config(&l, flags, &shape);
	struct test_alloc_state st = { .budget = -1 };
	struct grain_alloc a = { test_alloc_fn, test_free_fn, &st };
	struct grain_htab *h = NULL;
	enum { N = 600 };
	static struct obj o[N];

	mode_enter(flags);
	cr_assert_eq(grain_htab_create(&h, &c, &a), 0);
	/* Few enough that no stripe grows (more than 32 of 60 keys in one
	 * of four stripes is all but impossible). */
	insert_keys(h, o, 60, 0, 1, 1);
	uint64_t buckets = stats_of(h).buckets;
	cr_assert_eq(buckets, 4u * 16u);

	st.budget = 0;
	cr_assert_eq(grain_htab_resize(h, 256), -ENOMEM);
	cr_assert_gt(st.failures, 0u);
	cr_assert_eq(stats_of(h).buckets, buckets, "nothing was resized");
	/* Inserts go on without growing (their grow fails quietly) until
	 * a stripe's overflow reserve is used up; then an insert that needs
	 * the stripe rebuilt fails with -ENOMEM and changes nothing. */
	unsigned nomem = 0;
	for (uint64_t k = 60; k < N; k++) {
		obj_init(&o[k], k);
		int rc = grain_htab_insert(h, &o[k].node, &k, k, 1);
		cr_assert(rc == 0 || rc == -ENOMEM, "key %llu: %d",
			  (unsigned long long)k, rc);
		if (rc == -ENOMEM) {
			nomem++;
			cr_assert_null(find(h, k));
			cr_assert_eq(o[k].node.state, 0u,
				     "the node is the caller's");
		}
	}
	cr_assert_gt(nomem, 0u,
		     "600 keys fit in 64 buckets without allocating");
	cr_assert_eq(stats_of(h).buckets, buckets);
	cr_assert_eq(stats_of(h).entries, (uint64_t)N - nomem);
	/* With memory back, the refused keys go in. */
	st.budget = -1;
	for (uint64_t k = 60; k < N; k++)
		if (find(h, k) == NULL)
			cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1),
				     0, "key %llu", (unsigned long long)k);
	st.budget = 0;
	check_found(h, o, N, flags);
	buckets = stats_of(h).buckets;

	/* Fail half way: some stripes resized, all entries still there. */
	st.budget = 3;
	cr_assert_eq(grain_htab_resize(h, 1024), -ENOMEM);
	struct grain_htab_stats s1 = stats_of(h);
	cr_assert_geq(s1.buckets, buckets);
	cr_assert_lt(s1.buckets, 4u * 1024u);
	cr_assert_eq(s1.entries, (uint64_t)N);
	check_found(h, o, N, flags);

	st.budget = -1;
	cr_assert_eq(grain_htab_resize(h, 256), 0);
	cr_assert_eq(stats_of(h).buckets, 4u * 256u);
	check_found(h, o, N, flags);
	grain_htab_destroy(h);
	cr_assert_eq(st.live, 0);
	cr_assert_eq(st.live_bytes, 0u);
	mode_leave(flags);
}

/* ----------------------------------------------------------------------
 * Eviction (policy EVICT) and refusal (policy REFUSE)
 */

/* The shape of a table of @stripes that evicts above @high bytes down to
 * @low. */
static struct grain_htab_config watermarks(unsigned stripes, size_t high,
					   size_t low)
{
	struct grain_htab_config c = { .stripes = stripes,
				       .mem_high = high,
				       .mem_low = low };

	return c;
}

/* The stripe of key @k (htab.h, section 2: the top 16 bits of its hash). */
static uint64_t stripe_of_key(const struct grain_htab *h, uint64_t k,
			      unsigned stripes)
{
	return (grain_htab_hash(h, &k) >> 48) & (stripes - 1u);
}

struct evict_param {
	const char *name;
	unsigned stripes, flags;
};

static const struct evict_param evict_params[] = {
	{ .name = "1 stripe, NO_RCU", .stripes = 1, .flags = GRAIN_HTAB_NO_RCU },
	{ .name = "4 stripes, NO_RCU",
	  .stripes = 4,
	  .flags = GRAIN_HTAB_NO_RCU },
	{ .name = "4 stripes, RCU", .stripes = 4, .flags = 0 },
	{ .name = "64 stripes, NO_RCU",
	  .stripes = 64,
	  .flags = GRAIN_HTAB_NO_RCU },
	{ .name = "64 stripes, RCU", .stripes = 64, .flags = 0 },
};

TABLE_PARAMETERS(htab_evict, lru_order, struct evict_param, evict_params);

/*
 * mem_low = mem_high = ten entries: from the eleventh insert on, every
 * insert evicts exactly one entry, the one with the oldest stamp. Random
 * touches reorder; stamps are distinct, so the order is exact across
 * stripes too.
 */
ParameterizedTest(const struct evict_param *p, htab_evict, lru_order)
{
	const struct grain_htab_config shape =
		watermarks(p->stripes, 1000, 1000);
	static struct ledger l;
	struct grain_htab *h = open_table(&l, p->flags, &shape);
	enum { N = 300 };
	static struct obj o[N];
	uint64_t stamp[N] = { 0 }, now = 1, rng = 0x9E3779B97F4A7C15ULL;
	unsigned alive = 0, evicted = 0;

	for (uint64_t k = 0; k < N; k++) {
		/* Touch a random live entry now and then. */
		if (k > 0 && test_rand(&rng) % 3 == 0) {
			uint64_t t = test_rand(&rng) % k;
			if (stamp[t] != 0) {
				cr_assert_eq(touch(h, t, now), 0, "%s",
					     p->name);
				stamp[t] = now++;
			} else {
				cr_assert_eq(touch(h, t, now), -ENOENT,
					     "%s: evicted key %llu is back",
					     p->name, (unsigned long long)t);
			}
		}
		uint64_t oldest = 0, oldest_stamp = UINT64_MAX;
		for (uint64_t i = 0; i < k; i++)
			if (stamp[i] != 0 && stamp[i] < oldest_stamp) {
				oldest_stamp = stamp[i];
				oldest = i;
			}
		obj_init(&o[k], k);
		l.nlog = 0;
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, now, 100), 0,
			     "%s", p->name);
		stamp[k] = now++;
		/* With more stripes than an eviction samples, the order is
		 * exact within the victim's stripe: the victim must be the
		 * oldest entry of its own stripe. */
		if (p->stripes > GRAIN_HTAB_EVICT_SAMPLE && l.nlog == 1) {
			uint64_t v = l.log[0],
				 vs = stripe_of_key(h, v, p->stripes);
			oldest = v;
			for (uint64_t i = 0; i < k; i++)
				if (stamp[i] != 0 && i != v &&
				    stripe_of_key(h, i, p->stripes) == vs)
					cr_assert_gt(
						stamp[i], stamp[v],
						"%s: key %llu: evicted %llu "
						"before %llu of its stripe",
						p->name, (unsigned long long)k,
						(unsigned long long)v,
						(unsigned long long)i);
		}
		if (alive < 10) {
			alive++;
			cr_assert_eq(l.nlog, 0u,
				     "%s: key %llu: evicted below "
				     "mem_high",
				     p->name, (unsigned long long)k);
		} else {
			cr_assert_eq(l.nlog, 1u, "%s: key %llu: %u evictions",
				     p->name, (unsigned long long)k, l.nlog);
			cr_assert_eq(l.log[0], oldest,
				     "%s: key %llu: evicted %llu, LRU is %llu",
				     p->name, (unsigned long long)k,
				     (unsigned long long)l.log[0],
				     (unsigned long long)oldest);
			cr_assert_eq(atomic_load(&o[oldest].unlink_why),
				     GRAIN_HTAB_EVICTED, "%s", p->name);
			stamp[oldest] = 0;
			evicted++;
		}
		cr_assert_eq(grain_htab_bytes_exact(h), 100u * alive, "%s",
			     p->name);
	}
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.evictions, evicted, "%s", p->name);
	cr_assert_eq(st.entries, 10u, "%s", p->name);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EVICTED]), evicted,
		     "%s", p->name);
	mode_settle(h, p->flags);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_EVICTED]), evicted,
		     "%s", p->name);
	for (unsigned k = 0; k < N; k++)
		if (stamp[k] == 0) {
			cr_assert_eq(atomic_load(&o[k].reclaims), 1u, "%s",
				     p->name);
			cr_assert_eq(atomic_load(&o[k].reclaim_why),
				     GRAIN_HTAB_EVICTED, "%s", p->name);
		} else {
			cr_assert_eq(find(h, k), &o[k].node, "%s", p->name);
		}
	close_table(h, p->flags);
}

/*
 * The unlock's own-stripe shortcut takes entries no newer than what the
 * table has evicted so far. Stripe Y holds young entries, the seven others
 * three old ones each (21: six evictions empty at most two stripes, so
 * every sample of three other stripes holds an old entry). Every insert
 * into Y then evicts one entry, never Y's: the horizon (at most the
 * newest old stamp) is below Y's oldest, and sampling finds older ones.
 */
Test(htab_evict, own_stripe_horizon)
{
	enum { S = 8, OLD = 3, YOUNG = 4, NEW = 6, K = 4096 };
	static const struct grain_htab_config c = {
		.stripes = S,
		.mem_high = (S - 1) * OLD + YOUNG,
		.mem_low = (S - 1) * OLD + YOUNG,
		.mem_batch = 1,
	};
	static struct ledger l;
	static struct obj o[K];
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &c);
	unsigned per[S] = { 0 }, y = 0, placed = 0, fresh = 0;
	uint64_t old_stamp = 1;

	/* Old entries in every stripe but Y (stripe 0), young ones in Y. */
	for (uint64_t k = 0; k < K && placed < c.mem_high; k++) {
		unsigned st = (unsigned)stripe_of_key(h, k, S);
		unsigned want = st == y ? YOUNG : OLD;
		if (per[st] == want)
			continue;
		obj_init(&o[k], k);
		uint64_t now = st == y ? 100 + per[st] : old_stamp++;
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, now, 1), 0);
		per[st]++;
		placed++;
	}
	cr_assert_eq(placed, (unsigned)c.mem_high, "not enough keys");
	cr_assert_eq(l.nlog, 0u);
	for (uint64_t k = 0; k < K && fresh < NEW; k++) {
		if (stripe_of_key(h, k, S) != y || find(h, k) != NULL ||
		    o[k].node.state != 0)
			continue;
		obj_init(&o[k], k);
		l.nlog = 0;
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 200 + fresh,
					       1),
			     0);
		cr_assert_eq(l.nlog, 1u, "one eviction per insert");
		cr_assert_neq(stripe_of_key(h, l.log[0], S), (uint64_t)y,
			      "evicted %llu of the inserting stripe, which "
			      "holds only entries newer than the others",
			      (unsigned long long)l.log[0]);
		fresh++;
	}
	cr_assert_eq(fresh, (unsigned)NEW);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Stripes and mem_batch (0: the default) per case. */
static const struct bound_param {
	const char *name;
	unsigned stripes;
	size_t mem_batch;
} bound_params[] = {
	{ .name = "1 stripe, default batch", .stripes = 1 },
	{ .name = "8 stripes, default batch", .stripes = 8 },
	{ .name = "8 stripes, batch 64", .stripes = 8, .mem_batch = 64 },
	{ .name = "64 stripes, batch 16", .stripes = 64, .mem_batch = 16 },
};

TABLE_PARAMETERS(htab_evict, watermarks, struct bound_param, bound_params);

/*
 * Random charges: after every insert, either nothing was evicted and the
 * total grew by the charge, or the total had gone above mem_high and the
 * insert's unlock evicted the oldest entries until the total reached
 * mem_low. The checks see the total through the lag the folding allows
 * (htab.h, section 3: stripes * mem_batch; none with one stripe). With up
 * to GRAIN_HTAB_EVICT_SAMPLE stripes the eviction order is exact across
 * the table; with more, each victim is the oldest entry of its stripe.
 * Small mem_batch values put the folded total far behind the exact one.
 */
ParameterizedTest(const struct bound_param *p, htab_evict, watermarks)
{
	struct grain_htab_config c = watermarks(p->stripes, 20000, 15000);
	static struct ledger l;
	c.mem_batch = p->mem_batch;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &c);
	enum { N = 3000 };
	static struct obj o[N];
	static size_t chg[N];
	static bool gone[N];
	uint64_t rng = 0xB7E151628AED2A6BULL, oldest = 0, evicted = 0;
	size_t batch = p->mem_batch != 0 ? p->mem_batch
					 : c.mem_high / 64u / p->stripes;
	size_t lag = p->stripes == 1 ? 0 : p->stripes * (batch ? batch : 1);
	bool exact = p->stripes <= GRAIN_HTAB_EVICT_SAMPLE;

	memset(gone, 0, sizeof(gone));
	for (uint64_t k = 0; k < N; k++) {
		size_t before = grain_htab_bytes_exact(h);
		chg[k] = 1 + (size_t)(test_rand(&rng) % 1000);
		obj_init(&o[k], k);
		l.nlog = 0;
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k + 1,
					       chg[k]),
			     0, "%s", p->name);
		size_t after = grain_htab_bytes_exact(h);
		cr_assert_leq(after, c.mem_high + chg[k] + lag, "%s: key %llu",
			      p->name, (unsigned long long)k);
		if (before + chg[k] + lag <= c.mem_high) {
			cr_assert_eq(l.nlog, 0u,
				     "%s: key %llu: evicted at %zu "
				     "bytes",
				     p->name, (unsigned long long)k,
				     before + chg[k]);
			cr_assert_eq(after, before + chg[k], "%s", p->name);
			continue;
		}
		if (l.nlog == 0) {
			cr_assert_gt(before + chg[k], c.mem_high - lag, "%s",
				     p->name);
			cr_assert_leq(before + chg[k], c.mem_high + lag,
				      "%s: key %llu: %zu bytes, no eviction",
				      p->name, (unsigned long long)k,
				      before + chg[k]);
			continue;
		}
		cr_assert_leq(after, c.mem_low + lag, "%s: key %llu", p->name,
			      (unsigned long long)k);
		qsort(l.log, l.nlog, sizeof(l.log[0]), cmp_u64);
		size_t freed = 0, most = 0;
		for (unsigned i = 0; i < l.nlog; i++) {
			uint64_t v = l.log[i];
			most = chg[v] > most ? chg[v] : most;
			if (exact)
				cr_assert_eq(
					v, oldest + i,
					"%s: key %llu: evicted %llu, not the LRU",
					p->name, (unsigned long long)k,
					(unsigned long long)v);
			cr_assert(!gone[v], "%s", p->name);
			gone[v] = true;
			freed += chg[v];
		}
		/* Stamps are k + 1: a stripe's LRU is its lowest live key. */
		for (unsigned i = 0; i < l.nlog; i++) {
			uint64_t v = l.log[i],
				 vs = stripe_of_key(h, v, p->stripes);
			for (uint64_t j = 0; j < v; j++)
				cr_assert(
					gone[j] ||
						stripe_of_key(h, j,
							      p->stripes) != vs,
					"%s: key %llu: evicted %llu before %llu "
					"of its stripe",
					p->name, (unsigned long long)k,
					(unsigned long long)v,
					(unsigned long long)j);
		}
		cr_assert_eq(after, before + chg[k] - freed, "%s", p->name);
		cr_assert_gt(after + most + lag, c.mem_low,
			     "%s: key %llu: evicted more than down to mem_low",
			     p->name, (unsigned long long)k);
		oldest += l.nlog;
		evicted += l.nlog;
	}
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.evictions, evicted, "%s", p->name);
	cr_assert_eq(st.entries, N - evicted, "%s", p->name);
	cr_assert_eq(st.bytes, grain_htab_bytes_exact(h), "%s", p->name);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_EVICTED]), evicted,
		     "%s", p->name);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* ops.unlinked calls back into the table: scoped finds, lock-free lookups,
 * statistics and a removal. */
struct reenter {
	uint64_t pinned, extra;
	struct grain_hnode *pinned_node;
	bool rcu;
	unsigned calls, bad;
	unsigned extra_removed;
};

static void reenter_unlinked(struct ledger *l, struct grain_hnode *node,
			     enum grain_htab_reason why)
{
	struct reenter *r = l->user;
	uint64_t key = obj_of(node)->key;

	r->calls++;
	if (why != GRAIN_HTAB_EVICTED)
		r->bad++;
	if (find(l->h, key) != NULL)
		r->bad++;
	if (find(l->h, r->pinned) != r->pinned_node)
		r->bad++;
	if (r->rcu) {
		grain_rcu_read_lock();
		if (grain_htab_lookup(l->h, &key) != NULL ||
		    grain_htab_lookup(l->h, &r->pinned) != r->pinned_node)
			r->bad++;
		grain_rcu_read_unlock();
	}
	struct grain_htab_stats st;
	grain_htab_stats(l->h, &st);
	if (st.entries > 10 || grain_htab_bytes_exact(l->h) > 1000)
		r->bad++;
	if (grain_htab_remove(l->h, &r->extra, NULL) == 0)
		r->extra_removed++;
}

MODE_PARAMETERS(htab_evict, unlinked_reenters);

ParameterizedTest(unsigned *mode, htab_evict, unlinked_reenters, .timeout = 30)
{
	const struct grain_htab_config c = watermarks(4, 500, 300);
	const unsigned flags = *mode;
	static struct ledger l;
	static struct reenter r;
	struct grain_htab *h = open_table(&l, flags, &c);
	enum { N = 100 };
	static struct obj o[N], pin, extra;

	r = (struct reenter){ .pinned = 1000,
			      .extra = 2000,
			      .pinned_node = &pin.node,
			      .rcu = is_rcu(flags) };
	l.h = h;
	l.user = &r;
	l.on_unlinked = reenter_unlinked;
	obj_init(&pin, r.pinned);
	cr_assert_eq(grain_htab_insert(h, &pin.node, &r.pinned, 1, 100), 0);
	uint64_t now = 2;
	for (uint64_t k = 0; k < N; k++) {
		if (k % 10 == 0) {
			obj_init(&extra, r.extra);
			cr_assert_eq(grain_htab_insert(h, &extra.node, &r.extra,
						       now++, 1),
				     0);
		}
		cr_assert_eq(touch(h, r.pinned, now++), 0,
			     "the pinned entry was evicted");
		/* extra stays young too, so that only the callback removes
		 * it; it is gone after the first eviction. */
		(void)touch(h, r.extra, now++);
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, now++, 100),
			     0);
		cr_assert_leq(grain_htab_bytes_exact(h), c.mem_high + 100);
		mode_settle(h, flags); /* extra's memory is reused */
	}
	cr_assert_gt(r.calls, 50u);
	cr_assert_eq(r.bad, 0u, "%u of %u callbacks saw a wrong table", r.bad,
		     r.calls);
	cr_assert_eq(r.extra_removed, 10u,
		     "a removal from the callback took effect");
	cr_assert_eq(stats_of(h).evictions, r.calls);
	close_table(h, flags);
}

MODE_TEST(htab_evict, charge_triggers_eviction)
{
	const struct grain_htab_config shape = watermarks(4, 1000, 600);
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[8];
	struct grain_htab_scope s;

	insert_keys(h, o, 8, 1, 1, 100);
	cr_assert_eq(l.nlog, 0u);
	uint64_t k7 = 7;
	grain_htab_lock(h, &k7, &s);
	cr_assert_eq(grain_htab_charge_locked(&s, &o[7].node, 300), 0);
	cr_assert_eq(l.nlog, 0u, "nothing is evicted under the lock");
	grain_htab_unlock(&s);
	/* 1100 bytes: the five oldest go, 600 remain. */
	cr_assert_eq(grain_htab_bytes_exact(h), 600u);
	cr_assert_eq(l.nlog, 5u);
	qsort(l.log, l.nlog, sizeof(l.log[0]), cmp_u64);
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(l.log[i], i);
	cr_assert_eq(find(h, 7), &o[7].node);
	cr_assert_eq(stats_of(h).evictions, 5u);
	/* Uncharging evicts nothing. */
	cr_assert_eq(charge(h, 7, -300), 0);
	cr_assert_eq(stats_of(h).evictions, 5u);
	cr_assert_eq(grain_htab_bytes_exact(h), 300u);
	close_table(h, *mode);
}

/* A clock may saturate at UINT64_MAX: entries stamped there must still be
 * evictable (the stripe's "oldest" must not read as "empty"). */
MODE_TEST(htab_evict, stamp_at_clock_max)
{
	const struct grain_htab_config shape = watermarks(1, 1000, 500);
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[3];

	insert_keys(h, o, 3, UINT64_MAX, 0, 400);
	/* 1200 bytes went above 1000: evicted down to at most 500. */
	cr_assert_leq(grain_htab_bytes_exact(h), 500u,
		      "entries stamped UINT64_MAX were never evicted");
	cr_assert_eq(stats_of(h).evictions, 2u);
	cr_assert_eq(l.nlog, 2u);
	close_table(h, *mode);
}

MODE_TEST(htab_evict, refuse_policy)
{
	static const struct grain_htab_config shape = {
		.stripes = 4,
		.mem_high = 1000,
		.mem_low = 500,
		.policy = GRAIN_HTAB_REFUSE,
	};
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[40];
	struct grain_hnode *found = NULL;
	uint64_t refused = 0;

	/* Ten entries make 1000 bytes, not above mem_high: the eleventh is
	 * still admitted, the twelfth is not. */
	insert_keys(h, o, 11, 0, 1, 100);
	cr_assert_eq(grain_htab_bytes_exact(h), 1100u);
	for (uint64_t k = 11; k < 20; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1),
			     -ENOSPC);
		refused++;
		cr_assert_eq(grain_htab_find_or_insert(h, &k, &o[k].node, k, 1,
						       &found),
			     -ENOSPC);
		cr_assert_null(found);
		refused++;
	}
	/* An existing key is found, not refused; present entries grow. */
	uint64_t k3 = 3;
	obj_init(&o[30], k3);
	cr_assert_eq(grain_htab_find_or_insert(h, &k3, &o[30].node, 1, 1,
					       &found),
		     -EEXIST);
	cr_assert_eq(found, &o[3].node);
	cr_assert_eq(charge(h, 3, 400), 0);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.bytes, 1500u);
	cr_assert_eq(st.entries, 11u);
	cr_assert_eq(st.evictions, 0u, "REFUSE never evicts");
	cr_assert_eq(st.refusals, refused);
	cr_assert_eq(atomic_load(&l.unlinked[GRAIN_HTAB_EVICTED]), 0u);

	/* Back at mem_high by removal and uncharge: admitted again. */
	cr_assert_eq(charge(h, 3, -400), 0);
	cr_assert_eq(grain_htab_remove(h, &k3, NULL), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), 1000u);
	uint64_t k = 11;
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 100), 0);
	k = 12;
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 100), -ENOSPC);
	refused++;
	cr_assert_eq(charge(h, 0, -100), 0);
	cr_assert_eq(charge(h, 1, -100), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), 900u);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 100), 0);
	k = 13;
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 100), 0);
	k = 14;
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 100), -ENOSPC);
	refused++;
	st = stats_of(h);
	cr_assert_eq(st.refusals, refused);
	cr_assert_eq(st.entries, 13u);
	cr_assert_eq(st.bytes, 1100u);
	close_table(h, *mode);
	for (unsigned i = 14; i < 20; i++)
		cr_assert_eq(atomic_load(&o[i].reclaims), 0u,
			     "a refused node was reclaimed");
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REFUSED]), 0u);
}

/* ----------------------------------------------------------------------
 * TTL on a fake clock
 */

MODE_TEST(htab_ttl, expire)
{
	static const struct grain_htab_config shape = { .stripes = 4,
							.ttl = 10 };
	const unsigned flags = *mode;
	static struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	static struct obj o[10];

	insert_keys(h, o, 10, 0, 1, 10);
	cr_assert_eq(grain_htab_expire(h, 9), 0u, "nothing is 10 old at 9");
	/* Stamps 0..5 are at least 10 old at 15. */
	cr_assert_eq(grain_htab_expire(h, 15), 6u);
	cr_assert_eq(l.nlog, 6u);
	qsort(l.log, l.nlog, sizeof(l.log[0]), cmp_u64);
	for (unsigned i = 0; i < 6; i++) {
		cr_assert_eq(l.log[i], i);
		cr_assert_eq(atomic_load(&o[i].unlink_why), GRAIN_HTAB_EXPIRED);
		cr_assert_null(find(h, i));
	}
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.expirations, 6u);
	cr_assert_eq(st.entries, 4u);
	cr_assert_eq(st.bytes, 40u);
	cr_assert_eq(st.evictions, 0u);

	/* Touching restarts the TTL. */
	cr_assert_eq(touch(h, 7, 14), 0);
	l.nlog = 0;
	cr_assert_eq(grain_htab_expire(h, 19), 3u, "stamps 6, 8 and 9");
	qsort(l.log, l.nlog, sizeof(l.log[0]), cmp_u64);
	cr_assert_eq(l.nlog, 3u);
	cr_assert_eq(l.log[0], 6u);
	cr_assert_eq(l.log[1], 8u);
	cr_assert_eq(l.log[2], 9u);
	cr_assert_eq(find(h, 7), &o[7].node);
	cr_assert_eq(grain_htab_expire(h, 23), 0u);
	cr_assert_eq(grain_htab_expire(h, 24), 1u);
	st = stats_of(h);
	cr_assert_eq(st.expirations, 10u);
	cr_assert_eq(st.entries, 0u);
	cr_assert_eq(grain_htab_bytes_exact(h), 0u);
	mode_settle(h, flags);
	for (unsigned k = 0; k < 10; k++) {
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u);
		cr_assert_eq(atomic_load(&o[k].reclaim_why),
			     GRAIN_HTAB_EXPIRED);
	}
	close_table(h, flags);
	for (unsigned k = 0; k < 10; k++)
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u);
}

MODE_TEST(htab_ttl, inserts_expire_old_entries)
{
	static const struct grain_htab_config shape = { .stripes = 1,
							.ttl = 10 };
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[10];

	insert_keys(h, o, 5, 0, 0, 1);
	/* Young enough at 9: no insert expires anything. */
	uint64_t k = 5;
	obj_init(&o[k], k);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 9, 1), 0);
	cr_assert_eq(l.nlog, 0u);
	k = 6;
	obj_init(&o[k], k);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 50, 1), 0);
	cr_assert_geq(l.nlog, 1u, "an insert at 50 expired nothing");
	for (k = 7; k < 10; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 50, 1), 0);
	}
	cr_assert_geq(l.nlog, 4u, "four inserts, fewer expiries");
	cr_assert_leq(l.nlog, 6u);
	for (unsigned i = 0; i < l.nlog; i++) {
		cr_assert_leq(l.log[i], 5u, "expired a young entry");
		cr_assert_eq(atomic_load(&o[l.log[i]].unlink_why),
			     GRAIN_HTAB_EXPIRED);
	}
	for (k = 6; k < 10; k++)
		cr_assert_eq(find(h, k), &o[k].node);
	cr_assert_eq(stats_of(h).expirations, l.nlog);
	cr_assert_eq(stats_of(h).entries, 10u - l.nlog);
	close_table(h, *mode);
}

/* ----------------------------------------------------------------------
 * Chain limit
 */

MODE_PARAMETERS(htab_chain, limit);

ParameterizedTest(unsigned *mode, htab_chain, limit, .timeout = 60)
{
	static const struct grain_htab_config shape = {
		.ops.hash = hash_const,
		.stripes = 1,
		.max_chain = 8,
		.max_load = 1u << 20,
	};
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[40];
	struct grain_hnode *found = (struct grain_hnode *)(uintptr_t)8;

	insert_keys(h, o, 8, 0, 1, 1);
	uint64_t buckets = stats_of(h).buckets;
	for (uint64_t k = 8; k < 20; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1),
			     -EMLINK, "key %llu", (unsigned long long)k);
	}
	uint64_t k20 = 20, k3 = 3;
	obj_init(&o[20], k20);
	obj_init(&o[21], k3);
	cr_assert_eq(grain_htab_find_or_insert(h, &k20, &o[20].node, 1, 1,
					       &found),
		     -EMLINK);
	cr_assert_null(found);
	cr_assert_eq(grain_htab_find_or_insert(h, &k3, &o[21].node, 1, 1,
					       &found),
		     -EEXIST, "a full chain still finds its keys");
	cr_assert_eq(found, &o[3].node);

	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.chain_refusals, 13u);
	cr_assert_leq(st.longest_chain, 8u);
	cr_assert_geq(st.longest_chain, 7u);
	cr_assert_eq(st.entries, 8u);
	cr_assert_eq(st.bytes, 8u);
	cr_assert_eq(st.refusals, 0u, "-EMLINK is not a memory refusal");
	cr_assert_gt(st.buckets, buckets, "a refusal grows the stripe");
	cr_assert_leq(st.buckets, 4u * 8u,
		      "colliding keys made the stripe grow past four buckets "
		      "per entry");
	check_found(h, o, 8, *mode);
	for (uint64_t k = 8; k < 20; k++)
		cr_assert_null(find(h, k));

	/* Room again after a removal. */
	cr_assert_eq(grain_htab_remove(h, &k3, NULL), 0);
	uint64_t k = 8;
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1), 0);
	k = 9;
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1), -EMLINK);
	cr_assert_leq(stats_of(h).longest_chain, 8u);
	close_table(h, *mode);
	for (unsigned i = 9; i < 20; i++)
		cr_assert_eq(atomic_load(&o[i].reclaims), 0u);
}

/* An insert whose chain needs an overflow bucket when the stripe has none
 * left rebuilds the stripe's array at its size and then links. Here the
 * rebuild's first guess at the reserve fits the entries already present
 * exactly (eight chains of seven, eight of six, in 16 buckets): the
 * rebuild must still leave room for the insert that asked for it, or that
 * insert would rebuild again forever. */
MODE_PARAMETERS(htab_chain, rebuild_leaves_room);

/* One stripe of 16 buckets that never grows (rebuilds keep its size),
 * keyed by the identity hash (bucket: the low bits; signature: bits
 * 32..47), so that a test places each key in the bucket and signature it
 * wants. */
static const struct grain_htab_config chain_shape = {
	.ops.hash = hash_ident,
	.stripes = 1,
	.buckets = 16,
	.max_load = 1u << 20,
};

ParameterizedTest(unsigned *mode, htab_chain, rebuild_leaves_room,
		  .timeout = 30)
{
	struct grain_htab_config shape = chain_shape;
	static struct ledger l;
	shape.max_chain = 1u << 20;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[16 * 8];
	unsigned n = 0;
	/* Key j of bucket b, the j-th to go there. */
#define CHAIN_KEY(b, j) ((uint64_t)(b) | (uint64_t)((j) + 1) << 32)
	for (unsigned j = 0; j < 7; j++)
		for (unsigned b = 0; b < 16; b++) {
			if (j == 6 && b >= 8)
				break;
			uint64_t k = CHAIN_KEY(b, j);
			obj_init(&o[n], k);
			cr_assert_eq(grain_htab_insert(h, &o[n].node, &k, 1, 1),
				     0, "bucket %u, key %u", b, j);
			n++;
		}
	/* Bucket 8 holds six: the seventh needs an overflow bucket. */
	uint64_t k = CHAIN_KEY(8, 6);
	obj_init(&o[n], k);
	cr_assert_eq(grain_htab_insert(h, &o[n].node, &k, 1, 1), 0);
	n++;
#undef CHAIN_KEY
	cr_assert_eq(stats_of(h).entries, n);
	for (unsigned i = 0; i < n; i++)
		cr_assert_eq(find(h, o[i].key), &o[i].node, "entry %u", i);
	close_table(h, *mode);
}

/* Keys that share a bucket and a signature: every slot of the home
 * bucket and of its overflow bucket is a candidate for every search, so
 * a search must pass the unequal ones in each bucket, from any slot, and
 * follow the chain; a key with the same signature that is absent is not
 * found, and slots that removes empty stay candidates that hold nothing.
 * Locked and (RCU tables) lock-free searches alike. */
MODE_PARAMETERS(htab_chain, shared_signature);

static struct grain_hnode *find_any(struct grain_htab *h, unsigned flags,
				    uint64_t key)
{
	struct grain_hnode *n = find(h, key);

	if ((flags & GRAIN_HTAB_NO_RCU) == 0) {
		grain_rcu_read_lock();
		cr_assert_eq(grain_htab_lookup(h, &key), n, "key %#llx",
			     (unsigned long long)key);
		grain_rcu_read_unlock();
	}
	return n;
}

ParameterizedTest(unsigned *mode, htab_chain, shared_signature)
{
	const unsigned flags = *mode;
	static struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &chain_shape);
	/* Bucket 5, signature 0xbeef; j in bits 16..31 tells the keys
	 * apart. Ten: six in the home bucket, four in an overflow one. */
#define SIG_KEY(j) (5u | (uint64_t)(j) << 16 | (uint64_t)0xbeef << 32)
	static struct obj o[10];
	for (unsigned j = 0; j < 10; j++) {
		obj_init(&o[j], SIG_KEY(j + 1));
		cr_assert_eq(grain_htab_insert(h, &o[j].node, &o[j].key, 1, 1),
			     0, "key %u", j);
	}
	for (unsigned j = 0; j < 10; j++)
		cr_assert_eq(find_any(h, flags, SIG_KEY(j + 1)), &o[j].node,
			     "key %u", j);
	cr_assert_null(find_any(h, flags, SIG_KEY(11)));
	cr_assert_null(find_any(h, flags, SIG_KEY(0)));
	/* Empty slots 0, 3 and 5 of the home bucket and the overflow
	 * bucket's first; the others are still found past them. */
	static const unsigned gone[] = { 0, 3, 5, 6 };
	for (unsigned i = 0; i < 4; i++) {
		uint64_t k = SIG_KEY(gone[i] + 1);
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0, "key %u",
			     gone[i]);
	}
	mode_settle(h, flags);
	for (unsigned j = 0; j < 10; j++) {
		bool removed = j == 0 || j == 3 || j == 5 || j == 6;
		cr_assert_eq(find_any(h, flags, SIG_KEY(j + 1)),
			     removed ? NULL : &o[j].node, "key %u", j);
	}
	/* A new key goes in, into an emptied slot, and is found. */
	static struct obj extra;
	obj_init(&extra, SIG_KEY(12));
	cr_assert_eq(grain_htab_insert(h, &extra.node, &extra.key, 1, 1), 0);
	cr_assert_eq(find_any(h, flags, SIG_KEY(12)), &extra.node);
	cr_assert_eq(find_any(h, flags, SIG_KEY(10)), &o[9].node);
#undef SIG_KEY
	cr_assert_eq(stats_of(h).entries, 7);
	close_table(h, flags);
}

/* ----------------------------------------------------------------------
 * Statistics
 */

MODE_TEST(htab_stats, counters)
{
	static const struct grain_htab_config shape = { .stripes = 4 };
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[100], dup;
	uint64_t bytes = 0, lookups = 0, hits = 0;

	for (uint64_t k = 0; k < 100; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, k), 0);
		bytes += k;
	}
	for (uint64_t k = 0; k < 100; k += 5) {
		obj_init(&dup, k);
		cr_assert_eq(grain_htab_insert(h, &dup.node, &k, k, 1),
			     -EEXIST);
	}
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.inserts, 100u, "-EEXIST is no insert");
	cr_assert_eq(st.entries, 100u);
	cr_assert_eq(st.bytes, bytes);

	/* Scoped finds count a lookup each (other calls may count the
	 * lookups they do too: only the difference is checked). */
	for (uint64_t k = 0; k < 150; k++) {
		cr_assert_eq(find(h, k), k < 100 ? &o[k].node : NULL);
		lookups++;
		hits += k < 100;
	}
	struct grain_htab_stats after_finds = stats_of(h);
	cr_assert_eq(after_finds.lookups - st.lookups, lookups);
	cr_assert_eq(after_finds.hits - st.hits, hits);
	for (uint64_t k = 0; k < 100; k += 4) {
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		bytes -= k;
	}
	uint64_t before_resize = stats_of(h).resizes;
	cr_assert_eq(grain_htab_resize(h, 64), 0);
	st = stats_of(h);
	cr_assert_eq(st.inserts, 100u);
	cr_assert_eq(st.entries, 75u);
	cr_assert_eq(st.bytes, bytes);
	cr_assert_eq(grain_htab_bytes_exact(h), bytes);
	cr_assert_eq(st.buckets, 4u * 64u);
	cr_assert_gt(st.resizes, before_resize);
	cr_assert_eq(st.evictions + st.expirations + st.refusals +
			     st.chain_refusals,
		     0u);
	cr_assert_geq(st.longest_chain, 1u);
	cr_assert_leq(st.longest_chain, 64u);
	close_table(h, *mode);
}

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
	int errors;	     /* _locked calls that failed */
};

enum { WALK_LOOK, WALK_ACT };

static int walk_note(struct grain_htab_scope *s, struct grain_hnode *n,
		     void *ctx)
{
	struct walk_log *w = ctx;
	struct obj *o = obj_of(n);
	uint64_t st = stripe_of_key(w->h, o->key, w->stripes);

	if (o->key < WALK_KEYS)
		w->visits[o->key]++;
	if (w->n > 0 && (st < w->last_stripe ||
			 (st == w->last_stripe && n->stamp <= w->last_stamp)))
		w->ordered = false;
	w->last_stripe = st;
	w->last_stamp = n->stamp;
	w->n++;
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
 * insertion order), on tables of 1, 16 and 64 stripes.
 */
MODE_TEST(htab_walk, every_entry_once_oldest_first)
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
		cr_assert_eq(grain_htab_walk(h, walk_note, &w), 0);
		cr_assert_eq(w.n, WALK_KEYS, "%u stripes", stripes[i]);
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
MODE_TEST(htab_walk, remove_touch_charge_in_the_callback)
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
