/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * baselines_adapter.c - the two baselines of bench/ring/baselines.
 *
 * mutex:   try_enqueue / try_dequeue; bulk = enqueue_bulk (one lock, all
 *          or nothing) / dequeue_burst (one lock, up to n).
 * twolock: the same calls on the ptr_ring-style ring.
 * Neither has a partial enqueue, so neither takes part in BENCH_BURST.
 */
#include "harness.h"

#include "../baselines/mutex_ring.h"
#include "../baselines/twolock_ring.h"

/* --- mutex ------------------------------------------------------------- */

static int mutex_create(void **queuep, enum bench_impl impl,
			const struct bench_config *cfg)
{
	struct bench_mutex_ring *r;

	(void)impl;
	(void)cfg;
	int rc = bench_mutex_ring_create(&r, BENCH_CAPACITY);
	if (rc == 0)
		*queuep = r;
	return rc;
}

static void mutex_destroy(void *queue)
{
	bench_mutex_ring_destroy(queue);
}

static unsigned mutex_put_one(void *q, void *local, void *const *objs,
			      unsigned n)
{
	(void)local;
	(void)n;
	return bench_mutex_ring_try_enqueue(q, objs[0]) == 0;
}

static unsigned mutex_get_one(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	(void)n;
	return bench_mutex_ring_try_dequeue(q, objs) == 0;
}

static unsigned mutex_put_bulk(void *q, void *local, void *const *objs,
			       unsigned n)
{
	(void)local;
	return bench_mutex_ring_enqueue_bulk(q, objs, n) == 0 ? n : 0;
}

static unsigned mutex_get_burst(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return bench_mutex_ring_dequeue_burst(q, objs, n);
}

static void *mutex_producer_single(void *t)
{
	bench_produce(t, NULL, mutex_put_one);
	return NULL;
}

static void *mutex_consumer_single(void *t)
{
	bench_consume(t, NULL, mutex_get_one);
	return NULL;
}

static void *mutex_producer_bulk(void *t)
{
	bench_produce(t, NULL, mutex_put_bulk);
	return NULL;
}

static void *mutex_consumer_burst(void *t)
{
	bench_consume(t, NULL, mutex_get_burst);
	return NULL;
}

const struct bench_adapter bench_adapter_mutex = {
	.create = mutex_create,
	.destroy = mutex_destroy,
	.producer = { [BENCH_SINGLE] = mutex_producer_single,
		      [BENCH_BULK] = mutex_producer_bulk },
	.consumer = { [BENCH_SINGLE] = mutex_consumer_single,
		      [BENCH_BULK] = mutex_consumer_burst },
	.drain = mutex_get_burst,
};

/* --- twolock ----------------------------------------------------------- */

static int twolock_create(void **queuep, enum bench_impl impl,
			  const struct bench_config *cfg)
{
	struct bench_twolock_ring *r;

	(void)impl;
	(void)cfg;
	int rc = bench_twolock_ring_create(&r, BENCH_CAPACITY, 0);
	if (rc == 0)
		*queuep = r;
	return rc;
}

static void twolock_destroy(void *queue)
{
	bench_twolock_ring_destroy(queue);
}

static unsigned twolock_put_one(void *q, void *local, void *const *objs,
				unsigned n)
{
	(void)local;
	(void)n;
	return bench_twolock_ring_try_enqueue(q, objs[0]) == 0;
}

static unsigned twolock_get_one(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	(void)n;
	return bench_twolock_ring_try_dequeue(q, objs) == 0;
}

static unsigned twolock_put_bulk(void *q, void *local, void *const *objs,
				 unsigned n)
{
	(void)local;
	return bench_twolock_ring_enqueue_bulk(q, objs, n) == 0 ? n : 0;
}

static unsigned twolock_get_burst(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return bench_twolock_ring_dequeue_burst(q, objs, n);
}

static void *twolock_producer_single(void *t)
{
	bench_produce(t, NULL, twolock_put_one);
	return NULL;
}

static void *twolock_consumer_single(void *t)
{
	bench_consume(t, NULL, twolock_get_one);
	return NULL;
}

static void *twolock_producer_bulk(void *t)
{
	bench_produce(t, NULL, twolock_put_bulk);
	return NULL;
}

static void *twolock_consumer_burst(void *t)
{
	bench_consume(t, NULL, twolock_get_burst);
	return NULL;
}

const struct bench_adapter bench_adapter_twolock = {
	.create = twolock_create,
	.destroy = twolock_destroy,
	.producer = { [BENCH_SINGLE] = twolock_producer_single,
		      [BENCH_BULK] = twolock_producer_bulk },
	.consumer = { [BENCH_SINGLE] = twolock_consumer_single,
		      [BENCH_BULK] = twolock_consumer_burst },
	.drain = twolock_get_burst,
};
