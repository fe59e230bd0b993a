// SPDX-License-Identifier: BSD-2-Clause
// cxx_queues.cc - the C++ anchors behind the C calls of cxx_queues.h:
// Boost.Lockfree's fixed-size queue (fixed_sized<true>, nodes made at
// construction; bounded_push / pop) and oneTBB's concurrent_bounded_queue
// (set_capacity; try_push / try_pop), one object per call, and
// Boost.Lockfree's spsc_queue, a ring whose array push and pop move as many
// as fit or are there in one call.

#include "cxx_queues.h"

#include <cerrno>
#include <cstddef>
#include <new>

#ifdef GRAIN_BENCH_HAVE_BOOST
#include <boost/lockfree/queue.hpp>
#include <boost/lockfree/spsc_queue.hpp>
using BlfQueue =
	boost::lockfree::queue<void *, boost::lockfree::fixed_sized<true>>;
using BlfSpsc = boost::lockfree::spsc_queue<void *>;
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
#include <tbb/concurrent_queue.h>
using TbbQueue = tbb::concurrent_bounded_queue<void *>;
#endif

// Q_destroy, and Q_put and Q_get: for a batch, a loop of the queue TYPE's
// one-object calls PUSH and POP that stops at the first that fails.
#define ONE_BY_ONE(q, type, push, pop)                                      \
	extern "C" void q##_destroy(void *queue)                            \
	{                                                                   \
		delete static_cast<type *>(queue);                          \
	}                                                                   \
	extern "C" unsigned q##_put(void *queue, void *, void *const *objs, \
				    unsigned n)                             \
	{                                                                   \
		unsigned i = 0;                                             \
		while (i < n && static_cast<type *>(queue)->push(objs[i]))  \
			i++;                                                \
		return i;                                                   \
	}                                                                   \
	extern "C" unsigned q##_get(void *queue, void *, void **objs,       \
				    unsigned n)                             \
	{                                                                   \
		unsigned i = 0;                                             \
		while (i < n && static_cast<type *>(queue)->pop(objs[i]))   \
			i++;                                                \
		return i;                                                   \
	}

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
ONE_BY_ONE(bench_blf_queue, BlfQueue, bounded_push, pop)

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
	return bench_blf_spsc_put(q, nullptr, objs, n);
}

extern "C" unsigned bench_blf_spsc_get(void *q, void *, void **objs, unsigned n)
{
	return static_cast<unsigned>(static_cast<BlfSpsc *>(q)->pop(objs, n));
}
#endif

#ifdef GRAIN_BENCH_HAVE_TBB
ONE_BY_ONE(bench_tbb_queue, TbbQueue, try_push, try_pop)
#endif
