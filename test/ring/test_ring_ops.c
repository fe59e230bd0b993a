/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_ops.c - the copying calls of both kinds of ring as rows of one
 * table: ring kind (the pointer ring, and element rings of 4, 8, 16, 32
 * and 40 bytes) x mode (MPMC, MPSC, SPMC, SPSC, and MPMC and SPSC with
 * GRAIN_RING_WAIT) x shape (single, _bulk, _burst). Each test runs every
 * row: a new mode, shape or element size is one row, for every test.
 *
 *   fifo            order and counts while the ring wraps at every fill
 *                   level;
 *   full_and_empty  capacity, count and free_count at every level, full,
 *                   empty, refusals at both ends that write nothing;
 *   batch_limits    single and _bulk move all or nothing, _burst what
 *                   fits; a call for more than the capacity is refused;
 *   zero_counts     a call for no object moves nothing, on an empty, a
 *                   part-full and a full ring;
 *   wrap            positions that start just below 2^32 and 2^64.
 */
#define _GNU_SOURCE
#include <grain/ring.h>
#include <grain/ring_elem.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../common/test_table.h"
#include "ring_table.h"

static const struct ring_row ring_rows[] = {
	RING_ROWS(0), /* the pointer ring */
	RING_ROWS(4),  RING_ROWS(8),  RING_ROWS(16),
	RING_ROWS(32), RING_ROWS(40), /* not a power of two */
};

/* What a call of shape @p op that asked for n and moved k returns. */
static int moved_rc(enum ring_op op, unsigned n, unsigned k)
{
	if (op == RING_BURST)
		return (int)k;
	return k == n ? 0 : -EAGAIN;
}

/* The most one call of the row's shape may ask for. */
static unsigned shape_max(const struct ring_row *row, unsigned want)
{
	return row->op == RING_SINGLE ? 1 : want;
}

static void check_values(const uint32_t *got, uint32_t first, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		cr_assert_eq(got[i], first + i, "object %u of a batch", i);
}

TABLE_PARAMS(ring_ops, fifo, ring_rows);

/* Interleaved puts and gets of varying sizes, so that the ring wraps many
 * times at every fill level; objects come out in order. */
ParameterizedTest(const struct ring_row *row, ring_ops, fifo)
{
	struct any_ring a = any_of_row(row, 16);
	uint32_t next_in = 1, next_out = 1, v[16];

	for (unsigned round = 0; round < 200; round++) {
		unsigned puts = 1 + round % 16;
		while (puts > 0 && !any_full(&a)) {
			unsigned n = shape_max(row, puts);
			if (n > any_free_count(&a))
				n = any_free_count(&a);
			for (unsigned i = 0; i < n; i++)
				v[i] = next_in + i;
			cr_assert_eq(any_put_n(&a, row->op, v, n),
				     moved_rc(row->op, n, n));
			next_in += n;
			puts -= n;
		}
		unsigned gets = 1 + (round * 7) % 16;
		while (gets > 0 && !any_empty(&a)) {
			unsigned n = shape_max(row, gets);
			if (n > any_count(&a))
				n = any_count(&a);
			cr_assert_eq(any_get_n(&a, row->op, v, n),
				     moved_rc(row->op, n, n));
			check_values(v, next_out, n);
			next_out += n;
			gets -= n;
		}
		cr_assert_eq(any_count(&a), next_in - next_out);
	}
	any_destroy(&a);
}

TABLE_PARAMS(ring_ops, full_and_empty, ring_rows);

ParameterizedTest(const struct ring_row *row, ring_ops, full_and_empty)
{
	const unsigned cap = 8;
	struct any_ring a = any_of_row(row, cap);
	uint32_t v[8], out = 99;

	cr_assert_eq(any_capacity(&a), cap);
	if (a.elem)
		cr_assert_eq(grain_ring_elem_esize(a.e), row->esize);
	cr_assert(any_empty(&a));
	cr_assert_not(any_full(&a));
	/* A refused dequeue leaves its output alone (any_get_n checks the
	 * buffer, this the value). */
	cr_assert_eq(any_get_n(&a, row->op, &out, 1), moved_rc(row->op, 1, 0));
	cr_assert_eq(out, 99u, "a failed dequeue leaves *objp");
	for (uint32_t i = 0; i < cap; i++) {
		cr_assert_eq(any_count(&a), i);
		cr_assert_eq(any_free_count(&a), cap - i);
		v[0] = i + 1;
		cr_assert_eq(any_put_n(&a, row->op, v, 1),
			     moved_rc(row->op, 1, 1));
	}
	cr_assert(any_full(&a), "every slot is usable");
	cr_assert_eq(any_free_count(&a), 0u);
	v[0] = 100;
	cr_assert_eq(any_put_n(&a, row->op, v, 1), moved_rc(row->op, 1, 0));
	cr_assert_eq(any_count(&a), cap);
	for (uint32_t i = 0; i < cap; i++) {
		cr_assert_eq(any_get_n(&a, row->op, &out, 1),
			     moved_rc(row->op, 1, 1));
		cr_assert_eq(out, i + 1);
	}
	cr_assert(any_empty(&a));
	cr_assert_eq(any_get_n(&a, row->op, &out, 1), moved_rc(row->op, 1, 0));
	any_destroy(&a);
}

/* Single calls: one object at a time, refused when full or empty. */
static void single_limits(struct any_ring *a, unsigned cap)
{
	uint32_t v;

	for (uint32_t i = 0; i < cap; i++)
		cr_assert_eq(any_enqueue(a, 10 + i), 0);
	cr_assert_eq(any_enqueue(a, 1), -EAGAIN);
	cr_assert_eq(any_count(a), cap, "a refused enqueue adds nothing");
	for (uint32_t i = 0; i < cap; i++) {
		cr_assert_eq(any_dequeue(a, &v), 0);
		cr_assert_eq(v, 10 + i);
	}
	cr_assert_eq(any_dequeue(a, &v), -EAGAIN);
}

/* _bulk: all or nothing (capacity 8). */
static void bulk_limits(struct any_ring *a)
{
	uint32_t in[9], out[8]; /* in: one more than fits, for the refusal */

	for (uint32_t i = 0; i < 9; i++)
		in[i] = i + 10;
	cr_assert_eq(any_put_n(a, RING_BULK, in, 5), 0);
	cr_assert_eq(any_put_n(a, RING_BULK, in + 5, 4), -EAGAIN);
	cr_assert_eq(any_count(a), 5u, "a failed bulk adds nothing");
	cr_assert_eq(any_put_n(a, RING_BULK, in + 5, 3), 0);
	cr_assert(any_full(a));
	cr_assert_eq(any_put_n(a, RING_BULK, in, 1), -EAGAIN);

	cr_assert_eq(any_get_n(a, RING_BULK, out, 6), 0);
	check_values(out, 10, 6);
	/* any_get_n fails the test if the refused call wrote anything. */
	cr_assert_eq(any_get_n(a, RING_BULK, out, 3), -EAGAIN,
		     "a failed bulk writes nothing");
	cr_assert_eq(any_count(a), 2u, "a failed bulk removes nothing");
	cr_assert_eq(any_get_n(a, RING_BULK, out, 2), 0);
	check_values(out, 16, 2);
	cr_assert_eq(any_put_n(a, RING_BULK, in, 0), 0);
	cr_assert_eq(any_get_n(a, RING_BULK, out, 0), 0);
	cr_assert(any_empty(a));
}

/* _burst: as many as fit (capacity 8). */
static void burst_limits(struct any_ring *a)
{
	uint32_t in[20], out[20];

	for (uint32_t i = 0; i < 20; i++)
		in[i] = i + 1;
	cr_assert_eq(any_put_n(a, RING_BURST, in, 5), 5);
	cr_assert_eq(any_put_n(a, RING_BURST, in + 5, 10), 3,
		     "burst fills what is free");
	cr_assert_eq(any_put_n(a, RING_BURST, in + 8, 10), 0);
	cr_assert_eq(any_get_n(a, RING_BURST, out, 3), 3);
	cr_assert_eq(any_get_n(a, RING_BURST, out + 3, 20), 5);
	check_values(out, 1, 8);
	cr_assert_eq(any_get_n(a, RING_BURST, out, 20), 0);
	cr_assert_eq(any_put_n(a, RING_BURST, in, 0), 0);
}

TABLE_PARAMS(ring_ops, batch_limits, ring_rows);

ParameterizedTest(const struct ring_row *row, ring_ops, batch_limits)
{
	const unsigned cap = 8;
	struct any_ring a = any_of_row(row, cap);
	uint32_t v[ANY_MAX_N] = { 0 };

	if (row->op == RING_SINGLE)
		single_limits(&a, cap);
	else if (row->op == RING_BULK)
		bulk_limits(&a);
	else
		burst_limits(&a);
	/* More than the capacity can never be moved at once. */
	if (row->op == RING_BULK) {
		cr_assert_eq(any_put_n(&a, RING_BULK, v, cap + 1), -EINVAL,
			     "bulk larger than the ring can never succeed");
		cr_assert_eq(any_get_n(&a, RING_BULK, v, cap + 1), -EINVAL);
	}
	cr_assert(any_empty(&a), "no refused call changed the ring");
	any_destroy(&a);
}

TABLE_PARAMS(ring_ops, zero_counts, ring_rows);

/* Bulk and burst calls for no object, whatever the row's shape, on an
 * empty, a part-full and a full ring: they return 0 and move nothing. */
ParameterizedTest(const struct ring_row *row, ring_ops, zero_counts)
{
	const unsigned cap = 8;
	struct any_ring a = any_of_row(row, cap);
	uint32_t v[8] = { 0 };
	const unsigned fills[] = { 0, 3, cap };

	for (unsigned f = 0; f < 3; f++) {
		while (any_count(&a) < fills[f])
			cr_assert_eq(any_enqueue(&a, any_count(&a)), 0);
		for (enum ring_op op = RING_BULK; op <= RING_BURST; op++) {
			cr_assert_eq(any_put_n(&a, op, v, 0), 0);
			cr_assert_eq(any_get_n(&a, op, v, 0), 0);
			cr_assert_eq(any_count(&a), fills[f]);
		}
	}
	for (uint32_t i = 0; i < cap; i++) {
		uint32_t got;
		cr_assert_eq(any_get_n(&a, row->op, &got, 1),
			     moved_rc(row->op, 1, 1));
		cr_assert_eq(got, i);
	}
	any_destroy(&a);
}

/* Start the positions just below a wrap and run many laps across it,
 * with the row's shape. */
static void wrap_run(const struct ring_row *row, uint64_t start)
{
	struct any_ring a = any_of_row(row, 8);
	uint32_t next_in = 1, next_out = 1, v[5];

	grain_impl_ring_reset(any_ring_of(&a), start);
	for (unsigned lap = 0; lap < 64; lap++) {
		unsigned n = shape_max(row, 5);
		for (unsigned k = 0; k < 5; k += n) {
			for (unsigned i = 0; i < n; i++)
				v[i] = next_in + i;
			cr_assert_eq(any_put_n(&a, row->op, v, n),
				     moved_rc(row->op, n, n));
			next_in += n;
		}
		cr_assert_eq(any_count(&a), 5u);
		n = shape_max(row, 4);
		for (unsigned k = 0; k < 4; k += n) {
			cr_assert_eq(any_get_n(&a, row->op, v, n),
				     moved_rc(row->op, n, n));
			check_values(v, next_out, n);
			next_out += n;
		}
		while (any_dequeue(&a, v) == 0)
			cr_assert_eq(v[0], next_out++);
		cr_assert(any_empty(&a));
	}
	uint64_t tail = atomic_load(&any_ring_of(&a)->prod.pos);
	cr_assert_gt(tail - start, 64u * 5 - 1, "the run crossed the wrap");
	any_destroy(&a);
}

TABLE_PARAMS(ring_ops, wrap, ring_rows);

ParameterizedTest(const struct ring_row *row, ring_ops, wrap)
{
	wrap_run(row, UINT32_MAX - 20);
	wrap_run(row, (uint64_t)UINT32_MAX + 1 - 3);
	wrap_run(row, UINT64_MAX - 20);
	wrap_run(row, UINT64_MAX - 2);
}
