/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_adapter.c - grain_ring in its four modes: single is try_enqueue /
 * try_dequeue, bulk try_enqueue_bulk (all or nothing) / try_dequeue_burst,
 * burst try_enqueue_burst / try_dequeue_burst. The mode (MPMC, MPSC, SPMC,
 * SPSC) is a creation flag; the calls are the same. A waiting consumer's
 * ring has GRAIN_RING_WAIT too (so every successful call of either side
 * checks for sleepers), and that consumer calls grain_ring_dequeue_wait or
 * _burst_wait with a timeout of BENCH_WAIT_NS.
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

BENCH_PUT(put_one, grain_ring_try_enqueue(q, objs[0]) == 0)
BENCH_PUT(put_bulk, grain_ring_try_enqueue_bulk(q, objs, n) == 0 ? n : 0)
BENCH_PUT(put_burst, bench_moved(grain_ring_try_enqueue_burst(q, objs, n)))
BENCH_GET(get_one, grain_ring_try_dequeue(q, objs) == 0)
BENCH_GET(get_burst, bench_moved(grain_ring_try_dequeue_burst(q, objs, n)))
BENCH_GET(get_one_wait, grain_ring_dequeue_wait(q, objs, BENCH_WAIT_NS) == 0)
BENCH_GET(get_burst_wait,
	  bench_moved(grain_ring_dequeue_burst_wait(q, objs, n, BENCH_WAIT_NS)))

BENCH_ADAPTER(bench_adapter_grain, grain_create, grain_destroy, bench_no_local,
	      get_burst, put_one, put_bulk, put_burst, get_one, get_burst,
	      get_one_wait, get_burst_wait)
