/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_wait.c - the blocking calls: sleepers all wake and drain,
 * timeouts, no lost wake-up in long ping-pongs (single and bulk), waiters
 * that want different counts, and stress through the _wait forms.
 */
#define _GNU_SOURCE
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdatomic.h>

#include "../common/test_util.h"
#include "stress.h"

#define LONG_NS (30LL * 1000000000) /* "never" for a correct program */

static struct grain_ring *make(unsigned cap, unsigned mode)
{
	struct grain_ring *r = NULL;

	cr_assert_eq(grain_ring_create(&r, cap, mode | GRAIN_RING_WAIT, NULL),
		     0);
	return r;
}

Test(ring_wait, timeouts)
{
	struct grain_ring *r = make(2, GRAIN_RING_MPMC);
	void *out = NULL, *two[2] = { NULL, NULL };

	int64_t t0 = test_now_ns();
	cr_assert_eq(grain_ring_dequeue_wait(r, &out, 20000000), -ETIMEDOUT);
	cr_assert_geq(test_now_ns() - t0, 20000000, "slept the whole timeout");
	cr_assert_eq(grain_ring_dequeue_wait(r, &out, 0), -ETIMEDOUT);
	cr_assert_eq(grain_ring_dequeue_burst_wait(r, two, 2, 1000000),
		     -ETIMEDOUT);

	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, two, 2, 0), 0);
	t0 = test_now_ns();
	cr_assert_eq(grain_ring_enqueue_wait(r, NULL, 20000000), -ETIMEDOUT);
	cr_assert_geq(test_now_ns() - t0, 20000000);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, two, 1, 0), -ETIMEDOUT);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, two, 1, 0), 0);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, two, 2, 1000000),
		     -ETIMEDOUT, "bulk waits for room for all");
	cr_assert_eq(grain_ring_count(r), 1u, "a timed-out bulk adds nothing");
	grain_ring_destroy(r);
}

struct sleeper {
	struct grain_ring *ring;
	_Atomic(unsigned) *woken;
	unsigned want;
	int rc;
	pthread_t thread;
};

static void *sleep_dequeue(void *arg)
{
	struct sleeper *s = arg;
	void *objs[8];

	if (s->want == 1)
		s->rc = grain_ring_dequeue_wait(s->ring, objs, LONG_NS);
	else
		s->rc = grain_ring_dequeue_bulk_wait(s->ring, objs, s->want,
						     LONG_NS);
	atomic_fetch_add(s->woken, 1);
	return NULL;
}

/* Wait until n threads are asleep on the consumer side (or 5 s). */
static void until_sleeping(struct grain_ring *r, unsigned n)
{
	for (int i = 0; i < 5000; i++) {
		if (atomic_load(&r->prod.sleepers.waiters) >= n)
			return;
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

Test(ring_wait, sleepers_all_wake_and_drain, .timeout = 60)
{
	enum { K = 6 };
	struct grain_ring *r = make(16, GRAIN_RING_MPMC);
	_Atomic(unsigned) woken = 0;
	struct sleeper s[K];

	for (unsigned i = 0; i < K; i++) {
		s[i] = (struct sleeper){ r, &woken, 1, -1, 0 };
		cr_assert_eq(pthread_create(&s[i].thread, NULL, sleep_dequeue,
					    &s[i]),
			     0);
	}
	until_sleeping(r, K);
	cr_assert_eq(atomic_load(&woken), 0u,
		     "nobody returns from an empty ring");
	/* Non-blocking enqueues must wake the sleepers too. */
	for (uintptr_t i = 0; i < K; i++)
		cr_assert_eq(grain_ring_try_enqueue(r, (void *)i), 0);
	for (unsigned i = 0; i < K; i++) {
		pthread_join(s[i].thread, NULL);
		cr_assert_eq(s[i].rc, 0);
	}
	cr_assert_eq(atomic_load(&woken), (unsigned)K);
	cr_assert(grain_ring_empty(r), "the sleepers drained the ring");
	cr_assert_eq(atomic_load(&r->prod.sleepers.waiters), 0u);
	grain_ring_destroy(r);
}

Test(ring_wait, waiters_wanting_different_counts, .timeout = 60)
{
	/* A bulk waiter for 4 and a single waiter sleep together; one
	 * object arrives. Waking only the bulk waiter would strand the
	 * single one beside an object it could take. */
	struct grain_ring *r = make(8, GRAIN_RING_MPMC);
	_Atomic(unsigned) woken = 0;
	struct sleeper bulk = { r, &woken, 4, -1, 0 };
	struct sleeper one = { r, &woken, 1, -1, 0 };

	cr_assert_eq(pthread_create(&bulk.thread, NULL, sleep_dequeue, &bulk),
		     0);
	cr_assert_eq(pthread_create(&one.thread, NULL, sleep_dequeue, &one), 0);
	until_sleeping(r, 2);
	cr_assert_eq(grain_ring_try_enqueue(r, NULL), 0);
	pthread_join(one.thread, NULL);
	cr_assert_eq(one.rc, 0, "the single waiter got the object");
	cr_assert_eq(atomic_load(&woken), 1u, "the bulk waiter still waits");
	void *four[4] = { 0 };
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, four, 4), 0);
	pthread_join(bulk.thread, NULL);
	cr_assert_eq(bulk.rc, 0);
	cr_assert(grain_ring_empty(r));
	grain_ring_destroy(r);
}

static void *sleep_enqueue(void *arg)
{
	struct sleeper *s = arg;

	s->rc = grain_ring_enqueue_wait(s->ring, (void *)1, LONG_NS);
	atomic_fetch_add(s->woken, 1);
	return NULL;
}

Test(ring_wait, blocked_producers_wake, .timeout = 60)
{
	enum { K = 5 };
	struct grain_ring *r = make(4, GRAIN_RING_MPMC);
	_Atomic(unsigned) woken = 0;
	struct sleeper s[K];
	void *objs[4] = { 0 };

	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	for (unsigned i = 0; i < K; i++) {
		s[i] = (struct sleeper){ r, &woken, 1, -1, 0 };
		cr_assert_eq(pthread_create(&s[i].thread, NULL, sleep_enqueue,
					    &s[i]),
			     0);
	}
	for (int i = 0; i < 5000 && atomic_load(&r->cons.sleepers.waiters) < K;
	     i++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	cr_assert_eq(atomic_load(&woken), 0u);
	/* Drain with the non-blocking call until every producer is done. */
	unsigned drained = 0;
	while (drained < 4 + K) {
		void *o;
		if (grain_ring_try_dequeue(r, &o) == 0)
			drained++;
		else
			sched_yield();
	}
	for (unsigned i = 0; i < K; i++) {
		pthread_join(s[i].thread, NULL);
		cr_assert_eq(s[i].rc, 0);
	}
	cr_assert(grain_ring_empty(r));
	grain_ring_destroy(r);
}

struct pingpong {
	struct grain_ring *ping, *pong;
	unsigned rounds, batch;
	int rc;
};

static void *echo(void *arg)
{
	struct pingpong *pp = arg;
	void *objs[4];

	for (unsigned i = 0; i < pp->rounds; i++) {
		int rc = pp->batch == 1
				 ? grain_ring_dequeue_wait(pp->ping, objs,
							   LONG_NS)
				 : grain_ring_dequeue_bulk_wait(
					   pp->ping, objs, pp->batch, LONG_NS);
		if (rc == 0)
			rc = pp->batch == 1
				     ? grain_ring_enqueue_wait(pp->pong,
							       objs[0], LONG_NS)
				     : grain_ring_enqueue_bulk_wait(pp->pong,
								    objs,
								    pp->batch,
								    LONG_NS);
		if (rc != 0) {
			pp->rc = rc;
			return NULL;
		}
	}
	return NULL;
}

static void pingpong_run(unsigned mode, unsigned batch, unsigned rounds)
{
	struct pingpong pp = { make(4, mode), make(4, mode), rounds, batch, 0 };
	pthread_t t;
	void *objs[4], *back[4];

	cr_assert_eq(pthread_create(&t, NULL, echo, &pp), 0);
	for (unsigned i = 0; i < rounds; i++) {
		for (unsigned j = 0; j < batch; j++)
			objs[j] = (void *)(uintptr_t)(i * batch + j);
		int rc = batch == 1
				 ? grain_ring_enqueue_wait(pp.ping, objs[0],
							   LONG_NS)
				 : grain_ring_enqueue_bulk_wait(pp.ping, objs,
								batch, LONG_NS);
		cr_assert_eq(rc, 0);
		rc = batch == 1
			     ? grain_ring_dequeue_wait(pp.pong, back, LONG_NS)
			     : grain_ring_dequeue_bulk_wait(pp.pong, back,
							    batch, LONG_NS);
		cr_assert_eq(rc, 0, "round %u: %d (a lost wake-up times out)",
			     i, rc);
		for (unsigned j = 0; j < batch; j++)
			cr_assert_eq(back[j], objs[j]);
	}
	pthread_join(t, NULL);
	cr_assert_eq(pp.rc, 0);
	grain_ring_destroy(pp.ping);
	grain_ring_destroy(pp.pong);
}

static const unsigned wait_modes[] = { GRAIN_RING_MPMC, GRAIN_RING_SPSC,
				       GRAIN_RING_MPSC, GRAIN_RING_SPMC };

ParameterizedTestParameters(ring_wait, pingpong)
{
	return cr_make_param_array(unsigned, (void *)wait_modes, 4);
}

ParameterizedTest(unsigned *mode, ring_wait, pingpong, .timeout = 240)
{
	/* Every round both threads sleep and wake: a single lost wake-up
	 * turns into a 30 s timeout and a failure. */
	pingpong_run(*mode, 1, test_scale(50000));
	pingpong_run(*mode, 3, test_scale(20000));
}

ParameterizedTestParameters(ring_wait, stress)
{
	return cr_make_param_array(unsigned, (void *)wait_modes, 4);
}

ParameterizedTest(unsigned *mode, ring_wait, stress, .timeout = 240)
{
	/* Producers and consumers both block, on a small ring, with more
	 * threads than cores. */
	struct stress_cfg c = {
		.flags = *mode,
		.producers = 4,
		.consumers = 3,
		.capacity = 8,
		.per_producer = test_scale(20000),
		.batch = 1,
		.op = STRESS_WAIT,
	};
	stress_run(&c);
	c.batch = 4;
	c.jitter = true;
	stress_run(&c);
}
