/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_wrap.c - producers and consumers running across the 2^32 and
 * 2^64 position boundaries, in every mode and with every operation
 * (single, bulk, burst, the _wait forms): every token exactly once, FIFO
 * per producer, snapshots sane throughout. The positions start a little
 * short of the boundary (grain_impl_ring_reset()), so the crossing happens
 * with every thread running; some starts put the boundary inside the
 * first lap of the slots.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/test_table.h"
#include "../common/test_util.h"
#include "stress.h"

struct wrap_param {
	unsigned mode;
	enum stress_op op;
	uint64_t start;
};

/* The starts: 2^32 many laps ahead and inside the first lap, then 2^64
 * the same two ways. */
#define WRAP_STARTS(mode, op)                          \
	TABLE_ROW(mode, op, (1ULL << 32) - 1000),      \
		TABLE_ROW(mode, op, (1ULL << 32) - 3), \
		TABLE_ROW(mode, op, UINT64_MAX - 999), \
		TABLE_ROW(mode, op, UINT64_MAX - 2)
#define WRAP_OPS(mode)                                                    \
	WRAP_STARTS(mode, STRESS_SINGLE), WRAP_STARTS(mode, STRESS_BULK), \
		WRAP_STARTS(mode, STRESS_BURST),                          \
		WRAP_STARTS(mode, STRESS_WAIT)

/* Every mode x every op x every start. */
static const struct wrap_param wrap_rows[] = {
	WRAP_OPS(GRAIN_RING_MPMC),
	WRAP_OPS(GRAIN_RING_MPSC),
	WRAP_OPS(GRAIN_RING_SPMC),
	WRAP_OPS(GRAIN_RING_SPSC),
};

TABLE_PARAMS(ring_wrap, cross, wrap_rows);

ParameterizedTest(struct wrap_param *p, ring_wrap, cross, .timeout = 240)
{
	/* 3 x 3 threads on 2 cores, a ring of 8, batches of 3 (bulk and
	 * burst claims straddle the boundary), jitter so that threads are
	 * descheduled mid-claim right at it. */
	struct stress_cfg c = {
		.flags = p->mode,
		.producers = 3,
		.consumers = 3,
		.capacity = 8,
		.per_producer = test_scale(4000),
		.batch = p->op == STRESS_SINGLE ? 1 : 3,
		.op = p->op,
		.jitter = true,
		.start_pos = p->start,
		.watch = true,
	};
	stress_run(&c);
}
