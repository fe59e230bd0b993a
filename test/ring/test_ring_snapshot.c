/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_snapshot.c - count, free_count and totals taken continuously
 * by a watcher thread while producers and consumers run, in every mode and
 * with every operation: counts stay in [0, capacity], one totals call never
 * shows more dequeued than enqueued, and the totals never go backwards
 * (ring.h, "Snapshots"). Also the clamp itself, on a ring whose positions
 * are put where a stale tail would leave them, for both kinds of ring.
 */
#include <grain/ring_elem.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdalign.h>

#include "../common/test_table.h"
#include "../common/test_util.h"
#include "stress.h"

struct snap_param {
	unsigned mode;
	enum stress_op op;
};

/* Every mode x every op. */
#define SNAP_OPS(mode)                                                \
	TABLE_ROW(mode, STRESS_SINGLE), TABLE_ROW(mode, STRESS_BULK), \
		TABLE_ROW(mode, STRESS_BURST), TABLE_ROW(mode, STRESS_WAIT)

static const struct snap_param snap_rows[] = {
	SNAP_OPS(GRAIN_RING_MPMC),
	SNAP_OPS(GRAIN_RING_MPSC),
	SNAP_OPS(GRAIN_RING_SPMC),
	SNAP_OPS(GRAIN_RING_SPSC),
};

TABLE_PARAMS(ring_snapshot, racing_watcher, snap_rows);

ParameterizedTest(struct snap_param *p, ring_snapshot, racing_watcher,
		  .timeout = 240)
{
	struct stress_cfg c = {
		.flags = p->mode,
		.producers = 2,
		.consumers = 2,
		.capacity = 16,
		.per_producer = test_scale(40000),
		.batch = p->op == STRESS_SINGLE ? 1 : 4,
		.op = p->op,
		.watch = true,
	};
	stress_run(&c);
	/* Near the 2^64 wrap the clamp works on signed differences. */
	c.start_pos = UINT64_MAX - 500;
	c.jitter = true;
	stress_run(&c);
}

Test(ring_snapshot, quiescent_exact)
{
	struct grain_ring *r = NULL;
	void *objs[8] = { 0 };
	uint64_t enq, deq;

	cr_assert_eq(grain_ring_create(&r, 8, GRAIN_RING_MPMC, NULL), 0);
	for (unsigned k = 0; k <= 8; k++) {
		cr_assert_eq(grain_ring_try_enqueue_burst(r, objs, k), (int)k);
		cr_assert_eq(grain_ring_count(r), k);
		cr_assert_eq(grain_ring_count(r) + grain_ring_free_count(r),
			     8u);
		cr_assert_eq(grain_ring_empty(r), k == 0);
		cr_assert_eq(grain_ring_full(r), k == 8);
		cr_assert_eq(grain_ring_try_dequeue_burst(r, objs, 8), (int)k);
	}
	grain_ring_totals(r, &enq, &deq);
	cr_assert_eq(enq, 36u);
	cr_assert_eq(deq, 36u);
	grain_ring_destroy(r);
}

Test(ring_snapshot, stale_tail_reads_empty)
{
	/* What a reader sees when its tail load is older than its head load:
	 * tail behind head. Before the clamp the unsigned difference was huge
	 * and the ring read full; it must read empty, and the totals equal. */
	struct grain_ring *r = NULL;
	uint64_t enq, deq;

	cr_assert_eq(grain_ring_create(&r, 8, GRAIN_RING_MPMC, NULL), 0);
	atomic_store(&r->cons.pos, 5);
	atomic_store(&r->prod.pos, 3);
	cr_assert_eq(grain_ring_count(r), 0u);
	cr_assert_eq(grain_ring_free_count(r), 8u);
	cr_assert(grain_ring_empty(r));
	cr_assert(!grain_ring_full(r));
	grain_ring_totals(r, &enq, &deq);
	cr_assert_eq(deq, 5u);
	cr_assert_eq(enq, 5u, "an enqueued total behind is raised");
	/* The same across the 2^64 wrap: head just past it, tail before. */
	atomic_store(&r->cons.pos, 2);
	atomic_store(&r->prod.pos, UINT64_MAX - 1);
	cr_assert_eq(grain_ring_count(r), 0u);
	/* And a tail read far ahead of the head caps at the capacity. */
	atomic_store(&r->cons.pos, UINT64_MAX - 1);
	atomic_store(&r->prod.pos, 100);
	cr_assert_eq(grain_ring_count(r), 8u);
	cr_assert_eq(grain_ring_free_count(r), 0u);
	/* Put the positions back where the slots say they are. */
	grain_impl_ring_reset(r, 0);
	cr_assert(grain_ring_empty(r));
	grain_ring_destroy(r);
}

Test(ring_snapshot, elem_snapshots_clamp)
{
	/* grain_ring_elem's snapshots promise the same range: a tail read
	 * behind the head reads empty, one far ahead reads full. */
	struct grain_ring_elem *e = NULL;

	cr_assert_eq(grain_ring_elem_create(&e, 8, 12, GRAIN_RING_MPMC, NULL),
		     0);
	atomic_store(&e->ring.cons.pos, 5);
	atomic_store(&e->ring.prod.pos, 3);
	cr_assert_eq(grain_ring_elem_count(e), 0u);
	cr_assert_eq(grain_ring_elem_free_count(e), 8u);
	cr_assert(grain_ring_elem_empty(e));
	cr_assert(!grain_ring_elem_full(e));
	atomic_store(&e->ring.cons.pos, 2);
	atomic_store(&e->ring.prod.pos, UINT64_MAX - 1);
	cr_assert_eq(grain_ring_elem_count(e), 0u);
	atomic_store(&e->ring.cons.pos, UINT64_MAX - 1);
	atomic_store(&e->ring.prod.pos, 100);
	cr_assert_eq(grain_ring_elem_count(e), 8u);
	cr_assert_eq(grain_ring_elem_free_count(e), 0u);
	cr_assert(grain_ring_elem_full(e));
	cr_assert(!grain_ring_elem_empty(e));
	/* Quiescent: exact, count + free_count is the capacity. */
	grain_impl_ring_reset(&e->ring, 0);
	alignas(8) unsigned char b[5 * 12] = { 0 };
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, b, 5), 0);
	cr_assert_eq(grain_ring_elem_count(e), 5u);
	cr_assert_eq(grain_ring_elem_free_count(e), 3u);
	grain_ring_elem_destroy(e);
}
