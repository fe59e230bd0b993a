/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxx_queues.h - internal to bench/ring/adapters: the C++ anchors
 * (Boost.Lockfree queue and spsc_queue, oneTBB concurrent_bounded_queue)
 * behind plain C calls, so that the C adapter can drive them with the
 * harness's loops. The benchmark is built with link-time optimisation:
 * gcc inlines the Boost calls across the language boundary; the TBB ones
 * (larger) stay one direct call per batch.
 *
 * Each queue: _create (capacity about BENCH_CAPACITY; NULL if out of
 * memory), _destroy, _push (up to n objects, in order, stopping at the
 * first that does not fit; returns how many went in) and _pop (up to n,
 * oldest first; returns how many came out). Thread safety: as the queue
 * itself (spsc: one pushing and one popping thread at a time).
 */
#ifndef GRAIN_BENCH_CXX_QUEUES_H
#define GRAIN_BENCH_CXX_QUEUES_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef GRAIN_BENCH_HAVE_BOOST
void *bench_blf_queue_create(unsigned capacity);
void bench_blf_queue_destroy(void *q);
unsigned bench_blf_queue_push(void *q, void *const *objs, unsigned n);
unsigned bench_blf_queue_pop(void *q, void **objs, unsigned n);

void *bench_blf_spsc_create(unsigned capacity);
void bench_blf_spsc_destroy(void *q);
/* All n or none (bulk), or as many as fit (burst). */
unsigned bench_blf_spsc_push(void *q, void *const *objs, unsigned n,
			     int all_or_none);
unsigned bench_blf_spsc_pop(void *q, void **objs, unsigned n);
#endif

#ifdef GRAIN_BENCH_HAVE_TBB
void *bench_tbb_queue_create(unsigned capacity);
void bench_tbb_queue_destroy(void *q);
unsigned bench_tbb_queue_push(void *q, void *const *objs, unsigned n);
unsigned bench_tbb_queue_pop(void *q, void **objs, unsigned n);
#endif

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_CXX_QUEUES_H */
