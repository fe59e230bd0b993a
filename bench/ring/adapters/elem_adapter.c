/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * elem_adapter.c - grain_ring_elem with 16- and 64-byte elements: SPSC
 * copying, SPSC zero copy, MPMC copying. Burst calls only: the benchmark
 * runs one case of each, 1P1C burst32.
 *
 * Each token becomes a whole element (bench_elem_build(), harness.h), so
 * that both sides touch every element once, as an application building and
 * reading records would. Copying, the producer builds up to a batch of
 * elements in its thread's buffer and calls try_enqueue_burst, and the
 * consumer try_dequeue_burst into its buffer and reads them there (a
 * retry builds nothing again: bench_elem_stage(), harness.h). Zero
 * copy, the producer reserves slots (try_reserve_burst), builds the
 * elements in them and commits; the consumer peeks, reads them in place
 * and releases them.
 */
#include "harness.h"

#include <grain/ring_elem.h>

static int elem_create(void **queuep, enum bench_impl impl,
		       const struct bench_config *cfg)
{
	const struct bench_impl_info *info = bench_info(impl);
	struct grain_ring_elem *r;

	(void)cfg;
	int rc = grain_ring_elem_create(&r, BENCH_CAPACITY, info->esize,
					strcmp(info->mode, "MPMC") == 0
						? GRAIN_RING_MPMC
						: GRAIN_RING_SPSC,
					NULL);
	if (rc == 0)
		*queuep = r;
	return rc;
}

static void elem_destroy(void *queue)
{
	grain_ring_elem_destroy(queue);
}

static GRAIN_ALWAYS_INLINE unsigned put_copy(void *q, unsigned char *buf,
					     void *const *objs, unsigned n,
					     unsigned esize)
{
	unsigned char *from = bench_elem_stage(buf, objs, n, esize);

	return bench_elem_staged(
		buf, objs, n,
		bench_moved(grain_ring_elem_try_enqueue_burst(q, from, n)));
}

static GRAIN_ALWAYS_INLINE unsigned
get_copy(void *q, unsigned char *buf, void **objs, unsigned n, unsigned esize)
{
	int k = grain_ring_elem_try_dequeue_burst(q, buf, n);

	for (int i = 0; i < k; i++)
		objs[i] = bench_elem_token(buf + (size_t)i * esize, esize);
	return bench_moved(k);
}

static GRAIN_ALWAYS_INLINE unsigned put_zc(void *q, void *const *objs,
					   unsigned n, unsigned esize)
{
	struct grain_ring_zc zc;
	int k = grain_ring_elem_try_reserve_burst(q, n, &zc);
	unsigned done = 0;

	if (k <= 0)
		return 0;
	for (unsigned r = 0; r < 2; r++)
		for (unsigned j = 0; j < zc.len[r]; j++)
			bench_elem_build((unsigned char *)zc.span[r] +
						 (size_t)j * esize,
					 objs[done++], esize);
	/* Cannot fail here; if it did, the tokens lost would show as
	 * errors. */
	return grain_ring_elem_commit(q, (unsigned)k) == 0 ? (unsigned)k : 0;
}

static GRAIN_ALWAYS_INLINE unsigned get_zc(void *q, void **objs, unsigned n,
					   unsigned esize)
{
	struct grain_ring_zc zc;
	int k = grain_ring_elem_try_peek_burst(q, n, &zc);
	unsigned done = 0;

	if (k <= 0)
		return 0;
	for (unsigned r = 0; r < 2; r++)
		for (unsigned j = 0; j < zc.len[r]; j++)
			objs[done++] = bench_elem_token(
				(const unsigned char *)zc.span[r] +
					(size_t)j * esize,
				esize);
	return grain_ring_elem_release(q, (unsigned)k) == 0 ? (unsigned)k : 0;
}

/* The adapters of one element size, a constant in each copy of the calls;
 * the copying one serves the SPSC and the MPMC ring. */
#define ELEM_ADAPTERS(sz)                                                      \
	BENCH_PUT(put_copy##sz, put_copy(q, local, objs, n, sz))               \
	BENCH_GET(get_copy##sz, get_copy(q, local, objs, n, sz))               \
	BENCH_PUT(put_zc##sz, put_zc(q, objs, n, sz))                          \
	BENCH_GET(get_zc##sz, get_zc(q, objs, n, sz))                          \
	BENCH_GET(drain##sz, get_copy(q, local, objs, n, sz))                  \
	BENCH_ADAPTER(bench_adapter_elem##sz, elem_create, elem_destroy,       \
		      bench_elem_stage_buf, drain##sz, NULL, NULL,             \
		      put_copy##sz, NULL, get_copy##sz, NULL, NULL)            \
	BENCH_ADAPTER(bench_adapter_elem##sz##_zc, elem_create, elem_destroy,  \
		      bench_no_local, drain##sz, NULL, NULL, put_zc##sz, NULL, \
		      get_zc##sz, NULL, NULL)

ELEM_ADAPTERS(16)
ELEM_ADAPTERS(64)
