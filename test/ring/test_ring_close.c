/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_close.c - grain_ring_close() and grain_ring_elem_close(): what
 * every call returns after the close, in every mode and across the wrap of
 * the positions; sleepers of both sides all woken; a producer that claimed
 * its slot before the close and publishes after it (a forced interleaving:
 * the claim is made by hand, as a producer stopped between its claim and
 * its publish leaves it); the close held between its freeze and its
 * publish (test hook); and producers, consumers and a closer racing, with
 * every object that an enqueue reported queued dequeued exactly once.
 */
#define _GNU_SOURCE
#include <grain/ring.h>
#include <grain/ring_elem.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "../common/test_close.h"
#include "test_hooks.h"
#include "../common/test_threads.h"

#define LONG_NS (60LL * 1000000000) /* "never" for a correct program */

static const unsigned modes[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC,
				  GRAIN_RING_SPMC, GRAIN_RING_SPSC };

/* What every call returns on a closed ring holding 3 objects, then drained,
 * in one mode, from positions start on. */
static void check_closed_calls(unsigned mode, uint64_t start)
{
	struct grain_ring *r = NULL;
	void *objs[8] = { tag(0), tag(1), tag(2), tag(3) };
	void *out[8];

	cr_assert_eq(grain_ring_create(&r, 8, mode | GRAIN_RING_WAIT, NULL), 0);
	grain_impl_ring_reset(r, start);
	cr_assert_not(grain_ring_closed(r));
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 3), 0);
	cr_assert_eq(grain_ring_close(r), 0);
	cr_assert(grain_ring_closed(r));
	cr_assert_eq(grain_ring_close(r), -EPIPE, "a second close");

	/* Enqueues: all refused, whatever the room. */
	cr_assert_eq(grain_ring_try_enqueue(r, tag(9)), -EPIPE);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 2), -EPIPE);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, objs, 2), -EPIPE);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 0), 0, "n == 0");
	cr_assert_eq(grain_ring_try_enqueue_burst(r, objs, 0), 0, "n == 0");
	cr_assert_eq(grain_ring_enqueue_wait(r, tag(9), LONG_NS), -EPIPE);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, objs, 2, LONG_NS), -EPIPE);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, objs, 2, LONG_NS),
		     -EPIPE);
	if (mode & GRAIN_RING_SP) {
		struct grain_ring_zc zc;
		cr_assert_eq(grain_ring_try_reserve_bulk(r, 1, &zc), -EPIPE);
		cr_assert_eq(grain_ring_try_reserve_burst(r, 1, &zc), -EPIPE);
	}
	uint64_t enq = 0, deq = 0;
	grain_ring_totals(r, &enq, &deq);
	cr_assert_eq(enq, 3, "totals count only what was queued");
	cr_assert_eq(deq, 0);
	cr_assert_eq(grain_ring_count(r), 3u);
	cr_assert_eq(grain_ring_free_count(r), 5u);

	/* Dequeues: what is left, then -EPIPE. */
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 4), -EPIPE,
		     "a bulk of more than are left can never succeed");
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, out, 4, LONG_NS), -EPIPE);
	cr_assert_eq(grain_ring_count(r), 3u, "the failed bulks took nothing");
	if (mode & GRAIN_RING_SC) {
		struct grain_ring_zc zc;
		cr_assert_eq(grain_ring_try_peek_bulk(r, 4, &zc), -EPIPE);
		cr_assert_eq(grain_ring_try_peek_bulk(r, 1, &zc), 0);
		cr_assert_eq(*(void **)grain_ring_zc_at(&zc, 0), tag(0));
		cr_assert_eq(grain_ring_release(r, 0), 0, "left in the ring");
	}
	cr_assert_eq(grain_ring_try_dequeue(r, out), 0);
	cr_assert_eq(out[0], tag(0));
	cr_assert_eq(grain_ring_dequeue_wait(r, out, LONG_NS), 0);
	cr_assert_eq(out[0], tag(1));
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 8), 1);
	cr_assert_eq(out[0], tag(2));

	cr_assert_eq(grain_ring_try_dequeue(r, out), -EPIPE);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 8), -EPIPE);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 1), -EPIPE);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 0), 0, "n == 0");
	cr_assert_eq(grain_ring_dequeue_wait(r, out, LONG_NS), -EPIPE);
	cr_assert_eq(grain_ring_dequeue_burst_wait(r, out, 8, LONG_NS), -EPIPE);
	if (mode & GRAIN_RING_SC) {
		struct grain_ring_zc zc;
		cr_assert_eq(grain_ring_try_peek_burst(r, 2, &zc), -EPIPE);
	}
	cr_assert_eq(grain_ring_count(r), 0u);
	cr_assert(grain_ring_empty(r));
	grain_ring_totals(r, &enq, &deq);
	cr_assert_eq(enq, 3);
	cr_assert_eq(deq, 3);
	grain_ring_destroy(r);
}

Test(ring_close, every_call_every_mode)
{
	for (unsigned m = 0; m < 4; m++) {
		check_closed_calls(modes[m], 0);
		/* Across the wrap of 64-bit positions, and of 32 bits. */
		check_closed_calls(modes[m], UINT64_MAX - 1);
		check_closed_calls(modes[m], UINT32_MAX - 1);
	}
}

Test(ring_close, arguments_and_reservations)
{
	struct grain_ring *r = NULL;
	struct grain_ring_zc zc;

	cr_assert_eq(grain_ring_close(NULL), -EINVAL);
	cr_assert_not(grain_ring_closed(NULL));
	cr_assert_eq(grain_ring_elem_close(NULL), -EINVAL);
	cr_assert_not(grain_ring_elem_closed(NULL));

	/* A single producer's open reservation blocks the close. */
	cr_assert_eq(grain_ring_create(&r, 4, GRAIN_RING_SPSC, NULL), 0);
	cr_assert_eq(grain_ring_try_reserve_bulk(r, 2, &zc), 0);
	cr_assert_eq(grain_ring_close(r), -EBUSY);
	cr_assert_not(grain_ring_closed(r));
	*(void **)grain_ring_zc_at(&zc, 0) = tag(7);
	cr_assert_eq(grain_ring_commit(r, 1), 0);
	cr_assert_eq(grain_ring_close(r), 0);
	void *out = NULL;
	cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
	cr_assert_eq(out, tag(7));
	cr_assert_eq(grain_ring_try_dequeue(r, &out), -EPIPE);
	grain_ring_destroy(r);

	/* Without GRAIN_RING_WAIT: the same answers, nobody to wake. */
	cr_assert_eq(grain_ring_create(&r, 2, GRAIN_RING_MPMC, NULL), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tag(1)), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tag(2)), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tag(3)), -EAGAIN, "full");
	cr_assert_eq(grain_ring_close(r), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tag(3)), -EPIPE, "full, closed");
	cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tag(3)), -EPIPE, "room, closed");
	cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
	cr_assert_eq(out, tag(2));
	cr_assert_eq(grain_ring_try_dequeue(r, &out), -EPIPE);
	grain_ring_destroy(r);
}

Test(ring_close, elem)
{
	struct grain_ring_elem *e = NULL;
	uint64_t in[4] = { 10, 11, 12, 13 }, out[4] = { 0 };

	for (unsigned m = 0; m < 4; m++) {
		cr_assert_eq(grain_ring_elem_create(&e, 4, sizeof(uint64_t),
						    modes[m] | GRAIN_RING_WAIT,
						    NULL),
			     0);
		cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, in, 2), 0);
		cr_assert_eq(grain_ring_elem_close(e), 0);
		cr_assert(grain_ring_elem_closed(e));
		cr_assert_eq(grain_ring_elem_close(e), -EPIPE);
		cr_assert_eq(grain_ring_elem_try_enqueue(e, &in[2]), -EPIPE);
		cr_assert_eq(grain_ring_elem_try_enqueue_burst(e, in, 2),
			     -EPIPE);
		cr_assert_eq(grain_ring_elem_enqueue_wait(e, &in[2], LONG_NS),
			     -EPIPE);
		cr_assert_eq(grain_ring_elem_try_dequeue_bulk(e, out, 3),
			     -EPIPE);
		cr_assert_eq(grain_ring_elem_try_dequeue_burst(e, out, 4), 2);
		cr_assert_eq(out[0], 10);
		cr_assert_eq(out[1], 11);
		cr_assert_eq(grain_ring_elem_try_dequeue(e, out), -EPIPE);
		cr_assert_eq(grain_ring_elem_dequeue_wait(e, out, LONG_NS),
			     -EPIPE);
		cr_assert_eq(grain_ring_elem_dequeue_burst_wait(e, out, 4,
								LONG_NS),
			     -EPIPE);
		grain_ring_elem_destroy(e);
	}
}

/* --- sleepers -------------------------------------------------------------- */

#define SLEEPERS 8

struct sleeper {
	struct grain_ring *ring;
	struct grain_ring_elem *elem;
	uintptr_t id;
	unsigned form; /* 0 single, 1 bulk of 2, 2 burst of 4 */
	int rc;
	void *got[4];
};

static void *consume_wait(void *arg)
{
	struct sleeper *s = arg;

	if (s->elem != NULL) {
		uint64_t v;
		s->rc = grain_ring_elem_dequeue_wait(s->elem, &v, LONG_NS);
	} else if (s->form == 0) {
		s->rc = grain_ring_dequeue_wait(s->ring, s->got, LONG_NS);
	} else if (s->form == 1) {
		s->rc = grain_ring_dequeue_bulk_wait(s->ring, s->got, 2,
						     LONG_NS);
	} else {
		s->rc = grain_ring_dequeue_burst_wait(s->ring, s->got, 4,
						      LONG_NS);
	}
	return NULL;
}

static void *produce_wait(void *arg)
{
	struct sleeper *s = arg;
	void *two[2] = { tag(1000 + 2 * s->id), tag(1001 + 2 * s->id) };

	if (s->elem != NULL) {
		uint64_t v = 1000 + s->id;
		s->rc = grain_ring_elem_enqueue_wait(s->elem, &v, LONG_NS);
	} else if (s->form == 0) {
		s->rc = grain_ring_enqueue_wait(s->ring, two[0], LONG_NS);
	} else if (s->form == 1) {
		s->rc = grain_ring_enqueue_bulk_wait(s->ring, two, 2, LONG_NS);
	} else {
		s->rc = grain_ring_enqueue_burst_wait(s->ring, two, 2, LONG_NS);
	}
	return NULL;
}

/* 8 consumers asleep on an empty ring, in every wait form: the close
 * wakes them all, each with -EPIPE. */
Test(ring_close, wakes_sleeping_consumers, .timeout = 300)
{
	const unsigned mc[] = { GRAIN_RING_MPMC, GRAIN_RING_SPMC };

	for (unsigned m = 0; m < 2; m++) {
		struct grain_ring *r = NULL;
		struct sleeper s[SLEEPERS];
		struct test_threads threads = { .n = 0 };

		cr_assert_eq(grain_ring_create(&r, 16, mc[m] | GRAIN_RING_WAIT,
					       NULL),
			     0);
		for (unsigned i = 0; i < SLEEPERS; i++) {
			s[i] = (struct sleeper){ .ring = r,
						 .id = i,
						 .form = i % 3 };
			test_spawn(&threads, consume_wait, &s[i]);
		}
		await_sleepers(&r->prod.sleepers, SLEEPERS);
		cr_assert_eq(grain_ring_close(r), 0);
		test_join_all(&threads);
		for (unsigned i = 0; i < SLEEPERS; i++) {
			cr_assert_eq(s[i].rc, -EPIPE, "sleeper %u", i);
		}
		cr_assert_eq(atomic_load(&r->prod.sleepers.waiters), 0u);
		grain_ring_destroy(r);
	}
}

/* 8 producers asleep on a full ring: the close wakes them all with
 * -EPIPE, and what filled the ring is then dequeued exactly once. */
Test(ring_close, wakes_sleeping_producers, .timeout = 300)
{
	const unsigned mp[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC };

	for (unsigned m = 0; m < 2; m++) {
		struct grain_ring *r = NULL;
		struct sleeper s[SLEEPERS];
		struct test_threads threads = { .n = 0 };
		void *fill[4] = { tag(0), tag(1), tag(2), tag(3) };

		cr_assert_eq(grain_ring_create(&r, 4, mp[m] | GRAIN_RING_WAIT,
					       NULL),
			     0);
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, fill, 4), 0);
		for (unsigned i = 0; i < SLEEPERS; i++) {
			s[i] = (struct sleeper){ .ring = r,
						 .id = i,
						 .form = i % 3 };
			test_spawn(&threads, produce_wait, &s[i]);
		}
		await_sleepers(&r->cons.sleepers, SLEEPERS);
		cr_assert_eq(grain_ring_close(r), 0);
		test_join_all(&threads);
		for (unsigned i = 0; i < SLEEPERS; i++) {
			cr_assert_eq(s[i].rc, -EPIPE, "sleeper %u", i);
		}
		void *out[8];
		cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 8), 4);
		for (uintptr_t i = 0; i < 4; i++)
			cr_assert_eq(out[i], tag(i));
		cr_assert_eq(grain_ring_try_dequeue(r, out), -EPIPE);
		grain_ring_destroy(r);
	}
}

/* Both at once on a grain_ring_elem of capacity 2: 8 producers asleep
 * (ring full), then drained by hand so that the producers fill it again,
 * then 8 consumers asleep (empty); the close wakes all still asleep. */
Test(ring_close, elem_sleepers, .timeout = 300)
{
	struct grain_ring_elem *e = NULL;
	struct sleeper p[SLEEPERS], c[SLEEPERS];
	struct test_threads threads = { .n = 0 };
	uint64_t v = 1;

	cr_assert_eq(grain_ring_elem_create(&e, 2, sizeof(uint64_t),
					    GRAIN_RING_MPMC | GRAIN_RING_WAIT,
					    NULL),
		     0);
	cr_assert_eq(grain_ring_elem_try_enqueue(e, &v), 0);
	cr_assert_eq(grain_ring_elem_try_enqueue(e, &v), 0);
	for (unsigned i = 0; i < SLEEPERS; i++) {
		p[i] = (struct sleeper){ .elem = e, .id = i };
		test_spawn(&threads, produce_wait, &p[i]);
	}
	await_sleepers(&e->ring.cons.sleepers, SLEEPERS);
	cr_assert_eq(grain_ring_elem_close(e), 0);
	test_join_all(&threads);
	for (unsigned i = 0; i < SLEEPERS; i++) {
		cr_assert_eq(p[i].rc, -EPIPE);
	}
	/* Two left: two consumers get them, the others -EPIPE. */
	unsigned ok = 0;
	for (unsigned i = 0; i < SLEEPERS; i++) {
		c[i] = (struct sleeper){ .elem = e, .id = i };
		test_spawn(&threads, consume_wait, &c[i]);
	}
	test_join_all(&threads);
	for (unsigned i = 0; i < SLEEPERS; i++) {
		cr_assert(c[i].rc == 0 || c[i].rc == -EPIPE);
		ok += c[i].rc == 0;
	}
	cr_assert_eq(ok, 2u, "each element dequeued once");
	grain_ring_elem_destroy(e);
}

/* --- a claim made before the close, published after it ---------------------- */

/*
 * A producer of an MPMC ring stopped between its claim and its publish:
 * made by hand, as the inline enqueue leaves it (the position moved with
 * its CAS, the slot not yet ready). The close that follows must count
 * that position in: consumers read -EAGAIN (or sleep), never -EPIPE,
 * until it is published; then they get the object, then -EPIPE.
 */
Test(ring_close, claimed_before_close_published_after, .timeout = 300)
{
	const unsigned mc[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC };

	for (unsigned m = 0; m < 2; m++) {
		struct grain_ring *r = NULL;
		void *out = NULL;

		cr_assert_eq(grain_ring_create(&r, 4, mc[m] | GRAIN_RING_WAIT,
					       NULL),
			     0);
		grain_impl_ring_reset(r, UINT64_MAX);
		cr_assert_eq(grain_ring_try_enqueue(r, tag(1)), 0);

		/* The stopped producer's claim of the next position. */
		uint64_t pos = atomic_load(&r->prod.pos);
		cr_assert(atomic_compare_exchange_strong(&r->prod.pos, &pos,
							 pos + 1));
		cr_assert_eq(grain_ring_try_enqueue(r, tag(3)), 0,
			     "a later producer goes ahead");

		cr_assert_eq(grain_ring_close(r), 0);
		cr_assert_eq(grain_ring_try_enqueue(r, tag(4)), -EPIPE);
		cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
		cr_assert_eq(out, tag(1));
		cr_assert_eq(grain_ring_try_dequeue(r, &out), -EAGAIN,
			     "the claimed slot is still to come");
		cr_assert_eq(grain_ring_try_dequeue_burst(r, &out, 1), 0);
		cr_assert_eq(grain_ring_dequeue_wait(r, &out, 1000000),
			     -ETIMEDOUT);

		/* A consumer asleep for it stays asleep... */
		struct sleeper s = { .ring = r, .form = 0 };
		struct test_threads threads = { .n = 0 };
		test_spawn(&threads, consume_wait, &s);
		await_sleepers(&r->prod.sleepers, 1);
		pause_ms(50);
		cr_assert_eq(atomic_load(&r->prod.sleepers.waiters), 1u,
			     "no -EPIPE while a claimed slot is unpublished");

		/* ...until the stopped producer publishes (R1) and wakes it,
		 * as grain_impl_ring_publish() does. */
		struct grain_impl_ring_slot *slot =
			&grain_impl_ring_slots(r)[pos & r->prod.mask];
		slot->obj = tag(2);
		atomic_store_explicit(&slot->seq, pos + 1,
				      memory_order_release);
		grain_impl_ring_notify(&r->prod.sleepers);
		test_join_all(&threads);
		cr_assert_eq(s.rc, 0);
		cr_assert_eq(s.got[0], tag(2));
		cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
		cr_assert_eq(out, tag(3));
		cr_assert_eq(grain_ring_try_dequeue(r, &out), -EPIPE);
		grain_ring_destroy(r);
	}
}

/* --- the close held between its freeze and its publish ---------------------- */

static _Atomic(int) frozen_seen;
static _Atomic(int) frozen_go;

static void hold_frozen(enum grain_test_point point, const void *obj,
			unsigned arg)
{
	(void)obj;
	(void)arg;
	if (point != GRAIN_TEST_RING_FROZEN)
		return;
	atomic_store(&frozen_seen, 1);
	while (!atomic_load(&frozen_go))
		pause_ms(1);
}

struct closer {
	struct grain_ring *ring;
	int rc; /* grain_ring_close()'s */
};

static void *close_thread(void *arg)
{
	struct closer *c = arg;

	c->rc = grain_ring_close(c->ring);
	return NULL;
}

/*
 * While the closer is held after its freeze: no enqueue succeeds (the
 * position is frozen), a waiting producer sleeps instead of failing, the
 * ring does not read as closed and a consumer of an empty ring sleeps
 * too. Once the closer goes on, both wake with -EPIPE.
 */
Test(ring_close, held_between_freeze_and_publish, .timeout = 300)
{
	struct grain_ring *r = NULL;
	struct test_threads closer = { .n = 0 }, threads = { .n = 0 };
	struct closer cl = { .rc = -1 };
	void *out;

	cr_assert_eq(grain_ring_create(&r, 4, GRAIN_RING_MPMC | GRAIN_RING_WAIT,
				       NULL),
		     0);
	atomic_store(&frozen_seen, 0);
	atomic_store(&frozen_go, 0);
	grain_test_hook = hold_frozen;
	cl.ring = r;
	test_spawn(&closer, close_thread, &cl);
	while (!atomic_load(&frozen_seen))
		pause_ms(1);

	cr_assert_not(grain_ring_closed(r));
	cr_assert_eq(grain_ring_try_enqueue(r, tag(1)), -EAGAIN,
		     "frozen, not yet closed: refused");
	cr_assert_eq(grain_ring_count(r), 0u);
	cr_assert_eq(grain_ring_try_dequeue(r, &out), -EAGAIN);

	struct sleeper p = { .ring = r, .form = 0 }, c = { .ring = r };
	test_spawn(&threads, produce_wait, &p);
	test_spawn(&threads, consume_wait, &c);
	await_sleepers(&r->cons.sleepers, 1);
	await_sleepers(&r->prod.sleepers, 1);

	atomic_store(&frozen_go, 1);
	test_join_all(&closer);
	cr_assert_eq(cl.rc, 0);
	test_join_all(&threads);
	grain_test_hook = NULL;
	cr_assert_eq(p.rc, -EPIPE);
	cr_assert_eq(c.rc, -EPIPE);
	cr_assert(grain_ring_closed(r));
	grain_ring_destroy(r);
}

/* --- producers, consumers and a closer racing ------------------------------- */

#define RACE_PRODUCERS 4
#define RACE_CONSUMERS 4

struct race {
	struct grain_ring *ring;
	unsigned per_producer;
	_Atomic(unsigned) *seen;	/* per object: times dequeued */
	_Atomic(unsigned char) *queued; /* per object: enqueue succeeded */
	_Atomic(unsigned) started;
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
	for (unsigned i = 0; i < x->per_producer;) {
		void *objs[3];
		unsigned n = 1 + (unsigned)(test_rand(&t->rng) % 3);
		if (n > x->per_producer - i)
			n = x->per_producer - i;
		for (unsigned j = 0; j < n; j++)
			objs[j] = tag(base + i + j);
		int rc;
		switch (test_rand(&t->rng) % 4) {
		case 0:
			rc = grain_ring_enqueue_wait(x->ring, objs[0], LONG_NS);
			rc = rc == 0 ? 1 : rc;
			break;
		case 1:
			rc = grain_ring_enqueue_bulk_wait(x->ring, objs, n,
							  LONG_NS);
			rc = rc == 0 ? (int)n : rc;
			break;
		case 2:
			rc = grain_ring_enqueue_burst_wait(x->ring, objs, n,
							   LONG_NS);
			break;
		default:
			rc = grain_ring_try_enqueue_burst(x->ring, objs, n);
			break;
		}
		if (rc == -EPIPE)
			return NULL;
		cr_assert_geq(rc, 0, "enqueue: %d", rc);
		for (int j = 0; j < rc; j++)
			atomic_store(&x->queued[base + i + (unsigned)j], 1);
		i += (unsigned)rc;
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
		switch (test_rand(&t->rng) % 3) {
		case 0:
			rc = grain_ring_dequeue_wait(x->ring, objs, LONG_NS);
			rc = rc == 0 ? 1 : rc;
			break;
		case 1:
			rc = grain_ring_dequeue_burst_wait(x->ring, objs, 4,
							   LONG_NS);
			break;
		default:
			rc = grain_ring_try_dequeue_burst(x->ring, objs, 4);
			break;
		}
		if (rc == -EPIPE)
			return NULL;
		cr_assert_geq(rc, 0, "dequeue: %d", rc);
		for (int j = 0; j < rc; j++) {
			uintptr_t id = (uintptr_t)objs[j] - 1;
			cr_assert_lt(id, total);
			atomic_fetch_add(&x->seen[id], 1);
		}
		test_jitter(&t->rng);
	}
}

static void race_once(unsigned mode, unsigned cap, unsigned per_producer,
		      uint64_t seed)
{
	const unsigned consumers = (mode & GRAIN_RING_SC) ? 1 : RACE_CONSUMERS;
	const unsigned total = RACE_PRODUCERS * per_producer;
	struct race x = { .per_producer = per_producer };
	struct race_thread p[RACE_PRODUCERS], c[RACE_CONSUMERS];
	struct test_threads threads = { .n = 0 };

	cr_assert_eq(grain_ring_create(&x.ring, cap, mode | GRAIN_RING_WAIT,
				       NULL),
		     0);
	grain_impl_ring_reset(x.ring, UINT64_MAX - cap);
	x.seen = calloc(total, sizeof(*x.seen));
	x.queued = calloc(total, sizeof(*x.queued));
	cr_assert(x.seen != NULL && x.queued != NULL);
	for (unsigned i = 0; i < RACE_PRODUCERS; i++) {
		p[i] = (struct race_thread){ &x, i, seed * 31 + i + 1 };
		test_spawn(&threads, race_produce, &p[i]);
	}
	for (unsigned i = 0; i < consumers; i++) {
		c[i] = (struct race_thread){ &x, i, seed * 37 + i + 101 };
		test_spawn(&threads, race_consume, &c[i]);
	}
	while (atomic_load(&x.started) < RACE_PRODUCERS + consumers)
		sched_yield();
	/* Close somewhere in the middle of the traffic: once a random share
	 * of the objects went through. */
	uint64_t rng = seed + 7, enq = 0, deq = 0;
	uint64_t at = test_rand(&rng) % (total - total / 8);
	do {
		sched_yield();
		grain_ring_totals(x.ring, &enq, &deq);
	} while (deq < at);
	cr_assert_eq(grain_ring_close(x.ring), 0);
	test_join_all(&threads);

	for (unsigned i = 0; i < total; i++)
		cr_assert_eq(atomic_load(&x.seen[i]),
			     (unsigned)atomic_load(&x.queued[i]),
			     "object %u: queued %d, dequeued %u times", i,
			     atomic_load(&x.queued[i]),
			     atomic_load(&x.seen[i]));
	cr_assert_eq(grain_ring_count(x.ring), 0u);
	grain_ring_totals(x.ring, &enq, &deq);
	cr_assert_eq(enq, deq);
	free(x.seen);
	free((void *)x.queued);
	grain_ring_destroy(x.ring);
}

Test(ring_close, race_exactly_once, .timeout = 600)
{
	const unsigned mp[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC };
	const unsigned rounds = test_scale(40);

	for (unsigned round = 0; round < rounds; round++)
		for (unsigned m = 0; m < 2; m++)
			race_once(mp[m], round % 2 ? 4 : 64, test_scale(20000),
				  round + 1);
}
