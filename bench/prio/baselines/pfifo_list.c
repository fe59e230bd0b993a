/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pfifo_list.c - the baseline: pfifo_fast written the classic way (Linux
 * net/sched/sch_generic.c, pfifo_fast_enqueue() and pfifo_fast_dequeue(),
 * v2.6 - v4.15, before the lockless conversion), and its adapter.
 *
 * What it copies from the classic qdisc: one lock for everything (the
 * qdisc root lock), enqueue, dequeue and statistics alike; three bands,
 * each a singly linked FIFO of the items' embedded links (no allocation
 * on enqueue); the 16-entry prio2band map and the bitmap of non-empty
 * bands turned into the highest one by the 8-entry bitmap2band; tail
 * drop, counted. One difference: each band has its own limit, where the
 * qdisc had one for all (tx_queue_len), so that the baseline drops
 * exactly where grain_prio (one bounded ring per band) does.
 *
 * The lock is a grain_spinlock (as the kernel's spinlock_t;
 * PRIO_BASE_SPIN) or a pthread mutex with default attributes
 * (PRIO_BASE_MUTEX). A thread preempted while it holds it stalls
 * everybody else.
 *
 * Layout: the first cache line holds the spinlock, the bitmap, the band
 * lengths and the heads, all a dequeue reads; the tails and the dequeue
 * counters fill the second, the drop counters the third; the mutex has a
 * line of its own. Whoever holds the lock pulls these lines to its CPU, as
 * the root lock and the Qdisc fields did in the kernel.
 */
#include "../adapters/harness.h"

#include <grain/lock.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const uint8_t pfifo_list_prio2band[16] = { 1, 2, 2, 2, 1, 2, 0, 0,
					   1, 1, 1, 1, 1, 1, 1, 1 };

/* The highest non-empty band for each value of the bitmap (bit b set:
 * band b holds a node); -1: all empty. */
static const int8_t bitmap2band[1u << PRIO_BANDS] = { -1, 0, 1, 0, 2, 0, 1, 0 };

struct pfifo_list {
	alignas(GRAIN_CACHELINE) struct grain_spinlock spin;
	unsigned bitmap;
	unsigned limit;
	enum { SPINLOCK, MUTEX } lock; /* which one guards the queue */
	unsigned qlen[PRIO_BANDS];
	struct pfifo_list_node *head[PRIO_BANDS];
	struct pfifo_list_node *tail[PRIO_BANDS];
	uint64_t dequeued[PRIO_BANDS];
	alignas(GRAIN_CACHELINE) uint64_t dropped[PRIO_BANDS];
	alignas(GRAIN_CACHELINE) pthread_mutex_t mutex;
};

_Static_assert(offsetof(struct pfifo_list, tail) <= GRAIN_CACHELINE,
	       "lock, bitmap, lengths and heads share the first line");

struct pfifo_list_stats {
	uint64_t enqueued, dequeued, dropped;
	unsigned backlog;
};

static inline void q_lock(struct pfifo_list *q)
{
	if (q->lock == SPINLOCK)
		grain_spin_lock(&q->spin);
	else
		pthread_mutex_lock(&q->mutex);
}

static inline void q_unlock(struct pfifo_list *q)
{
	if (q->lock == SPINLOCK)
		grain_spin_unlock(&q->spin);
	else
		pthread_mutex_unlock(&q->mutex);
}

static int prio_pfifo_create(void **queuep, enum prio_impl impl,
			     const struct prio_config *cfg)
{
	struct pfifo_list *q =
		aligned_alloc(GRAIN_CACHELINE, sizeof(struct pfifo_list));

	if (q == NULL)
		return -ENOMEM;
	memset(q, 0, sizeof(*q));
	grain_spin_init(&q->spin);
	if (pthread_mutex_init(&q->mutex, NULL) != 0) {
		free(q);
		return -ENOMEM;
	}
	q->limit = cfg->band_limit;
	q->lock = impl == PRIO_BASE_MUTEX ? MUTEX : SPINLOCK;
	*queuep = q;
	return 0;
}

static void prio_pfifo_destroy(void *queue)
{
	struct pfifo_list *q = queue;

	pthread_mutex_destroy(&q->mutex);
	free(q);
}

/* Append @item to the band of its priority, or drop it: 0 or -EAGAIN. */
int prio_pfifo_put(void *queue, struct prio_item *item)
{
	struct pfifo_list *q = queue;
	struct pfifo_list_node *node = &item->link;
	unsigned band = pfifo_list_prio2band[item->prio & 15u];

	node->next = NULL;
	q_lock(q);
	if (q->qlen[band] >= q->limit) {
		q->dropped[band]++;
		q_unlock(q);
		return -EAGAIN;
	}
	if (q->tail[band] != NULL)
		q->tail[band]->next = node;
	else
		q->head[band] = node;
	q->tail[band] = node;
	q->qlen[band]++;
	q->bitmap |= 1u << band;
	q_unlock(q);
	return 0;
}

/* Under the lock: unlink the head of the highest non-empty band. */
static inline struct pfifo_list_node *dequeue_locked(struct pfifo_list *q,
						     unsigned *bandp)
{
	int b = bitmap2band[q->bitmap];

	if (b < 0)
		return NULL;
	unsigned band = (unsigned)b;
	struct pfifo_list_node *node = q->head[band];

	q->head[band] = node->next;
	if (q->head[band] == NULL) {
		q->tail[band] = NULL;
		q->bitmap &= ~(1u << band);
	}
	q->qlen[band]--;
	q->dequeued[band]++;
	*bandp = band;
	return node;
}

unsigned prio_pfifo_get_single(void *queue, struct prio_item **items,
			       unsigned n, unsigned *bandp)
{
	struct pfifo_list *q = queue;
	unsigned band = 0;

	(void)n;
	q_lock(q);
	struct pfifo_list_node *node = dequeue_locked(q, &band);
	q_unlock(q);
	if (node == NULL)
		return 0;
	if (bandp != NULL)
		*bandp = band;
	items[0] = grain_container_of(node, struct prio_item, link);
	return 1;
}

/* Up to @n items under one hold of the lock, each from the highest band
 * non-empty at that moment (as the classic qdisc's bulk dequeue for
 * xmit_more did). */
unsigned prio_pfifo_get_burst(void *queue, struct prio_item **items, unsigned n,
			      unsigned *bandp)
{
	struct pfifo_list *q = queue;
	struct pfifo_list_node *nodes[PRIO_MAX_BURST];
	unsigned got = 0, band;

	(void)bandp;
	q_lock(q);
	while (got < n && (nodes[got] = dequeue_locked(q, &band)) != NULL)
		got++;
	q_unlock(q);
	for (unsigned i = 0; i < got; i++)
		items[i] = grain_container_of(nodes[i], struct prio_item, link);
	return got;
}

/* Under one lock a dequeue fails only when every band is empty: never
 * blocked. (Not read, so that polls cost what they cost.) */
static unsigned prio_pfifo_backlog(void *queue)
{
	(void)queue;
	return 0;
}

static int stats(void *queue, unsigned band, struct pfifo_list_stats *st)
{
	struct pfifo_list *q = queue;

	q_lock(q);
	st->dequeued = q->dequeued[band];
	st->backlog = q->qlen[band];
	st->enqueued = st->dequeued + st->backlog;
	st->dropped = q->dropped[band];
	q_unlock(q);
	return 0;
}

PRIO_ADAPTER(prio_adapter_pfifo, prio_pfifo, pfifo_list_stats, stats)
