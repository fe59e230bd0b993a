/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mutex_ring.c - the one-mutex baseline ring (baselines.h).
 *
 * Design: head and tail are free-running unsigned counters (tail - head is
 * the fill level, correct across wrap-around), the slot of a position is
 * position & mask. Everything is plain memory guarded by one
 * PTHREAD_MUTEX_DEFAULT mutex; the counters and the lock share a cache
 * line on purpose: every operation touches all of them anyway.
 */
#include "baselines.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct bench_mutex_ring {
	pthread_mutex_t lock;
	unsigned head; /* next position to dequeue */
	unsigned tail; /* next position to enqueue */
	unsigned mask; /* capacity - 1 */
	void **slots;
};

int bench_mutex_ring_create(struct bench_mutex_ring **ringp, unsigned capacity)
{
	if (ringp == NULL || capacity < 2 || (capacity & (capacity - 1)) != 0)
		return -EINVAL;
	struct bench_mutex_ring *r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->slots = calloc(capacity, sizeof(void *));
	if (r->slots == NULL || pthread_mutex_init(&r->lock, NULL) != 0) {
		free(r->slots);
		free(r);
		return -ENOMEM;
	}
	r->mask = capacity - 1;
	*ringp = r;
	return 0;
}

void bench_mutex_ring_destroy(struct bench_mutex_ring *ring)
{
	if (ring == NULL)
		return;
	pthread_mutex_destroy(&ring->lock);
	free(ring->slots);
	free(ring);
}

int bench_mutex_ring_try_enqueue(struct bench_mutex_ring *ring, void *obj)
{
	int rc = -EAGAIN;

	pthread_mutex_lock(&ring->lock);
	if (ring->tail - ring->head <= ring->mask) {
		ring->slots[ring->tail & ring->mask] = obj;
		ring->tail++;
		rc = 0;
	}
	pthread_mutex_unlock(&ring->lock);
	return rc;
}

int bench_mutex_ring_try_dequeue(struct bench_mutex_ring *ring, void **objp)
{
	int rc = -EAGAIN;

	pthread_mutex_lock(&ring->lock);
	if (ring->tail != ring->head) {
		*objp = ring->slots[ring->head & ring->mask];
		ring->head++;
		rc = 0;
	}
	pthread_mutex_unlock(&ring->lock);
	return rc;
}

int bench_mutex_ring_enqueue_bulk(struct bench_mutex_ring *ring,
				  void *const *objs, unsigned n)
{
	int rc = -EAGAIN;

	pthread_mutex_lock(&ring->lock);
	if (ring->mask + 1 - (ring->tail - ring->head) >= n) {
		for (unsigned i = 0; i < n; i++)
			ring->slots[(ring->tail + i) & ring->mask] = objs[i];
		ring->tail += n;
		rc = 0;
	}
	pthread_mutex_unlock(&ring->lock);
	return rc;
}

unsigned bench_mutex_ring_dequeue_burst(struct bench_mutex_ring *ring,
					void **objs, unsigned n)
{
	pthread_mutex_lock(&ring->lock);
	unsigned avail = ring->tail - ring->head;
	unsigned k = avail < n ? avail : n;
	for (unsigned i = 0; i < k; i++)
		objs[i] = ring->slots[(ring->head + i) & ring->mask];
	ring->head += k;
	pthread_mutex_unlock(&ring->lock);
	return k;
}
