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
BENCH_ADAPTER(bench_adapter_blf_queue, bench_cxx_create,
	      bench_blf_queue_destroy, NULL, bench_blf_queue_put,
	      bench_blf_queue_put, NULL, bench_blf_queue_get,
	      bench_blf_queue_get, NULL, NULL)
BENCH_ADAPTER(bench_adapter_blf_spsc, bench_cxx_create, bench_blf_spsc_destroy,
	      NULL, bench_blf_spsc_put_all, bench_blf_spsc_put_all,
	      bench_blf_spsc_put, bench_blf_spsc_get, bench_blf_spsc_get, NULL,
	      NULL)
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
BENCH_ADAPTER(bench_adapter_tbb, bench_cxx_create, bench_tbb_queue_destroy,
	      NULL, bench_tbb_queue_put, bench_tbb_queue_put, NULL,
	      bench_tbb_queue_get, bench_tbb_queue_get, NULL, NULL)
#endif
