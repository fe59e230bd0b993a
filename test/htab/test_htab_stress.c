/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_stress.c - grain_htab under concurrency, with one stripe (the
 * global-lock baseline) and with 64, on RCU and on NO_RCU tables.
 *
 *   model:  each thread owns a key range and runs random operations on it
 *           (insert, find_or_insert, remove, lookup, charge, uncharge,
 *           touch, and now and then stats, expire and an explicit resize),
 *           comparing every result with a private single-threaded map.
 *   flush:  the model run on GRAIN_HTAB_BATCH_RECLAIM tables while one
 *           more thread keeps calling grain_htab_reclaim_flush().
 *   shared: every thread works on the same 16 keys (find_or_insert and
 *           remove races, scoped compound steps); checked at the end: per
 *           key, successful inserts minus removes is 0 or 1 and matches
 *           presence, entries and bytes are conserved.
 *   churn:  policy EVICT with a TTL and a shared fake clock: evictions,
 *           expiries, removals and reclaims all add up.
 *
 * Every node is allocated for one insert and freed by the reclaim
 * callback, which counts reclaims per node: after grain_htab_destroy()
 * every node that was ever linked has been reclaimed exactly once, for
 * the right reason, and no other node at all. Worker threads never
 * assert; they record failures, and the main thread checks.
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

#define MAXT 8u
#define SHARED_KEYS 16u

struct sobj {
	struct grain_hnode node;
	uint64_t key;
	uint32_t id;
	/* The charge as the test set it, for the byte books of the reclaim
	 * callback (changed under the stripe lock, read after reclaim). */
	_Atomic(size_t) charge;
};

static struct sobj *sobj_of(const struct grain_hnode *n)
{
	return grain_container_of(n, struct sobj, node);
}

static bool sobj_eq(const struct grain_hnode *node, const void *key, void *ctx)
{
	(void)ctx;
	return sobj_of(node)->key == *(const uint64_t *)key;
}

enum { NEVER = 0, LINKED = 1, REMOVED = 2 };

struct run {
	struct grain_htab *h;
	unsigned flags, stripes, threads, ops, keys;
	int64_t give_up_ns;
	struct test_failures fails;

	/* Per node id. state[] is written by the thread owning the id. */
	uint32_t ids_per_thread, nids;
	_Atomic(unsigned char) *reclaims, *why;
	unsigned char *state;

	_Atomic(uint64_t) inserted, removed;
	_Atomic(uint64_t) bytes_in, bytes_out; /* charges and charge_locked;
						 uncharge_locked */
	_Atomic(uint64_t) reclaimed[REASONS], reclaimed_bytes[REASONS];
	_Atomic(uint64_t) unlinked[REASONS], expired_reported;
	_Atomic(uint64_t) clock;

	/* shared-key run */
	_Atomic(int64_t) ins[SHARED_KEYS], rem[SHARED_KEYS];
};

/* One key of a model thread's private map. */
struct slot {
	struct sobj *o; /* the entry, NULL if absent */
	size_t charge;
};

struct worker {
	struct run *run;
	unsigned id;
	struct slot *map; /* model run: checked by the main thread */
};

static bool past_deadline(struct run *r, unsigned i)
{
	if ((i & 255) != 0 || test_now_ns() < r->give_up_ns)
		return false;
	test_fail(&r->fails, "gave up: past the deadline");
	return true;
}

static void stress_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			   void *ctx)
{
	struct run *r = ctx;
	struct sobj *o = sobj_of(n);

	if (o->id >= r->nids || (unsigned)why >= REASONS) {
		test_fail(&r->fails,
			  "reclaim of a node the test does not know");
		return;
	}
	atomic_fetch_add(&r->reclaims[o->id], 1);
	atomic_store(&r->why[o->id], (unsigned char)why);
	atomic_fetch_add(&r->reclaimed[why], 1);
	atomic_fetch_add(&r->reclaimed_bytes[why], atomic_load(&o->charge));
	free(o);
}

/* A fresh node with the thread's next id. */
static struct sobj *new_obj(struct run *r, uint64_t key, uint32_t *next_id,
			    uint32_t id_end, size_t charge)
{
	if (*next_id >= id_end) {
		test_fail(&r->fails, "test bug: out of node ids");
		return NULL;
	}
	struct sobj *o = calloc(1, sizeof(*o));
	if (o == NULL) {
		test_fail(&r->fails, "out of memory");
		return NULL;
	}
	o->key = key;
	o->id = (*next_id)++;
	atomic_init(&o->charge, charge);
	return o;
}

static void run_init(struct run *r, unsigned flags, unsigned threads,
		     unsigned ops, unsigned keys, unsigned ids_per_op)
{
	memset(r, 0, sizeof(*r));
	r->flags = flags;
	r->threads = threads;
	r->ops = ops;
	r->keys = keys;
	r->ids_per_thread = ops * ids_per_op + 1;
	r->nids = r->ids_per_thread * threads;
	r->reclaims = calloc(r->nids, 1);
	r->why = calloc(r->nids, 1);
	r->state = calloc(r->nids, 1);
	cr_assert(r->reclaims && r->why && r->state);
	r->give_up_ns = test_now_ns() + 90LL * 1000000000;
}

static struct grain_htab_config run_config(struct run *r, unsigned stripes)
{
	struct grain_htab_config c;

	memset(&c, 0, sizeof(c));
	c.ops.hash = hash_sip;
	c.ops.eq = sobj_eq;
	c.ops.reclaim = stress_reclaim;
	c.ctx = r;
	c.stripes = stripes;
	c.flags = r->flags;
	r->stripes = stripes;
	return c;
}

static void run_threads(struct run *r, struct worker *w, void *(*fn)(void *))
{
	struct test_threads threads = { .n = 0 };

	for (unsigned i = 0; i < r->threads; i++) {
		w[i].run = r;
		w[i].id = i;
		test_spawn(&threads, fn, &w[i]);
	}
	test_join_all(&threads);
	test_assert_no_failures(&r->fails);
}

/* After grain_htab_destroy(): every linked node reclaimed exactly once,
 * REMOVED ones for that reason, the rest as @last; nothing else. */
static void check_reclaims(struct run *r, int last)
{
	for (uint32_t id = 0; id < r->nids; id++) {
		unsigned n = atomic_load(&r->reclaims[id]);
		switch (r->state[id]) {
		case NEVER:
			cr_assert_eq(n, 0u, "node %u never linked, reclaimed",
				     id);
			break;
		case REMOVED:
			cr_assert_eq(n, 1u,
				     "removed node %u reclaimed %u times", id,
				     n);
			cr_assert_eq(atomic_load(&r->why[id]),
				     GRAIN_HTAB_REMOVED, "node %u", id);
			break;
		default:
			cr_assert_eq(n, 1u, "node %u reclaimed %u times", id,
				     n);
			if (last >= 0)
				cr_assert_eq(atomic_load(&r->why[id]), last,
					     "node %u", id);
		}
	}
}

static void run_fini(struct run *r)
{
	free(r->reclaims);
	free(r->why);
	free(r->state);
}

struct mode {
	unsigned stripes, flags;
};

static struct mode stress_modes[] = {
	{ 1, 0 },
	{ 64, 0 },
	{ 1, GRAIN_HTAB_NO_RCU },
	{ 64, GRAIN_HTAB_NO_RCU },
	{ 64, GRAIN_HTAB_BATCH_RECLAIM },
	{ 64, GRAIN_HTAB_EVICT_CLOCK },
};

/* ----------------------------------------------------------------------
 * Model run: disjoint keys, every result compared with a private map.
 */

static void model_op(struct worker *w, uint64_t *rng, uint32_t *next_id,
		     uint32_t id_end, unsigned i)
{
	struct run *r = w->run;
	struct grain_htab *h = r->h;
	unsigned k = (unsigned)(test_rand(rng) % r->keys);
	uint64_t key = (uint64_t)w->id << 32 | k, now = i;
	struct slot *sl = &w->map[k];
	struct grain_hnode *want = sl->o != NULL ? &sl->o->node : NULL, *n;
	struct grain_htab_scope s;
	unsigned op = (unsigned)(test_rand(rng) % 100);
	size_t c = 1 + (size_t)(test_rand(rng) % 64);
	int rc;

	if (op < 35) {
		/* insert (op < 20) or find_or_insert */
		struct sobj *o = new_obj(r, key, next_id, id_end, c);
		if (o == NULL)
			return;
		if (op < 20) {
			rc = grain_htab_insert(h, &o->node, &key, now, c);
			n = rc == 0 ? &o->node : want;
		} else {
			n = NULL;
			rc = grain_htab_find_or_insert(h, &key, &o->node, now,
						       c, &n);
		}
		if (want != NULL) {
			if (rc != -EEXIST)
				test_fail(
					&r->fails,
					"insert of a present key: not -EEXIST");
			else if (n != want)
				test_fail(&r->fails,
					  "find_or_insert: *found is not the "
					  "entry");
			free(o);
			return;
		}
		if (rc != 0 || n != &o->node) {
			test_fail(&r->fails, "insert of an absent key failed");
			free(o);
			return;
		}
		sl->o = o;
		sl->charge = c;
		r->state[o->id] = LINKED;
		atomic_fetch_add(&r->inserted, 1);
		atomic_fetch_add(&r->bytes_in, c);
	} else if (op < 55) {
		/* The node may be freed once removed: note its id first. */
		uint32_t id = sl->o != NULL ? sl->o->id : 0;
		n = NULL;
		rc = grain_htab_remove(h, &key, &n);
		if (want == NULL) {
			if (rc != -ENOENT)
				test_fail(
					&r->fails,
					"remove of an absent key: not -ENOENT");
			return;
		}
		/* *removed: the entry, or none on a NO_RCU table. */
		if (rc != 0 || n != (is_rcu(r->flags) ? want : NULL)) {
			test_fail(&r->fails, "remove of a present key failed");
			return;
		}
		r->state[id] = REMOVED;
		sl->o = NULL;
		atomic_fetch_add(&r->removed, 1);
	} else if (op < 75) {
		if (is_rcu(r->flags)) {
			grain_rcu_read_lock();
			n = grain_htab_lookup(h, &key);
			if (n != want)
				test_fail(&r->fails,
					  "lookup disagrees with the model");
			else if (n != NULL && sobj_of(n)->key != key)
				test_fail(&r->fails,
					  "lookup returned another key");
			grain_rcu_read_unlock();
		} else {
			grain_htab_lock(h, &key, &s);
			if (grain_htab_find_locked(&s, &key) != want)
				test_fail(&r->fails,
					  "find disagrees with the model");
			grain_htab_unlock(&s);
		}
	} else if (op < 96) {
		/* charge, uncharge (sometimes too much), touch */
		grain_htab_lock(h, &key, &s);
		n = grain_htab_find_locked(&s, &key);
		if (n != want)
			test_fail(&r->fails, "find disagrees with the model");
		if (n != NULL && op < 82) {
			if (grain_htab_charge_locked(&s, n, c) != 0)
				test_fail(&r->fails, "charge_locked failed");
			sl->charge += c;
			atomic_store(&sl->o->charge, sl->charge);
			atomic_fetch_add(&r->bytes_in, c);
		} else if (n != NULL && op < 89) {
			rc = grain_htab_uncharge_locked(&s, n, c);
			if (c > sl->charge && rc != -EINVAL)
				test_fail(&r->fails,
					  "uncharge of more than the charge");
			if (c <= sl->charge && rc != 0)
				test_fail(&r->fails, "uncharge_locked failed");
			if (rc == 0) {
				sl->charge -= c;
				atomic_store(&sl->o->charge, sl->charge);
				atomic_fetch_add(&r->bytes_out, c);
			}
		} else if (n != NULL) {
			if (grain_htab_touch_locked(&s, n, now) != 0)
				test_fail(&r->fails, "touch_locked failed");
		}
		grain_htab_unlock(&s);
	} else if (op < 99) {
		struct grain_htab_stats st;
		grain_htab_get_stats(h, &st);
		if (st.entries > (uint64_t)r->keys * r->threads)
			test_fail(&r->fails, "more entries than keys");
		if (grain_htab_expire(h, now) != 0)
			test_fail(&r->fails, "expired with ttl 0");
		(void)grain_htab_bytes_exact(h);
	} else if (w->id == 0 && (i & 7) == 0) {
		/* Sizes that keep chains far below max_chain (64) even
		 * with every key present: at most 4 entries per bucket on
		 * average. */
		unsigned least = r->keys * r->threads / (4 * r->stripes);
		unsigned b = (least ? least : 1) << (test_rand(rng) % 4);
		if (grain_htab_resize(h, b) != 0)
			test_fail(&r->fails, "resize failed");
	}
}

static void *model_worker(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	uint64_t rng = 0x9E3779B97F4A7C15ULL * (w->id + 1);
	uint32_t next_id = w->id * r->ids_per_thread;
	uint32_t id_end = next_id + r->ids_per_thread;

	if (is_rcu(r->flags))
		grain_rcu_register_thread();
	for (unsigned i = 0; i < r->ops && !test_failing(&r->fails); i++) {
		if (past_deadline(r, i))
			break;
		model_op(w, &rng, &next_id, id_end, i);
		test_jitter(&rng);
	}
	if (is_rcu(r->flags))
		grain_rcu_unregister_thread();
	return NULL;
}

TABLE_PARAMS(htab_stress, model, stress_modes);

/* After a model run of @r->threads workers @w: every key as its thread's
 * map says, entries and bytes as the maps add up to, every removed node
 * reclaimed once (after the grace periods), and at destroy every node
 * still linked. */
static void check_model_run(struct run *r, struct worker *w)
{
	uint64_t live = 0, bytes = 0;

	for (unsigned t = 0; t < r->threads; t++)
		for (unsigned k = 0; k < r->keys; k++) {
			struct slot *sl = &w[t].map[k];
			uint64_t key = (uint64_t)t << 32 | k;
			struct grain_htab_scope s;
			grain_htab_lock(r->h, &key, &s);
			struct grain_hnode *n =
				grain_htab_find_locked(&s, &key);
			grain_htab_unlock(&s);
			cr_assert_eq(n, sl->o != NULL ? &sl->o->node : NULL,
				     "thread %u key %u", t, k);
			if (sl->o != NULL) {
				live++;
				bytes += sl->charge;
			}
		}
	struct grain_htab_stats st = stats_of(r->h);
	cr_assert_eq(st.entries, live);
	cr_assert_eq(st.bytes, bytes);
	cr_assert_eq(grain_htab_bytes_exact(r->h), bytes);
	cr_assert_eq(st.inserts, atomic_load(&r->inserted));
	cr_assert_eq(live,
		     atomic_load(&r->inserted) - atomic_load(&r->removed));
	cr_assert_eq(st.evictions + st.expirations + st.refusals +
			     st.chain_refusals,
		     0u);
	cr_assert_gt(atomic_load(&r->removed), 0u);
	mode_settle(r->h, r->flags);
	cr_assert_eq(atomic_load(&r->reclaimed[GRAIN_HTAB_REMOVED]),
		     atomic_load(&r->removed));
	cr_assert_eq(
		atomic_load(&r->bytes_in) - atomic_load(&r->bytes_out) -
			atomic_load(&r->reclaimed_bytes[GRAIN_HTAB_REMOVED]),
		bytes, "bytes not conserved");

	grain_htab_destroy(r->h);
	check_reclaims(r, GRAIN_HTAB_DESTROYED);
	cr_assert_eq(atomic_load(&r->reclaimed[GRAIN_HTAB_DESTROYED]), live);
}

ParameterizedTest(struct mode *m, htab_stress, model, .timeout = 180)
{
	static struct run r;
	struct worker w[MAXT];
	const unsigned threads = 4;

	run_init(&r, m->flags, threads, test_scale(150000), 512, 1);
	mode_enter(r.flags);
	struct grain_htab_config c = run_config(&r, m->stripes);
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	for (unsigned i = 0; i < threads; i++) {
		w[i].map = calloc(r.keys, sizeof(*w[i].map));
		cr_assert_not_null(w[i].map);
	}
	run_threads(&r, w, model_worker);
	check_model_run(&r, w);
	mode_leave(r.flags);
	for (unsigned i = 0; i < threads; i++)
		free(w[i].map);
	run_fini(&r);
}

/* ----------------------------------------------------------------------
 * Flushes from another thread: the model run on GRAIN_HTAB_BATCH_RECLAIM
 * tables with batches of 8, while one more thread sends the stripes'
 * reclaim batches with grain_htab_reclaim_flush() the whole time (any
 * thread may, htab.h). The model's checks hold: every removed node is
 * reclaimed exactly once, as REMOVED, and every node still linked once
 * at destroy, as DESTROYED; entries and bytes add up.
 */

static _Atomic(unsigned) flush_workers_done;

static void *model_worker_counted(void *arg)
{
	model_worker(arg);
	atomic_fetch_add(&flush_workers_done, 1u);
	return NULL;
}

struct flusher {
	struct run *run;
	unsigned long flushes;
};

static void *flusher_main(void *arg)
{
	struct flusher *f = arg;

	grain_rcu_register_thread();
	while (atomic_load(&flush_workers_done) < f->run->threads) {
		grain_htab_reclaim_flush(f->run->h);
		f->flushes++;
		sched_yield();
	}
	grain_rcu_unregister_thread();
	return NULL;
}

static const unsigned flush_stripes[] = { 1, 64 };

TABLE_PARAMS(htab_stress, flush_while_removing, flush_stripes);

ParameterizedTest(unsigned *stripes, htab_stress, flush_while_removing,
		  .timeout = 60)
{
	static struct run r;
	struct worker w[MAXT];
	const unsigned threads = 2;
	struct flusher f = { &r, 0 };
	struct test_threads flusher = { .n = 0 };

	run_init(&r, GRAIN_HTAB_BATCH_RECLAIM, threads, test_scale(50000), 256,
		 1);
	mode_enter(r.flags);
	struct grain_htab_config c = run_config(&r, *stripes);
	c.reclaim_batch = 8;
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	for (unsigned i = 0; i < threads; i++) {
		w[i].map = calloc(r.keys, sizeof(*w[i].map));
		cr_assert_not_null(w[i].map);
	}
	atomic_store(&flush_workers_done, 0u);
	test_spawn(&flusher, flusher_main, &f);
	run_threads(&r, w, model_worker_counted);
	test_join_all(&flusher);
	cr_assert_gt(f.flushes, 0ul);
	check_model_run(&r, w);
	mode_leave(r.flags);
	for (unsigned i = 0; i < threads; i++)
		free(w[i].map);
	run_fini(&r);
}

/* ----------------------------------------------------------------------
 * Shared keys: every thread on the same 16 keys.
 */

/* @id, not the node: once inserted, another thread may remove the node
 * and (NO_RCU) free it at once. */
static void note_insert(struct run *r, unsigned k, uint32_t id, size_t c)
{
	r->state[id] = LINKED;
	atomic_fetch_add(&r->ins[k], 1);
	atomic_fetch_add(&r->inserted, 1);
	atomic_fetch_add(&r->bytes_in, c);
}

static void shared_scoped(struct run *r, uint64_t *rng, unsigned k,
			  struct sobj *o, uint64_t now)
{
	struct grain_htab *h = r->h;
	uint64_t key = k;
	struct grain_htab_scope s;
	struct grain_hnode *found = NULL;
	size_t c = atomic_load(&o->charge);

	/* One atomic step: what find saw is what insert does. */
	grain_htab_lock(h, &key, &s);
	struct grain_hnode *n = grain_htab_find_locked(&s, &key);
	if (n == NULL) {
		if (grain_htab_insert_locked(&s, &o->node, &key, now, c) != 0) {
			test_fail(&r->fails,
				  "scoped insert after a failed find");
			free(o);
		} else {
			note_insert(r, k, o->id, c);
			if (grain_htab_find_locked(&s, &key) != &o->node)
				test_fail(&r->fails,
					  "scoped find misses the insert");
			if (test_rand(rng) & 1) {
				if (grain_htab_remove_locked(&s, &o->node) != 0)
					test_fail(&r->fails,
						  "remove_locked failed");
				atomic_fetch_add(&r->rem[k], 1);
				if (grain_htab_find_locked(&s, &key) != NULL)
					test_fail(&r->fails,
						  "found after remove_locked");
			}
		}
	} else {
		int rc = grain_htab_find_or_insert_locked(&s, &key, &o->node,
							  now, c, &found);
		if (rc != -EEXIST || found != n)
			test_fail(&r->fails,
				  "scoped find_or_insert after a find");
		free(o);
		uint64_t x = test_rand(rng) % 4;
		if (x == 0) {
			if (grain_htab_remove_locked(&s, n) != 0)
				test_fail(&r->fails, "remove_locked failed");
			else
				atomic_fetch_add(&r->rem[k], 1);
		} else if (x == 1) {
			if (grain_htab_charge_locked(&s, n, 3) != 0)
				test_fail(&r->fails, "charge_locked failed");
			atomic_fetch_add(&sobj_of(n)->charge, 3);
			atomic_fetch_add(&r->bytes_in, 3);
		} else if (x == 2) {
			if (grain_htab_touch_locked(&s, n, now) != 0)
				test_fail(&r->fails, "touch_locked failed");
		} else if (atomic_load(&sobj_of(n)->charge) > 0) {
			if (grain_htab_uncharge_locked(&s, n, 1) != 0)
				test_fail(&r->fails, "uncharge_locked failed");
			atomic_fetch_sub(&sobj_of(n)->charge, 1);
			atomic_fetch_add(&r->bytes_out, 1);
		}
	}
	grain_htab_unlock(&s);
}

static void *shared_worker(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	struct grain_htab *h = r->h;
	const bool rcu = is_rcu(r->flags);
	uint64_t rng = 0xC2B2AE3D27D4EB4FULL * (w->id + 1);
	uint32_t next_id = w->id * r->ids_per_thread;
	uint32_t id_end = next_id + r->ids_per_thread;

	if (rcu)
		grain_rcu_register_thread();
	for (unsigned i = 0; i < r->ops && !test_failing(&r->fails); i++) {
		if (past_deadline(r, i))
			break;
		unsigned k = (unsigned)(test_rand(&rng) % SHARED_KEYS);
		uint64_t key = k;
		unsigned op = (unsigned)(test_rand(&rng) % 100);
		size_t c = (size_t)(test_rand(&rng) % 100);
		struct grain_hnode *n = NULL;
		int rc;

		if (op < 40) {
			struct sobj *o = new_obj(r, key, &next_id, id_end, c);
			if (o == NULL)
				break;
			uint32_t id = o->id;
			/* Inside a read-side section *found stays valid. */
			if (rcu)
				grain_rcu_read_lock();
			if (op < 30)
				rc = grain_htab_find_or_insert(
					h, &key, &o->node, i, c, &n);
			else
				rc = grain_htab_insert(h, &o->node, &key, i, c);
			if (rc == 0) {
				note_insert(r, k, id, c);
				if (op < 30 && n != &o->node)
					test_fail(&r->fails,
						  "*found is not the new node");
			} else if (rc == -EEXIST) {
				if (op < 30 && (n == NULL || n == &o->node))
					test_fail(&r->fails,
						  "-EEXIST without the entry");
				else if (op < 30 && rcu &&
					 sobj_of(n)->key != key)
					test_fail(&r->fails,
						  "*found holds another key");
				free(o);
			} else {
				test_fail(&r->fails,
					  "insert: unexpected error");
				free(o);
			}
			if (rcu)
				grain_rcu_read_unlock();
		} else if (op < 65) {
			if (rcu)
				grain_rcu_read_lock();
			rc = grain_htab_remove(h, &key, &n);
			if (rc == 0) {
				atomic_fetch_add(&r->rem[k], 1);
				if (rcu ? n == NULL || sobj_of(n)->key != key
					: n != NULL)
					test_fail(&r->fails,
						  "remove: *removed is wrong");
			} else if (rc != -ENOENT) {
				test_fail(&r->fails,
					  "remove: unexpected error");
			}
			if (rcu)
				grain_rcu_read_unlock();
		} else if (op < 85) {
			struct sobj *o = new_obj(r, key, &next_id, id_end, c);
			if (o == NULL)
				break;
			shared_scoped(r, &rng, k, o, i);
		} else if (rcu) {
			grain_rcu_read_lock();
			n = grain_htab_lookup(h, &key);
			if (n != NULL && sobj_of(n)->key != key)
				test_fail(&r->fails,
					  "lookup returned another key");
			grain_rcu_read_unlock();
		} else {
			struct grain_htab_scope s;
			grain_htab_lock(h, &key, &s);
			n = grain_htab_find_locked(&s, &key);
			if (n != NULL && sobj_of(n)->key != key)
				test_fail(&r->fails,
					  "find returned another key");
			grain_htab_unlock(&s);
		}
		test_jitter(&rng);
	}
	if (rcu)
		grain_rcu_unregister_thread();
	return NULL;
}

TABLE_PARAMS(htab_stress, shared_keys, stress_modes);

ParameterizedTest(struct mode *m, htab_stress, shared_keys, .timeout = 180)
{
	static struct run r;
	struct worker w[MAXT];
	const unsigned threads = 4;

	run_init(&r, m->flags, threads, test_scale(150000), SHARED_KEYS, 1);
	mode_enter(r.flags);
	struct grain_htab_config c = run_config(&r, m->stripes);
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	run_threads(&r, w, shared_worker);

	uint64_t live = 0, ins = 0, rem = 0;
	for (unsigned k = 0; k < SHARED_KEYS; k++) {
		int64_t d = atomic_load(&r.ins[k]) - atomic_load(&r.rem[k]);
		uint64_t key = k;
		struct grain_htab_scope s;
		cr_assert(d == 0 || d == 1,
			  "key %u: %lld inserts more than removes", k,
			  (long long)d);
		grain_htab_lock(r.h, &key, &s);
		struct grain_hnode *n = grain_htab_find_locked(&s, &key);
		grain_htab_unlock(&s);
		cr_assert_eq(n != NULL, d == 1,
			     "key %u: present %d, books %lld", k, n != NULL,
			     (long long)d);
		live += (uint64_t)d;
		ins += (uint64_t)atomic_load(&r.ins[k]);
		rem += (uint64_t)atomic_load(&r.rem[k]);
	}
	cr_assert_gt(ins, (uint64_t)SHARED_KEYS, "hardly any inserts");
	struct grain_htab_stats st = stats_of(r.h);
	cr_assert_eq(st.entries, live);
	cr_assert_eq(st.inserts, ins);
	mode_settle(r.h, r.flags);
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_REMOVED]), rem);
	uint64_t bytes = atomic_load(&r.bytes_in) - atomic_load(&r.bytes_out) -
			 atomic_load(&r.reclaimed_bytes[GRAIN_HTAB_REMOVED]);
	cr_assert_eq(grain_htab_bytes_exact(r.h), bytes, "bytes not conserved");
	cr_assert_eq(stats_of(r.h).bytes, bytes);

	grain_htab_destroy(r.h);
	/* Which node a remove took is not tracked per node here: count. */
	check_reclaims(&r, -1);
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_DESTROYED]), live);
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_REMOVED]), rem);
	cr_assert_eq(atomic_load(&r.reclaimed_bytes[GRAIN_HTAB_DESTROYED]),
		     bytes);
	mode_leave(r.flags);
	run_fini(&r);
}

/* ----------------------------------------------------------------------
 * Churn: eviction, TTL expiry and removal together.
 */

#define CHURN_HIGH 120000u
#define CHURN_LOW 90000u
#define CHURN_TTL 1500u

static void churn_unlinked(struct grain_hnode *node, enum grain_htab_reason why,
			   void *ctx)
{
	struct run *r = ctx;
	struct sobj *o = sobj_of(node);
	uint64_t key = o->key;

	if (why != GRAIN_HTAB_EVICTED && why != GRAIN_HTAB_EXPIRED) {
		test_fail(&r->fails,
			  "ops.unlinked with a reason other than EVICTED, "
			  "EXPIRED");
		return;
	}
	atomic_fetch_add(&r->unlinked[why], 1);
	/* Unlinked before the call: the table no longer holds this node
	 * (its key may be back, with another node). */
	if (is_rcu(r->flags)) {
		grain_rcu_read_lock();
		if (grain_htab_lookup(r->h, &key) == node)
			test_fail(&r->fails,
				  "unlinked node still found by lookup");
		grain_rcu_read_unlock();
	}
	struct grain_htab_scope s;
	grain_htab_lock(r->h, &key, &s);
	if (grain_htab_find_locked(&s, &key) == node)
		test_fail(&r->fails, "unlinked node still found");
	grain_htab_unlock(&s);
}

static void *churn_worker(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	struct grain_htab *h = r->h;
	const bool rcu = is_rcu(r->flags);
	uint64_t rng = 0x165667B19E3779F9ULL * (w->id + 1);
	uint32_t next_id = w->id * r->ids_per_thread;
	uint32_t id_end = next_id + r->ids_per_thread;

	if (rcu)
		grain_rcu_register_thread();
	for (unsigned i = 0; i < r->ops && !test_failing(&r->fails); i++) {
		if (past_deadline(r, i))
			break;
		uint64_t now = atomic_fetch_add(&r->clock, 1);
		uint64_t key = (uint64_t)w->id << 32 |
			       (test_rand(&rng) % r->keys);
		unsigned op = (unsigned)(test_rand(&rng) % 100);
		size_t c = 1 + (size_t)(test_rand(&rng) % 256);
		struct grain_htab_scope s;
		struct grain_hnode *n;
		int rc;

		/* Now and then one large entry forces an eviction. */
		if (w->id == 0 && i % 2048 == 1024)
			c = CHURN_HIGH / 2;
		if (op < 50 || c > 256) {
			struct sobj *o = new_obj(r, key, &next_id, id_end, c);
			if (o == NULL)
				break;
			/* Evicted, expired or even reclaimed by the time the
			 * insert returns: note the id first. */
			uint32_t id = o->id;
			rc = grain_htab_insert(h, &o->node, &key, now, c);
			if (rc == 0) {
				r->state[id] = LINKED;
				atomic_fetch_add(&r->inserted, 1);
				atomic_fetch_add(&r->bytes_in, c);
			} else {
				if (rc != -EEXIST)
					test_fail(&r->fails,
						  "insert: unexpected error");
				free(o);
			}
		} else if (op < 70) {
			rc = grain_htab_remove(h, &key, NULL);
			if (rc == 0)
				atomic_fetch_add(&r->removed, 1);
			else if (rc != -ENOENT)
				test_fail(&r->fails,
					  "remove: unexpected error");
		} else if (op < 95) {
			grain_htab_lock(h, &key, &s);
			n = grain_htab_find_locked(&s, &key);
			if (n != NULL && op < 85) {
				if (grain_htab_touch_locked(&s, n, now) != 0)
					test_fail(&r->fails,
						  "touch_locked failed");
			} else if (n != NULL && op < 90) {
				if (grain_htab_charge_locked(&s, n, 8) != 0)
					test_fail(&r->fails,
						  "charge_locked failed");
				atomic_fetch_add(&sobj_of(n)->charge, 8);
				atomic_fetch_add(&r->bytes_in, 8);
			} else if (n != NULL &&
				   atomic_load(&sobj_of(n)->charge) >= 8) {
				if (grain_htab_uncharge_locked(&s, n, 8) != 0)
					test_fail(&r->fails,
						  "uncharge_locked failed");
				atomic_fetch_sub(&sobj_of(n)->charge, 8);
				atomic_fetch_add(&r->bytes_out, 8);
			}
			grain_htab_unlock(&s);
		} else if (op < 99) {
			if (rcu) {
				grain_rcu_read_lock();
				n = grain_htab_lookup(h, &key);
				if (n != NULL && sobj_of(n)->key != key)
					test_fail(
						&r->fails,
						"lookup returned another key");
				grain_rcu_read_unlock();
			}
		} else {
			atomic_fetch_add(&r->expired_reported,
					 grain_htab_expire(h, now));
		}
		test_jitter(&rng);
	}
	if (rcu)
		grain_rcu_unregister_thread();
	return NULL;
}

TABLE_PARAMS(htab_stress, churn, stress_modes);

ParameterizedTest(struct mode *m, htab_stress, churn, .timeout = 180)
{
	static struct run r;
	struct worker w[MAXT];
	const unsigned threads = 4;

	run_init(&r, m->flags, threads, test_scale(100000), 2048, 1);
	mode_enter(r.flags);
	struct grain_htab_config c = run_config(&r, m->stripes);
	c.ops.unlinked = churn_unlinked;
	c.mem_high = CHURN_HIGH;
	c.mem_low = CHURN_LOW;
	c.mem_batch = 512;
	c.ttl = CHURN_TTL;
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	run_threads(&r, w, churn_worker);

	/* Every thread evicted for itself before it returned: right after
	 * the concurrent inserts, the total is at most mem_high, give or
	 * take what the stripes have not folded yet (htab.h, "Bytes, watermarks"). */
	const size_t lag = m->stripes == 1 ? 0 : (size_t)m->stripes * 512u;
	cr_assert_leq(grain_htab_bytes_exact(r.h), CHURN_HIGH + lag,
		      "%zu bytes held after the concurrent inserts",
		      grain_htab_bytes_exact(r.h));

	/* Quiet now: one insert brings the total within one charge of
	 * mem_high. */
	uint64_t key = UINT64_MAX;
	struct sobj *last = calloc(1, sizeof(*last));
	cr_assert_not_null(last);
	last->key = key;
	last->id = r.nids - 1; /* never used by a worker */
	atomic_init(&last->charge, 100);
	cr_assert_eq(grain_htab_insert(r.h, &last->node, &key,
				       atomic_load(&r.clock), 100),
		     0);
	r.state[last->id] = LINKED;
	atomic_fetch_add(&r.inserted, 1);
	atomic_fetch_add(&r.bytes_in, 100);
	cr_assert_leq(grain_htab_bytes_exact(r.h), CHURN_HIGH + lag + 100);

	struct grain_htab_stats st = stats_of(r.h);
	cr_assert_gt(st.evictions, 0u, "the large entries evict nothing");
	cr_assert_gt(st.expirations, 0u, "nothing ever expired");
	cr_assert_eq(atomic_load(&r.unlinked[GRAIN_HTAB_EVICTED]),
		     st.evictions);
	cr_assert_eq(atomic_load(&r.unlinked[GRAIN_HTAB_EXPIRED]),
		     st.expirations);
	cr_assert_leq(atomic_load(&r.expired_reported), st.expirations);
	cr_assert_eq(st.entries, atomic_load(&r.inserted) -
					 atomic_load(&r.removed) -
					 st.evictions - st.expirations);
	mode_settle(r.h, r.flags);
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_REMOVED]),
		     atomic_load(&r.removed));
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_EVICTED]),
		     st.evictions);
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_EXPIRED]),
		     st.expirations);
	uint64_t gone = atomic_load(&r.reclaimed_bytes[GRAIN_HTAB_REMOVED]) +
			atomic_load(&r.reclaimed_bytes[GRAIN_HTAB_EVICTED]) +
			atomic_load(&r.reclaimed_bytes[GRAIN_HTAB_EXPIRED]);
	uint64_t bytes =
		atomic_load(&r.bytes_in) - atomic_load(&r.bytes_out) - gone;
	cr_assert_eq(grain_htab_bytes_exact(r.h), bytes, "bytes not conserved");
	cr_assert_eq(stats_of(r.h).bytes, bytes);

	grain_htab_destroy(r.h);
	check_reclaims(&r, -1);
	cr_assert_eq(atomic_load(&r.reclaimed[GRAIN_HTAB_DESTROYED]),
		     st.entries);
	cr_assert_eq(atomic_load(&r.reclaimed_bytes[GRAIN_HTAB_DESTROYED]),
		     bytes);
	mode_leave(r.flags);
	run_fini(&r);
}

/* ----------------------------------------------------------------------
 * Walks while other threads write: 1000 stable keys stay linked for the
 * whole run, while two writers insert and remove their own volatile keys
 * and touch stable keys (moving them in their stripes' LRU order). Every
 * walk must visit every stable key exactly once and no volatile key
 * twice; the walker touches every seventh stable key it visits too.
 */

#define WALK_STABLE 1000u
#define WALK_VOLATILE 512u /* per writer */
#define WALK_WRITERS 2u

struct walker {
	struct run *r;
	unsigned visits[WALK_STABLE];
	unsigned char seen[WALK_WRITERS * WALK_VOLATILE];
	unsigned volatiles; /* volatile keys visited */
	unsigned bad;	    /* a volatile key seen twice, or an unknown key */
};

static _Atomic(unsigned) walk_writers_done;

static int walk_visit(struct grain_htab_scope *s, struct grain_hnode *n,
		      void *ctx)
{
	struct walker *wk = ctx;
	uint64_t key = sobj_of(n)->key;

	if (key < WALK_STABLE) {
		if (++wk->visits[key] == 1 && key % 7 == 0 &&
		    grain_htab_touch_locked(
			    s, n, atomic_fetch_add(&wk->r->clock, 1)) != 0)
			wk->bad++;
	} else if (key - WALK_STABLE < WALK_WRITERS * WALK_VOLATILE) {
		if (wk->seen[key - WALK_STABLE]++ != 0)
			wk->bad++;
		wk->volatiles++;
	} else {
		wk->bad++;
	}
	return 0;
}

static void *walk_writer(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	uint32_t next_id = w->id * r->ids_per_thread;
	const uint32_t id_end = next_id + r->ids_per_thread;
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (w->id + 1);

	mode_enter(r->flags);
	for (unsigned i = 0; i < r->ops && !test_failing(&r->fails); i++) {
		if (past_deadline(r, i))
			break;
		uint64_t x = test_rand(&rng);
		struct grain_htab_scope s;
		if (x % 4 == 0) {
			uint64_t key = (x >> 8) % WALK_STABLE;
			grain_htab_lock(r->h, &key, &s);
			struct grain_hnode *n =
				grain_htab_find_locked(&s, &key);
			if (n == NULL ||
			    grain_htab_touch_locked(
				    &s, n, atomic_fetch_add(&r->clock, 1)) != 0)
				test_fail(&r->fails, "a stable key missing");
			grain_htab_unlock(&s);
			continue;
		}
		uint64_t key = WALK_STABLE + w->id * WALK_VOLATILE +
			       (x >> 8) % WALK_VOLATILE;
		grain_htab_lock(r->h, &key, &s);
		struct grain_hnode *n = grain_htab_find_locked(&s, &key);
		if (n != NULL) {
			uint32_t id = sobj_of(n)->id;
			if (grain_htab_remove_locked(&s, n) == 0) {
				r->state[id] = REMOVED;
				atomic_fetch_add(&r->removed, 1);
			} else {
				test_fail(&r->fails, "remove_locked failed");
			}
		} else {
			struct sobj *o = new_obj(r, key, &next_id, id_end, 8);
			if (o != NULL &&
			    grain_htab_insert_locked(
				    &s, &o->node, &key,
				    atomic_fetch_add(&r->clock, 1), 8) == 0)
				r->state[o->id] = LINKED;
			else if (o != NULL)
				test_fail(&r->fails, "insert_locked failed");
		}
		grain_htab_unlock(&s);
		test_jitter(&rng);
	}
	atomic_fetch_add(&walk_writers_done, 1u);
	mode_leave(r->flags);
	return NULL;
}

TABLE_PARAMS(htab_stress, walk, stress_modes);

ParameterizedTest(struct mode *m, htab_stress, walk, .timeout = 180)
{
	static struct run r;
	static struct walker wk;
	struct worker w[WALK_WRITERS];
	struct test_threads threads = { .n = 0 };
	const unsigned ops = test_scale(30000);

	/* Ids: WALK_WRITERS writers' ranges, then the stable nodes'. */
	run_init(&r, m->flags, WALK_WRITERS + 1, ops, 0, 1);
	cr_assert_geq(r.ids_per_thread, WALK_STABLE);
	mode_enter(r.flags);
	struct grain_htab_config c = run_config(&r, m->stripes);
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	uint32_t next_id = WALK_WRITERS * r.ids_per_thread;
	for (uint64_t k = 0; k < WALK_STABLE; k++) {
		struct sobj *o = new_obj(&r, k, &next_id, r.nids, 8);
		cr_assert_not_null(o);
		cr_assert_eq(grain_htab_insert(r.h, &o->node, &k,
					       atomic_fetch_add(&r.clock, 1),
					       8),
			     0);
		r.state[o->id] = LINKED;
	}

	atomic_store(&walk_writers_done, 0u);
	for (unsigned i = 0; i < WALK_WRITERS; i++) {
		w[i].run = &r;
		w[i].id = i;
		test_spawn(&threads, walk_writer, &w[i]);
	}
	/* Walk for as long as the writers write (and at least 8 times). */
	unsigned walks = 0, bad_walks = 0, overlapped = 0;
	for (; walks < 8 || atomic_load(&walk_writers_done) < WALK_WRITERS;
	     walks++) {
		memset(&wk, 0, sizeof(wk));
		wk.r = &r;
		if (grain_htab_walk(r.h, walk_visit, &wk) != 0)
			bad_walks++;
		for (unsigned k = 0; k < WALK_STABLE; k++)
			bad_walks += wk.visits[k] != 1;
		bad_walks += wk.bad != 0;
		overlapped += wk.volatiles != 0;
		if (bad_walks != 0 || test_failing(&r.fails))
			break;
		/* Leave the writers some time with no stripe held. */
		struct timespec pause = { 0, 100000 };
		nanosleep(&pause, NULL);
	}
	test_join_all(&threads);
	test_assert_no_failures(&r.fails);
	cr_assert_eq(bad_walks, 0u,
		     "walk %u: a stable key not visited exactly once, or a "
		     "volatile key twice",
		     walks);
	cr_assert_gt(atomic_load(&r.removed), 0u, "the writers removed");
	cr_assert_gt(overlapped, 0u, "no walk met a writer's key");

	grain_htab_destroy(r.h);
	check_reclaims(&r, GRAIN_HTAB_DESTROYED);
	mode_leave(r.flags);
	run_fini(&r);
}
