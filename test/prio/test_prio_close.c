/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_prio_close.c - grain_prio_close() and grain_prio_enqueue_wait():
 * what every call returns after the close, for scanned queues and queues
 * with non-empty bits, strict and weighted; the blocking enqueue's
 * arguments, timeouts, drops and wake-ups; sleeping dequeuers and
 * producers all woken by the close; and producers (blocking and not),
 * dequeuers and a closer racing, with every object that an enqueue
 * reported queued dequeued exactly once.
 */
#define _GNU_SOURCE
#include <grain/prio.h>

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "../common/test_close.h"
#include "../common/test_threads.h"

#define LONG_NS (60LL * 1000000000) /* "never" for a correct program */

static struct grain_prio *make(unsigned bands, unsigned cap, unsigned flags)
{
	struct grain_prio_config cfg = { .bands = bands,
					 .flags = flags,
					 .capacity = cap };
	struct grain_prio *p = NULL;

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	return p;
}

/* 3 bands: scanned; 8: with non-empty bits. */
static const unsigned band_counts[] = { 3, 8 };
static const unsigned flag_sets[] = { GRAIN_PRIO_WAIT,
				      GRAIN_PRIO_WAIT | GRAIN_PRIO_SC,
				      GRAIN_PRIO_WAIT | GRAIN_PRIO_WEIGHTED };

Test(prio_close, every_call)
{
	for (unsigned bi = 0; bi < 2; bi++)
		for (unsigned fi = 0; fi < 3; fi++) {
			unsigned nb = band_counts[bi];
			struct grain_prio *p = make(nb, 4, flag_sets[fi]);
			void *objs[4] = { tag(0), tag(1), tag(2), tag(3) };
			void *out[8];
			unsigned band = 99;

			cr_assert_not(grain_prio_closed(p));
			cr_assert_eq(grain_prio_try_enqueue(p, nb - 1, tag(10)),
				     0);
			cr_assert_eq(
				grain_prio_try_enqueue_burst(p, 0, objs, 2), 2);
			cr_assert_eq(grain_prio_close(p), 0);
			cr_assert(grain_prio_closed(p));
			cr_assert_eq(grain_prio_close(p), -EPIPE);

			for (unsigned b = 0; b < nb; b++) {
				cr_assert_eq(grain_prio_try_enqueue(p, b,
								    tag(9)),
					     -EPIPE);
				cr_assert_eq(grain_prio_try_enqueue_burst(
						     p, b, objs, 2),
					     -EPIPE);
				cr_assert_eq(grain_prio_enqueue_wait(
						     p, b, tag(9), LONG_NS),
					     -EPIPE);
			}
			cr_assert_eq(grain_prio_try_enqueue_prio(p, 7, tag(9)),
				     -EPIPE);
			cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, objs,
								  0),
				     0, "n == 0");
			struct grain_prio_band_stats st;
			for (unsigned b = 0; b < nb; b++) {
				cr_assert_eq(grain_prio_stats(p, b, &st), 0);
				cr_assert_eq(st.dropped, 0,
					     "a closed queue counts no drop");
			}
			cr_assert_eq(grain_prio_backlog(p), 3u);

			/* What is left, by the scheduling rule (strict:
			 * band 0 first), each object once. */
			void *got[3];
			cr_assert_eq(grain_prio_try_dequeue(p, &got[0], &band),
				     0);
			cr_assert_eq(got[0], tag(0));
			cr_assert_eq(band, 0u);
			cr_assert_eq(grain_prio_dequeue_wait(p, &got[1], &band,
							     LONG_NS),
				     0);
			cr_assert_eq(
				grain_prio_try_dequeue_burst(p, &got[2], 8), 1);
			if (!(flag_sets[fi] & GRAIN_PRIO_WEIGHTED)) {
				cr_assert_eq(got[1], tag(1));
				cr_assert_eq(got[2], tag(10));
			} else {
				cr_assert((got[1] == tag(1) &&
					   got[2] == tag(10)) ||
					  (got[1] == tag(10) &&
					   got[2] == tag(1)));
			}
			cr_assert_eq(grain_prio_try_dequeue(p, out, NULL),
				     -EPIPE);
			cr_assert_eq(grain_prio_try_dequeue_burst(p, out, 8),
				     -EPIPE);
			cr_assert_eq(grain_prio_try_dequeue_burst(p, out, 0), 0,
				     "n == 0");
			cr_assert_eq(grain_prio_dequeue_wait(p, out, NULL,
							     LONG_NS),
				     -EPIPE);
			cr_assert_eq(grain_prio_dequeue_burst_wait(p, out, 8,
								   LONG_NS),
				     -EPIPE);
			grain_prio_destroy(p);
		}
}

Test(prio_close, arguments)
{
	struct grain_prio *p = make(3, 2, 0);

	cr_assert_eq(grain_prio_close(NULL), -EINVAL);
	cr_assert_not(grain_prio_closed(NULL));
	cr_assert_eq(grain_prio_enqueue_wait(NULL, 0, NULL, 0), -EINVAL);
	cr_assert_eq(grain_prio_enqueue_wait(p, 0, NULL, 0), -EINVAL,
		     "needs GRAIN_PRIO_WAIT");
	grain_prio_destroy(p);
	p = make(3, 2, GRAIN_PRIO_WAIT);
	cr_assert_eq(grain_prio_enqueue_wait(p, 3, NULL, 0), -EINVAL, "band");
	cr_assert_eq(grain_prio_enqueue_wait(p, 2, NULL, 0), 0);
	cr_assert_eq(grain_prio_backlog(p), 1u);
	grain_prio_destroy(p);

	/* Closed without GRAIN_PRIO_WAIT: the same answers. */
	p = make(8, 2, 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 5, tag(5)), 0);
	cr_assert_eq(grain_prio_close(p), 0);
	void *out;
	cr_assert_eq(grain_prio_try_enqueue(p, 5, tag(6)), -EPIPE);
	cr_assert_eq(grain_prio_try_dequeue(p, &out, NULL), 0);
	cr_assert_eq(out, tag(5));
	cr_assert_eq(grain_prio_try_dequeue(p, &out, NULL), -EPIPE);
	grain_prio_destroy(p);
}

/* --- the blocking enqueue -------------------------------------------------- */

Test(prio_enqueue_wait, timeouts_and_drops)
{
	for (unsigned bi = 0; bi < 2; bi++) {
		struct grain_prio *p =
			make(band_counts[bi], 2, GRAIN_PRIO_WAIT);
		struct grain_prio_band_stats st;

		cr_assert_eq(grain_prio_enqueue_wait(p, 1, tag(0), 0), 0);
		cr_assert_eq(grain_prio_enqueue_wait(p, 1, tag(1), -1), 0);
		cr_assert_eq(grain_prio_enqueue_wait(p, 1, tag(2), 0),
			     -ETIMEDOUT, "0: one attempt");
		int64_t t0 = test_now_ns();
		cr_assert_eq(grain_prio_enqueue_wait(p, 1, tag(3), 20000000),
			     -ETIMEDOUT);
		cr_assert_geq(test_now_ns() - t0, 20000000);
		cr_assert_eq(grain_prio_enqueue_wait(p, 0, tag(4), 0), 0,
			     "another band has room");
		cr_assert_eq(grain_prio_stats(p, 1, &st), 0);
		cr_assert_eq(st.enqueued, 2);
		cr_assert_eq(st.dropped, 2, "each timed-out call is a drop");
		cr_assert_eq(grain_prio_stats(p, 0, &st), 0);
		cr_assert_eq(st.dropped, 0);
		grain_prio_destroy(p);
	}
}

struct waiter {
	struct grain_prio *prio;
	unsigned band;
	uintptr_t id;
	int rc;
	void *got;
};

static void *enqueue_waiter(void *arg)
{
	struct waiter *w = arg;

	w->rc = grain_prio_enqueue_wait(w->prio, w->band, tag(w->id), LONG_NS);
	return NULL;
}

static void *dequeue_waiter(void *arg)
{
	struct waiter *w = arg;

	w->rc = grain_prio_dequeue_wait(w->prio, &w->got, NULL, LONG_NS);
	return NULL;
}

/* A producer asleep on a full band is woken by the dequeue that makes
 * room (a burst, or a dequeue that took from another band first). */
Test(prio_enqueue_wait, woken_by_a_dequeue, .timeout = 300)
{
	for (unsigned bi = 0; bi < 2; bi++)
		for (unsigned fi = 0; fi < 3; fi++) {
			struct grain_prio *p =
				make(band_counts[bi], 2, flag_sets[fi]);
			struct grain_ring *band1 = p->ro.rings[1];
			void *out[4];

			cr_assert_eq(grain_prio_try_enqueue(p, 1, tag(0)), 0);
			cr_assert_eq(grain_prio_try_enqueue(p, 1, tag(1)), 0);
			struct waiter w = { .prio = p, .band = 1, .id = 2 };
			struct test_threads threads = { .n = 0 };
			test_spawn(&threads, enqueue_waiter, &w);
			await_sleepers(&band1->cons.sleepers, 1);
			cr_assert_eq(grain_prio_try_dequeue(p, out, NULL), 0);
			cr_assert_eq(out[0], tag(0));
			test_join_all(&threads);
			cr_assert_eq(w.rc, 0);
			cr_assert_eq(grain_prio_try_dequeue_burst(p, out, 4),
				     2);
			cr_assert_eq(out[0], tag(1));
			cr_assert_eq(out[1], tag(2));
			grain_prio_destroy(p);
		}
}

/* --- sleepers woken by the close -------------------------------------------- */

#define SLEEPERS 8

Test(prio_close, wakes_every_sleeper, .timeout = 300)
{
	for (unsigned bi = 0; bi < 2; bi++) {
		unsigned nb = band_counts[bi];
		/* Dequeuers asleep on an empty queue. */
		struct grain_prio *empty = make(nb, 4, GRAIN_PRIO_WAIT);
		/* Producers asleep on full bands (two bands). */
		struct grain_prio *full = make(nb, 2, GRAIN_PRIO_WAIT);
		struct waiter c[SLEEPERS], p[SLEEPERS];
		struct test_threads threads = { .n = 0 };
		void *out[8];

		for (uintptr_t i = 0; i < 4; i++)
			cr_assert_eq(grain_prio_try_enqueue(
					     full, (unsigned)(i / 2), tag(i)),
				     0);
		for (unsigned i = 0; i < SLEEPERS; i++) {
			c[i] = (struct waiter){ .prio = empty };
			p[i] = (struct waiter){ .prio = full,
						.band = i % 2,
						.id = 100 + i };
			test_spawn(&threads, dequeue_waiter, &c[i]);
			test_spawn(&threads, enqueue_waiter, &p[i]);
		}
		await_sleepers(&empty->sleepers, SLEEPERS);
		await_sleepers(&full->ro.rings[0]->cons.sleepers, SLEEPERS / 2);
		await_sleepers(&full->ro.rings[1]->cons.sleepers, SLEEPERS / 2);
		cr_assert_eq(grain_prio_close(empty), 0);
		cr_assert_eq(grain_prio_close(full), 0);
		test_join_all(&threads);
		for (unsigned i = 0; i < SLEEPERS; i++) {
			cr_assert_eq(c[i].rc, -EPIPE, "dequeuer %u", i);
			cr_assert_eq(p[i].rc, -EPIPE, "producer %u", i);
		}
		cr_assert_eq(grain_prio_try_dequeue_burst(full, out, 8), 4);
		for (uintptr_t i = 0; i < 4; i++)
			cr_assert_eq(out[i], tag(i));
		cr_assert_eq(grain_prio_try_dequeue(full, out, NULL), -EPIPE);
		grain_prio_destroy(empty);
		grain_prio_destroy(full);
	}
}

/* --- producers, dequeuers and a closer racing ------------------------------- */

#define RACE_PRODUCERS 4
#define RACE_CONSUMERS 3

struct race {
	struct grain_prio *prio;
	unsigned bands;
	unsigned per_producer;
	bool close_early; /* close mid-traffic, else once all are queued */
	_Atomic(unsigned) *seen;
	_Atomic(unsigned char) *queued;
	_Atomic(unsigned) started;
	_Atomic(unsigned) taken;
};

struct race_thread {
	struct race *race;
	unsigned id;
	uint64_t rng;
};

static void *race_produce(void *arg)
{
	struct race_thread *t = arg;
	struct race *x = t->race;
	uintptr_t base = (uintptr_t)t->id * x->per_producer;

	atomic_fetch_add(&x->started, 1);
	for (unsigned i = 0; i < x->per_producer; i++) {
		unsigned band = (unsigned)(test_rand(&t->rng) % x->bands);
		int rc;
		/* Mostly blocking: a try_ call may be refused (a drop). */
		if (test_rand(&t->rng) % 4 != 0 || !x->close_early)
			rc = grain_prio_enqueue_wait(x->prio, band,
						     tag(base + i), LONG_NS);
		else
			rc = grain_prio_try_enqueue(x->prio, band,
						    tag(base + i));
		if (rc == -EPIPE)
			return NULL;
		cr_assert(rc == 0 || rc == -EAGAIN, "enqueue: %d", rc);
		if (rc == 0)
			atomic_store(&x->queued[base + i], 1);
		test_jitter(&t->rng);
	}
	return NULL;
}

static void *race_consume(void *arg)
{
	struct race_thread *t = arg;
	struct race *x = t->race;
	unsigned total = RACE_PRODUCERS * x->per_producer;

	atomic_fetch_add(&x->started, 1);
	for (;;) {
		void *objs[4];
		int rc;
		if (test_rand(&t->rng) % 2) {
			rc = grain_prio_dequeue_wait(x->prio, objs, NULL,
						     LONG_NS);
			rc = rc == 0 ? 1 : rc;
		} else {
			rc = grain_prio_dequeue_burst_wait(x->prio, objs, 4,
							   LONG_NS);
		}
		if (rc == -EPIPE)
			return NULL;
		cr_assert_gt(rc, 0, "dequeue: %d", rc);
		for (int j = 0; j < rc; j++) {
			uintptr_t id = (uintptr_t)objs[j] - 1;
			cr_assert_lt(id, total);
			atomic_fetch_add(&x->seen[id], 1);
		}
		atomic_fetch_add(&x->taken, (unsigned)rc);
		test_jitter(&t->rng);
	}
}

static void race_once(unsigned bands, unsigned flags, bool close_early,
		      unsigned per_producer, uint64_t seed)
{
	const unsigned consumers = (flags & GRAIN_PRIO_SC) ? 1 : RACE_CONSUMERS;
	const unsigned total = RACE_PRODUCERS * per_producer;
	struct race x = { .bands = bands,
			  .per_producer = per_producer,
			  .close_early = close_early };
	struct race_thread p[RACE_PRODUCERS], c[RACE_CONSUMERS];
	struct test_threads producers = { .n = 0 }, consumers_t = { .n = 0 };

	x.prio = make(bands, 4, flags | GRAIN_PRIO_WAIT);
	x.seen = calloc(total, sizeof(*x.seen));
	x.queued = calloc(total, sizeof(*x.queued));
	cr_assert(x.seen != NULL && x.queued != NULL);
	for (unsigned i = 0; i < RACE_PRODUCERS; i++) {
		p[i] = (struct race_thread){ &x, i, seed * 31 + i + 1 };
		test_spawn(&producers, race_produce, &p[i]);
	}
	for (unsigned i = 0; i < consumers; i++) {
		c[i] = (struct race_thread){ &x, i, seed * 37 + i + 101 };
		test_spawn(&consumers_t, race_consume, &c[i]);
	}
	while (atomic_load(&x.started) < RACE_PRODUCERS + consumers)
		sched_yield();
	if (close_early) {
		uint64_t rng = seed + 7;
		unsigned at = (unsigned)(test_rand(&rng) % (total / 2));
		while (atomic_load(&x.taken) < at)
			sched_yield();
		cr_assert_eq(grain_prio_close(x.prio), 0);
	}
	test_join_all(&producers);
	if (!close_early)
		cr_assert_eq(grain_prio_close(x.prio), 0);
	test_join_all(&consumers_t);

	for (unsigned i = 0; i < total; i++) {
		if (!close_early)
			cr_assert_eq(atomic_load(&x.queued[i]), 1,
				     "blocking enqueues all succeed");
		cr_assert_eq(atomic_load(&x.seen[i]),
			     (unsigned)atomic_load(&x.queued[i]),
			     "object %u: queued %d, dequeued %u times", i,
			     atomic_load(&x.queued[i]),
			     atomic_load(&x.seen[i]));
	}
	cr_assert_eq(grain_prio_backlog(x.prio), 0u);
	free(x.seen);
	free((void *)x.queued);
	grain_prio_destroy(x.prio);
}

Test(prio_close, race_exactly_once, .timeout = 600)
{
	const unsigned rounds = test_scale(16);

	for (unsigned round = 0; round < rounds; round++)
		for (unsigned bi = 0; bi < 2; bi++)
			for (unsigned fi = 0; fi < 3; fi++)
				race_once(band_counts[bi], flag_sets[fi], true,
					  test_scale(8000), round + 1);
}

/* Without a close until the end: producers block on full bands and are
 * woken by the dequeues; every object goes through exactly once. */
Test(prio_enqueue_wait, blocking_producers_exactly_once, .timeout = 600)
{
	const unsigned rounds = test_scale(8);

	for (unsigned round = 0; round < rounds; round++)
		for (unsigned bi = 0; bi < 2; bi++)
			for (unsigned fi = 0; fi < 3; fi++)
				race_once(band_counts[bi], flag_sets[fi], false,
					  test_scale(8000), round + 1);
}
