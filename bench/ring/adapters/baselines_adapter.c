/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * baselines_adapter.c - the baselines of bench/ring/baselines, through
 * their common calls: try_enqueue / try_dequeue, and for bulk enqueue_bulk
 * (one lock, all or nothing) / dequeue_burst (one lock, up to n). None
 * has a partial enqueue, so none runs burst.
 */
#include "harness.h"

#include "../baselines/baselines.h"

/* The adapter bench_adapter_PFX of the baseline RING (ring_create, ...),
 * whose create is called with the arguments CREATE_ARGS of a struct RING *r;
 * its calls are PFX_put_one, _get_one, _put_bulk and _get_burst. */
#define BASELINE_ADAPTER(pfx, ring, create_args)                            \
	static int pfx##_create(void **queuep, enum bench_impl impl,        \
				const struct bench_config *cfg)             \
	{                                                                   \
		struct ring *r;                                             \
		(void)impl;                                                 \
		(void)cfg;                                                  \
		int rc = ring##_create create_args;                         \
		if (rc == 0)                                                \
			*queuep = r;                                        \
		return rc;                                                  \
	}                                                                   \
	static void pfx##_destroy(void *queue)                              \
	{                                                                   \
		ring##_destroy(queue);                                      \
	}                                                                   \
	BENCH_PUT(pfx##_put_one, ring##_try_enqueue(q, objs[0]) == 0)       \
	BENCH_GET(pfx##_get_one, ring##_try_dequeue(q, objs) == 0)          \
	BENCH_PUT(pfx##_put_bulk,                                           \
		  ring##_enqueue_bulk(q, objs, n) == 0 ? n : 0)             \
	BENCH_GET(pfx##_get_burst, ring##_dequeue_burst(q, objs, n))        \
	BENCH_ADAPTER(bench_adapter_##pfx, pfx##_create, pfx##_destroy,     \
		      bench_no_local, pfx##_get_burst, pfx##_put_one,       \
		      pfx##_put_bulk, NULL, pfx##_get_one, pfx##_get_burst, \
		      NULL, NULL)

BASELINE_ADAPTER(mutex, bench_mutex_ring, (&r, BENCH_CAPACITY))
BASELINE_ADAPTER(twolock, bench_twolock_ring, (&r, BENCH_CAPACITY, 0))
BASELINE_ADAPTER(twolock_pspin, bench_twolock_pspin_ring,
		 (&r, BENCH_CAPACITY, 0))
BASELINE_ADAPTER(scq, bench_scq_ring, (&r, BENCH_CAPACITY))
