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
 * bench_adapter_rte_elem16 and _elem64: rte_ring_elem, the same ring set
 * up for elements of 16 or 64 bytes (rte_ring_get_memsize_elem(), then
 * rte_ring_init(): the elem calls take the size on every call), SP/SC or
 * MP/MC; rte_ring_{sp,mp}_enqueue_burst_elem and
 * rte_ring_{sc,mc}_dequeue_burst_elem with the elements built and read in
 * a buffer, as elem_adapter.c's copying grain_ring_elem.
 *
 * Compiled with the flags of pkg-config libdpdk (-include rte_config.h,
 * -march=corei7); only librte_ring (and what it needs) is linked.
 */
#define _GNU_SOURCE /* ssize_t and the rest of what DPDK's headers expect */
#include "harness.h"

#include <rte_ring.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RTE_ALIGN_BYTES 128u /* at least RTE_CACHE_LINE_SIZE */

/* A ring of BENCH_CAPACITY slots in @p size bytes (rte_ring_get_memsize()
 * or its _elem form; < 0: that error) of cache-aligned memory, initialised
 * with @p flags. @return 0 and *queuep, or a negative error. */
static int rte_ring_make(void **queuep, ssize_t size, const char *name,
			 unsigned flags)
{
	if (size < 0)
		return (int)size;
	size_t rounded = bench_round_up((size_t)size, RTE_ALIGN_BYTES);
	struct rte_ring *r = aligned_alloc(RTE_ALIGN_BYTES, rounded);
	if (r == NULL)
		return -ENOMEM;
	int rc = rte_ring_init(r, name, BENCH_CAPACITY, flags);
	if (rc != 0) {
		free(r);
		return rc;
	}
	*queuep = r;
	return 0;
}

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
	return rte_ring_make(queuep, rte_ring_get_memsize(2 * BENCH_CAPACITY),
			     "grain_bench", flags);
}

static void rte_destroy(void *queue)
{
	free(queue);
}

/* The pointer ring's calls (@p one_enq .. @p burst_deq, the bulk and burst
 * forms with no free-space / available hint), the thread entry points that
 * drive them and the adapter @p name, for the calls prefixed @p pfx. */
#define RTE_PTR_ADAPTER(name, pfx, one_enq, one_deq, bulk_enq, burst_enq,      \
			burst_deq)                                             \
	static unsigned pfx##_put_one(void *q, void *local, void *const *objs, \
				      unsigned n)                              \
	{                                                                      \
		(void)local;                                                   \
		(void)n;                                                       \
		return one_enq(q, objs[0]) == 0;                               \
	}                                                                      \
	static unsigned pfx##_get_one(void *q, void *local, void **objs,       \
				      unsigned n)                              \
	{                                                                      \
		(void)local;                                                   \
		(void)n;                                                       \
		return one_deq(q, objs) == 0;                                  \
	}                                                                      \
	static unsigned pfx##_put_bulk(void *q, void *local,                   \
				       void *const *objs, unsigned n)          \
	{                                                                      \
		(void)local;                                                   \
		return bulk_enq(q, objs, n, NULL);                             \
	}                                                                      \
	static unsigned pfx##_put_burst(void *q, void *local,                  \
					void *const *objs, unsigned n)         \
	{                                                                      \
		(void)local;                                                   \
		return burst_enq(q, objs, n, NULL);                            \
	}                                                                      \
	static unsigned pfx##_get_burst(void *q, void *local, void **objs,     \
					unsigned n)                            \
	{                                                                      \
		(void)local;                                                   \
		return burst_deq(q, objs, n, NULL);                            \
	}                                                                      \
	BENCH_RING_THREADS(pfx)                                                \
	BENCH_THREAD_FN(pfx##_producer_burst, bench_produce, NULL,             \
			pfx##_put_burst)                                       \
	const struct bench_adapter name = {                                    \
		.create = rte_create,                                          \
		.destroy = rte_destroy,                                        \
		.producer = { [BENCH_SINGLE] = pfx##_producer_single,          \
			      [BENCH_BULK] = pfx##_producer_bulk,              \
			      [BENCH_BURST] = pfx##_producer_burst },          \
		.consumer = { [BENCH_SINGLE] = pfx##_consumer_single,          \
			      [BENCH_BULK] = pfx##_consumer_burst,             \
			      [BENCH_BURST] = pfx##_consumer_burst },          \
		.drain = pfx##_get_burst,                                      \
	};

/* MP/MC, the default sync type's own calls. */
RTE_PTR_ADAPTER(bench_adapter_rte, rte, rte_ring_mp_enqueue,
		rte_ring_mc_dequeue, rte_ring_mp_enqueue_bulk,
		rte_ring_mp_enqueue_burst, rte_ring_mc_dequeue_burst)

/* RTS and HTS: the generic calls, which dispatch on the ring's sync type. */
RTE_PTR_ADAPTER(bench_adapter_rte_sync, sync, rte_ring_enqueue,
		rte_ring_dequeue, rte_ring_enqueue_bulk, rte_ring_enqueue_burst,
		rte_ring_dequeue_burst)

/* --- rte_ring_elem --------------------------------------------------------- */

static bool rte_elem_spsc(enum bench_impl impl)
{
	return impl == BENCH_RTE_ELEM16_SPSC || impl == BENCH_RTE_ELEM64_SPSC;
}

static int rte_elem_create(void **queuep, enum bench_impl impl,
			   const struct bench_config *cfg)
{
	/* Not bench_info(): bench/instr links this file without harness.c. */
	unsigned esize = impl == BENCH_RTE_ELEM16_SPSC ||
					 impl == BENCH_RTE_ELEM16_MPMC
				 ? 16u
				 : 64u;
	unsigned flags = RING_F_EXACT_SZ;

	(void)cfg;
	if (rte_elem_spsc(impl))
		flags |= RING_F_SP_ENQ | RING_F_SC_DEQ;
	return rte_ring_make(
		queuep, rte_ring_get_memsize_elem(esize, 2 * BENCH_CAPACITY),
		"grain_bench_elem", flags);
}

#define RTE_LOCAL_BYTES (BENCH_MAX_BATCH * 64u)

#define RTE_ELEM_ADAPTER(sz, pfx, enq, deq)                                   \
	static unsigned pfx##_put##sz(void *q, void *l, void *const *o,       \
				      unsigned n)                             \
	{                                                                     \
		unsigned char *buf = l;                                       \
		for (unsigned i = 0; i < n; i++)                              \
			bench_elem_build(buf + (size_t)i * sz, o[i], sz);     \
		return enq(q, buf, sz, n, NULL);                              \
	}                                                                     \
	static unsigned pfx##_get##sz(void *q, void *l, void **o, unsigned n) \
	{                                                                     \
		unsigned char *buf = l;                                       \
		unsigned k = deq(q, buf, sz, n, NULL);                        \
		for (unsigned i = 0; i < k; i++)                              \
			o[i] = bench_elem_token(buf + (size_t)i * sz, sz);    \
		return k;                                                     \
	}                                                                     \
	static void *pfx##_producer##sz(void *t)                              \
	{                                                                     \
		alignas(GRAIN_CACHELINE) unsigned char buf[RTE_LOCAL_BYTES];  \
		bench_produce(t, buf, pfx##_put##sz);                         \
		return NULL;                                                  \
	}                                                                     \
	static void *pfx##_consumer##sz(void *t)                              \
	{                                                                     \
		alignas(GRAIN_CACHELINE) unsigned char buf[RTE_LOCAL_BYTES];  \
		bench_consume(t, buf, pfx##_get##sz);                         \
		return NULL;                                                  \
	}                                                                     \
	static unsigned pfx##_drain##sz(void *q, void *l, void **o,           \
					unsigned n)                           \
	{                                                                     \
		alignas(GRAIN_CACHELINE) unsigned char buf[RTE_LOCAL_BYTES];  \
		(void)l;                                                      \
		return pfx##_get##sz(q, buf, o, n);                           \
	}

RTE_ELEM_ADAPTER(16, rte_s, rte_ring_sp_enqueue_burst_elem,
		 rte_ring_sc_dequeue_burst_elem)
RTE_ELEM_ADAPTER(64, rte_s, rte_ring_sp_enqueue_burst_elem,
		 rte_ring_sc_dequeue_burst_elem)
RTE_ELEM_ADAPTER(16, rte_m, rte_ring_mp_enqueue_burst_elem,
		 rte_ring_mc_dequeue_burst_elem)
RTE_ELEM_ADAPTER(64, rte_m, rte_ring_mp_enqueue_burst_elem,
		 rte_ring_mc_dequeue_burst_elem)

#define RTE_ELEM_TABLE(name, pfx, sz)                               \
	const struct bench_adapter name = {                         \
		.create = rte_elem_create,                          \
		.destroy = rte_destroy,                             \
		.producer = { [BENCH_BURST] = pfx##_producer##sz }, \
		.consumer = { [BENCH_BURST] = pfx##_consumer##sz }, \
		.drain = pfx##_drain##sz,                           \
	};

RTE_ELEM_TABLE(bench_adapter_rte_elem16_spsc, rte_s, 16)
RTE_ELEM_TABLE(bench_adapter_rte_elem64_spsc, rte_s, 64)
RTE_ELEM_TABLE(bench_adapter_rte_elem16_mpmc, rte_m, 16)
RTE_ELEM_TABLE(bench_adapter_rte_elem64_mpmc, rte_m, 64)
