/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file mutex_ring.h
 * @brief Baseline: a power-of-two ring of pointers under one pthread mutex.
 *
 * The simplest correct bounded queue: every operation, single or batch,
 * takes the one mutex, moves the positions and the pointers, and releases
 * it. It is what grain_ring has to beat to be worth its complexity.
 *
 * Synchronization
 * | call                       | may run concurrently with        |
 * |----------------------------|----------------------------------|
 * | every operation            | every operation (one mutex)      |
 * | create, destroy            | nothing on the same ring         |
 *
 * Ordering: the mutex orders everything; an enqueue happens-before the
 * dequeue that returns its object. Any pointer may be stored, NULL
 * included. Capacity: a power of two, every slot usable.
 *
 * Batch operations take the mutex once for the whole batch:
 *   bench_mutex_ring_enqueue_bulk  - all n objects or none (-EAGAIN);
 *   bench_mutex_ring_dequeue_burst - as many as are queued, up to n.
 */
#ifndef GRAIN_BENCH_MUTEX_RING_H
#define GRAIN_BENCH_MUTEX_RING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bench_mutex_ring;

/**
 * bench_mutex_ring_create - allocate an empty ring.
 * @param capacity a power of two >= 2.
 * @return 0, -EINVAL (bad capacity or NULL @p ringp) or -ENOMEM.
 */
int bench_mutex_ring_create(struct bench_mutex_ring **ringp, unsigned capacity);

/** bench_mutex_ring_destroy - free the ring; NULL is a no-op. */
void bench_mutex_ring_destroy(struct bench_mutex_ring *ring);

/** Add one object. @return 0, or -EAGAIN if the ring is full. */
int bench_mutex_ring_try_enqueue(struct bench_mutex_ring *ring, void *obj);

/** Remove the oldest object into @p objp. @return 0, or -EAGAIN if empty. */
int bench_mutex_ring_try_dequeue(struct bench_mutex_ring *ring, void **objp);

/**
 * Add all @p n objects in order under one lock, or none.
 * @return 0, or -EAGAIN if fewer than @p n slots are free.
 */
int bench_mutex_ring_enqueue_bulk(struct bench_mutex_ring *ring,
				  void *const *objs, unsigned n);

/**
 * Remove up to @p n objects, oldest first, under one lock.
 * @return the number removed (0 if empty).
 */
unsigned bench_mutex_ring_dequeue_burst(struct bench_mutex_ring *ring,
					void **objs, unsigned n);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_MUTEX_RING_H */
