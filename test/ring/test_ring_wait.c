/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_wait.c - the blocking calls: sleepers all wake and drain,
 * timeouts, no lost wake-up in long ping-pongs (single and bulk), waiters
 * that want different counts, and stress through the _wait forms. Also
 * their argument checks, what a timed-out call leaves, spurious wake-ups
 * and signals, and wake-ups by the other side's burst calls.
 */
#define _GNU_SOURCE
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/test_util.h"
#include "stress.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"

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
	struct test_threads threads = { .n = 0 };

	for (unsigned i = 0; i < K; i++) {
		s[i] = (struct sleeper){ r, &woken, 1, -1 };
		test_spawn(&threads, sleep_dequeue, &s[i]);
	}
	until_sleeping(r, K);
	cr_assert_eq(atomic_load(&woken), 0u,
		     "nobody returns from an empty ring");
	/* Non-blocking enqueues must wake the sleepers too. */
	for (uintptr_t i = 0; i < K; i++)
		cr_assert_eq(grain_ring_try_enqueue(r, (void *)i), 0);
	test_join_all(&threads);
	for (unsigned i = 0; i < K; i++) {
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
	struct sleeper bulk = { r, &woken, 4, -1 };
	struct sleeper one = { r, &woken, 1, -1 };
	struct test_threads bulk_t = { .n = 0 }, one_t = { .n = 0 };

	test_spawn(&bulk_t, sleep_dequeue, &bulk);
	test_spawn(&one_t, sleep_dequeue, &one);
	until_sleeping(r, 2);
	cr_assert_eq(grain_ring_try_enqueue(r, NULL), 0);
	test_join_all(&one_t);
	cr_assert_eq(one.rc, 0, "the single waiter got the object");
	cr_assert_eq(atomic_load(&woken), 1u, "the bulk waiter still waits");
	void *four[4] = { 0 };
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, four, 4), 0);
	test_join_all(&bulk_t);
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
	struct test_threads threads = { .n = 0 };
	void *objs[4] = { 0 };

	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	for (unsigned i = 0; i < K; i++) {
		s[i] = (struct sleeper){ r, &woken, 1, -1 };
		test_spawn(&threads, sleep_enqueue, &s[i]);
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
	test_join_all(&threads);
	for (unsigned i = 0; i < K; i++) {
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
	struct test_threads threads = { .n = 0 };
	void *objs[4], *back[4];

	test_spawn(&threads, echo, &pp);
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
	test_join_all(&threads);
	cr_assert_eq(pp.rc, 0);
	grain_ring_destroy(pp.ping);
	grain_ring_destroy(pp.pong);
}

static const unsigned wait_modes[] = { GRAIN_RING_MPMC, GRAIN_RING_SPSC,
				       GRAIN_RING_MPSC, GRAIN_RING_SPMC };

TABLE_PARAMS(ring_wait, pingpong, wait_modes);

ParameterizedTest(unsigned *mode, ring_wait, pingpong, .timeout = 240)
{
	/* Every round both threads sleep and wake: a single lost wake-up
	 * turns into a 30 s timeout and a failure. */
	pingpong_run(*mode, 1, test_scale(50000));
	pingpong_run(*mode, 3, test_scale(20000));
}

TABLE_PARAMS(ring_wait, stress, wait_modes);

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

/* The _wait calls' -EINVAL cases: the bulk and burst forms on a ring made
 * without GRAIN_RING_WAIT (each could proceed at once), NULL arrays, a
 * burst of 0 or over INT_MAX, a bulk over the capacity. None writes an
 * output or changes either ring; a bulk of 0 returns 0 at once, with or
 * without an array, and a burst of INT_MAX is valid. */
Test(ring_wait, argument_checks_change_nothing, .timeout = 30)
{
	struct grain_ring *plain = NULL, *r = make(8, GRAIN_RING_MPMC);
	void *in[8], *out[8], *const mark = (void *)0xdead;
	uint64_t enq, deq;

	cr_assert_eq(grain_ring_create(&plain, 8, GRAIN_RING_MPMC, NULL), 0);
	for (uintptr_t i = 0; i < 8; i++) {
		in[i] = (void *)(i + 1);
		out[i] = mark;
	}
	cr_assert_eq(grain_ring_try_enqueue_bulk(plain, in, 2), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 2), 0);

	cr_assert_eq(grain_ring_enqueue_bulk_wait(plain, in + 2, 2, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(plain, out, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_burst_wait(plain, in + 2, 2, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_dequeue_burst_wait(plain, out, 2, 0), -EINVAL);

	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, NULL, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, NULL, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, NULL, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_burst_wait(r, out, 0, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, in, 0x80000000u, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_dequeue_burst_wait(r, out, 0x80000000u, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, out, 9, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, NULL, 0, -1), 0);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, NULL, 0, -1), 0);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, out, 0, 0), 0);

	for (unsigned i = 0; i < 8; i++)
		cr_assert_eq(out[i], mark, "out[%u] written", i);
	grain_ring_totals(plain, &enq, &deq);
	cr_assert(enq == 2 && deq == 0, "plain ring: %llu in, %llu out",
		  (unsigned long long)enq, (unsigned long long)deq);
	grain_ring_totals(r, &enq, &deq);
	cr_assert(enq == 2 && deq == 0, "WAIT ring: %llu in, %llu out",
		  (unsigned long long)enq, (unsigned long long)deq);

	cr_assert_eq(grain_ring_dequeue_burst_wait(r, out, INT_MAX, 0), 2);
	cr_assert_eq(out[0], in[0]);
	cr_assert_eq(out[1], in[1]);
	cr_assert_eq(out[2], mark);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, in, INT_MAX, 0), 8);
	cr_assert(grain_ring_full(r));
	grain_ring_destroy(plain);
	grain_ring_destroy(r);
}

TABLE_PARAMS(ring_wait, timed_out_calls_move_and_write_nothing, wait_modes);

/* -ETIMEDOUT, with 0 (one attempt) or a short timeout: nothing moved,
 * *objp and the output arrays untouched, the queued objects in place. */
ParameterizedTest(unsigned *mode, ring_wait,
		  timed_out_calls_move_and_write_nothing, .timeout = 30)
{
	struct grain_ring *r = make(4, *mode);
	void *in[4], *out[4], *const mark = (void *)0xdead;
	uint64_t enq, deq;

	for (uintptr_t i = 0; i < 4; i++) {
		in[i] = (void *)(i + 1);
		out[i] = mark;
	}
	for (int64_t t = 0; t <= 1000000; t += 1000000) {
		cr_assert_eq(grain_ring_dequeue_wait(r, out, t), -ETIMEDOUT);
		cr_assert_eq(grain_ring_dequeue_bulk_wait(r, out, 2, t),
			     -ETIMEDOUT);
		cr_assert_eq(grain_ring_dequeue_burst_wait(r, out, 4, t),
			     -ETIMEDOUT);
	}
	cr_assert_eq(grain_ring_try_enqueue(r, in[0]), 0);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, out, 2, 1000000),
		     -ETIMEDOUT);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(out[i], mark, "out[%u] written", i);
	cr_assert_eq(grain_ring_count(r), 1u);

	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in + 1, 3), 0);
	for (int64_t t = 0; t <= 1000000; t += 1000000) {
		cr_assert_eq(grain_ring_enqueue_wait(r, out[0], t), -ETIMEDOUT);
		cr_assert_eq(grain_ring_enqueue_bulk_wait(r, out, 1, t),
			     -ETIMEDOUT);
		cr_assert_eq(grain_ring_enqueue_burst_wait(r, out, 2, t),
			     -ETIMEDOUT);
	}
	grain_ring_totals(r, &enq, &deq);
	cr_assert(enq == 4 && deq == 0);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 4), 0);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(out[i], in[i], "object %u replaced", i);
	grain_ring_destroy(r);
}

/* One thread in enqueue_wait() (on a full ring) or dequeue_wait(). */
struct lone_sleeper {
	struct grain_ring *ring;
	bool enqueue;
	void *obj;
	int rc;
	_Atomic(bool) returned;
	struct test_threads thread; /* the sleeper */
};

static void *lone_sleep(void *arg)
{
	struct lone_sleeper *s = arg;

	s->rc = s->enqueue ? grain_ring_enqueue_wait(s->ring, s->obj, LONG_NS)
			   : grain_ring_dequeue_wait(s->ring, &s->obj, LONG_NS);
	atomic_store(&s->returned, true);
	return NULL;
}

/* The sleepers a lone sleeper registers with: a producer's are on the
 * consumers' line, a consumer's on the producers'. */
static struct grain_impl_ring_sleepers *sleepers_of(struct lone_sleeper *s)
{
	return s->enqueue ? &s->ring->cons.sleepers : &s->ring->prod.sleepers;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Start s and wait until it has registered as a sleeper. */
static void lone_start(struct lone_sleeper *s)
{
	test_spawn(&s->thread, lone_sleep, s);
	for (int i = 0; i < 5000 && atomic_load(&sleepers_of(s)->waiters) == 0;
	     i++)
		pause_ms(1);
	cr_assert_eq(atomic_load(&sleepers_of(s)->waiters), 1u);
	cr_assert(!atomic_load(&s->returned), "returned at once: %d", s->rc);
}

/* FUTEX_WAKE on the sleepers' futex word; returns how many threads it
 * woke. */
static long futex_wake(struct grain_impl_ring_sleepers *sl)
{
	return syscall(SYS_futex, (uint32_t *)&sl->epoch, FUTEX_WAKE_PRIVATE,
		       INT_MAX, NULL, NULL, 0);
}

/* Wake the sleeper without changing the ring, once it is in the futex:
 * true if it was found there within 5 s, false if it returned or never
 * slept. With bump, the epoch moves first, as for a wake-up that another
 * thread's call made useless. */
static bool wake_for_nothing(struct lone_sleeper *s, bool bump)
{
	struct grain_impl_ring_sleepers *sl = sleepers_of(s);

	for (int i = 0; i < 5000 && !atomic_load(&s->returned); i++) {
		if (bump)
			atomic_fetch_add(&sl->epoch, 1);
		if (futex_wake(sl) == 1)
			return true;
		pause_ms(1);
	}
	return false;
}

/* The other side has just made the call that lets s proceed: s must
 * return within 5 s (its own timeout is far longer, and a sleeper that is
 * never woken succeeds only when that timeout ends its sleep). */
static void lone_join(struct lone_sleeper *s)
{
	for (int i = 0; i < 5000 && !atomic_load(&s->returned); i++)
		pause_ms(1);
	cr_assert(atomic_load(&s->returned), "the sleeper was not woken");
	test_join_all(&s->thread);
}

static _Atomic(unsigned) signals_handled;

static void count_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&signals_handled, 1);
}

struct lone_param {
	unsigned mode;
	bool enqueue;
};

static const struct lone_param lone_params[] = {
	{ GRAIN_RING_MPMC, false },
	{ GRAIN_RING_MPMC, true },
	{ GRAIN_RING_SPSC, false },
	{ GRAIN_RING_SPSC, true },
};

TABLE_PARAMS(ring_wait, spurious_wakeups_and_signals, lone_params);

/* A sleeper woken with nothing to take, by a bare FUTEX_WAKE or after an
 * epoch bump, or interrupted by a signal (a handler installed without
 * SA_RESTART, so that the futex call fails with EINTR), goes back to
 * sleep; the next real operation of the other side then ends its wait
 * with the right object. */
ParameterizedTest(struct lone_param *p, ring_wait, spurious_wakeups_and_signals,
		  .timeout = 60)
{
	struct grain_ring *r = make(4, p->mode);
	struct lone_sleeper s = { .ring = r,
				  .enqueue = p->enqueue,
				  .obj = (void *)0x77 };
	struct sigaction sa = { .sa_handler = count_signal }, old;
	void *in[4] = { (void *)1, (void *)2, (void *)3, (void *)4 }, *out[4];

	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGUSR1, &sa, &old), 0);
	atomic_store(&signals_handled, 0);
	if (p->enqueue)
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 4), 0);
	lone_start(&s);

	/* After each event the sleeper is given 5 ms to return, which it
	 * must not do, or to go back to sleep. */
	for (unsigned i = 0; i < 4; i++) {
		cr_assert(wake_for_nothing(&s, i % 2 == 1),
			  "wake-up %u found no sleeper in the futex", i);
		pause_ms(5);
		cr_assert(!atomic_load(&s.returned),
			  "wake-up %u ended the wait: %d", i, s.rc);
	}
	for (unsigned i = 1; i <= 3; i++) {
		cr_assert_eq(pthread_kill(s.thread.id[0], SIGUSR1), 0);
		for (int t = 0; t < 5000 && atomic_load(&signals_handled) < i;
		     t++)
			pause_ms(1);
		cr_assert_eq(atomic_load(&signals_handled), i);
		pause_ms(5);
		cr_assert(!atomic_load(&s.returned),
			  "signal %u ended the wait: %d", i, s.rc);
	}
	cr_assert(wake_for_nothing(&s, false), "the sleeper is not asleep");
	cr_assert_eq(grain_ring_count(r), p->enqueue ? 4u : 0u);

	if (p->enqueue)
		cr_assert_eq(grain_ring_try_dequeue(r, out), 0);
	else
		cr_assert_eq(grain_ring_try_enqueue(r, in[0]), 0);
	lone_join(&s);
	cr_assert_eq(s.rc, 0);
	if (p->enqueue) {
		cr_assert_eq(out[0], in[0]);
		cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 4), 0);
		for (unsigned i = 0; i < 3; i++)
			cr_assert_eq(out[i], in[i + 1]);
		cr_assert_eq(out[3], (void *)0x77, "the sleeper's object last");
	} else {
		cr_assert_eq(s.obj, in[0]);
		cr_assert(grain_ring_empty(r));
	}
	cr_assert_eq(sigaction(SIGUSR1, &old, NULL), 0);
	grain_ring_destroy(r);
}

struct waker_param {
	unsigned mode;
	bool enqueue;	/* the sleeper enqueues, the waker dequeues */
	bool wait_form; /* the waker calls the _burst_wait form */
};

/* Every mode of wait_modes x which side sleeps x try_ or _wait waker. */
#define WAKERS(mode)                                                 \
	TABLE_ROW(mode, false, false), TABLE_ROW(mode, false, true), \
		TABLE_ROW(mode, true, false), TABLE_ROW(mode, true, true)

static const struct waker_param waker_rows[] = {
	WAKERS(GRAIN_RING_MPMC),
	WAKERS(GRAIN_RING_SPSC),
	WAKERS(GRAIN_RING_MPSC),
	WAKERS(GRAIN_RING_SPMC),
};

TABLE_PARAMS(ring_wait, burst_calls_wake_sleepers, waker_rows);

/* The other side's burst calls, try_ and _wait, wake a sleeper as its
 * other calls do. */
ParameterizedTest(struct waker_param *p, ring_wait, burst_calls_wake_sleepers,
		  .timeout = 60)
{
	struct grain_ring *r = make(4, p->mode);
	struct lone_sleeper s = { .ring = r,
				  .enqueue = p->enqueue,
				  .obj = (void *)0x77 };
	void *in[4] = { (void *)1, (void *)2, (void *)3, (void *)4 }, *out[4];
	int rc;

	if (p->enqueue)
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 4), 0);
	lone_start(&s);
	pause_ms(10);
	if (p->enqueue)
		rc = p->wait_form ? grain_ring_dequeue_burst_wait(r, out, 4, 0)
				  : grain_ring_try_dequeue_burst(r, out, 4);
	else
		rc = p->wait_form ? grain_ring_enqueue_burst_wait(r, in, 2, 0)
				  : grain_ring_try_enqueue_burst(r, in, 2);
	cr_assert_eq(rc, p->enqueue ? 4 : 2);
	lone_join(&s);
	cr_assert_eq(s.rc, 0);
	if (p->enqueue) {
		for (unsigned i = 0; i < 4; i++)
			cr_assert_eq(out[i], in[i]);
		cr_assert_eq(grain_ring_try_dequeue(r, out), 0);
		cr_assert_eq(out[0], (void *)0x77);
	} else {
		cr_assert_eq(s.obj, in[0]);
		cr_assert_eq(grain_ring_try_dequeue(r, out), 0);
		cr_assert_eq(out[0], in[1]);
	}
	cr_assert(grain_ring_empty(r));
	grain_ring_destroy(r);
}
