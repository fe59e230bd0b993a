/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_resize.c - lock-free lookups while the table resizes.
 *
 * Readers loop grain_htab_lookup() inside RCU read-side sections on a
 * fixed set of keys that are present the whole time, and on keys that are
 * never present. Meanwhile one thread forces grow and shrink cycles with
 * grain_htab_resize(1 .. 4096 .. 1) (explicit), or churns enough entries
 * to make the stripes double and halve on their own (automatic), and
 * another inserts and removes other keys. Any miss of an always-present
 * key, or any hit on an absent one, is a failure.
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "htab_test.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"

#define FIXED 64u
#define READERS 2u
#define CHURN_BASE (1ULL << 40)
#define ABSENT_BASE (1ULL << 62)

struct rrun {
	struct grain_htab *h;
	struct obj fixed[FIXED];
	bool automatic;
	unsigned cycles;
	int64_t give_up_ns;
	_Atomic(bool) stop;
	_Atomic(unsigned) readers_started;
	_Atomic(uint64_t) lookups, misses, ghosts, wrong;
	_Atomic(uint64_t) churn_inserts, churn_removes, churn_refused;
	_Atomic(uint64_t) reclaimed_churn;
	_Atomic(uint64_t) reclaimed_fixed;
	struct test_failures fails;
};

/* A failure stops every thread. */
static void fail_and_stop(struct rrun *r, const char *what)
{
	test_fail(&r->fails, what);
	atomic_store(&r->stop, true);
}

static bool deadline(struct rrun *r)
{
	if (test_now_ns() < r->give_up_ns)
		return false;
	fail_and_stop(r, "gave up: past the deadline");
	return true;
}

/* Churned objects are allocated per insert and freed here; the fixed ones
 * belong to the run. */
static void resize_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			   void *ctx)
{
	struct rrun *r = ctx;
	struct obj *o = obj_of(n);

	if (o->key >= CHURN_BASE) {
		if (why != GRAIN_HTAB_REMOVED && why != GRAIN_HTAB_DESTROYED)
			fail_and_stop(
				r,
				"churned node reclaimed for a strange reason");
		atomic_fetch_add(&r->reclaimed_churn, 1);
		free(o);
		return;
	}
	atomic_fetch_add(&o->reclaims, 1u);
	atomic_store(&o->reclaim_why, (int)why);
	atomic_fetch_add(&r->reclaimed_fixed, 1);
}

static void *reader(void *arg)
{
	struct rrun *r = arg;
	uint64_t rng = 0x452821E638D01377ULL ^ (uintptr_t)&rng;
	uint64_t done = 0;

	grain_rcu_register_thread();
	for (unsigned iter = 0; !atomic_load(&r->stop); iter++) {
		grain_rcu_read_lock();
		for (unsigned j = 0; j < 16; j++) {
			uint64_t k = test_rand(&rng) % FIXED;
			struct grain_hnode *n = grain_htab_lookup(r->h, &k);
			if (n == NULL)
				atomic_fetch_add(&r->misses, 1);
			else if (n != &r->fixed[k].node || obj_of(n)->key != k)
				atomic_fetch_add(&r->wrong, 1);
			uint64_t a = ABSENT_BASE | (test_rand(&rng) >> 8);
			if (grain_htab_lookup(r->h, &a) != NULL)
				atomic_fetch_add(&r->ghosts, 1);
		}
		grain_rcu_read_unlock();
		if (done == 0)
			atomic_fetch_add(&r->readers_started, 1u);
		done += 32;
		if ((iter & 255) == 0 && deadline(r))
			break;
	}
	atomic_fetch_add(&r->lookups, done);
	grain_rcu_unregister_thread();
	return NULL;
}

/* The writers start once every reader is looking, so a run that ends
 * quickly still overlaps lookups with resizes. */
static void wait_for_readers(struct rrun *r)
{
	while (atomic_load(&r->readers_started) < READERS &&
	       !atomic_load(&r->stop) && !deadline(r))
		sched_yield();
}

/* Explicit mode: grow from 1 to 4096 buckets per stripe and back, one
 * doubling or halving per call, then some random jumps. */
static void *resizer(void *arg)
{
	struct rrun *r = arg;
	uint64_t rng = 0xA4093822299F31D0ULL;

	grain_rcu_register_thread();
	wait_for_readers(r);
	for (unsigned c = 0; c < r->cycles && !atomic_load(&r->stop); c++) {
		for (unsigned b = 1; b <= 4096 && !atomic_load(&r->stop);
		     b *= 2)
			if (grain_htab_resize(r->h, b) != 0)
				fail_and_stop(r, "resize (grow) failed");
		for (unsigned b = 2048; b >= 1 && !atomic_load(&r->stop);
		     b /= 2)
			if (grain_htab_resize(r->h, b) != 0)
				fail_and_stop(r, "resize (shrink) failed");
		for (unsigned j = 0; j < 8 && !atomic_load(&r->stop); j++)
			if (grain_htab_resize(
				    r->h, 1u << (test_rand(&rng) % 13)) != 0)
				fail_and_stop(r, "resize (jump) failed");
		if (deadline(r))
			break;
	}
	atomic_store(&r->stop, true);
	grain_rcu_unregister_thread();
	return NULL;
}

/* Insert @n churn keys starting at @first, then remove them; false when
 * stopped. An explicit resize to one bucket makes chains longer than
 * max_chain: those inserts are refused (-EMLINK), as they should be. */
static bool churn_round(struct rrun *r, uint64_t first, unsigned n)
{
	bool *in = calloc(n, sizeof(bool));

	if (in == NULL) {
		fail_and_stop(r, "out of memory");
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t k = CHURN_BASE + first + i;
		struct obj *o = malloc(sizeof(*o));
		if (o == NULL) {
			fail_and_stop(r, "out of memory");
			return false;
		}
		obj_init(o, k);
		int rc = grain_htab_insert(r->h, &o->node, &k, k, 1);
		if (rc == 0) {
			in[i] = true;
			atomic_fetch_add(&r->churn_inserts, 1);
			continue;
		}
		free(o);
		if (rc == -EMLINK) {
			atomic_fetch_add(&r->churn_refused, 1);
		} else {
			fail_and_stop(r, "churn insert failed");
			break;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t k = CHURN_BASE + first + i;
		int rc = grain_htab_remove(r->h, &k, NULL);
		if (rc != (in[i] ? 0 : -ENOENT)) {
			fail_and_stop(r, "churn remove failed");
			break;
		}
		atomic_fetch_add(&r->churn_removes, in[i]);
	}
	free(in);
	return !atomic_load(&r->stop) && !deadline(r);
}

/* Explicit mode: small rounds until the resizer is done. Automatic mode:
 * rounds large enough to grow every stripe several times, and then to
 * shrink it back; this thread ends the run. */
static void *churner(void *arg)
{
	struct rrun *r = arg;
	uint64_t first = 0;

	grain_rcu_register_thread();
	wait_for_readers(r);
	if (r->automatic) {
		for (unsigned c = 0; c < r->cycles; c++, first += 100000)
			if (!churn_round(r, first, test_scale(20000)))
				break;
		atomic_store(&r->stop, true);
	} else {
		while (churn_round(r, first, 64))
			first += 64;
	}
	grain_rcu_unregister_thread();
	return NULL;
}

struct resize_param {
	unsigned stripes;
	bool automatic;
};

static struct resize_param lookups_never_miss_rows[] = {
	{ 1, false },
	{ 8, false },
	{ 1, true },
	{ 8, true },
};

TABLE_PARAMS(htab_resize_stress, lookups_never_miss, lookups_never_miss_rows);

ParameterizedTest(struct resize_param *p, htab_resize_stress,
		  lookups_never_miss, .timeout = 180)
{
	static struct rrun r;
	struct grain_htab_config c;
	struct test_threads threads = { .n = 0 };

	memset(&r, 0, sizeof(r));
	r.automatic = p->automatic;
	r.cycles = p->automatic ? test_scale(24) : test_scale(16);
	if (r.cycles < 2)
		r.cycles = 2;
	r.give_up_ns = test_now_ns() + 120LL * 1000000000;
	memset(&c, 0, sizeof(c));
	c.ops.hash = hash_sip;
	c.ops.eq = obj_eq;
	c.ops.reclaim = resize_reclaim;
	c.ctx = &r;
	c.stripes = p->stripes;
	grain_rcu_register_thread();
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	for (uint64_t k = 0; k < FIXED; k++) {
		obj_init(&r.fixed[k], k);
		cr_assert_eq(grain_htab_insert(r.h, &r.fixed[k].node, &k, k, 1),
			     0);
	}
	uint64_t resizes = stats_of(r.h).resizes;

	for (unsigned i = 0; i < READERS; i++)
		test_spawn(&threads, reader, &r);
	test_spawn(&threads, churner, &r);
	if (!p->automatic)
		test_spawn(&threads, resizer, &r);
	test_join_all(&threads);

	test_assert_no_failures(&r.fails);
	cr_assert_eq(atomic_load(&r.misses), 0u,
		     "%llu lookups of always-present keys missed",
		     (unsigned long long)atomic_load(&r.misses));
	cr_assert_eq(atomic_load(&r.wrong), 0u, "lookup returned a wrong node");
	cr_assert_eq(atomic_load(&r.ghosts), 0u, "absent keys found");
	cr_assert_gt(atomic_load(&r.lookups), 0u);
	cr_assert_gt(atomic_load(&r.churn_inserts), 0u);
	cr_assert_eq(atomic_load(&r.churn_inserts),
		     atomic_load(&r.churn_removes));
	if (p->automatic)
		cr_assert_eq(atomic_load(&r.churn_refused), 0u,
			     "chains outgrew max_chain: the stripes did not "
			     "grow in time");

	struct grain_htab_stats st = stats_of(r.h);
	cr_assert_eq(st.entries, FIXED);
	cr_assert_eq(st.chain_refusals, atomic_load(&r.churn_refused));
	cr_assert_geq(st.resizes, resizes + 2 * r.cycles,
		      "%llu resizes in %u cycles",
		      (unsigned long long)(st.resizes - resizes), r.cycles);
	for (uint64_t k = 0; k < FIXED; k++) {
		struct grain_htab_scope s;
		grain_htab_lock(r.h, &k, &s);
		cr_assert_eq(grain_htab_find_locked(&s, &k), &r.fixed[k].node);
		grain_htab_unlock(&s);
	}
	cr_assert_eq(grain_htab_resize(r.h, 32), 0);
	cr_assert_eq(stats_of(r.h).buckets, 32u * p->stripes);
	grain_rcu_barrier();
	cr_assert_eq(atomic_load(&r.reclaimed_churn),
		     atomic_load(&r.churn_removes));
	cr_assert_eq(atomic_load(&r.reclaimed_fixed), 0u);
	grain_htab_destroy(r.h);
	cr_assert_eq(atomic_load(&r.reclaimed_fixed), FIXED);
	for (unsigned k = 0; k < FIXED; k++) {
		cr_assert_eq(atomic_load(&r.fixed[k].reclaims), 1u);
		cr_assert_eq(atomic_load(&r.fixed[k].reclaim_why),
			     GRAIN_HTAB_DESTROYED);
	}
	grain_rcu_unregister_thread();
}
