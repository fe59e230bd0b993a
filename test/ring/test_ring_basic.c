/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_basic.c - grain_ring single-thread semantics: FIFO order,
 * full/empty, bulk all-or-nothing, burst partial, NULL objects, position
 * wrap past 2^32 and 2^64, argument checking and allocation failure.
 */
#define _GNU_SOURCE
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdalign.h>

#include "../common/test_util.h"

static const unsigned all_modes[] = {
	GRAIN_RING_MPMC,
	GRAIN_RING_MPSC,
	GRAIN_RING_SPMC,
	GRAIN_RING_SPSC,
	GRAIN_RING_MPMC | GRAIN_RING_WAIT,
	GRAIN_RING_SPSC | GRAIN_RING_WAIT,
};
#define NMODES (sizeof(all_modes) / sizeof(all_modes[0]))

static struct grain_ring *make(unsigned cap, unsigned flags)
{
	struct grain_ring *r = NULL;

	cr_assert_eq(grain_ring_create(&r, cap, flags, NULL), 0);
	cr_assert_not_null(r);
	return r;
}

static void *tok(uintptr_t v)
{
	return (void *)v;
}

ParameterizedTestParameters(ring_basic, fifo)
{
	return cr_make_param_array(unsigned, (void *)all_modes, NMODES);
}

ParameterizedTest(unsigned *mode, ring_basic, fifo)
{
	struct grain_ring *r = make(16, *mode);
	void *out;
	uintptr_t next_in = 1, next_out = 1;

	/* Interleave so the ring wraps many times at every fill level. */
	for (unsigned round = 0; round < 200; round++) {
		unsigned puts = 1 + round % 16;
		for (unsigned i = 0; i < puts && !grain_ring_full(r); i++)
			cr_assert_eq(grain_ring_try_enqueue(r, tok(next_in++)),
				     0);
		unsigned gets = 1 + (round * 7) % 16;
		for (unsigned i = 0; i < gets && !grain_ring_empty(r); i++) {
			cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
			cr_assert_eq((uintptr_t)out, next_out++);
		}
		cr_assert_eq(grain_ring_count(r), next_in - next_out);
	}
	grain_ring_destroy(r);
}

ParameterizedTestParameters(ring_basic, full_and_empty)
{
	return cr_make_param_array(unsigned, (void *)all_modes, NMODES);
}

ParameterizedTest(unsigned *mode, ring_basic, full_and_empty)
{
	struct grain_ring *r = make(8, *mode);
	void *out = tok(99);

	cr_assert_eq(grain_ring_capacity(r), 8u);
	cr_assert(grain_ring_empty(r));
	cr_assert_not(grain_ring_full(r));
	cr_assert_eq(grain_ring_try_dequeue(r, &out), -EAGAIN);
	cr_assert_eq((uintptr_t)out, 99u, "a failed dequeue leaves *objp");
	for (uintptr_t i = 0; i < 8; i++) {
		cr_assert_eq(grain_ring_count(r), i);
		cr_assert_eq(grain_ring_free_count(r), 8 - i);
		cr_assert_eq(grain_ring_try_enqueue(r, tok(i + 1)), 0);
	}
	cr_assert(grain_ring_full(r), "every slot is usable");
	cr_assert_eq(grain_ring_free_count(r), 0u);
	cr_assert_eq(grain_ring_try_enqueue(r, tok(100)), -EAGAIN);
	cr_assert_eq(grain_ring_count(r), 8u);
	for (uintptr_t i = 0; i < 8; i++) {
		cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
		cr_assert_eq((uintptr_t)out, i + 1);
	}
	cr_assert(grain_ring_empty(r));
	cr_assert_eq(grain_ring_try_dequeue(r, &out), -EAGAIN);
	grain_ring_destroy(r);
}

ParameterizedTestParameters(ring_basic, bulk_all_or_nothing)
{
	return cr_make_param_array(unsigned, (void *)all_modes, NMODES);
}

ParameterizedTest(unsigned *mode, ring_basic, bulk_all_or_nothing)
{
	struct grain_ring *r = make(8, *mode);
	void *in[8], *out[8];

	for (uintptr_t i = 0; i < 8; i++)
		in[i] = tok(i + 10);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 5), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in + 5, 4), -EAGAIN);
	cr_assert_eq(grain_ring_count(r), 5u, "a failed bulk adds nothing");
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in + 5, 3), 0);
	cr_assert(grain_ring_full(r));
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 1), -EAGAIN);

	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 6), 0);
	for (unsigned i = 0; i < 6; i++)
		cr_assert_eq(out[i], in[i]);
	out[0] = NULL;
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 3), -EAGAIN);
	cr_assert_null(out[0], "a failed bulk writes nothing");
	cr_assert_eq(grain_ring_count(r), 2u, "a failed bulk removes nothing");
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 2), 0);
	cr_assert_eq(out[0], in[6]);
	cr_assert_eq(out[1], in[7]);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 0), 0);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 0), 0);
	cr_assert(grain_ring_empty(r));
	grain_ring_destroy(r);
}

ParameterizedTestParameters(ring_basic, burst_partial)
{
	return cr_make_param_array(unsigned, (void *)all_modes, NMODES);
}

ParameterizedTest(unsigned *mode, ring_basic, burst_partial)
{
	struct grain_ring *r = make(8, *mode);
	void *in[20], *out[20];

	for (uintptr_t i = 0; i < 20; i++)
		in[i] = tok(i + 1);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, 5), 5);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in + 5, 10), 3,
		     "burst fills what is free");
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in + 8, 10), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 3), 3);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out + 3, 20), 5);
	for (unsigned i = 0; i < 8; i++)
		cr_assert_eq(out[i], in[i]);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 20), 0);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, 0), 0);
	grain_ring_destroy(r);
}

Test(ring_basic, null_round_trips)
{
	struct grain_ring *r = make(4, GRAIN_RING_MPMC);
	void *out = tok(1);
	void *nulls[3] = { NULL, NULL, NULL },
	     *back[3] = { tok(1), tok(1), tok(1) };

	cr_assert_eq(grain_ring_try_enqueue(r, NULL), 0);
	cr_assert_eq(grain_ring_count(r), 1u, "NULL is an object, not a hole");
	cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
	cr_assert_null(out);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, nulls, 3), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, back, 3), 3);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_null(back[i]);
	grain_ring_destroy(r);
}

/* Start the positions just below a wrap and run many laps across it. */
static void wrap_run(uint64_t start, unsigned mode)
{
	struct grain_ring *r = make(8, mode);
	uintptr_t next_in = 1, next_out = 1;
	void *batch[5], *out;

	grain_impl_ring_reset(r, start);
	for (unsigned lap = 0; lap < 64; lap++) {
		for (unsigned i = 0; i < 5; i++)
			batch[i] = tok(next_in++);
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, batch, 5), 0);
		cr_assert_eq(grain_ring_count(r), 5u);
		cr_assert_eq(grain_ring_try_enqueue(r, tok(next_in++)), 0);
		cr_assert_eq(grain_ring_try_dequeue_burst(r, batch, 4), 4);
		for (unsigned i = 0; i < 4; i++)
			cr_assert_eq((uintptr_t)batch[i], next_out++);
		while (grain_ring_try_dequeue(r, &out) == 0)
			cr_assert_eq((uintptr_t)out, next_out++);
		cr_assert(grain_ring_empty(r));
	}
	uint64_t tail = atomic_load(&r->prod.pos);
	cr_assert_gt(tail - start, 64u * 6 - 1, "the run crossed the wrap");
	grain_ring_destroy(r);
}

ParameterizedTestParameters(ring_basic, wrap_32)
{
	return cr_make_param_array(unsigned, (void *)all_modes, NMODES);
}

ParameterizedTest(unsigned *mode, ring_basic, wrap_32)
{
	wrap_run(UINT32_MAX - 20, *mode);
	wrap_run((uint64_t)UINT32_MAX + 1 - 3, *mode);
}

ParameterizedTestParameters(ring_basic, wrap_64)
{
	return cr_make_param_array(unsigned, (void *)all_modes, NMODES);
}

ParameterizedTest(unsigned *mode, ring_basic, wrap_64)
{
	wrap_run(UINT64_MAX - 20, *mode);
	wrap_run(UINT64_MAX - 2, *mode);
}

Test(ring_basic, memsize)
{
	cr_assert_eq(grain_ring_memsize(0), 0u);
	cr_assert_eq(grain_ring_memsize(1), 0u, "capacity 1 cannot work");
	cr_assert_eq(grain_ring_memsize(3), 0u);
	cr_assert_eq(grain_ring_memsize(1000), 0u);
	cr_assert_eq(grain_ring_memsize(0x80000001u), 0u);
	cr_assert_eq(grain_ring_memsize(0xFFFFFFFFu), 0u);
	size_t m2 = grain_ring_memsize(2), m1024 = grain_ring_memsize(1024);
	cr_assert_gt(m2, 0u);
	cr_assert_eq(m2 % GRAIN_CACHELINE, 0u);
	cr_assert_geq(m1024,
		      sizeof(struct grain_ring) + 1024 * 2 * sizeof(void *));
	cr_assert_gt(grain_ring_memsize(GRAIN_RING_MAX_CAPACITY), 0u);
}

Test(ring_basic, init_in_caller_memory)
{
	size_t size = grain_ring_memsize(32);
	void *mem = aligned_alloc(GRAIN_CACHELINE, size);
	struct grain_ring *r = mem;
	void *out;

	cr_assert_eq(grain_ring_init(r, 32, GRAIN_RING_SPSC), 0);
	cr_assert_eq(grain_ring_capacity(r), 32u);
	for (uintptr_t i = 0; i < 32; i++)
		cr_assert_eq(grain_ring_try_enqueue(r, tok(i)), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tok(0)), -EAGAIN);
	for (uintptr_t i = 0; i < 32; i++) {
		cr_assert_eq(grain_ring_try_dequeue(r, &out), 0);
		cr_assert_eq((uintptr_t)out, i);
	}
	grain_ring_destroy(r); /* not created: must leave the memory alone */
	cr_assert_eq(grain_ring_init(r, 32, GRAIN_RING_MPMC), 0);
	free(mem);
}

Test(ring_basic, bad_arguments)
{
	alignas(GRAIN_CACHELINE) static unsigned char mem[4096];
	struct grain_ring *r = (struct grain_ring *)(void *)mem;
	void *out, *objs[4] = { 0 };

	cr_assert_eq(grain_ring_init(NULL, 8, 0), -EINVAL);
	cr_assert_eq(grain_ring_init(r, 0, 0), -EINVAL);
	cr_assert_eq(grain_ring_init(r, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_init(r, 12, 0), -EINVAL);
	cr_assert_eq(grain_ring_init(r, 8, 0x100), -EINVAL, "unknown flag");
	cr_assert_eq(grain_ring_init((struct grain_ring *)(void *)(mem + 8), 8,
				     0),
		     -EINVAL, "misaligned memory");
	cr_assert_eq(grain_ring_create(NULL, 8, 0, NULL), -EINVAL);
	struct grain_ring *rp = tok(1);
	cr_assert_eq(grain_ring_create(&rp, 6, 0, NULL), -EINVAL);
	cr_assert_eq(grain_ring_create(&rp, 8, 0x80, NULL), -EINVAL);
	cr_assert_eq((uintptr_t)rp, 1u, "untouched on error");

	cr_assert_eq(grain_ring_init(r, 4, GRAIN_RING_MPMC), 0);
	cr_assert_eq(grain_ring_try_enqueue(NULL, NULL), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue(NULL, &out), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue(r, NULL), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_bulk(NULL, objs, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 5), -EINVAL,
		     "bulk larger than the ring can never succeed");
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, objs, 5), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, NULL, 2), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(NULL, objs, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, objs, 0x80000000u),
		     -EINVAL);
	cr_assert(grain_ring_empty(r), "no failed call changed the ring");

	/* The _wait calls need GRAIN_RING_WAIT. */
	cr_assert_eq(grain_ring_enqueue_wait(r, NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_wait(r, &out, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_wait(NULL, NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_init(r, 4, GRAIN_RING_MPMC | GRAIN_RING_WAIT),
		     0);
	cr_assert_eq(grain_ring_dequeue_wait(r, NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, objs, 5, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_bulk_wait(r, objs, 5, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, NULL, 2, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_burst_wait(r, objs, 0, 0), -EINVAL);
	cr_assert_eq(grain_ring_dequeue_burst_wait(r, NULL, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_enqueue_bulk_wait(r, objs, 0, 0), 0);
	grain_ring_destroy(NULL);
}

Test(ring_basic, allocation_failure)
{
	struct test_alloc_state st = { .budget = 0 };
	struct grain_alloc a = { test_alloc_fn, test_free_fn, &st };
	struct grain_ring *r = tok(1);

	cr_assert_eq(grain_ring_create(&r, 1024, GRAIN_RING_MPMC, &a), -ENOMEM);
	cr_assert_eq((uintptr_t)r, 1u, "untouched on error");
	cr_assert_eq(st.failures, 1u);
	cr_assert_eq(st.live, 0);

	st.budget = -1;
	cr_assert_eq(grain_ring_create(&r, 1024, GRAIN_RING_MPMC, &a), 0);
	cr_assert_eq(st.live, 1);
	cr_assert_eq(st.live_bytes, grain_ring_memsize(1024));
	cr_assert_eq(((uintptr_t)r) % GRAIN_CACHELINE, 0u);
	cr_assert_eq(grain_ring_try_enqueue(r, tok(5)), 0);
	grain_ring_destroy(r);
	cr_assert_eq(st.live, 0,
		     "destroy returns the memory to the same hooks");
	cr_assert_eq(st.live_bytes, 0u);
}

Test(ring_basic, layout)
{
	/* Producer and consumer state sit on different cache lines, with a
	 * spare line between them against adjacent-line prefetch. */
	cr_assert_geq(offsetof(struct grain_ring, cons) -
			      offsetof(struct grain_ring, prod),
		      2u * GRAIN_CACHELINE);
	cr_assert_eq(sizeof(struct grain_ring) % GRAIN_CACHELINE, 0u);
}

Test(ring_basic, totals)
{
	struct grain_ring *r = make(4, GRAIN_RING_MPMC);
	uint64_t enq, deq;
	void *objs[4] = { 0 };

	grain_ring_totals(r, &enq, &deq);
	cr_assert(enq == 0 && deq == 0);
	for (unsigned i = 0; i < 10; i++) {
		cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 3), 0);
		cr_assert_eq(grain_ring_try_dequeue_burst(r, objs, 2), 2);
		cr_assert_eq(grain_ring_try_dequeue_burst(r, objs, 4), 1);
	}
	cr_assert_eq(grain_ring_try_enqueue(r, NULL), 0);
	grain_ring_totals(r, &enq, &deq);
	cr_assert_eq(enq, 31u);
	cr_assert_eq(deq, 30u);
	/* Counted from init, also when positions start near a wrap. */
	grain_impl_ring_reset(r, UINT64_MAX - 1);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	grain_ring_totals(r, &enq, &deq);
	cr_assert_eq(enq, 4u);
	cr_assert_eq(deq, 0u);
	grain_ring_destroy(r);
}
