/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxx_adapter.c - anchors from C++ libraries, through cxx_queues.h:
 *
 * boost_queue: boost::lockfree::queue, fixed-size, MPMC. No batch calls:
 *              BENCH_BULK is a loop of single calls that stops at the
 *              first failure, as for ck_ring; no BENCH_BURST.
 * boost_spsc:  boost::lockfree::spsc_queue, one producer and one
 *              consumer. bulk: all or nothing (write_available() first);
 *              burst: its array push and pop, partial.
 * tbb_queue:   tbb::concurrent_bounded_queue, MPMC, try_push / try_pop,
 *              batches as loops of single calls.
 */
#include "harness.h"

#include "cxx_queues.h"

#include <errno.h>

/* A create that makes a C++ queue of BENCH_CAPACITY with @p make. */
#define CXX_CREATE(name, make)                               \
	static int name(void **queuep, enum bench_impl impl, \
			const struct bench_config *cfg)      \
	{                                                    \
		(void)impl;                                  \
		(void)cfg;                                   \
		void *q = make(BENCH_CAPACITY);              \
		if (q == NULL)                               \
			return -ENOMEM;                      \
		*queuep = q;                                 \
		return 0;                                    \
	}

#ifdef GRAIN_BENCH_HAVE_BOOST
CXX_CREATE(blf_queue_create, bench_blf_queue_create)

static unsigned blf_queue_put(void *q, void *local, void *const *objs,
			      unsigned n)
{
	(void)local;
	return bench_blf_queue_push(q, objs, n);
}

static unsigned blf_queue_get(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return bench_blf_queue_pop(q, objs, n);
}

BENCH_THREAD_FN(blf_queue_produce, bench_produce, NULL, blf_queue_put)
BENCH_THREAD_FN(blf_queue_consume, bench_consume, NULL, blf_queue_get)

const struct bench_adapter bench_adapter_blf_queue = {
	.create = blf_queue_create,
	.destroy = bench_blf_queue_destroy,
	.producer = { [BENCH_SINGLE] = blf_queue_produce,
		      [BENCH_BULK] = blf_queue_produce },
	.consumer = { [BENCH_SINGLE] = blf_queue_consume,
		      [BENCH_BULK] = blf_queue_consume },
	.drain = blf_queue_get,
};

CXX_CREATE(blf_spsc_create, bench_blf_spsc_create)

static unsigned blf_spsc_put_bulk(void *q, void *local, void *const *objs,
				  unsigned n)
{
	(void)local;
	return bench_blf_spsc_push(q, objs, n, 1);
}

static unsigned blf_spsc_put_burst(void *q, void *local, void *const *objs,
				   unsigned n)
{
	(void)local;
	return bench_blf_spsc_push(q, objs, n, 0);
}

static unsigned blf_spsc_get(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return bench_blf_spsc_pop(q, objs, n);
}

BENCH_THREAD_FN(blf_spsc_produce_bulk, bench_produce, NULL, blf_spsc_put_bulk)
BENCH_THREAD_FN(blf_spsc_produce_burst, bench_produce, NULL, blf_spsc_put_burst)
BENCH_THREAD_FN(blf_spsc_consume, bench_consume, NULL, blf_spsc_get)

const struct bench_adapter bench_adapter_blf_spsc = {
	.create = blf_spsc_create,
	.destroy = bench_blf_spsc_destroy,
	.producer = { [BENCH_SINGLE] = blf_spsc_produce_bulk,
		      [BENCH_BULK] = blf_spsc_produce_bulk,
		      [BENCH_BURST] = blf_spsc_produce_burst },
	.consumer = { [BENCH_SINGLE] = blf_spsc_consume,
		      [BENCH_BULK] = blf_spsc_consume,
		      [BENCH_BURST] = blf_spsc_consume },
	.drain = blf_spsc_get,
};
#endif

#ifdef GRAIN_BENCH_HAVE_TBB
CXX_CREATE(tbb_create, bench_tbb_queue_create)

static unsigned tbb_put(void *q, void *local, void *const *objs, unsigned n)
{
	(void)local;
	return bench_tbb_queue_push(q, objs, n);
}

static unsigned tbb_get(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return bench_tbb_queue_pop(q, objs, n);
}

BENCH_THREAD_FN(tbb_produce, bench_produce, NULL, tbb_put)
BENCH_THREAD_FN(tbb_consume, bench_consume, NULL, tbb_get)

const struct bench_adapter bench_adapter_tbb = {
	.create = tbb_create,
	.destroy = bench_tbb_queue_destroy,
	.producer = { [BENCH_SINGLE] = tbb_produce, [BENCH_BULK] = tbb_produce },
	.consumer = { [BENCH_SINGLE] = tbb_consume, [BENCH_BULK] = tbb_consume },
	.drain = tbb_get,
};
#endif
