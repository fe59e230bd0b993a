/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stress.h - one stress harness for every grain_ring mode.
 *
 * P producers each enqueue N tokens (producer id, sequence); C consumers
 * dequeue until all P * N are out. Checked at the end, or as they happen:
 *   - every token is dequeued exactly once (a per-token counter);
 *   - per consumer, the tokens of each producer arrive in increasing order
 *     (FIFO: a consumer's claims move forward, and so do a producer's);
 *   - the ring is empty and its count is 0.
 * In SP (SC) mode several producer (consumer) threads share a mutex, which
 * is the "one at a time" handover the API allows.
 *
 * With cfg.watch set, one more thread takes snapshots (count, free_count,
 * totals) all through the run and checks what ring.h promises of a racing
 * snapshot; at the end the quiescent ring must read exactly empty.
 */
#ifndef GRAIN_TEST_RING_STRESS_H
#define GRAIN_TEST_RING_STRESS_H

#include <grain/ring.h>

#include <stdbool.h>

enum stress_op {
	STRESS_SINGLE, /* try_enqueue / try_dequeue */
	STRESS_BULK,   /* enqueue_bulk / dequeue_bulk (burst to finish) */
	STRESS_BURST,  /* enqueue_burst / dequeue_burst */
	STRESS_WAIT,   /* the _wait forms, with a generous timeout */
};

struct stress_cfg {
	unsigned flags;
	unsigned producers, consumers;
	unsigned per_producer;
	unsigned capacity;
	unsigned batch;
	enum stress_op op;
	bool jitter;	    /* random yields and short sleeps */
	uint64_t start_pos; /* ring positions start here (wrap tests) */
	bool watch;	    /* a snapshot thread runs alongside */
};

/* Runs one configuration; every failure is a Criterion assertion. */
void stress_run(const struct stress_cfg *cfg);

#endif
