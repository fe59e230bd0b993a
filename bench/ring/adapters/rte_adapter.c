/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rte_adapter.c - anchor: DPDK rte_ring, multi-producer/multi-consumer.
 *
 * The ring lives in aligned_alloc memory and is set up with
 * rte_ring_init(RING_F_EXACT_SZ): no EAL, no hugepages, no memzone. With
 * RING_F_EXACT_SZ a count of 1024 gives exactly 1024 usable slots in an
 * array of 2048 (rte_ring otherwise keeps one slot empty), so the memory
 * is rte_ring_get_memsize(2048). The sync type is DPDK's default for
 * flags 0, MP/MC (the classic head/tail CAS with a tail catch-up spin).
 *
 * single: rte_ring_mp_enqueue / rte_ring_mc_dequeue.
 * bulk:   rte_ring_mp_enqueue_bulk / rte_ring_mc_dequeue_burst.
 * burst:  rte_ring_mp_enqueue_burst / rte_ring_mc_dequeue_burst.
 *
 * bench_adapter_rte_sync: the same ring made with the RTS (relaxed tail
 * sync) or HTS (head/tail sync) flags for both sides, driven through the
 * generic calls (rte_ring_enqueue, _dequeue, _enqueue_bulk, ...), which
 * dispatch on the ring's sync type.
 *
 * Compiled with the flags of pkg-config libdpdk (-include rte_config.h,
 * -march=corei7); only librte_ring (and what it needs) is linked.
 */
#define _GNU_SOURCE /* ssize_t and the rest of what DPDK's headers expect */
#include "harness.h"

#include <rte_ring.h>

#include <errno.h>
#include <stdlib.h>

#define RTE_ALIGN_BYTES 128u /* at least RTE_CACHE_LINE_SIZE */

static int rte_create(void **queuep, enum bench_impl impl,
		      const struct bench_config *cfg)
{
	unsigned flags = RING_F_EXACT_SZ;

	(void)cfg;
	if (impl == BENCH_RTE_RTS)
		flags |= RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ;
	else if (impl == BENCH_RTE_HTS)
		flags |= RING_F_MP_HTS_ENQ | RING_F_MC_HTS_DEQ;
	/* RING_F_EXACT_SZ rounds count + 1 up to a power of two. */
	ssize_t size = rte_ring_get_memsize(2 * BENCH_CAPACITY);
	if (size < 0)
		return (int)size;
	size_t rounded = bench_round_up((size_t)size, RTE_ALIGN_BYTES);
	struct rte_ring *r = aligned_alloc(RTE_ALIGN_BYTES, rounded);
	if (r == NULL)
		return -ENOMEM;
	int rc = rte_ring_init(r, "grain_bench", BENCH_CAPACITY, flags);
	if (rc != 0) {
		free(r);
		return rc;
	}
	*queuep = r;
	return 0;
}

static void rte_destroy(void *queue)
{
	free(queue);
}

static unsigned rte_put_one(void *q, void *local, void *const *objs, unsigned n)
{
	(void)local;
	(void)n;
	return rte_ring_mp_enqueue(q, objs[0]) == 0;
}

static unsigned rte_get_one(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	(void)n;
	return rte_ring_mc_dequeue(q, objs) == 0;
}

static unsigned rte_put_bulk(void *q, void *local, void *const *objs,
			     unsigned n)
{
	(void)local;
	return rte_ring_mp_enqueue_bulk(q, objs, n, NULL);
}

static unsigned rte_put_burst(void *q, void *local, void *const *objs,
			      unsigned n)
{
	(void)local;
	return rte_ring_mp_enqueue_burst(q, objs, n, NULL);
}

static unsigned rte_get_burst(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return rte_ring_mc_dequeue_burst(q, objs, n, NULL);
}

static void *rte_producer_single(void *t)
{
	bench_produce(t, NULL, rte_put_one);
	return NULL;
}

static void *rte_consumer_single(void *t)
{
	bench_consume(t, NULL, rte_get_one);
	return NULL;
}

static void *rte_producer_bulk(void *t)
{
	bench_produce(t, NULL, rte_put_bulk);
	return NULL;
}

static void *rte_producer_burst(void *t)
{
	bench_produce(t, NULL, rte_put_burst);
	return NULL;
}

static void *rte_consumer_burst(void *t)
{
	bench_consume(t, NULL, rte_get_burst);
	return NULL;
}

const struct bench_adapter bench_adapter_rte = {
	.create = rte_create,
	.destroy = rte_destroy,
	.producer = { [BENCH_SINGLE] = rte_producer_single,
		      [BENCH_BULK] = rte_producer_bulk,
		      [BENCH_BURST] = rte_producer_burst },
	.consumer = { [BENCH_SINGLE] = rte_consumer_single,
		      [BENCH_BULK] = rte_consumer_burst,
		      [BENCH_BURST] = rte_consumer_burst },
	.drain = rte_get_burst,
};

/* --- RTS and HTS: the generic calls ------------------------------------ */

static unsigned sync_put_one(void *q, void *local, void *const *objs,
			     unsigned n)
{
	(void)local;
	(void)n;
	return rte_ring_enqueue(q, objs[0]) == 0;
}

static unsigned sync_get_one(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	(void)n;
	return rte_ring_dequeue(q, objs) == 0;
}

static unsigned sync_put_bulk(void *q, void *local, void *const *objs,
			      unsigned n)
{
	(void)local;
	return rte_ring_enqueue_bulk(q, objs, n, NULL);
}

static unsigned sync_put_burst(void *q, void *local, void *const *objs,
			       unsigned n)
{
	(void)local;
	return rte_ring_enqueue_burst(q, objs, n, NULL);
}

static unsigned sync_get_burst(void *q, void *local, void **objs, unsigned n)
{
	(void)local;
	return rte_ring_dequeue_burst(q, objs, n, NULL);
}

static void *sync_producer_single(void *t)
{
	bench_produce(t, NULL, sync_put_one);
	return NULL;
}

static void *sync_consumer_single(void *t)
{
	bench_consume(t, NULL, sync_get_one);
	return NULL;
}

static void *sync_producer_bulk(void *t)
{
	bench_produce(t, NULL, sync_put_bulk);
	return NULL;
}

static void *sync_producer_burst(void *t)
{
	bench_produce(t, NULL, sync_put_burst);
	return NULL;
}

static void *sync_consumer_burst(void *t)
{
	bench_consume(t, NULL, sync_get_burst);
	return NULL;
}

const struct bench_adapter bench_adapter_rte_sync = {
	.create = rte_create,
	.destroy = rte_destroy,
	.producer = { [BENCH_SINGLE] = sync_producer_single,
		      [BENCH_BULK] = sync_producer_bulk,
		      [BENCH_BURST] = sync_producer_burst },
	.consumer = { [BENCH_SINGLE] = sync_consumer_single,
		      [BENCH_BULK] = sync_consumer_burst,
		      [BENCH_BURST] = sync_consumer_burst },
	.drain = sync_get_burst,
};
