/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_basic.c - grain_ring single-thread semantics: NULL objects,
 * position wrap past 2^32 and 2^64, argument checking and allocation
 * failure, failed calls that leave the ring as it was, a claim whose thread
 * stops before its release (made by hand, as the claim leaves the ring) and
 * the memory size. FIFO order, full and empty, and the limits of single,
 * _bulk and _burst calls, on both kinds of ring: test_ring_ops.c.
 */
#define _GNU_SOURCE
#include <grain/ring.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdalign.h>

#include "../common/test_util.h"
#include "../common/test_table.h"

static const unsigned all_modes[] = {
	GRAIN_RING_MPMC,
	GRAIN_RING_MPSC,
	GRAIN_RING_SPMC,
	GRAIN_RING_SPSC,
	GRAIN_RING_MPMC | GRAIN_RING_WAIT,
	GRAIN_RING_SPSC | GRAIN_RING_WAIT,
};

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

TABLE_PARAMS(ring_basic, wrap_32, all_modes);

ParameterizedTest(unsigned *mode, ring_basic, wrap_32)
{
	wrap_run(UINT32_MAX - 20, *mode);
	wrap_run((uint64_t)UINT32_MAX + 1 - 3, *mode);
}

TABLE_PARAMS(ring_basic, wrap_64, all_modes);

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
	void *out = NULL;

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

TABLE_PARAMS(ring_basic, failed_calls_change_nothing, all_modes);

/* Every -EINVAL and -EAGAIN of the non-blocking calls, and every call of
 * n == 0, on a ring holding three objects across the end of its slot
 * array: each returns its error (or 0), writes no output, and leaves the
 * objects, their order and the totals as they were. */
ParameterizedTest(unsigned *mode, ring_basic, failed_calls_change_nothing)
{
	struct grain_ring *r = make(8, *mode);
	void *in[8], *out[8], *const mark = tok(0xdead);
	uint64_t enq, deq, enq2, deq2;

	grain_impl_ring_reset(r, 6);
	for (uintptr_t i = 0; i < 8; i++) {
		in[i] = tok(i + 1);
		out[i] = mark;
	}
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 3), 0);
	grain_ring_totals(r, &enq, &deq);

	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 9), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, 0x80000000u), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, UINT_MAX), -EINVAL);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue(r, NULL), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 9), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 0x80000000u),
		     -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, NULL, 1), -EINVAL);
	/* Five slots free, three objects ready. */
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 6), -EAGAIN);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 4), -EAGAIN);
	/* n == 0 moves nothing, and needs no array. */
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, NULL, 0), 0);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, NULL, 0), 0);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, NULL, 0), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, NULL, 0), 0);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 0), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 0), 0);

	for (unsigned i = 0; i < 8; i++)
		cr_assert_eq(out[i], mark, "out[%u] written by a failed call",
			     i);
	grain_ring_totals(r, &enq2, &deq2);
	cr_assert_eq(enq2, enq);
	cr_assert_eq(deq2, deq);
	cr_assert_eq(grain_ring_count(r), 3u);

	/* n == INT_MAX is a valid burst: it moves what there is. */
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, INT_MAX), 3);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(out[i], in[i], "the objects stayed in order");
	cr_assert_eq(out[3], mark);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in, INT_MAX), 8);
	cr_assert(grain_ring_full(r));
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 8), 0);
	for (unsigned i = 0; i < 8; i++)
		cr_assert_eq(out[i], in[i]);
	grain_ring_destroy(r);
}

/*
 * A thread descheduled inside a multi-side call, between its claim of a
 * position and its release of the slot, delays only that slot. The claim
 * is made here as the CAS makes it (the side's position moves past the
 * slot, the slot's sequence stays), and the thread "runs again" when the
 * test stores the object and the sequence as its release does.
 */
static const unsigned multi_producer_modes[] = { GRAIN_RING_MPMC,
						 GRAIN_RING_MPSC };
static const unsigned multi_consumer_modes[] = { GRAIN_RING_MPMC,
						 GRAIN_RING_SPMC };

TABLE_PARAMS(ring_basic, stalled_producer_delays_its_slot_only,
	     multi_producer_modes);

ParameterizedTest(unsigned *mode, ring_basic,
		  stalled_producer_delays_its_slot_only)
{
	struct grain_ring *r = make(4, *mode);
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	void *out[4] = { 0 }, *const mark = tok(0xdead);

	grain_impl_ring_reset(r, 3);
	cr_assert_eq(grain_ring_try_enqueue(r, tok(1)), 0);
	/* A producer claims position 4 (slot 0) and stops. */
	uint64_t p = atomic_load(&r->prod.pos);
	atomic_store(&r->prod.pos, p + 1);
	cr_assert_eq(grain_ring_try_enqueue(r, tok(3)), 0,
		     "other producers go on claiming and filling");
	cr_assert_eq(grain_ring_count(r), 3u, "a claimed slot counts as used");
	cr_assert_eq(grain_ring_try_dequeue(r, out), 0);
	cr_assert_eq(out[0], tok(1), "earlier slots are drained");
	out[0] = mark;
	cr_assert_eq(grain_ring_try_dequeue(r, out), -EAGAIN,
		     "the stalled slot is not ready");
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 4), 0,
		     "a burst stops before it");
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 1), -EAGAIN);
	cr_assert_eq(out[0], mark);
	cr_assert_eq(grain_ring_count(r), 2u);

	/* It runs again. */
	slots[p & 3].obj = tok(2);
	atomic_store_explicit(&slots[p & 3].seq, p + 1, memory_order_release);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 4), 2);
	cr_assert_eq(out[0], tok(2), "FIFO: the delayed object first");
	cr_assert_eq(out[1], tok(3));
	cr_assert(grain_ring_empty(r));
	grain_ring_destroy(r);
}

TABLE_PARAMS(ring_basic, stalled_consumer_delays_its_slot_only,
	     multi_consumer_modes);

ParameterizedTest(unsigned *mode, ring_basic,
		  stalled_consumer_delays_its_slot_only)
{
	struct grain_ring *r = make(4, *mode);
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	void *in[4] = { tok(4), tok(5), tok(6), tok(7) }, *out[4];

	grain_impl_ring_reset(r, 3);
	for (uintptr_t i = 1; i <= 3; i++)
		cr_assert_eq(grain_ring_try_enqueue(r, tok(i)), 0);
	/* A consumer claims position 3 (slot 3) and stops before reading. */
	uint64_t p = atomic_load(&r->cons.pos);
	atomic_store(&r->cons.pos, p + 1);
	cr_assert_eq(grain_ring_try_dequeue_burst(r, out, 4), 2,
		     "other consumers go on draining");
	cr_assert_eq(out[0], tok(2));
	cr_assert_eq(out[1], tok(3));
	/* Positions 6 and 7: slot 2 is free, slot 3 is still being read. */
	cr_assert_eq(grain_ring_try_enqueue(r, in[0]), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, in[1]), -EAGAIN,
		     "the next slot's consumer has not finished with it");
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in + 1, 1), -EAGAIN);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in + 1, 3), 0);

	/* It reads its object and releases the slot. */
	cr_assert_eq(slots[p & 3].obj, tok(1), "the slot was not overwritten");
	atomic_store_explicit(&slots[p & 3].seq, p + 4, memory_order_release);
	cr_assert_eq(grain_ring_try_enqueue_burst(r, in + 1, 3), 3);
	cr_assert(grain_ring_full(r));
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 4), 0);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(out[i], in[i]);
	grain_ring_destroy(r);
}

/*
 * ring.h, "Snapshots": a slot that a multi consumer has claimed but not
 * yet emptied counts as free in count() and free_count(), though no
 * enqueue can have it until that consumer is done.
 */
TABLE_PARAMS(ring_basic, consumer_claim_counts_as_free, multi_consumer_modes);

ParameterizedTest(unsigned *mode, ring_basic, consumer_claim_counts_as_free)
{
	struct grain_ring *r = make(4, *mode);
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	void *in[3] = { tok(3), tok(4), tok(5) }, *out[4];

	cr_assert_eq(grain_ring_try_enqueue(r, tok(1)), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, tok(2)), 0);
	/* A consumer claims position 0 and stops before reading it. */
	atomic_store(&r->cons.pos, 1);
	cr_assert_eq(grain_ring_count(r), 1u, "claimed, unread: not counted");
	cr_assert_eq(grain_ring_free_count(r), 3u);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 3), -EAGAIN,
		     "slot 0 is not free yet");
	cr_assert_eq(grain_ring_count(r), 1u, "the failed bulk moved nothing");
	/* The consumer reads its object and releases the slot. */
	cr_assert_eq(slots[0].obj, tok(1));
	atomic_store_explicit(&slots[0].seq, 4, memory_order_release);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, in, 3), 0);
	cr_assert(grain_ring_full(r));
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, out, 4), 0);
	cr_assert_eq(out[0], tok(2));
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(out[i + 1], in[i]);
	grain_ring_destroy(r);
}

Test(ring_basic, memsize_is_the_documented_size)
{
	/* Every power of two in [2, 2^31]: a multiple of the cache line,
	 * and on LP64 a header of 5 lines plus 16 bytes per slot. */
	for (unsigned shift = 1; shift <= 31; shift++) {
		unsigned cap = 1u << shift;
		size_t m = grain_ring_memsize(cap);
		uint64_t exact = 5 * GRAIN_CACHELINE + (uint64_t)cap * 16;

		cr_assert_gt(m, 0u, "capacity %u", cap);
		cr_assert_eq(m % GRAIN_CACHELINE, 0u, "capacity %u", cap);
		cr_assert_geq(
			m, sizeof(struct grain_ring) +
				   cap * sizeof(struct grain_impl_ring_slot));
		if (sizeof(void *) == 8) {
			exact = (exact + GRAIN_CACHELINE - 1) /
				GRAIN_CACHELINE * GRAIN_CACHELINE;
			cr_assert_eq(m, exact, "capacity %u: %zu bytes", cap,
				     m);
		}
	}
}
