/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file twolock_ring.h
 * @brief Baseline: a ring of non-NULL pointers with a producer lock and a
 *        consumer lock, in the style of Linux include/linux/ptr_ring.h.
 *
 * Producers serialise on one grain_spinlock, consumers on another, each on
 * its own cache line with its own index. The two sides never read each
 * other's index: a slot holding NULL is free, anything else is an object.
 * Hence the one restriction: NULL cannot be stored.
 *
 * Batched zeroing (as ptr_ring does): a consumer does not clear each slot
 * as it takes it. It clears the slots it has taken in groups of
 * zero_batch (16 by default: two cache lines of pointers), last slot
 * first, so that a producer waiting on a full ring sees the group's first
 * slot free only once the whole group is, and the two sides stop
 * bouncing the same cache line one slot at a time. The cost: up to
 * zero_batch - 1 taken slots may still look occupied, so the usable
 * capacity lies between capacity - zero_batch + 1 and capacity.
 *
 * Synchronization
 * | call                  | may run concurrently with                   |
 * |-----------------------|---------------------------------------------|
 * | enqueue (any form)    | everything (producer lock)                  |
 * | dequeue (any form)    | everything (consumer lock)                  |
 * | create, destroy       | nothing on the same ring                    |
 *
 * Ordering: an enqueue happens-before the dequeue that returns its object
 * (release store of the slot, acquire load by the consumer).
 *
 * Batch operations take their side's lock once for the whole batch:
 *   bench_twolock_ring_enqueue_bulk  - all n objects or none (-EAGAIN);
 *   bench_twolock_ring_dequeue_burst - as many as are ready, up to n
 *                                     (ptr_ring's consume_batched).
 */
#ifndef GRAIN_BENCH_TWOLOCK_RING_H
#define GRAIN_BENCH_TWOLOCK_RING_H

#ifdef __cplusplus
extern "C" {
#endif

struct bench_twolock_ring;

/**
 * bench_twolock_ring_create - allocate an empty ring.
 * @param capacity    slot count, >= 2 (any value; the benchmark uses 1024).
 * @param zero_batch  slots cleared at once by the consumer; 0 means the
 *                    default (16), and it is cut to 1 if it exceeds
 *                    capacity / 2.
 * @return 0, -EINVAL or -ENOMEM.
 */
int bench_twolock_ring_create(struct bench_twolock_ring **ringp,
			      unsigned capacity, unsigned zero_batch);

/** bench_twolock_ring_destroy - free the ring; NULL is a no-op. */
void bench_twolock_ring_destroy(struct bench_twolock_ring *ring);

/**
 * Add one non-NULL object.
 * @return 0, -EAGAIN if the next slot is occupied, -EINVAL if @p obj is NULL.
 */
int bench_twolock_ring_try_enqueue(struct bench_twolock_ring *ring, void *obj);

/** Remove the oldest object. @return 0, or -EAGAIN if none is ready. */
int bench_twolock_ring_try_dequeue(struct bench_twolock_ring *ring,
				   void **objp);

/**
 * Add all @p n non-NULL objects in order under one lock acquisition, or
 * none. @return 0, -EAGAIN if any of the next @p n slots is occupied,
 * -EINVAL if @p n exceeds the capacity.
 */
int bench_twolock_ring_enqueue_bulk(struct bench_twolock_ring *ring,
				    void *const *objs, unsigned n);

/**
 * Remove up to @p n objects, oldest first, under one lock acquisition.
 * @return the number removed (0 if none is ready).
 */
unsigned bench_twolock_ring_dequeue_burst(struct bench_twolock_ring *ring,
					  void **objs, unsigned n);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_TWOLOCK_RING_H */
