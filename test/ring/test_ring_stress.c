/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_stress.c - every mode under 1x1, 2x2, 4x4 and 8x8 threads
 * (8x8 is 16 threads on a 2-core machine: oversubscribed), with single,
 * bulk and burst operations, with and without random descheduling, and
 * across the 2^32 position boundary.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/test_util.h"
#include "stress.h"
#include "../common/test_table.h"

#define N_SINGLE 200000u

static const unsigned modes[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC,
				  GRAIN_RING_SPMC, GRAIN_RING_SPSC };
/* One row per mode x thread count; the op and jitter vary inside. */
struct matrix_param {
	unsigned mode, threads;
};

#define MATRIX_THREADS(mode)                                        \
	TABLE_ROW(mode, 1), TABLE_ROW(mode, 2), TABLE_ROW(mode, 4), \
		TABLE_ROW(mode, 8)

static const struct matrix_param matrix_rows[] = {
	MATRIX_THREADS(GRAIN_RING_MPMC),
	MATRIX_THREADS(GRAIN_RING_MPSC),
	MATRIX_THREADS(GRAIN_RING_SPMC),
	MATRIX_THREADS(GRAIN_RING_SPSC),
};

TABLE_PARAMS(ring_stress, single, matrix_rows);

ParameterizedTest(struct matrix_param *p, ring_stress, single, .timeout = 240)
{
	struct stress_cfg c = {
		.flags = p->mode,
		.producers = p->threads,
		.consumers = p->threads,
		.capacity = 64,
		.per_producer = test_scale(N_SINGLE / p->threads),
		.batch = 1,
		.op = STRESS_SINGLE,
	};
	stress_run(&c);
}

TABLE_PARAMS(ring_stress, bulk, matrix_rows);

ParameterizedTest(struct matrix_param *p, ring_stress, bulk, .timeout = 240)
{
	struct stress_cfg c = {
		.flags = p->mode,
		.producers = p->threads,
		.consumers = p->threads,
		.capacity = 64,
		.per_producer = test_scale(4 * N_SINGLE / p->threads),
		.batch = 8,
		.op = STRESS_BULK,
	};
	stress_run(&c);
}

TABLE_PARAMS(ring_stress, burst, matrix_rows);

ParameterizedTest(struct matrix_param *p, ring_stress, burst, .timeout = 240)
{
	/* A batch of 7 on a ring of 16 keeps bursts partial most of the
	 * time. */
	struct stress_cfg c = {
		.flags = p->mode,
		.producers = p->threads,
		.consumers = p->threads,
		.capacity = 16,
		.per_producer = test_scale(4 * N_SINGLE / p->threads),
		.batch = 7,
		.op = STRESS_BURST,
	};
	stress_run(&c);
}

TABLE_PARAMS(ring_stress, descheduled, matrix_rows);

ParameterizedTest(struct matrix_param *p, ring_stress, descheduled,
		  .timeout = 240)
{
	/* Random yields and sleeps in every thread: threads lose the CPU
	 * between claiming and publishing slots. */
	struct stress_cfg c = {
		.flags = p->mode,
		.producers = p->threads,
		.consumers = p->threads,
		.capacity = 32,
		.per_producer = test_scale(N_SINGLE / 2 / p->threads),
		.batch = 4,
		.op = STRESS_BURST,
		.jitter = true,
	};
	stress_run(&c);
	c.op = STRESS_SINGLE;
	stress_run(&c);
}

TABLE_PARAMS(ring_stress, wrap_32, modes);

ParameterizedTest(unsigned *mode, ring_stress, wrap_32, .timeout = 240)
{
	/* Positions start 1000 short of 2^32 and cross it many times over
	 * (the run is far longer than 1000 operations). */
	struct stress_cfg c = {
		.flags = *mode,
		.producers = 4,
		.consumers = 4,
		.capacity = 8,
		.per_producer = test_scale(20000),
		.batch = 3,
		.op = STRESS_BURST,
		.start_pos = (1ULL << 32) - 1000,
	};
	stress_run(&c);
}

Test(ring_stress, oversubscribed_mpmc, .timeout = 240)
{
	/* 16 producers and 16 consumers on a tiny ring: constant full/empty
	 * transitions, most threads preempted at any moment. */
	struct stress_cfg c = {
		.flags = GRAIN_RING_MPMC,
		.producers = 16,
		.consumers = 16,
		.capacity = 4,
		.per_producer = test_scale(5000),
		.batch = 2,
		.op = STRESS_BURST,
		.jitter = true,
	};
	stress_run(&c);
}
