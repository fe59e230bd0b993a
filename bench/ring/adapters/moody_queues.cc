// SPDX-License-Identifier: BSD-2-Clause
// moody_queues.cc - moodycamel's queues behind the C calls of
// moody_queues.h.
//
// ConcurrentQueue<void *> (MPMC: a sub-queue of blocks per producer) is
// made by its (capacity, explicit producers, implicit producers)
// constructor with BENCH_CAPACITY and the run's producer count, which
// preallocates the blocks; every call here is a try_ call, which never
// allocates, so a producer whose blocks are full fails as at a full ring
// (about BENCH_CAPACITY tokens in flight per producer). Without tokens
// (moody_queue) each producer thread gets an implicit sub-queue and a
// consumer scans them; with tokens (moody_queue_tok) a producer token is
// its explicit sub-queue, and a consumer token keeps its place among
// them. Batches: try_enqueue_bulk (all or nothing) and try_dequeue_bulk
// (up to n). BlockingConcurrentQueue (moody_blocking) is the same queue
// with a counting semaphore, made the same way without tokens; a waiting
// consumer calls wait_dequeue_timed or wait_dequeue_bulk_timed.
//
// ReaderWriterQueue<void *> (SPSC, moody_rwq) made with room for
// BENCH_CAPACITY; try_enqueue (which never allocates) and try_dequeue,
// one at a time: it has no batch calls.

#include "moody_queues.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <new>

#ifdef GRAIN_BENCH_HAVE_MOODY
#include <concurrentqueue/blockingconcurrentqueue.h>
#include <concurrentqueue/concurrentqueue.h>
using Moody = moodycamel::ConcurrentQueue<void *>;
using MoodyBlocking = moodycamel::BlockingConcurrentQueue<void *>;
#endif
#ifdef GRAIN_BENCH_HAVE_RWQ
#include <readerwriterqueue/readerwriterqueue.h>
using Rwq = moodycamel::ReaderWriterQueue<void *>;
#endif

namespace {

template <typename Q> Q *As(void *queue)
{
	return static_cast<Q *>(queue);
}

} // namespace

extern "C" int bench_moody_create(void **queuep, enum bench_impl impl,
				  const struct bench_config *cfg)
{
	void *q;

	(void)cfg; // ReaderWriterQueue's needs nothing of it
	switch (impl) {
#ifdef GRAIN_BENCH_HAVE_MOODY
	case BENCH_MOODY:
		q = new (std::nothrow) Moody(BENCH_CAPACITY, 0, cfg->producers);
		break;
	case BENCH_MOODY_TOK:
		q = new (std::nothrow) Moody(BENCH_CAPACITY, cfg->producers, 0);
		break;
	case BENCH_MOODY_BLOCKING:
		q = new (std::nothrow)
			MoodyBlocking(BENCH_CAPACITY, 0, cfg->producers);
		break;
#endif
#ifdef GRAIN_BENCH_HAVE_RWQ
	case BENCH_MOODY_RWQ:
		q = new (std::nothrow) Rwq(BENCH_CAPACITY);
		break;
#endif
	default:
		return -EINVAL;
	}
	if (q == nullptr)
		return -ENOMEM;
	*queuep = q;
	return 0;
}

#ifdef GRAIN_BENCH_HAVE_MOODY
// What a consumer waits for its first token (harness.h's BENCH_WAIT_NS).
constexpr std::int64_t kWaitUs = 1000;

static_assert(sizeof(moodycamel::ProducerToken) <= 4096 &&
		      sizeof(moodycamel::ConsumerToken) <= 4096,
	      "a token fits a thread's buffer");

extern "C" void *bench_moody_token(void *queue, bool producer, void *buf)
{
	if (producer)
		return new (buf) moodycamel::ProducerToken(*As<Moody>(queue));
	return new (buf) moodycamel::ConsumerToken(*As<Moody>(queue));
}

extern "C" void bench_moody_token_drop(void *token, bool producer)
{
	if (producer)
		static_cast<moodycamel::ProducerToken *>(token)
			->~ProducerToken();
	else
		static_cast<moodycamel::ConsumerToken *>(token)
			->~ConsumerToken();
}

// Q_destroy, and Q_put and Q_get of the queue TYPE without tokens.
#define NO_TOKENS(q, type)                                                    \
	extern "C" void q##_destroy(void *queue)                              \
	{                                                                     \
		delete As<type>(queue);                                       \
	}                                                                     \
	extern "C" unsigned q##_put(void *queue, void *, void *const *objs,   \
				    unsigned n)                               \
	{                                                                     \
		if (n == 1)                                                   \
			return As<type>(queue)->try_enqueue(objs[0]) ? 1 : 0; \
		return As<type>(queue)->try_enqueue_bulk(objs, n) ? n : 0;    \
	}                                                                     \
	extern "C" unsigned q##_get(void *queue, void *, void **objs,         \
				    unsigned n)                               \
	{                                                                     \
		if (n == 1)                                                   \
			return As<type>(queue)->try_dequeue(objs[0]) ? 1 : 0; \
		return static_cast<unsigned>(                                 \
			As<type>(queue)->try_dequeue_bulk(objs, n));          \
	}

NO_TOKENS(bench_moody, Moody)
NO_TOKENS(bench_moody_blk, MoodyBlocking)

extern "C" void bench_moody_tok_destroy(void *queue)
{
	delete As<Moody>(queue);
}

extern "C" unsigned bench_moody_tok_put(void *queue, void *local,
					void *const *objs, unsigned n)
{
	auto &tok = *static_cast<moodycamel::ProducerToken *>(local);
	// Always valid here (made from this queue); the test tells gcc so,
	// which otherwise warns of a store through a null producer.
	if (!tok.valid())
		return 0;
	if (n == 1)
		return As<Moody>(queue)->try_enqueue(tok, objs[0]) ? 1 : 0;
	return As<Moody>(queue)->try_enqueue_bulk(tok, objs, n) ? n : 0;
}

extern "C" unsigned bench_moody_tok_get(void *queue, void *local, void **objs,
					unsigned n)
{
	auto &tok = *static_cast<moodycamel::ConsumerToken *>(local);
	if (n == 1)
		return As<Moody>(queue)->try_dequeue(tok, objs[0]) ? 1 : 0;
	return static_cast<unsigned>(
		As<Moody>(queue)->try_dequeue_bulk(tok, objs, n));
}

extern "C" unsigned bench_moody_blk_wait(void *queue, void *, void **objs,
					 unsigned n)
{
	if (n == 1)
		return As<MoodyBlocking>(queue)->wait_dequeue_timed(objs[0],
								    kWaitUs)
			       ? 1
			       : 0;
	return static_cast<unsigned>(
		As<MoodyBlocking>(queue)->wait_dequeue_bulk_timed(objs, n,
								  kWaitUs));
}

#endif

#ifdef GRAIN_BENCH_HAVE_RWQ
extern "C" void bench_rwq_destroy(void *queue)
{
	delete As<Rwq>(queue);
}

extern "C" unsigned bench_rwq_put(void *queue, void *, void *const *objs,
				  unsigned n)
{
	unsigned i = 0;
	while (i < n && As<Rwq>(queue)->try_enqueue(objs[i]))
		i++;
	return i;
}

extern "C" unsigned bench_rwq_get(void *queue, void *, void **objs, unsigned n)
{
	unsigned i = 0;
	while (i < n && As<Rwq>(queue)->try_dequeue(objs[i]))
		i++;
	return i;
}
#endif
