/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rte_adapter.c - anchor: DPDK rte_ring, compiled with the flags of
 * pkg-config libdpdk (-include rte_config.h, -march=corei7) and linked with
 * librte_ring alone. No EAL, no hugepages, no memzone: the ring lives in
 * aligned_alloc memory set up by rte_ring_init() with RING_F_EXACT_SZ, with
 * which a count of 1024 gives exactly 1024 usable slots in an array of 2048
 * (rte_ring otherwise keeps one slot empty).
 *
 * bench_adapter_rte is the default sync type (flags 0, MP/MC: the classic
 * head/tail CAS with a tail catch-up spin) through its own mp/mc calls;
 * bench_adapter_rte_sync the ring made RTS or HTS on both sides, through
 * the generic calls, which dispatch on the sync type; the element rings
 * build and read their elements in a buffer, as elem_adapter.c's copying
 * grain_ring_elem does.
 */
#define _GNU_SOURCE /* ssize_t and the rest of what DPDK's headers expect */
#include "harness.h"

#include <rte_ring.h>

#include <errno.h>
#include <stdlib.h>

#define RTE_ALIGN_BYTES 128u /* at least RTE_CACHE_LINE_SIZE */

/* A ring of BENCH_CAPACITY slots in SIZE bytes (rte_ring_get_memsize() or
 * its _elem form; < 0: that error), initialised with FLAGS. */
static int rte_make(void **queuep, ssize_t size, unsigned flags)
{
	if (size < 0)
		return (int)size;
	size_t rounded = ((size_t)size + RTE_ALIGN_BYTES - 1) &
			 ~(size_t)(RTE_ALIGN_BYTES - 1);
	struct rte_ring *r = aligned_alloc(RTE_ALIGN_BYTES, rounded);
	if (r == NULL)
		return -ENOMEM;
	int rc = rte_ring_init(r, "grain_bench", BENCH_CAPACITY,
			       flags | RING_F_EXACT_SZ);
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
	unsigned flags = 0;

	(void)cfg;
	if (impl == BENCH_RTE_RTS)
		flags = RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ;
	else if (impl == BENCH_RTE_HTS)
		flags = RING_F_MP_HTS_ENQ | RING_F_MC_HTS_DEQ;
	/* RING_F_EXACT_SZ rounds count + 1 up to a power of two. */
	return rte_make(queuep, rte_ring_get_memsize(2 * BENCH_CAPACITY),
			flags);
}

static int rte_elem_create(void **queuep, enum bench_impl impl,
			   const struct bench_config *cfg)
{
	/* Not bench_info(): bench/instr links this file without harness.c. */
	unsigned esize = impl == BENCH_RTE_ELEM16_SPSC ||
					 impl == BENCH_RTE_ELEM16_MPMC
				 ? 16u
				 : 64u;
	bool spsc = impl == BENCH_RTE_ELEM16_SPSC ||
		    impl == BENCH_RTE_ELEM64_SPSC;

	(void)cfg;
	return rte_make(queuep,
			rte_ring_get_memsize_elem(esize, 2 * BENCH_CAPACITY),
			spsc ? RING_F_SP_ENQ | RING_F_SC_DEQ : 0);
}

static void rte_destroy(void *queue)
{
	free(queue);
}

/* The adapter NAME of the pointer ring through the calls named, whose
 * bulk and burst forms are given no free-space or available hint; its
 * calls are PFX_put_one, _get_one, _put_bulk, _put_burst, _get_burst. */
#define RTE_PTR_ADAPTER(name, pfx, one_enq, one_deq, bulk_enq, burst_enq,    \
			burst_deq)                                           \
	BENCH_PUT(pfx##_put_one, one_enq(q, objs[0]) == 0)                   \
	BENCH_GET(pfx##_get_one, one_deq(q, objs) == 0)                      \
	BENCH_PUT(pfx##_put_bulk, bulk_enq(q, objs, n, NULL))                \
	BENCH_PUT(pfx##_put_burst, burst_enq(q, objs, n, NULL))              \
	BENCH_GET(pfx##_get_burst, burst_deq(q, objs, n, NULL))              \
	BENCH_ADAPTER(name, rte_create, rte_destroy, bench_no_local,         \
		      pfx##_get_burst, pfx##_put_one, pfx##_put_bulk,        \
		      pfx##_put_burst, pfx##_get_one, pfx##_get_burst, NULL, \
		      NULL)

RTE_PTR_ADAPTER(bench_adapter_rte, rte, rte_ring_mp_enqueue,
		rte_ring_mc_dequeue, rte_ring_mp_enqueue_bulk,
		rte_ring_mp_enqueue_burst, rte_ring_mc_dequeue_burst)
RTE_PTR_ADAPTER(bench_adapter_rte_sync, sync, rte_ring_enqueue,
		rte_ring_dequeue, rte_ring_enqueue_bulk, rte_ring_enqueue_burst,
		rte_ring_dequeue_burst)

/* The adapter NAME of an element ring of SZ-byte elements through the
 * burst calls ENQ and DEQ; its calls are NAME_put and NAME_get. A retry
 * builds nothing again (bench_elem_stage(), harness.h). */
#define RTE_ELEM_ADAPTER(name, sz, enq, deq)                                  \
	static GRAIN_ALWAYS_INLINE unsigned name##_put(                       \
		void *q, void *local, void *const *objs, unsigned n)          \
	{                                                                     \
		unsigned char *buf = local;                                   \
		unsigned char *from = bench_elem_stage(buf, objs, n, sz);     \
		return bench_elem_staged(buf, objs, n,                        \
					 enq(q, from, sz, n, NULL));          \
	}                                                                     \
	static unsigned name##_get(void *q, void *local, void **objs,         \
				   unsigned n)                                \
	{                                                                     \
		unsigned char *buf = local;                                   \
		unsigned k = deq(q, buf, sz, n, NULL);                        \
		for (unsigned i = 0; i < k; i++)                              \
			objs[i] = bench_elem_token(buf + (size_t)i * sz, sz); \
		return k;                                                     \
	}                                                                     \
	BENCH_ADAPTER(name, rte_elem_create, rte_destroy,                     \
		      bench_elem_stage_buf, name##_get, NULL, NULL,           \
		      name##_put, NULL, name##_get, NULL, NULL)

RTE_ELEM_ADAPTER(bench_adapter_rte_elem16_spsc, 16,
		 rte_ring_sp_enqueue_burst_elem, rte_ring_sc_dequeue_burst_elem)
RTE_ELEM_ADAPTER(bench_adapter_rte_elem64_spsc, 64,
		 rte_ring_sp_enqueue_burst_elem, rte_ring_sc_dequeue_burst_elem)
RTE_ELEM_ADAPTER(bench_adapter_rte_elem16_mpmc, 16,
		 rte_ring_mp_enqueue_burst_elem, rte_ring_mc_dequeue_burst_elem)
RTE_ELEM_ADAPTER(bench_adapter_rte_elem64_mpmc, 64,
		 rte_ring_mp_enqueue_burst_elem, rte_ring_mc_dequeue_burst_elem)
