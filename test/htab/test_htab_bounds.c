/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_bounds.c - what bounds a grain_htab, one thread at a time:
 * explicit and automatic resizing, exact LRU eviction and the byte
 * watermarks (policies EVICT and REFUSE), TTL expiry on a fake clock, and
 * the chain limit.
 *
 * Tests that need nodes of two stripes use the identity hash, with which
 * keys 0x1 and ~0x1 differ in every high bit and so cannot share a
 * stripe.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/test_util.h"
#include "htab_cases.h"

/* ----------------------------------------------------------------------
 * Resizing
 */

TABLE_PARAMS(htab_resize, explicit_sizes, modes);
ParameterizedTest(const unsigned *mode, htab_resize, explicit_sizes)
{
	static const struct grain_htab_config shape = { .stripes = 4 };
	const unsigned flags = *mode;
	struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	static struct obj o[200];
	static const unsigned bad[] = { 0, 3, 48, 1u << 23, 1u << 25 };
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

TABLE_PARAMS(htab_resize, automatic, modes);

ParameterizedTest(const unsigned *mode, htab_resize, automatic, .timeout = 60)
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

TABLE_PARAMS(htab_resize, allocation_failure, modes);
ParameterizedTest(const unsigned *mode, htab_resize, allocation_failure)
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

/*
 * A stripe doubles when it holds more than max_load entries a bucket and
 * halves when it holds fewer than max_load / 8, never below its initial
 * size; both at the unlock of the scope that crossed the line. One stripe
 * of 16 buckets, keyed by the identity hash (key k in bucket k mod the
 * size): keys 0 .. 16 * max_load fit, one more grows the stripe to 32;
 * removals from the top shrink it back once fewer than 4 * max_load are
 * left, and no further.
 */
static const struct load_case {
	char name[16]; /* by value: a test may run in a fresh process */
	unsigned max_load;
} load_cases[] = {
	{ .name = "max_load 1", .max_load = 1 },
	{ .name = "max_load 8", .max_load = 8 },
};

TABLE_PARAMS(htab_resize, max_load, load_cases);

ParameterizedTest(const struct load_case *row, htab_resize, max_load)
{
	const struct grain_htab_config shape = { .ops.hash = hash_ident,
						 .stripes = 1,
						 .buckets = 16,
						 .max_load = row->max_load };
	struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	static struct obj o[8 * 16 + 1];
	const uint64_t fit = 16u * row->max_load;

	for (uint64_t k = 0; k <= fit; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 1), 0);
		cr_assert_eq(stats_of(h).buckets, k < fit ? 16u : 32u,
			     "%s: %llu entries", row->name,
			     (unsigned long long)k + 1);
	}
	for (uint64_t k = fit + 1; k-- > 0;) {
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
		/* k entries left. */
		cr_assert_eq(stats_of(h).buckets,
			     k < 4u * row->max_load ? 16u : 32u,
			     "%s: %llu entries", row->name,
			     (unsigned long long)k);
	}
	settle_resizes(h, GRAIN_HTAB_NO_RCU);
	cr_assert_eq(stats_of(h).buckets, 16u, "%s", row->name);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/*
 * grain_htab_expire() runs the resizes that are due (htab.h). A grow the
 * allocator refused stays due: the stripe keeps its size (a scoped find
 * does not change that), and the next expire, with memory back, grows it.
 * One stripe of 16 buckets, identity hash: 60 keys, three or four a
 * bucket, need no overflow bucket; more than 48 ask for a grow.
 */
static void check_expire_runs_due_resize(uint64_t ttl)
{
	struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	struct test_alloc_state st = { .budget = -1 };
	struct grain_alloc a = { test_alloc_fn, test_free_fn, &st };
	struct grain_htab *h = NULL;
	static struct obj o[60];

	c.ops.hash = hash_ident;
	c.stripes = 1;
	c.ttl = ttl;
	cr_assert_eq(grain_htab_create(&h, &c, &a), 0);
	st.budget = 0;
	insert_keys(h, o, 60, 1, 0, 1);
	cr_assert_gt(st.failures, 0u, "no grow was tried");
	cr_assert_eq(stats_of(h).buckets, 16u);
	st.budget = -1;
	cr_assert_eq(find(h, 59), &o[59].node);
	cr_assert_eq(stats_of(h).buckets, 16u);
	cr_assert_eq(grain_htab_expire(h, 2), 0u, "nothing is ttl old");
	cr_assert_eq(stats_of(h).buckets, 32u,
		     "ttl %llu: the due grow did not run",
		     (unsigned long long)ttl);
	check_found(h, o, 60, GRAIN_HTAB_NO_RCU);
	grain_htab_destroy(h);
	cr_assert_eq(st.live, 0);
}

Test(htab_resize, expire_runs_due_resize)
{
	check_expire_runs_due_resize(1000);
}

/* With no TTL nothing expires, and the due resizes still run. */
Test(htab_resize, expire_runs_due_resize_ttl_0)
{
	check_expire_runs_due_resize(0);
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

TABLE_PARAMS(htab_evict, lru_order, evict_params);

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

TABLE_PARAMS(htab_evict, watermarks, bound_params);

/*
 * Random charges: after every insert, either nothing was evicted and the total
 * grew by the charge, or the total had gone above mem_high and the insert's
 * unlock evicted the oldest entries until the total reached mem_low. The checks
 * see the total through the lag the folding allows (htab.h, "Bytes,
 * watermarks": stripes * mem_batch; none with one stripe). With up to
 * GRAIN_HTAB_EVICT_SAMPLE stripes the eviction order is exact across the table;
 * with more, each victim is the oldest entry of its stripe. Small mem_batch
 * values put the folded total far behind the exact one.
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
	grain_htab_get_stats(l->h, &st);
	if (st.entries > 10 || grain_htab_bytes_exact(l->h) > 1000)
		r->bad++;
	if (grain_htab_remove(l->h, &r->extra, NULL) == 0)
		r->extra_removed++;
}

TABLE_PARAMS(htab_evict, unlinked_reenters, modes);

ParameterizedTest(const unsigned *mode, htab_evict, unlinked_reenters,
		  .timeout = 30)
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

/* mem_low defaults to three quarters of mem_high: ten entries of 100
 * bytes make mem_high 1000; the eleventh evicts the four oldest, down to
 * 700, the first total at most 750. */
TABLE_PARAMS(htab_evict, default_mem_low, modes);
ParameterizedTest(const unsigned *mode, htab_evict, default_mem_low)
{
	static const struct grain_htab_config shape = { .stripes = 1,
							.mem_high = 1000 };
	static struct ledger l;
	struct grain_htab *h = open_table(&l, *mode, &shape);
	static struct obj o[11];

	insert_keys(h, o, 10, 1, 1, 100);
	cr_assert_eq(l.nlog, 0u);
	uint64_t k = 10;
	obj_init(&o[k], k);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 11, 100), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), 700u);
	cr_assert_eq(l.nlog, 4u);
	qsort(l.log, l.nlog, sizeof(l.log[0]), cmp_u64);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(l.log[i], i);
	cr_assert_eq(stats_of(h).evictions, 4u);
	close_table(h, *mode);
}

/* mem_high 0 is no limit, under either policy: entries of UINT32_MAX
 * bytes each are neither evicted nor refused. */
#if SIZE_MAX > UINT32_MAX
Test(htab_evict, no_limit)
{
	static const enum grain_htab_policy policies[] = { GRAIN_HTAB_EVICT,
							   GRAIN_HTAB_REFUSE };
	static struct obj o[8];

	for (unsigned i = 0; i < 2; i++) {
		const struct grain_htab_config shape = {
			.stripes = 1, .policy = policies[i]
		};
		struct ledger l;
		struct grain_htab *h =
			open_table(&l, GRAIN_HTAB_NO_RCU, &shape);

		insert_keys(h, o, 8, 1, 1, UINT32_MAX);
		struct grain_htab_stats st = stats_of(h);
		cr_assert_eq(st.entries, 8u, "policy %u", i);
		cr_assert_eq(st.bytes, 8u * (uint64_t)UINT32_MAX);
		cr_assert_eq(st.evictions + st.refusals, 0u, "policy %u", i);
		close_table(h, GRAIN_HTAB_NO_RCU);
	}
}
#endif

/*
 * A burst down to mem_low (htab.h, "Bytes, watermarks"): after its first 64
 * entries, which are sampled, an eviction takes the oldest entries of the
 * table, from whichever stripe holds them. 64 stripes (more than an
 * eviction samples), identity hash (key: stripe << 48 | index, stamped
 * index + 1): stripe 0 holds the 500 oldest entries, the other 63 the
 * 1500 after them, 10 bytes each, mem_high in all; one more insert asks
 * for about 1000 evictions. Every entry evicted in exact order is older
 * than every entry left, so at most 64 evicted entries may be newer than
 * the oldest one left.
 */
Test(htab_evict, burst_takes_oldest)
{
	enum { N = 2000, OLD = 500, CHARGE = 10 };
	static const struct grain_htab_config shape = {
		.ops.hash = hash_ident,
		.stripes = 64,
		.mem_high = N * CHARGE,
		.mem_low = N * CHARGE / 2,
	};
	static struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	static struct obj o[N + 1];
	static bool gone[N + 1];

	for (uint64_t i = 0; i <= N; i++) {
		uint64_t stripe = i < OLD ? 0 : 1 + i % 63;
		uint64_t k = stripe << 48 | i;
		obj_init(&o[i], k);
		cr_assert_eq(
			grain_htab_insert(h, &o[i].node, &k, i + 1, CHARGE), 0);
		if (i < N)
			cr_assert_eq(l.nlog, 0u);
	}
	size_t after = grain_htab_bytes_exact(h);
	cr_assert_leq(after, shape.mem_low);
	cr_assert_gt(after + CHARGE, shape.mem_low, "evicted past mem_low");
	cr_assert_geq(l.nlog, 900u);
	memset(gone, 0, sizeof(gone));
	for (unsigned i = 0; i < l.nlog; i++)
		gone[l.log[i] & 0xffffffffu] = true;
	uint64_t oldest_left = 0;
	while (gone[oldest_left])
		oldest_left++;
	unsigned newer = 0;
	for (unsigned i = 0; i < l.nlog; i++)
		newer += (l.log[i] & 0xffffffffu) > oldest_left;
	cr_assert_leq(newer, 64u,
		      "%u of %u evicted entries are newer than entry %llu, "
		      "still there",
		      newer, l.nlog, (unsigned long long)oldest_left);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

TABLE_PARAMS(htab_evict, charge_triggers_eviction, modes);
ParameterizedTest(const unsigned *mode, htab_evict, charge_triggers_eviction)
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
TABLE_PARAMS(htab_evict, stamp_at_clock_max, modes);
ParameterizedTest(const unsigned *mode, htab_evict, stamp_at_clock_max)
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

TABLE_PARAMS(htab_evict, refuse_policy, modes);
ParameterizedTest(const unsigned *mode, htab_evict, refuse_policy)
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

TABLE_PARAMS(htab_ttl, expire, modes);
ParameterizedTest(const unsigned *mode, htab_ttl, expire)
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

TABLE_PARAMS(htab_ttl, inserts_expire_old_entries, modes);
ParameterizedTest(const unsigned *mode, htab_ttl, inserts_expire_old_entries)
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

/*
 * Eviction expires what is ttl old (htab.h, "Bytes, watermarks"): its victims
 * that are at least ttl old at the insert's time leave as EXPIRED, the others
 * as EVICTED. Two stripes (identity hash: bit 48 picks the stripe): stripe 1
 * holds five entries stamped 1..5, stripe 0 four stamped 20..23. An insert of
 * 400 bytes into stripe 0 at 24 (nothing of stripe 0 is ttl old, so the insert
 * expires nothing itself) takes the total to 1300: the eviction down to 600
 * takes stripe 1's five, ttl old, then stripe 0's two oldest.
 */
TABLE_PARAMS(htab_ttl, eviction_expires_old_entries, modes);
ParameterizedTest(const unsigned *mode, htab_ttl, eviction_expires_old_entries)
{
	static const struct grain_htab_config shape = {
		.ops.hash = hash_ident,
		.stripes = 2,
		.ttl = 10,
		.mem_high = 1000,
		.mem_low = 600,
	};
	const unsigned flags = *mode;
	static struct ledger l;
	struct grain_htab *h = open_table(&l, flags, &shape);
	static struct obj old[5], young[4], big;
	const uint64_t s1 = (uint64_t)1 << 48;

	for (uint64_t i = 0; i < 5; i++) {
		uint64_t k = s1 | i;
		obj_init(&old[i], k);
		cr_assert_eq(grain_htab_insert(h, &old[i].node, &k, 1 + i, 100),
			     0);
	}
	for (uint64_t i = 0; i < 4; i++) {
		uint64_t k = 100 + i;
		obj_init(&young[i], k);
		cr_assert_eq(grain_htab_insert(h, &young[i].node, &k, 20 + i,
					       100),
			     0);
	}
	cr_assert_eq(l.nlog, 0u);
	uint64_t k = 200;
	obj_init(&big, k);
	cr_assert_eq(grain_htab_insert(h, &big.node, &k, 24, 400), 0);
	cr_assert_eq(grain_htab_bytes_exact(h), 600u);
	cr_assert_eq(l.nlog, 7u);
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(atomic_load(&old[i].unlink_why),
			     GRAIN_HTAB_EXPIRED, "stamp %u, ttl old at 24",
			     i + 1);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(atomic_load(&young[i].unlink_why),
			     i < 2 ? GRAIN_HTAB_EVICTED : -1, "stamp %u",
			     20 + i);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.expirations, 5u);
	cr_assert_eq(st.evictions, 2u);
	cr_assert_eq(st.entries, 3u);
	mode_settle(h, flags);
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(atomic_load(&old[i].reclaim_why),
			     GRAIN_HTAB_EXPIRED);
	close_table(h, flags);
}

/*
 * ops.unlinked of an expired entry runs with no table lock held (htab.h, "Node
 * life cycle"), so it may call into the table, into the entry's own stripe too:
 * here a scoped find of its key (gone by then) and an insert of a new key
 * stamped at the time of the call. One stripe, ttl 10. First
 * grain_htab_expire(15) takes keys 0..4 (stamped 1..5), whose callbacks insert
 * five keys stamped 15; then an insert at 40 expires some of those, whose
 * callbacks' inserts expire the rest: one new key per expiry, so six entries
 * are left.
 */
struct ttl_reenter {
	struct grain_htab *h;
	uint64_t now; /* the stamp of the keys the callback inserts */
	unsigned calls, bad;
	struct obj extra[16];
};

static void ttl_reenter_unlinked(struct ledger *l, struct grain_hnode *node,
				 enum grain_htab_reason why)
{
	struct ttl_reenter *r = l->user;
	uint64_t key = obj_of(node)->key;

	if (why != GRAIN_HTAB_EXPIRED || find(r->h, key) != NULL ||
	    r->calls == 16) {
		r->bad++;
		return;
	}
	struct obj *x = &r->extra[r->calls];
	uint64_t k = 1000 + r->calls++;
	obj_init(x, k);
	if (grain_htab_insert(r->h, &x->node, &k, r->now, 1) != 0)
		r->bad++;
}

TABLE_PARAMS(htab_ttl, unlinked_reenters, modes);

ParameterizedTest(const unsigned *mode, htab_ttl, unlinked_reenters,
		  .timeout = 30)
{
	static const struct grain_htab_config shape = { .stripes = 1,
							.ttl = 10 };
	const unsigned flags = *mode;
	static struct ledger l;
	static struct ttl_reenter r;
	struct grain_htab *h = open_table(&l, flags, &shape);
	static struct obj o[6];

	memset(&r, 0, sizeof(r));
	r.h = h;
	l.user = &r;
	l.on_unlinked = ttl_reenter_unlinked;
	insert_keys(h, o, 5, 1, 1, 1);
	r.now = 15;
	cr_assert_eq(grain_htab_expire(h, 15), 5u);
	cr_assert_eq(r.calls, 5u);
	cr_assert_eq(r.bad, 0u);
	for (uint64_t k = 1000; k < 1005; k++)
		cr_assert_eq(find(h, k), &r.extra[k - 1000].node);
	cr_assert_eq(stats_of(h).entries, 5u);

	r.now = 40;
	uint64_t k = 5;
	obj_init(&o[5], k);
	cr_assert_eq(grain_htab_insert(h, &o[5].node, &k, 40, 1), 0);
	cr_assert_eq(r.bad, 0u);
	cr_assert_eq(r.calls, 10u, "%u expiries", r.calls);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.expirations, r.calls);
	cr_assert_eq(st.entries, 6u);
	cr_assert_eq(find(h, k), &o[5].node);
	for (uint64_t j = 1005; j < 1010; j++)
		cr_assert_eq(find(h, j), &r.extra[j - 1000].node);
	close_table(h, flags);
}

/*
 * A scope that only charges has no time: the eviction its unlock runs
 * evicts (reason EVICTED), as the walk's does, whatever the stack held
 * where the scope lives. ttl 10; keys 0..7 stamped 1..8, none ttl old at
 * the latest time the table was given; the charge takes the total to
 * 1100 and the unlock evicts the five oldest, down to 600. A touch in
 * the scope gives it the time: at 100 the same five leave as EXPIRED.
 */
static void charge_evicts_five(uint64_t touch_at, enum grain_htab_reason why)
{
	static const struct grain_htab_config shape = {
		.stripes = 1, .ttl = 10, .mem_high = 1000, .mem_low = 600
	};
	static struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	static struct obj o[8];
	struct grain_htab_scope s;
	uint64_t k7 = 7;

	memset(o, 0, sizeof(o));
	insert_keys(h, o, 8, 1, 1, 100);
	memset(&s, 0xff, sizeof(s));
	grain_htab_lock(h, &k7, &s);
	if (touch_at != 0)
		cr_assert_eq(grain_htab_touch_locked(&s, &o[7].node, touch_at),
			     0);
	cr_assert_eq(grain_htab_charge_locked(&s, &o[7].node, 300), 0);
	grain_htab_unlock(&s);
	cr_assert_eq(grain_htab_bytes_exact(h), 600u);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.evictions, why == GRAIN_HTAB_EVICTED ? 5u : 0u);
	cr_assert_eq(st.expirations, why == GRAIN_HTAB_EXPIRED ? 5u : 0u);
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(atomic_load(&o[i].unlink_why), why, "key %u", i);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

Test(htab_ttl, charge_eviction_is_not_expiry)
{
	charge_evicts_five(0, GRAIN_HTAB_EVICTED);
}

Test(htab_ttl, touch_gives_eviction_the_time)
{
	charge_evicts_five(100, GRAIN_HTAB_EXPIRED);
}

/* ----------------------------------------------------------------------
 * Chain limit
 */

TABLE_PARAMS(htab_chain, limit, modes);

ParameterizedTest(const unsigned *mode, htab_chain, limit, .timeout = 60)
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

/* max_chain defaults to 64: every key on one chain, 64 go in, the 65th
 * is refused. */
Test(htab_chain, default_limit)
{
	static const struct grain_htab_config shape = {
		.ops.hash = hash_const,
		.stripes = 1,
		.max_load = 1u << 20,
	};
	static struct ledger l;
	struct grain_htab *h = open_table(&l, GRAIN_HTAB_NO_RCU, &shape);
	static struct obj o[65];

	insert_keys(h, o, 64, 0, 1, 1);
	uint64_t k = 64;
	obj_init(&o[k], k);
	cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k, 1), -EMLINK);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(st.entries, 64u);
	cr_assert_eq(st.chain_refusals, 1u);
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* An insert whose chain needs an overflow bucket when the stripe has none
 * left rebuilds the stripe's array at its size and then links. Here the
 * rebuild's first guess at the reserve fits the entries already present
 * exactly (eight chains of seven, eight of six, in 16 buckets): the
 * rebuild must still leave room for the insert that asked for it, or that
 * insert would rebuild again forever. */
TABLE_PARAMS(htab_chain, rebuild_leaves_room, modes);

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

ParameterizedTest(const unsigned *mode, htab_chain, rebuild_leaves_room,
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
TABLE_PARAMS(htab_chain, shared_signature, modes);

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

ParameterizedTest(const unsigned *mode, htab_chain, shared_signature)
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
