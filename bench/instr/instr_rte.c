/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr_rte.c - anchor: DPDK rte_ring MP/MC, as bench/adapters/
 * rte_adapter.c sets it up: caller memory, rte_ring_init(RING_F_EXACT_SZ)
 * for exactly 1024 usable slots, no EAL. single: rte_ring_mp_enqueue /
 * rte_ring_mc_dequeue; bulk: rte_ring_mp_enqueue_bulk /
 * rte_ring_mc_dequeue_burst.
 *
 * Compiled with the flags of pkg-config libdpdk (-include rte_config.h,
 * -march=...); only librte_ring is linked.
 */
#define _GNU_SOURCE /* ssize_t and the rest of what DPDK's headers expect */
#include "instr_ops.h"

#include <rte_ring.h>

#include <stdlib.h>

#define INSTR_RTE_ALIGN 128u /* at least RTE_CACHE_LINE_SIZE */

void *instr_rte_create(void)
{
	/* RING_F_EXACT_SZ rounds count + 1 up to a power of two. */
	ssize_t size = rte_ring_get_memsize(2 * INSTR_RING_CAPACITY);
	if (size < 0)
		return NULL;
	size_t rounded = ((size_t)size + INSTR_RTE_ALIGN - 1) &
			 ~(size_t)(INSTR_RTE_ALIGN - 1);
	struct rte_ring *r = aligned_alloc(INSTR_RTE_ALIGN, rounded);
	if (r == NULL)
		return NULL;
	if (rte_ring_init(r, "grain_instr", INSTR_RING_CAPACITY,
			  RING_F_EXACT_SZ) != 0) {
		free(r);
		return NULL;
	}
	return r;
}

void instr_rte_destroy(void *q)
{
	free(q);
}

static int rte_put(void *q, void *obj)
{
	return rte_ring_mp_enqueue(q, obj);
}

static int rte_get(void *q, void **objp)
{
	return rte_ring_mc_dequeue(q, objp);
}

static unsigned rte_put_bulk(void *q, void *const *objs, unsigned n)
{
	return rte_ring_mp_enqueue_bulk(q, objs, n, NULL);
}

static unsigned rte_get_burst(void *q, void **objs, unsigned n)
{
	return rte_ring_mc_dequeue_burst(q, objs, n, NULL);
}

uint64_t instr_rte_single(void *q, uint64_t pairs, uint64_t *sum)
{
	return instr_ring_single(q, pairs, sum, rte_put, rte_get);
}

uint64_t instr_rte_bulk(void *q, uint64_t pairs, uint64_t *sum)
{
	return instr_ring_bulk(q, pairs, sum, rte_put_bulk, rte_get_burst);
}
