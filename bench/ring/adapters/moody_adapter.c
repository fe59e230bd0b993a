/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * moody_adapter.c - the anchors from moodycamel's header-only queues,
 * through moody_queues.h. moody_queue and moody_queue_tok
 * (ConcurrentQueue, MPMC, without and with tokens) and moody_blocking
 * (BlockingConcurrentQueue, MPMC, try calls, and timed waits for a waiting
 * consumer): single, and bulk with try_enqueue_bulk (all or nothing) and
 * try_dequeue_bulk; no partial enqueue, so no burst. moody_rwq
 * (ReaderWriterQueue, SPSC) has no batch calls: bulk is a loop of single
 * calls, as for ck_ring. The token queue's threads make their token in
 * their stack buffer first; main's drain takes the rest without one.
 */
#include "harness.h"

#include "moody_queues.h"

#ifdef GRAIN_BENCH_HAVE_MOODY
/* LOCAL of the token queue's threads: the thread's token. */
static void *moody_tokens(struct bench_thread *t, unsigned char *buf)
{
	return bench_moody_token(t->h->queue, t->producer, buf);
}

BENCH_PUT(moody_put, bench_moody_put(q, local, objs, n))
BENCH_GET(moody_get, bench_moody_get(q, local, objs, n))
BENCH_ADAPTER(bench_adapter_moody, bench_moody_create, bench_moody_destroy,
	      bench_no_local, moody_get, moody_put, moody_put, NULL, moody_get,
	      moody_get, NULL, NULL)

/* The harness's loops, then the thread's token destroyed: the queue's
 * destructor writes to the tokens of its producers that are still live. */
static GRAIN_ALWAYS_INLINE void moody_tok_produce(struct bench_thread *t,
						  void *tok, bench_put_fn put)
{
	bench_produce(t, tok, put);
	bench_moody_token_drop(tok, true);
}

static GRAIN_ALWAYS_INLINE void moody_tok_consume(struct bench_thread *t,
						  void *tok, bench_get_fn get)
{
	bench_consume(t, tok, get, false);
	bench_moody_token_drop(tok, false);
}

/* BENCH_ADAPTER()'s adapter, by hand for those loops: single and bulk,
 * no burst, no blocking get. */
BENCH_PUT(moody_tok_put, bench_moody_tok_put(q, local, objs, n))
BENCH_GET(moody_tok_get, bench_moody_tok_get(q, local, objs, n))
BENCH_RING_THREAD(moody_tok_producer, moody_tok_produce, moody_tokens,
		  moody_tok_put)
BENCH_RING_THREAD(moody_tok_consumer, moody_tok_consume, moody_tokens,
		  moody_tok_get)
const struct bench_adapter bench_adapter_moody_tok = {
	bench_moody_create,
	bench_moody_tok_destroy,
	moody_get,
	{ true, true, false },
	false,
	{ moody_tok_producer, moody_tok_producer, NULL },
	{ moody_tok_consumer, moody_tok_consumer, NULL },
	{ NULL, NULL, NULL },
};

BENCH_PUT(moody_blk_put, bench_moody_blk_put(q, local, objs, n))
BENCH_GET(moody_blk_get, bench_moody_blk_get(q, local, objs, n))
BENCH_GET(moody_blk_wait, bench_moody_blk_wait(q, local, objs, n))
BENCH_ADAPTER(bench_adapter_moody_blk, bench_moody_create,
	      bench_moody_blk_destroy, bench_no_local, moody_blk_get,
	      moody_blk_put, moody_blk_put, NULL, moody_blk_get, moody_blk_get,
	      moody_blk_wait, moody_blk_wait)

#endif

#ifdef GRAIN_BENCH_HAVE_RWQ
BENCH_PUT(rwq_put, bench_rwq_put(q, local, objs, n))
BENCH_GET(rwq_get, bench_rwq_get(q, local, objs, n))
BENCH_ADAPTER(bench_adapter_moody_rwq, bench_moody_create, bench_rwq_destroy,
	      bench_no_local, rwq_get, rwq_put, rwq_put, NULL, rwq_get, rwq_get,
	      NULL, NULL)
#endif
