/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxx_adapter.c - the anchors from C++ libraries, through cxx_queues.h.
 * boost_queue (boost::lockfree::queue, fixed-size, MPMC) and tbb_queue
 * (tbb::concurrent_bounded_queue, MPMC, try_push / try_pop) have no batch
 * calls: bulk is a loop of single calls, as for ck_ring, and there is no
 * burst. boost_spsc (boost::lockfree::spsc_queue, one producer, one
 * consumer): single and bulk all or nothing (write_available() first),
 * burst its partial array push; its array pop for every kind.
 */
#include "harness.h"

#include "cxx_queues.h"

#ifdef GRAIN_BENCH_HAVE_BOOST
BENCH_PUT(blf_queue_put, bench_blf_queue_put(q, local, objs, n))
BENCH_GET(blf_queue_get, bench_blf_queue_get(q, local, objs, n))
BENCH_ADAPTER(bench_adapter_blf_queue, bench_cxx_create,
	      bench_blf_queue_destroy, bench_no_local, blf_queue_get,
	      blf_queue_put, blf_queue_put, NULL, blf_queue_get, blf_queue_get,
	      NULL, NULL)

BENCH_PUT(blf_spsc_put_all, bench_blf_spsc_put_all(q, local, objs, n))
BENCH_PUT(blf_spsc_put, bench_blf_spsc_put(q, local, objs, n))
BENCH_GET(blf_spsc_get, bench_blf_spsc_get(q, local, objs, n))
BENCH_ADAPTER(bench_adapter_blf_spsc, bench_cxx_create, bench_blf_spsc_destroy,
	      bench_no_local, blf_spsc_get, blf_spsc_put_all, blf_spsc_put_all,
	      blf_spsc_put, blf_spsc_get, blf_spsc_get, NULL, NULL)
#endif

#ifdef GRAIN_BENCH_HAVE_TBB
BENCH_PUT(tbb_put, bench_tbb_queue_put(q, local, objs, n))
BENCH_GET(tbb_get, bench_tbb_queue_get(q, local, objs, n))
BENCH_ADAPTER(bench_adapter_tbb, bench_cxx_create, bench_tbb_queue_destroy,
	      bench_no_local, tbb_get, tbb_put, tbb_put, NULL, tbb_get, tbb_get,
	      NULL, NULL)
#endif
