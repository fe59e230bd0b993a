/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * adapters.h - the C side of the grain_prio benchmark as bench_prio.cc
 * calls it (plain C, no atomics): one prio_run() is one timed run of P
 * producers and one consumer on one priority queue in the shape of a
 * pfifo_fast qdisc. harness.c says what a run does and checks; the queues
 * are grain_adapter.c and baselines/pfifo_list.c.
 */
#ifndef GRAIN_BENCH_PRIO_ADAPTERS_H
#define GRAIN_BENCH_PRIO_ADAPTERS_H

#include "../../common/sysinfo.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum prio_impl {
	PRIO_BASE_SPIN,	 /* pfifo_list, one grain_spinlock */
	PRIO_BASE_MUTEX, /* pfifo_list, one pthread mutex */
	PRIO_GRAIN,	 /* grain_prio, 3 bands, GRAIN_PRIO_SC (scanned) */
	/* The same items on a grain_prio of PRIO_BITS_BANDS bands, which
	 * keeps the non-empty bits; bands 3.. stay empty. */
	PRIO_GRAIN_BITS,
	PRIO_IMPL_COUNT
};

enum prio_deq {
	PRIO_DEQ_SINGLE, /* one item per call */
	PRIO_DEQ_BURST,	 /* up to prio_config.burst items per call */
	PRIO_DEQ_COUNT
};

enum prio_placement {
	/* The consumer alone on CPU 0 (a transmit thread with a core of its
	 * own); producers pinned round robin to CPUs 1 .. n-1, so with more
	 * producers than those CPUs they take turns on them. On one CPU,
	 * everything shares CPU 0. */
	PRIO_PLACE_CONSUMER_CORE,
	PRIO_PLACE_FREE, /* no pinning: the scheduler places every thread */
	PRIO_PLACE_COUNT
};

#define PRIO_BANDS 3u
#define PRIO_BITS_BANDS 8u /* more than GRAIN_PRIO_SCAN_BANDS */
#define PRIO_MAX_PRODUCERS 64u
#define PRIO_MAX_BURST 256u
/* Items per producer pool: more than all bands can hold, plus a burst. */
#define PRIO_POOL_ITEMS 4096u

struct prio_config {
	unsigned producers; /* 1 .. PRIO_MAX_PRODUCERS */
	enum prio_deq deq;
	unsigned burst;	      /* 1 .. PRIO_MAX_BURST, for PRIO_DEQ_BURST */
	unsigned band_limit;  /* per band; a power of two (grain_prio) */
	unsigned duration_ms; /* from release to stop */
	enum prio_placement placement;
	/* What a producer does after its put failed (the item's band was
	 * full; the item is dropped either way): false, go on with the next
	 * item at once; true, call sched_yield() first, so that a thread
	 * that can move items (the consumer, where it shares the CPU) runs
	 * before this one tries again. */
	bool producer_yield;
};

struct prio_result {
	double seconds;	      /* from release to stop, CLOCK_MONOTONIC */
	double items_per_sec; /* dequeued by the consumer when it saw stop */
	uint64_t dequeued_band[PRIO_BANDS]; /* of those, per band */
	/* Enqueue attempts of the producers until they saw stop. */
	double attempts_per_sec;
	double drop_fraction; /* of the attempts */
	/* Dequeue calls that found nothing (before the stop), and those of
	 * them after 64 or more in a row (the consumer was yielding by then)
	 * while the queue still counted items: a producer had claimed the
	 * head slot of a band and not published it for that long (preempted
	 * in between), or, rarely, an item arrived just after the poll. A
	 * lock-based queue never has them (it reports 0). */
	uint64_t empty_polls, blocked_polls;
	/* CPU time the consumer was given from release to stop. */
	double consumer_cpu_seconds;
	uint64_t drained;     /* items taken after the producers stopped */
	double drain_seconds; /* from stop until every thread was joined */
	/* Failed checks (harness.c), by kind; errors, their sum, must be 0. */
	uint64_t order_errors, band_errors, count_errors, priority_errors;
	uint64_t stats_errors, errors;
};

/* One run, as harness.c describes it: 0 (then read *res, errors
 * included), -EINVAL for a bad config, or the negative errno of a queue
 * or thread that could not be created. Not concurrently with itself. */
int prio_run(enum prio_impl impl, const struct prio_config *cfg,
	     struct prio_result *res);

/* The priority stream: the share of the items (0..1) every producer gives
 * priority @prio (0..15), and the band pfifo_fast's map gives it. */
double prio_stream_share(unsigned prio);
unsigned prio_stream_band(unsigned prio);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_PRIO_ADAPTERS_H */
