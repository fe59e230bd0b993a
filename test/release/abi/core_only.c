/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core_only.c - a program that uses only the core blocks (ring, prio, the
 * spinlock, hashing), linked to libgrain alone.
 * test/release/abi/check_needed.sh checks that it does not load liburcu; it
 * also runs it.
 */
#include <grain/hash.h>
#include <grain/lock.h>
#include <grain/prio.h>
#include <grain/ring.h>

#include <stdio.h>

int main(void)
{
	struct grain_ring *ring = NULL;
	struct grain_prio *prio = NULL;
	struct grain_prio_config cfg = { .bands = 3, .capacity = 4 };
	struct grain_spinlock lock = GRAIN_SPINLOCK_INIT;
	int item = 7;
	void *out = NULL;
	int bad = 0;

	if (grain_ring_create(&ring, 4, GRAIN_RING_MPMC, NULL) != 0)
		return 1;
	bad |= grain_ring_try_enqueue(ring, &item) != 0;
	bad |= grain_ring_try_dequeue(ring, &out) != 0 || out != &item;
	grain_ring_destroy(ring);

	if (grain_prio_create(&prio, &cfg, NULL) != 0)
		return 1;
	bad |= grain_prio_try_enqueue_prio(prio, 0, &item) != 0;
	bad |= grain_prio_try_dequeue(prio, &out, NULL) != 0 || out != &item;
	grain_prio_destroy(prio);

	grain_spin_lock(&lock);
	grain_spin_unlock(&lock);
	bad |= grain_hash_mix64(1) == grain_hash_mix64(2);

	if (bad)
		fprintf(stderr, "core_only: FAILED\n");
	return bad;
}
