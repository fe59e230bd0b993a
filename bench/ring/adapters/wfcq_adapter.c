/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wfcq_adapter.c - anchor: liburcu's wait-free concurrent queue, through
 * its shared library (no _LGPL_SOURCE: every call is a call into liburcu).
 * Enqueue is cds_wfcq_enqueue (wait-free: one exchange on the tail).
 * Dequeue is __cds_wfcq_dequeue_blocking: with one consumer without a lock
 * (that consumer is the mutual exclusion the call asks for), with several
 * under cds_wfcq_dequeue_lock, once per batch. "Blocking": a dequeuer that
 * finds a node whose successor is being linked waits for that enqueuer
 * (spinning, then sleeping 10 ms at a time).
 *
 * The queue is unbounded and intrusive; to make it comparable with the
 * 1024-slot rings without malloc in the loop, each producer owns a pool of
 * nodes, made before the run and handed out round-robin, and reuses a node
 * only once its consumer has released it (a flag in the node, R1/A1): a
 * producer whose next node is still in use finds the queue full. The pools
 * hold 1024 / P nodes each, rounded down to a power of two, so at most 1024
 * tokens are ever in flight. Enqueue has no batch call: bulk loops over
 * single enqueues, and there is no burst.
 */
#include "harness.h"

#include <urcu/wfcqueue.h>

#include <errno.h>
#include <stdlib.h>

struct wfcq_item {
	struct cds_wfcq_node node;
	void *token;
	_Atomic(bool) free;
};

struct wfcq_pool {
	alignas(GRAIN_CACHELINE) struct wfcq_item *items;
	uint64_t next;
	uint64_t mask;
};

struct wfcq_queue {
	struct cds_wfcq_head head; /* consumers' side, with its mutex */
	alignas(GRAIN_CACHELINE) struct cds_wfcq_tail tail; /* producers */
	alignas(GRAIN_CACHELINE) bool locked; /* several consumers */
	unsigned producers;
	struct wfcq_pool *pools;
};

static void wfcq_destroy(void *queue)
{
	struct wfcq_queue *q = queue;

	if (q->pools != NULL)
		for (unsigned p = 0; p < q->producers; p++)
			free(q->pools[p].items);
	free(q->pools);
	cds_wfcq_destroy(&q->head, &q->tail);
	free(q);
}

static int wfcq_create(void **queuep, enum bench_impl impl,
		       const struct bench_config *cfg)
{
	struct wfcq_queue *q = aligned_alloc(GRAIN_CACHELINE, sizeof(*q));
	unsigned per = 1;

	(void)impl;
	if (q == NULL)
		return -ENOMEM;
	cds_wfcq_init(&q->head, &q->tail);
	q->locked = cfg->consumers > 1;
	q->producers = 0; /* pools made so far, for wfcq_destroy() */
	q->pools = aligned_alloc(GRAIN_CACHELINE,
				 cfg->producers * sizeof(struct wfcq_pool));
	while (per * 2 <= BENCH_CAPACITY / cfg->producers)
		per *= 2;
	for (unsigned p = 0; q->pools != NULL && p < cfg->producers; p++) {
		struct wfcq_pool *pool = &q->pools[p];

		pool->next = 0;
		pool->mask = per - 1;
		pool->items = malloc(per * sizeof(struct wfcq_item));
		if (pool->items == NULL)
			break;
		q->producers++;
		for (unsigned i = 0; i < per; i++)
			atomic_init(&pool->items[i].free, true);
	}
	if (q->pools == NULL || q->producers < cfg->producers) {
		wfcq_destroy(q);
		return -ENOMEM;
	}
	*queuep = q;
	return 0;
}

/* A thread's local state: a producer's node pool. */
static GRAIN_ALWAYS_INLINE void *wfcq_local(struct bench_thread *t,
					    unsigned char *buf)
{
	struct wfcq_queue *q = t->h->queue;

	(void)buf;
	return t->producer ? &q->pools[t->index] : NULL;
}

static GRAIN_ALWAYS_INLINE unsigned wfcq_put(void *q, void *local,
					     void *const *objs, unsigned n)
{
	struct wfcq_queue *wq = q;
	struct wfcq_pool *pool = local;

	for (unsigned i = 0; i < n; i++) {
		struct wfcq_item *it = &pool->items[pool->next & pool->mask];

		/* A1: pairs with R1 in wfcq_get(); its consumer is done
		 * with the node. */
		if (!atomic_load_explicit(&it->free, memory_order_acquire))
			return i;
		atomic_store_explicit(&it->free, false, memory_order_relaxed);
		it->token = objs[i];
		cds_wfcq_node_init(&it->node);
		(void)cds_wfcq_enqueue(&wq->head, &wq->tail, &it->node);
		pool->next++;
	}
	return n;
}

static unsigned wfcq_get(void *q, void *local, void **objs, unsigned n)
{
	struct wfcq_queue *wq = q;
	unsigned i = 0;

	(void)local;
	if (wq->locked)
		cds_wfcq_dequeue_lock(&wq->head, &wq->tail);
	for (; i < n; i++) {
		struct cds_wfcq_node *node =
			__cds_wfcq_dequeue_blocking(&wq->head, &wq->tail);
		if (node == NULL)
			break;
		struct wfcq_item *it =
			grain_container_of(node, struct wfcq_item, node);
		objs[i] = it->token;
		/* R1: pairs with A1 in wfcq_put(); the producer may reuse
		 * the node. */
		atomic_store_explicit(&it->free, true, memory_order_release);
	}
	if (wq->locked)
		cds_wfcq_dequeue_unlock(&wq->head, &wq->tail);
	return i;
}

BENCH_ADAPTER(bench_adapter_wfcq, wfcq_create, wfcq_destroy, wfcq_local,
	      wfcq_get, wfcq_put, wfcq_put, NULL, wfcq_get, wfcq_get, NULL,
	      NULL)
