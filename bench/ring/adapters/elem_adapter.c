/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * elem_adapter.c - grain_ring_elem with 16- and 64-byte elements: SPSC
 * copying, SPSC zero copy, MPMC copying.
 *
 * Each token becomes a whole element: the producer writes the token into
 * every 8-byte word of it, the consumer reads the first and the last word
 * and hands the harness the token only if they agree (0 otherwise, which
 * the harness's count and sum checks catch). So both sides touch every
 * element once, as an application building and reading records would.
 *
 * copy:      the producer builds up to a batch of elements in a buffer of
 *            its own and calls grain_ring_elem_try_enqueue_burst; the
 *            consumer grain_ring_elem_try_dequeue_burst into a buffer,
 *            then reads them there.
 * zero copy: the producer reserves (grain_ring_elem_try_reserve_burst),
 *            builds the elements in the ring's slots and commits them; the
 *            consumer peeks, reads them in place and releases them.
 * Only burst calls: a 1P1C, burst32 case per queue in the benchmark.
 */
#include "harness.h"

#include <grain/ring_elem.h>

#include <string.h>

static int elem_create(void **queuep, enum bench_impl impl,
		       const struct bench_config *cfg)
{
	const struct bench_impl_info *info = bench_info(impl);
	unsigned flags = impl == BENCH_ELEM16_MPMC || impl == BENCH_ELEM64_MPMC
				 ? GRAIN_RING_MPMC
				 : GRAIN_RING_SPSC;
	struct grain_ring_elem *r;

	(void)cfg;
	int rc = grain_ring_elem_create(&r, BENCH_CAPACITY, info->esize, flags,
					NULL);
	if (rc == 0)
		*queuep = r;
	return rc;
}

static void elem_destroy(void *queue)
{
	grain_ring_elem_destroy(queue);
}

static GRAIN_ALWAYS_INLINE unsigned
put_copy(void *q, void *local, void *const *objs, unsigned n, unsigned esize)
{
	unsigned char *buf = local;

	for (unsigned i = 0; i < n; i++)
		bench_elem_build(buf + (size_t)i * esize, objs[i], esize);
	int k = grain_ring_elem_try_enqueue_burst(q, buf, n);
	return k > 0 ? (unsigned)k : 0;
}

static GRAIN_ALWAYS_INLINE unsigned get_copy(void *q, void *local, void **objs,
					     unsigned n, unsigned esize)
{
	unsigned char *buf = local;
	int k = grain_ring_elem_try_dequeue_burst(q, buf, n);

	for (int i = 0; i < k; i++)
		objs[i] = bench_elem_token(buf + (size_t)i * esize, esize);
	return k > 0 ? (unsigned)k : 0;
}

static GRAIN_ALWAYS_INLINE unsigned put_zc(void *q, void *const *objs,
					   unsigned n, unsigned esize)
{
	struct grain_ring_zc zc;
	int k = grain_ring_elem_try_reserve_burst(q, n, &zc);
	unsigned done = 0;

	if (k <= 0)
		return 0;
	for (unsigned r = 0; r < 2; r++) {
		unsigned char *p = zc.span[r];
		for (unsigned j = 0; j < zc.len[r]; j++)
			bench_elem_build(p + (size_t)j * esize, objs[done++],
					 esize);
	}
	/* Cannot fail here; if it did, the lost tokens would show as
	 * errors. */
	if (grain_ring_elem_commit(q, (unsigned)k) != 0)
		return 0;
	return (unsigned)k;
}

static GRAIN_ALWAYS_INLINE unsigned get_zc(void *q, void **objs, unsigned n,
					   unsigned esize)
{
	struct grain_ring_zc zc;
	int k = grain_ring_elem_try_peek_burst(q, n, &zc);
	unsigned done = 0;

	if (k <= 0)
		return 0;
	for (unsigned r = 0; r < 2; r++) {
		const unsigned char *p = zc.span[r];
		for (unsigned j = 0; j < zc.len[r]; j++)
			objs[done++] =
				bench_elem_token(p + (size_t)j * esize, esize);
	}
	if (grain_ring_elem_release(q, (unsigned)k) != 0)
		return 0;
	return (unsigned)k;
}

/* The buffer of a copying thread: a batch of the largest elements. */
#define LOCAL_BYTES (BENCH_MAX_BATCH * 64u)

/* One adapter per element size and kind; the size is a constant in each
 * copy of the loops. */
#define ELEM_ADAPTER(sz)                                                     \
	static unsigned put_copy##sz(void *q, void *l, void *const *o,       \
				     unsigned n)                             \
	{                                                                    \
		return put_copy(q, l, o, n, sz);                             \
	}                                                                    \
	static unsigned get_copy##sz(void *q, void *l, void **o, unsigned n) \
	{                                                                    \
		return get_copy(q, l, o, n, sz);                             \
	}                                                                    \
	static unsigned put_zc##sz(void *q, void *l, void *const *o,         \
				   unsigned n)                               \
	{                                                                    \
		(void)l;                                                     \
		return put_zc(q, o, n, sz);                                  \
	}                                                                    \
	static unsigned get_zc##sz(void *q, void *l, void **o, unsigned n)   \
	{                                                                    \
		(void)l;                                                     \
		return get_zc(q, o, n, sz);                                  \
	}                                                                    \
	static void *producer_copy##sz(void *t)                              \
	{                                                                    \
		alignas(GRAIN_CACHELINE) unsigned char buf[LOCAL_BYTES];     \
		bench_produce(t, buf, put_copy##sz);                         \
		return NULL;                                                 \
	}                                                                    \
	static void *consumer_copy##sz(void *t)                              \
	{                                                                    \
		alignas(GRAIN_CACHELINE) unsigned char buf[LOCAL_BYTES];     \
		bench_consume(t, buf, get_copy##sz);                         \
		return NULL;                                                 \
	}                                                                    \
	BENCH_THREAD_FN(producer_zc##sz, bench_produce, NULL, put_zc##sz)    \
	BENCH_THREAD_FN(consumer_zc##sz, bench_consume, NULL, get_zc##sz)    \
	/* The main thread drains with the copying call (its own buffer). */ \
	static unsigned drain##sz(void *q, void *l, void **o, unsigned n)    \
	{                                                                    \
		alignas(GRAIN_CACHELINE) unsigned char buf[LOCAL_BYTES];     \
		(void)l;                                                     \
		return get_copy(q, buf, o, n, sz);                           \
	}                                                                    \
	const struct bench_adapter bench_adapter_elem##sz = {                \
		.create = elem_create,                                       \
		.destroy = elem_destroy,                                     \
		.producer = { [BENCH_BURST] = producer_copy##sz },           \
		.consumer = { [BENCH_BURST] = consumer_copy##sz },           \
		.drain = drain##sz,                                          \
	};                                                                   \
	const struct bench_adapter bench_adapter_elem##sz##_zc = {           \
		.create = elem_create,                                       \
		.destroy = elem_destroy,                                     \
		.producer = { [BENCH_BURST] = producer_zc##sz },             \
		.consumer = { [BENCH_BURST] = consumer_zc##sz },             \
		.drain = drain##sz,                                          \
	};

ELEM_ADAPTER(16)
ELEM_ADAPTER(64)
