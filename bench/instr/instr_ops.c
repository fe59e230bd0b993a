/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr_ops.c - single-threaded operations of grain's blocks and of the
 * tables and queues they are measured against, one kind per run, for
 * counting instructions per operation (bench/instructions.sh runs each
 * kind under valgrind's callgrind and collects only inside
 * instr_measure()).
 *
 * Usage: instr_ops --list          the kinds, one per line (tab-separated:
 *                                  kind, family, implementation, operation,
 *                                  what one operation is)
 *        instr_ops KIND [OPS]      set KIND up, run OPS operations in
 *                                  instr_measure(), check them, print
 *                                  "KIND ops=OPS"
 *        instr_ops --all [OPS]     every kind in turn (a smoke test)
 * OPS defaults to 65536 and is rounded up to a multiple of 32.
 *
 * What one operation is:
 *   ring  a pair: one enqueue and one dequeue of one token, in rounds of 32
 *         enqueues then 32 dequeues (single), or one bulk enqueue and one
 *         burst dequeue of 32 (bulk32): the queue never holds more than 32.
 *   htab  one insert of an absent key, one lookup of a present key, or one
 *         remove of a present key, in a table of OPS entries at most with
 *         about one bucket per entry (no resize); grain's with its LRU,
 *         byte accounting, a high watermark and a TTL on, neither of them
 *         reached, as in bench/htab's mixed runs. Nodes are preallocated
 *         and never freed during the run, so malloc is not counted; for
 *         the RCU table a remove's deferred free (call_rcu) is counted up to
 *         its hand-off, not the free on liburcu's thread.
 *   prio  an item: one enqueue by priority (the benchmark's stream: 75%
 *         priority 0, 12.5% 2, 12.5% 6, three bands by pfifo_fast's map)
 *         and its dequeue, in rounds of 32 enqueues then 32 single
 *         dequeues (single) or one burst dequeue of 32 (burst32).
 * Instructions include the few of the driving loop (a counter, a token
 * sum), the same for every implementation of a family.
 */
/* liburcu's read side inline (its static headers), as the timed htab
 * benchmark and a daemon that cares about lookup cost use it. */
#define _LGPL_SOURCE
#include "instr_ops.h"

#include "baselines/mutex_ring.h"
#include "baselines/twolock_ring.h"
#include "htab/baselines/mutex_table.h"
#include "htab/baselines/striped_table.h"
#include "prio/baselines/pfifo_list.h"

#include <grain/hash.h>
#include <grain/htab.h>
#include <grain/prio.h>
#include <grain/ring.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/urcu-memb.h>

#define INSTR_DEFAULT_OPS 65536u
#define INSTR_STRIPED_LOCKS 256u /* as the htab benchmark's baseline */
#define INSTR_PRIO_BANDS 3u

struct instr_state;

struct instr_kind {
	const char *name;   /* "ring/grain-MPMC/single" */
	const char *family; /* "ring", "htab", "prio" */
	const char *impl;   /* as the benchmarks name it: "grain MPMC" */
	const char *op;	    /* "single", "insert", ... */
	const char *per;    /* what one operation is */
	int (*setup)(struct instr_state *s);
	uint64_t (*run)(struct instr_state *s); /* operations that succeeded */
	void (*teardown)(struct instr_state *s);
	unsigned arg; /* ring mode flags, stripe count, lock kind, ... */
};

struct instr_state {
	const struct instr_kind *kind;
	uint64_t ops;
	void *obj;    /* the queue or table */
	void *nodes;  /* htab and prio items */
	uint64_t sum; /* tokens, values or items seen by the run */
	bool rcu;
};

/* Not inlined, not cloned, not renamed: callgrind collects from its entry
 * to its return (--toggle-collect=instr_measure). */
#if defined(__clang__)
#define INSTR_MEASURED __attribute__((noinline, used))
#else
#define INSTR_MEASURED __attribute__((noinline, noclone, used))
#endif
INSTR_MEASURED uint64_t instr_measure(const struct instr_kind *k,
				      struct instr_state *s);

uint64_t instr_measure(const struct instr_kind *k, struct instr_state *s)
{
	return k->run(s);
}

/* --- ring -------------------------------------------------------------- */

static int grain_ring_setup(struct instr_state *s)
{
	struct grain_ring *r;
	int rc = grain_ring_create(&r, INSTR_RING_CAPACITY, s->kind->arg, NULL);

	s->obj = rc == 0 ? r : NULL;
	return rc;
}

static void grain_ring_teardown(struct instr_state *s)
{
	grain_ring_destroy(s->obj);
}

static int grain_put(void *q, void *obj)
{
	return grain_ring_try_enqueue(q, obj);
}

static int grain_get(void *q, void **objp)
{
	return grain_ring_try_dequeue(q, objp);
}

static unsigned grain_put_bulk(void *q, void *const *objs, unsigned n)
{
	return grain_ring_try_enqueue_bulk(q, objs, n) == 0 ? n : 0;
}

static unsigned grain_get_burst(void *q, void **objs, unsigned n)
{
	int k = grain_ring_try_dequeue_burst(q, objs, n);
	return k > 0 ? (unsigned)k : 0;
}

static uint64_t grain_ring_single(struct instr_state *s)
{
	return instr_ring_single(s->obj, s->ops, &s->sum, grain_put, grain_get);
}

static uint64_t grain_ring_bulk(struct instr_state *s)
{
	return instr_ring_bulk(s->obj, s->ops, &s->sum, grain_put_bulk,
			       grain_get_burst);
}

static int mutex_ring_setup(struct instr_state *s)
{
	struct bench_mutex_ring *r;
	int rc = bench_mutex_ring_create(&r, INSTR_RING_CAPACITY);

	s->obj = rc == 0 ? r : NULL;
	return rc;
}

static void mutex_ring_teardown(struct instr_state *s)
{
	bench_mutex_ring_destroy(s->obj);
}

static int mutex_put(void *q, void *obj)
{
	return bench_mutex_ring_try_enqueue(q, obj);
}

static int mutex_get(void *q, void **objp)
{
	return bench_mutex_ring_try_dequeue(q, objp);
}

static unsigned mutex_put_bulk(void *q, void *const *objs, unsigned n)
{
	return bench_mutex_ring_enqueue_bulk(q, objs, n) == 0 ? n : 0;
}

static unsigned mutex_get_burst(void *q, void **objs, unsigned n)
{
	return bench_mutex_ring_dequeue_burst(q, objs, n);
}

static uint64_t mutex_ring_single(struct instr_state *s)
{
	return instr_ring_single(s->obj, s->ops, &s->sum, mutex_put, mutex_get);
}

static uint64_t mutex_ring_bulk(struct instr_state *s)
{
	return instr_ring_bulk(s->obj, s->ops, &s->sum, mutex_put_bulk,
			       mutex_get_burst);
}

static int twolock_ring_setup(struct instr_state *s)
{
	struct bench_twolock_ring *r;
	/* zero_batch 0: the baseline's default, as the ring benchmark. */
	int rc = bench_twolock_ring_create(&r, INSTR_RING_CAPACITY, 0);

	s->obj = rc == 0 ? r : NULL;
	return rc;
}

static void twolock_ring_teardown(struct instr_state *s)
{
	bench_twolock_ring_destroy(s->obj);
}

static int twolock_put(void *q, void *obj)
{
	return bench_twolock_ring_try_enqueue(q, obj);
}

static int twolock_get(void *q, void **objp)
{
	return bench_twolock_ring_try_dequeue(q, objp);
}

static unsigned twolock_put_bulk(void *q, void *const *objs, unsigned n)
{
	return bench_twolock_ring_enqueue_bulk(q, objs, n) == 0 ? n : 0;
}

static unsigned twolock_get_burst(void *q, void **objs, unsigned n)
{
	return bench_twolock_ring_dequeue_burst(q, objs, n);
}

static uint64_t twolock_ring_single(struct instr_state *s)
{
	return instr_ring_single(s->obj, s->ops, &s->sum, twolock_put,
				 twolock_get);
}

static uint64_t twolock_ring_bulk(struct instr_state *s)
{
	return instr_ring_bulk(s->obj, s->ops, &s->sum, twolock_put_bulk,
			       twolock_get_burst);
}

#ifdef INSTR_HAVE_CK
static int ck_setup(struct instr_state *s)
{
	s->obj = instr_ck_create();
	return s->obj != NULL ? 0 : -ENOMEM;
}

static void ck_teardown(struct instr_state *s)
{
	instr_ck_destroy(s->obj);
}

static uint64_t ck_single(struct instr_state *s)
{
	return instr_ck_single(s->obj, s->ops, &s->sum);
}
#endif

#ifdef INSTR_HAVE_DPDK
static int rte_setup(struct instr_state *s)
{
	s->obj = instr_rte_create();
	return s->obj != NULL ? 0 : -ENOMEM;
}

static void rte_teardown(struct instr_state *s)
{
	instr_rte_destroy(s->obj);
}

static uint64_t rte_single(struct instr_state *s)
{
	return instr_rte_single(s->obj, s->ops, &s->sum);
}

static uint64_t rte_bulk(struct instr_state *s)
{
	return instr_rte_bulk(s->obj, s->ops, &s->sum);
}
#endif

/* Sum of the tokens of one round, times the rounds. */
static uint64_t ring_expected_sum(uint64_t ops)
{
	uint64_t round = (uint64_t)INSTR_ROUND * (INSTR_ROUND + 1) / 2;
	return ops / INSTR_ROUND * round;
}

/* --- htab -------------------------------------------------------------- */

enum htab_op { HTAB_INSERT, HTAB_LOOKUP, HTAB_REMOVE };

/* kind->arg for the htab kinds: op | (stripes << 4) | rcu << 30 (grain);
 * op | impl << 4 for the baselines. */
#define HTAB_ARG(op, stripes, rcu) \
	((unsigned)(op) | (unsigned)(stripes) << 4 | (unsigned)(rcu) << 30)
#define HTAB_OP(arg) ((enum htab_op)((arg)&0xfu))
#define HTAB_STRIPES(arg) (((arg) >> 4) & 0x3ffffu)
#define HTAB_RCU(arg) (((arg) >> 30) & 1u)

/* Distinct, non-zero, scattered keys; value = key ^ a constant. */
static uint64_t htab_key(uint64_t i)
{
	return (i + 1) * UINT64_C(0x9e3779b97f4a7c15);
}

static uint64_t htab_value(uint64_t key)
{
	return key ^ UINT64_C(0x5555555555555555);
}

static unsigned pow2_at_least(uint64_t n)
{
	unsigned p = 16;
	while (p < n && p < (1u << 30))
		p <<= 1;
	return p;
}

struct grain_item {
	uint64_t key;
	uint64_t value;
	struct grain_hnode node;
};

static uint64_t item_hash(const void *key, const struct grain_hash_key *secret,
			  void *ctx)
{
	(void)secret;
	(void)ctx;
	return grain_hash_mix64(*(const uint64_t *)key);
}

static bool item_eq(const struct grain_hnode *node, const void *key, void *ctx)
{
	(void)ctx;
	const struct grain_item *it =
		(const struct grain_item
			 *)(const void *)((const char *)node -
					  offsetof(struct grain_item, node));
	return it->key == *(const uint64_t *)key;
}

/* Nodes belong to the state's array, freed after the table. */
static void item_reclaim(struct grain_hnode *node, enum grain_htab_reason why,
			 void *ctx)
{
	(void)node;
	(void)why;
	(void)ctx;
}

/* The calls the timed benchmark makes: the _fast forms, hash and equality
 * inlined. */
static const struct grain_htab_params item_params = { item_hash, item_eq };

static int grain_htab_insert_item(struct grain_htab *h, struct grain_item *it)
{
	return grain_htab_insert_fast(h, &it->node, &it->key, 0, 1,
				      item_params);
}

static int grain_htab_setup(struct instr_state *s)
{
	unsigned arg = s->kind->arg;
	unsigned stripes = HTAB_STRIPES(arg);
	struct grain_htab_config cfg;
	struct grain_htab *h;
	struct grain_item *items = calloc(s->ops, sizeof(*items));

	if (items == NULL)
		return -ENOMEM;
	for (uint64_t i = 0; i < s->ops; i++) {
		items[i].key = htab_key(i);
		items[i].value = htab_value(items[i].key);
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.ops.hash = item_hash;
	cfg.ops.eq = item_eq;
	cfg.ops.reclaim = item_reclaim;
	cfg.stripes = stripes;
	cfg.buckets = pow2_at_least(pow2_at_least(s->ops) / stripes);
	cfg.flags = HTAB_RCU(arg) ? 0u : GRAIN_HTAB_NO_RCU;
	/* Every feature on, as in the timed benchmark's mixed runs: a high
	 * watermark (checked by every insert, never reached) and a TTL
	 * (every insert looks at its stripe's oldest entry; stamps are 0,
	 * so nothing expires). */
	cfg.policy = GRAIN_HTAB_EVICT;
	cfg.mem_high = 2u * (size_t)s->ops;
	cfg.ttl = UINT64_MAX / 2;
	s->rcu = HTAB_RCU(arg) != 0;
	if (s->rcu)
		grain_rcu_register_thread();
	int rc = grain_htab_create(&h, &cfg, NULL);
	if (rc != 0) {
		free(items);
		return rc;
	}
	s->obj = h;
	s->nodes = items;
	if (HTAB_OP(arg) != HTAB_INSERT)
		for (uint64_t i = 0; i < s->ops; i++)
			if (grain_htab_insert_item(h, &items[i]) != 0)
				return -EIO;
	return 0;
}

static void grain_htab_teardown(struct instr_state *s)
{
	grain_htab_destroy(s->obj);
	if (s->rcu) {
		grain_rcu_barrier();
		grain_rcu_unregister_thread();
	}
	free(s->nodes);
}

static uint64_t grain_htab_run(struct instr_state *s)
{
	struct grain_htab *h = s->obj;
	struct grain_item *items = s->nodes;
	uint64_t done = 0;

	switch (HTAB_OP(s->kind->arg)) {
	case HTAB_INSERT:
		for (uint64_t i = 0; i < s->ops; i++)
			done += grain_htab_insert_item(h, &items[i]) == 0;
		break;
	case HTAB_LOOKUP:
		if (s->rcu) {
			for (uint64_t i = 0; i < s->ops; i++) {
				uint64_t key = htab_key(i);
				urcu_memb_read_lock();
				struct grain_hnode *n = grain_htab_lookup_fast(
					h, &key, item_params);
				if (n != NULL) {
					s->sum += grain_container_of(
							  n, struct grain_item,
							  node)
							  ->value;
					done++;
				}
				urcu_memb_read_unlock();
			}
		} else {
			for (uint64_t i = 0; i < s->ops; i++) {
				uint64_t key = htab_key(i);
				struct grain_htab_scope scope;
				grain_htab_lock_fast(h, &key, &scope,
						     item_params);
				struct grain_hnode *n = grain_htab_find_locked_fast(
					&scope, &key, item_params);
				if (n != NULL) {
					s->sum += grain_container_of(
							  n, struct grain_item,
							  node)
							  ->value;
					done++;
				}
				grain_htab_unlock(&scope);
			}
		}
		break;
	case HTAB_REMOVE:
		for (uint64_t i = 0; i < s->ops; i++) {
			uint64_t key = htab_key(i);
			done += grain_htab_remove_fast(h, &key, NULL,
						       item_params) == 0;
		}
		break;
	}
	return done;
}

enum htab_baseline { HTAB_MUTEX, HTAB_STRIPED };

static int base_htab_setup(struct instr_state *s)
{
	unsigned arg = s->kind->arg;
	unsigned buckets = pow2_at_least(s->ops);
	int rc;

	if (HTAB_STRIPES(arg) == HTAB_MUTEX) {
		struct bench_mutex_table *t;
		struct bench_mutex_table_node *nodes =
			calloc(s->ops, sizeof(*nodes));
		if (nodes == NULL)
			return -ENOMEM;
		rc = bench_mutex_table_create(&t, buckets);
		if (rc != 0) {
			free(nodes);
			return rc;
		}
		for (uint64_t i = 0; i < s->ops; i++) {
			nodes[i].key = htab_key(i);
			nodes[i].value = htab_value(nodes[i].key);
		}
		s->obj = t;
		s->nodes = nodes;
		if (HTAB_OP(arg) != HTAB_INSERT)
			for (uint64_t i = 0; i < s->ops; i++)
				if (bench_mutex_table_insert(t, &nodes[i]) != 0)
					return -EIO;
	} else {
		struct bench_striped_table *t;
		struct bench_striped_table_node *nodes =
			calloc(s->ops, sizeof(*nodes));
		if (nodes == NULL)
			return -ENOMEM;
		rc = bench_striped_table_create(&t, INSTR_STRIPED_LOCKS,
						buckets);
		if (rc != 0) {
			free(nodes);
			return rc;
		}
		for (uint64_t i = 0; i < s->ops; i++) {
			nodes[i].key = htab_key(i);
			nodes[i].value = htab_value(nodes[i].key);
		}
		s->obj = t;
		s->nodes = nodes;
		if (HTAB_OP(arg) != HTAB_INSERT)
			for (uint64_t i = 0; i < s->ops; i++)
				if (bench_striped_table_insert(t, &nodes[i]) !=
				    0)
					return -EIO;
	}
	return 0;
}

static void mutex_node_keep(struct bench_mutex_table_node *n)
{
	(void)n;
}

static void striped_node_keep(struct bench_striped_table_node *n)
{
	(void)n;
}

static void base_htab_teardown(struct instr_state *s)
{
	if (HTAB_STRIPES(s->kind->arg) == HTAB_MUTEX)
		bench_mutex_table_destroy(s->obj, mutex_node_keep);
	else
		bench_striped_table_destroy(s->obj, striped_node_keep);
	free(s->nodes);
}

static uint64_t mutex_htab_run(struct instr_state *s)
{
	struct bench_mutex_table *t = s->obj;
	struct bench_mutex_table_node *nodes = s->nodes;
	uint64_t done = 0;

	switch (HTAB_OP(s->kind->arg)) {
	case HTAB_INSERT:
		for (uint64_t i = 0; i < s->ops; i++)
			done += bench_mutex_table_insert(t, &nodes[i]) == 0;
		break;
	case HTAB_LOOKUP:
		for (uint64_t i = 0; i < s->ops; i++) {
			uint64_t v;
			if (bench_mutex_table_lookup(t, htab_key(i), &v)) {
				s->sum += v;
				done++;
			}
		}
		break;
	case HTAB_REMOVE:
		for (uint64_t i = 0; i < s->ops; i++)
			done += bench_mutex_table_remove(t, htab_key(i)) !=
				NULL;
		break;
	}
	return done;
}

static uint64_t striped_htab_run(struct instr_state *s)
{
	struct bench_striped_table *t = s->obj;
	struct bench_striped_table_node *nodes = s->nodes;
	uint64_t done = 0;

	switch (HTAB_OP(s->kind->arg)) {
	case HTAB_INSERT:
		for (uint64_t i = 0; i < s->ops; i++)
			done += bench_striped_table_insert(t, &nodes[i]) == 0;
		break;
	case HTAB_LOOKUP:
		for (uint64_t i = 0; i < s->ops; i++) {
			uint64_t v;
			if (bench_striped_table_lookup(t, htab_key(i), &v)) {
				s->sum += v;
				done++;
			}
		}
		break;
	case HTAB_REMOVE:
		for (uint64_t i = 0; i < s->ops; i++)
			done += bench_striped_table_remove(t, htab_key(i)) !=
				NULL;
		break;
	}
	return done;
}

static uint64_t htab_expected_sum(const struct instr_state *s)
{
	uint64_t sum = 0;

	if (HTAB_OP(s->kind->arg) == HTAB_LOOKUP)
		for (uint64_t i = 0; i < s->ops; i++)
			sum += htab_value(htab_key(i));
	return sum;
}

/* --- prio -------------------------------------------------------------- */

/* PRIO_GRAIN_BITS: grain_prio of INSTR_PRIO_BITS_BANDS bands, of which
 * the stream uses the first three: the non-empty bits path. */
enum prio_impl { PRIO_GRAIN, PRIO_SPIN, PRIO_MUTEX, PRIO_GRAIN_BITS };
#define INSTR_PRIO_BITS_BANDS 8u
#define PRIO_IS_GRAIN(arg) \
	(PRIO_IMPL(arg) == PRIO_GRAIN || PRIO_IMPL(arg) == PRIO_GRAIN_BITS)
enum prio_deq { PRIO_SINGLE, PRIO_BURST };
#define PRIO_ARG(impl, deq) ((unsigned)(impl) << 4 | (unsigned)(deq))
#define PRIO_IMPL(arg) ((enum prio_impl)((arg) >> 4))
#define PRIO_DEQ(arg) ((enum prio_deq)((arg)&0xfu))

struct prio_item {
	struct pfifo_list_node link; /* the baselines' list link */
	unsigned prio;
	unsigned index; /* 1-based position in the round */
};

/* The benchmark's stream: of every 8 items, 6 of priority 0, one of 2,
 * one of 6. */
static unsigned stream_prio(unsigned i)
{
	static const unsigned pattern[8] = { 0, 0, 2, 0, 0, 0, 6, 0 };
	return pattern[i % 8];
}

static int prio_setup(struct instr_state *s)
{
	struct prio_item *items = calloc(INSTR_ROUND, sizeof(*items));
	int rc;

	if (items == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < INSTR_ROUND; i++) {
		items[i].prio = stream_prio(i);
		items[i].index = i + 1;
	}
	s->nodes = items;
	if (PRIO_IS_GRAIN(s->kind->arg)) {
		struct grain_prio_config pc = {
			.bands = PRIO_IMPL(s->kind->arg) == PRIO_GRAIN_BITS
					 ? INSTR_PRIO_BITS_BANDS
					 : INSTR_PRIO_BANDS,
			.flags = GRAIN_PRIO_SC,
			.capacity = INSTR_RING_CAPACITY,
		};
		struct grain_prio *p;
		rc = grain_prio_create(&p, &pc, NULL);
		s->obj = rc == 0 ? p : NULL;
	} else {
		struct pfifo_list *q;
		rc = pfifo_list_create(&q, INSTR_RING_CAPACITY,
				       PRIO_IMPL(s->kind->arg) == PRIO_MUTEX
					       ? PFIFO_LIST_MUTEX
					       : PFIFO_LIST_SPINLOCK);
		s->obj = rc == 0 ? q : NULL;
	}
	return rc;
}

static void prio_teardown(struct instr_state *s)
{
	if (PRIO_IS_GRAIN(s->kind->arg))
		grain_prio_destroy(s->obj);
	else
		pfifo_list_destroy(s->obj);
	free(s->nodes);
}

static uint64_t grain_prio_run(struct instr_state *s)
{
	struct grain_prio *p = s->obj;
	struct prio_item *items = s->nodes;
	bool burst = PRIO_DEQ(s->kind->arg) == PRIO_BURST;
	uint64_t done = 0;

	for (uint64_t r = 0; r < s->ops / INSTR_ROUND; r++) {
		for (unsigned i = 0; i < INSTR_ROUND; i++)
			if (grain_prio_try_enqueue_prio(p, items[i].prio,
						    &items[i]) != 0)
				return done;
		if (burst) {
			void *objs[INSTR_ROUND];
			int k = grain_prio_try_dequeue_burst(p, objs, INSTR_ROUND);
			if (k != (int)INSTR_ROUND)
				return done;
			for (unsigned i = 0; i < INSTR_ROUND; i++)
				s->sum += ((struct prio_item *)objs[i])->index;
		} else {
			for (unsigned i = 0; i < INSTR_ROUND; i++) {
				void *obj;
				unsigned band;
				if (grain_prio_try_dequeue(p, &obj, &band) != 0)
					return done;
				s->sum += ((struct prio_item *)obj)->index;
			}
		}
		done += INSTR_ROUND;
	}
	return done;
}

static uint64_t pfifo_run(struct instr_state *s)
{
	struct pfifo_list *q = s->obj;
	struct prio_item *items = s->nodes;
	bool burst = PRIO_DEQ(s->kind->arg) == PRIO_BURST;
	uint64_t done = 0;

	for (uint64_t r = 0; r < s->ops / INSTR_ROUND; r++) {
		for (unsigned i = 0; i < INSTR_ROUND; i++)
			if (pfifo_list_enqueue(q, &items[i].link,
					       items[i].prio) != 0)
				return done;
		if (burst) {
			struct pfifo_list_node *nodes[INSTR_ROUND];
			if (pfifo_list_dequeue_burst(q, nodes, INSTR_ROUND) !=
			    INSTR_ROUND)
				return done;
			for (unsigned i = 0; i < INSTR_ROUND; i++)
				s->sum += grain_container_of(nodes[i],
							     struct prio_item,
							     link)
						  ->index;
		} else {
			for (unsigned i = 0; i < INSTR_ROUND; i++) {
				unsigned band;
				struct pfifo_list_node *n =
					pfifo_list_dequeue(q, &band);
				if (n == NULL)
					return done;
				s->sum += grain_container_of(
						  n, struct prio_item, link)
						  ->index;
			}
		}
		done += INSTR_ROUND;
	}
	return done;
}

/* --- the kinds --------------------------------------------------------- */

/* What one operation is, for the report. */
#define PAIR "pair: one enqueue + one dequeue"
#define ITEM "item: one enqueue by priority + its dequeue"
#define INSERT_OP "insert of an absent key"
#define LOOKUP_OP "lookup of a present key"
#define REMOVE_OP "remove of a present key"

static const struct instr_kind kinds[] = {
	{ "ring/grain-MPMC/single", "ring", "grain MPMC", "single", PAIR,
	  grain_ring_setup, grain_ring_single, grain_ring_teardown,
	  GRAIN_RING_MPMC },
	{ "ring/grain-MPMC/bulk32", "ring", "grain MPMC", "bulk32", PAIR,
	  grain_ring_setup, grain_ring_bulk, grain_ring_teardown,
	  GRAIN_RING_MPMC },
	{ "ring/grain-MPSC/single", "ring", "grain MPSC", "single", PAIR,
	  grain_ring_setup, grain_ring_single, grain_ring_teardown,
	  GRAIN_RING_MPSC },
	{ "ring/grain-MPSC/bulk32", "ring", "grain MPSC", "bulk32", PAIR,
	  grain_ring_setup, grain_ring_bulk, grain_ring_teardown,
	  GRAIN_RING_MPSC },
	{ "ring/grain-SPMC/single", "ring", "grain SPMC", "single", PAIR,
	  grain_ring_setup, grain_ring_single, grain_ring_teardown,
	  GRAIN_RING_SPMC },
	{ "ring/grain-SPMC/bulk32", "ring", "grain SPMC", "bulk32", PAIR,
	  grain_ring_setup, grain_ring_bulk, grain_ring_teardown,
	  GRAIN_RING_SPMC },
	{ "ring/grain-SPSC/single", "ring", "grain SPSC", "single", PAIR,
	  grain_ring_setup, grain_ring_single, grain_ring_teardown,
	  GRAIN_RING_SPSC },
	{ "ring/grain-SPSC/bulk32", "ring", "grain SPSC", "bulk32", PAIR,
	  grain_ring_setup, grain_ring_bulk, grain_ring_teardown,
	  GRAIN_RING_SPSC },
	{ "ring/mutex/single", "ring", "mutex", "single", PAIR,
	  mutex_ring_setup, mutex_ring_single, mutex_ring_teardown, 0 },
	{ "ring/mutex/bulk32", "ring", "mutex", "bulk32", PAIR,
	  mutex_ring_setup, mutex_ring_bulk, mutex_ring_teardown, 0 },
	{ "ring/twolock/single", "ring", "twolock", "single", PAIR,
	  twolock_ring_setup, twolock_ring_single, twolock_ring_teardown, 0 },
	{ "ring/twolock/bulk32", "ring", "twolock", "bulk32", PAIR,
	  twolock_ring_setup, twolock_ring_bulk, twolock_ring_teardown, 0 },
#ifdef INSTR_HAVE_CK
	{ "ring/ck_ring/single", "ring", "ck_ring", "single", PAIR, ck_setup,
	  ck_single, ck_teardown, 0 },
#endif
#ifdef INSTR_HAVE_DPDK
	{ "ring/rte_ring/single", "ring", "rte_ring", "single", PAIR, rte_setup,
	  rte_single, rte_teardown, 0 },
	{ "ring/rte_ring/bulk32", "ring", "rte_ring", "bulk32", PAIR, rte_setup,
	  rte_bulk, rte_teardown, 0 },
#endif
	{ "htab/grain-1/insert", "htab", "grain/1", "insert", INSERT_OP,
	  grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_INSERT, 1, 0) },
	{ "htab/grain-1/lookup", "htab", "grain/1", "lookup", LOOKUP_OP,
	  grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_LOOKUP, 1, 0) },
	{ "htab/grain-1/remove", "htab", "grain/1", "remove", REMOVE_OP,
	  grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_REMOVE, 1, 0) },
	{ "htab/grain-256/insert", "htab", "grain/256", "insert", INSERT_OP,
	  grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_INSERT, 256, 0) },
	{ "htab/grain-256/lookup", "htab", "grain/256", "lookup", LOOKUP_OP,
	  grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_LOOKUP, 256, 0) },
	{ "htab/grain-256/remove", "htab", "grain/256", "remove", REMOVE_OP,
	  grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_REMOVE, 256, 0) },
	{ "htab/grain-rcu-256/insert", "htab", "grain-rcu/256", "insert",
	  INSERT_OP, grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_INSERT, 256, 1) },
	{ "htab/grain-rcu-256/lookup", "htab", "grain-rcu/256", "lookup",
	  LOOKUP_OP, grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_LOOKUP, 256, 1) },
	{ "htab/grain-rcu-256/remove", "htab", "grain-rcu/256", "remove",
	  REMOVE_OP, grain_htab_setup, grain_htab_run, grain_htab_teardown,
	  HTAB_ARG(HTAB_REMOVE, 256, 1) },
	{ "htab/mutex/insert", "htab", "mutex", "insert", INSERT_OP,
	  base_htab_setup, mutex_htab_run, base_htab_teardown,
	  HTAB_ARG(HTAB_INSERT, HTAB_MUTEX, 0) },
	{ "htab/mutex/lookup", "htab", "mutex", "lookup", LOOKUP_OP,
	  base_htab_setup, mutex_htab_run, base_htab_teardown,
	  HTAB_ARG(HTAB_LOOKUP, HTAB_MUTEX, 0) },
	{ "htab/mutex/remove", "htab", "mutex", "remove", REMOVE_OP,
	  base_htab_setup, mutex_htab_run, base_htab_teardown,
	  HTAB_ARG(HTAB_REMOVE, HTAB_MUTEX, 0) },
	{ "htab/striped/insert", "htab", "striped", "insert", INSERT_OP,
	  base_htab_setup, striped_htab_run, base_htab_teardown,
	  HTAB_ARG(HTAB_INSERT, HTAB_STRIPED, 0) },
	{ "htab/striped/lookup", "htab", "striped", "lookup", LOOKUP_OP,
	  base_htab_setup, striped_htab_run, base_htab_teardown,
	  HTAB_ARG(HTAB_LOOKUP, HTAB_STRIPED, 0) },
	{ "htab/striped/remove", "htab", "striped", "remove", REMOVE_OP,
	  base_htab_setup, striped_htab_run, base_htab_teardown,
	  HTAB_ARG(HTAB_REMOVE, HTAB_STRIPED, 0) },
	{ "prio/grain_prio/single", "prio", "grain_prio", "single", ITEM,
	  prio_setup, grain_prio_run, prio_teardown,
	  PRIO_ARG(PRIO_GRAIN, PRIO_SINGLE) },
	{ "prio/grain_prio/burst32", "prio", "grain_prio", "burst32", ITEM,
	  prio_setup, grain_prio_run, prio_teardown,
	  PRIO_ARG(PRIO_GRAIN, PRIO_BURST) },
	{ "prio/grain_prio_bits/single", "prio", "grain_prio_bits", "single",
	  ITEM, prio_setup, grain_prio_run, prio_teardown,
	  PRIO_ARG(PRIO_GRAIN_BITS, PRIO_SINGLE) },
	{ "prio/grain_prio_bits/burst32", "prio", "grain_prio_bits", "burst32",
	  ITEM, prio_setup, grain_prio_run, prio_teardown,
	  PRIO_ARG(PRIO_GRAIN_BITS, PRIO_BURST) },
	{ "prio/pfifo_spin/single", "prio", "pfifo_spin", "single", ITEM,
	  prio_setup, pfifo_run, prio_teardown,
	  PRIO_ARG(PRIO_SPIN, PRIO_SINGLE) },
	{ "prio/pfifo_spin/burst32", "prio", "pfifo_spin", "burst32", ITEM,
	  prio_setup, pfifo_run, prio_teardown,
	  PRIO_ARG(PRIO_SPIN, PRIO_BURST) },
	{ "prio/pfifo_mutex/single", "prio", "pfifo_mutex", "single", ITEM,
	  prio_setup, pfifo_run, prio_teardown,
	  PRIO_ARG(PRIO_MUTEX, PRIO_SINGLE) },
	{ "prio/pfifo_mutex/burst32", "prio", "pfifo_mutex", "burst32", ITEM,
	  prio_setup, pfifo_run, prio_teardown,
	  PRIO_ARG(PRIO_MUTEX, PRIO_BURST) },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static uint64_t expected_sum(const struct instr_state *s)
{
	if (strcmp(s->kind->family, "htab") == 0)
		return htab_expected_sum(s);
	/* ring tokens and prio indices: 1..32 in every round */
	return ring_expected_sum(s->ops);
}

static int run_kind(const struct instr_kind *k, uint64_t ops)
{
	struct instr_state s;

	memset(&s, 0, sizeof(s));
	s.kind = k;
	s.ops = ops;
	int rc = k->setup(&s);
	if (rc != 0) {
		fprintf(stderr, "instr_ops: %s: setup failed (%d)\n", k->name,
			rc);
		return 1;
	}
	uint64_t done = instr_measure(k, &s);
	uint64_t want = expected_sum(&s);
	bool ok = done == ops && s.sum == want;
	k->teardown(&s);
	if (!ok) {
		fprintf(stderr,
			"instr_ops: %s: %llu of %llu operations, sum %llu "
			"(expected %llu)\n",
			k->name, (unsigned long long)done,
			(unsigned long long)ops, (unsigned long long)s.sum,
			(unsigned long long)want);
		return 1;
	}
	printf("%s ops=%llu\n", k->name, (unsigned long long)ops);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t ops = INSTR_DEFAULT_OPS;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: instr_ops --list | --all [OPS] | KIND [OPS]\n");
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NKINDS; i++)
			printf("%s\t%s\t%s\t%s\t%s\n", kinds[i].name,
			       kinds[i].family, kinds[i].impl, kinds[i].op,
			       kinds[i].per);
		return 0;
	}
	if (argc > 2) {
		char *end;
		unsigned long long v = strtoull(argv[2], &end, 10);
		if (*end != '\0' || v == 0 || v > (1ull << 26)) {
			fprintf(stderr, "instr_ops: bad OPS: %s\n", argv[2]);
			return 2;
		}
		ops = (v + INSTR_ROUND - 1) / INSTR_ROUND * INSTR_ROUND;
	}
	if (strcmp(argv[1], "--all") == 0) {
		int bad = 0;
		for (size_t i = 0; i < NKINDS; i++)
			bad |= run_kind(&kinds[i], ops);
		return bad;
	}
	for (size_t i = 0; i < NKINDS; i++)
		if (strcmp(kinds[i].name, argv[1]) == 0)
			return run_kind(&kinds[i], ops);
	fprintf(stderr, "instr_ops: no kind %s (see --list)\n", argv[1]);
	return 2;
}
