/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_prio_window.c - exact interleavings of grain_prio's non-empty-bit
 * protocol, driven through the hook points of the test-only build of the
 * library (src/test_hooks.h). A dequeuer is held inside
 * grain_impl_prio_settle() while a producer and a blocking dequeuer run,
 * so no luck is needed to hit the window. Only queues of more than
 * GRAIN_PRIO_SCAN_BANDS bands keep the bits; for the scanned ones (fewer
 * bands) a sleeper is held at its last step instead (at the end).
 *
 * The trace (strict mode, GRAIN_PRIO_WAIT, several dequeuers):
 *   1. band b is empty but its bit is set (a dequeue took its last object
 *      and had all it wanted, so it did not settle);
 *   2. dequeuer D finds b empty, and nothing anywhere else, and so
 *      enters settle (held: SETTLE);
 *   3. the producer enqueues objects; it finds the bit set and nobody
 *      asleep, so it sets nothing and wakes nobody;
 *   4. D clears the bit (held again: CLEARED);
 *   5. W calls dequeue_wait, finds no bit, registers and goes to sleep
 *      (WAIT_SLEEP);
 *   6. D, released, finds the band refilled, sets the bit back, and takes
 *      what it wanted;
 *   7. what is left must reach W: it has to be woken. If it is not, W
 *      sleeps through its whole timeout with an object queued.
 */
#define _GNU_SOURCE
#include <grain/prio.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>

#include "../common/test_threads.h"
#include "../common/test_util.h"
#include "test_hooks.h"
#include "../common/test_table.h"

/* W's timeout: "forever" for a correct queue, short enough that a lost
 * wake-up fails the test instead of hanging it. */
#define WAIT_NS (5LL * 1000000000)

enum role { ROLE_NONE, ROLE_HELD, ROLE_SLEEPER, ROLE_HELD_SLEEPER };

/* What the hook reports and what the test allows, under one mutex. */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned reached;  /* settle points the held thread has reached */
	unsigned released; /* settle points it may pass */
	unsigned sleeps;   /* WAIT_SLEEP points the sleeper has reached */
} stage = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };

/* The held thread stops at its first two settle points only. */
#define HELD_POINTS 2u

static _Thread_local enum role my_role;

static void hook(enum grain_test_point point, const void *obj, unsigned arg)
{
	(void)obj;
	(void)arg;
	pthread_mutex_lock(&stage.mu);
	if (my_role == ROLE_HELD && stage.reached < HELD_POINTS &&
	    (point == GRAIN_TEST_PRIO_SETTLE ||
	     point == GRAIN_TEST_PRIO_CLEARED)) {
		unsigned me = ++stage.reached;
		pthread_cond_broadcast(&stage.cv);
		while (stage.released < me)
			pthread_cond_wait(&stage.cv, &stage.mu);
	} else if (my_role == ROLE_SLEEPER && point == GRAIN_TEST_WAIT_SLEEP) {
		stage.sleeps++;
		pthread_cond_broadcast(&stage.cv);
	} else if (my_role == ROLE_HELD_SLEEPER &&
		   point == GRAIN_TEST_WAIT_SLEEP && stage.sleeps == 0) {
		/* Registered, re-tried and found nothing: held just before
		 * the futex, once. */
		stage.sleeps++;
		pthread_cond_broadcast(&stage.cv);
		while (stage.released < 1)
			pthread_cond_wait(&stage.cv, &stage.mu);
	}
	pthread_mutex_unlock(&stage.mu);
}

static void await_reached(unsigned n)
{
	pthread_mutex_lock(&stage.mu);
	while (stage.reached < n)
		pthread_cond_wait(&stage.cv, &stage.mu);
	pthread_mutex_unlock(&stage.mu);
}

static void await_sleeps(unsigned n)
{
	pthread_mutex_lock(&stage.mu);
	while (stage.sleeps < n)
		pthread_cond_wait(&stage.cv, &stage.mu);
	pthread_mutex_unlock(&stage.mu);
}

static void release(unsigned n)
{
	pthread_mutex_lock(&stage.mu);
	stage.released = n;
	pthread_cond_broadcast(&stage.cv);
	pthread_mutex_unlock(&stage.mu);
}

#define MAXOBJ 8

struct deq {
	struct grain_prio *p;
	unsigned want; /* D: 1 try_dequeue, > 1 dequeue_burst; W: 1 wait,
			  > 1 burst_wait */
	int rc;
	void *objs[MAXOBJ];
	int64_t elapsed_ns;
};

static void *held_dequeuer(void *arg)
{
	struct deq *d = arg;

	my_role = ROLE_HELD;
	if (d->want == 1) {
		int rc = grain_prio_try_dequeue(d->p, &d->objs[0], NULL);
		d->rc = rc == 0 ? 1 : rc == -EAGAIN ? 0 : rc;
	} else {
		d->rc = grain_prio_try_dequeue_burst(d->p, d->objs, d->want);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	struct deq *d = arg;
	int64_t t0 = test_now_ns();

	if (my_role == ROLE_NONE)
		my_role = ROLE_SLEEPER;
	if (d->want == 1) {
		int rc = grain_prio_dequeue_wait(d->p, &d->objs[0], NULL,
						 WAIT_NS);
		d->rc = rc == 0 ? 1 : rc;
	} else {
		d->rc = grain_prio_dequeue_burst_wait(d->p, d->objs, d->want,
						      WAIT_NS);
	}
	d->elapsed_ns = test_now_ns() - t0;
	return NULL;
}

static void *held_sleeper(void *arg)
{
	my_role = ROLE_HELD_SLEEPER;
	return sleeper(arg);
}

static void *obj_of(unsigned i)
{
	return (void *)(uintptr_t)(0x1000 + i);
}

struct window_case {
	unsigned bands, band; /* the queue's band count; the band used */
	unsigned d_want;      /* what D asks for */
	unsigned w_want;      /* what W asks for */
};

static struct window_case settle_wakes_sleepers_rows[] = {
	/* More bands than GRAIN_PRIO_SCAN_BANDS: the bits are kept. */
	{ 5, 0, 1, 1 }, /* single calls, the highest band */
	{ 6, 5, 2, 4 }, /* bursts on both sides, the lowest band */
	{ 6, 1, 1, 4 }, { 6, 0, 2, 1 }, { 64, 63, 1, 1 },
};

TABLE_PARAMS(prio_window, settle_wakes_sleepers, settle_wakes_sleepers_rows);

/*
 * The producer enqueues one object more than D wants: D takes its share in
 * step 6, and at least one object is left for W, which must not sleep
 * through its timeout while that object is queued.
 */
ParameterizedTest(struct window_case *c, prio_window, settle_wakes_sleepers,
		  .timeout = 60)
{
	struct grain_prio_config cfg = { .bands = c->bands,
					 .capacity = 16,
					 .flags = GRAIN_PRIO_WAIT };
	struct grain_prio *p = NULL;
	uint64_t bit = (uint64_t)1 << c->band;
	unsigned nobj = c->d_want + 1;
	void *o;

	cr_assert_gt(c->bands, GRAIN_PRIO_SCAN_BANDS);
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	stage.reached = stage.released = stage.sleeps = 0;
	grain_test_hook = hook;

	/* 1. Band empty, bit set: the dequeue below gets all it wants and
	 * leaves the bit alone. */
	cr_assert_eq(grain_prio_try_enqueue(p, c->band, obj_of(99)), 0);
	cr_assert_eq(grain_prio_try_dequeue(p, &o, NULL), 0);
	cr_assert_eq(o, obj_of(99));
	cr_assert_eq(atomic_load(&p->nonempty), bit, "empty band, bit set");

	/* 2. D finds the band empty and stops before clearing the bit. */
	struct deq d = { .p = p, .want = c->d_want };
	struct test_threads dt = { .n = 0 }, wt = { .n = 0 };
	test_spawn(&dt, held_dequeuer, &d);
	await_reached(1);

	/* 3. The producer finds the bit set and nobody asleep. */
	for (unsigned i = 0; i < nobj; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, c->band, obj_of(i)), 0);
	cr_assert_eq(atomic_load(&p->nonempty), bit,
		     "the producer set nothing");
	cr_assert_eq(atomic_load(&p->sleepers.waiters), 0u,
		     "nobody asleep yet");

	/* 4. D clears the bit and stops before looking at the band again. */
	release(1);
	await_reached(2);
	cr_assert_eq(atomic_load(&p->nonempty), 0u, "D cleared the bit");

	/* 5. W finds no bit and goes to sleep. */
	struct deq w = { .p = p, .want = c->w_want };
	test_spawn(&wt, sleeper, &w);
	await_sleeps(1);
	cr_assert_eq(atomic_load(&p->sleepers.waiters), 1u, "W is registered");
	cr_assert_eq(grain_prio_backlog(p), nobj);

	/* 6. D finds the band refilled and takes what it wants. */
	release(HELD_POINTS);
	test_join_all(&dt);

	/* 7. W must get the rest without waiting for its timeout. */
	test_join_all(&wt);
	grain_test_hook = NULL;

	cr_assert_gt(w.rc, 0, "W got nothing (rc %d)", w.rc);
	cr_assert_lt(w.elapsed_ns, WAIT_NS,
		     "lost wake-up: W slept through its whole timeout "
		     "(%.3f s) while an object was queued",
		     (double)w.elapsed_ns / 1e9);
	cr_assert_geq(d.rc, 0);
	cr_assert_eq((unsigned)d.rc + (unsigned)w.rc, nobj,
		     "D took %d and W %d of %u objects", d.rc, w.rc, nobj);

	/* Every object exactly once, in FIFO order within each taker (W,
	 * once woken, may take the first object before D does). */
	unsigned seen = 0, last = 0;
	for (int i = 0; i < d.rc; i++) {
		unsigned k = (unsigned)((uintptr_t)d.objs[i] - 0x1000);
		cr_assert_lt(k, nobj);
		cr_assert(i == 0 || k > last, "D: FIFO order");
		cr_assert_eq(seen & (1u << k), 0u, "object %u twice", k);
		seen |= 1u << k;
		last = k;
	}
	for (int i = 0; i < w.rc; i++) {
		unsigned k = (unsigned)((uintptr_t)w.objs[i] - 0x1000);
		if (i == 0)
			last = 0; /* W may have been first: order per taker */
		cr_assert_lt(k, nobj);
		cr_assert(i == 0 || k > last, "W: FIFO order");
		cr_assert_eq(seen & (1u << k), 0u, "object %u twice", k);
		seen |= 1u << k;
		last = k;
	}
	cr_assert_eq(seen, (1u << nobj) - 1, "every object once");
	cr_assert_eq(grain_prio_backlog(p), 0u);
	grain_prio_destroy(p);
}

/*
 * A band that a burst drains keeps its bit (the producers that refill it
 * find it set and write nothing); the next call that finds the band
 * empty clears it. A call that returns nothing leaves no bit set for an
 * empty band.
 */
Test(prio_window, drained_band_keeps_its_bit)
{
	struct grain_prio_config cfg = { .bands = 6, .capacity = 16 };
	struct grain_prio *p = NULL;
	void *objs[8];

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, obj_of(0)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, obj_of(1)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 3, obj_of(2)), 0);
	cr_assert_eq(atomic_load(&p->nonempty), 0xau);

	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 8), 3);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(objs[i], obj_of(i), "band order, then FIFO");
	cr_assert_eq(atomic_load(&p->nonempty), 0xau,
		     "drained bands keep their bits");

	/* Refilled before the next call: taken, the bit never moved. */
	cr_assert_eq(grain_prio_try_enqueue(p, 3, obj_of(3)), 0);
	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 8), 1);
	cr_assert_eq(objs[0], obj_of(3));
	cr_assert_eq(atomic_load(&p->nonempty), 0x8u,
		     "band 1 gave nothing: settled; band 3 drained: kept");

	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 8), 0);
	cr_assert_eq(atomic_load(&p->nonempty), 0u,
		     "a call that finds nothing leaves no bit set");
	cr_assert_eq(grain_prio_try_dequeue(p, objs, NULL), -EAGAIN);
	grain_prio_destroy(p);
}

/*
 * The sleeper's last step: W has registered, looked once more and found
 * nothing, and is held just before the futex while the producer
 * enqueues. The producer must see W registered and wake it, in scanned
 * queues (where that wake is the whole protocol and no bit is ever
 * written) as with the bits. If it does not, W sleeps through its whole
 * timeout with the objects queued.
 */
enum via { VIA_ONE, VIA_BURST, VIA_PRIO };

struct last_step_case {
	unsigned bands, band, w_want;
	enum via via; /* how the producer enqueues */
};

/* A priority the default map sends to @p band (bands 0..2 of a queue of
 * at least 3 bands; every priority, with 1 band). */
static unsigned priority_of(unsigned bands, unsigned band)
{
	for (unsigned prio = 0; prio < GRAIN_PRIO_PRIORITIES; prio++) {
		unsigned b = grain_prio_default_priomap[prio];
		if ((b < bands ? b : bands - 1) == band)
			return prio;
	}
	cr_assert_fail("no priority maps to band %u", band);
	return 0;
}

static struct last_step_case producer_wakes_registered_sleeper_rows[] = {
	{ 1, 0, 1, VIA_ONE },
	{ 3, 2, 4, VIA_ONE },
	{ 3, 0, 1, VIA_ONE },
	{ GRAIN_PRIO_SCAN_BANDS, GRAIN_PRIO_SCAN_BANDS - 1, 1, VIA_ONE },
	{ 6, 5, 4, VIA_ONE }, /* with the bits */
	/* Burst and priority enqueues wake as single ones do. */
	{ 1, 0, 1, VIA_BURST },
	{ 3, 2, 4, VIA_BURST },
	{ 6, 5, 1, VIA_BURST },
	{ 1, 0, 4, VIA_PRIO },
	{ 3, 1, 1, VIA_PRIO },
	{ 6, 2, 4, VIA_PRIO },
};

TABLE_PARAMS(prio_window, producer_wakes_registered_sleeper,
	     producer_wakes_registered_sleeper_rows);

ParameterizedTest(struct last_step_case *c, prio_window,
		  producer_wakes_registered_sleeper, .timeout = 60)
{
	struct grain_prio_config cfg = { .bands = c->bands,
					 .capacity = 16,
					 .flags = GRAIN_PRIO_WAIT };
	struct grain_prio *p = NULL;
	bool scanned = c->bands <= GRAIN_PRIO_SCAN_BANDS;
	const unsigned nobj = 2;

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	stage.reached = stage.released = stage.sleeps = 0;
	grain_test_hook = hook;

	struct deq w = { .p = p, .want = c->w_want };
	struct test_threads threads = { .n = 0 };
	my_role = ROLE_NONE;
	test_spawn(&threads, held_sleeper, &w);
	await_sleeps(1);
	cr_assert_eq(atomic_load(&p->sleepers.waiters), 1u, "W is registered");
	uint32_t epoch = atomic_load(&p->sleepers.epoch);

	if (c->via == VIA_BURST) {
		void *objs[2] = { obj_of(0), obj_of(1) };
		cr_assert_eq(grain_prio_try_enqueue_burst(p, c->band, objs,
							  nobj),
			     (int)nobj);
	} else {
		unsigned prio =
			c->via == VIA_PRIO ? priority_of(c->bands, c->band) : 0;
		for (unsigned i = 0; i < nobj; i++)
			cr_assert_eq(c->via == VIA_PRIO
					     ? grain_prio_try_enqueue_prio(
						       p, prio, obj_of(i))
					     : grain_prio_try_enqueue(
						       p, c->band, obj_of(i)),
				     0);
	}
	cr_assert_neq(atomic_load(&p->sleepers.epoch), epoch,
		      "the producer found W and woke it");
	if (scanned)
		cr_assert_eq(atomic_load(&p->nonempty), 0u,
			     "a scanned queue writes no bits");

	release(1);
	test_join_all(&threads);
	grain_test_hook = NULL;

	cr_assert_gt(w.rc, 0, "W got nothing (rc %d)", w.rc);
	cr_assert_lt(w.elapsed_ns, WAIT_NS,
		     "lost wake-up: W slept through its whole timeout "
		     "(%.3f s) while objects were queued",
		     (double)w.elapsed_ns / 1e9);
	unsigned want = c->w_want < nobj ? c->w_want : nobj;
	cr_assert_eq((unsigned)w.rc, want);
	for (unsigned i = 0; i < want; i++)
		cr_assert_eq(w.objs[i], obj_of(i), "FIFO");
	cr_assert_eq(grain_prio_backlog(p), nobj - want);
	grain_prio_destroy(p);
}
