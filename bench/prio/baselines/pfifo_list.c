/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pfifo_list.c - the classic pfifo_fast baseline (see pfifo_list.h).
 *
 * Design. All state sits in one block: the first cache line holds the
 * spinlock, the bitmap, the band lengths and the list heads, i.e. all a
 * dequeue reads; the tails and the dequeue counters fill the second line,
 * the drop counters the third; the mutex (when chosen) has a line of its
 * own. Whoever holds the lock pulls these lines to its CPU, as the root
 * lock and the Qdisc fields did in the kernel.
 *
 * References: Linux net/sched/sch_generic.c, pfifo_fast_enqueue() /
 * pfifo_fast_dequeue() with prio2band[] and bitmap2band[] (v2.6 - v4.15).
 */
#include "pfifo_list.h"

#include <grain/lock.h>

#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const uint8_t pfifo_list_prio2band[PFIFO_LIST_PRIORITIES] = { 1, 2, 2, 2, 1, 2,
							      0, 0, 1, 1, 1, 1,
							      1, 1, 1, 1 };

/* The highest non-empty band for each value of the 3-bit bitmap; -1: all
 * empty. Bit b set: band b holds at least one node. */
static const int8_t bitmap2band[1u << PFIFO_LIST_BANDS] = { -1, 0, 1, 0,
							    2,	0, 1, 0 };

struct pfifo_list {
	/* What every call reads and writes under the lock. */
	alignas(GRAIN_CACHELINE) struct grain_spinlock spin;
	unsigned bitmap;
	unsigned limit;
	enum pfifo_list_lock lock;
	unsigned qlen[PFIFO_LIST_BANDS];
	struct pfifo_list_node *head[PFIFO_LIST_BANDS];
	struct pfifo_list_node *tail[PFIFO_LIST_BANDS];
	uint64_t dequeued[PFIFO_LIST_BANDS];
	alignas(GRAIN_CACHELINE) uint64_t dropped[PFIFO_LIST_BANDS];
	alignas(GRAIN_CACHELINE) pthread_mutex_t mutex;
};

_Static_assert(offsetof(struct pfifo_list, tail) <= GRAIN_CACHELINE,
	       "lock, bitmap, lengths and heads share the first line");

static inline void q_lock(struct pfifo_list *q)
{
	if (q->lock == PFIFO_LIST_SPINLOCK)
		grain_spin_lock(&q->spin);
	else
		pthread_mutex_lock(&q->mutex);
}

static inline void q_unlock(struct pfifo_list *q)
{
	if (q->lock == PFIFO_LIST_SPINLOCK)
		grain_spin_unlock(&q->spin);
	else
		pthread_mutex_unlock(&q->mutex);
}

int pfifo_list_create(struct pfifo_list **qp, unsigned band_limit,
		      enum pfifo_list_lock lock)
{
	if (qp == NULL || band_limit == 0 ||
	    (lock != PFIFO_LIST_SPINLOCK && lock != PFIFO_LIST_MUTEX))
		return -EINVAL;
	size_t size = sizeof(struct pfifo_list);
	size = (size + GRAIN_CACHELINE - 1) & ~(size_t)(GRAIN_CACHELINE - 1);
	struct pfifo_list *q = aligned_alloc(GRAIN_CACHELINE, size);
	if (q == NULL)
		return -ENOMEM;
	memset(q, 0, sizeof(*q));
	grain_spin_init(&q->spin);
	if (pthread_mutex_init(&q->mutex, NULL) != 0) {
		free(q);
		return -ENOMEM;
	}
	q->limit = band_limit;
	q->lock = lock;
	*qp = q;
	return 0;
}

void pfifo_list_destroy(struct pfifo_list *q)
{
	if (q == NULL)
		return;
	pthread_mutex_destroy(&q->mutex);
	free(q);
}

int pfifo_list_enqueue(struct pfifo_list *q, struct pfifo_list_node *node,
		       unsigned priority)
{
	unsigned band = pfifo_list_prio2band[priority & 15u];

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

/* Caller holds the lock. Unlink the head of the highest non-empty band. */
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

struct pfifo_list_node *pfifo_list_dequeue(struct pfifo_list *q,
					   unsigned *bandp)
{
	unsigned band = 0;

	q_lock(q);
	struct pfifo_list_node *node = dequeue_locked(q, &band);
	q_unlock(q);
	if (node != NULL && bandp != NULL)
		*bandp = band;
	return node;
}

unsigned pfifo_list_dequeue_burst(struct pfifo_list *q,
				  struct pfifo_list_node **nodes, unsigned n)
{
	unsigned got = 0, band;

	q_lock(q);
	while (got < n) {
		struct pfifo_list_node *node = dequeue_locked(q, &band);
		if (node == NULL)
			break;
		nodes[got++] = node;
	}
	q_unlock(q);
	return got;
}

int pfifo_list_stats(struct pfifo_list *q, unsigned band,
		     struct pfifo_list_stats *st)
{
	if (q == NULL || st == NULL || band >= PFIFO_LIST_BANDS)
		return -EINVAL;
	q_lock(q);
	st->dequeued = q->dequeued[band];
	st->backlog = q->qlen[band];
	st->enqueued = st->dequeued + st->backlog;
	st->dropped = q->dropped[band];
	q_unlock(q);
	return 0;
}
