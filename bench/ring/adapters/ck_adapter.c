/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ck_adapter.c - anchor: ConcurrencyKit ck_ring, MPMC pointer interface.
 *
 * ck_ring_enqueue_mpmc / ck_ring_dequeue_mpmc on a ring of 1024 slots, of
 * which 1023 are usable (ck_ring keeps one slot empty). ck_ring has no
 * batch calls, so BENCH_BULK is a loop of single calls that stops at the
 * first failure; there is no BENCH_BURST.
 *
 * Its multi-producer enqueue claims a slot with a CAS on p_head and then
 * waits, spinning, until every earlier claimant has published (p_tail):
 * a producer preempted in between holds back all the others.
 */
#include "harness.h"

#include <ck_ring.h>

#include <errno.h>
#include <stdlib.h>

struct ck_queue {
	struct ck_ring ring;
	struct ck_ring_buffer *buffer;
};

static int ck_create(void **queuep, enum bench_impl impl,
		     const struct bench_config *cfg)
{
	size_t qsize = bench_round_up(sizeof(struct ck_queue), GRAIN_CACHELINE);
	size_t bsize = BENCH_CAPACITY * sizeof(struct ck_ring_buffer);
	struct ck_queue *q = aligned_alloc(GRAIN_CACHELINE, qsize);

	(void)impl;
	(void)cfg;
	if (q == NULL)
		return -ENOMEM;
	q->buffer = aligned_alloc(GRAIN_CACHELINE, bsize);
	if (q->buffer == NULL) {
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

static unsigned ck_put(void *queue, void *local, void *const *objs, unsigned n)
{
	struct ck_queue *q = queue;
	unsigned i = 0;

	(void)local;
	while (i < n && ck_ring_enqueue_mpmc(&q->ring, q->buffer, objs[i]))
		i++;
	return i;
}

static unsigned ck_get(void *queue, void *local, void **objs, unsigned n)
{
	struct ck_queue *q = queue;
	unsigned i = 0;

	(void)local;
	while (i < n && ck_ring_dequeue_mpmc(&q->ring, q->buffer, &objs[i]))
		i++;
	return i;
}

BENCH_THREAD_FN(ck_produce, bench_produce, NULL, ck_put)
BENCH_THREAD_FN(ck_consume, bench_consume, NULL, ck_get)

const struct bench_adapter bench_adapter_ck = {
	.create = ck_create,
	.destroy = ck_destroy,
	.producer = { [BENCH_SINGLE] = ck_produce, [BENCH_BULK] = ck_produce },
	.consumer = { [BENCH_SINGLE] = ck_consume, [BENCH_BULK] = ck_consume },
	.drain = ck_get,
};
