/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_adapter.c - grain_ring in its four modes.
 *
 * single: grain_ring_try_enqueue / grain_ring_try_dequeue.
 * bulk:   grain_ring_enqueue_bulk (all or nothing) / grain_ring_dequeue_burst.
 * burst:  grain_ring_enqueue_burst / grain_ring_dequeue_burst.
 * The mode (MPMC, MPSC, SPMC, SPSC) is a flag given at creation; the
 * calls are the same. A waiting consumer's ring has GRAIN_RING_WAIT too
 * (so every successful call of either side checks for sleepers), and the
 * consumer calls grain_ring_dequeue_wait (single) or
 * grain_ring_dequeue_burst_wait with a timeout of BENCH_WAIT_NS.
 */
#include "harness.h"

#include <grain/ring.h>

static int grain_create(void **queuep, enum bench_impl impl,
			const struct bench_config *cfg)
{
	static const unsigned flags[] = {
		[BENCH_GRAIN_MPMC] = GRAIN_RING_MPMC,
		[BENCH_GRAIN_MPSC] = GRAIN_RING_MPSC,
		[BENCH_GRAIN_SPMC] = GRAIN_RING_SPMC,
		[BENCH_GRAIN_SPSC] = GRAIN_RING_SPSC,
	};
	struct grain_ring *r;

	int rc = grain_ring_create(
		&r, BENCH_CAPACITY,
		flags[impl] | (cfg->wait ? GRAIN_RING_WAIT : 0), NULL);
	if (rc == 0)
		*queuep = r;
	return rc;
}

static void grain_destroy(void *queue)
{
	grain_ring_destroy(queue);
}

static unsigned put_one(void *q, void *local, void *const *objs, unsigned n)
{
	(void)local;
	(void)n;
	return grain_ring_try_enqueue(q, objs[0]) == 0;
}

static unsigned get_one(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	(void)n;
	return grain_ring_try_dequeue(q, objs) == 0;
}

static unsigned put_bulk(void *q, void *local, void *const *objs, unsigned n)
{
	(void)local;
	return grain_ring_try_enqueue_bulk(q, objs, n) == 0 ? n : 0;
}

static unsigned put_burst(void *q, void *local, void *const *objs, unsigned n)
{
	(void)local;
	int k = grain_ring_try_enqueue_burst(q, objs, n);
	return k > 0 ? (unsigned)k : 0;
}

static unsigned get_burst(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	int k = grain_ring_try_dequeue_burst(q, objs, n);
	return k > 0 ? (unsigned)k : 0;
}

static unsigned get_one_wait(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	(void)n;
	return grain_ring_dequeue_wait(q, objs, BENCH_WAIT_NS) == 0;
}

static unsigned get_burst_wait(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	int k = grain_ring_dequeue_burst_wait(q, objs, n, BENCH_WAIT_NS);
	return k > 0 ? (unsigned)k : 0;
}

BENCH_THREAD_FN(consumer_single_wait, bench_consume_as, NULL, get_one_wait,
		true)
BENCH_THREAD_FN(consumer_burst_wait, bench_consume_as, NULL, get_burst_wait,
		true)
BENCH_THREAD_FN(producer_single, bench_produce, NULL, put_one)
BENCH_THREAD_FN(consumer_single, bench_consume, NULL, get_one)
BENCH_THREAD_FN(producer_bulk, bench_produce, NULL, put_bulk)
BENCH_THREAD_FN(producer_burst, bench_produce, NULL, put_burst)
BENCH_THREAD_FN(consumer_burst, bench_consume, NULL, get_burst)

const struct bench_adapter bench_adapter_grain = {
	.create = grain_create,
	.destroy = grain_destroy,
	.producer = { [BENCH_SINGLE] = producer_single,
		      [BENCH_BULK] = producer_bulk,
		      [BENCH_BURST] = producer_burst },
	.consumer = { [BENCH_SINGLE] = consumer_single,
		      [BENCH_BULK] = consumer_burst,
		      [BENCH_BURST] = consumer_burst },
	.consumer_wait = { [BENCH_SINGLE] = consumer_single_wait,
			   [BENCH_BULK] = consumer_burst_wait,
			   [BENCH_BURST] = consumer_burst_wait },
	.drain = get_burst,
};
