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

#include "../common/test_util.h"
#include "stress.h"

struct wrap_param {
	unsigned mode;
	enum stress_op op;
	uint64_t start;
};

static const unsigned modes[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC,
				  GRAIN_RING_SPMC, GRAIN_RING_SPSC };
static const enum stress_op ops[] = { STRESS_SINGLE, STRESS_BULK, STRESS_BURST,
				      STRESS_WAIT };
static const uint64_t starts[] = {
	(1ULL << 32) - 1000, /* 2^32, many laps before */
	(1ULL << 32) - 3,    /* 2^32 inside the first lap */
	UINT64_MAX - 999,    /* 2^64, many laps before */
	UINT64_MAX - 2,	     /* 2^64 inside the first lap */
};

ParameterizedTestParameters(ring_wrap, cross)
{
	static struct wrap_param p[64];
	size_t n = 0;

	for (unsigned m = 0; m < 4; m++)
		for (unsigned o = 0; o < 4; o++)
			for (unsigned s = 0; s < 4; s++)
				p[n++] = (struct wrap_param){ modes[m], ops[o],
							      starts[s] };
	return cr_make_param_array(struct wrap_param, p, n);
}

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
