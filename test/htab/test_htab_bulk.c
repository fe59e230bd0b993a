/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_bulk.c - grain_htab_lookup_bulk(), grain_htab_lookup_with_hash()
 * and their _fast forms.
 *
 * One thread: every burst gives what single lookups of its keys give
 * (found and not found, repeated keys, NULL keys, a chain with overflow
 * buckets), the hit mask and the count agree with the nodes, and the
 * argument errors (n 0, n above the maximum, NULL pointers, a NO_RCU
 * table) are as htab.h says. Then the torture case, on every liburcu
 * flavour the table supports: readers look up bursts of keys with that
 * flavour's read side while writers insert and remove other keys and a
 * resizer changes the arrays' size; every key present throughout is
 * found in every burst, every key found is the key looked up, and every
 * node removed is reclaimed exactly once.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdlib.h>

#include "../common/test_table.h"
#include "../common/test_util.h"
#include "flavors/flavor.h"
#include "htab_cases.h"

static const struct grain_htab_params obj_params = { hash_sip, obj_eq };
static const struct grain_htab_params const_params = { hash_const, obj_eq };

static unsigned bits(uint64_t m)
{
	return (unsigned)__builtin_popcountll(m);
}

/* Look up keys[0..n-1] in bulk, generic and _fast forms (@fast: which
 * params), and check each against a single lookup, the mask and the
 * count. In a read-side section of the memb flavour. */
static void check_burst(struct grain_htab *h, const uint64_t *k, unsigned n,
			const struct grain_htab_params *fast)
{
	const void *keys[GRAIN_HTAB_LOOKUP_BULK_MAX];
	struct grain_hnode *a[GRAIN_HTAB_LOOKUP_BULK_MAX];
	struct grain_hnode *b[GRAIN_HTAB_LOOKUP_BULK_MAX];
	uint64_t ma = ~0ull, mb = ~0ull;

	for (unsigned i = 0; i < n; i++)
		keys[i] = &k[i];
	grain_rcu_read_lock();
	int ra = grain_htab_lookup_bulk(h, keys, n, a, &ma);
	int rb = grain_htab_lookup_bulk_fast(h, keys, n, b, &mb, *fast);
	unsigned want = 0;
	for (unsigned i = 0; i < n; i++) {
		struct grain_hnode *one = grain_htab_lookup(h, &k[i]);
		uint64_t hash = grain_htab_hash(h, &k[i]);
		cr_assert_eq(a[i], one, "key %llu (slot %u of %u)",
			     (unsigned long long)k[i], i, n);
		cr_assert_eq(b[i], one, "key %llu, _fast",
			     (unsigned long long)k[i]);
		cr_assert_eq(grain_htab_lookup_with_hash(h, &k[i], hash), one);
		cr_assert_eq(grain_htab_lookup_with_hash_fast(h, &k[i], hash,
							      *fast),
			     one);
		if (one != NULL)
			cr_assert_eq(obj_of(one)->key, k[i]);
		cr_assert_eq((ma >> i) & 1u, (uint64_t)(one != NULL));
		want += one != NULL;
	}
	grain_rcu_read_unlock();
	cr_assert_eq(ra, (int)want);
	cr_assert_eq(rb, (int)want);
	cr_assert_eq(ma, mb);
	cr_assert_eq(bits(ma), want);
	if (n < 64)
		cr_assert_eq(ma >> n, 0u, "no bit beyond the burst");
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Random bursts of every size from 0 to the maximum over a table that
 * holds the even keys of 0..1999: hits, misses and repeats. */
static void bulk_matches_single(unsigned flags)
{
	struct ledger l;
	static struct obj o[1000];
	struct grain_htab_config shape = { .stripes = 4, .buckets = 2 };
	struct grain_htab *h = open_table(&l, flags, &shape);
	uint64_t x = 88172645463325252ull;
	uint64_t k[GRAIN_HTAB_LOOKUP_BULK_MAX];

	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t key = 2 * i;
		obj_init(&o[i], key);
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &key, 0, 1), 0);
	}
	for (unsigned round = 0; round < 40; round++) {
		for (unsigned n = 0; n <= GRAIN_HTAB_LOOKUP_BULK_MAX; n++) {
			for (unsigned i = 0; i < n; i++)
				k[i] = next_rand(&x) % 2000u;
			check_burst(h, k, n, &obj_params);
		}
	}
	/* Every key at once, in bursts of the maximum. */
	for (uint64_t base = 0; base < 2000;
	     base += GRAIN_HTAB_LOOKUP_BULK_MAX) {
		unsigned n = 0;
		for (; n < GRAIN_HTAB_LOOKUP_BULK_MAX && base + n < 2000; n++)
			k[n] = base + n;
		check_burst(h, k, n, &obj_params);
	}
	close_table(h, flags);
}

Test(htab_bulk, matches_single_lookups)
{
	bulk_matches_single(0);
}

Test(htab_bulk, matches_single_lookups_batch_reclaim)
{
	bulk_matches_single(GRAIN_HTAB_BATCH_RECLAIM);
}

/* One chain: every key has the same hash, so the keys fill the home
 * bucket and overflow buckets after it; the burst walks them all. */
Test(htab_bulk, one_chain_with_overflow)
{
	struct ledger l;
	static struct obj o[40];
	struct grain_htab_config shape = { .stripes = 1,
					   .buckets = 1,
					   .ops.hash = hash_const };
	struct grain_htab *h = open_table(&l, 0, &shape);
	uint64_t k[GRAIN_HTAB_LOOKUP_BULK_MAX];

	insert_keys(h, o, 40, 0, 0, 1);
	for (unsigned i = 0; i < GRAIN_HTAB_LOOKUP_BULK_MAX; i++)
		k[i] = (i * 7u) % 50u; /* 0..39 present, 40..49 not */
	check_burst(h, k, GRAIN_HTAB_LOOKUP_BULK_MAX, &const_params);
	close_table(h, 0);
}

/* Repeated keys: each copy is looked up on its own, each gets the node. */
Test(htab_bulk, repeated_keys)
{
	struct ledger l;
	static struct obj o[4];
	struct grain_htab *h = open_table(&l, 0, NULL);
	uint64_t k[32];

	insert_keys(h, o, 4, 0, 0, 1);
	for (unsigned i = 0; i < 32; i++)
		k[i] = i % 2 ? 3 : 9; /* 3 present, 9 absent */
	check_burst(h, k, 32, &obj_params);
	const void *keys[32];
	struct grain_hnode *nodes[32];
	uint64_t hits;
	for (unsigned i = 0; i < 32; i++)
		keys[i] = &k[i];
	grain_rcu_read_lock();
	cr_assert_eq(grain_htab_lookup_bulk(h, keys, 32, nodes, &hits), 16);
	grain_rcu_read_unlock();
	cr_assert_eq(hits, 0xaaaaaaaaull);
	for (unsigned i = 1; i < 32; i += 2)
		cr_assert_eq(nodes[i], &o[3].node);
	close_table(h, 0);
}

/* n 0, n above the maximum, NULL arguments, NULL keys, a NO_RCU table. */
Test(htab_bulk, arguments)
{
	struct ledger l;
	static struct obj o[2];
	struct grain_htab *h = open_table(&l, 0, NULL);
	uint64_t k[GRAIN_HTAB_LOOKUP_BULK_MAX + 1] = { 0 };
	const void *keys[GRAIN_HTAB_LOOKUP_BULK_MAX + 1];
	struct grain_hnode *nodes[GRAIN_HTAB_LOOKUP_BULK_MAX + 1];
	uint64_t hits;

	insert_keys(h, o, 2, 0, 0, 1);
	for (unsigned i = 0; i <= GRAIN_HTAB_LOOKUP_BULK_MAX; i++) {
		k[i] = i % 2;
		keys[i] = &k[i];
	}
	grain_rcu_read_lock();
	/* n 0: nothing to do, whatever the arrays. */
	hits = 5;
	cr_assert_eq(grain_htab_lookup_bulk(h, keys, 0, nodes, &hits), 0);
	cr_assert_eq(hits, 0u);
	cr_assert_eq(grain_htab_lookup_bulk(h, NULL, 0, NULL, NULL), 0);
	cr_assert_eq(grain_htab_lookup_bulk_fast(h, NULL, 0, NULL, NULL,
						 obj_params),
		     0);
	/* Above the maximum: refused, nodes untouched past the maximum. */
	hits = 5;
	nodes[0] = &o[0].node;
	cr_assert_eq(grain_htab_lookup_bulk(h, keys,
					    GRAIN_HTAB_LOOKUP_BULK_MAX + 1,
					    nodes, &hits),
		     -EINVAL);
	cr_assert_eq(hits, 0u);
	cr_assert_eq(grain_htab_lookup_bulk_fast(h, keys, UINT32_MAX, nodes,
						 NULL, obj_params),
		     -EINVAL);
	/* Exactly the maximum is fine. */
	cr_assert_eq(grain_htab_lookup_bulk(h, keys, GRAIN_HTAB_LOOKUP_BULK_MAX,
					    nodes, &hits),
		     (int)GRAIN_HTAB_LOOKUP_BULK_MAX);
	cr_assert_eq(hits, ~0ull);
	/* NULL table, keys, nodes: -EINVAL, nodes NULLed where given. */
	nodes[0] = nodes[1] = &o[0].node;
	hits = 5;
	cr_assert_eq(grain_htab_lookup_bulk(NULL, keys, 2, nodes, &hits),
		     -EINVAL);
	cr_assert_null(nodes[0]);
	cr_assert_null(nodes[1]);
	cr_assert_eq(hits, 0u);
	nodes[0] = &o[0].node;
	cr_assert_eq(grain_htab_lookup_bulk(h, NULL, 2, nodes, NULL), -EINVAL);
	cr_assert_null(nodes[0]);
	cr_assert_eq(grain_htab_lookup_bulk(h, keys, 2, NULL, &hits), -EINVAL);
	cr_assert_eq(grain_htab_lookup_bulk_fast(NULL, keys, 2, nodes, &hits,
						 obj_params),
		     -EINVAL);
	/* A NULL key is a miss; the others are looked up. */
	keys[0] = NULL;
	cr_assert_eq(grain_htab_lookup_bulk(h, keys, 3, nodes, &hits), 2);
	cr_assert_null(nodes[0]);
	cr_assert_eq(nodes[1], &o[1].node);
	cr_assert_eq(nodes[2], &o[0].node);
	cr_assert_eq(hits, 6u);
	/* With a hash: NULL table or key, a wrong hash (a miss, no harm). */
	uint64_t one = 1;
	uint64_t hash = grain_htab_hash(h, &one);
	cr_assert_eq(grain_htab_lookup_with_hash(h, &one, hash), &o[1].node);
	cr_assert_null(grain_htab_lookup_with_hash(NULL, &one, hash));
	cr_assert_null(grain_htab_lookup_with_hash(h, NULL, hash));
	cr_assert_null(
		grain_htab_lookup_with_hash_fast(NULL, &one, hash, obj_params));
	cr_assert_null(grain_htab_lookup_with_hash(h, &one, ~hash));
	grain_rcu_read_unlock();
	close_table(h, 0);

	/* NO_RCU: no lock-free readers, so no lock-free lookups. */
	h = open_table(&l, GRAIN_HTAB_NO_RCU, NULL);
	insert_keys(h, o, 2, 0, 0, 1);
	keys[0] = &k[0];
	nodes[0] = &o[0].node;
	cr_assert_eq(grain_htab_lookup_bulk(h, keys, 1, nodes, &hits), -EINVAL);
	cr_assert_null(nodes[0]);
	cr_assert_null(
		grain_htab_lookup_with_hash(h, &one, grain_htab_hash(h, &one)));
	close_table(h, GRAIN_HTAB_NO_RCU);
}

/* ----------------------------------------------------------------------
 * Bursts against writers and a resizer, on every flavour
 */

#define B_STABLE 256u /* keys 0..255: present throughout */
#define B_CHURN 256u  /* keys 256..511: inserted and removed */
#define B_ABSENT 64u  /* keys 512..575: never inserted */
#define B_WRITERS 2u
#define B_READERS 2u
#define B_PER_WRITER 20000u

struct bobj {
	struct grain_hnode node;
	uint64_t key;
	_Atomic(unsigned) reclaims;
	_Atomic(int) why;
};

static struct bobj *bobj_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct bobj, node);
}

static bool bobj_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return bobj_of(n)->key == *(const uint64_t *)key;
}

static const struct grain_htab_params bobj_params = { hash_sip, bobj_eq };

struct btort {
	const struct test_flavor *f;
	struct grain_htab *h;
	struct bobj *pool;
	_Atomic(int) stop;
	_Atomic(unsigned) writers_left;
	_Atomic(unsigned long) reclaimed[REASONS];
	_Atomic(unsigned long) keys_looked, bursts, misses, wrong, counts;
	_Atomic(unsigned long) inserted, removed, resize_errors;
};

static void bobj_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			 void *ctx)
{
	struct btort *t = ctx;
	struct bobj *o = bobj_of(n);

	atomic_fetch_add(&o->reclaims, 1u);
	atomic_store(&o->why, (int)why);
	if ((unsigned)why < REASONS)
		atomic_fetch_add(&t->reclaimed[why], 1ul);
}

static void bobj_fill(struct bobj *o, uint64_t key)
{
	memset(o, 0, sizeof(*o));
	o->key = key;
	atomic_init(&o->reclaims, 0u);
	atomic_init(&o->why, -1);
}

struct bworker {
	struct btort *t;
	unsigned id;
};

static void *bulk_reader(void *arg)
{
	struct bworker *w = arg;
	struct btort *t = w->t;
	const struct test_flavor *f = t->f;
	uint64_t x = 0x9e3779b97f4a7c15ull * (w->id + 1);
	uint64_t k[GRAIN_HTAB_LOOKUP_BULK_MAX];
	const void *keys[GRAIN_HTAB_LOOKUP_BULK_MAX];
	struct grain_hnode *nodes[GRAIN_HTAB_LOOKUP_BULK_MAX];
	unsigned long looked = 0, bursts = 0, misses = 0, wrong = 0;
	unsigned long counts = 0;

	for (unsigned i = 0; i < GRAIN_HTAB_LOOKUP_BULK_MAX; i++)
		keys[i] = &k[i];
	f->register_thread();
	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		unsigned n = 1u + (unsigned)(next_rand(&x) %
					     GRAIN_HTAB_LOOKUP_BULK_MAX);
		for (unsigned i = 0; i < n; i++)
			k[i] = next_rand(&x) % (B_STABLE + B_CHURN + B_ABSENT);
		if (n > 2)
			k[n - 1] = k[0]; /* a repeat in most bursts */
		uint64_t hits = 0;
		f->read_lock();
		int rc = bursts % 2 ? grain_htab_lookup_bulk(t->h, keys, n,
							     nodes, &hits)
				    : grain_htab_lookup_bulk_fast(t->h, keys, n,
								  nodes, &hits,
								  bobj_params);
		for (unsigned i = 0; i < n; i++) {
			if (nodes[i] == NULL) {
				misses += k[i] < B_STABLE;
			} else {
				wrong += bobj_of(nodes[i])->key != k[i] ||
					 k[i] >= B_STABLE + B_CHURN;
			}
			wrong += ((hits >> i) & 1u) != (nodes[i] != NULL);
		}
		/* One stable key with its hash, as a caller that has it. */
		uint64_t s = k[0] % B_STABLE;
		struct grain_hnode *one = grain_htab_lookup_with_hash_fast(
			t->h, &s, grain_htab_hash(t->h, &s), bobj_params);
		f->read_unlock();
		misses += one == NULL;
		wrong += one != NULL && bobj_of(one)->key != s;
		counts += rc != (int)bits(hits);
		looked += n + 1;
		bursts++;
		f->quiescent();
	}
	f->unregister_thread();
	atomic_fetch_add(&t->keys_looked, looked);
	atomic_fetch_add(&t->bursts, bursts);
	atomic_fetch_add(&t->misses, misses);
	atomic_fetch_add(&t->wrong, wrong);
	atomic_fetch_add(&t->counts, counts);
	return NULL;
}

/* Insert a churn key with a fresh node of the writer's own, then remove
 * another churn key: the removed nodes go to reclaim. */
static void *bulk_writer(void *arg)
{
	struct bworker *w = arg;
	struct btort *t = w->t;
	const struct test_flavor *f = t->f;
	uint64_t x = 0x2545f4914f6cdd1dull * (w->id + 1);
	unsigned long ins = 0, rem = 0;

	f->register_thread();
	for (unsigned j = 0; j < B_PER_WRITER; j++) {
		uint64_t k = B_STABLE + next_rand(&x) % B_CHURN;
		struct bobj *o = &t->pool[B_STABLE + w->id * B_PER_WRITER + j];
		bobj_fill(o, k);
		ins += grain_htab_insert(t->h, &o->node, &k, 0, 1) == 0;
		k = B_STABLE + next_rand(&x) % B_CHURN;
		rem += grain_htab_remove(t->h, &k, NULL) == 0;
		f->quiescent();
	}
	f->unregister_thread();
	atomic_fetch_add(&t->inserted, ins);
	atomic_fetch_add(&t->removed, rem);
	atomic_fetch_sub(&t->writers_left, 1u);
	return NULL;
}

static void *bulk_resizer(void *arg)
{
	struct btort *t = arg;
	const struct test_flavor *f = t->f;
	unsigned i = 0;

	f->register_thread();
	while (atomic_load(&t->writers_left) != 0) {
		if (grain_htab_resize(t->h, i++ % 2 ? 128u : 2u) != 0)
			atomic_fetch_add(&t->resize_errors, 1ul);
		f->quiescent();
		f->offline();
		sleep_ms(1);
		f->online();
	}
	f->unregister_thread();
	return NULL;
}

struct bulk_case {
	unsigned flavor;
	unsigned flags;
};

static const struct test_flavor *const bulk_flavors[] = {
	&test_flavor_memb,
	&test_flavor_qsbr,
	&test_flavor_bp,
	&test_flavor_grain,
};

static const struct bulk_case bulk_cases[] = {
	{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 3, GRAIN_HTAB_BATCH_RECLAIM },
};

TABLE_PARAMS(htab_bulk, torture, bulk_cases);

ParameterizedTest(const struct bulk_case *bc, htab_bulk, torture,
		  .timeout = 300)
{
	static struct btort t;
	const struct test_flavor *f = bulk_flavors[bc->flavor];
	const size_t npool = B_STABLE + (size_t)B_WRITERS * B_PER_WRITER;
	pthread_t rd[B_READERS], wr[B_WRITERS], rs;
	struct bworker ra[B_READERS], wa[B_WRITERS];

	memset(&t, 0, sizeof(t));
	t.f = f;
	t.pool = calloc(npool, sizeof(*t.pool));
	cr_assert_not_null(t.pool);
	struct grain_htab_config c = { 0 };
	c.ops.hash = hash_sip;
	c.ops.eq = bobj_eq;
	c.ops.reclaim = bobj_reclaim;
	c.ctx = &t;
	c.stripes = 4;
	c.buckets = 2;
	c.flags = bc->flags;
	c.flavor = f->flavor;
	f->register_thread();
	cr_assert_eq(grain_htab_create(&t.h, &c, NULL), 0);
	for (uint64_t k = 0; k < B_STABLE; k++) {
		bobj_fill(&t.pool[k], k);
		cr_assert_eq(grain_htab_insert(t.h, &t.pool[k].node, &k, 0, 1),
			     0);
	}
	atomic_store(&t.writers_left, B_WRITERS);
	for (unsigned i = 0; i < B_READERS; i++) {
		ra[i] = (struct bworker){ &t, i };
		cr_assert_eq(pthread_create(&rd[i], NULL, bulk_reader, &ra[i]),
			     0);
	}
	for (unsigned i = 0; i < B_WRITERS; i++) {
		wa[i] = (struct bworker){ &t, i };
		cr_assert_eq(pthread_create(&wr[i], NULL, bulk_writer, &wa[i]),
			     0);
	}
	bool resize = f == &test_flavor_grain || !GRAIN_TSAN;
	if (resize)
		cr_assert_eq(pthread_create(&rs, NULL, bulk_resizer, &t), 0);
	f->offline();
	for (unsigned i = 0; i < B_WRITERS; i++)
		cr_assert_eq(pthread_join(wr[i], NULL), 0);
	if (resize)
		cr_assert_eq(pthread_join(rs, NULL), 0);
	atomic_store(&t.stop, 1);
	for (unsigned i = 0; i < B_READERS; i++)
		cr_assert_eq(pthread_join(rd[i], NULL), 0);
	f->online();

	cr_assert_gt(atomic_load(&t.bursts), 0ul);
	cr_assert_eq(atomic_load(&t.misses), 0ul,
		     "%s: a key present throughout was not found (%lu of "
		     "%lu keys looked up)",
		     f->name, atomic_load(&t.misses),
		     atomic_load(&t.keys_looked));
	cr_assert_eq(atomic_load(&t.wrong), 0ul, "%s: a wrong node or mask",
		     f->name);
	cr_assert_eq(atomic_load(&t.counts), 0ul, "%s: a wrong count", f->name);
	cr_assert_eq(atomic_load(&t.resize_errors), 0ul);

	/* Counts conserved: what was inserted and not removed is linked;
	 * every node removed is reclaimed once, reason REMOVED. */
	unsigned long ins = atomic_load(&t.inserted);
	unsigned long rem = atomic_load(&t.removed);
	grain_htab_reclaim_flush(t.h);
	f->offline();
	f->barrier();
	f->online();
	cr_assert_eq(atomic_load(&t.reclaimed[GRAIN_HTAB_REMOVED]), rem);
	struct grain_htab_stats st;
	grain_htab_get_stats(t.h, &st);
	cr_assert_eq(st.entries, B_STABLE + ins - rem);
	unsigned long linked = 0;
	for (size_t i = 0; i < npool; i++) {
		struct bobj *o = &t.pool[i];
		if (o->key == 0 && i != 0)
			continue; /* never used: a failed insert's twin */
		struct grain_htab_scope s;
		grain_htab_lock(t.h, &o->key, &s);
		bool in = grain_htab_find_locked(&s, &o->key) == &o->node;
		grain_htab_unlock(&s);
		linked += in;
		cr_assert_leq(atomic_load(&o->reclaims), 1u, "node %zu", i);
	}
	cr_assert_eq(linked, st.entries);
	f->offline();
	grain_htab_destroy(t.h);
	f->online();
	f->unregister_thread();
	free(t.pool);
}
