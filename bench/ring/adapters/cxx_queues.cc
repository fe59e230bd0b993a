// SPDX-License-Identifier: BSD-2-Clause
// cxx_queues.cc - the C++ anchors behind the C calls of cxx_queues.h.
//
// Boost.Lockfree queue: fixed-size (fixed_sized<true>, nodes preallocated
// at construction), bounded_push / pop, one object per call.
// Boost.Lockfree spsc_queue: a ring with run-time capacity; its array
// push and pop move as many as fit or are there in one call.
// oneTBB concurrent_bounded_queue: set_capacity, try_push / try_pop.

#include "cxx_queues.h"

#include <cstddef>
#include <new>

#ifdef GRAIN_BENCH_HAVE_BOOST
#include <boost/lockfree/queue.hpp>
#include <boost/lockfree/spsc_queue.hpp>
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
#include <tbb/concurrent_queue.h>
#endif

#ifdef GRAIN_BENCH_HAVE_BOOST
namespace {
using BlfQueue =
	boost::lockfree::queue<void *, boost::lockfree::fixed_sized<true>>;
using BlfSpsc = boost::lockfree::spsc_queue<void *>;
} // namespace

extern "C" void *bench_blf_queue_create(unsigned capacity)
{
	return new (std::nothrow) BlfQueue(capacity);
}

extern "C" void bench_blf_queue_destroy(void *q)
{
	delete static_cast<BlfQueue *>(q);
}

extern "C" unsigned bench_blf_queue_push(void *q, void *const *objs, unsigned n)
{
	BlfQueue *bq = static_cast<BlfQueue *>(q);
	unsigned i = 0;
	while (i < n && bq->bounded_push(objs[i]))
		i++;
	return i;
}

extern "C" unsigned bench_blf_queue_pop(void *q, void **objs, unsigned n)
{
	BlfQueue *bq = static_cast<BlfQueue *>(q);
	unsigned i = 0;
	while (i < n && bq->pop(objs[i]))
		i++;
	return i;
}

extern "C" void *bench_blf_spsc_create(unsigned capacity)
{
	// One slot stays empty: capacity + 1 for capacity usable ones.
	return new (std::nothrow) BlfSpsc(capacity + 1);
}

extern "C" void bench_blf_spsc_destroy(void *q)
{
	delete static_cast<BlfSpsc *>(q);
}

extern "C" unsigned bench_blf_spsc_push(void *q, void *const *objs, unsigned n,
					int all_or_none)
{
	BlfSpsc *s = static_cast<BlfSpsc *>(q);
	// Only the producer adds: write_available() can only grow meanwhile.
	if (all_or_none && s->write_available() < n)
		return 0;
	return static_cast<unsigned>(s->push(objs, n));
}

extern "C" unsigned bench_blf_spsc_pop(void *q, void **objs, unsigned n)
{
	return static_cast<unsigned>(static_cast<BlfSpsc *>(q)->pop(objs, n));
}
#endif

#ifdef GRAIN_BENCH_HAVE_TBB
namespace {
using TbbQueue = tbb::concurrent_bounded_queue<void *>;
}

extern "C" void *bench_tbb_queue_create(unsigned capacity)
{
	TbbQueue *q = new (std::nothrow) TbbQueue();
	if (q != nullptr)
		q->set_capacity(static_cast<std::ptrdiff_t>(capacity));
	return q;
}

extern "C" void bench_tbb_queue_destroy(void *q)
{
	delete static_cast<TbbQueue *>(q);
}

extern "C" unsigned bench_tbb_queue_push(void *q, void *const *objs, unsigned n)
{
	TbbQueue *tq = static_cast<TbbQueue *>(q);
	unsigned i = 0;
	while (i < n && tq->try_push(objs[i]))
		i++;
	return i;
}

extern "C" unsigned bench_tbb_queue_pop(void *q, void **objs, unsigned n)
{
	TbbQueue *tq = static_cast<TbbQueue *>(q);
	unsigned i = 0;
	while (i < n && tq->try_pop(objs[i]))
		i++;
	return i;
}
#endif
