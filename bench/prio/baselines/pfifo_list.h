/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pfifo_list.h - baseline for the grain_prio benchmark: pfifo_fast written
 * the classic way, one lock over three intrusive FIFO lists.
 *
 * What it copies from the classic qdisc (Linux net/sched/sch_generic.c
 * before the lockless conversion):
 *   - one lock for everything (the qdisc root lock): enqueue, dequeue and
 *     the statistics all run under it;
 *   - three bands, each a singly linked FIFO (head, tail, length), with the
 *     objects linked through a pointer embedded in them (no allocation on
 *     enqueue);
 *   - the 16-entry prio2band map (priority & 15 -> band) and a bitmap of
 *     non-empty bands turned into the highest band by the 8-entry
 *     bitmap2band table;
 *   - tail drop: an object that does not fit is refused and counted.
 * One difference: the classic qdisc had a single limit over all bands
 * (tx_queue_len); here each band has its own limit, so that the baseline
 * drops exactly where grain_prio (one bounded ring per band) drops.
 *
 * The lock is a grain_spinlock (as the kernel's spinlock_t) or a pthread
 * mutex, chosen at creation.
 *
 * Synchronization: every call may run concurrently with every other,
 * except create/destroy. All calls take the lock (acquire) and release it
 * (release) before returning: an enqueue happens-before the dequeue that
 * returns its node. A thread preempted while holding the lock stalls
 * everybody else.
 *
 * C11 only (the spinlock uses <stdatomic.h>).
 */
#ifndef GRAIN_BENCH_PFIFO_LIST_H
#define GRAIN_BENCH_PFIFO_LIST_H

#include <stdint.h>

#define PFIFO_LIST_BANDS 3u
#define PFIFO_LIST_PRIORITIES 16u

/** The link embedded in every queued object. */
struct pfifo_list_node {
	struct pfifo_list_node *next;
};

/** Which lock guards the queue. */
enum pfifo_list_lock {
	PFIFO_LIST_SPINLOCK, /**< grain_spinlock, as the qdisc root lock */
	PFIFO_LIST_MUTEX,    /**< pthread_mutex_t (default attributes) */
};

struct pfifo_list;

/** The priority-to-band map of pfifo_fast (priorities 0..15). */
extern const uint8_t pfifo_list_prio2band[PFIFO_LIST_PRIORITIES];

/**
 * pfifo_list_create - an empty queue whose bands hold at most @p band_limit
 * objects each. @return 0, -EINVAL (@p qp NULL, @p band_limit 0, unknown
 * lock) or -ENOMEM.
 */
int pfifo_list_create(struct pfifo_list **qp, unsigned band_limit,
		      enum pfifo_list_lock lock);

/** pfifo_list_destroy - free the queue; queued nodes are not touched. */
void pfifo_list_destroy(struct pfifo_list *q);

/**
 * pfifo_list_enqueue - append @p node to the band of @p priority (its low
 * four bits, through pfifo_list_prio2band).
 * @return 0, or -EAGAIN if the band is full (the node is not queued and a
 *         drop is counted).
 */
int pfifo_list_enqueue(struct pfifo_list *q, struct pfifo_list_node *node,
		       unsigned priority);

/**
 * pfifo_list_dequeue - take the head of the highest non-empty band.
 * @param bandp if not NULL, receives the band.
 * @return the node, or NULL if every band is empty.
 */
struct pfifo_list_node *pfifo_list_dequeue(struct pfifo_list *q,
					   unsigned *bandp);

/**
 * pfifo_list_dequeue_burst - take up to @p n nodes under one hold of the
 * lock, each from the highest band non-empty at that moment (as the
 * classic qdisc's bulk dequeue for xmit_more did).
 * @return the number taken, 0 if every band is empty.
 */
unsigned pfifo_list_dequeue_burst(struct pfifo_list *q,
				  struct pfifo_list_node **nodes, unsigned n);

/** Per-band counters, read under the lock. */
struct pfifo_list_stats {
	uint64_t enqueued;
	uint64_t dequeued;
	uint64_t dropped;
	unsigned backlog;
};

/** pfifo_list_stats - the counters of @p band. @return 0 or -EINVAL. */
int pfifo_list_stats(struct pfifo_list *q, unsigned band,
		     struct pfifo_list_stats *st);

#endif /* GRAIN_BENCH_PFIFO_LIST_H */
