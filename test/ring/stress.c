/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stress.c - the grain_ring stress harness (see stress.h).
 */
#define _GNU_SOURCE
#include "stress.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "../common/test_threads.h"

#define MAX_THREADS 16
#define MAX_BATCH 64
#define WAIT_NS (20LL * 1000000000) /* a lost wake-up fails, not hangs */

struct stress {
	const struct stress_cfg *cfg;
	struct grain_ring *ring;
	pthread_mutex_t prod_lock, cons_lock; /* SP / SC handover */
	_Atomic(unsigned char) *seen;	      /* one counter per token */
	_Atomic(uint64_t) consumed;
	struct test_failures fails; /* workers never assert */
	struct test_gate go;
	uint64_t total;
	int64_t give_up_ns; /* lost tokens must fail the test, not hang it */
	_Atomic(bool) done; /* workers joined: the watcher stops */
	uint64_t snapshots; /* taken by the watcher */
};

struct worker {
	struct stress *st;
	unsigned id;
};

/* Criterion's assertions may only fail on the test's own thread: workers
 * record what went wrong and the main thread asserts on it. */
static void *token(unsigned producer, unsigned seq)
{
	/* Token 0 (producer 0, sequence 0) is NULL: NULL must travel too. */
	return (void *)(((uintptr_t)producer << 32) | seq);
}

static void lock_if(bool single, pthread_mutex_t *m)
{
	if (single)
		pthread_mutex_lock(m);
}

static void unlock_if(bool single, pthread_mutex_t *m)
{
	if (single)
		pthread_mutex_unlock(m);
}

static unsigned produce_some(struct stress *st, void **objs, unsigned n)
{
	const struct stress_cfg *c = st->cfg;
	struct grain_ring *r = st->ring;
	int rc;

	switch (c->op) {
	case STRESS_SINGLE:
		return grain_ring_try_enqueue(r, objs[0]) == 0;
	case STRESS_BULK:
		return grain_ring_try_enqueue_bulk(r, objs, n) == 0 ? n : 0;
	case STRESS_BURST:
		rc = grain_ring_try_enqueue_burst(r, objs, n);
		if (rc < 0)
			test_fail(&st->fails,
				  "enqueue_burst returned an error");
		return rc > 0 ? (unsigned)rc : 0;
	case STRESS_WAIT:
		if (n == 1)
			rc = grain_ring_enqueue_wait(r, objs[0], WAIT_NS);
		else
			rc = grain_ring_enqueue_bulk_wait(r, objs, n, WAIT_NS);
		if (rc != 0)
			test_fail(&st->fails,
				  "enqueue wait failed (lost wake-up?)");
		return rc == 0 ? n : 0;
	}
	return 0;
}

static void *producer(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	const struct stress_cfg *c = st->cfg;
	bool single = (c->flags & GRAIN_RING_SP) != 0;
	unsigned batch = c->op == STRESS_SINGLE ? 1 : c->batch;
	uint64_t rng = 0x9E3779B97F4A7C15ULL * (w->id + 1);
	void *objs[MAX_BATCH];
	unsigned seq = 0;

	test_gate_wait(&st->go);
	for (unsigned iter = 0; seq < c->per_producer; iter++) {
		if ((iter & 1023) == 0 && test_now_ns() > st->give_up_ns) {
			test_fail(&st->fails, "stalled: the ring stayed full");
			break;
		}
		if (test_failing(&st->fails))
			break;
		unsigned n = c->per_producer - seq < batch
				     ? c->per_producer - seq
				     : batch;
		for (unsigned i = 0; i < n; i++)
			objs[i] = token(w->id, seq + i);
		/* In SP mode with a wait op, sleeping while holding the
		 * handover mutex is fine: only producers take it. */
		lock_if(single, &st->prod_lock);
		unsigned done = produce_some(st, objs, n);
		unlock_if(single, &st->prod_lock);
		seq += done;
		if (done == 0)
			sched_yield();
		if (c->jitter)
			test_jitter(&rng);
	}
	return NULL;
}

static unsigned consume_some(struct stress *st, void **objs, unsigned n,
			     bool finishing)
{
	const struct stress_cfg *c = st->cfg;
	struct grain_ring *r = st->ring;
	int rc;

	switch (c->op) {
	case STRESS_SINGLE:
		return grain_ring_try_dequeue(r, objs) == 0;
	case STRESS_BULK:
		if (!finishing)
			return grain_ring_try_dequeue_bulk(r, objs, n) == 0 ? n
									    : 0;
		/* Fewer than n may be left in the whole run. */
		/* fall through */
	case STRESS_BURST:
		rc = grain_ring_try_dequeue_burst(r, objs, n);
		if (rc < 0)
			test_fail(&st->fails,
				  "dequeue_burst returned an error");
		return rc > 0 ? (unsigned)rc : 0;
	case STRESS_WAIT:
		/* Short timeouts: the run ends when the last token is out,
		 * and consumers must notice that. */
		rc = grain_ring_dequeue_burst_wait(r, objs, n, 2000000);
		if (rc <= 0 && rc != -ETIMEDOUT)
			test_fail(&st->fails,
				  "dequeue_burst_wait returned an error");
		return rc > 0 ? (unsigned)rc : 0;
	}
	return 0;
}

static void *consumer(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	const struct stress_cfg *c = st->cfg;
	bool single = (c->flags & GRAIN_RING_SC) != 0;
	unsigned batch = c->op == STRESS_SINGLE ? 1 : c->batch;
	int64_t last[MAX_THREADS];
	uint64_t rng = 0xD1B54A32D192ED03ULL * (w->id + 1);
	void *objs[MAX_BATCH];

	for (unsigned p = 0; p < MAX_THREADS; p++)
		last[p] = -1;
	test_gate_wait(&st->go);
	for (unsigned iter = 0;
	     atomic_load_explicit(&st->consumed, memory_order_relaxed) <
	     st->total;
	     iter++) {
		if ((iter & 1023) == 0 && test_now_ns() > st->give_up_ns) {
			test_fail(&st->fails,
				  "stalled: tokens lost or never published");
			break;
		}
		if (test_failing(&st->fails))
			break; /* already failed: stop early */
		bool finishing =
			st->total - atomic_load_explicit(&st->consumed,
							 memory_order_relaxed) <
			(uint64_t)batch * c->consumers;
		lock_if(single, &st->cons_lock);
		unsigned got = consume_some(st, objs, batch, finishing);
		/* Check order under the handover lock: with SC the next
		 * holder's tokens are later in the ring. */
		for (unsigned i = 0; i < got; i++) {
			uintptr_t t = (uintptr_t)objs[i];
			unsigned p = (unsigned)(t >> 32), s = (unsigned)t;

			if (p >= c->producers || s >= c->per_producer ||
			    (int64_t)s <= last[p]) {
				test_fail(
					&st->fails,
					"token invented or out of producer order");
				continue;
			}
			last[p] = s;
			if (atomic_fetch_add_explicit(
				    &st->seen[(uint64_t)p * c->per_producer + s],
				    1, memory_order_relaxed) != 0)
				test_fail(&st->fails, "token dequeued twice");
		}
		unlock_if(single, &st->cons_lock);
		if (got != 0)
			atomic_fetch_add_explicit(&st->consumed, got,
						  memory_order_relaxed);
		else
			sched_yield();
		if (c->jitter)
			test_jitter(&rng);
	}
	return NULL;
}

/* Snapshots racing with every worker: what ring.h's "Snapshots" promises. */
static void *watcher(void *arg)
{
	struct stress *st = arg;
	struct grain_ring *r = st->ring;
	const unsigned cap = grain_ring_capacity(r);
	uint64_t last_enq = 0, last_deq = 0;

	/* The watcher starts the workers after its first snapshot, so it
	 * takes at least one however late it is scheduled, and it is
	 * running before anything moves. */
	bool first = true;
	do {
		unsigned used = grain_ring_count(r);
		unsigned room = grain_ring_free_count(r);
		uint64_t enq, deq;

		grain_ring_totals(r, &enq, &deq);
		st->snapshots++;
		if (used > cap)
			test_fail(&st->fails, "count above the capacity");
		if (room > cap)
			test_fail(&st->fails, "free_count above the capacity");
		if ((int64_t)(enq - deq) < 0)
			test_fail(&st->fails,
				  "totals: more dequeued than enqueued");
		if ((int64_t)(enq - last_enq) < 0)
			test_fail(&st->fails,
				  "totals: enqueued went backwards");
		if ((int64_t)(deq - last_deq) < 0)
			test_fail(&st->fails,
				  "totals: dequeued went backwards");
		if (enq > st->total || deq > st->total)
			test_fail(&st->fails,
				  "totals: more than was ever enqueued");
		last_enq = enq;
		last_deq = deq;
		if (first) {
			test_gate_open(&st->go);
			first = false;
		}
		if (test_failing(&st->fails))
			break;
	} while (!atomic_load_explicit(&st->done, memory_order_acquire));
	return NULL;
}

void stress_run(const struct stress_cfg *c)
{
	struct stress st = { .cfg = c };
	struct worker prods[MAX_THREADS], conss[MAX_THREADS];
	struct test_threads workers = { .n = 0 }, watch = { .n = 0 };
	unsigned flags = c->flags |
			 (c->op == STRESS_WAIT ? GRAIN_RING_WAIT : 0);

	cr_assert(c->producers <= MAX_THREADS && c->consumers <= MAX_THREADS);
	cr_assert(c->batch <= MAX_BATCH && c->batch <= c->capacity);
	cr_assert_eq(grain_ring_create(&st.ring, c->capacity, flags, NULL), 0);
	if (c->start_pos != 0)
		grain_impl_ring_reset(st.ring, c->start_pos);
	st.total = (uint64_t)c->producers * c->per_producer;
	st.give_up_ns = test_now_ns() + 60LL * 1000000000;
	st.seen = calloc(st.total, sizeof(*st.seen));
	cr_assert_not_null(st.seen);
	pthread_mutex_init(&st.prod_lock, NULL);
	pthread_mutex_init(&st.cons_lock, NULL);

	for (unsigned i = 0; i < c->consumers; i++)
		conss[i] = (struct worker){ .st = &st, .id = i };
	for (unsigned i = 0; i < c->producers; i++)
		prods[i] = (struct worker){ .st = &st, .id = i };
	TEST_SPAWN_EACH(&workers, consumer, conss, c->consumers);
	TEST_SPAWN_EACH(&workers, producer, prods, c->producers);
	if (c->watch)
		test_spawn(&watch, watcher, &st);
	else /* the watcher opens the gate after its first snapshot */
		test_gate_open(&st.go);
	test_join_all(&workers);
	atomic_store_explicit(&st.done, true, memory_order_release);
	if (c->watch) {
		test_join_all(&watch);
		cr_assert_gt(st.snapshots, 0);
	}

	test_assert_no_failures(&st.fails);
	cr_assert_eq(atomic_load(&st.consumed), st.total);
	for (uint64_t i = 0; i < st.total; i++)
		cr_assert_eq(atomic_load(&st.seen[i]), 1u,
			     "token %llu dequeued %u times",
			     (unsigned long long)i, atomic_load(&st.seen[i]));
	cr_assert(grain_ring_empty(st.ring));
	cr_assert_eq(grain_ring_count(st.ring), 0u);
	cr_assert_eq(grain_ring_free_count(st.ring), c->capacity);
	uint64_t enq, deq;
	grain_ring_totals(st.ring, &enq, &deq);
	cr_assert_eq(enq, st.total, "every token counted in");
	cr_assert_eq(deq, st.total, "every token counted out");
	void *extra;
	cr_assert_eq(grain_ring_try_dequeue(st.ring, &extra), -EAGAIN);
	free(st.seen);
	pthread_mutex_destroy(&st.prod_lock);
	pthread_mutex_destroy(&st.cons_lock);
	grain_ring_destroy(st.ring);
}
