/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_basic.c - grain_htab and grain/hash.h, one thread at a time:
 * SipHash reference vectors and table secrets, configuration checking,
 * every call's results and error codes, scopes, node life cycle and
 * reclaim reasons, the byte books, statistics and allocation failure.
 * The other single-threaded files: test_htab_rcu.c (lock-free lookups and
 * deferred reclaim), test_htab_bounds.c (resizing, eviction and refusal,
 * TTL, the chain limit) and test_htab_walk.c.
 *
 * Most tests run in every mode (htab_cases.h): an RCU table, a
 * GRAIN_HTAB_NO_RCU one and a GRAIN_HTAB_BATCH_RECLAIM one.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/test_util.h"
#include "htab_cases.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* README.md and htab.h promise a 40-byte node on 64-bit targets: two
 * links, the hash, the stamp, the charge and the state, no padding. */
Test(htab_layout, node_is_40_bytes_on_64_bit)
{
	cr_assert_eq(sizeof(struct grain_hnode), 2 * sizeof(void *) + 24);
	if (sizeof(void *) == 8)
		cr_assert_eq(sizeof(struct grain_hnode), 40);
	cr_assert_leq(alignof(struct grain_hnode), 8);
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

TABLE_PARAMS(htab_api, null_scope, null_scopes);

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
	grain_htab_get_stats(NULL, &st);
	cr_assert_eq(st.entries, 0u, "NULL reads as an empty table");
	cr_assert_eq(st.lookups, 0u);
	grain_htab_get_stats(h, NULL);
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

/* The scoped calls that take a node or *found, on a NULL scope, node, key
 * or found pointer: -EINVAL (with *found NULL), and nothing is linked,
 * whether the key is present or not. */
Test(htab_api, null_scoped_arguments)
{
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	struct obj o, spare;
	uint64_t k = 7, absent = 8;
	struct grain_hnode *found;
	struct grain_htab_scope s;

	obj_init(&o, k);
	cr_assert_eq(grain_htab_insert(h, &o.node, &k, 1, 10), 0);
	check_not_held(NULL, &o.node, 2, 1, -EINVAL, "NULL scope");
	found = &o.node;
	cr_assert_eq(grain_htab_find_or_insert_locked(NULL, &k, &o.node, 2, 1,
						      &found),
		     -EINVAL);
	cr_assert_null(found, "*found is NULL on error");

	const uint64_t keys[] = { k, absent };
	for (unsigned i = 0; i < 2; i++) {
		uint64_t key = keys[i];
		obj_init(&spare, key);
		grain_htab_lock(h, &key, &s);
		check_not_held(&s, NULL, 2, 1, -EINVAL, "NULL node");
		found = &o.node;
		cr_assert_eq(grain_htab_find_or_insert_locked(
				     &s, NULL, &spare.node, 2, 1, &found),
			     -EINVAL, "key %llu", (unsigned long long)key);
		cr_assert_null(found);
		found = &o.node;
		cr_assert_eq(grain_htab_find_or_insert_locked(&s, &key, NULL, 2,
							      1, &found),
			     -EINVAL, "key %llu", (unsigned long long)key);
		cr_assert_null(found);
		cr_assert_eq(grain_htab_find_or_insert_locked(
				     &s, &key, &spare.node, 2, 1, NULL),
			     -EINVAL, "key %llu", (unsigned long long)key);
		grain_htab_unlock(&s);
		cr_assert(node_is_zero(&spare.node), "key %llu",
			  (unsigned long long)key);
	}
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 1u);
	cr_assert_eq(st.inserts, 1u);
	cr_assert_eq(grain_htab_bytes_exact(h), 10u);
	cr_assert_eq(find(h, k), &o.node);
	cr_assert_null(find(h, absent));
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
	{ .name = "buckets = 1 << 23",
	  .config.buckets = 1u << 23,
	  .rc = -EINVAL },
	{ .name = "flags = 0x8u", .config.flags = 0x8u, .rc = -EINVAL },
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
	{ .name = "one stripe of 1 << 22 buckets",
	  .config = { .flags = GRAIN_HTAB_NO_RCU,
		      .stripes = 1,
		      .buckets = 1u << 22 },
	  .buckets = 1u << 22 },
	{ .name = "reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX",
	  .config = { .flags = GRAIN_HTAB_BATCH_RECLAIM,
		      .reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX },
	  .buckets = 64u * 16u },
	{ .name = "GRAIN_HTAB_EVICT_CLOCK",
	  .config = { .flags = GRAIN_HTAB_EVICT_CLOCK },
	  .buckets = 64u * 16u },
};

#undef LIMITS

TABLE_PARAMS(htab_create, configurations, config_cases);

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

TABLE_PARAMS(htab_create, allocation_failure, modes);
ParameterizedTest(const unsigned *mode, htab_create, allocation_failure)
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

TABLE_PARAMS(htab_basic, insert_find_remove, modes);
ParameterizedTest(const unsigned *mode, htab_basic, insert_find_remove)
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
	/* The entry, or on a NO_RCU table (already reclaimed) none. */
	cr_assert_eq(r, is_rcu(*mode) ? &a.node : NULL,
		     "*removed is the entry");
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

TABLE_PARAMS(htab_basic, find_or_insert, modes);
ParameterizedTest(const unsigned *mode, htab_basic, find_or_insert)
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

TABLE_PARAMS(htab_basic, other_stripe, modes);
ParameterizedTest(const unsigned *mode, htab_basic, other_stripe)
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

TABLE_PARAMS(htab_basic, other_table, modes);
ParameterizedTest(const unsigned *mode, htab_basic, other_table)
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

/* Keys of one stripe's walk, in the order visited. */
struct key_order {
	unsigned n;
	uint64_t key[16];
};

static int note_key(struct grain_htab_scope *s, struct grain_hnode *n,
		    void *ctx)
{
	struct key_order *ko = ctx;

	(void)s;
	if (ko->n < 16)
		ko->key[ko->n] = obj_of(n)->key;
	ko->n++;
	return 0;
}

/*
 * -EEXIST from every insert form changes nothing: the entry present keeps
 * its place in the LRU order (the walk's order), its stamp (it expires when
 * it would have) and its charge; the spare node is untouched, and no insert
 * or byte is counted. One stripe, ttl 10, keys 0..4 stamped 1..5; the
 * refused inserts come at 6, when nothing is ttl old.
 */
TABLE_PARAMS(htab_basic, exists_changes_nothing, modes);
ParameterizedTest(const unsigned *mode, htab_basic, exists_changes_nothing)
{
	static const struct grain_htab_config shape = { .stripes = 1,
							.ttl = 10 };
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	static struct obj o[5], spare;
	struct grain_hnode *found;
	struct grain_htab_scope s;
	uint64_t k0 = 0;

	insert_keys(h, o, 5, 1, 1, 10);
	struct grain_htab_stats before = stats_of(h);
	obj_init(&spare, k0);
	cr_assert_eq(grain_htab_insert(h, &spare.node, &k0, 6, 99), -EEXIST);
	found = NULL;
	cr_assert_eq(grain_htab_find_or_insert(h, &k0, &spare.node, 6, 99,
					       &found),
		     -EEXIST);
	cr_assert_eq(found, &o[0].node);
	grain_htab_lock(h, &k0, &s);
	cr_assert_eq(grain_htab_insert_locked(&s, &spare.node, &k0, 6, 99),
		     -EEXIST);
	found = NULL;
	cr_assert_eq(grain_htab_find_or_insert_locked(&s, &k0, &spare.node, 6,
						      99, &found),
		     -EEXIST);
	cr_assert_eq(found, &o[0].node);
	grain_htab_unlock(&s);

	cr_assert(node_is_zero(&spare.node), "the spare node was touched");
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 5u);
	cr_assert_eq(st.inserts, before.inserts);
	cr_assert_eq(st.bytes, 50u);
	cr_assert_eq(grain_htab_bytes_exact(h), 50u);
	struct key_order ko = { 0 };
	cr_assert_eq(grain_htab_walk(h, note_key, &ko), 0);
	cr_assert_eq(ko.n, 5u);
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(ko.key[i], i, "LRU position %u: key %llu", i,
			     (unsigned long long)ko.key[i]);
	/* Still stamped 1: ttl old at 11, when key 1 (stamped 2) is not. */
	cr_assert_eq(grain_htab_expire(h, 11), 1u);
	cr_assert_eq(l.nlog, 1u);
	cr_assert_eq(l.log[0], 0u);
	cr_assert_null(find(h, k0));
	cr_assert_eq(grain_htab_bytes_exact(h), 40u, "its charge was 10");
	mode_settle(h, flags);
	cr_assert_eq(atomic_load(&o[0].reclaims), 1u);
	close_table(h, flags);
	cr_assert_eq(atomic_load(&spare.reclaims), 0u, "never linked");
}

#if SIZE_MAX > UINT32_MAX
/*
 * A charge is at most UINT32_MAX bytes: an insert charged more is refused
 * (-EINVAL, the node untouched, nothing counted), one of UINT32_MAX goes
 * in; a charge_locked() that would take an entry past UINT32_MAX is
 * refused and changes nothing, one that takes it to UINT32_MAX is not.
 * mem_high is 0: no limit, so nothing is evicted.
 */
TABLE_PARAMS(htab_basic, charge_limits, modes);
ParameterizedTest(const unsigned *mode, htab_basic, charge_limits)
{
	static const struct grain_htab_config shape = { .stripes = 1 };
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	const size_t max = UINT32_MAX;
	struct obj a, b;
	uint64_t ka = 1, kb = 2;
	struct grain_hnode *found = NULL;
	struct grain_htab_scope s;

	obj_init(&a, ka);
	obj_init(&b, kb);
	cr_assert_eq(grain_htab_insert(h, &a.node, &ka, 1, max + 1), -EINVAL);
	found = &b.node;
	cr_assert_eq(grain_htab_find_or_insert(h, &ka, &a.node, 1, max + 1,
					       &found),
		     -EINVAL);
	cr_assert_null(found);
	grain_htab_lock(h, &ka, &s);
	cr_assert_eq(grain_htab_insert_locked(&s, &a.node, &ka, 1, SIZE_MAX),
		     -EINVAL);
	grain_htab_unlock(&s);
	cr_assert(node_is_zero(&a.node), "a refused node was touched");
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries + st.inserts + st.bytes, 0u);
	cr_assert_null(find(h, ka));

	cr_assert_eq(grain_htab_insert(h, &a.node, &ka, 1, max), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), max);
	cr_assert_eq(grain_htab_insert(h, &b.node, &kb, 2, 10), 0);
	cr_assert_eq(charge(h, kb, (long)(max - 9)), -EINVAL,
		     "past UINT32_MAX");
	cr_assert_eq(grain_htab_bytes_exact(h), max + 10, "nothing changed");
	cr_assert_eq(charge(h, kb, -11), -EINVAL, "the entry's charge is 10");
	cr_assert_eq(charge(h, kb, (long)(max - 10)), 0, "up to UINT32_MAX");
	cr_assert_eq(grain_htab_bytes_exact(h), 2 * max);
	cr_assert_eq(charge(h, ka, 1), -EINVAL);
	cr_assert_eq(charge(h, kb, 1), -EINVAL);
	st = stats_of(h);
	cr_assert_eq(st.bytes, 2 * max);
	cr_assert_eq(st.entries, 2u);
	cr_assert_eq(st.evictions, 0u, "mem_high 0: no limit");
	cr_assert_eq(charge(h, kb, -(long)max), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), max);
	close_table(h, flags);
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	cr_assert_eq(atomic_load(&b.reclaims), 1u);
}
#endif

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

TABLE_PARAMS(htab_basic, charges, modes);
ParameterizedTest(const unsigned *mode, htab_basic, charges)
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
 * htab.h, "Bytes, watermarks": a charge well under half a stripe's batch stays
 * in the stripe's remainder (no shared write), and one of half a batch or more
 * folds into the shared total at once. 64 stripes with mem_high 4 MiB give the
 * default batch of 1 KiB: 100-byte entries inserted and removed across the
 * stripes never reach the total; a 600-byte one does.
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

/*
 * The fold point and the default batch (htab.h, "Bytes, watermarks"; the
 * config's mem_batch): a remainder folds into the shared total once it reaches
 * half the batch, and the default batch is mem_high / 64 / stripes, at most 64
 * KiB, or 64 KiB with no mem_high. One stripe per case: an entry charged half a
 * batch less one stays in the remainder, in and out; one charged half a batch
 * folds at once, in and out, every time.
 */
static const struct fold_case {
	char name[40]; /* by value: a test may run in a fresh process */
	size_t mem_high, mem_batch, batch;
} fold_cases[] = {
	{ .name = "mem_high 64000: batch 1000",
	  .mem_high = 64000,
	  .batch = 1000 },
	{ .name = "mem_high 1 GiB: batch 64 KiB",
	  .mem_high = (size_t)1 << 30,
	  .batch = 65536 },
	{ .name = "no mem_high: batch 64 KiB", .batch = 65536 },
	{ .name = "mem_batch 300",
	  .mem_high = 64000,
	  .mem_batch = 300,
	  .batch = 300 },
};

TABLE_PARAMS(htab_basic, fold_at_half_batch, fold_cases);

ParameterizedTest(const struct fold_case *row, htab_basic, fold_at_half_batch)
{
	const struct grain_htab_config shape = { .stripes = 1,
						 .mem_high = row->mem_high,
						 .mem_batch = row->mem_batch };
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	const size_t half = row->batch / 2;
	static struct obj o;
	uint64_t k = 1;

	for (unsigned round = 0; round < 3; round++) {
		obj_init(&o, k);
		cr_assert_eq(grain_htab_insert(h, &o.node, &k, 1, half - 1), 0);
		cr_assert_eq(grain_htab_bytes_exact(h), half - 1, "%s",
			     row->name);
		cr_assert_eq(grain_htab_bytes(h), 0u, "%s: %zu bytes folded",
			     row->name, half - 1);
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		cr_assert_eq(grain_htab_bytes(h), 0u, "%s", row->name);
		obj_init(&o, k);
		cr_assert_eq(grain_htab_insert(h, &o.node, &k, 1, half), 0);
		cr_assert_eq(grain_htab_bytes(h), half,
			     "%s: round %u: %zu bytes not folded at once",
			     row->name, round, half);
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		cr_assert_eq(grain_htab_bytes(h), 0u,
			     "%s: round %u: the removal not folded at once",
			     row->name, round);
		cr_assert_eq(grain_htab_bytes_exact(h), 0u, "%s", row->name);
	}
	cr_assert_eq(stats_of(h).evictions, 0u, "%s", row->name);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

TABLE_PARAMS(htab_basic, destroy_reclaims_everything, modes);
ParameterizedTest(const unsigned *mode, htab_basic, destroy_reclaims_everything)
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
 * Statistics
 */

TABLE_PARAMS(htab_stats, counters, modes);
ParameterizedTest(const unsigned *mode, htab_stats, counters)
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

/*
 * What the lookup counters count (htab.h, grain_htab_get_stats()): the search
 * of every grain_htab_remove(), a hit when it finds the key, and every
 * grain_htab_find_locked(); never a lock-free grain_htab_lookup().
 */
TABLE_PARAMS(htab_stats, lookups_counted, modes);
ParameterizedTest(const unsigned *mode, htab_stats, lookups_counted)
{
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, NULL);
	static struct obj o[40];
	struct grain_htab_stats a, b;

	insert_keys(h, o, 40, 1, 1, 1);
	a = stats_of(h);
	for (uint64_t k = 0; k < 40; k += 2)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	for (uint64_t k = 0; k < 10; k += 2)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), -ENOENT);
	for (uint64_t k = 100; k < 105; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), -ENOENT);
	b = stats_of(h);
	cr_assert_eq(b.lookups - a.lookups, 30u, "one per remove");
	cr_assert_eq(b.hits - a.hits, 20u, "one per remove that found");

	if (is_rcu(flags)) {
		grain_rcu_read_lock();
		for (uint64_t k = 0; k < 60; k++)
			cr_assert_eq(grain_htab_lookup(h, &k),
				     k < 40 && k % 2 ? &o[k].node : NULL);
		grain_rcu_read_unlock();
		a = stats_of(h);
		cr_assert_eq(a.lookups, b.lookups, "lock-free lookups counted");
		cr_assert_eq(a.hits, b.hits);
	}

	for (uint64_t k = 0; k < 40; k++)
		cr_assert_eq(find(h, k), k % 2 ? &o[k].node : NULL);
	a = stats_of(h);
	cr_assert_eq(a.lookups - b.lookups, 40u);
	cr_assert_eq(a.hits - b.hits, 20u);

	/* Resizes count stripe arrays rebuilt: 64 stripes of 16 buckets
	 * resized to 64 each, then to the size they have. */
	cr_assert_eq(grain_htab_resize(h, 64), 0);
	b = stats_of(h);
	cr_assert_eq(b.resizes - a.resizes, 64u);
	cr_assert_eq(grain_htab_resize(h, 64), 0);
	cr_assert_eq(stats_of(h).resizes, b.resizes);
	cr_assert_eq(b.inserts, 40u);
	close_table(h, flags);
}

/* The longest chain is the most entries an insert has passed: with every
 * key on one chain, the n-th insert passes n - 1. Removals do not lower
 * it. */
TABLE_PARAMS(htab_stats, longest_chain, modes);
ParameterizedTest(const unsigned *mode, htab_stats, longest_chain)
{
	static const struct grain_htab_config shape = {
		.ops.hash = hash_const,
		.stripes = 1,
		.max_load = 1u << 20,
	};
	struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[20];

	for (uint64_t k = 0; k < 20; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 1), 0);
		cr_assert_eq(stats_of(h).longest_chain, k, "after %llu inserts",
			     (unsigned long long)k + 1);
	}
	for (uint64_t k = 0; k < 20; k += 2)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	cr_assert_eq(stats_of(h).longest_chain, 19u);
	cr_assert_eq(stats_of(h).chain_refusals, 0u);
	close_table(h, *mode);
}

/* madvise(2) as a kernel without transparent huge pages answers it:
 * MADV_HUGEPAGE fails with EINVAL. Every other advice goes through. */
static _Atomic(unsigned) hugepage_refusals;

int madvise(void *addr, size_t len, int advice)
{
	if (advice == MADV_HUGEPAGE) {
		atomic_fetch_add(&hugepage_refusals, 1);
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_madvise, addr, len, advice);
}

/*
 * No grain call sets errno (common.h, "Error convention"). A table whose arrays
 * come to 2 MiB or more is mapped on its own and offered huge pages, a
 * hint that madvise(2) may refuse with an error; the same for a grow.
 */
Test(htab_basic, mapped_arrays_leave_errno_alone)
{
	static const struct grain_htab_config shape = { .buckets = 1u << 16,
							.stripes = 1,
							.max_load = 1 };
	struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c =
		shaped_config(&l, GRAIN_HTAB_NO_RCU, &shape);

	errno = 12345;
	struct grain_htab *h = make(&c);
	cr_assert_eq(errno, 12345, "create set errno to %d", errno);
	cr_assert_eq(grain_htab_resize(h, 1u << 17), 0);
	cr_assert_eq(errno, 12345, "resize set errno to %d", errno);
	cr_assert_geq(atomic_load(&hugepage_refusals), 2u,
		      "the arrays were not offered huge pages");
	cr_assert_eq(stats_of(h).buckets, 1u << 17);
	grain_htab_destroy(h);
	cr_assert_eq(errno, 12345, "destroy set errno to %d", errno);
}
