/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_null.c - the NULL rule of common.h, section 1, for every call of
 * ring.h, prio.h, lock.h and hash.h: no call crashes on a NULL pointer;
 * int calls return -EINVAL, queries read NULL as an empty object of
 * capacity 0, void calls do nothing, and a failed call leaves its outputs
 * and the object it was given unchanged.
 */
#include <grain/hash.h>
#include <grain/lock.h>
#include <grain/prio.h>
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <stdint.h>

Test(null, ring_queries_read_an_empty_ring_of_capacity_zero)
{
	uint64_t enq = 7, deq = 9;

	cr_assert_eq(grain_ring_capacity(NULL), 0u);
	cr_assert_eq(grain_ring_count(NULL), 0u);
	cr_assert_eq(grain_ring_free_count(NULL), 0u);
	cr_assert(grain_ring_empty(NULL));
	cr_assert(grain_ring_full(NULL), "count 0 == capacity 0");
	grain_ring_totals(NULL, &enq, &deq);
	cr_assert_eq(enq, 0u);
	cr_assert_eq(deq, 0u);
	grain_ring_totals(NULL, NULL, NULL);
	grain_ring_destroy(NULL);
}

Test(null, ring_operations_return_einval)
{
	void *obj = (void *)&obj, *objs[2] = { obj, obj };

	cr_assert_eq(grain_ring_memsize(0), 0u);
	cr_assert_eq(grain_ring_init(NULL, 8, 0), -EINVAL);
	cr_assert_eq(grain_ring_create(NULL, 8, 0, NULL), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue(NULL, obj), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue(NULL, &obj), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_bulk(NULL, objs, 2), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_bulk(NULL, objs, 2), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(NULL, objs, 2), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst(NULL, objs, 2), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_wait(NULL, obj, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_wait(NULL, &obj, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(NULL, objs, 2, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(NULL, objs, 2, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_burst_wait(NULL, objs, 2, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_burst_wait(NULL, objs, 2, 0), -EINVAL);
	cr_assert_eq(obj, (void *)&obj, "a failed dequeue writes nothing");
}

Test(null, ring_null_outputs_leave_the_ring_unchanged)
{
	struct grain_ring *r = NULL;
	void *obj = (void *)&r;

	cr_assert_eq(grain_ring_create(&r, 4, GRAIN_RING_WAIT, NULL), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, obj), 0);
	cr_assert_eq(grain_ring_try_dequeue(r, NULL), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_wait(r, NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_count(r), 1u, "nothing taken or added");
	uint64_t enq = 0;
	grain_ring_totals(r, &enq, NULL);
	cr_assert_eq(enq, 1u, "one output alone is filled");
	grain_ring_destroy(r);
}

Test(null, prio)
{
	struct grain_prio_config cfg = { .bands = 2,
					 .capacity = 4,
					 .flags = GRAIN_PRIO_WAIT };
	struct grain_prio *p = NULL;
	void *obj = (void *)&p, *objs[2] = { obj, obj };
	unsigned band = 99;

	cr_assert_eq(grain_prio_memsize(NULL), 0u);
	cr_assert_eq(grain_prio_init(NULL, &cfg), -EINVAL);
	cr_assert_eq(grain_prio_create(NULL, &cfg, NULL), -EINVAL);
	cr_assert_eq(grain_prio_create(&p, NULL, NULL), -EINVAL);
	cr_assert_null(p, "untouched on error");
	cr_assert_eq(grain_prio_bands(NULL), 0u);
	cr_assert_eq(grain_prio_backlog(NULL), 0u);
	cr_assert_eq(grain_prio_try_enqueue(NULL, 0, obj), -EINVAL);
	cr_assert_eq(grain_prio_try_enqueue_prio(NULL, 0, obj), -EINVAL);
	cr_assert_eq(grain_prio_try_enqueue_burst(NULL, 0, objs, 2), -EINVAL);
	cr_assert_eq(grain_prio_try_dequeue(NULL, &obj, &band), -EINVAL);
	cr_assert_eq(grain_prio_try_dequeue_burst(NULL, objs, 2), -EINVAL);
	cr_assert_eq(grain_prio_dequeue_wait(NULL, &obj, &band, 0), -EINVAL);
	cr_assert_eq(grain_prio_dequeue_burst_wait(NULL, objs, 2, 0), -EINVAL);
	struct grain_prio_band_stats st = { 0 };
	cr_assert_eq(grain_prio_stats(NULL, 0, &st), -EINVAL);
	cr_assert_eq(band, 99u, "a failed dequeue writes no band");
	grain_prio_destroy(NULL);

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, obj), 0);
	cr_assert_eq(grain_prio_try_dequeue(p, NULL, &band), -EINVAL);
	cr_assert_eq(grain_prio_try_dequeue_burst(p, NULL, 1), -EINVAL);
	cr_assert_eq(grain_prio_dequeue_wait(p, NULL, NULL, 0), -EINVAL);
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, NULL, 1), -EINVAL);
	cr_assert_eq(grain_prio_stats(p, 0, NULL), -EINVAL);
	cr_assert_eq(grain_prio_backlog(p), 1u, "nothing taken or added");
	cr_assert_eq(grain_prio_try_dequeue(p, &obj, NULL), 0,
		     "the band output is optional");
	cr_assert_eq(obj, (void *)&p);
	grain_prio_destroy(p);
}

Test(null, lock)
{
	struct grain_spinlock l = GRAIN_SPINLOCK_INIT;

	grain_spin_init(NULL);
	cr_assert_not(grain_spin_trylock(NULL));
	grain_spin_lock(NULL);
	grain_spin_unlock(NULL);
	cr_assert(grain_spin_trylock(&l), "the real lock is unaffected");
	grain_spin_unlock(&l);
}

Test(null, hash)
{
	struct grain_hash_key key = { 1, 2 };

	cr_assert_eq(grain_hash_key_random(NULL), -EINVAL);
	cr_assert_eq(grain_siphash(NULL, 0, NULL), 0u);
	cr_assert_eq(grain_siphash(NULL, 8, &key), 0u);
	cr_assert_eq(grain_siphash(NULL, 0, &key), grain_siphash("", 0, &key),
		     "NULL data of length 0 is the empty message");
}
