/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * baselines.h - the ring benchmark's baselines: what grain_ring has to
 * beat to be worth its complexity. All are bounded rings of pointers with
 * the same calls.
 *
 * bench_mutex_ring (mutex_ring.c): the simplest correct bounded queue, a
 * power-of-two ring under one pthread mutex that every call, single or
 * batch, takes once. Any pointer may be stored, NULL included; every slot
 * is usable.
 *
 * bench_twolock_ring (twolock_ring.c) and bench_twolock_pspin_ring
 * (twolock_pspin.c), one algorithm (twolock_body.h) after Linux
 * include/linux/ptr_ring.h with two locks: twolock_ring's are
 * grain_spinlocks, whose waiters yield the CPU after a short spin;
 * twolock_pspin's are pthread spinlocks, whose waiters spin until the lock
 * is free, through a preempted holder's whole time slice. Producers
 * serialise on one lock, consumers on the other, each on
 * its own cache line with its own index. Neither side reads the other's
 * index: a slot holding NULL is free, anything else is an object, hence
 * NULL cannot be stored. A consumer clears the slots it has taken in groups
 * of zero_batch (16 by default: two cache lines of pointers), last slot
 * first, so that a producer waiting on a full ring sees the group's first
 * slot free only once the whole group is, and the two sides stop bouncing
 * one cache line slot by slot. The cost: up to zero_batch - 1 taken slots
 * may still look occupied, so the usable capacity lies between capacity -
 * zero_batch + 1 and capacity.
 *
 * bench_scq_ring (scq_ring.c): a prototype, not a baseline: claims by
 * fetch-and-add tickets that a dequeuer may give up, after the SCQ queue
 * (see its file for the design and what it leaves out). Capacity a power
 * of two >= 4; any pointer may be stored.
 *
 * Synchronization, every ring: any enqueue or dequeue may run concurrently
 * with any other (one mutex; the producer or the consumer lock), create and
 * destroy with nothing on the same ring. An enqueue happens-before the
 * dequeue that returns its object. The calls, X being any of the rings:
 *   X_create        an empty ring: 0, -EINVAL or -ENOMEM. mutex: capacity a
 *                   power of two >= 2; two-lock: any capacity >= 2, and
 *                   zero_batch (0: 16; cut to 1 above capacity / 2)
 *   X_destroy       free it; NULL is a no-op
 *   X_try_enqueue   one object: 0, or -EAGAIN if full (two-lock: -EINVAL
 *                   for NULL)
 *   X_try_dequeue   the oldest object into *objp: 0, or -EAGAIN if empty
 *   X_enqueue_bulk  all n objects in order under one lock, or none: 0 or
 *                   -EAGAIN (two-lock: -EINVAL for a NULL or n > capacity)
 *   X_dequeue_burst up to n objects, oldest first, under one lock (ptr_ring's
 *                   consume_batched): how many
 */
#ifndef GRAIN_BENCH_BASELINES_H
#define GRAIN_BENCH_BASELINES_H

struct bench_mutex_ring;
struct bench_twolock_ring;
struct bench_twolock_pspin_ring;
struct bench_scq_ring;

int bench_mutex_ring_create(struct bench_mutex_ring **ringp, unsigned capacity);
void bench_mutex_ring_destroy(struct bench_mutex_ring *ring);
int bench_mutex_ring_try_enqueue(struct bench_mutex_ring *ring, void *obj);
int bench_mutex_ring_try_dequeue(struct bench_mutex_ring *ring, void **objp);
int bench_mutex_ring_enqueue_bulk(struct bench_mutex_ring *ring,
				  void *const *objs, unsigned n);
unsigned bench_mutex_ring_dequeue_burst(struct bench_mutex_ring *ring,
					void **objs, unsigned n);

int bench_twolock_ring_create(struct bench_twolock_ring **ringp,
			      unsigned capacity, unsigned zero_batch);
void bench_twolock_ring_destroy(struct bench_twolock_ring *ring);
int bench_twolock_ring_try_enqueue(struct bench_twolock_ring *ring, void *obj);
int bench_twolock_ring_try_dequeue(struct bench_twolock_ring *ring,
				   void **objp);
int bench_twolock_ring_enqueue_bulk(struct bench_twolock_ring *ring,
				    void *const *objs, unsigned n);
unsigned bench_twolock_ring_dequeue_burst(struct bench_twolock_ring *ring,
					  void **objs, unsigned n);

int bench_twolock_pspin_ring_create(struct bench_twolock_pspin_ring **ringp,
				    unsigned capacity, unsigned zero_batch);
void bench_twolock_pspin_ring_destroy(struct bench_twolock_pspin_ring *ring);
int bench_twolock_pspin_ring_try_enqueue(struct bench_twolock_pspin_ring *ring,
					 void *obj);
int bench_twolock_pspin_ring_try_dequeue(struct bench_twolock_pspin_ring *ring,
					 void **objp);
int bench_twolock_pspin_ring_enqueue_bulk(struct bench_twolock_pspin_ring *ring,
					  void *const *objs, unsigned n);
unsigned
bench_twolock_pspin_ring_dequeue_burst(struct bench_twolock_pspin_ring *ring,
				       void **objs, unsigned n);

int bench_scq_ring_create(struct bench_scq_ring **ringp, unsigned capacity);
void bench_scq_ring_destroy(struct bench_scq_ring *ring);
int bench_scq_ring_try_enqueue(struct bench_scq_ring *ring, void *obj);
int bench_scq_ring_try_dequeue(struct bench_scq_ring *ring, void **objp);
int bench_scq_ring_enqueue_bulk(struct bench_scq_ring *ring, void *const *objs,
				unsigned n);
unsigned bench_scq_ring_dequeue_burst(struct bench_scq_ring *ring, void **objs,
				      unsigned n);

#endif /* GRAIN_BENCH_BASELINES_H */
