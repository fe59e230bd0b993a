/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxx_queues.h - inside bench/ring/adapters: the C++ anchors
 * (Boost.Lockfree queue and spsc_queue, oneTBB concurrent_bounded_queue)
 * behind C calls of the harness's signatures (harness.h's bench_put_fn and
 * bench_get_fn, local unused), for cxx_adapter.c to drive. The benchmark is
 * built with link-time optimisation: gcc inlines the Boost calls across the
 * language boundary; the TBB ones (larger) stay one direct call per batch.
 */
#ifndef GRAIN_BENCH_CXX_QUEUES_H
#define GRAIN_BENCH_CXX_QUEUES_H

#include "adapters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes IMPL's queue of about BENCH_CAPACITY: 0, -ENOMEM or -EINVAL. */
int bench_cxx_create(void **queuep, enum bench_impl impl,
		     const struct bench_config *cfg);

#define BENCH_CXX_CALLS(q)                                            \
	void q##_destroy(void *queue);                                \
	unsigned q##_put(void *queue, void *local, void *const *objs, \
			 unsigned n);                                 \
	unsigned q##_get(void *queue, void *local, void **objs, unsigned n)
BENCH_CXX_CALLS(bench_blf_queue);
BENCH_CXX_CALLS(bench_blf_spsc); /* put: as many as fit */
/* All n or none. */
unsigned bench_blf_spsc_put_all(void *queue, void *local, void *const *objs,
				unsigned n);
BENCH_CXX_CALLS(bench_tbb_queue);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_CXX_QUEUES_H */
