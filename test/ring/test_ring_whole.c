/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_whole.c - operations the size of the whole ring and bursts
 * larger than it. A bulk of capacity objects is all or nothing, so it
 * succeeds only on an empty ring (enqueue) or a full one (dequeue); a
 * burst of more than the capacity moves at most the capacity. Alone and
 * with concurrent producers and consumers in every mode, with and without
 * the _wait forms: every token exactly once, FIFO per producer, and when
 * both sides move whole rings, every dequeued batch is exactly one
 * producer's enqueued batch.
 */
#define _GNU_SOURCE
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"

#define CAP 8u
#define BIG (3u * CAP + 1) /* a burst request well over the capacity */
#define WAIT_NS (20LL * 1000000000)
#define THREADS 3u

enum whole_op {
	WHOLE_BULK,	  /* bulk of CAP on both sides */
	WHOLE_BURST,	  /* burst of BIG on both sides */
	WHOLE_BULK_BURST, /* bulk of CAP in, burst of BIG out */
	WHOLE_WAIT,	  /* enqueue_bulk_wait(CAP), dequeue_bulk_wait(CAP) */
	WHOLE_WAIT_BURST, /* enqueue_burst_wait(BIG), dequeue_burst_wait(BIG) */
};

struct whole_param {
	unsigned mode;
	enum whole_op op;
};

struct whole {
	const struct whole_param *p;
	struct grain_ring *ring;
	pthread_mutex_t prod_lock, cons_lock; /* SP / SC handover */
	unsigned per_producer;		      /* a multiple of CAP */
	uint64_t total;
	_Atomic(unsigned char) *seen;
	_Atomic(uint64_t) consumed;
	struct test_failures fails;
	int64_t give_up_ns;
};

struct whole_worker {
	struct whole *w;
	unsigned id;
};

static void *token(unsigned producer, unsigned seq)
{
	return (void *)(((uintptr_t)producer << 32) | seq);
}

static bool wait_op(enum whole_op op)
{
	return op == WHOLE_WAIT || op == WHOLE_WAIT_BURST;
}

/* One enqueue attempt of objs[0..n); returns how many went in. */
static unsigned put(struct whole *w, void **objs, unsigned n)
{
	struct grain_ring *r = w->ring;
	int rc;

	switch (w->p->op) {
	case WHOLE_BULK:
	case WHOLE_BULK_BURST:
		rc = grain_ring_try_enqueue_bulk(r, objs, n < CAP ? n : CAP);
		if (rc != 0 && rc != -EAGAIN)
			test_fail(&w->fails,
				  "enqueue_bulk of the capacity: an error");
		return rc == 0 ? (n < CAP ? n : CAP) : 0;
	case WHOLE_BURST:
		rc = grain_ring_try_enqueue_burst(r, objs, n);
		break;
	case WHOLE_WAIT:
		rc = grain_ring_enqueue_bulk_wait(r, objs, n < CAP ? n : CAP,
						  WAIT_NS);
		if (rc != 0)
			test_fail(&w->fails,
				  "enqueue_bulk_wait of the capacity failed");
		return rc == 0 ? (n < CAP ? n : CAP) : 0;
	case WHOLE_WAIT_BURST:
		rc = grain_ring_enqueue_burst_wait(r, objs, n, WAIT_NS);
		if (rc <= 0)
			test_fail(&w->fails, "enqueue_burst_wait failed");
		break;
	default:
		rc = -1;
	}
	if (rc < 0)
		test_fail(&w->fails, "enqueue_burst returned an error");
	if (rc > (int)CAP)
		test_fail(&w->fails, "a burst enqueued more than the capacity");
	return rc > 0 ? (unsigned)rc : 0;
}

static void *producer(void *arg)
{
	struct whole_worker *ww = arg;
	struct whole *w = ww->w;
	bool single = (w->p->mode & GRAIN_RING_SP) != 0;
	void *objs[BIG];
	unsigned seq = 0;

	for (unsigned iter = 0; seq < w->per_producer; iter++) {
		if ((iter & 255) == 0 && test_now_ns() > w->give_up_ns) {
			test_fail(&w->fails, "stalled: the ring never emptied");
			break;
		}
		if (test_failing(&w->fails))
			break;
		unsigned n = w->per_producer - seq < BIG ? w->per_producer - seq
							 : BIG;
		for (unsigned i = 0; i < n; i++)
			objs[i] = token(ww->id, seq + i);
		if (single)
			pthread_mutex_lock(&w->prod_lock);
		unsigned done = put(w, objs, n);
		if (single)
			pthread_mutex_unlock(&w->prod_lock);
		seq += done;
		if (done == 0)
			sched_yield();
	}
	return NULL;
}

/* One dequeue attempt into objs (BIG slots); returns how many came out. */
static unsigned take(struct whole *w, void **objs)
{
	struct grain_ring *r = w->ring;
	int rc;

	switch (w->p->op) {
	case WHOLE_BULK:
		rc = grain_ring_try_dequeue_bulk(r, objs, CAP);
		if (rc != 0 && rc != -EAGAIN)
			test_fail(&w->fails,
				  "dequeue_bulk of the capacity: an error");
		return rc == 0 ? CAP : 0;
	case WHOLE_WAIT:
		/* Short timeouts: consumers must notice the end of the run. */
		rc = grain_ring_dequeue_bulk_wait(r, objs, CAP, 2000000);
		if (rc != 0 && rc != -ETIMEDOUT)
			test_fail(
				&w->fails,
				"dequeue_bulk_wait of the capacity: an error");
		return rc == 0 ? CAP : 0;
	case WHOLE_WAIT_BURST:
		rc = grain_ring_dequeue_burst_wait(r, objs, BIG, 2000000);
		if (rc == -ETIMEDOUT)
			return 0;
		break;
	default:
		rc = grain_ring_try_dequeue_burst(r, objs, BIG);
	}
	if (rc < 0)
		test_fail(&w->fails, "dequeue_burst returned an error");
	if (rc > (int)CAP)
		test_fail(&w->fails, "a burst dequeued more than the capacity");
	return rc > 0 ? (unsigned)rc : 0;
}

static void *consumer(void *arg)
{
	struct whole_worker *ww = arg;
	struct whole *w = ww->w;
	bool single = (w->p->mode & GRAIN_RING_SC) != 0;
	bool whole_batches = w->p->op == WHOLE_BULK || w->p->op == WHOLE_WAIT;
	int64_t last[THREADS] = { -1, -1, -1 };
	void *objs[BIG];

	for (unsigned iter = 0;
	     atomic_load_explicit(&w->consumed, memory_order_relaxed) <
	     w->total;
	     iter++) {
		if ((iter & 255) == 0 && test_now_ns() > w->give_up_ns) {
			test_fail(&w->fails,
				  "stalled: tokens lost or never published");
			break;
		}
		if (test_failing(&w->fails))
			break;
		if (single)
			pthread_mutex_lock(&w->cons_lock);
		unsigned got = take(w, objs);
		for (unsigned i = 0; i < got; i++) {
			uintptr_t t = (uintptr_t)objs[i];
			unsigned p = (unsigned)(t >> 32), s = (unsigned)t;

			if (p >= THREADS || s >= w->per_producer ||
			    (int64_t)s <= last[p]) {
				test_fail(
					&w->fails,
					"token invented or out of producer order");
				continue;
			}
			if (whole_batches && (t != (uintptr_t)objs[0] + i ||
					      s / CAP != (s - i) / CAP))
				test_fail(
					&w->fails,
					"a whole-ring batch mixed two batches");
			last[p] = s;
			if (atomic_fetch_add_explicit(
				    &w->seen[(uint64_t)p * w->per_producer + s],
				    1, memory_order_relaxed) != 0)
				test_fail(&w->fails, "token dequeued twice");
		}
		if (single)
			pthread_mutex_unlock(&w->cons_lock);
		if (got != 0)
			atomic_fetch_add_explicit(&w->consumed, got,
						  memory_order_relaxed);
		else
			sched_yield();
	}
	return NULL;
}

static void whole_run(const struct whole_param *p)
{
	struct whole w = { .p = p };
	struct whole_worker prods[THREADS], conss[THREADS];
	struct test_threads threads = { .n = 0 };
	unsigned flags = p->mode | (wait_op(p->op) ? GRAIN_RING_WAIT : 0);

	cr_assert_eq(grain_ring_create(&w.ring, CAP, flags, NULL), 0);
	w.per_producer = test_scale(20000) / CAP * CAP + CAP;
	w.total = (uint64_t)THREADS * w.per_producer;
	w.give_up_ns = test_now_ns() + 60LL * 1000000000;
	w.seen = calloc(w.total, sizeof(*w.seen));
	cr_assert_not_null(w.seen);
	pthread_mutex_init(&w.prod_lock, NULL);
	pthread_mutex_init(&w.cons_lock, NULL);
	for (unsigned i = 0; i < THREADS; i++) {
		conss[i] = (struct whole_worker){ .w = &w, .id = i };
		test_spawn(&threads, consumer, &conss[i]);
		prods[i] = (struct whole_worker){ .w = &w, .id = i };
		test_spawn(&threads, producer, &prods[i]);
	}
	test_join_all(&threads);
	test_assert_no_failures(&w.fails);
	cr_assert_eq(atomic_load(&w.consumed), w.total);
	for (uint64_t i = 0; i < w.total; i++)
		cr_assert_eq(atomic_load(&w.seen[i]), 1u,
			     "token %llu dequeued %u times",
			     (unsigned long long)i, atomic_load(&w.seen[i]));
	cr_assert(grain_ring_empty(w.ring));
	free(w.seen);
	pthread_mutex_destroy(&w.prod_lock);
	pthread_mutex_destroy(&w.cons_lock);
	grain_ring_destroy(w.ring);
}

static const unsigned modes[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC,
				  GRAIN_RING_SPMC, GRAIN_RING_SPSC };

/* Every mode x every op. */
#define WHOLE_OPS(mode)                                            \
	TABLE_ROW(mode, WHOLE_BULK), TABLE_ROW(mode, WHOLE_BURST), \
		TABLE_ROW(mode, WHOLE_BULK_BURST),                 \
		TABLE_ROW(mode, WHOLE_WAIT), TABLE_ROW(mode, WHOLE_WAIT_BURST)

static const struct whole_param whole_rows[] = {
	WHOLE_OPS(GRAIN_RING_MPMC),
	WHOLE_OPS(GRAIN_RING_MPSC),
	WHOLE_OPS(GRAIN_RING_SPMC),
	WHOLE_OPS(GRAIN_RING_SPSC),
};

TABLE_PARAMS(ring_whole, concurrent, whole_rows);

ParameterizedTest(struct whole_param *p, ring_whole, concurrent, .timeout = 240)
{
	whole_run(p);
}

TABLE_PARAMS(ring_whole, alone, modes);

ParameterizedTest(unsigned *mode, ring_whole, alone)
{
	struct grain_ring *r = NULL;
	void *in[BIG], *out[BIG];

	cr_assert_eq(grain_ring_create(&r, CAP, *mode | GRAIN_RING_WAIT, NULL),
		     0);
	for (uintptr_t i = 0; i < BIG; i++)
		in[i] = (void *)(i + 1);

	/* A whole-ring bulk: only into an empty ring, only out of a full
	 * one; one more than the capacity can never succeed. */
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, CAP + 1), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, in, CAP + 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue(r, in[0]), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, CAP), -EAGAIN);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, in, CAP, 1000),
		     -ETIMEDOUT);
	cr_assert_eq(grain_ring_count(r), 1u, "a failed bulk adds nothing");
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, CAP), -EAGAIN);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, out, CAP, 0), -ETIMEDOUT);
	cr_assert_eq(grain_ring_count(r), 1u, "a failed bulk takes nothing");
	cr_assert_eq(grain_ring_try_dequeue(r, out), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, CAP), 0);
	cr_assert(grain_ring_full(r));
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, CAP + 1), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, CAP), 0);
	cr_assert(grain_ring_empty(r));
	for (unsigned i = 0; i < CAP; i++)
		cr_assert_eq(out[i], in[i]);

	/* A burst over the capacity fills the ring and stops there. */
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, BIG), (int)CAP);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, BIG), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, BIG), (int)CAP);
	for (unsigned i = 0; i < CAP; i++)
		cr_assert_eq(out[i], in[i]);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, BIG), 0);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, in, BIG, 0), (int)CAP);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, in, BIG, 0), -ETIMEDOUT);
	cr_assert_eq(grain_ring_dequeue_burst_wait(r, out, BIG, 0), (int)CAP);
	cr_assert(grain_ring_empty(r));
	/* Half full: a big burst takes only the free half. */
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, CAP / 2),
		     (int)(CAP / 2));
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in + CAP / 2, BIG),
		     (int)(CAP / 2));
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, BIG), (int)CAP);
	for (unsigned i = 0; i < CAP; i++)
		cr_assert_eq(out[i], in[i]);
	grain_ring_destroy(r);
}
