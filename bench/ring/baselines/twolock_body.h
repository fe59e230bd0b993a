/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * twolock_body.h - the two-lock ring of baselines.h, ptr_ring style, once
 * for each lock: a .c file defines the names below and includes this file,
 * which defines the ring's struct and its calls. The two rings so differ in
 * their lock and in nothing else.
 *
 *   TL_RING            the struct tag and the calls' prefix
 *                      (bench_twolock_ring: bench_twolock_ring_create, ...)
 *   TL_LOCK_T          the lock's type
 *   TL_LOCK_INIT(l)    make lock l (a TL_LOCK_T *) free
 *   TL_LOCK(l)         take it; TL_UNLOCK(l) release it (acquire and
 *                      release ordering, as any lock's)
 *   TL_LOCK_DESTROY(l) free what TL_LOCK_INIT() made
 *
 * Design. Slots are _Atomic(void *); NULL marks a free slot. Indices run
 * from 0 to capacity - 1 and wrap by comparison (no power-of-two
 * requirement, as in ptr_ring). The producer index lives on the producer
 * lock's cache line, the consumer indices on the consumer lock's line, the
 * read-only geometry on a third; neither side ever reads the other's line.
 *
 * Ordering. R1: a producer stores an object with release; A1: the
 * consumer loads the slot with acquire, so whatever the producer wrote
 * into the object before enqueueing it is visible. Clearing a slot and
 * re-filling it need no fence: they are accesses to one location, so the
 * consumer's read of the old object comes before its NULL in that
 * location's modification order, and the producer writes only after it
 * has read that NULL.
 *
 * Reference: Linux include/linux/ptr_ring.h (produce, consume_batched,
 * and the batched, reverse-order zeroing in its discard path).
 */
#include "baselines.h"

#include <grain/common.h>

#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>

#define TL_CAT2(a, b) a##b
#define TL_CAT(a, b) TL_CAT2(a, b)
#define TL_FN(suffix) TL_CAT(TL_RING, suffix)

#define TL_DEFAULT_ZERO_BATCH (2u * GRAIN_CACHELINE / sizeof(void *))

struct TL_RING {
	/* Producer line. */
	alignas(GRAIN_CACHELINE) TL_LOCK_T producer_lock;
	unsigned producer; /* next slot to fill */

	/* Consumer line. */
	alignas(GRAIN_CACHELINE) TL_LOCK_T consumer_lock;
	unsigned consumer_head; /* next slot to take */
	unsigned consumer_tail; /* first taken slot not yet cleared */

	/* Read-only after create. */
	alignas(GRAIN_CACHELINE) unsigned size;
	unsigned zero_batch;
	_Atomic(void *) *queue;
};

int TL_FN(_create)(struct TL_RING **ringp, unsigned capacity,
		   unsigned zero_batch)
{
	if (ringp == NULL || capacity < 2)
		return -EINVAL;
	/* Its alignas members make sizeof a multiple of the line. */
	struct TL_RING *r = aligned_alloc(GRAIN_CACHELINE, sizeof(*r));
	size_t qsize =
		((size_t)capacity * sizeof(void *) + GRAIN_CACHELINE - 1) &
		~(size_t)(GRAIN_CACHELINE - 1);
	if (r == NULL ||
	    (r->queue = aligned_alloc(GRAIN_CACHELINE, qsize)) == NULL) {
		free(r);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < capacity; i++)
		atomic_init(&r->queue[i], NULL);
	TL_LOCK_INIT(&r->producer_lock);
	TL_LOCK_INIT(&r->consumer_lock);
	r->producer = r->consumer_head = r->consumer_tail = 0;
	r->size = capacity;
	if (zero_batch == 0)
		zero_batch = TL_DEFAULT_ZERO_BATCH;
	r->zero_batch = zero_batch > capacity / 2 ? 1 : zero_batch;
	*ringp = r;
	return 0;
}

void TL_FN(_destroy)(struct TL_RING *ring)
{
	if (ring == NULL)
		return;
	TL_LOCK_DESTROY(&ring->producer_lock);
	TL_LOCK_DESTROY(&ring->consumer_lock);
	free(ring->queue);
	free(ring);
}

/* Caller holds producer_lock. */
static int produce_locked(struct TL_RING *r, void *obj)
{
	if (atomic_load_explicit(&r->queue[r->producer], memory_order_relaxed))
		return -EAGAIN;
	/* R1: pairs with A1 in take_locked(). */
	atomic_store_explicit(&r->queue[r->producer], obj,
			      memory_order_release);
	if (++r->producer == r->size)
		r->producer = 0;
	return 0;
}

/* Caller holds consumer_lock. Takes the slot at consumer_head if it holds
 * an object; clears taken slots once zero_batch of them have piled up, or
 * at the end of the array so that the cleared range never wraps. */
static void *take_locked(struct TL_RING *r)
{
	unsigned head = r->consumer_head;
	/* A1: pairs with R1 in produce_locked(). */
	void *obj = atomic_load_explicit(&r->queue[head], memory_order_acquire);

	if (obj == NULL)
		return NULL;
	head++;
	if (head - r->consumer_tail >= r->zero_batch || head == r->size) {
		/* Last slot first: a producer waiting at consumer_tail sees
		 * the group free only when all of it is. */
		for (unsigned i = head; i-- > r->consumer_tail;)
			atomic_store_explicit(&r->queue[i], NULL,
					      memory_order_relaxed);
		r->consumer_tail = head;
	}
	if (head == r->size) {
		head = 0;
		r->consumer_tail = 0;
	}
	r->consumer_head = head;
	return obj;
}

int TL_FN(_try_enqueue)(struct TL_RING *ring, void *obj)
{
	if (obj == NULL)
		return -EINVAL;
	TL_LOCK(&ring->producer_lock);
	int rc = produce_locked(ring, obj);
	TL_UNLOCK(&ring->producer_lock);
	return rc;
}

int TL_FN(_try_dequeue)(struct TL_RING *ring, void **objp)
{
	TL_LOCK(&ring->consumer_lock);
	void *obj = take_locked(ring);
	TL_UNLOCK(&ring->consumer_lock);
	if (obj == NULL)
		return -EAGAIN;
	*objp = obj;
	return 0;
}

int TL_FN(_enqueue_bulk)(struct TL_RING *ring, void *const *objs, unsigned n)
{
	if (n > ring->size)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (objs[i] == NULL)
			return -EINVAL;

	int rc = 0;
	TL_LOCK(&ring->producer_lock);
	/* All or nothing: every one of the next n slots must be free. Only
	 * the producer (us, under the lock) fills slots, so once seen free
	 * they stay free. The last slot is checked first: on a full ring it
	 * is the one most likely still occupied. */
	unsigned idx = ring->producer;
	for (unsigned i = n; i-- > 0;) {
		unsigned s = idx + i;
		if (s >= ring->size)
			s -= ring->size;
		if (atomic_load_explicit(&ring->queue[s],
					 memory_order_relaxed)) {
			rc = -EAGAIN;
			break;
		}
	}
	if (rc == 0)
		for (unsigned i = 0; i < n; i++)
			(void)produce_locked(ring, objs[i]);
	TL_UNLOCK(&ring->producer_lock);
	return rc;
}

unsigned TL_FN(_dequeue_burst)(struct TL_RING *ring, void **objs, unsigned n)
{
	unsigned k = 0;

	TL_LOCK(&ring->consumer_lock);
	while (k < n) {
		void *obj = take_locked(ring);
		if (obj == NULL)
			break;
		objs[k++] = obj;
	}
	TL_UNLOCK(&ring->consumer_lock);
	return k;
}
