// SPDX-License-Identifier: BSD-2-Clause
// cxx_queues.cc - the C++ anchors behind the C calls of cxx_queues.h.
//
// Boost.Lockfree queue: fixed-size (fixed_sized<true>, nodes preallocated
// at construction), bounded_push / pop, one object per call.
// Boost.Lockfree spsc_queue: a ring with run-time capacity; its array
// push and pop move as many as fit or are there in one call.
// oneTBB concurrent_bounded_queue: set_capacity, try_push / try_pop.
// Where a queue moves one object per call, a batch is a loop of calls that
// stops at the first that fails.

#include "cxx_queues.h"

#include <cerrno>
#include <cstddef>
#include <new>

#ifdef GRAIN_BENCH_HAVE_BOOST
#include <boost/lockfree/queue.hpp>
#include <boost/lockfree/spsc_queue.hpp>
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
#include <tbb/concurrent_queue.h>
#endif

namespace {

#ifdef GRAIN_BENCH_HAVE_BOOST
using BlfQueue =
	boost::lockfree::queue<void *, boost::lockfree::fixed_sized<true>>;
using BlfSpsc = boost::lockfree::spsc_queue<void *>;
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
using TbbQueue = tbb::concurrent_bounded_queue<void *>;
#endif

// How many of the first N calls of MOVE(i) succeeded, stopping at the
// first that fails.
template <typename F> unsigned Each(unsigned n, F move)
{
	unsigned i = 0;
	while (i < n && move(i))
		i++;
	return i;
}

} // namespace

extern "C" int bench_cxx_create(void **queuep, enum bench_impl impl,
				const struct bench_config *)
{
	void *q;

	switch (impl) {
#ifdef GRAIN_BENCH_HAVE_BOOST
	case BENCH_BOOST_QUEUE:
		q = new (std::nothrow) BlfQueue(BENCH_CAPACITY);
		break;
	case BENCH_BOOST_SPSC:
		// One slot stays empty: capacity + 1 for capacity usable.
		q = new (std::nothrow) BlfSpsc(BENCH_CAPACITY + 1);
		break;
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
	case BENCH_TBB: {
		TbbQueue *t = new (std::nothrow) TbbQueue();
		if (t != nullptr)
			t->set_capacity(std::ptrdiff_t{ BENCH_CAPACITY });
		q = t;
		break;
	}
#endif
	default:
		return -EINVAL;
	}
	if (q == nullptr)
		return -ENOMEM;
	*queuep = q;
	return 0;
}

#ifdef GRAIN_BENCH_HAVE_BOOST
extern "C" void bench_blf_queue_destroy(void *q)
{
	delete static_cast<BlfQueue *>(q);
}

extern "C" unsigned bench_blf_queue_put(void *q, void *, void *const *objs,
					unsigned n)
{
	return Each(n, [&](unsigned i) {
		return static_cast<BlfQueue *>(q)->bounded_push(objs[i]);
	});
}

extern "C" unsigned bench_blf_queue_get(void *q, void *, void **objs,
					unsigned n)
{
	return Each(n, [&](unsigned i) {
		return static_cast<BlfQueue *>(q)->pop(objs[i]);
	});
}

extern "C" void bench_blf_spsc_destroy(void *q)
{
	delete static_cast<BlfSpsc *>(q);
}

extern "C" unsigned bench_blf_spsc_put(void *q, void *, void *const *objs,
				       unsigned n)
{
	return static_cast<unsigned>(static_cast<BlfSpsc *>(q)->push(objs, n));
}

extern "C" unsigned bench_blf_spsc_put_all(void *q, void *, void *const *objs,
					   unsigned n)
{
	// Only the producer adds: write_available() can only grow meanwhile.
	if (static_cast<BlfSpsc *>(q)->write_available() < n)
		return 0;
	return static_cast<unsigned>(static_cast<BlfSpsc *>(q)->push(objs, n));
}

extern "C" unsigned bench_blf_spsc_get(void *q, void *, void **objs, unsigned n)
{
	return static_cast<unsigned>(static_cast<BlfSpsc *>(q)->pop(objs, n));
}
#endif

#ifdef GRAIN_BENCH_HAVE_TBB
extern "C" void bench_tbb_queue_destroy(void *q)
{
	delete static_cast<TbbQueue *>(q);
}

extern "C" unsigned bench_tbb_queue_put(void *q, void *, void *const *objs,
					unsigned n)
{
	return Each(n, [&](unsigned i) {
		return static_cast<TbbQueue *>(q)->try_push(objs[i]);
	});
}

extern "C" unsigned bench_tbb_queue_get(void *q, void *, void **objs,
					unsigned n)
{
	return Each(n, [&](unsigned i) {
		return static_cast<TbbQueue *>(q)->try_pop(objs[i]);
	});
}
#endif
