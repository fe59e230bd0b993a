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

/* A baseline's create and destroy, its calls, the thread entry points that
 * drive them and the adapter bench_adapter_@p pfx, for the ring type
 * struct @p ring and its functions ring_create@p create_args, ring_... */
#define BASELINE_ADAPTER(pfx, ring, create_args)                               \
	static int pfx##_create(void **queuep, enum bench_impl impl,           \
				const struct bench_config *cfg)                \
	{                                                                      \
		struct ring *r;                                                \
                                                                               \
		(void)impl;                                                    \
		(void)cfg;                                                     \
		int rc = ring##_create create_args;                            \
		if (rc == 0)                                                   \
			*queuep = r;                                           \
		return rc;                                                     \
	}                                                                      \
	static void pfx##_destroy(void *queue)                                 \
	{                                                                      \
		ring##_destroy(queue);                                         \
	}                                                                      \
	static unsigned pfx##_put_one(void *q, void *local, void *const *objs, \
				      unsigned n)                              \
	{                                                                      \
		(void)local;                                                   \
		(void)n;                                                       \
		return ring##_try_enqueue(q, objs[0]) == 0;                    \
	}                                                                      \
	static unsigned pfx##_get_one(void *q, void *local, void **objs,       \
				      unsigned n)                              \
	{                                                                      \
		(void)local;                                                   \
		(void)n;                                                       \
		return ring##_try_dequeue(q, objs) == 0;                       \
	}                                                                      \
	static unsigned pfx##_put_bulk(void *q, void *local,                   \
				       void *const *objs, unsigned n)          \
	{                                                                      \
		(void)local;                                                   \
		return ring##_enqueue_bulk(q, objs, n) == 0 ? n : 0;           \
	}                                                                      \
	static unsigned pfx##_get_burst(void *q, void *local, void **objs,     \
					unsigned n)                            \
	{                                                                      \
		(void)local;                                                   \
		return ring##_dequeue_burst(q, objs, n);                       \
	}                                                                      \
	BENCH_RING_THREADS(pfx)                                                \
	const struct bench_adapter bench_adapter_##pfx = {                     \
		.create = pfx##_create,                                        \
		.destroy = pfx##_destroy,                                      \
		.producer = { [BENCH_SINGLE] = pfx##_producer_single,          \
			      [BENCH_BULK] = pfx##_producer_bulk },            \
		.consumer = { [BENCH_SINGLE] = pfx##_consumer_single,          \
			      [BENCH_BULK] = pfx##_consumer_burst },           \
		.drain = pfx##_get_burst,                                      \
	};

BASELINE_ADAPTER(mutex, bench_mutex_ring, (&r, BENCH_CAPACITY))
BASELINE_ADAPTER(twolock, bench_twolock_ring, (&r, BENCH_CAPACITY, 0))
