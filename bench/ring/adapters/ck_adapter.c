/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ck_adapter.c - anchor: ConcurrencyKit ck_ring, MPMC pointer interface:
 * ck_ring_enqueue_mpmc / ck_ring_dequeue_mpmc on a ring of 1024 slots, of
 * which 1023 are usable (ck_ring keeps one empty). ck_ring has no batch
 * calls, so bulk is a loop of single calls that stops at the first
 * failure, and there is no burst.
 *
 * Its multi-producer enqueue claims a slot with a CAS on p_head and then
 * waits, spinning, until every earlier claimant has published (p_tail): a
 * producer preempted in between holds back all the others.
 */
#include "harness.h"

#include <ck_ring.h>

#include <errno.h>
#include <stdlib.h>

struct ck_queue {
	alignas(GRAIN_CACHELINE) struct ck_ring ring;
	struct ck_ring_buffer *buffer;
};

static int ck_create(void **queuep, enum bench_impl impl,
		     const struct bench_config *cfg)
{
	struct ck_queue *q = aligned_alloc(GRAIN_CACHELINE, sizeof(*q));

	(void)impl;
	(void)cfg;
	if (q != NULL)
		q->buffer = aligned_alloc(
			GRAIN_CACHELINE,
			BENCH_CAPACITY * sizeof(struct ck_ring_buffer));
	if (q == NULL || q->buffer == NULL) {
		free(q);
		return -ENOMEM;
	}
	ck_ring_init(&q->ring, BENCH_CAPACITY);
	*queuep = q;
	return 0;
}

static void ck_destroy(void *queue)
{
	struct ck_queue *q = queue;

	free(q->buffer);
	free(q);
}

static GRAIN_ALWAYS_INLINE unsigned ck_put(void *q, void *local,
					   void *const *objs, unsigned n)
{
	struct ck_queue *c = q;
	unsigned i = 0;

	(void)local;
	while (i < n && ck_ring_enqueue_mpmc(&c->ring, c->buffer, objs[i]))
		i++;
	return i;
}

static unsigned ck_get(void *q, void *local, void **objs, unsigned n)
{
	struct ck_queue *c = q;
	unsigned i = 0;

	(void)local;
	while (i < n && ck_ring_dequeue_mpmc(&c->ring, c->buffer, &objs[i]))
		i++;
	return i;
}

BENCH_ADAPTER(bench_adapter_ck, ck_create, ck_destroy, bench_no_local, ck_get,
	      ck_put, ck_put, NULL, ck_get, ck_get, NULL, NULL)
