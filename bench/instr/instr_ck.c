/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr_ck.c - anchor: ConcurrencyKit ck_ring, MPMC pointer interface, as
 * bench/adapters/ck_adapter.c uses it (1024 slots, 1023 usable). ck_ring
 * has no batch calls, so there is only the single loop.
 */
#include "instr_ops.h"

#include <ck_ring.h>

#include <stdlib.h>

struct instr_ck {
	struct ck_ring ring;
	struct ck_ring_buffer *buffer;
};

void *instr_ck_create(void)
{
	size_t size = (sizeof(struct instr_ck) + GRAIN_CACHELINE - 1) &
		      ~(size_t)(GRAIN_CACHELINE - 1);
	struct instr_ck *q = aligned_alloc(GRAIN_CACHELINE, size);

	if (q == NULL)
		return NULL;
	q->buffer = aligned_alloc(GRAIN_CACHELINE,
				  INSTR_RING_CAPACITY * sizeof(*q->buffer));
	if (q->buffer == NULL) {
		free(q);
		return NULL;
	}
	ck_ring_init(&q->ring, INSTR_RING_CAPACITY);
	return q;
}

void instr_ck_destroy(void *queue)
{
	struct instr_ck *q = queue;

	if (q != NULL)
		free(q->buffer);
	free(q);
}

static int ck_put(void *queue, void *obj)
{
	struct instr_ck *q = queue;

	return ck_ring_enqueue_mpmc(&q->ring, q->buffer, obj) ? 0 : -1;
}

static int ck_get(void *queue, void **objp)
{
	struct instr_ck *q = queue;

	return ck_ring_dequeue_mpmc(&q->ring, q->buffer, objp) ? 0 : -1;
}

uint64_t instr_ck_single(void *q, uint64_t pairs, uint64_t *sum)
{
	return instr_ring_single(q, pairs, sum, ck_put, ck_get);
}
