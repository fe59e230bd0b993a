/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_timeout.c - the _wait calls with extreme timeouts: huge
 * (INT64_MAX and near it), negative (-1, which is UINT64_MAX cast to
 * int64_t, and INT64_MIN) and tiny. A sleeper with a huge or negative
 * timeout must really sleep (no spinning, no overflowed deadline that
 * has already passed) and must be woken by the other side's next
 * operation; 0 and 1 ns make one attempt and time out at once.
 */
#define _GNU_SOURCE
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "../common/test_util.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"

#define CAP 4u
#define MS 1000000LL

enum to_op { TO_SINGLE, TO_BULK, TO_BURST };

struct to_param {
	int64_t timeout_ns;
	enum to_op op;
	bool enqueue; /* the sleeper enqueues (into a full ring) */
};

struct to_sleeper {
	const struct to_param *p;
	struct grain_ring *ring;
	_Atomic(bool) returned;
	int rc;
	void *objs[2];
};

static int call(struct grain_ring *r, enum to_op op, bool enqueue, void **objs,
		int64_t timeout_ns)
{
	switch (op) {
	case TO_SINGLE:
		return enqueue ? grain_ring_enqueue_wait(r, objs[0], timeout_ns)
			       : grain_ring_dequeue_wait(r, objs, timeout_ns);
	case TO_BULK:
		return enqueue ? grain_ring_enqueue_bulk_wait(r, objs, 2,
							      timeout_ns)
			       : grain_ring_dequeue_bulk_wait(r, objs, 2,
							      timeout_ns);
	case TO_BURST:
		return enqueue ? grain_ring_enqueue_burst_wait(r, objs, 2,
							       timeout_ns)
			       : grain_ring_dequeue_burst_wait(r, objs, 2,
							       timeout_ns);
	}
	return -1;
}

static void *sleeper(void *arg)
{
	struct to_sleeper *s = arg;

	s->rc = call(s->ring, s->p->op, s->p->enqueue, s->objs,
		     s->p->timeout_ns);
	atomic_store(&s->returned, true);
	return NULL;
}

static int64_t thread_cpu_ns(pthread_t t)
{
	clockid_t id;
	struct timespec ts;

	cr_assert_eq(pthread_getcpuclockid(t, &id), 0);
	cr_assert_eq(clock_gettime(id, &ts), 0);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Every shape, each with the sleeper on either side, for timeout t. */
#define TO_SHAPES(t)                                                       \
	TABLE_ROW(t, TO_SINGLE, false), TABLE_ROW(t, TO_SINGLE, true),     \
		TABLE_ROW(t, TO_BULK, false), TABLE_ROW(t, TO_BULK, true), \
		TABLE_ROW(t, TO_BURST, false), TABLE_ROW(t, TO_BURST, true)

/* Timeouts that mean "forever". */
static const struct to_param forever_rows[] = {
	TO_SHAPES(INT64_MAX),
	TO_SHAPES(INT64_MAX - 1),
	/* the nanoseconds carry into the seconds */
	TO_SHAPES(INT64_MAX - 999999999),
	TO_SHAPES((int64_t)(UINT64_MAX >> 1) / 3),
	TO_SHAPES(-1), /* (int64_t)UINT64_MAX */
	TO_SHAPES(-2),
	TO_SHAPES(INT64_MIN),
};

TABLE_PARAMS(ring_timeout, sleeper_woken, forever_rows);

ParameterizedTest(struct to_param *p, ring_timeout, sleeper_woken,
		  .timeout = 60)
{
	struct grain_ring *r = NULL;
	struct to_sleeper s = { .p = p, .objs = { (void *)1, (void *)2 } };
	/* Its own side's sleepers live on the other side's line. */
	_Atomic(uint32_t) *waiters;
	void *fill[CAP] = { 0 }, *out[CAP];
	struct test_threads threads = { .n = 0 };

	cr_assert_eq(grain_ring_create(&r, CAP,
				       GRAIN_RING_MPMC | GRAIN_RING_WAIT, NULL),
		     0);
	s.ring = r;
	if (p->enqueue) {
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, fill, CAP), 0);
		waiters = &r->cons.sleepers.waiters;
	} else {
		waiters = &r->prod.sleepers.waiters;
	}
	test_spawn(&threads, sleeper, &s);
	for (int i = 0;
	     i < 5000 && atomic_load(waiters) == 0 && !atomic_load(&s.returned);
	     i++)
		pause_ms(1);
	cr_assert(!atomic_load(&s.returned), "returned at once: rc %d", s.rc);
	cr_assert_eq(atomic_load(waiters), 1u, "the sleeper announced itself");

	/* It sleeps: almost no CPU over 100 ms, and it does not return. */
	int64_t cpu0 = thread_cpu_ns(threads.id[0]), wall0 = test_now_ns();
	pause_ms(100);
	int64_t cpu = thread_cpu_ns(threads.id[0]) - cpu0,
		wall = test_now_ns() - wall0;
	cr_assert(!atomic_load(&s.returned), "timed out early: rc %d", s.rc);
	cr_assert_lt(cpu, wall / 4, "the sleeper spins: %lld ns of CPU in %lld",
		     (long long)cpu, (long long)wall);

	/* The other side's plain non-blocking call wakes it. */
	int64_t woke = test_now_ns();
	if (p->enqueue)
		cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 2), 0);
	else
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, fill, 2), 0);
	test_join_all(&threads);
	cr_assert_lt(test_now_ns() - woke, 5000 * MS, "woken promptly");
	cr_assert_eq(s.rc, p->op == TO_BURST ? 2 : 0);
	unsigned k = p->op == TO_SINGLE ? 1 : 2;
	cr_assert_eq(grain_ring_count(r), p->enqueue ? CAP - 2 + k : 2 - k);
	cr_assert_eq(atomic_load(waiters), 0u);
	grain_ring_destroy(r);
}

/* Any timeout at all. */
static const struct to_param any_rows[] = {
	TO_SHAPES(0),
	TO_SHAPES(1),
	TO_SHAPES(1000),
	TO_SHAPES(INT64_MAX),
	TO_SHAPES(INT64_MAX - 1),
	TO_SHAPES(-1),
	TO_SHAPES(-2),
	TO_SHAPES(INT64_MIN),
	TO_SHAPES(INT64_MIN + 1),
};

TABLE_PARAMS(ring_timeout, ready_returns_at_once, any_rows);

ParameterizedTest(struct to_param *p, ring_timeout, ready_returns_at_once,
		  .timeout = 30)
{
	/* Whatever the timeout, a call that can proceed does so at once. */
	struct grain_ring *r = NULL;
	void *objs[2] = { (void *)1, (void *)2 }, *fill[2] = { 0 };

	cr_assert_eq(grain_ring_create(&r, CAP,
				       GRAIN_RING_MPMC | GRAIN_RING_WAIT, NULL),
		     0);
	if (!p->enqueue)
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, fill, 2), 0);
	int64_t t0 = test_now_ns();
	int rc = call(r, p->op, p->enqueue, objs, p->timeout_ns);
	cr_assert_eq(rc, p->op == TO_BURST ? 2 : 0);
	cr_assert_lt(test_now_ns() - t0, 2000 * MS);
	unsigned k = p->op == TO_SINGLE ? 1 : 2;
	cr_assert_eq(grain_ring_count(r), p->enqueue ? k : 2 - k);
	grain_ring_destroy(r);
}

/* Short timeouts, up to a second. */
static const struct to_param small_rows[] = {
	TO_SHAPES(0),
	TO_SHAPES(1),
	TO_SHAPES(999999999),
	TO_SHAPES(1000000000),
};

TABLE_PARAMS(ring_timeout, short_times_out, small_rows);

ParameterizedTest(struct to_param *p, ring_timeout, short_times_out,
		  .timeout = 30)
{
	/* Nobody on the other side: -ETIMEDOUT after about the timeout
	 * (the nanoseconds carry correctly), nothing moved. */
	struct grain_ring *r = NULL;
	void *objs[2] = { (void *)1, (void *)2 }, *fill[CAP] = { 0 };

	cr_assert_eq(grain_ring_create(&r, CAP,
				       GRAIN_RING_MPMC | GRAIN_RING_WAIT, NULL),
		     0);
	if (p->enqueue)
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, fill, CAP), 0);
	int64_t t0 = test_now_ns();
	cr_assert_eq(call(r, p->op, p->enqueue, objs, p->timeout_ns),
		     -ETIMEDOUT);
	int64_t took = test_now_ns() - t0;
	cr_assert_geq(took, p->timeout_ns, "slept the whole timeout");
	cr_assert_lt(took, p->timeout_ns + 2000 * MS, "and not much longer");
	cr_assert_eq(grain_ring_count(r), p->enqueue ? CAP : 0u);
	grain_ring_destroy(r);
}
