/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr_ops.h - internal to bench/instr (C11): the single-threaded loops
 * whose instructions instr_ops counts, shared by instr_ops.c and the
 * anchors' files (instr_ck.c, instr_rte.c, each built with its library's
 * flags).
 *
 * A ring loop moves `pairs` tokens through a queue in rounds of
 * INSTR_ROUND: INSTR_ROUND enqueues, then INSTR_ROUND dequeues (single),
 * or one bulk enqueue and one burst dequeue of INSTR_ROUND (bulk). The
 * queue never holds more than INSTR_ROUND tokens, so no call fails, and
 * each queue runs the same sequence. The put/get functions are passed as
 * constants to always-inlined loops, as bench/adapters/harness.h does, so
 * each queue gets its own copy of the loop with its calls inlined.
 *
 * Every loop returns the number of operations that succeeded and adds the
 * tokens it dequeued to *sum; instr_ops.c checks both outside the counted
 * region.
 */
#ifndef GRAIN_BENCH_INSTR_OPS_H
#define GRAIN_BENCH_INSTR_OPS_H

#include <grain/common.h>

#include <stdint.h>

/** Tokens per round; a multiple of it is every loop's operation count. */
#define INSTR_ROUND 32u
/** Capacity of every bounded ring (as in the ring benchmark). */
#define INSTR_RING_CAPACITY 1024u

/** The token of position i in a round: never NULL (some queues refuse
 * NULL), and their sum is known. */
static inline void *instr_token(unsigned i)
{
	return (void *)(uintptr_t)(i + 1u);
}

typedef int (*instr_put_fn)(void *q, void *obj);
typedef int (*instr_get_fn)(void *q, void **objp);
typedef unsigned (*instr_put_bulk_fn)(void *q, void *const *objs, unsigned n);
typedef unsigned (*instr_get_burst_fn)(void *q, void **objs, unsigned n);

/* single: put and get return 0 on success. */
static GRAIN_ALWAYS_INLINE uint64_t instr_ring_single(void *q, uint64_t pairs,
						      uint64_t *sum,
						      instr_put_fn put,
						      instr_get_fn get)
{
	uint64_t done = 0;

	for (uint64_t r = 0; r < pairs / INSTR_ROUND; r++) {
		for (unsigned i = 0; i < INSTR_ROUND; i++)
			if (put(q, instr_token(i)) != 0)
				return done;
		for (unsigned i = 0; i < INSTR_ROUND; i++) {
			void *obj;
			if (get(q, &obj) != 0)
				return done;
			*sum += (uintptr_t)obj;
			done++;
		}
	}
	return done;
}

/* bulk: put moves all n or none and returns how many; get returns how
 * many it moved. */
static GRAIN_ALWAYS_INLINE uint64_t instr_ring_bulk(void *q, uint64_t pairs,
						    uint64_t *sum,
						    instr_put_bulk_fn put,
						    instr_get_burst_fn get)
{
	void *in[INSTR_ROUND], *out[INSTR_ROUND];
	uint64_t done = 0;

	for (unsigned i = 0; i < INSTR_ROUND; i++)
		in[i] = instr_token(i);
	for (uint64_t r = 0; r < pairs / INSTR_ROUND; r++) {
		if (put(q, in, INSTR_ROUND) != INSTR_ROUND)
			return done;
		if (get(q, out, INSTR_ROUND) != INSTR_ROUND)
			return done;
		for (unsigned i = 0; i < INSTR_ROUND; i++)
			*sum += (uintptr_t)out[i];
		done += INSTR_ROUND;
	}
	return done;
}

/* The anchors' files: a queue of INSTR_RING_CAPACITY usable slots or
 * NULL, and the loops above over it. */
void *instr_ck_create(void);
void instr_ck_destroy(void *q);
uint64_t instr_ck_single(void *q, uint64_t pairs, uint64_t *sum);

void *instr_rte_create(void);
void instr_rte_destroy(void *q);
uint64_t instr_rte_single(void *q, uint64_t pairs, uint64_t *sum);
uint64_t instr_rte_bulk(void *q, uint64_t pairs, uint64_t *sum);

#endif /* GRAIN_BENCH_INSTR_OPS_H */
