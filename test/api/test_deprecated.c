/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_deprecated.c - the names of 0.3.0 that lacked try_ still work: each
 * deprecated alias does what its try_ call does, on the same ring or queue,
 * with the same results and errors. (The deprecation warnings are what the
 * aliases are for; this file alone turns them off.)
 */
#include <grain/prio.h>
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <stdint.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void *tok(uintptr_t i)
{
	return (void *)(i + 1);
}

Test(deprecated, ring_bulk_and_burst)
{
	struct grain_ring *r = NULL;
	void *in[4] = { tok(0), tok(1), tok(2), tok(3) }, *out[4] = { 0 };

	cr_assert_eq(grain_ring_create(&r, 4, GRAIN_RING_MPMC, NULL), 0);
	cr_assert_eq(grain_ring_enqueue_bulk(r, in, 3), 0);
	cr_assert_eq(grain_ring_enqueue_bulk(r, in, 2), -EAGAIN,
		     "all or nothing: one slot left");
	cr_assert_eq(grain_ring_enqueue_burst(r, in + 3, 1), 1);
	cr_assert_eq(grain_ring_enqueue_burst(r, in, 1), 0, "full");
	cr_assert_eq(grain_ring_dequeue_bulk(r, out, 2), 0);
	cr_assert_eq(grain_ring_dequeue_burst(r, out + 2, 4), 2);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(out[i], in[i], "FIFO order at %u", i);
	cr_assert_eq(grain_ring_dequeue_bulk(r, out, 1), -EAGAIN);
	cr_assert_eq(grain_ring_enqueue_bulk(NULL, in, 1), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_burst(NULL, out, 1), -EINVAL);
	grain_ring_destroy(r);
}

Test(deprecated, prio_enqueue_and_burst)
{
	struct grain_prio_config cfg = { .bands = 3, .capacity = 2 };
	struct grain_prio *p = NULL;
	void *in[2] = { tok(0), tok(1) }, *out[4] = { 0 };

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cr_assert_eq(grain_prio_enqueue(p, 2, tok(9)), 0);
	cr_assert_eq(grain_prio_enqueue_prio(p, 6, tok(8)), 0,
		     "priority 6 maps to band 0");
	cr_assert_eq(grain_prio_enqueue_burst(p, 1, in, 2), 2);
	cr_assert_eq(grain_prio_enqueue(p, 1, tok(7)), -EAGAIN, "band full");
	cr_assert_eq(grain_prio_dequeue_burst(p, out, 4), 4);
	cr_assert_eq(out[0], tok(8), "band 0 first");
	cr_assert_eq(out[1], in[0]);
	cr_assert_eq(out[2], in[1]);
	cr_assert_eq(out[3], tok(9), "band 2 last");
	cr_assert_eq(grain_prio_enqueue(NULL, 0, NULL), -EINVAL);
	cr_assert_eq(grain_prio_dequeue_burst(NULL, out, 1), -EINVAL);
	grain_prio_destroy(p);
}
